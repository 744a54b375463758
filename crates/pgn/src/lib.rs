//! PGN.
