//! What a step did that a resolution bug shows as: each event names the pair, the step and
//! the numbers that show it.

use crate::geometry::DVec2;
use serde::{Deserialize, Serialize};

/// The kind of an event, as `simulate --json` names it.
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
    /// Every kind, in the order they are told.
    pub const ALL: [EventKind; 7] = [
        EventKind::PushedIn,
        EventKind::Tunnelled,
        EventKind::PushedThrough,
        EventKind::NormalFlip,
        EventKind::StillPenetrating,
        EventKind::Caught,
        EventKind::Seam,
    ];

    /// `pushed-in`, `tunnelled`, `pushed-through`, `normal-flip`, `still-penetrating`.
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
}

/// How many events of each kind, in words: `0 pushed-in, 2 tunnelled, 0 pushed-through, 0
/// normal-flip, 0 still-penetrating`.
pub fn counts(events: &[Event]) -> String {
    EventKind::ALL
        .iter()
        .map(|k| {
            format!(
                "{} {}",
                events.iter().filter(|e| e.kind == *k).count(),
                k.name()
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One event: the step (1 for the first step: step k takes the scene from frame k - 1 to
/// frame k), the pair (list positions, a < b) and the numbers that show it. Numbers that do
/// not apply to a kind are absent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// The step it happened in (1-based).
    pub step: u64,
    /// What happened.
    pub kind: EventKind,
    /// The pair, a < b.
    pub a: usize,
    /// The pair's second shape.
    pub b: usize,
    /// `pushed-in`: the true depth before the move; `still-penetrating`: after the step;
    /// `pushed-through`: the resolver's depth (how far it pushed the pair apart).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<f64>,
    /// `pushed-in`: the true depth after the move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth_after: Option<f64>,
    /// `pushed-in`, `normal-flip`, `pushed-through`: the resolver's normal (A toward B) this
    /// step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub normal: Option<DVec2>,
    /// `normal-flip`: the resolver's normal the step before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub normal_before: Option<DVec2>,
    /// `tunnelled`, `pushed-through`: the body that passed through (list position);
    /// `caught`: the body that caught.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<usize>,
    /// `tunnelled`: when, within the step (seconds from its start), the shapes first touched
    /// and last touched on the way through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enter: Option<f64>,
    /// `tunnelled`: when they last touched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<f64>,
    /// `tunnelled`: the substep it happened in (seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dt: Option<f64>,
    /// `tunnelled`: the body's largest safe step (r - e) / |v|.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safe_dt: Option<f64>,
    /// `pushed-through`: the body's position at the start of the step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<DVec2>,
    /// `pushed-through`: where the resolver left it, on the far side of the other shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<DVec2>,
    /// `caught`, `tunnelled`: the chain's piece, for a pair with a chain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece: Option<usize>,
    /// `caught`: how much of the velocity along the segment or piece the resolution took
    /// (units per second).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost: Option<f64>,
    /// `seam`: the shape whose face the contact was on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face_of: Option<usize>,
    /// `seam`: the shape that covers that face where they touch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub covered_by: Option<usize>,
    /// `seam`: the body's velocity along -normal before the pair's resolution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_before: Option<f64>,
    /// `seam`: the same after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_after: Option<f64>,
    /// `seam`: whether the body lost more than half of that speed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caught: Option<bool>,
    /// `seam`: what of the shape the contact met, a face another covers or a corner on a
    /// straight surface.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<SeamAt>,
    /// `seam` at a corner: the corner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corner: Option<DVec2>,
    /// `seam` at a corner: the outward normal of the straight surface through it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surface_normal: Option<DVec2>,
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

impl Event {
    /// An event of `kind` with no numbers yet.
    pub fn new(step: u64, kind: EventKind, (a, b): (usize, usize)) -> Self {
        Self {
            step,
            kind,
            a,
            b,
            depth: None,
            depth_after: None,
            normal: None,
            normal_before: None,
            shape: None,
            enter: None,
            exit: None,
            dt: None,
            safe_dt: None,
            from: None,
            to: None,
            piece: None,
            lost: None,
            face_of: None,
            covered_by: None,
            speed_before: None,
            speed_after: None,
            caught: None,
            at: None,
            corner: None,
            surface_normal: None,
        }
    }

    /// The event in one sentence, naming shapes with `name`.
    pub fn sentence(&self, name: impl Fn(usize) -> String) -> String {
        let (a, b) = (name(self.a), name(self.b));
        let n = |x: Option<f64>| crate::text::number(x.unwrap_or(f64::NAN));
        let p = |v: Option<DVec2>| v.map_or("?".into(), crate::text::point);
        match self.kind {
            EventKind::PushedIn => format!(
                "step {}: resolving {a} and {b} pushed them deeper: depth {} became {} (normal {}).",
                self.step,
                n(self.depth),
                n(self.depth_after),
                p(self.normal)
            ),
            EventKind::Tunnelled => format!(
                "step {}: {} passed through {} between t = {} and {} of a {} s substep; its largest safe step is {} s.",
                self.step,
                self.shape.map_or(a.clone(), &name),
                if self.shape == Some(self.a) { b } else { a },
                n(self.enter),
                n(self.exit),
                n(self.dt),
                n(self.safe_dt)
            ),
            EventKind::PushedThrough => {
                let (body, other) = if self.shape == Some(self.b) {
                    (b, a)
                } else {
                    (a, b)
                };
                format!(
                    "step {}: {body} was pushed out through the far side of {other}: its centre went from {} across {other} to {} (pushed {} along {}, the way it was moving).",
                    self.step,
                    p(self.from),
                    p(self.to),
                    n(self.depth),
                    p(self.normal)
                )
            }
            EventKind::NormalFlip => format!(
                "step {}: the contact of {a} and {b} flipped its normal from {} to {}.",
                self.step,
                p(self.normal_before),
                p(self.normal)
            ),
            EventKind::StillPenetrating => format!(
                "step {}: {a} and {b} still overlap by {} after resolution.",
                self.step,
                n(self.depth)
            ),
            EventKind::Caught => {
                let (body, other) = if self.shape == Some(self.a) {
                    (a, b)
                } else {
                    (b, a)
                };
                format!(
                    "step {}: {body} caught on {other}{}: resolving their contact took {} of its velocity along the surface.",
                    self.step,
                    self.piece
                        .map(|k| format!("'s piece {k}"))
                        .unwrap_or_default(),
                    n(self.lost)
                )
            }
            EventKind::Seam => {
                let body = self.shape.map_or(b.clone(), &name);
                let face = self.face_of.map_or(a.clone(), &name);
                let cover = self.covered_by.map_or("?".into(), &name);
                if let (Some(corner), Some(m)) = (self.corner, self.surface_normal) {
                    return format!(
                        "step {}: {body} {} on the corner {} between {face} and {cover}: the contact's normal {} leans {} from the floor's {}; {body}'s speed into the corner went from {} to {}.",
                        self.step,
                        if self.caught == Some(true) {
                            "caught"
                        } else {
                            "bumped"
                        },
                        crate::text::point(corner),
                        p(self.normal),
                        crate::text::angle(self.normal.map_or(f64::NAN, |n| n.angle_to(m).abs())),
                        crate::text::point(m),
                        n(self.speed_before),
                        n(self.speed_after)
                    );
                }
                format!(
                    "step {}: {body} {} the seam between {cover} and {face}: the contact's normal {} is a face of {face} that {cover} covers; {body}'s speed along the floor went from {} to {}.",
                    self.step,
                    if self.caught == Some(true) {
                        "caught on"
                    } else {
                        "touched"
                    },
                    p(self.normal),
                    n(self.speed_before),
                    n(self.speed_after)
                )
            }
            EventKind::Stale => format!(
                "step {}: the contact of {a} and {b} was not recomputed.",
                self.step
            ),
        }
    }
}

/// What fixes a capture's event of `kind`.
pub fn event_fix(kind: crate::motion::EventKind) -> &'static str {
    use crate::motion::EventKind;
    match kind {
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

/// What an event of `simulate` and the motion lab says happened, in a few words.
pub fn event_in_short(kind: crate::motion::EventKind) -> &'static str {
    use crate::motion::EventKind;
    match kind {
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
