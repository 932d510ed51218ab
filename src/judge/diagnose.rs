//! Diagnosing a contact that another engine reported (a file's `claims`): the exact result,
//! whether the claim agrees with it, by how much it differs, and which known mistakes
//! ([`Mistake`]) reproduce it.
//!
//! Agreement, as `collidoscope diagnose` defines it: the same verdict; depth and distance within
//! 1e-6 (absolute + relative: `|x - y| <= 1e-6 * (1 + |y|)`); the normal's direction within
//! 1e-5 (the distance between the two unit vectors, about the angle in radians). A mistake
//! matches a claim under the same rule, comparing what that mistaken code reports. A file that
//! says `"precision": "f32"` is judged by [`crate::Agreement::F32`] instead, as a capture is.

pub use super::agreement::{
    DIRECTION_TOLERANCE, Differences, LENGTH_TOLERANCE, directions_agree, lengths_agree, reproduces,
};
use crate::scene::{Claim, Scene};
use crate::{Judgement, check_contact_at};
use std::sync::Arc;

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
    let claimed = claim.reported.clone();
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
