//! When a claim agrees with the exact result: the f64 rule (the same verdict; depth and
//! distance within 1e-6, absolute + relative; the normal's direction within 1e-5) and the f32
//! rule (minimum translation vectors and gaps within tau = 2^-20 times the pair's largest
//! coordinate), what differs and by how much, and whether a result reproduces a claim.

use super::claim::Reported;
use crate::geometry::{DVec2, Placed};
use crate::query::{Outcome, PairSummary};
use crate::scene::Precision;
use crate::text::{broken_promise, number, signed};
use serde::Serialize;

/// Depth and distance agree within this (absolute + relative).
pub const LENGTH_TOLERANCE: f64 = 1e-6;

/// Normals agree when their unit directions are within this of each other.
pub const DIRECTION_TOLERANCE: f64 = 1e-5;

/// How a claim differs from the exact result. A field is `None` when the claim or the exact
/// result has nothing to compare there.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Differences {
    /// Whether the claim's verdict (intersecting or not) is the exact one.
    pub same_verdict: bool,
    /// Claimed depth minus exact depth.
    pub depth: Option<f64>,
    /// The angle between the claimed and the exact normal, radians (pi: reversed).
    pub normal_angle: Option<f64>,
    /// Claimed distance minus exact distance.
    pub distance: Option<f64>,
    /// For each claimed contact point, how far it is from the nearest exact one (`None` when
    /// the exact result has no contacts).
    pub contacts: Option<Vec<f64>>,
    /// A speculative claim's separation minus the exact distance, when both are apart (> 0:
    /// it promised more room than there is).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub separation: Option<f64>,
}

/// Whether a test's `outcome` says what `claim` says, within the tolerances above.
pub fn reproduces(outcome: &Outcome, claim: &Reported) -> bool {
    if outcome.intersecting != claim.intersecting {
        return false;
    }
    if claim.intersecting {
        let depth = claim.depth.is_some_and(|d| lengths_agree(d, outcome.depth));
        let normal = match (claim.normal, outcome.normal) {
            (Some(c), Some(n)) => directions_agree(c, n),
            _ => false,
        };
        return depth && normal;
    }
    match (claim.distance, outcome.distance) {
        (Some(c), Some(d)) => lengths_agree(c, d),
        _ => true,
    }
}

/// `|x - y| <= 1e-6 * (1 + |y|)`, `y` being the reference.
pub fn lengths_agree(x: f64, y: f64) -> bool {
    (x - y).abs() <= LENGTH_TOLERANCE * (1.0 + y.abs())
}

/// Whether `c` and `n` point the same way within [`DIRECTION_TOLERANCE`] (lengths ignored).
pub fn directions_agree(c: DVec2, n: DVec2) -> bool {
    match (c.try_normalize(), n.try_normalize()) {
        (Some(c), Some(n)) => c.distance(n) <= DIRECTION_TOLERANCE,
        _ => false,
    }
}

/// The distance from `p` to the nearest of `points` (infinite when there are none).
pub(crate) fn nearest(p: DVec2, points: &[DVec2]) -> f64 {
    points
        .iter()
        .map(|q| q.distance(p))
        .fold(f64::INFINITY, f64::min)
}

pub(crate) fn contacts_off_from(f: &Differences, exact: &PairSummary) -> Option<f64> {
    let worst = f.contacts.as_ref()?.iter().copied().fold(0.0, f64::max);
    let scale = exact
        .contacts
        .iter()
        .map(|p| p.abs().max_element())
        .fold(0.0, f64::max);
    (worst > LENGTH_TOLERANCE * (1.0 + scale)).then_some(worst)
}

/// [`differences`] of field differences `f` from the exact result `exact`.
pub(crate) fn differences_from(f: &Differences, exact: &PairSummary) -> String {
    let mut parts = Vec::new();
    if !f.same_verdict {
        parts.push("the verdict".to_string());
    }
    if let Some(x) = f
        .depth
        .filter(|x| !lengths_agree(exact.depth + x, exact.depth))
    {
        parts.push(format!("depth by {}", signed(x)));
    }
    if let Some(a) = f.normal_angle.filter(|a| *a > DIRECTION_TOLERANCE) {
        parts.push(format!("normal by {} degrees", number(a.to_degrees())));
    }
    if let Some(x) = f
        .distance
        .filter(|x| !lengths_agree(exact.distance + x, exact.distance))
    {
        parts.push(format!("distance by {}", signed(x)));
    }
    if let Some(worst) = contacts_off_from(f, exact) {
        parts.push(format!("contacts by up to {}", number(worst)));
    }
    if let Some(x) = f
        .separation
        .filter(|x| *x > 0.0 && !lengths_agree(exact.distance + x, exact.distance))
    {
        parts.push(broken_promise(exact.distance + x, exact.distance));
    }
    if parts.is_empty() {
        "nothing beyond the tolerances".into()
    } else {
        parts.join("; ")
    }
}

/// How a report is compared with a result, by the precision the engine computed in.
///
/// - `F64`: the same verdict, depth and distance within 1e-6 * (1 + |exact|), the normal's
///   direction within 1e-5.
/// - `F32 { tau }`: the minimum translation vectors (depth * unit normal, zero when apart) and
///   the gaps (the distance when apart, 0 when intersecting; left out when either side is apart
///   without a distance) within tau together: |m - m*| + |g - g*| <= tau, where tau = 2^-20
///   times the largest coordinate of the two shapes' positions and world bounding boxes. At f32
///   a verdict may differ only within tau of touching, a depth is held to tau and a normal to
///   tau / depth; a mistake that reports apart states no distance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Agreement {
    /// Double precision.
    F64,
    /// Single precision, with its tau for this pair.
    F32 {
        /// How far apart a report and a result may be.
        tau: f64,
    },
}

impl Agreement {
    /// The rule for reports about `a` and `b` computed at `precision`.
    pub fn for_pair(precision: Precision, a: &Placed, b: &Placed) -> Self {
        match precision {
            Precision::F64 => Agreement::F64,
            Precision::F32 => Agreement::F32 {
                tau: f32_tolerance(a, b),
            },
        }
    }

    /// tau, at f32.
    pub fn tolerance(self) -> Option<f64> {
        match self {
            Agreement::F64 => None,
            Agreement::F32 { tau } => Some(tau),
        }
    }

    /// Whether `reported` says what `outcome` says, by this rule.
    pub fn agrees(self, outcome: &Outcome, reported: &Reported) -> bool {
        self.says_the_same(outcome, reported) && self.keeps_promise(outcome, reported)
    }

    /// Whether `reported` says what `outcome` says, a speculative claim's promise aside.
    pub fn says_the_same(self, outcome: &Outcome, reported: &Reported) -> bool {
        match self {
            Agreement::F64 => reproduces(outcome, reported),
            Agreement::F32 { tau } => f32_error(outcome, reported) <= tau,
        }
    }

    /// A speculative claim's promise: where the exact result is apart, its distance is at
    /// least the claimed separation, within the rule's tolerance (tau at f32; at f64 the
    /// length tolerance, 1e-6 * (1 + distance)). A separation larger than the distance lets the
    /// pair sink in before the solver pushes. Any other claim keeps it.
    pub fn keeps_promise(self, outcome: &Outcome, reported: &Reported) -> bool {
        let (Some(separation), false, false) = (
            reported.separation,
            reported.intersecting,
            outcome.intersecting,
        ) else {
            return true;
        };
        let Some(distance) = outcome.distance else {
            return true;
        };
        let slack = match self {
            Agreement::F64 => LENGTH_TOLERANCE * (1.0 + distance.abs()),
            Agreement::F32 { tau } => tau,
        };
        distance >= separation - slack
    }

    /// How far `reported` is from `outcome` (at f32: |m - m*| + |g - g*|).
    pub fn error(self, outcome: &Outcome, reported: &Reported) -> Option<f64> {
        match self {
            Agreement::F64 => None,
            Agreement::F32 { .. } => Some(f32_error(outcome, reported)),
        }
    }

    /// What a mistaken test's `outcome` is compared as: at f32 an apart result states no
    /// distance.
    pub fn mistaken(self, mut outcome: Outcome) -> Outcome {
        if matches!(self, Agreement::F32 { .. }) && !outcome.intersecting {
            outcome.distance = None;
        }
        outcome
    }
}

/// tau = 2^-20 * M, M the largest absolute coordinate of the two shapes' positions and world
/// bounding boxes: the size of a few f32 roundings at that scale.
pub fn f32_tolerance(a: &Placed, b: &Placed) -> f64 {
    largest_coordinate(a, b) * (-20f64).exp2()
}

/// M: the largest absolute coordinate of the two shapes' positions and world bounding boxes.
pub fn largest_coordinate(a: &Placed, b: &Placed) -> f64 {
    [a, b]
        .into_iter()
        .flat_map(|p| {
            let (lo, hi) = p.aabb();
            let at = p.pose.position;
            [at.x, at.y, lo.x, lo.y, hi.x, hi.y]
        })
        .fold(0.0f64, |m, x| m.max(x.abs()))
}

/// How far `reported` is from the exact result `exact`, |m - m*| + |g - g*| (the MTVs and
/// the gaps), at any precision: what a plot's `error` line shows.
pub fn claim_error(exact: &PairSummary, reported: &Reported) -> f64 {
    let outcome = Outcome {
        intersecting: exact.intersecting,
        depth: exact.depth,
        normal: exact.normal,
        distance: Some(exact.distance),
    };
    f32_error(&outcome, reported)
}

/// |m - m*| + |g - g*| (the gap term left out when either side is apart with no distance).
fn f32_error(outcome: &Outcome, reported: &Reported) -> f64 {
    let mtv = |intersecting: bool, depth: Option<f64>, normal: Option<DVec2>| match (
        intersecting,
        depth,
        normal.and_then(DVec2::try_normalize),
    ) {
        (true, Some(d), Some(n)) => n * d,
        _ => DVec2::ZERO,
    };
    let gap = |intersecting: bool, distance: Option<f64>| {
        if intersecting { Some(0.0) } else { distance }
    };
    let m_claim = mtv(reported.intersecting, reported.depth, reported.normal);
    let m_exact = mtv(outcome.intersecting, Some(outcome.depth), outcome.normal);
    let gaps = gap(reported.intersecting, reported.distance)
        .zip(gap(outcome.intersecting, outcome.distance))
        .map_or(0.0, |(g, h)| (g - h).abs());
    m_claim.distance(m_exact) + gaps
}
