//! Files and the document: open, save, new, recovery, the unsaved mark, status messages,
//! fixtures exported, the labs' files beside the document.

use super::common::*;

#[test]
fn a_file_opens_through_the_path_field() {
    let mut h = harness(app(None));
    let path = shapes("triangles-slanted-gap.json");
    type_into_path_field(&mut h, path.to_str().unwrap());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    let app = h.state();
    assert_eq!(app.path(), Some(path.as_path()));
    assert_eq!(app.scene().shapes.len(), 2);
    assert_eq!(app.scene().shapes[0].name.as_deref(), Some("left"));
    assert!(!app.report().unwrap().sat.intersecting());
    assert!(!app.message().unwrap().error);
}

#[test]
fn a_bad_file_shows_its_error_and_keeps_the_scene() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, r#"{"format": "collidoscope-shapes", "version": 1, "shapes": [{"name": "hull", "kind": "polygon", "points": [[0, 0], [4, 0], [4, 4], [2, 1], [0, 4]]}]}"#).unwrap();
    let mut h = harness(app(None));
    let before = h.state().scene().clone();
    type_into_path_field(&mut h, bad.to_str().unwrap());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    let message = h.state().message().unwrap().clone();
    assert!(message.error);
    assert_eq!(
        message.text,
        format!(
            "{}: shape 0 \"hull\" (polygon): not convex at point 3 (turns the other way)",
            bad.display()
        )
    );
    assert_eq!(h.state().scene(), &before);
    h.get_by_label_contains("not convex at point 3");
}

#[test]
fn saving_through_the_path_field_writes_the_file_and_clears_the_unsaved_mark() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("saved.json");
    let mut h = harness(app(Some(shapes("corner-false-positive.json"))));
    let ball = h.state().scene().shapes[1].placed.pose.position;
    drag(&mut h, ball, DVec2::new(2.0, 2.0));
    assert!(h.state().is_dirty());
    // The field holds the opened file's path: select it all, then type over it.
    type_into_field(&mut h, "File:", target.to_str().unwrap());
    h.get_by_label("Save").click();
    h.run();
    assert!(!h.state().is_dirty(), "{:?}", h.state().message());
    let saved = collidoscope::scene::load(&target).unwrap();
    assert_eq!(&saved, h.state().scene());
}

#[test]
fn unsaved_work_is_autosaved_and_offered_back_after_a_crash() {
    let data = tempfile::tempdir().unwrap();
    let options = || Options {
        file: Some(shapes("corner-false-positive.json")),
        data_dir: Some(data.path().to_path_buf()),
        no_data_dir: false,
        ..Default::default()
    };
    let mut h = harness(App::new(options()));
    let ball = h.state().scene().shapes[1].placed.pose.position;
    drag(&mut h, ball, DVec2::new(3.0, 3.0));
    h.state_mut().flush_data_folder();
    let edited = h.state().scene().clone();
    assert!(
        data.path().join("recovery.json").exists(),
        "the edit was autosaved"
    );
    // The process dies here: no clean exit. The next start offers the work back.
    drop(h);
    let mut h = harness(App::new(options()));
    h.get_by_label("Recover unsaved work?");
    h.get_by_label("Recover").click();
    h.run();
    assert_eq!(h.state().scene(), &edited);
    assert!(h.state().is_dirty(), "recovered work is not saved yet");
}

#[test]
fn declining_the_recovery_removes_it() {
    let data = tempfile::tempdir().unwrap();
    std::fs::copy(
        shapes("clockwise-obstacle.json"),
        data.path().join("recovery.json"),
    )
    .unwrap();
    let mut h = harness(App::new(Options {
        data_dir: Some(data.path().to_path_buf()),
        ..Default::default()
    }));
    h.get_by_label("Discard it").click();
    h.run();
    h.state_mut().flush_data_folder();
    assert!(!data.path().join("recovery.json").exists());
    assert_eq!(h.state().scene(), &collidoscope::app::default_scene());
}

#[test]
fn new_asks_before_discarding_unsaved_changes() {
    let mut h = harness(app(Some(shapes("corner-false-positive.json"))));
    let ball = h.state().scene().shapes[1].placed.pose.position;
    drag(&mut h, ball, DVec2::new(3.0, 3.0));
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("New").click();
    h.run();
    h.get_by_label("Discard unsaved changes?");
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(h.state().scene().shapes.len(), 2, "cancel keeps the work");
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("New").click();
    h.run();
    h.get_by_label("Discard changes").click();
    h.run();
    assert!(h.state().scene().shapes.is_empty());
    assert!(!h.state().is_dirty());
}

/// Bug 1: File > New left the old path behind, and Ctrl+S then replaced that file with the
/// new, empty scene without asking.
#[test]
fn save_after_new_never_writes_over_the_previous_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = copy_of("corner-false-positive.json", dir.path());
    let before = std::fs::read(&file).unwrap();
    let mut h = harness(app(Some(file.clone())));
    assert_eq!(h.state().path_field(), file.display().to_string());
    click_menu(&mut h, "File", "New");
    assert!(h.state().scene().shapes.is_empty());
    assert_eq!(h.state().path_field(), "", "a new document has no path");
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "the old file is untouched"
    );
    assert!(h.state().message().unwrap().text.starts_with("not saved"));
}

/// Bug 1: a file that failed to open left its path in the field, and Save then replaced the
/// broken file. Save now writes the open document, or asks before replacing another file.
#[test]
fn save_after_a_failed_open_asks_before_replacing_that_file() {
    let dir = tempfile::tempdir().unwrap();
    let good = copy_of("corner-false-positive.json", dir.path());
    let broken = dir.path().join("broken.json");
    let broken_text = r#"{"format": "collidoscope-shapes", "version": 1, "shapes": [{"kind": "circle", "raduis": 1}]}"#;
    std::fs::write(&broken, broken_text).unwrap();
    let mut h = harness(app(Some(good.clone())));
    type_into_field(&mut h, "File:", broken.to_str().unwrap());
    h.get_by_label("Open").click();
    h.run();
    assert!(h.state().message().unwrap().error);
    assert_eq!(
        h.state().path(),
        Some(good.as_path()),
        "still the good document"
    );
    // Save with the broken file's path in the field: asked, and Cancel keeps the file.
    h.get_by_label("Save").click();
    h.run();
    h.get_by_label("Replace the file?");
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), broken_text);
    // Ctrl+S saves the open document, not the file named in the field.
    let ball = h.state().scene().shapes[1].placed.pose.position;
    drag(&mut h, ball, DVec2::new(3.0, 3.0));
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), broken_text);
    let saved = collidoscope::scene::load(&good).unwrap();
    assert_eq!(&saved, h.state().scene());
    assert!(!h.state().is_dirty());
}

/// Bug 7: undoing back to the saved state still showed `*`.
#[test]
fn undoing_back_to_the_saved_state_is_clean_again() {
    let mut h = harness(app(Some(shapes("corner-false-positive.json"))));
    let ball = h.state().scene().shapes[1].placed.pose.position;
    drag(&mut h, ball, DVec2::new(3.0, 3.0));
    assert!(h.state().is_dirty());
    assert!(h.state().title().starts_with('*'));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(!h.state().is_dirty());
    assert_eq!(
        h.state().title(),
        "corner-false-positive.json - collidoscope"
    );
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert!(h.state().is_dirty());
}

/// Bug 7: after recovery the title and the path field disagreed.
#[test]
fn after_recovery_the_title_and_the_path_field_agree() {
    let data = tempfile::tempdir().unwrap();
    let original = shapes("clockwise-obstacle.json");
    std::fs::copy(&original, data.path().join("recovery.json")).unwrap();
    std::fs::write(
        data.path().join("recovery-path.txt"),
        original.display().to_string(),
    )
    .unwrap();
    let mut h = harness(App::new(Options {
        data_dir: Some(data.path().to_path_buf()),
        ..Default::default()
    }));
    h.get_by_label("Recover").click();
    h.run();
    assert_eq!(h.state().path(), Some(original.as_path()));
    assert_eq!(h.state().path_field(), original.display().to_string());
    assert_eq!(h.state().title(), "*clockwise-obstacle.json - collidoscope");
}

/// Bug 7: status messages went stale ("opened ..." stayed through later edits).
#[test]
fn a_status_message_goes_once_the_scene_changes() {
    let mut h = harness(app(Some(shapes("corner-false-positive.json"))));
    assert!(h.state().message().unwrap().text.starts_with("opened"));
    let ball = h.state().scene().shapes[1].placed.pose.position;
    drag(&mut h, ball, DVec2::new(3.0, 3.0));
    assert_eq!(h.state().message(), None);
}

/// File > Export fixture writes the explained pair's fixture and its Rust test.
#[test]
fn export_fixture_writes_a_fixture_and_its_test() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(app(Some(shapes("box-resting-on-floor.json"))));
    click_menu(&mut h, "File", "Export fixture...");
    let fixture = dir.path().join("floor.json");
    let test = dir.path().join("floor.rs");
    type_into_field(&mut h, "fixture", fixture.to_str().unwrap());
    h.get_by_role_and_label(Role::CheckBox, "Rust test").click();
    h.run();
    type_into_field(&mut h, "Rust test", test.to_str().unwrap());
    h.get_by_label("Export").click();
    h.run();
    let text = std::fs::read_to_string(&fixture)
        .unwrap_or_else(|e| panic!("{e}: {:?}", h.state().message()));
    assert_eq!(collidoscope::fixture::verify(&text), Ok(1));
    let rust =
        std::fs::read_to_string(&test).unwrap_or_else(|e| panic!("{e}: {:?}", h.state().message()));
    assert!(rust.contains("include_str!(\"floor.json\")"), "{rust}");
    let message = h.state().message().unwrap();
    assert!(message.text.starts_with("wrote "), "{message:?}");
}

/// Repairs, 7: the labs propose files beside the open document, never in the folder the
/// program was started from, and follow the document until the user types a path.
#[test]
fn the_labs_save_beside_the_open_document() {
    use collidoscope::app::Lab;
    let dir = tempfile::tempdir().unwrap();
    let file = copy_of("bullet-and-wall.json", dir.path());
    let mut h = harness(app(Some(file.clone())));
    h.get_by_label("Motion lab").click();
    h.run_steps(2);
    let rec = dir.path().join("bullet-and-wall.rec");
    assert_eq!(h.state().motion_lab().path.text, rec.display().to_string());
    h.get_by_label("Save run").click();
    h.run_steps(2);
    assert!(rec.exists(), "saved beside the document");
    h.get_by_label_contains(&format!("saved {}", rec.display()));
    h.state_mut().set_lab(Lab::Latency);
    h.run_steps(2);
    assert_eq!(
        h.state().latency_lab().path.text,
        dir.path()
            .join("bullet-and-wall.log.json")
            .display()
            .to_string()
    );
    // Untitled, with no data folder: nothing is proposed, and saving asks for a path.
    let mut h = harness(app(None));
    h.get_by_label("Motion lab").click();
    h.run_steps(2);
    assert_eq!(h.state().motion_lab().path.text, "");
    h.get_by_label("Save run").click();
    h.run_steps(2);
    h.get_by_label_contains("type a path for the rec file first");
}

/// `collidoscope FILE` takes what File > Open takes: a level is imported (not refused as a
/// shape set), a capture opens in its lab.
#[test]
fn a_level_or_a_capture_named_on_the_command_line_opens_as_file_open_takes_it() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let level = root.join("tests/levels/godot/physics_tests/tests/functional/test_shapes.tscn");
    let h = harness(app(Some(level)));
    assert_eq!(h.state().scene().shapes.len(), 23);
    assert_eq!(h.state().path(), None);
    // A capture is judged on other threads while the window repaints: one frame, not until
    // the window is idle (which a loaded machine may not reach within the harness's steps).
    let capture = root.join("tests/captures/crate.capture.jsonl");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut App| app.ui_for_test(ui), app(Some(capture)));
    h.run_steps(1);
    assert_eq!(h.state().lab(), collidoscope::app::Lab::Capture);
}

#[test]
fn a_godot_level_imports_as_a_new_unsaved_set_with_its_notes_beside_it() {
    let level = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/levels/godot/physics_tests/tests/functional/test_shapes.tscn");
    let mut h = harness(app(None));
    type_into_path_field(&mut h, level.to_str().unwrap());
    h.run();
    h.get_by_label("Import").click();
    h.run();
    let app = h.state();
    // A new, untitled set: the imported level's file is never the document's, and the path
    // field proposes a JSON file beside it (Save never offers to replace the level).
    assert_eq!(app.path(), None);
    assert!(app.is_dirty());
    assert_eq!(
        app.path_field(),
        level.with_extension("json").to_str().unwrap()
    );
    assert_eq!(app.scene().shapes.len(), 23);
    let message = app.message().unwrap();
    assert!(!message.error, "{}", message.text);
    assert!(message.text.contains("23 shapes"), "{}", message.text);
    // The note names the concave polygon split in 7; clicking it selects its first piece.
    h.get_by_label_contains("split into 7 convex pieces")
        .click();
    h.run();
    let name = selected_name(&h);
    assert_eq!(
        name.as_deref(),
        Some("DynamicShapes/RigidBodyConcavePolygon/CollisionPolygon2D#0")
    );
    // A file that is not a level changes nothing.
    type_into_path_field(&mut h, "Cargo.toml");
    h.run();
    h.get_by_label("Import").click();
    h.run();
    assert_eq!(h.state().scene().shapes.len(), 23);
    assert!(h.state().message().unwrap().error);
    // A level refused (hexagonal) leaves its path in the field: Save never writes over it.
    let dir = tempfile::tempdir().unwrap();
    let hex = dir.path().join("hex.tmx");
    let original = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/levels/tiled/pytiled/map_tests/hexagonal/map.tmx"),
    )
    .unwrap();
    std::fs::write(&hex, &original).unwrap();
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/levels/tiled/pytiled/map_tests/hexagonal/tileset.tsx"),
        dir.path().join("tileset.tsx"),
    )
    .unwrap();
    let mut h = harness(super::common::app(None));
    type_into_path_field(&mut h, hex.to_str().unwrap());
    h.run();
    h.get_by_label("Import").click();
    h.run();
    let refused = h.state().message().unwrap().text.clone();
    assert!(refused.contains("a hexagonal map"), "{refused}");
    h.get_by_label("Save").click();
    h.run();
    let message = h.state().message().unwrap();
    assert!(
        message.error && message.text.contains("is a level"),
        "{}",
        message.text
    );
    assert_eq!(std::fs::read(&hex).unwrap(), original);
}

/// Issue 59: the physics platformer's 42 coins, each a trigger, stand under one heading with
/// their count; each row under it still selects its own coin.
#[test]
fn alike_import_notes_stand_under_one_heading_each_row_selecting_its_shape() {
    let level = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/levels/godot/physics_platformer/stage.tscn");
    let mut h = harness(app(None));
    type_into_path_field(&mut h, level.to_str().unwrap());
    h.run();
    h.get_by_label("Import").click();
    h.run();
    let message = h.state().message().unwrap();
    assert!(!message.error, "{}", message.text);
    // The notes that are alone keep their rows: the one-way platform's.
    h.get_by_label_contains("one_way_collision not kept");
    h.get_by_label_contains("42 objects").click();
    h.run();
    h.get_by_label("node \"Coins/Coin2/Collision\" (CollisionShape2D)")
        .click();
    h.run();
    let name = selected_name(&h);
    assert_eq!(name.as_deref(), Some("Coins/Coin2/Collision"));
}

/// Two floors of separate tiles (three and two) and a ball, as a shape set in a fresh folder.
fn two_floors(dir: &Path) -> PathBuf {
    let tile = |x: f64| {
        format!(
            r#"{{"name": "tile {x}", "kind": "polygon", "position": [{x}, -0.5], "points": [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]}}"#
        )
    };
    let shapes: Vec<String> = [0.0, 1.0, 2.0, 10.0, 11.0]
        .into_iter()
        .map(tile)
        .chain([r#"{"name": "ball", "kind": "circle", "position": [1, 1], "radius": 0.5}"#.into()])
        .collect();
    let path = dir.join("floors.json");
    std::fs::write(
        &path,
        format!(
            r#"{{"format": "collidoscope-shapes", "version": 1, "shapes": [{}]}}"#,
            shapes.join(", ")
        ),
    )
    .unwrap();
    path
}

fn names(h: &Harness<'static, App>) -> Vec<String> {
    h.state()
        .scene()
        .shapes
        .iter()
        .map(|s| s.name.clone().unwrap_or_default())
        .collect()
}

/// Edit > Merge into chains turns each floor of tiles into one chain (the fix for seams), as
/// one undo step, and says what it replaced; with a tile selected, only its floor is merged
/// and the selection follows it to the chain.
#[test]
fn merge_into_chains_joins_each_floor_of_tiles_and_undoes_in_one_step() {
    let dir = tempfile::tempdir().unwrap();
    let path = two_floors(dir.path());
    let mut h = harness(app(Some(path)));
    assert_eq!(h.state().scene().shapes.len(), 6);
    click_menu(&mut h, "Edit", "Merge into chains");
    assert_eq!(names(&h), ["merged 1", "merged 2", "ball"]);
    let chain = h.state().scene().shapes[0].placed.shape.as_chain().unwrap();
    assert!(chain.is_loop());
    // A flat run of three tiles: four pieces, the top one whole.
    assert_eq!(chain.points().len(), 4);
    let said = h.state().message().unwrap().text.clone();
    assert!(
        said.starts_with("merged 5 static polygons into 2 chains (\"merged 1\": 1 loop, 4 pieces"),
        "{said}"
    );
    assert!(said.ends_with("Ctrl+Z undoes it"), "{said}");
    assert!(h.state().is_dirty());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().scene().shapes.len(), 6);
    assert!(!h.state().is_dirty());

    // Only the selected tile's floor.
    h.state_mut().select(Some(4));
    h.run();
    click_menu(
        &mut h,
        "Edit",
        "Merge the selected tile's group into chains",
    );
    assert_eq!(
        names(&h),
        ["tile 0", "tile 1", "tile 2", "merged 1", "ball"]
    );
    let selected = h.state().selected().unwrap();
    assert_eq!(h.state().scene().index_of(selected), Some(3));
    // Nothing left to merge on a ball alone: said, nothing changed.
    h.state_mut().select(Some(4));
    h.run();
    click_menu(
        &mut h,
        "Edit",
        "Merge the selected tile's group into chains",
    );
    assert_eq!(names(&h).len(), 5);
    assert!(h.state().message().unwrap().error);
}

/// Issue 40: the recovery copy's path was written before its scene, with a plain write whose
/// failure went unsaid. The scene is written first, each file atomically, and a path that cannot
/// be written is said (the scene's copy is kept).
#[test]
fn autosave_writes_the_scene_first_and_says_when_its_path_cannot_be_kept() {
    let data = tempfile::tempdir().unwrap();
    // A folder where the path's file goes: it cannot be written.
    std::fs::create_dir_all(data.path().join("recovery-path.txt")).unwrap();
    let mut h = harness(App::new(Options {
        file: Some(shapes("corner-false-positive.json")),
        data_dir: Some(data.path().to_path_buf()),
        no_data_dir: false,
        ..Default::default()
    }));
    let ball = h.state().scene().shapes[1].placed.pose.position;
    drag(&mut h, ball, DVec2::new(3.0, 3.0));
    h.state_mut().flush_data_folder();
    h.run();
    assert!(
        data.path().join("recovery.json").is_file(),
        "the scene was kept"
    );
    let said = h
        .state()
        .message()
        .map(|m| m.text.clone())
        .unwrap_or_default();
    assert!(
        said.contains("autosave failed") && said.contains("recovery-path.txt"),
        "{said}"
    );
    // Nothing half-written is left beside it.
    let leftovers: Vec<_> = std::fs::read_dir(data.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// Open with unsaved changes reads the file once: the scene asked about is the scene opened,
/// even when the file changes (or goes) while the question is open.
#[test]
fn open_with_unsaved_changes_reads_the_file_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.json");
    std::fs::copy(shapes("corner-false-positive.json"), &path).unwrap();
    let opened = collidoscope::scene::load(&path).unwrap();
    let mut h = harness(app(Some(shapes("corner-false-positive.json"))));
    let ball = h.state().scene().shapes[1].placed.pose.position;
    drag(&mut h, ball, DVec2::new(3.0, 3.0));
    assert!(h.state().is_dirty());
    h.state_mut()
        .run(collidoscope::app::Command::Open(path.clone()));
    h.run();
    h.get_by_label("Discard unsaved changes?");
    std::fs::remove_file(&path).unwrap();
    h.get_by_label("Discard changes").click();
    h.run();
    assert_eq!(
        h.state().scene().shapes,
        opened.shapes,
        "{:?}",
        h.state().message()
    );
    assert_eq!(h.state().path(), Some(path.as_path()));
}

/// The name of the shape selected in the window.
fn selected_name(h: &Harness<'_, collidoscope::app::App>) -> Option<String> {
    let selected = h.state().selected().expect("a shape selected");
    h.state()
        .scene()
        .shapes
        .iter()
        .find(|s| s.id == selected)
        .and_then(|s| s.name.clone())
}
