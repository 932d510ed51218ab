//! The window as tests and benchmarks drive it: read-only getters, and changes that go
//! through [`App::run`] like the panels' (plus the few a test needs that no panel makes).

use super::*;

impl App {
    /// [`App::show`], for egui_kittest harnesses.
    pub fn ui_for_test(&mut self, ui: &mut egui::Ui) {
        self.show(ui);
    }

    /// Copy the scene to the recovery file now if it changed since the last copy, as the
    /// window does once an edit ends: what the window's own thread spends on it.
    pub fn autosave_now(&mut self) {
        let now = platform::Instant::now();
        if let Some(problem) = self.user_workspace().autosave(now, false) {
            self.say(problem, true);
        }
    }

    /// Wait until the data folder's writes asked so far (the recovery copy, the recent list)
    /// are done; what went wrong with them is said at the next frame.
    pub fn flush_data_folder(&mut self) {
        self.user_workspace().document.flush();
    }

    /// The link Copy link put on the clipboard last.
    pub fn copied_link(&self) -> Option<&str> {
        self.copied.as_deref()
    }

    /// The query the window last put in the page's address (in the browser; recorded on the
    /// desktop too, where there is no address): `None` if it never did.
    pub fn address(&self) -> Option<&str> {
        self.address.as_deref()
    }

    /// The page's title and what the pair says, as the web page shows them.
    pub fn published(&self) -> (String, String) {
        (self.title_text(), self.said())
    }

    /// The shapes.
    pub fn scene(&self) -> &Scene {
        self.workspace.scene()
    }

    /// The explained pair (A, B) as positions in the shape list.
    pub fn pair(&self) -> Option<(usize, usize)> {
        self.workspace.pair_indices()
    }

    /// Explain the shapes at positions `a` and `b` of the list.
    pub fn set_pair(&mut self, a: usize, b: usize) {
        let shapes = &self.workspace.scene().shapes;
        if let (Some(x), Some(y)) = (shapes.get(a), shapes.get(b)) {
            let (x, y) = (x.id, y.id);
            self.run(Command::Explain(x, y));
            self.workspace.refresh();
        }
    }

    /// The explained pair's report (as of the last frame).
    pub fn report(&self) -> Option<&PairReport> {
        self.workspace.report()
    }

    /// How many times the report has been built since the app started.
    pub fn report_builds(&self) -> u64 {
        self.workspace.report_builds()
    }

    /// The current step of step mode, if on.
    pub fn step(&self) -> Option<usize> {
        self.pair_lab.step()
    }

    /// Every intersecting pair the window marks (list positions, sorted), as of the last
    /// frame.
    pub fn hits(&self) -> Vec<(usize, usize)> {
        let scene = self.workspace.scene();
        let mut pairs: Vec<(usize, usize)> = self
            .workspace
            .hits()
            .iter()
            .filter_map(|(a, b)| Some((scene.index_of(*a)?, scene.index_of(*b)?)))
            .collect();
        pairs.sort_unstable();
        pairs
    }

    /// The mistake whose test the Claimed tab shows beside the correct one.
    pub fn shown_mistake(&self) -> Option<crate::query::Mistake> {
        self.pair_lab.claimed.shown_mistake()
    }

    /// Whether the help window is shown.
    pub fn help_open(&self) -> bool {
        self.help_window.is_open()
    }

    /// Whether the welcome of a first start is shown.
    pub fn welcome_open(&self) -> bool {
        self.welcome.open
    }

    /// The status bar message.
    pub fn message(&self) -> Option<&Message> {
        self.status_bar.message()
    }

    /// The selected shape.
    pub fn selected(&self) -> Option<ShapeId> {
        self.workspace.selected()
    }

    /// How many corners of a polygon being added by clicking there are (`None`: not adding
    /// one).
    pub fn polygon_corners(&self) -> Option<usize> {
        self.scene_view.polygon_corners()
    }

    /// The open file, if any.
    pub fn path(&self) -> Option<&Path> {
        self.workspace.document.path.as_deref()
    }

    /// What the path field holds.
    pub fn path_field(&self) -> &str {
        self.top_bar.path_field()
    }

    /// Whether there are unsaved changes.
    pub fn is_dirty(&self) -> bool {
        self.workspace.is_dirty()
    }

    /// The title bar text.
    pub fn title(&self) -> String {
        self.title_text()
    }

    /// Where the scene view was drawn last frame.
    pub fn view_rect(&self) -> egui::Rect {
        self.scene_view.rect()
    }

    /// The view of the scene: where it looks and at what zoom.
    pub fn camera(&self) -> Camera {
        self.scene_view.camera()
    }

    /// Where a world point is on the screen (as of the last frame): for tests that aim the
    /// pointer at a shape.
    pub fn world_to_screen(&self, p: DVec2) -> egui::Pos2 {
        self.scene_view.world_to_screen(p)
    }

    /// The selected shape's handles and where they are on the screen (as of the last frame).
    pub fn handles_on_screen(&self) -> Vec<(crate::picture::handles::HandleKind, egui::Pos2)> {
        self.scene_view.handles_on_screen(&self.workspace)
    }

    /// One frame's work without a window: the core's reports and the scene view's draw list
    /// for a view of `rect` (what the frame benchmark measures).
    pub fn frame_work(&mut self, rect: egui::Rect) -> PaintedFrame {
        self.refresh_labs(0.0);
        let labs = lab_refs!(self);
        let view = lab_view(self.lab, &self.workspace, labs);
        self.scene_view
            .draw_list(rect, &self.workspace, &self.options, &view)
    }

    /// The scene view's kept layers let go (as a new look of the screen lets them go): the
    /// next frame builds both from nothing.
    pub fn forget_view_layers(&mut self) {
        self.scene_view.forget_layers();
    }

    /// Select the shape at list position `index` (or nothing), as a click does.
    pub fn select(&mut self, index: Option<usize>) {
        let id = index
            .and_then(|i| self.workspace.scene().shapes.get(i))
            .map(|s| s.id);
        self.run(Command::Select(id));
    }

    /// Show part of the scene, as F and G do (at the next frame).
    pub fn fit(&mut self, fit: Fit) {
        self.run(Command::Fit(fit));
    }

    /// Apply an edit as the panels do (for benchmarks and tests that drive the app without
    /// a pointer).
    pub fn apply_edit(&mut self, edit: Edit) {
        self.run(Command::Edit(edit));
    }

    /// Replace the scene (a new clean document holding `scene`, as if the app had started
    /// on it): the view and the labs start over as they do when a file is opened.
    pub fn set_scene(&mut self, scene: Scene) {
        let data_dir = self.workspace.document.data_dir().map(Path::to_path_buf);
        self.workspace = Workspace::new(scene, data_dir);
        self.after_document_change();
    }

    /// Show `lab`.
    pub fn set_lab(&mut self, lab: Lab) {
        self.run(Command::Lab(lab));
    }

    /// The casts lab's ray (from, to), once the lab has been shown.
    pub fn ray(&self) -> Option<(DVec2, DVec2)> {
        self.casts_lab.ray
    }

    /// The casts lab's hits as of the last frame: (list position, hit), by fraction.
    pub fn ray_hits(&self) -> &[(usize, crate::query::RayHit)] {
        self.casts_lab.hits()
    }

    /// The motion lab (its frame, run and events), for tests.
    pub fn motion_lab(&self) -> &MotionLab {
        &self.motion_lab
    }

    /// The latency lab.
    pub fn latency_lab(&self) -> &LatencyLab {
        &self.latency_lab
    }

    /// Wait until the latency lab's engine has taken the packets arrived at its settings (its
    /// work runs on a thread of its own); the next frame shows it.
    pub fn settle_latency(&mut self) {
        self.latency_lab.settle();
    }

    /// The capture lab.
    pub fn capture_lab(&self) -> &CaptureLab {
        &self.capture_lab
    }

    /// The lab shown.
    pub fn lab(&self) -> Lab {
        self.lab
    }

    /// The span a moving pair is followed over (the Motion tab's T).
    pub fn horizon(&self) -> f64 {
        self.workspace.horizon()
    }

    /// What the scene view draws and which panels show.
    pub fn options(&self) -> ViewOptions {
        self.options
    }
}
