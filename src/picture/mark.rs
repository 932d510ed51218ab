//! The drawing primitives: colours, strokes, screen rectangles and the marks a picture is made
//! of. Screen coordinates are f32 points, y down, as every painter has them; the window turns
//! a mark into an egui shape and `svg` into an element, each in one function.

pub use glam::Vec2;

/// A colour, not premultiplied: `a` is the opacity (0 transparent, 255 opaque).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Colour {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Opacity.
    pub a: u8,
}

impl Colour {
    /// Nothing at all.
    pub const TRANSPARENT: Colour = Colour::rgba(0, 0, 0, 0);
    /// Opaque white.
    pub const WHITE: Colour = Colour::rgb(255, 255, 255);
    /// Opaque black.
    pub const BLACK: Colour = Colour::rgb(0, 0, 0);

    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Self { r, g, b, a: 255 }
    }

    /// A colour with opacity `a`.
    pub const fn rgba(r: u8, g: u8, b: u8, a: u8) -> Self {
        Self { r, g, b, a }
    }

    /// An opaque grey of lightness `l`.
    pub const fn gray(l: u8) -> Self {
        Self::rgb(l, l, l)
    }

    /// Whether it paints nothing.
    pub fn is_transparent(self) -> bool {
        self.a == 0
    }
}

/// How a line is drawn: its width (points) and colour. Centred on the line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    /// Width in points.
    pub width: f32,
    /// Colour.
    pub colour: Colour,
}

impl Stroke {
    /// No line.
    pub const NONE: Stroke = Stroke {
        width: 0.0,
        colour: Colour::TRANSPARENT,
    };

    /// A line `width` points wide.
    pub const fn new(width: f32, colour: Colour) -> Self {
        Self { width, colour }
    }

    /// Whether it draws nothing.
    pub fn is_none(self) -> bool {
        self.width <= 0.0 || self.colour.is_transparent()
    }
}

/// An axis-aligned screen rectangle; `min` is the top-left corner (y down). Edges count as
/// inside.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// The top-left corner.
    pub min: Vec2,
    /// The bottom-right corner.
    pub max: Vec2,
}

impl Rect {
    /// The rectangle that contains nothing (and that nothing intersects).
    pub const NOTHING: Rect = Rect {
        min: Vec2::splat(f32::INFINITY),
        max: Vec2::splat(f32::NEG_INFINITY),
    };

    /// From its corners.
    pub const fn from_min_max(min: Vec2, max: Vec2) -> Self {
        Self { min, max }
    }

    /// From its top-left corner and size.
    pub fn from_min_size(min: Vec2, size: Vec2) -> Self {
        Self::from_min_max(min, min + size)
    }

    /// The rectangle with opposite corners `a` and `b`, in any order.
    pub fn from_two_points(a: Vec2, b: Vec2) -> Self {
        Self::from_min_max(a.min(b), a.max(b))
    }

    /// The rectangle of `size` centred on `centre`.
    pub fn from_centre_size(centre: Vec2, size: Vec2) -> Self {
        Self::from_min_max(centre - size * 0.5, centre + size * 0.5)
    }

    /// Its centre.
    pub fn centre(&self) -> Vec2 {
        (self.min + self.max) / 2.0
    }

    /// Its size.
    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }

    /// Its width.
    pub fn width(&self) -> f32 {
        self.max.x - self.min.x
    }

    /// Its height.
    pub fn height(&self) -> f32 {
        self.max.y - self.min.y
    }

    /// Whether `p` is inside or on an edge.
    pub fn contains(&self, p: Vec2) -> bool {
        self.min.x <= p.x && p.x <= self.max.x && self.min.y <= p.y && p.y <= self.max.y
    }

    /// Whether the two share a point (touching counts).
    pub fn intersects(&self, other: Rect) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
    }

    /// Grown by `amount` on every side.
    pub fn expand(self, amount: f32) -> Self {
        Self::from_min_max(
            self.min - Vec2::splat(amount),
            self.max + Vec2::splat(amount),
        )
    }

    /// Shrunk by `amount` on every side.
    pub fn shrink(self, amount: f32) -> Self {
        self.expand(-amount)
    }

    /// The bottom-left corner.
    pub fn left_bottom(&self) -> Vec2 {
        Vec2::new(self.min.x, self.max.y)
    }

    /// The top-right corner.
    pub fn right_top(&self) -> Vec2 {
        Vec2::new(self.max.x, self.min.y)
    }
}

/// One thing painted. Every point is on the screen (f32 points, y down).
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// A convex polygon, filled and outlined.
    Polygon {
        /// Its corners in order.
        points: Vec<Vec2>,
        /// The inside.
        fill: Colour,
        /// The outline.
        stroke: Stroke,
    },
    /// A straight segment.
    Segment {
        /// Its ends.
        points: [Vec2; 2],
        /// How it is drawn.
        stroke: Stroke,
    },
    /// A line through points, back to the first when `closed`; never filled.
    Line {
        /// The points in order.
        points: Vec<Vec2>,
        /// Whether the last point joins the first.
        closed: bool,
        /// How it is drawn.
        stroke: Stroke,
    },
    /// A line through points in dashes, starting with a dash.
    Dashed {
        /// The points in order.
        points: Vec<Vec2>,
        /// How a dash is drawn.
        stroke: Stroke,
        /// A dash's length (points).
        dash: f32,
        /// The gap between dashes (points).
        gap: f32,
    },
    /// A circle, filled and outlined.
    Circle {
        /// Its centre.
        centre: Vec2,
        /// Its radius (points).
        radius: f32,
        /// The inside.
        fill: Colour,
        /// The outline, centred on the rim.
        stroke: Stroke,
    },
    /// An axis-aligned rectangle, filled and outlined, its corners rounded by `corner`.
    Rect {
        /// Where it is.
        rect: Rect,
        /// The corners' radius (points).
        corner: f32,
        /// The inside.
        fill: Colour,
        /// The outline, centred on the edges.
        stroke: Stroke,
    },
}
