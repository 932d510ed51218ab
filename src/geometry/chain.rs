use super::circle::check_point;
use super::{ShapeError, right_perp};
use glam::DVec2;
use serde::Serialize;
use std::sync::Arc;

/// A row of one-sided segments ("pieces") with ghost points, as Box2D v3's chain shape.
///
/// - Open chain: the first and last points are ghost points only; piece `i` runs from
///   `points[i]` to `points[i + 1]` for `i = 1 ..= n - 3`.
/// - Loop: piece `i` runs from `points[i]` to `points[i + 1]` for every `i`, the last back to
///   `points[0]`.
/// - A piece collides only from its front: the right-hand side `(y, -x)` of its direction, the
///   side a counter-clockwise polygon's outward normals point to. The winding is meaning and
///   is never changed: reversing the points turns the chain inside out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Chain {
    /// Shared, not copied, when a chain is cloned (a level's long floor goes into every query
    /// and capture frame that holds it).
    points: Arc<[DVec2]>,
    #[serde(rename = "loop")]
    looped: bool,
}

/// One piece of a chain: its ends and the ghost points around them (local or world, as the
/// chain they came from).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Piece {
    /// The piece's number: the index of its first point.
    pub index: usize,
    /// The ghost point before `p1` (the previous piece's start, or the chain's first point).
    pub g0: DVec2,
    /// Where the piece starts.
    pub p1: DVec2,
    /// Where the piece ends.
    pub p2: DVec2,
    /// The ghost point after `p2`.
    pub g3: DVec2,
}

impl Piece {
    /// The front normal (the right-hand side of `p1 -> p2`), unit.
    pub fn normal(&self) -> DVec2 {
        right_perp(self.p2 - self.p1).normalize()
    }

    /// The piece moved by `f` (a pose's placement).
    pub fn mapped(&self, f: impl Fn(DVec2) -> DVec2) -> Piece {
        Piece {
            index: self.index,
            g0: f(self.g0),
            p1: f(self.p1),
            p2: f(self.p2),
            g3: f(self.g3),
        }
    }
}

impl Chain {
    /// A chain, checked: enough points (4 open, 3 in a loop), every point finite, no two
    /// consecutive points the same (nor the last and the first of a loop).
    pub fn new(points: Vec<DVec2>, looped: bool) -> Result<Self, ShapeError> {
        let needed = if looped { 3 } else { 4 };
        if points.len() < needed {
            return Err(ShapeError::ChainTooShort {
                looped,
                found: points.len(),
            });
        }
        for (i, p) in points.iter().enumerate() {
            check_point(&format!("point {i}"), *p)?;
        }
        let n = points.len();
        let links = if looped { n } else { n - 1 };
        for i in 0..links {
            let j = (i + 1) % n;
            if points[i] == points[j] {
                return Err(ShapeError::SameConsecutive {
                    first: i,
                    second: j,
                    point: points[i],
                });
            }
        }
        Ok(Self {
            points: points.into(),
            looped,
        })
    }

    /// The points, as given (local).
    pub fn points(&self) -> &[DVec2] {
        &self.points
    }

    /// Whether the chain closes on itself.
    pub fn is_loop(&self) -> bool {
        self.looped
    }

    /// The piece numbers, in order: `1 ..= n - 3` for an open chain, `0 .. n` for a loop.
    pub fn piece_numbers(&self) -> std::ops::Range<usize> {
        let n = self.points.len();
        if self.looped { 0..n } else { 1..n - 2 }
    }

    /// How many pieces the chain has.
    pub fn piece_count(&self) -> usize {
        self.piece_numbers().len()
    }

    /// Whether `k` is one of the chain's pieces.
    pub fn has_piece(&self, k: usize) -> bool {
        self.piece_numbers().contains(&k)
    }

    /// Piece `k` in local coordinates, or `None` when `k` is not a piece.
    pub fn piece(&self, k: usize) -> Option<Piece> {
        if !self.has_piece(k) {
            return None;
        }
        let n = self.points.len();
        let at = |i: usize| self.points[i % n];
        Some(Piece {
            index: k,
            g0: at(k + n - 1),
            p1: at(k),
            p2: at(k + 1),
            g3: at(k + 2),
        })
    }

    /// Every piece, in order (local).
    pub fn pieces(&self) -> impl Iterator<Item = Piece> + '_ {
        self.piece_numbers().filter_map(|k| self.piece(k))
    }

    /// Move point `i`; a point that is not finite, or that would give a piece or ghost edge
    /// of length 0, is refused and the chain stays as it was.
    pub fn set_point(&mut self, i: usize, p: DVec2) -> Result<(), ShapeError> {
        let mut points = self.points.to_vec();
        if let Some(q) = points.get_mut(i) {
            *q = p;
        }
        *self = Self::new(points, self.looped)?;
        Ok(())
    }

    /// Insert a point before index `i` (at the end for `i == len`); refused as [`Chain::new`]
    /// refuses.
    pub fn insert_point(&mut self, i: usize, p: DVec2) -> Result<(), ShapeError> {
        let mut points = self.points.to_vec();
        points.insert(i.min(points.len()), p);
        *self = Self::new(points, self.looped)?;
        Ok(())
    }

    /// Remove point `i`; refused when the chain would become too short or two points would
    /// meet.
    pub fn remove_point(&mut self, i: usize) -> Result<(), ShapeError> {
        let mut points = self.points.to_vec();
        if i < points.len() {
            points.remove(i);
        }
        *self = Self::new(points, self.looped)?;
        Ok(())
    }

    /// The same points in the other order: every piece's front turns to the other side.
    pub fn reversed(&self) -> Chain {
        let mut points = self.points.to_vec();
        points.reverse();
        Chain {
            points: points.into(),
            looped: self.looped,
        }
    }

    /// The mean of the points: where the window turns a chain about.
    pub fn centre(&self) -> DVec2 {
        self.points.iter().copied().sum::<DVec2>() / self.points.len() as f64
    }
}
