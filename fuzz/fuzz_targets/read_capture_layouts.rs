//! Fuzz the capture reader's two ways of reading a frame line against each other: a line laid
//! out as collidoscope's writer lays it out is read byte by byte (`written.rs`), any other by
//! `serde` or the full reader. The same capture with a space after each frame line's opening
//! brace (JSON reads it to the same values, but it is no longer the writer's layout) must give
//! the same frames, every number the same to the bit, and the same shapes after each, and end
//! the same way (its end, a dropped cut-off last line, or an error).

#![no_main]

use collidoscope::capture::CaptureReader;
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;
use std::path::Path;

/// Each frame and the shapes after it (their `Debug`, which prints every number in full), then
/// how the reading ended.
fn read_all(bytes: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(mut reader) =
        CaptureReader::new(Path::new("fuzz.capture.jsonl"), Cursor::new(bytes.to_vec()))
    else {
        out.push("no header".to_string());
        return out;
    };
    loop {
        match reader.next_frame() {
            Ok(Some(frame)) => {
                out.push(format!("{frame:?}"));
                out.push(format!("{:?}", reader.shapes().collect::<Vec<_>>()));
            }
            Ok(None) => {
                out.push(format!("end {:?}", reader.warning().is_some()));
                return out;
            }
            Err(_) => {
                out.push("error".to_string());
                return out;
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    // Plain text only: a gzip stream's bytes are not lines.
    if data.starts_with(&[0x1f, 0x8b]) {
        return;
    }
    let mut spaced = Vec::with_capacity(data.len() + 64);
    for line in data.split_inclusive(|b| *b == b'\n') {
        match line.strip_prefix(b"{\"frame\":") {
            Some(rest) => {
                spaced.extend_from_slice(b"{ \"frame\":");
                spaced.extend_from_slice(rest);
            }
            None => spaced.extend_from_slice(line),
        }
    }
    assert_eq!(read_all(data), read_all(&spaced));
});
