//! Where a lesson comes from: a file on the disk or one the program carries. The command line
//! (`collidoscope lesson FILE`, `--builtin NAME`) and the window (File > Open lesson, Help >
//! Lessons, a lesson file opened or dropped) name lessons this way, and read them through it.

use super::builtin::{BUILT_IN, builtin};
use super::file::Lesson;
use crate::files::{FileError, Problem};
use std::io::Read as _;
use std::path::{Path, PathBuf};

/// A lesson to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LessonSource {
    /// A lesson file (the files it names are resolved against it).
    File(PathBuf),
    /// A built-in lesson, by the name `lesson list` prints.
    BuiltIn(String),
}

impl LessonSource {
    /// The lesson, read and checked.
    ///
    /// # Errors
    /// The file's problem, named by file, slide and key; an unknown built-in name, with the
    /// names there are.
    pub fn load(&self) -> Result<Lesson, FileError> {
        match self {
            LessonSource::File(path) => Lesson::load(path),
            LessonSource::BuiltIn(name) => match builtin(name) {
                Some(b) => b.lesson(),
                None => {
                    let names: Vec<&str> = BUILT_IN.iter().map(|b| b.name).collect();
                    Err(FileError::new(
                        Path::new(name),
                        Problem::Document(format!(
                            "no built-in lesson of that name; the built-in lessons are {}",
                            names.join(", ")
                        )),
                    ))
                }
            },
        }
    }

    /// How messages name it: the file's path, or "the built-in lesson NAME".
    pub fn describe(&self) -> String {
        match self {
            LessonSource::File(path) => path.display().to_string(),
            LessonSource::BuiltIn(name) => format!("the built-in lesson {name}"),
        }
    }
}

/// Whether the file at `path` says it is a lesson (its top-level `"format"` is
/// `"collidoscope-lesson"`): what opening a file in the window looks at to present it rather
/// than open it as a shape set. A file that cannot be read or is not JSON is not a lesson
/// (opening it as a shape set then says what is wrong with it).
pub fn is_lesson(path: &Path) -> bool {
    /// Lessons are a few kilobytes; a file larger than this is not read twice to find out.
    const LARGEST: u64 = 4 << 20;
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut bytes = Vec::new();
    if file.take(LARGEST).read_to_end(&mut bytes).is_err() {
        return false;
    }
    #[derive(serde::Deserialize)]
    struct Format<'a> {
        #[serde(borrow)]
        format: Option<std::borrow::Cow<'a, str>>,
    }
    serde_json::from_slice::<Format>(&bytes)
        .is_ok_and(|f| f.format.as_deref() == Some("collidoscope-lesson"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_built_in_lesson_names_the_ones_there_are() {
        let e = LessonSource::BuiltIn("sat".into()).load().unwrap_err();
        let message = e.to_string();
        assert!(message.contains("sat-polygons"), "{message}");
        assert!(message.contains("no built-in lesson"), "{message}");
    }

    #[test]
    fn a_lesson_file_is_told_from_a_shape_set() {
        let dir =
            std::env::temp_dir().join(format!("collidoscope-is-lesson-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let lesson = dir.join("l.json");
        std::fs::write(
            &lesson,
            br#"{"format": "collidoscope-lesson", "version": 1}"#,
        )
        .unwrap();
        let shapes = dir.join("s.json");
        std::fs::write(
            &shapes,
            br#"{"format": "collidoscope-shapes", "version": 1, "shapes": []}"#,
        )
        .unwrap();
        let broken = dir.join("b.json");
        std::fs::write(&broken, b"{\"format\": \"collidoscope-lesson\"").unwrap();
        assert!(is_lesson(&lesson));
        assert!(!is_lesson(&shapes));
        assert!(!is_lesson(&broken));
        assert!(!is_lesson(&dir.join("missing.json")));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
