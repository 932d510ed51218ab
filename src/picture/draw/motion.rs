//! The motion lab's overlay: the sweeps of the step shown (fast, tunnelled, pushed through).

use super::*;

/// A sweep: the region covered, faint; the body before, dashed; a tunnelled one in red with
/// the shape it crossed outlined and its bound in words.
pub(super) fn sweep_marks(input: &DrawInput, sweep: &Sweep, list: &mut DrawList) {
    let colour = if sweep.tunnelled.is_some() || sweep.pushed_through.is_some() {
        palette::MTV
    } else {
        palette::OTHER
    };
    list.marks.push(input.polygon(
        &sweep.covered,
        faded(colour, 30),
        Stroke::new(1.0, faded(colour, 90)),
    ));
    let mut before = input.screen_points(&sweep.before);
    before.extend(before.first().copied());
    list.marks.push(Mark::Dashed {
        points: before,
        stroke: Stroke::new(1.5, faded(colour, 200)),
        dash: 5.0,
        gap: 3.0,
    });
    if let Some((wall, dt, safe)) = sweep.tunnelled {
        let outline = Rounded::new(&input.scene.shapes[wall].placed, DVec2::ZERO).outline_with(32);
        list.marks
            .push(input.closed_line(&outline, Stroke::new(3.0, palette::MTV)));
        list.labels.push(Label {
            at: input.screen(sweep.at) + Vec2::new(0.0, -22.0),
            text: format!(
                "tunnelled: step {} s, largest safe step {} s",
                text::number(dt),
                text::number(safe)
            ),
            colour: palette::MTV,
            importance: Importance::Headline,
            fixed: false,
            other_side: None,
            names: None,
        });
    }
    if let Some((other, from, to)) = sweep.pushed_through {
        let outline = Rounded::new(&input.scene.shapes[other].placed, DVec2::ZERO).outline_with(32);
        list.marks
            .push(input.closed_line(&outline, Stroke::new(3.0, palette::MTV)));
        list.marks.push(Mark::Dashed {
            points: vec![input.screen(from), input.screen(to)],
            stroke: Stroke::new(2.0, palette::MTV),
            dash: 6.0,
            gap: 4.0,
        });
        list.marks.push(dot(input.screen(from), 3.5, palette::MTV));
        list.marks.push(dot(input.screen(to), 4.5, palette::MTV));
        list.labels.push(Label {
            at: input.screen(to) + Vec2::new(0.0, 22.0),
            text: "pushed through: resolved out of the far side".into(),
            colour: palette::MTV,
            importance: Importance::Headline,
            fixed: false,
            other_side: None,
            names: None,
        });
    }
}
