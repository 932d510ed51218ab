//! Fuzz the capture reader (plain and gzip).
//!
//! `CaptureReader::new` and every `next_frame` must never panic: each input gives frames and
//! then the end, a dropped cut-off last line, or one error. Every frame read is judged
//! (`judge_frame`), so the core also meets whatever shapes and claims a capture can hold, and
//! read as motion (`EventFinder`: seams, tunnels, pushes through, flips, stale claims), whose
//! events must name shapes of the capture and keep their order; and each pair of its first
//! shapes is asked why the engine left it out (`left_out`, with the shapes' filters and
//! bodies and the header's margin).

#![no_main]

use collidoscope::capture::{CaptureReader, EventFinder, Margin, judge_frame, left_out};
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(mut reader) =
        CaptureReader::new(Path::new("fuzz.capture.jsonl"), Cursor::new(data.to_vec()))
    else {
        return;
    };
    let mut frames = 0;
    let mut finder = EventFinder::for_capture(reader.header());
    let mut last = 0;
    while let Ok(Some(frame)) = reader.next_frame() {
        let judged = judge_frame(&reader, &frame);
        assert_eq!(judged.claims.len(), frame.claims.len());
        for e in finder.frame(&reader, &frame, &judged) {
            assert!(e.a < e.b && e.frame >= last && e.frame <= frame.frame);
            last = e.frame;
        }
        // Why the engine left pairs out: every stage, from whatever filters, bodies and
        // margin the capture gives.
        let margin = Margin::of_settings(&reader.header().engine.settings);
        let shapes: Vec<_> = reader.shapes().take(6).collect();
        for (k, a) in shapes.iter().enumerate() {
            for b in &shapes[k + 1..] {
                let _ = left_out(a.side(), b.side(), margin);
            }
        }
        frames += 1;
        if frames > 64 {
            break;
        }
    }
});
