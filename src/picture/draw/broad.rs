//! The broad-phase lab's overlay: the grid's occupied cells, candidate pairs and hits.

use super::*;
use crate::picture::shown::BroadShown;

/// The grid behind the intersecting pairs, and what of it to draw.
#[derive(Clone, Copy)]
pub struct BroadOverlay<'a> {
    /// What to show.
    pub shown: BroadShown,
    /// The grid (entries are shape ids).
    pub grid: &'a Grid,
    /// Every intersecting pair.
    pub hits: &'a [(ShapeId, ShapeId)],
}

/// At most this many candidate lines are drawn (the count is in the panel).
pub(super) const MAX_CANDIDATE_LINES: usize = 20_000;

/// The grid's occupied cells in view, shaded by how many shapes each holds, with their
/// outlines when they are large enough on screen.
pub(super) fn cells(input: &DrawInput, overlay: &BroadOverlay, list: &mut DrawList) {
    if !overlay.shown.cells {
        return;
    }
    let size = overlay.grid.cell_size();
    let screen_size = (size * input.camera.scale) as f32;
    if screen_size < 2.0 {
        return;
    }
    let outline = screen_size >= 8.0;
    for ((x, y), count) in overlay.grid.occupancy() {
        let lo = DVec2::new(x as f64, y as f64) * size;
        let r = Rect::from_two_points(input.screen(lo), input.screen(lo + DVec2::splat(size)));
        if !r.intersects(input.rect) {
            continue;
        }
        let heat = (30 + 28 * count.min(8)) as u8;
        list.marks.push(Mark::Rect {
            rect: r,
            corner: 0.0,
            fill: faded(palette::DECIDING, heat / 3),
            stroke: Stroke::NONE,
        });
        if outline {
            // Inside the cell: half the line's width in from its edges.
            list.marks.push(Mark::Rect {
                rect: r.shrink(0.5),
                corner: 0.0,
                fill: Colour::TRANSPARENT,
                stroke: Stroke::new(1.0, faded(palette::DECIDING, 60)),
            });
        }
    }
}

/// Candidate pairs as thin lines between the shapes' centres, intersecting ones in red.
pub(super) fn pair_lines(input: &DrawInput, overlay: &BroadOverlay, list: &mut DrawList) {
    let scene = input.scene;
    let centre = |id: u32| {
        scene
            .get(ShapeId(id))
            .map(|s| input.screen(s.placed.centre()))
    };
    let view = input.rect;
    let line = |p: Vec2, q: Vec2, stroke: Stroke, list: &mut DrawList| {
        if view.contains(p) || view.contains(q) {
            list.marks.push(segment(p, q, stroke));
        }
    };
    if overlay.shown.candidates {
        let mut drawn = 0;
        overlay.grid.for_each_candidate(|i, j| {
            if drawn < MAX_CANDIDATE_LINES
                && let (Some(p), Some(q)) = (centre(i), centre(j))
            {
                line(p, q, Stroke::new(1.0, faded(palette::CLOSEST, 150)), list);
                drawn += 1;
            }
        });
    }
    if overlay.shown.hits {
        for (a, b) in overlay.hits {
            if let (Some(p), Some(q)) = (centre(a.0), centre(b.0)) {
                line(p, q, Stroke::new(2.5, palette::OTHER_HIT), list);
            }
        }
    }
}
