//! The top bar: the File, Edit and View menus, and the path field (the way to name a file
//! where no system dialog can be shown).

use crate::app::Example;
use crate::app::command::{Command, Commands, Fit};
use crate::app::document::edit::Edit;
use crate::app::document::workspace::Workspace;
use crate::app::shapes_panel;
use crate::app::{Lab, ViewOptions};
use eframe::egui;
use std::path::PathBuf;

/// The menus and the path field.
#[derive(Default)]
pub struct TopBar {
    /// What the path field holds.
    field: String,
    /// The document path the field last showed: when the document's path changes (open,
    /// save, new, recover) the field follows it.
    shown: Option<PathBuf>,
}

impl TopBar {
    /// What the path field holds.
    pub fn path_field(&self) -> &str {
        &self.field
    }

    /// Put `path` in the path field: after an import, where Save would write the set (never
    /// the level's own file, which Save would otherwise offer to replace with JSON).
    pub fn propose(&mut self, path: &std::path::Path) {
        self.field = path.display().to_string();
    }

    /// The bar at the top of the window.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        ws: &Workspace,
        (options, device): (&mut ViewOptions, crate::app::words::Device),
        lab: Lab,
        out: &mut Commands,
    ) {
        if ws.document.path != self.shown {
            self.shown = ws.document.path.clone();
            self.field = self
                .shown
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default();
        }
        egui::Panel::top("menu").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                let typed = self.field.trim().to_string();
                ui.menu_button("File", |ui| file_menu(ui, ws, &typed, out));
                ui.menu_button("Edit", |ui| edit_menu(ui, ws, out));
                ui.menu_button("View", |ui| view_menu(ui, options, out));
                ui.menu_button("Help", |ui| {
                    let pages = crate::app::HelpPage::ALL.into_iter();
                    for (page, (name, _)) in pages.zip(crate::app::words::help_names(device)) {
                        if ui.button(name).clicked() {
                            out.push(Command::Help(page));
                            ui.close();
                        }
                    }
                    ui.separator();
                    ui.menu_button("Lessons", |ui| crate::app::presenter::lessons_menu(ui, out));
                });
                if ui
                    .button("Many shapes")
                    .on_hover_text("a new scene of 100 to 100,000 random shapes, from a seed")
                    .clicked()
                {
                    out.push(Command::ShowGenerate);
                }
                ui.separator();
                let labs = |ui: &mut egui::Ui, out: &mut Commands| {
                    for (this, name, tip) in LABS {
                        if ui
                            .selectable_label(lab == this, name)
                            .on_hover_text(tip)
                            .clicked()
                        {
                            out.push(Command::Lab(this));
                            ui.close();
                        }
                    }
                };
                // A phone held upright has no room for six tabs: one chooser names the lab
                // shown (its arrow drawn, not a glyph the window's font may lack).
                if ui.ctx().content_rect().width() < crate::app::widgets::PHONE {
                    let shown = LABS.iter().find(|l| l.0 == lab).map_or("Labs", |l| l.1);
                    egui::ComboBox::from_id_salt("lab shown")
                        .selected_text(shown)
                        .show_ui(ui, |ui| labs(ui, out))
                        .response
                        .widget_info(|| {
                            egui::WidgetInfo::labeled(egui::Role::ComboBox, true, shown)
                        });
                } else {
                    labs(ui, out);
                }
            });
            if !crate::app::platform::HAS_FILES {
                ui.horizontal(|ui| self.page_file_row(ui, out));
                return;
            }
            ui.horizontal(|ui| {
                let label = ui.label("File:");
                let width = (ui.available_width() - 120.0).clamp(120.0, 420.0);
                let field = egui::TextEdit::singleline(&mut self.field)
                    .hint_text("path/to/shapes.json")
                    .desired_width(width);
                let response = ui.add(field).labelled_by(label.id);
                let entered =
                    response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                let typed = PathBuf::from(self.field.trim());
                if ui
                    .button("Open")
                    .on_hover_text("open the file named in the field")
                    .clicked()
                    || entered
                {
                    if typed.as_os_str().is_empty() {
                        out.say("type a file path first", true);
                    } else {
                        out.push(Command::Open(typed.clone()));
                    }
                }
                if ui
                    .button("Import")
                    .on_hover_text(
                        "import the level named in the field (a Tiled .tmx/.tmj map or a Godot 4 .tscn scene) as a new, unsaved set",
                    )
                    .clicked()
                {
                    if typed.as_os_str().is_empty() {
                        out.say("type the level's path first", true);
                    } else {
                        out.push(Command::Import(typed.clone()));
                    }
                }
                if ui
                    .button("Save")
                    .on_hover_text(
                        "save to the file named in the field (asks before replacing another file)",
                    )
                    .clicked()
                {
                    if typed.as_os_str().is_empty() {
                        out.push(Command::Save);
                    } else {
                        out.push(Command::SaveAs {
                            path: typed,
                            confirmed: false,
                        });
                    }
                }
            });
        });
    }
}

impl TopBar {
    /// The file row in the browser, where there are no paths: open with the page's picker (or
    /// drop a file on the page), save as a download named in the field, copy a link.
    fn page_file_row(&mut self, ui: &mut egui::Ui, out: &mut Commands) {
        let label = ui.label("Download as:");
        let width = (ui.available_width() - 240.0).clamp(100.0, 300.0);
        let field = egui::TextEdit::singleline(&mut self.field)
            .hint_text("untitled.json")
            .desired_width(width);
        ui.add(field).labelled_by(label.id);
        if ui
            .button("Save")
            .on_hover_text("download the shapes as a shape-set file named in the field")
            .clicked()
        {
            let typed = self.field.trim();
            match typed.is_empty() {
                true => out.push(Command::Save),
                false => out.push(Command::SaveAs {
                    path: PathBuf::from(typed),
                    confirmed: true,
                }),
            }
        }
        if ui
            .button("Open...")
            .on_hover_text(
                "open a shape set or a lesson from your computer (or drop it on the page)",
            )
            .clicked()
        {
            // What the picker gives is opened, not compared (Compare with a capture... asked
            // for before and cancelled).
            out.push(Command::Capture(
                crate::app::command::CaptureCommand::CompareNext(false),
            ));
            let _ = crate::app::platform::pick_file();
        }
        if ui
            .button("Copy link")
            .on_hover_text("a link that opens these shapes here: share a scene or a bug")
            .clicked()
        {
            out.push(Command::CopyLink);
        }
    }
}

fn file_menu(ui: &mut egui::Ui, ws: &Workspace, typed: &str, out: &mut Commands) {
    if ui.button("New").clicked() {
        out.push(Command::New);
    }
    if ui.button("Open...").clicked() {
        out.push(Command::Capture(
            crate::app::command::CaptureCommand::CompareNext(false),
        ));
        // rfd answers None at once where no dialog can be shown; the path field remains.
        match crate::app::platform::pick_file() {
            Some(path) => out.push(Command::Open(path)),
            // In the browser the page's picker is open: its file comes later.
            None if !crate::app::platform::HAS_FILES => {}
            None => out.say(
                "no file chosen (the path field above opens a file too)",
                false,
            ),
        }
    }
    if crate::app::platform::HAS_FILES
        && ui
            .button("Import level...")
            .on_hover_text(
                "a Tiled map (.tmx, .tmj) or a Godot 4 scene (.tscn) as a new, unsaved set",
            )
            .clicked()
    {
        // rfd answers None at once where no dialog can be shown; the path field remains.
        match crate::app::platform::pick_file() {
            Some(path) => out.push(Command::Import(path)),
            None => out.say(
                "no file chosen (type the level's path in the field above and press Import)",
                false,
            ),
        }
    }
    if ui
        .button("Open lesson...")
        .on_hover_text("present a lesson file: its slides beside the live scene (your own scene is kept aside)")
        .clicked()
    {
        if !crate::app::platform::HAS_FILES {
            // The page's picker: a lesson file chosen is presented as it arrives.
            let _ = crate::app::platform::pick_file();
            return;
        }
        // rfd answers None at once where no dialog can be shown; the path field remains.
        let chosen = crate::app::platform::pick_file()
            .or_else(|| (!typed.is_empty()).then(|| PathBuf::from(typed)));
        match chosen {
            Some(path) => out.push(Command::Lesson(crate::app::LessonCommand::Open(
                crate::lesson::LessonSource::File(path),
            ))),
            None => out.say(
                "no lesson chosen (type its path in the field above, then File > Open lesson; Help > Lessons has the built-in ones)",
                false,
            ),
        }
    }
    if crate::app::platform::HAS_FILES
        && ui
        .button("Follow a capture...")
        .on_hover_text("show a capture as the game writes it (the path typed in the field above), live in the capture lab")
        .clicked()
    {
        let chosen = crate::app::platform::pick_file()
            .or_else(|| (!typed.is_empty()).then(|| PathBuf::from(typed)));
        match chosen {
            Some(path) => out.push(Command::Capture(crate::app::command::CaptureCommand::Follow(path))),
            None => out.say(
                "no capture chosen (type its path in the field above, then File > Follow a capture)",
                false,
            ),
        }
    }
    if crate::app::platform::HAS_FILES
        && ui
        .button("Listen for a game")
        .on_hover_text(format!(
            "take a game's capture as it runs, over 127.0.0.1:{} (loopback only); the game streams with CaptureWriter::new(ToWindow::spawn(), ...)",
            crate::capture::live::DEFAULT_PORT
        ))
        .clicked()
    {
        out.push(Command::Capture(crate::app::command::CaptureCommand::Listen(
            crate::capture::live::DEFAULT_PORT,
        )));
    }
    let save = if crate::app::platform::HAS_FILES {
        "Save (Ctrl+S)"
    } else {
        "Save: download (Ctrl+S)"
    };
    if ui.button(save).clicked() {
        out.push(Command::Save);
    }
    if crate::app::platform::HAS_FILES && ui.button("Save As...").clicked() {
        match crate::app::platform::save_file() {
            Some(path) => out.push(Command::SaveAs {
                path,
                confirmed: false,
            }),
            None => out.say(
                "no file chosen (type a path in the field and press Save)",
                false,
            ),
        }
    }
    if ui
        .button("Copy link")
        .on_hover_text(
            "a link that opens these shapes in collidoscope on the web: share a scene or a bug",
        )
        .clicked()
    {
        out.push(Command::CopyLink);
    }
    if ui.button("Many shapes...").clicked() {
        out.push(Command::ShowGenerate);
    }
    ui.menu_button("Examples", |ui| {
        for example in Example::ALL {
            if ui
                .button(example.title())
                .on_hover_text(example.about())
                .clicked()
            {
                out.push(Command::Example(example));
            }
        }
    });
    if ui
        .button("Export fixture...")
        .on_hover_text("pin the exact results of the explained pair (or every pair) as a test")
        .clicked()
    {
        out.push(Command::ShowExport);
    }
    if !crate::app::platform::HAS_FILES {
        return;
    }
    ui.separator();
    ui.label("Recent");
    for path in &ws.document.recent {
        if ui.button(path.display().to_string()).clicked() {
            out.push(Command::Open(path.clone()));
        }
    }
}

fn edit_menu(ui: &mut egui::Ui, ws: &Workspace, out: &mut Commands) {
    let item = |ui: &mut egui::Ui, enabled: bool, text: &str| {
        ui.add_enabled(enabled, egui::Button::new(text)).clicked()
    };
    if item(ui, ws.can_undo(), "Undo (Ctrl+Z)") {
        out.push(Command::Undo);
    }
    if item(ui, ws.can_redo(), "Redo (Ctrl+Shift+Z)") {
        out.push(Command::Redo);
    }
    ui.separator();
    let selected = ws.selected();
    if item(ui, selected.is_some(), "Duplicate (Ctrl+D)") {
        shapes_panel::duplicate_selected(ws, out);
    }
    if item(ui, selected.is_some(), "Delete (Del)")
        && let Some(id) = selected
    {
        out.edit(Edit::Remove(id));
    }
    ui.separator();
    // The fix for seams: separate tiles become chains along their outline (import --merge).
    let tip = "tiles (static polygons that touch along edges) become chains along their outline: nothing left to catch on at the seams";
    if ui
        .add_enabled(
            ws.scene().shapes.len() > 1,
            egui::Button::new("Merge into chains"),
        )
        .on_hover_text(tip)
        .clicked()
    {
        out.push(Command::Merge { selected: false });
    }
    if ui
        .add_enabled(
            selected.is_some(),
            egui::Button::new("Merge the selected tile's group into chains"),
        )
        .on_hover_text(
            "only the selected tile's group: the tiles that touch it along edges, and those they touch, and so on",
        )
        .on_disabled_hover_text("select a tile first (click it, or its name in the shapes list)")
        .clicked()
    {
        out.push(Command::Merge { selected: true });
    }
}

fn view_menu(ui: &mut egui::Ui, options: &mut ViewOptions, out: &mut Commands) {
    if ui.button("Fit to scene (F)").clicked() {
        out.push(Command::Fit(Fit::Scene));
    }
    if ui.button("Fit to pair (G)").clicked() {
        out.push(Command::Fit(Fit::Pair));
    }
    ui.separator();
    ui.checkbox(&mut options.show_axes, "Show axes")
        .on_hover_text(crate::app::words::glossary("axis"));
    ui.checkbox(&mut options.show_naive, "Show naive MTV")
        .on_hover_text(crate::app::words::glossary("MTV"));
    ui.checkbox(&mut options.show_impulses, "Impulses")
        .on_hover_text(crate::picture::draw::IMPULSES_TIP);
    let mut projector = options.projector;
    if ui
        .checkbox(&mut projector, "Projector look")
        .on_hover_text("light background, thick lines, large labels: for a projector")
        .changed()
    {
        out.push(Command::Lesson(crate::app::LessonCommand::Projector(
            projector,
        )));
    }
    ui.separator();
    ui.checkbox(&mut options.shapes_panel, "Shapes panel");
    ui.checkbox(&mut options.explain_panel, "Explain panel");
    ui.checkbox(&mut options.plot_panel, "Plot panel")
        .on_hover_text(crate::series::PANEL_TIP);
}

/// The labs, as the top bar names them, with what each is for.
const LABS: [(Lab, &str, &str); 6] = [
    (
        Lab::Pair,
        "Pair lab",
        "the separating-axis test of one pair",
    ),
    (
        Lab::Broad,
        "Broad phase",
        "the grid that finds the candidate pairs of the whole scene",
    ),
    (
        Lab::Motion,
        "Motion lab",
        "the scene run through time: play, step and scrub; events on a timeline; two resolvers side by side",
    ),
    (
        Lab::Casts,
        "Casts",
        "a ray cast against the whole scene: every hit's point, normal and fraction",
    ),
    (
        Lab::Latency,
        "Latency lab",
        "late packets: what a game server knows of its players' collisions as their packets arrive late, out of order or not at all",
    ),
    (
        Lab::Capture,
        "Capture lab",
        "your game's own frames: a capture its engine wrote, every contact judged at the engine's precision",
    ),
];
