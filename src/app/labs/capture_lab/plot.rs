//! The capture lab's Plot panel: the shape picked (one click) or the pair explained (two
//! clicks, a claim selected, a divergence or an event stepped to) over every frame of the
//! capture, read on a reader thread of its own ([`PlotJob`]) and followed as a live capture
//! grows; the window draws what is ready.

use super::*;
use crate::app::labs::plot_panel::{PlotAction, PlotInput, plot_at};
use crate::capture::analysis::series::PlotJob;
use crate::series::{PlotRequest, Quantity, ShapeRef};

/// What the lab plots: the quantities chosen, and the plot being read with what it was
/// asked for (the capture opened, the request).
pub struct CapturePlot {
    /// The quantities chosen in the panel.
    pub what: Vec<Quantity>,
    job: Option<(u64, PlotJob)>,
    /// Whether the panel is shown (no plot is read while it is not).
    pub shown: bool,
}

impl Default for CapturePlot {
    fn default() -> Self {
        Self {
            what: crate::series::DEFAULT_QUANTITIES.to_vec(),
            job: None,
            shown: true,
        }
    }
}

impl CaptureLab {
    /// What the panel plots now: the shape picked, else the pair explained, else the pair of
    /// the capture's first event (as `collidoscope plot` does by default), with the pair's
    /// shapes that move (at the frame shown).
    pub fn plot_request(&self) -> Option<PlotRequest> {
        let first_event = || {
            let e = self.index.as_ref()?.events().first()?;
            Some(ClaimRef {
                a: e.a,
                b: e.b,
                piece: None,
            })
        };
        let (shapes, pairs) = match (self.picked, self.selected.or_else(first_event)) {
            (Some(id), _) => (vec![ShapeRef::Id(id)], Vec::new()),
            (None, Some(claim)) => {
                let moves = |id: u64| {
                    self.shown.as_ref().is_none_or(|shown| {
                        shown.ids.iter().position(|i| *i == id).is_none_or(|k| {
                            shown.scene.shapes[k].motion.body != crate::scene::Body::Static
                        })
                    })
                };
                let shapes = [claim.a, claim.b]
                    .into_iter()
                    .filter(|id| moves(*id))
                    .map(ShapeRef::Id)
                    .collect();
                (shapes, vec![(ShapeRef::Id(claim.a), ShapeRef::Id(claim.b))])
            }
            (None, None) => return None,
        };
        Some(PlotRequest {
            shapes,
            pairs,
            what: self.plot.what.clone(),
            frames: None,
        })
    }

    /// Start reading the plot the panel asks for when it changed, and take what the reader
    /// handed out: whether the plot is still being read.
    pub(super) fn refresh_plot(&mut self) -> bool {
        let wanted = self.plot.shown.then(|| self.plot_request()).flatten();
        let (Some(index), Some(request)) = (&self.index, wanted) else {
            self.plot.job = None;
            return false;
        };
        let current = self
            .plot
            .job
            .as_ref()
            .is_some_and(|(opened, job)| *opened == self.opened && *job.request() == request);
        if !current {
            let job = PlotJob::start(index.source(), index.is_live(), request);
            self.plot.job = Some((self.opened, job));
        }
        let (_, job) = self.plot.job.as_mut().expect("started");
        job.update();
        job.is_reading()
    }

    /// The plot drawn in the panel, if any is ready.
    pub fn plot(&self) -> Option<&crate::series::Plot> {
        self.plot.job.as_ref().and_then(|(_, job)| job.plot())
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
        let Some(index) = &self.index else { return };
        let job = self.plot.job.as_ref().map(|(_, job)| job);
        let plot = job.and_then(PlotJob::plot);
        let status = match (job, plot) {
            (None, _) => crate::series::NOTHING_CHOSEN.to_string(),
            (Some(job), _) if job.problem().is_some() => job.problem().unwrap_or("").to_string(),
            (Some(_), Some(plot)) => plot.summary(),
            (Some(_), None) => "reading the capture...".to_string(),
        };
        let position = self.playback.position as usize;
        let input = PlotInput {
            id: "capture plot",
            plot,
            shown: index.frames().get(position).map(|f| f.time),
            what: &self.plot.what,
            status,
            reading: job.is_some_and(PlotJob::is_reading) && !index.is_live(),
        };
        let actions = plot_at(ui, &input, section);
        for action in actions {
            match action {
                PlotAction::What(what) => {
                    out.push(Command::Capture(CaptureCommand::PlotWhat(what)))
                }
                PlotAction::Seek(time) => {
                    let at = plot
                        .and_then(|p| p.position_at(time).map(|k| p.frames[k]))
                        .and_then(|frame| index.position_of(frame));
                    if let Some(k) = at {
                        out.push(Command::Playback(
                            TimelineId::Capture,
                            PlaybackCommand::Seek(k as u64),
                        ));
                    }
                }
            }
        }
    }
}
