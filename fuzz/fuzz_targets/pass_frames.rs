//! Fuzz passing frames (what a seek does between its keyframe and the frame it shows:
//! `CaptureReader::pass_frames`, which applies a run of lines whose shapes only move as each
//! shape's last values) against reading every frame. For a capture read without an error up
//! to frame n, a reader that passes k frames (k < n) and then reads one must give that frame
//! and the shapes after it exactly as the reader that read every frame before it.

#![no_main]

use collidoscope::capture::CaptureReader;
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;
use std::path::Path;

fn reader(bytes: &[u8]) -> Option<CaptureReader> {
    CaptureReader::new(Path::new("fuzz.capture.jsonl"), Cursor::new(bytes.to_vec())).ok()
}

/// The frame (its `Debug`, every number in full) and the shapes after it.
fn state(reader: &CaptureReader, frame: &collidoscope::capture::Frame) -> (String, String) {
    (
        format!("{frame:?}"),
        format!("{:?}", reader.shapes().collect::<Vec<_>>()),
    )
}

fuzz_target!(|data: &[u8]| {
    // Plain text only: a gzip stream's bytes are not lines.
    if data.starts_with(&[0x1f, 0x8b]) {
        return;
    }
    let Some(mut whole) = reader(data) else {
        return;
    };
    let mut read = Vec::new();
    while let Ok(Some(frame)) = whole.next_frame() {
        read.push(state(&whole, &frame));
    }
    // Passing k frames reads k lines: the first 64 frames keep a case's cost bounded.
    for (k, expected) in read.iter().enumerate().take(64) {
        let mut passing = reader(data).expect("the header read before");
        assert_eq!(passing.pass_frames(k).expect("frames read before pass"), k);
        let frame = passing
            .next_frame()
            .expect("read before")
            .expect("a frame");
        assert_eq!(&state(&passing, &frame), expected, "frame {k}");
    }
});
