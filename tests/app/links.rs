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
            "not one of the built-in examples (default-scene, ghost-bumps)",
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

/// A harness whose frames run a few at a time: a lesson given at the start keeps the window
/// from settling while it asks to fill the screen.
fn stepped(app: App) -> Harness<'static, App> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_render_cursor(false)
        .build_ui_state(|ui, app: &mut App| app.ui_for_test(ui), app);
    h.run_steps(3);
    h
}

/// The query of a link Copy link made.
fn query_of(link: &str) -> &str {
    &link[link.find('?').expect("a query")..]
}

/// The view `a` and `b` show agree: the same centre and zoom, to rounding (a link carries the
/// width across the view, which the zoom is worked out from again).
fn same_view(a: collidoscope::app::Camera, b: collidoscope::app::Camera) {
    let near = |x: f64, y: f64| (x - y).abs() <= 1e-12 * x.abs().max(y.abs()).max(1.0);
    assert!(
        near(a.centre.x, b.centre.x) && near(a.centre.y, b.centre.y),
        "{:?} / {:?}",
        a.centre,
        b.centre
    );
    assert!(near(a.scale, b.scale), "{} / {}", a.scale, b.scale);
}

#[test]
fn copy_link_carries_the_lab_the_pair_and_the_view() {
    use collidoscope::app::Fit;
    let mut h = harness(app(Some(shapes("every-pair.json"))));
    // Not what the scene opens on: another pair, zoomed on it, then the broad-phase lab.
    h.state_mut().set_pair(7, 2);
    h.state_mut().fit(Fit::Pair);
    h.run_steps(2);
    h.state_mut().set_lab(Lab::Broad);
    h.run_steps(2);
    let opened_on = harness(app(Some(shapes("every-pair.json"))));
    assert_ne!(opened_on.state().camera().scale, h.state().camera().scale);
    h.state_mut().run(Command::CopyLink);
    h.run_steps(2);
    let link = h.state().copied_link().expect("a link copied").to_string();
    assert!(
        link.starts_with("http://127.0.0.1:8000/?scene=")
            && link.contains("&lab=broad&pair=7,2&view="),
        "{link}"
    );
    let (text, _) = said(&h);
    assert!(
        text.starts_with(
            "copied a link to these 12 shapes in the broad lab, with the pair and the view"
        ),
        "{text}"
    );
    let mut shared = linked(query_of(&link));
    shared.run_steps(2);
    let (a, b) = (h.state(), shared.state());
    assert_eq!(b.lab(), Lab::Broad);
    assert_eq!(b.pair(), Some((7, 2)));
    same_view(b.camera(), a.camera());
    assert_eq!(
        collidoscope::scene::to_json(b.scene()),
        collidoscope::scene::to_json(a.scene())
    );
    assert_eq!(b.published().1, a.published().1);
}

#[test]
fn copy_link_in_the_casts_lab_carries_its_ray() {
    let mut h = harness(app(Some(shapes("every-pair.json"))));
    h.state_mut().set_lab(Lab::Casts);
    let ray = (DVec2::new(-7.25, 0.1 + 0.2), DVec2::new(9.5, -1.0 / 3.0));
    h.state_mut().run(Command::Ray(ray.0, ray.1));
    h.run_steps(2);
    h.state_mut().run(Command::CopyLink);
    h.run_steps(2);
    let link = h.state().copied_link().expect("a link copied").to_string();
    assert!(link.contains("&lab=casts&"), "{link}");
    assert!(
        link.ends_with("&ray=-7.25,0.30000000000000004,9.5,-0.3333333333333333"),
        "{link}"
    );
    let mut shared = linked(query_of(&link));
    shared.run_steps(2);
    assert_eq!(shared.state().lab(), Lab::Casts);
    assert_eq!(shared.state().ray(), Some(ray));
    assert_eq!(shared.state().ray_hits().len(), h.state().ray_hits().len());
    same_view(shared.state().camera(), h.state().camera());
}

#[test]
fn copy_link_in_the_capture_lab_says_it_cannot() {
    let mut h = harness(app(None));
    h.state_mut().set_lab(Lab::Capture);
    h.state_mut().run(Command::CopyLink);
    h.run_steps(2);
    assert!(h.state().copied_link().is_none());
    let (text, error) = said(&h);
    assert!(
        error
            && text.starts_with(
                "no link copied: the capture lab shows a capture, a file a link cannot carry"
            ),
        "{text}"
    );
    // And a link cannot ask for it.
    let scene = collidoscope::scene::link::scene_query(&collidoscope::app::default_scene());
    let h = linked(&format!("{scene}&lab=capture"));
    let (text, error) = said(&h);
    assert!(
        error && text.contains("the capture lab cannot be linked"),
        "{text}"
    );
    assert_eq!(h.state().lab(), Lab::Pair);
}

#[test]
fn a_link_that_shows_what_the_scene_has_not_is_refused() {
    let scene = collidoscope::scene::link::scene_query(&collidoscope::app::default_scene());
    for (query, words) in [
        (
            format!("{scene}&pair=0,9"),
            "`pair` is `0,9`, and the scene has 6 shapes (0 to 5)",
        ),
        (
            "?example=ghost-bumps&pair=3,11".into(),
            "`pair` is `3,11`, and the scene has 11 shapes (0 to 10)",
        ),
        (
            format!("{scene}&view=0,0,0"),
            "a view is three finite numbers",
        ),
        (
            "?example=default&lab=grid".into(),
            "not one of the window's labs (pair, broad, casts, motion, latency)",
        ),
    ] {
        let h = linked(&query);
        let (text, error) = said(&h);
        assert!(
            error && text.starts_with("This link could not be opened as it is: "),
            "{text}"
        );
        assert!(text.contains(words), "{query}: {text}");
        assert_eq!(h.state().lab(), Lab::Pair, "{query}");
        assert_eq!(h.state().scene().shapes.len(), 6, "{query}");
    }
    // A good one, with an example: the example's scene in the lab the link names.
    let mut h = linked("?example=ghost-bumps&lab=broad&pair=3,9&view=1,2,40");
    h.run_steps(2);
    assert_eq!(h.state().lab(), Lab::Broad);
    assert_eq!(h.state().pair(), Some((3, 9)));
    let camera = h.state().camera();
    assert_eq!(camera.centre, DVec2::new(1.0, 2.0));
    let width = f64::from(h.state().view_rect().width()) / camera.scale;
    assert!((width - 40.0).abs() < 1e-9, "{width}");
}

#[test]
fn copy_link_while_presenting_carries_the_lesson_and_its_slide() {
    use collidoscope::app::LessonCommand;
    let mut h = linked("?lesson=sat-polygons&slide=2");
    h.run_steps(2);
    // The page's address follows the slide (the browser's; recorded here).
    assert_eq!(h.state().address(), Some("?lesson=sat-polygons&slide=2"));
    h.state_mut().run(Command::Lesson(LessonCommand::Go(3)));
    h.run_steps(2);
    assert_eq!(h.state().address(), Some("?lesson=sat-polygons&slide=4"));
    h.state_mut().run(Command::CopyLink);
    h.run_steps(2);
    let link = h.state().copied_link().expect("a link copied");
    assert_eq!(link, "http://127.0.0.1:8000/?lesson=sat-polygons&slide=4");
    let (text, _) = said(&h);
    assert!(
        text.starts_with("copied a link to slide 4 of the lesson "),
        "{text}"
    );
    // Ended, the address no longer names the lesson.
    h.state_mut().run(Command::Lesson(LessonCommand::End));
    h.run_steps(2);
    assert_eq!(h.state().address(), Some(""));
    // A scene's link is an address the window leaves as it is.
    let scene = collidoscope::scene::link::scene_query(&collidoscope::app::default_scene());
    let mut h = linked(&scene);
    h.run_steps(2);
    assert_eq!(h.state().address(), None);
}

#[test]
fn a_lesson_from_a_file_is_linked_by_its_slide_s_scene() {
    use collidoscope::lesson::LessonSource;
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons/sat-polygons.json");
    let mut h = stepped(App::new(Options {
        lesson: Some(LessonSource::File(file)),
        no_data_dir: true,
        ..Default::default()
    }));
    h.run_steps(2);
    h.state_mut().run(Command::CopyLink);
    h.run_steps(2);
    let link = h.state().copied_link().expect("a link copied").to_string();
    assert!(
        link.contains("?scene=") && link.contains("&lab=pair&pair="),
        "{link}"
    );
    let (text, _) = said(&h);
    assert!(
        text.contains("is read from a file, which a link cannot carry")
            && text.contains("copied a link to this slide's"),
        "{text}"
    );
    let mut shared = linked(query_of(&link));
    shared.run_steps(2);
    assert!(shared.state().presenting().is_none());
    assert_eq!(
        collidoscope::scene::to_json(shared.state().scene()),
        collidoscope::scene::to_json(h.state().scene())
    );
    assert_eq!(shared.state().pair(), h.state().pair());
}

#[test]
fn the_lesson_a_page_carries_opens_at_the_slide_its_address_names() {
    use collidoscope::lesson::{LessonBundle, LessonSource};
    let bundle = LessonBundle::gather(&LessonSource::BuiltIn("sat-polygons".into())).unwrap();
    let carried = |link: &str| {
        let mut h = stepped(App::new(Options {
            lesson: Some(LessonSource::Bundle(Box::new(bundle.clone()))),
            link: Some(link.into()),
            no_data_dir: true,
            ..Default::default()
        }));
        h.run_steps(2);
        h
    };
    let mut h = carried("?slide=3");
    assert_eq!(h.state().presenting().expect("presenting").slide(), 2);
    assert_eq!(h.state().address(), Some("?slide=3"));
    h.state_mut()
        .run(Command::Lesson(collidoscope::app::LessonCommand::Go(4)));
    h.run_steps(2);
    assert_eq!(h.state().address(), Some("?slide=5"));
    h.state_mut().run(Command::CopyLink);
    h.run_steps(2);
    assert_eq!(
        h.state().copied_link(),
        Some("http://127.0.0.1:8000/?slide=5")
    );
    let h = carried("?slide=9");
    let (text, error) = said(&h);
    assert!(
        error && text.contains("slide 9, and the lesson has 6"),
        "{text}"
    );
    // Without a lesson in the page, a slide alone is still refused.
    let h = linked("?slide=2");
    let (text, error) = said(&h);
    assert!(
        error && text.contains("a `slide` but no `lesson`"),
        "{text}"
    );
    assert!(h.state().presenting().is_none());
}

#[test]
fn a_bad_link_s_message_stays_whole_until_dismissed() {
    let mut h = linked("?lesson=sat");
    let (text, _) = said(&h);
    // The bad query leaves the page's address: a reload opens what is shown.
    assert_eq!(h.state().address(), Some(""));
    // Every lesson name is in it, drawn whole (not cut to the bar's one line).
    for b in collidoscope::lesson::BUILT_IN {
        assert!(text.contains(b.name), "{text}");
    }
    h.get_by_label(&text);
    // A drag of the ball changes the scene: the message stays.
    let ball = h.state().scene().shapes[1].placed.pose.position;
    drag(&mut h, ball, ball + DVec2::new(0.5, 0.5));
    assert!(h.state().is_dirty());
    assert_eq!(said(&h).0, text);
    h.get_by_label(&text);
    // Dismissed, it goes.
    h.get_by_label("Dismiss").click();
    h.run_steps(2);
    assert!(h.state().message().is_none_or(|m| m.text != text));
    assert!(h.query_by_label(&text).is_none());
    // Opening something else also takes it away.
    let mut h = linked("?lesson=sat");
    h.state_mut()
        .run(Command::Example(collidoscope::app::Example::GhostBumps));
    h.run_steps(2);
    assert!(h.state().message().is_none_or(|m| m.text != text));
}
