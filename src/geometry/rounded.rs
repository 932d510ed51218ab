//! The world-space view every query works on: a convex core grown by a radius.
//!
//! Following Box2D, circles, capsules and polygons are one idea. The core is a convex polygon
//! of 1 point (circle), 2 points (capsule) or n points (polygon, radius 0); the shape is every
//! point within `radius` of the core. A 2-point core is a polygon with two edges, `a -> b` and
//! `b -> a`, whose outward normals are opposite, so clipping and support work without special
//! cases.

use super::Corners;
use super::{DVec2, Interval, Placed, Pose, Shape, ShapeKind, Winding, right_perp};
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

/// The projection onto `u` of the disc of `radius` around `p`.
#[inline]
pub fn project_point(p: DVec2, radius: f64, u: DVec2) -> Interval {
    let d = p.dot(u);
    Interval::new(d - radius, d + radius)
}

/// Number of chords a full turn of a rounded outline is drawn with (see [`Rounded::outline`]).
pub const ARC_SEGMENTS_PER_TURN: usize = 64;

/// A shape in world coordinates, as the queries see it.
#[derive(Clone, Debug, PartialEq)]
pub struct Rounded<'a> {
    /// The core's corners, counter-clockwise.
    pub points: Corners,
    /// `normals[i]` is the outward unit normal of the edge `points[i] -> points[i + 1]`; empty
    /// for a 1-point core; two opposite normals for a 2-point core.
    pub normals: Corners,
    /// Every point within `radius` of the core belongs to the shape (0 for segments, chains and
    /// plain polygons).
    pub radius: f64,
    /// The shape's centre (circle centre, segment midpoint, polygon centroid).
    pub centre: DVec2,
    /// The kind it came from.
    pub kind: ShapeKind,
    /// A polygon's core projected onto its own normals, local frame (empty otherwise).
    extents: &'a [Interval],
    /// Where the local origin landed (the pose's position less the query's origin).
    offset: DVec2,
    /// Whether the given order is the reverse of `points` (a clockwise polygon).
    reversed: bool,
}

impl<'a> Rounded<'a> {
    /// The world-space view of `placed`, with `origin` subtracted from every coordinate.
    /// Queries pass shape A's position as `origin` so that far from the world origin the
    /// arithmetic keeps its precision; they add it back to the points they return.
    #[inline]
    pub fn new(placed: &'a Placed, origin: DVec2) -> Self {
        Self::at(&placed.shape, placed.pose, origin)
    }

    /// [`Rounded::new`] of `shape` placed at `pose`, without a [`Placed`] (a query that moves
    /// a shape changes only its pose, and copying a polygon to move it costs more than the
    /// view).
    #[inline]
    pub fn at(shape: &'a Shape, pose: Pose, origin: DVec2) -> Self {
        let rotation = pose.rotation();
        let offset = pose.position - origin;
        let place = |p: DVec2| rotation.rotate(p) + offset;
        match shape {
            Shape::Circle(c) => {
                Self::point_core(offset, offset, c.radius(), ShapeKind::Circle, offset)
            }
            Shape::Capsule(c) => {
                let centre = place((c.a() + c.b()) * 0.5);
                let ends = (place(c.a()), place(c.b()));
                Self::two_point(ends, c.radius(), centre, ShapeKind::Capsule, offset)
            }
            Shape::Segment(s) => {
                let centre = place((s.a() + s.b()) * 0.5);
                let ends = (place(s.a()), place(s.b()));
                Self::two_point(ends, 0.0, centre, ShapeKind::Segment, offset)
            }
            Shape::Chain(c) => {
                // A chain is not convex: queries take it piece by piece (`query::chain`) and
                // never ask for its view. Should one, it sees the first piece, two-sided.
                let piece = c.pieces().next().map(|p| p.mapped(place));
                let (a, b) = piece.map_or((offset, offset), |p| (p.p1, p.p2));
                Self::two_point((a, b), 0.0, (a + b) * 0.5, ShapeKind::Chain, offset)
            }
            Shape::Polygon(p) => {
                let (local_points, local_normals) = (p.points(), p.normals());
                let n = local_points.len();
                let (points, normals) = if n <= 8 {
                    let mut points = [DVec2::ZERO; 8];
                    let mut normals = [DVec2::ZERO; 8];
                    for i in 0..n {
                        points[i] = place(local_points[i]);
                        normals[i] = rotation.rotate(local_normals[i]);
                    }
                    (
                        Corners::from_inline(SmallVec::from_buf_and_len(points, n)),
                        Corners::from_inline(SmallVec::from_buf_and_len(normals, n)),
                    )
                } else {
                    (
                        local_points.iter().map(|q| place(*q)).collect(),
                        local_normals.iter().map(|u| rotation.rotate(*u)).collect(),
                    )
                };
                Self {
                    points,
                    normals,
                    radius: p.radius(),
                    centre: place(p.centroid()),
                    kind: ShapeKind::Polygon,
                    extents: p.extents(),
                    offset,
                    reversed: p.winding() == Winding::Clockwise,
                }
            }
        }
    }

    /// A 2-point core (a capsule, or a segment with radius 0); ends closer than rounding noise
    /// have no direction and make a 1-point core.
    #[inline(always)]
    fn two_point(
        (a, b): (DVec2, DVec2),
        radius: f64,
        centre: DVec2,
        kind: ShapeKind,
        offset: DVec2,
    ) -> Self {
        let along = b - a;
        let length = along.length();
        if length <= f64::EPSILON * (a.abs().max_element() + 1.0) {
            return Self::point_core(a, centre, radius, kind, offset);
        }
        // What `normalize` computes, reusing the length: |right_perp(v)| = |v|.
        let n = right_perp(along) * (1.0 / length);
        Self {
            points: Corners::from_slice(&[a, b]),
            normals: Corners::from_slice(&[n, -n]),
            radius,
            centre,
            kind,
            extents: &[],
            offset,
            reversed: false,
        }
    }

    /// A view of no core at all (no corners): what stands where a view is made only
    /// sometimes, never asked a query.
    #[inline(always)]
    pub(crate) fn empty() -> Rounded<'static> {
        Rounded {
            points: Corners::new(),
            normals: Corners::new(),
            radius: 0.0,
            centre: DVec2::ZERO,
            kind: ShapeKind::Circle,
            extents: &[],
            offset: DVec2::ZERO,
            reversed: false,
        }
    }

    /// A 1-point core (built in place: a view is large, and every query makes two).
    #[inline(always)]
    fn point_core(p: DVec2, centre: DVec2, radius: f64, kind: ShapeKind, offset: DVec2) -> Self {
        Self {
            points: Corners::from_slice(&[p]),
            normals: Corners::new(),
            radius,
            centre,
            kind,
            extents: &[],
            offset,
            reversed: false,
        }
    }

    /// A polygon's projection onto its own edge normal `i` (internal order), radius included,
    /// read from the core's extents kept with the polygon instead of projecting every corner:
    /// the same interval as `project(normals[i])` up to rounding. Other kinds project their
    /// corners.
    #[inline(always)]
    pub fn own_extent(&self, i: usize) -> Interval {
        let u = self.normals[i];
        match self.extents.get(i) {
            Some(e) => {
                let shift = self.offset.dot(u);
                Interval::new(e.min + shift - self.radius, e.max + shift + self.radius)
            }
            None => self.project(u),
        }
    }

    /// How many corners the core has (1, 2 or the polygon's count).
    #[inline(always)]
    pub fn corner_count(&self) -> usize {
        self.points.len()
    }

    /// How many faces (edges with an outward normal) the core has: 0 for a point, 2 for a
    /// segment (one per side), n for a polygon.
    #[inline(always)]
    pub fn face_count(&self) -> usize {
        self.normals.len()
    }

    /// Core corner `i`, counter-clockwise.
    #[inline(always)]
    pub fn point(&self, i: usize) -> DVec2 {
        self.points[i]
    }

    /// The outward unit normal of core edge `i` (from corner `i` to corner `i + 1`).
    #[inline(always)]
    pub fn normal(&self, i: usize) -> DVec2 {
        self.normals[i]
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
    #[inline]
    pub fn project(&self, u: DVec2) -> Interval {
        if let [p] = self.points.as_slice() {
            return project_point(*p, self.radius, u);
        }
        // The hottest loop of every query. Plain comparisons, not f64::min/max (coordinates
        // are validated finite), and one plain loop: polygons are small, and a short loop
        // whose length changes from query to query costs more in control than in arithmetic.
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in self.points.iter() {
            let d = p.dot(u);
            lo = if d < lo { d } else { lo };
            hi = if d > hi { d } else { hi };
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

    /// Edge `i` of the core as `(start, end)`, counter-clockwise.
    pub fn edge(&self, i: usize) -> (DVec2, DVec2) {
        let next = if i + 1 == self.points.len() { 0 } else { i + 1 };
        (self.points[i], self.points[next])
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

    /// Edge `k` of the given order: its normal as the given winding makes it (the right-hand
    /// normal of the given edge direction: outward for a counter-clockwise polygon, inward for
    /// a clockwise one) and the shape's own projection onto that normal. Polygons only.
    #[inline(always)]
    pub fn given_edge_axis(&self, k: usize) -> (DVec2, Interval) {
        if self.reversed {
            let i = self.internal_edge(k);
            let e = self.own_extent(i);
            (-self.normals[i], Interval::new(-e.max, -e.min))
        } else {
            (self.normals[k], self.own_extent(k))
        }
    }

    /// The internal index of given-order edge `k` (polygons; the inverse of
    /// [`Rounded::file_edge`], which is its own inverse).
    #[inline(always)]
    pub fn internal_edge(&self, k: usize) -> usize {
        self.file_edge(k)
    }

    /// The given-order index of core edge `i` (see [`ConvexPolygon::file_edge`]). A capsule's
    /// two sides are both its segment, edge 0.
    ///
    /// [`ConvexPolygon::file_edge`]: super::ConvexPolygon::file_edge
    #[inline(always)]
    pub fn file_edge(&self, i: usize) -> usize {
        let n = self.points.len();
        if n == 2 {
            0
        } else if self.reversed {
            // (2n - 2 - i) mod n, without a division: it runs once per axis of every query.
            if i == n - 1 { n - 1 } else { n - 2 - i }
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
    /// an arc of `radius` drawn with chords (`ARC_SEGMENTS_PER_TURN` per full turn). The
    /// chords lie inside the true outline, off by at most [`Rounded::outline_tolerance`].
    pub fn outline(&self) -> Vec<DVec2> {
        self.outline_with(ARC_SEGMENTS_PER_TURN)
    }

    /// [`Rounded::outline`] with `per_turn` chords per full turn (at least 3): fewer where a
    /// coarser outline is as good, as for a shape a few pixels across on screen. The chords
    /// are off the true outline by at most `radius * (1 - cos(pi / per_turn))`.
    pub fn outline_with(&self, per_turn: usize) -> Vec<DVec2> {
        let per_turn = per_turn.max(3);
        if self.radius == 0.0 {
            return self.points.to_vec();
        }
        let step = std::f64::consts::TAU / per_turn as f64;
        if self.is_point() {
            let c = self.points[0];
            return (0..per_turn)
                .map(|i| c + DVec2::from_angle(step * i as f64) * self.radius)
                .collect();
        }
        let n = self.points.len();
        let mut outline = Vec::with_capacity(n + per_turn + n);
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
