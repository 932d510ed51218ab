use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why a file could not be read or written: the file and the problem, shown as
/// `shapes/broken.json: shape 2 "wall" (capsule): radius must be > 0, found -1`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}: {problem}", path.display())]
pub struct FileError {
    /// The file, as it was named.
    pub path: PathBuf,
    /// What is wrong, and where.
    pub problem: Problem,
}

/// What is wrong with a file, and where in it.
#[derive(Clone, Debug, thiserror::Error)]
pub enum Problem {
    /// The file could not be read or written at all: what was being done (`cannot read the
    /// file`, `cannot save`) and the system's error, kept as its source.
    #[error("{doing}: {source}")]
    Io {
        /// What was being done.
        doing: &'static str,
        /// Why it failed.
        #[source]
        source: Arc<io::Error>,
    },
    /// The bytes are not UTF-8 text.
    #[error("not UTF-8 text (a bad byte at offset {offset})")]
    NotText {
        /// Offset of the first bad byte.
        offset: usize,
    },
    /// The file has nothing in it.
    #[error("the file is empty")]
    Empty,
    /// The JSON is malformed here.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// serde_json's description, without its position.
        message: String,
    },
    /// The top level (format, version, the lists) or one entry is wrong: the message names
    /// the place.
    #[error("{0}")]
    Document(String),
    /// One shape is wrong: `label` names it (`shape 2 "wall" (capsule)`).
    #[error("{label}: {message}")]
    Shape {
        /// Index in the file.
        index: usize,
        /// `shape 2 "wall" (capsule)`, as much as is known.
        label: String,
        /// What is wrong with it.
        message: String,
        /// The key the message is about when it does not quote it itself (`not convex at
        /// point 3` is about `points`): a capture's messages quote it.
        field: Option<&'static str>,
    },
}

impl Problem {
    /// The system refused: `doing` (`cannot read the file`) failed with `error`.
    pub fn io(doing: &'static str, error: io::Error) -> Self {
        Problem::Io {
            doing,
            source: Arc::new(error),
        }
    }
}

/// Two problems are the same when they say the same (an I/O error by its kind and words).
impl PartialEq for Problem {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (
                Problem::Io {
                    doing: a,
                    source: x,
                },
                Problem::Io {
                    doing: b,
                    source: y,
                },
            ) => a == b && x.kind() == y.kind() && x.to_string() == y.to_string(),
            _ => {
                self.to_string() == other.to_string()
                    && std::mem::discriminant(self) == std::mem::discriminant(other)
            }
        }
    }
}

impl FileError {
    /// `problem` in the file at `path`.
    pub fn new(path: &Path, problem: Problem) -> Self {
        Self {
            path: path.to_path_buf(),
            problem,
        }
    }
}
