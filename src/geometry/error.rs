use glam::DVec2;
use thiserror::Error;

/// `[x, y]` as files write a point.
fn show(p: &DVec2) -> String {
    format!("[{}, {}]", p.x, p.y)
}

/// The minimum number of points a chain needs, in words.
fn chain_needs(looped: &bool) -> &'static str {
    if *looped {
        "a loop needs at least 3 points"
    } else {
        "an open chain needs at least 4 points (its first and last points are ghost points only)"
    }
}

/// Why a shape is not valid. The message names the field or point; the caller adds the file
/// and which shape (see `scene`).
#[derive(Clone, Debug, PartialEq, Error)]
pub enum ShapeError {
    /// A number is NaN or infinite.
    #[error("{field} must be a finite number, found {found}")]
    NonFinite {
        /// The field ("radius", "position", "point 2", ...).
        field: String,
        /// The offending value as text.
        found: String,
    },
    /// A circle's or capsule's radius is zero or negative.
    #[error("radius must be > 0, found {found}")]
    RadiusNotPositive {
        /// The value given.
        found: f64,
    },
    /// A rounded polygon's radius is negative (0 is a plain polygon).
    #[error("a polygon's radius must be >= 0 (0 is a plain polygon), found {found}")]
    RadiusNegative {
        /// The value given.
        found: f64,
    },
    /// A polygon has fewer than three points.
    #[error("a polygon needs at least 3 points, found {found}")]
    TooFewPoints {
        /// How many were given.
        found: usize,
    },
    /// Two points of a polygon coincide.
    #[error("point {second} repeats point {first}")]
    RepeatedPoint {
        /// The earlier index.
        first: usize,
        /// The later index.
        second: usize,
    },
    /// All points lie on one line.
    #[error("zero area (all points are collinear)")]
    ZeroArea,
    /// The outline turns the other way at a point.
    #[error("not convex at point {point} (turns the other way)")]
    NotConvex {
        /// The vertex index (file order).
        point: usize,
    },
    /// The outline reverses direction along a straight line at a point.
    #[error("not convex at point {point} (folds back on itself)")]
    FoldsBack {
        /// The vertex index (file order).
        point: usize,
    },
    /// Two edges that share no corner cross or touch.
    #[error("self-intersecting (edge {edge_a} crosses edge {edge_b})")]
    SelfIntersecting {
        /// The first edge (joining points `edge_a` and `edge_a + 1`).
        edge_a: usize,
        /// The second edge.
        edge_b: usize,
    },
    /// Every corner turns the same way but the outline goes around more than once (a star
    /// drawn without lifting the pen), so its edges cross. Said of polygons too large for the
    /// search that names the two edges (see [`crate::geometry::EXHAUSTIVE_CHECK_POINTS`]).
    #[error("self-intersecting (the outline goes around {turns} times, so its edges cross)")]
    GoesAround {
        /// How many whole turns the outline makes.
        turns: u64,
    },
    /// A concave polygon too large to split into convex pieces (see [`crate::geometry::MOST_POINTS_SPLIT`]).
    #[error(
        "a concave polygon of {found} points: polygons of more than {most} points are not split into convex pieces (the split takes time growing with the cube of the points)"
    )]
    TooManyToSplit {
        /// How many points it has.
        found: usize,
        /// The most that are split.
        most: usize,
    },
    /// A segment's two ends coincide.
    #[error(
        "a and b are the same point {}: a segment needs two distinct ends",
        show(point)
    )]
    SameEnds {
        /// The point both ends are.
        point: DVec2,
    },
    /// A chain has too few points for its first piece.
    #[error("{}, found {found}", chain_needs(looped))]
    ChainTooShort {
        /// Whether the chain is a loop.
        looped: bool,
        /// How many points it has.
        found: usize,
    },
    /// Two consecutive points of a chain coincide.
    #[error(
        "points {first} and {second} are the same point {}: consecutive points must differ (a piece cannot have zero length)",
        show(point)
    )]
    SameConsecutive {
        /// The earlier point's index.
        first: usize,
        /// The next point's index (0 for the link that closes a loop).
        second: usize,
        /// The point both are.
        point: DVec2,
    },
}

impl ShapeError {
    /// The file key the problem is about (`radius`, `points`, `a`), where the message leaves
    /// it unquoted; `None` when the message quotes its own field.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            ShapeError::NonFinite { .. } => None,
            ShapeError::RadiusNotPositive { .. } | ShapeError::RadiusNegative { .. } => {
                Some("radius")
            }
            ShapeError::SameEnds { .. } => Some("b"),
            ShapeError::TooFewPoints { .. }
            | ShapeError::RepeatedPoint { .. }
            | ShapeError::ZeroArea
            | ShapeError::NotConvex { .. }
            | ShapeError::FoldsBack { .. }
            | ShapeError::SelfIntersecting { .. }
            | ShapeError::GoesAround { .. }
            | ShapeError::TooManyToSplit { .. }
            | ShapeError::ChainTooShort { .. }
            | ShapeError::SameConsecutive { .. } => Some("points"),
        }
    }
}
