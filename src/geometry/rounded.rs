//! The world-space view every query works on: a convex core grown by a radius.
//!
//! Following Box2D, circles, capsules and polygons are one idea. The core is a convex polygon
//! of 1 point (circle), 2 points (capsule) or n points (polygon, radius 0); the shape is every
//! point within `radius` of the core. A 2-point core is a polygon with two edges, `a -> b` and
//! `b -> a`, whose outward normals are opposite, so clipping and support work without special
//! cases.

use super::{DVec2, Interval, Placed, Shape, ShapeKind, Winding, right_perp};
use serde::Serialize;
use smallvec::SmallVec;

/// A feature of a shape's core, indexed in the order the shape was given (file order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Feature {
    /// A corner: polygon point `i`, capsule end `0` (a) or `1` (b), or the circle's centre (0).
    Vertex(usize),
    /// The edge from point `i` to point `i + 1` (for a capsule, its segment, 0).
    Edge(usize),
}

/// Number of chords a full turn of a rounded outline is drawn with (see [`Rounded::outline`]).
pub const ARC_SEGMENTS_PER_TURN: usize = 64;

/// A shape in world coordinates, as the queries see it.
#[derive(Clone, Debug, PartialEq)]
pub struct Rounded {
    /// The core's corners, counter-clockwise.
    pub points: SmallVec<[DVec2; 8]>,
    /// `normals[i]` is the outward unit normal of the edge `points[i] -> points[i + 1]`; empty
    /// for a 1-point core; two opposite normals for a 2-point core.
    pub normals: SmallVec<[DVec2; 8]>,
    /// Every point within `radius` of the core belongs to the shape (0 for polygons).
    pub radius: f64,
    /// The shape's centre (circle centre, segment midpoint, polygon centroid).
    pub centre: DVec2,
    /// The kind it came from.
    pub kind: ShapeKind,
    /// Whether the given order is the reverse of `points` (a clockwise polygon).
    reversed: bool,
}

impl Rounded {
    /// The world-space view of `placed`, with `origin` subtracted from every coordinate.
    /// Queries pass shape A's position as `origin` so that far from the world origin the
    /// arithmetic keeps its precision; they add it back to the points they return.
    pub fn new(placed: &Placed, origin: DVec2) -> Self {
        let pose = placed.pose;
        let rotation = pose.rotation();
        let offset = pose.position - origin;
        let place = |p: DVec2| rotation.rotate(p) + offset;
        let centre = place(placed.shape.local_centre());
        match &placed.shape {
            Shape::Circle(c) => Self::point_core(place(DVec2::ZERO), c.radius, ShapeKind::Circle),
            Shape::Capsule(c) => {
                let (a, b) = (place(c.a), place(c.b));
                let along = b - a;
                // An end-to-end length below rounding noise has no direction: a circle.
                if along.length() <= f64::EPSILON * (a.abs().max_element() + 1.0) {
                    return Self {
                        centre,
                        ..Self::point_core(a, c.radius, ShapeKind::Capsule)
                    };
                }
                let n = right_perp(along).normalize();
                Self {
                    points: SmallVec::from_slice(&[a, b]),
                    normals: SmallVec::from_slice(&[n, -n]),
                    radius: c.radius,
                    centre,
                    kind: ShapeKind::Capsule,
                    reversed: false,
                }
            }
            Shape::Polygon(p) => Self {
                points: p.points().iter().map(|q| place(*q)).collect(),
                normals: p.normals().iter().map(|n| rotation.rotate(*n)).collect(),
                radius: 0.0,
                centre,
                kind: ShapeKind::Polygon,
                reversed: p.winding() == Winding::Clockwise,
            },
        }
    }

    fn point_core(p: DVec2, radius: f64, kind: ShapeKind) -> Self {
        Self {
            points: SmallVec::from_slice(&[p]),
            normals: SmallVec::new(),
            radius,
            centre: p,
            kind,
            reversed: false,
        }
    }

    /// Whether the core is a single point (a circle, or a capsule with `a == b`).
    pub fn is_point(&self) -> bool {
        self.points.len() == 1
    }

    /// Whether the core has area (a polygon).
    pub fn is_polygon(&self) -> bool {
        self.points.len() >= 3
    }

    /// The shape's projection onto the unit axis `u`, radius included.
    pub fn project(&self, u: DVec2) -> Interval {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in &self.points {
            let d = p.dot(u);
            lo = lo.min(d);
            hi = hi.max(d);
        }
        Interval::new(lo - self.radius, hi + self.radius)
    }

    /// The core corner farthest along `d`: `(index, point)`. Ties go to the lower index.
    pub fn support(&self, d: DVec2) -> (usize, DVec2) {
        let mut best = (0, self.points[0]);
        let mut best_dot = self.points[0].dot(d);
        for (i, p) in self.points.iter().enumerate().skip(1) {
            let dot = p.dot(d);
            if dot > best_dot {
                best = (i, *p);
                best_dot = dot;
            }
        }
        best
    }

    /// The smallest projection of the core onto `d` (no radius).
    pub fn core_min(&self, d: DVec2) -> f64 {
        self.points
            .iter()
            .fold(f64::INFINITY, |lo, p| lo.min(p.dot(d)))
    }

    /// Edge `i` of the core as `(start, end)`, counter-clockwise.
    pub fn edge(&self, i: usize) -> (DVec2, DVec2) {
        (self.points[i], self.points[(i + 1) % self.points.len()])
    }

    /// How many distinct segments make up the core's boundary for distance computations: one
    /// degenerate segment for a point, the segment for a capsule, every edge for a polygon.
    pub fn segment_count(&self) -> usize {
        match self.points.len() {
            1 | 2 => 1,
            n => n,
        }
    }

    /// Boundary segment `k` (see [`Rounded::segment_count`]).
    pub fn segment(&self, k: usize) -> (DVec2, DVec2) {
        match self.points.len() {
            1 => (self.points[0], self.points[0]),
            _ => self.edge(k),
        }
    }

    /// Whether `p` lies inside or on the core polygon (always false for points and segments,
    /// which have no inside).
    pub fn core_contains(&self, p: DVec2) -> bool {
        self.is_polygon()
            && self
                .normals
                .iter()
                .zip(&self.points)
                .all(|(n, q)| n.dot(p - *q) <= 0.0)
    }

    /// The given-order index of core corner `i`.
    pub fn file_vertex(&self, i: usize) -> usize {
        if self.reversed {
            self.points.len() - 1 - i
        } else {
            i
        }
    }

    /// Edge `k` of the given order as `(internal edge index, its normal as the given winding
    /// makes it)`: the right-hand normal of the given edge direction, which points outward for
    /// a counter-clockwise polygon and inward for a clockwise one. Polygons only.
    pub fn given_edge(&self, k: usize) -> (usize, DVec2) {
        if self.reversed {
            // file_edge is its own inverse for a reversed polygon.
            let i = self.file_edge(k);
            (i, -self.normals[i])
        } else {
            (k, self.normals[k])
        }
    }

    /// The given-order index of core edge `i` (see [`ConvexPolygon::file_edge`]). A capsule's
    /// two sides are both its segment, edge 0.
    ///
    /// [`ConvexPolygon::file_edge`]: super::ConvexPolygon::file_edge
    pub fn file_edge(&self, i: usize) -> usize {
        let n = self.points.len();
        if n == 2 {
            0
        } else if self.reversed {
            (2 * n - 2 - i) % n
        } else {
            i
        }
    }

    /// The feature of segment `k` at parameter `t` (0 at its start, 1 at its end), in file
    /// order: a corner at either end, else the edge.
    pub fn feature_at(&self, k: usize, t: f64) -> Feature {
        let n = self.points.len();
        if n == 1 || t <= 0.0 {
            Feature::Vertex(self.file_vertex(k))
        } else if t >= 1.0 {
            Feature::Vertex(self.file_vertex((k + 1) % n))
        } else {
            Feature::Edge(self.file_edge(k))
        }
    }

    /// The outline as a closed polygon, counter-clockwise: the core's corners, each rounded by
    /// an arc of `radius` drawn with chords ([`ARC_SEGMENTS_PER_TURN`] per full turn). The
    /// chords lie inside the true outline, off by at most [`Rounded::outline_tolerance`].
    pub fn outline(&self) -> Vec<DVec2> {
        if self.radius == 0.0 {
            return self.points.to_vec();
        }
        let step = std::f64::consts::TAU / ARC_SEGMENTS_PER_TURN as f64;
        if self.is_point() {
            let c = self.points[0];
            return (0..ARC_SEGMENTS_PER_TURN)
                .map(|i| c + DVec2::from_angle(step * i as f64) * self.radius)
                .collect();
        }
        let n = self.points.len();
        let mut outline = Vec::with_capacity(n + ARC_SEGMENTS_PER_TURN + n);
        for i in 0..n {
            let from = self.normals[(i + n - 1) % n];
            let to = self.normals[i];
            let turn = from.angle_to(to).rem_euclid(std::f64::consts::TAU);
            let chords = ((turn / step).ceil() as usize).max(1);
            for k in 0..=chords {
                let dir = DVec2::from_angle(turn * k as f64 / chords as f64).rotate(from);
                let p = self.points[i] + dir * self.radius;
                // A straight corner (a point on an edge) has no arc: keep the outline simple.
                if outline.last() != Some(&p) {
                    outline.push(p);
                }
            }
        }
        outline
    }

    /// The largest distance between [`Rounded::outline`] and the true outline.
    pub fn outline_tolerance(&self) -> f64 {
        let half_step = std::f64::consts::PI / ARC_SEGMENTS_PER_TURN as f64;
        self.radius * (1.0 - half_step.cos())
    }
}
