//! Links, as the web app's address and `collidoscope --link` give them to the window: a
//! built-in lesson at a slide, an example, a scene carried whole; a bad link said in a sentence
//! over the default scene; Copy link's link opening the same scene; a file given as bytes (the
//! browser's picker and drops).

use super::common::*;
use collidoscope::app::Lab;

fn linked(query: &str) -> Harness<'static, App> {
    harness(App::new(Options {
        link: Some(query.into()),
        no_data_dir: true,
        ..Default::default()
    }))
}

fn said(h: &Harness<'static, App>) -> (String, bool) {
    let m = h.state().message().expect("a message");
    (m.text.clone(), m.error)
}

#[test]
fn a_lesson_link_opens_presenter_mode_at_its_slide() {
    let h = linked("?lesson=sat-polygons&slide=3");
    let p = h.state().presenting().expect("presenting");
    assert_eq!(p.slide(), 2);
    let (title, _) = h.state().published();
    assert!(title.contains(": slide 3 (presenting)"), "{title}");
    let h = linked("?lesson=mtv-direction");
    assert_eq!(h.state().presenting().expect("presenting").slide(), 0);
}

#[test]
fn an_example_link_opens_it_in_its_lab() {
    let h = linked("?example=ghost-bumps");
    assert_eq!(h.state().lab(), Lab::Motion);
    assert_eq!(h.state().scene().shapes.len(), 11);
    assert!(said(&h).0.starts_with("opened the example Ghost bumps"));
}

#[test]
fn a_bad_link_says_what_is_wrong_over_the_default_scene() {
    let default = collidoscope::scene::to_json(&collidoscope::app::default_scene());
    for (query, words) in [
        ("?lesson=sat", "not a built-in lesson (sat-polygons, "),
        (
            "?lesson=sat-polygons&slide=7",
            "slide 7, and the lesson has 6",
        ),
        (
            "?example=ghost",
            "not one of the window's examples (default-scene, ghost-bumps)",
        ),
        ("?scene=eJzLSM3JyQcABiwCFQ", "the link"),
        ("?zoom=2", "`zoom` is not one"),
        ("?lesson=a&example=b", "more than one thing"),
    ] {
        let h = linked(query);
        let (text, error) = said(&h);
        assert!(error, "{query}: {text}");
        assert!(
            text.starts_with("This link could not be opened as it is: "),
            "{query}: {text}"
        );
        assert!(text.contains(words), "{query}: {text}");
        if !query.contains("sat-polygons") {
            assert!(h.state().presenting().is_none(), "{query}");
            assert_eq!(
                collidoscope::scene::to_json(h.state().scene()),
                default,
                "{query}"
            );
        }
    }
}

#[test]
fn copy_link_opens_the_same_scene_exactly() {
    let mut h = harness(app(Some(shapes("capsule-vs-circle.json"))));
    // A drag first: the link carries the scene as it is now, not as it was opened.
    drag(&mut h, DVec2::new(0.0, 0.0), DVec2::new(0.37, -0.21));
    h.state_mut().run(Command::CopyLink);
    h.run_steps(2);
    let link = h.state().copied_link().expect("a link copied").to_string();
    assert!(link.starts_with("http://127.0.0.1:8000/?scene="), "{link}");
    let (text, _) = said(&h);
    assert!(
        text.starts_with("copied a link to these 3 shapes"),
        "{text}"
    );
    let query = &link[link.find('?').unwrap()..];
    let shared = linked(query);
    assert_eq!(
        collidoscope::scene::to_json(shared.state().scene()),
        collidoscope::scene::to_json(h.state().scene())
    );
    assert_eq!(shared.state().published().1, h.state().published().1);
    // Opened from a link it is a new, unsaved scene with no file.
    assert!(shared.state().path().is_none());
}

#[test]
fn a_file_given_as_bytes_opens_as_its_kind() {
    let mut h = harness(app(None));
    let bytes = std::fs::read(shapes("apart-capsules.json")).unwrap();
    h.state_mut().run(Command::OpenBytes {
        name: "apart-capsules.json".into(),
        bytes,
    });
    h.run_steps(2);
    assert_eq!(h.state().path(), Some(Path::new("apart-capsules.json")));
    assert!(h.state().published().1.starts_with("Separated"));
    // A lesson presents (the files it names cannot come with it, and it says which).
    let lesson =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons/sat-polygons.json"))
            .unwrap();
    h.state_mut().run(Command::OpenBytes {
        name: "sat-polygons.json".into(),
        bytes: lesson,
    });
    h.run_steps(2);
    let (text, error) = said(&h);
    assert!(
        error && text.contains("sat-polygons.json") && text.contains("not among the files carried"),
        "{text}"
    );
    // Broken bytes: the reader's own words, naming the file; nothing changes.
    h.state_mut().run(Command::OpenBytes {
        name: "broken.json".into(),
        bytes: b"{\"format\": \"collidoscope-shapes\", \"version\": 1, \"shapes\": [".to_vec(),
    });
    h.run_steps(2);
    let (text, error) = said(&h);
    assert!(error && text.starts_with("broken.json: line 1"), "{text}");
    assert_eq!(h.state().path(), Some(Path::new("apart-capsules.json")));
    // A packet log goes to the latency lab.
    let log =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("logs/late-dodge.json")).unwrap();
    h.state_mut().run(Command::OpenBytes {
        name: "late-dodge.json".into(),
        bytes: log,
    });
    h.run_steps(2);
    assert_eq!(h.state().lab(), Lab::Latency);
    let (text, error) = said(&h);
    assert!(
        !error && text.starts_with("opened late-dodge.json: ") && text.ends_with(" packets"),
        "{text}"
    );
    // A recording (what Save run downloads) goes to the motion lab.
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("bullet.rec");
    let made = std::process::Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(["simulate"])
        .arg(shapes("bullet-and-wall.json"))
        .args(["--dt", "0.01", "--steps", "30", "--record"])
        .arg(&rec)
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    h.state_mut().run(Command::OpenBytes {
        name: "bullet.rec".into(),
        bytes: std::fs::read(&rec).unwrap(),
    });
    h.run_steps(2);
    assert_eq!(h.state().lab(), Lab::Motion);
    assert_eq!(said(&h), ("opened bullet.rec".to_string(), false));
    // A capture, plain or gzip, opens in the capture lab, read from memory.
    let capture = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/captures/seam.capture.jsonl"),
    )
    .unwrap();
    let mut packed = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut packed, &capture).unwrap();
    for (name, bytes) in [
        ("seam.capture.jsonl", capture.clone()),
        ("seam.capture.jsonl.gz", packed.finish().unwrap()),
    ] {
        h.state_mut().run(Command::OpenBytes {
            name: name.into(),
            bytes,
        });
        h.run_steps(2);
        assert_eq!(h.state().lab(), Lab::Capture, "{name}");
        let (text, error) = said(&h);
        // Opened, or already judged whole (the scan may finish first).
        let opened = text.starts_with(&format!("opened the capture {name}"))
            || text.starts_with(&format!("judged every claim of {name}: 4 frames"));
        assert!(!error && opened, "{text}");
        assert!(h.state().capture_lab().is_open(), "{name}");
    }
    // The scan of the last ends (its message comes then) before the next file is given.
    for _ in 0..500 {
        if said(&h)
            .0
            .starts_with("judged every claim of seam.capture.jsonl.gz")
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        h.run_steps(1);
    }
    // A damaged gzip stream is named.
    h.state_mut().run(Command::OpenBytes {
        name: "run.capture.jsonl.gz".into(),
        bytes: vec![0x1f, 0x8b, 1, 2, 3],
    });
    h.run_steps(2);
    let (text, error) = said(&h);
    assert!(
        error && text.starts_with("run.capture.jsonl.gz: "),
        "{text}"
    );
    // What only the desktop opens says so.
    h.state_mut().run(Command::OpenBytes {
        name: "world.b2rec".into(),
        bytes: vec![1, 2, 3],
    });
    h.run_steps(2);
    let (text, error) = said(&h);
    assert!(
        error
            && text
                .contains("a Box2D recording (replayed by Box2D itself) opens in the desktop app"),
        "{text}"
    );
}
