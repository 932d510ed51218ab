//! Profiling aid: what naming a capture's events costs beside judging its claims, frame by
//! frame, for `perf record`.
//!
//! `cargo run --release --example profile_events -- CAPTURE`: reads the capture once, timing
//! the reader, the claims' judgement and the event finder apart (one thread each in turn).
use collidoscope::capture::{CaptureReader, EventFinder, judge_frame};
use std::time::{Duration, Instant};

fn main() {
    let path = std::env::args().nth(1).expect("a capture");
    let mut reader = CaptureReader::open(std::path::Path::new(&path)).expect("readable");
    let mut finder = EventFinder::for_capture(reader.header());
    let (mut read, mut judged, mut found) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let (mut frames, mut events) = (0u64, 0usize);
    loop {
        let t = Instant::now();
        let Some(frame) = reader.next_frame().expect("a frame") else {
            break;
        };
        read += t.elapsed();
        let t = Instant::now();
        let judgement = judge_frame(&reader, &frame);
        judged += t.elapsed();
        let t = Instant::now();
        events += finder.frame(&reader, &frame, &judgement).len();
        found += t.elapsed();
        frames += 1;
    }
    let per = |d: Duration| d.as_secs_f64() * 1e3 / frames.max(1) as f64;
    println!(
        "{frames} frames, {events} events: read {:.3} ms, judge {:.3} ms, events {:.3} ms a frame",
        per(read),
        per(judged),
        per(found)
    );
}
