//! Every way a shape can be invalid gives a typed error naming the point or field.

mod common;

use collidoscope::geometry::{Capsule, Circle, ConvexPolygon, DVec2, ShapeError, Winding};
use common::v;

fn polygon_error(points: &[DVec2]) -> String {
    ConvexPolygon::new(points.to_vec()).unwrap_err().to_string()
}

#[test]
fn radius_must_be_positive_and_finite() {
    assert_eq!(
        Circle::new(-1.0).unwrap_err().to_string(),
        "radius must be > 0, found -1"
    );
    assert_eq!(
        Circle::new(0.0).unwrap_err(),
        ShapeError::RadiusNotPositive { found: 0.0 }
    );
    assert_eq!(
        Circle::new(f64::NAN).unwrap_err().to_string(),
        "radius must be a finite number, found NaN"
    );
    assert_eq!(
        Capsule::new(v(0.0, 0.0), v(1.0, 0.0), -0.5)
            .unwrap_err()
            .to_string(),
        "radius must be > 0, found -0.5"
    );
    assert_eq!(
        Capsule::new(v(f64::INFINITY, 0.0), v(1.0, 0.0), 0.5)
            .unwrap_err()
            .to_string(),
        "a must be a finite number, found [inf, 0]"
    );
}

#[test]
fn a_zero_length_capsule_is_allowed() {
    assert!(Capsule::new(v(1.0, 1.0), v(1.0, 1.0), 0.5).is_ok());
}

#[test]
fn polygons_need_three_points() {
    assert_eq!(
        polygon_error(&[v(0.0, 0.0), v(1.0, 0.0)]),
        "a polygon needs at least 3 points, found 2"
    );
}

#[test]
fn polygon_points_must_be_finite() {
    assert_eq!(
        polygon_error(&[v(0.0, 0.0), v(1.0, f64::NAN), v(0.0, 1.0)]),
        "point 1 must be a finite number, found [1, NaN]"
    );
}

#[test]
fn repeated_points_are_named() {
    assert_eq!(
        polygon_error(&[v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(1.0, 0.0)]),
        "point 3 repeats point 1"
    );
}

#[test]
fn collinear_points_have_zero_area() {
    assert_eq!(
        polygon_error(&[v(0.0, 0.0), v(1.0, 1.0), v(2.0, 2.0)]),
        "zero area (all points are collinear)"
    );
}

#[test]
fn a_concave_corner_is_named() {
    // An arrow head: point 3 points inward.
    assert_eq!(
        polygon_error(&[
            v(0.0, 0.0),
            v(4.0, 0.0),
            v(4.0, 4.0),
            v(2.0, 1.0),
            v(0.0, 4.0)
        ]),
        "not convex at point 3 (turns the other way)"
    );
}

#[test]
fn a_concave_corner_is_named_in_a_clockwise_polygon_too() {
    assert_eq!(
        polygon_error(&[
            v(0.0, 4.0),
            v(2.0, 1.0),
            v(4.0, 4.0),
            v(4.0, 0.0),
            v(0.0, 0.0)
        ]),
        "not convex at point 1 (turns the other way)"
    );
}

#[test]
fn a_bow_tie_is_self_intersecting() {
    assert_eq!(
        polygon_error(&[v(0.0, 0.0), v(2.0, 2.0), v(2.0, 0.0), v(0.0, 2.0)]),
        "self-intersecting (edge 0 crosses edge 2)"
    );
}

#[test]
fn a_pentagram_is_self_intersecting_though_every_corner_turns_the_same_way() {
    let star: Vec<DVec2> = (0..5)
        .map(|i| DVec2::from_angle(std::f64::consts::TAU * (2 * i) as f64 / 5.0))
        .collect();
    assert!(matches!(
        ConvexPolygon::new(star).unwrap_err(),
        ShapeError::SelfIntersecting { .. }
    ));
}

#[test]
fn an_outline_that_folds_back_is_refused() {
    // The spike 0 -> 1 -> 2 runs out and straight back along the same line.
    assert_eq!(
        polygon_error(&[v(0.0, 0.0), v(3.0, 0.0), v(2.0, 0.0), v(1.0, 1.0)]),
        "self-intersecting (edge 0 crosses edge 2)"
    );
}

#[test]
fn a_point_on_a_straight_edge_is_allowed() {
    let p = ConvexPolygon::new(vec![v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(1.0, 1.0)]).unwrap();
    assert_eq!(p.points().len(), 4);
}

#[test]
fn either_winding_is_accepted_and_remembered() {
    let ccw = vec![v(0.0, 0.0), v(1.0, 0.0), v(0.0, 1.0)];
    let cw: Vec<DVec2> = ccw.iter().rev().copied().collect();
    let a = ConvexPolygon::new(ccw.clone()).unwrap();
    let b = ConvexPolygon::new(cw.clone()).unwrap();
    assert_eq!(a.winding(), Winding::CounterClockwise);
    assert_eq!(b.winding(), Winding::Clockwise);
    assert_eq!(a.points_as_given(), ccw);
    assert_eq!(b.points_as_given(), cw);
    // Internally both are counter-clockwise with outward normals.
    for p in [&a, &b] {
        assert!(p.area() > 0.0);
        for (i, n) in p.normals().iter().enumerate() {
            let q = p.points()[(i + 2) % 3];
            assert!(n.dot(q - p.points()[i]) < 0.0, "normal {i} points outward");
        }
    }
}

#[test]
fn given_order_indices_map_back_from_the_internal_order() {
    // Clockwise square: given edge k joins given points k and k + 1.
    let given = vec![v(0.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(1.0, 0.0)];
    let p = ConvexPolygon::new(given.clone()).unwrap();
    let n = given.len();
    for i in 0..n {
        let (s, e) = (p.points()[i], p.points()[(i + 1) % n]);
        let k = p.file_edge(i);
        let (gs, ge) = (given[k], given[(k + 1) % n]);
        assert!((s == ge && e == gs), "internal edge {i} is given edge {k}");
        assert_eq!(given[p.file_vertex(i)], p.points()[i]);
    }
}

/// `n` points on a circle of radius 10, counter-clockwise.
fn ring(n: usize) -> Vec<DVec2> {
    (0..n)
        .map(|i| {
            let t = std::f64::consts::TAU * i as f64 / n as f64;
            v(t.cos() * 10.0, t.sin() * 10.0)
        })
        .collect()
}

/// A shape set holding one polygon with `points`.
fn set_with_polygon(points: &[DVec2]) -> String {
    let points: Vec<String> = points
        .iter()
        .map(|p| format!("[{},{}]", p.x, p.y))
        .collect();
    format!(
        r#"{{"format":"collidoscope-shapes","version":2,"shapes":[{{"name":"outline","kind":"polygon","position":[0,0],"angle":0,"points":[{}]}}]}}"#,
        points.join(",")
    )
}

/// A polygon of 100,000 points (a level exported from a drawing tool) is read, and a fault in
/// one is named, in time that grows with the points: the check compared every edge with every
/// other and took 33 s (issue 60). The time is measured in benches/files.rs; here, what is said.
#[test]
fn a_polygon_of_a_hundred_thousand_points_is_read_and_its_faults_named() {
    let path = std::path::Path::new("outline.json");
    let n = 100_000;
    let scene = collidoscope::scene::parse(path, set_with_polygon(&ring(n)).as_bytes()).unwrap();
    assert_eq!(scene.shapes.len(), 1);
    let mut dented = ring(n);
    dented[70_000] *= 0.5;
    let error = collidoscope::scene::parse(path, set_with_polygon(&dented).as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with("outline.json") && error.contains("not convex at point 70000"),
        "{error}"
    );
    // A star drawn without lifting the pen: every corner turns the same way, twice around.
    let m = n + 1;
    let star: Vec<DVec2> = (0..m)
        .map(|c| {
            let t = std::f64::consts::TAU * (c * 2 % m) as f64 / m as f64;
            v(t.cos(), t.sin())
        })
        .collect();
    let error = collidoscope::scene::parse(path, set_with_polygon(&star).as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("self-intersecting (the outline goes around 2 times, so its edges cross)"),
        "{error}"
    );
    // Up to 1,024 points a star names its first two crossing edges, as it always did.
    let small: Vec<DVec2> = (0..1_023)
        .map(|c| {
            let t = std::f64::consts::TAU * (c * 2 % 1_023) as f64 / 1_023.0;
            v(t.cos(), t.sin())
        })
        .collect();
    assert_eq!(
        polygon_error(&small),
        "self-intersecting (edge 0 crosses edge 511)"
    );
}
