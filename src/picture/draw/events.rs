//! The capture lab's overlay: the picture of the event stepped to (a seam's face in red with
//! the shape covering it and the body's velocity before and after, a tunnel's paths and first
//! touch, a push through's path), as the core computed it.

use super::pair::arrow;
use super::*;
use crate::picture::{ArrowKind, EventPicture};

/// Colours of the velocity before (the event's frame) and after (the next).
const BEFORE: Colour = palette::A;
const AFTER: Colour = palette::DECIDING;

pub(super) fn event_marks(input: &DrawInput, picture: &EventPicture, list: &mut DrawList) {
    for placed in &picture.outlined {
        let outline = Rounded::new(placed, DVec2::ZERO).outline_with(32);
        list.marks.push(Mark::Dashed {
            points: closed(input.screen_points(&outline)),
            stroke: Stroke::new(2.5, palette::MTV),
            dash: 6.0,
            gap: 4.0,
        });
    }
    for placed in &picture.ghosts {
        let outline = Rounded::new(placed, DVec2::ZERO).outline_with(32);
        list.marks
            .push(input.closed_line(&outline, Stroke::new(2.0, faded(palette::NAIVE, 220))));
    }
    if let Some((p, q)) = picture.face {
        list.marks.push(Mark::Segment {
            points: [input.screen(p), input.screen(q)],
            stroke: Stroke::new(5.0, palette::MTV),
        });
        list.labels.push(Label {
            at: input.screen(p.lerp(q, 0.5)) + Vec2::new(-14.0, 0.0),
            text: text::SEAM_FACE.into(),
            colour: palette::MTV,
            importance: Importance::Headline,
            fixed: false,
            other_side: None,
            names: None,
        });
    }
    if let Some(corner) = picture.corner {
        list.marks
            .push(dot(input.screen(corner), 6.0, palette::MTV));
        list.labels.push(Label {
            at: input.screen(corner) + Vec2::new(0.0, 18.0),
            text: text::SEAM_CORNER.into(),
            colour: palette::MTV,
            importance: Importance::Headline,
            fixed: false,
            other_side: None,
            names: None,
        });
    }
    for (from, to) in &picture.paths {
        list.marks.push(Mark::Dashed {
            points: vec![input.screen(*from), input.screen(*to)],
            stroke: Stroke::new(2.0, palette::RAY),
            dash: 6.0,
            gap: 4.0,
        });
        list.marks.push(dot(input.screen(*from), 3.5, palette::RAY));
        list.marks.push(dot(input.screen(*to), 4.5, palette::RAY));
    }
    if let Some(touch) = picture.touch {
        list.marks.push(dot(input.screen(touch), 5.0, palette::MTV));
        list.labels.push(Label {
            at: input.screen(touch) + Vec2::new(0.0, -18.0),
            text: text::FIRST_TOUCH.into(),
            colour: palette::MTV,
            importance: Importance::Headline,
            fixed: false,
            other_side: None,
            names: None,
        });
    }
    for a in &picture.arrows {
        let colour = match a.kind {
            ArrowKind::Before | ArrowKind::NormalBefore => BEFORE,
            ArrowKind::After | ArrowKind::Normal => AFTER,
        };
        let drawn = arrow(input, a.from, a.vector, colour, list);
        list.labels.push(Label {
            at: drawn.tip + Vec2::new(0.0, -14.0),
            text: crate::picture::event_arrow(a, &picture.units, picture.corner.is_some()),
            colour,
            importance: Importance::Headline,
            fixed: false,
            other_side: None,
            names: None,
        });
    }
}

/// The points with the first again at the end.
fn closed(mut points: Vec<Vec2>) -> Vec<Vec2> {
    points.extend(points.first().copied());
    points
}
