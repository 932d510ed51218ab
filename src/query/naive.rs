//! The smallest-overlap rule with the axis sign as it comes: the MTV many SAT tutorials give
//! first, kept to show its bug.
//!
//! The naive rule takes, over the same axes, the smallest length of the intervals' common part
//! (`min(a.max, b.max) - max(a.min, b.min)`) and pushes along that axis *as it comes*. For an
//! edge normal that is the right-hand normal of the edge in the winding the file used: inward
//! for a clockwise polygon. With a clockwise obstacle, a body entering one side is pushed
//! further in. (The correct rule, in `sat`, also asks which way along the axis is shorter.)

use super::types::SatReport;
use crate::geometry::DVec2;
use serde::Serialize;

/// What the naive rule would have done.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct NaiveMtv {
    /// The axis it picks (index into the report's axes).
    pub axis: usize,
    /// The axis as it came: the direction the naive code moves B.
    pub normal: DVec2,
    /// The interval common length on that axis: how far it moves B.
    pub depth: f64,
    /// Whether that move goes against the correct direction on the same axis, pushing B
    /// deeper into A.
    pub pushes_inward: bool,
}

impl NaiveMtv {
    /// `depth * normal`: the naive translation of B.
    pub fn translation(&self) -> DVec2 {
        self.normal * self.depth
    }
}

/// The naive MTV over `report`'s axes, when the naive rule finds every axis overlapping.
pub fn naive_mtv(report: &SatReport) -> Option<NaiveMtv> {
    let mut best: Option<(usize, f64)> = None;
    for (i, t) in report.axes.iter().enumerate() {
        let common = t.a.intersection_length(&t.b);
        if common <= 0.0 {
            return None;
        }
        if best.is_none_or(|(_, d)| common < d) {
            best = Some((i, common));
        }
    }
    let (axis, depth) = best?;
    let test = &report.axes[axis];
    Some(NaiveMtv {
        axis,
        normal: test.axis,
        depth,
        pushes_inward: test.axis.dot(test.normal) < 0.0,
    })
}
