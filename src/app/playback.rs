//! One playback for every timeline in the window (the motion lab's frames, the latency lab's
//! packets, and any later one): play and pause, step, speed, loop and scrub, always clamped to
//! the timeline, driven by [`PlaybackCommand`]s applied in one place ([`Playback::apply`]), as
//! rerun's time panel drives its `TimeControl`. A timeline widget reads the playback and
//! pushes commands; it never changes the position itself.
//!
//! A timeline is a row of stops `0..=last`, each at a time in the timeline's own unit
//! ([`Timeline`]): frame k of a run at `k * dt` seconds; the k-th packet's arrival in ms.
//! Playing moves a clock at `speed` times real time and shows the last stop the clock has
//! reached.

/// The stops a playback moves over.
pub trait Timeline {
    /// The last stop (the first is 0).
    fn last(&self) -> u64;
    /// When stop `k` is reached, in the timeline's unit; never decreasing with `k`.
    fn time_of(&self, k: u64) -> f64;
    /// How many of the timeline's units pass in one second of real time at speed 1.
    fn units_per_second(&self) -> f64;
}

/// What a timeline widget, a key or a test asks of a playback.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlaybackCommand {
    /// Play when paused (from the start when at the end), pause when playing.
    Toggle,
    /// Show the first stop (and pause).
    First,
    /// Show the stop before (and pause).
    Back,
    /// Show the stop after (and pause).
    Forward,
    /// Show the last stop (and pause).
    Last,
    /// Show stop k, clamped to the timeline (and pause).
    Seek(u64),
    /// Play at this many times real time.
    Speed(f64),
    /// Start again from the first stop after the last one, or stop there.
    Loop(bool),
}

/// Where a timeline is and how it plays.
#[derive(Clone, Debug, PartialEq)]
pub struct Playback {
    /// The stop shown.
    pub position: u64,
    /// Whether the clock runs.
    pub playing: bool,
    /// Times real time.
    pub speed: f64,
    /// Whether playing past the last stop starts again from the first.
    pub looped: bool,
    /// The timeline time reached while playing.
    clock: f64,
}

impl Playback {
    /// At stop 0, paused, at `speed`.
    pub fn new(speed: f64) -> Self {
        Self {
            position: 0,
            playing: false,
            speed,
            looped: false,
            clock: 0.0,
        }
    }

    /// Carry out `command` on `timeline`.
    pub fn apply(&mut self, command: PlaybackCommand, timeline: &impl Timeline) {
        let last = timeline.last();
        match command {
            PlaybackCommand::Toggle => {
                if !self.playing && self.position >= last {
                    self.position = 0;
                }
                self.playing = !self.playing;
                self.clock = timeline.time_of(self.position.min(last));
            }
            PlaybackCommand::First => self.seek(0, timeline),
            PlaybackCommand::Back => self.seek(self.position.saturating_sub(1), timeline),
            PlaybackCommand::Forward => self.seek(self.position.saturating_add(1), timeline),
            PlaybackCommand::Last => self.seek(last, timeline),
            PlaybackCommand::Seek(k) => self.seek(k, timeline),
            PlaybackCommand::Speed(speed) => {
                if speed.is_finite() && speed > 0.0 {
                    self.speed = speed;
                }
            }
            PlaybackCommand::Loop(looped) => self.looped = looped,
        }
    }

    /// Keep the position on `timeline` (which may have become shorter).
    pub fn clamp(&mut self, timeline: &impl Timeline) {
        self.position = self.position.min(timeline.last());
    }

    /// Let `elapsed` seconds of real time pass: while playing, show the last stop the clock
    /// has reached; at the end, start again (looped) or pause.
    pub fn advance(&mut self, elapsed: f64, timeline: &impl Timeline) {
        self.clamp(timeline);
        if !self.playing {
            return;
        }
        let last = timeline.last();
        self.clock += elapsed * self.speed * timeline.units_per_second();
        loop {
            let end = timeline.time_of(last);
            if self.clock < end || last == 0 {
                break;
            }
            if self.looped {
                // The time past the end carries over into the next round.
                let start = timeline.time_of(0);
                let round = end - start;
                self.clock = if round > 0.0 {
                    start + (self.clock - end) % round
                } else {
                    start
                };
                self.position = 0;
                if round <= 0.0 {
                    break;
                }
            } else {
                self.position = last;
                self.playing = false;
                return;
            }
        }
        // The last stop whose time the clock has reached (stops in time order).
        let (mut lo, mut hi) = (self.position.min(last), last);
        if timeline.time_of(lo) > self.clock {
            lo = 0;
        }
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if timeline.time_of(mid) <= self.clock {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        self.position = lo;
    }

    fn seek(&mut self, k: u64, timeline: &impl Timeline) {
        self.position = k.min(timeline.last());
        self.playing = false;
        self.clock = timeline.time_of(self.position);
    }
}

/// Evenly spaced frames as a timeline: frame k at `k * dt` seconds, `0..=last` (a run).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frames {
    /// The last frame.
    pub last: u64,
    /// Seconds from one frame to the next.
    pub dt: f64,
}

impl Timeline for Frames {
    fn last(&self) -> u64 {
        self.last
    }

    fn time_of(&self, k: u64) -> f64 {
        k as f64 * self.dt
    }

    fn units_per_second(&self) -> f64 {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packets arriving at irregular times (ms); stop k: k packets arrived.
    struct Arrivals(Vec<f64>);

    impl Timeline for Arrivals {
        fn last(&self) -> u64 {
            self.0.len() as u64
        }
        fn time_of(&self, k: u64) -> f64 {
            match k {
                0 => self.0[0] - 1.0,
                k => self.0[k as usize - 1],
            }
        }
        fn units_per_second(&self) -> f64 {
            1000.0
        }
    }

    #[test]
    fn stepping_and_seeking_are_clamped_and_pause() {
        let frames = Frames { last: 10, dt: 0.1 };
        let mut p = Playback::new(1.0);
        p.apply(PlaybackCommand::Back, &frames);
        assert_eq!(p.position, 0);
        p.apply(PlaybackCommand::Seek(99), &frames);
        assert_eq!(p.position, 10);
        p.apply(PlaybackCommand::Forward, &frames);
        assert_eq!(p.position, 10);
        p.apply(PlaybackCommand::Toggle, &frames);
        assert!(p.playing);
        assert_eq!(p.position, 0, "play at the end starts again");
        p.apply(PlaybackCommand::Forward, &frames);
        assert!(!p.playing);
        assert_eq!(p.position, 1);
        p.apply(PlaybackCommand::Speed(-2.0), &frames);
        assert_eq!(p.speed, 1.0, "a speed that is not positive is ignored");
    }

    #[test]
    fn playing_shows_the_last_stop_reached_and_stops_or_loops_at_the_end() {
        let frames = Frames { last: 10, dt: 0.1 };
        let mut p = Playback::new(2.0);
        p.apply(PlaybackCommand::Toggle, &frames);
        p.advance(0.26, &frames);
        assert_eq!(p.position, 5, "0.52 s of frames at 2x");
        p.advance(1.0, &frames);
        assert_eq!((p.position, p.playing), (10, false));
        p.apply(PlaybackCommand::Loop(true), &frames);
        p.apply(PlaybackCommand::Toggle, &frames);
        p.advance(0.55, &frames);
        assert!(p.playing);
        assert_eq!(
            p.position, 1,
            "1.1 s past 0: round of 1 s, 0.1 s into the next"
        );
    }

    #[test]
    fn a_timeline_of_arrivals_plays_in_its_own_unit() {
        let arrivals = Arrivals(vec![100.0, 130.0, 130.0, 400.0]);
        let mut p = Playback::new(0.25);
        p.apply(PlaybackCommand::Toggle, &arrivals);
        p.advance(0.02, &arrivals);
        assert_eq!(p.position, 1, "at 104 ms: the first packet arrived");
        p.advance(0.12, &arrivals);
        assert_eq!(p.position, 3, "at 134 ms: both packets of 130 ms arrived");
        p.advance(10.0, &arrivals);
        assert_eq!((p.position, p.playing), (4, false));
        // A shorter timeline (another log) keeps the position on it.
        p.clamp(&Arrivals(vec![5.0]));
        assert_eq!(p.position, 1);
    }
}
