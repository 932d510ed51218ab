//! The pair lab: dragging and editing shapes, undo, step mode, the numbers panel, the Claimed
//! tab, the Motion tab.

use super::common::*;

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
    h.get_all_by_label("Show its test")
        .nth(1)
        .unwrap()
        .click_accesskit();
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

/// A polygon corner dragged to where the polygon would fold is refused: the polygon keeps the
/// last valid shape the drag reached (not the fold), the status bar says why on release, and
/// one undo takes the whole drag back.
#[test]
fn a_corner_dragged_inside_out_keeps_the_last_valid_polygon() {
    use collidoscope::picture::handles::HandleKind;
    let mut h = harness(app(Some(shapes("bullet-and-wall.json"))));
    h.state_mut().select(Some(0));
    h.run();
    let before = h.state().scene().shapes[0].clone();
    // The wall's corner 2 is (0.1, 2); past the opposite long side, the quadrilateral folds.
    let corner = h
        .state()
        .handles_on_screen()
        .into_iter()
        .find(|(kind, _)| *kind == HandleKind::Corner(2))
        .map(|(_, at)| at)
        .expect("a polygon has corner handles");
    assert!(corner.distance(h.state().world_to_screen(DVec2::new(0.1, 2.0))) < 0.5);
    let drop = DVec2::new(-1.0, -1.9);
    drag(&mut h, DVec2::new(0.1, 2.0), drop);
    let kept = h.state().scene().shapes[0].clone();
    let collidoscope::geometry::Shape::Polygon(p) = &kept.placed.shape else {
        panic!("still a polygon")
    };
    let corner = p.points_as_given()[2];
    assert_ne!(corner, drop, "the folded corner is not taken");
    assert_ne!(
        corner,
        DVec2::new(0.1, 2.0),
        "the valid part of the drag is"
    );
    let message = h.state().message().expect("the refusal is said");
    assert!(message.error);
    assert!(
        message.text.starts_with("kept the last valid shape: "),
        "{}",
        message.text
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().scene().shapes[0], before);
}

/// Repairs: at 1280x800 the axes table of a scene with long numbers ran past the panel, its
/// last column ("B spans", "[447092.792, 447102.792]") cut at the window's edge. Every cell of
/// the table's last column stands inside the window.
#[test]
fn the_axes_tables_last_column_stays_inside_the_window() {
    let h = harness(app(Some(shapes("far-from-origin.json"))));
    let report = h.state().report().unwrap().sat.clone();
    let width = 1280.0;
    for t in &report.axes {
        let b = collidoscope::app::words::short_interval(t.b);
        let cells: Vec<_> = h.query_all_by_label_contains(&b).collect();
        assert!(!cells.is_empty(), "no cell says {b}");
        for cell in cells {
            let right = cell.rect().max.x;
            assert!(right <= width, "{b}: the cell reaches {right} of {width}");
        }
    }
}
