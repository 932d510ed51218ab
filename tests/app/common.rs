//! What every window test uses: the example files, a harness at 1280x800, a drag, typing
//! into a labelled field, a menu click.

pub use collidoscope::app::{
    App, Command, MotionCommand, Options, PlaybackCommand, RunSettings, TimelineId,
};
pub use collidoscope::geometry::DVec2;
pub use eframe::egui::{self, Key, Modifiers, accesskit::Role};
pub use egui_kittest::Harness;
pub use egui_kittest::kittest::Queryable;
pub use std::path::{Path, PathBuf};

pub fn shapes(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("shapes")
        .join(name)
}

pub fn app(file: Option<PathBuf>) -> App {
    App::new(Options {
        file,
        no_data_dir: true,
        ..Default::default()
    })
}

pub fn harness(app: App) -> Harness<'static, App> {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_render_cursor(false)
        .build_ui_state(|ui, app: &mut App| app.ui_for_test(ui), app);
    harness.run();
    harness
}

/// A harness of `size` points; its first frames run a few at a time (the status bar's timed
/// messages keep the window from settling, so `run` would wait for nothing).
pub fn harness_at(app: App, size: (f32, f32)) -> Harness<'static, App> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(size.0, size.1))
        .with_render_cursor(false)
        .build_ui_state(|ui, app: &mut App| app.ui_for_test(ui), app);
    h.run_steps(3);
    h
}

/// Press on `from`, move in steps to `to`, release.
pub fn drag(harness: &mut Harness<'static, App>, from: DVec2, to: DVec2) {
    drag_with(harness, from, to, |h| {
        h.run();
    });
}

/// [`drag`], running each frame with `run` (`Harness::run` waits for the window to settle,
/// which a timed status message keeps it from doing).
pub fn drag_with(
    harness: &mut Harness<'static, App>,
    from: DVec2,
    to: DVec2,
    run: impl Fn(&mut Harness<'static, App>),
) {
    let start = harness.state().world_to_screen(from);
    let end = harness.state().world_to_screen(to);
    harness.hover_at(start);
    run(harness);
    harness.drag_at(start);
    run(harness);
    for k in 1..=10 {
        harness.hover_at(start.lerp(end, k as f32 / 10.0));
        run(harness);
    }
    harness.drop_at(end);
    run(harness);
}

/// Focus the path field and type `text` into it.
pub fn type_into_path_field(harness: &mut Harness<'static, App>, text: &str) {
    harness
        .get_by_role_and_label(Role::TextInput, "File:")
        .focus();
    harness.run();
    harness
        .get_by_role_and_label(Role::TextInput, "File:")
        .type_text(text);
}

// The bugs a first session with the window hit, each reproduced as a person would meet it.

/// A copy of `name` from shapes/ in a fresh folder.
pub fn copy_of(name: &str, dir: &Path) -> PathBuf {
    let path = dir.join(name);
    std::fs::copy(shapes(name), &path).unwrap();
    path
}

pub fn click_menu(h: &mut Harness<'static, App>, menu: &str, item: &str) {
    h.get_by_label(menu).click();
    h.run();
    h.get_by_label(item).click();
    h.run();
}

/// Focus the text field labelled `label`, select what it holds and type over it.
pub fn type_into_field(h: &mut Harness<'static, App>, label: &str, text: &str) {
    h.get_by_role_and_label(Role::TextInput, label).focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_role_and_label(Role::TextInput, label)
        .type_text(text);
    h.run();
}

pub fn ball_radius(app: &App) -> f64 {
    let ball = app
        .scene()
        .shapes
        .iter()
        .find(|s| s.name.as_deref() == Some("ball"))
        .unwrap();
    match &ball.placed.shape {
        collidoscope::geometry::Shape::Circle(c) => c.radius(),
        other => panic!("ball is a circle, not {other:?}"),
    }
}

/// Show stop `k` of `timeline`, as a click on its scrubber does, and let the window catch up.
pub fn seek(h: &mut Harness<'static, App>, timeline: TimelineId, k: u64) {
    h.state_mut()
        .run(Command::Playback(timeline, PlaybackCommand::Seek(k)));
    h.run_steps(2);
    settle(h);
}

/// Wait for the latency lab's engine (it works on a thread of its own), then a frame.
pub fn settle(h: &mut Harness<'static, App>) {
    h.state_mut().settle_latency();
    h.run_steps(1);
}

/// The mouse over `at`, its wheel turned `turns` times by 100 points toward the end of what
/// is under it (a panel scrolled down, as a user would).
pub fn wheel_down(h: &mut Harness<'static, App>, at: egui::Pos2, turns: usize) {
    h.hover_at(at);
    for _ in 0..turns {
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, -100.0),
            modifiers: Modifiers::NONE,
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Wheel,
        });
        h.run_steps(1);
    }
    h.run_steps(2);
}

/// A click at `at` (a press and a release there), the window running between.
pub fn click_at(h: &mut Harness<'static, App>, at: egui::Pos2) {
    h.hover_at(at);
    h.run_steps(1);
    h.drag_at(at);
    h.run_steps(1);
    h.drop_at(at);
    h.run_steps(1);
}
