//! What a moving shape covers over a span of time, for drawing a sweep as Box2D's Time of
//! Impact sample does: the region swept by a translating convex shape is the convex hull of
//! the shape at the start and at the end (its Minkowski sum with the path), outlined here;
//! a turning shape is shown by its poses at even times between.

use super::toi::Velocity;
use crate::geometry::{DVec2, Placed, Rounded, cross};

/// The outline of the region a convex shape covers while translating by `velocity` over
/// `[0, horizon]`: the convex hull of its outlines (drawn with `per_turn` chords per turn
/// of a rounded corner) at the two ends, counter-clockwise. `None` when it turns (the swept
/// region is then not convex: see [`poses_between`]).
pub fn swept_outline(
    placed: &Placed,
    velocity: Velocity,
    horizon: f64,
    per_turn: usize,
) -> Option<Vec<DVec2>> {
    if velocity.angular != 0.0 {
        return None;
    }
    let outline = Rounded::new(placed, DVec2::ZERO).outline_with(per_turn);
    let shift = velocity.linear * horizon;
    let mut points = outline.to_vec();
    points.extend(outline.iter().map(|p| *p + shift));
    Some(convex_hull(points))
}

/// The shape at `count` even times strictly between 0 and `horizon` (its in-between poses).
pub fn poses_between(
    placed: &Placed,
    velocity: Velocity,
    horizon: f64,
    count: usize,
) -> Vec<Placed> {
    (1..=count)
        .map(|k| {
            let t = horizon * k as f64 / (count + 1) as f64;
            Placed::new(placed.shape.clone(), velocity.advance(placed.pose, t))
        })
        .collect()
}

/// The convex hull of `points`, counter-clockwise, without collinear points (Andrew's
/// monotone chain, 1979): two or fewer distinct points come back as they are.
pub fn convex_hull(mut points: Vec<DVec2>) -> Vec<DVec2> {
    points.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let mut hull: Vec<DVec2> = Vec::with_capacity(points.len() + 1);
    let chain = |hull: &mut Vec<DVec2>, p: DVec2, floor: usize| {
        while hull.len() >= floor + 2 {
            let (a, b) = (hull[hull.len() - 2], hull[hull.len() - 1]);
            if cross(b - a, p - b) > 0.0 {
                break;
            }
            hull.pop();
        }
        hull.push(p);
    };
    for &p in &points {
        chain(&mut hull, p, 0);
    }
    let lower = hull.len() - 1;
    for &p in points.iter().rev().skip(1) {
        chain(&mut hull, p, lower);
    }
    hull.pop();
    hull
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Circle, ConvexPolygon, Pose, Shape};

    #[test]
    fn hull_of_a_square_and_inner_points() {
        let pts = vec![
            DVec2::new(0.0, 0.0),
            DVec2::new(1.0, 0.0),
            DVec2::new(0.5, 0.5),
            DVec2::new(1.0, 1.0),
            DVec2::new(0.0, 1.0),
            DVec2::new(0.5, 0.0),
        ];
        assert_eq!(
            convex_hull(pts),
            vec![
                DVec2::new(0.0, 0.0),
                DVec2::new(1.0, 0.0),
                DVec2::new(1.0, 1.0),
                DVec2::new(0.0, 1.0)
            ]
        );
    }

    #[test]
    fn a_translated_box_sweeps_a_hexagon() {
        let square = ConvexPolygon::new(vec![
            DVec2::new(-1.0, -1.0),
            DVec2::new(1.0, -1.0),
            DVec2::new(1.0, 1.0),
            DVec2::new(-1.0, 1.0),
        ])
        .unwrap();
        let placed = Placed::new(Shape::Polygon(square), Pose::default());
        let hull = swept_outline(&placed, Velocity::linear(DVec2::new(3.0, 3.0)), 1.0, 32).unwrap();
        assert_eq!(hull.len(), 6);
        assert!(hull.contains(&DVec2::new(4.0, 4.0)) && hull.contains(&DVec2::new(-1.0, -1.0)));
        assert!(!hull.contains(&DVec2::new(1.0, 1.0)));
        let turning = Velocity {
            linear: DVec2::X,
            angular: 1.0,
        };
        assert!(swept_outline(&placed, turning, 1.0, 32).is_none());
    }

    #[test]
    fn in_between_poses_are_even() {
        let ball = Placed::new(Shape::Circle(Circle::new(0.5).unwrap()), Pose::default());
        let poses = poses_between(&ball, Velocity::linear(DVec2::new(4.0, 0.0)), 2.0, 3);
        let xs: Vec<f64> = poses.iter().map(|p| p.pose.position.x).collect();
        assert_eq!(xs, vec![2.0, 4.0, 6.0]);
    }
}
