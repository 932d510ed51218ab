//! Everything the capture writer accepts, the reader reads back equal: random frames of
//! shapes coming and going, moving, sleeping, some at NaN or out of range, with manifolds of
//! every sort (apart, touching, penetrating, zero or non-unit normals, NaN separations). Every
//! frame the writer takes is read; each shape written is read at its pose bit for bit, each
//! claim as the writer's conventions make it, and each entry the engine got wrong comes back
//! malformed, with the frame around it intact.

use collidoscope::capture::{
    BodyShape, CaptureReader, CaptureWriter, Engine, Header, MalformedWhat, Manifold,
    ManifoldPoint, NormalFrom, Penetration,
};
use collidoscope::geometry::{Capsule, Circle, ConvexPolygon, DVec2, Shape};
use collidoscope::scene::Body;
use proptest::prelude::*;
use std::io::Cursor;
use std::path::Path;

const IDS: u64 = 6;

/// Per id: x, y, angle, speed, whether it is awake, and how its position is spoiled (0: NaN,
/// 1: out of range, else not).
type BodyNumbers = (f64, f64, f64, f64, bool, u8);
/// Per manifold: the pair, the normal, the points' separations, and how it is spoiled (0: zero
/// normal, 1: normal not unit, 2: a NaN separation, else not).
type ManifoldNumbers = (u64, u64, (f64, f64), Vec<f64>, u8);

#[derive(Clone, Debug)]
struct Step {
    bodies: Vec<BodyNumbers>,
    manifolds: Vec<ManifoldNumbers>,
}

fn shape(id: u64) -> Shape {
    match id % 3 {
        0 => Circle::new(0.5).unwrap().into(),
        1 => ConvexPolygon::rectangle(DVec2::new(0.5, 0.25))
            .unwrap()
            .into(),
        _ => Capsule::new(DVec2::new(-0.3, 0.0), DVec2::new(0.3, 0.0), 0.2)
            .unwrap()
            .into(),
    }
}

fn step() -> impl Strategy<Value = Step> {
    let number = -100.0..100.0f64;
    let body = (
        number.clone(),
        number.clone(),
        -3.2..3.2f64,
        number.clone(),
        any::<bool>(),
        0u8..12,
    );
    let manifold = (
        0..IDS,
        0..IDS,
        (-1.5..1.5f64, -1.5..1.5f64),
        prop::collection::vec(-0.5..0.5f64, 0..3),
        0u8..10,
    );
    (
        prop::collection::vec(body, IDS as usize),
        prop::collection::vec(manifold, 0..5),
    )
        .prop_map(|(bodies, manifolds)| Step { bodies, manifolds })
}

/// Which ids live in frame `k`: id i from frame i / 2 up to frame 4 + i (then removed).
/// An engine's conventions: Box2D's, or flipped both ways.
fn conventions(flipped: bool) -> (NormalFrom, Penetration) {
    if flipped {
        (NormalFrom::BToA, Penetration::PositiveDepth)
    } else {
        (NormalFrom::AToB, Penetration::NegativeSeparation)
    }
}

/// A manifold's numbers, borrowed: the pair, the normal, the separations, how it is spoiled.
type Kept<'m> = (u64, u64, (f64, f64), &'m [f64], u8);

/// The manifolds of distinct pairs of two shapes present (the first of each pair).
fn one_per_pair<'m>(manifolds: &'m [ManifoldNumbers], bodies: &[BodyShape]) -> Vec<Kept<'m>> {
    let present = |id: u64| bodies.iter().any(|b| b.id == id);
    let mut pairs = Vec::new();
    let mut kept = Vec::new();
    for (a, b, normal, separations, spoil) in manifolds {
        let key = (*a.min(b), *a.max(b));
        if a == b || !present(*a) || !present(*b) || pairs.contains(&key) {
            continue;
        }
        pairs.push(key);
        kept.push((*a, *b, *normal, separations.as_slice(), *spoil));
    }
    kept
}

fn alive(id: u64, k: u64) -> bool {
    (id / 2..4 + id).contains(&k)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn what_the_writer_accepts_the_reader_reads_back_equal(
        steps in prop::collection::vec(step(), 1..10),
        compressed in any::<bool>(),
        flipped in any::<bool>(),
    ) {
        let header = Header::f32_metres(Engine::new("test", "1"));
        let (normal_from, penetration) = conventions(flipped);
        let mut out = Vec::new();
        let mut writer = if compressed {
            CaptureWriter::compressed(&mut out, &header, normal_from, penetration).unwrap()
        } else {
            CaptureWriter::new(&mut out, &header, normal_from, penetration).unwrap()
        };
        // What each frame should read back: the shapes written (id, body), and how many
        // claims and malformed entries.
        let mut expected = Vec::new();
        for (k, step) in steps.iter().enumerate() {
            let k = k as u64;
            let mut bodies = Vec::new();
            let mut spoiled = Vec::new();
            for (id, &(x, y, angle, v, awake, spoil)) in step.bodies.iter().enumerate() {
                let id = id as u64;
                if !alive(id, k) {
                    continue;
                }
                let position = match spoil {
                    0 => DVec2::new(f64::NAN, y),
                    1 => DVec2::new(1e308, f64::MAX),
                    _ => DVec2::new(x, y),
                };
                if spoil < 2 {
                    spoiled.push(id);
                }
                let rotation = DVec2::new(angle.cos() as f32 as f64, angle.sin() as f32 as f64);
                let body = if id == 0 { Body::Static } else { Body::Dynamic };
                let shape = BodyShape::new(id, shape(id), position, rotation).moving(
                    body,
                    DVec2::new(v, -v),
                    v / 10.0,
                    awake,
                );
                bodies.push(shape);
            }
            let mut manifolds = Vec::new();
            for (a, b, (nx, ny), separations, spoil) in one_per_pair(&step.manifolds, &bodies) {
                let normal = match spoil {
                    0 => DVec2::ZERO,
                    1 => DVec2::new(nx, ny),
                    _ => DVec2::new(nx, ny).try_normalize().unwrap_or(DVec2::X),
                };
                let mut points: Vec<ManifoldPoint> = separations
                    .iter()
                    .enumerate()
                    .map(|(i, s)| ManifoldPoint {
                        point: DVec2::new(i as f64, *s),
                        separation: *s,
                        impulse: None,
                    })
                    .collect();
                if spoil == 2 && !points.is_empty() {
                    points[0].separation = f64::NAN;
                }
                manifolds.push(Manifold { a, b, normal, points: points.into(), piece: None });
            }
            writer.frame(k as f64 * 0.1, &bodies, &manifolds).unwrap();
            expected.push((bodies, spoiled, manifolds));
        }
        writer.finish().unwrap();

        let mut reader = CaptureReader::new(Path::new("round.capture.jsonl"), Cursor::new(out)).unwrap();
        for (k, (bodies, spoiled, manifolds)) in expected.iter().enumerate() {
            let frame = reader.next_frame().unwrap().expect("every frame written is read");
            prop_assert_eq!(frame.frame, k as u64);
            // Each well-formed shape at its pose, bit for bit.
            for body in bodies.iter().filter(|b| !spoiled.contains(&b.id)) {
                let Some(read) = reader.shape(body.id) else {
                    // Never written whole yet: it was malformed in every frame so far.
                    continue;
                };
                prop_assert_eq!(read.placed.pose.position, body.position);
                prop_assert_eq!(read.placed.pose.angle(), body.rotation.y.atan2(body.rotation.x));
                let moving = body.body != Body::Static;
                let velocity = if moving { body.velocity } else { DVec2::ZERO };
                prop_assert_eq!(read.motion.velocity, velocity);
            }
            let malformed_shapes: Vec<u64> = frame
                .malformed
                .iter()
                .filter_map(|m| match m.what {
                    MalformedWhat::Shape { id } => id,
                    _ => None,
                })
                .collect();
            prop_assert_eq!(&malformed_shapes, spoiled);
            // Every manifold is a claim, malformed, or left out (no point, or both asleep).
            let malformed_claims = frame.malformed.len() - malformed_shapes.len();
            let kept = manifolds
                .iter()
                .filter(|m| {
                    let awake = |id: u64| bodies.iter().any(|b| b.id == id && b.awake);
                    let bad = spoiled.contains(&m.a) || spoiled.contains(&m.b);
                    !m.points.is_empty() && (bad || awake(m.a) || awake(m.b))
                })
                .count();
            prop_assert_eq!(frame.claims.len() + malformed_claims, kept);
            for claim in &frame.claims {
                let m = manifolds.iter().find(|m| (m.a, m.b) == (claim.a, claim.b)).unwrap();
                let sign = if flipped { -1.0 } else { 1.0 };
                let deepest = m.points.iter().map(|p| sign * p.separation).fold(f64::INFINITY, f64::min);
                prop_assert_eq!(claim.reported.intersecting, deepest < 0.0);
                if deepest < 0.0 {
                    prop_assert_eq!(claim.reported.depth, Some(-deepest));
                    prop_assert_eq!(claim.reported.normal, Some(sign * m.normal));
                }
            }
        }
        prop_assert!(reader.next_frame().unwrap().is_none());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A writer judging its own frames (`judging`) takes most frames' values as it wrote them
    /// rather than reading its line again: every judgement is the one `diagnose` makes of the
    /// written file, frame by frame, through frames of every sort (new, renamed, removed and
    /// malformed shapes, body types changing, claims with impulses, both conventions). A debug
    /// build also checks each frame's values against its line as the reader's typed path reads it.
    #[test]
    fn a_judging_writer_judges_each_frame_as_diagnose_judges_the_file(
        steps in prop::collection::vec(step(), 1..10),
        flipped in any::<bool>(),
    ) {
        use collidoscope::capture::{EventFinder, StepJudgement, judge_capture_with_events};
        let header = Header::f32_metres(Engine::new("test", "1"));
        let (normal_from, penetration) = conventions(flipped);
        let mut out = Vec::new();
        let mut writer = CaptureWriter::new(&mut out, &header, normal_from, penetration)
            .unwrap()
            .judging();
        let mut in_process = Vec::new();
        for (k, step) in steps.iter().enumerate() {
            let k = k as u64;
            let mut bodies = Vec::new();
            for (id, &(x, y, angle, v, awake, spoil)) in step.bodies.iter().enumerate() {
                let id = id as u64;
                if !alive(id, k) {
                    continue;
                }
                let position = if spoil == 0 { DVec2::new(f64::NAN, y) } else { DVec2::new(x, y) };
                let rotation = DVec2::new(angle.cos() as f32 as f64, angle.sin() as f32 as f64);
                // Body types and names that change now and then, a velocity of -0.
                let body = match (id, k % 3) {
                    (0, _) => Body::Static,
                    (5, 1) => Body::Kinematic,
                    _ => Body::Dynamic,
                };
                let velocity = if spoil == 3 { DVec2::new(-0.0, 0.0) } else { DVec2::new(v, -v) };
                let mut shape = BodyShape::new(id, shape(id), position, rotation)
                    .moving(body, velocity, v / 10.0, awake);
                if id == 4 && k % 2 == 1 {
                    shape = shape.named(format!("crate {k}"));
                }
                bodies.push(shape);
            }
            let mut manifolds = Vec::new();
            for (a, b, (nx, ny), separations, spoil) in one_per_pair(&step.manifolds, &bodies) {
                let normal = match spoil {
                    0 => DVec2::ZERO,
                    _ => DVec2::new(nx, ny).try_normalize().unwrap_or(DVec2::X),
                };
                let points: Vec<ManifoldPoint> = separations
                    .iter()
                    .enumerate()
                    .map(|(i, s)| ManifoldPoint {
                        point: present_point(&bodies, a, i, *s),
                        separation: *s,
                        impulse: (spoil > 4).then_some(s.abs() * 3.0),
                    })
                    .collect();
                manifolds.push(Manifold { a, b, normal, points: points.into(), piece: None });
            }
            writer.frame(k as f64 * 0.1, &bodies, &manifolds).unwrap();
            let judged = writer.take_judgement().expect("a judging writer judges every frame");
            in_process.push(format!("{judged:?}"));
        }
        writer.finish().unwrap();

        let mut reader = CaptureReader::new(Path::new("judged.capture.jsonl"), Cursor::new(out)).unwrap();
        let mut finder = EventFinder::for_capture(reader.header());
        let mut from_file = Vec::new();
        judge_capture_with_events(&mut reader, &mut finder, |j| {
            from_file.push(format!("{:?}", StepJudgement::of_frame(&j)));
            true
        })
        .unwrap();
        prop_assert_eq!(in_process, from_file);
    }
}

/// A contact point near shape `a` (its position when that is finite): claims whose points lie
/// on the shapes, so that some of them agree.
fn present_point(bodies: &[BodyShape], a: u64, i: usize, s: f64) -> DVec2 {
    bodies
        .iter()
        .find(|b| b.id == a)
        .map(|b| b.position)
        .filter(|p| p.is_finite())
        .unwrap_or_default()
        + DVec2::new(i as f64 * 0.1, s)
}
