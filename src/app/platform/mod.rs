//! What differs between the desktop and the browser, in one place; the rest of the window does
//! not know where it runs.
//!
//! - Files: the system's dialog on the desktop (the path field where none can be shown); in
//!   the browser, a file chosen in the page's picker or dropped arrives as bytes
//!   ([`take_opened`]), and a save is a download ([`download`]).
//! - The data folder (recovery copy, recent list): the user's on the desktop; none in the
//!   browser, where the window says so. The projector look is kept in it on the desktop, and
//!   in the page's local storage in the browser ([`kept_projector`]).
//! - The clock: [`Instant`], std's on the desktop and the page's `performance.now()` in the
//!   browser (std's panics there).
//! - Threads: the core's work is started on threads where it can be and done on the window's
//!   own where it cannot (in the browser), by the labs themselves.
//! - Starting: [`run`] on the desktop; `web::start` in the browser (web/build.sh).
//! - The page's address: read as a link at the start, and following a lesson's slide
//!   ([`show_address`]).
//! - Touch: whether the page is a phone's before its first input ([`touch_first`]); F11 is
//!   left to the browser, whose full screen it is.
//! - The page: its title and a `#collidoscope-state` element (what the pair says; the status
//!   bar's message in its `data-message`) kept in sync with the window ([`publish`]), for
//!   screen readers and page tests.

#[cfg(not(target_arch = "wasm32"))]
use crate::app::{App, Options};
#[cfg(not(target_arch = "wasm32"))]
use eframe::egui;
use std::path::{Path, PathBuf};

#[cfg(target_arch = "wasm32")]
pub mod web;

/// The window's clock: std's on the desktop, the page's in the browser.
pub use web_time::Instant;

/// Whether files are read and written by path (the desktop), or arrive as bytes and leave as
/// downloads (the browser).
pub const HAS_FILES: bool = cfg!(not(target_arch = "wasm32"));

/// Whether the window runs in a web page (its words say so: a save is a download).
pub const IN_BROWSER: bool = cfg!(target_arch = "wasm32");

/// Whether fingers work the screen before any input has said so: in the browser, a page whose
/// main pointer is coarse (a phone's, a tablet's); never on the desktop. The first input then
/// says it (a touch, or a mouse's move).
pub fn touch_first() -> bool {
    #[cfg(target_arch = "wasm32")]
    return web::coarse_pointer();
    #[cfg(not(target_arch = "wasm32"))]
    false
}

/// A file to open, chosen in the system's dialog (shape sets first in its list); `None` where
/// no dialog can be shown (rfd answers at once without one), and in the browser, where the
/// page's picker is opened instead and its file arrives later by [`take_opened`].
pub fn pick_file() -> Option<PathBuf> {
    #[cfg(not(target_arch = "wasm32"))]
    return shape_set_dialog().pick_file();
    #[cfg(target_arch = "wasm32")]
    {
        web::pick_file();
        None
    }
}

/// Where to save, chosen in the system's dialog; `None` as [`pick_file`] (in the browser a
/// save is a [`download`]).
pub fn save_file() -> Option<PathBuf> {
    #[cfg(not(target_arch = "wasm32"))]
    return shape_set_dialog().save_file();
    #[cfg(target_arch = "wasm32")]
    None
}

/// The file to open of those dropped on the window: on the desktop the first with a path; in
/// the browser none at once: the first is read, and arrives by [`take_opened`].
pub fn open_dropped(files: Vec<eframe::egui::DroppedFileHandle>) -> Option<PathBuf> {
    #[cfg(target_arch = "wasm32")]
    {
        web::read_dropped(files);
        None
    }
    #[cfg(not(target_arch = "wasm32"))]
    files
        .iter()
        .map(|f| f.path().to_path_buf())
        .find(|p| !p.as_os_str().is_empty())
}

/// A file the page's picker gave (or one dropped on the page) since last asked: its name and
/// bytes, or why it could not be read. Never one on the desktop, where files open by path.
pub fn take_opened() -> Option<Result<(String, Vec<u8>), String>> {
    #[cfg(target_arch = "wasm32")]
    return web::take_opened();
    #[cfg(not(target_arch = "wasm32"))]
    None
}

/// Offer `bytes` to the user as a file called `name` (the browser's download).
///
/// # Errors
/// Where there is no browser to download from (the desktop saves by path), or it refused.
pub fn download(name: &str, bytes: &[u8]) -> Result<(), String> {
    #[cfg(target_arch = "wasm32")]
    return web::download(name, bytes);
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = bytes;
        Err(format!(
            "{name}: downloads are the browser's; here a file is saved by its path"
        ))
    }
}

/// Write the fixture of `scene`'s `pairs` (every pair when `None`) as [`crate::fixture::export`]
/// does: to `path` (and its Rust test, `rust`) on the desktop; in the browser, the fixture as a
/// download named as `path`'s file (a Rust test needs the project's folders: the desktop's).
/// Returns what was written, a line a file.
///
/// # Errors
/// What could not be written, naming the file.
pub fn export_fixture(
    scene: &crate::scene::Scene,
    pairs: Option<&[(usize, usize)]>,
    path: &std::path::Path,
    rust: Option<&std::path::Path>,
) -> Result<Vec<String>, String> {
    if HAS_FILES {
        return crate::fixture::export(
            scene,
            pairs,
            path,
            rust.map(crate::fixture::RustTest::plain),
        );
    }
    let made = crate::fixture::make(scene, pairs);
    let count = made.expect.as_ref().map_or(0, Vec::len);
    let name = path
        .file_name()
        .map_or("fixture.json".into(), |n| n.to_string_lossy().into_owned());
    download(&name, crate::scene::to_json(&made).as_bytes())?;
    let mut said = vec![crate::app::words::fixture_downloaded(
        &name,
        scene.shapes.len(),
        count,
    )];
    if rust.is_some() {
        said.push(
            "the Rust test is written by the desktop app (it needs your project's folders)".into(),
        );
    }
    Ok(said)
}

/// Where a link's query is put after: the page's own address in the browser; on the desktop
/// `COLLIDOSCOPE_WEB_URL` if set, else where `web/build.sh`'s folder is served by
/// `python3 -m http.server` (http://127.0.0.1:8000/).
pub fn link_base() -> String {
    #[cfg(target_arch = "wasm32")]
    return web::page_address();
    #[cfg(not(target_arch = "wasm32"))]
    std::env::var("COLLIDOSCOPE_WEB_URL").unwrap_or_else(|_| "http://127.0.0.1:8000/".into())
}

/// Put `query` (`?lesson=NAME&slide=K`, or empty) in the page's address in place of its own,
/// without loading anything or adding to the history: a reload then opens what it says.
/// Nothing on the desktop, which has no address.
pub fn show_address(query: &str) {
    #[cfg(target_arch = "wasm32")]
    web::show_address(query);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = query;
}

/// The data folder's mark that the window was last shown in the projector look.
#[cfg(not(target_arch = "wasm32"))]
const PROJECTOR_MARK: &str = "projector-look";

/// Whether the window was last shown in the projector look, as [`keep_projector`] kept it: in
/// the page's local storage in the browser (a reload keeps the room's look), in the data
/// folder on the desktop (`data_dir`; none kept without one). `None` when nothing was kept.
pub fn kept_projector(data_dir: Option<&Path>) -> Option<bool> {
    #[cfg(target_arch = "wasm32")]
    {
        let _ = data_dir;
        web::kept_projector()
    }
    #[cfg(not(target_arch = "wasm32"))]
    data_dir.map(|d| d.join(PROJECTOR_MARK).exists())
}

/// Keep whether the window is shown in the projector look, for the next start (see
/// [`kept_projector`]). A look that cannot be kept (storage refused, a folder not writable)
/// is simply not kept: the window works the same.
pub fn keep_projector(data_dir: Option<&Path>, projector: bool) {
    #[cfg(target_arch = "wasm32")]
    {
        let _ = data_dir;
        web::keep_projector(projector);
    }
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(dir) = data_dir {
        let mark = dir.join(PROJECTOR_MARK);
        if projector {
            let _ = std::fs::create_dir_all(dir);
            let _ = std::fs::write(mark, "the window was last shown in the projector look\n");
        } else {
            let _ = std::fs::remove_file(mark);
        }
    }
}

/// Show the window's state to the page around it: its title (the document's, or the lesson's
/// slide), what the pair says now (the verdict, or the axis step mode is at) and the status
/// bar's message. Nothing on the desktop, where the title is the window's.
pub fn publish(title: &str, said: &str, message: &str) {
    #[cfg(target_arch = "wasm32")]
    web::publish(title, said, message);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (title, said, message);
}

/// The system dialog for choosing a shape-set file.
#[cfg(not(target_arch = "wasm32"))]
fn shape_set_dialog() -> rfd::FileDialog {
    rfd::FileDialog::new().add_filter("shape set", &["json"])
}

/// Open the window on the desktop (blocking until it closes).
#[cfg(not(target_arch = "wasm32"))]
pub fn run(options: Options) -> eframe::Result {
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1280.0, 800.0])
            // A lesson is presented on the whole screen (a projector's).
            .with_maximized(options.lesson.is_some())
            .with_min_inner_size([480.0, 360.0])
            .with_title("collidoscope")
            .with_drag_and_drop(true),
        ..Default::default()
    };
    eframe::run_native(
        "collidoscope",
        native,
        Box::new(|_| Ok(Box::new(App::new(options)))),
    )
}
