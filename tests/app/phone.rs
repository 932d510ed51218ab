//! The window on a phone held upright (390x844 points, the size issue 61 was tried at), worked
//! by a finger: a drag in the panel under the scene scrolls it and selects no text; the
//! shapes list and its + buttons are one tap away; the presenter's buttons stay where the
//! finger left them from one step to the next; the window's words say what fingers do, not
//! the wheel or the keys. And the projector look kept for the next start.

use super::common::*;
use collidoscope::app::LessonCommand;
use collidoscope::lesson::LessonSource;
use eframe::egui::text_selection::LabelSelectionState;
use eframe::egui::{Pos2, TouchDeviceId, TouchId, TouchPhase};

/// A phone held upright, in points.
const PHONE: (f32, f32) = (390.0, 844.0);

/// A finger put down at `from`, moved in ten steps to `to` and lifted: the events a browser's
/// touch gives egui (eframe's web runner: a press with the touch's start, a move with each
/// touch move, a release, the pointer gone and the touch's end).
fn finger(h: &mut Harness<'static, App>, from: Pos2, to: Pos2) {
    let touch = |phase, pos| egui::Event::Touch {
        device_id: TouchDeviceId(1),
        id: TouchId(1),
        phase,
        pos,
        force: None,
    };
    let button = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: Modifiers::NONE,
    };
    h.event(button(from, true));
    h.event(touch(TouchPhase::Start, from));
    h.run_steps(1);
    if from != to {
        for k in 1..=10 {
            let at = from.lerp(to, k as f32 / 10.0);
            h.event(egui::Event::PointerMoved(at));
            h.event(touch(TouchPhase::Move, at));
            h.run_steps(1);
        }
    }
    h.event(button(to, false));
    h.event(egui::Event::PointerGone);
    h.event(touch(TouchPhase::End, to));
    h.run_steps(3);
}

/// A tap of a finger at `at`.
fn tap(h: &mut Harness<'static, App>, at: Pos2) {
    finger(h, at, at);
}

/// Where the widget labelled `label` is on screen.
fn rect_of(h: &Harness<'static, App>, label: &str) -> egui::Rect {
    h.get_by_label(label).rect()
}

/// Whether any label's text is selected (egui selects a label's text under a drag).
fn text_selected(h: &Harness<'static, App>) -> bool {
    h.ctx
        .with_plugin(|s: &mut LabelSelectionState| s.has_selection())
        .unwrap_or(false)
}

#[test]
fn a_finger_drag_on_the_phone_panel_scrolls_it_and_selects_no_text() {
    // Two boxes: eight axes, more rows than the panel under the scene shows at once.
    let mut h = harness_at(app(Some(shapes("every-pair.json"))), PHONE);
    h.state_mut().set_pair(5, 10);
    h.run_steps(2);
    // A first tap on the scene's empty top left: the window knows fingers work it.
    let corner = h.state().view_rect().left_top() + egui::vec2(12.0, 12.0);
    tap(&mut h, corner);
    let label = rect_of(&h, "Step through the test");
    let tabs = rect_of(&h, "Axes table");
    assert!(label.top() > PHONE.1 / 2.0, "the panel is under the scene");
    // A finger on the words, pushed up 200 points, as a list is scrolled on a phone.
    finger(
        &mut h,
        label.center(),
        label.center() - egui::vec2(0.0, 200.0),
    );
    assert!(!text_selected(&h), "a finger's drag selected text");
    let moved = tabs.top() - rect_of(&h, "Axes table").top();
    // (To its end: 64 points here; a drag that selects scrolls it none.)
    assert!(
        moved > 50.0,
        "the panel scrolled {moved} points under a 200-point drag"
    );
}

#[test]
fn the_phone_layout_offers_the_shapes_list_and_its_add_buttons() {
    let mut h = harness_at(app(Some(shapes("every-pair.json"))), PHONE);
    let shapes = h.state().scene().shapes.len();
    // The lab's panel is shown under the scene; the shapes panel is a tap away.
    h.get_by_label("Step through the test");
    let switch = rect_of(&h, "Shapes");
    tap(&mut h, switch.center());
    h.get_by_label("box-2 (polygon)");
    // + Circle in sight at the panel's foot; twelve shapes push the rest of the + buttons
    // below it, a finger's drag away.
    h.get_by_label("+ Circle");
    let regular = rect_of(&h, "+ Regular polygon");
    assert!(
        regular.top() > switch.top(),
        "+ Regular polygon is below the panel's edge"
    );
    let heading = h.get_by_role_and_label(Role::Label, "Shapes").rect();
    finger(
        &mut h,
        heading.center(),
        heading.center() - egui::vec2(0.0, 300.0),
    );
    assert!(
        !text_selected(&h),
        "a finger's drag selected the heading's text"
    );
    let regular = rect_of(&h, "+ Regular polygon");
    assert!(
        regular.bottom() < switch.top(),
        "+ Regular polygon is in the panel: {regular:?}"
    );
    tap(&mut h, regular.center());
    assert_eq!(
        h.state().scene().shapes.len(),
        shapes + 1,
        "a polygon added"
    );
    // And back to the explanation.
    let explain = rect_of(&h, "Explain");
    tap(&mut h, explain.center());
    h.get_by_label("Step through the test");
}

/// The presenter bar's buttons, where they are.
fn bar(h: &Harness<'static, App>) -> Vec<(&'static str, egui::Rect)> {
    ["Lessons", "Back", "Next", "Restore", "Exit"]
        .into_iter()
        .map(|b| (b, h.get_by_role_and_label(Role::Button, b).rect()))
        .collect()
}

#[test]
fn the_presenters_buttons_stay_in_place_from_step_to_step() {
    for size in [PHONE, (1280.0, 720.0)] {
        let app = App::new(Options {
            lesson: Some(LessonSource::BuiltIn("sat-polygons".into())),
            no_data_dir: true,
            ..Default::default()
        });
        let mut h = harness_at(app, size);
        let first = bar(&h);
        let next = first[2].1;
        // Next tapped into step mode and on to "axis 3 of N": the finger stays where it was.
        for step in 0..3 {
            tap(&mut h, next.center());
            assert_eq!(h.state().step(), Some(step), "at {size:?}");
            assert_eq!(
                bar(&h),
                first,
                "at {size:?}, after {} taps of Next",
                step + 1
            );
        }
        let restore = first[3].1;
        assert!(
            (restore.center().y - next.center().y).abs() < next.height() / 2.0,
            "Restore on Next's row at {size:?}: {restore:?}, {next:?}"
        );
    }
}

#[test]
fn fingers_are_told_what_fingers_do() {
    let mut h = harness_at(app(None), PHONE);
    let corner = h.state().view_rect().left_top() + egui::vec2(12.0, 12.0);
    tap(&mut h, corner);
    // Neither the status bar nor the panel speaks of a wheel or keys to a finger.
    let desktop = ["wheel", "arrow key", "middle", "Right steps"];
    let said = |h: &Harness<'static, App>, word: &str| h.query_all_by_label_contains(word).count();
    for word in desktop {
        assert_eq!(said(&h, word), 0, "a finger is told of {word:?}");
    }
    assert_eq!(
        said(&h, "pinch to zoom"),
        1,
        "the status bar says how to zoom"
    );
    // A mouse moved over the window: its words come back.
    h.hover_at(h.state().view_rect().center());
    h.run_steps(2);
    assert_eq!(said(&h, "wheel to zoom"), 1);
    assert_eq!(said(&h, "pinch to zoom"), 0);
}

#[test]
fn the_projector_look_is_kept_for_the_next_start() {
    let data = tempfile::tempdir().unwrap();
    let options = || Options {
        data_dir: Some(data.path().to_path_buf()),
        ..Default::default()
    };
    let mut h = harness(App::new(options()));
    assert!(!h.state().options().projector);
    h.state_mut()
        .run(Command::Lesson(LessonCommand::Projector(true)));
    h.run_steps(2);
    drop(h);
    let mut h = harness(App::new(options()));
    assert!(h.state().options().projector, "the look was kept");
    h.state_mut()
        .run(Command::Lesson(LessonCommand::Projector(false)));
    h.run_steps(2);
    drop(h);
    let h = harness(App::new(options()));
    assert!(!h.state().options().projector, "turned off, it stays off");
}

/// A lesson presented to a finger names the bar's buttons, not keys; and when it ends, a window
/// that had nothing of the user's aside (a lesson from a link or carried in a page) does not
/// say "your own scene is back".
#[test]
fn a_lesson_presented_to_a_finger_names_the_buttons_and_ends_without_a_scene_of_yours() {
    let mut h = harness_at(app(None), PHONE);
    let corner = h.state().view_rect().left_top() + egui::vec2(12.0, 12.0);
    tap(&mut h, corner);
    let message = |h: &Harness<'static, App>| {
        h.state()
            .message()
            .map(|m| m.text.clone())
            .unwrap_or_default()
    };
    h.state_mut()
        .run(Command::Lesson(LessonCommand::Open(LessonSource::BuiltIn(
            "sat-polygons".into(),
        ))));
    h.run_steps(2);
    let said = message(&h);
    assert!(said.starts_with("presenting"), "{said}");
    assert!(
        said.contains("Next goes on") && !said.contains("Right") && !said.contains("Esc"),
        "{said}"
    );
    h.state_mut().run(Command::Lesson(LessonCommand::End));
    h.run_steps(2);
    let said = message(&h);
    assert!(said.starts_with("ended"), "{said}");
    assert!(!said.contains("your own scene"), "{said}");
}
