//! A capture's impulses drawn on its contact points (the capture lab, View > Impulses): at
//! each point of a claim that carries them, an arrow along the claim's normal (the push on B)
//! as long as the solver's normal impulse there, all at one scale, a round number of the
//! capture's impulse unit per 60 points, said in a legend in the view's corner.

use super::{DrawInput, DrawList, Importance, Label, Mark, Stroke, Vec2};
use crate::capture::FrameClaim;
use crate::geometry::DVec2;
use crate::picture::palette;

/// What View > Impulses draws, in its tip.
pub const IMPULSES_TIP: &str = "the capture lab: the normal impulse the engine's solver applied at each contact point over the step, an arrow along the contact's normal (the push on B), all at the scale the legend in the view's corner says (captures whose engine writes impulses: Box2D, Rapier)";

/// The longest arrow (points): the legend's, a round impulse at least the frame's largest.
const LONGEST: f32 = 60.0;

/// One contact point's impulse.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImpulseArrow {
    /// The contact point (world).
    pub point: DVec2,
    /// The claim's normal, from A toward B (unit): the impulse pushes B along it.
    pub normal: DVec2,
    /// The normal impulse there (>= 0).
    pub impulse: f64,
}

/// The impulses of a frame shown, and the capture's unit of length (for the legend's words).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImpulsesShown {
    /// Every point of every claim that carries impulses.
    pub arrows: Vec<ImpulseArrow>,
    /// The capture's unit of length (`m`: impulses in N s).
    pub units: String,
}

impl ImpulsesShown {
    /// The impulses of a frame's `claims` (a claim without impulses, or with no normal, adds
    /// none).
    pub fn of_claims(claims: &[FrameClaim], units: &str) -> Self {
        let mut arrows = Vec::new();
        for claim in claims {
            let r = &claim.reported;
            let (Some(points), Some(impulses), Some(normal)) = (
                r.contacts.as_ref(),
                r.impulses.as_ref(),
                r.normal.and_then(DVec2::try_normalize),
            ) else {
                continue;
            };
            arrows.extend(
                points
                    .iter()
                    .zip(impulses)
                    .map(|(&point, &impulse)| ImpulseArrow {
                        point,
                        normal,
                        impulse,
                    }),
            );
        }
        Self {
            arrows,
            units: units.into(),
        }
    }

    /// The round impulse the legend's arrow stands for: the smallest 1, 2 or 5 times a power
    /// of ten at least the largest impulse (`None`: no impulse above 0).
    pub fn legend_impulse(&self) -> Option<f64> {
        let largest = self.arrows.iter().map(|a| a.impulse).fold(0.0, f64::max);
        if !(largest > 0.0 && largest.is_finite()) {
            return None;
        }
        let power = 10f64.powf(largest.log10().floor());
        [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .map(|m| m * power)
            .find(|r| *r >= largest)
    }
}

/// The arrows and the legend.
pub(super) fn impulse_marks(input: &DrawInput, shown: &ImpulsesShown, list: &mut DrawList) {
    let Some(legend) = shown.legend_impulse() else {
        return;
    };
    let per_impulse = LONGEST / legend as f32;
    for a in &shown.arrows {
        let start = input.screen(a.point);
        let dir = (input.screen(a.point + a.normal) - start).normalize_or_zero();
        let length = a.impulse as f32 * per_impulse;
        if length < 1.0 {
            list.marks.push(Mark::Circle {
                centre: start,
                radius: 2.0,
                fill: palette::IMPULSE,
                stroke: Stroke::NONE,
            });
            continue;
        }
        arrow_marks(start, start + dir * length, list);
    }
    // The legend, in the view's top right corner (clear of the grid's numbers along the left
    // and bottom edges): an arrow of the longest length, and what it stands for.
    let words = format!(
        "= {} (impulse)",
        crate::capture::words::impulse_words(legend, &shown.units)
    );
    let width = 7.0 * words.chars().count() as f32;
    let tail = Vec2::new(
        input.rect.max.x - width - LONGEST - 24.0,
        input.rect.min.y + 18.0,
    );
    arrow_marks(tail, tail + Vec2::new(LONGEST, 0.0), list);
    list.labels.push(Label {
        at: tail + Vec2::new(LONGEST + 6.0 + width / 2.0, 0.0),
        text: words,
        colour: palette::IMPULSE,
        importance: Importance::Headline,
        fixed: true,
        other_side: None,
        names: None,
    });
}

/// An arrow from `start` to `end` (screen).
fn arrow_marks(start: Vec2, end: Vec2, list: &mut DrawList) {
    let dir = (end - start).normalize_or_zero();
    let head = (start.distance(end) * 0.35).clamp(4.0, 10.0);
    let side = Vec2::new(-dir.y, dir.x) * (0.5 * head);
    list.marks.push(Mark::Segment {
        points: [start, end - dir * (0.8 * head)],
        stroke: Stroke::new(2.5, palette::IMPULSE),
    });
    list.marks.push(Mark::Polygon {
        points: vec![end, end - dir * head + side, end - dir * head - side],
        fill: palette::IMPULSE,
        stroke: Stroke::NONE,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legend_is_a_round_impulse_at_least_the_largest() {
        let shown = |impulses: &[f64]| ImpulsesShown {
            arrows: impulses
                .iter()
                .map(|&impulse| ImpulseArrow {
                    point: DVec2::ZERO,
                    normal: DVec2::Y,
                    impulse,
                })
                .collect(),
            units: "m".into(),
        };
        assert_eq!(shown(&[0.0208, 0.0104]).legend_impulse(), Some(0.05));
        assert_eq!(shown(&[0.654, 0.0065]).legend_impulse(), Some(1.0));
        assert_eq!(shown(&[3.0]).legend_impulse(), Some(5.0));
        assert_eq!(shown(&[0.0]).legend_impulse(), None);
        assert_eq!(shown(&[]).legend_impulse(), None);
    }
}
