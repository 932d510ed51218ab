//! Chains: a row of one-sided pieces with ghost points, and the rule that keeps a shape
//! sliding over them from catching on the seams between pieces.
//!
//! This is Box2D v3's chain shape (`b2CollideChainSegmentAndPolygon` and `b2ClassifyNormal`,
//! src/manifold.c) stated exactly for every kind (docs/format.md, "The chain rule"). For piece
//! `k` from `p1` to `p2`, ghost points `g0` before and `g3` after:
//!
//! ```text
//! e0 = unit(p1 - g0), e1 = unit(p2 - p1), e2 = unit(g3 - p2); n_i = right_perp(e_i)
//! tail convex when cross(e0, e1) >= 0.01, head convex when cross(e1, e2) >= 0.01
//! C = n1 turned by [-t_tail, t_head] (t = the corner's turn when convex, else 0)
//! push(u) = max(u.p1, u.p2) - min over X of u.x
//!
//! apart   X does not overlap the piece's segment
//! behind  X's centre strictly behind the piece (and behind each convex neighbour)
//! else    depth = least push over C, at direction u*:
//!         skip  when u* is a convex end's neighbour normal (the neighbour reports it)
//!         admit when the two-sided normal lies in C (the two-sided result)
//!         snap  otherwise (the two-sided normal pointed along the surface, past a seam)
//! ```
//!
//! The least push over the arc C is exact, not sampled: `push` is the support function of the
//! convex set `segment - X`, which on an arc of directions is smallest at an end of the arc,
//! at a normal of one of that set's faces (the segment's normals, X's core normals), or where
//! the direction points from a corner of the segment to a corner of X's core. Every such
//! direction inside C is measured and the least kept.

use super::closest::Proximity;
use super::contact::{Contact, manifold};
use super::fast_path::collide_convex;
use super::piece::{Admissible, ChainReport, PieceResult, SAME_DIRECTION, signed_angle};
use super::record::PairSummary;
use super::report::{PairReport, distance_convex, pair_report_convex};
use super::types::{AxisSource, ChainRule, TwoSided};
use crate::geometry::{Chain, DVec2, Piece, Placed, Pose, Rounded, Segment, Shape};

/// Every piece's result for the pair `a`, `b` when one of them is a chain (A first, as
/// always: normals from A toward B). Empty when neither is a chain, or both are (two chains
/// never collide).
pub fn chain_pieces(a: &Placed, b: &Placed) -> Vec<PieceResult> {
    match (&a.shape, &b.shape) {
        (Shape::Chain(_), Shape::Chain(_)) => Vec::new(),
        (Shape::Chain(chain), _) => pieces_against(chain, a.pose, b, true),
        (_, Shape::Chain(chain)) => pieces_against(chain, b.pose, a, false),
        _ => Vec::new(),
    }
}

/// Piece `piece`'s result for the pair `a`, `b` (one of them a chain), if it is a piece.
pub fn chain_piece(a: &Placed, b: &Placed, piece: usize) -> Option<PieceResult> {
    match (&a.shape, &b.shape) {
        (Shape::Chain(_), Shape::Chain(_)) => None,
        (Shape::Chain(chain), _) => piece_result(a.pose, chain.piece(piece)?, b, true),
        (_, Shape::Chain(chain)) => piece_result(b.pose, chain.piece(piece)?, a, false),
        _ => None,
    }
}

fn pieces_against(chain: &Chain, pose: Pose, other: &Placed, chain_is_a: bool) -> Vec<PieceResult> {
    chain
        .pieces()
        .filter_map(|piece| piece_result(pose, piece, other, chain_is_a))
        .collect()
}

/// The contact of a pair with a chain: its deepest admitted or snapped piece (`None` when no
/// piece reports a contact, or for two chains).
///
/// Streamed: only the pieces whose box meets the other shape's are tested (one apart from
/// it by its box cannot intersect it), and nothing is kept for the others, so a query against
/// a level's long floor costs what its nearby pieces cost, with no copy of the chain.
pub fn chain_contact(a: &Placed, b: &Placed) -> Option<Contact> {
    let (chain, pose, other, chain_is_a) = match (&a.shape, &b.shape) {
        (Shape::Chain(_), Shape::Chain(_)) => return None,
        (Shape::Chain(chain), _) => (chain, a.pose, b, true),
        (_, Shape::Chain(chain)) => (chain, b.pose, a, false),
        _ => return None,
    };
    let (low, high) = other.aabb();
    // A margin far above rounding error: a piece this near is tested exactly.
    let margin = DVec2::splat(1e-9 * (1.0 + low.abs().max(high.abs()).max_element()));
    let (low, high) = (low - margin, high + margin);
    chain
        .pieces()
        .filter(|piece| {
            let (p1, p2) = (pose.apply(piece.p1), pose.apply(piece.p2));
            p1.min(p2).cmple(high).all() && p1.max(p2).cmpge(low).all()
        })
        .filter_map(|piece| piece_result(pose, piece, other, chain_is_a))
        .filter(|p| p.intersecting())
        .max_by(|p, q| p.summary.depth.total_cmp(&q.summary.depth))?
        .summary
        .contact()
}

/// Piece `piece` of a chain at `pose` against `other`.
fn piece_result(pose: Pose, piece: Piece, other: &Placed, chain_is_a: bool) -> Option<PieceResult> {
    let world = piece.mapped(|p| pose.apply(p));
    let segment = piece_placed(&piece, pose)?;
    // The two-sided result, in the pair's order.
    let (first, second) = if chain_is_a {
        (&segment, other)
    } else {
        (other, &segment)
    };
    let contact = collide_convex(first, second);
    let two_sided = TwoSided {
        intersecting: contact.is_some(),
        depth: contact.as_ref().map_or(0.0, |c| c.depth),
        normal: contact.as_ref().map(|c| c.normal + DVec2::ZERO),
    };
    // From the piece toward the other shape, and back to the pair's order.
    let orient = |u: DVec2| if chain_is_a { u } else { -u };

    let admissible = Admissible::of(&world);
    let n1 = admissible.face;
    let mut result = PieceResult {
        piece: piece.index,
        rule: ChainRule::Apart,
        summary: PairSummary {
            intersecting: false,
            depth: 0.0,
            normal: None,
            distance: 0.0,
            closest: None,
            contacts: Vec::new(),
        },
        two_sided,
        ends: [world.p1, world.p2],
        ghosts: [world.g0, world.g3],
        admissible,
        least: None,
        chain_is_a,
    };

    // 1. apart: the distance and closest points of the piece as a segment.
    let Some(contact) = contact else {
        let proximity = distance_convex(first, second);
        result.summary.distance = proximity.distance;
        result.summary.closest = proximity
            .closest
            .map(|c| [c.point_a + DVec2::ZERO, c.point_b + DVec2::ZERO]);
        return Some(result);
    };

    // 2. behind: the centre strictly behind the piece and every convex neighbour.
    if admissible.behind(&world, other.centre()) {
        result.rule = ChainRule::Behind;
        return Some(result);
    }

    // 3. the least push over the admissible directions.
    let origin = world.p1;
    let x = Rounded::new(other, origin);
    let (q1, q2) = (DVec2::ZERO, world.p2 - origin);
    let push = |u: DVec2| q1.dot(u).max(q2.dot(u)) - x.project(u).min;
    let scale = q2.length() + x.centre.length() + other.shape.bounding_radius();
    let tie = 1e-12 * scale;
    // n1 first, then the neighbours' normals, then every other critical direction in C:
    // a later direction replaces the best only when clearly less, so ties keep that order.
    let mut best = (n1, push(n1));
    let consider = |u: DVec2, best: &mut (DVec2, f64)| {
        let p = push(u);
        if p < best.1 - tie {
            *best = (u, p);
        }
    };
    for n in [admissible.tail, admissible.head].into_iter().flatten() {
        consider(n, &mut best);
    }
    let mut critical: Vec<DVec2> = Vec::with_capacity(2 * x.normals.len() + 2 * x.points.len());
    for m in x.normals.iter() {
        critical.push(*m);
        critical.push(-*m);
    }
    for corner in x.points.iter() {
        for end in [q1, q2] {
            if let Some(u) = (*corner - end).try_normalize() {
                critical.push(u);
            }
        }
    }
    for u in critical {
        if admissible.contains(u) {
            consider(u, &mut best);
        }
    }
    let (direction, depth) = best;
    result.least = Some((direction, depth));

    let near =
        |n: Option<DVec2>| n.is_some_and(|n| signed_angle(n, direction).abs() <= SAME_DIRECTION);
    if near(admissible.tail) || near(admissible.head) {
        result.rule = ChainRule::Skip;
        return Some(result);
    }
    let two_sided_normal = orient(contact.normal);
    if admissible.contains(two_sided_normal) {
        result.rule = ChainRule::Admit;
        result.summary = PairSummary::of_contact(&contact);
        return Some(result);
    }
    // Snap: the least admissible push, its contact points from the manifold along it.
    result.rule = ChainRule::Snap;
    let piece_view = Rounded::new(&segment, origin);
    let normal = orient(direction);
    let mut points = if chain_is_a {
        manifold(&piece_view, &x, normal, depth, AxisSource::AnyAxis)
    } else {
        manifold(&x, &piece_view, normal, depth, AxisSource::AnyAxis)
    };
    for p in &mut points {
        p.point += origin;
    }
    result.summary = PairSummary::of_contact(&Contact {
        depth,
        normal,
        points,
    });
    Some(result)
}

/// The pieces of `placed` as two-sided segments at its pose, or `placed` itself when it is
/// not a chain.
fn as_segments(placed: &Placed) -> Vec<Placed> {
    match &placed.shape {
        Shape::Chain(chain) => chain
            .pieces()
            .filter_map(|p| piece_placed(&p, placed.pose))
            .collect(),
        _ => vec![placed.clone()],
    }
}

/// The distance of a pair with a chain: the least over its pieces (taken as segments) and
/// the closest points there. Ghost edges are not part of a chain.
pub(crate) fn chain_distance(a: &Placed, b: &Placed) -> Proximity {
    let (pieces_a, pieces_b) = (as_segments(a), as_segments(b));
    let mut best: Option<Proximity> = None;
    for sa in &pieces_a {
        for sb in &pieces_b {
            let p = distance_convex(sa, sb);
            if best.is_none_or(|b| p.distance < b.distance) {
                best = Some(p);
            }
        }
    }
    best.unwrap_or(Proximity {
        distance: f64::INFINITY,
        closest: None,
    })
}

/// A piece (local) as a two-sided segment at the chain's `pose`.
pub(super) fn piece_placed(piece: &Piece, pose: Pose) -> Option<Placed> {
    Some(Placed::new(Segment::new(piece.p1, piece.p2).ok()?, pose))
}

/// Piece `k` of the chain in `placed` as a two-sided segment at the chain's pose (`None`
/// when `placed` is no chain or `k` no piece).
pub fn piece_segment(placed: &Placed, k: usize) -> Option<Placed> {
    piece_placed(&placed.shape.as_chain()?.piece(k)?, placed.pose)
}

/// [`super::pair_report`] of a pair with a chain: the deciding piece's two-sided test (its
/// axes, as a segment), with the chain rule's contact in place of the two-sided one.
pub(crate) fn chain_report(a: &Placed, b: &Placed) -> PairReport {
    let pieces = chain_pieces(a, b);
    let deciding = pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.intersecting())
        // The deepest; of equally deep pieces, one the rule snapped (where it changed the
        // answer), else the first.
        .max_by(|(i, p), (j, q)| {
            let snapped = |r: &PieceResult| r.rule == ChainRule::Snap;
            (p.summary.depth.total_cmp(&q.summary.depth))
                .then(snapped(p).cmp(&snapped(q)))
                .then(j.cmp(i))
        })
        .or_else(|| {
            pieces
                .iter()
                .enumerate()
                .find(|(_, p)| matches!(p.rule, ChainRule::Behind | ChainRule::Skip))
        })
        .or_else(|| {
            pieces
                .iter()
                .enumerate()
                .min_by(|(_, p), (_, q)| p.summary.distance.total_cmp(&q.summary.distance))
        })
        .map(|(k, _)| k);
    let segment_of = |placed: &Placed, k: Option<usize>| match &placed.shape {
        Shape::Chain(c) => {
            let piece = k.or_else(|| c.piece_numbers().next())?;
            piece_segment(placed, piece)
        }
        _ => Some(placed.clone()),
    };
    let piece = deciding.map(|k| pieces[k].piece);
    let (Some(sa), Some(sb)) = (segment_of(a, piece), segment_of(b, piece)) else {
        unreachable!("a chain has at least one piece")
    };
    let mut report = pair_report_convex(&sa, &sb);
    match deciding.map(|k| &pieces[k]) {
        Some(p) if p.intersecting() => report.contact = p.summary.contact(),
        Some(p) => {
            report.contact = None;
            report.region = Default::default();
            if p.rule != ChainRule::Apart {
                report.proximity = Proximity {
                    distance: 0.0,
                    closest: None,
                };
            }
        }
        None => {
            // Two chains never collide.
            report.contact = None;
            report.region = Default::default();
            report.proximity = chain_distance(a, b);
        }
    }
    report.chain = Some(ChainReport { pieces, deciding });
    report
}
