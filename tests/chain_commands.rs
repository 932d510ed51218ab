//! The commands on segments and chains (docs/format.md, "Commands with segments and chains"):
//! the real `collidoscope` binary on the contract's example and on small scenes written here.

#[path = "common/binary.rs"]
mod binary;

use binary::*;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn json_line(args: &[&str]) -> Value {
    let o = collidoscope(args);
    assert!(
        o.status.success() || o.status.code() == Some(1),
        "{}",
        stderr(&o)
    );
    serde_json::from_str(stdout(&o).trim()).unwrap_or_else(|e| panic!("{e}: {}", stdout(&o)))
}

/// The entries of pair (a, b), by piece.
fn entries(line: &Value, a: u64, b: u64) -> Vec<Value> {
    line["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["a"] == a && p["b"] == b)
        .cloned()
        .collect()
}

#[test]
fn toi_gives_every_piece_its_state_and_the_rules_word() {
    // The crate slides right at 2 units/s, already 0.0005 past the seam at x = 2.
    let line = json_line(&["toi", "--json", "shapes/ghost-seam.json"]);
    let crate_on_tiles = entries(&line, 0, 2);
    let summary: Vec<(Value, Value, Value)> = crate_on_tiles
        .iter()
        .map(|p| (p["piece"].clone(), p["state"].clone(), p["rule"].clone()))
        .collect();
    assert_eq!(
        summary,
        [
            // Piece 1 runs from x = 4 to 3: the crate's front face meets its end at x = 3,
            // pushed back along the floor: past the piece's flat head, a snap.
            (json!(1), json!("hit"), json!("snap")),
            (json!(2), json!("overlapped"), json!("snap")),
            (json!(3), json!("overlapped"), json!("admit")),
            (json!(4), json!("separated"), Value::Null),
        ]
    );
    let hit = &crate_on_tiles[0];
    assert_eq!(hit["normal"], json!([-1.0, 0.0]));
    let t = hit["toi"].as_f64().unwrap();
    assert!((t - (3.0 - 2.0005) / 2.0).abs() < 1e-12, "{t}");
    // Two static shapes: every piece separated, rule null; the plank and the crate are an
    // ordinary pair, with no piece or rule.
    assert!(
        entries(&line, 0, 1)
            .iter()
            .all(|p| p["state"] == "separated" && p["rule"].is_null() && p["piece"].is_number())
    );
    let plain = &entries(&line, 1, 2)[0];
    assert!(plain.get("piece").is_none() && plain.get("rule").is_none());
}

#[test]
fn toi_lets_a_shape_behind_the_chain_through_and_names_a_convex_corners_skip() {
    let dir = tempfile::tempdir().unwrap();
    // A hill, front up: flat (3,1) -> (1,1) as piece 1, then a 45-degree slope down to (0,0);
    // the corner at (1,1) is convex. A ball below the floor rises through it; a ball to the
    // left of the slope's top moves right onto the corner.
    let file = write(
        dir.path(),
        "hill.json",
        r#"{"format": "collidoscope-shapes", "version": 3, "shapes": [
  {"name": "hill", "kind": "chain", "points": [[4, 1], [3, 1], [1, 1], [0, 0], [-1, -1]]},
  {"name": "rising", "kind": "circle", "position": [2, -1], "radius": 0.25, "body": "dynamic", "velocity": [0, 4]},
  {"name": "over", "kind": "circle", "position": [0.6, 2], "radius": 0.25, "body": "dynamic", "velocity": [0, -4]}
]}"#,
    );
    let line = json_line(&["toi", "--json", file.to_str().unwrap()]);
    let rising = entries(&line, 0, 1);
    assert_eq!(rising.len(), 2);
    for p in &rising {
        assert_eq!(p["state"], "separated", "{p}");
        assert_eq!(p["rule"], "behind", "{p}");
        assert!(p["toi"].is_null());
    }
    // Falling onto the slope near its top at x = 0.6: the slope admits its own face.
    let over = entries(&line, 0, 2);
    let slope = over.iter().find(|p| p["piece"] == 2).unwrap();
    assert_eq!(slope["state"], "hit", "{slope}");
    assert_eq!(slope["rule"], "admit");
    let n = slope["normal"].as_array().unwrap();
    let s = std::f64::consts::FRAC_1_SQRT_2;
    assert!((n[0].as_f64().unwrap() + s).abs() < 1e-9 && (n[1].as_f64().unwrap() - s).abs() < 1e-9);
    // The flat piece is met at its tail end (1, 1) from the slope's side: the direction
    // points past the convex corner, so the slope reports it and the flat piece skips.
    let flat = over.iter().find(|p| p["piece"] == 1).unwrap();
    assert_eq!(flat["state"], "separated", "{flat}");

    let file = write(
        dir.path(),
        "corner.json",
        r#"{"format": "collidoscope-shapes", "version": 3, "shapes": [
  {"name": "hill", "kind": "chain", "points": [[4, 1], [3, 1], [1, 1], [0, 0], [-1, -1]]},
  {"name": "ball", "kind": "circle", "position": [0, 1.5], "radius": 0.25, "body": "dynamic", "velocity": [2, -1]}
]}"#,
    );
    // Moving straight at the corner (1, 1) along (2, -1), from above the slope: the flat
    // piece, taken alone, is touched at its corner along (-2, 1), past its convex head; the
    // slope's face is met first, and it is the slope that reports the touch.
    let line = json_line(&["toi", "--json", file.to_str().unwrap()]);
    let ball = entries(&line, 0, 1);
    let flat = ball.iter().find(|p| p["piece"] == 1).unwrap();
    assert_eq!(flat["state"], "hit", "{flat}");
    assert_eq!(flat["rule"], "skip", "{flat}");
    let slope = ball.iter().find(|p| p["piece"] == 2).unwrap();
    assert_eq!(slope["state"], "hit", "{slope}");
    assert_eq!(slope["rule"], "admit", "{slope}");
    assert!(slope["toi"].as_f64() < flat["toi"].as_f64());
    let t = flat["toi"].as_f64().unwrap();
    assert!(
        (t - (1.25f64.sqrt() - 0.25) / 5f64.sqrt()).abs() < 1e-9,
        "{t}"
    );
    // The readable table names the piece and the rule.
    let o = collidoscope(&["toi", file.to_str().unwrap()]);
    assert!(stdout(&o).contains("piece 1"), "{}", stdout(&o));
    assert!(stdout(&o).contains("hit (skip)"), "{}", stdout(&o));
}

/// A floor of four pieces (x from 4 down to 0, front up) and the claims an engine could make.
const FLOOR: &str = r#"{"name": "floor", "kind": "chain", "points": [[5, 0], [4, 0], [3, 0], [2, 0], [1, 0], [0, 0], [-1, 0]]}"#;

fn diagnosed(dir: &Path, shapes: &str, claims: &str) -> Vec<Value> {
    let file = write(
        dir,
        "claims.json",
        &format!(
            r#"{{"format": "collidoscope-shapes", "version": 3, "shapes": [{FLOOR}, {shapes}], "claims": [{claims}]}}"#
        ),
    );
    let line = json_line(&["diagnose", "--json", file.to_str().unwrap()]);
    line["claims"].as_array().unwrap().clone()
}

#[test]
fn diagnose_judges_a_claim_on_a_piece_against_that_piece_and_names_internal_edge() {
    // The contract's example: piece 2 alone pushes the crate back along the floor.
    let line = json_line(&["diagnose", "--json", "shapes/ghost-seam.json"]);
    let claim = &line["claims"][0];
    assert_eq!(claim["piece"], 2);
    assert_eq!(claim["agrees"], false);
    assert_eq!(claim["exact"]["piece"], 2);
    assert_eq!(claim["exact"]["rule"], "snap");
    assert_eq!(claim["matches"], json!(["internal-edge"]));
    let o = collidoscope(&["diagnose", "shapes/ghost-seam.json"]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(
        text.contains("tiles (shape 0) / crate (shape 2), piece 2 (snap):"),
        "{text}"
    );
    assert!(text.contains("reproduced by internal-edge"), "{text}");
    assert!(
        text.contains("fix: Make the floor one chain with ghost points"),
        "{text}"
    );

    let dir = tempfile::tempdir().unwrap();
    // A crate 0.002 into piece 3, its front face 0.0005 past the seam at x = 2.
    let crate_ = r#"{"name": "crate", "kind": "polygon", "position": [1.7505, 0.248], "points": [[-0.25, -0.25], [0.25, -0.25], [0.25, 0.25], [-0.25, 0.25]], "body": "dynamic"}"#;
    let claims = diagnosed(
        dir.path(),
        crate_,
        r#"{"a": 0, "b": 1, "piece": 3, "intersecting": true, "depth": 0.002, "normal": [0, 1]},
           {"a": 0, "b": 1, "piece": 2, "intersecting": true, "depth": 0.002, "normal": [0, -1]},
           {"a": 0, "b": 1, "piece": 2, "intersecting": true, "depth": 0.0005, "normal": [-1, 0]},
           {"a": 0, "b": 1, "piece": 4, "intersecting": false}"#,
    );
    let verdicts: Vec<(Value, Value)> = claims
        .iter()
        .map(|c| (c["agrees"].clone(), c["matches"].clone()))
        .collect();
    assert_eq!(
        verdicts,
        [
            (json!(true), json!([])),
            // The chain rule's normal turned round.
            (json!(false), json!(["normal-reversed"])),
            (json!(false), json!(["internal-edge"])),
            (json!(true), json!([])),
        ]
    );
}

#[test]
fn from_behind_the_two_sided_push_is_internal_edge_and_whole_shape_mistakes_do_not_apply() {
    let dir = tempfile::tempdir().unwrap();
    // A ball just under piece 2 (x from 3 to 2), 0.05 into its segment from behind.
    let ball = r#"{"name": "ball", "kind": "circle", "position": [2.5, -0.2], "radius": 0.25, "body": "dynamic"}"#;
    let claims = diagnosed(
        dir.path(),
        ball,
        r#"{"a": 0, "b": 1, "piece": 2, "intersecting": true, "depth": 0.05, "normal": [0, -1]},
           {"a": 0, "b": 1, "piece": 2, "intersecting": false}"#,
    );
    assert_eq!(claims[0]["exact"]["rule"], "behind");
    assert_eq!(claims[0]["agrees"], false);
    assert_eq!(claims[0]["matches"], json!(["internal-edge"]));
    let two_sided = &claims[0]["exact"]["two_sided"];
    assert_eq!(two_sided["intersecting"], true);
    assert_eq!(two_sided["normal"], json!([0.0, -1.0]));
    assert_eq!(claims[1]["agrees"], true, "the chain lets it through");

    // A shallow contact on a piece: called apart by shallow-ignored (and by nothing that
    // judges whole shapes: naive-smallest-overlap's 1e-4 threshold would say the same, but
    // it does not apply to a piece).
    let ball = r#"{"name": "ball", "kind": "circle", "position": [2.5, 0.24995], "radius": 0.25, "body": "dynamic"}"#;
    let claims = diagnosed(
        dir.path(),
        ball,
        r#"{"a": 0, "b": 1, "piece": 2, "intersecting": false}"#,
    );
    assert_eq!(claims[0]["exact"]["rule"], "admit");
    assert_eq!(claims[0]["matches"], json!(["shallow-ignored"]));
}

#[test]
fn claims_on_a_segment_use_the_mistakes_of_a_capsule() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "plank.json",
        r#"{"format": "collidoscope-shapes", "version": 3, "shapes": [
  {"name": "plank", "kind": "segment", "a": [-1, 0], "b": [1, 0]},
  {"name": "ball", "kind": "circle", "position": [0.2, 0.2], "radius": 0.25, "body": "dynamic"}],
  "claims": [{"a": 0, "b": 1, "intersecting": true, "depth": 0.05, "normal": [0, -1]}]}"#,
    );
    let line = json_line(&["diagnose", "--json", file.to_str().unwrap()]);
    let claim = &line["claims"][0];
    assert!(claim.get("piece").is_none());
    assert_eq!(claim["matches"], json!(["normal-reversed"]));
}
