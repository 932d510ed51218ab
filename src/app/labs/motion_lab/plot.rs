//! The motion lab's Plot panel: the shape selected, or the pair explained (and its dynamic
//! shapes), over every step of the run; by default the run's first event's pair. Made from the
//! run's recording when the run or the choice changes (the run is whole before it is shown).

use super::*;
use crate::app::labs::plot_panel::{PlotAction, PlotInput, plot_at};
use crate::series::{Plot, PlotRequest, Quantity, ShapeRef};

/// What the lab plots: the quantities chosen, and the plot made with what it was made from.
pub struct MotionPlot {
    /// The quantities chosen in the panel.
    pub what: Vec<Quantity>,
    made: Option<((u64, PlotRequest), Result<Plot, String>)>,
    /// Whether the panel is shown (no plot is made while it is not).
    pub shown: bool,
}

impl Default for MotionPlot {
    fn default() -> Self {
        Self {
            what: crate::series::DEFAULT_QUANTITIES.to_vec(),
            made: None,
            shown: true,
        }
    }
}

impl MotionLab {
    /// What the panel plots now: the shape selected, else the pair explained with its
    /// dynamic shapes (both by their place in a run of the document), else the run's default.
    fn plot_request(&self, ws: &Workspace) -> PlotRequest {
        let of_document = self.run.as_ref().is_some_and(|r| r.revision.is_some());
        let scene = ws.scene();
        let dynamic = |i: usize| scene.shapes[i].motion.body == crate::scene::Body::Dynamic;
        let selected = ws.selected().and_then(|id| scene.index_of(id));
        let (shapes, pairs) = match (of_document, selected, ws.pair_indices()) {
            (true, Some(i), _) => (vec![ShapeRef::Id(i as u64)], Vec::new()),
            (true, None, Some((a, b))) => (
                [a, b]
                    .into_iter()
                    .filter(|&i| dynamic(i))
                    .map(|i| ShapeRef::Id(i as u64))
                    .collect(),
                vec![(ShapeRef::Id(a as u64), ShapeRef::Id(b as u64))],
            ),
            _ => (Vec::new(), Vec::new()),
        };
        PlotRequest {
            shapes,
            pairs,
            what: self.plot.what.clone(),
            frames: None,
        }
    }

    /// Make the plot again when the run or what it plots changed.
    pub(super) fn refresh_plot(&mut self, ws: &Workspace) {
        let Some(run) = self.run.as_ref().filter(|_| self.plot.shown) else {
            self.plot.made = None;
            return;
        };
        let key = (self.run_id, self.plot_request(ws));
        if self.plot.made.as_ref().is_some_and(|(k, _)| *k == key) {
            return;
        }
        let plot = crate::motion::plot_recording(&run.recording, &key.1, &run.source)
            .map_err(|e| e.to_string());
        self.plot.made = Some((key, plot));
    }

    /// The plot drawn in the panel, if one was made.
    pub fn plot(&self) -> Option<&Plot> {
        self.plot.made.as_ref().and_then(|(_, p)| p.as_ref().ok())
    }

    /// The Plot panel under the scene; what the user does there is pushed as commands.
    pub fn plot_panel(&self, ui: &mut egui::Ui, out: &mut Commands) {
        self.plot_ui(ui, out, false);
    }

    /// On a phone, the plot as the first section of the lab's panel.
    pub(super) fn plot_section(&self, ui: &mut egui::Ui, out: &mut Commands) {
        self.plot_ui(ui, out, true);
    }

    /// The plot, under the scene or (`section`) in the lab's panel.
    fn plot_ui(&self, ui: &mut egui::Ui, out: &mut Commands, section: bool) {
        if self.run.is_none() {
            return;
        }
        let status = match self.plot.made.as_ref().map(|(_, p)| p) {
            Some(Ok(plot)) => plot.summary(),
            Some(Err(problem)) => problem.clone(),
            None => crate::series::NOTHING_CHOSEN.to_string(),
        };
        let frames = self.frames();
        let input = PlotInput {
            id: "motion plot",
            plot: self.plot(),
            shown: Some(self.frame() as f64 * frames.dt),
            what: &self.plot.what,
            status,
            reading: false,
        };
        let actions = plot_at(ui, &input, section);
        for action in actions {
            match action {
                PlotAction::What(what) => out.push(Command::Motion(MotionCommand::PlotWhat(what))),
                PlotAction::Seek(time) => {
                    let at = self
                        .plot()
                        .and_then(|p| p.position_at(time).map(|k| p.frames[k]));
                    if let Some(k) = at {
                        out.push(Command::Playback(
                            TimelineId::Motion,
                            PlaybackCommand::Seek(k),
                        ));
                    }
                }
            }
        }
    }
}
