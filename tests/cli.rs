//! The real `collidoscope` binary, run on files in a temporary folder.

#[path = "common/binary.rs"]
mod binary;

use binary::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const TWO_CIRCLES: &str = r#"{"format": "collidoscope-shapes", "version": 1, "shapes": [
  {"name": "a", "kind": "circle", "radius": 1},
  {"name": "b", "kind": "circle", "position": [1.5, 0], "radius": 1}]}"#;

#[test]
fn query_json_prints_one_line_per_file_in_the_documented_form() {
    let o = collidoscope(&[
        "query",
        "--json",
        "shapes/clockwise-obstacle.json",
        "shapes/touching-boxes.json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with(
        r#"{"file":"shapes/clockwise-obstacle.json","pairs":[{"a":0,"b":1,"intersecting":true,"depth":"#
    ));
    let obstacle: Value = serde_json::from_str(lines[0]).unwrap();
    let p = &obstacle["pairs"][0];
    // The keys in the documented order (a JSON value would sort them: read the text).
    let order: Vec<usize> = [
        "\"a\"",
        "\"b\"",
        "\"intersecting\"",
        "\"depth\"",
        "\"normal\"",
        "\"distance\"",
        "\"closest\"",
        "\"contacts\"",
    ]
    .iter()
    .map(|k| lines[0].find(k).unwrap())
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{}", lines[0]);
    assert!((p["depth"].as_f64().unwrap() - 1.0).abs() < 1e-9);
    let n = (
        p["normal"][0].as_f64().unwrap(),
        p["normal"][1].as_f64().unwrap(),
    );
    assert!((n.0 - 1.0 / 5f64.sqrt()).abs() < 1e-9 && (n.1 - 2.0 / 5f64.sqrt()).abs() < 1e-9);
    assert_eq!(p["distance"], 0.0);
    assert!(p["closest"].is_null());
    assert_eq!(p["contacts"].as_array().unwrap().len(), 1);

    let touching: Value = serde_json::from_str(lines[1]).unwrap();
    let p = &touching["pairs"][0];
    assert_eq!(p["intersecting"], false);
    assert_eq!(p["depth"], 0.0);
    assert!(p["normal"].is_null());
    assert_eq!(p["closest"].as_array().unwrap().len(), 2);
    assert_eq!(p["contacts"], Value::Array(vec![]));
}

#[test]
fn query_text_is_a_readable_table() {
    let o = collidoscope(&["query", "shapes/capsule-vs-circle.json"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "shapes/capsule-vs-circle.json: 3 shapes, 3 pairs\n  \
         0 rail / 1 end-ball      intersecting  depth 0.32918      normal (0.894427, 0.447214)  contacts (2.3, 0.15)\n  \
         0 rail / 2 top-ball      apart         distance 0.3                                    closest (-1, 0.5) -> (-1, 0.8)\n  \
         1 end-ball / 2 top-ball  apart         distance 2.736308                               closest (2.118241, 0.433822) -> (-0.518241, 1.166178)\n"
    );
}

#[test]
fn a_refused_file_gives_an_error_line_and_status_1_after_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.json", TWO_CIRCLES);
    let bad = write(
        dir.path(),
        "bad.json",
        r#"{"format": "collidoscope-shapes", "version": 1, "shapes": [{"name": "wall", "kind": "capsule", "a": [0, 0], "b": [1, 0], "radius": -1}]}"#,
    );
    let (good, bad) = (good.to_str().unwrap(), bad.to_str().unwrap());
    let o = collidoscope(&["query", "--json", bad, good]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let message = format!("{bad}: shape 0 \"wall\" (capsule): radius must be > 0, found -1");
    let error: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(error["file"], bad);
    assert_eq!(error["error"], message.as_str());
    assert_eq!(error.as_object().unwrap().len(), 2);
    assert!(lines[1].contains("\"intersecting\":true"));
    assert_eq!(stderr(&o), format!("{message}\n"));
}

#[test]
fn explain_tells_the_test_axis_by_axis() {
    let o = collidoscope(&["explain", "shapes/corner-false-positive.json"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.contains("A = shape 0 block (polygon), B = shape 1 ball (circle)"),
        "{out}"
    );
    let marked: Vec<&str> = out.lines().filter(|l| l.starts_with('>')).collect();
    assert_eq!(marked.len(), 1);
    assert!(
        marked[0].contains("vertex 2 of block toward the centre of ball"),
        "{out}"
    );
    assert!(marked[0].contains("separates: stop"));
    assert!(
        out.contains("Separated: axis 5 (vertex 2 of block toward the centre of ball) shows a gap")
    );
    assert!(
        out.contains("distance 0.065685: closest points (1, 1) on A"),
        "{out}"
    );
}

/// Found by a new user in the motion lab: a crate level with a tile's top, 200 to its right.
/// The first axis (the tile's bottom normal) only touches, which stops a SAT test, but another
/// shows a gap of 200: apart, not "Touching" as it was worded.
#[test]
fn explain_says_apart_when_the_first_axis_only_touches_and_another_shows_a_gap() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("level.json");
    std::fs::write(
        &file,
        r#"{"format": "collidoscope-shapes", "version": 1, "shapes": [
            {"name": "tile", "kind": "polygon", "points": [[-16, -16], [16, -16], [16, 16], [-16, 16]], "position": [16, 16]},
            {"name": "crate", "kind": "polygon", "points": [[-12, -12], [12, -12], [12, 12], [-12, 12]], "position": [244, 44]}]}"#,
    )
    .unwrap();
    let o = collidoscope(&["explain", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(!out.contains("Touching"), "{out}");
    assert!(
        out.contains("Separated: on axis 1 (normal of edge 0 of tile) the shadows only meet, so a SAT test can stop there; axis 2 (normal of edge 1 of tile) shows a gap of 200: tile and crate do not intersect."),
        "{out}"
    );
    // Two boxes whose sides meet: touching still.
    std::fs::write(
        &file,
        r#"{"format": "collidoscope-shapes", "version": 1, "shapes": [
            {"name": "left", "kind": "polygon", "points": [[-1, -1], [1, -1], [1, 1], [-1, 1]]},
            {"name": "right", "kind": "polygon", "points": [[-1, -1], [1, -1], [1, 1], [-1, 1]], "position": [2, 0.5]}]}"#,
    )
    .unwrap();
    let out = stdout(&collidoscope(&["explain", file.to_str().unwrap()]));
    assert!(out.contains("Touching: on axis"), "{out}");
}

#[test]
fn explain_naive_shows_the_tutorial_bug() {
    let o = collidoscope(&["explain", "shapes/clockwise-rectangle-mtv.json", "--naive"]);
    let out = stdout(&o);
    assert!(out.contains("MTV: move B by 0.2 along (0, 1)"), "{out}");
    assert!(
        out.contains("moving crate by 0.2 along (0, -1); that pushes crate deeper into wall"),
        "{out}"
    );
}

#[test]
fn explain_json_is_the_report() {
    let o = collidoscope(&[
        "explain",
        "shapes/every-pair.json",
        "--pair",
        "4",
        "5",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!((v["a"].as_u64(), v["b"].as_u64()), (Some(4), Some(5)));
    assert_eq!(v["report"]["sat"]["verdict"]["kind"], "intersecting");
    assert!(v["report"]["sat"]["axes"].as_array().unwrap().len() >= 5);
}

#[test]
fn explain_defaults_to_the_first_intersecting_pair() {
    let o = collidoscope(&["explain", "shapes/every-pair.json", "--json"]);
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!((v["a"].as_u64(), v["b"].as_u64()), (Some(0), Some(1)));
}

#[test]
fn explain_of_a_pair_that_is_not_there_is_a_usage_error() {
    let o = collidoscope(&[
        "explain",
        "shapes/clockwise-obstacle.json",
        "--pair",
        "0",
        "7",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "shapes/clockwise-obstacle.json: --pair 0 7: give two different shape indices below 2\n"
    );
}

#[test]
fn check_says_ok_or_why_not() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.json", TWO_CIRCLES);
    let bad = write(dir.path(), "bad.json", "{");
    let o = collidoscope(&["check", good.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        format!(
            "{}: OK (2 shapes)\n{}: line 1, column 1: EOF while parsing an object\n",
            good.display(),
            bad.display()
        )
    );
    let o = collidoscope(&["check", "shapes/clockwise-obstacle.json"]);
    assert_eq!(o.status.code(), Some(0));
    // A lesson is checked as presenting reads it: every slide and every file it names.
    let o = collidoscope(&["check", "lessons/sat-polygons.json"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "lessons/sat-polygons.json: OK (lesson, 6 slides)\n"
    );
    let broken = write(
        dir.path(),
        "broken-lesson.json",
        r#"{"format": "collidoscope-lesson", "version": 1, "title": "t",
            "slides": [{"title": "first", "scene": "nowhere.json"}]}"#,
    );
    let o = collidoscope(&["check", broken.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("slide 1 \"first\""), "{}", stdout(&o));
}

#[test]
fn wrong_usage_exits_with_2() {
    assert_eq!(collidoscope(&["query"]).status.code(), Some(2));
    assert_eq!(
        collidoscope(&["query", "--jsn", "a.json"]).status.code(),
        Some(2)
    );
    assert_eq!(collidoscope(&["explain"]).status.code(), Some(2));
    assert_eq!(
        collidoscope(&["frobnicate", "x", "y"]).status.code(),
        Some(2)
    );
    // --compare needs the capture it compares with.
    let compare = collidoscope(&["--compare", "b.capture.jsonl"]);
    assert_eq!(compare.status.code(), Some(2));
    let said = String::from_utf8_lossy(&compare.stderr);
    assert!(said.contains("<FILE>"), "{said}");
}

#[test]
fn every_command_has_help_with_an_example() {
    for command in [
        &["--help"][..],
        &["query", "--help"],
        &["explain", "--help"],
        &["check", "--help"],
        &["render", "--help"],
        &["simulate", "--help"],
        &["replay", "--help"],
    ] {
        let o = collidoscope(command);
        assert_eq!(o.status.code(), Some(0));
        let out = stdout(&o);
        assert!(
            out.contains("Examples:") && out.contains("collidoscope "),
            "{command:?}: {out}"
        );
    }
}

/// The help names what each command takes and prints, from the lists the code itself uses: a
/// new resolver, event or cause cannot go unmentioned.
#[test]
fn help_names_captures_every_resolver_every_event_and_every_cause() {
    use collidoscope::Cause;
    use collidoscope::motion::{EventKind, Resolver};
    let help = |args: &[&str]| stdout(&collidoscope(args));
    let top = help(&["--help"]);
    assert!(top.contains("[FILE]") && top.contains("a capture"), "{top}");
    let diagnose = help(&["diagnose", "--help"]);
    assert!(
        diagnose.contains("[FILES]...  Shape-set files with claims, or captures"),
        "{diagnose}"
    );
    for cause in Cause::ALL {
        assert!(
            diagnose.contains(&format!("  {} ", cause.name())),
            "{cause}"
        );
    }
    let simulate = help(&["simulate", "--help"]);
    for resolver in Resolver::all() {
        assert!(
            simulate.contains(&format!("\n  {} ", resolver.name())),
            "{resolver}: {simulate}"
        );
    }
    for kind in EventKind::ALL {
        assert!(
            simulate.contains(&format!("\n  {} ", kind.name())),
            "{}: {simulate}",
            kind.name()
        );
    }
}

#[test]
fn a_batch_of_500_files_in_one_call() {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["query".to_string(), "--json".to_string()];
    for i in 0..500 {
        let text = TWO_CIRCLES.replace("[1.5, 0]", &format!("[{}, 0]", 1.0 + i as f64 * 0.01));
        let path = write(dir.path(), &format!("f{i:03}.json"), &text);
        args.push(path.to_str().unwrap().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = collidoscope(&args);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 500);
    for (i, line) in lines.iter().enumerate() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert!(
            v["file"]
                .as_str()
                .unwrap()
                .ends_with(&format!("f{i:03}.json"))
        );
        // Centres 1 + 0.01 i apart, radii 1 and 1: depth 1 - 0.01 i up to i = 100, then apart
        // by 0.01 i - 1.
        let p = &v["pairs"][0];
        let expected = 1.0 - 0.01 * i as f64;
        if expected > 1e-9 {
            assert!(
                (p["depth"].as_f64().unwrap() - expected).abs() < 1e-9,
                "{line}"
            );
        } else {
            assert_eq!(p["intersecting"], false, "{line}");
            assert!(
                (p["distance"].as_f64().unwrap() + expected).abs() < 1e-9,
                "{line}"
            );
        }
    }
}

/// `pairs --json`: one line per file, `pairs` as sorted `[i, j]` with i < j, exactly the
/// pairs `query` reports as intersecting; a bad file gives its error line and status 1.
#[test]
fn pairs_json_lists_the_intersecting_pairs_query_finds() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "bad.json", "{\"format\": 3}");
    let o = collidoscope(&[
        "pairs",
        "--json",
        "shapes/every-pair.json",
        bad.to_str().unwrap(),
        "shapes/default-scene.json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    for (line, file) in [
        (lines[0], "shapes/every-pair.json"),
        (lines[2], "shapes/default-scene.json"),
    ] {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["file"], file);
        let pairs: Vec<(u64, u64)> = v["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_u64().unwrap(), p[1].as_u64().unwrap()))
            .collect();
        let q = collidoscope(&["query", "--json", file]);
        let all: Value = serde_json::from_str(stdout(&q).trim()).unwrap();
        let expected: Vec<(u64, u64)> = all["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["intersecting"] == true)
            .map(|p| (p["a"].as_u64().unwrap(), p["b"].as_u64().unwrap()))
            .collect();
        assert!(!expected.is_empty());
        assert_eq!(pairs, expected, "{file}");
        assert!(v["candidates"].as_u64().unwrap() >= pairs.len() as u64);
    }
    let error: Value = serde_json::from_str(lines[1]).unwrap();
    assert!(error["error"].as_str().unwrap().contains("bad.json"));
}

/// `query --intersecting` prints only the intersecting pairs, each with the full record.
#[test]
fn query_intersecting_prints_only_intersecting_pairs() {
    let all = collidoscope(&["query", "--json", "shapes/every-pair.json"]);
    let some = collidoscope(&[
        "query",
        "--json",
        "--intersecting",
        "shapes/every-pair.json",
    ]);
    assert_eq!(some.status.code(), Some(0));
    let all: Value = serde_json::from_str(stdout(&all).trim()).unwrap();
    let some: Value = serde_json::from_str(stdout(&some).trim()).unwrap();
    let expected: Vec<&Value> = all["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["intersecting"] == true)
        .collect();
    let found: Vec<&Value> = some["pairs"].as_array().unwrap().iter().collect();
    assert_eq!(found, expected);
}

/// A bad `--cell` is a usage error, and any good one gives the same pairs.
#[test]
fn pairs_cell_size_changes_the_work_not_the_answer() {
    let o = collidoscope(&["pairs", "--cell", "-1", "shapes/every-pair.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--cell must be a number > 0"));
    let answer = |cell: &str| {
        let o = collidoscope(&["pairs", "--json", "--cell", cell, "shapes/every-pair.json"]);
        let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        v["pairs"].clone()
    };
    assert_eq!(answer("0.01"), answer("100"));
    assert_eq!(answer("0.7"), answer("100"));
}

#[test]
fn diagnose_prints_one_line_per_file_with_the_exact_result_and_the_matching_mistakes() {
    let o = collidoscope(&[
        "diagnose",
        "--json",
        "shapes/claimed-contacts.json",
        "shapes/missing.json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    let claims = lines[0]["claims"].as_array().unwrap();
    assert_eq!(claims.len(), 4);
    let first = &claims[0];
    assert_eq!(first["a"], 0);
    assert_eq!(first["b"], 1);
    assert_eq!(first["agrees"], false);
    assert_eq!(
        first["matches"],
        serde_json::json!(["normal-reversed", "naive-smallest-overlap"])
    );
    // `exact` is the pair exactly as `query --json` prints it.
    let q = collidoscope(&["query", "--json", "shapes/claimed-contacts.json"]);
    let query: Value = serde_json::from_str(stdout(&q).lines().next().unwrap()).unwrap();
    assert_eq!(first["exact"], query["pairs"][0]);
    assert_eq!(claims[3]["agrees"], true);
    assert_eq!(claims[3]["matches"], serde_json::json!([]));
    assert!(lines[1]["error"].as_str().unwrap().contains("cannot read"));

    // Three of its four claims differ: a script or CI run fails, as `check` does on drift.
    let o = collidoscope(&["diagnose", "shapes/claimed-contacts.json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("reproduced by edge-normals-only: "), "{text}");
    assert!(text.contains("agrees"), "{text}");
}

#[test]
fn diagnose_exits_0_only_when_every_claim_agrees() {
    let dir = tempfile::tempdir().unwrap();
    let with_claim = |normal: &str| {
        TWO_CIRCLES.replace(
            r#"{"format": "collidoscope-shapes", "version": 1,"#,
            r#"{"format": "collidoscope-shapes", "version": 2,"#,
        )
        .replace(
            "radius\": 1}]}",
            &format!(
                r#"radius": 1}}], "claims": [{{"a": 0, "b": 1, "intersecting": true, "depth": 0.5, "normal": {normal}}}]}}"#
            ),
        )
    };
    let agrees = write(dir.path(), "agrees.json", &with_claim("[1, 0]"));
    let differs = write(dir.path(), "differs.json", &with_claim("[-1, 0]"));
    for json in [false, true] {
        for (file, status) in [(&agrees, 0), (&differs, 1)] {
            let mut args = vec!["diagnose"];
            if json {
                args.push("--json");
            }
            args.push(file.to_str().unwrap());
            let o = collidoscope(&args);
            assert_eq!(
                o.status.code(),
                Some(status),
                "{}{}",
                stdout(&o),
                stderr(&o)
            );
        }
    }
    // One differing file among agreeing ones fails the whole call.
    let o = collidoscope(&[
        "diagnose",
        agrees.to_str().unwrap(),
        differs.to_str().unwrap(),
        agrees.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).matches(": 1 claim").count(), 3, "{}", stdout(&o));
}

#[test]
fn toi_prints_one_line_per_file_with_every_pair() {
    let o = collidoscope(&["toi", "--json", "shapes/bullet-and-wall.json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let line: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let pairs = line["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 3);
    assert_eq!(pairs[0]["state"], "hit");
    // A hair short of touching (1.7e-15 here: the search aims there).
    assert!((pairs[0]["toi"].as_f64().unwrap() - 0.044).abs() < 1e-13);
    assert_eq!(pairs[0]["normal"], serde_json::json!([-1.0, 0.0]));
    assert_eq!(pairs[1]["state"], "separated");
    assert_eq!(pairs[1]["toi"], Value::Null);
    assert_eq!(pairs[1]["point"], Value::Null);
    // A shorter horizon: the ball has not arrived yet.
    let o = collidoscope(&[
        "toi",
        "--json",
        "shapes/bullet-and-wall.json",
        "--horizon",
        "0.01",
    ]);
    let line: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(line["pairs"][0]["state"], "separated");
    // Overlapped at t = 0.
    let o = collidoscope(&["toi", "--json", "shapes/box-resting-on-floor.json"]);
    let line: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(line["pairs"][0]["state"], "overlapped");
    assert_eq!(line["pairs"][0]["toi"], 0.0);
    // Wrong usage.
    let o = collidoscope(&["toi", "shapes/bullet-and-wall.json", "--horizon", "-1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--horizon must be a number >= 0, found -1"));
}

#[test]
fn raycast_takes_negative_numbers_and_prints_the_hits_in_order() {
    let o = collidoscope(&[
        "raycast",
        "--json",
        "shapes/bullet-and-wall.json",
        "--from",
        "-5.2",
        "0",
        "--to",
        "5",
        "-0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let line: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let hits = line["hits"].as_array().unwrap();
    let shapes: Vec<u64> = hits.iter().map(|h| h["shape"].as_u64().unwrap()).collect();
    assert_eq!(shapes, [1, 0, 2]);
    // The ball holds the start: fraction 0, no normal.
    assert_eq!(hits[0]["fraction"], 0.0);
    assert_eq!(hits[0]["normal"], Value::Null);
    assert_eq!(hits[1]["normal"], serde_json::json!([-1.0, 0.0]));
    let o = collidoscope(&["raycast", "shapes/bullet-and-wall.json", "--from", "0", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let o = collidoscope(&[
        "raycast",
        "--json",
        "shapes/missing.json",
        "--from",
        "0",
        "0",
        "--to",
        "1",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("\"error\""));
}

#[test]
fn simulate_prints_the_documented_line_the_same_every_time_and_records_for_replay() {
    let args = [
        "simulate",
        "--json",
        "shapes/bullet-and-wall.json",
        "--dt",
        "0.1",
        "--steps",
        "20",
    ];
    let o = collidoscope(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let line = stdout(&o);
    assert_eq!(line.lines().count(), 1);
    assert_eq!(stdout(&collidoscope(&args)), line, "byte-identical");
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["file"], "shapes/bullet-and-wall.json");
    assert_eq!(v["steps"], 20);
    let last = v["final"].as_array().unwrap();
    assert_eq!(last.len(), 3, "every shape");
    for (i, f) in last.iter().enumerate() {
        assert_eq!(f["shape"], i);
        for key in ["position", "angle", "velocity"] {
            assert!(!f[key].is_null(), "{key}");
        }
    }
    // 20 steps of 0.1 s at 100 units/s: through the wall.
    assert_eq!(last[1]["position"][0], 195.0);
    let events = v["events"].as_array().unwrap();
    let tunnel = &events[0];
    assert_eq!(
        (&tunnel["step"], &tunnel["kind"], &tunnel["a"], &tunnel["b"]),
        (&1.into(), &"tunnelled".into(), &0.into(), &1.into())
    );

    // With the bound, no tunnelling; recorded and replayed bit for bit.
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("run.rec");
    let rec_arg = rec.to_str().unwrap();
    let o = collidoscope(&[
        "simulate",
        "shapes/bullet-and-wall.json",
        "--dt",
        "0.1",
        "--steps",
        "20",
        "--substeps",
        "bound",
        "--record",
        rec_arg,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("0 tunnelled"), "{}", stdout(&o));
    let o = collidoscope(&["replay", rec_arg]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("identical: 20 steps"), "{}", stdout(&o));
    // A recording that is not one: refused with the file named, exit 1.
    std::fs::write(&rec, "{}\n").unwrap();
    let o = collidoscope(&["replay", rec_arg]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with(rec_arg), "{}", stderr(&o));
}

#[test]
fn simulate_refuses_bad_options_with_a_reason() {
    for (args, says) in [
        (&["--dt", "0", "--steps", "1"][..], "dt must be"),
        (
            &["--dt", "0.1", "--steps", "1", "--resolver", "fast"],
            "unknown resolver `fast`",
        ),
        (
            &["--dt", "0.1", "--steps", "1", "--substeps", "fixed:0"],
            "substeps must be",
        ),
    ] {
        let mut all = vec!["simulate", "shapes/bullet-and-wall.json"];
        all.extend_from_slice(args);
        let o = collidoscope(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
    }
}

/// `fixture FILE --frame N` (or `--event N`) on something that is not a capture says what it
/// is: an empty file, a directory or a missing file cannot be read (status 1), a shape set or
/// another file is not a capture (status 2); only a real shape set is called one.
#[test]
fn fixture_of_a_frame_says_what_the_file_is_when_it_is_not_a_capture() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let out = out.to_str().unwrap();
    let empty = write(dir.path(), "empty.capture.jsonl", "");
    let blank = write(dir.path(), "blank.capture.jsonl", "\n  \n");
    let folder = dir.path().join("frames.capture.jsonl");
    std::fs::create_dir(&folder).unwrap();
    let missing = dir.path().join("missing.capture.jsonl");
    let shapes = write(dir.path(), "two.json", TWO_CIRCLES);
    let lesson = write(
        dir.path(),
        "slides.json",
        r#"{"format": "collidoscope-lesson", "version": 1}"#,
    );
    let text = write(dir.path(), "notes.txt", "frame 3 looked wrong\n");
    for flag in ["--frame", "--event"] {
        for (file, status, says) in [
            (&empty, 1, "is empty (no header, no frame), not a capture"),
            (&blank, 1, "is empty (no header, no frame), not a capture"),
            (&folder, 1, "is a directory, not a capture"),
            (&missing, 1, "does not exist"),
            (&shapes, 2, "is a shape set, not a capture"),
            (
                &lesson,
                2,
                "is a \"collidoscope-lesson\" file, not a capture",
            ),
            (&text, 2, "is not a capture: line 1, column 2"),
        ] {
            let o = collidoscope(&["fixture", file.to_str().unwrap(), flag, "0", "-o", out]);
            let said = stderr(&o);
            assert_eq!(o.status.code(), Some(status), "{flag} {said}");
            let whole = format!("collidoscope fixture: {flag} 0: {}", file.display());
            assert!(said.starts_with(&whole), "{said}");
            assert!(said.contains(says), "{flag} {}: {said}", file.display());
        }
    }
}
