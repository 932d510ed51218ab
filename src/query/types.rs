//! The types every query shares: which side of the pair, where an axis comes from, one
//! measured axis, the verdict, the MTV and the whole separating-axis report.
//!
//! Conventions are those of the module [`crate::query`]: A is the first shape, B the second,
//! and every normal points from A toward B.

use crate::geometry::{DVec2, Feature, Interval, ShapeKind};
use serde::Serialize;

/// Which shape of the pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Side {
    /// The first shape.
    A,
    /// The second shape.
    B,
}

/// Where a candidate axis comes from. Edge and vertex indices are in the order the shape's
/// points were given.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AxisSource {
    /// The normal of edge `edge` (from point `edge` to point `edge + 1`) of polygon `of`.
    EdgeNormal {
        /// The polygon.
        of: Side,
        /// Edge index.
        edge: usize,
    },
    /// The normal of capsule `of`'s core segment.
    SegmentNormal {
        /// The capsule.
        of: Side,
    },
    /// From the corner of `polygon` nearest the circle's centre toward that centre.
    VertexToCentre {
        /// The polygon (the circle is the other shape).
        polygon: Side,
        /// The corner's index.
        vertex: usize,
    },
    /// From the closest point of A's core toward the closest point of B's core.
    ClosestFeatures {
        /// A's feature.
        a: Feature,
        /// B's feature.
        b: Feature,
    },
    /// From end `end` (0 is `a`, 1 is `b`) of capsule `capsule` toward the centre of the
    /// circle (the naive rule's axes; the correct test uses the closest points instead).
    EndToCentre {
        /// The capsule (the circle is the other shape).
        capsule: Side,
        /// 0 for end `a`, 1 for end `b`.
        end: usize,
    },
    /// From A's centre toward B's centre (two circles).
    CentreToCentre,
    /// Two circles with one centre: every direction is as good; +x is used.
    AnyAxis,
}

/// One candidate axis, measured.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AxisTest {
    /// Where the axis comes from.
    pub source: AxisSource,
    /// The unit axis as its source gives it: an edge's right-hand normal in the winding the
    /// points were given in (inward for a clockwise polygon), or pointing from A's feature
    /// toward B's for the other sources.
    pub axis: DVec2,
    /// A's projection onto `axis` (world coordinates).
    pub a: Interval,
    /// B's projection onto `axis`.
    pub b: Interval,
    /// `min(a.max - b.min, b.max - a.min)`: how far B must move along the axis to leave A;
    /// negative is the gap between them.
    pub overlap: f64,
    /// `axis` or `-axis`: the direction in which B leaves A with the move `overlap`
    /// (from A toward B). On a tie, the direction from A's centre toward B's.
    pub normal: DVec2,
    /// Whether the projections are apart or only touch (`overlap <= 0`).
    pub separating: bool,
}

/// How the test ended.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Verdict {
    /// Some axis shows a gap.
    Separated {
        /// The first axis with `overlap <= 0`: where a SAT loop exits early.
        first: usize,
        /// The axis with the widest gap.
        widest: usize,
        /// That gap (> 0).
        gap: f64,
    },
    /// No gap, but the projections only touch on `axis`: boundaries meet, interiors do not.
    Touching {
        /// The first axis whose projections touch.
        axis: usize,
    },
    /// Every axis overlaps, but the least overlap is below the test's threshold, so the test
    /// calls the pair apart. Only a mistaken test has a threshold (see [`Mistake`]).
    Shallow {
        /// The axis of least overlap.
        axis: usize,
        /// Its overlap (> 0, below the threshold).
        depth: f64,
        /// The threshold the overlap fell under.
        threshold: f64,
    },
    /// Every axis overlaps.
    Intersecting {
        /// The axis of least overlap (the MTV's).
        axis: usize,
        /// Its overlap: the penetration depth.
        depth: f64,
    },
}

/// What one axis did in the test (see [`SatReport::role`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AxisRole {
    /// The axis that decided: the early out when apart or touching, the MTV's when
    /// intersecting.
    Deciding,
    /// Another axis whose shadows are apart or only touch.
    Separating,
    /// An axis whose shadows overlap.
    Overlapping,
}

/// A known way of getting the separating-axis test wrong, as collision code in the wild does.
/// Each is a variant of the test that [`crate::query::mistaken_report`] runs and reports with
/// the same structure as the correct one; `diagnose` names those that reproduce a claimed
/// contact, and the simulation can resolve with one to show its effect over time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mistake {
    /// The correct test with the normal pointing from B toward A (the pair's order or the
    /// sign convention swapped).
    NormalReversed,
    /// The least interval overlap wins and its axis is used as it comes (the rule many SAT
    /// tutorials give first), with a 1e-4 threshold on every overlap.
    NaiveSmallestOverlap,
    /// The correct, direction-aware test without the axes from a corner or a segment end
    /// toward a rounded shape: corner false positives and too-deep contacts.
    EdgeNormalsOnly,
    /// The correct test, but a penetration shallower than 1e-4 is called apart.
    ShallowIgnored,
    /// A chain's piece collided on its own as a two-sided segment, with no ghost points and
    /// no one-sided rule (separate tiles, a polyline collided segment by segment): at a flat
    /// seam the next piece's end pushes a sliding shape back along the surface.
    InternalEdge,
}

impl Mistake {
    /// Every mistake, in the order `diagnose` lists matches.
    pub const ALL: [Mistake; 5] = [
        Mistake::NormalReversed,
        Mistake::NaiveSmallestOverlap,
        Mistake::EdgeNormalsOnly,
        Mistake::ShallowIgnored,
        Mistake::InternalEdge,
    ];

    /// Whether the mistake can explain a claim about two whole shapes (every one but
    /// `internal-edge`, which is about a chain's pieces).
    pub fn on_whole_shapes(self) -> bool {
        self != Mistake::InternalEdge
    }

    /// Whether the mistake can explain a claim on a chain's piece: `normal-reversed` and
    /// `shallow-ignored` (applied to the chain rule's result) and `internal-edge`; the two
    /// mistakes of a whole-shape SAT test do not apply.
    pub fn on_pieces(self) -> bool {
        matches!(
            self,
            Mistake::NormalReversed | Mistake::ShallowIgnored | Mistake::InternalEdge
        )
    }

    /// The name files and commands use: `normal-reversed`, `naive-smallest-overlap`, ...
    pub fn name(self) -> &'static str {
        match self {
            Mistake::NormalReversed => "normal-reversed",
            Mistake::NaiveSmallestOverlap => "naive-smallest-overlap",
            Mistake::EdgeNormalsOnly => "edge-normals-only",
            Mistake::ShallowIgnored => "shallow-ignored",
            Mistake::InternalEdge => "internal-edge",
        }
    }

    /// The mistake called `name`.
    pub fn from_name(name: &str) -> Option<Mistake> {
        Mistake::ALL.into_iter().find(|m| m.name() == name)
    }

    /// What the mistaken code does, in one line.
    pub fn explanation(self) -> &'static str {
        match self {
            Mistake::NormalReversed => {
                "The normal points from B toward A: the pair's order or the sign convention is swapped, so the push goes the wrong way."
            }
            Mistake::NaiveSmallestOverlap => {
                "The smallest interval overlap wins and its axis is used with the sign it comes with, never turned to point from A toward B: an edge normal of a clockwise A points into A, and one of a counter-clockwise B points out of B toward A, so the push can drive B deeper in; an overlap under 1e-4 on any axis counts as apart."
            }
            Mistake::EdgeNormalsOnly => {
                "Only edge normals are tried, never the axis from a corner or segment end toward a rounded shape: near a corner it reports contacts that are not there, or too deep."
            }
            Mistake::ShallowIgnored => {
                "A penetration shallower than 1e-4 is treated as no contact, so resting and grazing contacts are missed."
            }
            Mistake::InternalEdge => {
                "Each piece of the floor is collided on its own as a two-sided segment, with no ghost points and no one-sided rule: at a flat seam the next piece's end pushes a sliding shape back along the surface (a ghost collision), and from behind it pushes out a shape the chain lets through."
            }
        }
    }

    /// What fixes it, in one line.
    pub fn fix(self) -> &'static str {
        match self {
            Mistake::NormalReversed => {
                "Keep one convention everywhere contacts are made and used: the normal from A toward B, B moved by +depth * normal and A by -depth * normal."
            }
            Mistake::NaiveSmallestOverlap => {
                "Point each axis from A's centre toward B's before comparing overlaps (so the MTV pushes B away from A), and compare overlaps without a threshold."
            }
            Mistake::EdgeNormalsOnly => {
                "Add the axis from the polygon's nearest corner (or the segment's nearest end) toward the circle's or capsule's centre."
            }
            Mistake::ShallowIgnored => {
                "Report every positive depth; let the solver allow a little penetration (a slop) instead of dropping shallow contacts."
            }
            Mistake::InternalEdge => {
                "Make the floor one chain with ghost points (Box2D v3's b2CreateChain), merge the tiles into one collider per run of floor, or turn on the engine's internal-edge fix (parry's PolylineFlags::ORIENTED, TriMeshFlags::FIX_INTERNAL_EDGES)."
            }
        }
    }
}

impl std::fmt::Display for Mistake {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The minimum translation vector: moving B by `depth * normal` (or A by `-depth * normal`)
/// separates the shapes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Mtv {
    /// Index of the axis it comes from.
    pub axis: usize,
    /// Unit vector from A toward B.
    pub normal: DVec2,
    /// Penetration depth (> 0).
    pub depth: f64,
}

impl Mtv {
    /// `depth * normal`: the translation of B.
    pub fn translation(&self) -> DVec2 {
        self.normal * self.depth
    }
}

/// How close two axes' directions (the sine between them) and overlaps must be for one to
/// repeat the other: rounding, not geometry (a box's opposite edges after a turn).
const REPEAT_TOLERANCE: f64 = 1e-12;

/// The whole separating-axis test of a pair.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SatReport {
    /// A's kind.
    pub kind_a: ShapeKind,
    /// B's kind.
    pub kind_b: ShapeKind,
    /// Every candidate axis, in the order a SAT loop tries them.
    pub axes: Vec<AxisTest>,
    /// How it ended.
    pub verdict: Verdict,
    /// The MTV when intersecting.
    pub mtv: Option<Mtv>,
    /// `None` for the correct test; otherwise the known mistake this report reproduces (its
    /// axes, its overlaps and its choice, as that mistaken code computes them).
    pub mistake: Option<Mistake>,
    /// The pair's rounding scale: 1e-12 (1 + M), M the largest magnitude of any shadow's end
    /// (about the pair's largest world coordinate). An overlap, gap, depth or distance within
    /// it is rounding, not geometry: words and pictures call it touching, or 0
    /// ([`SatReport::shown`]); the test itself compares exactly.
    pub rounding: f64,
}

/// An overlap, gap or distance this many times (1 + the pair's largest coordinate) or less is
/// rounding (f64 keeps about 16 digits; a projection costs a few of them).
pub const ROUNDING: f64 = 1e-12;

impl SatReport {
    /// `x` as words and pictures show it: 0 when it is within the pair's [`rounding`]
    /// (`overlap 2.8e-17` is two shapes that touch).
    ///
    /// [`rounding`]: SatReport::rounding
    pub fn shown(&self, x: f64) -> f64 {
        if x.abs() <= self.rounding { 0.0 } else { x }
    }

    /// Whether the interiors overlap.
    pub fn intersecting(&self) -> bool {
        self.mtv.is_some()
    }

    /// The axis that decided: the early-out axis when apart or touching, the MTV's axis when
    /// intersecting.
    pub fn deciding_axis(&self) -> usize {
        match self.verdict {
            Verdict::Separated { first, .. } => first,
            Verdict::Touching { axis }
            | Verdict::Shallow { axis, .. }
            | Verdict::Intersecting { axis, .. } => axis,
        }
    }

    /// The earlier axis that axis `k` repeats, if any: parallel to it (either way round) and
    /// so giving the same shadows, mirrored, and the same overlap or gap. A polygon's
    /// opposite edges do this: a box has four edge normals and two axes.
    pub fn repeats(&self, k: usize) -> Option<usize> {
        let t = &self.axes[k];
        self.axes[..k].iter().position(|u| {
            let cross = u.axis.perp_dot(t.axis).abs();
            let same =
                |x: f64, y: f64| (x - y).abs() <= REPEAT_TOLERANCE * (1.0 + x.abs().max(y.abs()));
            cross <= REPEAT_TOLERANCE && same(u.overlap, t.overlap)
        })
    }

    /// What axis `k` did in the test: decided it, separates, or overlaps. The one rule the
    /// window's colours, the tables and the sentences follow.
    pub fn role(&self, k: usize) -> AxisRole {
        if k == self.deciding_axis() {
            AxisRole::Deciding
        } else if self.axes[k].separating {
            AxisRole::Separating
        } else {
            AxisRole::Overlapping
        }
    }
}

/// Which part of the chain rule decided a piece's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChainRule {
    /// The shape does not overlap the piece's segment.
    Apart,
    /// The shape's centre is behind the piece: it passes through (one-sided).
    Behind,
    /// The least push is over a convex corner: the neighbour piece reports it.
    Skip,
    /// The two-sided result is admissible and is used.
    Admit,
    /// The two-sided normal pointed past a flat or concave end: the least admissible push
    /// replaces it.
    Snap,
}

impl ChainRule {
    /// The rule's word, as files and messages spell it.
    pub fn name(self) -> &'static str {
        match self {
            ChainRule::Apart => "apart",
            ChainRule::Behind => "behind",
            ChainRule::Skip => "skip",
            ChainRule::Admit => "admit",
            ChainRule::Snap => "snap",
        }
    }

    /// Every rule, in the order the rule tries them.
    pub const ALL: [ChainRule; 5] = [
        ChainRule::Apart,
        ChainRule::Behind,
        ChainRule::Skip,
        ChainRule::Admit,
        ChainRule::Snap,
    ];

    /// The rule named `name`.
    pub fn from_name(name: &str) -> Option<ChainRule> {
        Self::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// A piece taken alone as a two-sided segment: what resolving pieces one by one would use.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TwoSided {
    /// Whether the shape overlaps the segment.
    pub intersecting: bool,
    /// The segment's penetration depth (0 when not intersecting).
    pub depth: f64,
    /// From A toward B, as every normal; `None` when not intersecting.
    pub normal: Option<DVec2>,
}
