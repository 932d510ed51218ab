//! A game's test checks its engine's contact with only the crate's front door: every type
//! `check_contact_at` takes and gives is at `collidoscope::`, and a capture's ids above 2^32
//! (the web build's `usize` is 32 bits) come back as they went in.

use collidoscope::capture::{BodyShape, CaptureReader, CaptureWriter, Engine, Header, Manifold};
use collidoscope::capture::{ManifoldPoint, NormalFrom, Penetration, judge_frame};
use collidoscope::{
    ContactCheck, DVec2, Mistake, PairSummary, Placed, Pose, Precision, Reported, Shape,
    check_contact_at,
};

#[test]
fn check_contact_at_is_called_with_the_front_door_only() {
    let ground: Shape = collidoscope::geometry::ConvexPolygon::rectangle(DVec2::new(5.0, 0.5))
        .unwrap()
        .into();
    let ball: Shape = collidoscope::geometry::Circle::new(0.5).unwrap().into();
    let a = Placed::new(ground, Pose::at(DVec2::new(0.0, -0.5)));
    let b = Placed::new(ball, Pose::at(DVec2::new(0.0, 0.4)));
    // The engine's normal reversed: disagrees, and the mistake is named.
    let claim = Reported::intersecting(0.1, DVec2::new(0.0, -1.0));
    let check: ContactCheck = check_contact_at(&a, &b, &claim, Precision::F32);
    let exact: &PairSummary = &check.exact;
    assert!(!check.agrees && exact.intersecting);
    assert!(check.matches.contains(&Mistake::NormalReversed));
}

#[test]
fn ids_beyond_32_bits_are_judged_under_their_own_ids() {
    let (floor, crate_) = ((1u64 << 40) + 3, (1u64 << 52) + 7);
    let ground = collidoscope::geometry::ConvexPolygon::rectangle(DVec2::new(5.0, 0.5)).unwrap();
    let ball = collidoscope::geometry::Circle::new(0.5).unwrap();
    let bodies = [
        BodyShape::new(floor, ground, DVec2::new(0.0, -0.5), DVec2::X),
        BodyShape::new(crate_, ball, DVec2::new(0.0, 0.4), DVec2::X).moving(
            collidoscope::scene::Body::Dynamic,
            DVec2::ZERO,
            0.0,
            true,
        ),
    ];
    let claim = judged_once(&bodies, (floor, crate_), DVec2::Y, DVec2::new(0.0, -0.05));
    assert!(claim.agrees());
    assert_eq!((claim.a, claim.b), (floor, crate_));
}

/// One judgement: the same claim about the same two shapes, made in a shape set (shapes named
/// by index) and in a capture (by id, the same numbers), is judged as one value and printed as
/// one JSON object by `diagnose`, whichever file it came from.
#[test]
fn a_claim_is_judged_the_same_in_a_shape_set_and_in_a_capture() {
    use collidoscope::Judgement;
    use collidoscope::scene::{Claim, Scene, SceneShape, ShapeId};
    let ground = collidoscope::geometry::ConvexPolygon::rectangle(DVec2::new(5.0, 0.5)).unwrap();
    let ball = collidoscope::geometry::Circle::new(0.5).unwrap();
    let (below, above) = (DVec2::new(0.0, -0.5), DVec2::new(0.25, 0.4));
    // The engine's normal reversed, with its one contact point.
    let (normal, point) = (DVec2::new(0.0, -1.0), DVec2::new(0.25, -0.05));

    let mut scene = Scene::from_shapes(vec![
        SceneShape::named("ground", Placed::new(ground.clone(), Pose::at(below))),
        SceneShape::named("ball", Placed::new(ball, Pose::at(above))),
    ]);
    scene.precision = Some(Precision::F32);
    let mut claim = Claim::intersecting(ShapeId(0), ShapeId(1), 0.1, normal);
    claim.reported.contacts = Some(vec![point]);
    scene.claims.push(claim);
    let from_set: Judgement = collidoscope::diagnose::diagnose(&scene).remove(0);

    let bodies = [
        BodyShape::new(0, ground, below, DVec2::X).named("ground"),
        BodyShape::new(1, ball, above, DVec2::X)
            .named("ball")
            .moving(collidoscope::scene::Body::Dynamic, DVec2::ZERO, 0.0, true),
    ];
    let from_capture = judged_once(&bodies, (0, 1), normal, point);

    assert!(!from_set.agrees());
    assert!(from_set.check.matches.contains(&Mistake::NormalReversed));
    assert_eq!(from_set.check, from_capture.check);
    assert_eq!((from_set.a, from_set.b), (from_capture.a, from_capture.b));
    assert_eq!(from_set.names, from_capture.names);
    assert_eq!(
        serde_json::to_value(&from_set).unwrap(),
        serde_json::to_value(&from_capture).unwrap()
    );
    assert_eq!(from_set.lines(), from_capture.lines());
}

/// `bodies` written as one frame of a capture with one claim, A on B along `normal` by 0.1 at
/// `point`, read back and judged.
fn judged_once(
    bodies: &[BodyShape],
    (a, b): (u64, u64),
    normal: DVec2,
    point: DVec2,
) -> collidoscope::Judgement {
    let mut out = Vec::new();
    let header = Header::f32_metres(Engine::new("test", "1"));
    let mut writer = CaptureWriter::new(
        &mut out,
        &header,
        NormalFrom::AToB,
        Penetration::NegativeSeparation,
    )
    .unwrap();
    let contact = Manifold {
        a,
        b,
        normal,
        points: vec![ManifoldPoint {
            point,
            separation: -0.1,
            impulse: None,
        }]
        .into(),
        piece: None,
    };
    writer.frame(0.0, bodies, &[contact]).unwrap();
    drop(writer);
    let mut reader =
        CaptureReader::new("one.capture.jsonl".as_ref(), std::io::Cursor::new(out)).unwrap();
    let frame = reader.next_frame().unwrap().unwrap();
    judge_frame(&reader, &frame).claims.remove(0)
}
