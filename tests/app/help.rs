//! A student's first screen: a welcome on first start that says what to drag and where the
//! lessons are, dismissed once and remembered; Help with getting started, the keys and the
//! words (F1 and ? open it); the words MTV, axis, edge and corner explained on hover.

use super::common::*;
use collidoscope::app::HelpPage;
use collidoscope::app::words;

fn first_start(data: &Path) -> App {
    App::new(Options {
        data_dir: Some(data.to_path_buf()),
        ..Default::default()
    })
}

#[test]
fn a_first_start_welcomes_once_and_the_welcome_is_remembered() {
    let data = tempfile::tempdir().unwrap();
    let mut h = harness(first_start(data.path()));
    assert!(h.state().welcome_open());
    h.get_by_label_contains("Drag the shapes");
    h.get_by_label("Close").click();
    h.run();
    assert!(!h.state().welcome_open());
    // The next start remembers.
    let h = harness(first_start(data.path()));
    assert!(!h.state().welcome_open());
    // A file to open is where to begin: no welcome in its way.
    let fresh = tempfile::tempdir().unwrap();
    let h = harness(App::new(Options {
        data_dir: Some(fresh.path().to_path_buf()),
        file: Some(shapes("default-scene.json")),
        ..Default::default()
    }));
    assert!(!h.state().welcome_open());
}

#[test]
fn the_welcome_starts_the_first_lesson() {
    let data = tempfile::tempdir().unwrap();
    let mut h = harness(first_start(data.path()));
    h.get_by_label("Start the first lesson").click();
    h.run_steps(3);
    assert!(!h.state().welcome_open());
    let presenting = h.state().presenting().expect("a lesson is presented");
    assert_eq!(presenting.slide(), 0);
    h.get_by_label_contains("slide 1 of");
}

#[test]
fn f1_and_the_question_mark_open_help_and_help_has_the_keys_and_the_words() {
    let mut h = harness(app(None));
    assert!(!h.state().help_open());
    h.key_press(Key::F1);
    h.run();
    assert!(h.state().help_open());
    h.get_by_label_contains("Drag a shape to move it.");
    // Closed, then ? opens it again.
    h.get_by_label("Close window").click();
    h.run();
    assert!(!h.state().help_open());
    h.key_press(Key::Questionmark);
    h.run();
    assert!(h.state().help_open());
    h.get_by_label("Keys").click();
    h.run();
    for (key, does) in words::CONTROLS {
        h.get_by_label(key);
        h.get_by_label(does);
    }
    h.get_by_label("Words").click();
    h.run();
    for (word, meaning) in words::GLOSSARY {
        // "overlap" is also the axes table's header behind the window.
        assert!(h.get_all_by_label(word).count() >= 1, "{word}");
        h.get_by_label(meaning);
    }
    // The Help menu opens each page.
    h.state_mut().run(Command::Help(HelpPage::Keys));
    h.run();
    h.get_by_label("Ctrl+S");
}

#[test]
fn the_words_are_explained_where_they_appear() {
    let mut h = harness(app(None));
    for (widget, word) in [
        ("axis from", "edge"),
        ("axis from", "corner"),
        ("overlap", "MTV"),
        ("Show naive MTV", "MTV"),
        ("Show axes", "axis"),
    ] {
        h.get_by_label(widget).hover();
        h.run();
        h.get_by_label_contains(&words::glossary(word));
        h.hover_at(egui::pos2(1.0, 790.0));
        h.run();
    }
}
