//! The panels and windows around the scene: the top bar, the status bar, the shapes and
//! numbers panels, dialogs, help, and the export and generate windows.

pub(super) mod dialogs;
pub(super) mod export_window;
pub(super) mod generate_window;
pub(super) mod help_window;
pub(super) mod numbers_panel;
pub(super) mod shapes_panel;
pub(super) mod status_bar;
pub(super) mod top_bar;
