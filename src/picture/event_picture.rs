//! What the capture lab draws of one event, as plain data from its frames (docs/format.md,
//! "What happened over time"): a seam's face with the shape that covers it and the body's
//! velocity before and after; a tunnel's two straight paths with the shapes where they first
//! touch; a push through's centre path across the shape; a stale contact's shapes where the
//! engine last computed it; a flipped normal's two normals. The geometry is computed here;
//! the window only places it on the screen.

use crate::capture::CaptureEvent;
#[cfg(feature = "parallel")]
use crate::capture::ShownFrame;
use crate::geometry::{DVec2, Placed};
use crate::motion::EventKind;
#[cfg(feature = "parallel")]
use crate::query::{FACE_ANGLE, Velocity, distance, faces};
#[cfg(feature = "parallel")]
use crate::scene::Motion;
use crate::text::short_number;

/// What an arrow of an event's picture shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ArrowKind {
    /// The body's velocity in the event's frame (units per second).
    Before,
    /// Its velocity in the next frame.
    After,
    /// The claimed normal in the frame before (`normal-flip`).
    NormalBefore,
    /// The claimed normal in the frame (`normal-flip`).
    Normal,
}

/// An arrow of an event's picture: where it starts and the world vector drawn (velocities
/// scaled to the body's size, the size said by `value`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EventArrow {
    /// What it shows.
    pub kind: ArrowKind,
    /// Where it starts (world).
    pub from: DVec2,
    /// The vector drawn (world).
    pub vector: DVec2,
    /// The size it stands for: a speed (units per second), or 1 for a normal.
    pub value: f64,
    /// A seam's velocity: its speed along the floor (toward the face), as the event says it.
    pub along: Option<f64>,
}

/// One event drawn: everything is in world coordinates at the event's frame unless said.
#[derive(Clone, Debug, PartialEq)]
pub struct EventPicture {
    /// The event's kind.
    pub kind: EventKind,
    /// `seam`: the face the contact was on, start and end (drawn red).
    pub face: Option<(DVec2, DVec2)>,
    /// The shapes outlined: the one covering a seam's face, the one tunnelled or pushed
    /// through.
    pub outlined: Vec<Placed>,
    /// Velocities and normals.
    pub arrows: Vec<EventArrow>,
    /// Straight centre paths over the step, start to end.
    pub paths: Vec<(DVec2, DVec2)>,
    /// `tunnelled`: both shapes where they first touch; `stale`: the pair at the poses the
    /// contact belongs to.
    pub ghosts: Vec<Placed>,
    /// `tunnelled`: the point where they first touch.
    pub touch: Option<DVec2>,
    /// `seam` at a corner: the corner the contact met (drawn red).
    pub corner: Option<DVec2>,
    /// The capture's unit of length, for the arrows' words.
    pub units: String,
}

impl CaptureEvent {
    /// The frame besides its own that the event's picture needs: the next one (`seam`,
    /// `tunnelled`, `pushed-through`), the one whose poses a stale contact belongs to.
    pub fn other_frame(&self) -> Option<u64> {
        match self.kind {
            EventKind::Seam | EventKind::Tunnelled | EventKind::PushedThrough => {
                self.frame.checked_add(1)
            }
            EventKind::Stale => self.frame.checked_sub(self.age?),
            _ => None,
        }
    }
}

/// The shape with capture id `id` in `frame`, and how it moves.
#[cfg(feature = "parallel")]
fn shape(frame: &ShownFrame, id: u64) -> Option<(&Placed, &Motion)> {
    let k = frame.ids.iter().position(|i| *i == id)?;
    let s = frame.scene.shapes.get(k)?;
    Some((&s.placed, &s.motion))
}

/// The picture of `event`, from its frame and the frame [`CaptureEvent::other_frame`] names
/// (without it, what the event's own frame shows). `None` when its frame does not hold the
/// pair.
#[cfg(feature = "parallel")]
pub fn event_picture(
    event: &CaptureEvent,
    frame: &ShownFrame,
    other: Option<&ShownFrame>,
) -> Option<EventPicture> {
    let (a, _) = shape(frame, event.a)?;
    let (b, _) = shape(frame, event.b)?;
    let mut picture = EventPicture {
        kind: event.kind,
        face: None,
        outlined: Vec::new(),
        arrows: Vec::new(),
        paths: Vec::new(),
        ghosts: Vec::new(),
        touch: None,
        corner: event.corner,
        units: event.units.clone(),
    };
    let x = event.shape.unwrap_or(event.b);
    let later = |id: u64| other.and_then(|o| shape(o, id));
    match event.kind {
        EventKind::Seam => {
            let (px, mx) = shape(frame, x)?;
            let t = if x == event.a { b } else { a };
            let n = event.normal?;
            picture.face = seam_face(t, n, px);
            if let Some((u, _)) = event.covered_by.and_then(|u| shape(frame, u)) {
                picture.outlined.push(u.clone());
            }
            let v0 = mx.velocity;
            let after = later(x);
            seam_arrows(
                &mut picture,
                (px, v0, event.speed_before),
                after.map(|(p1, m)| (p1, m.velocity, event.speed_after)),
            );
        }
        EventKind::Tunnelled => {
            let (Some((a1, _)), Some((b1, _))) = (later(event.a), later(event.b)) else {
                picture
                    .outlined
                    .push(if x == event.a { b } else { a }.clone());
                return Some(picture);
            };
            for (start, end) in [(a, a1), (b, b1)] {
                picture.paths.push((start.pose.position, end.pose.position));
            }
            let t = event.t.unwrap_or(0.0);
            let at_touch = |start: &Placed, end: &Placed| {
                let velocity = Velocity {
                    linear: end.pose.position - start.pose.position,
                    angular: crate::capture::analysis::events::shortest_turn(
                        start.pose.angle(),
                        end.pose.angle(),
                    ),
                };
                Placed::new(start.shape.clone(), velocity.advance(start.pose, t))
            };
            let (ta, tb) = (at_touch(a, a1), at_touch(b, b1));
            picture.touch = distance(&ta, &tb)
                .closest
                .map(|c| c.point_a.lerp(c.point_b, 0.5));
            picture.ghosts = vec![ta, tb];
            picture
                .outlined
                .push(if x == event.a { b } else { a }.clone());
        }
        EventKind::PushedThrough => {
            let crossed = if x == event.a { b } else { a };
            picture.outlined.push(crossed.clone());
            if let (Some(from), Some(to)) = (event.from, event.to) {
                picture.paths.push((from, to));
            }
            if let Some((p1, _)) = later(x) {
                picture.ghosts.push(p1.clone());
            }
        }
        EventKind::Stale => {
            if let (Some((a0, _)), Some((b0, _))) = (later(event.a), later(event.b)) {
                picture.ghosts = vec![a0.clone(), b0.clone()];
            }
        }
        EventKind::NormalFlip => {
            let centre = a.pose.position.lerp(b.pose.position, 0.5);
            let size = a.shape.bounding_radius().min(b.shape.bounding_radius());
            for (kind, n) in [
                (ArrowKind::NormalBefore, event.normal_before),
                (ArrowKind::Normal, event.normal),
            ] {
                if let Some(n) = n {
                    picture.arrows.push(EventArrow {
                        kind,
                        from: centre,
                        vector: n * size,
                        value: 1.0,
                        along: None,
                    });
                }
            }
        }
        _ => {}
    }
    Some(picture)
}

/// A seam's face of `t`: the one whose outward normal is `n` (from `t` toward the body), the
/// nearest such to `body`. `None` for a corner seam (no face of `t` has that normal).
#[cfg(feature = "parallel")]
fn seam_face(t: &Placed, n: DVec2, body: &Placed) -> Option<(DVec2, DVec2)> {
    faces(t)
        .into_iter()
        .filter(|(_, _, out)| out.angle_to(n).abs() <= FACE_ANGLE)
        .min_by(|f, g| {
            let d =
                |(p, q, _): &(DVec2, DVec2, DVec2)| body.pose.position.distance(p.lerp(*q, 0.5));
            d(f).total_cmp(&d(g))
        })
        .map(|(p, q, _)| (p, q))
}

/// A seam's two velocity arrows: the body's before (where it was, with its velocity and its
/// speed along the floor as the event says it) and after, drawn to one scale.
#[cfg(feature = "parallel")]
fn seam_arrows(
    picture: &mut EventPicture,
    (p0, v0, along0): (&Placed, DVec2, Option<f64>),
    after: Option<(&Placed, DVec2, Option<f64>)>,
) {
    let v1 = after.map_or(DVec2::ZERO, |(_, v, _)| v);
    let scale = arrow_scale(p0, v0.length().max(v1.length()));
    picture.arrows.push(EventArrow {
        kind: ArrowKind::Before,
        from: p0.pose.position,
        vector: v0 * scale,
        value: v0.length(),
        along: along0,
    });
    if let Some((p1, v1, along1)) = after {
        picture.arrows.push(EventArrow {
            kind: ArrowKind::After,
            from: p1.pose.position,
            vector: v1 * scale,
            value: v1.length(),
            along: along1,
        });
    }
}

/// The picture of a motion run's `seam` event of step k, as the capture lab draws a capture's:
/// `before` is the run's scene at frame k - 1, `now` at frame k. The face of `face_of` the
/// contact's normal names (or the corner it met) in red, the shape that covers it outlined,
/// the body's velocity at frame k - 1 and at frame k. `None` for other kinds, or when a scene
/// does not hold the shapes.
#[cfg(feature = "parallel")]
pub fn run_event_picture(
    event: &crate::motion::Event,
    before: &crate::scene::Scene,
    now: &crate::scene::Scene,
) -> Option<EventPicture> {
    if event.kind != EventKind::Seam {
        return None;
    }
    let (x, t, n) = (event.shape?, event.face_of?, event.normal?);
    let (x0, x1) = (before.shapes.get(x)?, now.shapes.get(x)?);
    let face_of = &before.shapes.get(t)?.placed;
    let mut picture = EventPicture {
        kind: event.kind,
        face: seam_face(face_of, n, &x0.placed).filter(|_| event.corner.is_none()),
        outlined: event
            .covered_by
            .and_then(|u| before.shapes.get(u))
            .map(|u| u.placed.clone())
            .into_iter()
            .collect(),
        arrows: Vec::new(),
        paths: Vec::new(),
        ghosts: Vec::new(),
        touch: None,
        corner: event.corner,
        units: String::new(),
    };
    seam_arrows(
        &mut picture,
        (&x0.placed, x0.motion.velocity, event.speed_before),
        Some((&x1.placed, x1.motion.velocity, event.speed_after)),
    );
    Some(picture)
}

/// How long (world units per unit of speed) a velocity arrow is drawn: the faster of the two
/// as long as the body is across, so both arrows are seen beside it.
#[cfg(feature = "parallel")]
fn arrow_scale(body: &Placed, fastest: f64) -> f64 {
    let (lo, hi) = body.aabb();
    let across = (hi - lo).length().max(f64::MIN_POSITIVE);
    if fastest > 0.0 { across / fastest } else { 0.0 }
}

/// An arrow of an event's picture in words: `before: 6.5 m/s`, `normal before`.
pub fn event_arrow(arrow: &crate::picture::EventArrow, units: &str, at_corner: bool) -> String {
    use crate::picture::ArrowKind;
    // A seam's speed is along -normal: along the floor at a face, into the corner at a corner.
    let toward = if at_corner {
        "into the corner"
    } else {
        "along the floor"
    };
    let speed = |when: &str| {
        let unit = if units.is_empty() {
            String::new()
        } else {
            format!(" {units}/s")
        };
        match arrow.along {
            // The velocity has turned from the floor: both, the second as the event says it.
            Some(along) if (along - arrow.value).abs() > 1e-3 * arrow.value.max(1e-9) => format!(
                "{when}: {}{unit}, {} {toward}",
                short_number(arrow.value),
                short_number(along)
            ),
            _ => format!("{when}: {}{unit}", short_number(arrow.value)),
        }
    };
    match arrow.kind {
        ArrowKind::Before => speed("before"),
        ArrowKind::After => speed("after"),
        ArrowKind::NormalBefore => "normal, frame before".into(),
        ArrowKind::Normal => "normal now".into(),
    }
}
