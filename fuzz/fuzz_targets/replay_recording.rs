//! Fuzz the Box2D recording import: `capture::box2d::replay` on any bytes (seeds in
//! fuzz/README.md). Collidoscope checks the 32-byte header and every record as Box2D's player
//! reads it (whole, of a kind a call records, the size it gives, sub-step counts, polygon
//! corners), Box2D's own player (boxdd-sys's hardened reader) the rest; a recording either
//! replays into a capture that reads back frame for frame, or is refused with a reason, never
//! a panic.
//!
//! The calls a recording replays reach Box2D's own assertions, which end the process: that is
//! why `import` and the window replay in a child process. Here an assertion ends the run with
//! `ASSERTION_EXIT` (3) after naming it; run with `-fork=1 -ignore_crashes=1` and sort the
//! artifacts by the message each leaves ("Box2D's assertion ... failed" is Box2D refusing a
//! damaged recording; a Rust panic is a bug here).

#![no_main]

use collidoscope::capture::CaptureReader;
use collidoscope::capture::box2d::replay::replay;
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;

fuzz_target!(init: collidoscope::capture::box2d::replay::stop_on_assertion(), |data: &[u8]| {
    let Ok((replayed, capture)) = replay(data, Vec::new(), false, |_, _| {}) else {
        return;
    };
    let mut reader = CaptureReader::new("fuzz.capture.jsonl".as_ref(), Cursor::new(capture))
        .expect("a replayed capture's header reads");
    let mut frames = 0;
    while let Some(_) = reader.next_frame().expect("a replayed capture reads") {
        frames += 1;
    }
    assert_eq!(frames, replayed.frames);
});
