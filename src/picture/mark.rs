//! The drawing primitives: colours, strokes and the marks a picture is made of (the screen
//! rectangle lives with the camera). Screen coordinates are f32 points, y down, as every
//! painter has them; the window turns a mark into an egui shape and `svg` into an element,
//! each in one function.

pub use glam::Vec2;

pub use super::camera::Rect;

use super::camera::Camera;
use crate::geometry::{DVec2, Pose, Rounded, Shape};
use std::sync::Arc;

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
    /// A shape's outline (`per_turn` chords per turn of its arcs), filled and outlined, seen
    /// through `camera` in `rect`. The same shape at any pose is the same picture turned and
    /// moved, so a painter may keep its triangles by [`Mark::shape_key`] and only move them
    /// ([`Mark::shape_in_own_frame`], [`Mark::shape_placement`]); [`Mark::shape_outline`]
    /// gives its corners on the screen.
    Shape {
        /// The shape in its own frame, shared: the marks of every frame that shows it unchanged
        /// hold the same one (a polygon is large, and a frame of a crowd draws a thousand).
        shape: Arc<Shape>,
        /// Where it is.
        pose: Pose,
        /// Chords per full turn of an arc.
        per_turn: usize,
        /// How the world is seen.
        camera: Camera,
        /// The view.
        rect: Rect,
        /// The inside.
        fill: Colour,
        /// The outline.
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

/// Shapes up to this radius on screen (points) may be drawn from their own frame and moved
/// (see [`Mark::shape_key`]); larger ones where they are.
pub const MOVED_PICTURE_MAX: f64 = 4096.0;

impl Mark {
    /// A [`Mark::Shape`]'s corners on the screen (empty for other marks).
    pub fn shape_outline(&self) -> Vec<Vec2> {
        match self {
            Mark::Shape {
                shape,
                pose,
                per_turn,
                camera,
                rect,
                ..
            } => Rounded::at(shape, *pose, DVec2::ZERO)
                .outline_with(*per_turn)
                .into_iter()
                .map(|p| camera.to_screen(*rect, p))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// What a [`Mark::Shape`]'s picture in its own frame depends on, hashed: the shape, its
    /// chords, the zoom, the colours. Marks with equal keys have equal pictures in their own
    /// frames (up to a hash collision: compare [`Mark::same_shape_picture`] to be sure).
    /// `None` for other marks, and for a shape larger than [`MOVED_PICTURE_MAX`] on screen:
    /// its own frame's coordinates would leave f32's, so it is drawn where it is
    /// ([`Mark::shape_outline`], clamped to the screen's reach).
    pub fn shape_key(&self) -> Option<u64> {
        let Mark::Shape {
            shape,
            per_turn,
            camera,
            fill,
            stroke,
            ..
        } = self
        else {
            return None;
        };
        if shape.bounding_radius() * camera.scale > MOVED_PICTURE_MAX {
            return None;
        }
        // FxHash's mixing: a few multiplications, where SipHash would cost more than the
        // drawing saved for a small shape.
        let mut h = 0u64;
        let mut mix = |x: u64| h = (h.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        match &**shape {
            Shape::Circle(c) => mix(c.radius().to_bits()),
            Shape::Capsule(c) => {
                for x in [c.a().x, c.a().y, c.b().x, c.b().y, c.radius()] {
                    mix(x.to_bits());
                }
            }
            Shape::Segment(s) => {
                for x in [s.a().x, s.a().y, s.b().x, s.b().y] {
                    mix(x.to_bits());
                }
            }
            Shape::Polygon(p) => {
                for q in p.points() {
                    mix(q.x.to_bits());
                    mix(q.y.to_bits());
                }
            }
            Shape::Chain(c) => {
                mix(u64::from(c.is_loop()));
                for q in c.points() {
                    mix(q.x.to_bits());
                    mix(q.y.to_bits());
                }
            }
        }
        mix(*per_turn as u64);
        mix(camera.scale.to_bits());
        mix(u64::from(camera.y_down));
        mix(u64::from(u32::from_le_bytes([
            fill.r, fill.g, fill.b, fill.a,
        ])));
        let c = stroke.colour;
        mix(u64::from(u32::from_le_bytes([c.r, c.g, c.b, c.a])));
        mix(u64::from(stroke.width.to_bits()));
        Some(h)
    }

    /// Whether two [`Mark::Shape`]s have the same picture in their own frames (what
    /// [`Mark::shape_key`] hashes, compared).
    pub fn same_shape_picture(&self, other: &Mark) -> bool {
        match (self, other) {
            (
                Mark::Shape {
                    shape: a,
                    per_turn: ka,
                    camera: ca,
                    fill: fa,
                    stroke: sa,
                    ..
                },
                Mark::Shape {
                    shape: b,
                    per_turn: kb,
                    camera: cb,
                    fill: fb,
                    stroke: sb,
                    ..
                },
            ) => {
                (Arc::ptr_eq(a, b) || a == b)
                    && ka == kb
                    && ca.scale == cb.scale
                    && ca.y_down == cb.y_down
                    && fa == fb
                    && sa == sb
            }
            _ => false,
        }
    }

    /// A [`Mark::Shape`]'s outline in the shape's own frame at the screen's scale (points, y
    /// down, about where its pose's position lands): the picture [`Mark::shape_placement`]
    /// turns and moves. Empty for other marks.
    pub fn shape_in_own_frame(&self) -> Vec<Vec2> {
        match self {
            Mark::Shape {
                shape,
                per_turn,
                camera,
                ..
            } => Rounded::at(shape, Pose::IDENTITY, DVec2::ZERO)
                .outline_with(*per_turn)
                .into_iter()
                .map(|p| {
                    let down = p.y * camera.y_screen();
                    Vec2::new((p.x * camera.scale) as f32, (down * camera.scale) as f32)
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Where a [`Mark::Shape`]'s own-frame picture goes on the screen: `(at, turn)`, a point
    /// `q` of it lands at `at + turn.rotate(q)` (the pose's turn, seen with y down).
    pub fn shape_placement(&self) -> Option<(Vec2, Vec2)> {
        match self {
            Mark::Shape {
                pose, camera, rect, ..
            } => {
                let r = pose.rotation();
                let at = camera.to_screen(*rect, pose.position);
                Some((at, Vec2::new(r.x as f32, (r.y * camera.y_screen()) as f32)))
            }
            _ => None,
        }
    }
}
