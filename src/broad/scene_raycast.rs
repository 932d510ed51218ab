//! Ray casts against a whole scene: every shape a segment reaches, or only the first.
//!
//! With a [`Grid`], the shapes tested are those kept aside (in no cell) and the occupants of
//! the cells the segment crosses ([`CellWalk`]), each once and only when the segment meets its
//! box; without one, every shape. Each is then decided by [`ray_cast`], so the grid changes
//! the work and never the answer. The first hit stops the walk at the first cell the segment
//! reaches after its best hit so far: no shape in a later cell can be hit earlier.
//!
//! The walk and the box test take every cell and box within a slack of
//! [`RAY_SLACK`] times the coordinates' size: a shape that [`ray_cast`] decides is hit lies
//! within rounding of the segment, and rounding must not lose it.

use super::grid::{CellHasher, MAX_CELLS};
use super::{CellWalk, Grid};
use crate::geometry::DVec2;
use crate::query::{RayHit, ray_cast};
use crate::scene::Scene;
use std::collections::HashSet;
use std::hash::BuildHasherDefault;

/// The slack of the walk and of the box test, relative to the size of the coordinates (the
/// cell size, `from` and `to`): thousands of times their rounding, a millionth of a millionth
/// of a cell.
pub const RAY_SLACK: f64 = 1e-12;

/// Every shape of `scene` the segment `from -> to` reaches, as (position in the list, hit),
/// sorted by fraction, then position. `grid`, when given, must hold every shape's box
/// ([`super::boxes_of`]) as the entry of its list position; without it, every shape is
/// tested.
pub fn ray_cast_scene(
    scene: &Scene,
    grid: Option<&Grid>,
    from: DVec2,
    to: DVec2,
) -> Vec<(usize, RayHit)> {
    let mut hits: Vec<(usize, RayHit)> = Candidates::new(scene, grid, from, to)
        .filter_map(|c| Some((c.shape, ray_cast(&scene.shapes[c.shape].placed, from, to)?)))
        .collect();
    hits.sort_unstable_by(|(i, a), (j, b)| a.fraction.total_cmp(&b.fraction).then(i.cmp(j)));
    hits
}

/// The first of [`ray_cast_scene`]'s hits (the smallest fraction, then the smallest
/// position), found without testing the shapes beyond it.
pub fn ray_cast_scene_first(
    scene: &Scene,
    grid: Option<&Grid>,
    from: DVec2,
    to: DVec2,
) -> Option<(usize, RayHit)> {
    let mut best: Option<(usize, RayHit)> = None;
    for c in Candidates::new(scene, grid, from, to) {
        if best.is_some_and(|(_, b)| b.fraction < c.reached) {
            break;
        }
        let Some(hit) = ray_cast(&scene.shapes[c.shape].placed, from, to) else {
            continue;
        };
        let earlier = best.is_none_or(|(i, b)| {
            hit.fraction < b.fraction || (hit.fraction == b.fraction && c.shape < i)
        });
        if earlier {
            best = Some((c.shape, hit));
        }
    }
    best
}

/// A shape worth a ray cast, and the earliest fraction at which the segment can reach it.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    shape: usize,
    /// Never decreasing along [`Candidates`].
    reached: f64,
}

/// The shapes whose boxes the segment meets: from the grid's walk (those kept aside first)
/// or, without a grid or for a walk longer than testing every shape, every shape in order.
struct Candidates<'a> {
    grid: Option<&'a Grid>,
    count: usize,
    from: DVec2,
    to: DVec2,
    slack: f64,
    /// The next position to yield when every shape is tested (no walk).
    next_shape: usize,
    /// The entries kept aside still to yield.
    aside: &'a [u32],
    walk: Option<CellWalk>,
    /// The current cell's occupants still to yield, and its `reached`.
    occupants: &'a [u32],
    reached: f64,
    seen: HashSet<u32, BuildHasherDefault<CellHasher>>,
}

impl<'a> Candidates<'a> {
    fn new(scene: &Scene, grid: Option<&'a Grid>, from: DVec2, to: DVec2) -> Self {
        let scale = from.abs().max_element().max(to.abs().max_element());
        let cell_size = grid.map_or(0.0, Grid::cell_size);
        let slack = RAY_SLACK * (scale + cell_size);
        let count = scene.shapes.len();
        let walk = grid
            .map(|g| g.walk(from, to, slack))
            // A walk over more columns than there are shapes costs more than testing them all
            // (and one from 1e300 to -1e300 would never end).
            .filter(|w| w.columns() <= 2 * (count as u64 + MAX_CELLS));
        Self {
            grid: grid.filter(|_| walk.is_some()),
            count,
            from,
            to,
            slack,
            next_shape: 0,
            aside: grid.filter(|_| walk.is_some()).map_or(&[], Grid::aside),
            walk,
            occupants: &[],
            reached: 0.0,
            seen: HashSet::default(),
        }
    }

    /// Whether the segment meets entry `id`'s box (grown by the slack).
    fn meets_box(&self, grid: &Grid, id: u32) -> bool {
        (id as usize) < self.count
            && grid
                .aabb(id)
                .is_some_and(|b| b.grown(self.slack).meets_segment(self.from, self.to))
    }
}

impl Iterator for Candidates<'_> {
    type Item = Candidate;

    fn next(&mut self) -> Option<Candidate> {
        let Some(grid) = self.grid else {
            // Every shape, in order.
            let shape = self.next_shape;
            self.next_shape += 1;
            return (shape < self.count).then_some(Candidate {
                shape,
                reached: 0.0,
            });
        };
        while let Some((&id, rest)) = self.aside.split_first() {
            self.aside = rest;
            if self.meets_box(grid, id) {
                return Some(Candidate {
                    shape: id as usize,
                    reached: 0.0,
                });
            }
        }
        loop {
            while let Some((&id, rest)) = self.occupants.split_first() {
                self.occupants = rest;
                if self.meets_box(grid, id) && self.seen.insert(id) {
                    return Some(Candidate {
                        shape: id as usize,
                        reached: self.reached,
                    });
                }
            }
            let cell = self.walk.as_mut()?.next()?;
            self.occupants = grid.occupants(cell.cell);
            self.reached = cell.reached;
        }
    }
}

/// A ray across the scene whose boxes are `boxes`: from beyond its left side a little above
/// the middle to beyond its right side a little below, slanting so it meets shapes rather
/// than the gaps between rows.
pub fn ray_across(boxes: &[super::Aabb]) -> (DVec2, DVec2) {
    let Some(first) = boxes.first() else {
        return (DVec2::new(-5.0, -1.0), DVec2::new(5.0, 1.0));
    };
    let all = boxes.iter().fold(*first, |all, b| all.union(b));
    let (lo, hi) = (all.min, all.max);
    let (centre, size) = ((lo + hi) * 0.5, (hi - lo).max(DVec2::splat(1.0)));
    (
        centre + DVec2::new(-0.65 * size.x, 0.2 * size.y),
        centre + DVec2::new(0.65 * size.x, -0.25 * size.y),
    )
}
