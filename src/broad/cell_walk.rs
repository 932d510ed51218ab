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

/// A cell: its column and row.
pub type Cell = (i32, i32);

/// The column (or row) of cells `cell_size` wide holding the coordinate `v`: saturated at the
/// ends of the `i32` range, so shapes at 1e300 do not overflow. Every cell index of the grid,
/// and of a walk along a segment ([`CellWalk`]), is computed here.
pub(crate) fn cell_index(v: f64, cell_size: f64) -> i32 {
    let c = (v / cell_size).floor();
    if c.is_nan() {
        0
    } else {
        c.clamp(i32::MIN as f64, i32::MAX as f64) as i32
    }
}
