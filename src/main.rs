//! `collidoscope`: the command line, and (with no command) the window.

use collidoscope::cli::{Outcome, print_help, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    match run(std::env::args_os()) {
        Outcome::Exit(code) => code,
        Outcome::OpenWindow(_) => {
            // The window arrives with the `gui` feature's app; until then, the usage text.
            print_help();
            ExitCode::SUCCESS
        }
    }
}
