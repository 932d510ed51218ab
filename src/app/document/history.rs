//! Undo and redo: a snapshot of the scene before every edit (a drag is one edit, recorded when
//! it starts), with the revision it had, so undoing back to the saved state is clean again.

use crate::scene::Scene;

/// How many edits can be undone.
const LIMIT: usize = 500;

/// A scene as it was, and its revision.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The shapes.
    pub scene: Scene,
    /// Its revision (see [`crate::app::document::workspace::Workspace::revision`]).
    pub revision: u64,
}

/// Past and undone scenes.
#[derive(Default)]
pub struct History {
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    /// The drag whose first edit was recorded last: its later edits add no step.
    gesture: Option<u64>,
}

impl History {
    /// Remember `before`, the scene as it was before an edit of `gesture` (clears what was
    /// undone). An edit of the same drag as the last one adds nothing: the drag is one step.
    pub fn record(&mut self, before: impl FnOnce() -> Snapshot, gesture: Option<u64>) {
        if gesture.is_some() && gesture == self.gesture {
            return;
        }
        self.gesture = gesture;
        if self.undo.len() == LIMIT {
            self.undo.remove(0);
        }
        self.undo.push(before());
        self.redo.clear();
    }

    /// The scene before the last edit, if any; `current` becomes redoable.
    pub fn undo(&mut self, current: Snapshot) -> Option<Snapshot> {
        self.gesture = None;
        let previous = self.undo.pop()?;
        self.redo.push(current);
        Some(previous)
    }

    /// The scene of the last undone edit, if any.
    pub fn redo(&mut self, current: Snapshot) -> Option<Snapshot> {
        self.gesture = None;
        let next = self.redo.pop()?;
        self.undo.push(current);
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
        self.gesture = None;
    }
}
