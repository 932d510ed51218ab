//! Events in captures (docs/format.md, "What happened over time: events in captures"): each
//! kind found at its frame in a small f64 capture written with the library's writer, and each
//! kind's boundary left alone (tiles with a real gap, a kinematic body passing through, a
//! graze); `diagnose` counts them, words the first of each with its fix, and fails on them.

use collidoscope::capture::{
    BodyShape, CaptureEvent, CaptureReader, CaptureWriter, Engine, EventFinder, Header, Manifold,
    ManifoldPoint, NormalFrom, Penetration, judge_frame,
};
use collidoscope::event::{EventKind, Through, What};
use collidoscope::geometry::{Circle, ConvexPolygon, DVec2};
use collidoscope::scene::{Body, Precision};
use std::io::Cursor;
use std::path::Path;

/// A frame: its shapes and the engine's manifolds.
type Frame = (Vec<BodyShape>, Vec<Manifold>);

/// The capture of `frames` (1/60 s apart), exact numbers.
fn capture(frames: &[Frame]) -> Vec<u8> {
    let header = Header {
        precision: Precision::F64,
        ..Header::f32_metres(Engine::new("test-engine", "1"))
    };
    let mut out = Vec::new();
    let mut writer = CaptureWriter::new(
        &mut out,
        &header,
        NormalFrom::AToB,
        Penetration::NegativeSeparation,
    )
    .unwrap();
    for (k, (shapes, manifolds)) in frames.iter().enumerate() {
        writer.frame(k as f64 / 60.0, shapes, manifolds).unwrap();
    }
    drop(writer);
    out
}

/// Every event of a capture, in order.
fn events(bytes: Vec<u8>) -> Vec<CaptureEvent> {
    let mut reader =
        CaptureReader::new(Path::new("game.capture.jsonl"), Cursor::new(bytes)).unwrap();
    let mut finder = EventFinder::for_capture(reader.header());
    let mut all = Vec::new();
    while let Some(frame) = reader.next_frame().unwrap() {
        let judged = judge_frame(&reader, &frame);
        all.extend(finder.frame(&reader, &frame, &judged));
    }
    all.extend(finder.finish());
    all
}

fn tile(id: u64, x: f64, half: f64) -> BodyShape {
    BodyShape::new(
        id,
        ConvexPolygon::rectangle(DVec2::new(half, 0.5)).unwrap(),
        DVec2::new(x, -0.5),
        DVec2::X,
    )
    .named(format!("tile{id}"))
}

fn crate_at(x: f64, y: f64, vx: f64) -> BodyShape {
    BodyShape::new(
        9,
        ConvexPolygon::rectangle(DVec2::splat(0.25)).unwrap(),
        DVec2::new(x, y),
        DVec2::X,
    )
    .named("crate")
    .moving(Body::Dynamic, DVec2::new(vx, 0.0), 0.0, true)
}

/// The contact that stopped the crate: on tile2's left face, its normal from tile2 toward the
/// crate pointing back along the floor (-1, 0).
fn seam_contact() -> Manifold {
    Manifold {
        a: 2,
        b: 9,
        normal: DVec2::NEG_X,
        points: vec![ManifoldPoint {
            point: DVec2::new(0.0, -0.01),
            separation: -0.002,
            impulse: None,
        }]
        .into(),
        piece: None,
    }
}

/// Two frames on `floor`: the crate against tile2's left face at 6.5 m/s (the seam's contact
/// claimed), then slowed to 2.16 m/s.
fn crate_caught(floor: impl Fn() -> Vec<BodyShape>) -> [Frame; 2] {
    [
        (
            [floor(), vec![crate_at(-0.248, 0.24, 6.5)]].concat(),
            vec![seam_contact()],
        ),
        (
            [floor(), vec![crate_at(-0.21, 0.24, 2.16)]].concat(),
            vec![],
        ),
    ]
}

#[test]
fn a_crate_caught_between_two_floor_tiles_is_a_seam_event() {
    // tile1 covers x in [-2, 0], tile2 [0, 2]: tile2's left face is inside the floor.
    let floor = || vec![tile(1, -1.0, 1.0), tile(2, 1.0, 1.0)];
    let found = events(capture(&crate_caught(floor)));
    assert_eq!(found.len(), 1, "{found:?}");
    let e = &found[0];
    assert_eq!((e.frame(), e.kind(), e.a, e.b), (0, EventKind::Seam, 2, 9));
    assert_eq!(
        (
            e.shape(),
            e.seam().map(|s| s.face_of),
            e.seam().map(|s| s.covered_by)
        ),
        (Some(9), Some(2), Some(1))
    );
    assert_eq!(e.what.normal(), Some(DVec2::NEG_X));
    assert_eq!(
        (
            e.seam().map(|s| s.speed_before),
            e.seam().map(|s| s.speed_after)
        ),
        (Some(6.5), Some(2.16))
    );
    assert_eq!(e.seam().map(|s| s.caught), Some(true));
    let words = collidoscope::capture::words::capture_event(e, None);
    assert!(
        words.starts_with("frame 0, t = 0 s: crate caught on the seam between tile1 and tile2: the contact's normal (-1, 0) is tile2's left face, which tile1 covers; crate's speed along the floor went from 6.5 to 2.16 m/s"),
        "{words}"
    );
    let json = serde_json::to_value(e).unwrap();
    assert_eq!(json["kind"], "seam");
    assert_eq!(json["face_of"], 2);
    assert_eq!(json["caught"], true);
}

#[test]
fn tiles_with_a_real_gap_make_no_seam() {
    // tile1 ends 0.001 before tile2 begins: the face is the floor's edge, not a seam.
    let floor = || vec![tile(1, -1.001, 1.0), tile(2, 1.0, 1.0)];
    assert!(events(capture(&crate_caught(floor))).is_empty());
}

fn wall() -> BodyShape {
    BodyShape::new(
        1,
        ConvexPolygon::rectangle(DVec2::new(0.05, 1.0)).unwrap(),
        DVec2::ZERO,
        DVec2::X,
    )
    .named("wall")
}

fn bullet(x: f64, y: f64, body: Body) -> BodyShape {
    BodyShape::new(5, Circle::new(0.05).unwrap(), DVec2::new(x, y), DVec2::X)
        .named("bullet")
        .moving(body, DVec2::new(120.0, 0.0), 0.0, true)
}

#[test]
fn a_bullet_through_a_thin_wall_with_no_contact_tunnelled() {
    let frames = [
        (vec![wall(), bullet(-1.0, 0.0, Body::Dynamic)], vec![]),
        (vec![wall(), bullet(1.0, 0.0, Body::Dynamic)], vec![]),
    ];
    let found = events(capture(&frames));
    assert_eq!(found.len(), 1, "{found:?}");
    let e = &found[0];
    assert_eq!(
        (e.frame(), e.kind(), e.a, e.b, e.shape()),
        (0, EventKind::Tunnelled, 1, 5, Some(5))
    );
    // It touches when its centre is 0.1 before the wall's middle: 0.9 of 2, at t = 0.45.
    let What::Tunnelled {
        through: Through::Step { t, depth },
        ..
    } = e.what
    else {
        panic!("{e:?}")
    };
    assert!((0.45 - 1e-6..=0.45).contains(&t), "{t}");
    // Deepest when centred on the wall: 0.05 + 0.05.
    assert!((depth - 0.1).abs() <= 1e-7, "{depth}");
    let words = collidoscope::capture::words::capture_event(e, None);
    assert!(
        words.contains("bullet tunnelled through wall during the step"),
        "{words}"
    );
}

#[test]
fn a_kinematic_body_passing_through_or_a_graze_is_no_tunnel() {
    let kinematic = [
        (vec![wall(), bullet(-1.0, 0.0, Body::Kinematic)], vec![]),
        (vec![wall(), bullet(1.0, 0.0, Body::Kinematic)], vec![]),
    ];
    assert!(events(capture(&kinematic)).is_empty());
    // Past the wall's end, just touching its corner: no overlap deeper than tau.
    let graze = [
        (vec![wall(), bullet(-1.0, 1.05, Body::Dynamic)], vec![]),
        (vec![wall(), bullet(1.0, 1.05, Body::Dynamic)], vec![]),
    ];
    assert!(events(capture(&graze)).is_empty());
}

#[test]
fn a_body_moved_out_through_the_far_side_was_pushed_through() {
    let hit = Manifold {
        a: 1,
        b: 5,
        normal: DVec2::X,
        points: vec![ManifoldPoint {
            point: DVec2::new(0.0, 0.0),
            separation: -0.08,
            impulse: None,
        }]
        .into(),
        piece: None,
    };
    let frames = [
        (vec![wall(), bullet(-0.03, 0.0, Body::Dynamic)], vec![hit]),
        (vec![wall(), bullet(0.3, 0.0, Body::Dynamic)], vec![]),
    ];
    let found = events(capture(&frames));
    let through: Vec<_> = found
        .iter()
        .filter(|e| e.kind() == EventKind::PushedThrough)
        .collect();
    // The bullet's centre starts inside the wall: that is no crossing.
    assert!(through.is_empty(), "{found:?}");
    let hit = Manifold {
        a: 1,
        b: 5,
        normal: DVec2::X,
        points: vec![ManifoldPoint {
            point: DVec2::new(-0.05, 0.0),
            separation: -0.02,
            impulse: None,
        }]
        .into(),
        piece: None,
    };
    let frames = [
        (vec![wall(), bullet(-0.08, 0.0, Body::Dynamic)], vec![hit]),
        (vec![wall(), bullet(0.3, 0.0, Body::Dynamic)], vec![]),
    ];
    let found = events(capture(&frames));
    let e = found
        .iter()
        .find(|e| e.kind() == EventKind::PushedThrough)
        .expect("pushed through");
    assert_eq!((e.frame(), e.shape()), (0, Some(5)));
    let What::PushedThrough { from, to, .. } = e.what else {
        panic!("{e:?}")
    };
    assert_eq!((from, to), (DVec2::new(-0.08, 0.0), DVec2::new(0.3, 0.0)));
}

fn ball_on_ground(y: f64) -> Vec<BodyShape> {
    vec![
        BodyShape::new(
            1,
            ConvexPolygon::rectangle(DVec2::new(10.0, 0.5)).unwrap(),
            DVec2::new(0.0, -0.5),
            DVec2::X,
        )
        .named("ground"),
        BodyShape::new(7, Circle::new(0.5).unwrap(), DVec2::new(0.25, y), DVec2::X)
            .named("ball")
            .moving(Body::Dynamic, DVec2::new(0.0, -1.0), 0.0, true),
    ]
}

fn resting(depth: f64, normal: DVec2) -> Manifold {
    Manifold {
        a: 1,
        b: 7,
        normal,
        points: vec![ManifoldPoint {
            point: DVec2::new(0.25, -depth / 2.0),
            separation: -depth,
            impulse: None,
        }]
        .into(),
        piece: None,
    }
}

#[test]
fn a_normal_that_turns_back_is_a_normal_flip_of_the_later_frame() {
    let frames = [
        (ball_on_ground(0.49), vec![resting(0.01, DVec2::Y)]),
        (ball_on_ground(0.49), vec![resting(0.01, DVec2::NEG_Y)]),
    ];
    let found = events(capture(&frames));
    let e = found
        .iter()
        .find(|e| e.kind() == EventKind::NormalFlip)
        .expect("a flip");
    assert_eq!((e.frame(), e.a, e.b), (1, 1, 7));
    assert_eq!(
        e.what,
        What::NormalFlip {
            normal_before: DVec2::Y,
            normal: DVec2::NEG_Y
        }
    );
}

#[test]
fn a_contact_kept_from_earlier_poses_is_stale_with_its_age() {
    // Exact at frame 0 (0.01 deep); the ball rises, the engine keeps the contact for three
    // frames.
    let frames = [
        (ball_on_ground(0.49), vec![resting(0.01, DVec2::Y)]),
        (ball_on_ground(0.6), vec![resting(0.01, DVec2::Y)]),
        (ball_on_ground(0.7), vec![resting(0.01, DVec2::Y)]),
        (ball_on_ground(0.8), vec![resting(0.01, DVec2::Y)]),
    ];
    let found = events(capture(&frames));
    let ages: Vec<(u64, Option<u64>)> = found
        .iter()
        .filter(|e| e.kind() == EventKind::Stale)
        .map(|e| (e.frame(), e.age()))
        .collect();
    assert_eq!(ages, vec![(1, Some(1)), (2, Some(2)), (3, Some(3))]);
    let words = collidoscope::capture::words::capture_event(&found[0], None);
    assert!(
        words.contains("is stale: it is the exact contact of the poses 1 frame back"),
        "{words}"
    );
}

/// docs/format.md, "A seam at a corner": a ball rolling right over the seam between tile1
/// (x in [-2, 0]) and tile2 ([0, 2]), its centre 0.1 past the seam and sunk 0.01, meets
/// tile1's top right corner (0, 0); the engine pushes it along the corner's normal, up and on,
/// though the floor the two tiles make is flat there. The claim on the corner is a seam at the
/// corner, naming the corner and the floor's normal; the claim on tile2's top is none, and the
/// same contact on one long floor is none.
#[test]
fn a_ball_bumped_on_the_corner_between_two_flat_tiles_is_a_corner_seam() {
    let ball = |vx: f64, vy: f64| {
        BodyShape::new(
            9,
            Circle::new(0.25).unwrap(),
            DVec2::new(0.1, 0.24),
            DVec2::X,
        )
        .named("ball")
        .moving(Body::Dynamic, DVec2::new(vx, vy), 0.0, true)
    };
    let n = DVec2::new(0.1, 0.24).normalize();
    let corner_claim = Manifold {
        a: 1,
        b: 9,
        normal: n,
        points: vec![ManifoldPoint {
            // Halfway between the surfaces: 0.005 in from the corner, along the normal.
            point: -n * 0.005,
            separation: -0.01,
            impulse: None,
        }]
        .into(),
        piece: None,
    };
    let top_claim = Manifold {
        a: 2,
        b: 9,
        normal: DVec2::Y,
        points: vec![ManifoldPoint {
            point: DVec2::new(0.1, -0.005),
            separation: -0.01,
            impulse: None,
        }]
        .into(),
        piece: None,
    };
    let floor = || vec![tile(1, -1.0, 1.0), tile(2, 1.0, 1.0)];
    let frames = [
        (
            [floor(), vec![ball(1.0, -0.1)]].concat(),
            vec![corner_claim.clone(), top_claim.clone()],
        ),
        ([floor(), vec![ball(1.04, 0.0)]].concat(), vec![]),
    ];
    let found = events(capture(&frames));
    assert_eq!(found.len(), 1, "{found:?}");
    let e = &found[0];
    assert_eq!((e.frame(), e.kind(), e.a, e.b), (0, EventKind::Seam, 1, 9));
    assert_eq!(
        (
            e.shape(),
            e.seam().map(|s| s.face_of),
            e.seam().map(|s| s.covered_by)
        ),
        (Some(9), Some(1), Some(2))
    );
    let json = serde_json::to_value(e).unwrap();
    assert_eq!(json["at"], "corner");
    assert_eq!(json["corner"], serde_json::json!([0.0, 0.0]));
    assert_eq!(json["surface_normal"], serde_json::json!([0.0, 1.0]));
    // Its speed into the corner: (1, -0.1) . -n before, (1.04, 0) . -n after.
    assert!(
        (e.seam().map(|s| s.speed_before).unwrap() - DVec2::new(1.0, -0.1).dot(-n)).abs() < 1e-12
    );
    assert_eq!(e.seam().map(|s| s.caught), Some(false));
    let words = collidoscope::capture::words::capture_event(e, None);
    assert!(
        words.starts_with("frame 0, t = 0 s: ball bumped on the corner (0, 0) between tile1 and tile2: the contact's normal ")
            && words.contains("leans 22.62 degrees from the floor's (0, 1)"),
        "{words}"
    );
    // One long floor: the same contact meets no corner of a seam.
    let one_floor = || {
        vec![
            BodyShape::new(
                1,
                ConvexPolygon::rectangle(DVec2::new(2.0, 0.5)).unwrap(),
                DVec2::new(0.0, -0.5),
                DVec2::X,
            )
            .named("floor"),
        ]
    };
    let frames = [
        (
            [one_floor(), vec![ball(1.0, -0.1)]].concat(),
            vec![corner_claim],
        ),
        ([one_floor(), vec![ball(1.04, 0.0)]].concat(), vec![]),
    ];
    assert_eq!(events(capture(&frames)), vec![]);
    // The face seam says where it was met too.
    let found = events(capture(&crate_caught(floor)));
    assert_eq!(serde_json::to_value(&found[0]).unwrap()["at"], "face");
}

/// Issue 59: a motion run saved as a capture held only the contacts left at each frame's poses
/// after resolution (1 claim in 241 frames), so `diagnose` named nothing of what the run did.
/// Each frame now holds what the resolver saw: a 24-pixel crate sliding at 200 px/s over
/// separate 32-pixel tiles under 900 px/s² of gravity, saved as a capture, has a claim in
/// every frame it rests on the floor, every claim agrees, and the capture names the seams the
/// run named: the same steps, the same shapes, caught alike.
#[test]
fn a_motion_run_saved_as_a_capture_names_the_seams_the_run_named() {
    use collidoscope::motion::{Config, Recording, Resolver, Simulation, Substeps};
    let mut shapes: Vec<String> = (0..20)
        .map(|k| {
            format!(
                r#"{{"name": "tile {k}", "kind": "polygon", "points": [[-16, -16], [16, -16], [16, 16], [-16, 16]], "position": [{}, 16]}}"#,
                16 + 32 * k
            )
        })
        .collect();
    shapes.push(r#"{"name": "crate", "kind": "polygon", "points": [[-12, -12], [12, -12], [12, 12], [-12, 12]], "position": [40, 42], "body": "dynamic", "velocity": [200, 0]}"#.into());
    let text = format!(
        r#"{{"format": "collidoscope-shapes", "version": 3, "gravity": [0, -900], "shapes": [{}]}}"#,
        shapes.join(", ")
    );
    let scene = collidoscope::scene::parse(Path::new("tiles.json"), text.as_bytes()).unwrap();
    let config = Config {
        dt: 1.0 / 60.0,
        substeps: Substeps::Fixed(1),
        resolver: Resolver::Sat,
        ccd: false,
    };
    let (recording, _) = Recording::run(Simulation::new(scene.clone(), config), 240);
    let name = |k: usize| scene.shapes[k].display_name(k);
    let run_seams: Vec<(u64, String, String, String, Option<bool>)> = recording
        .events()
        .iter()
        .filter(|e| e.kind() == EventKind::Seam)
        .map(|e| {
            (
                e.step(),
                name(e.shape().unwrap()),
                name(e.seam().map(|s| s.face_of).unwrap()),
                name(e.seam().map(|s| s.covered_by).unwrap()),
                e.seam().map(|s| s.caught),
            )
        })
        .collect();
    assert!(!run_seams.is_empty(), "{:?}", recording.events());
    let bytes = collidoscope::capture::write_run(&recording, Vec::new(), false).unwrap();
    let mut reader =
        CaptureReader::new(Path::new("run.capture.jsonl"), Cursor::new(bytes.clone())).unwrap();
    let (mut frames, mut claims) = (0, 0);
    while let Some(frame) = reader.next_frame().unwrap() {
        frames += 1;
        for c in judge_frame(&reader, &frame).claims {
            claims += 1;
            assert!(c.agrees(), "{:?}", c.lines());
        }
    }
    assert_eq!(frames, 241);
    assert!(claims >= 200, "{claims} claims");
    let found = events(bytes);
    let capture_seams: Vec<(u64, String, String, String, Option<bool>)> = found
        .iter()
        .filter(|e| e.kind() == EventKind::Seam)
        .map(|e| {
            let n = |id: Option<u64>| e.name(id.unwrap());
            (
                e.frame(),
                n(e.shape()),
                n(e.seam().map(|s| s.face_of)),
                n(e.seam().map(|s| s.covered_by)),
                e.seam().map(|s| s.caught),
            )
        })
        .collect();
    assert_eq!(capture_seams, run_seams);
}

/// An engine that says it recomputes every contact every step (`"contact_recycling": false`,
/// as the matter and planck adapters write) keeps no contact: a claim no earlier frame's exact
/// result explains is not named stale as a kept one. The capture: planck 1.5.0 (js/), a crate
/// at 7 m/s over 1-m tiles, snagging on a seam at frame 32 (Box2D v2's sharp skin corners:
/// `edge-normals-only`), where a contact kept from frame 0 and moved would have the claim's
/// normal. Without the setting, that kept contact is what the finder names.
#[test]
fn an_engine_that_recomputes_every_contact_keeps_none_from_earlier_frames() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/captures/planck-tiles.capture.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let stale = |text: &str| -> Vec<(u64, Option<u64>)> {
        let mut reader = CaptureReader::new(&path, Cursor::new(text.as_bytes().to_vec())).unwrap();
        let mut finder = EventFinder::for_capture(reader.header());
        let mut found = Vec::new();
        while let Some(frame) = reader.next_frame().unwrap() {
            let judged = collidoscope::capture::judge_frame(&reader, &frame);
            found.extend(finder.frame(&reader, &frame, &judged));
        }
        found.extend(finder.finish());
        found
            .iter()
            .filter(|e| e.kind() == EventKind::Stale)
            .map(|e| (e.frame(), e.age()))
            .collect()
    };
    let said = stale(&text);
    assert!(!said.iter().any(|(frame, _)| *frame == 32), "{said:?}");
    let unsaid = text.replacen(",\"contact_recycling\":false", "", 1);
    assert_ne!(unsaid, text);
    assert!(
        stale(&unsaid).contains(&(32, Some(32))),
        "{:?}",
        stale(&unsaid)
    );
}
