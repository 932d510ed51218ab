//! Rounded polygons in the window: "+ Rounded box", the radius field in Numbers (0 turns it
//! back into a plain polygon, a negative one is refused with the reason), and the words
//! beside the verdict.

use crate::common::*;
use collidoscope::app::App;
use collidoscope::geometry::Shape;
use egui::Key;
use egui_kittest::kittest::Queryable;

fn radius_of(app: &App, k: usize) -> Option<f64> {
    match &app.scene().shapes[k].placed.shape {
        Shape::Polygon(p) => Some(p.radius()),
        _ => None,
    }
}

#[test]
fn a_rounded_box_is_added_edited_and_explained() {
    let mut h = harness(app(None));
    let n = h.state().scene().shapes.len();
    h.get_by_label("+ Rounded box").click();
    h.run();
    assert_eq!(h.state().scene().shapes.len(), n + 1);
    assert_eq!(
        radius_of(h.state(), n),
        Some(0.2),
        "a square core grown by 0.2"
    );
    assert_eq!(h.state().scene().version_needed(), 4);
    // The radius field edits it.
    type_into_field(&mut h, "radius", "0.35");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(radius_of(h.state(), n), Some(0.35));
    // A negative radius is refused, with the reason, and the shape stays as it was.
    type_into_field(&mut h, "radius", "-1");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(radius_of(h.state(), n), Some(0.35));
    assert!(
        h.query_by_label_contains("not applied: a polygon's radius must be >= 0")
            .is_some()
    );
    // 0 makes it a plain polygon again, saved in the lowest version.
    type_into_field(&mut h, "radius", "0");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(radius_of(h.state(), n), Some(0.0));
    assert!(h.state().scene().version_needed() < 4);
}

#[test]
fn the_verdict_says_what_the_radius_does() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("crate.json");
    std::fs::write(
        &file,
        r#"{ "format": "collidoscope-shapes", "version": 4, "shapes": [
          { "name": "tile", "kind": "polygon", "points": [[0, -0.5], [1, -0.5], [1, 0], [0, 0]] },
          { "name": "crate", "kind": "polygon", "position": [-0.22, 0.24], "radius": 0.05,
            "points": [[-0.2, -0.2], [0.2, -0.2], [0.2, 0.2], [-0.2, 0.2]] } ] }"#,
    )
    .unwrap();
    let mut h = harness(app(Some(file)));
    h.run();
    assert!(
        h.query_by_label_contains(
            "crate is a rounded polygon: every point within 0.05 of its core"
        )
        .is_some(),
        "the pair's words name the radius"
    );
    assert!(
        h.query_by_label_contains("runs between the cores' closest corners")
            .is_some()
    );
}
