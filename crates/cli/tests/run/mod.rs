//! Running the `houserules` binary from a test: its output, or its
//! standard output after exit status 0, or its standard error after exit
//! status 2 (the CLI's refusal). Shared by the test files that run the
//! binary without a server.
#![allow(dead_code)]

use std::process::{Command, Output};

pub fn houserules(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_houserules"))
        .args(args)
        .output()
        .expect("the houserules binary runs")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

pub fn ok(args: &[&str]) -> String {
    let o = houserules(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "houserules {args:?}: {}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    text(&o.stdout)
}

pub fn fails(args: &[&str]) -> String {
    let o = houserules(args);
    assert_eq!(
        o.status.code(),
        Some(2),
        "houserules {args:?}: {}",
        text(&o.stdout)
    );
    text(&o.stderr)
}
