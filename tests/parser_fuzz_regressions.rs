//! Inputs found by fuzzing `scene::parse` (see `fuzz/`), kept as ordinary tests.
//!
//! The rule the fuzz target checks: `parse` never panics, and whatever it accepts is written
//! by `to_json` and read back to an equal scene, every number bit-identical.
//!
//! The first two tests are the bug the fuzzer found: polygon validation and the derived data
//! overflowed for coordinates around 1e154 (a NaN centroid, a non-convex polygon accepted).
//! Fixed in `geometry/polygon.rs` by measuring such polygons in an exactly scaled frame.

use collidoscope::files::{FileError, Problem};
use collidoscope::geometry::Shape;
use collidoscope::scene::{Scene, parse, to_json};
use std::path::Path;

fn read(bytes: &[u8]) -> Result<Scene, FileError> {
    parse(Path::new("fuzz.json"), bytes)
}

/// Every number a file stores, as bits, shape by shape.
fn stored_bits(scene: &Scene) -> Vec<Vec<u64>> {
    scene
        .shapes
        .iter()
        .map(|s| {
            let pose = s.placed.pose;
            let mut bits = vec![
                pose.position.x.to_bits(),
                pose.position.y.to_bits(),
                pose.angle().to_bits(),
            ];
            match &s.placed.shape {
                Shape::Circle(c) => bits.push(c.radius().to_bits()),
                Shape::Capsule(c) => {
                    bits.extend([c.a().x, c.a().y, c.b().x, c.b().y, c.radius()].map(f64::to_bits))
                }
                Shape::Polygon(p) => bits.extend(
                    p.points_as_given()
                        .iter()
                        .flat_map(|q| [q.x.to_bits(), q.y.to_bits()]),
                ),
                Shape::Segment(s) => {
                    bits.extend([s.a().x, s.a().y, s.b().x, s.b().y].map(f64::to_bits))
                }
                Shape::Chain(c) => {
                    bits.push(u64::from(c.is_loop()));
                    bits.extend(
                        c.points()
                            .iter()
                            .flat_map(|q| [q.x.to_bits(), q.y.to_bits()]),
                    );
                }
            }
            bits
        })
        .collect()
}

/// Save then load: the same scene, every stored number bit-identical.
fn assert_round_trips(scene: &Scene) {
    let text = to_json(scene);
    let again = read(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(stored_bits(&again), stored_bits(scene), "{text}");
    assert_eq!(&again, scene, "{text}");
}

/// The fuzzer's finding (artifact crash-19dc84d0002efc692e8dce33180a6a4a3912631e, 125 bytes,
/// `cargo fuzz tmin` could not shrink it): a convex polygon with coordinates up to 1e157 was
/// accepted with a NaN centroid and a bounding radius of 0 (overflowing products in
/// `geometry/polygon.rs`), so the scene was not even `==` to itself after a save and load.
/// It is convex with area, so it must be accepted, with usable derived data, and round-trip.
#[test]
fn fuzz_crash_19dc84d0_polygon_with_huge_coordinates() {
    let bytes: &[u8] = b"{\"format\":\"collidoscope-shapes\",\"version\":1,\"shapes\":[{\"kind\":\"polygon\",\"points\":[[0,0],[2e154,0],[1e153,1e157],[0,5e153]]}]}";
    let scene = read(bytes).unwrap();
    let Shape::Polygon(p) = &scene.shapes[0].placed.shape else {
        panic!("not a polygon: {scene:?}");
    };
    // Nearly a triangle with its apex at (1e153, 1e157): the centroid is about a third of
    // the way up.
    let c = p.centroid();
    assert!(c.is_finite(), "centroid {c:?}");
    assert!((c.y / 3.3333333e156 - 1.0).abs() < 1e-6, "centroid {c:?}");
    // The bounding circle around the centroid holds every point.
    let r = p.bounding_radius();
    assert!(r.is_finite() && r > 6.6e156, "bounding radius {r}");
    for q in p.points() {
        // hypot: the squares of these distances would overflow.
        let d = *q - c;
        assert!(d.x.hypot(d.y) <= r * (1.0 + 1e-12), "{q} outside, r = {r}");
    }
    assert!(p.normals().iter().all(|n| (n.length() - 1.0).abs() < 1e-12));
    assert_round_trips(&scene);
}

/// Found while diagnosing the crash above (the fuzz target flags it the same way): the same
/// overflow let a non-convex polygon through. Scaled down by 1e150 it is refused with
/// "not convex at point 3"; at this size it must be refused the same way.
#[test]
fn non_convex_polygon_with_huge_coordinates_is_refused() {
    let small: &[u8] = b"{\"format\":\"collidoscope-shapes\",\"version\":1,\"shapes\":[{\"kind\":\"polygon\",\"points\":[[0,0],[8.29e3,6.73e3],[7.41e3,8.88e3],[-5.29e3,3.79e3],[-1.19e4,2.87e3]]}]}";
    assert_eq!(
        read(small).unwrap_err().to_string(),
        "fuzz.json: shape 0 (polygon): not convex at point 3 (turns the other way)"
    );
    let huge: &[u8] = b"{\"format\":\"collidoscope-shapes\",\"version\":1,\"shapes\":[{\"kind\":\"polygon\",\"points\":[[0,0],[8.29e153,6.73e153],[7.41e153,8.88e153],[-5.29e153,3.79e153],[-1.19e154,2.87e153]]}]}";
    let message = match read(huge) {
        Ok(scene) => panic!("a non-convex polygon was accepted: {scene:?}"),
        Err(e) => e.to_string(),
    };
    assert_eq!(
        message,
        "fuzz.json: shape 0 (polygon): not convex at point 3 (turns the other way)"
    );
}

/// Large but harmless: a 1e100 square is accepted, its derived data finite, and it
/// round-trips.
#[test]
fn polygon_at_1e100_is_accepted_and_round_trips() {
    let bytes: &[u8] = b"{\"format\":\"collidoscope-shapes\",\"version\":1,\"shapes\":[{\"kind\":\"polygon\",\"position\":[-1e100,1e100],\"points\":[[0,0],[1e100,0],[1e100,1e100],[0,1e100]]}]}";
    let scene = read(bytes).unwrap();
    let Shape::Polygon(p) = &scene.shapes[0].placed.shape else {
        panic!("not a polygon");
    };
    assert_eq!(p.centroid().to_array(), [5e99, 5e99]);
    assert!(p.bounding_radius().is_finite() && p.bounding_radius() > 7e99);
    assert_round_trips(&scene);
}

/// A number beyond f64 (the fuzzer grows exponents) is a syntax error with its place, not
/// infinity and not a panic.
#[test]
fn exponent_beyond_f64_is_a_syntax_error() {
    let bytes: &[u8] = b"{\"format\":\"collidoscope-shapes\",\"version\":1,\"shapes\":[{\"kind\":\"circle\",\"radius\":1e400}]}";
    let e = read(bytes).unwrap_err();
    assert_eq!(
        e.problem,
        Problem::Syntax {
            line: 1,
            column: 85,
            message: "number out of range".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "fuzz.json: line 1, column 85: number out of range"
    );
}

/// `-0.0`, `-0`, the smallest subnormal and a 400-digit fraction / 300-digit integer are read
/// and written back bit-identically (`-0.0` angle included: it is not the omitted default).
#[test]
fn negative_zero_subnormal_and_long_numbers_round_trip_bit_exactly() {
    let bytes: &[u8] = b"{\"format\":\"collidoscope-shapes\",\"version\":1,\"shapes\":[{\"kind\":\"circle\",\"position\":[-0.0,-0],\"angle\":-0.0,\"radius\":5e-324}]}";
    let scene = read(bytes).unwrap();
    let pose = scene.shapes[0].placed.pose;
    assert_eq!(pose.position.x.to_bits(), (-0.0f64).to_bits());
    assert_eq!(pose.position.y.to_bits(), (-0.0f64).to_bits());
    assert_eq!(pose.angle().to_bits(), (-0.0f64).to_bits());
    assert!(
        to_json(&scene).contains("\"angle\":-0.0"),
        "{}",
        to_json(&scene)
    );
    assert_round_trips(&scene);

    let long = format!(
        "{{\"format\":\"collidoscope-shapes\",\"version\":1,\"shapes\":[{{\"kind\":\"circle\",\
         \"radius\":0.{},\"position\":[{},-{}]}}]}}",
        "1".repeat(400),
        "9".repeat(300),
        "1".repeat(20)
    );
    let scene = read(long.as_bytes()).unwrap();
    let placed = &scene.shapes[0].placed;
    let Shape::Circle(c) = &placed.shape else {
        panic!("not a circle");
    };
    assert_eq!(c.radius(), 1.0 / 9.0);
    assert_eq!(placed.pose.position.x, 1e300);
    assert_eq!(placed.pose.position.y, -11111111111111111111.0);
    assert_round_trips(&scene);
}

/// Deep nesting is refused by serde_json's recursion limit with a place, never a stack
/// overflow (also far deeper than the fuzzer's 4096-byte inputs).
#[test]
fn deep_nesting_is_refused() {
    for depth in [200, 100_000] {
        let text = format!(
            "{{\"format\":\"collidoscope-shapes\",\"version\":1,\"shapes\":[{}{}]}}",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let message = read(text.as_bytes()).unwrap_err().to_string();
        assert!(
            message.starts_with("fuzz.json: line 1, column "),
            "{message}"
        );
        assert!(message.ends_with(": recursion limit exceeded"), "{message}");
    }
}

/// Bytes that are not UTF-8 (here Latin-1 `é` in a name) are refused with the offset.
#[test]
fn non_utf8_bytes_are_refused_with_their_offset() {
    let bytes: &[u8] = b"{\"format\":\"collidoscope-shapes\",\"version\":1,\"shapes\":[{\"name\":\"caf\xe9\",\"kind\":\"circle\",\"radius\":1}]}";
    let e = read(bytes).unwrap_err();
    assert_eq!(e.problem, Problem::NotText { offset: 66 });
    assert_eq!(
        e.to_string(),
        "fuzz.json: not UTF-8 text (a bad byte at offset 66)"
    );
}

/// A duplicated key: the last one counts (serde_json's map), so a bad second value is refused
/// by name and a good second value is what is kept.
#[test]
fn duplicated_key_last_one_counts() {
    let bad_last: &[u8] = b"{\"format\":\"collidoscope-shapes\",\"version\":1,\"shapes\":[{\"kind\":\"circle\",\"radius\":1,\"radius\":-2}]}";
    assert_eq!(
        read(bad_last).unwrap_err().to_string(),
        "fuzz.json: shape 0 (circle): radius must be > 0, found -2"
    );
    let good_last: &[u8] = b"{\"format\":\"collidoscope-shapes\",\"version\":1,\"shapes\":[{\"kind\":\"circle\",\"radius\":2,\"radius\":1}]}";
    let scene = read(good_last).unwrap();
    let Shape::Circle(c) = &scene.shapes[0].placed.shape else {
        panic!("not a circle");
    };
    assert_eq!(c.radius(), 1.0);
    assert_round_trips(&scene);
}
