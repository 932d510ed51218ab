//! The broad-phase lab and the casts lab.

use super::common::*;

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
