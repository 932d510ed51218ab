//! Reading the levels people already have: Tiled maps and Godot 4 scenes, turned into shape
//! sets (docs/format.md, "Import"). The core only: no window here.

pub mod convert;
pub mod godot_text;

pub use convert::{Convert, Note};
