//! Every change to the scene is an [`Edit`]. The app applies them in one place
//! ([`crate::app::document::workspace::Workspace::apply`]), which records undo, marks the document unsaved
//! and marks the report stale.

use crate::scene::{Claim, Scene, SceneShape, ShapeId};

/// One change to the shapes.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Add a shape under a fresh id, and select it.
    Add(SceneShape),
    /// Remove a shape; the others keep their ids.
    Remove(ShapeId),
    /// Replace the shape with `shape.id` (name, geometry and pose). Edits of one drag carry
    /// the same `gesture` and make one undo step; `None` is an undo step of its own.
    Replace {
        /// The shape as it is to be.
        shape: SceneShape,
        /// The drag this edit belongs to.
        gesture: Option<u64>,
    },
    /// Replace the claims (what another engine reported about pairs); no shape changes.
    Claims(Vec<Claim>),
    /// Set the gravity every dynamic body falls by (`None`: none), as the file's `gravity`.
    /// Edits of one drag carry the same `gesture` and make one undo step.
    Gravity {
        /// The gravity as it is to be (units per second squared).
        gravity: Option<crate::geometry::DVec2>,
        /// The drag this edit belongs to.
        gesture: Option<u64>,
    },
    /// Replace the whole set at once, as one undo step (shapes keep their ids where they are
    /// kept): what merging tiles into chains does.
    Scene(Box<Scene>),
}
