//! The condition language: syntax ([`parse`]), type-checking and
//! evaluation ([`check`]).

pub mod ast;
pub mod check;
pub mod parse;
