//! Undo and redo: a snapshot of the scene before every edit (scenes are small; a drag is one
//! edit, recorded when it starts).

use crate::scene::Scene;

/// How many edits can be undone.
const LIMIT: usize = 500;

/// Past and undone scenes.
#[derive(Default)]
pub struct History {
    undo: Vec<Scene>,
    redo: Vec<Scene>,
}

impl History {
    /// Remember `before`, the scene as it was before an edit; clears what was undone.
    pub fn record(&mut self, before: Scene) {
        if self.undo.len() == LIMIT {
            self.undo.remove(0);
        }
        self.undo.push(before);
        self.redo.clear();
    }

    /// The scene before the last edit, if any; `current` becomes redoable.
    pub fn undo(&mut self, current: &Scene) -> Option<Scene> {
        let previous = self.undo.pop()?;
        self.redo.push(current.clone());
        Some(previous)
    }

    /// The scene of the last undone edit, if any.
    pub fn redo(&mut self, current: &Scene) -> Option<Scene> {
        let next = self.redo.pop()?;
        self.undo.push(current.clone());
        Some(next)
    }

    /// Whether there is something to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Forget everything (a new document).
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
    }
}
