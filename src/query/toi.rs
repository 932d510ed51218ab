//! Time of impact: when two moving shapes first touch, as Box2D's `b2TimeOfImpact` answers it
//! (a state, the time, and the contact point and normal then), with every step of the search
//! kept for teaching.
//!
//! Each shape moves by the motion convention of the file format: `position(t) = position +
//! velocity * t`, `angle(t) = angle + angular_velocity * t` (turning about its position).
//!
//! **Translation only: Newton's method on the exact distance.** With both shapes only
//! translating, the distance `d(t)` between two convex shapes is a convex function of `t` (the
//! distance from a point moving on a line to a convex set, the Minkowski difference), and its
//! slope where the shapes are apart is `v · n` (`v` B's velocity relative to A's, `n` the unit
//! direction from A's closest point to B's). Newton's step `t += d / (-v · n)` follows the
//! tangent, which lies below a convex function: it never passes the first root, and converges
//! to it (in one step where the closest features are a vertex and a face, quadratically where a
//! rounded surface is involved). Each step aims a hair short of touching (a part of the
//! pair's size far below the answer's 1e-9: see `NEWTON_AIM`), so that rounding does not
//! carry it into the other shape. It stops when the remaining time is below 1e-12 of the
//! horizon, or when the shapes stop closing (`v · n >= 0`: past the minimum, apart for good).
//!
//! **With rotation: conservative advancement** (Mirtich 1996). A point of a shape's core
//! turning at `w` about its position, at most `R` from it, moves at most `|v| + |w| R`; so in
//! time `dt` the distance drops by at most `(|vB - vA| + |wA| RA + |wB| RB) dt`, and
//! `t += d / bound` can never step past a contact. (A circle's core is its centre: turning
//! about it moves nothing, and two circles that only turn so are solved as translating.)
//! Each step also takes the longer of two safe steps that follow the motion, from the gap
//! between the shapes' shadows on a direction (any direction's gap is a lower bound of the
//! distance): on the fixed direction between the closest points, and on the normal of the
//! closest face turning with its shape, as Box2D's `b2TimeOfImpact` separates along a face.
//! Each point's shadow is bounded to second order (its speed now, and its centripetal
//! acceleration), so near a contact the step lands on it to second order and the search ends
//! in a few steps, where the bound alone closes a fixed part of the gap per step (see
//! `Turning`). It stops at distance 1e-9 of the shapes' size (then the time is at most that
//! distance over the closing speed early).
//!
//! Touching is not intersecting: "overlapped" means the interiors overlap at t = 0.

use super::closest::{
    ClosestPoints, PolygonHint, closest_point_on_segment, proximity_of_apart_near,
};
use super::fast_path::{collide_at, collide_circles};
use super::viewless::{viewless_intersect, viewless_proximity};
use crate::geometry::inline_list;
use crate::geometry::{DVec2, Feature, Placed, Pose, Rounded, Shape};
use serde::Serialize;
use smallvec::SmallVec;

/// How a shape moves: `position(t) = position + linear * t`, `angle(t) = angle + angular * t`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Velocity {
    /// Units per second.
    pub linear: DVec2,
    /// Radians per second, counter-clockwise, about the shape's position.
    pub angular: f64,
}

impl Velocity {
    /// A translation.
    pub fn linear(v: DVec2) -> Self {
        Self {
            linear: v,
            angular: 0.0,
        }
    }

    /// `pose` after time `t`.
    pub fn advance(&self, pose: Pose, t: f64) -> Pose {
        if self.angular == 0.0 {
            // The angle does not change (`angle + 0 * t` is `angle`): keep its rotation.
            return pose.translated(self.linear * t);
        }
        Pose::new(
            pose.position + self.linear * t,
            pose.angle() + self.angular * t,
        )
    }
}

/// How the search ended, as Box2D's `b2TOIState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ToiState {
    /// The interiors overlap at t = 0.
    Overlapped,
    /// They first touch at `toi`.
    Hit,
    /// No contact up to the horizon.
    Separated,
}

impl ToiState {
    /// The name `collidoscope toi` prints: `overlapped`, `hit`, `separated`.
    pub fn name(self) -> &'static str {
        match self {
            ToiState::Overlapped => "overlapped",
            ToiState::Hit => "hit",
            ToiState::Separated => "separated",
        }
    }
}

/// Which search was used.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToiMethod {
    /// Both shapes only translate: Newton's method on the convex distance.
    Newton,
    /// Some shape turns: conservative advancement with this bound on how fast the distance
    /// can drop (units per second).
    ConservativeAdvancement {
        /// `|vB - vA| + |wA| RA + |wB| RB`.
        bound: f64,
    },
}

/// One step of the search.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ToiStep {
    /// The time the distance was measured at.
    pub t: f64,
    /// The exact distance then.
    pub distance: f64,
    /// How far in time the step went from `t` (0 on the last step).
    pub advance: f64,
}

inline_list!(
    /// A time of impact's steps, in order: a few inline, the usual count.
    ToiSteps,
    ToiStep,
    6
);

/// The time of impact of a pair.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Toi {
    /// How it ended.
    pub state: ToiState,
    /// The time: 0 when overlapped, the first touch when hit, `None` when separated.
    pub toi: Option<f64>,
    /// Where they touch at `toi` (halfway between the closest points), when hit.
    pub point: Option<DVec2>,
    /// The unit normal from A toward B there, when hit.
    pub normal: Option<DVec2>,
    /// The search used.
    pub method: ToiMethod,
    /// Every step, in order (held inline up to a few, the usual count: no allocation).
    pub steps: ToiSteps,
}

impl Toi {
    /// No contact up to the horizon, with no search made.
    pub fn separated() -> Self {
        Toi {
            state: ToiState::Separated,
            toi: None,
            point: None,
            normal: None,
            method: ToiMethod::Newton,
            steps: ToiSteps::new(),
        }
    }
}

/// Newton steps at most (a graze converges linearly: about one bit a step).
const NEWTON_STEPS: usize = 200;
/// Conservative-advancement steps at most.
const ADVANCEMENT_STEPS: usize = 100_000;
/// Newton stops when the step left is below this part of `1 + horizon`.
const NEWTON_TIME: f64 = 1e-13;
/// Below this part of their size, closest points are too close to give a direction (its
/// error is about 1e-16 / this: 1e-7 radians).
const CONDITIONED: f64 = 1e-9;
/// Translating shapes this close (a part of `1 + size`) touch: a graze's minimum.
const GRAZE: f64 = 1e-13;
/// Newton aims at this part of `1 + size`, half of [`GRAZE`], where it stops: a step aimed at
/// touching lands on the contact of a corner and a face, and rounding carried about half of
/// those a hair into the other shape, whence the search went back by separating-axis tests
/// (two or more, and the closest points measured again). Aimed short, the step lands within
/// `GRAZE` and the search ends there, at most `GRAZE (1 + size)` over the closing speed
/// before the contact (the answer moves by some 1e-13 of the size).
const NEWTON_AIM: f64 = 0.5 * GRAZE;
/// Conservative advancement stops at this part of the pair's size.
const ADVANCEMENT_DISTANCE: f64 = 1e-9;
/// A touching feature's own normal is taken when it is within this angle (rad) of the last
/// well-measured direction between the closest points (which is good to ~1e-5).
const NORMAL_AGREEMENT: f64 = 1e-3;

/// When `a` (moving by `va`) and `b` (moving by `vb`) first touch in `[0, horizon]`, neither
/// being a chain (a segment is a capsule of radius 0). [`super::time_of_impact`] takes every
/// kind.
pub(super) fn solid_time_of_impact(
    a: &Placed,
    va: Velocity,
    b: &Placed,
    vb: Velocity,
    horizon: f64,
) -> Toi {
    // Two circles first: the common pair, and a closed form.
    if let (Shape::Circle(ca), Shape::Circle(cb)) = (&a.shape, &b.shape) {
        return circles_time_of_impact((a, ca.radius(), va), (b, cb.radius(), vb), horizon);
    }
    viewless_time_of_impact(a, va, b, vb, horizon)
}

/// Two circles: one feature pair, so the closed form is the whole answer (a circle turning
/// about its centre moves nothing: turning, they are solved as translating). Compiled apart
/// from the search, whose entry saves registers two circles never need.
#[inline(never)]
fn circles_time_of_impact(
    (a, ra, va): (&Placed, f64, Velocity),
    (b, rb, vb): (&Placed, f64, Velocity),
    horizon: f64,
) -> Toi {
    let mut toi = Toi::separated();
    // The test `collide` makes for two circles, without building a view of each.
    if collide_circles(a.pose.position, ra, b.pose.position, rb).is_some() {
        toi.state = ToiState::Overlapped;
        toi.toi = Some(0.0);
        return toi;
    }
    let size = a.shape.bounding_radius() + b.shape.bounding_radius();
    let relative = vb.linear - va.linear;
    let q = b.pose.position - a.pose.position;
    if let Some(mut contact) = point_contact(q, ra + rb, relative, size)
        && contact.after <= horizon
    {
        // The root to rounding may sit an ulp past the contact: step back until apart.
        let mut back = f64::EPSILON * (1.0 + contact.after);
        for _ in 0..64 {
            let (pa, pb) = (
                va.advance(a.pose, contact.after).position,
                vb.advance(b.pose, contact.after).position,
            );
            if contact.after == 0.0 || collide_circles(pa, ra, pb, rb).is_none() {
                break;
            }
            contact.after = (contact.after - back).max(0.0);
            back *= 2.0;
        }
        toi.state = ToiState::Hit;
        toi.toi = Some(contact.after);
        toi.normal = Some(contact.normal);
        toi.point = Some(a.pose.position + va.linear * contact.after + contact.normal * ra);
        toi.steps.push(ToiStep {
            t: contact.after,
            distance: 0.0,
            advance: 0.0,
        });
    }
    toi
}

/// [`solid_time_of_impact`] of every pair but two circles, measured without views while it
/// translates (see [`viewless_proximity`]): compiled apart, so that the two circles' entry
/// does not save the registers the search needs.
#[inline(never)]
fn viewless_time_of_impact(
    a: &Placed,
    va: Velocity,
    b: &Placed,
    vb: Velocity,
    horizon: f64,
) -> Toi {
    search::<true>(a, va, b, vb, horizon, NEWTON_AIM)
}

/// [`solid_time_of_impact`]'s search, its steps measured without views while the pair
/// translates (`VIEWLESS`, see [`viewless_proximity`]), or over views throughout (the
/// reference the tests hold the first to). Translating, each step aims at `aim` of
/// `1 + size` ([`NEWTON_AIM`]; 0, touching, in the test that holds the two to 1e-9).
#[inline(always)]
fn search<const VIEWLESS: bool>(
    a: &Placed,
    va: Velocity,
    b: &Placed,
    vb: Velocity,
    horizon: f64,
    aim: f64,
) -> Toi {
    // Two circles: the closed form, compiled apart.
    if let (Shape::Circle(ca), Shape::Circle(cb)) = (&a.shape, &b.shape) {
        return circles_time_of_impact((a, ca.radius(), va), (b, cb.radius(), vb), horizon);
    }
    let mut toi = Toi::separated();
    let size = a.shape.bounding_radius() + b.shape.bounding_radius();
    let origin = a.pose.position;
    // The polygon edges closest at the last measurement, tried first at the next.
    let mut edges = None;
    // The pair is moved by its poses alone: `ma`, `mb` (copying a polygon to move it would
    // cost more than a short query).
    let measure = |ma: Pose, mb: Pose, edges: &mut Option<PolygonHint>| {
        let viewless = VIEWLESS
            .then(|| viewless_proximity((&a.shape, ma), (&b.shape, mb), origin, edges))
            .flatten();
        viewless.unwrap_or_else(|| {
            proximity_of_apart_near(
                &Rounded::at(&a.shape, ma, origin),
                &Rounded::at(&b.shape, mb, origin),
                origin,
                edges,
            )
        })
    };
    // The closest points measured at the start for the test below: the first step's too.
    let start = measure(a.pose, b.pose, &mut edges);
    // Closest points clearly apart: apart (the boundaries of intersecting shapes cross, or one
    // holds the other, and then no positive distance is found). Near contact, the
    // separating-axis test decides.
    let near = start.distance <= CONDITIONED * (1.0 + size);
    let mut at_start = Some(start);
    if near && collide_at((&a.shape, a.pose), (&b.shape, b.pose)).is_some() {
        toi.state = ToiState::Overlapped;
        toi.toi = Some(0.0);
        return toi;
    }
    let relative = vb.linear - va.linear;
    // How fast turning can close the gap at most: every point of a shape moves at most
    // `|w| * reach` by its turn. A circle turning about its centre does not move: a pair
    // that only does that translates, and is solved as translating. Each core's reach is
    // measured once, and only for a shape that turns: every use multiplies it by that shape's
    // turning speed, so 0 for a shape that does not turn gives the same products.
    let reaches = [(va, &a.shape), (vb, &b.shape)]
        .map(|(v, s)| if v.angular == 0.0 { 0.0 } else { reach(s) });
    let turning = va.angular.abs() * reaches[0] + vb.angular.abs() * reaches[1];
    let rotating = turning > 0.0;
    // A translating pair is measured without views where its kinds allow (see
    // `viewless_proximity`); its views are made where the search arrives.
    let viewless = VIEWLESS && !rotating;
    let bound = relative.length() + turning;
    if rotating {
        toi.method = ToiMethod::ConservativeAdvancement { bound };
    }
    let steps = if rotating {
        ADVANCEMENT_STEPS
    } else {
        NEWTON_STEPS
    };
    let place = |ma: &mut Pose, mb: &mut Pose, t: f64| {
        *ma = va.advance(a.pose, t);
        *mb = vb.advance(b.pose, t);
    };
    let intersecting = |ma: Pose, mb: Pose| {
        if VIEWLESS {
            viewless_intersect((&a.shape, ma), (&b.shape, mb))
        } else {
            collide_at((&a.shape, ma), (&b.shape, mb)).is_some()
        }
    };
    let (mut ma, mut mb) = (a.pose, b.pose);
    let (mut t, mut apart_at) = (0.0, 0.0);
    let (mut last_normal, mut last_point) = (None, None);
    // The closest points last measured, and when.
    let mut measured = None;
    // The features that touch when the search arrived, read from the views of that step
    // where they lie (views moved out of the loop would be copied).
    let mut touch_at_t = None;
    // Whether the search arrived, with `ma` and `mb` placed at `t`.
    let mut placed_at_t = false;
    for _ in 0..steps {
        // At the start the poses are the pair's own (no sine and cosine made again).
        if t > 0.0 {
            place(&mut ma, &mut mb, t);
        }
        // The views, kept for the turning step (see `Turning`); empty where not made.
        // (One at a time: a pair built as a tuple is copied once more.)
        let mut ra = if viewless {
            Rounded::empty()
        } else {
            Rounded::at(&a.shape, ma, origin)
        };
        let mut rb = if viewless {
            Rounded::empty()
        } else {
            Rounded::at(&b.shape, mb, origin)
        };
        let mut proximity = if let Some(start) = at_start.take() {
            start
        } else if viewless {
            measure(ma, mb, &mut edges)
        } else {
            proximity_of_apart_near(&ra, &rb, origin, &mut edges)
        };
        // The closest points and the separating-axis test may round differently a hair from
        // contact: near it, the test decides.
        let near = proximity.distance <= CONDITIONED * (1.0 + size);
        if t > 0.0 && near && intersecting(ma, mb) {
            // Rounding carried the step a hair past the contact: back to a time they are
            // apart, stepping back by a few ulps of the time, doubling (the overshoot is of
            // rounding size), then by bisection.
            let mut back = f64::EPSILON * (1.0 + t);
            // Apart at `lo`, intersecting at `hi`.
            let (mut lo, mut hi) = (apart_at, t);
            for _ in 0..64 {
                let earlier = (t - back).max(apart_at);
                place(&mut ma, &mut mb, earlier);
                if !intersecting(ma, mb) {
                    lo = earlier;
                    break;
                }
                hi = earlier;
                if earlier == apart_at {
                    break;
                }
                back *= 2.0;
            }
            // Then by bisection to the last time they are apart (a few steps after the
            // doubling, a few dozen without it).
            for _ in 0..64 {
                let mid = 0.5 * (lo + hi);
                if mid <= lo || mid >= hi {
                    break;
                }
                place(&mut ma, &mut mb, mid);
                if intersecting(ma, mb) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            t = lo;
            place(&mut ma, &mut mb, t);
            if viewless {
                proximity = measure(ma, mb, &mut edges);
            } else {
                ra = Rounded::at(&a.shape, ma, origin);
                rb = Rounded::at(&b.shape, mb, origin);
                proximity = proximity_of_apart_near(&ra, &rb, origin, &mut edges);
            }
        }
        apart_at = t;
        measured = Some((t, proximity.closest));
        let d = proximity.distance;
        if let Some(c) = proximity.closest {
            let scale = c.point_a.abs().max_element().max(1.0);
            last_point = Some((c.point_a + c.point_b) * 0.5);
            // The direction between two points a hair apart has few correct digits: below
            // 1e-9 of their size, the last well-measured direction is kept.
            if d > CONDITIONED * scale || last_normal.is_none() {
                last_normal = (c.point_b - c.point_a).try_normalize().or(last_normal);
            }
        }
        let advance = if d == 0.0 || (rotating && d <= ADVANCEMENT_DISTANCE * size) {
            0.0
        } else if !rotating && d <= GRAZE * (1.0 + size) {
            // At the bottom of a graze the slope vanishes with the distance; this close, it
            // touches.
            0.0
        } else if rotating {
            // Aimed at half the distance the search stops at, not at touching, so that
            // where a bound is exact (two circles turning about their centres) rounding does
            // not carry the step into the other shape.
            let target = 0.5 * ADVANCEMENT_DISTANCE * size;
            // Safe whatever the direction: no point moves faster than `bound`.
            let global = (d - target) / bound;
            // Along the direction between the closest points, bounds that follow the motion
            // (see `Turning::safe_step`); any direction gives a safe step, a good one a long
            // step.
            let along = proximity.closest.map(|c| {
                let motion = Turning {
                    centres: [ma.position - origin, mb.position - origin],
                    velocities: [va, vb],
                    reach: reaches,
                };
                // The closest points in the views' coordinates.
                let c = ClosestPoints {
                    point_a: c.point_a - origin,
                    point_b: c.point_b - origin,
                    ..c
                };
                motion.safe_step(&ra, &rb, c, target, horizon - t)
            });
            along.map_or(global, |s| s.max(global))
        } else {
            let closing = last_normal.map_or(0.0, |n| -relative.dot(n));
            if closing <= 0.0 {
                // Past the minimum of a convex distance: apart for good.
                f64::INFINITY
            } else {
                // Aimed at half the distance it stops at (see `NEWTON_AIM`), not at touching.
                (d - aim * (1.0 + size)) / closing
            }
        };
        toi.steps.push(ToiStep {
            t,
            distance: d,
            advance: if advance.is_finite() { advance } else { 0.0 },
        });
        let arrived = advance == 0.0 || (!rotating && advance <= NEWTON_TIME * (1.0 + horizon));
        if arrived {
            // For the normal at contact (below); the poses are kept, of this time.
            if let (Some(c), Some(direction)) = (proximity.closest, last_normal) {
                if viewless {
                    ra = Rounded::at(&a.shape, ma, origin);
                    rb = Rounded::at(&b.shape, mb, origin);
                }
                touch_at_t = Some(feature_touch(&ra, &rb, origin, c, direction));
            }
            placed_at_t = true;
            break;
        }
        if !advance.is_finite() || t + advance > horizon {
            return toi;
        }
        t += advance;
    }
    // Arrived (or out of steps while still closing in, a very long graze: the last time is
    // still before the contact, and the poses are placed there now).
    if !placed_at_t {
        place(&mut ma, &mut mb, t);
    }
    let closest = match measured {
        Some((at, closest)) if at == t => closest,
        _ => measure(ma, mb, &mut edges).closest,
    };
    let mut refined_to_contact = false;
    if !rotating
        && let Some(c) = closest
        && let Some(refined) = vertex_contact((&a.shape, ma), (&b.shape, mb), c, relative, size)
    {
        // Two corners (or centres) closest: the rest of the way in closed form, where the
        // pair is apart there (the root to rounding may sit a hair inside).
        let later = t + refined.after;
        place(&mut ma, &mut mb, later);
        if later <= horizon && !intersecting(ma, mb) {
            t = later;
            last_point = Some(refined.point + va.linear * refined.after);
            toi.steps.push(ToiStep {
                t,
                distance: measure(ma, mb, &mut edges).distance,
                advance: 0.0,
            });
        } else {
            // Still a hair short: the point there, and the normal at the contact all the
            // same (the direction between the closest points is off by the motion since it
            // was last well measured).
            last_point = Some(refined.point);
        }
        last_normal = Some(refined.normal);
        refined_to_contact = true;
    }
    // The features that touch give the normal exactly; the closest points, a hair apart
    // now, give its direction only to rounding over that hair. Turning, the features' normal
    // also turns in the time the search stops short of the contact (up to 1e-9 of the size
    // over the closing speed): it is carried on to where that pair's gap closes.
    if !refined_to_contact
        && let Some(c) = closest
        && let Some(measured) = last_normal
    {
        // Read when the search arrived, or now (out of steps), from views of this time.
        let touch = touch_at_t.unwrap_or_else(|| {
            if !rotating {
                // A closed-form refinement that was not taken left the poses later.
                place(&mut ma, &mut mb, t);
            }
            let (ra, rb) = (
                Rounded::at(&a.shape, ma, origin),
                Rounded::at(&b.shape, mb, origin),
            );
            feature_touch(&ra, &rb, origin, c, measured)
        });
        if let Some(touch) = touch {
            last_normal = Some(if rotating {
                let centres = [ma.position - origin, mb.position - origin];
                touch.normal_at_contact(centres, [va, vb])
            } else {
                touch.normal
            });
        }
    }
    toi.state = ToiState::Hit;
    toi.toi = Some(t);
    toi.point = last_point;
    toi.normal = last_normal;
    toi
}

/// Core points' shadows on a direction and how fast each moves along it: a few inline.
type Shadows = SmallVec<[(f64, f64); 8]>;

/// The shadows of `points`, each made by `shadow`: up to 8 (Box2D's most corners, a polygon's
/// inline room) written into a plain array and handed over whole, where pushing them one by
/// one checks the list's room and place at each.
#[inline(always)]
fn shadows_of(points: &[DVec2], mut shadow: impl FnMut(DVec2) -> (f64, f64)) -> Shadows {
    if points.len() > 8 {
        return points.iter().map(|&p| shadow(p)).collect();
    }
    let mut buffer = [(0.0, 0.0); 8];
    for (slot, p) in buffer.iter_mut().zip(points) {
        *slot = shadow(*p);
    }
    Shadows::from_buf_and_len(buffer, points.len())
}

/// A lower bound on the gap between two shapes' shadows on one direction, `s` after now:
/// `L(s) = least(first) + least(second) - offset - curvature s^2`, where `least(list)` is the
/// least of `x + v s` over a list of shadows `x` and their speeds `v` (see
/// [`Turning::safe_step`]).
struct LowerBound<'s> {
    first: &'s [(f64, f64)],
    second: &'s [(f64, f64)],
    offset: f64,
    curvature: f64,
}

impl LowerBound<'_> {
    /// `L(s)` and its slope.
    #[inline(always)]
    fn at(&self, s: f64) -> (f64, f64) {
        // The least of `x + v s`, and its slope.
        let least = |list: &[(f64, f64)]| {
            let mut best = (f64::INFINITY, 0.0);
            for &(x, v) in list {
                let at = x + v * s;
                if at < best.0 {
                    best = (at, v);
                }
            }
            best
        };
        let (x1, v1) = least(self.first);
        let (x2, v2) = least(self.second);
        (
            x1 + x2 - self.offset - self.curvature * s * s,
            v1 + v2 - 2.0 * self.curvature * s,
        )
    }

    /// The first `s` in `[0, limit]` where `L` reaches 0, from the left (`L` is concave: the
    /// false-position chords stay below it, so every time kept has `L >= 0`); `limit` when it
    /// stays positive, 0 when it starts at or below 0.
    fn first_root(&self, limit: f64) -> f64 {
        let (start, slope) = self.at(0.0);
        if start.is_nan() || start <= 0.0 {
            return 0.0;
        }
        // Past the root: the tangent's root (the tangents of a concave function lie above
        // it), or doubling while the gap stays open.
        let (mut lo, mut gap_lo) = (0.0, start);
        let mut hi = if slope < 0.0 {
            (start / -slope).min(limit)
        } else {
            limit
        };
        let mut gap_hi = self.at(hi).0;
        while gap_hi > 0.0 {
            if hi >= limit {
                return limit;
            }
            (lo, gap_lo) = (hi, gap_hi);
            hi = (hi * 2.0).min(limit);
            gap_hi = self.at(hi).0;
        }
        // Two chords: near a contact `L` is nearly straight, and the distance measured next
        // sets the step after.
        for _ in 0..2 {
            let mid = lo + gap_lo * (hi - lo) / (gap_lo - gap_hi);
            if !(mid > lo && mid < hi) {
                break;
            }
            let g = self.at(mid).0;
            if g > 0.0 {
                (lo, gap_lo) = (mid, g);
            } else {
                (hi, gap_hi) = (mid, g);
            }
        }
        lo
    }
}

/// Two shapes moving and turning at constant velocities (about their positions), for a
/// second-order conservative step.
struct Turning {
    /// The centres of turning (the poses' positions), in the views' coordinates.
    centres: [DVec2; 2],
    velocities: [Velocity; 2],
    /// Each core's reach from its centre of turning.
    reach: [f64; 2],
}

impl Turning {
    /// How long the shapes, seen now as `a` and `b` with their closest points `c`, surely
    /// stay more than `target` apart, up to `limit`: the longer of two safe steps.
    ///
    /// Any direction `n` proves a lower bound on the distance: the gap between the shapes'
    /// shadows on it. Along a direction fixed in the world, each core point's shadow moves at
    /// the speed its velocity gives now, and that speed changes no faster than the point's
    /// centripetal acceleration `w^2 |r| <= w^2 R`; along a face's normal turning with its
    /// shape (Box2D's face separation in `b2TimeOfImpact`), the other shape's points move in
    /// the face's turning frame, and their acceleration there is bounded the same way, with
    /// the frame's own turn added (see [`Turning::face_shadows`]). Either way, the gap after
    /// `s` is at least `L(s) = least (x_k + v_k s) - M s^2 / 2` over the points' shadows `x_k`
    /// and speeds `v_k` now. `L` is concave, so its first root is found from the left by the
    /// false-position rule, whose chords stay below it: every time kept has `L >= 0`.
    ///
    /// Near a contact the slopes are those of the touching points, and the step lands on the
    /// contact to second order, where a bound on every point's speed (Mirtich's conservative
    /// advancement) closes a fixed part of the gap per step. A face needs its turning normal:
    /// along a fixed direction its leading corner, not the touching point, sets the speed.
    fn safe_step(
        &self,
        a: &Rounded,
        b: &Rounded,
        c: ClosestPoints,
        target: f64,
        limit: f64,
    ) -> f64 {
        self.step_by::<false>(a, b, c, target, limit)
    }

    /// [`Turning::safe_step`]; with `EVERY_ROOT`, the fixed direction's root is found even
    /// where it cannot lengthen the step (the rule before it was skipped, for the test that
    /// holds the two to the bit).
    #[inline(always)]
    fn step_by<const EVERY_ROOT: bool>(
        &self,
        a: &Rounded,
        b: &Rounded,
        c: ClosestPoints,
        target: f64,
        limit: f64,
    ) -> f64 {
        let Some(n) = (c.point_b - c.point_a).try_normalize() else {
            return 0.0;
        };
        let radii = a.radius + b.radius + target;
        let face = |r: &Rounded, f: Feature, outward: DVec2| match f {
            Feature::Edge(k) if r.is_polygon() => Some(r.internal_edge(k)),
            // A capsule's side facing the other shape.
            Feature::Edge(_) if r.corner_count() == 2 => {
                Some(if r.normals[0].dot(outward) >= 0.0 {
                    0
                } else {
                    1
                })
            }
            _ => None,
        };
        // The shadows, in lists of the step's own.
        let mut face_shadows = Shadows::new();
        let along_face = if let Some(i) = face(b, c.feature_b, -n) {
            Some(self.face_shadows(b, i, a, (1, 0), limit, &mut face_shadows))
        } else {
            face(a, c.feature_a, n)
                .map(|i| self.face_shadows(a, i, b, (0, 1), limit, &mut face_shadows))
        };
        let (mut near_b, mut far_a) = (Shadows::new(), Shadows::new());
        let (curvature, closing) = self.fixed_shadows(a, b, n, (&mut near_b, &mut far_a));
        // Mirtich's first-order step, aimed at the target as the others are.
        let least = |list: &[(f64, f64)]| list.iter().map(|x| x.0).fold(f64::INFINITY, f64::min);
        let gap = least(&near_b) + least(&far_a) - radii;
        let first = if gap <= 0.0 {
            0.0
        } else if closing <= 0.0 {
            // The shadows never close in.
            f64::INFINITY
        } else {
            gap / closing
        };
        // Mirtich's and the face's steps first; the fixed direction's root only where it can
        // be longer (below).
        let mut step = first;
        if let Some(curvature) = along_face {
            let along = LowerBound {
                first: &face_shadows,
                second: &[(0.0, 0.0)],
                offset: radii,
                curvature,
            };
            step = step.max(along.first_root(limit));
        }
        // The fixed direction's root lies before any time where its `L` has closed (`L` is
        // concave and starts open), and every time kept before it has `L > 0`: it can
        // lengthen the step only where `L` is still open at the step taken.
        // (Written to measure the root whenever a NaN stands in either test.)
        let fixed = LowerBound {
            first: &near_b,
            second: &far_a,
            offset: radii,
            curvature,
        };
        #[allow(clippy::neg_cmp_op_on_partial_ord)]
        let open = !(step >= limit) && !(fixed.at(step).0 <= 0.0);
        if EVERY_ROOT || open {
            step = step.max(fixed.first_root(limit));
        }
        step.min(limit)
    }

    /// The shadows on the fixed unit direction `n` (A toward B), written into `near_b` and
    /// `far_a`: B's core points, and A's negated (so that the gap is the least of one list
    /// plus the least of the other), each with its speed now. Returns the bound on their
    /// second derivative, halved, and Mirtich's bound on how fast the gap closes over the
    /// whole motion (no point's shadow moving faster than the relative velocity's part along
    /// `n` and `|w| R` of each turn).
    fn fixed_shadows(
        &self,
        a: &Rounded,
        b: &Rounded,
        n: DVec2,
        (near_b, far_a): (&mut Shadows, &mut Shadows),
    ) -> (f64, f64) {
        let [va, vb] = self.velocities;
        let [reach_a, reach_b] = self.reach;
        let shadows = |core: &Rounded, centre: DVec2, v: Velocity, sign: f64, out: &mut Shadows| {
            *out = shadows_of(&core.points, |p| {
                (sign * p.dot(n), sign * point_velocity(p, centre, v).dot(n))
            });
        };
        shadows(b, self.centres[1], vb, 1.0, near_b);
        shadows(a, self.centres[0], va, -1.0, far_a);
        let curvature =
            0.5 * (va.angular * va.angular * reach_a + vb.angular * vb.angular * reach_b);
        let closing = va.angular.abs() * reach_a + vb.angular.abs() * reach_b
            - (vb.linear - va.linear).dot(n);
        (curvature, closing)
    }

    /// The other shape's core points seen from face `i` of `owner` (its outward normal `n`
    /// turning with it), written into `shadows`: how far each lies beyond the face's line and
    /// how fast that changes now. Returns the bound on their second derivative over
    /// `[0, limit]`, halved. `sides` says which of the pair (0: A, 1: B) are the owner and the
    /// other.
    ///
    /// In the owner's turning frame a point at `D(s)` from the owner's centre of turning is at
    /// `q(s) = R(-w s) D(s)`, and `q'' = R(-w s) (D'' - 2 w J D' - w^2 D)`: with
    /// `|D''| <= w_o^2 R_o`, `|D'| <= |v_o - v| + |w_o| R_o = U` and `|D(s)| <= |D(0)| + U s`,
    /// `|q''| <= w_o^2 R_o + 2 |w| U + w^2 (|D(0)| + U limit)`.
    fn face_shadows(
        &self,
        owner: &Rounded,
        i: usize,
        other: &Rounded,
        (own, theirs): (usize, usize),
        limit: f64,
        shadows: &mut Shadows,
    ) -> f64 {
        let (centre, v) = (self.centres[own], self.velocities[own]);
        let (other_centre, other_v) = (self.centres[theirs], self.velocities[theirs]);
        let other_reach = self.reach[theirs];
        let n = owner.normals[i];
        let on_face = owner.points[i];
        let u = (other_v.linear - v.linear).length() + other_v.angular.abs() * other_reach;
        let mut farthest = 0.0f64;
        *shadows = shadows_of(&other.points, |p| {
            let d = p - centre;
            farthest = farthest.max(d.length());
            // The point's velocity less the velocity the owner's frame has there.
            let relative = point_velocity(p, other_centre, other_v) - point_velocity(p, centre, v);
            ((p - on_face).dot(n), relative.dot(n))
        });
        let w = v.angular.abs();
        let bound = other_v.angular * other_v.angular * other_reach
            + 2.0 * w * u
            + w * w * (farthest + u * limit);
        0.5 * bound
    }
}

/// The velocity of the point `p` of a shape turning about `centre` at `v`.
fn point_velocity(p: DVec2, centre: DVec2, v: Velocity) -> DVec2 {
    let r = p - centre;
    v.linear + DVec2::new(-r.y, r.x) * v.angular
}

/// Two features touching, or about to: the normal between them (from A toward B), their gap
/// along it (the cores' distance along the normal less the radii), the two core points (in
/// the views' coordinates), and whose edge gives the normal (0: A's, 1: B's), if an edge does.
struct Touch {
    normal: DVec2,
    gap: f64,
    points: [DVec2; 2],
    edge_of: Option<usize>,
}

impl Touch {
    /// The normal when the gap closes, `gap / closing speed` later, the shapes at `centres`
    /// (their positions, in the views' coordinates) moving by `velocities`: an edge's normal
    /// turns with its shape; between two corners (or centres), the direction between them
    /// moves with the two points. First order in that time (~1e-9 s): what is left is of its
    /// square.
    fn normal_at_contact(&self, centres: [DVec2; 2], velocities: [Velocity; 2]) -> DVec2 {
        let [pa, pb] = self.points;
        let relative = point_velocity(pb, centres[1], velocities[1])
            - point_velocity(pa, centres[0], velocities[0]);
        let closing = -relative.dot(self.normal);
        if !(closing > 0.0 && self.gap > 0.0) {
            return self.normal;
        }
        let later = self.gap / closing;
        match self.edge_of {
            // Turned by w * later (~1e-9 rad): to first order, n + angle * perp(n).
            Some(side) => self.normal + self.normal.perp() * (velocities[side].angular * later),
            None => (pb - pa + relative * later)
                .try_normalize()
                .unwrap_or(self.normal),
        }
    }
}

/// The normal (from A toward B) of two shapes touching at the closest features of `c` (world
/// points), `ra` and `rb` their views about `origin`: a polygon's face (or a segment's side)
/// gives its own normal; a rounded shape's the direction between the two cores' closest
/// points, which stand the radii apart (well conditioned). A feature may be named off by
/// rounding (a corner as the end of an edge), so the candidate nearest `measured` (the last
/// well-conditioned direction, good to ~1e-5) is taken, and only when it is within
/// [`NORMAL_AGREEMENT`] of it. `None` when nothing fits (two bare corners).
fn feature_touch(
    ra: &Rounded,
    rb: &Rounded,
    origin: DVec2,
    c: ClosestPoints,
    measured: DVec2,
) -> Option<Touch> {
    // A flat face: a polygon's edge, or either side of a segment (the candidate nearest
    // `measured` tells which side).
    let faces = |r: &Rounded, f: Feature| -> [Option<DVec2>; 2] {
        match f {
            Feature::Edge(k) if r.is_polygon() => [Some(r.normals[r.internal_edge(k)]), None],
            Feature::Edge(_) if r.radius == 0.0 && r.points.len() == 2 => {
                [Some(r.normals[0]), Some(r.normals[1])]
            }
            _ => [None, None],
        }
    };
    // The core point of each feature nearest the other's: a corner is itself (given-order
    // index, its own inverse); on an edge, the projection of the other core point.
    let core_point = |r: &Rounded, f: Feature, towards: DVec2| match f {
        Feature::Vertex(i) => r.points[r.file_vertex(i)],
        Feature::Edge(k) => {
            let (p, q) = r.edge(r.internal_edge(k));
            closest_point_on_segment(towards, p, q).0
        }
    };
    let pa = core_point(ra, c.feature_a, c.point_b - origin);
    let pb = core_point(rb, c.feature_b, pa);
    let pa = core_point(ra, c.feature_a, pb);
    let radii = ra.radius + rb.radius;
    let between_cores = (radii > 0.0).then(|| (pb - pa).try_normalize()).flatten();
    // Within NORMAL_AGREEMENT of `measured` (both unit): the cosine, to second order.
    let least = 1.0 - 0.5 * NORMAL_AGREEMENT * NORMAL_AGREEMENT;
    // Between the cores, an edge (a capsule's side) still turns with its shape.
    let cores_edge = match (c.feature_a, c.feature_b) {
        (Feature::Edge(_), _) => Some(0),
        (_, Feature::Edge(_)) => Some(1),
        _ => None,
    };
    let (normal, edge_of) = faces(ra, c.feature_a)
        .map(|n| n.map(|n| (n, Some(0))))
        .into_iter()
        .chain(faces(rb, c.feature_b).map(|n| n.map(|n| (-n, Some(1)))))
        .chain([between_cores.map(|n| (n, cores_edge))])
        .flatten()
        .map(|(n, edge_of)| (n.dot(measured), n, edge_of))
        .filter(|(agreement, ..)| *agreement >= least)
        .max_by(|x, y| x.0.total_cmp(&y.0))
        .map(|(_, n, edge_of)| (n, edge_of))?;
    Some(Touch {
        normal,
        gap: (pb - pa).dot(normal) - radii,
        points: [pa, pb],
        edge_of,
    })
}

/// The closed-form end of a translation whose closest features are two corners (or centres):
/// how much later they touch, and the contact point (at the current time, on A's rounded
/// surface) and normal then.
struct VertexContact {
    after: f64,
    point: DVec2,
    normal: DVec2,
}

/// With corner `pa` of A and corner `pb` of B closest (the features of `c`), grown by radii summing to `R`, B moving
/// at `v` relative to A: the first `s >= 0` with `|pb - pa + v s| = R`, from the stable root
/// of the quadratic; a graze (no real root, the smallest gap within [`GRAZE`]) touches at the
/// closest approach `s = -(q . v) / |v|^2`. Near a graze the distance is quadratic in the time
/// left and says little about it; these roots say it to rounding.
fn vertex_contact(
    a: (&Shape, Pose),
    b: (&Shape, Pose),
    c: ClosestPoints,
    v: DVec2,
    size: f64,
) -> Option<VertexContact> {
    let (Feature::Vertex(i), Feature::Vertex(j)) = (c.feature_a, c.feature_b) else {
        return None;
    };
    let (pa, ra) = core_vertex(a, i);
    let (pb, rb) = core_vertex(b, j);
    let contact = point_contact(pb - pa, ra + rb, v, size)?;
    Some(VertexContact {
        point: pa + contact.normal * ra,
        ..contact
    })
}

/// Two points `q` apart (B's less A's) grown by radii summing to `radius`, B moving at `v`
/// relative to A: when they touch (`point` is left at zero for the caller).
fn point_contact(q: DVec2, radius: f64, v: DVec2, size: f64) -> Option<VertexContact> {
    let (vv, h, k) = (v.dot(v), q.dot(v), q.dot(q) - radius * radius);
    if vv == 0.0 || h >= 0.0 {
        return None;
    }
    let disc = h * h - vv * k;
    let after = if disc >= 0.0 {
        (k / (-h + disc.sqrt())).max(0.0)
    } else {
        let closest = -h / vv;
        let gap = (q + v * closest).length() - radius;
        if gap > GRAZE * (1.0 + size) {
            return None;
        }
        closest
    };
    let normal = (q + v * after).try_normalize()?;
    Some(VertexContact {
        after,
        point: DVec2::ZERO,
        normal,
    })
}

/// Core corner `i` (file order) of `shape` at `pose` in the world, and the radius grown
/// around it.
fn core_vertex((shape, pose): (&Shape, Pose), i: usize) -> (DVec2, f64) {
    match shape {
        Shape::Circle(c) => (pose.position, c.radius()),
        Shape::Capsule(c) => (pose.apply(c.end(i.min(1))), c.radius()),
        Shape::Segment(s) => (pose.apply(s.end(i.min(1))), 0.0),
        Shape::Polygon(p) => (pose.apply(p.points_as_given()[i]), p.radius()),
        Shape::Chain(c) => (pose.apply(c.points()[i.min(c.points().len() - 1)]), 0.0),
    }
}

/// How far the shape's core reaches from its position (its centre of turning): the `R` of
/// the bound. The radius grown around the core is left out: a turn moves the core's points,
/// and the disc around each moves with its point, so no point of the surface moves faster than
/// `|w| R` along any direction. A circle turning about its centre does not move at all.
#[inline]
fn reach(shape: &Shape) -> f64 {
    match shape {
        Shape::Circle(_) => 0.0,
        Shape::Capsule(c) => c.a().length().max(c.b().length()),
        Shape::Segment(s) => s.a().length().max(s.b().length()),
        Shape::Polygon(p) => p.points().iter().map(|q| q.length()).fold(0.0, f64::max),
        Shape::Chain(c) => c.points().iter().map(|q| q.length()).fold(0.0, f64::max),
    }
}

/// The tunnelling bound's inner radius `r`: how far the shape reaches inward from its
/// position in every direction (a circle's or capsule's radius; a polygon's distance from its
/// position to its nearest edge line, plus a rounded polygon's radius; 0 when the position is
/// outside its core).
pub fn inner_radius(shape: &Shape) -> f64 {
    match shape {
        Shape::Circle(c) => c.radius(),
        Shape::Capsule(c) => c.radius(),
        Shape::Segment(_) | Shape::Chain(_) => 0.0,
        Shape::Polygon(p) => {
            let core = p
                .points()
                .iter()
                .zip(p.normals())
                .map(|(q, n)| q.dot(*n))
                .fold(f64::INFINITY, f64::min);
            if core >= 0.0 { core + p.radius() } else { 0.0 }
        }
    }
}

/// The tunnelling bound's margin: `e = 1e-3 * r`.
pub const TUNNELLING_MARGIN: f64 = 1e-3;

/// The largest time step with which a shape moving at `speed` cannot pass through anything
/// as thick as itself: `(r - e) / |v|` with `e = 1e-3 r` (`None` when it does not move).
pub fn safe_step(shape: &Shape, speed: f64) -> Option<f64> {
    let r = inner_radius(shape);
    (speed > 0.0).then(|| (r - TUNNELLING_MARGIN * r) / speed)
}

#[cfg(test)]
#[path = "toi_tests.rs"]
mod tests;
