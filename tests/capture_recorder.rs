//! The flight recorder (`FlightRecorder`): a game runs for ten seconds and only the last two
//! are kept; the kept part is a capture on its own (its first frame holds every shape in
//! full); asked to, it saves itself at the first step that is not clean, and the file names
//! the same event the whole capture does.

use collidoscope::capture::{
    BodyShape, CaptureEvent, CaptureReader, Engine, EventFinder, Filter, FlightRecorder, Header,
    Manifold, ManifoldPoint, NormalFrom, Penetration, judge_frame,
};
use collidoscope::geometry::{ConvexPolygon, DVec2};
use collidoscope::motion::EventKind;
use collidoscope::scene::Body;
use std::path::Path;

fn tile(id: u64, x: f64) -> BodyShape {
    BodyShape::new(
        id,
        ConvexPolygon::rectangle(DVec2::new(1.0, 0.5)).unwrap(),
        DVec2::new(x, -0.5),
        DVec2::X,
    )
    .named(format!("tile{id}"))
    .filtered(Filter::box2d(1, u64::MAX, 0))
}

/// Frame `k` of a 600-frame game: a crate slides at 6.5 m/s until frame 500, where it catches
/// on the seam between tile1 and tile2 (tile1 covers tile2's left face) and slows to 2.16.
fn frame(k: u64) -> (Vec<BodyShape>, Vec<Manifold>) {
    let (x, vx) = match k {
        0..500 => (-0.248 - (500 - k) as f64 * 1e-4, 6.5),
        500 => (-0.248, 6.5),
        _ => (-0.21, 2.16),
    };
    let crate_ = BodyShape::new(
        9,
        ConvexPolygon::rectangle(DVec2::splat(0.25)).unwrap(),
        DVec2::new(x, 0.24),
        DVec2::X,
    )
    .named("crate")
    .moving(Body::Dynamic, DVec2::new(vx, 0.0), 0.0, true)
    .on_body(9);
    let contacts = if k == 500 {
        vec![Manifold {
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
        }]
    } else {
        Vec::new()
    };
    (vec![tile(1, -1.0), tile(2, 1.0), crate_], contacts)
}

/// Every frame number and event of the capture at `path`.
fn read(path: &Path) -> (Vec<u64>, Vec<CaptureEvent>) {
    let mut reader = CaptureReader::open(path).unwrap();
    let mut finder = EventFinder::for_capture(reader.header());
    let (mut frames, mut events) = (Vec::new(), Vec::new());
    while let Some(frame) = reader.next_frame().unwrap() {
        let judged = judge_frame(&reader, &frame);
        events.extend(finder.frame(&reader, &frame, &judged));
        frames.push(frame.frame);
    }
    events.extend(finder.finish());
    (frames, events)
}

fn header() -> Header {
    Header::f32_metres(Engine::new("test-engine", "1"))
}

#[test]
fn the_last_seconds_are_a_capture_of_their_own_and_memory_stays_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let mut recorder = FlightRecorder::new(
        &header(),
        NormalFrom::AToB,
        Penetration::NegativeSeparation,
        2.0,
    );
    let mut memory = Vec::new();
    for k in 0..600 {
        let (shapes, contacts) = frame(k);
        recorder.frame(k as f64 / 60.0, &shapes, &contacts).unwrap();
        memory.push(recorder.memory());
    }
    let (first, last) = recorder.kept_frames().unwrap();
    assert_eq!(last, 599);
    assert!((478..=480).contains(&first), "{first}");
    // Past two seconds the memory stops growing.
    let settled = memory[200..].iter().max().unwrap();
    assert!(
        *settled < 2 * memory[130],
        "{settled} against {}",
        memory[130]
    );
    for name in ["last.capture.jsonl", "last.capture.jsonl.gz"] {
        let path = dir.path().join(name);
        recorder.save(&path).unwrap();
        let (frames, events) = read(&path);
        assert_eq!(frames, (first..=599).collect::<Vec<_>>());
        assert_eq!(events.len(), 1, "{events:?}");
        assert_eq!(
            (events[0].kind(), events[0].frame()),
            (EventKind::Seam, 500)
        );
        // The first kept frame holds every shape in full, filter and body included.
        let mut reader = CaptureReader::open(&path).unwrap();
        reader.next_frame().unwrap();
        let crate_ = reader.shape(9).unwrap();
        assert_eq!(crate_.pairing.body_id, Some(9));
        assert_eq!(
            reader.shape(1).unwrap().pairing.filter,
            Some(Filter::box2d(1, u64::MAX, 0))
        );
        assert_eq!(crate_.name.as_deref(), Some("crate"));
    }
}

#[test]
fn saved_on_the_first_step_that_is_not_clean_the_file_names_that_event() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("snag.capture.jsonl.gz");
    let mut recorder = FlightRecorder::new(
        &header(),
        NormalFrom::AToB,
        Penetration::NegativeSeparation,
        1.0,
    )
    .save_on_first(&path);
    for k in 0..600 {
        let (shapes, contacts) = frame(k);
        recorder.frame(k as f64 / 60.0, &shapes, &contacts).unwrap();
    }
    let (saved, step) = recorder.saved_on().expect("saved at the snag");
    assert_eq!(saved, path);
    // The seam of frame 500 is found once frame 501 is read: saved then.
    assert_eq!(step.frame, 501);
    assert!(
        step.to_string()
            .contains("crate caught on the seam between tile1 and tile2"),
        "{step}"
    );
    let (frames, events) = read(&path);
    assert_eq!(*frames.last().unwrap(), 501);
    assert!(frames.len() >= 60 && frames.len() <= 62, "{}", frames.len());
    assert_eq!(events.len(), 1);
    assert_eq!(
        (events[0].kind(), events[0].frame()),
        (EventKind::Seam, 500)
    );
}
