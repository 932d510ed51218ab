//! Diagnosing a contact that another engine reported (a file's `claims`): the exact result,
//! whether the claim agrees with it, by how much it differs, and which known mistakes
//! ([`Mistake`]) reproduce it.
//!
//! Agreement, as `collidoscope diagnose` defines it: the same verdict; depth and distance within
//! 1e-6 (absolute + relative: `|x - y| <= 1e-6 * (1 + |y|)`); the normal's direction within
//! 1e-5 (the distance between the two unit vectors, about the angle in radians). A mistake
//! matches a claim under the same rule, comparing what that mistaken code reports. A file that
//! says `"precision": "f32"` is judged by [`crate::Agreement::F32`] instead, as a capture is.

use crate::geometry::DVec2;
use crate::query::Outcome;
use crate::query::PairSummary;
use crate::scene::{Claim, Scene};
use crate::text::{broken_promise, number, signed};
use crate::{Judgement, Reported, check_contact_at};
use serde::Serialize;
use std::sync::Arc;

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

/// Every claim of `scene` whose shapes are both still in it, judged.
pub fn diagnose(scene: &Scene) -> Vec<Judgement> {
    scene
        .claims
        .iter()
        .filter_map(|claim| diagnose_claim(scene, claim))
        .collect()
}

/// One claim judged (`None` when one of its shapes is not in the scene), at the scene's
/// precision; its `a` and `b` are the shapes' indices, as the file numbers them.
pub fn diagnose_claim(scene: &Scene, claim: &Claim) -> Option<Judgement> {
    let (i, j) = scene.pair_of(claim.a, claim.b)?;
    let (a, b) = (&scene.shapes[i], &scene.shapes[j]);
    let claimed = Reported::from(claim);
    let check = check_contact_at(
        &a.placed,
        &b.placed,
        &claimed,
        scene.precision.unwrap_or_default(),
    );
    Some(Judgement {
        a: i as u64,
        b: j as u64,
        names: (
            a.name.as_deref().map(Arc::from),
            b.name.as_deref().map(Arc::from),
        ),
        claimed,
        check,
        previous_poses: false,
    })
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
    (worst > crate::diagnose::LENGTH_TOLERANCE * (1.0 + scale)).then_some(worst)
}

/// [`differences`] of field differences `f` from the exact result `exact`.
pub(crate) fn differences_from(f: &Differences, exact: &PairSummary) -> String {
    use crate::diagnose::lengths_agree;
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
    if let Some(a) = f
        .normal_angle
        .filter(|a| *a > crate::diagnose::DIRECTION_TOLERANCE)
    {
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
