//! `collidoscope render`: every example scene drawn as SVG and PNG by the real binary, the
//! pictures read back (the SVG parsed by usvg, the PNG decoded), and bad input refused with a
//! message and the documented status, never a panic.
#![cfg(feature = "cli")]

#[path = "common/binary.rs"]
mod binary;
#[path = "common/examples.rs"]
mod examples;

use binary::*;
use collidoscope::picture::{self, Colour, palette};
use collidoscope::query::collide;
use resvg::{tiny_skia, usvg};
use std::path::Path;

/// Width and height from a PNG's header (the IHDR chunk right after the signature).
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG signature");
    assert_eq!(&bytes[12..16], b"IHDR");
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

/// How many pixels of `pixmap` are `colour` (opaque), to a few levels per channel of
/// antialiasing and rounding.
fn count(pixmap: &tiny_skia::Pixmap, colour: Colour) -> usize {
    let near = |a: u8, b: u8| a.abs_diff(b) <= 3;
    pixmap
        .pixels()
        .iter()
        .filter(|p| {
            near(p.red(), colour.r) && near(p.green(), colour.g) && near(p.blue(), colour.b)
        })
        .count()
}

/// Every example renders: the SVG is well-formed SVG, the PNG has the size asked for and
/// shows the pair (A's and B's colours) over the background, and the MTV's red when the
/// pair intersects.
#[test]
fn every_example_renders_as_svg_and_png() {
    let dir = tempfile::tempdir().unwrap();
    for file in examples::examples() {
        let name = file.file_stem().unwrap().to_string_lossy().to_string();
        let file_arg = file.to_str().unwrap();
        let svg_path = dir.path().join(format!("{name}.svg"));
        let o = collidoscope(&["render", file_arg, "-o", svg_path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let text = std::fs::read_to_string(&svg_path).unwrap();
        let tree = usvg::Tree::from_str(&text, &usvg::Options::default())
            .unwrap_or_else(|e| panic!("{name}: not SVG: {e}"));
        assert_eq!((tree.size().width(), tree.size().height()), (960.0, 640.0));

        let png_path = dir.path().join(format!("{name}.png"));
        let o = collidoscope(&[
            "render",
            file_arg,
            "-o",
            png_path.to_str().unwrap(),
            "--size",
            "640",
            "480",
        ]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let bytes = std::fs::read(&png_path).unwrap();
        assert_eq!(png_size(&bytes), (640, 480), "{name}");
        let pixmap = tiny_skia::Pixmap::decode_png(&bytes).unwrap();
        assert!(
            count(&pixmap, palette::BACKGROUND) > 640 * 480 / 4,
            "{name}: the window's background"
        );
        assert!(count(&pixmap, palette::A) > 20, "{name}: shape A's colour");
        assert!(count(&pixmap, palette::B) > 20, "{name}: shape B's colour");
        // The pair the picture explains is the window's: the first intersecting one, else
        // the first two shapes.
        let scene = collidoscope::scene::load(&file).unwrap();
        let hits = collidoscope::broad::intersecting_pairs(&scene, None);
        let (a, b) = picture::default_pair(&scene, &hits).unwrap();
        let intersecting = collide(&scene.shapes[a].placed, &scene.shapes[b].placed).is_some();
        let mtv = count(&pixmap, palette::MTV);
        assert_eq!(mtv > 20, intersecting, "{name}: MTV pixels {mtv}");
    }
}

/// The SVG names the shapes and the MTV, escaping what XML would misread.
#[test]
fn names_are_written_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("names.json");
    std::fs::write(
        &scene,
        r#"{"format": "collidoscope-shapes", "version": 1, "shapes": [
  {"name": "a<b & \"c\"", "kind": "circle", "radius": 1},
  {"name": "d", "kind": "circle", "position": [1.5, 0], "radius": 1}]}"#,
    )
    .unwrap();
    let out = dir.path().join("names.svg");
    let o = collidoscope(&[
        "render",
        scene.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains(">a&lt;b &amp; &quot;c&quot;</text>"),
        "{text}"
    );
    assert!(text.contains(">d</text>"));
    // The unit circles 1.5 apart overlap by 0.5.
    assert!(text.contains(">MTV 0.5</text>"), "{text}");
    usvg::Tree::from_str(&text, &usvg::Options::default()).unwrap();
}

/// `--pair` draws that pair: its shapes in A's and B's colours.
#[test]
fn the_pair_asked_for_is_the_one_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pair.svg");
    let o = collidoscope(&[
        "render",
        "shapes/every-pair.json",
        "--pair",
        "5",
        "4",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    let scene = collidoscope::scene::load(Path::new("shapes/every-pair.json")).unwrap();
    let names = |i: usize| scene.shapes[i].display_name(i);
    assert!(text.contains(&format!(">{}</text>", names(4))), "{text}");
    assert!(text.contains(&format!(">{}</text>", names(5))), "{text}");
    assert!(text.contains("MTV "), "the pair intersects: {text}");
}

/// A chain pair: the pieces in contact with their rule, the chain rule's MTV and the push of
/// the snapped piece taken alone; the pieces' numbers and the ghost points.
#[test]
fn a_chain_pair_draws_its_pieces_with_their_rules() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("seam.svg");
    let o = collidoscope(&[
        "render",
        "shapes/ghost-seam.json",
        "--pair",
        "0",
        "2",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    for label in [
        ">2 snap</text>",
        ">3 admit</text>",
        ">4</text>",
        ">MTV 0.002",
    ] {
        assert!(text.contains(label), "{label} in {text}");
    }
    assert!(text.contains("piece 2 alone 0.0005"), "{text}");
    assert!(
        !text.contains(">1 apart</text>"),
        "pieces apart are not labelled"
    );
}

/// A file that cannot be read is status 1; wrong usage (an output that is neither .svg nor
/// .png, a size out of range, a pair not in the file) is status 2. Each says what is wrong,
/// nothing panics and nothing is written.
#[test]
fn bad_input_is_refused_with_a_message_and_its_status() {
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, r#"{"format": "collidoscope-shapes", "version": 1, "shapes": [{"kind": "circle", "radius": -1}]}"#).unwrap();
    let cases: [(Vec<String>, i32, &str); 7] = [
        (
            vec!["missing.json".into(), "-o".into(), out("a.svg")],
            1,
            "missing.json",
        ),
        (
            vec![broken.to_str().unwrap().into(), "-o".into(), out("b.svg")],
            1,
            "radius must be > 0",
        ),
        (
            vec![
                "shapes/default-scene.json".into(),
                "-o".into(),
                out("c.jpg"),
            ],
            2,
            ".svg or .png",
        ),
        (
            vec![
                "shapes/default-scene.json".into(),
                "-o".into(),
                out("noextension"),
            ],
            2,
            ".svg or .png",
        ),
        (
            ["shapes/default-scene.json", "--pair", "0", "9", "-o"]
                .map(String::from)
                .into_iter()
                .chain([out("d.svg")])
                .collect(),
            2,
            "--pair 0 9",
        ),
        (
            ["shapes/default-scene.json", "--size", "0", "480", "-o"]
                .map(String::from)
                .into_iter()
                .chain([out("e.png")])
                .collect(),
            2,
            "--size 0 480",
        ),
        (
            vec![
                "shapes/default-scene.json".into(),
                "-o".into(),
                out("no-such-folder/f.png"),
            ],
            1,
            "cannot write",
        ),
    ];
    for (args, status, says) in cases {
        let mut all = vec!["render".to_string()];
        all.extend(args);
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        let o = collidoscope(&all);
        let message = stderr(&o);
        assert_eq!(o.status.code(), Some(status), "{all:?}: {message}");
        assert!(message.contains(says), "{all:?}: {message}");
        assert!(!message.contains("panicked"), "{all:?}: {message}");
    }
    // Only the broken file is there: no picture, no temporary file left behind.
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 1, "{left:?}");
    // No output at all is a usage error too.
    let o = collidoscope(&["render", "shapes/default-scene.json"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Rendering over an existing picture replaces it whole, leaving nothing else beside it.
#[test]
fn the_picture_replaces_an_old_one_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("picture.svg");
    std::fs::write(&out, "old").unwrap();
    let o = collidoscope(&[
        "render",
        "shapes/touching-boxes.json",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("<svg"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// The picture is built by the library alone (no window), and its labels stay inside it.
#[test]
fn a_picture_is_plain_data_inside_its_frame() {
    let scene = collidoscope::scene::load(Path::new("shapes/default-scene.json")).unwrap();
    let size = picture::Vec2::new(800.0, 600.0);
    let p = picture::picture(&scene, None, size);
    assert!(!p.marks.is_empty());
    for (label, place) in &p.labels {
        assert!(
            place.min.x >= 0.0
                && place.min.y >= 0.0
                && place.max.x <= 800.0
                && place.max.y <= 600.0,
            "{label:?} at {place:?}"
        );
    }
    let names: Vec<&str> = p.labels.iter().map(|(l, _)| l.text.as_str()).collect();
    for shape in ["obstacle", "ball"] {
        assert!(names.contains(&shape), "{names:?}");
    }
    assert!(names.iter().any(|n| n.starts_with("MTV ")), "{names:?}");
}
