//! Recordings: every step's poses and velocities and every event of a run, compact enough for
//! long runs, and replayed bit for bit.
//!
//! A recording file is one line of JSON (the header: the scene at time 0 as a shape-set file,
//! the configuration, the number of steps, the bodies that may move, where each block of
//! frames starts, and the events), a newline, then the frames in binary. Only bodies that may
//! move (kinematic and dynamic) are stored, five numbers each per step (x, y, angle, vx, vy:
//! the angular velocity never changes). Each number is stored exactly, as its 64 bits less a
//! prediction from the two frames before (the same change as last step: for a body moving
//! steadily the bits barely differ), the difference zigzag-encoded as a variable-length
//! integer, and a per-body byte saying which of the five differ from the prediction at all (a
//! body at rest costs one byte). Every [`KEYFRAME_EVERY`] frames the prediction starts again,
//! so any frame is decoded from the block holding it.

mod codec;
mod file;

use super::config::{Config, ConfigError, ConfigRecord};
use super::events::Event;
use super::simulation::Simulation;
use crate::files::{FileError, Problem, write_atomically};
use crate::geometry::DVec2;
use crate::scene::{self, Body, Scene};
use codec::{Reader, predict, put_varint, unzigzag, zigzag};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// How many frames share one prediction chain.
pub const KEYFRAME_EVERY: u64 = 64;
/// What the header's `format` says.
const FORMAT: &str = "collidoscope-recording";
/// The version of the recording format this build writes and reads.
const VERSION: u64 = 1;

/// A body's state at the end of a step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyState {
    /// Its position.
    pub position: DVec2,
    /// Its angle (radians).
    pub angle: f64,
    /// Its velocity.
    pub velocity: DVec2,
}

impl BodyState {
    fn bits(&self) -> [u64; 5] {
        [
            self.position.x,
            self.position.y,
            self.angle,
            self.velocity.x,
            self.velocity.y,
        ]
        .map(f64::to_bits)
    }

    fn from_bits(b: [u64; 5]) -> Self {
        let f = b.map(f64::from_bits);
        Self {
            position: DVec2::new(f[0], f[1]),
            angle: f[2],
            velocity: DVec2::new(f[3], f[4]),
        }
    }

    /// The state of shape `index` of `scene`.
    pub fn of(scene: &Scene, index: usize) -> Self {
        let s = &scene.shapes[index];
        Self {
            position: s.placed.pose.position,
            angle: s.placed.pose.angle(),
            velocity: s.motion.velocity,
        }
    }
}

/// A run: the scene at time 0, how it ran, every step's body states (encoded) and events.
#[derive(Clone, Debug)]
pub struct Recording {
    scene: Scene,
    config: Config,
    /// The shapes stored per frame (those that are not static), list positions.
    bodies: Vec<usize>,
    steps: u64,
    data: Vec<u8>,
    /// Where each block of [`KEYFRAME_EVERY`] frames starts in `data`.
    keyframes: Vec<usize>,
    events: Vec<Event>,
    /// The last two frames pushed (bits), for the prediction.
    last: [Vec<[u64; 5]>; 2],
}

/// Where a replay first differs from the recording.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayDivergence {
    /// The first step whose result differs (1-based).
    pub step: u64,
    /// The shape (list position).
    pub shape: usize,
    /// What the recording holds for it.
    pub recorded: BodyState,
    /// What running again gives.
    pub simulated: BodyState,
}

impl Recording {
    /// An empty recording of `simulation` as it is now (its scene is frame 0).
    pub fn start(simulation: &Simulation) -> Self {
        let scene = simulation.scene().clone();
        let bodies = bodies_of(&scene);
        Self {
            scene,
            config: simulation.config(),
            bodies,
            steps: 0,
            data: Vec::new(),
            keyframes: Vec::new(),
            events: Vec::new(),
            last: [Vec::new(), Vec::new()],
        }
    }

    /// Add the step `simulation` just did and its events.
    pub fn push(&mut self, simulation: &Simulation, events: &[Event]) {
        let frame: Vec<[u64; 5]> = self
            .bodies
            .iter()
            .map(|&i| BodyState::of(simulation.scene(), i).bits())
            .collect();
        let in_block = self.steps % KEYFRAME_EVERY;
        if in_block == 0 {
            self.keyframes.push(self.data.len());
        }
        for (k, bits) in frame.iter().enumerate() {
            let p1 = (in_block >= 1).then(|| self.last[0][k]);
            let p2 = (in_block >= 2).then(|| self.last[1][k]);
            let residuals: Vec<i64> = (0..5)
                .map(|f| bits[f].wrapping_sub(predict(p1.map(|p| p[f]), p2.map(|p| p[f]))) as i64)
                .collect();
            let tag = residuals
                .iter()
                .enumerate()
                .fold(0u8, |t, (f, r)| if *r != 0 { t | (1 << f) } else { t });
            self.data.push(tag);
            for r in residuals.into_iter().filter(|r| *r != 0) {
                put_varint(&mut self.data, zigzag(r));
            }
        }
        self.last.swap(0, 1);
        self.last[0] = frame;
        self.steps += 1;
        self.events.extend_from_slice(events);
    }

    /// Run `simulation` for `steps` steps, recording each.
    pub fn run(mut simulation: Simulation, steps: u64) -> (Recording, Simulation) {
        let mut recording = Recording::start(&simulation);
        for _ in 0..steps {
            let outcome = simulation.step();
            recording.push(&simulation, &outcome.events);
        }
        (recording, simulation)
    }

    /// The scene at time 0.
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// How it ran.
    pub fn config(&self) -> Config {
        self.config
    }

    /// How many steps it holds.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The shapes stored per frame: every one that is not static (list positions).
    pub fn bodies(&self) -> &[usize] {
        &self.bodies
    }

    /// Every event, in step order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The events of step `k`, found by halving (not a scan of the run's every event, at
    /// every frame shown).
    pub fn events_of(&self, k: u64) -> &[Event] {
        let from = self.events.partition_point(|e| e.step() < k);
        let to = from + self.events[from..].partition_point(|e| e.step() == k);
        &self.events[from..to]
    }

    /// How many bytes the frames take.
    pub fn frames_bytes(&self) -> usize {
        self.data.len()
    }

    /// The bodies' states after step `k` (`k = 0`: the scene at time 0), in [`Self::bodies`]
    /// order; `None` past the last step.
    pub fn frame(&self, k: u64) -> Option<Vec<BodyState>> {
        if k > self.steps {
            return None;
        }
        if k == 0 {
            return Some(
                self.bodies
                    .iter()
                    .map(|&i| BodyState::of(&self.scene, i))
                    .collect(),
            );
        }
        let index = k - 1;
        let block = (index / KEYFRAME_EVERY) as usize;
        let mut reader = Reader {
            data: &self.data,
            at: self.keyframes[block],
        };
        let mut last: [Option<Vec<[u64; 5]>>; 2] = [None, None];
        for _ in 0..=(index % KEYFRAME_EVERY) {
            let frame = self
                .decode(&mut reader, &last)
                .expect("frames pushed or checked on reading decode");
            last = [Some(frame), last[0].take()];
        }
        last[0]
            .take()
            .map(|f| f.into_iter().map(BodyState::from_bits).collect())
    }

    /// The scene after step `k`: frame 0's scene with the bodies' states of frame `k`.
    pub fn scene_at(&self, k: u64) -> Option<Scene> {
        let frame = self.frame(k)?;
        let mut scene = self.scene.clone();
        self.place(&mut scene, &frame);
        Some(scene)
    }

    /// Put the bodies of `scene` (this recording's scene, at any frame) in the states
    /// `frame` (in [`Self::bodies`] order): a frame shown without copying the scene.
    pub fn place(&self, scene: &mut Scene, frame: &[BodyState]) {
        for (&i, state) in self.bodies.iter().zip(frame) {
            let s = &mut scene.shapes[i];
            if s.placed.pose.angle().to_bits() == state.angle.to_bits() {
                // The same angle, so the same rotation (a pose keeps its angle's cos and sin):
                // a body that does not turn costs no trigonometry a frame.
                s.placed.pose.position = state.position;
            } else {
                s.placed.pose = crate::geometry::Pose::new(state.position, state.angle);
            }
            s.motion.velocity = state.velocity;
        }
    }

    /// Every frame of the block holding frame `k` (frames `first..first + count`), decoded
    /// at once, with `first`: what playing a run frame after frame reads from.
    pub fn block_of(&self, k: u64) -> Option<(u64, Vec<Vec<BodyState>>)> {
        if k == 0 || k > self.steps {
            return None;
        }
        let block = ((k - 1) / KEYFRAME_EVERY) as usize;
        let first = block as u64 * KEYFRAME_EVERY + 1;
        let count = (self.steps - (first - 1)).min(KEYFRAME_EVERY);
        let mut reader = Reader {
            data: &self.data,
            at: self.keyframes[block],
        };
        let mut last: [Option<Vec<[u64; 5]>>; 2] = [None, None];
        let mut frames = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let frame = self
                .decode(&mut reader, &last)
                .expect("frames pushed or checked on reading decode");
            frames.push(frame.iter().map(|b| BodyState::from_bits(*b)).collect());
            last = [Some(frame), last[0].take()];
        }
        Some((first, frames))
    }

    fn decode(
        &self,
        reader: &mut Reader,
        last: &[Option<Vec<[u64; 5]>>; 2],
    ) -> Result<Vec<[u64; 5]>, String> {
        // The prediction (see `predict`) chosen once a frame, not once a number.
        match (last[0].as_deref(), last[1].as_deref()) {
            (Some(p1), Some(p2)) => {
                self.decode_with(reader, |k, f| predict(Some(p1[k][f]), Some(p2[k][f])))
            }
            (Some(p1), None) => self.decode_with(reader, |k, f| predict(Some(p1[k][f]), None)),
            (None, _) => self.decode_with(reader, |_, _| predict(None, None)),
        }
    }

    /// One frame's numbers: each body's tag (which of its five numbers changed from the
    /// prediction), then the zigzag varint of each difference.
    #[inline(always)]
    fn decode_with(
        &self,
        reader: &mut Reader,
        predicted: impl Fn(usize, usize) -> u64,
    ) -> Result<Vec<[u64; 5]>, String> {
        let mut frame = Vec::with_capacity(self.bodies.len());
        for k in 0..self.bodies.len() {
            let tag = reader.byte()?;
            if tag >= 1 << 5 {
                return Err(format!("a bad body tag {tag} at byte {}", reader.at - 1));
            }
            let mut bits = [0u64; 5];
            for (f, b) in bits.iter_mut().enumerate() {
                let r = if tag & (1 << f) != 0 {
                    unzigzag(reader.varint()?)
                } else {
                    0
                };
                *b = predicted(k, f).wrapping_add(r as u64);
            }
            frame.push(bits);
        }
        Ok(frame)
    }

    /// Decode every frame from the start, in order, handing each (its index from 0 and
    /// where in the data it started) to `each`; stops at the first error of decoding or of
    /// `each`.
    fn each_frame(
        &self,
        mut each: impl FnMut(u64, usize, &[[u64; 5]]) -> Result<(), String>,
    ) -> Result<usize, String> {
        let mut reader = Reader {
            data: &self.data,
            at: 0,
        };
        let mut last: [Option<Vec<[u64; 5]>>; 2] = [None, None];
        for index in 0..self.steps {
            if index % KEYFRAME_EVERY == 0 {
                last = [None, None];
            }
            let at = reader.at;
            let frame = self
                .decode(&mut reader, &last)
                .map_err(|e| format!("step {}: {e}", index + 1))?;
            each(index, at, &frame)?;
            last = [Some(frame), last[0].take()];
        }
        Ok(reader.at)
    }
}

/// The shapes a recording stores per frame: every one that is not static (list positions).
fn bodies_of(scene: &Scene) -> Vec<usize> {
    scene
        .shapes
        .iter()
        .enumerate()
        .filter(|(_, s)| s.motion.body != Body::Static)
        .map(|(i, _)| i)
        .collect()
}

/// Run the recording's scene again with its configuration and compare every step's body
/// states bit for bit: `Ok(steps)` when identical, else the first difference.
pub fn replay(recording: &Recording) -> Result<u64, ReplayDivergence> {
    let mut simulation = Simulation::new(recording.scene.clone(), recording.config);
    let mut divergence = None;
    recording
        .each_frame(|index, _, frame| {
            simulation.step();
            for (k, &i) in recording.bodies.iter().enumerate() {
                let now = BodyState::of(simulation.scene(), i);
                if now.bits() != frame[k] {
                    divergence = Some(ReplayDivergence {
                        step: index + 1,
                        shape: i,
                        recorded: BodyState::from_bits(frame[k]),
                        simulated: now,
                    });
                    return Err(String::new());
                }
            }
            Ok(())
        })
        .map(|_| recording.steps)
        .map_err(|e| {
            divergence.unwrap_or_else(|| panic!("frames pushed or checked on reading decode: {e}"))
        })
}
