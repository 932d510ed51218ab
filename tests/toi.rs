//! Time of impact: named cases, and a differential test against parry2d-f64's `cast_shapes`
//! (translation) and `cast_shapes_nonlinear` (with rotation) on 10,000 random pairs each, both
//! measured against an exact reference computed here: for translation, the first root of the
//! convex distance (ternary search for its minimum, then bisection on "the interiors overlap");
//! with rotation, the first of 400 samples where the interiors overlap, refined by bisection.

mod common;

use collidoscope::geometry::{Capsule, Circle, ConvexPolygon, DVec2, Placed, Pose};
use collidoscope::query::{
    ToiMethod, ToiState, Velocity, collide, distance, inner_radius, safe_step, time_of_impact,
};
use common::reference::{reference_cast, to_reference};
use common::*;
use parry2d_f64::math::Vector;
use parry2d_f64::query::{self as pq, NonlinearRigidMotion};

/// xorshift64*: the same cases on every run.
struct Random(u64);

impl Random {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }

    fn shape(&mut self, pose: Pose) -> Placed {
        match (self.next() * 3.0) as usize {
            0 => Placed::new(Circle::new(self.range(0.2, 1.2)).unwrap(), pose),
            1 => {
                let a = v(self.range(-1.0, 1.0), self.range(-1.0, 1.0));
                let b = v(self.range(-1.0, 1.0), self.range(-1.0, 1.0));
                Placed::new(Capsule::new(a, b, self.range(0.1, 0.6)).unwrap(), pose)
            }
            _ => loop {
                let n = 3 + (self.next() * 6.0) as usize;
                let mut angles: Vec<f64> = (0..n)
                    .map(|_| self.range(0.0, std::f64::consts::TAU))
                    .collect();
                angles.sort_by(f64::total_cmp);
                let (rx, ry) = (self.range(0.4, 1.5), self.range(0.4, 1.5));
                let mut points: Vec<DVec2> = angles
                    .iter()
                    .map(|t| v(rx * t.cos(), ry * t.sin()))
                    .collect();
                if self.next() < 0.5 {
                    points.reverse();
                }
                let sound = (0..n).all(|i| points[i].distance(points[(i + 1) % n]) > 0.05);
                if let Ok(p) = ConvexPolygon::new(points)
                    && sound
                    && p.area() > 0.1
                {
                    break Placed::new(p, pose);
                }
            },
        }
    }

    /// A pair apart at t = 0, B heading roughly toward A: about half of them meet by t = 1.
    fn case(&mut self, turning: bool) -> (Placed, Velocity, Placed, Velocity) {
        loop {
            let pose_a = Pose::new(
                v(self.range(-1.0, 1.0), self.range(-1.0, 1.0)),
                self.range(-3.2, 3.2),
            );
            let a = self.shape(pose_a);
            let heading = self.range(0.0, std::f64::consts::TAU);
            let at = v(heading.cos(), heading.sin()) * self.range(3.5, 6.0);
            let pose_b = Pose::new(at, self.range(-3.2, 3.2));
            let b = self.shape(pose_b);
            if collide(&a, &b).is_some() {
                continue;
            }
            let aim = -at
                .normalize()
                .rotate(DVec2::from_angle(self.range(-0.5, 0.5)));
            let spin = |r: &mut Random| if turning { r.range(-4.0, 4.0) } else { 0.0 };
            let va = Velocity {
                linear: v(self.range(-1.0, 1.0), self.range(-1.0, 1.0)),
                angular: spin(self),
            };
            let vb = Velocity {
                linear: aim * self.range(1.0, 8.0),
                angular: spin(self),
            };
            return (a, va, b, vb);
        }
    }
}

fn at(p: &Placed, velocity: Velocity, t: f64) -> Placed {
    Placed::new(p.shape.clone(), velocity.advance(p.pose, t))
}

fn overlap_at(a: &Placed, va: Velocity, b: &Placed, vb: Velocity, t: f64) -> bool {
    collide(&at(a, va, t), &at(b, vb, t)).is_some()
}

fn distance_at(a: &Placed, va: Velocity, b: &Placed, vb: Velocity, t: f64) -> f64 {
    distance(&at(a, va, t), &at(b, vb, t)).distance
}

/// The first time in `[lo, hi]` at which the interiors overlap, `lo` apart and `hi` overlapping.
fn bisect(a: &Placed, va: Velocity, b: &Placed, vb: Velocity, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if overlap_at(a, va, b, vb, mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// Translation: the distance is convex in t. `None` when the minimum stays clear of 0 by more
/// than a grazing margin; `Some(None)` for a graze too close to call.
fn translation_reference(
    a: &Placed,
    va: Velocity,
    b: &Placed,
    vb: Velocity,
) -> Option<Option<f64>> {
    // Where the interiors overlap the distance is 0: a flat bottom. Searching with ties
    // going left, then right, finds both ends of it.
    let minimum = |ties_left: bool| {
        let (mut lo, mut hi) = (0.0, 1.0);
        for _ in 0..200 {
            let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
            let (d1, d2) = (distance_at(a, va, b, vb, m1), distance_at(a, va, b, vb, m2));
            if d1 < d2 || (ties_left && d1 == d2) {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        0.5 * (lo + hi)
    };
    let (left, right) = (minimum(true), minimum(false));
    let middle = 0.5 * (left + right);
    if overlap_at(a, va, b, vb, middle) {
        return Some(Some(bisect(a, va, b, vb, 0.0, middle)));
    }
    if distance_at(a, va, b, vb, middle) > 1e-7 {
        None
    } else {
        Some(None)
    }
}

fn parry_translation(a: &Placed, va: Velocity, b: &Placed, vb: Velocity) -> Option<f64> {
    reference_cast(
        &to_reference(a),
        va.linear,
        &to_reference(b),
        vb.linear,
        1.0,
    )
}

#[test]
fn translation_agrees_with_the_exact_root_and_is_never_late() {
    let mut random = Random(0x5eed_1234_abcd_0001);
    let (mut hits, mut misses, mut grazes, mut disagreements) = (0, 0, 0, 0);
    let (mut worst_ours, mut worst_parry) = (0.0f64, 0.0f64);
    for _ in 0..10_000 {
        let (a, va, b, vb) = random.case(false);
        let ours = time_of_impact(&a, va, &b, vb, 1.0);
        assert_eq!(ours.method, ToiMethod::Newton);
        let parry = parry_translation(&a, va, &b, vb);
        match translation_reference(&a, va, &b, vb) {
            None => {
                misses += 1;
                assert_eq!(ours.state, ToiState::Separated, "{a:?} {va:?} {b:?} {vb:?}");
                disagreements += usize::from(parry.is_some());
            }
            Some(None) => grazes += 1,
            Some(Some(t_ref)) => {
                hits += 1;
                assert_eq!(ours.state, ToiState::Hit);
                let t = ours.toi.unwrap();
                // Never after the contact; at most 1e-9 (1 + T) before it.
                assert!(!overlap_at(&a, va, &b, vb, t), "late: {t} vs {t_ref}");
                assert!(t_ref - t <= 2e-9, "early by {}", t_ref - t);
                worst_ours = worst_ours.max((t_ref - t).abs());
                match parry {
                    Some(tp) => worst_parry = worst_parry.max((tp - t_ref).abs()),
                    None => disagreements += 1,
                }
                let n = ours.normal.unwrap();
                assert!((n.length() - 1.0).abs() < 1e-12);
            }
        }
    }
    eprintln!(
        "translation TOI: {hits} hits, {misses} misses, {grazes} grazes skipped; worst time error: collidoscope {worst_ours:e}, parry {worst_parry:e}; parry disagrees on hit/miss {disagreements} times"
    );
    assert!(hits > 2000 && misses > 2000);
}

#[test]
fn rotation_is_never_late_and_close_to_the_sampled_contact() {
    let mut random = Random(0x0dd_ba11_cafe_0002);
    let (mut hits, mut misses, mut found_between_samples) = (0, 0, 0);
    let (mut worst_ours, mut worst_parry, mut parry_disagrees) = (0.0f64, 0.0f64, 0);
    for _ in 0..10_000 {
        let (a, va, b, vb) = random.case(true);
        let ours = time_of_impact(&a, va, &b, vb, 1.0);
        const SAMPLES: usize = 400;
        let first = (1..=SAMPLES)
            .map(|k| k as f64 / SAMPLES as f64)
            .find(|t| overlap_at(&a, va, &b, vb, *t));
        let t_ref = first.map(|t| bisect(&a, va, &b, vb, t - 1.0 / SAMPLES as f64, t));
        let motion = |p: &Placed, v: Velocity| {
            let r = to_reference(p);
            NonlinearRigidMotion::new(
                r.pose,
                Vector::ZERO,
                Vector::new(v.linear.x, v.linear.y),
                v.angular,
            )
        };
        let (ra, rb) = (to_reference(&a), to_reference(&b));
        let parry = pq::cast_shapes_nonlinear(
            &motion(&a, va),
            &*ra.shape.0,
            &motion(&b, vb),
            &*rb.shape.0,
            0.0,
            1.0,
            true,
        )
        .unwrap()
        .map(|hit| hit.time_of_impact);
        if let Some(t) = ours.toi {
            // Never after a contact, wherever it is.
            assert!(!overlap_at(&a, va, &b, vb, t), "late at {t}");
            assert!(distance_at(&a, va, &b, vb, t) <= 1e-8);
        }
        match t_ref {
            Some(t_ref) => {
                hits += 1;
                let t = ours.toi.expect("a contact the samples saw is found");
                assert!(t <= t_ref + 1e-12);
                assert!(t_ref - t <= 1e-6, "early by {}", t_ref - t);
                worst_ours = worst_ours.max(t_ref - t);
                match parry {
                    Some(tp) => worst_parry = worst_parry.max((tp - t_ref).abs()),
                    None => parry_disagrees += 1,
                }
            }
            None if ours.state == ToiState::Hit => found_between_samples += 1,
            None => misses += 1,
        }
    }
    eprintln!(
        "rotation TOI: {hits} hits, {misses} misses, {found_between_samples} brief contacts between samples found; worst time error: collidoscope {worst_ours:e}, parry {worst_parry:e}; parry misses {parry_disagrees} contacts"
    );
    assert!(hits > 2000 && misses > 2000);
}

#[test]
fn a_bullet_meets_the_thin_wall_and_the_spinning_bar_misses_it() {
    let scene = collidoscope::scene::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/shapes/bullet-and-wall.json"
    )))
    .unwrap();
    let velocity = |i: usize| scene.shapes[i].motion.velocity();
    let (wall, ball, bar) = (
        &scene.shapes[0].placed,
        &scene.shapes[1].placed,
        &scene.shapes[2].placed,
    );
    let toi = time_of_impact(wall, velocity(0), ball, velocity(1), 1.0);
    assert_eq!(toi.state, ToiState::Hit);
    // The search stops a hair short of touching (see `NEWTON_AIM`: 1.7e-15 here).
    assert_close(toi.toi.unwrap(), 0.044, 1e-13);
    assert_vec_close(toi.point.unwrap(), v(-0.1, 0.0), 1e-12);
    assert_eq!(toi.normal, Some(v(-1.0, 0.0)));
    // Moving 100 units a second through a wall 0.2 thick: a step of 1/60 s jumps 1.67, and
    // the tunnelling bound says 0.005 s at most.
    let step = safe_step(&ball.shape, 100.0).unwrap();
    assert_close(step, (0.5 - 0.5e-3) / 100.0, 1e-15);
    assert_eq!(
        time_of_impact(wall, velocity(0), bar, velocity(2), 1.0).state,
        ToiState::Separated
    );
    assert!(matches!(
        time_of_impact(ball, velocity(1), bar, velocity(2), 1.0).method,
        ToiMethod::ConservativeAdvancement { .. }
    ));
}

#[test]
fn overlapped_touching_and_parallel_cases() {
    let square = polygon(
        &[v(-1.0, -1.0), v(1.0, -1.0), v(1.0, 1.0), v(-1.0, 1.0)],
        Pose::IDENTITY,
    );
    let still = Velocity::default();
    // Overlapping at t = 0.
    let inside = circle(0.5, v(0.5, 0.0));
    let toi = time_of_impact(&square, still, &inside, Velocity::linear(v(1.0, 0.0)), 1.0);
    assert_eq!(
        (toi.state, toi.toi, toi.point),
        (ToiState::Overlapped, Some(0.0), None)
    );
    // Touching at t = 0 and moving in: a hit at 0.
    let touching = circle(0.5, v(1.5, 0.0));
    let toi = time_of_impact(
        &square,
        still,
        &touching,
        Velocity::linear(v(-1.0, 0.0)),
        1.0,
    );
    assert_eq!((toi.state, toi.toi), (ToiState::Hit, Some(0.0)));
    // Sliding along the face without closing in: separated.
    let beside = circle(0.5, v(1.6, -3.0));
    let toi = time_of_impact(&square, still, &beside, Velocity::linear(v(0.0, 6.0)), 1.0);
    assert_eq!(toi.state, ToiState::Separated);
    // Too slow to arrive by the horizon.
    let far = circle(0.5, v(5.0, 0.0));
    let toi = time_of_impact(&square, still, &far, Velocity::linear(v(-1.0, 0.0)), 1.0);
    assert_eq!(toi.state, ToiState::Separated);
    let toi = time_of_impact(&square, still, &far, Velocity::linear(v(-1.0, 0.0)), 4.0);
    assert_close(toi.toi.unwrap(), 3.5, 1e-12);
    // A graze: the circle's path touches the corner tangentially.
    let grazing = circle(0.5, v(-3.0, 1.5));
    let toi = time_of_impact(&square, still, &grazing, Velocity::linear(v(6.0, 0.0)), 1.0);
    assert_eq!(toi.state, ToiState::Hit, "a graze is a hit");
    // It touches the corner when the centre is above it, at t = 1/3. A graze's distance is
    // quadratic in the time left, so the last stretch is solved in closed form.
    let early = 1.0 / 3.0 - toi.toi.unwrap();
    eprintln!("graze: {early:e} early");
    assert!((0.0..=2e-9).contains(&early), "{early}");
}

#[test]
fn inner_radius_of_each_kind() {
    assert_eq!(inner_radius(&circle(0.7, v(3.0, 0.0)).shape), 0.7);
    let rail = capsule(v(-2.0, 0.0), v(2.0, 0.0), 0.25, Pose::IDENTITY);
    assert_eq!(inner_radius(&rail.shape), 0.25);
    let slab = polygon(
        &[v(-2.0, -0.5), v(2.0, -0.5), v(2.0, 0.5), v(-2.0, 0.5)],
        Pose::IDENTITY,
    );
    assert_close(inner_radius(&slab.shape), 0.5, 1e-15);
    // The position outside the polygon: nothing is safe.
    let off = polygon(&[v(1.0, 1.0), v(2.0, 1.0), v(1.5, 2.0)], Pose::IDENTITY);
    assert_eq!(inner_radius(&off.shape), 0.0);
    assert_eq!(safe_step(&slab.shape, 0.0), None);
}

/// The first touch at a polygon's corner, translating: a circle, a capsule's side and another
/// polygon's face arrive at a corner of a turned box from a direction `u` inside the corner's
/// cone of outward directions, meeting it at t = 0.5. The time is exact, and the normal is the
/// exact direction between the corner and the other shape then (`u`) to 1e-9, not the
/// direction between closest points a hair apart (which was off by up to 5e-6).
#[test]
fn a_first_touch_at_a_polygon_corner_reports_the_exact_normal() {
    let mut random = Random(0x5eed_c0de);
    let mut worst: f64 = 0.0;
    let mut checked = 0;
    for case in 0..3000 {
        let angle = random.range(-3.0, 3.0);
        let centre = v(random.range(-50.0, 50.0), random.range(-50.0, 50.0));
        let a = polygon(
            &[v(-1.0, -1.0), v(1.0, -1.0), v(1.0, 1.0), v(-1.0, 1.0)],
            Pose::new(centre, angle),
        );
        // Corner (1, 1): its outward cone runs from the normal (1, 0) to (0, 1).
        let corner = a.pose.apply(v(1.0, 1.0));
        let u = DVec2::from_angle(angle + random.range(0.05, std::f64::consts::FRAC_PI_2 - 0.05));
        // Approaching: the velocity has a negative component along u.
        let v_b = DVec2::from_angle(u.to_angle() + std::f64::consts::PI + random.range(-1.2, 1.2))
            * random.range(0.5, 8.0);
        let t0 = 0.5;
        let r = random.range(0.1, 1.0);
        let b = match case % 3 {
            // A circle whose centre is r along u from the corner at t0.
            0 => circle(r, corner + u * r - v_b * t0),
            // A capsule whose side touches the corner: its segment across u, r out.
            1 => {
                let along = u.perp() * random.range(0.3, 1.5);
                let shift = u.perp() * random.range(-0.2, 0.2);
                capsule(
                    -along + shift,
                    along + shift,
                    r,
                    Pose::at(corner + u * r - v_b * t0),
                )
            }
            // A box whose face (normal -u) touches the corner.
            _ => {
                let half = random.range(0.3, 1.5);
                let at = corner + u * half - v_b * t0 + u.perp() * random.range(-0.2, 0.2) * half;
                polygon(
                    &[
                        v(-half, -half),
                        v(half, -half),
                        v(half, half),
                        v(-half, half),
                    ],
                    Pose::new(at, u.to_angle()),
                )
            }
        };
        let toi = time_of_impact(
            &a,
            Velocity::linear(DVec2::ZERO),
            &b,
            Velocity::linear(v_b),
            1.0,
        );
        // Cases whose path touches the box elsewhere first are not this case.
        let Some(t) = toi.toi.filter(|t| (t - t0).abs() <= 1e-9) else {
            continue;
        };
        assert_eq!(toi.state, ToiState::Hit, "case {case}");
        let n = toi.normal.expect("a hit has a normal");
        let off = n.perp_dot(u).atan2(n.dot(u)).abs();
        assert!(
            off <= 1e-9,
            "case {case} at t = {t}: normal {n} vs exact {u}, {off:e} rad off"
        );
        worst = worst.max(off);
        checked += 1;
    }
    println!("{checked} corner touches, worst normal {worst:e} rad");
    assert!(
        checked > 1500,
        "most cases reach the corner first: {checked}"
    );
}

/// The contact normal of turning pairs of every solid kind (circle, capsule, polygon,
/// segment), against a reference computed here from the shapes' cores alone, independently of
/// the crate's queries: the poses moved by hand (`position + v t`, `angle + w t`), the gap as the
/// least distance between the cores' pieces (points and segments) less the radii, the first
/// contact found by sampling and bisected to the last bit of the time, and the normal taken from
/// the feature pair that touches then: a face's perpendicular (on the side the other feature came
/// from) or, between two rounded corners, the direction between the corners (the radii apart,
/// so well conditioned). The crate's normal must agree to 1e-9 rad. It was read from the closest
/// points a hair apart (off by up to 3.6e-5 on a turning box against a capsule).
#[test]
fn turning_contact_normals_agree_with_an_independent_reference() {
    /// A shape's core in its own frame, and its radius.
    struct Core {
        points: Vec<DVec2>,
        radius: f64,
    }
    fn core(p: &Placed) -> Core {
        use collidoscope::geometry::Shape;
        match &p.shape {
            Shape::Circle(c) => Core {
                points: vec![DVec2::ZERO],
                radius: c.radius(),
            },
            Shape::Capsule(c) => Core {
                points: vec![c.a(), c.b()],
                radius: c.radius(),
            },
            Shape::Segment(s) => Core {
                points: vec![s.a(), s.b()],
                radius: 0.0,
            },
            Shape::Polygon(p) => Core {
                points: p.points().to_vec(),
                radius: 0.0,
            },
            Shape::Chain(_) => unreachable!("solids only"),
        }
    }
    /// The core's points in the world at time `t`, moved by hand.
    fn world(p: &Placed, c: &Core, vel: Velocity, t: f64) -> Vec<DVec2> {
        let position = p.pose.position + vel.linear * t;
        let angle = p.pose.angle() + vel.angular * t;
        let (s, co) = angle.sin_cos();
        c.points
            .iter()
            .map(|q| position + v(co * q.x - s * q.y, s * q.x + co * q.y))
            .collect()
    }
    /// The core's pieces: its points, and its edges (a ring of a polygon's, a capsule's one).
    fn edges(points: &[DVec2]) -> Vec<(DVec2, DVec2)> {
        match points.len() {
            1 => vec![],
            2 => vec![(points[0], points[1])],
            n => (0..n).map(|i| (points[i], points[(i + 1) % n])).collect(),
        }
    }
    /// Where `p` projects onto the segment `a`–`b` (clamped), and the parameter.
    fn project(p: DVec2, a: DVec2, b: DVec2) -> (DVec2, f64) {
        let d = b - a;
        let s = ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0);
        (a + d * s, s)
    }
    fn segments_cross(a: (DVec2, DVec2), b: (DVec2, DVec2)) -> bool {
        let side = |p: DVec2, q: (DVec2, DVec2)| (q.1 - q.0).perp_dot(p - q.0);
        side(a.0, b) * side(a.1, b) < 0.0 && side(b.0, a) * side(b.1, a) < 0.0
    }
    /// A touching pair of features: a point of one core against a point or an edge of the
    /// other; `a_point` says whether the point is A's.
    #[derive(Clone, Copy)]
    enum Pair {
        Points(usize, usize),
        PointEdge {
            a_point: bool,
            point: usize,
            edge: usize,
        },
    }
    /// The gap between the shapes (cores' distance less the radii; below 0 when they overlap
    /// or the cores' edges cross), and the feature pair that gives it.
    fn gap(pa: &[DVec2], ra: f64, pb: &[DVec2], rb: f64) -> (f64, Pair) {
        let (ea, eb) = (edges(pa), edges(pb));
        let mut best = (f64::INFINITY, Pair::Points(0, 0));
        let mut take = |d: f64, pair: Pair| {
            if d < best.0 {
                best = (d, pair);
            }
        };
        for (i, p) in pa.iter().enumerate() {
            for (j, q) in pb.iter().enumerate() {
                take(p.distance(*q), Pair::Points(i, j));
            }
        }
        // Each core's points against the other's edges, where they project inside.
        for (a_point, points, edges) in [(true, pa, &eb), (false, pb, &ea)] {
            for (point, p) in points.iter().enumerate() {
                for (edge, e) in edges.iter().enumerate() {
                    let (x, s) = project(*p, e.0, e.1);
                    if s > 0.0 && s < 1.0 {
                        let pair = Pair::PointEdge {
                            a_point,
                            point,
                            edge,
                        };
                        take(p.distance(x), pair);
                    }
                }
            }
        }
        let crossing = ea.iter().any(|x| eb.iter().any(|y| segments_cross(*x, *y)));
        (if crossing { -1.0 } else { best.0 - ra - rb }, best.1)
    }
    /// The normal from A toward B of the feature pair, with the cores at `pa`, `pb`; an edge's
    /// side is the one the point was on at the earlier poses `ea`, `eb`.
    fn pair_normal(pair: Pair, pa: &[DVec2], pb: &[DVec2], ea: &[DVec2], eb: &[DVec2]) -> DVec2 {
        match pair {
            Pair::Points(i, j) => (pb[j] - pa[i]).normalize(),
            Pair::PointEdge {
                a_point,
                point,
                edge,
            } => {
                let (edge_core, earlier_points, earlier_edge) =
                    if a_point { (pb, ea, eb) } else { (pa, eb, ea) };
                let (e0, e1) = edges(edge_core)[edge];
                let (f0, f1) = edges(earlier_edge)[edge];
                let side = (f1 - f0).perp_dot(earlier_points[point] - f0).signum();
                // Unit normal of the edge, toward the point's side.
                let n = (e1 - e0).perp().normalize() * side;
                if a_point { -n } else { n }
            }
        }
    }

    let mut random = Random(0x07e5_70f7_0ac4);
    let (mut checked, mut ambiguous, mut worst) = (0, 0, 0.0f64);
    let mut kinds = std::collections::BTreeMap::new();
    for case in 0..10_000 {
        let (mut a, va, mut b, vb) = random.case(true);
        // A quarter of the shapes become segments (the capsule's core alone, or a polygon's
        // first edge).
        for p in [&mut a, &mut b] {
            if random.next() < 0.25 {
                let c = core(p);
                let (s, e) = if c.points.len() >= 2 {
                    (c.points[0], c.points[1])
                } else {
                    (v(-0.6, 0.1), v(0.7, -0.2))
                };
                *p = Placed::new(collidoscope::geometry::Segment::new(s, e).unwrap(), p.pose);
            }
        }
        if collide(&a, &b).is_some() {
            continue;
        }
        let (ca, cb) = (core(&a), core(&b));
        let gap_at = |t: f64| {
            gap(
                &world(&a, &ca, va, t),
                ca.radius,
                &world(&b, &cb, vb, t),
                cb.radius,
            )
        };
        const SAMPLES: usize = 400;
        let Some(k) = (1..=SAMPLES).find(|k| gap_at(*k as f64 / SAMPLES as f64).0 <= 0.0) else {
            continue;
        };
        let (mut lo, mut hi) = ((k - 1) as f64 / SAMPLES as f64, k as f64 / SAMPLES as f64);
        loop {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if gap_at(mid).0 <= 0.0 {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        let (d, pair) = gap_at(lo);
        let toi = time_of_impact(&a, va, &b, vb, 1.0);
        let Some(normal) = toi.normal.filter(|_| toi.state == ToiState::Hit) else {
            panic!(
                "case {case}: a contact at {lo} is found, got {:?}",
                toi.state
            );
        };
        let (pa, pb) = (world(&a, &ca, va, lo), world(&b, &cb, vb, lo));
        let earlier = lo - 0.5 / SAMPLES as f64;
        let (ea, eb) = (world(&a, &ca, va, earlier), world(&b, &cb, vb, earlier));
        // Two bare corners meeting (no radius to give a direction), or two features tied for
        // closest with different normals: no one normal to check.
        let bare_corners = matches!(pair, Pair::Points(..)) && ca.radius + cb.radius == 0.0;
        if bare_corners || d.abs() > 1e-9 {
            ambiguous += 1;
            continue;
        }
        let exact = pair_normal(pair, &pa, &pb, &ea, &eb);
        let off = normal.perp_dot(exact).atan2(normal.dot(exact)).abs();
        assert!(
            off <= 1e-9,
            "case {case} ({} against {}) at t = {lo}: normal {normal} vs exact {exact}, {off:e} rad off",
            a.shape.kind().name(),
            b.shape.kind().name()
        );
        worst = worst.max(off);
        checked += 1;
        *kinds
            .entry((a.shape.kind().name(), b.shape.kind().name()))
            .or_insert(0) += 1;
    }
    println!(
        "{checked} turning contacts ({ambiguous} without one normal), worst {worst:e} rad; by kinds {kinds:?}"
    );
    assert!(checked > 3000, "{checked} checked");
    assert!(kinds.len() >= 14, "every pair of kinds is met: {kinds:?}");
}

/// Where the answers of [`answers_stay_where_they_were_recorded`] are kept.
const RECORDED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/recorded/toi_answers.txt"
);

/// The answer to case `k` as one line: the state, then the time, the normal and the point (`-`
/// where there is none), each number as Rust prints it (the shortest text that reads back as
/// the same f64).
fn answer_line(k: usize, a: &Placed, va: Velocity, b: &Placed, vb: Velocity) -> String {
    let toi = time_of_impact(a, va, b, vb, 1.0);
    let number = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:?}"));
    let (nx, ny) = (toi.normal.map(|n| n.x), toi.normal.map(|n| n.y));
    let (px, py) = (toi.point.map(|p| p.x), toi.point.map(|p| p.y));
    format!(
        "{k} {} {} {} {} {} {}",
        toi.state.name(),
        number(toi.toi),
        number(nx),
        number(ny),
        number(px),
        number(py)
    )
}

/// Every speed change keeps the answers: 4,000 random pairs of every convex kind (a quarter of
/// the polygons rounded), half of them turning, answered as they were when recorded (the
/// state the same; the time, the normal and the point within 1e-9). Recorded again, on purpose
/// only, with `COLLIDOSCOPE_RECORD_TOI=1 cargo test --test toi answers_stay`.
#[test]
fn answers_stay_where_they_were_recorded() {
    let mut r = Random(0x70_1e_c0_11_1d_e5_c0_9e);
    let mut lines = Vec::new();
    for k in 0..4_000 {
        let (mut a, va, mut b, vb) = r.case(k % 2 == 1);
        for p in [&mut a, &mut b] {
            if let collidoscope::geometry::Shape::Polygon(polygon) = &p.shape
                && r.next() < 0.25
            {
                let rounded = polygon.clone().with_radius(r.range(0.02, 0.3)).unwrap();
                *p = Placed::new(rounded, p.pose);
            }
        }
        lines.push(answer_line(k, &a, va, &b, vb));
    }
    if std::env::var_os("COLLIDOSCOPE_RECORD_TOI").is_some() {
        std::fs::write(RECORDED, lines.join("\n") + "\n").unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(RECORDED).expect("the recorded answers");
    let recorded: Vec<&str> = recorded.lines().collect();
    assert_eq!(recorded.len(), lines.len(), "one recorded answer a case");
    let mut worst = 0.0f64;
    let mut hits = 0;
    for (now, then) in lines.iter().zip(&recorded) {
        let (now, then): (Vec<&str>, Vec<&str>) =
            (now.split(' ').collect(), then.split(' ').collect());
        assert_eq!(now[..2], then[..2], "case {}: the state changed", then[0]);
        hits += usize::from(now[1] == "hit");
        for (x, y) in now[2..].iter().zip(&then[2..]) {
            if x == y {
                continue;
            }
            let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
            worst = worst.max((x - y).abs());
            assert!(
                (x - y).abs() <= 1e-9,
                "case {}: {x} was {y} (recorded)",
                then[0]
            );
        }
    }
    eprintln!(
        "{} answers ({hits} hits) as recorded, worst {worst:e}",
        lines.len()
    );
    assert!(
        hits > 1_000,
        "the cases meet often enough to matter: {hits} hits"
    );
}
