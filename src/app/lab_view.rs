//! What the lab shown gives the scene view: the scene to draw (the document's, a run's frame,
//! the latency lab's players), the pair and how much of its test to draw, the lab's own
//! overlay, and the keys that say when the view must be drawn again. Each lab makes its own
//! (`view`); the scene view reads only this, and knows no lab.

use crate::motion::Sweep;
use crate::picture::draw::{BroadShown, LatencyShown, RayShown};
use crate::picture::fit::Explained;
use crate::query::SatReport;
use crate::scene::{Claim, Scene};

/// The explained pair as the view draws it.
#[derive(Clone)]
pub enum PairShown<'a> {
    /// None: the lab draws its own over the shapes (casts, latency).
    None,
    /// The document's pair and its report, as the pair lab shows it: the axis in focus, how
    /// many axes step mode has shown, whether the verdict is shown, a known mistake's test
    /// drawn beside it, and whether the axes are drawn at all.
    Document {
        /// The axis brought forward.
        focus_axis: Option<usize>,
        /// How many axes are drawn (step mode).
        axes_seen: usize,
        /// Whether the verdict (MTV, contacts, closest points) is drawn.
        verdict_shown: bool,
        /// A mistake's own test, drawn beside the correct one.
        mistake: Option<SatReport>,
        /// Whether the axis ring is drawn.
        axes: bool,
    },
    /// A pair and report of the lab's own (the motion lab's at the frame shown, the capture
    /// lab's selected claim).
    Own {
        /// The pair (list positions of the scene drawn) and its report.
        pair: Option<Explained<'a>>,
        /// The axis brought forward.
        focus_axis: Option<usize>,
        /// What an engine claimed about the pair, drawn beside the exact result.
        claim: Option<&'a Claim>,
        /// A mistake's own test, drawn beside the correct one.
        mistake: Option<&'a SatReport>,
    },
}

/// What the view draws for the lab shown.
#[derive(Clone)]
pub struct LabView<'a> {
    /// The scene drawn instead of the document's.
    pub scene: Option<&'a Scene>,
    /// What a fit shows instead of the scene drawn (every place the latency lab's players
    /// are seen).
    pub fit_scene: Option<&'a Scene>,
    /// Whether the document's shapes may be grabbed and edited.
    pub editable: bool,
    /// Whether the scene drawn is the document's shapes (selection, handles, the other
    /// intersecting pairs apply).
    pub document_shapes: bool,
    /// The pair and how much of its test to draw.
    pub pair: PairShown<'a>,
    /// The document pair's claim and motion are drawn.
    pub claim_and_motion: bool,
    /// The broad-phase lab's cells, candidate pairs and hits.
    pub broad: Option<BroadShown>,
    /// The casts lab's ray and its hits; a drag on the background draws a new one.
    pub ray: Option<RayShown<'a>>,
    /// Whether a drag on the background draws a ray (the casts lab).
    pub draws_rays: bool,
    /// A second run's scene, drawn as outlines.
    pub ghost: Option<&'a Scene>,
    /// The ghost's shapes (list positions) that differ from the scene's: drawn bold.
    pub ghost_apart: &'a [usize],
    /// The sweeps of the step shown.
    pub sweeps: &'a [Sweep],
    /// The capture lab's event stepped to: its picture.
    pub event: Option<&'a crate::picture::EventPicture>,
    /// The capture lab's impulses at the frame shown.
    pub impulses: Option<&'a crate::picture::draw::ImpulsesShown>,
    /// The latency lab's players at the bucket shown.
    pub latency: Option<LatencyShown<'a>>,
    /// The scene's y grows down the screen (a capture from a y-down game).
    pub y_down: bool,
    /// A shape of the lab's own scene drawn as selected (its list position): the capture
    /// lab's first shape of a pair being picked.
    pub marked: Option<usize>,
    /// What the static layer depends on besides the shapes and the view (the lab's hash).
    pub static_key: u64,
    /// What every frame depends on besides the document and the view (the lab's hash).
    pub frame_key: u64,
}

impl<'a> LabView<'a> {
    /// The document's shapes with nothing of a lab's over them.
    pub fn document(pair: PairShown<'a>) -> Self {
        Self {
            scene: None,
            fit_scene: None,
            editable: true,
            document_shapes: true,
            pair,
            claim_and_motion: true,
            broad: None,
            ray: None,
            draws_rays: false,
            ghost: None,
            ghost_apart: &[],
            sweeps: &[],
            event: None,
            impulses: None,
            latency: None,
            y_down: false,
            marked: None,
            static_key: 0,
            frame_key: 0,
        }
    }
}

/// `value` hashed, for a lab's keys.
pub fn hash_of(value: impl std::hash::Hash) -> u64 {
    use std::hash::Hasher;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}
