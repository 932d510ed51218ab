//! One event of a capture (docs/format.md, "The events"): what happened, at which frame, to
//! which pair, with the numbers that show it. The event type is [`crate::event::Event`],
//! shared with the motion lab's simulation; found by [`super::events::EventFinder`], carried
//! in a frame's judgement ([`super::judge::FrameJudgement`]), worded by `capture::words`.

use crate::event::{Captured, EventKind, FrameAt, What};

/// An event of a capture: shapes by id, `a` the lower; when by the frame and its time.
pub type CaptureEvent = crate::event::Event<Captured>;

/// The event `what` of the pair (either order) at the frame and time `at`.
pub(in crate::capture) fn captured(
    at: (u64, f64),
    pair: (u64, u64),
    what: What<u64>,
) -> CaptureEvent {
    CaptureEvent::new(
        FrameAt {
            frame: at.0,
            time: at.1,
        },
        (pair.0.min(pair.1), pair.0.max(pair.1)),
        what,
    )
}

/// The order events are told in: frame, kind, pair, shape.
pub(in crate::capture) fn key(e: &CaptureEvent) -> (u64, u8, u64, u64, u64) {
    (
        e.when.frame,
        rank(e.kind()),
        e.a,
        e.b,
        e.shape().unwrap_or(0),
    )
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
