//! What the capture lab draws of one event, as plain data from its frames (docs/format.md,
//! "What happened over time"): a seam's face with the shape that covers it and the body's
//! velocity before and after; a tunnel's two straight paths with the shapes where they first
//! touch; a push through's centre path across the shape; a stale contact's shapes where the
//! engine last computed it; a flipped normal's two normals. The geometry is computed here;
//! the window only places it on the screen.

use crate::capture::CaptureEvent;
#[cfg(feature = "parallel")]
use crate::capture::ShownFrame;
use crate::event::EventKind;
#[cfg(feature = "parallel")]
use crate::event::{Event, Source, Through, What};
use crate::geometry::{DVec2, Placed};
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
        match self.kind() {
            EventKind::Seam | EventKind::Tunnelled | EventKind::PushedThrough => {
                self.frame().checked_add(1)
            }
            EventKind::Stale => self.frame().checked_sub(self.age()?),
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

/// Where a shape of an event is, and how it moves, in one of the frames its picture needs.
#[cfg(feature = "parallel")]
type Find<'f, Id> = &'f dyn Fn(Id) -> Option<(&'f Placed, &'f Motion)>;

/// The picture of `event`, from its own frame (`at`: for a simulation's event of step k, the
/// scene at frame k - 1) and the other frame it needs (`later`: the next frame; the earlier one a
/// stale contact belongs to). `None` when its frame does not hold the pair.
#[cfg(feature = "parallel")]
fn picture_of<S: Source>(
    event: &Event<S>,
    at: Find<'_, S::Id>,
    later: Find<'_, S::Id>,
) -> Option<EventPicture> {
    let (a, _) = at(event.a)?;
    let (b, _) = at(event.b)?;
    let mut picture = EventPicture {
        kind: event.kind(),
        face: None,
        outlined: Vec::new(),
        arrows: Vec::new(),
        paths: Vec::new(),
        ghosts: Vec::new(),
        touch: None,
        corner: event.seam().and_then(|s| s.corner).map(|c| c.corner),
        units: event.units.clone(),
    };
    let x = event.shape().unwrap_or(event.b);
    let other_of = |x: S::Id| if x == event.a { b } else { a };
    match &event.what {
        What::Seam(seam) => {
            let (px, mx) = at(x)?;
            let face_of = at(seam.face_of).map_or(other_of(x), |(t, _)| t);
            picture.face = seam_face(face_of, seam.normal, px).filter(|_| seam.corner.is_none());
            if let Some((u, _)) = at(seam.covered_by) {
                picture.outlined.push(u.clone());
            }
            seam_arrows(
                &mut picture,
                (px, mx.velocity, seam.speed_before),
                later(x).map(|(p1, m)| (p1, m.velocity, seam.speed_after)),
            );
        }
        What::Tunnelled { through, .. } => {
            let (Some((a1, _)), Some((b1, _))) = (later(event.a), later(event.b)) else {
                picture.outlined.push(other_of(x).clone());
                return Some(picture);
            };
            for (start, end) in [(a, a1), (b, b1)] {
                picture.paths.push((start.pose.position, end.pose.position));
            }
            let t = match *through {
                Through::Step { t, .. } => t,
                Through::Substep { enter, dt, .. } => enter / dt,
            };
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
            picture.outlined.push(other_of(x).clone());
        }
        What::PushedThrough { from, to, .. } => {
            picture.outlined.push(other_of(x).clone());
            picture.paths.push((*from, *to));
            if let Some((p1, _)) = later(x) {
                picture.ghosts.push(p1.clone());
            }
        }
        What::Stale { .. } => {
            if let (Some((a0, _)), Some((b0, _))) = (later(event.a), later(event.b)) {
                picture.ghosts = vec![a0.clone(), b0.clone()];
            }
        }
        What::NormalFlip {
            normal_before,
            normal,
        } => {
            let centre = a.pose.position.lerp(b.pose.position, 0.5);
            let size = a.shape.bounding_radius().min(b.shape.bounding_radius());
            for (kind, n) in [
                (ArrowKind::NormalBefore, *normal_before),
                (ArrowKind::Normal, *normal),
            ] {
                picture.arrows.push(EventArrow {
                    kind,
                    from: centre,
                    vector: n * size,
                    value: 1.0,
                    along: None,
                });
            }
        }
        _ => {}
    }
    Some(picture)
}

/// The picture of a capture's `event`, from its frame and the frame
/// [`CaptureEvent::other_frame`] names (without it, what the event's own frame shows). `None`
/// when its frame does not hold the pair.
#[cfg(feature = "parallel")]
pub fn event_picture(
    event: &CaptureEvent,
    frame: &ShownFrame,
    other: Option<&ShownFrame>,
) -> Option<EventPicture> {
    picture_of(event, &|id| shape(frame, id), &|id| {
        other.and_then(|o| shape(o, id))
    })
}

/// The picture of a motion run's `seam` event of step k, as the capture lab draws a capture's:
/// `before` is the run's scene at frame k - 1, `now` at frame k. The face of `face_of` the
/// contact's normal names (or the corner it met) in red, the shape that covers it outlined,
/// the body's velocity at frame k - 1 and at frame k. `None` for other kinds (the motion lab
/// draws a tunnel or a push through as its sweeps), or when a scene does not hold the shapes.
#[cfg(feature = "parallel")]
pub fn run_event_picture(
    event: &crate::motion::Event,
    before: &crate::scene::Scene,
    now: &crate::scene::Scene,
) -> Option<EventPicture> {
    if event.kind() != EventKind::Seam {
        return None;
    }
    picture_of(event, &|k| in_scene(before, k), &|k| in_scene(now, k))
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
    (p0, v0, along0): (&Placed, DVec2, f64),
    after: Option<(&Placed, DVec2, f64)>,
) {
    let v1 = after.map_or(DVec2::ZERO, |(_, v, _)| v);
    let scale = arrow_scale(p0, v0.length().max(v1.length()));
    picture.arrows.push(EventArrow {
        kind: ArrowKind::Before,
        from: p0.pose.position,
        vector: v0 * scale,
        value: v0.length(),
        along: Some(along0),
    });
    if let Some((p1, v1, along1)) = after {
        picture.arrows.push(EventArrow {
            kind: ArrowKind::After,
            from: p1.pose.position,
            vector: v1 * scale,
            value: v1.length(),
            along: Some(along1),
        });
    }
}

/// The shape at list position `k` of `scene`, and how it moves.
#[cfg(feature = "parallel")]
fn in_scene(scene: &crate::scene::Scene, k: usize) -> Option<(&Placed, &Motion)> {
    scene.shapes.get(k).map(|s| (&s.placed, &s.motion))
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
