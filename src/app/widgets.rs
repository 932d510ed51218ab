//! Small widgets the labs share: a timeline's |< < Play > >| row, its speed chooser, and a
//! side panel sized as a share of the window.

use super::PlaybackCommand;
use super::command::PanelSide;
use eframe::egui;

/// A timeline's |< < Play/Pause > >| row, each button with its tooltip (in that order);
/// the command of the button clicked.
pub fn transport(ui: &mut egui::Ui, playing: bool, tips: [&str; 5]) -> Option<PlaybackCommand> {
    let play = if playing { "Pause" } else { "Play" };
    // One width for both words, so the buttons after it stay put.
    let buttons = [
        (egui::Button::new("|<"), PlaybackCommand::First),
        (egui::Button::new("<"), PlaybackCommand::Back),
        (
            egui::Button::new(play).min_size(egui::vec2(52.0, 0.0)),
            PlaybackCommand::Toggle,
        ),
        (egui::Button::new(">"), PlaybackCommand::Forward),
        (egui::Button::new(">|"), PlaybackCommand::Last),
    ];
    let mut clicked = None;
    for ((button, command), tip) in buttons.into_iter().zip(tips) {
        if ui.add(button).on_hover_text(tip).clicked() {
            clicked = Some(command);
        }
    }
    clicked
}

/// A timeline's playback speed: "speed" and a choice of `choices` (shown as `2x`).
pub fn speed_combo(ui: &mut egui::Ui, id: &str, speed: &mut f64, choices: &[f64], tip: &str) {
    let label = ui.label("speed");
    egui::ComboBox::from_id_salt(id)
        .selected_text(format!("{speed}x"))
        .show_ui(ui, |ui| {
            for &s in choices {
                ui.selectable_value(speed, s, format!("{s}x"));
            }
        })
        .response
        .labelled_by(label.id)
        .on_hover_text(tip);
}

/// A timeline's Loop tick, speed chooser (`id`) and stop slider over `0..=last` for
/// `playback`, in a `horizontal_wrapped` row: the commands they ask for.
pub fn loop_speed_slider(
    ui: &mut egui::Ui,
    playback: &super::playback::Playback,
    id: &str,
    last: u64,
) -> Vec<PlaybackCommand> {
    loop_speed_slider_numbered(ui, playback, id, (0, last))
}

/// [`loop_speed_slider`] over stops numbered from `first` (a capture's frames, which may
/// start at any number): the slider and its number box show stop k as `first + k`, and a
/// number typed there asks for its stop.
pub fn loop_speed_slider_numbered(
    ui: &mut egui::Ui,
    playback: &super::playback::Playback,
    id: &str,
    (first, last): (u64, u64),
) -> Vec<PlaybackCommand> {
    let mut asked = Vec::new();
    let mut looped = playback.looped;
    if ui.checkbox(&mut looped, "Loop").changed() {
        asked.push(PlaybackCommand::Loop(looped));
    }
    let mut speed = playback.speed;
    speed_combo(
        ui,
        id,
        &mut speed,
        &[0.1, 0.25, 0.5, 1.0, 2.0, 4.0],
        "playback speed",
    );
    if speed != playback.speed {
        asked.push(PlaybackCommand::Speed(speed));
    }
    let mut frame = first + playback.position;
    // The slider, its number box and its word go on a row of their own when they would not
    // fit in what is left of this one (a wrapped row never splits a widget).
    let needed = ui.spacing().slider_width + 120.0;
    if ui.available_size_before_wrap().x < needed {
        ui.end_row();
    }
    let slider = egui::Slider::new(&mut frame, first..=first + last.max(1)).text("frame");
    if ui.add(slider).changed() {
        asked.push(PlaybackCommand::Seek(frame.saturating_sub(first)));
    }
    asked
}

/// Below this window width (points: a phone held upright) a side panel goes under the scene
/// view instead, so the scene keeps the whole width.
pub const PHONE: f32 = 600.0;

/// A side panel sized as a share of the window (`default` points at most, `share` of the
/// width at most when resized), that never paints over the scene view and keeps its width
/// whatever it holds. On a window narrower than [`PHONE`] it is a panel under the scene view,
/// 0.4 of the height whatever it holds, scrolled (by a drag too, as a phone's lists are).
pub fn side_panel(
    ui: &mut egui::Ui,
    (side, id): (PanelSide, &'static str),
    (default, min, share): (f32, f32, f32),
    add: impl FnOnce(&mut egui::Ui),
) {
    let size = ui.ctx().content_rect().size();
    if size.x < PHONE {
        // 0.4 of the height whatever it holds: a panel sized by its content shrank when step
        // mode showed fewer rows, and moved Next from under the finger that tapped it.
        egui::Panel::bottom(id)
            .exact_size(0.4 * size.y)
            .resizable(false)
            .show(ui, |ui| {
                // A finger's drag scrolls it from the first touch on (egui's own waits for a
                // touch seen, and the first drag would be lost).
                egui::ScrollArea::vertical()
                    .scroll_source(egui::scroll_area::ScrollSource::ALL)
                    .show(ui, |ui| {
                        ui.set_min_width(ui.available_width());
                        add(ui)
                    });
            });
        return;
    }
    let panel = match side {
        PanelSide::Left => egui::Panel::left(id),
        PanelSide::Right => egui::Panel::right(id),
    };
    panel
        .default_size(default.min(0.95 * share * size.x))
        .min_size(min)
        .max_size((share * size.x).max(min))
        .show(ui, |ui| {
            let clip = ui.max_rect().intersect(ui.clip_rect());
            ui.set_clip_rect(clip);
            ui.set_min_width(ui.available_width());
            add(ui)
        });
}

/// On a phone, where only one side panel fits under the scene: a row of two halves under it,
/// the shapes panel and the lab's (`shown`: whether each is), a tap showing the other.
pub fn panel_switch(ui: &mut egui::Ui, shown: (bool, bool), out: &mut super::Commands) {
    egui::Panel::bottom("panel switch").show(ui, |ui| {
        ui.horizontal(|ui| {
            let half = (ui.available_width() - ui.spacing().item_spacing.x) / 2.0;
            let size = egui::vec2(half, 1.4 * ui.spacing().interact_size.y);
            for (side, name, shown) in [
                (PanelSide::Left, "Shapes", shown.0),
                (PanelSide::Right, "Explain", shown.1),
            ] {
                let button = egui::Button::selectable(shown, name).min_size(size);
                if ui.add(button).clicked() && !shown {
                    out.push(super::Command::ShowPanel(side));
                }
            }
        });
    });
}

/// Fits the names of one list into a width: a name that fits is shown whole; one that does not
/// is cut where the list's names are the same ([`crate::app::words::NameCutter`], made the first
/// time a name does not fit), so the part that tells it apart stays.
pub struct NameFitter<'a> {
    make: Box<dyn Fn() -> crate::app::words::NameCutter + 'a>,
    cutter: Option<crate::app::words::NameCutter>,
}

impl<'a> NameFitter<'a> {
    /// A fitter for the list whose names `names` gives.
    pub fn new<I: IntoIterator<Item = &'a str>>(names: impl Fn() -> I + 'a) -> Self {
        Self {
            make: Box::new(move || crate::app::words::NameCutter::new(names())),
            cutter: None,
        }
    }

    /// `name` and then `suffix` within `width` points in `ui`'s button font; else `name`
    /// alone (the suffix goes first: it is said on hover); else the name cut.
    pub fn fit(&mut self, ui: &egui::Ui, name: &str, suffix: &str, width: f32) -> String {
        let font = egui::TextStyle::Button.resolve(ui.style());
        let fits = |text: &str| {
            ui.fonts_mut(|f| f.layout_no_wrap(text.to_string(), font.clone(), egui::Color32::WHITE))
                .size()
                .x
                <= width
        };
        let whole = format!("{name}{suffix}");
        if fits(&whole) {
            return whole;
        }
        if fits(name) {
            return name.to_string();
        }
        let cutter = self.cutter.get_or_insert_with(|| (self.make)());
        cutter.cut(name, fits)
    }
}

/// The colours and text size of a timeline strip painted by hand, in the look shown: dark in
/// the window's own look, light in the projector's (where the bar's text is also larger).
#[derive(Clone, Copy, Debug)]
pub struct StripLook {
    /// The strip's ground.
    pub ground: egui::Color32,
    /// A quiet band (the row shown in the latency table).
    pub quiet: egui::Color32,
    /// The cells of what is not known.
    pub unknown: egui::Color32,
    /// Text on the strip.
    pub text: egui::Color32,
    /// The marker: the frame shown, "now".
    pub marker: egui::Color32,
    /// Text on the strip, in points: a little smaller than the body text around it.
    pub small: f32,
}

impl StripLook {
    /// The look of `ui`.
    pub fn of(ui: &egui::Ui) -> Self {
        use egui::Color32;
        let body = egui::TextStyle::Body.resolve(ui.style()).size;
        let small = 0.8 * body;
        if ui.visuals().dark_mode {
            Self {
                ground: Color32::from_gray(40),
                quiet: Color32::from_gray(70),
                unknown: Color32::from_gray(45),
                text: Color32::LIGHT_GRAY,
                marker: Color32::WHITE,
                small,
            }
        } else {
            Self {
                ground: Color32::from_gray(222),
                quiet: Color32::from_gray(190),
                unknown: Color32::from_gray(205),
                text: Color32::from_gray(40),
                marker: Color32::BLACK,
                small,
            }
        }
    }
}

/// A flag on a timeline strip `rect` at `x`: a line across it, with a small triangle at its
/// top pointing down (`top`) or at its bottom pointing up. The capture lab's break and the
/// parting of two compared runs.
pub fn strip_flag(
    painter: &egui::Painter,
    rect: egui::Rect,
    x: f32,
    colour: crate::picture::Colour,
    top: bool,
) {
    let colour = egui::Color32::from(colour);
    painter.line_segment(
        [egui::pos2(x, rect.top()), egui::pos2(x, rect.bottom())],
        (1.5, colour),
    );
    let (edge, tip) = if top {
        (rect.top(), rect.top() + 7.0)
    } else {
        (rect.bottom(), rect.bottom() - 7.0)
    };
    painter.add(egui::Shape::convex_polygon(
        vec![
            egui::pos2(x - 5.0, edge),
            egui::pos2(x + 5.0, edge),
            egui::pos2(x, tip),
        ],
        colour,
        egui::Stroke::NONE,
    ));
}
