//! Captures: what a game's physics engine did, frame by frame. Every shape as the engine had it
//! when it computed a frame's contacts, and the contacts it reported, as claims
//! (`docs/format.md`, "Captures").
//!
//! A game writes one with [`CaptureWriter`] while it runs (one line per step, flushed, so a
//! crash keeps every earlier frame); [`CaptureReader`] streams it back a frame at a time, never
//! holding the whole file, and [`judge_claim`] says whether a claim agrees with the exact
//! result at the engine's precision and which known mistakes reproduce it.
//!
//! Four jobs, a folder each: [`format`] (the file: reading, writing, the rules of a line),
//! [`analysis`] (judging frames, events over time, two runs compared, a capture opened to look
//! around in), [`live`] (following a file as it grows, the window's listener and the game's link,
//! the flight recorder) and [`adapters`] (filling a frame from an engine's own world: features
//! `box2d`, `rapier2d` (0.36), `rapier2d-0-35`, `rapier2d-0-34` and `avian2d`). What a
//! capture's events look like in the scene view is drawn by `picture::event_picture`.

pub mod adapters;
pub mod analysis;
pub mod format;
pub mod live;
pub mod words;

// The modules of each job, by the names the crate has always used (`capture::events`,
// `capture::follow`, `capture::box2d`, ...), so that a game's paths stay the same.
#[cfg(feature = "avian2d")]
pub use adapters::avian;
#[cfg(feature = "box2d")]
pub use adapters::box2d;
#[cfg(feature = "rapier2d")]
pub use adapters::rapier;
#[cfg(feature = "rapier2d-0-34")]
pub use adapters::rapier_0_34;
#[cfg(feature = "rapier2d-0-35")]
pub use adapters::rapier_0_35;
pub use analysis::events;
pub use live::{follow, websocket};

pub use analysis::diff::{
    ClaimChange, ClaimDifference, DiffSettings, Divergence, RunDiff, ShapeDifference, ShapeKey,
    ShapeState, diff_captures, diff_sources,
};
#[cfg(feature = "parallel")]
pub use analysis::diff::{FrameComparison, compare_frames};
pub use analysis::events::{CaptureEvent, EventFinder, KINDS as EVENT_KINDS};
#[cfg(feature = "parallel")]
pub use analysis::index::{
    CaptureIndex, FrameEntry, ListedClaim, ScanState, ShownFrame, UNPACKED_LIMIT,
};
pub use analysis::judge::{FrameJudgement, judge_claim, judge_frame};
pub use analysis::runs::{DifferingPair, DifferingPairs, KEPT_RUNS};
#[cfg(feature = "parallel")]
pub use analysis::scan::{Watch, judge_capture, judge_capture_with_events, scan_capture};
pub use analysis::step::StepJudgement;
pub use format::error::CaptureError;
pub use format::own::{run_header, save_run, write_run};
pub use format::pairing::{
    Filter, FilterVerdict, LeftOut, MARGIN_SETTING, Margin, PAIRING_KEYS, PairMember, Pairing,
    left_out,
};
pub use format::parsed::{Malformed, MalformedWhat};
pub use format::read::Keyframe;
pub use format::read::{
    CaptureReader, CaptureSource, Frame, FrameClaim, LINE_LIMIT, NotACapture, ParsedLine, RawLine,
    is_capture, not_a_capture,
};
pub use format::write::{
    BodyPose, BodyShape, CaptureWriter, FIRST_PART_ID, Manifold, ManifoldPoint, ManifoldPoints,
    NormalFrom, Penetration,
};
pub use live::link::{LinkEvent, LinkStats, LinkWatch, Listener, Tee, ToWindow};
pub use live::recorder::{FlightRecorder, RecorderOutput};

use crate::geometry::Placed;
use crate::scene::{Motion, Precision};
use serde::Serialize;
use serde_json::{Map, Value};
use std::sync::Arc;

/// A captured shape's name to show: its name, or `id 5`.
pub fn display_name(id: u64, name: Option<&str>) -> String {
    match name {
        Some(name) => name.to_string(),
        None => format!("id {id}"),
    }
}

/// A captured shape's name with its id, as `fixture --pair` takes ids: `crate (id 2)`, or
/// `id 5` for a shape with no name.
pub fn labelled_name(id: u64, name: Option<&str>) -> String {
    match name {
        Some(name) => format!("{name} (id {id})"),
        None => format!("id {id}"),
    }
}

/// Whether `path` is a Box2D recording (`b2World_StartRecording`'s bytes, saved by
/// `b2SaveRecordingToFile`): named `.b2rec`, or starting with `B2RC`. Replayed into a capture
/// by `capture::box2d::replay` (feature `box2d`).
pub fn is_box2d_recording(path: &std::path::Path) -> bool {
    let named = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("b2rec"));
    named || {
        let mut start = [0u8; 4];
        std::fs::File::open(path)
            .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut start))
            .is_ok()
            && start == *b"B2RC"
    }
}

/// The `format` value of a capture's header.
pub const FORMAT: &str = "collidoscope-capture";
/// The capture version this build reads and writes.
pub const VERSION: u64 = 1;

/// The engine that made a capture.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Engine {
    /// Its name (`box2d`, `rapier2d`, `collidoscope`).
    pub name: String,
    /// Its version.
    pub version: String,
    /// How the game set it up (strings, numbers and booleans): shown, never interpreted.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub settings: Map<String, Value>,
}

impl Engine {
    /// `name` at `version`, with no settings.
    pub fn new(name: &str, version: &str) -> Self {
        Self {
            name: name.into(),
            version: version.into(),
            settings: Map::new(),
        }
    }

    /// The same, with `key` set to `value` in its settings.
    pub fn with_setting(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.settings.insert(key.into(), value.into());
        self
    }
}

/// A capture's first line: who made it and how to read its numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The engine.
    pub engine: Engine,
    /// The precision the engine computed its contacts in: it decides when a claim agrees.
    pub precision: Precision,
    /// The unit of every length (`m`, `px`): shown, never converted.
    pub units: String,
    /// Whether +y points up (Box2D, Rapier) or down (screen pixels). Only drawing changes.
    pub y_up: bool,
}

impl Header {
    /// An f32 engine's capture in metres, y up (Box2D's and Rapier's conventions).
    pub fn f32_metres(engine: Engine) -> Self {
        Self {
            engine,
            precision: Precision::F32,
            units: "m".into(),
            y_up: true,
        }
    }
}

/// One shape of a capture, as the frame being read has it.
#[derive(Clone, Debug, PartialEq)]
pub struct CapturedShape {
    /// The capture's id for it (one shape for the whole capture).
    pub id: u64,
    /// Its name, if the game gave one.
    pub name: Option<Arc<str>>,
    /// Its geometry at this frame's pose.
    pub placed: Placed,
    /// Its body type and velocities.
    pub motion: Motion,
    /// Its collision filter and body, when the capture gives them.
    pub pairing: Pairing,
}

impl CapturedShape {
    /// The shape as [`left_out`] reads one side of a pair.
    pub fn side(&self) -> PairMember<'_> {
        PairMember {
            placed: &self.placed,
            motion: &self.motion,
            pairing: self.pairing,
        }
    }

    /// The name to show: the given name, or `id 5`.
    pub fn display_name(&self) -> String {
        display_name(self.id, self.name.as_deref())
    }
}
