//! What differs between the desktop and the browser, in one place: choosing a file (the
//! system's dialog on the desktop; none in the browser yet, where the path field is the way)
//! and starting the window. The rest of the window does not know where it runs.

#[cfg(not(target_arch = "wasm32"))]
use super::{App, Options};
#[cfg(not(target_arch = "wasm32"))]
use eframe::egui;
use std::path::PathBuf;

/// A file to open, chosen in the system's dialog (shape sets first in its list); `None` where
/// no dialog can be shown (rfd answers at once without one; the browser has none here): the
/// path field remains.
pub fn pick_file() -> Option<PathBuf> {
    #[cfg(not(target_arch = "wasm32"))]
    return shape_set_dialog().pick_file();
    #[cfg(target_arch = "wasm32")]
    None
}

/// Where to save, chosen in the system's dialog; `None` as [`pick_file`].
pub fn save_file() -> Option<PathBuf> {
    #[cfg(not(target_arch = "wasm32"))]
    return shape_set_dialog().save_file();
    #[cfg(target_arch = "wasm32")]
    None
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
