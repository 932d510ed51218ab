//! Files: one error type for every file collidoscope reads or writes (shape sets, fixtures,
//! recordings, packet logs), naming the file, the place and the problem; the JSON helpers the
//! readers walk with; atomic writes. The formats themselves live with their data
//! ([`crate::scene`], [`crate::motion::Recording`], [`crate::latency::PacketLog`]) and are
//! specified in `docs/format.md`.

mod atomic;
mod error;
mod json;

pub use atomic::{write_atomically, write_atomically_with, write_text_atomically};
pub use error::{FileError, Problem};
pub(crate) use json::{
    Fields, as_point, describe, point_error, quoted_key, spelled, suggestion, syntax_problem,
    without_position,
};

/// The top-level `"format"` a JSON file says it is (`collidoscope-shapes`,
/// `collidoscope-lesson`, `collidoscope-packets`...), or `None` when it is not a JSON object
/// with one: how a file given without a name that tells is sent to its reader.
pub fn format_of(bytes: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Format<'a> {
        #[serde(borrow)]
        format: Option<std::borrow::Cow<'a, str>>,
    }
    serde_json::from_slice::<Format>(bytes)
        .ok()?
        .format
        .map(std::borrow::Cow::into_owned)
}

/// A number as a message shows it: as written for everyday sizes, `1.797e308` for huge ones
/// (Rust writes those with every digit).
pub fn huge(x: f64) -> String {
    if x.is_finite() && x.abs() >= 1e16 {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// A size as a message shows it: `16 GiB`, `256 MiB`, `12 KiB`, `100 bytes` (whole units only
/// when exact, else one decimal).
pub fn bytes(n: u64) -> String {
    const UNITS: [(&str, u64); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (unit, size) in UNITS {
        if n >= size {
            return if n.is_multiple_of(size) {
                format!("{} {unit}", n / size)
            } else {
                format!("{:.1} {unit}", n as f64 / size as f64)
            };
        }
    }
    format!("{n} bytes")
}
