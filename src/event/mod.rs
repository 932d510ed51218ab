//! Events over time: what a step did that a resolution bug shows as, for the motion lab's own
//! simulation and for another engine's capture alike. One type, [`Event`], whose [`What`]
//! carries each kind's numbers under one vocabulary (`normal` from the pair's first shape
//! toward its second unless a kind says otherwise; `depth` a length; speeds in lengths per
//! second; `shape` the body it happened to).
//!
//! Where an event comes from decides two things only, through [`Source`]: how its shapes are
//! named (list positions of a simulated scene, the ids of a capture) and when it happened (a
//! simulation's step k takes frame k - 1 to frame k; a capture's event at frame k is about
//! the step from it to the next). The JSON each source writes (`simulate --json`, a
//! recording's header, `diagnose --json`) keeps its own keys and order (docs/format.md): see
//! [`wire`].
//!
//! Words: a simulated event is worded by [`Event::sentence`] (src/motion/events.rs), a
//! capture's by `capture::words`; what fixes each kind and what each means in short are here.

pub mod wire;

use crate::geometry::DVec2;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Debug;

/// The kind of an event, as `simulate --json` and `diagnose --json` name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EventKind {
    /// The resolver's move made the pair's true penetration deeper.
    PushedIn,
    /// During the step a body's motion overlapped the other shape, yet the step ended with
    /// them apart and no contact between them resolved: it passed through.
    Tunnelled,
    /// The resolver moved a dynamic body out of the other shape on its far side: the body's
    /// centre went, from the start of the step to after the resolution, across the other
    /// shape's interior, and the push pointed along the body's motion over the step (a deep
    /// hit at a large step "resolved" by ejecting the body behind a thin wall).
    PushedThrough,
    /// A contact resolved in two consecutive steps reversed its normal.
    NormalFlip,
    /// After the step the pair's true depth is above [`crate::motion::STILL_PENETRATING`].
    StillPenetrating,
    /// Resolving a contact with a segment or a chain's piece changed the dynamic shape's
    /// velocity along that segment or piece: it caught on the surface instead of sliding
    /// (at a seam, a ghost collision).
    Caught,
    /// A ghost collision on separate shapes: the contact's normal is a face of one shape
    /// that another shape covers there (the seam between two floor tiles).
    Seam,
    /// A claim the engine did not recompute: it agrees with the shapes' poses some frames
    /// back (a capture's event).
    Stale,
}

impl EventKind {
    /// Every kind `simulate` tells, in the order they are told.
    pub const ALL: [EventKind; 7] = [
        EventKind::PushedIn,
        EventKind::Tunnelled,
        EventKind::PushedThrough,
        EventKind::NormalFlip,
        EventKind::StillPenetrating,
        EventKind::Caught,
        EventKind::Seam,
    ];

    /// `pushed-in`, `tunnelled`, `pushed-through`, `normal-flip`, `still-penetrating`, ...
    pub fn name(self) -> &'static str {
        match self {
            EventKind::PushedIn => "pushed-in",
            EventKind::Tunnelled => "tunnelled",
            EventKind::PushedThrough => "pushed-through",
            EventKind::NormalFlip => "normal-flip",
            EventKind::StillPenetrating => "still-penetrating",
            EventKind::Caught => "caught",
            EventKind::Seam => "seam",
            EventKind::Stale => "stale",
        }
    }

    /// What fixes an event of this kind in a game ("" for the kinds only a simulation with
    /// a named mistake shows).
    pub fn fix(self) -> &'static str {
        match self {
            EventKind::Seam => {
                "make the floor one shape: a chain (Box2D b2CreateChain, Rapier a polyline with internal-edge flags), or merge the tiles' boxes (collidoscope import LEVEL --merge, or Edit > Merge into chains)"
            }
            EventKind::Tunnelled => {
                "continuous collision for fast bodies (Box2D isBullet, Rapier ccd_enabled), or substeps bounded by (r - e) / |v| (r: the body's smallest half-width, e: the engine's contact margin, |v|: its speed)"
            }
            EventKind::PushedThrough => {
                "push out along the contact normal by the depth, never along the motion; for fast bodies, continuous collision"
            }
            EventKind::NormalFlip => {
                "keep one normal convention (from A toward B) and take the pair's order from the engine's manifold, not from the ids"
            }
            EventKind::Stale => {
                "recompute contacts that moved (Box2D: b2BodyDef.enableContactRecycling = false; Rapier: contact_recycle_distance, or turn recycling off while capturing); a recycled contact is not a geometric mistake"
            }
            _ => "",
        }
    }

    /// What an event of this kind says happened, in a few words.
    pub fn in_short(self) -> &'static str {
        match self {
            EventKind::PushedIn => "the resolver's move made the true depth deeper",
            EventKind::Tunnelled => "a body passed through a shape within a step",
            EventKind::PushedThrough => {
                "the resolver pushed a body out on the far side of the shape it hit"
            }
            EventKind::NormalFlip => "a contact's normal reversed between steps",
            EventKind::StillPenetrating => "the depth is above 1e-6 after the step",
            EventKind::Caught => {
                "resolving a segment or chain piece slowed the body along it (a ghost collision)"
            }
            EventKind::Seam => {
                "a contact's normal was a face another shape covers: a ghost collision on a seam"
            }
            EventKind::Stale => "a contact the engine did not recompute (from earlier poses)",
        }
    }
}

/// What fixes a capture's event of `kind` ([`EventKind::fix`]).
pub fn event_fix(kind: EventKind) -> &'static str {
    kind.fix()
}

/// What an event of `kind` says happened, in a few words ([`EventKind::in_short`]).
pub fn event_in_short(kind: EventKind) -> &'static str {
    kind.in_short()
}

/// Where an event comes from: how its shapes are named and when it happened.
pub trait Source: Clone + Debug + PartialEq {
    /// A shape: a list position (a simulated scene) or an id (a capture).
    type Id: Copy + Ord + Debug + PartialEq + Serialize;
    /// When: a simulation's step number, or a capture's frame and its time.
    type When: Copy + Debug + PartialEq;
}

/// An event of the motion lab's own simulation (`simulate`, a recording): shapes by list
/// position, when by the step (1 for the first: step k takes frame k - 1 to frame k).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Simulated;

impl Source for Simulated {
    type Id = usize;
    type When = u64;
}

/// An event of another engine's capture: shapes by id, when by the frame (the step from it
/// to the next) and its time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Captured;

/// A capture's frame and its time (seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameAt {
    /// The frame.
    pub frame: u64,
    /// Its time (seconds).
    pub time: f64,
}

impl Source for Captured {
    type Id = u64;
    type When = FrameAt;
}

/// One event: when, the pair (`a` the lower), what happened with the numbers that show it,
/// and the shapes' names as the source gave them (for words; empty when the words take them
/// from elsewhere, as `simulate` takes them from its scene).
#[derive(Clone, Debug, PartialEq)]
pub struct Event<S: Source> {
    /// When it happened.
    pub when: S::When,
    /// The pair's first shape (the lower).
    pub a: S::Id,
    /// The pair's second shape.
    pub b: S::Id,
    /// What happened, and the numbers that show it.
    pub what: What<S::Id>,
    /// The shapes' names as the source gave them (a capture's), for words.
    pub names: BTreeMap<S::Id, String>,
    /// The unit of length (`m`, `px`) for words; empty when not known.
    pub units: String,
}

/// What happened, each kind with its own numbers.
#[derive(Clone, Debug, PartialEq)]
pub enum What<Id> {
    /// The resolver's move made the pair's true penetration deeper.
    PushedIn {
        /// The true depth before the move.
        depth_before: f64,
        /// The true depth after it.
        depth_after: f64,
        /// The resolver's normal (from `a` toward `b`).
        normal: DVec2,
    },
    /// A body passed through the other shape within a step.
    Tunnelled {
        /// The body that passed through.
        shape: Id,
        /// The chain's piece, for a pair with a chain.
        piece: Option<usize>,
        /// When and how deep they touched on the way.
        through: Through,
    },
    /// The resolver pushed a body out on the far side of the shape it hit.
    PushedThrough {
        /// The body.
        shape: Id,
        /// Its position at the start of the step.
        from: DVec2,
        /// Where it was left, past the other shape.
        to: DVec2,
        /// The resolver's push, where the source knows it (a simulation does; a capture
        /// sees only the poses).
        push: Option<Push>,
    },
    /// A contact's normal reversed between steps.
    NormalFlip {
        /// The normal the step before (from `a` toward `b`).
        normal_before: DVec2,
        /// The normal now.
        normal: DVec2,
    },
    /// The pair still overlap after the step.
    StillPenetrating {
        /// The true depth after the step.
        depth: f64,
    },
    /// Resolving a segment or chain piece slowed the body along it.
    Caught {
        /// The body that caught.
        shape: Id,
        /// The chain's piece, for a pair with a chain.
        piece: Option<usize>,
        /// How much of the velocity along the surface the resolution took (per second).
        lost: f64,
    },
    /// A ghost collision on a seam between separate shapes.
    Seam(Seam<Id>),
    /// A claim the engine did not recompute.
    Stale {
        /// How many frames back the claim's poses are.
        age: u64,
        /// When the claim is the contact of `age` frames back kept and moved
        /// ([`crate::capture::kept`]): the normal it kept (from `a` toward `b` as claimed).
        normal: Option<DVec2>,
    },
}

/// When and how deep a tunnelling pair touched on the way through.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Through {
    /// Measured within the simulation's substep, in seconds from its start.
    Substep {
        /// When they first touched.
        enter: f64,
        /// When they last touched.
        exit: f64,
        /// The substep (seconds).
        dt: f64,
        /// The body's largest safe step, (r - e) / |v|, where it has one.
        safe_dt: Option<f64>,
    },
    /// Measured over a capture's step from its two poses, as a fraction of it.
    Step {
        /// The first moment of the step (0 to 1) at which they touch.
        t: f64,
        /// Their deepest overlap over the step.
        depth: f64,
    },
}

/// A resolver's push: how far and which way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Push {
    /// How far it pushed the pair apart (the resolver's depth).
    pub depth: f64,
    /// The resolver's normal (from `a` toward `b`).
    pub normal: DVec2,
}

/// A seam: the contact's normal is a face of one shape that another covers there, or it
/// meets a corner where a straight surface runs on (docs/format.md, "Seams").
#[derive(Clone, Debug, PartialEq)]
pub struct Seam<Id> {
    /// The dynamic body.
    pub shape: Id,
    /// The shape whose face the contact was on.
    pub face_of: Id,
    /// The shape that covers that face where they touch.
    pub covered_by: Id,
    /// The face's outward normal (from `face_of` toward `shape`).
    pub normal: DVec2,
    /// The body's velocity along -normal before (a capture: in the frame).
    pub speed_before: f64,
    /// The same after (a capture: in the next frame).
    pub speed_after: f64,
    /// Whether the body lost more than half of that speed.
    pub caught: bool,
    /// The impulse the engine's solver applied with this contact over the step (a capture's:
    /// the seam claim's `impulses` added up), where the capture has it.
    pub impulse: Option<f64>,
    /// At a corner on a straight surface: the corner; none for a face another covers.
    pub corner: Option<SeamCorner>,
}

/// A seam at a corner: the corner and the straight surface through it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeamCorner {
    /// The corner.
    pub corner: DVec2,
    /// The outward normal of the straight surface through it.
    pub surface_normal: DVec2,
}

/// Where a seam's contact met the shape (docs/format.md, "A seam at a corner").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeamAt {
    /// A face another shape covers.
    Face,
    /// A corner where the surface runs straight on.
    Corner,
}

impl<Id> Seam<Id> {
    /// A face another covers, or a corner.
    pub fn at(&self) -> SeamAt {
        if self.corner.is_some() {
            SeamAt::Corner
        } else {
            SeamAt::Face
        }
    }
}

impl<Id: Copy> What<Id> {
    /// The kind.
    pub fn kind(&self) -> EventKind {
        match self {
            What::PushedIn { .. } => EventKind::PushedIn,
            What::Tunnelled { .. } => EventKind::Tunnelled,
            What::PushedThrough { .. } => EventKind::PushedThrough,
            What::NormalFlip { .. } => EventKind::NormalFlip,
            What::StillPenetrating { .. } => EventKind::StillPenetrating,
            What::Caught { .. } => EventKind::Caught,
            What::Seam(_) => EventKind::Seam,
            What::Stale { .. } => EventKind::Stale,
        }
    }

    /// The body it happened to, for the kinds that name one.
    pub fn shape(&self) -> Option<Id> {
        match self {
            What::Tunnelled { shape, .. }
            | What::PushedThrough { shape, .. }
            | What::Caught { shape, .. } => Some(*shape),
            What::Seam(s) => Some(s.shape),
            _ => None,
        }
    }

    /// The chain's piece, for the kinds that name one.
    pub fn piece(&self) -> Option<usize> {
        match self {
            What::Tunnelled { piece, .. } | What::Caught { piece, .. } => *piece,
            _ => None,
        }
    }

    /// The normal the event carries: the resolver's (pushed in or through), the one after a
    /// flip, a seam's face's, the one a stale contact kept.
    pub fn normal(&self) -> Option<DVec2> {
        match self {
            What::PushedIn { normal, .. } | What::NormalFlip { normal, .. } => Some(*normal),
            What::PushedThrough { push, .. } => push.map(|p| p.normal),
            What::Seam(s) => Some(s.normal),
            What::Stale { normal, .. } => *normal,
            _ => None,
        }
    }

    /// How many frames back a stale claim's poses are.
    pub fn age(&self) -> Option<u64> {
        match self {
            What::Stale { age, .. } => Some(*age),
            _ => None,
        }
    }

    /// The pair told the other way round: every normal from `a` toward `b` turned (a seam's
    /// normal is its face's, from `face_of`, and stays).
    pub fn turned(&mut self) {
        match self {
            What::PushedIn { normal, .. } => *normal = -*normal,
            What::PushedThrough {
                push: Some(push), ..
            } => push.normal = -push.normal,
            What::NormalFlip {
                normal_before,
                normal,
            } => {
                *normal_before = -*normal_before;
                *normal = -*normal;
            }
            What::Stale {
                normal: Some(n), ..
            } => *n = -*n,
            _ => {}
        }
    }
}

impl<S: Source> Event<S> {
    /// An event `what` of the pair, in the order given (a simulation puts the lower first
    /// when the step is told, turning the normals with [`What::turned`]; a capture gives it
    /// lower first).
    pub fn new(when: S::When, (a, b): (S::Id, S::Id), what: What<S::Id>) -> Self {
        Self {
            when,
            a,
            b,
            what,
            names: BTreeMap::new(),
            units: String::new(),
        }
    }

    /// The kind.
    pub fn kind(&self) -> EventKind {
        self.what.kind()
    }

    /// The body it happened to, for the kinds that name one.
    pub fn shape(&self) -> Option<S::Id> {
        self.what.shape()
    }

    /// How many frames back a stale claim's poses are.
    pub fn age(&self) -> Option<u64> {
        self.what.age()
    }

    /// The seam, for a seam event.
    pub fn seam(&self) -> Option<&Seam<S::Id>> {
        match &self.what {
            What::Seam(s) => Some(s),
            _ => None,
        }
    }

    /// Every shape the event names: the pair, the body, a seam's face and cover.
    pub fn shapes(&self) -> Vec<S::Id> {
        let mut ids = vec![self.a, self.b];
        ids.extend(self.shape());
        if let Some(s) = self.seam() {
            ids.extend([s.face_of, s.covered_by]);
        }
        ids
    }
}

impl Event<Simulated> {
    /// The step it happened in (1-based: step k takes frame k - 1 to frame k).
    pub fn step(&self) -> u64 {
        self.when
    }
}

impl Event<Captured> {
    /// The frame it is about (for `seam`, `tunnelled`, `pushed-through`: the step from it to
    /// the next).
    pub fn frame(&self) -> u64 {
        self.when.frame
    }

    /// The frame's time (seconds).
    pub fn time(&self) -> f64 {
        self.when.time
    }

    /// The name shown for the shape with `id`: its name, or `id N`.
    pub fn name(&self, id: u64) -> String {
        self.names
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("id {id}"))
    }
}

/// How many events of each kind `simulate` tells, in words: `0 pushed-in, 2 tunnelled, 0
/// pushed-through, 0 normal-flip, 0 still-penetrating, ...`.
pub fn counts<S: Source>(events: &[Event<S>]) -> String {
    EventKind::ALL
        .iter()
        .map(|k| {
            format!(
                "{} {}",
                events.iter().filter(|e| e.kind() == *k).count(),
                k.name()
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}
