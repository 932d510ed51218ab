//! Fuzz the packet log reader and the latency-aware engine behind it.
//!
//! `PacketLog::parse` must never panic; a log it accepts is run through the engine at a step
//! and mode taken from the input's first byte, packet by packet in arrival order. Each packet
//! is taken or refused with a reason (never a panic, never a hang: issue 41's logs whose clocks
//! are days apart cost what their packets cost, so libFuzzer's `-timeout` and `-rss_limit_mb`
//! catch any return of cost that follows the span of the clocks). When every packet is taken
//! and the log spans few buckets, the engine ends with what one pass over every bucket finds.

#![no_main]

use collidoscope::latency::{PacketEngine, PacketLog, Settings, one_pass};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

const STEPS: [f64; 6] = [0.001, 0.1, 1.0, 16.0, 100.0, 1e6];

fuzz_target!(|data: &[u8]| {
    let Some((&mode, text)) = data.split_first() else {
        return;
    };
    let Ok(log) = PacketLog::parse(Path::new("fuzz.json"), text) else {
        return;
    };
    let settings = Settings {
        step_ms: STEPS[(mode as usize >> 1) % STEPS.len()],
        swept: mode & 1 == 1,
    };
    let mut engine = PacketEngine::for_log(&log, settings);
    let mut refused = false;
    for packet in &log.packets {
        if engine.push(packet).is_err() {
            refused = true;
            break;
        }
    }
    if refused {
        return;
    }
    assert_eq!(engine.packets(), log.packets.len());
    let small = log
        .sent_range()
        .is_none_or(|(lo, hi)| (hi - lo) / settings.step_ms <= 20_000.0);
    if small && log.players.len() <= 8 {
        assert_eq!(engine.standing(), one_pass(&log, settings));
    }
});
