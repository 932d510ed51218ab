//! Carrying out commands: [`App::run`] is the one place the window's state changes (edits,
//! files, fits, labs, playback, messages), and the file actions it calls.

use super::*;
use crate::app::words;

impl App {
    /// Carry out the frame's commands, in order: the one place where the workspace changes.
    pub(super) fn run_commands(&mut self, ctx: &egui::Context) {
        let commands = std::mem::take(&mut self.commands.0);
        if commands.is_empty() {
            return;
        }
        for command in commands {
            self.run(command);
        }
        // Show what they did at once.
        ctx.request_repaint();
    }

    /// Carry out one command as the window does at the end of a frame: the one way its state
    /// changes (the panels, the keys and tests all come through here).
    pub fn run(&mut self, command: Command) {
        // A lesson file opens in presenter mode: the document is kept aside, nothing to ask.
        // A level (a Tiled map, a Godot scene) is imported as a new set.
        let command = match command {
            Command::Open(path) if crate::lesson::is_lesson(&path) => {
                Command::Lesson(LessonCommand::Open(crate::lesson::LessonSource::File(path)))
            }
            Command::Open(path) if crate::import::is_level_file(&path) => Command::Import(path),
            // A capture the page's picker gave for Compare with a capture...
            Command::OpenBytes { name, bytes }
                if self.capture_lab.wants_compare()
                    && [".jsonl", ".gz"]
                        .iter()
                        .any(|e| name.to_ascii_lowercase().ends_with(e)) =>
            {
                self.lab = Lab::Capture;
                Command::Capture(CaptureCommand::CompareBytes { name, bytes })
            }
            Command::OpenBytes { name, bytes }
                if [".jsonl", ".gz"]
                    .iter()
                    .any(|e| name.to_ascii_lowercase().ends_with(e)) =>
            {
                self.lab = Lab::Capture;
                Command::Capture(CaptureCommand::OpenBytes { name, bytes })
            }
            Command::OpenBytes { name, bytes } if name.to_ascii_lowercase().ends_with(".rec") => {
                self.lab = Lab::Motion;
                Command::Motion(MotionCommand::OpenRunBytes { name, bytes })
            }
            Command::OpenBytes { name, bytes } if crate::latency::is_packet_log_text(&bytes) => {
                self.lab = Lab::Latency;
                Command::Latency(LatencyCommand::OpenLogBytes { name, bytes })
            }
            Command::OpenBytes { name, bytes } if crate::lesson::is_lesson_text(&bytes) => {
                let bundle = crate::lesson::LessonBundle::alone(name, &bytes);
                Command::Lesson(LessonCommand::Open(crate::lesson::LessonSource::Bundle(
                    Box::new(bundle),
                )))
            }
            // A Box2D recording is replayed into a capture, opened in its lab when written.
            Command::Open(path) if crate::capture::is_box2d_recording(&path) => {
                self.lab = Lab::Capture;
                Command::Capture(CaptureCommand::Replay(path))
            }
            other => other,
        };
        // Something else opened: a bad link's notice is no longer about what is shown.
        if command.replaces_document() || matches!(command, Command::Lesson(LessonCommand::Open(_)))
        {
            self.status_bar.dismiss_notice();
        }
        if self.presenter.is_some() && command.replaces_document() {
            // The user's document comes back first: what replaces it replaces theirs.
            self.present(LessonCommand::End);
        }
        let ws = &mut self.workspace;
        match command {
            Command::Lesson(c) => self.present(c),
            Command::Edit(edit) => {
                ws.apply(edit);
                self.status_bar.scene_changed(ws.revision());
            }
            Command::Undo => ws.undo(),
            Command::Redo => ws.redo(),
            // In the capture lab a click picks the captured shapes of a pair to explain.
            Command::Select(id) if self.lab == Lab::Capture && self.capture_lab.is_open() => {
                let pick = CaptureCommand::Pick(id.map(|id| id.0 as usize));
                if let Some(m) = self.capture_lab.apply(pick) {
                    self.say(m.text, m.error);
                }
            }
            Command::Select(id) => ws.select(id),
            Command::Explain(a, b) => {
                ws.set_pair(a, b);
                self.pair_lab.pair_changed();
            }
            Command::New if ws.is_dirty() => self.dialogs.confirm_discard(dialogs::Discard::New),
            Command::New => {
                ws.new_document();
                self.after_document_change();
                self.say("new scene", false);
            }
            // A capture opens in its lab: the document stays as it is.
            Command::Open(path) if crate::capture::is_capture(&path) => self.open_capture(path),
            Command::Open(path) if ws.is_dirty() => match scene::load(&path) {
                // Nothing to discard changes for when the file cannot be read.
                Err(e) => self.say(e.to_string(), true),
                Ok(scene) => self
                    .dialogs
                    .confirm_discard(dialogs::Discard::Open(path, Box::new(scene))),
            },
            Command::Open(path) => self.open(&path),
            Command::OpenBytes { name, bytes } => match words::not_in_browser(&name) {
                Some(said) => self.say(said, true),
                None => match scene::parse(Path::new(&name), &bytes) {
                    Err(e) => self.say(e.to_string(), true),
                    Ok(scene) if ws.is_dirty() => self
                        .dialogs
                        .confirm_discard(dialogs::Discard::Open(name.into(), Box::new(scene))),
                    Ok(scene) => self.opened(scene, Path::new(&name)),
                },
            },
            Command::CopyLink => self.copy_link(),
            Command::Import(path) if ws.is_dirty() => {
                let convert = crate::import::Convert { scale: 1.0 };
                match crate::import::import(&path, convert, true) {
                    // Nothing to discard changes for when the level cannot be read.
                    Err(e) => self.say(e.to_string(), true),
                    Ok(imported) => self
                        .dialogs
                        .confirm_discard(dialogs::Discard::Import(path, Box::new(imported))),
                }
            }
            Command::Import(path) => self.import(&path),
            Command::Merge { selected } => self.merge(selected),
            Command::Save => self.save(),
            Command::SaveAs { path, confirmed } => self.save_as(&path, confirmed),
            Command::Recover(recovery) => {
                ws.recover(*recovery);
                self.after_document_change();
                self.say("recovered the autosaved scene (not saved yet)", false);
            }
            Command::DiscardRecovery => ws.document.discard_recovery(),
            Command::Fit(fit) => self.scene_view.request_fit(fit),
            Command::StartPolygon => {
                self.scene_view.start_polygon();
                self.say(
                    "click the corners in the scene; Backspace removes the last, Enter or Finish adds it, Esc cancels",
                    false,
                );
            }
            Command::FinishPolygon => {
                if let Some(result) = self.scene_view.finish_polygon(ws) {
                    match result {
                        Ok(shape) => ws.apply(Edit::Add(shape)),
                        Err(reason) => self.say(format!("polygon not added: {reason}"), true),
                    }
                }
            }
            Command::CancelPolygon => self.scene_view.cancel_polygon(),
            Command::Generate(options) if ws.is_dirty() => self
                .dialogs
                .confirm_discard(dialogs::Discard::Generate(options)),
            Command::Generate(options) => self.generate(options),
            Command::ShowGenerate => self.generate_window.open = true,
            Command::Help(page) => self.help_window.show(page),
            Command::DismissNotice => self.status_bar.dismiss_notice(),
            Command::DismissWelcome => {
                self.welcome.open = false;
                self.workspace.document.welcomed();
            }
            Command::Example(example) if ws.is_dirty() => self
                .dialogs
                .confirm_discard(dialogs::Discard::Example(example)),
            Command::Example(example) => self.open_example(example),
            Command::CellSize(size) => ws.set_cell_size(size),
            Command::Lab(lab) => {
                // The latency lab's players live elsewhere than the scene's shapes: fit them
                // on the way in, and the scene on the way out.
                if (lab == Lab::Latency) != (self.lab == Lab::Latency) {
                    self.scene_view.request_fit(Fit::Scene);
                }
                self.lab = lab;
            }
            Command::ShowPanel(side) => {
                let shapes = side == crate::app::command::PanelSide::Left;
                match shapes {
                    true => self.options.shapes_panel = true,
                    false => self.options.explain_panel = true,
                }
                self.shapes_panel_last = shapes;
            }
            Command::Horizon(t) => ws.set_horizon(t),
            Command::Ray(from, to) => self.casts_lab.ray = Some((from, to)),
            Command::Say(m) => self.say(m.text, m.error),
            Command::Playback(TimelineId::Motion, c) => self.motion_lab.play(c),
            Command::Playback(TimelineId::Latency, c) => self.latency_lab.play(c),
            Command::Playback(TimelineId::Capture, c) => self.capture_lab.play(c),
            Command::Capture(c) => {
                // Listening and following are the capture lab's: shown at once.
                if matches!(c, CaptureCommand::Listen(_) | CaptureCommand::Follow(_)) {
                    self.lab = Lab::Capture;
                }
                if let Some(m) = self.capture_lab.apply(c) {
                    self.say(m.text, m.error);
                }
            }
            Command::Latency(c) => {
                if let Some(m) = self.latency_lab.apply(c, self.motion_lab.recording()) {
                    self.say(m.text, m.error);
                }
            }
            Command::Motion(c) => {
                let chosen = matches!(c, MotionCommand::ChooseEvent(_));
                if let Some(m) = self.motion_lab.apply(c, &self.workspace) {
                    self.say(m.text, m.error);
                }
                // An event chosen (listed, Next event, E): its pair explained too.
                if chosen && let Some((a, b)) = self.motion_lab.chosen_pair(&self.workspace) {
                    self.run(Command::Explain(a, b));
                }
            }
            Command::LoadClaims(path) => self.load_claims(&path),
            Command::ShowExport => {
                let typed = self.top_bar.path_field().trim();
                let document = (!typed.is_empty()).then(|| Path::new(typed));
                let data_dir = self.workspace.document.data_dir();
                let near = path_field::proposal(document, data_dir, ".json")
                    .unwrap_or_else(|| PathBuf::from("case.json"));
                self.export_window.open(&near);
            }
            Command::ExportFixture { pairs, path, rust } => {
                match platform::export_fixture(ws.scene(), pairs.as_deref(), &path, rust.as_deref())
                {
                    Ok(written) => self.say(written.join("; "), false),
                    Err(e) => self.say(e, true),
                }
            }
        }
    }

    /// Take the claims of the file at `path`, its shape indices naming this scene's shapes.
    pub(super) fn load_claims(&mut self, path: &Path) {
        let loaded = match scene::load(path) {
            Ok(loaded) => loaded,
            Err(e) => return self.say(e.to_string(), true),
        };
        let shapes = &self.workspace.scene().shapes;
        if loaded.shapes.len() != shapes.len() {
            return self.say(
                format!(
                    "{}: its claims are about {} shapes, this scene has {}",
                    path.display(),
                    loaded.shapes.len(),
                    shapes.len()
                ),
                true,
            );
        }
        let count = loaded.claims.len();
        let claims = loaded
            .claims
            .into_iter()
            .map(|mut c| {
                c.a = shapes[c.a.0 as usize].id;
                c.b = shapes[c.b.0 as usize].id;
                c
            })
            .collect();
        self.workspace.apply(Edit::Claims(claims));
        self.say(format!("{count} claims from {}", path.display()), false);
    }

    /// Replace the scene with a random one.
    pub(super) fn generate(&mut self, options: crate::scene::generate::Generate) {
        let scene = crate::scene::generate::random_scene(options);
        self.workspace.generated(scene);
        self.after_document_change();
        self.say(
            format!("generated {} shapes (seed {})", options.count, options.seed),
            false,
        );
    }

    /// Open a built-in scene, in its lab.
    pub(super) fn open_example(&mut self, example: Example) {
        self.workspace.new_document_with(example.scene());
        self.after_document_change();
        if let Some((a, b)) = example.pair() {
            let ids = |k: usize| self.workspace.scene().shapes[k].id;
            let (a, b) = (ids(a), ids(b));
            self.run(Command::Explain(a, b));
        }
        let (lab, settings) = example.lab(self.motion_lab.settings());
        if let Some(settings) = settings
            && let Some(m) = self
                .motion_lab
                .apply(MotionCommand::Settings(settings), &self.workspace)
        {
            self.say(m.text, m.error);
        }
        self.lab = lab;
        self.say(format!("opened the example {}", example.title()), false);
    }

    pub(super) fn say(&mut self, text: impl Into<String>, error: bool) {
        self.status_bar.say(text, error, self.workspace.revision());
    }

    /// After new, open or recover: the view and the lab start over on the new scene.
    pub(super) fn after_document_change(&mut self) {
        self.shapes_panel.import_notes.clear();
        self.scene_view.fit_on_open();
        self.pair_lab.pair_changed();
        self.numbers_panel.forget();
        self.motion_lab.document_changed();
        self.workspace.refresh();
    }

    /// Open the capture at `path` in the capture lab, shown at once (its frames are judged as
    /// they are read).
    pub(super) fn open_capture(&mut self, path: PathBuf) {
        let opened = self.capture_lab.apply(CaptureCommand::Open(path));
        if self.capture_lab.is_open() {
            self.lab = Lab::Capture;
        }
        if let Some(m) = opened {
            self.say(m.text, m.error);
        }
    }

    /// Open `path` now (a capture in the capture lab). A file that fails to load leaves the
    /// scene and the document as they were.
    pub(super) fn open(&mut self, path: &Path) {
        if crate::capture::is_capture(path) {
            return self.open_capture(path.to_path_buf());
        }
        match scene::load(path) {
            Ok(scene) => self.opened(scene, path),
            Err(e) => self.say(e.to_string(), true),
        }
    }

    /// Show `scene`, read from `path`, as the open document.
    fn opened(&mut self, scene: crate::scene::Scene, path: &Path) {
        self.workspace.opened(scene, path);
        self.after_document_change();
        self.say(format!("opened {}", path.display()), false);
    }

    /// Import the level at `path` as a new, unsaved, untitled set, its notes listed in the
    /// shapes panel. Unsupported shapes are left out with a note each (the command line's
    /// `--skip-unsupported`); a file refused leaves everything as it was.
    pub(super) fn import(&mut self, path: &Path) {
        let convert = crate::import::Convert { scale: 1.0 };
        match crate::import::import(path, convert, true) {
            Ok(imported) => self.imported(imported, path),
            Err(e) => self.say(e.to_string(), true),
        }
    }

    /// Show the level `imported` from `path` as a new, unsaved set.
    fn imported(&mut self, imported: crate::import::Imported, path: &Path) {
        let shapes = imported.scene.shapes.len();
        self.workspace.imported(imported.scene);
        self.after_document_change();
        let notes = imported.notes.len();
        self.shapes_panel.import_notes = imported.notes;
        self.top_bar.propose(&crate::import::shape_set_path(path));
        self.say(text::imported(path, shapes, notes), false);
    }

    /// Merge tiles into chains: every surface of static polygons that touch along edges, or
    /// the selected shape's; the selection and the import notes follow the shapes.
    pub(super) fn merge(&mut self, selected: bool) {
        let ws = &mut self.workspace;
        let scene = ws.scene();
        let merged = match ws.selected().filter(|_| selected) {
            Some(id) => crate::import::merge_surface_of(scene, id),
            None => crate::import::merge(scene, None),
        };
        let said = merged.summary();
        if merged.groups.is_empty() {
            self.say(said, true);
            return;
        }
        let moved = |index: usize| merged.moved.get(index).copied();
        let follow = ws
            .selected()
            .and_then(|id| scene.index_of(id))
            .and_then(moved)
            .map(|i| merged.scene.shapes[i].id);
        for note in &mut self.shapes_panel.import_notes {
            note.index = note.index.and_then(moved);
        }
        ws.apply(Edit::Scene(Box::new(merged.scene)));
        ws.select(follow);
        self.status_bar.scene_changed(ws.revision());
        self.say(format!("{said}; Ctrl+Z undoes it"), false);
    }

    /// Save to the document's file; without one, to the path field (asking before writing
    /// over another file); without that, say how to name one.
    pub(super) fn save(&mut self) {
        if let Some(path) = self.workspace.document.path.clone() {
            self.save_as(&path, true);
            return;
        }
        // rfd answers None at once where no dialog can be shown; the path field remains.
        let chosen = platform::save_file().or_else(|| {
            let typed = self.top_bar.path_field().trim();
            (!typed.is_empty()).then(|| PathBuf::from(typed))
        });
        // In the browser a save is a download: an untitled scene's name is made up.
        let chosen = chosen.or_else(|| (!platform::HAS_FILES).then(|| "untitled.json".into()));
        match chosen {
            Some(path) => self.save_as(&path, false),
            None => self.say(
                "not saved: type a file name in the path field, then Save",
                true,
            ),
        }
    }

    /// Save to `path` (atomically); on failure the message says why and nothing is lost.
    /// Replacing an existing file that is not the open document asks first.
    pub(super) fn save_as(&mut self, path: &Path, confirmed: bool) {
        if !platform::HAS_FILES {
            return self.download(path);
        }
        let is_document = self.workspace.document.path.as_deref() == Some(path);
        if !is_document && crate::import::is_level_file(path) {
            self.say(words::level_not_replaced(path), true);
            return;
        }
        if !confirmed && !is_document && path.exists() {
            self.dialogs.confirm_overwrite(path.to_path_buf());
            return;
        }
        match scene::save(self.workspace.scene(), path) {
            Ok(()) => {
                self.workspace.saved(path);
                self.say(format!("saved {}", path.display()), false);
            }
            Err(e) => self.say(e.to_string(), true),
        }
    }

    /// In the browser: the scene offered as a download named as `path`'s file, which is the
    /// document's name from then on.
    fn download(&mut self, path: &Path) {
        let name = path
            .file_name()
            .map_or("untitled.json".into(), |n| n.to_string_lossy().into_owned());
        match platform::download(&name, scene::to_json(self.workspace.scene()).as_bytes()) {
            Ok(()) => {
                self.workspace.saved(Path::new(&name));
                self.say(words::downloaded(&name), false);
            }
            Err(e) => self.say(e, true),
        }
    }

    /// Put a link to what the window shows on the clipboard: a built-in lesson (or the lesson
    /// the page carries) at its slide; else the shapes with the lab, the explained pair, the
    /// view and the casts lab's ray. A lesson read from a file cannot go in a link: its
    /// slide's shapes go, shown as they are, and the message says so. The capture lab's
    /// capture is a file too: nothing is copied, and the message says why.
    fn copy_link(&mut self) {
        use crate::scene::link::{Shown, scene_query_shown};
        if let Some((query, slide)) = self.presenter.as_ref().and_then(|p| {
            let query = p.link_query()?;
            Some((query, p.slide() + 1))
        }) {
            let link = platform::link_base() + &query;
            let title = self.presenter.as_ref().map(|p| p.lesson().title.clone());
            let said = words::lesson_link_copied(&title.unwrap_or_default(), slide, link.len());
            return self.put_link(link, said);
        }
        let Some(lab) = link_lab(self.lab) else {
            return self.say(words::CAPTURE_NOT_LINKED, true);
        };
        let camera = self.scene_view.camera();
        let width = f64::from(self.scene_view.rect().width()) / camera.scale;
        let shown = Shown {
            lab: Some(lab),
            pair: self.workspace.pair_indices(),
            view: (width.is_finite() && width > 0.0).then_some(crate::scene::link::LinkView {
                centre: camera.centre,
                width,
            }),
            ray: self.casts_lab.ray.filter(|_| self.lab == Lab::Casts),
        };
        let scene = self.workspace.scene();
        let link = platform::link_base() + &scene_query_shown(scene, &shown);
        let shapes = scene.shapes.len();
        let said = match &self.presenter {
            Some(p) => words::file_lesson_link_copied(&p.lesson().title, shapes, link.len()),
            None => words::link_copied(shapes, lab.name(), link.len()),
        };
        self.put_link(link, said);
    }

    /// `link` is the one copied: said, and put on the clipboard at the frame's end.
    fn put_link(&mut self, link: String, said: String) {
        self.say(said, false);
        self.copied = Some(link);
        self.copy_pending = true;
    }

    /// Open what a link asks for (`?lesson=NAME&slide=K`, `?example=NAME`, `?scene=...`, and
    /// the lab, pair, view and ray with a scene or an example; `?slide=K` on a page that
    /// carries a lesson); a bad link says what is wrong, in full, in a notice that stays until
    /// dismissed or something else is opened, and leaves the default scene.
    pub(super) fn open_link(&mut self, query: &str) {
        use crate::scene::link::{LinkRequest, SLIDE_WITHOUT_LESSON, parse_query};
        let problem = match parse_query(query) {
            Ok(LinkRequest::Default) => None,
            Ok(LinkRequest::Example(name, shown)) => match Example::from_name(&name) {
                Ok(example) => match shown.check(example.scene().shapes.len()) {
                    Ok(()) => {
                        self.open_example(example);
                        self.show_linked(&shown);
                        None
                    }
                    Err(e) => Some(e),
                },
                Err(e) => Some(e),
            },
            Ok(LinkRequest::Scene(scene, shown)) => {
                let count = scene.shapes.len();
                self.workspace.new_document_with(scene);
                self.after_document_change();
                self.show_linked(&shown);
                self.say(words::link_scene_opened(count), false);
                None
            }
            Ok(LinkRequest::Lesson { name, slide }) => match crate::lesson::builtin(&name) {
                None => Some(crate::lesson::unknown_lesson_in_link(&name)),
                Some(_) => {
                    self.present(LessonCommand::Open(crate::lesson::LessonSource::BuiltIn(
                        name,
                    )));
                    self.go_to_linked_slide(slide)
                }
            },
            // The page's own lesson (an interactive lesson page), at its slide.
            Ok(LinkRequest::Slide(k)) if self.presenter.as_ref().is_some_and(|p| p.carried) => {
                self.go_to_linked_slide(Some(k))
            }
            Ok(LinkRequest::Slide(_)) => Some(SLIDE_WITHOUT_LESSON.to_string()),
            Err(e) => Some(e),
        };
        if let Some(problem) = problem {
            self.status_bar.notice(words::bad_link(&problem));
            // In the browser the bad query leaves the address (the notice quotes what was
            // wrong), so a reload opens what is shown, not the same complaint; a lesson
            // presented in spite of it puts its own slide there.
            if self.presenter.is_none() {
                platform::show_address("");
                self.address = Some(String::new());
            }
        }
    }

    /// Show slide `slide` (1-based) of the lesson presented, as a link asks; a slide past the
    /// last is the problem returned (the lesson stays at its first).
    fn go_to_linked_slide(&mut self, slide: Option<usize>) -> Option<String> {
        let slides = self
            .presenter
            .as_ref()
            .map_or(0, |p| p.lesson().slides.len());
        match slide {
            Some(k) if k > slides => Some(words::no_such_slide(k, slides)),
            Some(k) => {
                self.present(LessonCommand::Go(k - 1));
                None
            }
            None => None,
        }
    }

    /// Show a linked scene as the link says: its pair explained, its lab (the casts lab's ray
    /// in it), its view; what the link leaves out stays as the scene opened. (The pair was
    /// checked against the scene's shapes as the link was read.)
    fn show_linked(&mut self, shown: &crate::scene::link::Shown) {
        if let Some((a, b)) = shown.pair {
            let ids = |k: usize| self.workspace.scene().shapes[k].id;
            let (a, b) = (ids(a), ids(b));
            self.run(Command::Explain(a, b));
        }
        if let Some(lab) = shown.lab {
            self.run(Command::Lab(window_lab(lab)));
        }
        if let Some((from, to)) = shown.ray {
            self.run(Command::Ray(from, to));
        }
        if let Some(view) = shown.view {
            self.scene_view.request_view(view.centre, view.width);
        }
    }

    /// The user agreed to discard unsaved changes for `action`.
    pub(super) fn discard_confirmed(&mut self, ctx: &egui::Context, action: dialogs::Discard) {
        match action {
            dialogs::Discard::New => {
                self.workspace.new_document();
                self.after_document_change();
                self.say("new scene", false);
            }
            dialogs::Discard::Open(path, scene) => self.opened(*scene, &path),
            dialogs::Discard::Generate(options) => self.generate(options),
            dialogs::Discard::Example(example) => self.open_example(example),
            dialogs::Discard::Import(path, imported) => self.imported(*imported, &path),
            dialogs::Discard::Quit => {
                self.close_confirmed = true;
                self.user_workspace().document.discard_recovery();
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }
}

/// The lab a link names for `lab`; `None` for the capture lab, which a link cannot carry.
fn link_lab(lab: Lab) -> Option<crate::scene::link::LinkLab> {
    use crate::scene::link::LinkLab;
    Some(match lab {
        Lab::Pair => LinkLab::Pair,
        Lab::Broad => LinkLab::Broad,
        Lab::Casts => LinkLab::Casts,
        Lab::Motion => LinkLab::Motion,
        Lab::Latency => LinkLab::Latency,
        Lab::Capture => return None,
    })
}

/// The window's lab a link's `lab` names.
fn window_lab(lab: crate::scene::link::LinkLab) -> Lab {
    use crate::scene::link::LinkLab;
    match lab {
        LinkLab::Pair => Lab::Pair,
        LinkLab::Broad => Lab::Broad,
        LinkLab::Casts => Lab::Casts,
        LinkLab::Motion => Lab::Motion,
        LinkLab::Latency => Lab::Latency,
    }
}
