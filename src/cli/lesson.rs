//! `collidoscope lesson FILE` (presented in the window), `collidoscope lesson list` and
//! `collidoscope lesson export`: the lessons the program carries, and a lesson as a web page
//! (docs/format.md, "Lessons").

use crate::lesson::{BUILT_IN, Lesson, LessonBundle, LessonSource, builtin, page};
use clap::{Args, Subcommand};
use std::io::Write;
use std::path::PathBuf;

/// The command's arguments: a lesson to present in the window, or what to do with lessons.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct LessonArgs {
    /// What to do with lessons.
    #[command(subcommand)]
    pub command: Option<LessonCommand>,
    /// A lesson file to present in the window.
    #[arg(conflicts_with = "builtin")]
    pub file: Option<PathBuf>,
    /// A built-in lesson to present in the window, by the name `lesson list` prints.
    #[arg(long, value_name = "NAME")]
    pub builtin: Option<String>,
}

/// The lesson `collidoscope lesson FILE` (or `--builtin NAME`) presents, read and checked
/// before the window opens: `Err` with the status to exit with, the problem printed.
pub fn to_present(args: &LessonArgs) -> Result<LessonSource, u8> {
    let source = match (&args.file, &args.builtin) {
        (_, Some(name)) => match builtin(name) {
            Some(_) => LessonSource::BuiltIn(name.clone()),
            None => {
                unknown_builtin("lesson", name);
                return Err(2);
            }
        },
        (Some(file), None) => LessonSource::File(file.clone()),
        (None, None) => {
            eprintln!(
                "collidoscope lesson: name a lesson file to present, --builtin NAME, or a command (list, export); see collidoscope lesson --help"
            );
            return Err(2);
        }
    };
    match source.load() {
        Ok(_) => Ok(source),
        Err(e) => {
            eprintln!("{e}");
            Err(1)
        }
    }
}

/// Say that there is no built-in lesson called `name`, and which there are.
fn unknown_builtin(command: &str, name: &str) {
    let names: Vec<&str> = BUILT_IN.iter().map(|b| b.name).collect();
    eprintln!(
        "collidoscope {command}: --builtin {name}: no such lesson; the built-in lessons are {}",
        names.join(", ")
    );
}

/// What `lesson` does.
#[derive(Debug, Subcommand)]
pub enum LessonCommand {
    /// Print the built-in lessons, one a line: the name `--builtin` takes, a space, the title.
    List,
    /// Write a lesson as one self-contained web page, DIR/index.html; or, with --interactive,
    /// as the web app presenting it, its shapes draggable.
    #[command(after_help = "\
Examples:
  collidoscope lesson export lessons/my-lesson.json -o site/sat
  collidoscope lesson export --builtin circles-corner-axis -o site/corners
  web/build.sh && collidoscope lesson export --interactive lessons/my-lesson.json -o site/live

The page needs no network: pictures, style and script are inside it, and it works opened
from the disk. Right, Page Down and Space step through a slide's steps, then the slides;
Left and Page Up go back.

With --interactive the folder holds the web app (from web/build.sh's folder, --web) with the
lesson and every file it names inside its index.html: the same slides, steps and keys as
presenter mode, the shapes draggable, R restoring the slide. Serve the folder with any static
server (python3 -m http.server); a browser does not run WebAssembly opened from the disk.")]
    Export(ExportArgs),
}

/// `lesson export`'s arguments.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// A lesson file.
    #[arg(required_unless_present = "builtin", conflicts_with = "builtin")]
    pub file: Option<PathBuf>,
    /// A built-in lesson, by the name `lesson list` prints.
    #[arg(long, value_name = "NAME")]
    pub builtin: Option<String>,
    /// The folder to write index.html in (made if missing).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Write the web app presenting the lesson, its shapes draggable, instead of a page of
    /// pictures.
    #[arg(long)]
    pub interactive: bool,
    /// With --interactive: the web app's folder, as web/build.sh writes it.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "target/web",
        requires = "interactive"
    )]
    pub web: PathBuf,
}

/// Run a lesson command: 0 done; 1 a lesson refused or the page not written; 2 an unknown
/// built-in lesson.
pub fn run(command: &LessonCommand, out: &mut impl Write) -> u8 {
    match command {
        LessonCommand::Export(export) => run_export(export, out),
        LessonCommand::List => {
            for b in BUILT_IN {
                match b.lesson() {
                    Ok(lesson) => {
                        let _ = writeln!(out, "{} {}", b.name, lesson.title);
                    }
                    Err(e) => {
                        eprintln!("{e}");
                        return 1;
                    }
                }
            }
            0
        }
    }
}

/// `lesson export`: the page written atomically into its folder.
fn run_export(args: &ExportArgs, out: &mut impl Write) -> u8 {
    if args.interactive {
        return run_interactive_export(args, out);
    }
    let lesson = match (&args.file, &args.builtin) {
        (_, Some(name)) => match builtin(name) {
            Some(b) => b.lesson(),
            None => {
                unknown_builtin("lesson export", name);
                return 2;
            }
        },
        (Some(file), None) => Lesson::load(file),
        (None, None) => unreachable!("clap requires a file or --builtin"),
    };
    let lesson = match lesson {
        Ok(lesson) => lesson,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let dir = &args.output;
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("{}: cannot make the folder: {e}", dir.display());
        return 1;
    }
    let index = dir.join("index.html");
    if let Err(e) = crate::files::write_atomically(&index, page(&lesson).as_bytes()) {
        eprintln!("{}: cannot write the page: {e}", index.display());
        return 1;
    }
    let _ = writeln!(
        out,
        "wrote {} ({} slides)",
        index.display(),
        lesson.slides.len()
    );
    0
}

/// The page's mark where a carried lesson goes (web/index.html).
const LESSON_MARK: &str = "<!--LESSON-->";

/// `lesson export --interactive`: the web app's files copied into the folder, the lesson (with
/// every file it names) inside its index.html. Each file is written atomically.
fn run_interactive_export(args: &ExportArgs, out: &mut impl Write) -> u8 {
    let source = match (&args.file, &args.builtin) {
        (_, Some(name)) if builtin(name).is_none() => {
            unknown_builtin("lesson export", name);
            return 2;
        }
        (_, Some(name)) => LessonSource::BuiltIn(name.clone()),
        (Some(file), None) => LessonSource::File(file.clone()),
        (None, None) => unreachable!("clap requires a file or --builtin"),
    };
    let (bundle, lesson) = match LessonBundle::gather(&source).and_then(|b| {
        let lesson = LessonSource::Bundle(Box::new(b.clone())).load()?;
        Ok((b, lesson))
    }) {
        Ok(both) => both,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let web = &args.web;
    let index = web.join("index.html");
    let page = match std::fs::read_to_string(&index) {
        Ok(page) if page.contains(LESSON_MARK) => page,
        Ok(_) => {
            eprintln!(
                "{}: not the web app's page (it has no {LESSON_MARK} mark); build it with web/build.sh",
                index.display()
            );
            return 1;
        }
        Err(e) => {
            eprintln!(
                "{}: cannot read the web app's page ({e}); build it first with web/build.sh, or name its folder with --web DIR",
                index.display()
            );
            return 1;
        }
    };
    // Inside a <script> element, "</" would end it early: JSON writes it "<\/".
    let carried = serde_json::to_string(&bundle)
        .expect("a lesson bundle is plain text")
        .replace("</", "<\\/");
    let page = page.replace(
        LESSON_MARK,
        &format!("<script type=\"application/json\" id=\"collidoscope-lesson\">{carried}</script>"),
    );
    let dir = &args.output;
    let mut written = 0;
    let mut copy = |from: &std::path::Path, to: &std::path::Path| -> Result<(), String> {
        let bytes = if from.ends_with(PACKED_WASM) && !is_fresh(from, &web.join(WEB_FILES[1])) {
            // A web folder built before the page fetched the wasm compressed (or the wasm
            // rebuilt since): compressed here.
            let wasm = web.join(WEB_FILES[1]);
            let plain = std::fs::read(&wasm)
                .map_err(|e| format!("{}: cannot read it: {e}", wasm.display()))?;
            gzip(&plain)
        } else {
            std::fs::read(from).map_err(|e| format!("{}: cannot read it: {e}", from.display()))?
        };
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("{}: cannot make the folder: {e}", parent.display()))?;
        }
        crate::files::write_atomically(to, &bytes)
            .map_err(|e| format!("{}: cannot write it: {e}", to.display()))?;
        written += bytes.len();
        Ok(())
    };
    let mut copied = WEB_FILES
        .iter()
        .chain([&PACKED_WASM])
        .try_for_each(|name| copy(&web.join(name), &dir.join(name)));
    if copied.is_ok() {
        copied =
            crate::files::write_atomically(&dir.join("index.html"), page.as_bytes()).map_err(|e| {
                format!(
                    "{}: cannot write the page: {e}",
                    dir.join("index.html").display()
                )
            });
    }
    if let Err(e) = copied {
        eprintln!("{e}");
        return 1;
    }
    let _ = writeln!(
        out,
        "wrote {} ({} slides, {} files named by the lesson inside it) with the web app beside it ({} KiB); serve the folder: cd {} && python3 -m http.server",
        dir.join("index.html").display(),
        lesson.slides.len(),
        bundle.files.len(),
        (written + page.len()) / 1024,
        dir.display()
    );
    0
}

/// The web app's files beside its page (web/build.sh's folder).
const WEB_FILES: [&str; 2] = ["pkg/collidoscope_web.js", "pkg/collidoscope_web_bg.wasm"];

/// The wasm gzipped, which the page fetches and unpacks itself (web/index.html), so that a
/// server compressing nothing sends about a third of the plain one.
const PACKED_WASM: &str = "pkg/collidoscope_web_bg.wasm.gz";

/// Whether `packed` is there and not older than `plain`, which it was made from.
fn is_fresh(packed: &std::path::Path, plain: &std::path::Path) -> bool {
    let modified = |p: &std::path::Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    matches!((modified(packed), modified(plain)), (Some(a), Some(b)) if a >= b)
}

/// `bytes` gzipped, as `gzip -9` would.
fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut packer = flate2::write::GzEncoder::new(
        Vec::with_capacity(bytes.len() / 3),
        flate2::Compression::best(),
    );
    packer
        .write_all(bytes)
        .expect("writing to memory does not fail");
    packer.finish().expect("writing to memory does not fail")
}
