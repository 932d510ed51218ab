//! The view: the scene view (its gestures, layers and meshes) and the painting it shares.

pub(super) mod paint;
pub(super) mod scene_view;
