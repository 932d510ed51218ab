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
use crate::query::{Mistake, Outcome, PairRecord};
use crate::scene::{Claim, Scene};
use crate::{Reported, check_contact_at};
use serde::Serialize;

/// Depth and distance agree within this (absolute + relative).
pub const LENGTH_TOLERANCE: f64 = 1e-6;
/// Normals agree when their unit directions are within this of each other.
pub const DIRECTION_TOLERANCE: f64 = 1e-5;

/// The diagnosis of one claim.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnosis {
    /// Shape A's index.
    pub a: usize,
    /// Shape B's index.
    pub b: usize,
    /// The chain's piece the claim is about, if it names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<usize>,
    /// Whether the claim agrees with the exact result.
    pub agrees: bool,
    /// The exact result, as `query --json` prints it.
    pub exact: PairRecord,
    /// Every known mistake that reproduces the claim, in [`Mistake::ALL`]'s order; empty when
    /// the claim agrees.
    pub matches: Vec<Mistake>,
    /// How far the claim is from the exact result, field by field.
    pub differences: Differences,
    /// At f32 (a file with `"precision": "f32"`): tau, how far apart claim and result may be.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
    /// At f32: how far apart they are, |m - m*| + |g - g*|.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<f64>,
}

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

/// Every claim of `scene` whose shapes are both still in it, diagnosed.
pub fn diagnose(scene: &Scene) -> Vec<Diagnosis> {
    scene
        .claims
        .iter()
        .filter_map(|claim| diagnose_claim(scene, claim))
        .collect()
}

/// One claim diagnosed (`None` when one of its shapes is not in the scene), at the scene's
/// precision.
pub fn diagnose_claim(scene: &Scene, claim: &Claim) -> Option<Diagnosis> {
    let (i, j) = scene.pair_of(claim.a, claim.b)?;
    let check = check_contact_at(
        &scene.shapes[i].placed,
        &scene.shapes[j].placed,
        &Reported::from(claim),
        scene.precision.unwrap_or_default(),
    );
    Some(Diagnosis {
        a: i,
        b: j,
        piece: check.piece.map(|p| p.0),
        agrees: check.agrees,
        exact: PairRecord {
            piece: check.piece.map(|p| p.0),
            rule: check.piece.map(|p| p.1),
            two_sided: check.piece.map(|p| p.2),
            ..PairRecord::pair(i as u64, j as u64, check.exact)
        },
        matches: check.matches,
        differences: check.differences,
        tolerance: check.tolerance,
        error: check.error,
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
