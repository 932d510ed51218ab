//! Packet logs from a recording: each moving body of the run is a player that sends its true
//! pose every frame; a network model decides when (and whether) the server gets each packet.

use super::log::{Packet, PacketLog, Player};
use crate::motion::Recording;
use crate::scene::generate::Random;
use crate::scene::{Scene, SceneShape};

/// What the network does to packets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Network {
    /// Base one-way latency (ms).
    pub latency_ms: f64,
    /// Each packet's latency is off the base by up to this, uniformly either way (ms; the
    /// latency never goes below 0). Jitter above the send interval reorders packets.
    pub jitter_ms: f64,
    /// The chance a packet is lost.
    pub loss: f64,
    /// The chance a packet is held back by one to three more send intervals (reordering
    /// beyond what jitter does).
    pub reorder: f64,
    /// The chance a packet arrives twice (the copy up to one send interval later).
    pub duplicate: f64,
    /// Send every this many frames (1: every frame).
    pub every: u64,
    /// The random numbers' seed: the same seed, the same log.
    pub seed: u64,
}

impl Default for Network {
    fn default() -> Self {
        Self {
            latency_ms: 80.0,
            jitter_ms: 20.0,
            loss: 0.05,
            reorder: 0.0,
            duplicate: 0.0,
            every: 1,
            seed: 1,
        }
    }
}

/// The log a server would receive from `recording`'s moving bodies over `network`: one packet
/// per body every `network.every` frames, `sent` at the frame's time (ms), in arrival order
/// (equal arrival times in sending order).
pub fn generate(recording: &Recording, network: &Network) -> PacketLog {
    let scene = recording.scene();
    let bodies = recording.bodies();
    let players = bodies
        .iter()
        .map(|&i| Player {
            name: Some(scene.shapes[i].display_name(i)),
            shape: scene.shapes[i].placed.shape.clone(),
        })
        .collect();
    let dt_ms = recording.config().dt * 1000.0;
    let interval = dt_ms * network.every.max(1) as f64;
    let mut random = Random::new(network.seed);
    let mut packets = Vec::new();
    let mut k = 0;
    while k <= recording.steps() {
        let Some(frame) = recording.frame(k) else {
            break;
        };
        let sent = k as f64 * dt_ms;
        for (player, state) in frame.iter().enumerate() {
            let lost = random.unit() < network.loss;
            let jitter = network.jitter_ms * (2.0 * random.unit() - 1.0);
            let held = if random.unit() < network.reorder {
                interval * (1.0 + (3.0 * random.unit()).floor())
            } else {
                0.0
            };
            let twice = random.unit() < network.duplicate;
            let copy_after = interval * random.unit();
            if lost {
                continue;
            }
            let received = sent + (network.latency_ms + jitter).max(0.0) + held;
            let packet = Packet {
                player,
                sent,
                received,
                position: state.position,
                angle: state.angle,
            };
            packets.push(packet);
            if twice {
                packets.push(Packet {
                    received: received + copy_after,
                    ..packet
                });
            }
        }
        k += network.every.max(1);
    }
    packets.sort_by(|p, q| p.received.total_cmp(&q.received));
    PacketLog { players, packets }
}

/// The moving bodies of the run a log was generated from, at time `t` (ms): the frame
/// nearest it, each body a shape of its own (what the players really did, to draw beside
/// what the server believed). `None` outside the run.
pub fn truth_at(recording: &Recording, t: f64) -> Option<Scene> {
    let dt_ms = recording.config().dt * 1000.0;
    let k = (t / dt_ms).round();
    if k < 0.0 || k > recording.steps() as f64 {
        return None;
    }
    let scene = recording.scene_at(k as u64)?;
    let bodies = recording.bodies();
    let shapes = bodies
        .iter()
        .map(|&i| {
            let s = &scene.shapes[i];
            SceneShape::new(s.name.clone(), s.placed.clone())
        })
        .collect();
    Some(Scene::from_shapes(shapes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Circle, DVec2, Placed, Pose};
    use crate::motion::{Config, Simulation};
    use crate::scene::{Body, Motion};

    /// A wall and one ball at 2 units/s: the truth at 250 ms is the frame nearest it (frame 15
    /// at 1/60 s), the ball alone, where the run put it; outside the run there is none.
    #[test]
    fn the_truth_is_the_moving_bodies_at_the_nearest_frame() {
        let ball = Circle::new(0.5).unwrap();
        let mut moving = SceneShape::named("ball", Placed::new(ball, Pose::at(DVec2::ZERO)));
        moving.motion = Motion {
            body: Body::Dynamic,
            velocity: DVec2::new(2.0, 0.0),
            ..Motion::default()
        };
        let wall = SceneShape::named(
            "wall",
            Placed::new(Circle::new(1.0).unwrap(), Pose::at(DVec2::new(0.0, 10.0))),
        );
        let scene = Scene::from_shapes(vec![wall, moving]);
        let (recording, _) =
            Recording::run(Simulation::new(scene, Config::new(1.0 / 60.0).unwrap()), 60);
        let truth = truth_at(&recording, 250.0).unwrap();
        assert_eq!(truth.shapes.len(), 1);
        assert_eq!(truth.shapes[0].name.as_deref(), Some("ball"));
        let frame = recording.scene_at(15).unwrap();
        assert_eq!(truth.shapes[0].placed, frame.shapes[1].placed);
        assert!(truth_at(&recording, -20.0).is_none());
        assert!(truth_at(&recording, 2000.0).is_none());
    }
}
