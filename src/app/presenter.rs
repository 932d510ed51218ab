//! Presenter mode: a lesson's slides shown in the window (docs/format.md, "Lessons",
//! "Presenting"). The slide's title and text large beside the scene, the scene set up in the
//! slide's lab as the core's [`crate::lesson::stage`] says and still live (drag a shape to ask
//! "what if"; R restores the slide); the keys and a presenter's remote step through the slide's
//! SAT steps, then the slides. The user's own document, view and labs are kept aside whole
//! while a lesson is shown and come back as they were when it ends: nothing is lost.

pub use super::command::LessonCommand;
use super::*;
use crate::app::words;
use crate::lesson::{self, BUILT_IN, Lesson, LessonSource, Slide, SlideLab, SlideStep};
use crate::text::PairNames;
use egui::{Color32, FontId, RichText};

/// The lesson shown, and what it keeps aside.
pub struct Presenter {
    lesson: Lesson,
    source: LessonSource,
    /// The slide shown (from 0).
    slide: usize,
    /// The user's document, view and labs while the lesson is shown.
    aside: Box<Aside>,
    /// The lesson is the one the window started on (in the browser, the one the page
    /// carries: an interactive lesson page's, whose address says its slide as `?slide=K`).
    pub(super) carried: bool,
}

/// The user's state, kept whole while a lesson is presented.
struct Aside {
    workspace: Workspace,
    scene_view: SceneView,
    numbers_panel: NumbersPanel,
    lab: Lab,
    options: ViewOptions,
    pair_lab: PairLab,
    broad_lab: BroadLab,
    casts_lab: CastsLab,
    motion_lab: MotionLab,
    latency_lab: LatencyLab,
}

impl Presenter {
    /// The lesson shown.
    pub fn lesson(&self) -> &Lesson {
        &self.lesson
    }

    /// The slide shown (from 0).
    pub fn slide(&self) -> usize {
        self.slide
    }

    /// The query that opens this lesson at the slide shown: `?lesson=NAME&slide=K` for a
    /// built-in lesson, `?slide=K` for the lesson the page carries; `None` for a lesson read
    /// from a file (or picked in the browser), which a link cannot carry.
    pub fn link_query(&self) -> Option<String> {
        match &self.source {
            LessonSource::BuiltIn(name) => {
                Some(crate::scene::link::lesson_query(name, self.slide + 1))
            }
            LessonSource::Bundle(_) if self.carried => Some(format!("?slide={}", self.slide + 1)),
            _ => None,
        }
    }
}

/// The lab a slide is shown in.
fn lab_of(slide: &Slide) -> Lab {
    match slide.lab {
        SlideLab::Pair => Lab::Pair,
        SlideLab::Broad { .. } => Lab::Broad,
        SlideLab::Casts { .. } => Lab::Casts,
        SlideLab::Motion { .. } => Lab::Motion,
        SlideLab::Latency { .. } => Lab::Latency,
    }
}

/// Where step mode starts on `slide` (index into the axes), `None` for the whole test.
fn first_step(slide: &Slide) -> Option<usize> {
    match (slide.step, &slide.lab) {
        (SlideStep::At(k), SlideLab::Pair) => Some(k.saturating_sub(1)),
        _ => None,
    }
}

impl App {
    /// Whether a lesson is being presented.
    pub fn presenting(&self) -> Option<&Presenter> {
        self.presenter.as_ref()
    }

    /// The user's own document: kept aside while a lesson is presented.
    pub(super) fn user_workspace(&mut self) -> &mut Workspace {
        match &mut self.presenter {
            Some(p) => &mut p.aside.workspace,
            None => &mut self.workspace,
        }
    }

    /// Carry out a presenter command.
    pub(super) fn present(&mut self, command: LessonCommand) {
        match command {
            // The projector look is the window's, presenting or not.
            LessonCommand::Projector(on) => self.options.projector = on,
            LessonCommand::Open(source) => self.open_lesson(source),
            // Nothing else means anything without a lesson.
            _ if self.presenter.is_none() => {}
            LessonCommand::Next => self.step_lesson(true),
            LessonCommand::Back => self.step_lesson(false),
            LessonCommand::Go(k) => self.show_slide(k, false),
            LessonCommand::Restore => {
                let k = self.presenter.as_ref().map_or(0, |p| p.slide);
                self.show_slide(k, false);
                self.say("the slide as it opened", false);
            }
            LessonCommand::End => self.end_lesson(),
        }
    }

    /// Read the lesson and show its first slide; the user's document goes aside (unless a
    /// lesson is shown already, whose aside stays). A lesson that cannot be read changes
    /// nothing.
    fn open_lesson(&mut self, source: LessonSource) {
        let lesson = match source.load() {
            Ok(lesson) => lesson,
            Err(e) => return self.say(e.to_string(), true),
        };
        let (title, count) = (lesson.title.clone(), lesson.slides.len());
        match &mut self.presenter {
            Some(p) => {
                p.lesson = lesson;
                p.source = source;
                p.carried = false;
            }
            None => {
                let aside = Aside {
                    workspace: std::mem::replace(
                        &mut self.workspace,
                        Workspace::new(Scene::default(), None),
                    ),
                    scene_view: std::mem::take(&mut self.scene_view),
                    numbers_panel: std::mem::take(&mut self.numbers_panel),
                    lab: self.lab,
                    options: self.options,
                    pair_lab: std::mem::take(&mut self.pair_lab),
                    broad_lab: std::mem::take(&mut self.broad_lab),
                    casts_lab: std::mem::take(&mut self.casts_lab),
                    motion_lab: std::mem::take(&mut self.motion_lab),
                    latency_lab: std::mem::take(&mut self.latency_lab),
                };
                self.presenter = Some(Presenter {
                    lesson,
                    source,
                    slide: 0,
                    aside: Box::new(aside),
                    carried: false,
                });
            }
        }
        self.show_slide(0, false);
        self.say(words::presenting(&title, count, self.device), false);
    }

    /// End the presentation: the user's document, view, labs and look back as they were (a
    /// projector look turned on for the room is the presentation's).
    fn end_lesson(&mut self) {
        let Some(presenter) = self.presenter.take() else {
            return;
        };
        let aside = *presenter.aside;
        let own = aside.workspace.document.path.is_some() || aside.workspace.is_dirty();
        self.workspace = aside.workspace;
        self.scene_view = aside.scene_view;
        self.numbers_panel = aside.numbers_panel;
        self.lab = aside.lab;
        self.options = aside.options;
        self.pair_lab = aside.pair_lab;
        self.broad_lab = aside.broad_lab;
        self.casts_lab = aside.casts_lab;
        self.motion_lab = aside.motion_lab;
        self.latency_lab = aside.latency_lab;
        self.workspace.refresh();
        self.say(
            words::presentation_ended(&presenter.lesson.title, own),
            false,
        );
    }

    /// The next (or previous) SAT step of the slide, else the next (previous) slide.
    fn step_lesson(&mut self, forward: bool) {
        let Some(p) = &self.presenter else { return };
        let (k, count) = (p.slide, p.lesson.slides.len());
        let slide = &p.lesson.slides[k];
        let first = first_step(slide);
        let axes = self.workspace.report().map_or(0, |r| r.sat.axes.len());
        let step = self.pair_lab.step().filter(|_| self.lab == Lab::Pair);
        match (step, forward) {
            (Some(s), true) if s < axes => self.pair_lab.show_step(Some(s + 1)),
            (Some(s), false) if s > first.unwrap_or(0) => self.pair_lab.show_step(Some(s - 1)),
            (_, true) if k + 1 < count => self.show_slide(k + 1, false),
            (_, false) if k > 0 => self.show_slide(k - 1, true),
            (_, true) => self.say(words::LAST_SLIDE, false),
            (_, false) => self.say(words::FIRST_SLIDE, false),
        }
    }

    /// Show slide `k` as it opens (at its last step when `at_end`: coming back to it). The
    /// slide's lab is set up through the labs' own commands, as its panel would.
    fn show_slide(&mut self, k: usize, at_end: bool) {
        let Some(p) = &mut self.presenter else { return };
        let k = k.min(p.lesson.slides.len() - 1);
        p.slide = k;
        let slide = p.lesson.slides[k].clone();
        let stage = lesson::stage(&slide);
        let lab = lab_of(&slide);
        self.workspace.new_document_with(slide.scene.clone());
        self.after_document_change();
        if let Some((a, b)) = stage.pair {
            let ids = |i: usize| self.workspace.scene().shapes[i].id;
            let (a, b) = (ids(a), ids(b));
            self.run(Command::Explain(a, b));
        }
        self.options.show_axes = true;
        self.options.show_naive = slide.naive;
        self.options.label_axes = true;
        let step = match first_step(&slide) {
            Some(_) if at_end => stage.steps.last().map(|s| s - 1),
            Some(s) => Some(s.min(stage.steps.last().map_or(0, |l| l - 1))),
            None => None,
        };
        self.pair_lab.show_step(step);
        self.casts_lab.ray = None;
        // The grid's cell size and what its overlay shows are a broad-phase slide's; any other
        // slide has the lab's own (the cell size chosen from the shapes, everything shown).
        let (cell, show) = match &slide.lab {
            SlideLab::Broad { cell, show } => (*cell, *show),
            _ => (None, None),
        };
        self.run(Command::CellSize(cell));
        let fresh = BroadLab::default();
        self.broad_lab = BroadLab {
            cells: show.map_or(fresh.cells, |s| s.cells),
            candidates: show.map_or(fresh.candidates, |s| s.candidates),
            hits: show.map_or(fresh.hits, |s| s.hits),
            auto: cell.is_none(),
            cell: cell.unwrap_or(fresh.cell),
        };
        match &slide.lab {
            SlideLab::Pair | SlideLab::Broad { .. } => {}
            SlideLab::Casts { ray } => {
                if let Some((from, to)) = *ray {
                    self.run(Command::Ray(from, to));
                }
            }
            SlideLab::Motion { .. } => {
                let run = slide.lab.motion_run().expect("a motion slide");
                let (bound, fixed) = match run.config.substeps {
                    crate::motion::Substeps::Bound => (true, 1),
                    crate::motion::Substeps::Fixed(n) => (false, n),
                };
                let settings = RunSettings {
                    dt_s: run.config.dt,
                    steps: u64::from(run.steps),
                    bound,
                    fixed,
                    resolver: run.config.resolver,
                    ccd: run.config.ccd,
                    ..RunSettings::default()
                };
                self.run(Command::Motion(MotionCommand::Settings(settings)));
                // Run now, so the frame asked for is there to show.
                self.motion_lab.refresh(&self.workspace, 0.0);
                let frame = u64::from(run.frame);
                self.run(Command::Playback(
                    TimelineId::Motion,
                    PlaybackCommand::Seek(frame),
                ));
            }
            SlideLab::Latency {
                log,
                step,
                swept,
                arrived,
                ..
            } => {
                let settings = crate::latency::Settings {
                    step_ms: step.unwrap_or(lesson::LATENCY_STEP_MS),
                    swept: *swept,
                };
                self.run(Command::Latency(LatencyCommand::Settings(settings)));
                self.motion_lab.refresh(&self.workspace, 0.0);
                match log {
                    Some(log) => {
                        let name = slide.title.clone();
                        self.latency_lab.load(log.clone(), name, None);
                    }
                    None => self.run(Command::Latency(LatencyCommand::Generate)),
                }
                let total = self.latency_lab.log().map_or(0, |l| l.packets.len());
                let arrived = arrived.unwrap_or(total).min(total);
                self.run(Command::Playback(
                    TimelineId::Latency,
                    PlaybackCommand::Seek(arrived as u64),
                ));
                self.latency_lab.refresh(None, 0.0);
                // A slide shows its engine at once (a lesson's logs are small).
                self.latency_lab.settle();
                self.latency_lab.refresh(None, 0.0);
                if let Some(t) = stage.time {
                    let bucket = (t / settings.step_ms).floor() as i64;
                    self.run(Command::Latency(LatencyCommand::ShowBucket(bucket)));
                }
            }
        }
        self.lab = lab;
        // The view the slide sets; else the latency lab fits its players' places, and the
        // other labs open as a document opens (asked for above).
        self.latency_lab.take_fit();
        match (slide.view, lab) {
            (Some(view), _) => self.scene_view.request_view(view.center, view.width),
            (None, Lab::Latency) => self.scene_view.request_fit(Fit::Scene),
            (None, _) => {}
        }
    }

    /// In the browser the page's address follows the lesson presented, at its slide (a reload
    /// or the address copied opens the same slide), and loses it when the presentation ends;
    /// an address the window never set (a scene's link) is left as it is.
    pub(super) fn follow_address(&mut self) {
        let wanted = match &self.presenter {
            Some(p) => Some(p.link_query().unwrap_or_default()),
            None => self.address.as_ref().map(|_| String::new()),
        };
        if let Some(query) = &wanted
            && wanted != self.address
        {
            platform::show_address(query);
            self.address = wanted;
        }
    }

    /// Presenter mode's keys: Right, Page Down, Space and N go on; Left, Page Up and P back;
    /// Home and End the first and last slide; R restores the slide; L the projector look; F11
    /// the whole screen; Esc ends the presentation.
    pub(super) fn presenter_keys(&mut self, ctx: &egui::Context) {
        use egui::Key;
        let Some(p) = &self.presenter else { return };
        let last = p.lesson.slides.len() - 1;
        // Taken from the input, so a button clicked last (which keeps the focus) neither
        // swallows them nor acts on Space itself.
        let pressed = |k: Key| ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, k));
        // Every press counts, however fast they come (several can arrive in one frame).
        let presses = |k: Key| ctx.input_mut(|i| i.count_and_consume_key(egui::Modifiers::NONE, k));
        let projector = !self.options.projector;
        let keys: [(&[Key], LessonCommand); 7] = [
            (
                &[Key::ArrowRight, Key::PageDown, Key::Space, Key::N],
                LessonCommand::Next,
            ),
            (&[Key::ArrowLeft, Key::PageUp, Key::P], LessonCommand::Back),
            (&[Key::Home], LessonCommand::Go(0)),
            (&[Key::End], LessonCommand::Go(last)),
            (&[Key::R], LessonCommand::Restore),
            (&[Key::L], LessonCommand::Projector(projector)),
            (&[Key::Escape], LessonCommand::End),
        ];
        if pressed(Key::F11) {
            // The whole screen, as a projector wants it (a window state, not the lesson's).
            let full = ctx.input(|i| i.viewport().fullscreen.unwrap_or(false));
            ctx.send_viewport_cmd(egui::ViewportCommand::Fullscreen(!full));
        }
        for (pressed_keys, command) in keys {
            // Every key of the row is taken; steps and slides go once a press, the rest once.
            let hits: usize = pressed_keys.iter().map(|k| presses(*k)).sum();
            let times = match command {
                LessonCommand::Next | LessonCommand::Back => hits,
                _ => hits.min(1),
            };
            for _ in 0..times {
                self.commands.push(Command::Lesson(command.clone()));
            }
        }
    }

    /// The window while a lesson is presented: the presenter's bar, the slide's words large
    /// on the left, the lab's timeline, the live scene; and a question about the user's own
    /// document (its recovery copy, closing with unsaved changes), whose answer it returns.
    pub(super) fn show_presenting(&mut self, ui: &mut egui::Ui) -> Option<dialogs::Discard> {
        let Some(p) = &self.presenter else {
            return None;
        };
        // What the motion or latency lab shows, for the line under the slide's words.
        let said = self.said();
        let whole = self.status_whole(ui.ctx());
        let (ws, out) = (&self.workspace, &mut self.commands);
        let slide = &p.lesson.slides[p.slide];
        let step = self
            .pair_lab
            .step()
            .filter(|_| self.lab == Lab::Pair)
            .map(|s| s + 1);
        let axes = ws.report().map_or(0, |r| r.sat.axes.len());
        let at_first_step = step.is_none_or(|s| Some(s) <= first_step(slide).map(|f| f + 1));
        let can_go_back = p.slide > 0 || !at_first_step;
        let steps = step.map(|s| (s, axes));
        presenter_bar(ui, p, steps, can_go_back, &self.options, out);
        self.status_bar.ui(
            ui,
            ws,
            (self.scene_view.camera(), whole),
            words::PRESENTER_HINT.on(self.device),
            None,
            out,
        );
        // The timeline's words grow with the screen as the bar's do (on this ui, so that the
        // panels after it leave it room).
        let style = ui.style().clone();
        presenter_text(ui, self.options.projector);
        match self.lab {
            Lab::Motion => self.motion_lab.timeline(ui, out),
            Lab::Latency => latency_timeline::ui(&self.latency_lab, ui, out),
            _ => {}
        }
        ui.set_style(style);
        let live = live_sentences(self.lab, ws, step, slide.naive, said);
        slide_panel(ui, slide, &live, self.options.projector);
        let labs = lab_refs!(self);
        let view = lab_view(self.lab, ws, labs);
        let hovered = self.scene_view.ui(ui, ws, &self.options, &view, out);
        self.pair_lab.hovered_axis = hovered;
        let ctx = ui.ctx().clone();
        self.dialogs.ui(&ctx, &p.aside.workspace, out)
    }
}

/// What the slide's lab says now, under the slide's text: the SAT step's sentence or the
/// verdict (the pair lab), the grid's counts (the broad phase), or what the motion and latency
/// labs show (`said`: the verdict at the frame shown; the moment and the collisions standing);
/// the scene is live, so these follow a drag.
fn live_sentences(
    lab: Lab,
    ws: &Workspace,
    step: Option<usize>,
    naive: bool,
    said: String,
) -> Vec<String> {
    match lab {
        Lab::Pair => {
            let (Some(report), Some((a, b))) = (ws.report(), ws.pair_indices()) else {
                return Vec::new();
            };
            let names = PairNames::in_scene(ws.scene(), a, b);
            text::step_sentences(report, &names, step, naive)
        }
        Lab::Broad => {
            let stats = ws.broad_stats();
            vec![words::broad_counts(
                ws.scene().shapes.len(),
                stats.candidates,
                ws.hits().len(),
            )]
        }
        Lab::Motion | Lab::Latency => vec![said],
        _ => Vec::new(),
    }
}

/// The slide's words at the largest size (at most `body` points, 24 at 1280x720 and more on
/// larger screens) that fits the panel without scrolling, and never under `SMALLEST`.
fn text_size(ui: &egui::Ui, blocks: &[(String, f32)], body: f32, room: egui::Vec2) -> f32 {
    const SMALLEST: f32 = 14.0;
    let mut size = body;
    while size > SMALLEST {
        let height: f32 = ui.ctx().fonts_mut(|f| {
            blocks
                .iter()
                .map(|(text, scale)| {
                    let font = FontId::proportional(size * scale);
                    f.layout(text.clone(), font, Color32::WHITE, room.x)
                        .size()
                        .y
                        + 0.6 * size
                })
                .sum()
        });
        if height <= room.y {
            break;
        }
        size -= 1.0;
    }
    size.max(SMALLEST)
}

/// How the title stands to the text.
const TITLE_SCALE: f32 = 1.45;

/// The slide's title, its paragraphs, then what its lab says now: large, on the left.
fn slide_panel(ui: &mut egui::Ui, slide: &Slide, live: &[String], projector: bool) {
    let screen = ui.ctx().content_rect().size();
    // 24 points at 1280x720, growing with the screen.
    let body = 24.0 * (screen.x / 1280.0).min(screen.y / 720.0).max(0.75);
    // A fixed share of the window, whatever its size was when the lesson opened: on the left,
    // or under the scene on a phone held upright.
    let panel = if screen.x < super::widgets::PHONE {
        egui::Panel::bottom("slide").exact_size(0.42 * screen.y)
    } else {
        egui::Panel::left("slide").exact_size((0.38 * screen.x).max(220.0))
    };
    let panel = panel.resizable(false);
    panel.show(ui, |ui| {
        let room = ui.available_size() - egui::vec2(8.0, 8.0);
        let mut blocks = vec![(slide.title.clone(), TITLE_SCALE)];
        blocks.extend(slide.text.iter().map(|t| (t.clone(), 1.0)));
        blocks.extend(live.iter().map(|t| (t.clone(), 1.0)));
        let size = text_size(ui, &blocks, body, room);
        let ink = if projector {
            Color32::from_gray(20)
        } else {
            Color32::from_gray(235)
        };
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.add_space(0.3 * size);
            ui.label(
                RichText::new(&slide.title)
                    .size(size * TITLE_SCALE)
                    .strong()
                    .color(ink),
            );
            ui.add_space(0.3 * size);
            for paragraph in &slide.text {
                ui.label(RichText::new(paragraph).size(size).color(ink));
                ui.add_space(0.3 * size);
            }
            if !live.is_empty() {
                ui.separator();
                for sentence in live {
                    ui.label(RichText::new(sentence).size(size).color(ink).italics());
                    ui.add_space(0.3 * size);
                }
            }
        });
    });
}

/// Text for the presenter's bars (the top bar, a timeline): it grows with the screen as the
/// slide's words do, 14 points at 1280x720; in the projector look 18 (14 points was about 13
/// pixels on a 720p projector, too small from the back of a room).
fn presenter_text(ui: &mut egui::Ui, projector: bool) {
    let screen = ui.ctx().content_rect().size();
    let base = if projector { 18.0 } else { 14.0 };
    let size = base * (screen.x / 1280.0).min(screen.y / 720.0).max(0.9);
    for style in [egui::TextStyle::Body, egui::TextStyle::Button] {
        ui.style_mut()
            .text_styles
            .insert(style, FontId::proportional(size));
    }
}

/// Below this window width the presenter's bar takes two rows: its buttons on the first, the
/// look, where the lesson is and its title on the second.
const BAR_TWO_ROWS: f32 = 720.0;

/// The presenter's bar: the lesson, where the slide is, the steps, and the switches. Every
/// button keeps its place from one step to the next (a finger, or a remote's pointer, finds
/// it again): where the slide is takes the room of its longest in this lesson, and what may
/// grow (the title) comes last, cut to what is left.
fn presenter_bar(
    ui: &mut egui::Ui,
    p: &Presenter,
    step: Option<(usize, usize)>,
    can_go_back: bool,
    options: &ViewOptions,
    out: &mut Commands,
) {
    let count = p.lesson.slides.len();
    let slide_place = words::slide_of(p.slide + 1, count, step);
    // The last slide at a two-digit axis: the longest the place gets.
    let longest = words::slide_of(count, count, Some((88, 88)));
    egui::Panel::top("presenter").show(ui, |ui| {
        presenter_text(ui, options.projector);
        let room = text_width(ui, &longest);
        let buttons = |ui: &mut egui::Ui, out: &mut Commands| {
            ui.menu_button("Lessons", |ui| {
                lessons_menu(ui, out);
                ui.separator();
                if ui
                    .button("Copy link to this slide")
                    .on_hover_text("a link that opens this lesson at this slide")
                    .clicked()
                {
                    out.push(Command::CopyLink);
                }
            });
            ui.separator();
            bar_button(
                ui,
                (
                    "Back",
                    "the previous step, else the previous slide (Left, Page Up)",
                ),
                can_go_back,
                LessonCommand::Back,
                out,
            );
            bar_button(
                ui,
                (
                    "Next",
                    "the next step, else the next slide (Right, Page Down, Space)",
                ),
                true,
                LessonCommand::Next,
                out,
            );
        };
        let restore = |ui: &mut egui::Ui, out: &mut Commands| {
            bar_button(
                ui,
                ("Restore", "the slide as it opened (R)"),
                true,
                LessonCommand::Restore,
                out,
            );
        };
        let projector = |ui: &mut egui::Ui, out: &mut Commands| {
            let mut projector = options.projector;
            if ui
                .checkbox(&mut projector, "Projector look")
                .on_hover_text("light background, thick lines, large labels (L)")
                .changed()
            {
                out.push(Command::Lesson(LessonCommand::Projector(projector)));
            }
        };
        let exit = |ui: &mut egui::Ui, out: &mut Commands| {
            bar_button(
                ui,
                (
                    "Exit",
                    "end the presentation: your own scene comes back as you left it (Esc)",
                ),
                true,
                LessonCommand::End,
                out,
            );
        };
        let place = |ui: &mut egui::Ui| {
            let layout = egui::Layout::left_to_right(egui::Align::Center);
            let size = egui::vec2(room, ui.spacing().interact_size.y);
            ui.allocate_ui_with_layout(size, layout, |ui| {
                ui.set_min_width(room);
                ui.label(RichText::new(&slide_place).strong());
            });
        };
        let title = |ui: &mut egui::Ui| {
            ui.add(egui::Label::new(RichText::new(&p.lesson.title).weak()).truncate());
        };
        if ui.ctx().content_rect().width() < BAR_TWO_ROWS {
            ui.horizontal(|ui| {
                buttons(ui, out);
                restore(ui, out);
                exit(ui, out);
            });
            ui.horizontal(|ui| {
                projector(ui, out);
                place(ui);
                title(ui);
            });
        } else {
            ui.horizontal(|ui| {
                buttons(ui, out);
                place(ui);
                ui.separator();
                restore(ui, out);
                projector(ui, out);
                exit(ui, out);
                ui.separator();
                title(ui);
            });
        }
    });
}

/// One of the presenter bar's buttons: `name`, with `tip` on hover, asking `command`.
fn bar_button(
    ui: &mut egui::Ui,
    (name, tip): (&str, &str),
    enabled: bool,
    command: LessonCommand,
    out: &mut Commands,
) {
    if ui
        .add_enabled(enabled, egui::Button::new(name))
        .on_hover_text(tip)
        .clicked()
    {
        out.push(Command::Lesson(command));
    }
}

/// How wide `text` is in `ui`'s body font, on one line.
fn text_width(ui: &egui::Ui, text: &str) -> f32 {
    let font = egui::TextStyle::Body.resolve(ui.style());
    ui.fonts_mut(|f| f.layout_no_wrap(text.to_string(), font, Color32::WHITE))
        .size()
        .x
}

/// The lessons the program carries, one button each: Help > Lessons, and the presenter's bar.
pub(super) fn lessons_menu(ui: &mut egui::Ui, out: &mut Commands) {
    for b in BUILT_IN {
        let title = b.title();
        if ui
            .button(title)
            .on_hover_text(format!("present the built-in lesson {}", b.name))
            .clicked()
        {
            out.push(Command::Lesson(LessonCommand::Open(LessonSource::BuiltIn(
                b.name.into(),
            ))));
        }
    }
}
