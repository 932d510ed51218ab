//! What the scene view shows, as plain data: the window paints it with egui, `render` writes
//! it as SVG (and PNG through it). No GUI crate is used here.
//!
//! [`draw::build`] turns the scene and the core's report of the explained pair into
//! [`Mark`]s (filled or outlined polygons, lines, dashes, circles, rectangles) and
//! [`Label`]s in screen points through a [`Camera`]; [`labels::place_around`] keeps labels
//! from piling up; [`fit`] chooses the view a scene opens on; [`picture()`] does all of it for
//! one still picture and [`svg::to_svg`] writes that picture.

pub mod camera;
pub mod draw;
mod event_picture;
pub mod fit;
mod frame;
pub mod handles;
pub mod labels;
mod mark;
pub mod palette;
pub mod plot;
mod shown;
pub mod svg;

pub use camera::Camera;
pub use draw::{DrawInput, DrawList, Layer, SharedShapes};
pub use event_picture::event_arrow;
pub use event_picture::{ArrowKind, EventArrow, EventPicture};
#[cfg(feature = "parallel")]
pub use event_picture::{event_picture, run_event_picture};
pub use fit::Fit;
pub use frame::{
    Look, Picture, caption_band, default_pair, opening_pair, picture, picture_in_view,
    picture_with, step_count,
};
pub use labels::Label;
pub use mark::{Colour, Mark, Rect, Stroke, Vec2};
pub use shown::BroadShown;
