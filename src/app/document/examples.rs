//! The scenes built into the window (File > Examples), each opened as a new unsaved document
//! in the lab that shows it best.

use crate::app::Lab;
use crate::app::command::RunSettings;
use crate::motion::Resolver;
use crate::query::Mistake;
use crate::scene::{self, Scene};
use std::path::Path;

/// A built-in scene.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Example {
    /// The scene the window opens on: the clockwise obstacle, a corner, a capsule.
    Default,
    /// After Box2D's GhostBumps sample: a crate sliding over a tiled floor, as a chain and as
    /// separate segments.
    GhostBumps,
}

impl Example {
    /// Every example, in the menu's order.
    pub const ALL: [Example; 2] = [Example::Default, Example::GhostBumps];

    /// Its name in a link (`?example=NAME`): its file's name in shapes/, without `.json`
    /// (`default-scene` also answers to `default`).
    pub fn name(self) -> &'static str {
        match self {
            Example::Default => "default-scene",
            Example::GhostBumps => "ghost-bumps",
        }
    }

    /// The example a link names, or what is wrong with the name.
    pub fn from_name(name: &str) -> Result<Example, String> {
        let wanted = if name == "default" {
            "default-scene"
        } else {
            name
        };
        Example::ALL
            .into_iter()
            .find(|e| e.name() == wanted)
            .ok_or_else(|| {
                crate::app::words::unknown_example(name, Example::ALL.map(Example::name))
            })
    }

    /// Its name in the menu.
    pub fn title(self) -> &'static str {
        match self {
            Example::Default => "The default scene",
            Example::GhostBumps => "Ghost bumps: a crate over tile seams",
        }
    }

    /// What it shows, for the menu's hover text.
    pub fn about(self) -> &'static str {
        match self {
            Example::Default => {
                "the clockwise obstacle that exposes the naive MTV rule, a ball off a square's corner, a capsule and a triangle"
            }
            Example::GhostBumps => {
                "after Box2D's GhostBumps sample: a crate slides over 1-unit tiles built as a chain (above) and as separate segments (below); opens in the motion lab with internal-edge as the ghost: the chain rule slides, the separate segments and internal-edge catch at the seam"
            }
        }
    }

    /// The file it is (the same file as in shapes/).
    fn text(self) -> &'static str {
        match self {
            Example::Default => crate::app::DEFAULT_SCENE,
            Example::GhostBumps => include_str!("../../../shapes/ghost-bumps.json"),
        }
    }

    /// Its scene.
    pub fn scene(self) -> Scene {
        let name = format!("{}.json", self.name());
        scene::parse(Path::new(&name), self.text().as_bytes())
            .expect("the embedded examples are valid (tests/shape_files.rs checks them)")
    }

    /// The pair it explains first (list positions), when not the one the window would pick.
    pub fn pair(self) -> Option<(usize, usize)> {
        match self {
            Example::Default => None,
            // The chain and the crate sliding on it.
            Example::GhostBumps => Some((0, 9)),
        }
    }

    /// The lab it opens in, and the motion lab's settings when that is the motion lab.
    pub fn lab(self, settings: &RunSettings) -> (Lab, Option<RunSettings>) {
        match self {
            Example::Default => (Lab::Pair, None),
            Example::GhostBumps => (
                Lab::Motion,
                Some(RunSettings {
                    resolver: Resolver::Sat,
                    ghost: Some(Resolver::Mistake(Mistake::InternalEdge)),
                    ..settings.clone()
                }),
            ),
        }
    }
}
