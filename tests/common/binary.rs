//! The real `collidoscope` binary, run from the repository's root, and its output as text.
//! Included by the tests that run it (`#[path = "common/binary.rs"] mod binary;`).
#![allow(dead_code)]

use std::process::{Command, Output};

/// Run `collidoscope` with `args` in the repository's root.
pub fn collidoscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

/// What it printed on stdout.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// What it printed on stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}
