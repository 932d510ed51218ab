//! The adapters' side of a fixture's engine test: an engine's narrow phase asked again for a
//! fixture's pinned pairs ([`NarrowPhase`], implemented by each adapter behind its feature),
//! and the two helpers every adapter uses to answer ([`asked_piece`], [`engine_answer`]).
//! Always built: a generated engine test names the trait with no adapter's feature on.

use crate::Reported;
use crate::capture::Manifold;
use crate::geometry::Placed;

/// An engine's narrow phase, asked again for a fixture's pinned pairs by [`crate::fixture::verify_engine`]:
/// what a generated engine test (`collidoscope fixture --rust TEST.rs --engine NAME`) checks.
/// The adapters implement it behind their features (`capture::box2d::Box2dNarrowPhase`,
/// `capture::rapier::RapierNarrowPhase`, `capture::avian::AvianNarrowPhase`).
pub trait NarrowPhase {
    /// The engine as messages name it, with its version and the routine asked
    /// (`Box2D 3.2.0 (b2Collide*)`).
    fn name(&self) -> String;

    /// The engine's answer for `a` and `b`, A first (its normal from A toward B), rebuilt in
    /// the engine's own shapes and numbers, about piece `piece` of a chain when given; or why
    /// the engine cannot take the pair.
    fn contact(&self, a: &Placed, b: &Placed, piece: Option<usize>) -> Result<Reported, String>;
}

/// The piece of `chain` a [`NarrowPhase`] is asked about, or why there is none: what every
/// engine rebuilds of a chain (Box2D a `b2ChainSegment`, parry a segment).
pub fn asked_piece(
    chain: &crate::geometry::Chain,
    piece: Option<usize>,
) -> Result<crate::geometry::Piece, String> {
    let k = piece.ok_or("a pair with a chain is asked about one of its pieces")?;
    chain
        .piece(k)
        .ok_or_else(|| format!("the chain has no piece {k}"))
}

/// An engine's answer for a pair from the manifolds it computed (A first, normal from A toward
/// B, negative separation when penetrating, as the adapters convert them): the deepest
/// manifold's claim ([`Manifold::claim`]), or apart when no manifold has a
/// point. What every [`NarrowPhase`] returns.
pub fn engine_answer(manifolds: &[Manifold], piece: Option<usize>) -> Result<Reported, String> {
    use crate::capture::{NormalFrom, Penetration};
    let deepest = |m: &Manifold| {
        m.points
            .iter()
            .map(|p| p.separation)
            .fold(f64::INFINITY, f64::min)
    };
    let chosen = manifolds
        .iter()
        .filter(|m| !m.points.is_empty())
        .min_by(|x, y| deepest(x).total_cmp(&deepest(y)));
    match chosen {
        Some(m) => m
            .claim(NormalFrom::AToB, Penetration::NegativeSeparation)
            .map(|(claim, _)| claim),
        None => Ok(Reported {
            piece,
            ..Reported::default()
        }),
    }
}
