//! Packet logs from a recording: each moving body of the run is a player that sends its true
//! pose every frame; a network model decides when (and whether) the server gets each packet.

use super::log::{Packet, PacketLog, Player};
use crate::motion::Recording;
use crate::scene::generate::Random;

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
