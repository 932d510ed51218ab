//! The real window, driven like a person would through egui_kittest: drag, step, open, undo.
#![cfg(feature = "gui")]

use collidoscope::app::{App, Options};
use collidoscope::geometry::DVec2;
use eframe::egui::{self, Key, Modifiers, accesskit::Role};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};

fn shapes(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("shapes")
        .join(name)
}

fn app(file: Option<PathBuf>) -> App {
    App::new(Options {
        file,
        no_data_dir: true,
        ..Default::default()
    })
}

fn harness(app: App) -> Harness<'static, App> {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_render_cursor(false)
        .build_ui_state(|ui, app: &mut App| app.ui_for_test(ui), app);
    harness.run();
    harness
}

/// Press on `from`, move in steps to `to`, release.
fn drag(harness: &mut Harness<'static, App>, from: DVec2, to: DVec2) {
    drag_with(harness, from, to, |h| {
        h.run();
    });
}

/// [`drag`], running each frame with `run` (`Harness::run` waits for the window to settle,
/// which a timed status message keeps it from doing).
fn drag_with(
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
fn type_into_path_field(harness: &mut Harness<'static, App>, text: &str) {
    harness
        .get_by_role_and_label(Role::TextInput, "File:")
        .focus();
    harness.run();
    harness
        .get_by_role_and_label(Role::TextInput, "File:")
        .type_text(text);
}

#[test]
fn dragging_a_shape_onto_another_turns_the_pair_intersecting() {
    // corner-false-positive: a ball just off a square's corner, apart.
    let mut h = harness(app(Some(shapes("corner-false-positive.json"))));
    assert!(!h.state().report().unwrap().sat.intersecting());
    let ball = h.state().scene().shapes[1].placed.pose.position;
    drag(&mut h, ball, DVec2::new(0.9, 1.1));
    let app = h.state();
    let moved = app.scene().shapes[1].placed.pose.position;
    // To a few points: egui starts a drag once the pointer has moved a little.
    let slack = 8.0 / app.camera().scale;
    assert!(
        moved.distance(DVec2::new(0.9, 1.1)) < slack,
        "the ball followed the pointer to {moved} (slack {slack})"
    );
    let report = app.report().unwrap();
    assert!(report.sat.intersecting(), "{:?}", report.sat.verdict);
    // The ball sits over the top edge now: pushed out upward, out of the square.
    assert!(report.sat.mtv.unwrap().normal.y > 0.5);
    assert!(app.is_dirty());
}

#[test]
fn undo_restores_a_drag_and_redo_applies_it_again() {
    let mut h = harness(app(Some(shapes("corner-false-positive.json"))));
    let before = h.state().scene().shapes[1].placed.pose.position;
    drag(&mut h, before, DVec2::new(0.9, 1.1));
    let after = h.state().scene().shapes[1].placed.pose.position;
    assert_ne!(before, after);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().scene().shapes[1].placed.pose.position, before);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(h.state().scene().shapes[1].placed.pose.position, after);
}

#[test]
fn step_mode_walks_the_axes_with_the_buttons() {
    let mut h = harness(app(None));
    let total = h.state().report().unwrap().sat.axes.len();
    assert_eq!(h.state().step(), None);
    h.get_by_label("Next").click();
    h.run();
    assert_eq!(h.state().step(), Some(0));
    h.get_by_label_contains(&format!("Axis 1 of {total}: normal of edge 0 of obstacle."));
    h.get_by_label("Next").click();
    h.run();
    assert_eq!(h.state().step(), Some(1));
    h.get_by_label_contains(&format!("Axis 2 of {total}"));
    h.get_by_label("Previous").click();
    h.run();
    assert_eq!(h.state().step(), Some(0));
    // Past the last axis comes the verdict.
    for _ in 0..total + 2 {
        h.get_by_label("Next").click();
        h.run();
    }
    assert_eq!(h.state().step(), Some(total));
    assert!(
        h.query_all_by_label_contains("the MTV moves ball by 0.3")
            .count()
            >= 1
    );
}

#[test]
fn a_file_opens_through_the_path_field() {
    let mut h = harness(app(None));
    let path = shapes("triangles-slanted-gap.json");
    type_into_path_field(&mut h, path.to_str().unwrap());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    let app = h.state();
    assert_eq!(app.path(), Some(path.as_path()));
    assert_eq!(app.scene().shapes.len(), 2);
    assert_eq!(app.scene().shapes[0].name.as_deref(), Some("left"));
    assert!(!app.report().unwrap().sat.intersecting());
    assert!(!app.message().unwrap().error);
}

#[test]
fn a_bad_file_shows_its_error_and_keeps_the_scene() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, r#"{"format": "collidoscope-shapes", "version": 1, "shapes": [{"name": "hull", "kind": "polygon", "points": [[0, 0], [4, 0], [4, 4], [2, 1], [0, 4]]}]}"#).unwrap();
    let mut h = harness(app(None));
    let before = h.state().scene().clone();
    type_into_path_field(&mut h, bad.to_str().unwrap());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    let message = h.state().message().unwrap().clone();
    assert!(message.error);
    assert_eq!(
        message.text,
        format!(
            "{}: shape 0 \"hull\" (polygon): not convex at point 3 (turns the other way)",
            bad.display()
        )
    );
    assert_eq!(h.state().scene(), &before);
    h.get_by_label_contains("not convex at point 3");
}

#[test]
fn saving_through_the_path_field_writes_the_file_and_clears_the_unsaved_mark() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("saved.json");
    let mut h = harness(app(Some(shapes("corner-false-positive.json"))));
    let ball = h.state().scene().shapes[1].placed.pose.position;
    drag(&mut h, ball, DVec2::new(2.0, 2.0));
    assert!(h.state().is_dirty());
    // The field holds the opened file's path: select it all, then type over it.
    type_into_field(&mut h, "File:", target.to_str().unwrap());
    h.get_by_label("Save").click();
    h.run();
    assert!(!h.state().is_dirty(), "{:?}", h.state().message());
    let saved = collidoscope::scene::load(&target).unwrap();
    assert_eq!(&saved, h.state().scene());
}

#[test]
fn snapshot_default_scene() {
    let mut h = harness(app(None));
    h.snapshot("default_scene");
}

#[test]
fn snapshot_step_mode() {
    let mut h = harness(app(None));
    h.get_by_label("Next").click();
    h.run();
    h.get_by_label("Next").click();
    h.run();
    h.snapshot("step_mode");
}

#[test]
fn snapshot_closest_points() {
    // Loaded without a path, so the picture does not depend on where the checkout lives.
    let mut app = app(None);
    app.set_scene(collidoscope::scene::load(&shapes("apart-capsules.json")).unwrap());
    let mut h = harness(app);
    h.snapshot("closest_points");
}

#[test]
fn snapshot_casts_lab() {
    let mut h = harness(app(None));
    h.get_by_label("Casts").click();
    h.run();
    h.snapshot("casts_lab");
}

#[test]
fn snapshot_latency_lab() {
    // The default scene has no moving bodies: the lab opens on the LACE article's example.
    let mut h = harness(app(None));
    h.get_by_label("Latency lab").click();
    h.run_steps(4);
    h.snapshot("latency_lab");
}

#[test]
fn unsaved_work_is_autosaved_and_offered_back_after_a_crash() {
    let data = tempfile::tempdir().unwrap();
    let options = || Options {
        file: Some(shapes("corner-false-positive.json")),
        data_dir: Some(data.path().to_path_buf()),
        no_data_dir: false,
    };
    let mut h = harness(App::new(options()));
    let ball = h.state().scene().shapes[1].placed.pose.position;
    drag(&mut h, ball, DVec2::new(3.0, 3.0));
    let edited = h.state().scene().clone();
    assert!(
        data.path().join("recovery.json").exists(),
        "the edit was autosaved"
    );
    // The process dies here: no clean exit. The next start offers the work back.
    drop(h);
    let mut h = harness(App::new(options()));
    h.get_by_label("Recover unsaved work?");
    h.get_by_label("Recover").click();
    h.run();
    assert_eq!(h.state().scene(), &edited);
    assert!(h.state().is_dirty(), "recovered work is not saved yet");
}

#[test]
fn declining_the_recovery_removes_it() {
    let data = tempfile::tempdir().unwrap();
    std::fs::copy(
        shapes("clockwise-obstacle.json"),
        data.path().join("recovery.json"),
    )
    .unwrap();
    let mut h = harness(App::new(Options {
        data_dir: Some(data.path().to_path_buf()),
        ..Default::default()
    }));
    h.get_by_label("Discard it").click();
    h.run();
    assert!(!data.path().join("recovery.json").exists());
    assert_eq!(h.state().scene(), &collidoscope::app::default_scene());
}

#[test]
fn new_asks_before_discarding_unsaved_changes() {
    let mut h = harness(app(Some(shapes("corner-false-positive.json"))));
    let ball = h.state().scene().shapes[1].placed.pose.position;
    drag(&mut h, ball, DVec2::new(3.0, 3.0));
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("New").click();
    h.run();
    h.get_by_label("Discard unsaved changes?");
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(h.state().scene().shapes.len(), 2, "cancel keeps the work");
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("New").click();
    h.run();
    h.get_by_label("Discard changes").click();
    h.run();
    assert!(h.state().scene().shapes.is_empty());
    assert!(!h.state().is_dirty());
}

/// Degenerate scenes and extreme views draw without a panic: coincident shapes, a capsule
/// whose ends meet, shapes a million units out, a scene of one shape, no shapes at all, and
/// zooming far in and out.
#[test]
fn degenerate_scenes_and_extreme_views_do_not_panic() {
    use collidoscope::geometry::{Capsule, Circle, Placed, Pose};
    use collidoscope::scene::{Scene, SceneShape};
    let disc = |at: DVec2| Placed::new(Circle::new(1.0).unwrap(), Pose::at(at));
    let scenes = [
        Scene::from_shapes(vec![
            SceneShape::named("a", disc(DVec2::ZERO)),
            SceneShape::named("b", disc(DVec2::ZERO)),
        ]),
        Scene::from_shapes(vec![
            SceneShape::named(
                "dot",
                Placed::new(
                    Capsule::new(DVec2::ONE, DVec2::ONE, 0.5).unwrap(),
                    Pose::IDENTITY,
                ),
            ),
            SceneShape::named("b", disc(DVec2::ONE)),
        ]),
        collidoscope::scene::load(&shapes("far-from-origin.json")).unwrap(),
        Scene::from_shapes(vec![SceneShape::named("alone", disc(DVec2::ZERO))]),
        // Beyond what f32 screen coordinates can hold.
        Scene::from_shapes(vec![
            SceneShape::named("near", disc(DVec2::ZERO)),
            SceneShape::named(
                "huge",
                Placed::new(Circle::new(1e300).unwrap(), Pose::at(DVec2::splat(1e300))),
            ),
        ]),
        Scene::default(),
    ];
    for scene in scenes {
        let mut app = app(None);
        app.set_scene(scene);
        let mut h = harness(app);
        // The middle of the scene view (a real pointer is always somewhere on screen).
        let centre = egui::pos2(540.0, 400.0);
        for _ in 0..30 {
            h.event(egui::Event::MouseWheel {
                unit: egui::MouseWheelUnit::Line,
                delta: egui::vec2(0.0, 50.0),
                modifiers: Modifiers::NONE,
                phase: egui::TouchPhase::Move,
                source: egui::MouseWheelSource::Wheel,
            });
            h.hover_at(centre);
            h.run();
        }
        h.key_press(Key::F);
        h.run();
        // Step mode exists where there is a pair to explain.
        if h.query_by_label("Next").is_some() {
            h.get_by_label("Next").click();
            h.run();
        }
        // Tessellate and paint it too, not only lay it out.
        h.render().expect("the frame renders");
    }
}

// The bugs a first session with the window hit, each reproduced as a person would meet it.

/// A copy of `name` from shapes/ in a fresh folder.
fn copy_of(name: &str, dir: &Path) -> PathBuf {
    let path = dir.join(name);
    std::fs::copy(shapes(name), &path).unwrap();
    path
}

fn click_menu(h: &mut Harness<'static, App>, menu: &str, item: &str) {
    h.get_by_label(menu).click();
    h.run();
    h.get_by_label(item).click();
    h.run();
}

/// Focus the text field labelled `label`, select what it holds and type over it.
fn type_into_field(h: &mut Harness<'static, App>, label: &str, text: &str) {
    h.get_by_role_and_label(Role::TextInput, label).focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_role_and_label(Role::TextInput, label)
        .type_text(text);
    h.run();
}

fn ball_radius(app: &App) -> f64 {
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

/// Bug 1: File > New left the old path behind, and Ctrl+S then replaced that file with the
/// new, empty scene without asking.
#[test]
fn save_after_new_never_writes_over_the_previous_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = copy_of("corner-false-positive.json", dir.path());
    let before = std::fs::read(&file).unwrap();
    let mut h = harness(app(Some(file.clone())));
    assert_eq!(h.state().path_field(), file.display().to_string());
    click_menu(&mut h, "File", "New");
    assert!(h.state().scene().shapes.is_empty());
    assert_eq!(h.state().path_field(), "", "a new document has no path");
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "the old file is untouched"
    );
    assert!(h.state().message().unwrap().text.starts_with("not saved"));
}

/// Bug 1: a file that failed to open left its path in the field, and Save then replaced the
/// broken file. Save now writes the open document, or asks before replacing another file.
#[test]
fn save_after_a_failed_open_asks_before_replacing_that_file() {
    let dir = tempfile::tempdir().unwrap();
    let good = copy_of("corner-false-positive.json", dir.path());
    let broken = dir.path().join("broken.json");
    let broken_text = r#"{"format": "collidoscope-shapes", "version": 1, "shapes": [{"kind": "circle", "raduis": 1}]}"#;
    std::fs::write(&broken, broken_text).unwrap();
    let mut h = harness(app(Some(good.clone())));
    type_into_field(&mut h, "File:", broken.to_str().unwrap());
    h.get_by_label("Open").click();
    h.run();
    assert!(h.state().message().unwrap().error);
    assert_eq!(
        h.state().path(),
        Some(good.as_path()),
        "still the good document"
    );
    // Save with the broken file's path in the field: asked, and Cancel keeps the file.
    h.get_by_label("Save").click();
    h.run();
    h.get_by_label("Replace the file?");
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), broken_text);
    // Ctrl+S saves the open document, not the file named in the field.
    let ball = h.state().scene().shapes[1].placed.pose.position;
    drag(&mut h, ball, DVec2::new(3.0, 3.0));
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), broken_text);
    let saved = collidoscope::scene::load(&good).unwrap();
    assert_eq!(&saved, h.state().scene());
    assert!(!h.state().is_dirty());
}

/// Bug 2: the numbers panel validated every keystroke: radius 1.00 selected and `0.5` typed
/// gave `1.5.00`, `3x7` + Enter gave 3, `-1` snapped back with no reason.
#[test]
fn numbers_are_typed_as_text_applied_on_enter_and_refused_with_a_reason() {
    let mut h = harness(app(None));
    h.get_by_label("ball (circle)").click();
    h.run();
    assert_eq!(ball_radius(h.state()), 0.8);
    type_into_field(&mut h, "radius", "0.5");
    assert_eq!(ball_radius(h.state()), 0.8, "nothing applies while typing");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(ball_radius(h.state()), 0.5);
    type_into_field(&mut h, "radius", "3x7");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(ball_radius(h.state()), 0.5);
    h.get_by_label_contains("not applied: \"3x7\" is not a number");
    type_into_field(&mut h, "radius", "-1");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(ball_radius(h.state()), 0.5);
    h.get_by_label_contains("not applied: radius must be > 0, found -1");
    // Esc puts the old value back.
    type_into_field(&mut h, "radius", "2");
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(ball_radius(h.state()), 0.5);
    assert!(h.query_by_label_contains("not applied").is_none());
}

/// Bug 3: clicking a field and pressing Enter rounded the value (1.3604351329572926 became
/// 1.3604 in the saved file).
#[test]
fn an_untouched_field_never_changes_the_scene() {
    use collidoscope::geometry::{Circle, Placed, Pose};
    use collidoscope::scene::{Scene, SceneShape};
    let exact = 1.3604351329572926;
    let disc = |r: f64, x: f64| Placed::new(Circle::new(r).unwrap(), Pose::at(DVec2::new(x, 0.1)));
    let mut app = app(None);
    app.set_scene(Scene::from_shapes(vec![
        SceneShape::named("ball", disc(exact, 0.0)),
        SceneShape::named("other", disc(1.0, 5.0)),
    ]));
    let mut h = harness(app);
    h.get_by_label("ball (circle)").click();
    h.run();
    for field in ["radius", "position x", "position y", "angle (deg)"] {
        h.get_by_role_and_label(Role::TextInput, field).focus();
        h.run();
        h.key_press(Key::Enter);
        h.run();
    }
    assert_eq!(ball_radius(h.state()).to_bits(), exact.to_bits());
    assert_eq!(
        h.state().scene().shapes[0].placed.pose.position.y.to_bits(),
        0.1f64.to_bits()
    );
    assert!(!h.state().is_dirty(), "nothing was edited");
}

/// Bug 4: a field edit merged into the previous undo step (set a radius, Ctrl+Z removed the
/// whole shape added before).
#[test]
fn every_field_edit_is_one_undo_step() {
    let mut h = harness(app(None));
    let n = h.state().scene().shapes.len();
    h.get_by_label("+ Circle").click();
    h.run();
    assert_eq!(h.state().scene().shapes.len(), n + 1);
    type_into_field(&mut h, "radius", "2.5");
    h.key_press(Key::Enter);
    h.run();
    let radius = |app: &App| match &app.scene().shapes[n].placed.shape {
        collidoscope::geometry::Shape::Circle(c) => c.radius(),
        _ => unreachable!(),
    };
    assert_eq!(radius(h.state()), 2.5);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().scene().shapes.len(), n + 1, "the circle stays");
    assert_eq!(radius(h.state()), 1.0, "only the radius went back");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().scene().shapes.len(), n);
}

/// Bug 5: Backspace deleted the selected shape while a polygon was being clicked.
#[test]
fn backspace_while_clicking_a_polygon_takes_back_its_last_corner() {
    let mut h = harness(app(None));
    h.get_by_label("block (polygon)").click();
    h.run();
    let n = h.state().scene().shapes.len();
    h.get_by_label("+ Polygon by clicking").click();
    h.run();
    for (x, y) in [(-8.0, 4.0), (-6.0, 4.0), (-7.0, 6.0)] {
        let at = h.state().world_to_screen(DVec2::new(x, y));
        h.hover_at(at);
        h.run();
        h.drag_at(at);
        h.run();
        h.drop_at(at);
        h.run();
    }
    assert_eq!(h.state().polygon_corners(), Some(3));
    h.key_press(Key::Backspace);
    h.run();
    assert_eq!(h.state().polygon_corners(), Some(2));
    assert_eq!(
        h.state().scene().shapes.len(),
        n,
        "the selected block is still there"
    );
}

/// Bug 6: at 640x480 the scene view disappeared behind the side panels' minimum widths.
#[test]
fn the_scene_view_keeps_most_of_a_small_window() {
    for (w, hgt) in [(640.0, 480.0), (800.0, 600.0), (1280.0, 800.0)] {
        let mut h = Harness::builder()
            .with_size(egui::vec2(w, hgt))
            .with_render_cursor(false)
            .build_ui_state(|ui, app: &mut App| app.ui_for_test(ui), app(None));
        h.run();
        let view = h.state().view_rect();
        assert!(
            view.width() >= 0.5 * w && view.height() >= 0.6 * hgt,
            "at {w}x{hgt} the scene view is only {view:?}"
        );
    }
}

/// Bug 7: undoing back to the saved state still showed `*`.
#[test]
fn undoing_back_to_the_saved_state_is_clean_again() {
    let mut h = harness(app(Some(shapes("corner-false-positive.json"))));
    let ball = h.state().scene().shapes[1].placed.pose.position;
    drag(&mut h, ball, DVec2::new(3.0, 3.0));
    assert!(h.state().is_dirty());
    assert!(h.state().title().starts_with('*'));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(!h.state().is_dirty());
    assert_eq!(
        h.state().title(),
        "corner-false-positive.json - collidoscope"
    );
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert!(h.state().is_dirty());
}

/// Bug 7: after recovery the title and the path field disagreed.
#[test]
fn after_recovery_the_title_and_the_path_field_agree() {
    let data = tempfile::tempdir().unwrap();
    let original = shapes("clockwise-obstacle.json");
    std::fs::copy(&original, data.path().join("recovery.json")).unwrap();
    std::fs::write(
        data.path().join("recovery-path.txt"),
        original.display().to_string(),
    )
    .unwrap();
    let mut h = harness(App::new(Options {
        data_dir: Some(data.path().to_path_buf()),
        ..Default::default()
    }));
    h.get_by_label("Recover").click();
    h.run();
    assert_eq!(h.state().path(), Some(original.as_path()));
    assert_eq!(h.state().path_field(), original.display().to_string());
    assert_eq!(h.state().title(), "*clockwise-obstacle.json - collidoscope");
}

/// Bug 7: status messages went stale ("opened ..." stayed through later edits).
#[test]
fn a_status_message_goes_once_the_scene_changes() {
    let mut h = harness(app(Some(shapes("corner-false-positive.json"))));
    assert!(h.state().message().unwrap().text.starts_with("opened"));
    let ball = h.state().scene().shapes[1].placed.pose.position;
    drag(&mut h, ball, DVec2::new(3.0, 3.0));
    assert_eq!(h.state().message(), None);
}

/// One edit path: during a drag the report is rebuilt at most once a frame.
#[test]
fn the_report_is_rebuilt_at_most_once_a_frame() {
    let mut h = harness(app(Some(shapes("corner-false-positive.json"))));
    let ball = h.state().scene().shapes[1].placed.pose.position;
    let start = h.state().world_to_screen(ball);
    h.hover_at(start);
    h.run();
    h.drag_at(start);
    h.run();
    let before = h.state().report_builds();
    let frames = 20;
    for k in 1..=frames {
        h.hover_at(start + egui::vec2(k as f32 * 3.0, 0.0));
        h.step();
    }
    let builds = h.state().report_builds() - before;
    assert!(
        builds >= 1 && builds <= frames,
        "{builds} builds in {frames} frames"
    );
    h.drop_at(start + egui::vec2(60.0, 0.0));
    h.run();
}

/// Stable ids: deleting a shape keeps explaining the same two shapes.
#[test]
fn deleting_another_shape_keeps_the_explained_pair() {
    let mut h = harness(app(None));
    // Explain block (A) against corner-ball (B), then delete the obstacle before them.
    h.get_by_label("block (polygon)").click();
    h.run();
    let names = |app: &App| {
        let (a, b) = app.pair().unwrap();
        let s = &app.scene().shapes;
        (s[a].name.clone().unwrap(), s[b].name.clone().unwrap())
    };
    let mut app_state = app(None);
    app_state.set_pair(2, 3);
    let mut h2 = harness(app_state);
    assert_eq!(names(h2.state()), ("block".into(), "corner-ball".into()));
    h2.get_by_label("obstacle (polygon)").click();
    h2.run();
    h2.key_press(Key::Delete);
    h2.run();
    assert_eq!(h2.state().scene().shapes.len(), 5);
    assert_eq!(names(h2.state()), ("block".into(), "corner-ball".into()));
    drop(h);
}

/// Step mode does not give the answer away before its last step.
#[test]
fn step_mode_hides_the_verdict_until_the_last_step() {
    let mut h = harness(app(None));
    h.get_by_label("Next").click();
    h.run();
    h.get_by_label_contains("The verdict is hidden while stepping");
    assert!(h.query_by_label_contains("Intersecting:").is_none());
    let total = h.state().report().unwrap().sat.axes.len();
    for _ in 0..total {
        h.get_by_label("Next").click();
        h.run();
    }
    assert!(h.query_all_by_label_contains("Intersecting:").count() >= 1);
}

/// A scene whose MTV is tiny next to its shapes opens whole, the MTV drawn enlarged and
/// labelled so; Shift+G zooms onto it, where it is drawn as it is.
#[test]
fn a_scene_with_a_tiny_mtv_opens_whole_and_shift_g_zooms_onto_its_mtv() {
    let mut h = harness(app(Some(shapes("clockwise-obstacle.json"))));
    let depth = h.state().report().unwrap().contact.as_ref().unwrap().depth;
    let on_screen = depth * h.state().camera().scale;
    assert!(
        on_screen < 20.0,
        "opened whole: the MTV is {on_screen} points long"
    );
    let rect = h.state().view_rect();
    let labels = h.state_mut().frame_work(rect).labels;
    assert!(labels.iter().any(|l| l.text == "MTV 1 (arrow enlarged)"));
    h.key_press_modifiers(Modifiers::SHIFT, Key::G);
    h.run();
    let on_screen = depth * h.state().camera().scale;
    assert!(on_screen >= 20.0, "the MTV is {on_screen} points long");
    let labels = h.state_mut().frame_work(rect).labels;
    assert!(labels.iter().any(|l| l.text == "MTV 1"));
}

/// The "also intersecting" list is clickable: a click explains that pair.
#[test]
fn clicking_an_also_intersecting_pair_explains_it() {
    let mut h = harness(app(Some(shapes("every-pair.json"))));
    let before = h.state().pair();
    h.query_all_by_label_contains(" / ")
        .next()
        .expect("every-pair.json has other intersecting pairs")
        .click();
    h.run();
    assert_ne!(h.state().pair(), before);
}

/// The broad-phase lab: the counts it shows are the grid's, and after a drag the window's
/// intersecting pairs (kept up to date by moving only the dragged shape's cells) are exactly
/// those a fresh all-pairs pass finds.
#[test]
fn the_broad_phase_lab_counts_and_follows_a_drag() {
    use collidoscope::scene::generate::{Generate, random_scene};
    let scene = random_scene(Generate {
        count: 400,
        seed: 7,
        overlaps: 2.0,
    });
    let mut app = app(None);
    app.set_scene(scene);
    let mut h = harness(app);
    h.get_by_label("Broad phase").click();
    h.run();
    h.get_by_label("candidate pairs");
    let n = 400usize;
    h.get_by_label(&(n * (n - 1) / 2).to_string());
    let all_pairs = |app: &App| {
        let shapes = &app.scene().shapes;
        let mut pairs = Vec::new();
        for i in 0..shapes.len() {
            for j in i + 1..shapes.len() {
                if collidoscope::query::collide(&shapes[i].placed, &shapes[j].placed).is_some() {
                    pairs.push((i, j));
                }
            }
        }
        pairs
    };
    assert_eq!(h.state().hits(), all_pairs(h.state()));
    h.get_by_label(&h.state().hits().len().to_string());
    // Drag one shape across the crowd.
    // The last shape is on top of any it overlaps, so the press grabs it.
    let from = h.state().scene().shapes[399].placed.centre();
    drag(&mut h, from, from + DVec2::new(6.0, -4.0));
    assert_ne!(
        h.state().scene().shapes[10].placed.centre(),
        from,
        "the shape moved"
    );
    assert_eq!(h.state().hits(), all_pairs(h.state()));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().hits(), all_pairs(h.state()));
}

/// File > Many shapes makes a new scene of the chosen size.
#[test]
fn many_shapes_generates_a_scene() {
    let mut h = harness(app(None));
    h.get_by_label("Many shapes").click();
    h.run();
    h.get_by_label("Generate").click();
    h.run();
    assert_eq!(h.state().scene().shapes.len(), 1000);
    assert!(h.state().is_dirty(), "a generated scene is not saved yet");
}

/// The Claimed tab reads a file's claim for the explained pair, names the mistakes that
/// reproduce it, and shows a mistake's own test on request.
#[test]
fn the_claimed_tab_diagnoses_the_files_claim_and_shows_a_mistakes_test() {
    let mut h = harness(app(Some(shapes("claimed-contacts.json"))));
    h.state_mut().set_pair(0, 1);
    h.run();
    h.get_by_label("Claimed *").click();
    h.run();
    h.get_by_label("The claim differs: normal by 180 degrees.");
    h.get_by_label("normal-reversed");
    h.get_by_label("naive-smallest-overlap");
    h.get_all_by_label("Show its test").nth(1).unwrap().click();
    h.run();
    assert_eq!(
        h.state().shown_mistake(),
        Some(collidoscope::query::Mistake::NaiveSmallestOverlap)
    );
    h.get_by_label("naive-smallest-overlap: its test");
    h.get_by_label_contains("Its MTV moves ball by 0.2 along (-1, 0)");
    // Another pair: the claim there is diagnosed, the mistake's test is put away.
    h.state_mut().set_pair(6, 7);
    h.run();
    h.get_by_label("The claim agrees with the exact result.");
    assert_eq!(h.state().shown_mistake(), None);
}

/// A claim typed in the tab is checked by the file's rules, applied as one undo step and saved
/// with the scene as version 2.
#[test]
fn a_typed_claim_is_checked_applied_undone_and_saved() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_of("corner-false-positive.json", dir.path());
    let mut h = harness(app(Some(path.clone())));
    h.get_by_label("Claimed").click();
    h.run();
    type_into_field(&mut h, "depth", "0.05");
    type_into_field(&mut h, "normal x", "2");
    type_into_field(&mut h, "normal y", "0");
    h.get_by_label("Apply claim").click();
    h.run();
    h.get_by_label_contains("claim refused: \"normal\" must be a unit vector");
    assert!(h.state().scene().claims.is_empty());

    type_into_field(&mut h, "normal x", "0.6");
    type_into_field(&mut h, "normal y", "0.8");
    h.get_by_label("Apply claim").click();
    h.run();
    assert_eq!(h.state().scene().claims.len(), 1);
    assert!(h.state().is_dirty());
    // A ball off the corner claimed as touching the block: what edge normals alone say?
    h.get_by_label_contains("The claim differs: the verdict");

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(h.state().scene().claims.is_empty());
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(h.state().scene().claims.len(), 1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    let saved = collidoscope::scene::load(&path).unwrap();
    assert_eq!(saved.claims, h.state().scene().claims);
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("\"version\": 2")
    );
}

/// File > Export fixture writes the explained pair's fixture and its Rust test.
#[test]
fn export_fixture_writes_a_fixture_and_its_test() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(app(Some(shapes("box-resting-on-floor.json"))));
    click_menu(&mut h, "File", "Export fixture...");
    let fixture = dir.path().join("floor.json");
    let test = dir.path().join("floor.rs");
    type_into_field(&mut h, "fixture", fixture.to_str().unwrap());
    h.get_by_role_and_label(Role::CheckBox, "Rust test").click();
    h.run();
    type_into_field(&mut h, "Rust test", test.to_str().unwrap());
    h.get_by_label("Export").click();
    h.run();
    let text = std::fs::read_to_string(&fixture)
        .unwrap_or_else(|e| panic!("{e}: {:?}", h.state().message()));
    assert_eq!(collidoscope::fixture::verify(&text), Ok(1));
    let rust =
        std::fs::read_to_string(&test).unwrap_or_else(|e| panic!("{e}: {:?}", h.state().message()));
    assert!(rust.contains("include_str!(\"floor.json\")"), "{rust}");
    let message = h.state().message().unwrap();
    assert!(message.text.starts_with("wrote "), "{message:?}");
}

/// The window opens on the view `collidoscope render` draws: the same pair and the same fit,
/// through the same functions (`picture::default_pair`, `picture::fit::opening_view`).
#[test]
fn the_window_opens_on_the_view_render_draws() {
    use collidoscope::picture::{self, Camera, Rect, Vec2, fit};
    for name in [
        "default-scene.json",
        "every-pair.json",
        "apart-capsules.json",
    ] {
        let h = harness(app(Some(shapes(name))));
        let scene = h.state().scene();
        let hits = collidoscope::broad::intersecting_pairs(scene, None);
        let (a, b) = picture::default_pair(scene.shapes.len(), hits.first().copied()).unwrap();
        let report =
            collidoscope::query::pair_report(&scene.shapes[a].placed, &scene.shapes[b].placed);
        let view = h.state().view_rect();
        let rect = Rect::from_min_max(
            Vec2::new(view.min.x, view.min.y),
            Vec2::new(view.max.x, view.max.y),
        );
        let expected = fit::opening_view(Camera::default(), rect, scene, Some(((a, b), &report)));
        assert_eq!(h.state().camera(), expected, "{name}");
    }
}

/// Motion is edited in the numbers panel like any other number: a static body refuses a
/// velocity, a dynamic one takes it (one undo step, saved as version 2), and the tunnelling
/// bound follows the speed.
#[test]
fn velocities_are_numbers_with_the_tunnelling_bound_beside_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_of("bullet-and-wall.json", dir.path());
    let mut h = harness(app(Some(path.clone())));
    // The wall is static.
    h.state_mut().select(Some(0));
    h.run();
    type_into_field(&mut h, "velocity x", "3");
    h.key_press(Key::Enter);
    h.run();
    h.get_by_label_contains("a static body cannot move: choose kinematic or dynamic first");
    assert_eq!(h.state().scene().shapes[0].motion.velocity, DVec2::ZERO);
    h.key_press(Key::Escape);
    h.run();
    // The ball is dynamic, at 100 units/s: steps of at most (0.5 - 0.0005) / 100 s.
    h.state_mut().select(Some(1));
    h.run();
    h.get_by_label_contains("Tunnelling bound: steps of at most 0.004995 s");
    type_into_field(&mut h, "velocity x", "50");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(
        h.state().scene().shapes[1].motion.velocity,
        DVec2::new(50.0, 0.0)
    );
    h.get_by_label_contains("Tunnelling bound: steps of at most 0.00999 s");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(
        h.state().scene().shapes[1].motion.velocity,
        DVec2::new(100.0, 0.0)
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    let saved = collidoscope::scene::load(&path).unwrap();
    assert_eq!(saved.shapes[1].motion.velocity, DVec2::new(100.0, 0.0));
    assert_eq!(saved.shapes[2].motion.angular_velocity, 3.0);
}

/// A moving pair gets a Motion tab: the time of impact and every step of the search.
#[test]
fn a_moving_pair_shows_its_time_of_impact_step_by_step() {
    let mut h = harness(app(Some(shapes("bullet-and-wall.json"))));
    h.state_mut().set_pair(0, 1);
    h.run();
    h.get_by_label("Motion").click();
    h.run();
    h.get_by_label_contains(
        "wall and ball first touch at t = 0.044, at (-0.1, 0), normal (-1, 0).",
    );
    h.get_by_label_contains("Newton's method");
    // Two shapes at rest have no Motion tab.
    let mut h = harness(app(Some(shapes("corner-false-positive.json"))));
    h.run();
    assert!(h.query_by_label("Motion").is_none());
}

/// The casts lab: a ray drawn by dragging on the background hits what the core's scene cast
/// hits, each listed with its fraction, the first emphasised; "First hit only" keeps the
/// first; dragging an end moves only that end.
#[test]
fn the_casts_lab_draws_a_ray_and_lists_every_hit() {
    use collidoscope::app::Lab;
    use collidoscope::broad::ray_cast_scene;
    let mut h = harness(app(Some(shapes("bullet-and-wall.json"))));
    h.get_by_label("Casts").click();
    h.run();
    assert!(
        h.state().ray().is_some(),
        "a ray is placed across the scene"
    );
    // The "opened" message stays a few seconds (no edit clears it): run frame by frame.
    let frames = |h: &mut Harness<'static, App>| h.run_steps(2);
    drag_with(&mut h, DVec2::new(-8.0, 0.1), DVec2::new(6.0, 0.1), frames);
    let (from, to) = h.state().ray().unwrap();
    assert!((from - DVec2::new(-8.0, 0.1)).length() < 0.05);
    assert!((to - DVec2::new(6.0, 0.1)).length() < 0.05);
    let exact = ray_cast_scene(h.state().scene(), None, from, to);
    assert_eq!(h.state().ray_hits(), exact.as_slice());
    let order: Vec<usize> = exact.iter().map(|(i, _)| *i).collect();
    assert_eq!(order, vec![1, 0, 2], "ball, then wall, then bar");
    h.get_by_label("3 hits, the first emphasised.");
    // The view labels the first hit with its fraction.
    let rect = h.state().view_rect();
    let labels = h.state_mut().frame_work(rect).labels;
    assert!(labels.iter().any(|l| l.text.starts_with("first hit 0.")));
    // Nothing was moved or selected by drawing the ray.
    assert!(!h.state().is_dirty());
    h.get_by_label("First hit only").click();
    h.run_steps(2);
    assert_eq!(h.state().ray_hits(), &exact[..1]);
    h.get_by_label("One hit.");
    // Drag the end down to miss the bar: the start stays.
    drag_with(&mut h, to, DVec2::new(6.0, -3.0), frames);
    let (from2, to2) = h.state().ray().unwrap();
    assert_eq!(from2, from);
    assert!((to2 - DVec2::new(6.0, -3.0)).length() < 0.05);
    h.state_mut().set_lab(Lab::Pair);
    h.run_steps(2);
    assert!(h.query_by_label("First hit only").is_none());
}

/// The Motion tab's span T: a step of 1 s is far beyond the ball's tunnelling bound; one of
/// 0.004 s is within it and ends before the ball reaches the wall.
#[test]
fn the_motion_span_is_set_and_judged_against_the_tunnelling_bound() {
    let mut h = harness(app(Some(shapes("bullet-and-wall.json"))));
    h.state_mut().set_pair(0, 1);
    h.run();
    h.get_by_label("Motion").click();
    h.run();
    h.get_by_label_contains("ball: T = 1 is 200.2x its largest safe step 0.004995");
    h.get_by_label("Span T (one step's dt)").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_label("Span T (one step's dt)").type_text("0.004");
    h.key_press(Key::Enter);
    h.run();
    h.run();
    assert_eq!(h.state().horizon(), 0.004);
    h.get_by_label_contains("ball: T = 0.004 is within its largest safe step 0.004995");
    h.get_by_label_contains("wall and ball do not touch before t = 0.004.");
}

/// A moving body's velocity arrow has a handle at its tip: at rest, dragging it draws the
/// arrow from the centre to the pointer; moving, dragging changes the velocity by the
/// pointer's movement over T (each drag one undo step); a static body has none.
#[test]
fn the_velocity_arrow_is_dragged_to_change_the_velocity() {
    use collidoscope::picture::handles::HandleKind;
    let mut h = harness(app(Some(shapes("bullet-and-wall.json"))));
    let velocity_handle = |h: &Harness<'static, App>| {
        h.state()
            .handles_on_screen()
            .into_iter()
            .find(|(kind, _)| *kind == HandleKind::Velocity)
            .map(|(_, at)| at)
    };
    h.state_mut().select(Some(0));
    h.run();
    assert!(velocity_handle(&h).is_none(), "the wall is static");
    // The bar is kinematic and at rest: its handle waits below it.
    h.state_mut().select(Some(2));
    h.run();
    let start = velocity_handle(&h).expect("a kinematic body has a velocity handle");
    let scale = h.state().camera().scale;
    let end = start + egui::vec2(80.0, -40.0);
    h.hover_at(start);
    h.run_steps(2);
    h.drag_at(start);
    h.run_steps(2);
    for k in 1..=8 {
        h.hover_at(start.lerp(end, k as f32 / 8.0));
        h.run_steps(2);
    }
    h.drop_at(end);
    h.run_steps(2);
    // The handle stayed under the pointer: the arrow runs from the centre to the drop point.
    let v = h.state().scene().shapes[2].motion.velocity;
    let centre = h.state().scene().shapes[2].placed.centre();
    let tip = h.state().world_to_screen(centre + v * h.state().horizon());
    assert!(tip.distance(end) < 0.5, "{tip:?} vs {end:?}");
    assert!(velocity_handle(&h).unwrap().distance(end) < 0.5);
    assert_eq!(h.state().scene().shapes[2].motion.angular_velocity, 3.0);
    // Moving: dragging changes the velocity by the pointer's movement over T.
    let before = v;
    h.hover_at(end);
    h.run_steps(2);
    h.drag_at(end);
    h.run_steps(2);
    let further = end + egui::vec2(-30.0, 0.0);
    for k in 1..=5 {
        h.hover_at(end.lerp(further, k as f32 / 5.0));
        h.run_steps(2);
    }
    h.drop_at(further);
    h.run_steps(2);
    let v = h.state().scene().shapes[2].motion.velocity;
    let expected = before + DVec2::new(-30.0, 0.0) / scale;
    assert!(
        (v - expected).length() < 1e-6 * expected.length(),
        "{v} vs {expected}"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().scene().shapes[2].motion.velocity, before);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().scene().shapes[2].motion.velocity, DVec2::ZERO);
}

/// The motion lab: the run follows the panel's settings; with a long fixed step the ball
/// tunnels through the wall and the timeline's "Next event" shows that step; play advances
/// frames; a ghost resolver runs beside; the run is saved as a recording that replays bit for
/// bit.
#[test]
fn the_motion_lab_runs_plays_scrubs_to_events_and_saves_a_replayable_recording() {
    use collidoscope::motion::{EventKind, Recording, replay};
    let mut h = harness(app(Some(shapes("bullet-and-wall.json"))));
    h.get_by_label("Motion lab").click();
    h.run_steps(2);
    assert_eq!(h.state().motion_lab().last_frame(), 240);
    assert_eq!(h.state().motion_lab().frame(), 0);
    // A step of 0.1 s: 10 units a step, through the 0.2 wall.
    h.get_by_label("step dt").click();
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(1);
    h.get_by_label("step dt").type_text("0.1");
    h.key_press(Key::Enter);
    h.run_steps(3);
    assert_eq!(h.state().motion_lab().dt, 0.1);
    let tunnel = h
        .state()
        .motion_lab()
        .events()
        .iter()
        .find(|e| e.kind == EventKind::Tunnelled)
        .cloned()
        .expect("the ball passes through the wall");
    assert_eq!((tunnel.step, tunnel.a, tunnel.b), (1, 0, 1));
    h.get_by_label("Next event").click();
    h.run_steps(2);
    assert_eq!(h.state().motion_lab().frame(), 1);
    // The explained pair's test at that frame: the ball is past the wall, apart again.
    h.get_by_label("Frame 1, wall and ball:");
    h.state_mut().select(Some(1));
    h.run_steps(2);
    h.get_by_label("ball at frame 1: at (5, 0), angle 0°, velocity (100, 0)");
    h.get_by_label_contains("wall and ball do not intersect");
    // The view shows that frame: the ball 10 units on.
    let rect = h.state().view_rect();
    h.state_mut().frame_work(rect);
    let ball = &h.state().motion_lab().frame_scene().unwrap().shapes[1];
    assert_eq!(ball.placed.pose.position, DVec2::new(5.0, 0.0));
    // The tunnelled step is drawn: the ball's sweep across the wall, with its bound.
    let sweeps = h.state().motion_lab().sweeps();
    let crossed: Vec<_> = sweeps.iter().filter_map(|s| s.tunnelled).collect();
    assert_eq!(crossed.len(), 1);
    assert_eq!(crossed[0].0, 0, "the wall");
    assert!((crossed[0].2 - 0.004995).abs() < 1e-15);
    let labels = h.state_mut().frame_work(rect).labels;
    assert!(
        labels.iter().any(|l| l
            .text
            .starts_with("tunnelled: step 0.1 s, largest safe step 0.004995 s")),
        "{:?}",
        labels.iter().map(|l| &l.text).collect::<Vec<_>>()
    );
    // Play: frames advance by themselves.
    h.get_by_label("Play").click();
    h.run_steps(40);
    assert!(h.state().motion_lab().frame() > 1);
    h.get_by_label("Pause").click();
    h.run_steps(2);
    assert!(!h.state().motion_lab().playback.playing);
    // A second resolver runs beside as ghosts.
    h.get_by_label("compare with").click();
    h.run_steps(3);
    assert!(h.state().motion_lab().ghost_scene().is_some());
    // Save the run and replay it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ball.rec");
    type_into_field(&mut h, "Recording:", path.to_str().unwrap());
    h.get_by_label("Save run").click();
    h.run_steps(2);
    let saved = Recording::load(&path).unwrap();
    assert_eq!(saved.steps(), 240);
    assert_eq!(replay(&saved), Ok(240));
    h.get_by_label("Replay").click();
    h.run_steps(2);
    h.get_by_label_contains("identical: 240 steps replayed bit for bit");
}

/// Scrubbing the motion lab scrubs the separating-axis test too: at a frame where the naive
/// resolver has pushed the player into the obstacle, the panel and the view show that frame's
/// report (the same the pair lab builds from those poses), its MTV drawn at that frame; another
/// frame shows its own.
#[test]
fn the_pair_report_follows_the_motion_labs_frame() {
    use collidoscope::motion::{EventKind, Resolver};
    use collidoscope::query::{Mistake, pair_report};
    let mut h = harness(app(Some(shapes("clockwise-obstacle-run.json"))));
    h.get_by_label("Motion lab").click();
    h.run_steps(2);
    h.state_mut().motion_lab_mut().resolver = Resolver::Mistake(Mistake::NaiveSmallestOverlap);
    h.run_steps(2);
    let pushed = h
        .state()
        .motion_lab()
        .events()
        .iter()
        .find(|e| e.kind == EventKind::PushedIn)
        .cloned()
        .expect("the naive resolver pushes the player in");
    h.state_mut().motion_lab_mut().go_to(pushed.step);
    h.run_steps(2);
    let lab = h.state().motion_lab();
    let scene = lab.frame_scene().unwrap().clone();
    let exact = pair_report(&scene.shapes[0].placed, &scene.shapes[1].placed);
    let ((a, b), shown) = lab.pair.report().expect("the pair at this frame");
    assert_eq!((a, b), (0, 1));
    assert_eq!(shown, &exact);
    let depth = exact
        .contact
        .as_ref()
        .expect("pushed in: intersecting")
        .depth;
    assert!(depth > 0.1, "{depth}");
    h.get_by_label(&format!("Frame {}, obstacle and player:", pushed.step));
    h.get_by_label_contains("Intersecting: every axis overlaps");
    let rect = h.state().view_rect();
    let labels = h.state_mut().frame_work(rect).labels;
    let mtv = format!("MTV {}", collidoscope::text::number(depth));
    assert!(
        labels.iter().any(|l| l.text.starts_with(&mtv)),
        "{mtv} not in {:?}",
        labels.iter().map(|l| &l.text).collect::<Vec<_>>()
    );
    h.get_by_label("Projections at this frame").click();
    h.run_steps(2);
    // Frame 0: the player starts apart from the obstacle.
    h.state_mut().motion_lab_mut().go_to(0);
    h.run_steps(2);
    let (_, start) = h.state().motion_lab().pair.report().unwrap();
    assert!(start.contact.is_none());
    assert!(start.proximity.distance > 0.0);
    h.get_by_label("Frame 0, obstacle and player:");
}

/// The latency lab: a log made from the motion run of moving players; played in arrival order
/// the server's knowledge grows (collisions appear when the packets that reveal them arrive);
/// at every packet the engine's findings are what it alone would find; the LACE example's
/// crossing is found only once p3's packet arrives; the log saved through the path field
/// reads back the same.
#[test]
fn the_latency_lab_plays_a_log_and_finds_collisions_in_the_past() {
    use collidoscope::latency::{Engine, PacketLog, one_pass};
    let mut h = harness(app(Some(shapes("crossing-players.json"))));
    h.get_by_label("Latency lab").click();
    h.run_steps(4);
    let lab = h.state().latency_lab();
    let log = lab.log().expect("a log made from the run").clone();
    assert_eq!(log.players.len(), 4);
    assert_eq!(lab.arrived(), log.packets.len());
    let settings = lab.settings();
    let engine = lab.engine().unwrap();
    assert_eq!(engine.standing(), one_pass(&log, settings));
    assert!(
        engine.collisions().len() >= 10,
        "{}",
        engine.collisions().len()
    );
    // The scene shows the bucket of the first collision, with the collision marked.
    let first = engine.collisions()[0].clone();
    assert_eq!(lab.bucket_time(), first.time);
    let rect = h.state().view_rect();
    let labels = h.state_mut().frame_work(rect).labels;
    assert!(
        labels.iter().any(|l| l.text.contains(" ms: found at ")),
        "{:?}",
        labels.iter().map(|l| &l.text).collect::<Vec<_>>()
    );
    // Back to before that collision's packet: not known yet; one more packet: found.
    h.state_mut().latency_lab_mut().go_to(first.packet);
    h.run_steps(2);
    assert!(
        h.state()
            .latency_lab()
            .engine()
            .unwrap()
            .collisions()
            .is_empty()
    );
    h.get_by_label(">").click();
    h.run_steps(2);
    let engine = h.state().latency_lab().engine().unwrap();
    assert_eq!(engine.collisions().first(), Some(&first));
    // Play: packets arrive by themselves.
    h.get_by_label("|<").click();
    h.run_steps(2);
    assert_eq!(h.state().latency_lab().arrived(), 0);
    h.get_by_label("Play").click();
    h.run_steps(30);
    let arrived = h.state().latency_lab().arrived();
    assert!(arrived > 0 && arrived < log.packets.len(), "{arrived}");
    h.get_by_label("Pause").click();
    h.run_steps(2);
    // A partial engine equals a fresh one fed the same packets.
    let partial = h.state().latency_lab().engine().unwrap();
    let mut fresh = Engine::for_log(&log, settings);
    for p in &log.packets[..partial.packets()] {
        fresh.push(p);
    }
    assert_eq!(partial.collisions(), fresh.collisions());
    // Save the log and read it back.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.json");
    type_into_field(&mut h, "Log:", path.to_str().unwrap());
    h.get_by_label("Save log").click();
    h.run_steps(2);
    assert_eq!(PacketLog::load(&path).unwrap(), log);
    // The LACE example: p1 and p3 cross between the buckets at 0 and 25; known once p3's
    // packet sent at 100 arrives (the sixth), not before.
    h.get_by_label("LACE example").click();
    h.run_steps(2);
    assert_eq!(h.state().latency_lab().log().unwrap().players.len(), 3);
    h.state_mut().latency_lab_mut().go_to(5);
    h.run_steps(2);
    assert!(
        h.state()
            .latency_lab()
            .engine()
            .unwrap()
            .collisions()
            .is_empty()
    );
    h.state_mut().latency_lab_mut().go_to(6);
    h.run_steps(2);
    let found = h
        .state()
        .latency_lab()
        .engine()
        .unwrap()
        .collisions()
        .to_vec();
    assert_eq!(found.len(), 1);
    assert_eq!(
        (found[0].a, found[0].b, found[0].detected_at),
        (0, 2, 130.0)
    );
}

/// Repairs, 1: at the lab's own dt of 1/60 the bullet is pushed out through the far side of the
/// wall at step 3; the run says so (counted, in words, a tick and "Next event"), and the view
/// draws the centre's path across the wall.
#[test]
fn at_a_sixtieth_the_motion_lab_shows_the_ball_pushed_through_the_wall() {
    use collidoscope::motion::EventKind;
    let mut h = harness(app(Some(shapes("bullet-and-wall.json"))));
    h.get_by_label("Motion lab").click();
    h.run_steps(2);
    assert_eq!(h.state().motion_lab().dt, 1.0 / 60.0);
    let through: Vec<_> = h
        .state()
        .motion_lab()
        .events()
        .iter()
        .filter(|e| e.kind == EventKind::PushedThrough)
        .cloned()
        .collect();
    assert_eq!(through.len(), 1);
    assert_eq!((through[0].step, through[0].shape), (3, Some(1)));
    h.get_by_label_contains("1 pushed-through");
    h.get_by_label_contains("step 3: ball was pushed out through the far side of wall");
    h.get_by_label("Next event").click();
    h.run_steps(2);
    assert_eq!(h.state().motion_lab().frame(), 3);
    let rect = h.state().view_rect();
    let labels = h.state_mut().frame_work(rect).labels;
    assert!(
        labels
            .iter()
            .any(|l| l.text == "pushed through: resolved out of the far side"),
        "{:?}",
        labels.iter().map(|l| &l.text).collect::<Vec<_>>()
    );
    let pushed: Vec<_> = h
        .state()
        .motion_lab()
        .sweeps()
        .iter()
        .filter_map(|s| s.pushed_through)
        .collect();
    assert_eq!(pushed.len(), 1);
    assert_eq!(pushed[0].0, 0, "the wall");
    assert!((pushed[0].2.x - 0.6).abs() < 1e-12);
}

/// Repairs, 2: a claim at game coordinates (an engine in pixels, numbers like 412.837216) keeps
/// the Claimed tab inside its panel at every window size: the panel does not grow when the tab
/// opens and nothing in it reaches past the window.
#[test]
fn the_claimed_tab_at_game_coordinates_stays_inside_its_panel() {
    for (w, hgt) in [(1280.0, 800.0), (1024.0, 640.0), (800.0, 600.0)] {
        let mut h = Harness::builder()
            .with_size(egui::vec2(w, hgt))
            .with_render_cursor(false)
            .build_ui_state(
                |ui, app: &mut App| app.ui_for_test(ui),
                app(Some(shapes("pixels-crate-on-floor.json"))),
            );
        h.run();
        let swap = h.get_by_label("Swap").rect();
        h.get_by_label("Claimed *").click();
        h.run();
        h.run();
        assert_eq!(
            h.get_by_label("Swap").rect(),
            swap,
            "{w}x{hgt}: the panel moved when the Claimed tab opened"
        );
        for label in ["Swap", "Apply claim", "Remove claim", "Read", "Load"] {
            let r = h.get_by_label(label).rect();
            assert!(
                r.min.x >= swap.min.x - 400.0 && r.max.x <= w && r.min.x >= 0.0,
                "{w}x{hgt}: {label} at {r:?}"
            );
        }
        h.get_by_label("The claim agrees with the exact result.");
    }
}

/// Repairs, 5: "Also intersecting" brings the pair it names into view.
#[test]
fn an_also_intersecting_pair_is_brought_into_view() {
    let mut h = harness(app(Some(shapes("pixels-crate-on-floor.json"))));
    // Zoomed onto the crate: the barrel (x = 700) is out of view.
    h.state_mut().fit(collidoscope::app::Fit::Headline);
    h.run();
    let in_view = |h: &Harness<'static, App>, k: usize| {
        let (lo, hi) = h.state().scene().shapes[k].placed.aabb();
        let view = h.state().view_rect();
        view.contains(h.state().world_to_screen(lo)) && view.contains(h.state().world_to_screen(hi))
    };
    assert!(!in_view(&h, 2));
    h.get_by_label("floor / barrel").click();
    h.run();
    h.run();
    assert_eq!(h.state().pair(), Some((0, 2)));
    assert!(in_view(&h, 0) && in_view(&h, 2), "floor and barrel in view");
}

/// Repairs, 7: the labs propose files beside the open document, never in the folder the
/// program was started from, and follow the document until the user types a path.
#[test]
fn the_labs_save_beside_the_open_document() {
    use collidoscope::app::Lab;
    let dir = tempfile::tempdir().unwrap();
    let file = copy_of("bullet-and-wall.json", dir.path());
    let mut h = harness(app(Some(file.clone())));
    h.get_by_label("Motion lab").click();
    h.run_steps(2);
    let rec = dir.path().join("bullet-and-wall.rec");
    assert_eq!(h.state().motion_lab().path.text, rec.display().to_string());
    h.get_by_label("Save run").click();
    h.run_steps(2);
    assert!(rec.exists(), "saved beside the document");
    h.get_by_label_contains(&format!("saved {}", rec.display()));
    h.state_mut().set_lab(Lab::Latency);
    h.run_steps(2);
    assert_eq!(
        h.state().latency_lab().path.text,
        dir.path()
            .join("bullet-and-wall.log.json")
            .display()
            .to_string()
    );
    // Untitled, with no data folder: nothing is proposed, and saving asks for a path.
    let mut h = harness(app(None));
    h.get_by_label("Motion lab").click();
    h.run_steps(2);
    assert_eq!(h.state().motion_lab().path.text, "");
    h.get_by_label("Save run").click();
    h.run_steps(2);
    h.get_by_label_contains("type a path for the rec file first");
}

/// The latency lab's keys and buttons push the same commands, applied in one place: the
/// bucket stays within the log however often Up or Down is pressed (the key used to step it
/// unclamped), and stepping past the last packet stays at the last.
#[test]
fn the_latency_keys_step_within_the_log() {
    use collidoscope::app::Lab;
    let mut h = harness(app(None));
    h.state_mut().set_lab(Lab::Latency);
    h.run_steps(2);
    h.get_by_label("LACE example").click();
    h.run_steps(2);
    let (lo, hi) = h.state().latency_lab().bucket_range().unwrap();
    for _ in 0..(hi - lo + 5) {
        h.key_press(Key::ArrowUp);
    }
    h.run_steps(1);
    assert_eq!(h.state().latency_lab().bucket(), lo);
    for _ in 0..(hi - lo + 5) {
        h.key_press(Key::ArrowDown);
    }
    h.run_steps(1);
    assert_eq!(h.state().latency_lab().bucket(), hi);
    let total = h.state().latency_lab().log().unwrap().packets.len();
    h.key_press(Key::ArrowRight);
    h.run_steps(1);
    assert_eq!(h.state().latency_lab().arrived(), total);
    h.key_press(Key::ArrowLeft);
    h.run_steps(1);
    assert_eq!(h.state().latency_lab().arrived(), total - 1);
    h.get_by_label("|<").click();
    h.run_steps(1);
    assert_eq!(h.state().latency_lab().arrived(), 0);
    // Space plays from there: packets arrive by themselves.
    h.key_press(Key::Space);
    h.run_steps(60);
    assert!(h.state().latency_lab().arrived() > 0);
}

/// Opening a run sets the motion lab's panel from the run (it contradicted the run shown), and
/// every message of the lab goes to the status bar, replaced by the next action's.
#[test]
fn opening_a_run_sets_the_panel_from_it_and_messages_follow_the_state() {
    use collidoscope::app::{Command, Lab, MotionCommand};
    use collidoscope::motion::Substeps;
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(app(Some(shapes("bullet-and-wall.json"))));
    h.state_mut().set_lab(Lab::Motion);
    h.run_steps(2);
    let path = dir.path().join("sixtieth.rec");
    h.state_mut()
        .run(Command::Motion(MotionCommand::SaveRun(path.clone())));
    h.run_steps(1);
    assert_eq!(
        h.state().message().unwrap().text,
        format!("saved {}", path.display())
    );
    // Other settings in the panel, and a run of them.
    {
        let lab = h.state_mut().motion_lab_mut();
        lab.dt = 0.1;
        lab.steps = 20;
        lab.ccd = true;
        lab.bound = true;
    }
    h.state_mut().run(Command::Motion(MotionCommand::Run));
    h.run_steps(1);
    assert!(
        h.state()
            .message()
            .unwrap()
            .text
            .starts_with("ran this scene: 20 steps")
    );
    h.state_mut()
        .run(Command::Motion(MotionCommand::OpenRun(path.clone())));
    h.run_steps(2);
    let lab = h.state().motion_lab();
    assert_eq!(
        (lab.dt, lab.steps, lab.ccd, lab.bound),
        (1.0 / 60.0, 240, false, false)
    );
    assert_eq!(lab.config().substeps, Substeps::Fixed(1));
    assert_eq!(lab.last_frame(), 240);
    assert_eq!(lab.frame(), 0);
    h.state_mut().run(Command::Motion(MotionCommand::Replay));
    h.run_steps(1);
    assert!(
        h.state()
            .message()
            .unwrap()
            .text
            .contains("is identical: 240 steps")
    );
    // The next action's message replaces it: no stale "identical" line after a new run.
    h.state_mut().run(Command::Motion(MotionCommand::Run));
    h.run_steps(1);
    assert!(
        h.state()
            .message()
            .unwrap()
            .text
            .starts_with("ran this scene")
    );
    assert!(h.query_by_label_contains("is identical").is_none());
}
