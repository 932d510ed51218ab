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
    let start = harness.state().world_to_screen(from);
    let end = harness.state().world_to_screen(to);
    harness.hover_at(start);
    harness.run();
    harness.drag_at(start);
    harness.run();
    for k in 1..=10 {
        harness.hover_at(start.lerp(end, k as f32 / 10.0));
        harness.run();
    }
    harness.drop_at(end);
    harness.run();
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
    assert!(
        moved.distance(DVec2::new(0.9, 1.1)) < 0.05,
        "the ball followed the pointer to {moved}"
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
    h.get_by_role_and_label(Role::TextInput, "File:").focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_role_and_label(Role::TextInput, "File:")
        .type_text(target.to_str().unwrap());
    h.run();
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
        shapes("seed-obstacle.json"),
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
        Scene {
            shapes: vec![
                SceneShape::named("a", disc(DVec2::ZERO)),
                SceneShape::named("b", disc(DVec2::ZERO)),
            ],
        },
        Scene {
            shapes: vec![
                SceneShape::named(
                    "dot",
                    Placed::new(
                        Capsule::new(DVec2::ONE, DVec2::ONE, 0.5).unwrap(),
                        Pose::IDENTITY,
                    ),
                ),
                SceneShape::named("b", disc(DVec2::ONE)),
            ],
        },
        collidoscope::scene::load(&shapes("far-from-origin.json")).unwrap(),
        Scene {
            shapes: vec![SceneShape::named("alone", disc(DVec2::ZERO))],
        },
        // Beyond what f32 screen coordinates can hold.
        Scene {
            shapes: vec![
                SceneShape::named("near", disc(DVec2::ZERO)),
                SceneShape::named(
                    "huge",
                    Placed::new(Circle::new(1e300).unwrap(), Pose::at(DVec2::splat(1e300))),
                ),
            ],
        },
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
