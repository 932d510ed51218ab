//! The cells of a uniform grid that a segment crosses, in the order it reaches them.
//!
//! A DDA after Amanatides and Woo ("A fast voxel traversal algorithm for ray tracing",
//! Eurographics 1987), walked one slab at a time along the segment's major axis (the
//! coordinate that changes more): the segment crosses the slab of column `k` between two
//! fractions; over that stretch the other coordinate spans at most one cell side, so the
//! column's cells are the two or three rows between its ends.
//!
//! ```text
//! for each column k from the one holding `from` to the one holding `to`:
//!     [t0, t1] = the fractions where the segment is in column k (clamped to [0, 1])
//!     rows     = the rows holding y(t0) and y(t1), and every row between, in travel order
//!     yield (k, row) for each row, each reached no earlier than t0
//! ```
//!
//! Every column's and row's extent is widened by `slack` on both sides, so a point of the
//! segment whose cell index rounding decides (a segment along a cell boundary, through a
//! cell corner, or `from`'s own coordinates a hair from a boundary) is never missed: the walk
//! holds every cell [`super::Grid::cell_of`] gives for a point within `slack` of the segment,
//! and a few cells within `slack` of it besides. Indices come from the grid's own
//! [`cell_index`], so a box and a walk agree on where a boundary is.

use super::grid::{Cell, cell_index};
use crate::geometry::DVec2;

/// A cell on a walk, and the earliest fraction of the segment that can lie in it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WalkedCell {
    /// The cell: column and row.
    pub cell: Cell,
    /// No point of the segment at a smaller fraction lies within `slack` of this cell or of
    /// any cell after it on the walk (never decreasing along the walk, in [0, 1]).
    pub reached: f64,
}

/// The cells within `slack` of a segment, in the order the segment reaches them, each once
/// (an iterator of [`WalkedCell`]).
#[derive(Clone, Debug)]
pub struct CellWalk {
    /// `from` and `to` with the major axis first.
    from: DVec2,
    to: DVec2,
    /// Whether the major axis is y (coordinates are swapped back when a cell is yielded).
    swapped: bool,
    cell_size: f64,
    slack: f64,
    /// +1 or -1: the direction of travel along the major axis.
    step: i64,
    first_column: i64,
    column: i64,
    last_column: i64,
    /// The rows of the current column still to yield: `row` up to `last_row`, by `row_step`.
    row: i64,
    last_row: i64,
    row_step: i64,
    /// The fraction at which the segment reaches the current column.
    reached: f64,
    done: bool,
}

impl CellWalk {
    /// The walk of the segment `from -> to` over square cells `cell_size` wide (finite,
    /// > 0), taking every cell within `slack` (>= 0) of the segment.
    pub fn new(from: DVec2, to: DVec2, cell_size: f64, slack: f64) -> Self {
        let d = to - from;
        let swapped = d.y.abs() > d.x.abs();
        let (from, to) = if swapped {
            (DVec2::new(from.y, from.x), DVec2::new(to.y, to.x))
        } else {
            (from, to)
        };
        let step = if to.x >= from.x { 1 } else { -1 };
        let towards = step as f64 * slack;
        let first_column = cell_index(from.x - towards, cell_size) as i64;
        let mut walk = Self {
            from,
            to,
            swapped,
            cell_size,
            slack,
            step,
            first_column,
            column: first_column,
            last_column: cell_index(to.x + towards, cell_size) as i64,
            row: 0,
            last_row: 0,
            row_step: 1,
            reached: 0.0,
            done: false,
        };
        walk.enter_column();
        walk
    }

    /// How many columns (slabs of the major axis) the walk crosses: it yields at most three
    /// cells per column, fewer when `slack` is small beside the cell size. A caller can test
    /// every shape instead when that is cheaper.
    pub fn columns(&self) -> u64 {
        self.first_column.abs_diff(self.last_column) + 1
    }

    /// Set up the rows of `self.column`.
    fn enter_column(&mut self) {
        let (k, s, towards) = (self.column, self.cell_size, self.step as f64 * self.slack);
        // The column's boundaries in the direction of travel, widened by the slack; the first
        // and last columns are cut at the segment's ends.
        let (near, far) = if self.step > 0 {
            (k as f64 * s, (k + 1) as f64 * s)
        } else {
            ((k + 1) as f64 * s, k as f64 * s)
        };
        let entry = if k == self.first_column {
            self.from.x
        } else {
            near
        } - towards;
        let exit = if k == self.last_column {
            self.to.x
        } else {
            far
        } + towards;
        let dx = self.to.x - self.from.x;
        let (t0, t1) = if dx == 0.0 {
            // A zero-length segment: the major axis changes at least as much as the other.
            (0.0, 1.0)
        } else {
            let at = |x: f64| ((x - self.from.x) / dx).clamp(0.0, 1.0);
            (at(entry), at(exit))
        };
        let y = |t: f64| {
            if t >= 1.0 {
                self.to.y
            } else {
                self.from.y + (self.to.y - self.from.y) * t
            }
        };
        let (y0, y1) = (y(t0), y(t1));
        let (low, high) = (
            cell_index(y0.min(y1) - self.slack, s) as i64,
            cell_index(y0.max(y1) + self.slack, s) as i64,
        );
        (self.row, self.last_row, self.row_step) = if self.to.y >= self.from.y {
            (low, high, 1)
        } else {
            (high, low, -1)
        };
        self.reached = self.reached.max(t0);
    }
}

impl Iterator for CellWalk {
    type Item = WalkedCell;

    fn next(&mut self) -> Option<WalkedCell> {
        if self.done {
            return None;
        }
        if self.row == self.last_row + self.row_step {
            if self.column == self.last_column {
                self.done = true;
                return None;
            }
            self.column += self.step;
            self.enter_column();
        }
        let (column, row) = (self.column as i32, self.row as i32);
        self.row += self.row_step;
        Some(WalkedCell {
            cell: if self.swapped {
                (row, column)
            } else {
                (column, row)
            },
            reached: self.reached,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad::Grid;
    use crate::scene::generate::Random;
    use std::collections::HashMap;

    /// A coordinate: anywhere, or exactly on a cell boundary (a multiple of `s`).
    fn coordinate(random: &mut Random, s: f64) -> f64 {
        if random.unit() < 0.3 {
            (random.between(-6.0, 6.0)).round() * s
        } else {
            random.between(-6.0, 6.0) * s
        }
    }

    fn walked(from: DVec2, to: DVec2, s: f64, slack: f64) -> Vec<WalkedCell> {
        CellWalk::new(from, to, s, slack).collect()
    }

    /// The distance between the segment `a`-`b` and the closed square of cell `c`.
    fn distance_to_cell(a: DVec2, b: DVec2, (x, y): Cell, s: f64) -> f64 {
        let (lo, hi) = (
            DVec2::new(x as f64, y as f64) * s,
            DVec2::new((x + 1) as f64, (y + 1) as f64) * s,
        );
        // Liang-Barsky: the segment meets the square when its clipped range is not empty.
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        let d = b - a;
        for (p, q) in [
            (-d.x, a.x - lo.x),
            (d.x, hi.x - a.x),
            (-d.y, a.y - lo.y),
            (d.y, hi.y - a.y),
        ] {
            if p == 0.0 {
                if q < 0.0 {
                    t1 = -1.0;
                }
            } else if p < 0.0 {
                t0 = t0.max(q / p);
            } else {
                t1 = t1.min(q / p);
            }
        }
        if t0 <= t1 {
            return 0.0;
        }
        let to_square = |p: DVec2| (p.clamp(lo, hi) - p).length();
        let to_segment = |p: DVec2| {
            let t = if d == DVec2::ZERO {
                0.0
            } else {
                ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0)
            };
            (a + d * t - p).length()
        };
        let corners = [lo, hi, DVec2::new(lo.x, hi.y), DVec2::new(hi.x, lo.y)];
        [to_square(a), to_square(b)]
            .into_iter()
            .chain(corners.map(to_segment))
            .fold(f64::INFINITY, f64::min)
    }

    /// On random segments (many along cell boundaries or through corners, some of zero
    /// length): every cell the segment meets is walked, and the cell `Grid::cell_of` gives for
    /// any point of it, with `reached` no later than that point's fraction; each cell once,
    /// `reached` never decreasing, and no cell farther than the slack from the segment.
    #[test]
    fn the_walk_holds_every_cell_the_segment_meets_once_in_order() {
        let mut random = Random::from_state(0x9e37_79b9_7f4a_7c15);
        for case in 0..3000 {
            let s = [1.0, 0.5, 0.3, 2.7, 1e-3][case % 5];
            let from = DVec2::new(coordinate(&mut random, s), coordinate(&mut random, s));
            let to = match case % 4 {
                0 => from,
                1 => DVec2::new(coordinate(&mut random, s), from.y),
                2 => from + DVec2::splat(coordinate(&mut random, s)),
                _ => DVec2::new(coordinate(&mut random, s), coordinate(&mut random, s)),
            };
            let slack = 1e-12 * (s + from.abs().max_element() + to.abs().max_element());
            let walk = walked(from, to, s, slack);
            let mut reached: HashMap<Cell, f64> = HashMap::new();
            for (i, w) in walk.iter().enumerate() {
                assert!(reached.insert(w.cell, w.reached).is_none(), "twice: {w:?}");
                assert!((0.0..=1.0).contains(&w.reached));
                if i > 0 {
                    assert!(walk[i - 1].reached <= w.reached, "{from} -> {to}: {walk:?}");
                }
                let off = distance_to_cell(from, to, w.cell, s);
                assert!(off <= 4.0 * slack, "{from} -> {to}: {w:?} is {off} away");
            }
            let grid = Grid::new(s);
            let (lo, hi) = (grid.cell_of(from.min(to)), grid.cell_of(from.max(to)));
            for x in lo.0 - 1..=hi.0 + 1 {
                for y in lo.1 - 1..=hi.1 + 1 {
                    if distance_to_cell(from, to, (x, y), s) == 0.0 {
                        assert!(
                            reached.contains_key(&(x, y)),
                            "{from} -> {to} (cell {s}) meets {:?}: {walk:?}",
                            (x, y)
                        );
                    }
                }
            }
            for k in 0..=64 {
                let t = k as f64 / 64.0;
                let p = from + (to - from) * t;
                let cell = grid.cell_of(p);
                let first = reached.get(&cell).copied();
                assert!(
                    first.is_some_and(|r| r <= t),
                    "{from} -> {to} (cell {s}): {p} at {t} in {cell:?}: {first:?}"
                );
            }
        }
    }

    #[test]
    fn a_segment_along_a_cell_boundary_walks_the_rows_on_both_sides() {
        let cells: Vec<Cell> = walked(DVec2::new(0.5, 2.0), DVec2::new(2.5, 2.0), 1.0, 1e-12)
            .iter()
            .map(|w| w.cell)
            .collect();
        assert_eq!(cells, [(0, 1), (0, 2), (1, 1), (1, 2), (2, 1), (2, 2)]);
    }

    #[test]
    fn a_diagonal_through_cell_corners_walks_the_cells_around_each_corner() {
        let cells: Vec<Cell> = walked(DVec2::new(0.5, 0.5), DVec2::new(-1.5, -1.5), 1.0, 1e-12)
            .iter()
            .map(|w| w.cell)
            .collect();
        assert_eq!(
            cells,
            [
                (0, 0),
                (0, -1),
                (-1, 0),
                (-1, -1),
                (-1, -2),
                (-2, -1),
                (-2, -2)
            ]
        );
    }

    #[test]
    fn a_steep_segment_walks_by_rows() {
        let walk = walked(DVec2::new(0.2, 0.5), DVec2::new(0.4, 3.5), 1.0, 0.0);
        let cells: Vec<Cell> = walk.iter().map(|w| w.cell).collect();
        assert_eq!(cells, [(0, 0), (0, 1), (0, 2), (0, 3)]);
        let reached: Vec<f64> = walk.iter().map(|w| w.reached).collect();
        assert_eq!(reached, [0.0, 0.5 / 3.0, 1.5 / 3.0, 2.5 / 3.0]);
        assert_eq!(
            CellWalk::new(DVec2::ZERO, DVec2::new(0.0, 1e9), 1.0, 0.0).columns(),
            1_000_000_001
        );
    }

    #[test]
    fn a_zero_length_segment_walks_the_cells_its_point_touches() {
        let cells: Vec<Cell> = walked(DVec2::new(1.0, 0.5), DVec2::new(1.0, 0.5), 1.0, 1e-12)
            .iter()
            .map(|w| w.cell)
            .collect();
        assert_eq!(cells, [(0, 0), (1, 0)]);
    }
}
