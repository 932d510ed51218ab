//! The Claimed tab of the pair lab: what another engine reported for the explained pair
//! (typed, pasted as JSON, or read from a file's `claims`), the exact result beside it with the
//! differences in numbers, and the known mistakes that reproduce the claim, each with a button
//! that shows that mistake's own test (its axes and its choice) next to the correct one.

use crate::Judgement;
use crate::app::axes_table;
use crate::app::command::{Command, Commands};
use crate::app::document::edit::Edit;
use crate::app::document::workspace::Workspace;
use crate::app::words;
use crate::picture::palette;
use crate::query::{Mistake, SatReport, mistaken_piece_report, mistaken_report};
use crate::scene::{Claim, ShapeId, parse_claim};
use crate::text::{self, PairNames};
use eframe::egui::{self, RichText};
use std::path::PathBuf;

/// The claim being typed, and which mistake's test is shown.
#[derive(Default)]
pub struct ClaimedPanel {
    intersecting: bool,
    depth: String,
    distance: String,
    normal_x: String,
    normal_y: String,
    contacts: String,
    /// The chain's piece the claim is about (pairs with a chain).
    piece: String,
    paste: String,
    path: String,
    /// Why the last claim typed or pasted was refused.
    refused: Option<String>,
    /// The pair and claim the fields were filled from.
    loaded: Option<((ShapeId, ShapeId), Option<Claim>)>,
    /// The mistake whose test is shown beside the correct one.
    shown: Option<Mistake>,
}

impl ClaimedPanel {
    /// The mistake whose test is shown (its MTV is drawn in the scene too).
    pub fn shown_mistake(&self) -> Option<Mistake> {
        self.shown
    }

    /// The shown mistake's report on the explained pair.
    pub fn mistake_report(&self, ws: &Workspace) -> Option<SatReport> {
        let mistake = self.shown?;
        let (a, b) = ws.pair_indices()?;
        let shapes = &ws.scene().shapes;
        let (a, b) = (&shapes[a].placed, &shapes[b].placed);
        match ws.claim().and_then(|c| c.reported.piece) {
            Some(piece) => mistaken_piece_report(mistake, a, b, piece),
            None => Some(mistaken_report(mistake, a, b)),
        }
    }

    /// Fill the fields from the explained pair's claim when the pair or the claim changed.
    fn follow(&mut self, ws: &Workspace) {
        let Some(pair) = ws.pair() else { return };
        let claim = ws.claim().cloned();
        if self.loaded.as_ref() == Some(&(pair, claim.clone())) {
            return;
        }
        if self.loaded.as_ref().is_none_or(|(p, _)| *p != pair) {
            self.shown = None;
        }
        let number = |x: Option<f64>| x.map(text::exact_number).unwrap_or_default();
        let c = claim.as_ref().map(|c| c.reported.clone());
        self.intersecting = c.as_ref().is_none_or(|c| c.intersecting);
        self.depth = number(c.as_ref().and_then(|c| c.depth));
        self.distance = number(c.as_ref().and_then(|c| c.distance));
        self.normal_x = number(c.as_ref().and_then(|c| c.normal).map(|n| n.x));
        self.normal_y = number(c.as_ref().and_then(|c| c.normal).map(|n| n.y));
        self.contacts = c
            .as_ref()
            .and_then(|c| c.contacts.as_ref())
            .map(|points| {
                let points: Vec<String> = points
                    .iter()
                    .map(|p| format!("{} {}", text::exact_number(p.x), text::exact_number(p.y)))
                    .collect();
                points.join("; ")
            })
            .unwrap_or_default();
        self.piece = c
            .as_ref()
            .and_then(|c| c.piece)
            .map(|k| k.to_string())
            .unwrap_or_default();
        self.refused = None;
        self.loaded = Some((pair, claim));
    }

    /// The tab's contents.
    pub fn ui(&mut self, ui: &mut egui::Ui, ws: &Workspace, names: &PairNames, out: &mut Commands) {
        self.follow(ws);
        let (Some(pair), Some((ia, ib))) = (ws.pair(), ws.pair_indices()) else {
            return;
        };
        // Both ways: at game coordinates (numbers like 412.837216) what cannot wrap scrolls
        // inside the panel instead of widening it past the window.
        egui::ScrollArea::both()
            .id_salt("claimed")
            .auto_shrink([false, true])
            .show(ui, |ui| {
                if ws.claim().is_none()
                    && ws.claim_swapped().is_some()
                    && ui
                        .button(format!("A claim is about {} / {}: explain that order", names.b, names.a))
                        .clicked()
                {
                    out.push(Command::Explain(pair.1, pair.0));
                }
                self.editor(ui, ws, names, (ia, ib), out);
                ui.separator();
                match ws.diagnosis() {
                    Some(d) => self.diagnosis(ui, ws, d, names),
                    None => {
                        ui.label(
                            "Type what your engine reported for this pair (A first, normal from A toward B) and Apply: the exact result and the known mistakes that explain the difference appear here.",
                        );
                    }
                }
            });
    }

    fn editor(
        &mut self,
        ui: &mut egui::Ui,
        ws: &Workspace,
        names: &PairNames,
        (ia, ib): (usize, usize),
        out: &mut Commands,
    ) {
        ui.label(RichText::new(format!("Claimed for {} (A) / {} (B)", names.a, names.b)).strong());
        ui.checkbox(&mut self.intersecting, "intersecting");
        egui::Grid::new("claim fields")
            .num_columns(2)
            .spacing([8.0, 4.0])
            .show(ui, |ui| {
                let field = |ui: &mut egui::Ui, label: &str, value: &mut String, hint: &str| {
                    let l = ui.label(label);
                    ui.add(
                        egui::TextEdit::singleline(value)
                            .hint_text(hint)
                            .desired_width(160.0),
                    )
                    .labelled_by(l.id);
                    ui.end_row();
                };
                if let Some(pieces) = pieces_of_pair(ws, (ia, ib)) {
                    let hint = format!("{} to {}", pieces.start, pieces.end - 1);
                    field(ui, "piece", &mut self.piece, &hint);
                }
                if self.intersecting {
                    field(ui, "depth", &mut self.depth, "> 0");
                    field(ui, "normal x", &mut self.normal_x, "unit, A toward B");
                    field(ui, "normal y", &mut self.normal_y, "");
                    field(ui, "contacts", &mut self.contacts, "x y; x y");
                } else {
                    field(ui, "distance", &mut self.distance, "optional");
                }
            });
        ui.horizontal_wrapped(|ui| {
            if ui.button("Apply claim").clicked() {
                match self.typed_claim(ws, (ia, ib)) {
                    Ok(claim) => self.set(ws, Some(claim), out),
                    Err(e) => self.refused = Some(e),
                }
            }
            if ui
                .add_enabled(ws.claim().is_some(), egui::Button::new("Remove claim"))
                .clicked()
            {
                self.set(ws, None, out);
            }
        });
        ui.horizontal(|ui| {
            let l = ui.label("Paste");
            ui.add(
                egui::TextEdit::singleline(&mut self.paste)
                    .hint_text(r#"{"intersecting": true, "depth": 0.2, "normal": [0, 1]}"#)
                    .desired_width((ui.available_width() - 60.0).max(80.0)),
            )
            .labelled_by(l.id);
            if ui.button("Read").clicked() {
                match parse_claim(&self.paste, (ia, ib), ws.scene().shapes.len()) {
                    Ok(claim) => {
                        let claim = with_ids(ws, claim);
                        self.set(ws, Some(claim), out);
                        self.paste.clear();
                    }
                    Err(e) => self.refused = Some(e),
                }
            }
        });
        ui.horizontal(|ui| {
            let l = ui.label("Claims from");
            ui.add(
                egui::TextEdit::singleline(&mut self.path)
                    .hint_text("a shape-set file with \"claims\"")
                    .desired_width((ui.available_width() - 60.0).max(80.0)),
            )
            .labelled_by(l.id);
            if ui.button("Load").clicked() && !self.path.trim().is_empty() {
                out.push(Command::LoadClaims(PathBuf::from(self.path.trim())));
            }
        });
        if let Some(reason) = &self.refused {
            ui.colored_label(palette::INVALID, format!("claim refused: {reason}"));
        }
    }

    /// The claims with the explained pair's claim replaced (or removed).
    fn set(&mut self, ws: &Workspace, claim: Option<Claim>, out: &mut Commands) {
        let Some((a, b)) = ws.pair() else { return };
        // The claim replaced or removed: the one on the same piece, or the one shown.
        let piece = match &claim {
            Some(c) => c.reported.piece,
            None => ws.claim().and_then(|c| c.reported.piece),
        };
        let mut claims: Vec<Claim> = ws
            .scene()
            .claims
            .iter()
            // A pair with a chain has a claim per piece: keep the other pieces'.
            .filter(|c| (c.a, c.b) != (a, b) || c.reported.piece != piece)
            .cloned()
            .collect();
        claims.extend(claim);
        self.refused = None;
        out.edit(Edit::Claims(claims));
    }

    /// The fields as a claim, checked by the file format's rules (through its reader).
    fn typed_claim(&self, ws: &Workspace, pair: (usize, usize)) -> Result<Claim, String> {
        let number = |label: &str, value: &str| -> Result<Option<f64>, String> {
            let value = value.trim();
            if value.is_empty() {
                return Ok(None);
            }
            words::parse_number(value)
                .map(Some)
                .map_err(|e| format!("{label}: {e}"))
        };
        let mut object = serde_json::Map::new();
        object.insert("intersecting".into(), self.intersecting.into());
        if let Some(pieces) = pieces_of_pair(ws, pair) {
            let range = format!("{} to {}", pieces.start, pieces.end - 1);
            let typed = self.piece.trim();
            if typed.is_empty() {
                return Err(format!(
                    "piece: a claim on a chain names its piece, {range}"
                ));
            }
            match typed.parse::<usize>() {
                Ok(k) if pieces.contains(&k) => {
                    object.insert("piece".into(), k.into());
                }
                _ => {
                    return Err(format!(
                        "piece: {typed} is not a piece of the chain ({range})"
                    ));
                }
            }
        }
        if self.intersecting {
            if let Some(d) = number("depth", &self.depth)? {
                object.insert("depth".into(), d.into());
            }
            let (x, y) = (
                number("normal x", &self.normal_x)?,
                number("normal y", &self.normal_y)?,
            );
            if let (Some(x), Some(y)) = (x, y) {
                object.insert("normal".into(), serde_json::json!([x, y]));
            }
            let values: Vec<&str> = self
                .contacts
                .split(|c: char| c.is_whitespace() || ",;()[]".contains(c))
                .filter(|s| !s.is_empty())
                .collect();
            if !values.is_empty() {
                if values.len() % 2 == 1 {
                    return Err(format!(
                        "contacts: {} numbers is not a list of x y points",
                        values.len()
                    ));
                }
                let mut points = Vec::new();
                for xy in values.chunks(2) {
                    let x = number("contacts", xy[0])?.unwrap_or_default();
                    let y = number("contacts", xy[1])?.unwrap_or_default();
                    points.push(serde_json::json!([x, y]));
                }
                object.insert("contacts".into(), points.into());
            }
        } else if let Some(d) = number("distance", &self.distance)? {
            object.insert("distance".into(), d.into());
        }
        let text = serde_json::Value::Object(object).to_string();
        parse_claim(&text, pair, ws.scene().shapes.len()).map(|claim| with_ids(ws, claim))
    }

    fn diagnosis(&mut self, ui: &mut egui::Ui, ws: &Workspace, d: &Judgement, names: &PairNames) {
        let claim = &ws.claim().expect("a diagnosis is of a claim").reported;
        let d = &d.check;
        if d.agrees
            && let Some(worst) = crate::contacts_off(d)
        {
            ui.colored_label(
                palette::DECIDING,
                RichText::new(format!(
                    "The verdict, depth and normal agree, but the contacts are off by up to {}.",
                    text::number(worst)
                ))
                .strong(),
            );
        } else if d.agrees {
            ui.colored_label(
                palette::SEPARATING,
                RichText::new("The claim agrees with the exact result.").strong(),
            );
        } else {
            ui.colored_label(
                palette::MTV,
                RichText::new(format!("The claim differs: {}.", crate::differences(d))).strong(),
            );
        }
        let exact = &d.exact;
        // The two value columns share what the label column leaves.
        let column = ((ui.available_width() - 90.0) / 2.0).max(60.0);
        egui::Grid::new("claim vs exact")
            .striped(true)
            .num_columns(3)
            .max_col_width(column)
            .spacing([8.0, 4.0])
            .show(ui, |ui| {
                for head in ["", "claimed", "exact"] {
                    ui.label(RichText::new(head).strong());
                }
                ui.end_row();
                let verdict = |b: bool| if b { "intersecting" } else { "apart" };
                row(
                    ui,
                    "verdict",
                    verdict(claim.intersecting),
                    verdict(exact.intersecting),
                );
                let n = |x: Option<f64>| x.map(text::number).unwrap_or_else(|| "-".into());
                if claim.intersecting || exact.intersecting {
                    row(ui, "depth", &n(claim.depth), &text::number(exact.depth));
                    let p = |p: Option<crate::geometry::DVec2>| {
                        p.map(text::point).unwrap_or_else(|| "-".into())
                    };
                    row(ui, "normal", &p(claim.normal), &p(exact.normal));
                    let points = |ps: &[crate::geometry::DVec2]| {
                        let ps: Vec<String> = ps.iter().map(|q| text::point(*q)).collect();
                        if ps.is_empty() {
                            "-".into()
                        } else {
                            ps.join("\n")
                        }
                    };
                    row(
                        ui,
                        "contacts",
                        &claim.contacts.as_deref().map_or("-".into(), points),
                        &points(&exact.contacts),
                    );
                } else {
                    row(
                        ui,
                        "distance",
                        &n(claim.distance),
                        &text::number(exact.distance),
                    );
                }
            });
        if d.agrees {
            return;
        }
        ui.add_space(4.0);
        if d.matches.is_empty() {
            ui.label("No known mistake reproduces this claim.");
        } else {
            ui.label(RichText::new("Reproduced by").strong());
        }
        for &m in &d.matches {
            ui.horizontal_wrapped(|ui| {
                ui.colored_label(palette::NAIVE, RichText::new(m.name()).strong());
                let shown = self.shown == Some(m);
                let label = if shown {
                    "Hide its test"
                } else {
                    "Show its test"
                };
                if ui.button(label).clicked() {
                    self.shown = (!shown).then_some(m);
                }
            });
            ui.label(m.explanation());
            ui.label(RichText::new(format!("What fixes it: {}", m.fix())).italics());
        }
        if let Some(report) = self.mistake_report(ws) {
            let m = self.shown.expect("a report is of a shown mistake");
            ui.separator();
            ui.label(
                RichText::new(format!("{m}: its test"))
                    .strong()
                    .color(palette::NAIVE),
            );
            ui.label(text::verdict_sentence(&report, names));
            if let Some(mtv) = report.mtv {
                ui.colored_label(
                    palette::NAIVE,
                    format!(
                        "Its MTV moves {} by {} along {} (drawn in the scene).",
                        names.b,
                        text::number(mtv.depth),
                        text::point(mtv.normal)
                    ),
                );
            }
            let all = report.axes.len();
            let place = axes_table::Place {
                id: "mistake axes",
                scroll_down: false,
                follow: false,
            };
            axes_table::ui(ui, &report, names, all, true, None, place);
        }
    }
}

/// The piece numbers of the chain in the pair (`None` when neither shape is a chain).
fn pieces_of_pair(ws: &Workspace, (a, b): (usize, usize)) -> Option<std::ops::Range<usize>> {
    let shapes = &ws.scene().shapes;
    [a, b]
        .into_iter()
        .find_map(|k| shapes[k].placed.shape.as_chain())
        .map(|c| c.piece_numbers())
}

/// One row of the claim-vs-exact table; long values wrap inside their column.
fn row(ui: &mut egui::Ui, label: &str, claimed: &str, exact: &str) {
    ui.label(label);
    ui.add(egui::Label::new(claimed).wrap());
    ui.add(egui::Label::new(exact).wrap());
    ui.end_row();
}

/// A claim read with list positions as ids, given the scene's ids.
fn with_ids(ws: &Workspace, mut claim: Claim) -> Claim {
    let shapes = &ws.scene().shapes;
    claim.a = shapes[claim.a.0 as usize].id;
    claim.b = shapes[claim.b.0 as usize].id;
    claim
}
