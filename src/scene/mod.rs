//! Shape sets: what a file holds, and reading and writing it (format version 1).
//!
//! The file format (also described in the README):
//!
//! ```json
//! {
//!   "format": "collidoscope-shapes",
//!   "version": 1,
//!   "shapes": [
//!     {"name": "player", "kind": "circle", "position": [2.0, 1.5], "radius": 0.5},
//!     {"name": "rail", "kind": "capsule", "position": [0.0, 0.0], "angle": 0.3,
//!      "a": [-2.0, 0.0], "b": [2.0, 0.0], "radius": 0.25},
//!     {"name": "crate", "kind": "polygon", "position": [4.0, 0.0], "angle": -0.7,
//!      "points": [[-1, -1], [1, -1], [1, 1], [-1, 1]]}
//!   ]
//! }
//! ```
//!
//! A file is refused whole, never half-loaded, with one [`FileError`] naming the file and the
//! place. Saves are atomic: a temporary file in the same folder, flushed, then renamed.

mod error;
mod read;
mod write;

pub use error::{FileError, Problem};
pub use read::{load, parse};
pub use write::{save, to_json};

use crate::geometry::{Placed, ShapeKind};

/// The `format` value of a shape-set file.
pub const FORMAT: &str = "collidoscope-shapes";
/// The file format version this build reads and writes.
pub const VERSION: u64 = 1;

/// One shape of a set: an optional name and the placed shape.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneShape {
    /// Shown in messages and in the window; unnamed shapes are called by index.
    pub name: Option<String>,
    /// The shape and its pose.
    pub placed: Placed,
}

impl SceneShape {
    /// A named shape.
    pub fn named(name: &str, placed: Placed) -> Self {
        Self {
            name: Some(name.to_string()),
            placed,
        }
    }

    /// The shape as people see it: its name, or `#index` when it has none.
    pub fn display_name(&self, index: usize) -> String {
        match &self.name {
            Some(name) => name.clone(),
            None => format!("#{index}"),
        }
    }
}

/// A set of shapes, in file order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    /// The shapes.
    pub shapes: Vec<SceneShape>,
}

/// How messages name a shape: `shape 2 "wall" (capsule)`.
pub fn shape_label(index: usize, name: Option<&str>, kind: Option<ShapeKind>) -> String {
    let mut label = format!("shape {index}");
    if let Some(name) = name {
        label.push_str(&format!(" {name:?}"));
    }
    if let Some(kind) = kind {
        label.push_str(&format!(" ({kind})"));
    }
    label
}
