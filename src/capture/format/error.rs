//! What the capture API refuses: one error type for the writer and both engine adapters.
//!
//! What an engine gives that a capture cannot hold as a shape or a claim (a NaN pose, a zero
//! normal) is not an error: it is written as it came, marked malformed, and the frame goes on
//! ([`crate::capture::CaptureWriter::frame`]). Errors are what the game itself must change: calls out
//! of order, ids that break the capture's rules, shapes the engine has and a capture has no
//! kind for, and the output failing.

use std::io;

/// Why a capture call was refused.
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    /// Writing the capture failed (the file, the disk, the compressor).
    #[error("cannot write the capture: {0}")]
    Io(#[from] io::Error),
    /// The game's calls break the capture's contract: said in full (an id passed twice in a
    /// frame, a removed id back, time running backwards, a manifold naming a shape not
    /// passed, `after_step` without `before_step`).
    #[error("{0}")]
    Contract(String),
    /// The engine holds a shape a capture has no kind for (a Rapier heightfield, a Box2D
    /// chain on a moving body): which one and why.
    #[error("{what}: {why}")]
    Unsupported {
        /// The shape, as the engine names it (`collider 3 (generation 0) "floor"`).
        what: String,
        /// Why, and what to do instead.
        why: String,
    },
    /// A Box2D recording that cannot be replayed (`capture::box2d::replay`): why, said of the
    /// file (`it is in Box2D's recording format 3.1, ...`).
    #[error("{0}")]
    Recording(String),
}

impl From<CaptureError> for io::Error {
    fn from(e: CaptureError) -> Self {
        match e {
            CaptureError::Io(e) => e,
            other => io::Error::new(io::ErrorKind::InvalidInput, other.to_string()),
        }
    }
}
