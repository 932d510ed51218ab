//! Fixtures: made by `collidoscope fixture`, checked by `collidoscope check` and by
//! `collidoscope::fixture::verify` (the call the generated Rust test makes), with drift reported
//! field by field, and the fixture's claims judged as `diagnose` judges them (a wrong contact
//! fails the generated test). tests/fixtures/ holds fixtures of every example in shapes/, checked here.

#[path = "common/binary.rs"]
mod binary;
#[path = "common/examples.rs"]
mod examples;

use binary::*;
use collidoscope::fixture::{self, FixtureError};
use collidoscope::geometry::DVec2;
use collidoscope::scene;
use examples::{json_files, manifest};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What `fixture::verify` says of a fixture: the number of pairs, or the pairs (list
/// positions) of the claims that disagree.
fn verified(text: &str) -> Result<usize, Vec<(usize, usize)>> {
    match fixture::verify(text) {
        Ok(n) => Ok(n),
        Err(FixtureError::Disagreed(v)) => Err(v.disagreements.iter().map(|d| d.pair).collect()),
        Err(e) => panic!("{e}"),
    }
}

/// What `verify` must say of the fixture at `path` pinning `pairs` pairs: `diagnose` judges
/// its claims, and the disagreeing ones fail the generated test.
fn judged_by_diagnose(path: &Path, pairs: usize) -> Result<usize, Vec<(usize, usize)>> {
    let o = collidoscope(&["diagnose", "--json", path.to_str().unwrap()]);
    let judged: Value = serde_json::from_slice(&o.stdout).unwrap();
    let disagreeing: Vec<(usize, usize)> = judged["claims"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["agrees"] == false)
        .map(|c| {
            (
                c["a"].as_u64().unwrap() as usize,
                c["b"].as_u64().unwrap() as usize,
            )
        })
        .collect();
    if disagreeing.is_empty() {
        Ok(pairs)
    } else {
        Err(disagreeing)
    }
}

#[test]
fn every_example_round_trips_through_a_fixture() {
    let dir = tempfile::tempdir().unwrap();
    let examples = json_files(&manifest().join("shapes"));
    assert!(examples.len() >= 13);
    for example in examples {
        let out = dir.path().join(example.file_name().unwrap());
        let o = collidoscope(&[
            "fixture",
            example.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let original = scene::load(&example).unwrap();
        let made = scene::load(&out).unwrap();
        // The same shapes, motion and claims, bit for bit; plus every pair pinned.
        assert_eq!(made.shapes, original.shapes, "{}", example.display());
        assert_eq!(made.claims, original.claims);
        // Every pair pinned; a pair with a chain once per piece.
        let q = collidoscope(&["query", "--json", example.to_str().unwrap()]);
        let printed: Value = serde_json::from_slice(&q.stdout).unwrap();
        let entries = printed["pairs"].as_array().unwrap().len();
        let n = original.shapes.len();
        if original
            .shapes
            .iter()
            .all(|s| s.placed.shape.as_chain().is_none())
        {
            assert_eq!(entries, n * (n - 1) / 2);
        }
        assert_eq!(made.expect.as_ref().unwrap().len(), entries);
        let fixture_text = std::fs::read_to_string(&out).unwrap();
        assert_eq!(
            verified(&fixture_text),
            judged_by_diagnose(&out, entries),
            "{}",
            example.display()
        );
        // Each pinned result is exactly what `query --json` prints.
        let pinned: Value = serde_json::from_str(&fixture_text).unwrap();
        assert_eq!(printed["pairs"], pinned["expect"], "{}", example.display());
    }
}

#[test]
fn the_fixtures_in_this_repository_still_hold() {
    let files = json_files(&manifest().join("tests/fixtures"));
    assert!(
        files.len() >= 13,
        "tests/fixtures has {} files",
        files.len()
    );
    let mut pairs = 0;
    for file in &files {
        let fixture_text = std::fs::read_to_string(file).unwrap();
        let scene = scene::load(file).unwrap();
        let pinned = fixture::check(&scene).expect("a fixture");
        assert!(pinned.is_ok(), "{}: {:?}", file.display(), pinned.drifts);
        pairs += pinned.pairs;
        // Its claims (what an engine said) as `diagnose` judges them.
        assert_eq!(
            verified(&fixture_text),
            judged_by_diagnose(file, pinned.pairs),
            "{}",
            file.display()
        );
    }
    assert!(pairs >= 100, "only {pairs} pinned pairs");
    let args: Vec<&str> = std::iter::once("check")
        .chain(files.iter().map(|f| f.to_str().unwrap()))
        .collect();
    let o = collidoscope(&args);
    assert!(o.status.success(), "{}", stdout(&o));
    assert_eq!(stdout(&o).lines().count(), files.len());
}

#[test]
fn a_moved_shape_is_reported_field_by_field() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("floor.json");
    let o = collidoscope(&[
        "fixture",
        "shapes/box-resting-on-floor.json",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let mut moved = scene::load(&out).unwrap();
    moved.shapes[1].placed.pose.position += DVec2::new(0.0, 0.05);
    scene::save(&moved, &out).unwrap();

    let o = collidoscope(&["check", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let report = stdout(&o);
    let name = out.display().to_string();
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(
        lines,
        [
            // Exact numbers, so a drift of one bit is visible.
            format!(
                "{name}: pair floor / crate (0 1): depth: expected 0.09999999999999998, found 0.04999999999999993"
            ),
            format!(
                "{name}: pair floor / crate (0 1): contacts: expected [[-0.5,-0.04999999999999999],[1.5,-0.04999999999999999]], found [[-0.5,-0.024999999999999967],[1.5,-0.024999999999999967]]"
            ),
        ],
        "{report}"
    );
    let Err(FixtureError::Drifted(v)) = fixture::verify(&std::fs::read_to_string(&out).unwrap())
    else {
        panic!("drift expected")
    };
    let fields: Vec<&str> = v.drifts.iter().map(|d| d.field).collect();
    assert_eq!(fields, ["depth", "contacts"]);

    // A larger tolerance in the file absorbs it.
    moved.tolerance = Some(0.1);
    scene::save(&moved, &out).unwrap();
    assert!(
        collidoscope(&["check", out.to_str().unwrap()])
            .status
            .success()
    );
}

#[test]
fn chosen_pairs_and_bad_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("two.json");
    let o = collidoscope(&[
        "fixture",
        "shapes/every-pair.json",
        "--pair",
        "4",
        "5",
        "--pair",
        "0",
        "1",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let made = scene::load(&out).unwrap();
    let pairs: Vec<(u32, u32)> = made
        .expect
        .unwrap()
        .iter()
        .map(|e| (e.a.0, e.b.0))
        .collect();
    assert_eq!(pairs, [(4, 5), (0, 1)]);

    for (pair, message) in [
        (
            ["0", "12"],
            "--pair 0 12: shapes/every-pair.json has 12 shapes",
        ),
        (["3", "3"], "--pair 3 3: a pair needs two different shapes"),
    ] {
        let o = collidoscope(&[
            "fixture",
            "shapes/every-pair.json",
            "--pair",
            pair[0],
            pair[1],
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(
            stderr(&o).trim(),
            format!("collidoscope fixture: {message}")
        );
    }
    let o = collidoscope(&[
        "fixture",
        "shapes/missing.json",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with("shapes/missing.json: cannot read the file"));
}

#[test]
fn verify_says_why_a_text_is_not_a_fixture() {
    let plain = std::fs::read_to_string(manifest().join("shapes/touching-boxes.json")).unwrap();
    assert_eq!(fixture::verify(&plain), Err(FixtureError::NotAFixture));
    assert!(matches!(
        fixture::verify("{"),
        Err(FixtureError::Unreadable(_))
    ));
}

/// `cargo test` in the project at `root`, offline, building into target/scratch-fixture (so
/// later runs are quick).
fn cargo_test(root: &Path) -> std::process::Output {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    Command::new(&cargo)
        .args(["test", "--offline", "--quiet", "--manifest-path"])
        .arg(root.join("Cargo.toml"))
        .env(
            "CARGO_TARGET_DIR",
            manifest().join("target/scratch-fixture"),
        )
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs")
}

/// A fresh `cargo new` library in `dir` with collidoscope as a path dev-dependency (no default
/// features) as the generated test's comment says; its root.
fn fresh_project(dir: &Path) -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let o = Command::new(&cargo)
        .args(["new", "--lib", "--vcs", "none", "--offline", "my-game"])
        .current_dir(dir)
        .output()
        .expect("cargo runs");
    assert!(o.status.success(), "{}", stderr(&o));
    let root = dir.join("my-game");
    let mut manifest_text = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    manifest_text += &format!(
        "\n[dev-dependencies]\ncollidoscope = {{ path = {:?}, default-features = false }}\n\n[workspace]\n",
        manifest().display().to_string()
    );
    std::fs::write(root.join("Cargo.toml"), manifest_text).unwrap();
    // The same dependency versions as this repository: nothing to fetch.
    std::fs::copy(manifest().join("Cargo.lock"), root.join("Cargo.lock")).unwrap();
    root
}

/// What a new user does: in a fresh project's folder, `collidoscope fixture -o fix.json --rust
/// fix_test.rs`; the tool says cargo runs tests only from tests/, the user moves the test
/// there (the fixture stays where it was written), `cargo test` passes; a moved shape then
/// fails it with the pair named by its shapes.
#[test]
fn the_generated_rust_test_passes_in_a_fresh_project_and_fails_on_a_moved_shape() {
    let dir = tempfile::tempdir().unwrap();
    let root = fresh_project(dir.path());
    let example = manifest().join("shapes/corner-false-positive.json");
    let o = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(["fixture", example.to_str().unwrap()])
        .args(["-o", "fix.json", "--rust", "fix_test.rs"])
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let said = stdout(&o);
    assert!(
        said.contains(
            r#"wrote fix_test.rs: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/fix.json"))"#
        ),
        "{said}"
    );
    assert!(
        said.contains("note: cargo test runs only the files in ")
            && said.contains("tests: move fix_test.rs there"),
        "{said}"
    );
    let generated = std::fs::read_to_string(root.join("fix_test.rs")).unwrap();
    // The dependency line it suggests is the one this project used (a path, not a version
    // that is not published).
    assert!(
        generated.contains(&format!(
            "collidoscope = {{ path = {:?}, default-features = false }}",
            manifest().display().to_string()
        )),
        "{generated}"
    );
    assert!(!generated.contains("version ="), "{generated}");
    std::fs::create_dir_all(root.join("tests")).unwrap();
    std::fs::rename(root.join("fix_test.rs"), root.join("tests/fix_test.rs")).unwrap();

    let o = cargo_test(&root);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("fixture_fix ... ok") || stdout(&o).contains("1 passed"),
        "{}",
        stdout(&o)
    );

    let fixture_path = root.join("fix.json");
    let mut moved = scene::load(&fixture_path).unwrap();
    moved.shapes[1].placed.pose.position += DVec2::new(-0.2, -0.2);
    scene::save(&moved, &fixture_path).unwrap();
    let o = cargo_test(&root);
    assert!(!o.status.success());
    let out = stdout(&o) + &stderr(&o);
    assert!(
        out.contains("pair block / ball (0 1): intersecting: expected false, found true"),
        "{out}"
    );
}

/// Written straight into a project's tests/ folder, the pair needs no moving and no note; written
/// outside any project, the test reads the fixture beside it, to be moved with it.
#[test]
fn the_test_finds_its_fixture_from_the_project_root_or_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("game");
    // No tests/fixtures yet: the command makes the folders.
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("Cargo.toml"), "[package]\nname = \"game\"\n").unwrap();
    let fixture = root.join("tests/fixtures/corner.json");
    let test = root.join("tests/corner.rs");
    let o = collidoscope(&[
        "fixture",
        "shapes/corner-false-positive.json",
        "-o",
        fixture.to_str().unwrap(),
        "--rust",
        test.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).contains("note:"), "{}", stdout(&o));
    let generated = std::fs::read_to_string(&test).unwrap();
    assert!(
        generated.contains(
            r#"include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/corner.json"))"#
        ),
        "{generated}"
    );

    let loose = dir.path().join("loose");
    std::fs::create_dir_all(&loose).unwrap();
    let o = collidoscope(&[
        "fixture",
        "shapes/corner-false-positive.json",
        "-o",
        loose.join("corner.json").to_str().unwrap(),
        "--rust",
        loose.join("corner_test.rs").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("is in no Cargo project: move it, with the fixture beside it"),
        "{}",
        stdout(&o)
    );
    let generated = std::fs::read_to_string(loose.join("corner_test.rs")).unwrap();
    assert!(
        generated.contains(r#"include_str!("corner.json")"#),
        "{generated}"
    );
}

#[test]
fn a_chain_fixture_pins_every_piece_with_its_rule_and_two_sided_result() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("seam.json");
    let o = collidoscope(&[
        "fixture",
        "shapes/ghost-seam.json",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut moved = scene::load(&out).unwrap();
    // The crate slides 0.001 back: its front face no longer passes the seam at x = 2.
    moved.shapes[2].placed.pose.position.x -= 0.001;
    scene::save(&moved, &out).unwrap();
    let Err(FixtureError::Drifted(v)) = fixture::verify(&std::fs::read_to_string(&out).unwrap())
    else {
        panic!("drift expected")
    };
    let piece_two: Vec<(&str, String)> = v
        .drifts
        .iter()
        .filter(|d| d.pair == (0, 2) && d.piece == Some(2))
        .map(|d| (d.field, d.found.clone()))
        .collect();
    let fields: Vec<&str> = piece_two.iter().map(|(f, _)| *f).collect();
    assert!(fields.contains(&"rule"), "{fields:?}");
    assert!(fields.contains(&"two_sided"), "{fields:?}");
    assert!(
        piece_two.contains(&("rule", "\"apart\"".to_string())),
        "{piece_two:?}"
    );
    let report = stdout(&collidoscope(&["check", out.to_str().unwrap()]));
    assert!(
        report
            .contains("pair tiles / crate (0 2) piece 2: rule: expected \"snap\", found \"apart\""),
        "{report}"
    );
}

/// A fixture's claims are what the engine said: the generated test judges them, so a claim
/// with the engine's normal reversed fails it (naming the mistake), and the same claim with
/// the right normal passes.
#[test]
fn a_fixture_whose_claim_has_its_normal_reversed_fails_verify() {
    let crate_on_floor = scene::load(&manifest().join("shapes/box-resting-on-floor.json")).unwrap();
    let with_claim = |normal: DVec2| {
        let mut scene = crate_on_floor.clone();
        let (a, b) = (scene.shapes[0].id, scene.shapes[1].id);
        scene.claims = vec![scene::Claim::intersecting(a, b, 0.1, normal)];
        scene::to_json(&fixture::make(&scene, None))
    };
    assert_eq!(fixture::verify(&with_claim(DVec2::Y)), Ok(1));
    let Err(e @ FixtureError::Disagreed(_)) = fixture::verify(&with_claim(-DVec2::Y)) else {
        panic!("the reversed normal fails")
    };
    let message = e.to_string();
    assert!(
        message.contains("pair floor / crate (0 1): the fixture's claim disagrees:"),
        "{message}"
    );
    assert!(message.contains("normal by 180 degrees"), "{message}");
    assert!(message.contains("normal-reversed"), "{message}");
}
