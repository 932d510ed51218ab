//! Presenter mode as a teacher uses it: every built-in lesson played through with the keys a
//! presenter's remote sends, at a projector's 1280x720, at 1920x1080 and in a small window;
//! the slide's words never cut or overlapping; the user's own scene kept aside and back as it
//! was; R restoring a slide after a "what if" drag; the projector look.

use super::common::*;
use collidoscope::app::{Lab, LessonCommand};
use collidoscope::lesson::{BUILT_IN, Lesson, LessonSource, SlideLab, stage};

fn presenting(lesson: LessonSource) -> App {
    App::new(Options {
        lesson: Some(lesson),
        no_data_dir: true,
        ..Default::default()
    })
}

fn built_in(name: &str) -> LessonSource {
    LessonSource::BuiltIn(name.into())
}

fn press(h: &mut Harness<'static, App>, key: Key) {
    h.key_press(key);
    h.run_steps(2);
}

/// Where the presentation is: the slide (from 0) and the pair lab's step (from 0), if stepping.
fn place(h: &Harness<'static, App>) -> (usize, Option<usize>) {
    let slide = h.state().presenting().expect("presenting").slide();
    let step = h.state().step().filter(|_| h.state().lab() == Lab::Pair);
    (slide, step)
}

/// Every place of a lesson in order: each slide at each of its steps (one place for a slide
/// without steps).
fn places(lesson: &Lesson) -> Vec<(usize, Option<usize>)> {
    let mut all = Vec::new();
    for (k, slide) in lesson.slides.iter().enumerate() {
        let steps = stage(slide).steps;
        if steps.is_empty() {
            all.push((k, None));
        } else {
            all.extend(steps.iter().map(|s| (k, Some(s - 1))));
        }
    }
    all
}

/// The slide's words: each on screen, inside the window and left of the scene view, none
/// overlapping another.
fn words_fit(h: &Harness<'static, App>, lesson: &Lesson, k: usize, size: (f32, f32)) {
    let slide = &lesson.slides[k];
    let view = h.state().view_rect();
    let mut boxes: Vec<(String, egui::Rect)> = Vec::new();
    for text in std::iter::once(&slide.title).chain(&slide.text) {
        let node = h.get_by_label(text);
        let rect = node.rect();
        assert!(
            rect.min.x >= 0.0 && rect.max.x <= view.min.x + 1.0,
            "{}x{} slide {}: {text:?} at {rect:?} runs into the scene at {view:?}",
            size.0,
            size.1,
            k + 1
        );
        assert!(
            rect.min.y >= 0.0 && rect.max.y <= size.1,
            "{}x{} slide {}: {text:?} at {rect:?} is cut by the window's bottom",
            size.0,
            size.1,
            k + 1
        );
        for (other, r) in &boxes {
            assert!(
                !r.shrink(0.5).intersects(rect.shrink(0.5)),
                "slide {}: {text:?} overlaps {other:?}",
                k + 1
            );
        }
        boxes.push((text.clone(), rect));
    }
}

#[test]
fn every_built_in_lesson_plays_through_with_a_remote_and_back() {
    for size in [(1280.0, 720.0), (1920.0, 1080.0)] {
        for b in BUILT_IN {
            let lesson = b.lesson().unwrap();
            let mut h = harness_at(presenting(built_in(b.name)), size);
            let expected = places(&lesson);
            let mut seen = vec![place(&h)];
            words_fit(&h, &lesson, 0, size);
            // Right, Page Down and Space all go on, as a remote's buttons do.
            let keys = [Key::ArrowRight, Key::PageDown, Key::Space];
            for i in 1..expected.len() {
                press(&mut h, keys[i % 3]);
                let now = place(&h);
                if now.0 != seen.last().unwrap().0 {
                    words_fit(&h, &lesson, now.0, size);
                    let slide = &lesson.slides[now.0];
                    let lab = match slide.lab {
                        SlideLab::Pair => Lab::Pair,
                        SlideLab::Broad { .. } => Lab::Broad,
                        SlideLab::Casts { .. } => Lab::Casts,
                        SlideLab::Motion { .. } => Lab::Motion,
                        SlideLab::Latency { .. } => Lab::Latency,
                    };
                    assert_eq!(h.state().lab(), lab, "{}: slide {}", b.name, now.0 + 1);
                    assert_eq!(h.state().scene().shapes.len(), slide.scene.shapes.len());
                }
                seen.push(now);
            }
            assert_eq!(seen, expected, "{}: forward", b.name);
            // Past the end, nothing moves and the status bar says why.
            press(&mut h, Key::ArrowRight);
            assert_eq!(place(&h), *expected.last().unwrap());
            h.get_by_label_contains("the last slide");
            // Left and Page Up walk every place back, a slide coming back at its last step.
            let mut back = vec![place(&h)];
            for i in 1..expected.len() {
                press(
                    &mut h,
                    if i % 2 == 0 {
                        Key::ArrowLeft
                    } else {
                        Key::PageUp
                    },
                );
                back.push(place(&h));
            }
            back.reverse();
            assert_eq!(back, expected, "{}: back", b.name);
        }
    }
}

/// A remote clicked faster than the frames come: every press is one step.
#[test]
fn presses_faster_than_frames_each_step() {
    let lesson = builtin_lesson("sat-polygons");
    let expected = places(&lesson);
    let mut h = harness_at(presenting(built_in("sat-polygons")), (1280.0, 720.0));
    for _ in 0..5 {
        h.key_press(Key::ArrowRight);
    }
    h.run_steps(2);
    assert_eq!(place(&h), expected[5]);
    for _ in 0..3 {
        h.key_press(Key::PageUp);
    }
    h.run_steps(2);
    assert_eq!(place(&h), expected[2]);
}

#[test]
fn a_small_window_keeps_the_words_whole() {
    for name in ["sat-polygons", "late-packets", "closest-points"] {
        let lesson = builtin_lesson(name);
        let size = (800.0, 600.0);
        let mut h = harness_at(presenting(built_in(name)), size);
        for k in 0..lesson.slides.len() {
            h.state_mut().run(Command::Lesson(LessonCommand::Go(k)));
            h.run_steps(2);
            words_fit(&h, &lesson, k, size);
        }
        // Home and End reach the first and last slide.
        press(&mut h, Key::Home);
        assert_eq!(place(&h).0, 0);
        press(&mut h, Key::End);
        assert_eq!(place(&h).0, lesson.slides.len() - 1);
    }
}

fn builtin_lesson(name: &str) -> Lesson {
    collidoscope::lesson::builtin(name)
        .unwrap()
        .lesson()
        .unwrap()
}

#[test]
fn the_slide_sets_up_its_lab_as_the_lesson_says() {
    // The tunnelling lesson's motion slides stop at their frame; the late-packets lesson's
    // latency slides have their packets arrived; a slide's view is the one it sets.
    for name in [
        "tunnelling",
        "late-packets",
        "grid-broad-phase",
        "mtv-direction",
    ] {
        let lesson = builtin_lesson(name);
        let mut h = harness_at(presenting(built_in(name)), (1280.0, 720.0));
        for (k, slide) in lesson.slides.iter().enumerate() {
            h.state_mut().run(Command::Lesson(LessonCommand::Go(k)));
            h.run_steps(2);
            match &slide.lab {
                SlideLab::Motion { frame, .. } => {
                    assert_eq!(
                        h.state().motion_lab().frame(),
                        u64::from(frame.unwrap_or(0)),
                        "{name} slide {}",
                        k + 1
                    );
                }
                SlideLab::Latency { arrived, log, .. } => {
                    let total = log.as_ref().map_or(0, |l| l.packets.len());
                    assert_eq!(
                        h.state().latency_lab().arrived(),
                        arrived.unwrap_or(total).min(total),
                        "{name} slide {}",
                        k + 1
                    );
                }
                _ => {}
            }
            if let Some(view) = slide.view {
                let camera = h.state().camera();
                let across = f64::from(h.state().view_rect().width()) / camera.scale;
                assert!(
                    (across - view.width).abs() < 1e-9,
                    "{across} vs {}",
                    view.width
                );
                assert_eq!(camera.centre, view.center);
            }
            // The pair is the slide's (or the opening pair the core picks); a latency slide's
            // players are the log's, not the scene's.
            if !matches!(slide.lab, SlideLab::Latency { .. }) {
                assert_eq!(
                    h.state().pair(),
                    stage(slide).pair,
                    "{name} slide {}",
                    k + 1
                );
            }
        }
    }
}

#[test]
fn the_users_scene_is_kept_aside_and_comes_back_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let file = copy_of("clockwise-rectangle-mtv.json", dir.path());
    let mut h = harness_at(app(Some(file.clone())), (1280.0, 720.0));
    // An unsaved edit, a chosen lab and a zoom of the user's own.
    let first = h.state().scene().shapes[0].id;
    h.state_mut()
        .apply_edit(collidoscope::app::Edit::Remove(first));
    h.state_mut().set_lab(Lab::Broad);
    h.run_steps(2);
    let (scene, camera) = (h.state().scene().clone(), h.state().camera());
    assert!(h.state().is_dirty());
    h.state_mut()
        .run(Command::Lesson(LessonCommand::Open(built_in(
            "sat-polygons",
        ))));
    h.run_steps(2);
    assert!(h.state().presenting().is_some());
    assert_eq!(h.state().lab(), Lab::Pair);
    // A "what if" drag in the lesson.
    let box_centre = h.state().scene().shapes[0].placed.centre();
    drag_with(&mut h, box_centre, box_centre + DVec2::new(1.0, 0.5), |h| {
        h.run_steps(1);
    });
    // The projector look for the room, turned on while presenting.
    press(&mut h, Key::L);
    assert!(h.state().options().projector);
    // Closing now asks about the user's unsaved edit, not the lesson's.
    assert!(h.state().title().contains("presenting"));
    press(&mut h, Key::Escape);
    assert!(h.state().presenting().is_none());
    // The user's own look comes back with the rest (dark, as it was before presenting).
    assert!(!h.state().options().projector);
    assert_eq!(h.ctx.theme(), egui::Theme::Dark);
    assert_eq!(h.state().scene(), &scene);
    assert_eq!(h.state().camera(), camera);
    assert_eq!(h.state().lab(), Lab::Broad);
    assert!(h.state().is_dirty());
    assert_eq!(h.state().path(), Some(file.as_path()));
    h.get_by_label_contains("your own scene is back as you left it");
}

#[test]
fn a_drag_asks_what_if_and_r_restores_the_slide() {
    let mut h = harness_at(presenting(built_in("circles-corner-axis")), (1280.0, 720.0));
    let lesson = builtin_lesson("circles-corner-axis");
    press(&mut h, Key::End);
    let k = lesson.slides.len() - 1;
    let slide_scene = lesson.slides[k].scene.clone();
    let at = h.state().scene().shapes[0].placed.centre();
    drag_with(&mut h, at, at + DVec2::new(0.4, 0.3), |h| {
        h.run_steps(1);
    });
    assert_ne!(
        h.state().scene().shapes[0].placed,
        slide_scene.shapes[0].placed
    );
    press(&mut h, Key::R);
    assert_eq!(
        h.state().scene().shapes[0].placed,
        slide_scene.shapes[0].placed
    );
    h.get_by_label_contains("the slide as it opened");
}

#[test]
fn the_projector_look_is_one_switch() {
    let mut h = harness_at(presenting(built_in("sat-polygons")), (1280.0, 720.0));
    assert!(!h.state().options().projector);
    press(&mut h, Key::L);
    assert!(h.state().options().projector);
    assert_eq!(h.ctx.theme(), egui::Theme::Light);
    // Its labels are 24 points: the step sentences and the scene's labels read at 1280x720.
    press(&mut h, Key::L);
    assert!(!h.state().options().projector);
    assert_eq!(h.ctx.theme(), egui::Theme::Dark);
    h.get_by_label("Projector look").click();
    h.run_steps(2);
    assert!(h.state().options().projector);
}

/// Laid out for a 720p projector, the look grows with a larger screen: at 1920x1080 the
/// words, labels and status bar are half as large again; leaving it gives the zoom back.
#[test]
fn the_projector_look_grows_with_the_screen() {
    // What eframe does with a zoom: the same pixels, fewer points (the harness keeps the size
    // it is given).
    fn frames(h: &mut Harness<'static, App>, screen: egui::Vec2) {
        for _ in 0..3 {
            h.set_size(screen / h.ctx.zoom_factor());
            h.run_steps(1);
        }
    }
    for ((w, h), zoom) in [
        ((1280.0, 720.0), 1.0),
        ((1920.0, 1080.0), 1.5),
        ((2560.0, 1440.0), 2.0),
    ] {
        let screen = egui::vec2(w, h);
        let mut harness = harness_at(presenting(built_in("sat-polygons")), (w, h));
        press(&mut harness, Key::L);
        frames(&mut harness, screen);
        assert_eq!(harness.ctx.zoom_factor(), zoom, "at {w}x{h}");
        let next = harness.get_by_role_and_label(Role::Button, "Next").rect();
        assert!(
            next.right() * zoom <= w && next.bottom() * zoom <= h,
            "Next in sight at {w}x{h}: {next:?}"
        );
        press(&mut harness, Key::L);
        frames(&mut harness, screen);
        assert_eq!(harness.ctx.zoom_factor(), 1.0, "the look left at {w}x{h}");
    }
}

#[test]
fn lessons_open_from_a_file_the_menus_and_refuse_clearly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Opening a lesson file (the path field's Open, a dropped file) presents it.
    let mut h = harness_at(app(None), (1280.0, 800.0));
    let scene = h.state().scene().clone();
    h.state_mut()
        .run(Command::Open(root.join("lessons/mtv-direction.json")));
    h.run_steps(2);
    let p = h.state().presenting().expect("presenting");
    assert_eq!(p.lesson().title, builtin_lesson("mtv-direction").title);
    press(&mut h, Key::Escape);
    assert_eq!(h.state().scene(), &scene);
    // Help > Lessons lists every built-in lesson.
    h.get_by_label("Help").click();
    h.run_steps(2);
    h.get_by_label("Lessons").hover();
    h.run_steps(2);
    for b in BUILT_IN {
        h.get_by_label(b.title());
    }
    h.get_by_label(BUILT_IN[1].title()).click();
    h.run_steps(2);
    assert_eq!(
        h.state().presenting().unwrap().lesson().title,
        BUILT_IN[1].title()
    );
    // A broken lesson changes nothing, and says where it is broken.
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.json");
    std::fs::write(
        &broken,
        r#"{"format": "collidoscope-lesson", "version": 1, "title": "t",
            "slides": [{"title": "first", "scene": "nowhere.json"}]}"#,
    )
    .unwrap();
    let before = h.state().presenting().unwrap().slide();
    h.state_mut().run(Command::Open(broken.clone()));
    h.run_steps(2);
    let message = h.state().message().unwrap().clone();
    assert!(message.error);
    assert!(message.text.contains("broken.json"), "{}", message.text);
    assert!(
        message.text.contains("slide 1 \"first\""),
        "{}",
        message.text
    );
    assert_eq!(
        h.state().presenting().unwrap().lesson().title,
        BUILT_IN[1].title()
    );
    assert_eq!(h.state().presenting().unwrap().slide(), before);
}

#[test]
fn replacing_the_document_while_presenting_ends_the_presentation_first() {
    let mut h = harness_at(presenting(built_in("sat-polygons")), (1280.0, 720.0));
    h.state_mut().run(Command::New);
    h.run_steps(2);
    assert!(h.state().presenting().is_none());
    assert!(h.state().scene().shapes.is_empty());
}

#[test]
fn a_casts_slide_casts_its_ray_and_a_motion_slide_stops_at_its_frame() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rays.json");
    std::fs::write(
        &file,
        r#"{"format": "collidoscope-lesson", "version": 1, "title": "Rays",
            "slides": [
              {"title": "A ray through two shapes", "text": ["The first hit is the nearest."],
               "scene": "scene.json", "lab": "casts", "ray": {"from": [-6, 0.5], "to": [6, 0.5]}},
              {"title": "The ball at frame 20", "scene": "scene.json", "lab": "motion",
               "frame": 20, "dt": 0.02}
            ]}"#,
    )
    .unwrap();
    std::fs::copy(
        shapes("bullet-and-wall.json"),
        dir.path().join("scene.json"),
    )
    .unwrap();
    let mut h = harness_at(presenting(LessonSource::File(file)), (1280.0, 720.0));
    assert_eq!(h.state().lab(), Lab::Casts);
    let ray = (DVec2::new(-6.0, 0.5), DVec2::new(6.0, 0.5));
    assert_eq!(h.state().ray(), Some(ray));
    assert!(!h.state().ray_hits().is_empty());
    h.get_by_label("A ray through two shapes");
    press(&mut h, Key::ArrowRight);
    assert_eq!(h.state().lab(), Lab::Motion);
    assert_eq!(h.state().motion_lab().frame(), 20);
    assert_eq!(h.state().motion_lab().settings().dt_s, 0.02);
}

#[test]
fn snapshot_presenter_projector_look() {
    // Slide 2 of the SAT lesson at step 3, on a projector's 1280x720, in the projector look.
    let mut h = harness_at(presenting(built_in("sat-polygons")), (1280.0, 720.0));
    for _ in 0..3 {
        press(&mut h, Key::ArrowRight);
    }
    press(&mut h, Key::L);
    // The status bar's timed message would make the picture depend on timing: let it go.
    h.state_mut().run(Command::Say(collidoscope::app::Message {
        text: String::new(),
        error: false,
    }));
    h.run_steps(2);
    assert_eq!(place(&h), (1, Some(2)));
    h.snapshot("presenter_projector");
}

/// Repairs (issue 61): on a motion slide the page's state (what the pair says, published for
/// the browser) told the run's start, "Separated", while the scene showed the frame with an
/// overlap of 22.8. It says what the frame shown says.
#[test]
fn a_motion_slides_state_says_what_its_frame_shows() {
    use collidoscope::query::{Verdict, pair_report};
    use collidoscope::text::{self, PairNames};
    let lesson = builtin_lesson("mtv-direction");
    let k = 4;
    let shown = stage(&lesson.slides[k]);
    let (a, b) = shown.pair.expect("the slide explains a pair");
    let report = pair_report(&shown.scene.shapes[a].placed, &shown.scene.shapes[b].placed);
    assert!(matches!(report.sat.verdict, Verdict::Intersecting { .. }));
    let mut h = harness_at(presenting(built_in("mtv-direction")), (1280.0, 720.0));
    h.state_mut().run(Command::Lesson(LessonCommand::Go(k)));
    h.run_steps(2);
    assert_eq!(h.state().lab(), Lab::Motion);
    let names = PairNames::in_scene(&shown.scene, a, b);
    let (_, said) = h.state().published();
    assert_eq!(
        said,
        text::step_sentences(&report, &names, None, false).join(" ")
    );
}

/// A latency slide's published state says what its picture shows: the moment, the packets
/// arrived and the collision standing there (late-packets slide 3: the runner inside the post
/// at 50 ms), not the verdict of the document's pair, which the latency lab does not draw.
#[test]
fn a_latency_slides_state_says_the_moment_and_the_collision_it_shows() {
    use collidoscope::text;
    let lesson = builtin_lesson("late-packets");
    let k = 2;
    let shown = stage(&lesson.slides[k]);
    let time = shown.time.expect("a latency slide has its moment");
    let mut h = harness_at(presenting(built_in("late-packets")), (1280.0, 720.0));
    h.state_mut().run(Command::Lesson(LessonCommand::Go(k)));
    h.run_steps(4);
    assert_eq!(h.state().lab(), Lab::Latency);
    let (_, said) = h.state().published();
    assert!(
        said.starts_with(&format!("At {} ms (4 of ", text::ms(time))),
        "{said}"
    );
    assert!(
        said.contains("runner") && said.contains("post") && said.contains("late"),
        "{said}"
    );
}
