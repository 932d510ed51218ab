//! The capture lab: a game's frames opened as `collidoscope CAPTURE` opens them, the first
//! divergence shown, the strip's next and previous, a y-down game drawn y down, a claim drawn
//! beside the exact result with a mistake's test, a frame exported as a fixture.

use super::common::*;
use collidoscope::app::{CaptureCommand, ClaimRef, Lab};
use collidoscope::capture::{
    BodyShape, CaptureWriter, Engine, Header, Manifold, ManifoldPoint, NormalFrom, Penetration,
    ScanState,
};
use collidoscope::geometry::{Circle, ConvexPolygon, DVec2};
use collidoscope::picture::ArrowKind;
use collidoscope::query::Mistake;
use collidoscope::scene::{Body, Precision};

/// A platformer in pixels, y down: a ball on a ledge (ids 4 and 9). The engine reports the
/// normal reversed at frames 30 and 75, and nothing else wrong.
fn platformer(path: &Path) {
    platformer_to(std::fs::File::create(path).unwrap(), None, None);
}

/// The platformer written to `out`, a step every `pace` when given (a game running); with
/// `nudge` (a step and a distance), the ball is pushed right by that much more at each step
/// from that one (another run drifting away).
fn platformer_to<W: std::io::Write>(
    out: W,
    pace: Option<std::time::Duration>,
    nudge: Option<(u64, f64)>,
) -> W {
    let mut header = Header::f32_metres(Engine::new("platformer", "0.3"));
    header.units = "px".into();
    header.y_up = false;
    // Normal from A toward B (the ledge toward the ball: up the screen, so -y).
    let mut writer = CaptureWriter::new(
        out,
        &header,
        NormalFrom::AToB,
        Penetration::NegativeSeparation,
    )
    .unwrap();
    let ledge = BodyShape::new(
        4,
        ConvexPolygon::rectangle(DVec2::new(200.0, 10.0)).unwrap(),
        DVec2::new(400.0, 310.0),
        DVec2::X,
    )
    .named("ledge");
    for step in 0..120u64 {
        let depth = 0.5 + 0.01 * (step % 5) as f64;
        let pushed = nudge.map_or(0.0, |(from, by)| {
            if step >= from {
                (step - from + 1) as f64 * by
            } else {
                0.0
            }
        });
        let ball = BodyShape::new(
            9,
            Circle::new(16.0).unwrap(),
            DVec2::new(380.0 + step as f64 * 0.5 + pushed, 300.0 - 16.0 + depth),
            DVec2::X,
        )
        .named("ball")
        .moving(Body::Dynamic, DVec2::new(30.0, 0.0), 0.0, true);
        let sign = if step == 30 || step == 75 { 1.0 } else { -1.0 };
        let contact = Manifold {
            a: 4,
            b: 9,
            normal: DVec2::new(0.0, sign),
            points: vec![ManifoldPoint {
                point: DVec2::new(380.0 + step as f64 * 0.5, 300.0 + depth / 2.0),
                separation: -depth,
                impulse: None,
            }]
            .into(),
            piece: None,
        };
        writer
            .frame(step as f64 / 60.0, &[ledge.clone(), ball], &[contact])
            .unwrap();
        if let Some(pace) = pace {
            std::thread::sleep(pace);
        }
    }
    writer.finish().unwrap()
}

/// The window on `app`, at 1280x800: a capture is read on its own thread, so the window
/// keeps repainting until it is read and is run step by step ([`scanned`]).
fn capture_harness(app: App) -> Harness<'static, App> {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_render_cursor(false)
        .build_ui_state(|ui, app: &mut App| app.ui_for_test(ui), app);
    harness.run_steps(1);
    harness
}

/// Run frames until the capture's scan is done.
fn scanned(h: &mut Harness<'static, App>) {
    for _ in 0..2_000 {
        h.run_steps(1);
        let done = h
            .state()
            .capture_lab()
            .index()
            .is_some_and(|i| !matches!(i.state(), ScanState::Reading(_)));
        if done {
            h.run_steps(2);
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("the capture was never read to its end");
}

#[test]
fn a_capture_opens_on_its_first_divergence_and_steps_through_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("platformer.capture.jsonl");
    platformer(&path);
    let mut h = capture_harness(app(Some(path.clone())));
    scanned(&mut h);
    assert_eq!(h.state().lab(), Lab::Capture);
    let lab = h.state().capture_lab();
    let index = lab.index().unwrap();
    assert_eq!(index.counts(), (120, 118));
    assert_eq!(index.divergences().len(), 2);
    // Opened on the first divergence, its claim explained.
    let ball_on_ledge = ClaimRef {
        a: 4,
        b: 9,
        piece: None,
    };
    assert_eq!(lab.playback.position, 30);
    assert_eq!(lab.selected(), Some(ball_on_ledge));
    h.get_by_label(
        "platformer 0.3; f32: a claim agrees within tau = 2^-20 x M, M the pair's largest coordinate; lengths in px, y down",
    );
    h.get_by_label("120 frames, 120 claims: 118 agree, 2 disagree (2 normal-reversed)");
    // The status bar says so once the scan is done.
    h.get_by_label_contains("judged every claim of");
    h.get_by_label_contains("reproduced by normal-reversed");
    // y down: the ball (above the ledge on the screen) has the smaller y.
    assert!(h.state().camera().y_down);
    let ball = h.state().world_to_screen(DVec2::new(400.0, 290.0));
    let ledge = h.state().world_to_screen(DVec2::new(400.0, 310.0));
    assert!(ball.y < ledge.y, "{ball:?} above {ledge:?}");
    // The claim is drawn beside the exact result.
    let rect = h.state().view_rect();
    let labels = h.state_mut().frame_work(rect).labels;
    assert!(
        labels.iter().any(|l| l.text.starts_with("claimed")),
        "{:?}",
        labels.iter().map(|l| &l.text).collect::<Vec<_>>()
    );
    // The mistake's own test, drawn when asked.
    h.get_by_label("normal-reversed").click();
    h.run_steps(2);
    assert_eq!(
        h.state().capture_lab().shown_mistake(),
        Some(Mistake::NormalReversed)
    );
    // Next divergence, by button and by key; and back.
    h.get_by_label("Next divergence").click();
    h.run_steps(2);
    assert_eq!(h.state().capture_lab().playback.position, 75);
    assert_eq!(h.state().capture_lab().shown().unwrap().frame.frame, 75);
    h.key_press_modifiers(Modifiers::SHIFT, Key::D);
    h.run_steps(2);
    assert_eq!(h.state().capture_lab().playback.position, 30);
    // Stepping a frame shows an agreeing claim.
    h.key_press(Key::ArrowRight);
    h.run_steps(2);
    assert_eq!(h.state().capture_lab().playback.position, 31);
    h.get_by_label_contains("agrees: ");
    // Fifteen presses faster than the frames come (all in one frame): fifteen steps.
    for _ in 0..15 {
        h.key_press(Key::ArrowRight);
    }
    h.run_steps(2);
    assert_eq!(h.state().capture_lab().playback.position, 46);
    for _ in 0..15 {
        h.key_press(Key::ArrowLeft);
    }
    h.run_steps(2);
    assert_eq!(h.state().capture_lab().playback.position, 31);
    // The divergence list (the panel scrolled down to it, as a user would): a click shows
    // that frame and claim.
    wheel_down(&mut h, egui::pos2(1080.0, 300.0), 4);
    h.get_by_label("frame 75: ledge / ball: normal-reversed")
        .click();
    h.run_steps(2);
    assert_eq!(h.state().capture_lab().playback.position, 75);
}

#[test]
fn a_frame_of_a_capture_is_exported_as_a_fixture_and_the_document_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("platformer.capture.jsonl");
    platformer(&path);
    let mut h = harness(app(Some(shapes("capsule-vs-circle.json"))));
    // An unsaved edit: opening a capture asks nothing and keeps it.
    let mut moved = h.state().scene().shapes[0].clone();
    moved.placed.pose.position += DVec2::new(0.5, 0.0);
    h.state_mut()
        .run(Command::Edit(collidoscope::app::Edit::Replace {
            shape: moved,
            gesture: None,
        }));
    let before = h.state().scene().clone();
    assert!(h.state().is_dirty());
    h.state_mut().run(Command::Open(path.clone()));
    scanned(&mut h);
    assert_eq!(h.state().lab(), Lab::Capture);
    assert!(h.state().is_dirty());
    assert_eq!(h.state().scene().shapes, before.shapes);
    assert_eq!(h.state().path().unwrap(), shapes("capsule-vs-circle.json"));
    // The field proposes a file beside the capture, named for the frame shown.
    let proposed = h.state().capture_lab().path.text.clone();
    assert_eq!(
        proposed,
        dir.path()
            .join("platformer-frame-30.json")
            .display()
            .to_string()
    );
    let written = dir.path().join("case.json");
    h.state_mut()
        .run(Command::Capture(CaptureCommand::ExportFrame(
            written.clone(),
        )));
    h.run_steps(2);
    let scene = collidoscope::scene::load(&written).unwrap();
    assert_eq!(scene.precision, Some(Precision::F32));
    assert_eq!(scene.claims.len(), 1);
    assert_eq!(scene.shapes.len(), 2);
    assert!(
        h.state().message().unwrap().text.contains("case.json"),
        "{:?}",
        h.state().message()
    );
    // An existing file is replaced only when asked twice.
    std::fs::write(&written, "mine").unwrap();
    h.state_mut()
        .run(Command::Capture(CaptureCommand::ExportFrame(
            written.clone(),
        )));
    h.run_steps(1);
    let message = h.state().message().unwrap().clone();
    assert!(
        message.error && message.text.contains("exists"),
        "{message:?}"
    );
    assert_eq!(std::fs::read_to_string(&written).unwrap(), "mine");
    h.state_mut()
        .run(Command::Capture(CaptureCommand::ExportFrame(
            written.clone(),
        )));
    h.run_steps(1);
    assert!(collidoscope::scene::load(&written).is_ok());
    // A file that is no capture and no shape set is refused by name, the lab left as it was.
    let broken = dir.path().join("broken.capture.jsonl");
    std::fs::write(
        &broken,
        "{\"format\": \"collidoscope-capture\", \"version\": 9}\n",
    )
    .unwrap();
    h.state_mut().run(Command::Open(broken));
    h.run_steps(2);
    let message = h.state().message().unwrap();
    assert!(
        message.error && message.text.contains("broken.capture.jsonl: line 1"),
        "{message:?}"
    );
    assert_eq!(
        h.state().capture_lab().index().unwrap().path(),
        path.as_path()
    );
}

/// The motion lab's run saved as a capture opens in the capture lab, its resolver named as the
/// engine and its mistake as the cause of every claim that differs.
#[test]
fn a_motion_run_saved_as_a_capture_has_its_resolvers_mistake_named() {
    use collidoscope::Cause;
    use collidoscope::motion::Resolver;
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(app(Some(shapes("clockwise-obstacle-run.json"))));
    h.state_mut().set_lab(Lab::Motion);
    h.run_steps(2);
    let naive = RunSettings {
        resolver: Resolver::Mistake(Mistake::NaiveSmallestOverlap),
        steps: 120,
        ..h.state().motion_lab().settings().clone()
    };
    h.state_mut()
        .run(Command::Motion(MotionCommand::Settings(naive)));
    h.state_mut().run(Command::Motion(MotionCommand::Run));
    h.run_steps(1);
    h.state_mut()
        .run(Command::Motion(MotionCommand::SaveCapture(
            dir.path().join("obstacle.rec"),
        )));
    h.run_steps(1);
    let written = dir.path().join("obstacle.capture.jsonl.gz");
    let message = h.state().message().unwrap().text.clone();
    assert!(message.contains("obstacle.capture.jsonl.gz"), "{message}");
    h.state_mut().run(Command::Open(written));
    scanned(&mut h);
    assert_eq!(h.state().lab(), Lab::Capture);
    let index = h.state().capture_lab().index().unwrap();
    assert_eq!(index.frames().len(), 121);
    assert!(!index.divergences().is_empty());
    let naive = Cause::Mistake(Mistake::NaiveSmallestOverlap);
    assert!(
        index
            .divergences()
            .iter()
            .all(|d| d.causes.contains(&naive))
    );
    let header = collidoscope::capture::words::capture_header(index.header());
    assert!(
        header.starts_with("collidoscope 0.1.0 (ccd false, dt 0.016667, resolver naive-smallest-overlap, substeps fixed:1); f64: a claim agrees within 1e-6; lengths in scene units, y up"),
        "{header}"
    );
    h.get_by_label(&header);
}

/// A capture whose claims all agree while a crate catches on a seam and a bullet tunnels
/// (tests/captures/tiles.capture.jsonl): the status bar counts the events, E and Shift+E and
/// the buttons step through them with their pairs explained, and the frame's panel says each
/// with its fix.
#[test]
fn events_are_counted_stepped_through_and_said_with_their_fixes() {
    let path = std::path::PathBuf::from("tests/captures/tiles.capture.jsonl");
    let mut h = capture_harness(app(Some(path)));
    scanned(&mut h);
    let index = h.state().capture_lab().index().unwrap();
    let kinds: Vec<&str> = index.events().iter().map(|e| e.kind().name()).collect();
    assert_eq!(kinds, ["seam", "tunnelled", "seam"]);
    h.get_by_label_contains("events: 2 seam (2 caught), 1 tunnelled (E steps to them)");
    let crate_on_tile2 = ClaimRef {
        a: 2,
        b: 9,
        piece: None,
    };
    let wall_and_bullet = ClaimRef {
        a: 3,
        b: 5,
        piece: None,
    };
    h.key_press(Key::E);
    h.run_steps(2);
    assert_eq!(h.state().capture_lab().playback.position, 0);
    assert_eq!(h.state().capture_lab().selected(), Some(crate_on_tile2));
    // Said in the status bar, in the frame's panel and under the picture, with its fix.
    assert_eq!(
        h.query_all_by_label_contains("crate caught on the seam between tile1 and tile2")
            .count(),
        3
    );
    assert_eq!(
        h.query_all_by_label_contains("fix: make the floor one shape")
            .count(),
        2
    );
    // Its picture: tile2's left face in red, tile1 (covering it) outlined, the crate's
    // velocity before (6.5 m/s) and after (2.16 m/s).
    let picture = h
        .state()
        .capture_lab()
        .event_picture()
        .expect("a picture")
        .clone();
    let (p, q) = picture.face.expect("the seam's face");
    let ends = [p.min(q), p.max(q)];
    assert_eq!(ends, [DVec2::new(0.0, -1.0), DVec2::new(0.0, 0.0)]);
    assert_eq!(picture.outlined.len(), 1);
    assert_eq!(picture.outlined[0].pose.position, DVec2::new(-1.0, -0.5));
    let arrows: Vec<(ArrowKind, f64, DVec2)> = picture
        .arrows
        .iter()
        .map(|a| (a.kind, a.value, a.from))
        .collect();
    assert_eq!(
        arrows,
        [
            (ArrowKind::Before, 6.5, DVec2::new(-0.248, 0.24)),
            (ArrowKind::After, 2.16, DVec2::new(-0.2485, 0.24))
        ]
    );
    // Both drawn in the crate's direction of travel, the faster as long as the crate is
    // across.
    assert!((picture.arrows[0].vector.length() - 0.5 * 2f64.sqrt()).abs() < 1e-12);
    assert!(picture.arrows[1].vector.x > 0.0 && picture.arrows[1].vector.y == 0.0);
    h.get_by_label("Next event").click();
    h.run_steps(2);
    assert_eq!(h.state().capture_lab().selected(), Some(wall_and_bullet));
    // The tunnel: both straight paths and the shapes where they first touch, at 0.45 of
    // the step (the bullet's front at the wall's left face, x = 2.95).
    let picture = h
        .state()
        .capture_lab()
        .event_picture()
        .expect("a picture")
        .clone();
    assert_eq!(
        picture.paths,
        [
            (DVec2::new(3.0, 0.0), DVec2::new(3.0, 0.0)),
            (DVec2::new(2.0, 0.0), DVec2::new(4.0, 0.0))
        ]
    );
    assert_eq!(picture.ghosts.len(), 2);
    assert!((picture.ghosts[1].pose.position.x - 2.9).abs() < 1e-6);
    let touch = picture.touch.expect("the first touch");
    assert!((touch - DVec2::new(2.95, 0.0)).length() < 1e-6, "{touch}");
    assert_eq!(
        h.query_all_by_label_contains("bullet tunnelled through wall")
            .count(),
        3
    );
    h.key_press(Key::E);
    h.run_steps(2);
    assert_eq!(h.state().capture_lab().playback.position, 1);
    assert_eq!(h.state().capture_lab().selected(), Some(crate_on_tile2));
    h.key_press_modifiers(Modifiers::SHIFT, Key::E);
    h.run_steps(2);
    assert_eq!(h.state().capture_lab().playback.position, 0);
    assert_eq!(h.state().capture_lab().selected(), Some(wall_and_bullet));
    h.key_press(Key::E);
    h.key_press(Key::E);
    h.run_steps(2);
    h.get_by_label_contains("no event after this frame");
}

/// Box2D's recording of the tile floor (tests/captures/tile-floor.b2rec), replayed into a
/// capture: the seam event names its pair (tile, crate) in the other order from the frame's
/// claim (crate, tile); stepping to it explains that claim, never "no claim" (found by a new
/// user's try).
#[test]
fn an_event_whose_pair_is_claimed_the_other_way_round_explains_the_claim() {
    let dir = tempfile::tempdir().unwrap();
    let capture = dir.path().join("tile.capture.jsonl");
    collidoscope::capture::box2d::replay::replay_file(
        std::path::Path::new("tests/captures/tile-floor.b2rec"),
        &capture,
        |_, _| {},
    )
    .unwrap();
    let mut h = capture_harness(app(Some(capture)));
    scanned(&mut h);
    let seam = h.state().capture_lab().index().unwrap().events()[0].clone();
    assert_eq!((seam.a, seam.b), (4294967300, 4294967310));
    h.key_press(Key::E);
    h.run_steps(3);
    assert_eq!(
        h.state().capture_lab().selected(),
        Some(ClaimRef {
            a: 4294967310,
            b: 4294967300,
            piece: None
        })
    );
    assert_eq!(h.query_all_by_label_contains("holds no claim").count(), 0);
    // The pair's axes are said of frame 23, the frame's number.
    h.get_by_label("Frame 23, crate and tile4:");
    // Named as the game named its bodies in Box2D (b2Body_SetName, kept by the recording).
    assert!(
        h.query_all_by_label_contains("crate caught on the seam between tile3 and tile4")
            .count()
            > 0
    );
}

/// Press and release at world point `at` in the scene (a click), running a few frames.
fn click_scene(h: &mut Harness<'static, App>, at: DVec2) {
    let p = h.state().world_to_screen(at);
    h.hover_at(p);
    h.run_steps(1);
    h.drag_at(p);
    h.run_steps(1);
    h.drop_at(p);
    h.run_steps(3);
}

/// Two shapes clicked in a capture's frame are explained as a pair: with no claim, the
/// stage that left them out is named (a shared negative group; boxes apart by more than the
/// margin), with both filters; a claimed pair clicked gives its claim.
#[test]
fn two_shapes_clicked_in_a_capture_say_which_stage_left_their_pair_out() {
    use collidoscope::capture::{Filter, MARGIN_SETTING};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ghosts.capture.jsonl");
    let header =
        Header::f32_metres(Engine::new("box2d", "3.2.0").with_setting(MARGIN_SETTING, 0.02));
    let out = std::fs::File::create(&path).unwrap();
    let mut writer = CaptureWriter::new(
        out,
        &header,
        NormalFrom::AToB,
        Penetration::NegativeSeparation,
    )
    .unwrap();
    let ghost = Filter::box2d(1, u64::MAX, -1);
    let floor = BodyShape::new(
        1,
        ConvexPolygon::rectangle(DVec2::new(6.0, 0.5)).unwrap(),
        DVec2::new(0.0, -0.5),
        DVec2::X,
    )
    .named("floor")
    .filtered(Filter::box2d(1, u64::MAX, 0));
    let boxed = |id: u64, name: &str, x: f64, y: f64, filter: Filter| {
        BodyShape::new(
            id,
            ConvexPolygon::rectangle(DVec2::splat(0.25)).unwrap(),
            DVec2::new(x, y),
            DVec2::X,
        )
        .named(name)
        .moving(Body::Dynamic, DVec2::new(0.0, -0.1), 0.0, true)
        .filtered(filter)
        .on_body(id)
    };
    let resting = Manifold {
        a: 1,
        b: 2,
        normal: DVec2::Y,
        points: vec![ManifoldPoint {
            point: DVec2::new(-2.0, -0.001),
            separation: -0.002,
            impulse: None,
        }]
        .into(),
        piece: None,
    };
    // A row of static tiles up high: more shapes than the document has (a pick of one of
    // them once drew the document's shape of that place in the list, which was not there).
    let tile = |k: u64| {
        BodyShape::new(
            10 + k,
            ConvexPolygon::rectangle(DVec2::splat(0.5)).unwrap(),
            DVec2::new(-5.5 + k as f64, 4.0),
            DVec2::X,
        )
        .named(format!("tile{k}"))
    };
    for step in 0..3 {
        let mut shapes = vec![
            floor.clone(),
            boxed(2, "ghost a", -2.0, 0.248, ghost),
            boxed(3, "ghost b", -1.9, 0.5, ghost),
            boxed(4, "far crate", 3.0, 0.248, Filter::box2d(1, u64::MAX, 0)),
        ];
        shapes.extend((0..8).map(tile));
        writer
            .frame(
                f64::from(step) / 60.0,
                &shapes,
                std::slice::from_ref(&resting),
            )
            .unwrap();
    }
    writer.finish().unwrap();
    let mut h = capture_harness(app(Some(path)));
    scanned(&mut h);
    h.get_by_label_contains("click two shapes in the scene");
    // The ghosts overlap with no claim: their shared negative group left them out.
    click_scene(&mut h, DVec2::new(-2.1, 0.1));
    assert_eq!(h.state().capture_lab().picked(), Some(2));
    // Said in the status bar and the panel.
    assert_eq!(
        h.get_all_by_label_contains("picked ghost a: click a second shape")
            .count(),
        2
    );
    click_scene(&mut h, DVec2::new(-1.8, 0.65));
    assert_eq!(
        h.state().capture_lab().selected(),
        Some(ClaimRef {
            a: 2,
            b: 3,
            piece: None
        })
    );
    h.get_by_label(
        "Frame 0 holds no claim about ghost a and ghost b: left out by their collision filters, before any geometry: they share the negative group -1, which never collides, whatever the masks say.",
    );
    h.get_by_label("Filters: ghost a: category 0x1, mask all, group -1; ghost b: category 0x1, mask all, group -1.");
    // A ghost and the far crate: boxes apart.
    click_scene(&mut h, DVec2::new(-1.8, 0.65));
    click_scene(&mut h, DVec2::new(3.0, 0.25));
    h.get_by_label(
        "Frame 0 holds no claim about ghost b and far crate: their bounding boxes are 4.4 m apart, more than the engine's speculative margin 0.02 m: the broad phase leaves them out (or, where it fattens boxes by more than that, the narrow phase: no point so far apart).",
    );
    // The floor and ghost a: Box2D's claim, explained as claims are.
    click_scene(&mut h, DVec2::new(0.0, -0.5));
    click_scene(&mut h, DVec2::new(-2.1, 0.1));
    assert_eq!(
        h.state().capture_lab().selected(),
        Some(ClaimRef {
            a: 1,
            b: 2,
            piece: None
        })
    );
    // A click on the background drops a half-picked pair, and so does Esc.
    click_scene(&mut h, DVec2::new(3.0, 0.25));
    assert_eq!(h.state().capture_lab().picked(), Some(4));
    click_scene(&mut h, DVec2::new(0.0, 2.0));
    assert!(h.state().capture_lab().picked().is_none());
    h.get_by_label_contains("no shape picked");
    click_scene(&mut h, DVec2::new(1.5, 4.0));
    assert_eq!(h.state().capture_lab().picked(), Some(17));
    h.key_press(Key::Escape);
    h.run_steps(2);
    assert!(h.state().capture_lab().picked().is_none());
    // Two static tiles, the last in the list: neither is dynamic.
    click_scene(&mut h, DVec2::new(1.5, 4.0));
    click_scene(&mut h, DVec2::new(0.5, 4.0));
    h.get_by_label_contains(
        "Frame 0 holds no claim about tile7 and tile6: neither is dynamic (static and static).",
    );
}

/// The platformer's frames (the normal reversed at frames 30 and 75) written to `out` by a
/// game at about 500 steps a second.
fn platformer_live<W: std::io::Write>(out: W) -> W {
    platformer_to(out, Some(std::time::Duration::from_millis(2)), None)
}

/// Run frames until `done`.
fn until(h: &mut Harness<'static, App>, what: &str, done: impl Fn(&App) -> bool) {
    for _ in 0..4_000 {
        h.run_steps(1);
        if done(h.state()) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("waited for {what}");
}

/// A game streams to the window listening for it: the frames are shown live, the first
/// reversed normal (frame 30) holds the frame while the game runs on to its end, flagged on the
/// strip; Go live shows the newest frame; Save received writes what the game sent.
#[test]
fn a_game_streamed_to_the_window_is_held_at_its_first_wrong_claim_while_it_runs_on() {
    let mut h = capture_harness(app(None));
    h.state_mut()
        .run(Command::Capture(CaptureCommand::Listen(0)));
    assert_eq!(h.state().lab(), Lab::Capture);
    let port = h.state().capture_lab().listening_port().unwrap();
    let game = std::thread::spawn(move || {
        let out = collidoscope::capture::ToWindow::connect(port);
        let link = out.watch();
        let start = std::time::Instant::now();
        while !link.stats().connected {
            assert!(start.elapsed().as_secs() < 20, "no link");
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        drop(platformer_live(out));
        link.stats()
    });
    until(&mut h, "the break", |app| {
        app.capture_lab().held().is_some()
    });
    let lab = h.state().capture_lab();
    assert_eq!(lab.held(), Some(30));
    assert_eq!(lab.playback.position, 30);
    let said = h.state().message().unwrap().text.clone();
    assert!(said.contains("paused at frame 30"), "{said}");
    assert!(said.contains("normal-reversed"), "{said}");
    let stats = game.join().unwrap();
    assert_eq!((stats.sent, stats.dropped), (120, 0), "{stats:?}");
    // The game ran on to its end; the window still holds frame 30.
    until(&mut h, "every frame", |app| {
        app.capture_lab()
            .index()
            .is_some_and(|i| i.frames().len() == 120)
    });
    until(&mut h, "the frame held", |app| {
        app.capture_lab()
            .shown()
            .is_some_and(|s| s.frame.frame == 30)
    });
    assert_eq!(h.state().capture_lab().playback.position, 30);
    let shown = h.state().capture_lab().shown().unwrap();
    assert_eq!(
        shown.judged.claims.iter().filter(|c| !c.agrees()).count(),
        1
    );
    assert_eq!(
        h.state().capture_lab().selected(),
        Some(ClaimRef {
            a: 4,
            b: 9,
            piece: None
        })
    );
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("received.capture.jsonl.gz");
    h.state_mut()
        .run(Command::Capture(CaptureCommand::SaveReceived(
            saved.clone(),
        )));
    let said = h.state().message().unwrap().text.clone();
    assert!(said.contains("saved what the game sent"), "{said}");
    let mut reader = collidoscope::capture::CaptureReader::open(&saved).unwrap();
    let mut frames = 0;
    while reader.next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, 120);
}

/// A capture followed before it exists: waited for, then followed as the game writes it
/// (gzip), held at the first reversed normal; Go live goes to the newest frame and the second
/// reversal (frame 75, already past) does not hold it again.
#[test]
fn a_capture_followed_as_it_is_written_is_held_at_its_first_wrong_claim() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.capture.jsonl.gz");
    let mut h = capture_harness(app(None));
    h.state_mut()
        .run(Command::Capture(CaptureCommand::Follow(path.clone())));
    let said = h.state().message().unwrap().text.clone();
    assert!(said.contains("waiting for"), "{said}");
    let game = {
        let path = path.clone();
        std::thread::spawn(move || {
            let file = std::fs::File::create(&path).unwrap();
            let out = flate2::write::GzEncoder::new(file, flate2::Compression::new(3));
            // Flushed frame by frame, as the writer's own gzip does.
            platformer_live(FlushingGz(out)).0.finish().unwrap();
        })
    };
    until(&mut h, "the break", |app| {
        app.capture_lab().held().is_some()
    });
    assert_eq!(h.state().capture_lab().held(), Some(30));
    game.join().unwrap();
    until(&mut h, "every frame", |app| {
        app.capture_lab()
            .index()
            .is_some_and(|i| i.frames().len() == 120)
    });
    h.state_mut().run(Command::Capture(CaptureCommand::GoLive));
    until(&mut h, "the newest frame", |app| {
        app.capture_lab()
            .shown()
            .is_some_and(|s| s.frame.frame == 119)
    });
    assert!(h.state().capture_lab().at_end());
    assert_eq!(h.state().capture_lab().held(), None);
    h.state_mut()
        .run(Command::Capture(CaptureCommand::StopFollowing));
    until(&mut h, "the end", |app| {
        app.capture_lab().index().is_some_and(|i| !i.is_live())
    });
    assert_eq!(h.state().capture_lab().held(), None);
}

/// A followed capture that begins again, as a game run again makes it: written again from
/// its start past what was read (at once), renamed away and made again, then written again
/// shorter. Each time the capture lab follows the new run from its header, and the status bar
/// says the capture began again: how, after which frame of the earlier run and what it came
/// to, and the new run's header.
#[test]
fn a_followed_capture_that_begins_again_is_followed_anew() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("again.capture.jsonl");
    // The platformer's header and its first frames (none reversed before frame 30), its
    // engine's version `version`.
    let text = String::from_utf8(platformer_to(Vec::new(), None, None)).unwrap();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let run = |version: &str, frames: usize| {
        let header = lines[0].replace("\"0.3\"", &format!("\"{version}\""));
        assert!(
            header.contains(&format!("\"version\":\"{version}\"")),
            "{header}"
        );
        header + &lines[1..=frames].concat()
    };
    std::fs::write(&path, run("0.2", 10)).unwrap();
    let mut h = capture_harness(app(None));
    h.state_mut()
        .run(Command::Capture(CaptureCommand::Follow(path.clone())));
    let following = |version: &'static str, frames: usize| {
        move |app: &App| {
            app.capture_lab()
                .index()
                .is_some_and(|i| i.header().engine.version == version && i.frames().len() == frames)
        }
    };
    until(&mut h, "the first run", following("0.2", 10));
    let said = |h: &Harness<'static, App>| h.state().message().unwrap().text.clone();
    let new_run = "units px, y down) is judged from its first frame";

    std::fs::write(&path, run("0.3", 25)).unwrap();
    until(
        &mut h,
        "the run written again past it",
        following("0.3", 25),
    );
    assert!(h.state().capture_lab().index().unwrap().is_live());
    let message = said(&h);
    assert!(
        message.contains("the capture began again (written again from its start) after frame 9 of the earlier run (10 frames, 10 claims: 10 agree); the new run (platformer 0.3, f32, ")
            && message.ends_with(new_run),
        "{message}"
    );

    std::fs::rename(&path, dir.path().join("again.old.jsonl")).unwrap();
    std::fs::write(&path, run("0.4", 15)).unwrap();
    until(&mut h, "the new file", following("0.4", 15));
    let message = said(&h);
    assert!(
        message.contains("the capture began again (a new file at its path) after frame 24 of the earlier run (25 frames, 25 claims: 25 agree); the new run (platformer 0.4, ")
            && message.ends_with(new_run),
        "{message}"
    );

    std::fs::write(&path, run("0.5", 3)).unwrap();
    until(&mut h, "the shorter run", following("0.5", 3));
    let message = said(&h);
    assert!(
        message.contains(
            "(written again from its start) after frame 14 of the earlier run (15 frames"
        ),
        "{message}"
    );
    assert!(h.state().capture_lab().is_live());
}

/// A gzip stream flushed (a sync point) at every write's flush.
struct FlushingGz(flate2::write::GzEncoder<std::fs::File>);

impl std::io::Write for FlushingGz {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// Run frames until the compared runs are compared whole.
fn compared(h: &mut Harness<'static, App>) {
    until(h, "the runs to be compared", |app| {
        app.capture_lab()
            .compare()
            .is_some_and(|c| c.diff().is_some())
    });
}

#[test]
fn a_second_run_compared_is_drawn_as_ghosts_and_j_shows_where_the_runs_part() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (
        dir.path().join("run-a.capture.jsonl"),
        dir.path().join("run-b.capture.jsonl"),
    );
    platformer(&a);
    // The same run, the ball a millipixel further right from step 50, more each step.
    platformer_to(std::fs::File::create(&b).unwrap(), None, Some((50, 0.001)));
    let mut h = capture_harness(app(Some(a.clone())));
    scanned(&mut h);
    // Typed beside Compare with, as a user would.
    h.get_by_role_and_label(Role::TextInput, "Compare with:")
        .focus();
    h.run_steps(1);
    h.get_by_role_and_label(Role::TextInput, "Compare with:")
        .type_text(&b.display().to_string());
    h.run_steps(1);
    h.get_by_label("Compare").click();
    h.run_steps(1);
    compared(&mut h);
    let compare = h.state().capture_lab().compare().unwrap();
    assert_eq!(compare.parting(), Some(50));
    let diff = compare.diff().unwrap();
    assert_eq!(diff.frames_compared, 120);
    let first = diff.first_divergence.as_ref().unwrap();
    assert_eq!(first.shapes.len(), 1);
    assert_eq!(first.shapes[0].id, 9);
    assert_eq!(
        first.shapes[0].keys,
        [collidoscope::capture::ShapeKey::Position]
    );
    // The ledge's claim moved with the ball: its contact point only, not its verdict, normal
    // or depth, so no claim differs.
    assert!(first.claims.is_empty());
    assert_eq!(diff.growth.len(), 70);
    assert!(
        (diff.growth[69].1 - 0.07).abs() < 1e-9,
        "{:?}",
        diff.growth[69]
    );
    // Compared, with nothing moved since: shown where they part, and said.
    let said = &h.state().message().unwrap().text;
    assert!(
        said.contains("the runs part at frame 50") && said.contains("shown here"),
        "{said}"
    );
    assert_eq!(h.state().capture_lab().playback.position, 50);
    // Before the parting, the ghost is drawn and nothing differs.
    h.state_mut().run(Command::Playback(
        TimelineId::Capture,
        PlaybackCommand::Seek(10),
    ));
    until(&mut h, "frame 10 beside B's", |app| {
        app.capture_lab().compare().unwrap().here().is_some()
            && app.capture_lab().shown().unwrap().position == 10
    });
    let compare = h.state().capture_lab().compare().unwrap();
    assert!(compare.here().unwrap().shapes.is_empty());
    let (ghost, apart) = compare.ghost().unwrap();
    assert_eq!(ghost.shapes.len(), 2);
    assert!(apart.is_empty());
    h.get_by_label("At frame 10: the same in both runs");
    // J: the frame where they part, the ball named with both positions to the last digit.
    // No claim differs there: the ball, the shape that differs, is brought into view with its
    // contact explained (nothing was explained before).
    h.state_mut()
        .run(Command::Capture(CaptureCommand::Select(None)));
    h.key_press(Key::J);
    h.run_steps(1);
    assert_eq!(h.state().capture_lab().playback.position, 50);
    until(&mut h, "the ball's contact explained", |app| {
        app.capture_lab().selected()
            == Some(ClaimRef {
                a: 4,
                b: 9,
                piece: None,
            })
    });
    until(&mut h, "frame 50 beside B's", |app| {
        app.capture_lab().compare().unwrap().here().is_some()
            && app.capture_lab().shown().unwrap().position == 50
    });
    let compare = h.state().capture_lab().compare().unwrap();
    let here = compare.here().unwrap();
    assert_eq!(here.shapes.len(), 1);
    let ball = &here.shapes[0];
    let (in_a, in_b) = (ball.in_a.unwrap(), ball.in_b.unwrap());
    assert_eq!(in_a.position.x, 380.0 + 50.0 * 0.5);
    assert_eq!(in_b.position.x, 380.0 + 50.0 * 0.5 + 0.001);
    let (_, apart) = compare.ghost().unwrap();
    assert_eq!(apart.len(), 1, "the ball drawn bold in B's ghost");
    h.get_by_label_contains("At frame 50: 1 shape differs (positions up to 0.001 apart)");
    h.get_by_label_contains(&format!(
        "ball (id 9): position by 0.001: ({}, {}) in A, ({}, {}) in B",
        in_a.position.x, in_a.position.y, in_b.position.x, in_b.position.y
    ));
    // An offset compares again: frame f of A with f + 1 of B part at once (the ball moves).
    h.state_mut()
        .run(Command::Capture(CaptureCommand::CompareSettings(
            collidoscope::capture::DiffSettings {
                tolerance: None,
                offset: 1,
            },
        )));
    compared(&mut h);
    let diff = h.state().capture_lab().compare().unwrap().diff().unwrap();
    assert_eq!(diff.frames_compared, 119);
    assert_eq!(diff.first_divergence.as_ref().unwrap().frame, 0);
    // Within a tolerance of 0.1 px, B aligned by number never parts from A.
    h.state_mut()
        .run(Command::Capture(CaptureCommand::CompareSettings(
            collidoscope::capture::DiffSettings {
                tolerance: Some(0.1),
                offset: 0,
            },
        )));
    compared(&mut h);
    let compare = h.state().capture_lab().compare().unwrap();
    assert!(compare.diff().unwrap().agree());
    assert_eq!(compare.parting(), None);
    // Stopped: no ghost, and the row to type another comes back.
    h.state_mut()
        .run(Command::Capture(CaptureCommand::CloseCompare));
    h.run_steps(1);
    assert!(h.state().capture_lab().compare().is_none());
    h.get_by_role_and_label(Role::TextInput, "Compare with:");
}

#[test]
fn a_run_compared_with_itself_agrees_and_a_refused_one_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("run.capture.jsonl");
    platformer(&a);
    let broken = dir.path().join("broken.capture.jsonl");
    std::fs::write(&broken, "not a capture at all\n").unwrap();
    let mut h = capture_harness(app(Some(a.clone())));
    scanned(&mut h);
    // A file that is no capture: refused, naming it; nothing compared.
    h.state_mut()
        .run(Command::Capture(CaptureCommand::Compare(broken.clone())));
    let said = h.state().message().unwrap();
    assert!(
        said.error && said.text.contains("broken.capture.jsonl"),
        "{}",
        said.text
    );
    assert!(h.state().capture_lab().compare().is_none());
    // Said under the field too, the path kept in it to mend.
    h.run_steps(1);
    // (The status bar and the panel: two labels.)
    assert_eq!(
        h.get_all_by_label_contains(&format!("{}: ", broken.display()))
            .count(),
        2
    );
    assert_eq!(
        h.state().capture_lab().compare_path.text,
        broken.display().to_string()
    );
    // The same file: the runs agree, said so, J says it too.
    h.state_mut()
        .run(Command::Capture(CaptureCommand::Compare(a.clone())));
    compared(&mut h);
    let said = &h.state().message().unwrap().text;
    assert!(
        said.contains("the runs agree: 120 frames compared"),
        "{said}"
    );
    h.key_press(Key::J);
    h.run_steps(1);
    assert!(h.state().message().unwrap().text.contains("the runs agree"));
    // Said in the status bar and in the panel.
    assert_eq!(
        h.get_all_by_label_contains("the runs agree: 120 frames compared")
            .count(),
        2
    );
}

/// The platformer with the ball 1 mm further right in `frames` only (another run that parts
/// and comes back: the ball writes its position every frame, so the next frame puts it back).
fn platformer_parting_for(path: &Path, frames: std::ops::Range<u64>) {
    let bytes = platformer_to(Vec::new(), None, None);
    let mut out = String::new();
    for (i, line) in std::str::from_utf8(&bytes).unwrap().lines().enumerate() {
        let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
        if i > 0 && frames.contains(&value["frame"].as_u64().unwrap()) {
            for shape in value["shapes"].as_array_mut().unwrap() {
                if shape["id"] == 9 {
                    let x = shape["position"][0].as_f64().unwrap();
                    shape["position"][0] = (x + 0.001).into();
                }
            }
        }
        out.push_str(&serde_json::to_string(&value).unwrap());
        out.push('\n');
    }
    std::fs::write(path, out).unwrap();
}

/// Runs that part at frame 50 and are the same again from frame 60: the strip's band shades
/// only the frames where they differ (none before the parting, none where they are the same
/// again), its hover says so, and the panel says where they come together.
#[test]
fn the_compared_runs_band_shows_them_the_same_again_where_they_agree_again() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (
        dir.path().join("run-a.capture.jsonl"),
        dir.path().join("run-b.capture.jsonl"),
    );
    platformer(&a);
    platformer_parting_for(&b, 50..60);
    let mut h = capture_harness(app(Some(a.clone())));
    scanned(&mut h);
    h.state_mut()
        .run(Command::Capture(CaptureCommand::Compare(b.clone())));
    compared(&mut h);
    let compare = h.state().capture_lab().compare().unwrap();
    assert_eq!(compare.parting(), Some(50));
    assert_eq!(compare.diff().unwrap().same_again, vec![(60, 119)]);
    assert_eq!(compare.shade_at(10), None, "before the parting: no shade");
    for frame in 50..60 {
        assert!(compare.shade_at(frame).is_some(), "frame {frame}: apart");
    }
    for frame in [60, 70, 119] {
        assert_eq!(
            compare.shade_at(frame),
            None,
            "frame {frame}: the same again"
        );
        assert!(compare.same_again_at(frame));
    }
    // The panel's summary says where they come together; the frame shown, that it is the
    // same; the strip's hover, the same again.
    h.run_steps(2);
    // (The status bar and the panel: two labels.)
    assert_eq!(
        h.query_all_by_label_contains("the runs part at frame 50")
            .filter(|n| format!("{n:?}").contains("the same again from frame 60"))
            .count(),
        2
    );
    h.state_mut().run(Command::Playback(
        TimelineId::Capture,
        PlaybackCommand::Seek(70),
    ));
    until(&mut h, "frame 70 beside B's", |app| {
        app.capture_lab().compare().unwrap().here().is_some()
            && app.capture_lab().shown().unwrap().position == 70
    });
    h.get_by_label("At frame 70: the same in both runs");
    let tip = band_hover(&mut h, 70);
    assert!(
        tip.starts_with(
            "row compared runs: the same here again; they part at frame 50 (J); frame 70:"
        ),
        "{tip}"
    );
    let tip = band_hover(&mut h, 55);
    assert!(
        tip.starts_with(
            "row compared runs: positions apart by 0.001 here; they part at frame 50 (J); frame 55:"
        ),
        "{tip}"
    );
}

/// The strip's hover text at A's frame `frame` in the compared runs' band, found as a pointer
/// finds it: down from the timeline's "step N" line to the band, then along it.
fn band_hover(h: &mut Harness<'static, App>, frame: u64) -> String {
    let shown = h.state().capture_lab().shown().unwrap().frame.frame;
    let row = h
        .get_by_label_contains(&format!("step {shown}, t = "))
        .rect();
    let tip_at = |h: &mut Harness<'static, App>, p: egui::Pos2| {
        h.hover_at(p);
        h.run_steps(3);
        let tips: Vec<String> = h
            .query_all_by_label_contains("row compared runs")
            .filter_map(|n| egui_kittest::kittest::NodeT::accesskit_node(&n).label())
            .collect();
        tips.first().cloned()
    };
    let frame_of = |tip: &str| -> u64 {
        let at = tip.find("; frame ").unwrap() + "; frame ".len();
        tip[at..].split(':').next().unwrap().parse().unwrap()
    };
    let mut y = row.bottom();
    let x0 = row.center().x;
    let first = loop {
        y += 2.0;
        assert!(y < row.bottom() + 120.0, "no band under the timeline");
        if let Some(tip) = tip_at(h, egui::pos2(x0, y)) {
            break tip;
        }
    };
    // Two points along the band give its scale; then step to the frame.
    let x1 = x0 + 100.0;
    let second = tip_at(h, egui::pos2(x1, y)).unwrap();
    let (f0, f1) = (frame_of(&first) as f32, frame_of(&second) as f32);
    let per_frame = (x1 - x0) / (f1 - f0);
    let mut x = x0 + (frame as f32 - f0) * per_frame;
    for _ in 0..8 {
        let tip = tip_at(h, egui::pos2(x, y)).unwrap();
        let here = frame_of(&tip);
        if here == frame {
            return tip;
        }
        x += (frame as f32 - here as f32) * per_frame.abs().max(1.0) * per_frame.signum();
    }
    panic!("frame {frame} not found along the band");
}

/// A capture whose frames start at 100 (a game that began writing mid-run; any capture may
/// start anywhere): the timeline's frame box shows the frame's own number, 100 at the first,
/// and a number typed there shows that frame (105 is the sixth), as the strip and the step
/// label number them.
#[test]
fn the_frame_box_shows_and_takes_the_frames_own_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mid-run.capture.jsonl");
    let header = Header::f32_metres(Engine::new("test-engine", "1.0"));
    let out = std::fs::File::create(&path).unwrap();
    let (from, pen) = (NormalFrom::AToB, Penetration::NegativeSeparation);
    let mut writer = CaptureWriter::new(out, &header, from, pen)
        .unwrap()
        .starting_at(100);
    for step in 0..20 {
        let ball = BodyShape::new(
            1,
            Circle::new(0.5).unwrap(),
            DVec2::new(step as f64 * 0.1, 2.0),
            DVec2::X,
        )
        .named("ball")
        .moving(Body::Dynamic, DVec2::new(6.0, 0.0), 0.0, true);
        writer.frame(step as f64 / 60.0, &[ball], &[]).unwrap();
    }
    writer.finish().unwrap();
    let mut h = capture_harness(app(Some(path)));
    scanned(&mut h);
    assert_eq!(h.state().capture_lab().playback.position, 0);
    use egui_kittest::kittest::NodeT;
    let shown = |h: &Harness<'static, App>| {
        h.get_by_role_and_label(Role::Slider, "frame")
            .accesskit_node()
            .numeric_value()
    };
    assert_eq!(shown(&h), Some(100.0));
    h.get_by_label_contains("step 100, t = 0 s");
    // Typed into the slider's number box: frame 105, the sixth.
    h.query_all_by_role(Role::SpinButton)
        .find(|n| n.accesskit_node().numeric_value() == Some(100.0))
        .expect("the frame box")
        .focus();
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(1);
    h.query_all_by_role(Role::SpinButton)
        .find(|n| n.is_focused())
        .expect("the frame box, editing")
        .type_text("105");
    h.run_steps(1);
    h.key_press(Key::Enter);
    h.run_steps(3);
    assert_eq!(h.state().capture_lab().playback.position, 5);
    assert_eq!(shown(&h), Some(105.0));
    h.get_by_label_contains("step 105");
}

/// Opening a Box2D recording replays it into a new capture file beside it: the window says
/// where before it writes it (a file appearing beside the recording unannounced surprised a
/// new user).
#[test]
fn opening_a_box2d_recording_says_where_its_capture_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let recording = dir.path().join("tile-floor.b2rec");
    std::fs::copy("tests/captures/tile-floor.b2rec", &recording).unwrap();
    let mut h = capture_harness(app(None));
    // Said as the replay starts, before any frame: the replay runs in a child process (here
    // the test binary, which refuses its arguments at once), whose end would say otherwise.
    h.state_mut().run(Command::Open(recording.clone()));
    let said = h.state().message().expect("a message").text.clone();
    let capture = dir.path().join("tile-floor.b2rec.capture.jsonl.gz");
    assert!(
        said.contains(&format!(
            "into a capture beside it, {} (opened when written)",
            capture.display()
        )),
        "{said}"
    );
}

/// Wait until the capture lab's plot is read to its end (on its own thread).
fn plotted(h: &mut Harness<'static, App>) -> collidoscope::series::Plot {
    for _ in 0..2_000 {
        h.run_steps(1);
        if let Some(plot) = h.state().capture_lab().plot()
            && plot.frames.len() == 120
        {
            h.run_steps(1);
            return h.state().capture_lab().plot().unwrap().clone();
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("the plot was never read");
}

/// The Plot panel (docs/guide, "The Plot panel"): opened on the first divergence, it plots
/// the explained pair's ball (its speed every frame, the capture's own 30 px/s) and the pair's
/// claimed depth (the engine's 0.5 to 0.54, exactly) beside the exact one, the two frames
/// the claim disagrees marked; a click on the plot shows the frame at that time, a drag
/// follows the pointer; picking one shape plots that shape alone; the quantities are chosen.
#[test]
fn the_plot_panel_plots_the_explained_pair_and_scrubs_the_timeline() {
    use collidoscope::series::{MarkKind, Quantity, Side};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("platformer.capture.jsonl");
    platformer(&path);
    let mut h = capture_harness(app(Some(path.clone())));
    scanned(&mut h);
    let plot = plotted(&mut h);
    assert_eq!(plot.shapes, ["ball"]);
    assert_eq!(plot.pairs, [("ledge".to_string(), "ball".to_string())]);
    let line = |q: Quantity, side: Side| {
        plot.series
            .iter()
            .find(|s| s.quantity == q && s.side == side)
            .unwrap_or_else(|| panic!("no {q:?} {side:?}: {:?}", plot.series))
    };
    assert!(
        line(Quantity::Speed, Side::Shape)
            .values
            .iter()
            .all(|v| *v == 30.0)
    );
    let claimed = &line(Quantity::Depth, Side::Claimed).values;
    for (k, depth) in claimed.iter().enumerate() {
        assert_eq!(*depth, 0.5 + 0.01 * (k % 5) as f64, "frame {k}");
    }
    let exact = &line(Quantity::Depth, Side::Exact).values;
    assert!(exact.iter().all(|d| d.is_finite() && *d > 0.0));
    let marked: Vec<u64> = plot
        .markers
        .iter()
        .filter(|m| m.kind == MarkKind::Disagrees)
        .map(|m| m.frame)
        .collect();
    assert_eq!(marked, [30, 75]);
    h.get_by_label_contains("ball, ledge / ball: speed, depth over 120 frames");
    // A click on the plot shows the frame at that time (frame 60, one second in).
    let (area, t0, t1) = collidoscope::app::plot_area(&h.ctx, "capture plot").unwrap();
    let x_of = |t: f64| area.left() + ((t - t0) / (t1 - t0)) as f32 * area.width();
    let y = area.center().y;
    click_at(&mut h, egui::pos2(x_of(1.0), y));
    h.run_steps(3);
    let at = h.state().capture_lab().playback.position;
    assert!((59..=61).contains(&at), "clicked at 1 s, shown {at}");
    // A drag scrubs: the frame follows the pointer to 1.5 s (frame 90).
    h.hover_at(egui::pos2(x_of(0.5), y));
    h.run_steps(1);
    h.drag_at(egui::pos2(x_of(0.5), y));
    h.run_steps(1);
    h.hover_at(egui::pos2(x_of(1.0), y));
    h.run_steps(1);
    h.hover_at(egui::pos2(x_of(1.5), y));
    h.run_steps(1);
    h.drop_at(egui::pos2(x_of(1.5), y));
    h.run_steps(3);
    let at = h.state().capture_lab().playback.position;
    assert!((88..=92).contains(&at), "dragged to 1.5 s, shown {at}");
    // The quantities are chosen in the panel: vy added.
    h.get_by_label("vy").click();
    h.run_steps(2);
    let mut found = false;
    for _ in 0..2_000 {
        h.run_steps(1);
        let plot = h.state().capture_lab().plot().cloned();
        if let Some(plot) = plot.filter(|p| p.frames.len() == 120)
            && plot.series.iter().any(|s| s.quantity == Quantity::Vy)
        {
            assert!(
                plot.series
                    .iter()
                    .all(|s| s.quantity != Quantity::Vy || s.values.iter().all(|v| *v == 0.0))
            );
            found = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(found, "vy was never plotted");
}

/// On a phone held upright (390x844) the plot is the first section of the capture lab's panel,
/// under the scene's strip, which keeps its height; a tap on it still shows that frame.
#[test]
fn on_a_phone_the_plot_is_the_panels_first_section() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("platformer.capture.jsonl");
    platformer(&path);
    let mut h = Harness::builder()
        .with_size(egui::vec2(390.0, 844.0))
        .with_render_cursor(false)
        .build_ui_state(|ui, app: &mut App| app.ui_for_test(ui), app(Some(path)));
    h.run_steps(1);
    scanned(&mut h);
    plotted(&mut h);
    h.run_steps(2);
    let (rect, t0, t1) = collidoscope::app::plot_area(&h.ctx, "capture plot").expect("plotted");
    let scene = h.state().view_rect();
    assert!(scene.bottom() <= rect.top(), "{scene:?} above {rect:?}");
    assert!(
        scene.height() > 60.0,
        "the scene keeps its strip: {scene:?}"
    );
    let x = rect.left() + ((1.0 - t0) / (t1 - t0)) as f32 * rect.width();
    click_at(&mut h, egui::pos2(x, rect.center().y));
    h.run_steps(3);
    let at = h.state().capture_lab().playback.position;
    assert!((57..=63).contains(&at), "tapped at 1 s, shown {at}");
}

/// The Plot panel follows a capture as it is written: its reader thread plots the frames as
/// they come (fewer than the game will write, while it writes), and every frame once it ends.
#[test]
fn the_plot_follows_a_capture_as_it_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.capture.jsonl");
    let mut h = capture_harness(app(None));
    let game = {
        let path = path.clone();
        std::thread::spawn(move || {
            let file = std::fs::File::create(&path).unwrap();
            platformer_to(file, Some(std::time::Duration::from_millis(10)), None);
        })
    };
    until(&mut h, "the header", |_| {
        collidoscope::capture::CaptureIndex::header_written(&path)
    });
    h.state_mut()
        .run(Command::Capture(CaptureCommand::Follow(path.clone())));
    h.state_mut()
        .run(Command::Capture(CaptureCommand::Select(Some(ClaimRef {
            a: 4,
            b: 9,
            piece: None,
        }))));
    // The frames plotted, as the window saw them, frame after frame.
    let mut counts = Vec::new();
    for _ in 0..4_000 {
        h.run_steps(1);
        let count = h.state().capture_lab().plot().map_or(0, |p| p.frames.len());
        counts.push(count);
        if count == 120 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    game.join().unwrap();
    assert_eq!(counts.last(), Some(&120), "every frame plotted in the end");
    assert!(
        counts.iter().any(|&c| c > 0 && c < 120),
        "plotted while written: {counts:?}"
    );
    let plot = h.state().capture_lab().plot().unwrap();
    assert_eq!(plot.pairs, [("ledge".to_string(), "ball".to_string())]);
}
