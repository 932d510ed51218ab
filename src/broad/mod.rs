//! The broad phase: which pairs of a scene are worth the narrow phase. Every box pair that
//! overlaps is a candidate; only candidates are handed to [`crate::query::collide`].
//!
//! [`Grid`] is the broad phase collidoscope uses (a uniform grid, incremental); the
//! [`mod@reference`] module holds brute force and sort-and-sweep, which tests and benchmarks
//! compare it with. Ray casts against a whole scene ([`ray_cast_scene`],
//! [`ray_cast_scene_first`]) walk the grid's cells along the segment ([`CellWalk`]).

mod aabb;
mod cell_walk;
pub mod grid;
mod live;
pub mod reference;
mod scene_raycast;

pub use aabb::Aabb;
pub use cell_walk::{CellWalk, WalkedCell};
pub use grid::{Grid, auto_cell_size};
pub use live::{GridStats, LivePairs};
pub use scene_raycast::{RAY_SLACK, ray_across, ray_cast_scene, ray_cast_scene_first};

use crate::query::collide;
use crate::scene::Scene;

/// The boxes of every shape of `scene`, in list order.
pub fn boxes_of(scene: &Scene) -> Vec<Aabb> {
    scene.shapes.iter().map(|s| Aabb::of(&s.placed)).collect()
}

/// Every intersecting pair `(i, j)` of `scene` (list positions, `i < j`), sorted: the grid's
/// candidates, each decided by [`collide`]. Never all n² pairs.
pub fn intersecting_pairs(scene: &Scene, cell_size: Option<f64>) -> Vec<(usize, usize)> {
    let grid = Grid::build(&boxes_of(scene), cell_size);
    intersecting_candidates(scene, &grid).pairs
}

/// What the narrow phase made of a grid's candidates.
#[derive(Clone, Debug, PartialEq)]
pub struct Intersecting {
    /// The candidates that intersect, sorted.
    pub pairs: Vec<(usize, usize)>,
    /// How many candidates the grid handed on.
    pub candidates: usize,
}

/// The candidates of `grid` (built on `scene`'s boxes, entry = list position) that
/// intersect.
pub fn intersecting_candidates(scene: &Scene, grid: &Grid) -> Intersecting {
    let shapes = &scene.shapes;
    let mut pairs = Vec::new();
    let mut candidates = 0;
    grid.for_each_candidate(|i, j| {
        candidates += 1;
        let (i, j) = (i as usize, j as usize);
        if collide(&shapes[i].placed, &shapes[j].placed).is_some() {
            pairs.push((i, j));
        }
    });
    pairs.sort_unstable();
    Intersecting { pairs, candidates }
}
