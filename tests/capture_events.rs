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
use collidoscope::scene::generate::Random;
use collidoscope::scene::{Body, Precision};
use std::io::Cursor;
use std::path::Path;

/// A frame: its shapes and the engine's manifolds.
type Frame = (Vec<BodyShape>, Vec<Manifold>);

/// The capture of `frames` (1/60 s apart), exact numbers.
fn capture(frames: &[Frame]) -> Vec<u8> {
    capture_at(frames, Precision::F64)
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

/// Where the events of [`events_stay_where_they_were_recorded`] are kept.
const RECORDED_EVENTS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/recorded/capture_events.jsonl"
);

/// Whether a draw of `r` falls below `p`.
fn chance(r: &mut Random, p: f64) -> bool {
    r.unit() < p
}

/// One body of a random game: its id, shape, pose and motion.
struct Mover {
    id: u64,
    shape: collidoscope::geometry::Shape,
    position: DVec2,
    angle: f64,
    body: Body,
    velocity: DVec2,
    spin: f64,
}

fn random_shape(r: &mut Random) -> collidoscope::geometry::Shape {
    use collidoscope::geometry::Capsule;
    match (r.unit() * 3.0) as u32 {
        0 => Circle::new(r.between(0.15, 0.5)).unwrap().into(),
        1 => ConvexPolygon::rectangle(DVec2::new(r.between(0.1, 0.5), r.between(0.1, 0.5)))
            .unwrap()
            .into(),
        _ => {
            let half = r.between(0.1, 0.4);
            Capsule::new(
                DVec2::new(-half, 0.0),
                DVec2::new(half, 0.0),
                r.between(0.1, 0.3),
            )
            .unwrap()
            .into()
        }
    }
}

/// A random game of `frames` frames: a floor of touching static tiles, a thin static wall,
/// two kinematic bodies and dynamic bodies of every kind, some fast as bullets, some put
/// elsewhere between frames (pushed through), some removed for good and new ones added, some
/// given another shape. The claims are the exact results of the pairs within 0.05, some taken
/// from the frame before (stale), some turned back (a flip), some left out (a tunnel's chance).
fn random_game(r: &mut Random, frames: usize) -> Vec<Frame> {
    let mut movers: Vec<Mover> = Vec::new();
    let tiles = 8 + (r.unit() * 6.0) as usize;
    for k in 0..tiles {
        movers.push(Mover {
            id: k as u64,
            shape: ConvexPolygon::rectangle(DVec2::splat(0.5)).unwrap().into(),
            position: DVec2::new(k as f64, -0.5),
            angle: 0.0,
            body: Body::Static,
            velocity: DVec2::ZERO,
            spin: 0.0,
        });
    }
    let mut next_id = 100;
    movers.push(Mover {
        id: 99,
        shape: ConvexPolygon::rectangle(DVec2::new(0.04, 1.5))
            .unwrap()
            .into(),
        position: DVec2::new(r.between(3.0, 6.0), 1.5),
        angle: 0.0,
        body: Body::Static,
        velocity: DVec2::ZERO,
        spin: 0.0,
    });
    let mut add = |r: &mut Random, movers: &mut Vec<Mover>, body: Body| {
        let fast = body == Body::Dynamic && chance(r, 0.15);
        let speed = if fast {
            r.between(20.0, 60.0)
        } else {
            r.between(0.0, 4.0)
        };
        movers.push(Mover {
            id: next_id,
            shape: random_shape(r),
            position: DVec2::new(r.between(0.0, tiles as f64), r.between(0.05, 3.0)),
            angle: r.between(-3.0, 3.0),
            body,
            velocity: DVec2::from_angle(r.between(-3.2, 3.2)) * speed,
            spin: if chance(r, 0.5) {
                r.between(-6.0, 6.0)
            } else {
                0.0
            },
        });
        next_id += 1;
    };
    for _ in 0..2 {
        add(r, &mut movers, Body::Kinematic);
    }
    for _ in 0..(8 + (r.unit() * 10.0) as usize) {
        add(r, &mut movers, Body::Dynamic);
    }
    let dt = 1.0 / 60.0;
    let placed = |m: &Mover| {
        collidoscope::geometry::Placed::new(
            m.shape.clone(),
            collidoscope::geometry::Pose::new(m.position, m.angle),
        )
    };
    let mut out: Vec<Frame> = Vec::new();
    let mut before: Option<Vec<(u64, collidoscope::geometry::Placed)>> = None;
    for _ in 0..frames {
        let shapes: Vec<BodyShape> = (movers.iter())
            .map(|m| {
                BodyShape::new(
                    m.id,
                    m.shape.clone(),
                    m.position,
                    DVec2::from_angle(m.angle),
                )
                .moving(m.body, m.velocity, m.spin, true)
            })
            .collect();
        let now: Vec<(u64, collidoscope::geometry::Placed)> =
            movers.iter().map(|m| (m.id, placed(m))).collect();
        let mut manifolds = Vec::new();
        for i in 0..movers.len() {
            for j in i + 1..movers.len() {
                if movers[i].body == Body::Static && movers[j].body == Body::Static {
                    continue;
                }
                if chance(r, 0.08) {
                    continue;
                }
                // Stale: the pair as it was in the frame before, where both were there.
                let then = before.as_ref().filter(|_| chance(r, 0.1)).and_then(|b| {
                    let find = |id: u64| b.iter().find(|(k, _)| *k == id).map(|(_, p)| p);
                    Some((find(movers[i].id)?, find(movers[j].id)?))
                });
                let (a, b) = then.unwrap_or((&now[i].1, &now[j].1));
                let s = collidoscope::query::summarize(a, b);
                let (mut normal, separation, point) = match (s.normal, s.closest) {
                    (Some(n), _) if s.intersecting => {
                        (n, -s.depth, s.contacts.first().copied().unwrap_or_default())
                    }
                    (_, Some([p, q])) if s.distance < 0.05 => {
                        ((q - p) / s.distance, s.distance, (p + q) / 2.0)
                    }
                    _ => continue,
                };
                if chance(r, 0.05) {
                    normal = -normal;
                }
                manifolds.push(Manifold {
                    a: movers[i].id,
                    b: movers[j].id,
                    normal,
                    points: vec![ManifoldPoint {
                        point,
                        separation,
                        impulse: chance(r, 0.5).then(|| r.between(0.0, 2.0)),
                    }]
                    .into(),
                    piece: None,
                });
            }
        }
        out.push((shapes, manifolds));
        before = Some(now);
        // The step: straight motion, a bounce off the floor now and then, a jump elsewhere.
        for m in movers.iter_mut().filter(|m| m.body != Body::Static) {
            m.position += m.velocity * dt;
            m.angle += m.spin * dt;
            if m.body == Body::Dynamic {
                m.velocity.y -= 9.8 * dt;
                if m.position.y < 0.2 && chance(r, 0.5) {
                    m.velocity.y = m.velocity.y.abs();
                }
                if chance(r, 0.01) {
                    m.position += DVec2::from_angle(r.between(-3.2, 3.2)) * r.between(0.5, 1.5);
                }
                // Another shape of the same kind (an id never changes kind).
                if chance(r, 0.01) {
                    let kind = |s: &collidoscope::geometry::Shape| std::mem::discriminant(s);
                    let mut other = random_shape(r);
                    while kind(&other) != kind(&m.shape) {
                        other = random_shape(r);
                    }
                    m.shape = other;
                }
            }
        }
        if chance(r, 0.03) {
            let k = tiles + 3 + (r.unit() * (movers.len() - tiles - 3) as f64) as usize;
            if k < movers.len() {
                movers.remove(k);
            }
        }
        if chance(r, 0.03) {
            add(r, &mut movers, Body::Dynamic);
        }
    }
    out
}

/// The capture of `frames` (1/60 s apart) at `precision`.
fn capture_at(frames: &[Frame], precision: Precision) -> Vec<u8> {
    let header = Header {
        precision,
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

/// Whether two JSON values are the same, numbers within 1e-9 (relative past 1); the first
/// place they differ otherwise.
fn same_json(now: &serde_json::Value, then: &serde_json::Value, at: &str) -> Result<(), String> {
    use serde_json::Value;
    match (now, then) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            match (x - y).abs() <= 1e-9 * y.abs().max(1.0) {
                true => Ok(()),
                false => Err(format!("{at}: {x} against {y}")),
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => (x.iter().zip(y))
            .enumerate()
            .try_for_each(|(k, (x, y))| same_json(x, y, &format!("{at}[{k}]"))),
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
            x.iter().try_for_each(|(k, v)| {
                let w = y.get(k).ok_or(format!("{at}.{k}: not recorded"))?;
                same_json(v, w, &format!("{at}.{k}"))
            })
        }
        _ if now == then => Ok(()),
        _ => Err(format!("{at}: {now} against {then}")),
    }
}

/// The events of 24 random games (90 frames each, half at f64 and half at f32; every kind of
/// event among them, and shapes removed, added and changed) stay as they were recorded (the
/// same events in the same order, their numbers within 1e-9), found frame by frame and by the
/// scan on every core alike. Recorded again, on purpose only, with
/// `COLLIDOSCOPE_RECORD_EVENTS=1 cargo test --test capture_events events_stay`.
#[test]
fn events_stay_where_they_were_recorded() {
    let mut r = Random::new(0x0e_7e_17_5c_a9_7e_5e_ed);
    let mut lines = Vec::new();
    let mut kinds = std::collections::BTreeMap::new();
    for game in 0..24 {
        let precision = if game % 2 == 0 {
            Precision::F64
        } else {
            Precision::F32
        };
        let bytes = capture_at(&random_game(&mut r, 90), precision);
        let one_by_one = events(bytes.clone());
        let mut reader =
            CaptureReader::new(Path::new("game.capture.jsonl"), Cursor::new(bytes)).unwrap();
        let mut finder = EventFinder::for_capture(reader.header());
        let mut scanned = Vec::new();
        collidoscope::capture::judge_capture_with_events(&mut reader, &mut finder, |j| {
            scanned.extend(j.events);
            true
        })
        .unwrap();
        scanned.extend(finder.finish());
        assert_eq!(
            scanned, one_by_one,
            "game {game}: the scan and one frame at a time"
        );
        for e in &one_by_one {
            *kinds.entry(format!("{:?}", e.kind())).or_insert(0) += 1;
            lines.push(format!("{game} {}", serde_json::to_string(e).unwrap()));
        }
    }
    // Every kind is found, many times: the record tells of each.
    assert_eq!(kinds.len(), 5, "{kinds:?}");
    assert!(kinds.values().all(|&n| n >= 10), "{kinds:?}");
    if std::env::var_os("COLLIDOSCOPE_RECORD_EVENTS").is_some() {
        std::fs::write(RECORDED_EVENTS, lines.join("\n") + "\n").unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(RECORDED_EVENTS).expect("the recorded events");
    let recorded: Vec<&str> = recorded.lines().collect();
    assert_eq!(
        recorded.len(),
        lines.len(),
        "as many events as recorded ({kinds:?})"
    );
    for (now, then) in lines.iter().zip(&recorded) {
        let ((g, now), (h, then)) = (now.split_once(' ').unwrap(), then.split_once(' ').unwrap());
        assert_eq!(g, h, "an event of another game");
        let (now, then): (serde_json::Value, serde_json::Value) = (
            serde_json::from_str(now).unwrap(),
            serde_json::from_str(then).unwrap(),
        );
        if let Err(e) = same_json(&now, &then, "event") {
            panic!("game {g}: {e}\nnow {now}\nrecorded {then}");
        }
    }
}
