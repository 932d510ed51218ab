//! `collidoscope diagnose` on captures (docs/format.md, "`collidoscope diagnose` on captures"):
//! the real binary on the contract's example, on a capture with a divergence, a refused one and
//! one cut off by a crash, and on a shape set judged at f32.

#[path = "common/binary.rs"]
mod binary;

use binary::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

const EXAMPLE: &str = "tests/captures/crate.capture.jsonl";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn json_line(args: &[&str]) -> (Value, Option<i32>) {
    let o = collidoscope(args);
    let line: Value = serde_json::from_str(stdout(&o).trim())
        .unwrap_or_else(|e| panic!("{e}: {} {}", stdout(&o), stderr(&o)));
    (line, o.status.code())
}

#[test]
fn the_contracts_example_prints_the_contracts_json() {
    let (line, status) = json_line(&["diagnose", "--json", EXAMPLE]);
    assert_eq!(status, Some(0));
    assert_eq!(line["file"], EXAMPLE);
    assert_eq!(
        line["engine"],
        serde_json::json!({"name": "box2d", "version": "3.2.0"})
    );
    assert_eq!(
        (line["precision"].as_str(), line["units"].as_str()),
        (Some("f32"), Some("m"))
    );
    assert_eq!(
        (line["claims"].as_u64(), line["agreeing"].as_u64()),
        (Some(4), Some(4))
    );
    assert_eq!(line["first_divergence"], Value::Null);
    let frames = line["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 4);
    let first = &frames[0]["claims"][0];
    assert_eq!(first["tolerance"].as_f64(), Some(9.5367431640625e-06));
    assert_eq!(first["error"].as_f64(), Some(0.0));
    assert_eq!(
        first["exact"],
        serde_json::json!({"a": 1, "b": 2, "intersecting": false, "depth": 0.0, "normal": null,
            "distance": 0.009999990463256836, "closest": [[-0.5, 0.0], [-0.5, 0.009999990463256836]], "contacts": []})
    );
    let last = &frames[3];
    assert_eq!(
        (last["frame"].as_u64(), last["time"].as_f64()),
        (Some(3), Some(0.05))
    );
    assert_eq!(
        last["claims"][0]["error"].as_f64(),
        Some(4.886226023792517e-08)
    );
    assert_eq!(
        last["claims"][0]["exact"]["depth"].as_f64(),
        Some(1.1135326188460581e-05)
    );
    let text = stdout(&collidoscope(&["diagnose", EXAMPLE]));
    assert!(
        text.starts_with(&format!(
            "{EXAMPLE}: box2d 3.2.0, f32, units m\n  4 frames, 4 claims: 4 agree\n"
        )),
        "{text}"
    );
}

#[test]
fn a_divergence_is_named_first_then_frame_by_frame() {
    let dir = tempfile::tempdir().unwrap();
    let example = std::fs::read_to_string(EXAMPLE).unwrap();
    // Frame 3's normal reversed; a last frame cut off by a crash.
    let bad = example.replace("\"normal\": [0.0, 1.0]", "\"normal\": [0.0, -1.0]")
        + "{\"frame\": 4, \"time\": 0.0666, \"sha";
    let path = write(dir.path(), "bad.capture.jsonl", &bad);
    let name = path.to_str().unwrap();
    let (line, status) = json_line(&["diagnose", "--json", name]);
    assert_eq!(status, Some(1));
    assert_eq!(
        (line["claims"].as_u64(), line["agreeing"].as_u64()),
        (Some(4), Some(3))
    );
    assert_eq!(
        line["first_divergence"],
        serde_json::json!({"frame": 3, "a": 1, "b": 2, "matches": ["normal-reversed"]})
    );
    assert_eq!(
        line["frames"][3]["claims"][0]["matches"],
        serde_json::json!(["normal-reversed"])
    );
    let o = collidoscope(&["diagnose", name]);
    let text = stdout(&o);
    assert!(
        text.contains("4 frames, 4 claims: 3 agree, 1 differs"),
        "{text}"
    );
    assert!(
        text.contains(
            "first divergence: frame 3, t = 0.05 s:\n    ground (id 1) / crate (id 2)\n    claimed: intersecting"
        ),
        "{text}"
    );
    assert!(text.contains("reproduced by normal-reversed"), "{text}");
    assert!(
        text.contains(
            "claims that differ, by pair (1 pair: its frames, and what reproduces its claims):\n    ground (id 1) / crate (id 2): 1 claim, frame 3 (t = 0.05 s): normal-reversed\n"
        ),
        "{text}"
    );
    assert!(
        stderr(&o).contains("line 6: the last line is cut off"),
        "{}",
        stderr(&o)
    );
}

/// A crate 0.1 into the ground for 111 frames, the engine's normal reversed in every frame but
/// frame 108: one mistake repeated is one line, its runs of frames, not a line per frame.
#[test]
fn a_repeated_mistake_is_one_line_with_its_runs_of_frames() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from(
        r#"{"format": "collidoscope-capture", "version": 1, "engine": {"name": "test", "version": "1"}, "precision": "f64", "units": "m", "y_up": true}"#,
    );
    text.push('\n');
    for k in 0..=110 {
        let shapes = if k == 0 {
            r#""shapes": [{"id": 1, "name": "ground", "kind": "polygon", "points": [[-5, -1], [5, -1], [5, 0], [-5, 0]]}, {"id": 2, "name": "crate", "kind": "polygon", "points": [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]], "position": [0, 0.4], "body": "dynamic"}], "#
        } else {
            ""
        };
        let normal = if k == 108 { "[0, 1]" } else { "[0, -1]" };
        text.push_str(&format!(
            "{{\"frame\": {k}, \"time\": {}, {shapes}\"claims\": [{{\"a\": 1, \"b\": 2, \"intersecting\": true, \"depth\": 0.1, \"normal\": {normal}}}]}}\n",
            f64::from(k) / 60.0
        ));
    }
    let path = write(dir.path(), "runs.capture.jsonl", &text);
    let o = collidoscope(&["diagnose", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    let runs: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("claims that differ"))
        .skip(1)
        .take_while(|l| !l.contains("events:"))
        .map(str::trim)
        .collect();
    assert_eq!(
        runs,
        [
            "ground (id 1) / crate (id 2): 110 claims, frames 0-107, 109-110 (t = 0 to 1.833 s): normal-reversed, naive-smallest-overlap",
        ],
        "{text}"
    );
    // The normal turned at frame 108 and back at 109: one run of flips, said once.
    let events: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("events:"))
        .map(str::trim)
        .collect();
    assert_eq!(events[0], "events: 2 normal-flip", "{text}");
    assert!(
        events[1].starts_with("frames 108-109, t = 1.8 s: the contact of ground and crate turned its normal back, from (0, -1) to (0, 1)"),
        "{text}"
    );
}

#[test]
fn a_refused_capture_gives_its_error_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let example = std::fs::read_to_string(EXAMPLE).unwrap();
    // The last line names an id that is not there: the whole capture is refused.
    let broken = example.replace(
        r#"{"frame": 3, "time": 0.05, "shapes": [{"id": 2,"#,
        r#"{"frame": 3, "time": 0.05, "shapes": [{"id": 9,"#,
    );
    let path = write(dir.path(), "broken.capture.jsonl", &broken);
    let name = path.to_str().unwrap();
    let (line, status) = json_line(&["diagnose", "--json", name]);
    assert_eq!(status, Some(1));
    let error = line["error"].as_str().unwrap();
    assert_eq!(line.as_object().unwrap().len(), 2, "{line}");
    assert!(
        error.starts_with(&format!(
            "{name}: line 5: shape 0 (id 9): missing key \"kind\""
        )),
        "{error}"
    );
    assert!(stderr(&collidoscope(&["diagnose", name])).contains(error));
}

#[test]
fn a_shape_set_that_says_f32_is_judged_as_a_capture_is() {
    let dir = tempfile::tempdir().unwrap();
    let set = |precision: &str| {
        format!(
            r#"{{"format": "collidoscope-shapes", "version": 3{precision},
  "shapes": [{{"kind": "polygon", "points": [[-500, -10], [500, -10], [500, 10], [-500, 10]], "position": [500, 0]}},
             {{"kind": "polygon", "points": [[-16, -16], [16, -16], [16, 16], [-16, 16]], "position": [480, 25.99998]}}],
  "claims": [{{"a": 0, "b": 1, "intersecting": true, "depth": 0.0000305, "normal": [0, 1]}}]}}"#
        )
    };
    let f64_path = write(dir.path(), "f64.json", &set(""));
    let f32_path = write(dir.path(), "f32.json", &set(r#", "precision": "f32""#));
    let (line, status) = json_line(&["diagnose", "--json", f64_path.to_str().unwrap()]);
    assert_eq!(
        (line["claims"][0]["agrees"].as_bool(), status),
        (Some(false), Some(1))
    );
    let (line, status) = json_line(&["diagnose", "--json", f32_path.to_str().unwrap()]);
    assert_eq!(
        (line["claims"][0]["agrees"].as_bool(), status),
        (Some(true), Some(0))
    );
    assert_eq!(
        line["claims"][0]["tolerance"].as_f64(),
        Some(1000.0 / 1048576.0)
    );
}

#[test]
fn a_fixture_of_one_frame_pins_its_claimed_pairs_at_the_captures_precision() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("frame3.json");
    let o = collidoscope(&[
        "fixture",
        EXAMPLE,
        "--frame",
        "3",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(fixture["precision"], "f32");
    assert_eq!(fixture["shapes"][1]["name"], "crate");
    assert_eq!(
        fixture["shapes"][1]["angle"].as_f64(),
        Some(0.00015997017771918705)
    );
    assert_eq!(
        fixture["claims"][0]["depth"].as_f64(),
        Some(0.000011086463928222656)
    );
    assert_eq!(
        fixture["expect"][0]["depth"].as_f64(),
        Some(1.1135326188460581e-05)
    );
    let check = collidoscope(&["check", out.to_str().unwrap()]);
    assert!(check.status.success(), "{}", stdout(&check));
    let text = stdout(&collidoscope(&["diagnose", out.to_str().unwrap()]));
    assert!(
        text.contains("agrees at f32, off by 4.89e-8 (tau 9.54e-6)"),
        "{text}"
    );
    // A frame the capture does not have, and a capture without --frame: usage errors.
    let missing = collidoscope(&[
        "fixture",
        EXAMPLE,
        "--frame",
        "9",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing)
            .contains("--frame 9: tests/captures/crate.capture.jsonl has frames 0 to 3"),
        "{}",
        stderr(&missing)
    );
    let unsaid = collidoscope(&["fixture", EXAMPLE, "-o", out.to_str().unwrap()]);
    assert_eq!(unsaid.status.code(), Some(2));
    assert!(stderr(&unsaid).contains("say which frame (--frame N)"));
}

/// The game of examples/rapier_seams.rs as Rapier 0.36 ran it (twelve separate tiles, a crate
/// sent at 7 m/s, a ball off a ramp, a bullet at a thin wall; tests/captures/
/// rapier-seams.capture.jsonl.gz): every one of its 261 claims agrees at f32, and the crate's
/// catch on the seam between tile1 and tile2 at frame 2 is named with its fix. Ten seams more
/// are at corners (docs/format.md, "A seam at a corner"): the crate tipping on tile2's corner
/// at frames 80-84, and the ball bumped on the tiles' shared corners as it rolls back over
/// them (frames 97, 114: up and back at 0.41 and 0.21 rad from the floor's normal).
#[test]
fn a_real_rapier_game_s_catch_on_a_seam_is_named_at_its_frame() {
    let capture = "tests/captures/rapier-seams.capture.jsonl.gz";
    let o = collidoscope(&["diagnose", capture]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    let expected = [
        "  120 frames, 261 claims: 261 agree",
        "  events: 11 seam (4 caught)",
        "  frame 2, t = 0.033 s: crate caught on the seam between tile1 and tile2: the contact's normal (-1, 0.00008) is tile2's left face, which tile1 covers; crate's speed along the floor went from 6.837 to 2.298 m/s.",
        "    fix: make the floor one shape: a chain (Box2D b2CreateChain, Rapier a polyline with internal-edge flags), or merge the tiles' boxes (collidoscope import LEVEL --merge, or Edit > Merge into chains)",
    ];
    for line in expected {
        assert!(
            text.lines().any(|l| l == line),
            "missing {line:?} in\n{text}"
        );
    }
    let (line, _) = json_line(&["diagnose", "--json", capture]);
    let corners: Vec<(u64, String, bool)> = line["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["at"] == "corner")
        .map(|e| {
            (
                e["frame"].as_u64().unwrap(),
                e["corner"].to_string(),
                e["caught"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(corners.len(), 10, "{corners:?}");
    assert!(
        corners.contains(&(97, "[1.0,0.0]".into(), true)),
        "{corners:?}"
    );
    assert!(
        corners.contains(&(114, "[0.0,0.0]".into(), true)),
        "{corners:?}"
    );
}

/// A floor of two tiles, a crate that catches on their seam two frames running, and a bullet
/// through a thin wall with no contact (tests/captures/tiles.capture.jsonl, f64): every claim
/// agrees, and the collisions that went wrong are named, counted, worded with their fixes, and
/// fail the run.
#[test]
fn every_claim_agrees_yet_the_seam_and_the_tunnel_are_named() {
    let capture = "tests/captures/tiles.capture.jsonl";
    let o = collidoscope(&["diagnose", capture]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    let expected = [
        "  3 frames, 2 claims: 2 agree",
        "  every claim agrees with the exact result",
        "  events: 2 seam (2 caught), 1 tunnelled",
        "  frames 0-1, t = 0 s: crate caught on the seam between tile1 and tile2: the contact's normal (-1, 0) is tile2's left face, which tile1 covers; crate's speed along the floor went from 6.5 to 2.16 m/s.",
        "    fix: make the floor one shape: a chain (Box2D b2CreateChain, Rapier a polyline with internal-edge flags), or merge the tiles' boxes (collidoscope import LEVEL --merge, or Edit > Merge into chains)",
        "  frame 0, t = 0 s: bullet tunnelled through wall during the step (touching at 0.45 of it, 0.1 deep at most): no contact was claimed at frame 0.",
    ];
    for line in expected {
        assert!(
            text.lines().any(|l| l == line),
            "missing {line:?} in\n{text}"
        );
    }
    let (json, status) = json_line(&["diagnose", "--json", capture]);
    assert_eq!(status, Some(1));
    let events = json["events"].as_array().unwrap();
    let kinds: Vec<(&str, u64)> = events
        .iter()
        .map(|e| (e["kind"].as_str().unwrap(), e["frame"].as_u64().unwrap()))
        .collect();
    assert_eq!(kinds, vec![("seam", 0), ("tunnelled", 0), ("seam", 1)]);
    assert_eq!(json["first_event"], events[0]);
    let seam = &events[0];
    assert_eq!(
        (
            &seam["shape"],
            &seam["face_of"],
            &seam["covered_by"],
            &seam["caught"]
        ),
        (
            &Value::from(9),
            &Value::from(2),
            &Value::from(1),
            &Value::from(true)
        )
    );
    assert_eq!(seam["normal"], serde_json::json!([-1.0, 0.0]));
    // The contract's example has no events: an empty list and no first one.
    let (json, status) = json_line(&["diagnose", "--json", EXAMPLE]);
    assert_eq!(status, Some(0));
    assert_eq!(json["events"], serde_json::json!([]));
    assert_eq!(json["first_event"], Value::Null);
}

/// With contact recycling on, a contact kept from earlier poses is said as stale first, with its
/// age, and no geometric mistake's fix is offered for it.
#[test]
fn a_recycled_contact_is_stale_first_and_offers_no_geometric_fix() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from(
        r#"{"format": "collidoscope-capture", "version": 1, "engine": {"name": "rapier2d", "version": "0.36.1", "settings": {"contact_recycling": true}}, "precision": "f64", "units": "m", "y_up": true}"#,
    );
    text.push('\n');
    let claim = r#""claims": [{"a": 1, "b": 7, "intersecting": true, "depth": 0.01, "normal": [0, 1], "contacts": [[0.25, -0.005]]}]"#;
    text.push_str(&format!(
        "{{\"frame\": 0, \"time\": 0.0, \"shapes\": [{{\"id\": 1, \"name\": \"ground\", \"kind\": \"polygon\", \"points\": [[-10, -0.5], [10, -0.5], [10, 0.5], [-10, 0.5]], \"position\": [0, -0.5]}}, {{\"id\": 7, \"name\": \"ball\", \"kind\": \"circle\", \"radius\": 0.5, \"position\": [0.25, 0.49], \"body\": \"dynamic\"}}], {claim}}}\n"
    ));
    for (k, y) in [(1, 0.6), (2, 0.7)] {
        text.push_str(&format!(
            "{{\"frame\": {k}, \"time\": {}, \"shapes\": [{{\"id\": 7, \"position\": [0.25, {y}]}}], {claim}}}\n",
            f64::from(k) / 60.0
        ));
    }
    let path = write(dir.path(), "recycled.capture.jsonl", &text);
    let o = collidoscope(&["diagnose", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let after: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.contains("first divergence"))
        .skip(1)
        .take_while(|l| !l.contains("claims that differ"))
        .map(str::trim)
        .collect();
    assert!(
        after[0].starts_with("stale (1 frame old): the engine did not recompute this contact"),
        "{out}"
    );
    assert!(
        after.iter().all(|l| !l.starts_with("reproduced by")),
        "{out}"
    );
    assert!(
        after
            .last()
            .unwrap()
            .starts_with("fix: recompute contacts that moved"),
        "{out}"
    );
    assert!(out.contains("events: 2 stale"), "{out}");
}

/// `fixture CAPTURE --event N` writes the event's step as one shape set: the first frame's
/// shapes, each moving one with the velocity that takes it to the next frame, the pair pinned;
/// `toi` on it finds the bullet's hit where the event said (0.45 of the step).
#[test]
fn a_fixture_of_an_event_reproduces_its_step() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("tunnel.json");
    let capture = "tests/captures/tiles.capture.jsonl";
    let o = collidoscope(&[
        "fixture",
        capture,
        "--event",
        "1",
        "-o",
        set.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("event 1: frame 0, t = 0 s: bullet tunnelled through wall"));
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&set).unwrap()).unwrap();
    let bullet = written["shapes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "bullet")
        .unwrap();
    assert_eq!(bullet["velocity"], serde_json::json!([120.0, 0.0]));
    assert_eq!(written["expect"].as_array().unwrap().len(), 1);
    let (toi, status) = json_line(&[
        "toi",
        "--json",
        set.to_str().unwrap(),
        "--horizon",
        "0.0166666666666666",
    ]);
    assert_eq!(status, Some(0));
    let hit = toi["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["a"] == 2 && p["b"] == 3)
        .unwrap_or_else(|| panic!("{toi}"));
    let t = hit["toi"].as_f64().unwrap();
    assert!((t - 0.45 / 60.0).abs() < 1e-9, "{t}");
    // An event the capture does not have is named with how many it has.
    let o = collidoscope(&[
        "fixture",
        capture,
        "--event",
        "7",
        "-o",
        set.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("has 3 events"), "{}", stderr(&o));
}

/// What the engine gave that a capture cannot hold (here a ball at NaN, and so its contact)
/// is read, not refused: `diagnose` counts it, says the first, and fails, in text and JSON.
#[test]
fn malformed_entries_are_said_and_fail_the_diagnosis() {
    let dir = tempfile::tempdir().unwrap();
    let header = std::fs::read_to_string(EXAMPLE).unwrap();
    let header = header.lines().next().unwrap();
    let frame0 = r#"{"frame":0,"time":0,"shapes":[{"id":1,"name":"ground","kind":"polygon","points":[[-10,-0.5],[10,-0.5],[10,0.5],[-10,0.5]],"position":[0,-0.5]}],"claims":[],"malformed":[{"shape":{"id":7,"name":"ball","kind":"circle","radius":0.5,"position":["NaN",0.4],"rotation":[1,0],"body":"dynamic","velocity":[0,-1],"angular_velocity":0},"problem":"\"position\" must be finite numbers"},{"claim":{"a":1,"b":7,"normal":[0,1],"points":[{"point":[0.25,-0.05],"separation":-0.1}]},"problem":"shape 7 is malformed in this frame, so its contacts cannot be judged"}]}"#;
    let frame1 = r#"{"frame":1,"time":0.016,"claims":[]}"#;
    let path = write(
        dir.path(),
        "nan.capture.jsonl",
        &format!("{header}\n{frame0}\n{frame1}\n"),
    );
    let file = path.to_str().unwrap();
    let o = collidoscope(&["diagnose", file]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains(
            "2 malformed in 1 frame (what the engine gave that a capture cannot hold), the first at frame 0, t = 0 s: shape 7 (\"ball\"): \"position\" must be finite numbers"
        ),
        "{}",
        stdout(&o)
    );
    let (line, status) = json_line(&["diagnose", "--json", file]);
    assert_eq!(status, Some(1));
    assert_eq!(line["malformed"].as_u64(), Some(2));
    assert_eq!(line["first_malformed"]["frame"].as_u64(), Some(0));
    assert_eq!(
        line["first_malformed"]["what"],
        serde_json::json!({"kind": "shape", "id": 7})
    );
    assert_eq!(
        line["frames"][0]["malformed"][1]["problem"],
        "shape 7 is malformed in this frame, so its contacts cannot be judged"
    );
    assert_eq!(line["first_divergence"], Value::Null);
}

/// The tile floor recorded with Box2D's contact recycling on
/// (tests/captures/tile-floor-recycling.b2rec, made by `cargo run --example box2d_recording --
/// tests/captures/tile-floor-recycling.b2rec --recycling`): 15 of its 234 claims differ
/// (measured), each a contact Box2D kept and moved instead of recomputing it, and each is named
/// stale; none is left as no known mistake (7 were, the kept contacts no frame's exact result
/// matches).
#[test]
fn a_box2d_recording_with_recycling_on_names_its_recycled_claims_stale() {
    let dir = tempfile::tempdir().unwrap();
    let capture = dir.path().join("recycled.capture.jsonl");
    let o = collidoscope(&[
        "import",
        "tests/captures/tile-floor-recycling.b2rec",
        "-o",
        capture.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (line, _) = json_line(&["diagnose", "--json", capture.to_str().unwrap()]);
    assert_eq!(
        (&line["claims"], &line["agreeing"]),
        (&Value::from(234), &Value::from(219))
    );
    let stale: Vec<(u64, u64, u64)> = line["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "stale")
        .map(|e| {
            let id = |k: &str| e[k].as_u64().unwrap();
            (id("frame"), id("a"), id("b"))
        })
        .collect();
    for frame in line["frames"].as_array().unwrap() {
        for claim in frame["claims"].as_array().unwrap() {
            if claim["agrees"] == true {
                continue;
            }
            let (a, b) = (claim["a"].as_u64().unwrap(), claim["b"].as_u64().unwrap());
            let key = (frame["frame"].as_u64().unwrap(), a.min(b), a.max(b));
            assert!(stale.contains(&key), "{key:?} is not named stale");
        }
    }
    let said = stdout(&collidoscope(&["diagnose", capture.to_str().unwrap()]));
    assert!(!said.contains("no known mistake"), "{said}");
    assert!(
        said.contains(
            "ramp (id 4294967309) / ball (id 4294967311): 13 claims, frames 7-9, 11-12, 14, 16 and 6 more runs (t = 0.117 to 0.467 s): stale, 1 to 3 frames old"
        ),
        "{said}"
    );
    // Those no frame's exact result matches carry the normal Box2D kept.
    let kept = line["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "stale" && e["normal"].is_array())
        .count();
    assert!(kept >= 7, "{kept} kept");
}

/// A Box2D recording made by Box2D itself (examples/box2d_recording.rs: `b2World_StartRecording`
/// and `b2SaveRecordingToFile`), replayed by `import` into a capture: the seam and the tunnel
/// are named as in a capture written by the adapter; a recording in another format, and
/// options or outputs that do not fit a recording, are refused.
#[test]
fn import_replays_a_box2d_recording_into_a_capture() {
    let dir = tempfile::tempdir().unwrap();
    let recording = "tests/captures/tile-floor.b2rec";
    let capture = dir.path().join("game.capture.jsonl.gz");
    let o = collidoscope(&["import", recording, "-o", capture.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("replayed tests/captures/tile-floor.b2rec with Box2D: 150 frames of 0.016667 s, written to"),
        "{}",
        stderr(&o)
    );
    let (line, status) = json_line(&["diagnose", "--json", capture.to_str().unwrap()]);
    // Every claim agrees; the events make the status 1.
    assert_eq!(status, Some(1), "{line}");
    assert_eq!(line["claims"], line["agreeing"]);
    assert_eq!(line["engine"]["name"], "box2d");
    assert_eq!(line["engine"]["settings"]["contact_recycling"], "recording");
    // Every recorded step, from frame 0 (the recording began before the game made its world).
    assert_eq!(line["frames"].as_array().map(Vec::len), Some(150));
    assert_eq!(line["frames"][0]["frame"], 0);
    // Named as the game named its bodies (b2Body_SetName, kept by the recording).
    assert_eq!(line["first_event"]["shape"], line["events"][0]["shape"]);
    let said = stdout(&collidoscope(&["diagnose", capture.to_str().unwrap()]));
    assert!(
        said.contains("crate caught on the seam between tile3 and tile4")
            && said.contains("bullet tunnelled through wall"),
        "{said}"
    );
    let events: Vec<(String, u64)> = line["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap().to_string(),
                e["frame"].as_u64().unwrap(),
            )
        })
        .collect();
    // The crate's catch on tile4's left face at frame 23, then its tipping on that tile's
    // corner (24-26); the bullet; the ball bumped on three corners of the tiles as it rolls
    // back (96-98, 112-114, 130-132): seams at corners (docs/format.md, "A seam at a corner").
    let seam = |frame: u64| ("seam".to_string(), frame);
    let mut expected: Vec<(String, u64)> = [23, 24, 25, 26].map(seam).to_vec();
    expected.push(("tunnelled".to_string(), 91));
    expected.extend([96, 97, 98, 112, 113, 114, 130, 131, 132].map(seam));
    assert_eq!(events, expected);
    let at: Vec<&str> = line["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["at"].as_str())
        .collect();
    assert_eq!(at.iter().filter(|a| **a == "face").count(), 1, "{at:?}");

    let mut other = std::fs::read(recording).unwrap();
    other[6..8].copy_from_slice(&1u16.to_le_bytes());
    let older = dir.path().join("older.b2rec");
    std::fs::write(&older, other).unwrap();
    let o = collidoscope(&[
        "import",
        older.to_str().unwrap(),
        "-o",
        capture.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(
            "older.b2rec: it is in Box2D's recording format 3.1, and this build replays format 3.2"
        ),
        "{}",
        stderr(&o)
    );
    // Found by fuzzing: a damaged recording with records of an opcode no call makes (0x00),
    // refused before Box2D reads it.
    let damaged = dir.path().join("damaged.capture.jsonl");
    let o = collidoscope(&[
        "import",
        "tests/captures/fuzz-empty-polygon.b2rec",
        "-o",
        damaged.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("fuzz-empty-polygon.b2rec: its record at byte 5463 (before the first step) has the opcode 0x00, which no call of Box2D 3.2.0 records: damaged"),
        "{}",
        stderr(&o)
    );
    // A recording whose replay creates a polygon of no corners (the tile floor's first
    // polygon's count set to 0), on which one of Box2D's assertions stops the replay (in its
    // child process): refused with Box2D's words, and nothing half-written is left.
    let mut corners = std::fs::read(recording).unwrap();
    corners[4916 + 4 + 8 + 68 + 140..][..4].copy_from_slice(&0i32.to_le_bytes());
    let no_corners = dir.path().join("no-corners.b2rec");
    std::fs::write(&no_corners, corners).unwrap();
    let o = collidoscope(&[
        "import",
        no_corners.to_str().unwrap(),
        "-o",
        damaged.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("no-corners.b2rec: Box2D stopped while replaying it (Box2D's assertion shape->count > 0 failed (geometry.c, line 432))"),
        "{}",
        stderr(&o)
    );
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("damaged"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let o = collidoscope(&["import", recording, "-o", "game.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("name it NAME.capture.jsonl"),
        "{}",
        stderr(&o)
    );
    let o = collidoscope(&["import", recording, "--merge"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--merge is for a level"),
        "{}",
        stderr(&o)
    );
}

/// `collidoscope ARGS` in the repository's root, stopped (with the replay child it began) if
/// it has not ended within `seconds`: `None` then.
fn collidoscope_within(args: &[&str], seconds: f64) -> Option<std::process::Output> {
    use std::os::unix::process::CommandExt;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let until = std::time::Instant::now() + std::time::Duration::from_secs_f64(seconds);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > until {
            // The whole group: the command and the child replaying for it.
            std::process::Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status()
                .unwrap();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    Some(child.wait_with_output().unwrap())
}

/// The hang of issue 60: the tile floor's recording with step 10's record giving its size as
/// 1 byte and step 20 asking Box2D for 1,240,648,196 sub-steps. `import` replayed it, its
/// child sitting in `b2World_Step` (stopped by hand after 60 s at 100% of a core, its
/// temporary capture left behind); it is refused at once, naming the file, the record and its
/// field, and leaves nothing.
#[test]
fn import_refuses_a_recording_damaged_to_hang_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read("tests/captures/tile-floor.b2rec").unwrap();
    bytes[10736 + 1] = 1;
    bytes[11056 + 12..11056 + 16].copy_from_slice(&1_240_648_196i32.to_le_bytes());
    let recording = dir.path().join("damaged.b2rec");
    std::fs::write(&recording, bytes).unwrap();
    let capture = dir.path().join("damaged.capture.jsonl");
    let started = std::time::Instant::now();
    let o = collidoscope_within(
        &[
            "import",
            recording.to_str().unwrap(),
            "-o",
            capture.to_str().unwrap(),
        ],
        30.0,
    )
    .expect("import ends");
    assert!(started.elapsed().as_secs_f64() < 10.0);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o).trim(),
        format!(
            "{}: its record at byte 10736 (b2World_Step, step 10) gives its size as 1 byte, and \
             Box2D's player reads 12 bytes there: its size field is damaged",
            recording.display()
        )
    );
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["damaged.b2rec"]);
}

/// `fixture --engine` on a capture Rapier wrote takes the Rapier version its header names
/// (tests/captures/rapier-seams.capture.jsonl.gz: rapier2d 0.36.1), saying so; on a capture of
/// another engine it keeps the engine asked and says the capture's.
#[test]
fn fixture_engine_follows_the_rapier_version_of_the_capture() {
    let dir = tempfile::tempdir().unwrap();
    let (json, rs) = (dir.path().join("seam.json"), dir.path().join("seam.rs"));
    let o = collidoscope(&[
        "fixture",
        "tests/captures/rapier-seams.capture.jsonl.gz",
        "--frame",
        "2",
        "-o",
        json.to_str().unwrap(),
        "--rust",
        rs.to_str().unwrap(),
        "--engine",
        "rapier2d-0-34",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("note: the capture was made by rapier2d 0.36.1: the test asks it through collidoscope's feature rapier2d (not rapier2d-0-34)"),
        "{}",
        stderr(&o)
    );
    let test = std::fs::read_to_string(&rs).unwrap();
    assert!(
        test.contains("collidoscope::capture::rapier::RapierNarrowPhase::default()")
            && test.contains(r#"features = ["rapier2d"]"#),
        "{test}"
    );
    let o = collidoscope(&[
        "fixture",
        "tests/captures/crate.capture.jsonl",
        "--frame",
        "1",
        "-o",
        json.to_str().unwrap(),
        "--rust",
        rs.to_str().unwrap(),
        "--engine",
        "avian2d",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("note: the capture was made by box2d 3.2.0, and the test asks avian2d"),
        "{}",
        stderr(&o)
    );
}
