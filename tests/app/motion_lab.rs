//! The motion lab: runs, playback, events, recordings, the pair at a frame.

use super::common::*;

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
    assert_eq!(h.state().motion_lab().settings().dt_s, 0.1);
    let tunnel = h
        .state()
        .motion_lab()
        .events()
        .iter()
        .find(|e| e.kind() == EventKind::Tunnelled)
        .cloned()
        .expect("the ball passes through the wall");
    assert_eq!((tunnel.step(), tunnel.a, tunnel.b), (1, 0, 1));
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
    let settings = RunSettings {
        resolver: Resolver::Mistake(Mistake::NaiveSmallestOverlap),
        ..h.state().motion_lab().settings().clone()
    };
    h.state_mut()
        .run(Command::Motion(MotionCommand::Settings(settings)));
    h.run_steps(2);
    let pushed = h
        .state()
        .motion_lab()
        .events()
        .iter()
        .find(|e| e.kind() == EventKind::PushedIn)
        .cloned()
        .expect("the naive resolver pushes the player in");
    seek(&mut h, TimelineId::Motion, pushed.step());
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
    h.get_by_label(&format!("Frame {}, obstacle and player:", pushed.step()));
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
    seek(&mut h, TimelineId::Motion, 0);
    let (_, start) = h.state().motion_lab().pair.report().unwrap();
    assert!(start.contact.is_none());
    assert!(start.proximity.distance > 0.0);
    h.get_by_label("Frame 0, obstacle and player:");
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
    assert_eq!(h.state().motion_lab().settings().dt_s, 1.0 / 60.0);
    let through: Vec<_> = h
        .state()
        .motion_lab()
        .events()
        .iter()
        .filter(|e| e.kind() == EventKind::PushedThrough)
        .cloned()
        .collect();
    assert_eq!(through.len(), 1);
    assert_eq!((through[0].step(), through[0].shape()), (3, Some(1)));
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

/// Opening a run sets the motion lab's panel from the run (it contradicted the run shown), and
/// every message of the lab goes to the status bar, replaced by the next action's.
#[test]
fn opening_a_run_sets_the_panel_from_it_and_messages_follow_the_state() {
    use collidoscope::app::Lab;
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
    let settings = RunSettings {
        dt_s: 0.1,
        steps: 20,
        ccd: true,
        bound: true,
        ..h.state().motion_lab().settings().clone()
    };
    h.state_mut()
        .run(Command::Motion(MotionCommand::Settings(settings)));
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
    let settings = lab.settings();
    assert_eq!(
        (settings.dt_s, settings.steps, settings.ccd, settings.bound),
        (1.0 / 60.0, 240, false, false)
    );
    assert_eq!(lab.config().substeps, Substeps::Fixed(1));
    assert_eq!(lab.last_frame(), 240);
    assert_eq!(lab.frame(), 0);
    // Its shapes are listed read-only in place of the document's, with no handles to drag.
    h.get_by_label_contains("The run opened from a file (read-only)");
    assert!(h.query_by_label("+ Circle").is_none());
    // A drag over the ball pans: the document's shapes stay where they are.
    let before = h.state().scene().shapes[1].placed.pose.position;
    drag(&mut h, before, before + DVec2::new(1.0, 1.0));
    assert_eq!(h.state().scene().shapes[1].placed.pose.position, before);
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

/// A run opened from a file belongs to the document it was shown with: opening another
/// document runs that one instead (it used to stay on screen, and the latency lab made its log
/// from it).
#[test]
fn opening_another_document_replaces_an_opened_run() {
    use collidoscope::app::Lab;
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(app(Some(shapes("bullet-and-wall.json"))));
    h.state_mut().set_lab(Lab::Motion);
    h.run_steps(2);
    let path = dir.path().join("bw.rec");
    h.state_mut()
        .run(Command::Motion(MotionCommand::SaveRun(path.clone())));
    h.state_mut()
        .run(Command::Motion(MotionCommand::OpenRun(path)));
    h.run_steps(2);
    h.state_mut()
        .run(Command::Open(shapes("crossing-players.json")));
    h.run_steps(3);
    let (recording, _) = h.state().motion_lab().recording().expect("a run");
    let names: Vec<_> = recording
        .scene()
        .shapes
        .iter()
        .map(|s| s.name.clone().unwrap_or_default())
        .collect();
    assert_eq!(names, ["runner", "diver", "crate", "bullet"]);
    assert_eq!(h.state().motion_lab().frame(), 0);
}

/// Issue 59, items 7 and 8: the motion lab's gravity is the file's, edited and undone as the
/// shapes are; a seam event clicked in the list shows its step with its pair explained and the
/// seam drawn as the capture lab draws one (the face in red, the covering tile outlined, the
/// body's velocity before and after).
#[test]
fn gravity_is_edited_with_undo_and_a_clicked_seam_is_drawn_with_its_pair() {
    let tiles: Vec<String> = (0..6)
        .map(|k| {
            format!(
                r#"{{"name": "tile{k}", "kind": "polygon", "points": [[-16, -16], [16, -16], [16, 16], [-16, 16]], "position": [{}, 16]}}"#,
                16 + 32 * k
            )
        })
        .collect();
    let text = format!(
        r#"{{"format": "collidoscope-shapes", "version": 3, "shapes": [{}, {{"name": "crate", "kind": "polygon", "points": [[-12, -12], [12, -12], [12, 12], [-12, 12]], "position": [40, 43.5], "body": "dynamic", "velocity": [200, 0]}}]}}"#,
        tiles.join(", ")
    );
    let scene =
        collidoscope::scene::parse(std::path::Path::new("tiles.json"), text.as_bytes()).unwrap();
    let mut h = harness(app(None));
    h.state_mut().set_scene(scene);
    h.get_by_label("Motion lab").click();
    h.run_steps(3);
    // No gravity: the crate floats on, nothing happens.
    assert_eq!(h.state().scene().gravity, None);
    assert!(h.state().motion_lab().events().is_empty());
    h.get_by_label("Gravity").click();
    h.run_steps(2);
    assert_eq!(h.state().scene().gravity, Some(DVec2::new(0.0, -9.81)));
    h.get_by_label("gy").click();
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("gy").type_text("-900");
    h.key_press(Key::Enter);
    h.run_steps(3);
    assert_eq!(h.state().scene().gravity, Some(DVec2::new(0.0, -900.0)));
    assert!(h.state().is_dirty());
    // The run follows: the crate sinks into the tiles and catches on a seam.
    let events = h.state().motion_lab().events().to_vec();
    let (k, seam) = events
        .iter()
        .enumerate()
        .find(|(_, e)| e.kind() == collidoscope::motion::EventKind::Seam)
        .expect("a seam under gravity");
    let scene = h.state().scene().clone();
    let sentence = seam.sentence(|i| scene.shapes[i].display_name(i));
    // The list is under the panel's other rows: brought into view, then clicked.
    h.get_by_label(&sentence).scroll_to_me();
    h.run_steps(3);
    h.get_by_label(&sentence).click_accesskit();
    h.run_steps(3);
    assert_eq!(
        h.state().motion_lab().frame(),
        seam.step(),
        "{:?}",
        h.state().message()
    );
    assert_eq!(h.state().motion_lab().chosen_event(), Some(&events[k]));
    assert_eq!(h.state().pair(), Some((seam.a, seam.b)));
    let picture = h
        .state()
        .motion_lab()
        .event_picture()
        .expect("the seam drawn");
    assert!(picture.face.is_some() || picture.corner.is_some());
    assert_eq!(
        picture.outlined.len(),
        1,
        "the tile that covers the face: {picture:?} {seam:?}"
    );
    assert_eq!(picture.arrows.len(), 2, "before and after");
    let rect = h.state().view_rect();
    let labels = h.state_mut().frame_work(rect).labels;
    assert!(
        labels
            .iter()
            .any(|l| l.text == "seam face" || l.text == "seam corner"),
        "{:?}",
        labels.iter().map(|l| &l.text).collect::<Vec<_>>()
    );
    // Undo takes the gravity back (one step for the typed value, one for turning it on).
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().scene().gravity, Some(DVec2::new(0.0, -9.81)));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().scene().gravity, None);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().scene().gravity, Some(DVec2::new(0.0, -9.81)));
}

/// The motion lab's Plot panel: the explained pair over every step of the run (Box2D's ghost
/// bumps: the crate on the tiles caught on tile 2 at step 12 stops dead, 1.5 to 0), the event
/// marked at its step; a click on the plot shows that step.
#[test]
fn the_motion_lab_plots_the_run_and_a_click_shows_that_step() {
    use collidoscope::app::Lab;
    use collidoscope::series::{MarkKind, Quantity};
    let mut h = harness(app(Some(shapes("ghost-bumps.json"))));
    h.state_mut().set_lab(Lab::Motion);
    h.run_steps(2);
    // Explain the tiles' crate against tile 2.
    let names: Vec<Option<String>> = h
        .state()
        .scene()
        .shapes
        .iter()
        .map(|s| s.name.clone())
        .collect();
    let index = |name: &str| {
        names
            .iter()
            .position(|n| n.as_deref() == Some(name))
            .unwrap()
    };
    let (tile, crate_) = (index("tile 2"), index("crate on the tiles"));
    h.state_mut().set_pair(tile, crate_);
    h.run_steps(3);
    let plot = h.state().motion_lab().plot().expect("plotted").clone();
    assert_eq!(plot.shapes, ["crate on the tiles"]);
    let speed = &plot
        .series
        .iter()
        .find(|s| s.quantity == Quantity::Speed)
        .unwrap()
        .values;
    assert_eq!(speed[0], 1.5);
    assert_eq!(speed[11], 1.5);
    assert_eq!(speed[12], 0.0);
    assert!(
        plot.markers
            .iter()
            .any(|m| m.frame == 12 && matches!(m.kind, MarkKind::Event(_))),
        "{:?}",
        plot.markers
    );
    let (area, t0, t1) = collidoscope::app::plot_area(&h.ctx, "motion plot").unwrap();
    let x = area.left() + ((0.5 - t0) / (t1 - t0)) as f32 * area.width();
    click_at(&mut h, egui::pos2(x, area.center().y));
    h.run_steps(3);
    let at = h.state().motion_lab().frame();
    assert!((29..=31).contains(&at), "clicked at 0.5 s, shown step {at}");
}

/// Playing a crowd whose names show: each frame's static layer, built again with every frame,
/// keeps only the lines near the labels, and the labels stand where a view that kept all of its
/// lines (a fresh window opened on that frame) puts them.
#[test]
fn a_played_frame_places_its_labels_as_a_fresh_view_of_that_frame_does() {
    use collidoscope::app::{Fit, Lab};
    use collidoscope::geometry::{Capsule, Circle, ConvexPolygon, Placed, Pose};
    use collidoscope::scene::{Body, Scene, SceneShape};
    let side = 8;
    let shapes = (0..side * side)
        .map(|i| {
            let at = DVec2::new((i % side) as f64 * 1.8, (i / side) as f64 * 1.8);
            let pose = Pose::new(at, i as f64 * 0.7);
            let placed = match i % 3 {
                0 => Placed::new(Circle::new(0.9).unwrap(), pose),
                1 => Placed::new(
                    Capsule::new(DVec2::new(-0.6, 0.0), DVec2::new(0.6, 0.0), 0.4).unwrap(),
                    pose,
                ),
                _ => Placed::new(ConvexPolygon::regular(3 + i % 6, 0.95).unwrap(), pose),
            };
            let mut s = SceneShape::named(&format!("crate {i} of many"), placed);
            s.motion.body = Body::Dynamic;
            s.motion.velocity = DVec2::from_angle(i as f64 * 2.4) * 3.0;
            s
        })
        .collect();
    let scene = Scene::from_shapes(shapes);
    let rect = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 700.0));
    let mut playing = app(None);
    playing.set_scene(scene);
    playing.fit(Fit::Scene);
    playing.set_lab(Lab::Motion);
    playing.select(Some(9));
    playing.frame_work(rect);
    let mut names = 0;
    for k in 1..=40 {
        playing.run(Command::Playback(
            TimelineId::Motion,
            PlaybackCommand::Seek(k),
        ));
        let played = playing.frame_work(rect);
        if k % 8 == 0 {
            // The same frame built from nothing: the static layer keeps all its lines.
            playing.forget_view_layers();
            let fresh = playing.frame_work(rect);
            assert_eq!(played.labels, fresh.labels, "frame {k}");
            assert_eq!(played.boxes, fresh.boxes, "frame {k}");
            names += played.labels.len();
        }
    }
    assert!(names > 5 * 20, "the names show ({names} in 5 frames)");
}
