//! The open document as the app works on it: the shapes, their history, the file they belong
//! to, what is selected and explained, and the core's report of the explained pair.
//!
//! The scene changes only through [`Workspace::apply`] (and undo, redo, open, new): the one
//! place that records undo, marks the document unsaved and marks the report stale. The report
//! is rebuilt by [`Workspace::refresh`], which the app calls once at the start of a frame.

use crate::Judgement;
use crate::app::document::edit::Edit;
use crate::app::document::history::{History, Snapshot};
use crate::app::document::{Document, Recovery};
use crate::broad::{Grid, GridStats, LivePairs};
use crate::diagnose::diagnose_claim;
use crate::query::{PairReport, Toi, Velocity, pair_report, time_of_impact};
use crate::scene::{Claim, Scene, ShapeId};
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
    /// The diagnosis of the claim about the explained pair, if there is one.
    diagnosis: Option<Judgement>,
    /// The explained pair's time of impact over [0, horizon], when either of them moves.
    toi: Option<Toi>,
    /// The span of time the moving pair is followed over: one step's dt.
    horizon: f64,
    /// The broad phase and the intersecting pairs it finds, kept up to date change by change.
    pairs: LivePairs,
    /// The cell size asked for (`None`: chosen from the shapes' sizes).
    cell_size: Option<f64>,
    /// Counts of the grid, found when first asked for after an update.
    broad_stats: std::cell::Cell<Option<GridStats>>,
    /// What the hits are behind on: `None` up to date; shapes that changed; or everything.
    hits_behind: Option<Behind>,
    stale: bool,
    report_builds: u64,
    /// The last changes: the revision each made, and what it changed.
    changes: std::collections::VecDeque<(u64, Change)>,
}

/// What one change of the scene touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    /// One shape (moved, edited, added or removed).
    Shape(ShapeId),
    /// No shape (the claims).
    NoShape,
    /// Anything (undo, redo, a new scene).
    Everything,
}

/// The span the window first finds times of impact over (the command line's default
/// horizon).
pub const MOTION_HORIZON: f64 = 1.0;

/// How many changes [`Workspace::shapes_changed_since`] remembers.
const CHANGES_KEPT: usize = 256;

/// What changed since the intersecting pairs were last found.
#[derive(Clone, Debug, PartialEq)]
enum Behind {
    /// These shapes moved, changed, appeared or went: only their pairs are found again.
    Shapes(Vec<ShapeId>),
    /// Everything (a new scene, undo, a new cell size): the grid is built again.
    All,
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
            diagnosis: None,
            toi: None,
            horizon: MOTION_HORIZON,
            pairs: LivePairs::default(),
            cell_size: None,
            hits_behind: Some(Behind::All),
            broad_stats: std::cell::Cell::new(None),
            stale: true,
            report_builds: 0,
            changes: std::collections::VecDeque::new(),
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

    /// Copy the scene to the recovery file when the document asks for it (no copy of the
    /// scene a frame: the document borrows it); an error message if writing failed.
    pub fn autosave(
        &mut self,
        now: crate::app::platform::Instant,
        editing: bool,
    ) -> Option<String> {
        self.document.autosave(&self.scene, now, editing)
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
            Edit::Replace { gesture, .. } | Edit::Gravity { gesture, .. } => *gesture,
            _ => None,
        };
        let everything = matches!(edit, Edit::Scene(_));
        let valid = match &edit {
            Edit::Add(_) => true,
            Edit::Remove(id) => self.scene.get(*id).is_some(),
            Edit::Replace { shape, .. } => self
                .scene
                .get(shape.id)
                .is_some_and(|current| current != shape),
            Edit::Claims(claims) => *claims != self.scene.claims,
            Edit::Gravity { gravity, .. } => *gravity != self.scene.gravity,
            Edit::Scene(scene) => **scene != self.scene,
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
        let changed = match edit {
            Edit::Add(shape) => {
                let id = self.scene.add(shape);
                self.selected = Some(id);
                Some(id)
            }
            Edit::Remove(id) => {
                self.scene.remove(id);
                if self.selected == Some(id) {
                    self.selected = None;
                }
                Some(id)
            }
            Edit::Replace { shape, .. } => {
                let id = shape.id;
                if let Some(slot) = self.scene.get_mut(id) {
                    *slot = shape;
                }
                Some(id)
            }
            Edit::Claims(claims) => {
                self.scene.claims = claims;
                None
            }
            Edit::Gravity { gravity, .. } => {
                self.scene.gravity = gravity;
                None
            }
            Edit::Scene(scene) => {
                self.scene = *scene;
                self.hits_behind = Some(Behind::All);
                None
            }
        };
        if let Some(id) = changed {
            self.shape_changed(id);
        }
        self.revision = self.next_revision;
        self.next_revision += 1;
        self.log_change(match (changed, everything) {
            (_, true) => Change::Everything,
            (Some(id), _) => Change::Shape(id),
            (None, _) => Change::NoShape,
        });
        // The report is about the pair: another shape's edit leaves it as it is; a claim's
        // edit changes its diagnosis.
        let in_pair = match changed {
            Some(id) => self.pair.is_none_or(|(a, b)| a == id || b == id),
            None => true,
        };

        let was_stale = self.stale;
        self.changed();
        self.stale = was_stale || in_pair;
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
        self.log_change(Change::Everything);
        self.hits_behind = Some(Behind::All);
        self.changed();
    }

    /// Log the change that made the current revision.
    fn log_change(&mut self, change: Change) {
        if self.changes.len() == CHANGES_KEPT {
            self.changes.pop_front();
        }
        self.changes.push_back((self.revision, change));
    }

    /// The shapes edited since the scene was at `revision` (empty: the same scene), or
    /// `None` when that is not known (undo, redo, a new scene, or too long ago). What lets a
    /// view keep what it drew of the shapes that did not change.
    pub fn shapes_changed_since(&self, revision: u64) -> Option<Vec<ShapeId>> {
        let mut shapes = Vec::new();
        if revision == self.revision {
            return Some(shapes);
        }
        for &(after, change) in self.changes.iter().rev() {
            if after == revision {
                return Some(shapes);
            }
            match change {
                Change::Shape(id) => shapes.push(id),
                Change::NoShape => {}
                Change::Everything => return None,
            }
        }
        None
    }

    /// Shape `id` moved, changed, appeared or went: its grid cells and its pairs follow.
    fn shape_changed(&mut self, id: ShapeId) {
        match &mut self.hits_behind {
            Some(Behind::All) => {}
            Some(Behind::Shapes(ids)) => {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
            None => self.hits_behind = Some(Behind::Shapes(vec![id])),
        }
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
        self.hits_behind = Some(Behind::All);
        self.revision = self.next_revision;
        self.next_revision += 1;
        self.log_change(Change::Everything);
        self.history.clear();
        self.selected = None;
        self.pair = None;
        self.stale = true;
    }

    /// A new, empty, unsaved-as-nothing document.
    pub fn new_document(&mut self) {
        self.new_document_with(Scene::default());
    }

    /// A new document holding `scene` (a built-in example), with no file and nothing to save
    /// until it is changed.
    pub fn new_document_with(&mut self, scene: Scene) {
        self.replace_scene(scene);
        self.document.reset(self.revision);
    }

    /// `scene`, just imported from a level: a new document with no file, unsaved (closing
    /// or replacing it asks first).
    pub fn imported(&mut self, scene: Scene) {
        self.replace_scene(scene);
        self.document.reset(self.revision);
        self.document.saved_revision = None;
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
        self.hits_behind = Some(Behind::All);
        self.revision = self.next_revision;
        self.next_revision += 1;
        self.log_change(Change::Everything);
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

    /// Bring the report up to date if anything changed since it was built: the grid and
    /// the intersecting pairs (only those of shapes that changed, unless everything did),
    /// and the explained pair's report. The app calls it once a frame.
    pub fn refresh(&mut self) {
        if let Some(behind) = self.hits_behind.take() {
            self.update_hits(behind);
        }
        if !self.stale {
            return;
        }
        self.stale = false;
        self.report_builds += 1;
        let shapes = &self.scene.shapes;
        if shapes.len() < 2 {
            self.pair = None;
            self.report = None;
            self.diagnosis = None;
            self.toi = None;
            return;
        }
        if self.pair_indices().is_none() {
            // The pair `explain` and `render` pick.
            let scene = &self.scene;
            let mut hits: Vec<(usize, usize)> = self
                .pairs
                .hits()
                .iter()
                .filter_map(|&(a, b)| Some((scene.index_of(a)?, scene.index_of(b)?)))
                .map(|(i, j)| (i.min(j), i.max(j)))
                .collect();
            hits.sort_unstable();
            self.pair = crate::picture::default_pair(scene, &hits)
                .map(|(a, b)| (shapes[a].id, shapes[b].id));
        }
        let (a, b) = self.pair_indices().expect("a valid pair was just chosen");
        self.report = Some(pair_report(&shapes[a].placed, &shapes[b].placed));
        self.diagnosis = self
            .claim()
            .and_then(|claim| diagnose_claim(&self.scene, claim));
        let (va, vb) = (shapes[a].motion.velocity(), shapes[b].motion.velocity());
        self.toi = (shapes[a].motion.moves() || shapes[b].motion.moves())
            .then(|| time_of_impact(&shapes[a].placed, va, &shapes[b].placed, vb, self.horizon));
    }

    /// The span of time a moving pair is followed over (one step's dt).
    pub fn horizon(&self) -> f64 {
        self.horizon
    }

    /// Follow a moving pair over `[0, horizon]` (finite and > 0; anything else is ignored).
    pub fn set_horizon(&mut self, horizon: f64) {
        if horizon.is_finite() && horizon > 0.0 && horizon != self.horizon {
            self.horizon = horizon;
            self.stale = true;
        }
    }

    /// The explained pair's velocities and time of impact over [0, [`Workspace::horizon`]], when
    /// either of them moves (as of the last refresh).
    pub fn pair_motion(&self) -> Option<((Velocity, Velocity), &Toi)> {
        let toi = self.toi.as_ref()?;
        let (a, b) = self.pair_indices()?;
        let shapes = &self.scene.shapes;
        Some((
            (shapes[a].motion.velocity(), shapes[b].motion.velocity()),
            toi,
        ))
    }

    /// The claim about the explained pair, in its order (A, B), if the scene has one.
    pub fn claim(&self) -> Option<&Claim> {
        let (a, b) = self.pair?;
        self.scene.claims.iter().find(|c| (c.a, c.b) == (a, b))
    }

    /// A claim about the explained pair in the other order (B, A), if any.
    pub fn claim_swapped(&self) -> Option<&Claim> {
        let (a, b) = self.pair?;
        self.scene.claims.iter().find(|c| (c.a, c.b) == (b, a))
    }

    /// The diagnosis of [`Workspace::claim`] (as of the last refresh).
    pub fn diagnosis(&self) -> Option<&Judgement> {
        self.diagnosis.as_ref()
    }

    /// Find the intersecting pairs again: all of them, or only those of the shapes that
    /// changed.
    fn update_hits(&mut self, behind: Behind) {
        match behind {
            Behind::All => self.pairs.rebuild(&self.scene, self.cell_size),
            Behind::Shapes(ids) => self.pairs.update(&self.scene, &ids),
        }
        self.broad_stats.set(None);
    }

    /// What the grid holds and finds (counted when first asked for after a change: a walk
    /// over every cell, which a frame that does not show it need not pay for).
    pub fn broad_stats(&self) -> GridStats {
        if let Some(stats) = self.broad_stats.get() {
            return stats;
        }
        let stats = self.pairs.stats();
        self.broad_stats.set(Some(stats));
        stats
    }

    /// Replace the whole scene with `scene`, a new unsaved document with no file (a
    /// generated scene).
    pub fn generated(&mut self, scene: Scene) {
        self.replace_scene(scene);
        self.document.reset(self.revision);
        // Not saved anywhere yet: worth a `*`.
        self.document.saved_revision = None;
    }

    /// The grid behind the intersecting pairs.
    pub fn grid(&self) -> &Grid {
        self.pairs.grid()
    }

    /// Use cells of `size` (`None`: chosen from the shapes' sizes).
    pub fn set_cell_size(&mut self, size: Option<f64>) {
        if size != self.cell_size {
            self.cell_size = size;
            self.hits_behind = Some(Behind::All);
        }
    }

    /// Every intersecting pair of the scene (ids in list order).
    pub fn hits(&self) -> &[(ShapeId, ShapeId)] {
        self.pairs.hits()
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

    /// The intersecting pairs other than the explained one (ids in list order).
    pub fn other_hits(&self) -> impl Iterator<Item = (ShapeId, ShapeId)> + '_ {
        let explained = self.pair.map(|(a, b)| (a.min(b), a.max(b)));
        self.pairs
            .hits()
            .iter()
            .copied()
            .filter(move |p| Some(*p) != explained)
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
