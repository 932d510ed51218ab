//! The latency-aware engine's cost against the span of a log's clocks and the bucket step
//! (issue 41): the same 120 packets of four players crossing (60 Hz, 80 ms latency, 20 ms
//! jitter), one of them sent as if its client's clock were off so that the log spans 1 s,
//! 1 min, 1 h, 1 day or 50 days, run at steps of 0.001, 0.1, 1 and 100 ms, swept. For each:
//! the time to take every packet (median of several runs) and the peak of the bytes live while
//! it runs, with what the engine found or why it refused. The goal: flat in the span; a step
//! that asks for more checks than the engine allows is refused at once.
//!
//! `cargo bench --bench latency_span`

use collidoscope::geometry::{Capsule, Circle, ConvexPolygon, DVec2, Shape};
use collidoscope::latency::{Packet, PacketEngine, PacketLog, Player, Settings};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The system allocator, counting the bytes live and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let live = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        grew(new_size);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Four players crossing an arena, each sending 30 packets at 60 Hz, in arrival order.
fn crossing() -> PacketLog {
    let shapes: [Shape; 4] = [
        Circle::new(0.5).unwrap().into(),
        Capsule::new(DVec2::new(-0.6, 0.0), DVec2::new(0.6, 0.0), 0.3)
            .unwrap()
            .into(),
        ConvexPolygon::rectangle(DVec2::splat(0.5)).unwrap().into(),
        Circle::new(0.2).unwrap().into(),
    ];
    let starts = [
        (-6.0, 0.0, 6.0, 0.0),
        (0.0, -6.0, 0.0, 6.0),
        (6.0, 3.0, -6.0, -3.0),
        (-12.0, 0.3, 30.0, 0.0),
    ];
    let mut packets = Vec::new();
    let mut jitter = 0x9e37_79b9_u64;
    for (player, &(x, y, vx, vy)) in starts.iter().enumerate() {
        for k in 0..30 {
            let sent = k as f64 * 1000.0 / 60.0;
            jitter = jitter
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let late = 80.0 + ((jitter >> 33) as f64 / (1u64 << 31) as f64 - 0.5) * 40.0;
            let t = sent / 1000.0;
            packets.push(Packet {
                player,
                sent,
                received: sent + late,
                position: DVec2::new(x + vx * t, y + vy * t),
                angle: t * 2.0,
            });
        }
    }
    packets.sort_by(|p, q| p.received.total_cmp(&q.received));
    let players = shapes
        .into_iter()
        .map(|shape| Player { name: None, shape })
        .collect();
    PacketLog { players, packets }
}

/// Every packet taken: what was found (or the refusal), the time and the peak bytes live.
fn run(log: &PacketLog, settings: Settings) -> (String, Duration, usize) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let started = Instant::now();
    let mut engine = PacketEngine::for_log(log, settings);
    let mut said = None;
    for (at, p) in log.packets.iter().enumerate() {
        if let Err(e) = engine.push(p) {
            said = Some(format!("refused at packet {at}"));
            let _ = e;
            break;
        }
    }
    let took = started.elapsed();
    let peak = PEAK.load(Ordering::Relaxed) - before;
    let said = said.unwrap_or_else(|| format!("{} collisions", engine.collisions().len()));
    drop(engine);
    (said, took, peak)
}

fn main() {
    let spans = [
        ("1 s", 1e3),
        ("1 min", 6e4),
        ("1 h", 3.6e6),
        ("1 day", 8.64e7),
        ("50 days", 4.32e9),
    ];
    let steps = [0.001, 0.1, 1.0, 100.0];
    println!("| span | step (ms) | time (median of 5) | peak memory | found |");
    println!("|---|---|---|---|---|");
    for (name, span) in spans {
        let mut log = crossing();
        // One packet of the bullet's, sent (by its clock) `span` after the first.
        let k = log.packets.iter().rposition(|p| p.player == 3).unwrap() - 10;
        log.packets[k].sent = span;
        for step in steps {
            let settings = Settings {
                step_ms: step,
                swept: true,
            };
            let mut runs: Vec<(String, Duration, usize)> =
                (0..5).map(|_| run(&log, settings)).collect();
            runs.sort_by_key(|r| r.1);
            let (said, took, _) = &runs[2];
            let peak = runs.iter().map(|r| r.2).max().unwrap();
            println!(
                "| {name} | {step} | {:.2} ms | {:.2} MB | {said} |",
                took.as_secs_f64() * 1e3,
                peak as f64 / (1 << 20) as f64
            );
        }
    }
}
