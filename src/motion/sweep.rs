//! What a step of a run covered, for drawing it: every body that moved more than its inner
//! radius (the tunnelling bound's r) with the region it swept, and every body that passed
//! through a shape or was pushed out through one (an event of that step). Read from a
//! recording through a [`Cursor`], which decodes each block of frames once.

use super::events::Event;
use super::recording::{BodyState, Recording};
use crate::event::{EventKind, Through, What};
use crate::geometry::{DVec2, Placed, Pose, Rounded};
use crate::query::{convex_hull, inner_radius};
use crate::scene::Scene;

/// A body's sweep over one step of a run: where it was, what it covered, and, when it
/// passed through a shape, that shape and its tunnelling bound.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    /// The body before the step (world outline).
    pub before: Vec<DVec2>,
    /// The region it covered (world outline).
    pub covered: Vec<DVec2>,
    /// Where the label goes (world): the body after the step.
    pub at: DVec2,
    /// The shape it passed through (list position), the step and its largest safe step.
    pub tunnelled: Option<(usize, f64, f64)>,
    /// The shape the resolver pushed it out through (list position), and its centre at the
    /// start of the step and after the resolution.
    pub pushed_through: Option<(usize, DVec2, DVec2)>,
}

/// Reading a recording's frames one after another (as playing and scrubbing do): the block
/// of frames the last one came from stays decoded.
#[derive(Clone, Debug, Default)]
pub struct Cursor {
    /// The decoded block: its first frame and the states of its frames.
    block: Option<(u64, Vec<Vec<BodyState>>)>,
    /// The block decoded before it, kept for a step across two blocks ([`Cursor::step`]).
    earlier: Option<(u64, Vec<Vec<BodyState>>)>,
    /// Frame 0's states (the scene's own), once asked by [`Cursor::step`].
    start: Option<Vec<BodyState>>,
}

/// Frame `k`'s states in a decoded `block`, if it holds them.
fn in_block(block: &Option<(u64, Vec<Vec<BodyState>>)>, k: u64) -> Option<&[BodyState]> {
    let (first, frames) = block.as_ref()?;
    let at = k.checked_sub(*first)?;
    frames.get(usize::try_from(at).ok()?).map(Vec::as_slice)
}

impl Cursor {
    /// The bodies' states before and after step `k` of `recording` (frames `k - 1` and `k`),
    /// borrowed where they are decoded, not copied: what playing a run shows each frame.
    /// Decodes the blocks holding them when they are not held (the two last decoded stay:
    /// a step across two blocks reads one frame from each). `None` for a frame that is not
    /// there (before 0, past the end).
    pub fn step(
        &mut self,
        recording: &Recording,
        k: u64,
    ) -> (Option<&[BodyState]>, Option<&[BodyState]>) {
        // Frame `k`'s block first, so that decoding the block of `k - 1` after it keeps it.
        self.hold(recording, k, true);
        if let Some(before) = k.checked_sub(1) {
            self.hold(recording, before, false);
        }
        (k.checked_sub(1).and_then(|j| self.held(j)), self.held(k))
    }

    /// The bodies' states at frame `k` of `recording` (decoding the block holding it when it
    /// is not held); `None` past the end.
    pub fn states(&mut self, recording: &Recording, k: u64) -> Option<Vec<BodyState>> {
        self.hold(recording, k, true);
        self.held(k).map(<[BodyState]>::to_vec)
    }

    /// Frame `frame` made held: frame 0 kept once, any other's block decoded unless one of
    /// the two held has it. The block of a `first` frame becomes the held one (the other
    /// place keeps the block it replaced); any other goes to the other place.
    fn hold(&mut self, recording: &Recording, frame: u64, first: bool) {
        if frame == 0 {
            if self.start.is_none() {
                self.start = recording.frame(0);
            }
            return;
        }
        if in_block(&self.block, frame).is_some() {
            return;
        }
        if in_block(&self.earlier, frame).is_some() {
            if first {
                std::mem::swap(&mut self.block, &mut self.earlier);
            }
            return;
        }
        let Some(decoded) = recording.block_of(frame) else {
            return;
        };
        if first {
            self.earlier = self.block.replace(decoded);
        } else {
            self.earlier = Some(decoded);
        }
    }

    /// Frame `frame`'s states where they are held, if they are.
    fn held(&self, frame: u64) -> Option<&[BodyState]> {
        if frame == 0 {
            self.start.as_deref()
        } else {
            in_block(&self.block, frame).or_else(|| in_block(&self.earlier, frame))
        }
    }
}

/// One step of a run, as the bodies' states before and after it.
pub struct Step<'a> {
    /// The bodies (list positions), in the states' order.
    pub bodies: &'a [usize],
    /// The states before the step.
    pub before: &'a [BodyState],
    /// The states after it.
    pub now: &'a [BodyState],
    /// The events of the run (those of other steps are passed over).
    pub events: &'a [Event],
    /// The step (its frame).
    pub step: u64,
    /// The step's length (s).
    pub dt: f64,
}

/// The sweeps of `step` over `scene` (at the frame after it): every body that moved more than
/// its inner radius, and every one that passed through a shape (an event of that step).
pub fn sweeps(scene: &Scene, step: &Step) -> Vec<Sweep> {
    let of_kind = |kind: EventKind| -> Vec<&Event> {
        step.events
            .iter()
            .filter(|e| e.step() == step.step && e.kind() == kind)
            .collect()
    };
    let (tunnels, pushes) = (
        of_kind(EventKind::Tunnelled),
        of_kind(EventKind::PushedThrough),
    );
    step.bodies
        .iter()
        .zip(step.before.iter().zip(step.now))
        .filter_map(|(&i, (b, a))| {
            let shape = &scene.shapes[i].placed.shape;
            let moved = b.position.distance(a.position);
            let tunnel = tunnels.iter().find(|e| e.shape() == Some(i));
            let push = pushes.iter().find(|e| e.shape() == Some(i));
            if tunnel.is_none() && push.is_none() && moved <= inner_radius(shape) {
                return None;
            }
            let outline = |s: &BodyState| {
                let placed = Placed::new(shape.clone(), Pose::new(s.position, s.angle));
                Rounded::new(&placed, DVec2::ZERO).outline_with(32)
            };
            let (from, to) = (outline(b), outline(a));
            let covered = convex_hull(from.iter().chain(&to).copied().collect());
            Some(Sweep {
                before: from,
                covered,
                at: a.position,
                tunnelled: tunnel.map(|e| {
                    let wall = if e.a == i { e.b } else { e.a };
                    let (dt, safe_dt) = match e.what {
                        What::Tunnelled {
                            through: Through::Substep { dt, safe_dt, .. },
                            ..
                        } => (dt, safe_dt),
                        _ => (step.dt, None),
                    };
                    (wall, dt, safe_dt.unwrap_or(f64::NAN))
                }),
                pushed_through: push.and_then(|e| {
                    let other = if e.a == i { e.b } else { e.a };
                    match e.what {
                        What::PushedThrough { from, to, .. } => Some((other, from, to)),
                        _ => None,
                    }
                }),
            })
        })
        .collect()
}
