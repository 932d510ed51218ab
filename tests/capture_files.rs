//! Captures read and written (docs/format.md, "Captures"): the contract's example read and
//! judged at f32; every refusal names the line, the place and the field; a crash's capture
//! keeps its frames, plain or gzip; the writer turns an engine's conventions into the file's
//! and writes only what changed; `previous-poses` names a stale contact.

use collidoscope::Cause;
use collidoscope::capture::{
    BodyShape, CaptureError, CaptureReader, CaptureWriter, Engine, Header, MalformedWhat, Manifold,
    ManifoldPoint, NormalFrom, Penetration, judge_frame,
};
use collidoscope::geometry::{Circle, ConvexPolygon, DVec2};
use collidoscope::scene::{Body, Precision};
use std::io::Cursor;
use std::path::Path;

const EXAMPLE: &str = include_str!("captures/crate.capture.jsonl");
const HEADER: &str = r#"{"format": "collidoscope-capture", "version": 1, "engine": {"name": "box2d", "version": "3.2.0"}, "precision": "f32", "units": "m", "y_up": true}"#;

fn reader(text: impl Into<Vec<u8>>) -> Result<CaptureReader, String> {
    CaptureReader::new(Path::new("game.capture.jsonl"), Cursor::new(text.into()))
        .map_err(|e| e.to_string())
}

/// Every frame read, or the message that refused the capture.
fn read_all(text: impl Into<Vec<u8>>) -> Result<(Vec<u64>, Option<String>), String> {
    let mut reader = reader(text)?;
    let mut frames = Vec::new();
    while let Some(frame) = reader.next_frame().map_err(|e| e.to_string())? {
        frames.push(frame.frame);
    }
    Ok((frames, reader.warning().map(str::to_string)))
}

#[test]
fn the_contracts_example_agrees_at_f32_and_its_numbers_are_the_contracts() {
    let mut reader = reader(EXAMPLE).unwrap();
    assert_eq!(reader.header().precision, Precision::F32);
    assert_eq!(reader.header().engine, Engine::new("box2d", "3.2.0"));
    let mut judged = Vec::new();
    while let Some(frame) = reader.next_frame().unwrap() {
        judged.push(judge_frame(&reader, &frame));
    }
    assert_eq!(judged.len(), 4);
    assert!(judged.iter().all(|f| f.claims.iter().all(|c| c.agrees())));
    let first = &judged[0].claims[0];
    assert_eq!(first.check.tolerance, Some(9.5367431640625e-06));
    assert_eq!(first.check.exact.distance, 0.009999990463256836);
    let last = &judged[3].claims[0];
    assert_eq!(last.check.exact.depth, 1.1135326188460581e-05);
    assert_eq!(last.check.error, Some(4.886226023792517e-08));
    assert_eq!(
        reader.shape(2).unwrap().placed.pose.angle(),
        0.00015997017771918705
    );
}

/// A crate sliding across the seam of a chain floor, from an engine that collides each piece
/// as a lone segment: at the seam the next piece pushes it back along the floor.
const SEAM: &str = include_str!("captures/seam.capture.jsonl");

#[test]
fn a_ghost_collision_on_a_chain_seam_is_named_internal_edge() {
    let mut reader = reader(SEAM).unwrap();
    let mut judged = Vec::new();
    while let Some(frame) = reader.next_frame().unwrap() {
        judged.push(judge_frame(&reader, &frame));
    }
    let verdicts: Vec<(Option<usize>, bool)> = judged
        .iter()
        .flat_map(|f| f.claims.iter().map(|c| (c.piece(), c.agrees())))
        .collect();
    assert_eq!(
        verdicts,
        [
            (Some(2), true),
            (Some(2), true),
            (Some(1), false),
            (Some(1), true)
        ]
    );
    let ghost = &judged[2].claims[0];
    assert_eq!(
        ghost.causes().collect::<Vec<_>>(),
        [Cause::Mistake(collidoscope::query::Mistake::InternalEdge)]
    );
    // The exact answer at the seam is the floor's: straight up, the full 0.01.
    assert_eq!(ghost.check.exact.normal, Some(DVec2::Y));
    assert!((ghost.check.exact.depth - 0.01).abs() < 1e-9);
    assert_eq!(ghost.display_names(), ("floor".into(), "crate".into()));
}

#[test]
fn every_refusal_names_the_line_the_place_and_the_field() {
    let frame0 = r#"{"frame": 0, "time": 0.0, "shapes": [{"id": 3, "kind": "circle", "radius": 0.5, "body": "dynamic"}, {"id": 5, "kind": "capsule", "a": [0, 0], "b": [1, 0], "radius": 0.2}]}"#;
    let cases: Vec<(String, &str)> = vec![
        (
            HEADER.replace("\"f32\"", "\"f16\""),
            "game.capture.jsonl: line 1: \"precision\" must be \"f64\" or \"f32\", found \"f16\"",
        ),
        (
            HEADER.replace("\"version\": 1", "\"version\": 2"),
            "game.capture.jsonl: line 1: \"version\" is 2, but this build reads capture version 1",
        ),
        (
            format!(
                "{HEADER}\n{frame0}\n{{\"frame\": 1, \"time\": 0.1, \"shapes\": [{{\"id\": 3, \"position\": [1.797e308, 0]}}]}}\n"
            ),
            "game.capture.jsonl: line 3: shape 0 (id 3): \"position\" [1.797e308, 0]: placed there, the shape reaches beyond the largest finite number: move it nearer the origin",
        ),
        (
            format!(
                "{HEADER}\n{frame0}\n{{\"frame\": 1, \"time\": 0.1, \"claims\": [{{\"a\": 3, \"b\": 99, \"intersecting\": false}}]}}\n"
            ),
            "game.capture.jsonl: line 3: claim 0 (ids 3 and 99): \"b\" is id 99, which is not in frame 1",
        ),
        (
            format!(
                "{HEADER}\n{frame0}\n{{\"frame\": 1, \"time\": 0.1, \"shapes\": [{{\"id\": 3, \"position\": [1, 0]}}, {{\"id\": 5, \"kind\": \"polygon\", \"points\": [[0, 0], [1, 0], [0, 1]]}}]}}\n"
            ),
            "game.capture.jsonl: line 3: shape 1 (id 5): \"kind\" is \"polygon\", but id 5 is a capsule (an id never changes kind)",
        ),
        (
            format!(
                "{HEADER}\n{frame0}\n{{\"frame\": 1, \"time\": 0.1, \"shapes\": [{{\"id\": 3, \"position\": [NaN, 0]}}]}}\n"
            ),
            "game.capture.jsonl: line 3, column 61: NaN is not a JSON number (under \"position\")",
        ),
        (
            format!(
                "{HEADER}\n{frame0}\n{{\"frame\": 1, \"time\": 0.1, \"shapes\": [{{\"id\": 3, \"velocity\": [1, -Infinity]}}]}}\n"
            ),
            "game.capture.jsonl: line 3, column 64: -Infinity is not a JSON number (under \"velocity\")",
        ),
        (
            format!(
                "{HEADER}\n{frame0}\n{{\"frame\": 1, \"time\": 0.1, \"shapes\": [{{\"id\": 3, \"position\": null}}]}}\n"
            ),
            "game.capture.jsonl: line 3: shape 0 (id 3): \"position\" must be [x, y] (two numbers), found null",
        ),
        (
            format!(
                "{HEADER}\n{{\"frame\": 0, \"time\": 0.0, \"shapes\": [{{\"id\": 1, \"kind\": \"circle\"\n{frame0}\n"
            ),
            "game.capture.jsonl: line 2, column 63: the line is cut off (its JSON object never closes)",
        ),
        (
            format!("{HEADER}\n{frame0}\n{{\"frame\": 3, \"time\": 0.1}}\n"),
            "game.capture.jsonl: line 3: \"frame\" is 3, but the line before is frame 0 (a capture holds every step: expected 1)",
        ),
        (
            format!(
                "{HEADER}\n{frame0}\n{{\"frame\": 1, \"time\": 0.1, \"removed\": [5]}}\n{{\"frame\": 2, \"time\": 0.2, \"shapes\": [{{\"id\": 5, \"kind\": \"circle\", \"radius\": 1}}]}}\n"
            ),
            "game.capture.jsonl: line 4: shape 0 (id 5): \"id\" 5 was removed at frame 1 (a removed id never comes back)",
        ),
        (
            format!(
                "{HEADER}\n{{\"frame\": 0, \"time\": 0.0, \"shapes\": [{{\"id\": 1, \"kind\": \"circle\", \"radius\": -1}}]}}\n"
            ),
            "game.capture.jsonl: line 2: shape 0 (id 1): \"radius\" must be > 0, found -1",
        ),
        (
            format!(
                "{HEADER}\n{frame0}\n{{\"frame\": 1, \"time\": 0.1, \"shapes\": [{{\"id\": 5, \"postion\": [1, 0]}}]}}\n"
            ),
            "game.capture.jsonl: line 3: shape 0 (id 5): unknown key \"postion\" (did you mean \"position\"?)",
        ),
        (
            format!(
                "{HEADER}\n{frame0}\n{{\"frame\": 1, \"time\": 0.1, \"claims\": [{{\"a\": 3, \"b\": 5, \"intersecting\": false}}, {{\"a\": 5, \"b\": 3, \"intersecting\": false}}]}}\n"
            ),
            "game.capture.jsonl: line 3: claim 1 (ids 5 and 3): \"b\" is id 3, but claim 0 already claims ids 5 and 3 in this frame (a pair at most once, in either order)",
        ),
        (
            format!(
                "{HEADER}\n{frame0}\n{{\"frame\": 1, \"time\": 0.1, \"claims\": [{{\"a\": 3, \"b\": 5, \"intersecting\": true, \"depth\": 0.1}}]}}\n"
            ),
            "game.capture.jsonl: line 3: claim 0 (ids 3 and 5): an intersecting claim needs \"normal\" (unit, from A toward B)",
        ),
        (
            format!(
                "{HEADER}\n{frame0}\n{{\"frame\": 1, \"time\": 0.0}}\n{{\"frame\": 2, \"time\": 0.0, \"shapes\": [{{\"id\": 5, \"velocity\": [1, 0]}}]}}\n"
            ),
            "game.capture.jsonl: line 4: shape 0 (id 5): \"velocity\": a static body cannot move, but it has velocity [1, 0] and angular_velocity 0: say \"body\": \"kinematic\" or \"dynamic\", or remove the velocity",
        ),
        (
            format!(
                "{HEADER}\n{{\"frame\": 0, \"time\": 0.0, \"shapes\": [{{\"id\": 1, \"kind\": \"polygon\", \"points\": [[0, 0], [2, 0], [1, 0.5], [2, 2], [0, 2]]}}]}}\n"
            ),
            "game.capture.jsonl: line 2: shape 0 (id 1): \"points\": not convex at point 2 (turns the other way)",
        ),
        (
            format!(
                "{HEADER}\n{frame0}\n{{\"frame\": 1, \"time\": 0.1, \"shapes\": [{{\"id\": 3, \"position\": [0, 1]}}, {{\"id\": 3, \"position\": [0, 2]}}]}}\n"
            ),
            "game.capture.jsonl: line 3: shape 1 (id 3): \"id\" 3 is already shape 0 of this line (an id appears at most once per line)",
        ),
        (
            format!(
                "{HEADER}\n{{\"frame\": 0, \"time\": 0.0, \"shapes\": [{{\"id\": 1, \"kind\": \"circle\", \"radius\": 1, \"angular_velocity\": 2}}]}}\n"
            ),
            "game.capture.jsonl: line 2: shape 0 (id 1): \"angular_velocity\": a static body cannot move, but it has velocity [0, 0] and angular_velocity 2: say \"body\": \"kinematic\" or \"dynamic\", or remove the velocity",
        ),
    ];
    for (text, message) in cases {
        assert_eq!(read_all(text.clone()), Err(message.to_string()), "{text}");
    }
}

#[test]
fn a_crash_keeps_every_frame_before_its_cut_off_last_line() {
    let cut =
        format!("{EXAMPLE}{{\"frame\": 4, \"time\": 0.0666, \"shapes\": [{{\"id\": 2, \"posi");
    let (frames, warning) = read_all(cut).unwrap();
    assert_eq!(frames, vec![0, 1, 2, 3]);
    let warning = warning.unwrap();
    assert!(
        warning.starts_with("game.capture.jsonl: line 6: the last line is cut off"),
        "{warning}"
    );
    assert!(
        warning.ends_with("the 4 frames before it are read"),
        "{warning}"
    );
    // One frame before it: said in the singular (issue 60, item 7: "the 1 frame before it are
    // read").
    let one =
        format!("{HEADER}\n{{\"frame\": 0, \"time\": 0.0, \"shapes\": []}}\n{{\"frame\": 1, \"ti");
    let (frames, warning) = read_all(one).unwrap();
    assert_eq!(frames, vec![0]);
    assert!(
        warning
            .as_deref()
            .unwrap()
            .ends_with("the 1 frame before it is read"),
        "{warning:?}"
    );
    // A complete last line with no newline is a frame like any other.
    let (frames, warning) = read_all(EXAMPLE.trim_end()).unwrap();
    assert_eq!((frames.len(), warning), (4, None));
    // \r\n is read too.
    let (frames, _) = read_all(EXAMPLE.replace('\n', "\r\n")).unwrap();
    assert_eq!(frames.len(), 4);
}

/// Box2D's conventions: normal A -> B, negative separation when penetrating.
fn box2d_writer(out: &mut Vec<u8>, compressed: bool) -> CaptureWriter<&mut Vec<u8>> {
    let header = Header::f32_metres(Engine::new("box2d", "3.2.0").with_setting("substeps", 4));
    if compressed {
        CaptureWriter::compressed(
            out,
            &header,
            NormalFrom::AToB,
            Penetration::NegativeSeparation,
        )
        .unwrap()
    } else {
        CaptureWriter::new(
            out,
            &header,
            NormalFrom::AToB,
            Penetration::NegativeSeparation,
        )
        .unwrap()
    }
}

fn ground() -> BodyShape {
    BodyShape::new(
        1,
        ConvexPolygon::rectangle(DVec2::new(10.0, 0.5)).unwrap(),
        DVec2::new(0.0, -0.5),
        DVec2::X,
    )
    .named("ground")
}

fn ball(y: f32, awake: bool) -> BodyShape {
    BodyShape::new(
        7,
        Circle::new(0.5).unwrap(),
        DVec2::new(0.25, y as f64),
        DVec2::X,
    )
    .named("ball")
    .moving(Body::Dynamic, DVec2::new(0.0, -1.0), 0.0, awake)
}

fn resting(depth: f32) -> Manifold {
    Manifold {
        a: 1,
        b: 7,
        normal: DVec2::Y,
        points: vec![ManifoldPoint {
            point: DVec2::new(0.25, -(depth as f64) / 2.0),
            separation: -(depth as f64),
            impulse: None,
        }]
        .into(),
        piece: None,
    }
}

#[test]
fn the_writer_writes_a_shape_once_then_only_what_changed_and_exact_f32_values() {
    let mut out = Vec::new();
    let mut writer = box2d_writer(&mut out, false);
    writer
        .frame(0.0, &[ground(), ball(0.6, true)], &[])
        .unwrap();
    writer
        .frame(
            1.0 / 60.0,
            &[ground(), ball(0.4999, true)],
            &[resting(0.0001)],
        )
        .unwrap();
    // Asleep on a static ground: the engine did not recompute the pair, so it is left out.
    writer
        .frame(
            2.0 / 60.0,
            &[ground(), ball(0.4999, false)],
            &[resting(0.0001)],
        )
        .unwrap();
    writer.frame(3.0 / 60.0, &[ground()], &[]).unwrap();
    drop(writer);
    let text = String::from_utf8(out.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines[0].contains(r#""settings":{"substeps":4}"#));
    assert!(lines[1].contains(r#"{"id":1,"name":"ground","kind":"polygon","points":"#));
    // The second frame writes only the ball's new position, exactly the f32 0.4999.
    assert_eq!(
        lines[2],
        format!(
            r#"{{"frame":1,"time":0.016666666666666666,"shapes":[{{"id":7,"position":[0.25,{}]}}],"claims":[{{"a":1,"b":7,"intersecting":true,"depth":{},"normal":[0.0,1.0],"contacts":[[0.25,{}]]}}]}}"#,
            0.4999f32 as f64,
            0.0001f32 as f64,
            -(0.0001f32 as f64) / 2.0
        )
    );
    assert_eq!(
        lines[3],
        r#"{"frame":2,"time":0.03333333333333333,"shapes":[],"claims":[]}"#
    );
    assert_eq!(
        lines[4],
        r#"{"frame":3,"time":0.05,"shapes":[],"removed":[7],"claims":[]}"#
    );
    let mut reader = reader(out).unwrap();
    reader.next_frame().unwrap();
    let frame = reader.next_frame().unwrap().unwrap();
    assert_eq!(
        reader.shape(7).unwrap().placed.pose.position.y,
        0.4999f32 as f64
    );
    assert!(judge_frame(&reader, &frame).claims[0].agrees());
}

#[test]
fn the_writer_turns_other_conventions_into_the_files() {
    let mut out = Vec::new();
    let header = Header::f32_metres(Engine::new("y-down-engine", "0.1"));
    let mut writer = CaptureWriter::new(
        &mut out,
        &header,
        NormalFrom::BToA,
        Penetration::PositiveDepth,
    )
    .unwrap();
    let contact = Manifold {
        normal: -DVec2::Y,
        points: vec![ManifoldPoint {
            point: DVec2::ZERO,
            separation: 0.25,
            impulse: None,
        }]
        .into(),
        ..resting(0.0)
    };
    writer
        .frame(0.0, &[ground(), ball(0.25, true)], &[contact])
        .unwrap();
    // A speculative contact (every point separated) is an apart claim, with no distance: its
    // normal (from A toward B) and its smallest separation, the promise the solver acts on.
    let speculative = Manifold {
        points: vec![ManifoldPoint {
            point: DVec2::ZERO,
            separation: -0.01,
            impulse: None,
        }]
        .into(),
        ..resting(0.0)
    };
    writer
        .frame(0.1, &[ground(), ball(0.51, true)], &[speculative])
        .unwrap();
    drop(writer);
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[1].contains(
            r#""claims":[{"a":1,"b":7,"intersecting":true,"depth":0.25,"normal":[0.0,1.0]"#
        ),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].ends_with(r#""claims":[{"a":1,"b":7,"intersecting":false,"normal":[0.0,-1.0],"separation":0.01,"contacts":[[0.0,0.0]]}]}"#),
        "{}",
        lines[2]
    );
}

/// The writer refuses only calls that break the capture's contract (they are the game's to
/// change), and writes what the engine got wrong as it came, marked malformed, never losing
/// the frame that shows it: a NaN pose, a zero normal. The reader reads every frame back, the
/// malformed entries with their problems.
#[test]
fn the_writer_refuses_broken_calls_and_marks_what_the_engine_got_wrong() {
    let mut out = Vec::new();
    let mut writer = box2d_writer(&mut out, false);
    let contract = |e: CaptureError| match e {
        CaptureError::Contract(message) => message,
        other => panic!("not a contract error: {other}"),
    };
    let missing = Manifold {
        b: 8,
        ..resting(0.1)
    };
    assert!(
        contract(
            writer
                .frame(0.0, &[ground(), ball(0.4, true)], &[missing])
                .unwrap_err()
        )
        .contains("names id 8, which is not among this frame's shapes")
    );
    // The engine's bugs: a ball at NaN (its contact cannot be judged either), then a contact
    // with a zero normal.
    let mut bad = ball(0.4, true);
    bad.position.x = f64::NAN;
    writer
        .frame(0.0, &[ground(), bad], &[resting(0.1)])
        .unwrap();
    let flat = Manifold {
        normal: DVec2::ZERO,
        ..resting(0.1)
    };
    writer
        .frame(0.5, &[ground(), ball(0.4, true)], &[flat])
        .unwrap();
    assert!(contract(writer.frame(0.25, &[ground()], &[]).unwrap_err()).contains("time 0.25"));
    writer.frame(0.75, &[ground()], &[]).unwrap();
    assert!(
        contract(
            writer
                .frame(1.0, &[ground(), ball(0.4, true)], &[])
                .unwrap_err()
        )
        .contains("an id never comes back")
    );
    drop(writer);

    // Every frame written reads, the malformed entries with them.
    let mut reader = reader(out).unwrap();
    let first = reader.next_frame().unwrap().unwrap();
    assert_eq!(first.claims, []);
    let problems: Vec<(MalformedWhat, &str)> = first
        .malformed
        .iter()
        .map(|m| (m.what, m.problem.as_str()))
        .collect();
    assert_eq!(
        problems,
        [
            (
                MalformedWhat::Shape { id: Some(7) },
                "\"position\" must be finite numbers"
            ),
            (
                MalformedWhat::Claim {
                    a: Some(1),
                    b: Some(7)
                },
                "shape 7 is malformed in this frame, so its contacts cannot be judged"
            ),
        ]
    );
    assert_eq!(first.malformed[0].value["position"][0], "NaN");
    assert_eq!(first.malformed[0].value["name"], "ball");
    let second = reader.next_frame().unwrap().unwrap();
    assert_eq!(second.claims, []);
    assert_eq!(
        second.malformed[0].problem,
        "\"normal\" must be a unit vector (from A toward B), found [0, 0] of length 0"
    );
    assert_eq!(
        second.malformed[0].value["normal"],
        serde_json::json!([0.0, 0.0])
    );
    // The ball, written whole in its first good frame, is there to judge and then removed.
    let (scene, _) = reader.scene(&second);
    assert_eq!(scene.shapes.len(), 2);
    let third = reader.next_frame().unwrap().unwrap();
    assert_eq!((third.frame, third.malformed.len()), (2, 0));
    assert!(reader.next_frame().unwrap().is_none());
}

#[test]
fn a_compressed_capture_reads_the_same_even_when_the_game_died_mid_stream() {
    let mut plain = Vec::new();
    let mut gzip = Vec::new();
    for (out, compressed) in [(&mut plain, false), (&mut gzip, true)] {
        let mut writer = box2d_writer(out, compressed);
        for step in 0..200 {
            let y = 2.0 - step as f32 * 0.01;
            writer
                .frame(step as f64 / 60.0, &[ground(), ball(y, true)], &[])
                .unwrap();
        }
        writer.finish().unwrap();
    }
    assert_eq!(&gzip[..2], &[0x1f, 0x8b]);
    assert!(
        gzip.len() * 2 < plain.len(),
        "{} vs {}",
        gzip.len(),
        plain.len()
    );
    assert_eq!(
        read_all(gzip.clone()).unwrap().0,
        (0..200).collect::<Vec<_>>()
    );
    // The writer flushes every frame: a stream cut anywhere (no gzip trailer) still gives
    // every frame whose line was flushed before the cut.
    let cut = &gzip[..gzip.len() * 2 / 3];
    let (frames, _) = read_all(cut.to_vec()).unwrap();
    assert!(frames.len() > 100 && frames.len() < 200, "{}", frames.len());
    assert_eq!(frames, (0..frames.len() as u64).collect::<Vec<_>>());
}

#[test]
fn a_contact_the_engine_did_not_recompute_is_named_previous_poses() {
    // Frame 0: the ball 0.1 into the ground; frame 1: it has moved up 0.05, but the engine
    // reports frame 0's contact again (recycled).
    let mut out = Vec::new();
    let mut writer = box2d_writer(&mut out, false);
    writer
        .frame(0.0, &[ground(), ball(0.4, true)], &[resting(0.1)])
        .unwrap();
    writer
        .frame(1.0 / 60.0, &[ground(), ball(0.45, true)], &[resting(0.1)])
        .unwrap();
    drop(writer);
    let mut reader = reader(out).unwrap();
    let first = reader.next_frame().unwrap().unwrap();
    assert!(judge_frame(&reader, &first).claims[0].agrees());
    let second = reader.next_frame().unwrap().unwrap();
    let judged = &judge_frame(&reader, &second).claims[0];
    assert!(!judged.agrees());
    assert_eq!(
        judged.causes().collect::<Vec<_>>(),
        vec![Cause::PreviousPoses]
    );
    let words = judged.lines().join("\n");
    assert!(words.contains("ground (id 1) / ball (id 7)"), "{words}");
    assert!(words.contains("reproduced by previous-poses"), "{words}");
}

#[test]
fn at_f32_a_claim_is_held_to_tau_at_its_scale_and_the_verdict_may_differ_only_near_touching() {
    use collidoscope::geometry::{Placed, Pose};
    use collidoscope::{Reported, check_contact_at, f32_tolerance};
    // Pixel scale: a 32 px box resting on a floor 1000 px wide; tau = 1000 / 2^20.
    let floor = Placed::new(
        ConvexPolygon::rectangle(DVec2::new(500.0, 10.0)).unwrap(),
        Pose::at(DVec2::new(500.0, 0.0)),
    );
    let box_at = |y: f64| {
        Placed::new(
            ConvexPolygon::rectangle(DVec2::splat(16.0)).unwrap(),
            Pose::at(DVec2::new(480.0, y)),
        )
    };
    let tau = f32_tolerance(&floor, &box_at(26.0));
    assert_eq!(tau, 1000.0 / (1u64 << 20) as f64);
    let at = |y: f64, r: Reported| check_contact_at(&floor, &box_at(y), &r, Precision::F32);
    // 1e-4 deep, reported 1e-4 + tau/2 deep with a normal turned by (tau/4) / depth: agrees.
    let turned = DVec2::new((tau / 4.0) / 1e-4, 1.0).normalize();
    assert!(
        at(
            26.0 - 1e-4,
            Reported::intersecting(1e-4 + tau / 2.0, DVec2::Y)
        )
        .agrees
    );
    assert!(at(26.0 - 1e-4, Reported::intersecting(1e-4, turned)).agrees);
    assert!(
        !at(
            26.0 - 1e-4,
            Reported::intersecting(1e-4 + 2.0 * tau, DVec2::Y)
        )
        .agrees
    );
    // Apart within tau of touching agrees with a penetration; farther it does not.
    assert!(at(26.0 - tau / 2.0, Reported::apart()).agrees);
    assert!(!at(26.0 - 2.0 * tau, Reported::apart()).agrees);
    // A reversed normal is still a reversed normal at f32.
    let reversed = at(26.0 - 0.01, Reported::intersecting(0.01, -DVec2::Y));
    assert!(!reversed.agrees);
    assert!(
        reversed.to_string().contains("normal-reversed"),
        "{reversed}"
    );
}

/// docs/format.md, "Speculative claims keep their normal": an engine's speculative manifold
/// (its points apart, within its prediction distance) is written with its normal, its smallest
/// separation and its points, and judged as the promise the solver acts on.
#[test]
fn a_speculative_claim_keeps_its_normal_and_is_held_to_its_separation() {
    // The ball 0.02 above the ground; the engine's speculative points say 0.02 and 0.05.
    let speculative = |separation: f64| Manifold {
        a: 1,
        b: 7,
        normal: DVec2::Y,
        points: vec![
            ManifoldPoint {
                point: DVec2::new(0.25, 0.0),
                separation,
                impulse: None,
            },
            ManifoldPoint {
                point: DVec2::new(0.3, 0.0),
                separation: separation + 0.03,
                impulse: None,
            },
        ]
        .into(),
        piece: None,
    };
    let mut out = Vec::new();
    let mut writer = box2d_writer(&mut out, false);
    writer
        .frame(0.0, &[ground(), ball(0.52, true)], &[speculative(0.02)])
        .unwrap();
    // Claiming 0.3 of room where there is 0.02: the ball sinks in before the solver pushes.
    writer
        .frame(
            1.0 / 60.0,
            &[ground(), ball(0.52, true)],
            &[speculative(0.3)],
        )
        .unwrap();
    drop(writer);
    let text = String::from_utf8(out.clone()).unwrap();
    let line = text.lines().nth(1).unwrap();
    assert!(
        line.contains(r#""intersecting":false,"normal":[0.0,1.0],"separation":0.02,"contacts":[[0.25,0.0],[0.3,0.0]]"#),
        "{line}"
    );
    let mut reader = reader(out).unwrap();
    let frame = reader.next_frame().unwrap().unwrap();
    let claim = &frame.claims[0].reported;
    assert_eq!(
        (claim.separation, claim.normal),
        (Some(0.02), Some(DVec2::Y))
    );
    let honest = judge_frame(&reader, &frame);
    assert!(honest.claims[0].agrees(), "{:?}", honest.claims[0]);
    let frame = reader.next_frame().unwrap().unwrap();
    let promised = &judge_frame(&reader, &frame).claims[0];
    assert!(!promised.agrees());
    // No geometric mistake explains it: the verdict and the shapes are right.
    assert!(
        promised.causes().collect::<Vec<_>>().is_empty(),
        "{:?}",
        promised.causes().collect::<Vec<_>>()
    );
    let words = promised.lines().join(" ");
    assert!(words.contains("separation 0.3 > distance 0.02"), "{words}");
}

#[test]
fn a_speculative_claim_refused_names_its_field() {
    let frame0 = r#"{"frame": 0, "time": 0.0, "shapes": [{"id": 3, "kind": "circle", "radius": 0.5, "body": "dynamic"}, {"id": 5, "kind": "circle", "radius": 0.5, "position": [2, 0]}]}"#;
    let with_claim = |claim: &str| {
        format!("{HEADER}\n{frame0}\n{{\"frame\": 1, \"time\": 0.1, \"claims\": [{claim}]}}\n")
    };
    for (claim, message) in [
        (
            r#"{"a": 3, "b": 5, "intersecting": false, "normal": [1, 0], "separation": -0.1}"#,
            "game.capture.jsonl: line 3: claim 0 (ids 3 and 5): \"separation\" must be >= 0, found -0.1",
        ),
        (
            r#"{"a": 3, "b": 5, "intersecting": true, "depth": 0.1, "normal": [1, 0], "separation": 0.1}"#,
            "game.capture.jsonl: line 3: claim 0 (ids 3 and 5): \"separation\" is an apart claim's (a speculative contact's); an intersecting claim says \"depth\"",
        ),
        (
            r#"{"a": 3, "b": 5, "intersecting": false, "separation": 0.1}"#,
            "game.capture.jsonl: line 3: claim 0 (ids 3 and 5): a speculative claim's \"separation\" is along its \"normal\" (unit, from A toward B), which is missing",
        ),
    ] {
        assert_eq!(read_all(with_claim(claim)).unwrap_err(), message);
    }
    // Without them, an apart claim reads as it always has.
    let plain = with_claim(r#"{"a": 3, "b": 5, "intersecting": false}"#);
    assert_eq!(read_all(plain).unwrap().0, vec![0, 1]);
}

/// Over time (docs/format.md, "Impulses"): the solver's normal impulse at each contact point
/// is written as the claim's `"impulses"`, one per point it keeps, read back, and never judged.
#[test]
fn impulses_are_written_one_per_kept_point_read_back_and_never_judged() {
    // Two points; only the first penetrates, so the claim keeps it and its impulse.
    let resting = Manifold {
        a: 1,
        b: 7,
        normal: DVec2::Y,
        points: vec![
            ManifoldPoint::new(DVec2::new(-0.25, 0.0), -0.005).with_impulse(0.0817),
            ManifoldPoint::new(DVec2::new(0.25, 0.0), 0.01).with_impulse(0.0),
        ]
        .into(),
        piece: None,
    };
    let mut out = Vec::new();
    let mut writer = box2d_writer(&mut out, false);
    writer
        .frame(
            0.0,
            &[ground(), ball(0.495, true)],
            std::slice::from_ref(&resting),
        )
        .unwrap();
    // An impulse that is not a number is left out (the claim itself is still written).
    let mut odd = resting;
    odd.points[0].impulse = Some(f64::NAN);
    writer
        .frame(1.0 / 60.0, &[ground(), ball(0.495, true)], &[odd])
        .unwrap();
    drop(writer);
    let text = String::from_utf8(out.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[1].contains(r#""contacts":[[-0.25,0.0]],"impulses":[0.0817]}"#),
        "{}",
        lines[1]
    );
    assert!(!lines[2].contains("impulses"), "{}", lines[2]);
    let mut reader = reader(out).unwrap();
    let frame = reader.next_frame().unwrap().unwrap();
    assert_eq!(frame.claims[0].reported.impulses, Some(vec![0.0817]));
    // The same claim without its impulses is judged the same.
    let judged = judge_frame(&reader, &frame);
    assert!(judged.claims[0].agrees(), "{:?}", judged.claims[0]);
    let frame = reader.next_frame().unwrap().unwrap();
    assert_eq!(frame.claims[0].reported.impulses, None);
    assert_eq!(
        judge_frame(&reader, &frame).claims[0].agrees(),
        judged.claims[0].agrees()
    );
}

#[test]
fn impulses_refused_name_the_value_and_the_count() {
    let frame0 = r#"{"frame": 0, "time": 0.0, "shapes": [{"id": 3, "kind": "circle", "radius": 0.5, "body": "dynamic"}, {"id": 5, "kind": "circle", "radius": 0.5, "position": [0.9, 0]}]}"#;
    let with_claim = |claim: &str| {
        format!("{HEADER}\n{frame0}\n{{\"frame\": 1, \"time\": 0.1, \"claims\": [{claim}]}}\n")
    };
    let touching = r#""a": 3, "b": 5, "intersecting": true, "depth": 0.1, "normal": [1, 0], "contacts": [[0.45, 0]]"#;
    for (impulses, message) in [
        (
            "[-0.5]",
            "game.capture.jsonl: line 3: claim 0 (ids 3 and 5): \"impulses\" value 0 must be a finite number >= 0 (the normal impulse at that contact point), found -0.5",
        ),
        (
            "[0.5, 0.25]",
            "game.capture.jsonl: line 3: claim 0 (ids 3 and 5): \"impulses\" has 2 values for 1 contact points: one per point of \"contacts\"",
        ),
        (
            r#"["a lot"]"#,
            "game.capture.jsonl: line 3: claim 0 (ids 3 and 5): \"impulses\" value 0 must be a number, found a string \"a lot\"",
        ),
        (
            "0.5",
            "game.capture.jsonl: line 3: claim 0 (ids 3 and 5): \"impulses\" must be an array of numbers (one per contact point), found 0.5",
        ),
    ] {
        let claim = format!("{{{touching}, \"impulses\": {impulses}}}");
        assert_eq!(
            read_all(with_claim(&claim)).unwrap_err(),
            message,
            "{claim}"
        );
    }
    let fine = format!("{{{touching}, \"impulses\": [0.5]}}");
    assert_eq!(read_all(with_claim(&fine)).unwrap().0, vec![0, 1]);
}

/// Issue 40: a frame numbered 2^64 - 1 followed by frame 0 panicked in a debug build (the
/// expected next frame overflowed) and was refused by chance in release. It is refused by name:
/// no frame can follow the largest frame number.
#[test]
fn no_frame_can_follow_the_largest_frame_number() {
    let text = format!(
        "{HEADER}\n{{\"frame\": {}, \"time\": 0.0, \"shapes\": []}}\n{{\"frame\": 0, \"time\": 0.1, \"shapes\": []}}\n",
        u64::MAX
    );
    let refused = read_all(text).unwrap_err();
    assert!(
        refused.contains("line 3")
            && refused.contains("\"frame\" is 0 after frame 18446744073709551615, the largest frame number a capture can hold"),
        "{refused}"
    );
}

/// Issue 40: a capture line was read with no length cap, so a gzip bomb with no newline filled
/// memory. A line longer than the reader's limit (256 MiB by default; set lower here) is refused
/// by its number, the frames before it kept.
#[test]
fn a_line_longer_than_the_limit_is_refused_not_read_into_memory() {
    let frame0 =
        r#"{"frame": 0, "time": 0.0, "shapes": [{"id": 3, "kind": "circle", "radius": 0.5}]}"#;
    let endless = format!("{HEADER}\n{frame0}\n{}", " ".repeat(5000));
    let mut reader = CaptureReader::new(
        Path::new("bomb.capture.jsonl"),
        Cursor::new(endless.into_bytes()),
    )
    .unwrap()
    .with_line_limit(1000);
    assert_eq!(reader.next_frame().unwrap().unwrap().frame, 0);
    let refused = reader.next_frame().unwrap_err().to_string();
    assert_eq!(
        refused,
        "bomb.capture.jsonl: line 3 is longer than 1000 bytes, the longest line this reader takes (a line holds one frame): the capture is refused here rather than read into memory"
    );
    assert_eq!(collidoscope::capture::LINE_LIMIT, 256 << 20);
}

/// A shape given another kind under its id is refused before anything is written (the reader
/// would refuse the line, and every frame after it): found by the writer-reader fuzz target.
#[test]
fn the_writer_refuses_an_id_that_changes_kind() {
    let mut out = Vec::new();
    let mut writer = box2d_writer(&mut out, false);
    writer
        .frame(0.0, &[ground(), ball(0.4, true)], &[])
        .unwrap();
    let mut boxed = ball(0.4, true);
    boxed.shape = ConvexPolygon::rectangle(DVec2::splat(0.5)).unwrap().into();
    let refused = writer.frame(0.1, &[ground(), boxed], &[]).unwrap_err();
    assert!(
        matches!(&refused, CaptureError::Contract(m) if m == "id 7 was written as a circle and is given as a polygon: an id never changes kind, give the new shape a new id"),
        "{refused}"
    );
    writer
        .frame(0.2, &[ground(), ball(0.3, true)], &[])
        .unwrap();
    drop(writer);
    assert_eq!(read_all(out).unwrap().0, vec![0, 1]);
}

/// A shape's filter and body are written the first time and when they change (a filter
/// cleared as `null`), never again otherwise, and read back with the shape; a filter the
/// reader cannot take refuses the capture by line, shape and field.
#[test]
fn filters_and_bodies_are_written_when_they_change_and_read_back() {
    use collidoscope::capture::{Filter, Pairing};
    let player = Filter::box2d(0b10, !0b100, 0);
    let mut out = Vec::new();
    let header = Header::f32_metres(Engine::new("box2d", "3.2.0"));
    let mut writer = CaptureWriter::new(
        &mut out,
        &header,
        NormalFrom::AToB,
        Penetration::NegativeSeparation,
    )
    .unwrap();
    let filtered = |filter: Option<Filter>| {
        let mut b = ball(2.0, true).on_body(40);
        b.pairing.filter = filter;
        b
    };
    writer
        .frame(0.0, &[ground(), filtered(Some(player))], &[])
        .unwrap();
    writer
        .frame(0.1, &[ground(), filtered(Some(player))], &[])
        .unwrap();
    let ghost = Filter::box2d(1, u64::MAX, -3);
    writer
        .frame(0.2, &[ground(), filtered(Some(ghost))], &[])
        .unwrap();
    writer.frame(0.3, &[ground(), filtered(None)], &[]).unwrap();
    drop(writer);
    let text = String::from_utf8(out.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[1].contains(r#""filter":{"category":2,"mask":18446744073709551611},"body_id":40"#),
        "{}",
        lines[1]
    );
    assert!(
        !lines[2].contains("filter") && !lines[2].contains("body_id"),
        "{}",
        lines[2]
    );
    assert!(
        lines[3].contains(r#""filter":{"category":1,"mask":18446744073709551615,"group":-3}"#)
            && !lines[3].contains("body_id"),
        "{}",
        lines[3]
    );
    assert!(lines[4].contains(r#""filter":null"#), "{}", lines[4]);
    let mut reader = reader(out).unwrap();
    let mut seen = Vec::new();
    while reader.next_frame().unwrap().is_some() {
        let ball = reader.shape(7).unwrap();
        seen.push(ball.pairing);
        assert_eq!(ball.placed.pose.position.y, 2.0, "the pose stays as it was");
    }
    let on = |filter| Pairing {
        filter,
        body_id: Some(40),
    };
    assert_eq!(
        seen,
        [
            on(Some(player)),
            on(Some(player)),
            on(Some(ghost)),
            on(None)
        ]
    );
    assert_eq!(reader.shape(1).unwrap().pairing, Pairing::default());

    // A filter the reader cannot take.
    let line =
        |shape: &str| format!("{HEADER}\n{{\"frame\": 0, \"time\": 0, \"shapes\": [{shape}]}}\n");
    let refused = |shape: &str| read_all(line(shape)).unwrap_err();
    assert_eq!(
        refused(
            r#"{"id": 3, "kind": "circle", "radius": 1, "filter": {"category": 1, "mask": -1}}"#
        ),
        r#"game.capture.jsonl: line 2: shape 0 (id 3): "filter": "mask" must be an integer in [0, 2^64) (bits), found -1"#
    );
    assert_eq!(
        refused(r#"{"id": 3, "kind": "circle", "radius": 1, "body_id": "crate"}"#),
        r#"game.capture.jsonl: line 2: shape 0 (id 3): "body_id" must be an integer in [0, 2^53), found "crate""#
    );
}

/// A capture given where a shape set is read (`explain`, `query`, File > Open's shape-set
/// path) says what it is and which commands take it, instead of a JSON syntax error.
#[test]
fn a_capture_read_as_a_shape_set_says_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crate.capture.jsonl");
    std::fs::write(&path, EXAMPLE).unwrap();
    let e = collidoscope::scene::load(&path).unwrap_err().to_string();
    assert!(
        e.ends_with("crate.capture.jsonl: a capture (a game's frames, docs/format.md \"Captures\"), not a shape set: `collidoscope diagnose FILE` judges its claims, `collidoscope FILE` opens it in the capture lab, and `collidoscope fixture FILE --frame N -o OUT.json` pins frame N as a shape set"),
        "{e}"
    );
}

/// An unknown key of 2,000,000 characters is refused with its first 60 and its length, in
/// captures (header, frame, shape and claim) alike: the message is a line, and the key is not
/// compared with every allowed one through a table as long as itself (110 bytes of memory a
/// byte of key: 3.4 GB for a 20 MB key, issue 60).
#[test]
fn a_huge_unknown_key_is_named_by_its_start_and_length() {
    let key = "k".repeat(2_000_000);
    let shown = format!("unknown key \"{}\"... (2000000 characters)", "k".repeat(60));
    let frame0 = r#"{"frame": 0, "time": 0.0, "shapes": [{"id": 3, "kind": "circle", "radius": 0.5, "body": "dynamic"}]}"#;
    let cases = [
        HEADER.replace("\"precision\"", &format!("\"{key}\": 1, \"precision\"")),
        format!(
            "{HEADER}\n{}\n",
            frame0.replace("\"time\"", &format!("\"{key}\": 1, \"time\""))
        ),
        format!(
            "{HEADER}\n{}\n",
            frame0.replace("\"radius\"", &format!("\"{key}\": 1, \"radius\""))
        ),
        format!(
            "{HEADER}\n{frame0}\n{{\"frame\": 1, \"time\": 0.1, \"shapes\": [], \"claims\": [{{\"a\": 3, \"b\": 3, \"{key}\": 1}}]}}\n"
        ),
    ];
    for text in cases {
        let said = read_all(text).map(|_| ()).unwrap_err();
        assert!(said.contains(&shown), "{}", &said[..said.len().min(300)]);
        assert!(
            said.len() < 400,
            "{} characters: {}",
            said.len(),
            &said[..300]
        );
    }
}
