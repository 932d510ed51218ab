use std::fmt;
use std::path::{Path, PathBuf};

/// Why a shape-set file could not be read or written: the file and the problem, shown as
/// `shapes/broken.json: shape 2 "wall" (capsule): radius must be > 0, found -1`.
#[derive(Clone, Debug, PartialEq)]
pub struct FileError {
    /// The file, as it was named.
    pub path: PathBuf,
    /// What is wrong, and where.
    pub problem: Problem,
}

/// What is wrong with a file, and where in it.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// The file could not be read or written at all.
    Io(String),
    /// The bytes are not UTF-8 text.
    NotText {
        /// Offset of the first bad byte.
        offset: usize,
    },
    /// The file has nothing in it.
    Empty,
    /// The JSON is malformed here.
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// serde_json's description, without its position.
        message: String,
    },
    /// The top level (format, version, the shapes array) is wrong.
    Document(String),
    /// One shape is wrong: `label` names it (`shape 2 "wall" (capsule)`).
    Shape {
        /// Index in the file.
        index: usize,
        /// `shape 2 "wall" (capsule)`, as much as is known.
        label: String,
        /// What is wrong with it.
        message: String,
    },
}

impl FileError {
    pub(crate) fn new(path: &Path, problem: Problem) -> Self {
        Self {
            path: path.to_path_buf(),
            problem,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Io(message) => f.write_str(message),
            Problem::NotText { offset } => {
                write!(f, "not UTF-8 text (a bad byte at offset {offset})")
            }
            Problem::Empty => f.write_str("the file is empty"),
            Problem::Syntax {
                line,
                column,
                message,
            } => write!(f, "line {line}, column {column}: {message}"),
            Problem::Document(message) => f.write_str(message),
            Problem::Shape { label, message, .. } => write!(f, "{label}: {message}"),
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.problem)
    }
}

impl std::error::Error for FileError {}
