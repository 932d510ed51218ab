//! The latency lab's overlay: the players as the server knows them at a bucket, the true
//! poses, the collisions standing there.

use super::*;

/// What the latency lab shows over the players' poses at one bucket time.
#[derive(Clone, Copy)]
pub struct LatencyShown<'a> {
    /// Per shape (list position): its pose there was interpolated between two packets (drawn
    /// dashed), not received.
    pub interpolated: &'a [bool],
    /// The players' true poses then, when the log came from a recording (thin outlines).
    pub truth: Option<&'a Scene>,
    /// The collisions standing there.
    pub collisions: &'a [LatencyCollision],
}

/// One collision the latency lab shows.
#[derive(Clone, Debug)]
pub struct LatencyCollision {
    /// At the bucket: the pair (list positions), joined by a red line.
    pub pair: Option<(usize, usize)>,
    /// Swept, between buckets: both players at their first contact, drawn in red.
    pub at_contact: Option<[Placed; 2]>,
    /// What to say.
    pub text: String,
}

/// The latency lab's bucket: the true poses as thin outlines, interpolated poses dashed over
/// their shapes, and each standing collision as a red line between the two with its sentence.
pub(super) fn latency_marks(input: &DrawInput, shown: LatencyShown, list: &mut DrawList) {
    if let Some(truth) = shown.truth {
        for shape in &truth.shapes {
            let outline = Rounded::new(&shape.placed, DVec2::ZERO).outline_with(32);
            list.marks
                .push(input.closed_line(&outline, Stroke::new(1.0, faded(Colour::WHITE, 110))));
        }
    }
    for (i, shape) in input.scene.shapes.iter().enumerate() {
        if !shown.interpolated.get(i).copied().unwrap_or(false) {
            continue;
        }
        let outline = Rounded::new(&shape.placed, DVec2::ZERO).outline_with(32);
        let mut points = input.screen_points(&outline);
        points.extend(points.first().copied());
        list.marks.push(Mark::Dashed {
            points,
            stroke: Stroke::new(2.0, palette::OTHER),
            dash: 6.0,
            gap: 4.0,
        });
    }
    for (k, c) in shown.collisions.iter().enumerate() {
        let (pa, pb) = match (&c.at_contact, c.pair) {
            (Some(both), _) => {
                for placed in both {
                    let outline = Rounded::new(placed, DVec2::ZERO).outline_with(32);
                    let mut points = input.screen_points(&outline);
                    points.extend(points.first().copied());
                    list.marks.push(Mark::Dashed {
                        points,
                        stroke: Stroke::new(2.0, palette::MTV),
                        dash: 4.0,
                        gap: 3.0,
                    });
                }
                (
                    input.screen(both[0].centre()),
                    input.screen(both[1].centre()),
                )
            }
            (None, Some((a, b))) => {
                let (Some(sa), Some(sb)) = (input.scene.shapes.get(a), input.scene.shapes.get(b))
                else {
                    continue;
                };
                (
                    input.screen(sa.placed.centre()),
                    input.screen(sb.placed.centre()),
                )
            }
            (None, None) => continue,
        };
        let text = &c.text;
        list.marks
            .push(segment(pa, pb, Stroke::new(3.0, palette::MTV)));
        list.marks.push(dot(pa, 4.0, palette::MTV));
        list.marks.push(dot(pb, 4.0, palette::MTV));
        list.labels.push(Label {
            // Stacked, so collisions at one place do not cover each other's words.
            at: (pa + pb) * 0.5 + Vec2::new(0.0, -18.0 - 16.0 * k as f32),
            text: text.clone(),
            colour: palette::MTV,
            importance: Importance::Headline,
            fixed: false,
            other_side: None,
            names: None,
        });
    }
}
