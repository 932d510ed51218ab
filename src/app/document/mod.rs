//! The open document: where it lives, whether it changed, the recent files, and the recovery
//! copy autosaved to the user's data folder.

pub(crate) mod data_writer;
pub(crate) mod edit;
pub(crate) mod examples;
pub(crate) mod history;
pub(crate) mod path_field;
pub(crate) mod workspace;

use crate::app::document::data_writer::DataWriter;
use crate::app::platform::Instant;
use crate::scene::{self, Scene};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How often unsaved work is copied to the recovery file during a drag.
pub const AUTOSAVE_EVERY: Duration = Duration::from_secs(3);
const RECENT_LIMIT: usize = 8;

/// Where the scene came from and what happened to it since.
pub struct Document {
    /// The file it was opened from or last saved to.
    pub path: Option<PathBuf>,
    /// The revision of the scene as it is in that file (or as a new document started):
    /// the document is unsaved exactly when the scene's revision differs.
    pub saved_revision: Option<u64>,
    /// Recently opened or saved files, newest first.
    pub recent: Vec<PathBuf>,
    /// The folder of the recovery file and the recent list (`None`: no autosave).
    data_dir: Option<PathBuf>,
    /// When the recovery file was last written, and whether edits came since.
    last_autosave: Option<Instant>,
    unsaved_since_autosave: bool,
    /// Writes to the data folder off the window's thread.
    writer: DataWriter,
}

/// The data folder's mark that the welcome was dismissed.
const WELCOMED: &str = "welcomed";

/// A recovery file left by a session that did not close cleanly.
#[derive(Clone, Debug)]
pub struct Recovery {
    /// The scene it holds.
    pub scene: Scene,
    /// The document it was a copy of, if it had been saved before.
    pub path: Option<PathBuf>,
    /// When it was written.
    pub written: Option<SystemTime>,
}

impl Document {
    /// A new, unsaved document, keeping its recovery copy and recent list in `data_dir`.
    pub fn new(data_dir: Option<PathBuf>) -> Self {
        let recent = data_dir
            .as_ref()
            .and_then(|d| std::fs::read_to_string(d.join("recent.txt")).ok())
            .map(|text| {
                text.lines()
                    .filter(|l| !l.is_empty())
                    .map(PathBuf::from)
                    .collect()
            })
            .unwrap_or_default();
        Self {
            path: None,
            saved_revision: Some(0),
            recent,
            data_dir,
            last_autosave: None,
            unsaved_since_autosave: false,
            writer: DataWriter::default(),
        }
    }

    /// The data folder the platform gives the user: `$COLLIDOSCOPE_DATA_DIR`, else
    /// `$XDG_DATA_HOME/collidoscope`, else `~/.local/share/collidoscope`.
    pub fn default_data_dir() -> Option<PathBuf> {
        if let Some(dir) = std::env::var_os("COLLIDOSCOPE_DATA_DIR") {
            return Some(PathBuf::from(dir));
        }
        if let Some(dir) = std::env::var_os("XDG_DATA_HOME") {
            return Some(PathBuf::from(dir).join("collidoscope"));
        }
        std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share/collidoscope"))
    }

    /// The folder of the recovery file and the recent list, if any.
    pub fn data_dir(&self) -> Option<&Path> {
        self.data_dir.as_deref()
    }

    /// Whether the welcome of a first start is still to be shown: there is a data folder
    /// (a real session, not a test's) and it holds no mark of a welcome dismissed.
    pub fn welcome_due(&self) -> bool {
        self.data_dir
            .as_ref()
            .is_some_and(|d| !d.join(WELCOMED).exists())
    }

    /// Remember that the welcome was dismissed (in the data folder, beside the recent list).
    pub fn welcomed(&self) {
        if let Some(dir) = &self.data_dir {
            let _ = std::fs::create_dir_all(dir);
            let _ = std::fs::write(dir.join(WELCOMED), "the welcome was dismissed\n");
        }
    }

    /// Whether the scene at `revision` differs from the saved one.
    pub fn is_dirty(&self, revision: u64) -> bool {
        self.saved_revision != Some(revision)
    }

    /// The document's name: its file name, or `untitled`.
    pub fn name(&self) -> String {
        self.path
            .as_ref()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "untitled".into())
    }

    /// The title bar text: the file name, `*` when changed.
    pub fn title(&self, dirty: bool) -> String {
        format!(
            "{}{} - collidoscope",
            if dirty { "*" } else { "" },
            self.name()
        )
    }

    /// Note an edit (or an undo or redo): the recovery copy is behind.
    pub fn changed(&mut self) {
        self.unsaved_since_autosave = true;
    }

    /// The document is now `path`, as it is on disk at `revision`.
    pub fn opened(&mut self, path: &Path, revision: u64) {
        self.path = Some(path.to_path_buf());
        self.saved_revision = Some(revision);
        self.unsaved_since_autosave = false;
        self.remember(path);
        self.discard_recovery();
    }

    /// A new, empty document at `revision`.
    pub fn reset(&mut self, revision: u64) {
        self.path = None;
        self.saved_revision = Some(revision);
        self.unsaved_since_autosave = false;
        self.discard_recovery();
    }

    fn remember(&mut self, path: &Path) {
        // Absolute: the list is read again by sessions started from other folders.
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        self.recent.retain(|p| p != &path);
        self.recent.insert(0, path);
        self.recent.truncate(RECENT_LIMIT);
        if let Some(dir) = &self.data_dir {
            let text: String = self
                .recent
                .iter()
                .map(|p| format!("{}\n", p.display()))
                .collect();
            self.writer.recent(dir.join("recent.txt"), text);
        }
    }

    fn recovery_paths(&self) -> Option<(PathBuf, PathBuf)> {
        let dir = self.data_dir.as_ref()?;
        Some((dir.join("recovery.json"), dir.join("recovery-path.txt")))
    }

    /// Copy the scene to the recovery file when there are edits the last copy lacks. While an
    /// edit is still going on (`editing`: a drag), at most every [`AUTOSAVE_EVERY`]; once it
    /// is done, at once. The copy is written on the data folder's own thread; returns what
    /// went wrong with a copy written since the last call, if anything did.
    pub fn autosave(&mut self, scene: &Scene, now: Instant, editing: bool) -> Option<String> {
        let problem = self.writer.take_problem();
        if !self.unsaved_since_autosave {
            return problem;
        }
        let recent = self
            .last_autosave
            .is_some_and(|t| now.duration_since(t) < AUTOSAVE_EVERY);
        let Some((file, path_file)) = self.recovery_paths().filter(|_| !(editing && recent)) else {
            return problem;
        };
        self.last_autosave = Some(now);
        self.unsaved_since_autosave = false;
        // Absolute, as the recent list: the next session may start from another folder.
        let path_text = self
            .path
            .as_ref()
            .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone()))
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        self.writer.recovery(scene, file, path_file, path_text);
        problem
    }

    /// Wait until every write to the data folder asked so far is done.
    pub fn flush(&mut self) {
        self.writer.flush();
    }

    /// A recovery copy left behind by a session that did not close cleanly.
    pub fn pending_recovery(&self) -> Option<Recovery> {
        let (file, path_file) = self.recovery_paths()?;
        let written = std::fs::metadata(&file).and_then(|m| m.modified()).ok();
        let scene = scene::load(&file).ok()?;
        let path = std::fs::read_to_string(path_file)
            .ok()
            .filter(|p| !p.trim().is_empty())
            .map(|p| PathBuf::from(p.trim()));
        Some(Recovery {
            scene,
            path,
            written,
        })
    }

    /// Remove the recovery copy (after a save, a clean exit, or when the user declines it).
    pub fn discard_recovery(&mut self) {
        if let Some((file, path_file)) = self.recovery_paths() {
            self.writer.discard(file, path_file);
        }
        self.last_autosave = None;
    }
}

#[cfg(test)]
mod tests {
    use super::Document;
    use std::path::Path;

    #[test]
    fn recent_files_are_remembered_absolute() {
        let data = tempfile::tempdir().unwrap();
        let mut document = Document::new(Some(data.path().to_path_buf()));
        document.opened(Path::new("levels/wall.json"), 0);
        document.flush();
        let remembered = &document.recent[0];
        assert!(remembered.is_absolute(), "{}", remembered.display());
        assert!(remembered.ends_with("levels/wall.json"));
        let again = Document::new(Some(data.path().to_path_buf()));
        assert_eq!(&again.recent[0], remembered);
    }
}
