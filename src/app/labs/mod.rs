//! The labs: each owns its state, its `apply`, its panel and what it draws over the scene
//! (`view`). A lab with parts of its own has a folder.

pub(super) mod broad_lab;
pub(super) mod capture_lab;
pub(super) mod casts_lab;
pub(super) mod latency_lab;
pub(super) mod motion_lab;
pub(super) mod pair_lab;
pub(super) mod plot_panel;
