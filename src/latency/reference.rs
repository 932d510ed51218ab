//! The one-pass reference: every packet known up front, every bucket row and (swept) every
//! interval between rows checked for every pair. Slow and plain; the engine must end with
//! exactly what it finds.

use super::engine::{Settings, buckets_in};
use super::findings::Finding;
use super::log::PacketLog;
use super::swept::swept_contact;
use super::track::{Sample, Track};
use crate::geometry::{Placed, Pose};
use crate::query::collide;

/// What one pass over all of `log`'s packets finds, sorted by [`Finding::order`].
pub fn one_pass(log: &PacketLog, settings: Settings) -> Vec<Finding> {
    let mut tracks = vec![Track::default(); log.players.len()];
    for p in &log.packets {
        tracks[p.player].insert(Sample {
            sent: p.sent,
            position: p.position,
            angle: p.angle,
        });
    }
    let mut placed: Vec<Placed> = log
        .players
        .iter()
        .map(|p| Placed::new(p.shape.clone(), Pose::IDENTITY))
        .collect();
    let ranges: Vec<(f64, f64)> = tracks.iter().filter_map(Track::range).collect();
    let Some(lo) = ranges.iter().map(|r| r.0).reduce(f64::min) else {
        return Vec::new();
    };
    let hi = ranges.iter().map(|r| r.1).fold(lo, f64::max);
    let step = settings.step_ms;
    let n = tracks.len();
    let mut found = Vec::new();
    let hit_at = |placed: &mut [Placed], a: usize, b: usize, t: f64| -> Option<bool> {
        placed[a].pose = tracks[a].pose_at(t)?;
        placed[b].pose = tracks[b].pose_at(t)?;
        Some(collide(&placed[a], &placed[b]).is_some())
    };
    for k in buckets_in(lo, hi, step) {
        let t = k as f64 * step;
        for a in 0..n {
            for b in a + 1..n {
                if hit_at(&mut placed, a, b, t) == Some(true) {
                    found.push(Finding {
                        a,
                        b,
                        time: t,
                        between: None,
                    });
                }
            }
        }
        if !settings.swept {
            continue;
        }
        let t1 = (k + 1) as f64 * step;
        for a in 0..n {
            for b in a + 1..n {
                if !(tracks[a].covers(t, t1) && tracks[b].covers(t, t1)) {
                    continue;
                }
                if hit_at(&mut placed, a, b, t) == Some(true)
                    || hit_at(&mut placed, a, b, t1) == Some(true)
                {
                    continue;
                }
                let (left, right) = placed.split_at_mut(b);
                if let Some(time) =
                    swept_contact(&mut left[a], &tracks[a], &mut right[0], &tracks[b], t, t1)
                {
                    found.push(Finding {
                        a,
                        b,
                        time,
                        between: Some([t, t1]),
                    });
                }
            }
        }
    }
    found.sort_by(Finding::order);
    found
}
