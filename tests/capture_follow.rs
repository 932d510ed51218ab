//! `collidoscope diagnose --follow` (docs/format.md, "a capture still being written"): the real
//! binary reading a capture while a game (a thread here) still writes it, plain and gzip. The
//! game writes the frame with a reversed normal and then waits until the line for that claim
//! has come out: so it comes out as soon as its frame is read, not at the end. The summary
//! follows when the file stops growing for `--idle` seconds.

#[path = "common/binary.rs"]
mod binary;

use collidoscope::capture::{
    BodyShape, CaptureWriter, Engine, Header, Manifold, ManifoldPoint, NormalFrom, Penetration,
};
use collidoscope::geometry::{ConvexPolygon, DVec2};
use collidoscope::scene::Body;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A crate resting on the ground, frame `k`; its claim's normal turned round when `reversed`.
fn frame<W: std::io::Write>(writer: &mut CaptureWriter<W>, k: u64, reversed: bool) {
    let ground = BodyShape::new(
        1,
        ConvexPolygon::rectangle(DVec2::new(10.0, 0.5)).unwrap(),
        DVec2::new(0.0, -0.5),
        DVec2::X,
    )
    .named("ground");
    let crate_ = BodyShape::new(
        2,
        ConvexPolygon::rectangle(DVec2::splat(0.5)).unwrap(),
        DVec2::new(0.0, 0.49),
        DVec2::X,
    )
    .named("crate")
    .moving(Body::Dynamic, DVec2::ZERO, 0.0, true);
    let normal = if reversed { -DVec2::Y } else { DVec2::Y };
    let contact = Manifold {
        a: 1,
        b: 2,
        normal,
        points: vec![
            ManifoldPoint {
                point: DVec2::new(-0.5, -0.005),
                separation: -0.01,
                impulse: None,
            },
            ManifoldPoint {
                point: DVec2::new(0.5, -0.005),
                separation: -0.01,
                impulse: None,
            },
        ]
        .into(),
        piece: None,
    };
    writer
        .frame(k as f64 / 60.0, &[ground, crate_], &[contact])
        .unwrap();
}

/// `collidoscope diagnose --follow --idle 2 [--json] PATH` started, its stdout's lines sent
/// as they come, and the thread that reads them.
fn follower(
    path: &std::path::Path,
    json: bool,
) -> (
    std::process::Child,
    mpsc::Receiver<String>,
    std::thread::JoinHandle<()>,
) {
    let mut args = vec!["diagnose", "--follow", "--idle", "2"];
    if json {
        args.push("--json");
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(&args)
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (lines_tx, lines) = mpsc::channel::<String>();
    let reading = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            lines_tx.send(line.unwrap()).unwrap();
        }
    });
    (child, lines, reading)
}

/// The follower's lines into `seen` until it says frame `k`'s claim (in words or JSON).
fn said_until_frame(lines: &mpsc::Receiver<String>, k: u64, seen: &mut Vec<String>) {
    loop {
        let line = lines
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("frame {k}'s claim is printed while the game still writes"));
        let said =
            line.contains(&format!("\"frame\":{k}")) || line.starts_with(&format!("frame {k} "));
        seen.push(line);
        if said {
            return;
        }
    }
}

/// Follow a capture written by a thread: frames 0-9, frame 10 reversed, then (once the
/// follower printed frame 10's line) frames 11-19; the lines printed and the exit status.
fn follow(gzip: bool, json: bool) -> (Vec<String>, Option<i32>) {
    let dir = tempfile::tempdir().unwrap();
    let name = if gzip {
        "live.capture.jsonl.gz"
    } else {
        "live.capture.jsonl"
    };
    let path = dir.path().join(name);
    let header = Header::f32_metres(Engine::new("box2d", "3.2.0"));
    let file = std::fs::File::create(&path).unwrap();
    let (from, pen) = (NormalFrom::AToB, Penetration::NegativeSeparation);
    let mut writer = CaptureWriter::with_gzip(file, &header, from, pen, gzip).unwrap();
    for k in 0..5 {
        frame(&mut writer, k, false);
    }
    let (mut child, lines, reading) = follower(&path, json);
    for k in 5..10 {
        frame(&mut writer, k, false);
    }
    frame(&mut writer, 10, true);
    // The game goes on only once the follower has said frame 10's claim.
    let mut seen = Vec::new();
    said_until_frame(&lines, 10, &mut seen);
    for k in 11..20 {
        frame(&mut writer, k, false);
    }
    // Kept open (not finished): the game is still running when the follower gives up.
    let status = child.wait().unwrap();
    reading.join().unwrap();
    seen.extend(lines.try_iter());
    drop(writer);
    (seen, status.code())
}

#[test]
fn a_disagreeing_claim_is_printed_as_soon_as_its_frame_is_written_plain_and_gzip() {
    for gzip in [false, true] {
        let (lines, status) = follow(gzip, true);
        assert_eq!(status, Some(1), "{lines:?}");
        let claim: Value = serde_json::from_str(&lines[0]).unwrap();
        assert_eq!(
            (&claim["frame"], &claim["a"], &claim["b"], &claim["agrees"]),
            (
                &Value::from(10),
                &Value::from(1),
                &Value::from(2),
                &Value::from(false)
            )
        );
        assert_eq!(claim["matches"][0], "normal-reversed");
        assert!((claim["time"].as_f64().unwrap() - 10.0 / 60.0).abs() < 1e-12);
        // The normal flipped to reverse and back: an event each, as their frames are read.
        let events: Vec<Value> = lines[1..lines.len() - 1]
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let flips: Vec<(&Value, &Value)> =
            events.iter().map(|e| (&e["kind"], &e["frame"])).collect();
        assert_eq!(
            flips,
            [
                (&Value::from("normal-flip"), &Value::from(10)),
                (&Value::from("normal-flip"), &Value::from(11))
            ]
        );
        // Then the summary: diagnose --json's object without its frames.
        let summary: Value = serde_json::from_str(lines.last().unwrap()).unwrap();
        assert_eq!(summary["claims"], 20, "gzip {gzip}: {summary}");
        assert_eq!(summary["agreeing"], 19);
        assert_eq!(summary["first_divergence"]["frame"], 10);
        assert!(summary.get("frames").is_none());
        assert_eq!(summary["engine"]["name"], "box2d");
    }
}

#[test]
fn followed_in_words_the_claim_and_its_mistake_come_first_then_the_summary() {
    let (lines, status) = follow(false, false);
    assert_eq!(status, Some(1));
    assert!(
        lines[0].starts_with("frame 10 (t = 0.167 s): 1 claim, 1 disagrees"),
        "{lines:?}"
    );
    let text = lines.join("\n");
    assert!(text.contains("reproduced by normal-reversed"), "{text}");
    assert!(text.contains("frame 11 (t = 0.183 s): 1 claim, every claim agrees; 1 event\n  frame 10, t = 0.167 s: the contact of ground and crate turned its normal back"), "{text}");
    assert!(
        text.contains("20 frames, 20 claims: 19 agree, 1 differs"),
        "{text}"
    );
    assert!(text.contains("first divergence: frame 10"), "{text}");
}

#[test]
fn follow_takes_one_capture_and_idle_needs_follow() {
    let o = binary::collidoscope(&["diagnose", "--follow", "a.jsonl", "b.jsonl"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(binary::stderr(&o).contains("--follow reads one capture, 2 given"));
    let o = binary::collidoscope(&["diagnose", "--idle", "3", "a.jsonl"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A capture followed before the game has made it is waited for (the window waits too), the
/// wait said on stderr; once the game writes it, it is followed as any other. With no file
/// by the end of `--idle`, the wait ends, saying so (status 1).
#[test]
fn a_capture_not_yet_there_is_waited_for_then_followed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("later.capture.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(["diagnose", "--follow", "--idle", "3"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The game starts once the follower has said it waits.
    let stderr = child.stderr.take().unwrap();
    let (said_tx, said) = mpsc::channel::<String>();
    let reading_err = std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            said_tx.send(line.unwrap()).unwrap();
        }
    });
    let waiting = said
        .recv_timeout(Duration::from_secs(60))
        .expect("the follower says it waits for the file");
    assert!(
        waiting.contains("waiting for") && waiting.contains("later.capture.jsonl"),
        "{waiting}"
    );
    assert!(child.try_wait().unwrap().is_none(), "still waiting");
    let header = Header::f32_metres(Engine::new("box2d", "3.2.0"));
    let file = std::fs::File::create(&path).unwrap();
    let (from, pen) = (NormalFrom::AToB, Penetration::NegativeSeparation);
    let mut writer = CaptureWriter::with_gzip(file, &header, from, pen, false).unwrap();
    for k in 0..5 {
        frame(&mut writer, k, k == 3);
    }
    let out = child.wait_with_output().unwrap();
    reading_err.join().unwrap();
    drop(writer);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.starts_with("frame 3 (t = 0.05 s): 1 claim, 1 disagrees"),
        "{text}"
    );
    assert!(
        text.contains("5 frames, 5 claims: 4 agree, 1 differs"),
        "{text}"
    );

    // Nothing comes: the wait ends after --idle, said.
    let never = dir.path().join("never.capture.jsonl");
    let o = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(["diagnose", "--follow", "--idle", "0.3"])
        .arg(&never)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("waiting for"), "{err}");
    assert!(
        err.contains("never.capture.jsonl: no file came in 0.3 s of waiting (--idle)"),
        "{err}"
    );
}

/// A run of the game to `out`: Box2D `version`'s header, then frames `0..frames`, the
/// claim of frame `reversed` (if any) turned round; the writer, not finished.
fn run_to<W: std::io::Write>(
    out: W,
    version: &str,
    frames: u64,
    reversed: Option<u64>,
    gzip: bool,
) -> CaptureWriter<W> {
    let header = Header::f32_metres(Engine::new("box2d", version));
    let (from, pen) = (NormalFrom::AToB, Penetration::NegativeSeparation);
    let mut writer = CaptureWriter::with_gzip(out, &header, from, pen, gzip).unwrap();
    for k in 0..frames {
        frame(&mut writer, k, reversed == Some(k));
    }
    writer
}

/// Follow a capture (gzip or not, `--json` or not) whose earlier run (Box2D 3.2.0, frames
/// 0-3, frame 3's claim reversed) has been read to its end (its frame 3 said), then let
/// `again` begin it again at `path`; the lines printed, what stderr said and the exit status.
fn begun_again(
    gzip: bool,
    json: bool,
    again: impl FnOnce(&std::path::Path),
) -> (Vec<String>, String, Option<i32>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(if gzip {
        "again.capture.jsonl.gz"
    } else {
        "again.capture.jsonl"
    });
    let file = std::fs::File::create(&path).unwrap();
    let earlier = run_to(file, "3.2.0", 4, Some(3), gzip);
    let (child, lines, reading) = follower(&path, json);
    // The game begins again only once the follower has said frame 3, the earlier run's last.
    let mut seen = Vec::new();
    said_until_frame(&lines, 3, &mut seen);
    drop(earlier);
    again(&path);
    let out = child.wait_with_output().unwrap();
    reading.join().unwrap();
    seen.extend(lines.try_iter());
    (
        seen,
        String::from_utf8(out.stderr).unwrap(),
        out.status.code(),
    )
}

/// A game run again to the same file, which it truncates: the follower says the capture
/// began again, after which frame of the earlier run, with the new run's header and the
/// earlier run's summary, and judges the new run from its header: its summary and exit status
/// are the new run's (0 here: the earlier run's reversed claim is not the file's any more),
/// whether the new run is shorter than what was read or written past it at once (it was read
/// on from the old end: "line 5, column 0: the line is cut off"), plain or gzip.
#[test]
fn a_capture_written_again_from_its_start_is_judged_anew_shorter_or_past_what_was_read() {
    let began = "the capture began again (written again from its start) after frame 3 of the earlier run; the new run (box2d 3.2.1, f32, units m) is judged from its first frame";
    for gzip in [false, true] {
        // Shorter: 2 frames, written as the game runs.
        let (lines, _, status) = begun_again(gzip, false, |path| {
            let file = std::fs::File::create(path).unwrap();
            run_to(file, "3.2.1", 2, None, gzip).finish().unwrap();
        });
        let text = lines.join("\n");
        assert_eq!(status, Some(0), "gzip {gzip}: {text}");
        assert!(text.contains(began), "gzip {gzip}: {text}");
        assert!(
            text.contains(", the earlier run: box2d 3.2.0, f32, units m\n  4 frames, 4 claims: 3 agree, 1 differs"),
            "{text}"
        );
        let summary = &text[text.rfind(": box2d").unwrap()..];
        assert!(
            summary.starts_with(": box2d 3.2.1, f32, units m\n  2 frames, 2 claims: 2 agree\n"),
            "{text}"
        );
        // Past what was read: 30 frames, in one write.
        let (lines, _, status) = begun_again(gzip, false, |path| {
            let bytes = run_to(Vec::new(), "3.2.1", 30, None, gzip)
                .finish()
                .unwrap();
            std::fs::write(path, bytes).unwrap();
        });
        let text = lines.join("\n");
        assert_eq!(status, Some(0), "gzip {gzip}: {text}");
        assert!(text.contains(began), "gzip {gzip}: {text}");
        assert!(text.contains("30 frames, 30 claims: 30 agree"), "{text}");
        assert!(!text.contains("line 5"), "{text}");
    }
}

/// A game run again that moves the earlier capture away and makes a new file at the path:
/// the new file is followed (it was never read: the old file was followed on for ever),
/// said as a new file; with --json, one line says so with the earlier run's summary, the
/// sentence on stderr, and the last line is the new run's summary.
#[test]
fn a_capture_renamed_away_and_made_again_is_followed_anew() {
    let (lines, err, status) = begun_again(false, false, |path| {
        std::fs::rename(path, path.with_extension("old")).unwrap();
        let file = std::fs::File::create(path).unwrap();
        run_to(file, "3.2.1", 5, Some(1), false).finish().unwrap();
    });
    let text = lines.join("\n");
    assert_eq!(status, Some(1), "{text}\n{err}");
    assert!(
        text.contains("the capture began again (a new file at its path) after frame 3 of the earlier run; the new run (box2d 3.2.1, f32, units m)"),
        "{text}"
    );
    assert!(
        text.contains("5 frames, 5 claims: 4 agree, 1 differs\n  first divergence: frame 1,"),
        "{text}"
    );

    let (lines, err, status) = begun_again(false, true, |path| {
        std::fs::rename(path, path.with_extension("old")).unwrap();
        let file = std::fs::File::create(path).unwrap();
        run_to(file, "3.2.1", 5, None, false).finish().unwrap();
    });
    assert_eq!(status, Some(0), "{lines:?}\n{err}");
    assert!(
        err.contains("the capture began again (a new file at its path)"),
        "{err}"
    );
    let began: Value = lines
        .iter()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v.get("began_again").is_some())
        .expect("a line says the capture began again");
    assert_eq!(began["began_again"], "replaced");
    assert_eq!(began["after_frame"], 3);
    assert_eq!(began["earlier"]["engine"]["version"], "3.2.0");
    assert_eq!(
        (&began["earlier"]["claims"], &began["earlier"]["agreeing"]),
        (&Value::from(4), &Value::from(3))
    );
    let summary: Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    assert_eq!(summary["engine"]["version"], "3.2.1");
    assert_eq!(
        (&summary["claims"], &summary["agreeing"]),
        (&Value::from(5), &Value::from(5))
    );
}

#[test]
fn listen_takes_no_file_and_not_follow() {
    let o = binary::collidoscope(&["diagnose", "--listen", "0", "a.jsonl"]);
    assert_eq!(o.status.code(), Some(2));
    let o = binary::collidoscope(&["diagnose", "--listen", "0", "--follow"]);
    assert_eq!(o.status.code(), Some(2));
    let o = binary::collidoscope(&["diagnose", "--listen", "0", "--idle", "inf"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(binary::stderr(&o).contains("--idle inf: seconds"));
}

/// `diagnose --listen`: a game streams a capture over plain TCP (here the tiles capture of a
/// seam and a tunnel, sent as it is); the listener judges it with no window and ends with the
/// stream, its summary the same as `diagnose --json` of the file; with nobody connecting it
/// gives up after --idle, saying so.
#[test]
fn a_stream_judged_with_no_window_ends_with_the_stream_as_its_file_is_judged() {
    use std::io::Write;
    let file =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/captures/tiles.capture.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(["diagnose", "--listen", "0", "--json", "--idle", "30"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    stderr.read_line(&mut said).unwrap();
    let port: u16 = said
        .split("127.0.0.1:")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {said:?}"));
    let mut game = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    game.write_all(&std::fs::read(&file).unwrap()).unwrap();
    drop(game);
    let out = child.wait_with_output().unwrap();
    let mut rest = String::new();
    let _ = std::io::Read::read_to_string(&mut stderr, &mut rest);
    assert!(
        rest.contains("connected; its capture is kept as "),
        "{rest}"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let summary: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let whole = binary::collidoscope(&["diagnose", "--json", file.to_str().unwrap()]);
    let expected: Value = serde_json::from_slice(&whole.stdout).unwrap();
    assert_eq!(out.status.code(), whole.status.code());
    for key in [
        "claims",
        "agreeing",
        "first_divergence",
        "events",
        "first_event",
    ] {
        assert_eq!(summary[key], expected[key], "{key}");
    }
    assert!(!expected["events"].as_array().unwrap().is_empty());
    // Nobody connects: the wait ends after --idle, said (status 1).
    let o = binary::collidoscope(&["diagnose", "--listen", "0", "--idle", "0.3"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("no game connected in 0.3 s")
            || binary::stderr(&o).contains("no game connected in 0.3 s"),
        "{}",
        binary::stderr(&o)
    );
}
