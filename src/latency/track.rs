//! A player's track: its packets ordered by the time they were sent, and its pose at any time
//! between the first and the last (linear in position and angle, never extrapolated).

use crate::geometry::{DVec2, Pose};

/// One known pose: what a packet said.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// When it was sent (ms).
    pub sent: f64,
    /// Where the player was then.
    pub position: DVec2,
    /// Its angle then (radians).
    pub angle: f64,
}

/// How a player's pose at some time is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Knowledge {
    /// A packet was sent at exactly that time.
    Received,
    /// Between two packets.
    Interpolated,
    /// Before the first packet or after the last: no pose.
    Unknown,
}

/// The packets of one player, ordered by `sent`.
#[derive(Clone, Debug, Default)]
pub struct Track {
    samples: Vec<Sample>,
}

impl Track {
    /// The packets so far, by `sent`.
    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }

    /// Add a packet. Returns the span of times whose pose it changed: from the packet before
    /// it (by `sent`) to the one after it, or to the packet itself where there is none; `None`
    /// when a packet with the same `sent` is already known (the later one is ignored).
    pub fn insert(&mut self, sample: Sample) -> Option<(f64, f64)> {
        // Packets mostly come in order: look at the end first.
        let at = match self.samples.last() {
            Some(last) if last.sent < sample.sent => self.samples.len(),
            _ => match self
                .samples
                .binary_search_by(|s| s.sent.total_cmp(&sample.sent))
            {
                Ok(_) => return None,
                Err(at) => at,
            },
        };
        let lo = at
            .checked_sub(1)
            .map_or(sample.sent, |i| self.samples[i].sent);
        let hi = self.samples.get(at).map_or(sample.sent, |s| s.sent);
        self.samples.insert(at, sample);
        Some((lo, hi))
    }

    /// Take back the packet sent at `sent` (one just inserted that the engine then refused).
    pub(super) fn remove(&mut self, sent: f64) {
        if let Ok(at) = self.samples.binary_search_by(|s| s.sent.total_cmp(&sent)) {
            self.samples.remove(at);
        }
    }

    /// The first and last `sent`, when there is a packet.
    pub fn range(&self) -> Option<(f64, f64)> {
        Some((self.samples.first()?.sent, self.samples.last()?.sent))
    }

    /// Whether the track has a pose at every time of `[t0, t1]`.
    pub fn covers(&self, t0: f64, t1: f64) -> bool {
        self.range().is_some_and(|(lo, hi)| lo <= t0 && t1 <= hi)
    }

    /// The pose at `t`: a packet's own at its `sent`, else interpolated between the two
    /// packets around `t`; `None` outside the track.
    pub fn pose_at(&self, t: f64) -> Option<Pose> {
        let (position, angle) = self.state_at(t)?;
        Some(Pose::new(position, angle))
    }

    /// How the pose at `t` is known.
    pub fn knowledge_at(&self, t: f64) -> Knowledge {
        match self.search(t) {
            Ok(_) => Knowledge::Received,
            Err(at) if at > 0 && at < self.samples.len() => Knowledge::Interpolated,
            Err(_) => Knowledge::Unknown,
        }
    }

    /// The position and angle at `t` (see [`Track::pose_at`]).
    pub fn state_at(&self, t: f64) -> Option<(DVec2, f64)> {
        match self.search(t) {
            Ok(i) => {
                let s = &self.samples[i];
                Some((s.position, s.angle))
            }
            Err(at) if at > 0 && at < self.samples.len() => {
                let (p, q) = (&self.samples[at - 1], &self.samples[at]);
                let f = (t - p.sent) / (q.sent - p.sent);
                Some((
                    p.position + (q.position - p.position) * f,
                    p.angle + (q.angle - p.angle) * f,
                ))
            }
            Err(_) => None,
        }
    }

    /// The `sent` times strictly between `t0` and `t1`.
    pub fn breaks_between(&self, t0: f64, t1: f64) -> impl Iterator<Item = f64> + '_ {
        let from = self.samples.partition_point(|s| s.sent <= t0);
        self.samples[from..]
            .iter()
            .map(|s| s.sent)
            .take_while(move |s| *s < t1)
    }

    fn search(&self, t: f64) -> Result<usize, usize> {
        // Most questions are about recent times: try the last two packets first.
        let n = self.samples.len();
        if n >= 2 && self.samples[n - 2].sent < t && t < self.samples[n - 1].sent {
            return Err(n - 1);
        }
        self.samples.binary_search_by(|s| s.sent.total_cmp(&t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(sent: f64, x: f64) -> Sample {
        Sample {
            sent,
            position: DVec2::new(x, 0.0),
            angle: 0.0,
        }
    }

    #[test]
    fn spans_reach_the_neighbours_and_duplicates_are_ignored() {
        let mut t = Track::default();
        assert_eq!(t.insert(sample(50.0, 5.0)), Some((50.0, 50.0)));
        assert_eq!(t.insert(sample(100.0, 10.0)), Some((50.0, 100.0)));
        assert_eq!(t.insert(sample(10.0, 1.0)), Some((10.0, 50.0)));
        assert_eq!(t.insert(sample(75.0, 0.0)), Some((50.0, 100.0)));
        assert_eq!(t.insert(sample(75.0, 99.0)), None);
        let sents: Vec<f64> = t.samples().iter().map(|s| s.sent).collect();
        assert_eq!(sents, [10.0, 50.0, 75.0, 100.0]);
        assert_eq!(t.pose_at(75.0).unwrap().position.x, 0.0);
        assert_eq!(t.pose_at(30.0).unwrap().position.x, 3.0);
        assert_eq!(t.pose_at(87.5).unwrap().position.x, 5.0);
        assert_eq!(t.pose_at(9.0), None);
        assert_eq!(t.pose_at(101.0), None);
        assert_eq!(t.knowledge_at(50.0), Knowledge::Received);
        assert_eq!(t.knowledge_at(60.0), Knowledge::Interpolated);
        assert_eq!(t.knowledge_at(0.0), Knowledge::Unknown);
        let breaks: Vec<f64> = t.breaks_between(10.0, 100.0).collect();
        assert_eq!(breaks, [50.0, 75.0]);
        assert!(t.covers(10.0, 100.0) && !t.covers(0.0, 20.0));
    }
}
