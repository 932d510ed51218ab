//! The lessons the program carries (Help > Lessons, `lesson list`, `lesson export --builtin`).
//! Each is an ordinary lesson file under `lessons/` in the repository, read through a table of
//! the files compiled in: the lesson itself and the shape sets and packet logs it names
//! (`shapes/` and `logs/` beside it, as on disk), so `collidoscope lesson
//! lessons/sat-polygons.json` in a checkout shows the same lesson.

use super::file::Lesson;
use crate::files::FileError;
use std::path::{Component, Path, PathBuf};

/// A lesson the program carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltIn {
    /// What `--builtin` takes: lowercase words joined by `-`; the file is `lessons/NAME.json`.
    pub name: &'static str,
    text: &'static str,
}

macro_rules! built_in {
    ($($name:literal),* $(,)?) => {
        /// Every lesson the program carries, in the order a course would take them.
        pub const BUILT_IN: &[BuiltIn] = &[$(BuiltIn {
            name: $name,
            text: include_str!(concat!("../../lessons/", $name, ".json")),
        }),*];
    };
}

built_in![
    "sat-polygons",
    "circles-corner-axis",
    "mtv-direction",
    "closest-points",
    "tunnelling",
    "grid-broad-phase",
    "late-packets",
];

macro_rules! files {
    ($($path:literal),* $(,)?) => {
        /// The files the built-in lessons name, by their path from the repository's root.
        const FILES: &[(&str, &str)] = &[$(($path, include_str!(concat!("../../", $path)))),*];
    };
}

files![
    "shapes/corner-false-positive.json",
    "shapes/clockwise-rectangle-mtv.json",
    "shapes/clockwise-obstacle.json",
    "shapes/clockwise-obstacle-run.json",
    "shapes/apart-capsules.json",
    "shapes/triangles-slanted-gap.json",
    "logs/late-dodge.json",
    "logs/lace-three-players.json",
    "lessons/scenes/scattered.json",
    "lessons/scenes/ball-and-wall.json",
];

/// The built-in lesson called `name`.
pub fn builtin(name: &str) -> Option<BuiltIn> {
    BUILT_IN.iter().copied().find(|b| b.name == name)
}

impl BuiltIn {
    /// Where the lesson is in the repository, which names it in messages.
    pub fn path(&self) -> PathBuf {
        PathBuf::from(format!("lessons/{}.json", self.name))
    }

    /// The lesson, read as its file would be.
    ///
    /// # Errors
    /// Only if the lesson compiled in is broken, which `tests/lessons.rs` rules out.
    pub fn lesson(&self) -> Result<Lesson, FileError> {
        Lesson::parse(&self.path(), self.text.as_bytes(), &|path: &Path| {
            self.read(path)
        })
    }

    /// The lesson file's text.
    pub(super) fn text(&self) -> &'static str {
        self.text
    }

    /// A file the lesson names, by its path from the repository's root (`lessons/../shapes/a.json`
    /// is `shapes/a.json`).
    pub(super) fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        let wanted = normal(path);
        FILES
            .iter()
            .find(|(name, _)| Path::new(name) == wanted)
            .map(|(_, text)| text.as_bytes().to_vec())
            .ok_or_else(|| {
                std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "not among the files compiled in with the built-in lessons",
                )
            })
    }

    /// The lesson's title (from its file), read once for every built-in lesson: a menu asks
    /// for them every frame it is open.
    pub fn title(&self) -> &'static str {
        static TITLES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
        let titles = TITLES.get_or_init(|| {
            BUILT_IN
                .iter()
                .map(|b| b.lesson().map_or_else(|e| e.to_string(), |l| l.title))
                .collect()
        });
        let k = BUILT_IN
            .iter()
            .position(|b| b.name == self.name)
            .expect("a built-in lesson is in BUILT_IN");
        &titles[k]
    }
}

/// `path` with `name/..` pairs and `.` taken out: `lessons/../shapes/a.json` is
/// `shapes/a.json`.
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// A lesson a link names that the window does not carry.
pub fn unknown_lesson_in_link(name: &str) -> String {
    let names: Vec<&str> = crate::lesson::BUILT_IN.iter().map(|b| b.name).collect();
    format!(
        "the link's `lesson` is `{name}`, which is not a built-in lesson ({})",
        names.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_normalised_as_a_file_system_would() {
        assert_eq!(
            normal(Path::new("lessons/../shapes/./a.json")),
            Path::new("shapes/a.json")
        );
        assert_eq!(normal(Path::new("../a.json")), Path::new("../a.json"));
        assert_eq!(normal(Path::new("a/../../b")), Path::new("../b"));
        assert_eq!(normal(Path::new("../../b")), Path::new("../../b"));
    }

    #[test]
    fn a_file_not_compiled_in_is_named() {
        assert!(builtin("no-such-lesson").is_none());
    }
}
