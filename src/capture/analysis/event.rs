//! One event of a capture (docs/format.md, "The events"): what happened, at which frame, to
//! which pair, with the numbers that show it. Found by [`super::events::EventFinder`], carried
//! in a frame's judgement ([`super::judge::FrameJudgement`]), worded by `capture::words`.

use crate::geometry::DVec2;
use crate::motion::{EventKind, SeamAt};
use serde::Serialize;
use std::collections::BTreeMap;

/// One event of a capture: the frame, the kind, the pair (ids, `a` the lower) and the numbers
/// that show it; keys that do not apply to the kind are absent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CaptureEvent {
    /// The frame it is about (for `seam`, `tunnelled`, `pushed-through`: the step from it to
    /// the next).
    pub frame: u64,
    /// The frame's time (seconds).
    pub time: f64,
    /// What happened.
    pub kind: EventKind,
    /// The pair's lower id.
    pub a: u64,
    /// The pair's higher id.
    pub b: u64,
    /// `seam`, `tunnelled`, `pushed-through`: the dynamic shape it happened to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<u64>,
    /// `seam`: the shape whose face the contact was on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub face_of: Option<u64>,
    /// `seam`: the shape that covers that face where the contact is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub covered_by: Option<u64>,
    /// `seam`: the face's outward normal (from `face_of` toward `shape`); `normal-flip`: the
    /// frame's claimed normal, from the lower id toward the higher; `stale`, when the claim is
    /// the contact of frame - age kept and moved ([`crate::capture::kept`]), the normal it kept (from
    /// `a` toward `b` as claimed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normal: Option<DVec2>,
    /// `seam`: the shape's velocity along -normal in the frame and in the next.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed_before: Option<f64>,
    /// `seam`: see `speed_before`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed_after: Option<f64>,
    /// `seam`: whether the shape lost more than half its speed against the face.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caught: Option<bool>,
    /// `tunnelled`: the first moment of the step (0 to 1) at which the pair touch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub t: Option<f64>,
    /// `tunnelled`: their deepest overlap over the step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<f64>,
    /// `pushed-through`: the shape's position in the frame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<DVec2>,
    /// `pushed-through`: its position in the next frame, past the other shape.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<DVec2>,
    /// `normal-flip`: the claimed normal in the frame before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normal_before: Option<DVec2>,
    /// `stale`: how many frames back the claim's poses are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub age: Option<u64>,
    /// `seam`: a face another shape covers, or a corner on a straight surface.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<SeamAt>,
    /// `seam` at a corner: the corner.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corner: Option<DVec2>,
    /// `seam` at a corner: the outward normal of the straight surface through it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub surface_normal: Option<DVec2>,
    /// The shapes' names as the capture gave them (for words; not written).
    #[serde(skip)]
    pub names: BTreeMap<u64, String>,
    /// The capture's unit of length (`m`, `px`), for words; empty when not known.
    #[serde(skip)]
    pub units: String,
}

impl CaptureEvent {
    pub(in crate::capture) fn new(frame: (u64, f64), kind: EventKind, pair: (u64, u64)) -> Self {
        Self {
            frame: frame.0,
            time: frame.1,
            kind,
            a: pair.0.min(pair.1),
            b: pair.0.max(pair.1),
            shape: None,
            face_of: None,
            covered_by: None,
            normal: None,
            speed_before: None,
            speed_after: None,
            caught: None,
            t: None,
            depth: None,
            from: None,
            to: None,
            normal_before: None,
            age: None,
            at: None,
            corner: None,
            surface_normal: None,
            names: BTreeMap::new(),
            units: String::new(),
        }
    }

    /// The name shown for the shape with `id`: its name, or `id N`.
    pub fn name(&self, id: u64) -> String {
        self.names
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("id {id}"))
    }

    /// The order events are told in: frame, kind, pair, shape.
    pub(in crate::capture) fn key(&self) -> (u64, u8, u64, u64, u64) {
        (
            self.frame,
            rank(self.kind),
            self.a,
            self.b,
            self.shape.unwrap_or(0),
        )
    }
}

/// The kinds a capture names, in the order they are told.
pub const KINDS: [EventKind; 5] = [
    EventKind::Seam,
    EventKind::Tunnelled,
    EventKind::PushedThrough,
    EventKind::NormalFlip,
    EventKind::Stale,
];

fn rank(kind: EventKind) -> u8 {
    KINDS.iter().position(|k| *k == kind).unwrap_or(KINDS.len()) as u8
}
