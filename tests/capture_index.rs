//! A capture opened as the window's capture lab opens it (`CaptureIndex`): scanned and judged
//! on its own thread, every frame then read from the nearest keyframe, plain or compressed,
//! and each frame shown exactly as reading the capture from its start gives it.

use collidoscope::Cause;
use collidoscope::capture::{
    BodyShape, CaptureIndex, CaptureReader, CaptureWriter, Engine, FrameJudgement, Header,
    Manifold, ManifoldPoint, NormalFrom, Penetration, ScanState, judge_frame,
};
use collidoscope::geometry::{Circle, ConvexPolygon, DVec2};
use collidoscope::scene::Body;
use std::path::{Path, PathBuf};

#[path = "common/scratch.rs"]
mod scratch;

const FRAMES: u64 = 5_000;

/// A ball resting on the ground, a box that comes at frame 100 and goes at frame 3,000; every
/// 7th frame the engine reports the ball's normal reversed.
fn write_capture(path: &Path, compressed: bool) {
    let header = Header::f32_metres(Engine::new("test", "1"));
    let out = std::fs::File::create(path).unwrap();
    let (normal, penetration) = (NormalFrom::AToB, Penetration::NegativeSeparation);
    let mut writer = if compressed {
        CaptureWriter::compressed(out, &header, normal, penetration).unwrap()
    } else {
        CaptureWriter::new(out, &header, normal, penetration).unwrap()
    };
    let ground = BodyShape::new(
        1,
        ConvexPolygon::rectangle(DVec2::new(10.0, 0.5)).unwrap(),
        DVec2::new(0.0, -0.5),
        DVec2::X,
    )
    .named("ground");
    for step in 0..FRAMES {
        let depth = 0.01 + 0.001 * (step % 10) as f32;
        let y = 0.5 - depth;
        let ball = BodyShape::new(
            7,
            Circle::new(0.5).unwrap(),
            DVec2::new(0.25 * (step % 13) as f64, y as f64),
            DVec2::X,
        )
        .named("ball")
        .moving(Body::Dynamic, DVec2::new(0.0, -1.0), 0.0, true);
        let mut bodies = vec![ground.clone(), ball];
        if (100..3_000).contains(&step) {
            let angle = step as f32 * 0.01;
            bodies.push(
                BodyShape::new(
                    9,
                    ConvexPolygon::rectangle(DVec2::new(0.3, 0.2)).unwrap(),
                    DVec2::new(5.0, 3.0),
                    DVec2::new(angle.cos() as f64, angle.sin() as f64),
                )
                .moving(Body::Dynamic, DVec2::ZERO, 0.01, true),
            );
        }
        let x = 0.25 * (step % 13) as f64;
        let sign = if step % 7 == 3 { -1.0 } else { 1.0 };
        let contact = Manifold {
            a: 1,
            b: 7,
            normal: DVec2::new(0.0, sign),
            points: vec![ManifoldPoint {
                point: DVec2::new(x, -(depth as f64) / 2.0),
                separation: -(depth as f64),
                impulse: None,
            }]
            .into(),
            piece: None,
        };
        writer
            .frame(step as f64 / 60.0, &bodies, &[contact])
            .unwrap();
    }
    writer.finish().unwrap();
}

fn scratch(name: &str) -> PathBuf {
    scratch::scratch_folder("collidoscope-index").join(name)
}

/// The scratch folders of processes no longer running go; this process's, a running one's,
/// files and other names stay.
#[test]
fn scratch_folders_of_processes_gone_are_removed() {
    let temp = tempfile::tempdir().unwrap();
    let own = format!("p-{}", std::process::id());
    let gone = "p-4294967295";
    let kept = [own.as_str(), "p-1", "p-abc", "p-12x", "q-4294967295"];
    for name in kept.iter().chain([&gone]) {
        std::fs::create_dir(temp.path().join(name)).unwrap();
    }
    std::fs::write(temp.path().join("p-4294967294"), b"a file").unwrap();
    scratch::sweep(temp.path(), "p");
    let mut left = common_names(temp.path());
    left.sort();
    let mut expected: Vec<String> = kept.iter().map(|s| s.to_string()).collect();
    expected.push("p-4294967294".into());
    expected.sort();
    assert_eq!(left, expected);
}

fn common_names(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect()
}

/// Every frame of the capture read from its start: its shapes (name and placement) and its
/// claims judged.
type Read = Vec<(Vec<(Option<String>, String)>, FrameJudgement)>;

fn read_from_the_start(path: &Path) -> Read {
    let mut reader = CaptureReader::open(path).unwrap();
    let mut frames = Vec::new();
    while let Some(frame) = reader.next_frame().unwrap() {
        let (scene, _) = reader.scene(&frame);
        let shapes = scene
            .shapes
            .iter()
            .map(|s| (s.name.clone(), format!("{:?}", s.placed)))
            .collect();
        frames.push((shapes, judge_frame(&reader, &frame)));
    }
    frames
}

fn scanned(path: &Path) -> CaptureIndex {
    scan(CaptureIndex::open(path).unwrap())
}

fn scan(mut index: CaptureIndex) -> CaptureIndex {
    // The scan has its own thread: wait for it (a hang fails the test rather than passing it).
    let start = std::time::Instant::now();
    while matches!(index.state(), ScanState::Reading(_)) {
        if !index.update() {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert!(start.elapsed().as_secs() < 600, "the scan never ended");
    }
    index
}

fn check(path: &Path) {
    let expected = read_from_the_start(path);
    let mut index = scanned(path);
    assert_eq!(index.state(), &ScanState::Done);
    assert_eq!(index.frames().len(), FRAMES as usize);
    // The ticks of the strip: every disagreeing claim, reversed normal named.
    let divergent: Vec<usize> = index.divergences().iter().map(|d| d.position).collect();
    let reversed: Vec<usize> = (0..FRAMES as usize).filter(|k| k % 7 == 3).collect();
    assert_eq!(index.counts(), (FRAMES, FRAMES - reversed.len() as u64));
    assert_eq!(divergent, reversed);
    assert!(index.divergences().iter().all(|d| {
        d.causes.contains(&Cause::Mistake(
            collidoscope::query::Mistake::NormalReversed,
        )) && d.names == ("ground".to_string(), "ball".to_string())
    }));
    for (k, entry) in index.frames().iter().enumerate() {
        assert_eq!(entry.frame, k as u64);
        assert_eq!(entry.disagreeing, u32::from(k % 7 == 3));
    }
    // Jumps back and forth across keyframes, and steps forward from the frame shown.
    let visits = [
        4_999, 0, 2_500, 2_501, 2_502, 2_047, 2_048, 2_049, 4_096, 3_000, 99, 100, 1,
    ];
    for position in visits {
        let shown = index.show(position).unwrap();
        let (shapes, judged) = &expected[position];
        let got: Vec<(Option<String>, String)> = shown
            .scene
            .shapes
            .iter()
            .map(|s| (s.name.clone(), format!("{:?}", s.placed)))
            .collect();
        assert_eq!(&got, shapes, "the shapes of frame {position}");
        assert_eq!(&shown.judged, judged, "the claims of frame {position}");
        assert_eq!(shown.frame.frame, position as u64);
        assert_eq!(shown.ids.len(), shapes.len());
    }
    assert!(index.show(FRAMES as usize).is_err());
}

#[test]
fn a_plain_capture_is_shown_frame_by_frame_as_read_from_its_start() {
    let path = scratch("plain.capture.jsonl");
    write_capture(&path, false);
    check(&path);
}

#[test]
fn a_compressed_capture_is_unpacked_once_and_shown_the_same() {
    let path = scratch("packed.capture.jsonl.gz");
    write_capture(&path, true);
    check(&path);
}

#[test]
fn a_refused_line_leaves_every_frame_before_it_to_show() {
    let path = scratch("refused.capture.jsonl");
    write_capture(&path, false);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    // Line 1 is the header: frame 40 is line 42.
    lines[41] = r#"{"frame": 40, "time": "soon"}"#;
    std::fs::write(&path, lines.join("\n")).unwrap();
    let mut index = scanned(&path);
    let ScanState::Refused(message) = index.state().clone() else {
        panic!("refused: {:?}", index.state());
    };
    assert!(
        message.contains("refused.capture.jsonl: line 42") && message.contains("\"time\""),
        "{message}"
    );
    assert_eq!(index.frames().len(), 40);
    assert_eq!(index.show(39).unwrap().frame.frame, 39);
}

/// A compressed capture is unpacked up to a stated size (`UNPACKED_LIMIT`, 16 GiB, by
/// default): past it the scan is refused saying so, and the frames unpacked before stay to
/// show, never a disk filled by a gzip bomb.
#[test]
fn a_compressed_capture_is_unpacked_only_up_to_its_limit() {
    let path = scratch("bomb.capture.jsonl.gz");
    write_capture(&path, true);
    let mut index = scan(CaptureIndex::open_unpacking_at_most(&path, 256 << 10).unwrap());
    let ScanState::Refused(message) = index.state().clone() else {
        panic!("refused: {:?}", index.state());
    };
    assert!(
        message.contains("bomb.capture.jsonl.gz")
            && message.contains("unpacks to more than 256 KiB, the most the window unpacks"),
        "{message}"
    );
    let kept = index.frames().len();
    assert!((1..FRAMES as usize).contains(&kept), "{kept} frames kept");
    assert_eq!(index.show(kept - 1).unwrap().frame.frame, kept as u64 - 1);
    assert_eq!(collidoscope::capture::UNPACKED_LIMIT, 16 << 30);
}

/// A motion run saved as a capture (collidoscope's resolver as the engine): with the correct
/// resolver every claim agrees; with the tutorial's smallest-overlap rule the claims that
/// differ are named by it, as a game's would be.
#[test]
fn a_motion_run_saved_as_a_capture_is_judged_by_its_resolver() {
    use collidoscope::motion::{Config, Recording, Resolver, Simulation, Substeps};
    use collidoscope::query::Mistake;
    let scene = collidoscope::scene::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("shapes/clockwise-obstacle-run.json"),
    )
    .unwrap();
    for (resolver, compressed) in [
        (Resolver::Sat, false),
        (Resolver::Mistake(Mistake::NaiveSmallestOverlap), true),
    ] {
        let config = Config {
            dt: 1.0 / 60.0,
            substeps: Substeps::Fixed(1),
            resolver,
            ccd: false,
        };
        let (recording, _) = Recording::run(Simulation::new(scene.clone(), config), 120);
        let name = if compressed {
            "run.capture.jsonl.gz"
        } else {
            "run.capture.jsonl"
        };
        let path = scratch(name);
        collidoscope::capture::save_run(&recording, &path).unwrap();
        let mut reader = CaptureReader::open(&path).unwrap();
        assert_eq!(reader.header().engine.name, "collidoscope");
        let mut frames = 0;
        let (mut claims, mut differ) = (0, 0);
        while let Some(frame) = reader.next_frame().unwrap() {
            frames += 1;
            for c in judge_frame(&reader, &frame).claims {
                claims += 1;
                if !c.agrees() {
                    differ += 1;
                    assert!(
                        c.causes()
                            .collect::<Vec<_>>()
                            .contains(&Cause::Mistake(Mistake::NaiveSmallestOverlap)),
                        "{:?}: {:?}",
                        resolver,
                        c.lines()
                    );
                }
            }
        }
        assert_eq!(frames, 121);
        assert!(claims > 0, "the player meets the obstacle");
        match resolver {
            Resolver::Sat => assert_eq!(differ, 0),
            _ => assert!(differ > 0, "the naive rule pushes the player in"),
        }
    }
}

/// A scrub: frames asked for one after another on the reader thread, the latest winning
/// over those not started; what comes back is the frame read from the start, the latest last.
#[test]
fn frames_asked_of_the_reader_thread_come_back_latest_last_and_the_same() {
    let path = scratch("scrub.capture.jsonl");
    write_capture(&path, false);
    let expected = read_from_the_start(&path);
    let mut index = scanned(&path);
    let asked = [4_000, 10, 2_500, 4_999];
    for position in asked {
        index.request(position);
    }
    assert_eq!(index.pending(), Some(4_999));
    let mut shown = Vec::new();
    while index.pending().is_some() {
        let (position, frame) = index
            .take_shown(std::time::Duration::from_secs(60))
            .expect("a frame comes back");
        let frame = frame.unwrap();
        assert_eq!(frame.position, position);
        shown.push(frame);
    }
    // At most the read under way when the others came, then the latest.
    assert!(
        (1..=2).contains(&shown.len()),
        "{} frames shown",
        shown.len()
    );
    let last = shown.last().unwrap();
    assert_eq!(last.position, 4_999);
    for frame in &shown {
        assert!(asked.contains(&frame.position));
        let (shapes, judged) = &expected[frame.position];
        let read: Vec<(Option<String>, String)> = frame
            .scene
            .shapes
            .iter()
            .map(|s| (s.name.clone(), format!("{:?}", s.placed)))
            .collect();
        assert_eq!(&read, shapes);
        assert_eq!(&frame.judged, judged);
    }
    // Nothing more comes back once the latest is taken.
    assert!(
        index
            .take_shown(std::time::Duration::from_millis(50))
            .is_none()
    );
    // A frame asked with another beside it (an event's picture: the next frame, or an earlier
    // one) brings both from the reader thread, each as read from the start.
    for (position, beside) in [(2_000, 2_001), (3_000, 2_990)] {
        index.request_beside(position, Some(beside));
        let (asked, frame) = index
            .take_shown(std::time::Duration::from_secs(60))
            .unwrap();
        let frame = frame.unwrap();
        assert_eq!((asked, frame.position), (position, position));
        let other = frame.beside.as_deref().expect("read beside it");
        assert_eq!(other.position, beside);
        assert_eq!(&other.judged, &expected[beside].1);
        assert!(other.beside.is_none());
    }
}

/// A seek passes the frames between its keyframe and the frame it shows without applying them
/// one by one: a run of lines whose shapes only move leaves each shape the last values its
/// lines give, key by key. Every frame of a capture whose bodies move in every way (every key
/// each frame, some keys now and then, not at all, a static ground, one that stops, one added
/// and later removed, one made static) is shown as reading the capture from its start gives
/// it, motion included: from the keyframe (positions visited last to first) and on from the
/// frame shown (first to last, in strides).
#[test]
fn frames_passed_on_the_way_leave_every_shape_as_applying_each_does() {
    const STEPS: usize = 700;
    let path = scratch("passing.capture.jsonl");
    let header = Header::f32_metres(Engine::new("test", "1"));
    let out = std::fs::File::create(&path).unwrap();
    let mut writer = CaptureWriter::new(
        out,
        &header,
        NormalFrom::AToB,
        Penetration::NegativeSeparation,
    )
    .unwrap();
    let boxed = |w: f64| ConvexPolygon::rectangle(DVec2::new(w, 0.5 * w)).unwrap();
    let turned = |a: f64| DVec2::new(a.cos(), a.sin());
    for step in 0..STEPS {
        let s = step as f64;
        let mut bodies = vec![
            BodyShape::new(1, boxed(10.0), DVec2::new(0.0, -1.0), DVec2::X).named("ground"),
            // Turns on the spot: its angle changes, its position never does.
            BodyShape::new(2, boxed(0.4), DVec2::new(-3.0, 2.0), turned(0.01 * s)).moving(
                Body::Dynamic,
                DVec2::ZERO,
                0.6,
                true,
            ),
            // Hops every third frame; its velocity changes every fifth.
            BodyShape::new(
                3,
                Circle::new(0.3).unwrap(),
                DVec2::new(0.1 * (step / 3) as f64, 1.0),
                DVec2::X,
            )
            .moving(Body::Dynamic, DVec2::new(0.0, (step / 5) as f64), 0.0, true),
            // Every key, every frame.
            BodyShape::new(
                4,
                boxed(0.6),
                DVec2::new(2.0 + 0.01 * s, 0.3 + 0.001 * s),
                turned(0.02 * s),
            )
            .moving(Body::Dynamic, DVec2::new(0.6, 0.06), 1.2 + 0.001 * s, true),
            // Moves until frame 300, then rests where it stopped.
            BodyShape::new(
                6,
                Circle::new(0.2).unwrap(),
                DVec2::new(4.0, 0.01 * s.min(300.0)),
                DVec2::X,
            )
            .moving(
                Body::Dynamic,
                DVec2::new(0.0, if step < 300 { 0.6 } else { 0.0 }),
                0.0,
                step < 300,
            ),
        ];
        if (200..450).contains(&step) {
            bodies.push(
                BodyShape::new(5, boxed(0.3), DVec2::new(-1.0, 0.02 * s), turned(0.03 * s))
                    .named("visitor")
                    .moving(Body::Dynamic, DVec2::new(0.0, 1.2), 1.8, true),
            );
        }
        // Made static at frame 500.
        let body = if step < 500 {
            Body::Dynamic
        } else {
            Body::Static
        };
        bodies.push(
            BodyShape::new(
                7,
                Circle::new(0.25).unwrap(),
                DVec2::new(6.0, 0.001 * s.min(500.0)),
                DVec2::X,
            )
            .moving(body, DVec2::new(0.0, 0.06), 0.0, true),
        );
        let contact = Manifold {
            a: 1,
            b: 4,
            normal: DVec2::Y,
            points: vec![ManifoldPoint {
                point: DVec2::new(2.0, -0.5),
                separation: 0.01 * s,
                impulse: None,
            }]
            .into(),
            piece: None,
        };
        writer.frame(s / 60.0, &bodies, &[contact]).unwrap();
    }
    writer.finish().unwrap();
    let every_key = |scene: &collidoscope::scene::Scene| -> Vec<String> {
        scene.shapes.iter().map(|s| format!("{s:?}")).collect()
    };
    let mut reader = CaptureReader::open(&path).unwrap();
    let mut expected = Vec::new();
    while let Some(frame) = reader.next_frame().unwrap() {
        let (scene, _) = reader.scene(&frame);
        expected.push((every_key(&scene), judge_frame(&reader, &frame)));
    }
    assert_eq!(expected.len(), STEPS);
    let mut index = scanned(&path);
    assert_eq!(index.state(), &ScanState::Done);
    let visits = (0..STEPS).rev().chain((0..STEPS).step_by(37));
    for position in visits {
        let shown = index.show(position).unwrap();
        let (shapes, judged) = &expected[position];
        assert_eq!(
            &every_key(&shown.scene),
            shapes,
            "the shapes of frame {position}"
        );
        assert_eq!(&shown.judged, judged, "the claims of frame {position}");
    }
}
