//! What a slide shows when it opens, worked out by the core: the scene as the slide's lab
//! leaves it (a motion run stopped at its frame, the players where the server places them
//! after the packets arrived so far), the pair, and the steps of step mode. The window's
//! presenter and the exported page both start from it.

use super::file::{Slide, SlideLab, SlideStep};
use crate::latency::{PacketEngine, Settings};
use crate::motion::{Config, Recording, Simulation, Step, Sweep, sweeps};
use crate::picture::{opening_pair, step_count};
use crate::query::pair_report;
use crate::scene::{Scene, SceneShape};

/// The step a motion slide takes when it names none (the motion lab's default, seconds).
pub const MOTION_DT: f64 = 1.0 / 60.0;
/// The steps a motion slide runs when it names none (the motion lab's default).
pub const MOTION_STEPS: u32 = 240;
/// The bucket step of a latency slide that names none (ms).
pub const LATENCY_STEP_MS: f64 = 25.0;

/// A slide as it opens.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    /// The shapes where the slide shows them.
    pub scene: Scene,
    /// The pair explained (list positions), when the scene has two shapes.
    pub pair: Option<(usize, usize)>,
    /// The steps of step mode the slide goes through, in order: from its `step` to the
    /// verdict (one per axis, then the verdict); empty for a slide that shows the whole test.
    pub steps: Vec<usize>,
    /// The time shown, for a motion slide (s) or a latency slide (ms).
    pub time: Option<f64>,
    /// A motion slide's sweeps over the step that led to its frame (fast bodies, tunnelled
    /// and pushed-through ones), as the motion lab draws them.
    pub sweeps: Vec<Sweep>,
}

/// A motion slide's run: how it is simulated, for how many steps, and the frame shown (within
/// the steps). The window's presenter and the exported page both run it so.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MotionRun {
    /// The step, resolver and substeps (the motion lab's defaults where the slide is silent).
    pub config: Config,
    /// How many steps the run has.
    pub steps: u32,
    /// The frame shown.
    pub frame: u32,
}

impl SlideLab {
    /// The run of a motion slide; `None` for another lab.
    pub fn motion_run(&self) -> Option<MotionRun> {
        let SlideLab::Motion {
            dt,
            steps,
            resolver,
            substeps,
            frame,
        } = self
        else {
            return None;
        };
        let mut config = Config::new(dt.unwrap_or(MOTION_DT)).expect("the reader checked dt");
        if let Some(r) = resolver {
            config.resolver = *r;
        }
        if let Some(s) = substeps {
            config.substeps = *s;
        }
        let steps = steps.unwrap_or(MOTION_STEPS);
        Some(MotionRun {
            config,
            steps,
            frame: frame.unwrap_or(0).min(steps),
        })
    }
}

/// The slide as it opens.
pub fn stage(slide: &Slide) -> Stage {
    let mut swept = Vec::new();
    let (scene, time) = match &slide.lab {
        SlideLab::Motion { .. } => {
            let run = slide.lab.motion_run().expect("a motion slide");
            let frame = u64::from(run.frame);
            let simulation = Simulation::new(slide.scene.clone(), run.config);
            let (recording, simulation) = Recording::run(simulation, frame);
            let scene = simulation.scene().clone();
            if let (Some(before), Some(now)) = (
                frame.checked_sub(1).and_then(|k| recording.frame(k)),
                recording.frame(frame),
            ) {
                let step = Step {
                    bodies: recording.bodies(),
                    before: &before,
                    now: &now,
                    events: recording.events_of(frame),
                    step: frame,
                    dt: run.config.dt,
                };
                swept = sweeps(&scene, &step);
            }
            let time = f64::from(run.frame) * run.config.dt;
            (scene, Some(time))
        }
        SlideLab::Latency {
            log: Some(log),
            step,
            swept,
            arrived,
            time,
        } => {
            let settings = Settings {
                step_ms: step.unwrap_or(LATENCY_STEP_MS),
                swept: *swept,
            };
            let mut engine = PacketEngine::for_log(log, settings);
            let arrived = arrived.unwrap_or(log.packets.len()).min(log.packets.len());
            for p in &log.packets[..arrived] {
                if engine.push(p).is_err() {
                    break;
                }
            }
            // The slide's moment, else the latest collision standing, else the latest time a
            // packet arrived was sent.
            let t = time
                .or_else(|| {
                    engine
                        .standing()
                        .iter()
                        .map(|f| f.time)
                        .fold(None, |m: Option<f64>, t| Some(m.map_or(t, |m| m.max(t))))
                        .or_else(|| {
                            log.packets[..arrived]
                                .iter()
                                .map(|p| p.sent)
                                .reduce(f64::max)
                        })
                })
                .unwrap_or(0.0);
            let shapes = engine
                .players_at(log, t)
                .into_iter()
                .map(|p| {
                    SceneShape::new(Some(log.players[p.player].display_name(p.player)), p.placed)
                })
                .collect();
            (Scene::from_shapes(shapes), Some(t))
        }
        _ => (slide.scene.clone(), None),
    };
    let n = scene.shapes.len();
    let pair = slide
        .pair
        .filter(|(a, b)| *a < n && *b < n)
        .or_else(|| opening_pair(&scene));
    let steps = match (slide.step, pair, &slide.lab) {
        (SlideStep::At(k), Some((a, b)), SlideLab::Pair) => {
            let report = pair_report(&scene.shapes[a].placed, &scene.shapes[b].placed);
            let last = step_count(&report);
            (k.min(last)..=last).collect()
        }
        _ => Vec::new(),
    };
    Stage {
        scene,
        pair,
        steps,
        time,
        sweeps: swept,
    }
}
