//! The intersecting pairs of a scene that changes a few shapes at a time (the window's drags):
//! the grid keeps every shape's cells, and after a change only the pairs of the shapes that
//! changed are found again, their cells updated in place. Pairs are named by shape ids, so
//! they survive shapes being added and removed.

use super::{Aabb, Grid, auto_cell_size, boxes_of};
use crate::query::collide;
use crate::scene::{Scene, ShapeId};

/// What the grid holds and finds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GridStats {
    /// Box pairs that overlap: what the narrow phase is given.
    pub candidates: usize,
    /// Cells with at least one shape.
    pub cells: usize,
    /// Shapes too big for the cells, tested against every other.
    pub aside: usize,
}

/// A scene's intersecting pairs, kept up to date change by change.
#[derive(Clone, Debug)]
pub struct LivePairs {
    grid: Grid,
    /// Every intersecting pair, `(a, b)` with `a < b`, sorted.
    hits: Vec<(ShapeId, ShapeId)>,
}

impl Default for LivePairs {
    fn default() -> Self {
        Self {
            grid: Grid::new(1.0),
            hits: Vec::new(),
        }
    }
}

impl LivePairs {
    /// Build the grid on `scene` again (cells of `cell_size`, or chosen from the shapes'
    /// sizes) and find every intersecting pair.
    pub fn rebuild(&mut self, scene: &Scene, cell_size: Option<f64>) {
        let boxes = boxes_of(scene);
        let cell = cell_size.unwrap_or_else(|| auto_cell_size(&boxes));
        self.grid = Grid::new(cell);
        for (shape, aabb) in scene.shapes.iter().zip(boxes) {
            self.grid.insert(shape.id.0, aabb);
        }
        self.hits.clear();
        let placed = |id: u32| scene.get(ShapeId(id)).map(|s| &s.placed);
        let hits = &mut self.hits;
        self.grid.for_each_candidate(|i, j| {
            if let (Some(a), Some(b)) = (placed(i), placed(j))
                && collide(a, b).is_some()
            {
                hits.push((ShapeId(i), ShapeId(j)));
            }
        });
        self.hits.sort_unstable();
    }

    /// The shapes `changed` moved, changed, appeared or went in `scene`: their cells follow,
    /// and only their pairs are found again.
    pub fn update(&mut self, scene: &Scene, changed: &[ShapeId]) {
        self.hits
            .retain(|(a, b)| !changed.contains(a) && !changed.contains(b));
        for &id in changed {
            match scene.get(id) {
                Some(shape) => self.grid.occupy(id.0, Aabb::of(&shape.placed)),
                None => self.grid.remove(id.0),
            }
        }
        for (k, &id) in changed.iter().enumerate() {
            let Some(shape) = scene.get(id) else { continue };
            for other in self.grid.query(&Aabb::of(&shape.placed)) {
                let other = ShapeId(other);
                // A pair of two changed shapes is found once, from the earlier.
                if other == id || changed[..k].contains(&other) {
                    continue;
                }
                if let Some(o) = scene.get(other)
                    && collide(&shape.placed, &o.placed).is_some()
                {
                    self.hits.push((id.min(other), id.max(other)));
                }
            }
        }
        self.hits.sort_unstable();
    }

    /// Every intersecting pair, `(a, b)` with `a < b` by id, sorted.
    pub fn hits(&self) -> &[(ShapeId, ShapeId)] {
        &self.hits
    }

    /// The grid behind them.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// What the grid holds and finds (a walk over every cell).
    pub fn stats(&self) -> GridStats {
        let mut candidates = 0;
        self.grid.for_each_candidate(|_, _| candidates += 1);
        GridStats {
            candidates,
            cells: self.grid.occupancy().count(),
            aside: self.grid.aside_count(),
        }
    }
}
