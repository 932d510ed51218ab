//! The latency-aware engine: packets per second for 100 players sending at 60 Hz over a
//! network of 100 ms latency (jitter 20 ms either way, 1% loss), bucket step 25 ms, with and
//! without swept contacts. The goal: a 10-minute match (3.6 million packets) in under 10
//! seconds, that is at least 360,000 packets per second. A full 10-minute match is also run
//! once and timed (printed), with the rows held at the end.

use collidoscope::geometry::DVec2;
use collidoscope::latency::{Packet, PacketEngine, Player, Settings};
use collidoscope::scene::generate::{Generate, Random, random_scene};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Instant;

const PLAYERS: usize = 100;
const SEND_MS: f64 = 1000.0 / 60.0;

/// `seconds` of a match: 100 players of random kinds and sizes wandering an arena where
/// they meet now and then, each sending its pose at 60 Hz; packets in arrival order.
fn game(seconds: f64) -> (Vec<Player>, Vec<Packet>) {
    let scene = random_scene(Generate {
        count: PLAYERS,
        seed: 11,
        overlaps: 1.0,
    });
    let players: Vec<Player> = scene
        .shapes
        .iter()
        .map(|s| Player {
            name: None,
            shape: s.placed.shape.clone(),
        })
        .collect();
    let side = 30.0;
    let mut random = Random::new(5);
    let mut state: Vec<(DVec2, DVec2, f64)> = (0..PLAYERS)
        .map(|_| {
            let p = DVec2::new(random.between(0.0, side), random.between(0.0, side));
            let v = DVec2::new(random.between(-5.0, 5.0), random.between(-5.0, 5.0));
            (p, v, random.between(-3.0, 3.0))
        })
        .collect();
    let frames = (seconds * 60.0) as usize;
    let mut packets = Vec::with_capacity(frames * PLAYERS);
    for k in 0..frames {
        let sent = k as f64 * SEND_MS;
        for (player, (p, v, angle)) in state.iter_mut().enumerate() {
            // Wander: turn a little each frame, bounce off the arena's walls.
            *v = (*v + DVec2::new(random.between(-0.5, 0.5), random.between(-0.5, 0.5)))
                .clamp_length_max(6.0);
            *p += *v / 60.0;
            if p.x < 0.0 || p.x > side {
                v.x = -v.x;
            }
            if p.y < 0.0 || p.y > side {
                v.y = -v.y;
            }
            *angle += 0.02;
            if random.unit() < 0.01 {
                continue;
            }
            packets.push(Packet {
                player,
                sent,
                received: sent + 100.0 + random.between(-20.0, 20.0),
                position: *p,
                angle: *angle,
            });
        }
    }
    packets.sort_by(|p, q| p.received.total_cmp(&q.received));
    (players, packets)
}

fn run(players: &[Player], packets: &[Packet], settings: Settings) -> PacketEngine {
    let shapes: Vec<_> = players.iter().map(|p| p.shape.clone()).collect();
    let mut engine = PacketEngine::new(&shapes, settings);
    for p in packets {
        engine.push(p).unwrap();
    }
    engine
}

fn packets_per_second(c: &mut Criterion) {
    let (players, packets) = game(20.0);
    let mut group = c.benchmark_group("packets");
    group.sample_size(10);
    group.throughput(Throughput::Elements(packets.len() as u64));
    for swept in [false, true] {
        let name = if swept {
            "100 players swept"
        } else {
            "100 players"
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                let engine = run(
                    &players,
                    black_box(&packets),
                    Settings {
                        step_ms: 25.0,
                        swept,
                    },
                );
                black_box(engine.collisions().len())
            })
        });
    }
    group.finish();
    // The whole 10-minute match once, timed.
    let (players, packets) = game(600.0);
    for swept in [false, true] {
        let start = Instant::now();
        let engine = run(
            &players,
            &packets,
            Settings {
                step_ms: 25.0,
                swept,
            },
        );
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "10-minute match{}: {} packets in {seconds:.2} s ({:.0} packets/s); {} collisions, {} retracted, {} rows held at the end",
            if swept { ", swept" } else { "" },
            packets.len(),
            packets.len() as f64 / seconds,
            engine.collisions().len(),
            engine.retracted().len(),
            engine.rows_held()
        );
    }
}

criterion_group!(benches, packets_per_second);
criterion_main!(benches);
