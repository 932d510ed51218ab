//! collidoscope in the browser: the page's module calls [`start`] once loaded, and the window
//! (the same app as the desktop's) draws on the page's canvas. See web/build.sh.

use wasm_bindgen::prelude::wasm_bindgen;

/// Start the window on the page's `<canvas id="collidoscope-canvas">`, opening what the page's
/// address asks for (`?lesson=NAME&slide=K`, `?example=NAME`, `?scene=...`).
#[wasm_bindgen(start)]
pub fn start() {
    #[cfg(target_arch = "wasm32")]
    collidoscope::app::start_web();
}
