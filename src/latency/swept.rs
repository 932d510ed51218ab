//! Contacts between two bucket times: the players move along their interpolated tracks
//! (straight, turning at a constant rate, between consecutive packets), and the time of impact
//! finds their first contact piece by piece.

use super::track::Track;
use crate::broad::Aabb;
use crate::geometry::{DVec2, Placed, Pose, Shape};
use crate::query::{ToiState, Velocity, time_of_impact};

/// A box that holds a player over an interval: its positions at both ends and at every packet
/// between, grown by the farthest any point of the shape is from its position (so turning is
/// covered too).
#[derive(Clone, Copy, Debug)]
pub struct SweptBox(Aabb);

impl SweptBox {
    /// The box of `track` (with `shape`) over `[t0, t1]`, which it must cover.
    pub fn of(track: &Track, shape: &Shape, t0: f64, t1: f64) -> Self {
        let at = |t: f64| track.state_at(t).map_or(DVec2::ZERO, |(p, _)| p);
        let (p0, p1) = (at(t0), at(t1));
        let (mut lo, mut hi) = (p0.min(p1), p0.max(p1));
        for sent in track.breaks_between(t0, t1) {
            let p = at(sent);
            lo = lo.min(p);
            hi = hi.max(p);
        }
        let reach = shape.local_centre().length() + shape.bounding_radius();
        SweptBox(Aabb::new(lo, hi).grown(reach))
    }

    /// Whether two boxes meet.
    pub fn meets(&self, other: &SweptBox) -> bool {
        self.0.overlaps(&other.0)
    }
}

/// The first contact of two players in `[t0, t1]` along their tracks (both must cover it),
/// or `None`. Each piece between consecutive packet times of either player is one motion of
/// constant velocity and spin, given to the time of impact; a piece that starts overlapped
/// (its contact fell between the pieces' rounding) reports its start.
pub fn swept_contact(
    a: &mut Placed,
    track_a: &Track,
    b: &mut Placed,
    track_b: &Track,
    t0: f64,
    t1: f64,
) -> Option<f64> {
    let mut breaks: Vec<f64> = track_a
        .breaks_between(t0, t1)
        .chain(track_b.breaks_between(t0, t1))
        .collect();
    breaks.sort_by(f64::total_cmp);
    breaks.dedup();
    let ends = std::iter::once(t0).chain(breaks).chain(std::iter::once(t1));
    let mut from = None;
    for u1 in ends {
        let Some(u0) = from.replace(u1) else { continue };
        let span = u1 - u0;
        let motion = |track: &Track| -> Option<(Pose, Velocity)> {
            let (p0, a0) = track.state_at(u0)?;
            let (p1, a1) = track.state_at(u1)?;
            Some((
                Pose::new(p0, a0),
                Velocity {
                    linear: (p1 - p0) / span,
                    angular: (a1 - a0) / span,
                },
            ))
        };
        let (Some((pose_a, va)), Some((pose_b, vb))) = (motion(track_a), motion(track_b)) else {
            return None;
        };
        a.pose = pose_a;
        b.pose = pose_b;
        let toi = time_of_impact(a, va, b, vb, span);
        match toi.state {
            ToiState::Hit => return Some((u0 + toi.toi.unwrap_or(0.0)).min(u1)),
            ToiState::Overlapped => return Some(u0),
            ToiState::Separated => {}
        }
    }
    None
}
