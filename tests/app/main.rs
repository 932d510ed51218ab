//! The real window, driven like a person would through egui_kittest: drag, step, open, undo,
//! one module per part of the window.
#![cfg(feature = "gui")]

mod broad_and_casts;
mod capture_lab;
mod chains;
mod common;
mod documents;
mod help;
mod latency_lab;
mod links;
mod motion_lab;
mod pair_lab;
mod phone;
mod presenter;
mod rounded;
mod view;
