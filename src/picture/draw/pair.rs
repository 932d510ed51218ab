//! The explained pair: its axes on the ring around it with both shadows, the MTV and its
//! ghost, the closest points, a claim, a mistake's MTV, its motion; arrows too short to see
//! drawn enlarged.

use super::*;
use crate::query::{ChainReport, ChainRule};

pub(super) fn pair_report(
    input: &DrawInput,
    pair: (usize, usize),
    report: &PairReport,
    list: &mut DrawList,
) {
    let shapes = &input.scene.shapes;
    let (a, b) = (&shapes[pair.0].placed, &shapes[pair.1].placed);
    if input.verdict_shown && report.region.outline.len() >= 3 {
        list.marks.push(input.polygon(
            &report.region.outline,
            faded(palette::MTV, 90),
            Stroke::NONE,
        ));
    }
    if input.show_axes {
        axes(input, pair, (a, b), report, list);
    }
    if !input.verdict_shown {
        return;
    }
    // With a chain the other shape is the one moved: B, or A the other way.
    let (moved, sign) = if b.shape.as_chain().is_some() {
        (a, -1.0)
    } else {
        (b, 1.0)
    };
    if let Some(chain) = &report.chain {
        piece_rules(input, chain, moved, sign, list);
    }
    if let Some(mistake) = input.mistake
        && let (Some(mtv), Some(name)) = (mistake.mtv, mistake.mistake)
    {
        let from = report
            .contact
            .as_ref()
            .and_then(|c| c.points.first())
            .map_or(b.centre(), |p| p.point);
        ghost(
            input,
            moved,
            from,
            mtv.translation() * sign,
            palette::NAIVE,
            format!("{name} {}", text::mtv(mistake.shown(mtv.depth))),
            list,
        );
    }
    if let Some(claim) = input.claim {
        claimed(input, b, report, claim, list);
    }
    if let Some(motion) = input.motion {
        moving(input, (a, b), motion, list);
    }
    if let Some(contact) = &report.contact {
        let from = contact.points.first().map_or(b.centre(), |p| p.point);
        if input.show_naive
            && let Some(naive) = &report.naive
        {
            ghost(
                input,
                moved,
                from,
                naive.translation() * sign,
                palette::NAIVE,
                "naive MTV".into(),
                list,
            );
        }
        if report.sat.shown(contact.depth) == 0.0 {
            // A depth within rounding: the shapes touch; no arrow to enlarge.
            list.labels.push(Label {
                at: input.screen(from) + Vec2::new(0.0, -14.0),
                text: text::mtv(0.0),
                colour: palette::MTV,
                importance: Importance::Headline,
                fixed: false,
                other_side: None,
                names: Some([input.screen(from); 2]),
            });
        } else {
            ghost(
                input,
                moved,
                from,
                contact.normal * contact.depth * sign,
                palette::MTV,
                text::mtv(contact.depth),
                list,
            );
        }
        for p in &contact.points {
            list.marks
                .push(dot(input.screen(p.point), 4.5, palette::MTV));
        }
    } else if let Some(c) = report.proximity.closest {
        let (p, q) = (input.screen(c.point_a), input.screen(c.point_b));
        list.marks.push(Mark::Dashed {
            points: vec![p, q],
            stroke: Stroke::new(1.5, palette::CLOSEST),
            dash: 6.0,
            gap: 4.0,
        });
        list.marks.push(dot(p, 4.0, palette::CLOSEST));
        list.marks.push(dot(q, 4.0, palette::CLOSEST));
        list.labels.push(Label {
            at: p.lerp(q, 0.5) + Vec2::new(0.0, -14.0),
            text: format!(
                "distance {}",
                text::number(report.sat.shown(report.proximity.distance))
            ),
            colour: palette::CLOSEST,
            importance: Importance::Headline,
            fixed: false,
            other_side: None,
            names: None,
        });
    }
}

/// A chain pair's pieces that reach the other shape: each drawn over in its rule's colour
/// with its number and rule ("2 snap"), and where the rule changed the piece's own result
/// (a snap; a skip or behind that the piece alone would push), that two-sided push as a
/// ghost beside the rule's: what resolving the piece alone (`internal-edge`) would do.
fn piece_rules(
    input: &DrawInput,
    chain: &ChainReport,
    moved: &Placed,
    sign: f64,
    list: &mut DrawList,
) {
    for p in chain.pieces.iter().filter(|p| p.rule != ChainRule::Apart) {
        let colour = match p.rule {
            ChainRule::Admit | ChainRule::Snap => palette::MTV,
            _ => palette::OTHER,
        };
        let (e0, e1) = (input.screen(p.ends[0]), input.screen(p.ends[1]));
        list.marks
            .push(segment(e0, e1, Stroke::new(3.5, faded(colour, 200))));
        list.labels.push(Label {
            at: e0.lerp(e1, 0.5) + Vec2::new(0.0, 16.0),
            text: format!("{} {}", p.piece, p.rule.name()),
            colour,
            importance: Importance::Axis,
            fixed: false,
            other_side: None,
            names: None,
        });
        let two_sided = p.two_sided;
        let changed = p.rule != ChainRule::Admit && two_sided.intersecting;
        if let (true, Some(normal)) = (changed, two_sided.normal) {
            let from = p.ends[0].lerp(p.ends[1], 0.5);
            ghost(
                input,
                moved,
                from,
                normal * two_sided.depth * sign,
                palette::NAIVE,
                format!("piece {} alone {}", p.piece, text::number(two_sided.depth)),
                list,
            );
        }
    }
}

/// Both shapes at the horizon (faint) and at the time of impact (dashed), their velocities as
/// arrows from their centres over the span, and the hit point and normal.
pub(super) fn moving(
    input: &DrawInput,
    (a, b): (&Placed, &Placed),
    motion: PairMotion,
    list: &mut DrawList,
) {
    let (va, vb) = motion.velocities;
    for (shape, velocity, colour) in [(a, va, palette::A), (b, vb, palette::B)] {
        if velocity == Velocity::default() {
            continue;
        }
        let at = |t: f64| {
            let placed = Placed::new(shape.shape.clone(), velocity.advance(shape.pose, t));
            Rounded::new(&placed, DVec2::ZERO).outline_with(32)
        };
        // What it covers on the way: the swept hull of a translation, else in-between poses.
        match swept_outline(shape, velocity, motion.horizon, 32) {
            Some(hull) => list.marks.push(input.polygon(
                &hull,
                faded(colour, 18),
                Stroke::new(1.0, faded(colour, 60)),
            )),
            None => {
                for placed in poses_between(shape, velocity, motion.horizon, 7) {
                    let outline = Rounded::new(&placed, DVec2::ZERO).outline_with(32);
                    list.marks
                        .push(input.closed_line(&outline, Stroke::new(1.0, faded(colour, 45))));
                }
            }
        }
        list.marks
            .push(input.closed_line(&at(motion.horizon), Stroke::new(1.0, faded(colour, 90))));
        if let Some(t) = motion.toi.toi.filter(|t| *t > 0.0) {
            let points = input.screen_points(&at(t));
            let mut closed = points.clone();
            closed.extend(points.first().copied());
            list.marks.push(Mark::Dashed {
                points: closed,
                stroke: Stroke::new(1.5, colour),
                dash: 5.0,
                gap: 3.0,
            });
        }
        arrow(
            input,
            shape.centre(),
            velocity.linear * motion.horizon,
            faded(colour, 200),
            list,
        );
    }
    if let (Some(t), Some(point), Some(normal)) =
        (motion.toi.toi, motion.toi.point, motion.toi.normal)
    {
        list.marks
            .push(dot(input.screen(point), 4.5, palette::CLOSEST));
        let drawn = arrow(
            input,
            point,
            normal * (NORMAL_ARROW / input.camera.scale),
            palette::CLOSEST,
            list,
        );
        list.labels.push(Label {
            at: drawn.tip + Vec2::new(0.0, -14.0),
            text: format!("time of impact {}", text::number(t)),
            colour: palette::CLOSEST,
            importance: Importance::Headline,
            fixed: false,
            other_side: None,
            names: Some([drawn.tail, drawn.tip]),
        });
    }
}

/// What another engine claimed: its normal as an arrow of its depth (from its first contact,
/// else where the exact one starts), its contacts as rings, or "claimed apart".
pub(super) fn claimed(
    input: &DrawInput,
    b: &Placed,
    report: &PairReport,
    claim: &Claim,
    list: &mut DrawList,
) {
    let claim = &claim.reported;
    let exact_from = report
        .contact
        .as_ref()
        .and_then(|c| c.points.first())
        .map_or(b.centre(), |p| p.point);
    const RING: f32 = 7.0;
    let contacts = claim.contacts.as_deref().unwrap_or_default();
    for p in contacts {
        list.marks.push(Mark::Circle {
            centre: input.screen(*p),
            radius: RING,
            fill: Colour::TRANSPARENT,
            stroke: Stroke::new(2.0, palette::CLAIMED),
        });
    }
    let (text, at, names) = match (claim.intersecting, claim.normal, claim.depth) {
        (true, Some(normal), Some(depth)) => {
            let from = contacts.first().copied().unwrap_or(exact_from);
            let drawn = arrow(input, from, normal * depth, palette::CLAIMED, list);
            // Under the arrow and clear of the ring it starts in.
            let start = input.screen(from);
            let ring = if contacts.is_empty() { 0.0 } else { RING };
            let below = drawn.tip.y.max(start.y + ring) + 14.0;
            (
                drawn.label(format!("claimed {}", text::number(depth))),
                Vec2::new(drawn.tip.x, below),
                Some([drawn.tail, drawn.tip]),
            )
        }
        _ => (
            "claimed apart".to_string(),
            input.screen(b.centre()) + Vec2::new(0.0, 18.0),
            None,
        ),
    };
    list.labels.push(Label {
        at,
        text,
        colour: palette::CLAIMED,
        importance: Importance::Headline,
        fixed: false,
        other_side: None,
        names,
    });
}

/// B's outline moved by `translation`, and the arrow of the move from `from`.
pub(super) fn ghost(
    input: &DrawInput,
    b: &Placed,
    from: DVec2,
    translation: DVec2,
    colour: Colour,
    label: String,
    list: &mut DrawList,
) {
    let moved: Vec<DVec2> = Rounded::new(b, DVec2::ZERO)
        .outline()
        .iter()
        .map(|p| *p + translation)
        .collect();
    list.marks
        .push(input.closed_line(&moved, Stroke::new(1.5, faded(colour, 170))));
    let drawn = arrow(input, from, translation, colour, list);
    list.labels.push(Label {
        at: drawn.tip + Vec2::new(0.0, -14.0),
        text: drawn.label(label),
        colour,
        importance: Importance::Headline,
        fixed: false,
        other_side: None,
        names: Some([drawn.tail, drawn.tip]),
    });
}

/// Below this length on screen an arrow is drawn this long, dashed, and its label says so
/// (at game scale a small MTV or depth would be under a pixel).
pub const ARROW_MIN: f32 = 10.0;

/// An arrowhead's length (points): 10, less on a short arrow so its shaft still shows.
fn head_length(arrow: f32) -> f32 {
    (0.45 * arrow).min(10.0)
}

/// An arrow as drawn: where its tip is, and whether it was drawn longer than it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct DrawnArrow {
    /// Where it starts.
    pub(super) tail: Vec2,
    /// Where its tip is drawn.
    pub(super) tip: Vec2,
    /// Whether it is drawn longer than it is.
    pub(super) enlarged: bool,
}

impl DrawnArrow {
    /// `text`, marked when the arrow is drawn enlarged (the number in it is the true one).
    fn label(&self, text: String) -> String {
        if self.enlarged {
            format!("{text} (arrow enlarged)")
        } else {
            text
        }
    }
}

/// A world vector as an arrow from `from`. One shorter than [`ARROW_MIN`] points on screen is
/// drawn that long with a dashed shaft, marked enlarged.
pub(super) fn arrow(
    input: &DrawInput,
    from: DVec2,
    vector: DVec2,
    colour: Colour,
    list: &mut DrawList,
) -> DrawnArrow {
    let start = input.screen(from);
    let mut end = input.screen(from + vector);
    let enlarged = start.distance(end) < ARROW_MIN;
    if enlarged {
        let dir = Vec2::new(vector.x as f32, -vector.y as f32).normalize_or_zero();
        end = start + dir * ARROW_MIN;
    }
    let dir = (end - start).normalize_or_zero();
    let head = head_length(start.distance(end));
    let side = Vec2::new(-dir.y, dir.x) * (0.5 * head);
    if enlarged {
        list.marks.push(Mark::Dashed {
            points: vec![start, end - dir * (0.8 * head)],
            stroke: Stroke::new(2.5, colour),
            dash: 3.0,
            gap: 2.5,
        });
    } else {
        list.marks
            .push(segment(start, end, Stroke::new(2.5, colour)));
    }
    list.marks.push(Mark::Polygon {
        points: vec![end, end - dir * head + side, end - dir * head - side],
        fill: colour,
        stroke: Stroke::NONE,
    });
    DrawnArrow {
        tail: start,
        tip: end,
        enlarged,
    }
}

/// Where the axis lines stand (world).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisRing {
    /// The ring's centre.
    pub centre: DVec2,
    /// Its radius: every line is tangent to the ring.
    pub radius: f64,
    /// When the pair does not fit inside the ring (zoomed in), how far along its axis a line
    /// reaches either side of its overlap or gap; `None`: the whole shadows.
    pub reach: Option<f64>,
}

/// Where the axis ring stands. Just outside the circles that hold the two shapes, when that
/// fits the view; zoomed in, just outside the smaller shape; closer still, inside the view
/// around what the pair is about (the contact or the closest points). In the last two cases
/// each line is cut to a stretch around its overlap or gap.
pub fn axis_ring(
    camera: Camera,
    rect: Rect,
    (a, b): (&Placed, &Placed),
    report: &PairReport,
) -> AxisRing {
    let gap = RING_GAP as f64 / camera.scale;
    let room = 0.45 * rect.width().min(rect.height()) as f64 / camera.scale;
    let in_view = |p: DVec2| rect.contains(camera.to_screen(rect, p));
    // The whole ring on screen, not only its centre.
    let ring_in_view = |c: DVec2, r: f64| {
        let r = DVec2::splat(r);
        in_view(c - r) && in_view(c + r)
    };
    let centre = (a.centre() + b.centre()) * 0.5;
    let reach = |p: &Placed| p.centre().distance(centre) + p.shape.bounding_radius();
    let ring = reach(a).max(reach(b)) + gap;
    if ring_in_view(centre, ring) {
        return AxisRing {
            centre,
            radius: ring,
            reach: None,
        };
    }
    let small = if a.shape.bounding_radius() <= b.shape.bounding_radius() {
        a
    } else {
        b
    };
    let ring = small.shape.bounding_radius() + gap;
    if ring <= room && ring_in_view(small.centre(), ring) {
        return AxisRing {
            centre: small.centre(),
            radius: ring,
            reach: Some(1.2 * ring),
        };
    }
    let action = report
        .contact
        .as_ref()
        .and_then(|c| c.points.first().map(|p| p.point))
        .or(report
            .proximity
            .closest
            .map(|c| (c.point_a + c.point_b) * 0.5))
        .unwrap_or(centre);
    let focus = if in_view(action) {
        action
    } else {
        camera.centre
    };
    AxisRing {
        centre: focus,
        radius: 0.9 * room,
        reach: Some(0.9 * room),
    }
}

/// The box (world) that holds every axis line on a ring of `radius` around `centre`, on
/// either side and one step out (what a fit must show to keep them all in view).
pub fn axes_bounds(centre: DVec2, radius: f64, scale: f64, report: &PairReport) -> (DVec2, DVec2) {
    let out = radius + 2.0 * AXIS_STEP as f64 / scale;
    let margin = AXIS_MARGIN as f64 / scale;
    let mut bounds = (centre - DVec2::splat(radius), centre + DVec2::splat(radius));
    for t in &report.sat.axes {
        let (u, perp) = (t.axis, left_perp(t.axis));
        for side in [-1.0, 1.0] {
            for s in [t.a.min.min(t.b.min) - margin, t.a.max.max(t.b.max) + margin] {
                let p = centre + perp * side * out + u * (s - centre.dot(u));
                bounds = (bounds.0.min(p), bounds.1.max(p));
            }
        }
    }
    bounds
}

/// Every candidate axis told so far, as a short line on the ring around the pair with both
/// shadows drawn on it as bars and the overlap (red) or gap (green) between them. Each line
/// takes the side of the ring where it crosses no other shape, where there is one.
pub(super) fn axes(
    input: &DrawInput,
    pair: (usize, usize),
    (a, b): (&Placed, &Placed),
    report: &PairReport,
    list: &mut DrawList,
) {
    let (cam, rect) = (input.camera, input.rect);
    let AxisRing {
        centre,
        radius: ring,
        reach,
    } = axis_ring(cam, rect, (a, b), report);
    let margin = AXIS_MARGIN as f64 / cam.scale;
    // The other shapes a line could cross: found through the grid, near the line only.
    let (id_a, id_b) = (input.scene.shapes[pair.0].id, input.scene.shapes[pair.1].id);
    let others = |p: DVec2, q: DVec2| -> Vec<Rect> {
        let near = crate::broad::Aabb::new(p.min(q), p.max(q));
        let outside_pair = |s: &&crate::scene::SceneShape| s.id != id_a && s.id != id_b;
        let boxes: Vec<crate::broad::Aabb> = match input.grid {
            Some(grid) => grid
                .query(&near)
                .into_iter()
                .filter_map(|id| input.scene.get(ShapeId(id)))
                .filter(outside_pair)
                .map(|s| crate::broad::Aabb::of(&s.placed))
                .collect(),
            None => input
                .scene
                .shapes
                .iter()
                .filter(outside_pair)
                .map(|s| crate::broad::Aabb::of(&s.placed))
                .filter(|b| b.overlaps(&near))
                .collect(),
        };
        boxes
            .into_iter()
            .map(|b| Rect::from_two_points(cam.to_screen(rect, b.min), cam.to_screen(rect, b.max)))
            .collect()
    };
    // Lines already drawn: (unit direction, offset from the centre along its normal).
    let mut taken: Vec<(DVec2, f64)> = Vec::new();
    // The notes of repeated axes not in focus, told once for axes side by side.
    let mut repeats: Vec<Repeat> = Vec::new();
    let step = AXIS_STEP as f64 / cam.scale;
    for (k, t) in report.sat.axes.iter().enumerate().take(input.axes_seen) {
        let u = t.axis;
        let perp = left_perp(u);
        let whole = (t.a.min.min(t.b.min) - margin, t.a.max.max(t.b.max) + margin);
        let span = match reach {
            Some(r) => {
                let middle = t.a.between(&t.b).middle();
                (whole.0.max(middle - r), whole.1.min(middle + r))
            }
            None => whole,
        };
        // The point of the line at axis value `s`, on side `side` of the ring, `extra` out.
        let at = |side: f64, extra: f64, s: f64| {
            centre + perp * side * (ring + extra) + u * (s - centre.dot(u))
        };
        // How many other shapes the line would cross.
        let crosses = |side: f64, extra: f64| {
            let (wp, wq) = (at(side, extra, span.0), at(side, extra, span.1));
            let (p, q) = (cam.to_screen(rect, wp), cam.to_screen(rect, wq));
            others(wp, wq)
                .iter()
                .filter(|r| segment_hits_rect(p, q, **r))
                .count()
        };
        // Zoomed in, the ring is smaller than the pair: a line may cross A or B themselves,
        // which is worse than crossing another shape (it hides what it explains).
        let crosses_pair = |side: f64, extra: f64| {
            let (wp, wq) = (at(side, extra, span.0), at(side, extra, span.1));
            reach.is_some()
                && (crate::query::ray_cast(a, wp, wq).is_some()
                    || crate::query::ray_cast(b, wp, wq).is_some())
        };
        // Parallel axes (opposite edges of a box) would fall on one line: the later one
        // steps outward.
        let on_top = |side: f64, extra: f64| {
            let offset = side * (ring + extra);
            taken.iter().any(|(v, o)| {
                let d = v.dot(u);
                d.abs() > 0.999 && (o * d.signum() - offset).abs() < 0.5 * step
            })
        };
        let choices = (0..6).flat_map(|n| [(1.0, n as f64 * step), (-1.0, n as f64 * step)]);
        // A line may have to step well out to clear a large shape of the pair or its
        // neighbours: as far as the view goes (a line off screen shows nothing).
        let on_screen = |side: f64, extra: f64| {
            let middle = at(side, extra, 0.5 * (span.0 + span.1));
            rect.contains(cam.to_screen(rect, middle))
        };
        let far = (6..48)
            .flat_map(|n| [(1.0, n as f64 * step), (-1.0, n as f64 * step)])
            .filter(|(s, e)| on_screen(*s, *e));
        // The nearest place that crosses neither shape of the pair nor any other; else the one
        // that crosses the fewest (the pair's own shapes first: a line over them hides what it
        // explains).
        let mut best: Option<((bool, usize), (f64, f64))> = None;
        for (s, e) in choices.clone().chain(far).filter(|(s, e)| !on_top(*s, *e)) {
            let cost = (crosses_pair(s, e), crosses(s, e));
            if best.is_none_or(|(b, _)| cost < b) {
                best = Some((cost, (s, e)));
            }
            if cost == (false, 0) {
                // The nearest clear place: nothing further can be better.
                break;
            }
        }
        let (side, extra) = best
            .map(|(_, place)| place)
            .or_else(|| choices.clone().find(|(s, e)| !on_top(*s, *e)))
            .unwrap_or((1.0, 0.0));
        taken.push((u, side * (ring + extra)));
        let at = |s: f64| at(side, extra, s);
        let focused = input.focus_axis == Some(k);
        let role = match report.sat.role(k) {
            AxisRole::Deciding if !input.verdict_shown => {
                if t.separating {
                    AxisRole::Separating
                } else {
                    AxisRole::Overlapping
                }
            }
            role => role,
        };
        let colour = palette::axis_colour(role, palette::OVERLAPPING);
        // The axis in focus stands out; with many axes the others fade further.
        let alpha = if focused || input.focus_axis.is_none() {
            255
        } else if input.axes_seen > 8 {
            70
        } else {
            110
        };
        let line = [
            cam.to_screen(rect, at(span.0)),
            cam.to_screen(rect, at(span.1)),
        ];
        list.marks.push(segment(
            line[0],
            line[1],
            Stroke::new(if focused { 2.0 } else { 1.0 }, faded(colour, alpha / 2)),
        ));
        list.axis_segments.push((k, line));
        // Outward from the pair, on screen (y down).
        let out = perp * side;
        let screen_out = Vec2::new(out.x as f32, -out.y as f32);
        let bar = |i: crate::geometry::Interval,
                   shift: f32,
                   c: Colour,
                   width: f32,
                   list: &mut DrawList| {
            // Cut to the drawn stretch of the line.
            let (lo, hi) = (i.min.max(span.0), i.max.min(span.1));
            if lo > hi {
                return;
            }
            let p = cam.to_screen(rect, at(lo)) + screen_out * shift;
            let q = cam.to_screen(rect, at(hi)) + screen_out * shift;
            list.marks.push(segment(p, q, Stroke::new(width, c)));
        };
        let w = if focused { 6.0 } else { 4.0 };
        // A rounded polygon's span is its core's shadow widened by the radius at both ends:
        // the radius's share drawn thinner, so the SAT view shows what the rounding adds.
        let rounded = |p: &Placed| match &p.shape {
            crate::geometry::Shape::Polygon(q) if q.is_rounded() => q.radius(),
            _ => 0.0,
        };
        for (span_of, r, shift, c) in [
            (t.a, rounded(a), -4.0, palette::A),
            (t.b, rounded(b), 4.0, palette::B),
        ] {
            if r > 0.0 && span_of.max - span_of.min > 2.0 * r {
                let core = crate::geometry::Interval::new(span_of.min + r, span_of.max - r);
                bar(span_of, shift, faded(c, alpha), w * 0.4, list);
                bar(core, shift, faded(c, alpha), w, list);
            } else {
                bar(span_of, shift, faded(c, alpha), w, list);
            }
        }
        let between = t.a.between(&t.b);
        let shade = if t.overlap > 0.0 {
            palette::MTV
        } else {
            palette::SEPARATING
        };
        bar(between, 0.0, faded(shade, alpha), w - 1.0, list);
        if focused || role == AxisRole::Deciding || input.label_axes {
            // Outward from the bars by half the label's own extent in that direction, so
            // the text stands beside the bars, not on them.
            let (text, importance) = match report.sat.repeats(k) {
                // The axis in focus keeps its note whatever it costs.
                Some(first) => (
                    format!("#{} parallel to #{}", k + 1, first + 1),
                    if focused {
                        Importance::Focus
                    } else {
                        Importance::Repeat
                    },
                ),
                None => (
                    format!(
                        "#{} {}",
                        k + 1,
                        text::overlap_or_gap(report.sat.shown(t.overlap))
                    ),
                    if focused {
                        Importance::Focus
                    } else {
                        Importance::Axis
                    },
                ),
            };
            let size = crate::picture::labels::estimated_size(&text) * input.text_scale;
            let half = 0.5 * (size.x * screen_out.x.abs() + size.y * screen_out.y.abs());
            let bars = cam.to_screen(rect, at(between.middle()));
            let mid = bars + screen_out * (12.0 + half);
            let label = Label {
                at: mid,
                text,
                colour,
                importance,
                fixed: false,
                other_side: Some(bars - screen_out * (12.0 + half)),
                names: Some(line),
            };
            match report.sat.repeats(k) {
                Some(first) if !focused => repeats.push(Repeat {
                    axis: k,
                    first,
                    bars,
                    label,
                }),
                _ => list.labels.push(label),
            }
        }
    }
    list.labels.extend(repeat_labels(repeats, input.text_scale));
}

/// A repeated axis's note, before it is told: the axis, the one it repeats, where its bars
/// are (screen) and its own label.
struct Repeat {
    axis: usize,
    first: usize,
    bars: Vec2,
    label: Label,
}

/// Repeated axes whose bars stand this close (points, times the text's scale) share a note.
const SIDE_BY_SIDE: f32 = 60.0;

/// The notes of repeated axes: axes that repeat the same one with their bars side by side
/// share one note (`#3, #5, #7 parallel to #1`, beside the middle one), so each drawn axis is
/// named without three notes crowding where one fits.
fn repeat_labels(repeats: Vec<Repeat>, text_scale: f32) -> Vec<Label> {
    let mut groups: Vec<Vec<Repeat>> = Vec::new();
    for r in repeats {
        let near = groups.iter_mut().find(|g| {
            g[0].first == r.first
                && g.iter()
                    .any(|m| m.bars.distance(r.bars) <= SIDE_BY_SIDE * text_scale)
        });
        match near {
            Some(group) => group.push(r),
            None => groups.push(vec![r]),
        }
    }
    groups
        .into_iter()
        .map(|mut group| {
            if group.len() == 1 {
                return group.remove(0).label;
            }
            let axes: Vec<String> = group.iter().map(|m| format!("#{}", m.axis + 1)).collect();
            let middle = group.len() / 2;
            let mut label = group.swap_remove(middle).label;
            label.text = format!("{} parallel to #{}", axes.join(", "), group[0].first + 1);
            // One note for several axes names what no other label does: placed right after
            // the axis in focus, and kept, as its note is.
            label.importance = Importance::Focus;
            label
        })
        .collect()
}

/// Whether the segment `p`-`q` passes through `r` (screen).
pub(super) fn segment_hits_rect(p: Vec2, q: Vec2, r: Rect) -> bool {
    crate::picture::labels::clip(p, q, r).is_some()
}
