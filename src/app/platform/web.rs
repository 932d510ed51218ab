//! The window in the browser: eframe's web runner on the page's canvas, the page's address
//! read as a link, files by the page's picker and downloads, the page's title and state
//! element kept in sync. Built by web/build.sh (the `collidoscope-web` crate in web/ calls
//! [`start`]).

use crate::app::{App, Options};
use crate::lesson::{LessonBundle, LessonSource};
use std::cell::RefCell;
use wasm_bindgen::JsCast as _;

/// The page's canvas the window draws on.
const CANVAS: &str = "collidoscope-canvas";
/// Where the page says the window could not start.
const PROBLEM: &str = "collidoscope-problem";
/// The element [`publish`] keeps in sync: its text is what the pair says now, its
/// `data-message` the status bar's message; the page title is the window's.
const STATE: &str = "collidoscope-state";
/// A lesson carried in the page (`lesson export --interactive`): a `<script
/// type="application/json">` holding a [`LessonBundle`].
const LESSON: &str = "collidoscope-lesson";

/// A file read for the window: its name and bytes, or why it could not be read.
type Opened = Result<(String, Vec<u8>), String>;

thread_local! {
    /// A file the picker gave, waiting for the window's next frame.
    static OPENED: RefCell<Option<Opened>> = const { RefCell::new(None) };
    /// The window's context, to wake it when a file arrives.
    static CONTEXT: RefCell<Option<eframe::egui::Context>> = const { RefCell::new(None) };
    /// What [`publish`] last wrote, so the page is touched only on a change.
    static PUBLISHED: RefCell<[String; 3]> = const { RefCell::new([String::new(), String::new(), String::new()]) };
}

/// Start the window on the page's canvas, opening what the page's address (or a lesson
/// carried in the page) asks for.
pub fn start() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let canvas = document
        .get_element_by_id(CANVAS)
        .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok());
    let Some(canvas) = canvas else {
        say_problem(&format!(
            "the page has no <canvas id=\"{CANVAS}\"> to draw in"
        ));
        return;
    };
    // A bug that stops the window says so on the page, not only in the console.
    let console = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        console(info);
        say_problem(&crate::app::words::window_stopped(&info.to_string()));
    }));
    let options = options_from_page(&document);
    wasm_bindgen_futures::spawn_local(async move {
        let started = eframe::WebRunner::new()
            .start(
                canvas,
                eframe::WebOptions {
                    // F11 is the browser's full screen (the window's own asks a desktop's).
                    should_prevent_default: Box::new(|event: &eframe::egui::Event| {
                        !matches!(
                            event,
                            eframe::egui::Event::Key {
                                key: eframe::egui::Key::F11,
                                ..
                            }
                        )
                    }),
                    ..eframe::WebOptions::default()
                },
                Box::new(|cc| {
                    let context = cc.egui_ctx.clone();
                    CONTEXT.with(|c| *c.borrow_mut() = Some(context));
                    Ok(Box::new(App::new(options)))
                }),
            )
            .await;
        if let Err(e) = started {
            say_problem(&format!("the window could not start: {e:?}"));
        }
    });
}

/// What the page asks for: its address's query as a link, a lesson it carries, and no data
/// folder (the browser has none; the window says so where it matters).
fn options_from_page(document: &web_sys::Document) -> Options {
    let link = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .filter(|q| !q.is_empty());
    let mut options = Options {
        no_data_dir: true,
        link,
        ..Options::default()
    };
    if let Some(carried) = document.get_element_by_id(LESSON) {
        let text = carried.text_content().unwrap_or_default();
        match serde_json::from_str::<LessonBundle>(&text) {
            Ok(bundle) => options.lesson = Some(LessonSource::Bundle(Box::new(bundle))),
            Err(e) => {
                options.problem = Some(crate::app::words::page_lesson_unreadable(&e.to_string()))
            }
        }
    }
    options
}

/// Put `text` where the page shows that the window could not start.
fn say_problem(text: &str) {
    let element = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(PROBLEM));
    if let Some(element) = element {
        element.set_text_content(Some(text));
        let _ = element.set_attribute("style", "display: block");
    }
}

/// Whether the page's main pointer is coarse: a finger's, on a phone or a tablet.
pub fn coarse_pointer() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(pointer: coarse)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// The page's local storage's key for the look the window was last shown in.
const LOOK: &str = "collidoscope-look";

/// The page's local storage, where the browser allows it (not in every private window).
fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Whether the window was last shown in the projector look on this site; `None` when
/// nothing was kept.
pub fn kept_projector() -> Option<bool> {
    let look = local_storage()?.get_item(LOOK).ok().flatten()?;
    Some(look == "projector")
}

/// Keep the look the window is shown in, for the next load of the page.
pub fn keep_projector(projector: bool) {
    if let Some(storage) = local_storage() {
        let look = if projector { "projector" } else { "window" };
        let _ = storage.set_item(LOOK, look);
    }
}

/// Open the page's file picker; the file chosen arrives by [`take_opened`].
pub fn pick_file() {
    wasm_bindgen_futures::spawn_local(async {
        let chosen = rfd::AsyncFileDialog::new()
            .add_filter("collidoscope", &["json", "rec", "jsonl", "gz"])
            .pick_file()
            .await;
        if let Some(file) = chosen {
            let bytes = file.read().await;
            arrived(Ok((file.file_name(), bytes)));
        }
    });
}

/// Read the first of the files dropped on the page; it arrives by [`take_opened`].
pub fn read_dropped(files: Vec<eframe::egui::DroppedFileHandle>) {
    let Some(file) = files.into_iter().next() else {
        return;
    };
    wasm_bindgen_futures::spawn_local(async move {
        let name = file.path().display().to_string();
        match file.bytes_async().await {
            Ok(bytes) => arrived(Ok((name, bytes))),
            Err(e) => arrived(Err(format!("{name} could not be read: {e}"))),
        }
    });
}

/// A file read: kept for the window's next frame, which is asked for now.
fn arrived(opened: Opened) {
    OPENED.with(|o| *o.borrow_mut() = Some(opened));
    CONTEXT.with(|c| {
        if let Some(context) = c.borrow().as_ref() {
            context.request_repaint();
        }
    });
}

/// The file the picker gave, once.
pub fn take_opened() -> Option<Opened> {
    OPENED.with(|o| o.borrow_mut().take())
}

/// Offer `bytes` as a download called `name`.
pub fn download(name: &str, bytes: &[u8]) -> Result<(), String> {
    let fail = |what: &str| format!("{name}: the browser refused the download ({what})");
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| fail("no page"))?;
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let kind = web_sys::BlobPropertyBag::new();
    kind.set_type("application/octet-stream");
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &kind)
        .map_err(|_| fail("no blob"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| fail("no address"))?;
    let anchor = document
        .create_element("a")
        .ok()
        .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        .ok_or_else(|| fail("no link"))?;
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// The page's address without its query: what a link's query follows.
pub fn page_address() -> String {
    web_sys::window()
        .map(|w| w.location())
        .and_then(|l| Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?)))
        .unwrap_or_default()
}

/// Put `query` in the page's address in place of its query (`history.replaceState`: nothing
/// loads, the history keeps one entry); an empty one leaves the bare address.
pub fn show_address(query: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(path) = window.location().pathname() else {
        return;
    };
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("{path}{query}")),
        );
    }
}

/// Keep the page's title and state element as the window is.
pub fn publish(title: &str, said: &str, message: &str) {
    let changed = PUBLISHED.with(|p| {
        let mut p = p.borrow_mut();
        let changed = p[0] != title || p[1] != said || p[2] != message;
        if changed {
            *p = [title.to_string(), said.to_string(), message.to_string()];
        }
        changed
    });
    if !changed {
        return;
    }
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    document.set_title(title);
    if let Some(state) = document.get_element_by_id(STATE) {
        state.set_text_content(Some(said));
        let _ = state.set_attribute("data-message", message);
    }
}
