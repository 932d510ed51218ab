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
