//! A uniform grid broad phase, after the classic tile-grid one: the plane is cut into square
//! cells; every entry records the range of cells its box covers and every cell its occupants.
//! Moving one entry ([`Grid::occupy`]) touches only the cells it leaves and enters.
//!
//! Candidate pairs are the pairs of entries whose boxes overlap. Two boxes that overlap share
//! at least one cell, and usually several; each pair is reported once, from the one cell that
//! holds the lowest corner of the two boxes' common part. That cell's indices are the larger
//! of the two boxes' lowest cell indices (the floor is monotonic), so the test costs two
//! integer comparisons and no floating point.
//!
//! An entry that would cover more than [`MAX_CELLS`] cells (a huge shape, or a cell size far
//! too small for it) is kept aside and tested against every other entry, so a bad cell size
//! is slow, never wrong and never out of memory.

pub use super::cell_walk::Cell;
use super::cell_walk::cell_index;
use super::{Aabb, CellWalk};
use crate::geometry::DVec2;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The most cells one entry may cover before it is kept aside.
pub const MAX_CELLS: u64 = 1024;

/// The cells an entry covers: the rectangle of cells from `lo` to `hi`, inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Range {
    lo: Cell,
    hi: Cell,
}

impl Range {
    fn count(&self) -> u64 {
        let side = |lo: i32, hi: i32| (hi as i64 - lo as i64 + 1) as u64;
        side(self.lo.0, self.hi.0).saturating_mul(side(self.lo.1, self.hi.1))
    }

    fn contains(&self, (x, y): Cell) -> bool {
        self.lo.0 <= x && x <= self.hi.0 && self.lo.1 <= y && y <= self.hi.1
    }

    fn cells(self) -> impl Iterator<Item = Cell> {
        (self.lo.1..=self.hi.1).flat_map(move |y| (self.lo.0..=self.hi.0).map(move |x| (x, y)))
    }
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    aabb: Aabb,
    range: Range,
    /// Kept aside: covers more than [`MAX_CELLS`] cells.
    aside: bool,
}

/// FxHash (rustc's): cell keys are two small integers, for which SipHash is needlessly slow.
#[derive(Default)]
pub struct CellHasher(u64);

impl Hasher for CellHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(*b as u64);
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type CellMap = HashMap<u64, Vec<u32>, BuildHasherDefault<CellHasher>>;

fn key((x, y): Cell) -> u64 {
    ((x as u32 as u64) << 32) | y as u32 as u64
}

fn unkey(k: u64) -> Cell {
    ((k >> 32) as u32 as i32, k as u32 as i32)
}

/// The uniform grid.
#[derive(Clone, Debug)]
pub struct Grid {
    cell_size: f64,
    cells: CellMap,
    /// By entry id; `None` where no entry has that id.
    entries: Vec<Option<Entry>>,
    /// Ids of the entries kept aside.
    aside: Vec<u32>,
}

impl Grid {
    /// An empty grid of square cells `cell_size` wide (finite, > 0; anything else is taken
    /// as 1).
    pub fn new(cell_size: f64) -> Self {
        let cell_size = if cell_size.is_finite() && cell_size > 0.0 {
            cell_size
        } else {
            1.0
        };
        Self {
            cell_size,
            cells: CellMap::default(),
            entries: Vec::new(),
            aside: Vec::new(),
        }
    }

    /// A grid holding `boxes` as entries `0..boxes.len()`, with `cell_size` (or, `None`, the
    /// one [`auto_cell_size`] picks).
    pub fn build(boxes: &[Aabb], cell_size: Option<f64>) -> Self {
        let mut grid = Grid::new(cell_size.unwrap_or_else(|| auto_cell_size(boxes)));
        grid.entries.reserve(boxes.len());
        grid.cells.reserve(boxes.len() * 2);
        for (id, aabb) in boxes.iter().enumerate() {
            grid.insert(id as u32, *aabb);
        }
        grid
    }

    /// The side of a cell.
    pub fn cell_size(&self) -> f64 {
        self.cell_size
    }

    /// How many entries it holds.
    pub fn len(&self) -> usize {
        self.entries.iter().filter(|e| e.is_some()).count()
    }

    /// Whether it holds no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.iter().all(Option::is_none)
    }

    /// The cell holding world point `(x, y)`: saturated at the ends of the `i32` range, so
    /// shapes at 1e300 do not overflow.
    pub fn cell_of(&self, p: DVec2) -> Cell {
        (
            cell_index(p.x, self.cell_size),
            cell_index(p.y, self.cell_size),
        )
    }

    fn range_of(&self, aabb: &Aabb) -> Range {
        Range {
            lo: self.cell_of(aabb.min),
            hi: self.cell_of(aabb.max),
        }
    }

    /// Add entry `id` with box `aabb` (replacing an entry with that id).
    pub fn insert(&mut self, id: u32, aabb: Aabb) {
        if self.entry(id).is_some() {
            self.remove(id);
        }
        let range = self.range_of(&aabb);
        let aside = range.count() > MAX_CELLS;
        if aside {
            self.aside.push(id);
        } else {
            for c in range.cells() {
                self.cells.entry(key(c)).or_default().push(id);
            }
        }
        let slot = id as usize;
        if self.entries.len() <= slot {
            self.entries.resize(slot + 1, None);
        }
        self.entries[slot] = Some(Entry { aabb, range, aside });
    }

    /// Move entry `id` to box `aabb`: only the cells it leaves and the cells it enters change
    /// (an entry not yet in the grid is inserted).
    pub fn occupy(&mut self, id: u32, aabb: Aabb) {
        let Some(old) = self.entry(id) else {
            self.insert(id, aabb);
            return;
        };
        let range = self.range_of(&aabb);
        let aside = range.count() > MAX_CELLS;
        if old.aside || aside {
            self.remove(id);
            self.insert(id, aabb);
            return;
        }
        if range != old.range {
            for c in old.range.cells().filter(|c| !range.contains(*c)) {
                self.leave(c, id);
            }
            for c in range.cells().filter(|c| !old.range.contains(*c)) {
                self.cells.entry(key(c)).or_default().push(id);
            }
        }
        self.entries[id as usize] = Some(Entry { aabb, range, aside });
    }

    /// Remove entry `id`, if it is there.
    pub fn remove(&mut self, id: u32) {
        let Some(old) = self.entry(id) else { return };
        if old.aside {
            self.aside.retain(|a| *a != id);
        } else {
            for c in old.range.cells() {
                self.leave(c, id);
            }
        }
        self.entries[id as usize] = None;
    }

    fn leave(&mut self, c: Cell, id: u32) {
        let k = key(c);
        if let Some(occupants) = self.cells.get_mut(&k) {
            if let Some(at) = occupants.iter().position(|o| *o == id) {
                occupants.swap_remove(at);
            }
            if occupants.is_empty() {
                self.cells.remove(&k);
            }
        }
    }

    fn entry(&self, id: u32) -> Option<Entry> {
        self.entries.get(id as usize).copied().flatten()
    }

    /// Entry `id`'s box.
    pub fn aabb(&self, id: u32) -> Option<Aabb> {
        self.entry(id).map(|e| e.aabb)
    }

    /// The entries whose boxes cover `cell` (none of those kept aside), in no particular
    /// order.
    pub fn occupants(&self, cell: Cell) -> &[u32] {
        self.cells.get(&key(cell)).map_or(&[], Vec::as_slice)
    }

    /// The ids of the entries kept aside (each covers more than [`MAX_CELLS`] cells and is in
    /// no cell): whoever walks cells must test these too.
    pub fn aside(&self) -> &[u32] {
        &self.aside
    }

    /// The cells within `slack` of the segment `from`-`to`, in the order the segment reaches
    /// them (see [`CellWalk`]).
    pub fn walk(&self, from: DVec2, to: DVec2, slack: f64) -> CellWalk {
        CellWalk::new(from, to, self.cell_size, slack)
    }

    /// Every pair of entries whose boxes overlap, each once, as `(smaller id, larger id)`,
    /// in no particular order.
    pub fn candidate_pairs(&self) -> Vec<(u32, u32)> {
        let mut pairs = Vec::new();
        self.for_each_candidate(|i, j| pairs.push((i, j)));
        pairs
    }

    /// Call `found(i, j)` (`i < j`) once for every pair of entries whose boxes overlap.
    pub fn for_each_candidate(&self, mut found: impl FnMut(u32, u32)) {
        let entries = &self.entries;
        let get = |id: u32| {
            entries[id as usize]
                .as_ref()
                .expect("occupants are entries")
        };
        for (&k, occupants) in &self.cells {
            if occupants.len() < 2 {
                continue;
            }
            let (cx, cy) = unkey(k);
            for (n, &i) in occupants.iter().enumerate() {
                let a = get(i);
                for &j in &occupants[n + 1..] {
                    let b = get(j);
                    // Reported from the cell of the common part's lowest corner only.
                    if a.range.lo.0.max(b.range.lo.0) == cx
                        && a.range.lo.1.max(b.range.lo.1) == cy
                        && a.aabb.overlaps(&b.aabb)
                    {
                        found(i.min(j), i.max(j));
                    }
                }
            }
        }
        for (n, &i) in self.aside.iter().enumerate() {
            let a = get(i);
            for (j, b) in entries.iter().enumerate() {
                let Some(b) = b else { continue };
                let j = j as u32;
                // Two entries aside meet once: from the earlier in the aside list.
                let both_aside_earlier = b.aside && self.aside[..=n].contains(&j);
                if j != i && !both_aside_earlier && a.aabb.overlaps(&b.aabb) {
                    found(i.min(j), i.max(j));
                }
            }
        }
    }

    /// The entries whose boxes overlap `aabb`, each once.
    pub fn query(&self, aabb: &Aabb) -> Vec<u32> {
        let range = self.range_of(aabb);
        let mut found: Vec<u32> = Vec::new();
        let mut add = |id: u32, e: &Entry| {
            if e.aabb.overlaps(aabb) {
                found.push(id);
            }
        };
        if range.count() > MAX_CELLS {
            for (id, e) in self.entries.iter().enumerate() {
                if let Some(e) = e {
                    add(id as u32, e);
                }
            }
        } else {
            for c in range.cells() {
                if let Some(occupants) = self.cells.get(&key(c)) {
                    for &id in occupants {
                        let e = self.entries[id as usize]
                            .as_ref()
                            .expect("occupants are entries");
                        // Once: from the first cell of the query that the entry covers.
                        let first = (e.range.lo.0.max(range.lo.0), e.range.lo.1.max(range.lo.1));
                        if first == c {
                            add(id, e);
                        }
                    }
                }
            }
            for &id in &self.aside {
                let e = self.entries[id as usize]
                    .as_ref()
                    .expect("aside are entries");
                add(id, e);
            }
        }
        found
    }

    /// Every occupied cell and how many entries it holds (for drawing the grid as a heat
    /// map). Entries kept aside are not in any cell.
    pub fn occupancy(&self) -> impl Iterator<Item = (Cell, usize)> + '_ {
        self.cells.iter().map(|(k, v)| (unkey(*k), v.len()))
    }

    /// How many entries are kept aside (each covers more than [`MAX_CELLS`] cells).
    pub fn aside_count(&self) -> usize {
        self.aside.len()
    }
}

/// A cell size from the boxes: three times the median of their larger sides, so a typical
/// box covers one to four cells (mostly one or two) and a cell holds a few boxes: measured
/// fastest on the benchmark's scenes (2x: 20% slower, 4x: 4% slower). 1 for no boxes, or
/// boxes of no size.
pub fn auto_cell_size(boxes: &[Aabb]) -> f64 {
    let mut sides: Vec<f64> = boxes
        .iter()
        .map(|b| b.size().max_element())
        .filter(|s| s.is_finite() && *s > 0.0)
        .collect();
    if sides.is_empty() {
        return 1.0;
    }
    let middle = sides.len() / 2;
    let (_, median, _) = sides.select_nth_unstable_by(middle, f64::total_cmp);
    3.0 * *median
}

#[cfg(test)]
mod cell_walk_tests {
    //! The walk along a segment (cell_walk.rs), checked against the grid's own cells.
    use crate::broad::Grid;
    use crate::broad::cell_walk::*;
    use crate::geometry::DVec2;
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
