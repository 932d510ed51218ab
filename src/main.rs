//! `collidoscope`: the command line, and (with no command, or just a file) the window.

use collidoscope::cli::{AfterArgs, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    match run(std::env::args_os()) {
        AfterArgs::Exit(code) => code,
        AfterArgs::OpenWindow(file) => open_window(file, None, (None, None), None, None),
        AfterArgs::Present(lesson) => open_window(None, Some(lesson), (None, None), None, None),
        AfterArgs::Live {
            file,
            follow,
            listen,
            link,
            compare,
        } => open_window(file, None, (follow, listen), link, compare),
    }
}

#[cfg(feature = "gui")]
fn open_window(
    file: Option<std::path::PathBuf>,
    lesson: Option<collidoscope::lesson::LessonSource>,
    (follow, listen): (Option<std::path::PathBuf>, Option<u16>),
    link: Option<String>,
    compare: Option<std::path::PathBuf>,
) -> ExitCode {
    let options = collidoscope::app::Options {
        file,
        lesson,
        follow,
        listen,
        link,
        compare,
        ..Default::default()
    };
    match collidoscope::app::run(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("collidoscope: cannot open the window: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Built without the window: the usage text instead.
#[cfg(not(feature = "gui"))]
fn open_window(
    _file: Option<std::path::PathBuf>,
    _lesson: Option<collidoscope::lesson::LessonSource>,
    _live: (Option<std::path::PathBuf>, Option<u16>),
    _link: Option<String>,
    _compare: Option<std::path::PathBuf>,
) -> ExitCode {
    collidoscope::cli::print_help();
    ExitCode::SUCCESS
}
