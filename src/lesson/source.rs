//! Where a lesson comes from: a file on the disk or one the program carries. The command line
//! (`collidoscope lesson FILE`, `--builtin NAME`) and the window (File > Open lesson, Help >
//! Lessons, a lesson file opened or dropped) name lessons this way, and read them through it.

use super::builtin::{BUILT_IN, builtin};
use super::file::{Lesson, Read};
use crate::files::{FileError, Problem};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::Read as _;
use std::path::{Path, PathBuf};

/// A lesson to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LessonSource {
    /// A lesson file (the files it names are resolved against it).
    File(PathBuf),
    /// A built-in lesson, by the name `lesson list` prints.
    BuiltIn(String),
    /// A lesson carried with every file it names (an interactive lesson page's).
    Bundle(Box<LessonBundle>),
}

/// A lesson's file and the files it names, as text, in one value: what
/// `lesson export --interactive` puts in the page, where there is no disk to read them from.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LessonBundle {
    /// The lesson file's name, which names it in messages and which the files are resolved
    /// against (`sat.json`; its files `shapes/a.json` or `../shapes/a.json`).
    pub name: String,
    /// The lesson file.
    pub lesson: String,
    /// The files it names, by the path it resolves them to.
    pub files: BTreeMap<String, String>,
}

impl LessonBundle {
    /// `source` with every file it names read now.
    ///
    /// # Errors
    /// The lesson's problem, as [`LessonSource::load`] says it.
    pub fn gather(source: &LessonSource) -> Result<LessonBundle, FileError> {
        match source {
            LessonSource::Bundle(bundle) => Ok((**bundle).clone()),
            LessonSource::BuiltIn(name) => {
                let b = builtin(name).ok_or_else(|| source.load().unwrap_err())?;
                let name = format!("{}.json", b.name);
                gather(name, b.text(), &|p| b.read(&Path::new("lessons").join(p)))
            }
            LessonSource::File(path) => {
                // Its problems named by its whole path first.
                source.load()?;
                let bytes = std::fs::read(path)
                    .map_err(|e| FileError::new(path, Problem::io("cannot read the file", e)))?;
                let lesson = String::from_utf8(bytes).map_err(|e| {
                    FileError::new(
                        path,
                        Problem::NotText {
                            offset: e.utf8_error().valid_up_to(),
                        },
                    )
                })?;
                let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
                let name = path
                    .file_name()
                    .map_or("lesson.json".into(), |n| n.to_string_lossy().into_owned());
                gather(name, &lesson, &|p| std::fs::read(dir.join(p)))
            }
        }
    }

    /// A lesson file given alone (dropped in the browser): the files it names cannot be read,
    /// and reading it says so for the first.
    pub fn alone(name: String, bytes: &[u8]) -> LessonBundle {
        LessonBundle {
            name,
            lesson: String::from_utf8_lossy(bytes).into_owned(),
            files: BTreeMap::new(),
        }
    }

    /// The lesson, read and checked, its files taken from the bundle.
    fn load(&self) -> Result<Lesson, FileError> {
        Lesson::parse(
            Path::new(&self.name),
            self.lesson.as_bytes(),
            &|p: &Path| {
                let key = p.to_string_lossy();
                self.files
                    .get(key.as_ref())
                    .map(|text| text.as_bytes().to_vec())
                    .ok_or_else(|| {
                        std::io::Error::new(
                            std::io::ErrorKind::NotFound,
                            "not among the files carried with the lesson",
                        )
                    })
            },
        )
    }
}

/// The lesson `lesson` (named `name`) with the files it names read through `read` (given
/// the path relative to the lesson's folder) and kept.
fn gather(name: String, lesson: &str, read: &Read<'_>) -> Result<LessonBundle, FileError> {
    let files = RefCell::new(BTreeMap::new());
    Lesson::parse(Path::new(&name), lesson.as_bytes(), &|p: &Path| {
        let bytes = read(p)?;
        let text = String::from_utf8(bytes.clone())
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))?;
        files
            .borrow_mut()
            .insert(p.to_string_lossy().into_owned(), text);
        Ok(bytes)
    })?;
    Ok(LessonBundle {
        name,
        lesson: lesson.to_string(),
        files: files.into_inner(),
    })
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
            LessonSource::Bundle(bundle) => bundle.load(),
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
            LessonSource::Bundle(bundle) => format!("the lesson {}", bundle.name),
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
    is_lesson_text(&bytes)
}

/// Whether `bytes` say they are a lesson, as [`is_lesson`] asks of a file.
pub fn is_lesson_text(bytes: &[u8]) -> bool {
    crate::files::format_of(bytes).as_deref() == Some("collidoscope-lesson")
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

    /// `lesson` with its slides' file names left out: a carried lesson names its files by
    /// the path from the lesson (`../shapes/a.json`), not from where it was read.
    fn unnamed(mut lesson: Lesson) -> Lesson {
        for slide in &mut lesson.slides {
            slide.scene_file = None;
        }
        lesson
    }

    #[test]
    fn a_bundle_carries_every_file_its_lesson_names() {
        for b in BUILT_IN {
            let source = LessonSource::BuiltIn(b.name.into());
            let bundle = LessonBundle::gather(&source).unwrap();
            let json = serde_json::to_string(&bundle).unwrap();
            let back: LessonBundle = serde_json::from_str(&json).unwrap();
            let carried = LessonSource::Bundle(Box::new(back)).load().unwrap();
            assert_eq!(
                unnamed(carried),
                unnamed(source.load().unwrap()),
                "{}",
                b.name
            );
        }
        // A lesson file on the disk, naming a shape set beside it.
        let on_disk = LessonSource::File("lessons/sat-polygons.json".into());
        let bundle = LessonBundle::gather(&on_disk).unwrap();
        assert_eq!(bundle.name, "sat-polygons.json");
        assert!(!bundle.files.is_empty());
        assert!(
            bundle.files.keys().all(|k| k.starts_with("../")),
            "{:?}",
            bundle.files.keys()
        );
        let lesson = LessonSource::Bundle(Box::new(bundle)).load().unwrap();
        assert_eq!(unnamed(lesson), unnamed(on_disk.load().unwrap()));
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
