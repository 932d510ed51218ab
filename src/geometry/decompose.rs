//! A simple polygon split into convex pieces, for the levels people import (a Tiled polygon, a
//! Godot CollisionPolygon2D are often concave; every collidoscope query takes convex shapes).
//!
//! Ear clipping first (the polygon as triangles whose corners are its own), then
//! Hertel–Mehlhorn: a diagonal goes whenever the two pieces it parts make one convex piece.
//! Every piece is convex, has only the polygon's corners as its own, overlaps no other, and
//! together they are exactly the polygon; there are at most four times the fewest convex
//! pieces possible (Hertel and Mehlhorn, 1983), and for the usual level outline (an L, a
//! staircase, a slope with a notch) as few as can be.

use super::ShapeError;
use glam::DVec2;

/// The most points a concave polygon may have to be split. Ear clipping and the joining after
/// it take time growing with the cube of the points in the worst case (a comb): 1,024 points
/// take 0.4 s, 2,048 would take seconds and 60,000 hours. Level outlines have tens.
pub const MOST_POINTS_SPLIT: usize = 1024;

fn cross(a: DVec2, b: DVec2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// Twice the signed area (positive counter-clockwise, y up).
fn area2(points: &[DVec2]) -> f64 {
    let n = points.len();
    (0..n).map(|i| cross(points[i], points[(i + 1) % n])).sum()
}

/// `points` (a simple polygon, either winding, no point repeated) as convex pieces, each
/// counter-clockwise; a convex polygon comes back as its one piece. Refused: fewer than 3
/// points, no area, edges that cross or touch ([`ShapeError::SelfIntersecting`] names the
/// first two), and polygons of more than [`MOST_POINTS_SPLIT`] points.
pub fn convex_pieces(points: &[DVec2]) -> Result<Vec<Vec<DVec2>>, ShapeError> {
    if points.len() < 3 {
        return Err(ShapeError::TooFewPoints {
            found: points.len(),
        });
    }
    if points.len() > MOST_POINTS_SPLIT {
        return Err(ShapeError::TooManyToSplit {
            found: points.len(),
            most: MOST_POINTS_SPLIT,
        });
    }
    if let Some((edge_a, edge_b)) = super::polygon::first_crossing(points) {
        return Err(ShapeError::SelfIntersecting { edge_a, edge_b });
    }
    let area = area2(points);
    if area == 0.0 {
        return Err(ShapeError::ZeroArea);
    }
    let mut ring: Vec<DVec2> = points.to_vec();
    if area < 0.0 {
        ring.reverse();
    }
    // Corners where the outline goes straight on are no corners: left out, the outline is
    // the same.
    let straight = |ring: &[DVec2], i: usize| {
        let n = ring.len();
        let (p, q, r) = (ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]);
        cross(q - p, r - q) == 0.0 && (q - p).dot(r - q) > 0.0
    };
    let mut i = 0;
    while ring.len() > 3 && i < ring.len() {
        if straight(&ring, i) {
            ring.remove(i);
        } else {
            i += 1;
        }
    }
    if ring.len() < 3 || area2(&ring) <= 0.0 {
        return Err(ShapeError::ZeroArea);
    }
    let triangles = ear_clip(&ring);
    let pieces = merge(&ring, triangles);
    Ok(pieces
        .into_iter()
        .map(|piece| piece.into_iter().map(|k| ring[k]).collect())
        .collect())
}

/// Whether `p` is in the closed triangle a, b, c (counter-clockwise).
fn in_triangle(p: DVec2, a: DVec2, b: DVec2, c: DVec2) -> bool {
    cross(b - a, p - a) >= 0.0 && cross(c - b, p - b) >= 0.0 && cross(a - c, p - c) >= 0.0
}

/// The ring (counter-clockwise, simple) as triangles of its indices.
fn ear_clip(ring: &[DVec2]) -> Vec<[usize; 3]> {
    let mut left: Vec<usize> = (0..ring.len()).collect();
    let mut triangles = Vec::with_capacity(ring.len() - 2);
    while left.len() > 3 {
        let n = left.len();
        let corner = |k: usize| {
            let (a, b, c) = (left[(k + n - 1) % n], left[k], left[(k + 1) % n]);
            (a, b, c, cross(ring[b] - ring[a], ring[c] - ring[b]))
        };
        let is_ear = |k: usize| {
            let (a, b, c, turn) = corner(k);
            turn > 0.0
                && left.iter().all(|&v| {
                    v == a
                        || v == b
                        || v == c
                        || ring[v] == ring[a]
                        || ring[v] == ring[b]
                        || ring[v] == ring[c]
                        || !in_triangle(ring[v], ring[a], ring[b], ring[c])
                })
        };
        // A simple polygon always has an ear; rounding can hide it, and then the corner that
        // turns most to the left is taken.
        let k = (0..n).find(|&k| is_ear(k)).unwrap_or_else(|| {
            (0..n)
                .max_by(|&i, &j| corner(i).3.total_cmp(&corner(j).3))
                .expect("more than three corners")
        });
        let (a, b, c, turn) = corner(k);
        if turn > 0.0 {
            triangles.push([a, b, c]);
        }
        left.remove(k);
    }
    if cross(ring[left[1]] - ring[left[0]], ring[left[2]] - ring[left[1]]) > 0.0 {
        triangles.push([left[0], left[1], left[2]]);
    }
    triangles
}

/// Whether the piece (indices into `ring`, counter-clockwise) turns left or goes straight at
/// every corner.
fn convex(ring: &[DVec2], piece: &[usize]) -> bool {
    let n = piece.len();
    (0..n).all(|i| {
        let (p, q, r) = (
            ring[piece[(i + n - 1) % n]],
            ring[piece[i]],
            ring[piece[(i + 1) % n]],
        );
        cross(q - p, r - q) >= 0.0
    })
}

/// The two pieces joined across their shared edge, if they share one.
fn joined(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let (n, m) = (a.len(), b.len());
    for i in 0..n {
        let (u, v) = (a[i], a[(i + 1) % n]);
        // In b the shared edge runs the other way: v then u.
        if let Some(j) = (0..m).find(|&j| b[j] == v && b[(j + 1) % m] == u) {
            // a from v round to u, then b from u round to v, both ends left out of b.
            let mut out: Vec<usize> = (0..n).map(|k| a[(i + 1 + k) % n]).collect();
            out.extend((0..m - 2).map(|k| b[(j + 2 + k) % m]));
            return Some(out);
        }
    }
    None
}

/// Hertel–Mehlhorn: join neighbouring pieces while the join stays convex.
fn merge(ring: &[DVec2], triangles: Vec<[usize; 3]>) -> Vec<Vec<usize>> {
    let mut pieces: Vec<Vec<usize>> = triangles.into_iter().map(|t| t.to_vec()).collect();
    let mut joined_one = true;
    while joined_one {
        joined_one = false;
        'search: for i in 0..pieces.len() {
            for j in i + 1..pieces.len() {
                if let Some(piece) = joined(&pieces[i], &pieces[j])
                    && convex(ring, &piece)
                {
                    pieces[i] = piece;
                    pieces.remove(j);
                    joined_one = true;
                    break 'search;
                }
            }
        }
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::ConvexPolygon;
    use proptest::prelude::*;

    fn pts(p: &[(f64, f64)]) -> Vec<DVec2> {
        p.iter().map(|&(x, y)| DVec2::new(x, y)).collect()
    }

    /// Every piece convex (collidoscope takes it), the areas adding up to the polygon's, and
    /// every piece's centre inside the polygon.
    fn check(points: &[DVec2], pieces: &[Vec<DVec2>]) {
        let total: f64 = pieces.iter().map(|p| area2(p)).sum();
        let whole = area2(points).abs();
        assert!((total - whole).abs() <= 1e-9 * whole, "{total} vs {whole}");
        for piece in pieces {
            assert!(area2(piece) > 0.0, "{piece:?} is counter-clockwise");
            ConvexPolygon::new(piece.clone()).expect("a convex piece");
            let centre = piece.iter().copied().sum::<DVec2>() / piece.len() as f64;
            assert!(inside(centre, points), "{centre} inside");
        }
    }

    fn inside(p: DVec2, ring: &[DVec2]) -> bool {
        let n = ring.len();
        let mut odd = false;
        for i in 0..n {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
                odd = !odd;
            }
        }
        odd
    }

    #[test]
    fn a_convex_polygon_is_its_own_one_piece() {
        let square = pts(&[(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)]);
        let pieces = convex_pieces(&square).unwrap();
        assert_eq!(pieces.len(), 1);
        check(&square, &pieces);
    }

    #[test]
    fn an_l_and_a_staircase_split_into_as_few_pieces_as_can_be() {
        // Clockwise, as a y-down editor might give it.
        let l = pts(&[
            (0.0, 0.0),
            (0.0, 3.0),
            (1.0, 3.0),
            (1.0, 1.0),
            (3.0, 1.0),
            (3.0, 0.0),
        ]);
        let pieces = convex_pieces(&l).unwrap();
        assert_eq!(pieces.len(), 2);
        check(&l, &pieces);
        let stairs = pts(&[
            (0.0, 0.0),
            (3.0, 0.0),
            (3.0, 1.0),
            (2.0, 1.0),
            (2.0, 2.0),
            (1.0, 2.0),
            (1.0, 3.0),
            (0.0, 3.0),
        ]);
        let pieces = convex_pieces(&stairs).unwrap();
        assert_eq!(pieces.len(), 3);
        check(&stairs, &pieces);
    }

    #[test]
    fn points_on_a_straight_edge_are_kept_out_of_the_corners() {
        let notched = pts(&[
            (0.0, 0.0),
            (1.0, 0.0),
            (2.0, 0.0),
            (2.0, 2.0),
            (1.0, 1.0),
            (0.0, 2.0),
        ]);
        let pieces = convex_pieces(&notched).unwrap();
        assert_eq!(pieces.len(), 2);
        check(&notched, &pieces);
    }

    #[test]
    fn a_bow_tie_and_a_flat_outline_are_refused_by_name() {
        let bow = pts(&[(0.0, 0.0), (2.0, 2.0), (2.0, 0.0), (0.0, 2.0)]);
        assert_eq!(
            convex_pieces(&bow),
            Err(ShapeError::SelfIntersecting {
                edge_a: 0,
                edge_b: 2
            })
        );
        let flat = pts(&[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)]);
        assert_eq!(convex_pieces(&flat), Err(ShapeError::ZeroArea));
        assert_eq!(
            convex_pieces(&flat[..2]),
            Err(ShapeError::TooFewPoints { found: 2 })
        );
    }

    proptest! {
        /// Star-shaped outlines (simple by construction, often very concave): the pieces are
        /// convex, inside, and add up to the polygon.
        #[test]
        fn any_simple_outline_splits_into_convex_pieces_that_make_it_up(
            radii in proptest::collection::vec(0.2f64..5.0, 3..40),
            turn in 0.0f64..6.3,
            clockwise in any::<bool>(),
        ) {
            let n = radii.len();
            let mut points: Vec<DVec2> = radii
                .iter()
                .enumerate()
                .map(|(k, r)| {
                    let a = turn + std::f64::consts::TAU * k as f64 / n as f64;
                    DVec2::new(r * a.cos(), r * a.sin())
                })
                .collect();
            if clockwise {
                points.reverse();
            }
            let pieces = convex_pieces(&points).unwrap();
            check(&points, &pieces);
            prop_assert!(pieces.len() <= n - 2);
        }
    }
}
