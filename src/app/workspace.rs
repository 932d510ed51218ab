//! The open document as the app works on it: the shapes, their history, the file they belong
//! to, what is selected and explained, and the core's report of the explained pair.
//!
//! The scene changes only through [`Workspace::apply`] (and undo, redo, open, new): the one
//! place that records undo, marks the document unsaved and marks the report stale. The report
//! is rebuilt by [`Workspace::refresh`], which the app calls once at the start of a frame.

use super::document::{Document, Recovery};
use super::edit::Edit;
use super::history::{History, Snapshot};
use crate::query::{PairReport, collide, pair_report};
use crate::scene::{Scene, ShapeId};
use std::path::{Path, PathBuf};

/// The document, its selection and its report.
pub struct Workspace {
    scene: Scene,
    /// Names the scene's state: every edit gives a new one; undo brings the old one back.
    revision: u64,
    next_revision: u64,
    history: History,
    /// The file, the recent list and the recovery copy.
    pub document: Document,
    selected: Option<ShapeId>,
    /// The explained pair (A, B).
    pair: Option<(ShapeId, ShapeId)>,
    report: Option<PairReport>,
    other_hits: Vec<(ShapeId, ShapeId)>,
    stale: bool,
    report_builds: u64,
}

impl Workspace {
    /// A workspace on `scene`, a new unsaved document keeping its recovery copy in `data_dir`.
    pub fn new(scene: Scene, data_dir: Option<PathBuf>) -> Self {
        let mut workspace = Self {
            scene: Scene::default(),
            revision: 0,
            next_revision: 1,
            history: History::default(),
            document: Document::new(data_dir),
            selected: None,
            pair: None,
            report: None,
            other_hits: Vec::new(),
            stale: true,
            report_builds: 0,
        };
        workspace.replace_scene(scene);
        // Clean, with no file; a recovery copy on disk stays to be offered.
        workspace.document.saved_revision = Some(workspace.revision);
        workspace
    }

    /// The shapes.
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The scene's revision: equal revisions are equal scenes.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Whether the scene differs from the saved document.
    pub fn is_dirty(&self) -> bool {
        self.document.is_dirty(self.revision)
    }

    /// The title bar text.
    pub fn title(&self) -> String {
        self.document.title(self.is_dirty())
    }

    /// Apply one edit: the only way the shapes change.
    pub fn apply(&mut self, edit: Edit) {
        let gesture = match &edit {
            Edit::Replace { gesture, .. } => *gesture,
            _ => None,
        };
        let valid = match &edit {
            Edit::Add(_) => true,
            Edit::Remove(id) => self.scene.get(*id).is_some(),
            Edit::Replace { shape, .. } => self
                .scene
                .get(shape.id)
                .is_some_and(|current| current != shape),
        };
        if !valid {
            return;
        }
        let (scene, revision) = (&self.scene, self.revision);
        self.history.record(
            || Snapshot {
                scene: scene.clone(),
                revision,
            },
            gesture,
        );
        match edit {
            Edit::Add(shape) => {
                let id = self.scene.add(shape);
                self.selected = Some(id);
            }
            Edit::Remove(id) => {
                self.scene.remove(id);
                if self.selected == Some(id) {
                    self.selected = None;
                }
            }
            Edit::Replace { shape, .. } => {
                if let Some(slot) = self.scene.get_mut(shape.id) {
                    *slot = shape;
                }
            }
        }
        self.revision = self.next_revision;
        self.next_revision += 1;
        self.changed();
    }

    /// Undo the last edit, if any.
    pub fn undo(&mut self) {
        let current = self.snapshot();
        if let Some(previous) = self.history.undo(current) {
            self.restore(previous);
        }
    }

    /// Redo the last undone edit, if any.
    pub fn redo(&mut self) {
        let current = self.snapshot();
        if let Some(next) = self.history.redo(current) {
            self.restore(next);
        }
    }

    /// Whether there is something to undo.
    pub fn can_undo(&self) -> bool {
        self.history.can_undo()
    }

    /// Whether there is something to redo.
    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            scene: self.scene.clone(),
            revision: self.revision,
        }
    }

    fn restore(&mut self, snapshot: Snapshot) {
        self.scene = snapshot.scene;
        self.revision = snapshot.revision;
        self.changed();
    }

    /// After any change of the shapes: ids still valid, report stale, recovery copy behind.
    fn changed(&mut self) {
        if self.selected.is_some_and(|id| self.scene.get(id).is_none()) {
            self.selected = None;
        }
        self.document.changed();
        self.stale = true;
    }

    /// Replace the whole scene (open, new): no history, nothing selected.
    fn replace_scene(&mut self, scene: Scene) {
        self.scene = scene;
        self.revision = self.next_revision;
        self.next_revision += 1;
        self.history.clear();
        self.selected = None;
        self.pair = None;
        self.stale = true;
    }

    /// A new, empty, unsaved-as-nothing document.
    pub fn new_document(&mut self) {
        self.replace_scene(Scene::default());
        self.document.reset(self.revision);
    }

    /// `scene`, just read from `path`.
    pub fn opened(&mut self, scene: Scene, path: &Path) {
        self.replace_scene(scene);
        self.document.opened(path, self.revision);
    }

    /// The scene was written to `path`: that is the document now, and it is clean.
    pub fn saved(&mut self, path: &Path) {
        self.document.opened(path, self.revision);
    }

    /// Take back the work of a session that did not close cleanly: an edit (undo goes back),
    /// belonging to the document it was a copy of, and not saved yet.
    pub fn recover(&mut self, recovery: Recovery) {
        let (scene, revision) = (&self.scene, self.revision);
        self.history.record(
            || Snapshot {
                scene: scene.clone(),
                revision,
            },
            None,
        );
        self.scene = recovery.scene;
        self.revision = self.next_revision;
        self.next_revision += 1;
        self.document.path = recovery.path;
        self.document.saved_revision = None;
        self.selected = None;
        self.pair = None;
        self.changed();
    }

    /// The selected shape.
    pub fn selected(&self) -> Option<ShapeId> {
        self.selected
    }

    /// Select `id` (or nothing).
    pub fn select(&mut self, id: Option<ShapeId>) {
        self.selected = id.filter(|id| self.scene.get(*id).is_some());
    }

    /// The explained pair (A, B), if the scene has two shapes.
    pub fn pair(&self) -> Option<(ShapeId, ShapeId)> {
        self.pair
    }

    /// Where the explained pair is in the shape list.
    pub fn pair_indices(&self) -> Option<(usize, usize)> {
        let (a, b) = self.pair?;
        Some((self.scene.index_of(a)?, self.scene.index_of(b)?))
    }

    /// Explain `a` (as A) against `b` (as B).
    pub fn set_pair(&mut self, a: ShapeId, b: ShapeId) {
        if a != b && self.scene.get(a).is_some() && self.scene.get(b).is_some() {
            self.pair = Some((a, b));
            self.stale = true;
        }
    }

    /// Rebuild the report if anything changed since it was built: the explained pair's
    /// report and every other intersecting pair. The app calls it once a frame.
    pub fn refresh(&mut self) {
        if !self.stale {
            return;
        }
        self.stale = false;
        self.report_builds += 1;
        let shapes = &self.scene.shapes;
        if shapes.len() < 2 {
            self.pair = None;
            self.report = None;
            self.other_hits.clear();
            return;
        }
        if self.pair_indices().is_none() {
            self.pair = Some((shapes[0].id, shapes[1].id));
        }
        let (a, b) = self.pair_indices().expect("a valid pair was just chosen");
        self.report = Some(pair_report(&shapes[a].placed, &shapes[b].placed));
        self.other_hits.clear();
        let explained = (a.min(b), a.max(b));
        for i in 0..shapes.len() {
            for j in i + 1..shapes.len() {
                if (i, j) != explained && collide(&shapes[i].placed, &shapes[j].placed).is_some() {
                    self.other_hits.push((shapes[i].id, shapes[j].id));
                }
            }
        }
    }

    /// The explained pair's report, as of the last [`Workspace::refresh`].
    pub fn report(&self) -> Option<&PairReport> {
        self.report.as_ref()
    }

    /// Whether the report is behind the scene (it is rebuilt at the next refresh).
    pub fn is_stale(&self) -> bool {
        self.stale
    }

    /// How many times the report has been built (tests check it is at most once a frame).
    pub fn report_builds(&self) -> u64 {
        self.report_builds
    }

    /// The other intersecting pairs (first, second in list order).
    pub fn other_hits(&self) -> &[(ShapeId, ShapeId)] {
        &self.other_hits
    }

    /// The shape `id` as people see it: its name, or `#index`.
    pub fn name_of(&self, id: ShapeId) -> String {
        match self.scene.index_of(id) {
            Some(i) => self.scene.shapes[i].display_name(i),
            None => format!("({id})"),
        }
    }

    /// A name not yet in the scene: `stem-1`, `stem-2`, ...
    pub fn fresh_name(&self, stem: &str) -> String {
        (1..)
            .map(|k| format!("{stem}-{k}"))
            .find(|n| {
                !self
                    .scene
                    .shapes
                    .iter()
                    .any(|s| s.name.as_deref() == Some(n))
            })
            .expect("some name is free")
    }
}
