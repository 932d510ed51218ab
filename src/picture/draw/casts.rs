//! The casts lab's overlay: the segment and every hit, with its normal and fraction.

use super::*;

/// A segment cast against the scene and what it hit.
#[derive(Clone, Copy)]
pub struct RayShown<'a> {
    /// Where the segment starts.
    pub from: DVec2,
    /// Where it ends.
    pub to: DVec2,
    /// Its hits: (list position, hit), sorted by fraction (the first is the first hit).
    pub hits: &'a [(usize, RayHit)],
}

/// The cast segment (solid up to its first hit, dashed beyond), and every hit: a dot at its
/// point, its normal as an arrow, its fraction; the first hit large and labelled, the rest
/// faint. A segment that starts inside a shape hits it at 0 with no normal: a ring at the
/// start.
pub(super) fn ray_cast(input: &DrawInput, ray: RayShown, list: &mut DrawList) {
    let (from, to) = (input.screen(ray.from), input.screen(ray.to));
    let first = ray.hits.first().map(|(_, h)| h);
    let stop = first.map_or(to, |h| input.screen(h.point));
    list.marks
        .push(segment(from, stop, Stroke::new(2.0, palette::RAY)));
    if stop != to {
        list.marks.push(Mark::Dashed {
            points: vec![stop, to],
            stroke: Stroke::new(1.5, faded(palette::RAY, 140)),
            dash: 6.0,
            gap: 4.0,
        });
    }
    list.marks.push(dot(from, 5.0, palette::RAY));
    let dir = (to - from).normalize_or_zero();
    let side = Vec2::new(-dir.y, dir.x) * 5.0;
    list.marks.push(Mark::Polygon {
        points: vec![to, to - dir * 11.0 + side, to - dir * 11.0 - side],
        fill: palette::RAY,
        stroke: Stroke::NONE,
    });
    for (k, (_, hit)) in ray.hits.iter().enumerate().rev() {
        let (colour, radius) = if k == 0 {
            (palette::CLOSEST, 5.5)
        } else {
            (faded(palette::CLOSEST, 150), 3.5)
        };
        let at = input.screen(hit.point);
        let label_at = match hit.normal {
            Some(normal) => {
                let length = NORMAL_ARROW / input.camera.scale;
                let end = arrow(input, hit.point, normal * length, colour, list).tip;
                end + (end - at).normalize_or_zero() * 12.0
            }
            None => {
                list.marks.push(Mark::Circle {
                    centre: at,
                    radius: 9.0,
                    fill: Colour::TRANSPARENT,
                    stroke: Stroke::new(2.0, colour),
                });
                at + Vec2::new(0.0, -18.0)
            }
        };
        list.marks.push(dot(at, radius, colour));
        let text = match (k, hit.normal) {
            (0, Some(_)) => format!("first hit {}", text::number(hit.fraction)),
            (0, None) => "starts inside: 0".to_string(),
            _ => text::short_number(hit.fraction),
        };
        list.labels.push(Label {
            at: label_at,
            text,
            colour,
            importance: if k == 0 {
                Importance::Headline
            } else {
                Importance::Axis
            },
            fixed: false,
            other_side: None,
            names: None,
        });
    }
}
