//! Rounded polygons (shape-set version 4: a polygon's `"radius"`, its core grown by it, as
//! Box2D's `b2MakeRoundedBox` and Rapier's `RoundConvexPolygon`): every query on random pairs
//! against three independent answers.
//!
//! - A brute-force reference built only from the definition (a rounded shape is every point
//!   within its radius of its core): distances from the cores' segments two by two, less the
//!   radii; the penetration depth as the least of `h_A(u) + h_B(-u)` (the shapes' support
//!   functions, radii included) over directions `u`, taken on every core edge normal and
//!   refined by a golden-section search around the best of 4,096 sampled directions; a ray's
//!   first hit as the first point within the radius of the core, found by sampling and
//!   bisection. It shares no code with the queries.
//! - parry2d-f64's `RoundConvexPolygon` (`RoundShape<ConvexPolygon>`), as the other kinds are
//!   compared in `parry_differential.rs`.
//! - Box2D v3.2's rounded polygons (`b2MakePolygon` with a radius), at f32.

mod common;

use collidoscope::geometry::{ConvexPolygon, DVec2, Placed, Pose, Rounded, Shape, ShapeKind};
use collidoscope::query::{
    Velocity, collide, distance, pair_report, ray_cast, sat_report, time_of_impact,
};
use collidoscope::scene::{self, Scene, SceneShape};
use common::box2d::{
    box2d_collide, box2d_distance, box2d_ray, has_box2d, rounded_to_f32, to_box2d,
};
use common::reference::{reference_answer, reference_cast, to_reference};
use common::*;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

/// A random rounded polygon: a random convex core (3 to 8 corners) grown by 0.02 to 0.8.
fn arb_rounded() -> BoxedStrategy<Placed> {
    (arb_polygon_points(), 0.02..0.8f64, arb_pose())
        .prop_map(|(points, r, pose)| {
            let core = ConvexPolygon::new(points).unwrap().with_radius(r).unwrap();
            Placed::new(core, pose)
        })
        .boxed()
}

/// Pairs with a rounded polygon as A, and as B a rounded polygon or any solid kind.
fn pairs(count: usize) -> Vec<(Placed, Placed, &'static str)> {
    let mut runner = TestRunner::deterministic();
    let others: [(&str, BoxedStrategy<Placed>); 4] = [
        ("rounded", arb_rounded()),
        ("circle", arb_placed_of(ShapeKind::Circle)),
        ("capsule", arb_placed_of(ShapeKind::Capsule)),
        ("polygon", arb_placed_of(ShapeKind::Polygon)),
    ];
    let mut pairs = Vec::new();
    for (name, other) in &others {
        let strategy = (arb_rounded(), other.clone());
        for _ in 0..count {
            let (a, b) = strategy.new_tree(&mut runner).unwrap().current();
            pairs.push((a, b, *name));
        }
    }
    pairs
}

/// A shape's core in the world and its radius.
fn core(placed: &Placed) -> (Vec<DVec2>, f64) {
    let view = Rounded::new(placed, DVec2::ZERO);
    (view.points.to_vec(), view.radius)
}

fn point_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let ab = b - a;
    let t = if ab == DVec2::ZERO {
        0.0
    } else {
        ((p - a).dot(ab) / ab.dot(ab)).clamp(0.0, 1.0)
    };
    p.distance(a + ab * t)
}

fn cross(a: DVec2, b: DVec2) -> f64 {
    a.perp_dot(b)
}

/// Whether segments `a0 a1` and `b0 b1` cross or touch.
fn segments_meet(a0: DVec2, a1: DVec2, b0: DVec2, b1: DVec2) -> bool {
    let d1 = cross(a1 - a0, b0 - a0);
    let d2 = cross(a1 - a0, b1 - a0);
    let d3 = cross(b1 - b0, a0 - b0);
    let d4 = cross(b1 - b0, a1 - b0);
    d1 * d2 <= 0.0 && d3 * d4 <= 0.0 && (a1 - a0) != DVec2::ZERO && (b1 - b0) != DVec2::ZERO
}

/// The segments of a core (a point is one degenerate segment).
fn segments(points: &[DVec2]) -> Vec<(DVec2, DVec2)> {
    match points.len() {
        1 => vec![(points[0], points[0])],
        2 => vec![(points[0], points[1])],
        n => (0..n).map(|i| (points[i], points[(i + 1) % n])).collect(),
    }
}

/// Whether `p` is inside the convex core (counter-clockwise corners; a point or segment has
/// no inside).
fn inside(points: &[DVec2], p: DVec2) -> bool {
    let n = points.len();
    n >= 3 && (0..n).all(|i| cross(points[(i + 1) % n] - points[i], p - points[i]) >= 0.0)
}

/// The distance between two cores: 0 when they overlap, else the least of their segments'
/// distances two by two.
fn core_distance(a: &[DVec2], b: &[DVec2]) -> f64 {
    if a.iter().any(|p| inside(b, *p)) || b.iter().any(|p| inside(a, *p)) {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    for (a0, a1) in segments(a) {
        for (b0, b1) in segments(b) {
            if segments_meet(a0, a1, b0, b1) {
                return 0.0;
            }
            best = best
                .min(point_segment(a0, b0, b1))
                .min(point_segment(a1, b0, b1))
                .min(point_segment(b0, a0, a1))
                .min(point_segment(b1, a0, a1));
        }
    }
    best
}

/// The support function of a rounded shape: how far it reaches along the unit `u`.
fn support(points: &[DVec2], radius: f64, u: DVec2) -> f64 {
    points
        .iter()
        .map(|p| p.dot(u))
        .fold(f64::NEG_INFINITY, f64::max)
        + radius
}

/// How far B must move along `u` to leave A: `h_A(u) + h_B(-u)`.
fn push(a: &(Vec<DVec2>, f64), b: &(Vec<DVec2>, f64), u: DVec2) -> f64 {
    support(&a.0, a.1, u) + support(&b.0, b.1, -u)
}

/// The penetration depth and its direction by the definition: the least push over all
/// directions (every core edge normal, and a golden-section search around the best of 4,096
/// sampled directions).
fn brute_depth(a: &Placed, b: &Placed) -> (f64, DVec2) {
    let (ca, cb) = (core(a), core(b));
    let mut best = (f64::INFINITY, DVec2::X);
    let mut consider = |u: DVec2| {
        let d = push(&ca, &cb, u);
        if d < best.0 {
            best = (d, u);
        }
    };
    for (points, sign) in [(&ca.0, 1.0), (&cb.0, -1.0)] {
        for (p, q) in segments(points) {
            if let Some(n) = (q - p).perp().try_normalize() {
                consider(n * sign);
                consider(-n * sign);
            }
        }
    }
    const SAMPLES: usize = 4096;
    let step = std::f64::consts::TAU / SAMPLES as f64;
    let mut sampled = (f64::INFINITY, 0.0);
    for k in 0..SAMPLES {
        let t = step * k as f64;
        let d = push(&ca, &cb, DVec2::from_angle(t));
        if d < sampled.0 {
            sampled = (d, t);
        }
    }
    let (mut lo, mut hi) = (sampled.1 - step, sampled.1 + step);
    let f = |t: f64| push(&ca, &cb, DVec2::from_angle(t));
    let golden = 0.5 * (5f64.sqrt() - 1.0);
    for _ in 0..200 {
        let (x1, x2) = (hi - golden * (hi - lo), lo + golden * (hi - lo));
        if f(x1) < f(x2) {
            hi = x2;
        } else {
            lo = x1;
        }
    }
    consider(DVec2::from_angle(0.5 * (lo + hi)));
    best
}

#[test]
fn every_query_agrees_with_the_brute_force_reference() {
    let (mut intersecting, mut apart, mut corner_axes) = (0, 0, 0);
    let (mut worst_depth, mut worst_distance, mut worst_closest) = (0.0_f64, 0.0_f64, 0.0_f64);
    for (i, (a, b, other)) in pairs(2_000).iter().enumerate() {
        let (ca, cb) = (core(a), core(b));
        let gap = core_distance(&ca.0, &cb.0) - ca.1 - cb.1;
        let context = || format!("pair {i} (rounded vs {other}): {a:?} / {b:?}");
        let report = pair_report(a, b);
        if gap > 1e-9 {
            apart += 1;
            assert!(collide(a, b).is_none(), "{}: apart by {gap}", context());
            let p = distance(a, b);
            worst_distance = worst_distance.max((p.distance - gap).abs());
            assert!(
                (p.distance - gap).abs() <= 1e-9,
                "{}: distance {} vs {gap}",
                context(),
                p.distance
            );
            let c = p.closest.expect("apart shapes have closest points");
            // Each closest point on its shape's boundary: its radius from its core.
            for (point, (points, radius)) in [(c.point_a, &ca), (c.point_b, &cb)] {
                let from_core = core_distance(points, &[point]);
                worst_closest = worst_closest.max((from_core - radius).abs());
                assert!(
                    (from_core - radius).abs() <= 1e-9,
                    "{}: closest point {point} is {from_core} from its core of radius {radius}",
                    context()
                );
            }
            assert!(
                (c.point_b.distance(c.point_a) - gap).abs() <= 1e-9,
                "{}",
                context()
            );
            assert!(report.sat.mtv.is_none(), "{}", context());
        } else if gap < -1e-9 {
            intersecting += 1;
            let (depth, _) = brute_depth(a, b);
            let c =
                collide(a, b).unwrap_or_else(|| panic!("{}: overlapping by {}", context(), -gap));
            worst_depth = worst_depth.max((c.depth - depth).abs());
            assert!(
                (c.depth - depth).abs() <= 1e-9 * (1.0 + depth),
                "{}: depth {} vs {depth}",
                context(),
                c.depth
            );
            // The normal moves B out by the depth: the push along it is the least.
            let along = push(&ca, &cb, c.normal);
            assert!(
                (along - depth).abs() <= 1e-9 * (1.0 + depth),
                "{}: pushing along {} takes {along}, not {depth}",
                context(),
                c.normal
            );
            assert!(
                !c.points.is_empty()
                    && c.points
                        .iter()
                        .all(|p| p.depth > 0.0 && p.depth <= depth + 1e-9),
                "{}: {:?}",
                context(),
                c.points
            );
            // The report and the fast path agree, and the report's MTV is the least push.
            let mtv = report.sat.mtv.expect("an intersecting pair has an MTV");
            assert_eq!(
                (mtv.depth, mtv.normal),
                (c.depth, c.normal),
                "{}",
                context()
            );
            if matches!(
                report.sat.axes[mtv.axis].source,
                collidoscope::query::AxisSource::ClosestFeatures { .. }
            ) {
                corner_axes += 1;
            }
        }
    }
    println!(
        "{intersecting} intersecting, {apart} apart; worst depth {worst_depth:e}, distance {worst_distance:e}, closest point {worst_closest:e}; the cores' corner axis decided {corner_axes}"
    );
    assert!(intersecting > 1_000 && apart > 1_000);
    assert!(
        corner_axes > 50,
        "the corner axis a radius makes decisive is met: {corner_axes}"
    );
}

#[test]
fn every_query_agrees_with_parry_round_convex_polygons() {
    let (mut compared, mut worst) = (0, 0.0_f64);
    for (i, (a, b, other)) in pairs(2_000).iter().enumerate() {
        if !common::reference::has_reference(b) {
            continue;
        }
        let theirs = reference_answer(&to_reference(a), &to_reference(b));
        let ours = match collide(a, b) {
            Some(c) => -c.depth,
            None => distance(a, b).distance,
        };
        compared += 1;
        let difference = (ours - theirs.signed_distance).abs();
        worst = worst.max(difference);
        assert!(
            difference <= 1e-6 * (1.0 + ours.abs()),
            "pair {i} (rounded vs {other}): ours {ours}, parry {}",
            theirs.signed_distance
        );
    }
    println!("{compared} pairs against parry's RoundConvexPolygon: worst {worst:e}");
    assert!(compared > 7_000);
}

#[test]
fn depths_distances_and_rays_agree_with_box2d_rounded_polygons() {
    const TOUCHING: f64 = 1e-4;
    const F32: f64 = 2e-5;
    let (mut same_axis, mut apart, mut rays) = (0, 0, 0);
    let mut runner = TestRunner::deterministic();
    for (i, (a, b, other)) in pairs(2_000).iter().enumerate() {
        let (Some(a), Some(b)) = (rounded_to_f32(a), rounded_to_f32(b)) else {
            continue;
        };
        if !(has_box2d(&a) && has_box2d(&b)) {
            continue;
        }
        let (ba, bb) = (to_box2d(&a), to_box2d(&b));
        let ours = collide(&a, &b);
        let gap = distance(&a, &b).distance;
        if ours.as_ref().map_or(gap, |c| c.depth) < TOUCHING {
            continue;
        }
        let context = || format!("pair {i} (rounded vs {other}): {a:?} / {b:?}");
        match (&ours, box2d_collide(&ba, &bb)) {
            (Some(c), Some((depth, normal))) => {
                if c.normal.angle_to(normal).abs() <= 1e-4 {
                    same_axis += 1;
                    assert!(
                        (c.depth - depth).abs() <= F32,
                        "{}: depth {} vs Box2D {depth}",
                        context(),
                        c.depth
                    );
                }
            }
            (None, None) => {
                apart += 1;
                let (d, ..) = box2d_distance(&ba, &bb);
                assert!(
                    (gap - d).abs() <= F32,
                    "{}: distance {gap} vs Box2D {d}",
                    context()
                );
            }
            (o, t) => panic!("{}: collidoscope {o:?}, Box2D {t:?}", context()),
        }
        // A ray from far outside toward the rounded polygon's centre, off by a random amount.
        let (angle, off) = (0.0..std::f64::consts::TAU, -1.5..1.5f64)
            .new_tree(&mut runner)
            .unwrap()
            .current();
        let centre = a.centre();
        let dir = DVec2::from_angle(angle);
        let from = centre - dir * 10.0 + dir.perp() * off;
        let to = centre + dir * 10.0 + dir.perp() * off;
        let ours = ray_cast(&a, from, to);
        let theirs = box2d_ray(&ba, from, to);
        // Box2D casts a ray at a rounded polygon as a shape cast (`b2RayCastPolygon` with a
        // radius calls `b2ShapeCast`), which stops once within its target distance of the
        // core: up to a linear slop (0.005 m) inside the rounded outline, so its hit is a
        // little later than the exact one, never earlier.
        const SLOP: f64 = 0.005;
        let (points, radius) = core(&a);
        let reach = |t: f64| radius - core_distance(&points, &[from + (to - from) * t]);
        match (ours, theirs) {
            (Some(h), Some((fraction, normal))) => {
                rays += 1;
                let inside = reach(fraction);
                assert!(
                    h.fraction <= fraction + 1e-6 && (-1e-4..=SLOP + 1e-4).contains(&inside),
                    "{}: ray at {} vs Box2D {fraction}, {inside} inside",
                    context(),
                    h.fraction
                );
                assert!(
                    h.normal.unwrap().dot(normal) > 0.9,
                    "{}: ray normal",
                    context()
                );
            }
            (None, None) => {}
            // A grazing ray Box2D's shape cast misses: it never goes a slop deep.
            (Some(h), None) => {
                let deepest = (0..=2000)
                    .map(|k| reach(h.fraction + (1.0 - h.fraction) * k as f64 / 2000.0))
                    .fold(f64::NEG_INFINITY, f64::max);
                assert!(
                    deepest <= SLOP + 1e-4,
                    "{}: Box2D misses a ray {deepest} deep",
                    context()
                );
            }
            (None, Some(t)) => panic!("{}: Box2D hits at {t:?}, collidoscope misses", context()),
        }
    }
    println!(
        "Box2D's rounded polygons: {same_axis} depths on the same axis, {apart} distances, {rays} rays agree"
    );
    assert!(same_axis > 1_000 && apart > 1_000 && rays > 1_000);
}

/// The first point of the segment within `radius` of the core, by the definition: sampled,
/// then bisected.
fn brute_ray(points: &[DVec2], radius: f64, from: DVec2, to: DVec2) -> Option<f64> {
    let reach = |t: f64| core_distance(points, &[from + (to - from) * t]) - radius;
    const SAMPLES: usize = 20_000;
    let first = (0..=SAMPLES)
        .map(|k| k as f64 / SAMPLES as f64)
        .find(|&t| reach(t) <= 0.0)?;
    if first == 0.0 {
        return Some(0.0);
    }
    let (mut lo, mut hi) = (first - 1.0 / SAMPLES as f64, first);
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if reach(mid) <= 0.0 {
            hi = mid
        } else {
            lo = mid
        }
    }
    Some(hi)
}

#[test]
fn ray_casts_hit_where_the_rounded_outline_begins() {
    let mut runner = TestRunner::deterministic();
    let (mut hits, mut misses) = (0, 0);
    for _ in 0..3_000 {
        let (a, angle, off) = (arb_rounded(), 0.0..std::f64::consts::TAU, -4.0..4.0f64)
            .new_tree(&mut runner)
            .unwrap()
            .current();
        let (points, radius) = core(&a);
        let dir = DVec2::from_angle(angle);
        let from = a.centre() - dir * 8.0 + dir.perp() * off;
        let to = a.centre() + dir * 8.0 + dir.perp() * off;
        let ours = ray_cast(&a, from, to);
        let theirs = brute_ray(&points, radius, from, to);
        match (ours, theirs) {
            (Some(h), Some(t)) => {
                hits += 1;
                assert!(
                    (h.fraction - t).abs() <= 1e-9,
                    "{a:?}: {} vs {t}",
                    h.fraction
                );
                // The normal points from the core's nearest point through the hit.
                let n = h.normal.expect("a ray from outside has a normal");
                let inside_by = core_distance(&points, &[h.point - n * radius]);
                assert!(inside_by <= 1e-7, "{a:?}: normal {n} is not the outline's");
            }
            (None, None) => misses += 1,
            // A ray that only grazes the outline (within a sample of it) may be missed by
            // the sampling: our hit must then be a graze.
            (Some(h), None) => {
                let at = core_distance(&points, &[h.point]) - radius;
                assert!(
                    at.abs() <= 1e-9,
                    "{a:?}: hit at {} with no brute-force hit",
                    h.fraction
                );
            }
            (None, Some(t)) => panic!("{a:?}: the brute force hits at {t}, the ray cast misses"),
        }
    }
    println!("{hits} hits, {misses} misses agree with the brute force");
    assert!(hits > 1_000 && misses > 300);
}

#[test]
fn translating_time_of_impact_agrees_with_parry() {
    let mut compared = 0;
    let mut worst = 0.0_f64;
    for (i, (a, b, other)) in pairs(500).iter().enumerate() {
        if collide(a, b).is_some()
            || distance(a, b).distance < 1e-3
            || !common::reference::has_reference(b)
        {
            continue;
        }
        // B moves toward A's centre, fast enough to reach it within the horizon.
        let vb = (a.centre() - b.centre()) * 1.3;
        let ours = time_of_impact(a, Velocity::default(), b, Velocity::linear(vb), 1.0);
        let theirs = reference_cast(&to_reference(a), DVec2::ZERO, &to_reference(b), vb, 1.0);
        match (ours.toi, theirs) {
            (Some(t), Some(r)) => {
                compared += 1;
                worst = worst.max((t - r).abs());
                assert!(
                    (t - r).abs() <= 1e-6,
                    "pair {i} (rounded vs {other}): {t} vs parry {r}"
                );
            }
            (t, r) => panic!("pair {i} (rounded vs {other}): {t:?} vs parry {r:?}: {a:?} / {b:?}"),
        }
    }
    println!("{compared} times of impact against parry: worst {worst:e}");
    assert!(compared > 1_000);
}

#[test]
fn the_radius_widens_every_span_and_adds_the_corner_axis() {
    // Two rounded squares corner to corner: the cores' closest corners are 0.1 apart along
    // the diagonal, the radii add to 0.2, so they overlap by 0.1 along (1, 1)/sqrt(2).
    let square = |r: f64, at: DVec2| {
        let core = ConvexPolygon::rectangle(DVec2::splat(0.5))
            .unwrap()
            .with_radius(r)
            .unwrap();
        Placed::new(core, Pose::at(at))
    };
    let d = 1.0 + 0.1 / 2f64.sqrt();
    let (a, b) = (square(0.1, v(0.0, 0.0)), square(0.1, v(d, d)));
    let report = sat_report(&a, &b);
    // Each span on an edge normal is the core's 1 wide, widened by 0.1 at both ends.
    for t in &report.axes[..8] {
        assert_close(t.a.max - t.a.min, 1.2, 1e-12);
        assert_close(t.b.max - t.b.min, 1.2, 1e-12);
    }
    let mtv = report.mtv.expect("they overlap");
    assert!(matches!(
        report.axes[mtv.axis].source,
        collidoscope::query::AxisSource::ClosestFeatures { .. }
    ));
    assert_close(mtv.depth, 0.1, 1e-12);
    assert_vec_close(mtv.normal, v(1.0, 1.0).normalize(), 1e-12);
    // Plain squares at the same place overlap on the edge normals instead.
    let plain = |at| {
        Placed::new(
            ConvexPolygon::rectangle(DVec2::splat(0.6)).unwrap(),
            Pose::at(at),
        )
    };
    let report = sat_report(&plain(v(0.0, 0.0)), &plain(v(d, d)));
    assert_eq!(report.axes.len(), 8);
}

#[test]
fn version_four_reads_saves_and_refuses_as_the_format_says() {
    let text = r#"{ "format": "collidoscope-shapes", "version": 4, "shapes": [
      { "name": "crate", "kind": "polygon", "position": [1.02, 0.25], "radius": 0.05,
        "points": [[-0.2, -0.2], [0.2, -0.2], [0.2, 0.2], [-0.2, 0.2]] } ] }"#;
    let parse = |text: &str| scene::parse(std::path::Path::new("crate.json"), text.as_bytes());
    let scene = parse(text).unwrap();
    let Shape::Polygon(p) = &scene.shapes[0].placed.shape else {
        panic!()
    };
    assert_eq!(p.radius(), 0.05);
    assert_eq!(scene.version_needed(), 4);
    let saved = scene::to_json(&scene);
    assert!(
        saved.contains("\"version\": 4") && saved.contains("\"radius\":0.05"),
        "{saved}"
    );
    assert_eq!(
        parse(&saved).unwrap().shapes[0].placed,
        scene.shapes[0].placed
    );
    // A version-3 file names the shape and the key.
    let v3 = text.replace("\"version\": 4", "\"version\": 3");
    let e = parse(&v3).unwrap_err().to_string();
    assert!(
        e.starts_with("crate.json")
            && e.contains("shape 0 \"crate\" (polygon)")
            && e.contains("\"radius\"")
            && e.contains("version-4"),
        "{e}"
    );
    // A negative radius is refused, naming the field.
    let e = parse(&text.replace("0.05", "-0.05"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("radius") && e.contains(">= 0"), "{e}");
    // Radius 0 is a plain polygon, bit for bit, saved in the lowest version.
    let zero = parse(&text.replace("0.05", "0")).unwrap();
    assert_eq!(zero.version_needed(), 1);
    let plain: Scene = parse(&text.replace(", \"radius\": 0.05", "")).unwrap();
    assert_eq!(zero.shapes[0].placed, plain.shapes[0].placed);
    assert!(!scene::to_json(&zero).contains("radius"));
    // Saved by the window after an edit: the radius stays with the shape.
    let mut edited = zero.clone();
    let crate_shape = SceneShape::named("crate", scene.shapes[0].placed.clone());
    edited.shapes[0] = crate_shape;
    assert_eq!(edited.version_needed(), 4);
}
