//! `collidoscope check FILE...`: validate only.

use crate::scene;
use std::io::Write;
use std::path::PathBuf;

/// Print `FILE: OK (N shapes)` or the error for each file; 1 when any is refused.
pub fn run(files: &[PathBuf], out: &mut impl Write) -> u8 {
    let mut status = 0;
    for file in files {
        match scene::load(file) {
            Ok(s) => {
                let _ = writeln!(out, "{}: OK ({} shapes)", file.display(), s.shapes.len());
            }
            Err(e) => {
                let _ = writeln!(out, "{e}");
                status = 1;
            }
        }
    }
    status
}
