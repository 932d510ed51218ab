//! Shape sets: what a file holds, and reading and writing it (format versions 1 and 2).
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
//! A file is refused whole, never half-loaded, with one [`crate::files::FileError`] naming the file and the
//! place. Saves are atomic: a temporary file in the same folder, flushed, then renamed.

mod claims;
pub mod generate;
pub mod link;
mod motion;
mod read;
mod read_pairs;
pub use read_pairs::parse_claim;
mod write;

pub use claims::{Claim, DEFAULT_TOLERANCE, Expected, ExpectedPiece};
pub use motion::{Body, Motion};
pub use read::{load, parse};
pub(crate) use read::{parse_player, parse_shape, piece_problem};
pub(crate) use read_pairs::{CLAIM_KEYS, check_reported, reported};
pub(crate) use write::{geometry_value, player_line, shape_object};
pub use write::{save, to_json};

use crate::geometry::{DVec2, Placed, ShapeKind};

/// The `format` value of a shape-set file.
pub const FORMAT: &str = "collidoscope-shapes";
/// The newest file format version this build reads and writes. Version 2 adds motion, claims
/// and fixtures' expectations; version 3 segments, chains, `gravity` and `precision`; version 4
/// rounded polygons (a polygon's `radius`). A set is saved in the lowest version that holds it.
pub const VERSION: u64 = 4;

/// The precision a file's claims were computed at (version 3's `precision`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Precision {
    /// Double precision (the default).
    #[default]
    F64,
    /// Single precision, as the engines games ship compute.
    F32,
}

impl Precision {
    /// The name files use.
    pub fn name(self) -> &'static str {
        match self {
            Precision::F64 => "f64",
            Precision::F32 => "f32",
        }
    }
}

/// A shape's identity within a set: kept when other shapes are added or removed, so a
/// selection, an explained pair or a recording can name a shape while the set changes. Files
/// do not store it: loading numbers the shapes 0, 1, 2, ... in file order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShapeId(pub u32);

impl std::fmt::Display for ShapeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "id {}", self.0)
    }
}

/// One shape of a set: its id, an optional name and the placed shape.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneShape {
    /// Unique within its [`Scene`] (given by [`Scene::add`] or [`Scene::from_shapes`]).
    pub id: ShapeId,
    /// Shown in messages and in the window; unnamed shapes are called by index.
    pub name: Option<String>,
    /// The shape and its pose.
    pub placed: Placed,
    /// How it moves (version 2; a static body at rest by default).
    pub motion: Motion,
}

impl SceneShape {
    /// A named shape (its id is given when it joins a scene).
    pub fn named(name: &str, placed: Placed) -> Self {
        Self::new(Some(name.to_string()), placed)
    }

    /// A shape with an optional name (its id is given when it joins a scene).
    pub fn new(name: Option<String>, placed: Placed) -> Self {
        Self {
            id: ShapeId::default(),
            name,
            placed,
            motion: Motion::default(),
        }
    }

    /// The shape as people see it: its name, or `#index` when it has none.
    pub fn display_name(&self, index: usize) -> String {
        match &self.name {
            Some(name) => name.clone(),
            None => format!("#{index}"),
        }
    }

    /// How many characters [`SceneShape::display_name`] has, without making it (a crowd's
    /// frame asks it of every shape).
    pub fn display_name_chars(&self, index: usize) -> usize {
        match &self.name {
            Some(name) => name.chars().count(),
            None => 1 + index.checked_ilog10().unwrap_or(0) as usize + 1,
        }
    }
}

/// A set of shapes, in file order, with what the file says about their pairs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    /// The shapes. Their ids are unique; add shapes with [`Scene::add`] to keep them so.
    pub shapes: Vec<SceneShape>,
    /// Contacts another engine reported, to be diagnosed (version 2).
    pub claims: Vec<Claim>,
    /// A fixture's pinned results (version 2); `None` when the file is not a fixture.
    pub expect: Option<Vec<Expected>>,
    /// A fixture's tolerance, when the file gives one (default [`DEFAULT_TOLERANCE`]).
    pub tolerance: Option<f64>,
    /// World gravity for `simulate` (version 3), when the file gives it (default `[0, 0]`).
    pub gravity: Option<DVec2>,
    /// The precision the claims were computed at (version 3), when the file says.
    pub precision: Option<Precision>,
}

impl Scene {
    /// A scene of `shapes`, numbered 0, 1, 2, ... in order (as loading a file numbers them).
    pub fn from_shapes(shapes: Vec<SceneShape>) -> Self {
        let mut scene = Scene {
            shapes,
            ..Scene::default()
        };
        for (i, shape) in scene.shapes.iter_mut().enumerate() {
            shape.id = ShapeId(i as u32);
        }
        scene
    }

    /// Append `shape` under a fresh id, which it returns.
    pub fn add(&mut self, mut shape: SceneShape) -> ShapeId {
        shape.id = self.fresh_id();
        let id = shape.id;
        self.shapes.push(shape);
        id
    }

    /// An id no shape of the scene has: one past the largest, so ids keep rising along the
    /// list.
    pub fn fresh_id(&self) -> ShapeId {
        ShapeId(self.shapes.iter().map(|s| s.id.0 + 1).max().unwrap_or(0))
    }

    /// Where the shape `id` is in the list: a binary search, as ids rise along the list;
    /// a scan for a scene built otherwise.
    pub fn index_of(&self, id: ShapeId) -> Option<usize> {
        match self.shapes.binary_search_by_key(&id, |s| s.id) {
            Ok(i) if self.shapes[i].id == id => Some(i),
            _ => self.shapes.iter().position(|s| s.id == id),
        }
    }

    /// The shape `id`.
    pub fn get(&self, id: ShapeId) -> Option<&SceneShape> {
        self.index_of(id).map(|i| &self.shapes[i])
    }

    /// What a click at `point` picks: the topmost shape (the last in the list) that holds
    /// it, else the topmost within `slack` of it.
    pub fn topmost_at(&self, point: DVec2, slack: f64) -> Option<ShapeId> {
        let distances: Vec<f64> = self
            .shapes
            .iter()
            .map(|s| crate::query::distance_to_point(&s.placed, point))
            .collect();
        // A shape the point is in wins over one it is only near.
        let within = |reach: f64| {
            (0..self.shapes.len())
                .rev()
                .find(|k| distances[*k] <= reach)
                .map(|k| self.shapes[k].id)
        };
        within(0.0).or_else(|| within(slack))
    }

    /// The shape `id`, to change.
    pub fn get_mut(&mut self, id: ShapeId) -> Option<&mut SceneShape> {
        self.index_of(id).map(|i| &mut self.shapes[i])
    }

    /// Remove the shape `id`, and the claims and expectations about it; the others keep
    /// their ids. Returns its index and the shape.
    pub fn remove(&mut self, id: ShapeId) -> Option<(usize, SceneShape)> {
        let index = self.index_of(id)?;
        self.claims.retain(|c| c.a != id && c.b != id);
        if let Some(expect) = &mut self.expect {
            expect.retain(|e| e.a != id && e.b != id);
        }
        Some((index, self.shapes.remove(index)))
    }

    /// The list positions of the shapes `a` and `b`, when both are in the scene.
    pub fn pair_of(&self, a: ShapeId, b: ShapeId) -> Option<(usize, usize)> {
        Some((self.index_of(a)?, self.index_of(b)?))
    }

    /// The lowest file format version that holds everything in the scene: 4 with a rounded
    /// polygon; 3 with a segment, a chain, `gravity` or `precision`; 2 with motion, claims or
    /// expectations; else 1.
    pub fn version_needed(&self) -> u64 {
        let rounded = |s: &SceneShape| matches!(&s.placed.shape, crate::geometry::Shape::Polygon(p) if p.is_rounded());
        if self.shapes.iter().any(rounded) {
            return 4;
        }
        let new_kind = self
            .shapes
            .iter()
            .any(|s| s.placed.shape.kind().is_static_only());
        if new_kind || self.gravity.is_some() || self.precision.is_some() {
            return 3;
        }
        let moves = self.shapes.iter().any(|s| !s.motion.is_default());
        if moves || !self.claims.is_empty() || self.expect.is_some() || self.tolerance.is_some() {
            2
        } else {
            1
        }
    }
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

#[cfg(test)]
mod tests {
    use super::SceneShape;
    use crate::geometry::{Circle, Placed, Pose};

    /// The length a crowd's frame tells without making the name is the name's.
    #[test]
    fn a_display_names_length_is_told_without_making_it() {
        let circle = Placed::new(Circle::new(1.0).unwrap(), Pose::IDENTITY);
        let unnamed = SceneShape::new(None, circle.clone());
        for index in (0..2_000).chain([9_999, 10_000, 123_456_789, usize::MAX]) {
            let name = unnamed.display_name(index);
            assert_eq!(
                unnamed.display_name_chars(index),
                name.chars().count(),
                "{name}"
            );
        }
        for name in ["", "crate", "Kiste größer", "箱"] {
            let named = SceneShape::new(Some(name.into()), circle.clone());
            assert_eq!(named.display_name_chars(7), name.chars().count());
        }
    }
}
