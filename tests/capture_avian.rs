//! Real Avian (avian2d 0.8, a Bevy plugin) worlds captured by `CapturePlugin` and judged frame
//! by frame: a crate sliding over twelve separate floor tiles, a ball rolling off a ramp, a
//! stack of boxes and a capsule, run headless for 200 fixed steps; a rounded crate; colliders of
//! pieces (compounds on a polyline floor, a heightfield hill, a trimesh slab), each claim judged
//! against the piece the plugin finds for it. With contact recycling off
//! (the plugin's default) every claim agrees at f32 but one, a tie between two nearly parallel
//! faces at the same depth (measured and checked below); with Avian's recycling kept, a
//! quarter of the claims disagree, some named `previous-poses`. Avian's engine fixture test
//! (`AvianNarrowPhase`) fails on the deep capsule pair parry gets wrong and passes on a shallow
//! one.
//!
//! `cargo test --ignore-rust-version --features avian2d --test capture_avian` (CI runs it:
//! Bevy 0.20 declares Rust 1.97.1).

#[path = "common/engine_cases.rs"]
mod engine_cases;
#[path = "common/scratch.rs"]
mod scratch;

use avian2d::prelude::*;
use bevy::app::{App, Startup};
use bevy::ecs::prelude::*;
use bevy::prelude::{MinimalPlugins, Name, Transform};
use bevy::time::TimeUpdateStrategy;
use collidoscope::Cause;
use collidoscope::capture::avian::{AvianNarrowPhase, CapturePlugin};
use collidoscope::capture::{CaptureEvent, CaptureReader, EventFinder, judge_frame};
use collidoscope::fixture::{FixtureError, verify_engine};
use collidoscope::geometry::{DVec2, Placed};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// Twelve separate 1 m floor tiles, their tops at y = 0, from x = -6 to 6.
fn tiles(commands: &mut Commands) {
    for k in 0..12 {
        commands.spawn((
            Name::new(format!("tile{}", k + 1)),
            RigidBody::Static,
            Collider::rectangle(1.0, 1.0),
            Transform::from_xyz(-5.5 + k as f32, -0.5, 0.0),
        ));
    }
}

fn setup(mut commands: Commands) {
    tiles(&mut commands);
    commands.spawn((
        Name::new("ramp"),
        RigidBody::Static,
        Collider::rectangle(3.0, 0.2),
        Transform::from_xyz(3.5, 1.2, 0.0).with_rotation(bevy::math::Quat::from_rotation_z(0.5)),
    ));
    commands.spawn((
        Name::new("crate"),
        RigidBody::Dynamic,
        Collider::rectangle(0.5, 0.5),
        Transform::from_xyz(-5.5, 0.25, 0.0),
        LinearVelocity(bevy::math::Vec2::new(7.0, 0.0)),
    ));
    commands.spawn((
        Name::new("ball"),
        RigidBody::Dynamic,
        Collider::circle(0.2),
        Transform::from_xyz(4.6, 2.2, 0.0),
    ));
    for row in 0..3 {
        for i in 0..3 - row {
            let x = -2.0 + (i as f32 - (3 - row) as f32 / 2.0) * 0.65;
            commands.spawn((
                Name::new(format!("box {row}.{i}")),
                RigidBody::Dynamic,
                Collider::rectangle(0.6, 0.6),
                Transform::from_xyz(x, 0.3 + 0.6 * row as f32, 0.0),
            ));
        }
    }
    commands.spawn((
        Name::new("capsule"),
        RigidBody::Dynamic,
        Collider::capsule(0.15, 0.6),
        Transform::from_xyz(1.0, 1.5, 0.0).with_rotation(bevy::math::Quat::from_rotation_z(1.2)),
    ));
}

/// Run the game for `steps` fixed steps with the plugin writing to `path`.
fn run(path: &Path, steps: usize, plugin: CapturePlugin) {
    run_game(path, steps, plugin, setup);
}

/// Run the game `setup` makes for `steps` fixed steps with the plugin writing to `path`.
fn run_game<M>(
    path: &Path,
    steps: usize,
    plugin: CapturePlugin,
    setup: impl bevy::ecs::schedule::IntoScheduleConfigs<bevy::ecs::system::ScheduleSystem, M>,
) {
    play(steps, plugin, setup);
    assert!(path.exists());
}

/// Run the game `setup` makes for `steps` fixed steps with the plugin, and end the app.
fn play<M>(
    steps: usize,
    plugin: CapturePlugin,
    setup: impl bevy::ecs::schedule::IntoScheduleConfigs<bevy::ecs::system::ScheduleSystem, M>,
) {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PhysicsPlugins::default()))
        .add_plugins(plugin)
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / 64.0,
        )))
        .add_systems(Startup, setup);
    app.finish();
    app.cleanup();
    for _ in 0..=steps {
        app.update();
    }
    drop(app);
}

#[derive(Debug, Default)]
struct Tally {
    frames: usize,
    claims: usize,
    intersecting: usize,
    agreeing: usize,
    by_cause: BTreeMap<String, usize>,
    worst: Vec<String>,
    events: Vec<CaptureEvent>,
    /// Disagreeing claims that are ties: two boxes whose overlap along the claimed normal is
    /// the exact depth to within tau (another face axis at the same depth, the faces nearly
    /// parallel), so the claimed push is as short as the exact one but turned.
    ties: usize,
}

/// The overlap of two placed polygons' projections on the unit axis `n`.
fn polygon_overlap(a: &Placed, b: &Placed, n: DVec2) -> Option<f64> {
    let range = |p: &Placed| {
        let collidoscope::geometry::Shape::Polygon(polygon) = &p.shape else {
            return None;
        };
        let along = polygon.points().iter().map(|q| p.pose.apply(*q).dot(n));
        Some(
            along.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                (lo.min(x), hi.max(x))
            }),
        )
    };
    let ((a0, a1), (b0, b1)) = (range(a)?, range(b)?);
    Some((a1 - b0).min(b1 - a0))
}

fn judge(path: &Path) -> Tally {
    let mut reader = CaptureReader::open(path).unwrap();
    assert_eq!(reader.header().engine.name, "avian2d");
    let mut events = EventFinder::for_capture(reader.header());
    let mut tally = Tally::default();
    while let Some(frame) = reader.next_frame().unwrap() {
        tally.frames += 1;
        let judged = judge_frame(&reader, &frame);
        for c in &judged.claims {
            tally.claims += 1;
            tally.intersecting += usize::from(c.claimed.intersecting);
            if c.agrees() {
                tally.agreeing += 1;
                continue;
            }
            let tolerance = c.check.tolerance.unwrap_or(0.0);
            let tie = match (
                reader.shape(c.a),
                reader.shape(c.b),
                c.claimed.normal,
                c.claimed.depth,
            ) {
                (Some(a), Some(b), Some(n), Some(depth)) if c.claimed.intersecting => {
                    polygon_overlap(&a.placed, &b.placed, n).is_some_and(|along| {
                        (along - c.check.exact.depth).abs() <= tolerance
                            && (depth - c.check.exact.depth).abs() <= tolerance
                    })
                }
                _ => false,
            };
            tally.ties += usize::from(tie);
            let causes: Vec<Cause> = c.causes().collect();
            for cause in &causes {
                *tally.by_cause.entry(cause.name().into()).or_default() += 1;
            }
            if causes.is_empty() {
                *tally.by_cause.entry("none".into()).or_default() += 1;
            }
            if tally.worst.len() < 5 {
                tally
                    .worst
                    .push(format!("frame {}: {}", frame.frame, c.lines().join(" | ")));
            }
        }
        tally.events.extend(events.frame(&reader, &frame, &judged));
    }
    tally
}

#[test]
fn an_honest_avian_run_agrees_claim_for_claim_at_f32() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("avian.capture.jsonl.gz");
    run(&path, 200, CapturePlugin::to_file(&path));
    let tally = judge(&path);
    println!("{tally:#?}");
    assert_eq!(tally.frames, 200);
    assert!(tally.claims > 500 && tally.intersecting > 300, "{tally:#?}");
    // Measured: 1184 of 1185 agree. The one that does not (frame 28, the crate against the
    // bottom box, depth 0.01539 both) is a tie: the two boxes' faces are parallel to within
    // 2.3e-4 rad and overlap by the same depth, to f32, along either face's normal; Avian
    // (parry's polygon clipping) pushes along the crate's face, the exact answer along the
    // box's, and the two pushes differ by depth x angle = 3.55e-6 against tau 3.50e-6.
    assert_eq!(tally.claims - tally.agreeing, tally.ties, "{tally:#?}");
    assert!(tally.ties * 200 <= tally.claims, "{tally:#?}");
}

/// Judged in the game's process: with recycling kept, the plugin's first step that is not
/// clean is the first frame of the written capture whose claims disagree, named the same.
#[test]
fn a_judging_avian_plugin_names_the_first_step_that_is_not_clean() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("judged.capture.jsonl");
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PhysicsPlugins::default()))
        .add_plugins(CapturePlugin::to_file(&path).keep_recycling().judging())
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / 64.0,
        )))
        .add_systems(Startup, setup);
    app.finish();
    app.cleanup();
    for _ in 0..=200 {
        app.update();
    }
    let state = app
        .world()
        .resource::<collidoscope::capture::avian::AvianCaptureState>();
    let last = state.judgement().expect("each step judged").clone();
    let first = state
        .first_not_clean()
        .expect("recycled contacts disagree")
        .clone();
    drop(app);
    assert_eq!(last.frame, 199);
    // The file, read after the run: its first frame with a claim that disagrees.
    let mut reader = collidoscope::capture::CaptureReader::open(&path).unwrap();
    let first_in_file = loop {
        let frame = reader.next_frame().unwrap().expect("a disagreeing frame");
        let judged = collidoscope::capture::judge_frame(&reader, &frame);
        if judged.claims.iter().any(|c| !c.agrees()) {
            break judged;
        }
    };
    assert_eq!(first.frame, first_in_file.frame, "{first}");
    let disagreeing: Vec<(u64, u64)> = first.disagreeing.iter().map(|j| (j.a, j.b)).collect();
    let in_file: Vec<(u64, u64)> = first_in_file
        .claims
        .iter()
        .filter(|c| !c.agrees())
        .map(|j| (j.a, j.b))
        .collect();
    assert_eq!(disagreeing, in_file, "{first}");
    assert!(!first.is_clean());
    assert!(first.to_string().contains("disagree"), "{first}");
}

#[test]
fn with_avian_recycling_kept_the_kept_contacts_are_named_previous_poses() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("recycled.capture.jsonl");
    run(&path, 200, CapturePlugin::to_file(&path).keep_recycling());
    let tally = judge(&path);
    println!("{tally:#?}");
    // Measured: 308 of 1144 disagree (against 1 without recycling). Avian keeps a pair's
    // normal and points while it moves less than recycle_distance and only updates the
    // penetration, so a kept contact matches neither frame's poses exactly: 15 are named
    // previous-poses, the rest match no known mistake (as Rapier's kept manifolds).
    let disagreeing = tally.claims - tally.agreeing;
    assert!(disagreeing * 10 > tally.claims, "{tally:#?}");
    assert!(tally.by_cause.contains_key("previous-poses"), "{tally:#?}");
}

/// The same deep capsule pair as the Rapier versions' test (Avian 0.8 asks parry 0.31, as
/// Rapier 0.36 does).
#[test]
fn avians_engine_fixture_fails_on_a_deep_capsule_pair_and_passes_on_a_shallow_one() {
    let engine = AvianNarrowPhase::default();
    let deep = engine_cases::deep_capsules();
    match verify_engine(&deep, &engine) {
        Err(e @ FixtureError::Disagreed(_)) => {
            let message = e.to_string();
            assert!(
                message.contains("avian2d 0.8.0 (contact_query::contact_manifolds) disagrees"),
                "{message}"
            );
        }
        other => panic!("the deep pair fails: {other:?}"),
    }
    let shallow = engine_cases::shallow_capsules();
    assert_eq!(verify_engine(&shallow, &engine), Ok(1));
}

/// Avian's collision layers and bodies reach the capture, with its contact tolerance as the
/// speculative margin: two crates whose layers leave each other out fall through each other
/// onto the floor (filtered), a body of two overlapping colliders has no claim between them
/// (one body).
#[test]
fn avian_layers_and_bodies_name_the_stage_that_left_a_pair_out() {
    use collidoscope::capture::{Filter, FilterVerdict, LeftOut, Margin};
    fn layered(mut commands: Commands) {
        commands.spawn((
            Name::new("floor"),
            RigidBody::Static,
            Collider::rectangle(12.0, 1.0),
            Transform::from_xyz(0.0, -0.5, 0.0),
        ));
        let ghosts = CollisionLayers::from_bits(0b10, !0b10);
        for (name, x, y) in [("ghost a", -3.0, 0.25), ("ghost b", -3.1, 0.6)] {
            commands.spawn((
                Name::new(name),
                RigidBody::Dynamic,
                Collider::rectangle(0.5, 0.5),
                ghosts,
                Transform::from_xyz(x, y, 0.0),
            ));
        }
        commands
            .spawn((RigidBody::Dynamic, Transform::from_xyz(2.0, 0.3, 0.0)))
            .with_children(|body| {
                for (name, dx) in [("left half", 0.0), ("right half", 0.2)] {
                    body.spawn((
                        Name::new(name),
                        Collider::rectangle(0.5, 0.5),
                        Transform::from_xyz(dx, 0.0, 0.0),
                    ));
                }
            });
    }
    let dir = scratch::scratch_folder("collidoscope-avian-layers");
    let path = dir.join("layers.capture.jsonl");
    run_game(&path, 60, CapturePlugin::to_file(&path), layered);
    let mut reader = CaptureReader::open(&path).unwrap();
    let mut last = None;
    while let Some(frame) = reader.next_frame().unwrap() {
        last = Some(frame);
    }
    let frame = last.unwrap();
    let margin = Margin::of_settings(&reader.header().engine.settings);
    assert_eq!(
        margin,
        Margin::Given(f64::from(0.02f32)),
        "contact_tolerance at 1 unit a metre"
    );
    let shape = |name: &str| {
        reader
            .shapes()
            .find(|s| s.name.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("{name}"))
    };
    let claimed = |a: u64, b: u64| {
        frame
            .claims
            .iter()
            .any(|c| (c.a, c.b) == (a, b) || (c.b, c.a) == (a, b))
    };
    let (a, b) = (shape("ghost a"), shape("ghost b"));
    assert_eq!(a.pairing.filter, Some(Filter::layers(0b10, !0b10)));
    assert_eq!(
        shape("floor").pairing.filter,
        Some(Filter::layers(1, u32::MAX))
    );
    assert!(!claimed(a.id, b.id));
    assert!(
        collidoscope::query::collide(&a.placed, &b.placed).is_some(),
        "they overlap"
    );
    match collidoscope::capture::left_out(a.side(), b.side(), margin) {
        LeftOut::Filtered { verdict, .. } => assert_eq!(verdict, FilterVerdict::Neither),
        other => panic!("ghosts: {other:?}"),
    }
    let (l, r) = (shape("left half"), shape("right half"));
    assert!(l.pairing.body_id.is_some());
    assert_eq!(l.pairing.body_id, r.pairing.body_id);
    assert!(!claimed(l.id, r.id));
    assert!(matches!(
        collidoscope::capture::left_out(l.side(), r.side(), margin),
        LeftOut::SameBody(_)
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The plugin streams to a window as the other adapters do (`ToWindow`): the game's steps go
/// over the loopback socket to the window's own listener, which writes them as a capture
/// (every step sent, none dropped), judged as the file's: every claim agrees but ties.
#[test]
fn the_avian_plugin_streams_to_a_listening_window() {
    use collidoscope::capture::{LinkEvent, Listener, ToWindow};
    let dir = tempfile::tempdir().unwrap();
    let listener = Listener::bind(0, dir.path()).unwrap();
    let link = ToWindow::connect(listener.port());
    let watch = link.watch();
    assert!(
        link.wait_for_window(Duration::from_secs(20)),
        "no connection"
    );
    play(60, CapturePlugin::to_window(link), setup);
    let mut seen = Vec::new();
    let start = std::time::Instant::now();
    while !seen.iter().any(|e| matches!(e, LinkEvent::Ended { .. })) {
        assert!(start.elapsed() < Duration::from_secs(20), "{seen:?}");
        seen.extend(listener.events());
        std::thread::sleep(Duration::from_millis(5));
    }
    let Some(LinkEvent::Connected {
        capture, engine, ..
    }) = seen.first().cloned()
    else {
        panic!("{seen:?}");
    };
    assert_eq!(engine, "avian2d 0.8.0");
    assert!(
        seen.contains(&LinkEvent::Ended {
            capture: capture.clone(),
            frames: 60,
            problem: None
        }),
        "{seen:?}"
    );
    let stats = watch.stats();
    assert_eq!((stats.sent, stats.dropped), (60, 0), "{stats:?}");
    let tally = judge(&capture);
    assert_eq!(tally.frames, 60);
    assert!(tally.claims > 100, "{tally:#?}");
    assert_eq!(tally.claims - tally.agreeing, tally.ties, "{tally:#?}");
}

/// A rounded crate (`Collider::round_rectangle`: a 0.4 m square core grown by 0.05 m) sliding
/// at 3 m/s over the twelve tiles: captured as a polygon with its radius (shape-set version 4),
/// and every claim agrees at f32 (or is a tie, as above).
#[test]
fn a_rounded_avian_crate_is_captured_with_its_radius_and_agrees() {
    fn rounded_setup(mut commands: Commands) {
        tiles(&mut commands);
        commands.spawn((
            Name::new("rounded crate"),
            RigidBody::Dynamic,
            Collider::round_rectangle(0.4, 0.4, 0.05),
            Transform::from_xyz(-5.5, 0.25, 0.0),
            LinearVelocity(bevy::math::Vec2::new(3.0, 0.0)),
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rounded.capture.jsonl");
    run_game(&path, 150, CapturePlugin::to_file(&path), rounded_setup);
    let tally = judge(&path);
    println!("{tally:#?}");
    assert!(tally.claims > 100, "{tally:#?}");
    assert_eq!(tally.claims - tally.agreeing, tally.ties, "{tally:#?}");
    let mut reader = CaptureReader::open(&path).unwrap();
    reader.next_frame().unwrap().unwrap();
    let crate_shape = reader
        .shapes()
        .find(|s| s.name.as_deref() == Some("rounded crate"))
        .expect("the crate is captured");
    let collidoscope::geometry::Shape::Polygon(p) = &crate_shape.placed.shape else {
        panic!(
            "a rounded rectangle is a polygon: {:?}",
            crate_shape.placed.shape
        );
    };
    assert_eq!(p.radius(), 0.05f32 as f64);
    assert_eq!(p.centred_half_extents(), Some(DVec2::splat(0.2f32 as f64)));
}

/// How many claims each captured shape (by name) is in, over the whole capture.
fn claims_by_name(path: &Path) -> BTreeMap<String, usize> {
    let mut reader = CaptureReader::open(path).unwrap();
    let mut by_name = BTreeMap::new();
    while let Some(frame) = reader.next_frame().unwrap() {
        let judged = judge_frame(&reader, &frame);
        for c in &judged.claims {
            for id in [c.a, c.b] {
                let name = reader
                    .shape(id)
                    .and_then(|s| s.name.as_deref().map(str::to_string))
                    .unwrap_or_else(|| format!("id {id}"));
                *by_name.entry(name).or_default() += 1;
            }
        }
    }
    by_name
}

/// The ids and names of a capture's shapes in its last frame.
fn shapes_of(path: &Path) -> BTreeMap<String, u64> {
    let mut reader = CaptureReader::open(path).unwrap();
    while reader.next_frame().unwrap().is_some() {}
    reader
        .shapes()
        .map(|s| (s.name.as_deref().unwrap_or_default().to_string(), s.id))
        .collect()
}

/// An L-shaped crate (`Collider::compound` of two rectangles) sliding and tumbling along a
/// polyline floor with a kink and a slope: each part and each segment is a shape of its own
/// (ids from 2^52, named "L/part k" and "floor/segment k"), every claim is judged against the
/// part and the segment parry collided, and every claim agrees at f32 (or is a tie, as above).
#[test]
fn a_compound_l_on_a_polyline_floor_is_captured_piece_by_piece_and_agrees() {
    fn l_on_polyline(mut commands: Commands) {
        use bevy::math::Vec2;
        commands.spawn((
            Name::new("floor"),
            RigidBody::Static,
            Collider::polyline(
                vec![
                    Vec2::new(-6.0, 0.0),
                    Vec2::new(-3.0, 0.0),
                    Vec2::new(-1.0, 0.0),
                    Vec2::new(2.0, -0.3),
                    Vec2::new(6.0, -0.3),
                    Vec2::new(8.0, 0.7),
                ],
                None,
            ),
        ));
        commands.spawn((
            Name::new("L"),
            RigidBody::Dynamic,
            Collider::compound(vec![
                (
                    Position(Vec2::ZERO),
                    Rotation::default(),
                    Collider::rectangle(1.0, 0.2),
                ),
                (
                    Position(Vec2::new(-0.4, 0.4)),
                    Rotation::default(),
                    Collider::rectangle(0.2, 0.6),
                ),
            ]),
            Transform::from_xyz(-5.0, 0.3, 0.0),
            LinearVelocity(Vec2::new(4.0, 0.0)),
        ));
        commands.spawn((
            Name::new("T"),
            RigidBody::Dynamic,
            Collider::compound(vec![
                (
                    Position(Vec2::ZERO),
                    Rotation::default(),
                    Collider::rectangle(0.8, 0.2),
                ),
                (
                    Position(Vec2::new(0.0, -0.35)),
                    Rotation::degrees(10.0),
                    Collider::capsule(0.08, 0.5),
                ),
            ]),
            Transform::from_xyz(0.5, 1.2, 0.0),
            LinearVelocity(Vec2::new(1.0, 0.0)),
        ));
        commands.spawn((
            Name::new("ball"),
            RigidBody::Dynamic,
            Collider::circle(0.25),
            Transform::from_xyz(4.0, 1.0, 0.0),
            LinearVelocity(Vec2::new(2.0, 0.0)),
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("compound.capture.jsonl");
    run_game(&path, 240, CapturePlugin::to_file(&path), l_on_polyline);
    let tally = judge(&path);
    println!("{tally:#?}");
    assert!(tally.claims > 200, "{tally:#?}");
    assert_eq!(tally.claims - tally.agreeing, tally.ties, "{tally:#?}");
    let shapes = shapes_of(&path);
    for name in ["L/part 0", "L/part 1", "floor/segment 0", "floor/segment 4"] {
        let id = shapes
            .get(name)
            .unwrap_or_else(|| panic!("{name}: {shapes:?}"));
        assert!(*id >= 1 << 52, "{name} has id {id}");
    }
    assert!(!shapes.contains_key("L"), "{shapes:?}");
    let by_name = claims_by_name(&path);
    println!("{by_name:#?}");
    // The L slides on its foot; the T tumbles onto the slope and the kink on both its parts.
    for name in [
        "L/part 0",
        "T/part 0",
        "T/part 1",
        "floor/segment 0",
        "floor/segment 1",
        "floor/segment 2",
        "floor/segment 3",
    ] {
        assert!(
            by_name.get(name).copied().unwrap_or(0) > 0,
            "{name}: {by_name:#?}"
        );
    }
    // Parry collides each segment of a polyline on its own: the L's foot, sliding at 4 m/s,
    // is caught on the end of segment 1 where segment 0 covers it (x = -3, a flat floor).
    let seam = tally
        .events
        .iter()
        .find(|e| e.kind() == collidoscope::motion::EventKind::Seam)
        .unwrap_or_else(|| panic!("no seam: {:#?}", tally.events));
    assert_eq!(seam.shape(), Some(shapes["L/part 0"]), "{seam:#?}");
    assert_eq!(
        seam.seam().map(|s| s.face_of),
        Some(shapes["floor/segment 1"]),
        "{seam:#?}"
    );
    assert_eq!(
        seam.seam().map(|s| s.covered_by),
        Some(shapes["floor/segment 0"]),
        "{seam:#?}"
    );
    assert_eq!(seam.seam().map(|s| s.caught), Some(true), "{seam:#?}");
    assert!(
        seam.seam().map(|s| s.speed_after).unwrap()
            < 0.2 * seam.seam().map(|s| s.speed_before).unwrap(),
        "{seam:#?}"
    );
}

/// A ball and a crate over a heightfield hill, and a box on a static trimesh slab: the hill's
/// cells are segments, the slab's triangles polygons, and every claim agrees at f32.
#[test]
fn a_heightfield_hill_and_a_trimesh_slab_are_captured_piece_by_piece_and_agree() {
    fn hill(mut commands: Commands) {
        use bevy::math::Vec2;
        commands.spawn((
            Name::new("hill"),
            RigidBody::Static,
            Collider::heightfield(
                vec![0.0, 0.0, 0.1, 0.5, 0.8, 0.5, 0.1, 0.0, 0.0],
                Vec2::new(8.0, 1.0),
            ),
        ));
        commands.spawn((
            Name::new("ball"),
            RigidBody::Dynamic,
            Collider::circle(0.2),
            Transform::from_xyz(-3.5, 0.3, 0.0),
            LinearVelocity(Vec2::new(8.0, 0.0)),
        ));
        commands.spawn((
            Name::new("crate"),
            RigidBody::Dynamic,
            Collider::rectangle(0.3, 0.3),
            Transform::from_xyz(2.5, 1.5, 0.0),
        ));
        commands.spawn((
            Name::new("slab"),
            RigidBody::Static,
            Collider::trimesh(
                vec![
                    Vec2::new(-1.0, 0.0),
                    Vec2::new(1.0, 0.0),
                    Vec2::new(1.0, 0.4),
                    Vec2::new(-1.0, 0.4),
                ],
                vec![[0, 1, 2], [0, 2, 3]],
            ),
            Transform::from_xyz(6.0, 2.0, 0.0),
        ));
        commands.spawn((
            Name::new("box"),
            RigidBody::Dynamic,
            Collider::rectangle(0.4, 0.4),
            Transform::from_xyz(6.3, 3.0, 0.0),
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hill.capture.jsonl");
    run_game(&path, 200, CapturePlugin::to_file(&path), hill);
    let tally = judge(&path);
    println!("{tally:#?}");
    assert!(tally.claims > 150, "{tally:#?}");
    assert_eq!(tally.claims - tally.agreeing, tally.ties, "{tally:#?}");
    let by_name = claims_by_name(&path);
    println!("{by_name:#?}");
    // The ball rolls over the hill's top (segments 3 and 4 meet there).
    for name in [
        "hill/segment 3",
        "hill/segment 4",
        "hill/segment 6",
        "slab/triangle 1",
    ] {
        assert!(
            by_name.get(name).copied().unwrap_or(0) > 0,
            "{name}: {by_name:#?}"
        );
    }
}

/// A polyline on a dynamic body is refused by name (its segments would be segments on a moving
/// body): nothing past the header is written, and the plugin says why.
#[test]
fn a_polyline_on_a_moving_body_is_refused_by_name() {
    fn moving_polyline(mut commands: Commands) {
        use bevy::math::Vec2;
        commands.spawn((
            Name::new("whip"),
            RigidBody::Dynamic,
            Collider::polyline(vec![Vec2::ZERO, Vec2::new(1.0, 0.0)], None),
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("refused.capture.jsonl");
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PhysicsPlugins::default()))
        .add_plugins(CapturePlugin::to_file(&path))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / 64.0,
        )))
        .add_systems(Startup, moving_polyline);
    app.finish();
    app.cleanup();
    for _ in 0..5 {
        app.update();
    }
    let state = app
        .world()
        .resource::<collidoscope::capture::avian::AvianCaptureState>();
    let stopped = state.stopped().expect("the capture stops").to_string();
    assert!(
        stopped.contains("\"whip\"") && stopped.contains("polyline on a dynamic body"),
        "{stopped}"
    );
    drop(app);
    let mut reader = CaptureReader::open(&path).unwrap();
    assert!(reader.next_frame().unwrap().is_none());
}

/// Over time (docs/format.md, "Impulses"): each claim carries the solver's `normal_impulse`
/// at its points, written after Avian's solver has stored them, and every claim still agrees.
/// A resting crate's add up each step to twice its weight times the step, 2 m g dt: Avian's
/// `total_impulse` adds the point's accumulated impulse at both the solve and the relax of
/// every substep (avian2d 0.8, `dynamics/solver/contact/normal_part.rs`), and is written as
/// Avian reports it.
#[test]
fn a_resting_avian_crate_is_held_up_by_the_impulses_on_its_claims() {
    fn resting(mut commands: Commands) {
        commands.spawn((
            Name::new("floor"),
            RigidBody::Static,
            Collider::rectangle(12.0, 1.0),
            Transform::from_xyz(0.0, -0.5, 0.0),
        ));
        commands.spawn((
            Name::new("crate"),
            RigidBody::Dynamic,
            Collider::rectangle(0.5, 0.5),
            Transform::from_xyz(0.0, 0.25, 0.0),
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("resting.capture.jsonl");
    run_game(&path, 90, CapturePlugin::to_file(&path), resting);
    let tally = judge(&path);
    assert_eq!(tally.claims - tally.agreeing, tally.ties, "{tally:#?}");
    // 0.25 kg (a 0.5 m square of density 1) under 9.81 m/s^2, over a step of 1/64 s; Avian
    // counts it twice.
    let weight = 2.0 * 0.25 * 9.81 / 64.0;
    let mut reader = CaptureReader::open(&path).unwrap();
    let mut checked = 0;
    while let Some(frame) = reader.next_frame().unwrap() {
        if frame.frame < 20 {
            continue;
        }
        for claim in &frame.claims {
            let r = &claim.reported;
            let impulses = r
                .impulses
                .as_ref()
                .unwrap_or_else(|| panic!("frame {}: no impulses on {r:?}", frame.frame));
            assert_eq!(Some(impulses.len()), r.contacts.as_ref().map(Vec::len));
            let total: f64 = impulses.iter().sum();
            assert!(
                (total - weight).abs() < 0.02 * weight,
                "frame {}: {impulses:?} add up to {total}, against 2 m g dt = {weight}",
                frame.frame
            );
            checked += 1;
        }
    }
    // Settled from frame 20 until Avian puts it to sleep (its claims then left out).
    assert!(checked >= 10, "{checked} claims checked");
}
