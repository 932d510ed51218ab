//! `collidoscope diagnose CAPTURE` in words on long runs (docs/format.md §18.6): a real Rapier
//! 0.36 run with contact recycling on (tests/captures/rapier-recycling.capture.jsonl.gz, made
//! by tests/capture_rapier/long_text.rs: 180 frames, a pyramid of fifteen boxes and three
//! sliders, most of its claims recycled) is said in at most 40 lines, its differing claims
//! grouped by pair with their frames and ages, the recycled ones called stale as the events
//! call them; a capture with no claim says so.

#[path = "common/binary.rs"]
mod binary;

use binary::*;
use serde_json::Value;
use std::collections::BTreeMap;

const RECYCLING: &str = "tests/captures/rapier-recycling.capture.jsonl.gz";

/// The ids a line names, in order: `ground (id 0) / box 0.2 (id 4): ...` gives [0, 4].
/// The whole number that starts right after the first `mark` in `text`.
fn number_after(text: &str, mark: &str) -> u64 {
    let (_, after) = text
        .split_once(mark)
        .unwrap_or_else(|| panic!("no {mark:?} in {text}"));
    after.split(' ').next().unwrap().parse().unwrap()
}

fn ids(line: &str) -> Vec<u64> {
    line.split("(id ")
        .skip(1)
        .map(|rest| rest.split(')').next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn a_long_recycled_run_fits_a_screen_its_pairs_grouped_and_called_stale_as_the_events_do() {
    let o = collidoscope(&["diagnose", RECYCLING]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() <= 40, "{} lines:\n{text}", lines.len());
    assert_eq!(
        lines[1], "  180 frames, 1040 claims: 230 agree, 810 differ",
        "{text}"
    );

    // The events, from the JSON (whose keys are the contract's).
    let json = collidoscope(&["diagnose", "--json", RECYCLING]);
    let line: Value = serde_json::from_str(stdout(&json).trim()).unwrap();
    for key in [
        "file",
        "engine",
        "precision",
        "units",
        "frames",
        "claims",
        "agreeing",
        "first_divergence",
        "events",
        "first_event",
    ] {
        assert!(line.get(key).is_some(), "{key}");
    }
    let mut stale: BTreeMap<(u64, u64), u64> = BTreeMap::new();
    for e in line["events"].as_array().unwrap() {
        if e["kind"] == "stale" {
            let (a, b) = (e["a"].as_u64().unwrap(), e["b"].as_u64().unwrap());
            *stale.entry((a.min(b), a.max(b))).or_default() += 1;
        }
    }
    assert_eq!(
        stale.values().sum::<u64>(),
        810,
        "every differing claim is stale"
    );

    // One line per pair, with its claims, frames and ages; the stale ones said stale, as many
    // as the events say; never "no known mistake" for a claim the events call stale.
    let list: Vec<&str> = lines
        .iter()
        .skip_while(|l| !l.starts_with("  claims that differ, by pair"))
        .skip(1)
        .take_while(|l| l.starts_with("    "))
        .map(|l| l.trim())
        .collect();
    assert!(list.len() > 10, "{text}");
    let mut listed = 0;
    for entry in &list {
        if let Some(rest) = entry.strip_prefix("and ") {
            // The pairs left out, counted: every differing claim is accounted for.
            let claims = number_after(rest, "(");
            listed += claims;
            assert!(
                entry.ends_with("diagnose --json gives every claim"),
                "{entry}"
            );
            continue;
        }
        let pair = ids(entry);
        let key = (pair[0].min(pair[1]), pair[0].max(pair[1]));
        let claims = number_after(entry, ": ");
        listed += claims;
        assert_eq!(stale.get(&key), Some(&claims), "{entry}");
        assert!(entry.contains(" frames old"), "{entry}");
        assert!(entry.contains(": stale, "), "{entry}");
        assert!(!entry.contains("no known mistake"), "{entry}");
    }
    assert_eq!(listed, 810, "{text}");
    assert_eq!(
        list[0],
        "ground (id 0) / box 0.2 (id 4): 30 claims, frames 1-30 (t = 0.017 to 0.5 s): stale, 1 to 30 frames old",
        "{text}"
    );
    assert!(text.contains("  events: 810 stale\n"), "{text}");
}

/// A pair whose claims differ in separate runs of frames, some stale and some reproduced by a
/// mistake, is one line: its runs, how many of each, the ages of the stale ones.
#[test]
fn a_pair_with_stale_and_mistaken_claims_is_one_line_saying_each() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from(
        r#"{"format": "collidoscope-capture", "version": 1, "engine": {"name": "test", "version": "1"}, "precision": "f64", "units": "m", "y_up": true}"#,
    );
    text.push('\n');
    // A ball resting 0.01 into the ground, then rising by 0.1 a frame from frame 3 with its
    // contact kept from frame 2 (stale, 1 and 2 frames old); its normal reversed at frames 7
    // and 8, back at rest.
    let at_rest =
        r#""claims": [{"a": 1, "b": 7, "intersecting": true, "depth": 0.01, "normal": [0, 1]}]"#;
    let reversed =
        r#""claims": [{"a": 1, "b": 7, "intersecting": true, "depth": 0.01, "normal": [0, -1]}]"#;
    for k in 0..10u32 {
        let y = match k {
            3 => 0.59,
            4 => 0.69,
            _ => 0.49,
        };
        let shapes = if k == 0 {
            r#""shapes": [{"id": 1, "name": "ground", "kind": "polygon", "points": [[-10, -0.5], [10, -0.5], [10, 0.5], [-10, 0.5]], "position": [0, -0.5]}, {"id": 7, "name": "ball", "kind": "circle", "radius": 0.5, "position": [0, 0.49], "body": "dynamic"}], "#.to_string()
        } else {
            format!(r#""shapes": [{{"id": 7, "position": [0, {y}]}}], "#)
        };
        let claims = if k == 7 || k == 8 { reversed } else { at_rest };
        text.push_str(&format!(
            "{{\"frame\": {k}, \"time\": {}, {shapes}{claims}}}\n",
            f64::from(k) / 60.0
        ));
    }
    let path = dir.path().join("mixed.capture.jsonl");
    std::fs::write(&path, text).unwrap();
    let o = collidoscope(&["diagnose", path.to_str().unwrap()]);
    let out = stdout(&o);
    let list: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("  claims that differ, by pair"))
        .skip(1)
        .take_while(|l| l.starts_with("    "))
        .map(str::trim)
        .collect();
    assert_eq!(
        list,
        [
            "ground (id 1) / ball (id 7): 4 claims, frames 3-4, 7-8 (t = 0.05 to 0.133 s): 2 stale (1 to 2 frames old); 2 normal-reversed, naive-smallest-overlap"
        ],
        "{out}"
    );
}

/// A capture whose engine reported no contact judged nothing: it says so, not that every claim
/// agrees (and, with nothing wrong, exits 0).
#[test]
fn a_capture_with_no_claim_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from(
        r#"{"format": "collidoscope-capture", "version": 1, "engine": {"name": "test", "version": "1"}, "precision": "f64", "units": "m", "y_up": true}"#,
    );
    text.push('\n');
    text.push_str(r#"{"frame": 0, "time": 0.0, "shapes": [{"id": 1, "name": "ground", "kind": "polygon", "points": [[-10, -0.5], [10, -0.5], [10, 0.5], [-10, 0.5]], "position": [0, -0.5]}, {"id": 7, "name": "ball", "kind": "circle", "radius": 0.5, "position": [0, 3], "body": "dynamic"}]}"#);
    text.push('\n');
    for k in 1..3u32 {
        text.push_str(&format!(
            "{{\"frame\": {k}, \"time\": {}}}\n",
            f64::from(k) / 60.0
        ));
    }
    let path = dir.path().join("quiet.capture.jsonl");
    std::fs::write(&path, text).unwrap();
    let o = collidoscope(&["diagnose", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[1], "  3 frames, no claim", "{out}");
    assert!(
        lines[2].starts_with("  no claim to judge: the engine reported no contact"),
        "{out}"
    );
    assert!(!out.contains("every claim agrees"), "{out}");
}
