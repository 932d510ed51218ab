//! A capture's quantities over time ([`crate::series`]): the chosen shapes' poses and
//! velocities and the chosen pairs' claims beside the exact results, read once, frame by
//! frame, the frames of their events and disagreeing claims marked.
//!
//! Only the claims that touch a chosen shape or pair are judged (and only they can make the
//! events marked), so a plot reads a capture faster than `diagnose` judges it all. The lines
//! are parsed in batches on every core and applied in file order, as `diagnose` reads them.

use crate::capture::analysis::events::EventFinder;
use crate::capture::analysis::judge::judge_at;
use crate::capture::analysis::scan::{Watch, scan_capture};
use crate::capture::{CaptureEvent, CaptureReader, Frame, FrameJudgement, Keyframe};
use crate::files::FileError;
use crate::judge::agreement::{Agreement, LENGTH_TOLERANCE};
use crate::scene::{Body, Precision};
use crate::series::{
    ClaimNow, MarkKind, Marker, PairNow, Plot, PlotBuilder, PlotError, PlotRequest, ShapeNow,
    ShapeRef,
};
use crate::{Exact, Judgement, PairSummary};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

/// The most names an error lists.
const NAMES_LISTED: usize = 40;

/// A capture read into a plot, a frame at a time: how `collidoscope plot` reads a whole file
/// and the window's reader thread a capture as it grows.
pub struct CapturePlotter {
    builder: PlotBuilder,
    finder: EventFinder,
    precision: Precision,
    shapes: Vec<ShapeRef>,
    pairs: Vec<(ShapeRef, ShapeRef)>,
    /// Each chosen shape's id, once a frame held it, with its name.
    shape_ids: Vec<Option<(u64, String)>>,
    /// Each chosen pair's ids, once a frame held both.
    pair_ids: Vec<[Option<(u64, String)>; 2]>,
    /// The names seen while a chosen shape was not yet found (for the words when it never is).
    names_seen: BTreeMap<String, u64>,
    /// How many shapes the capture had at most, while one was looked for.
    most_shapes: usize,
    /// How many shapes bear each given name, where more than one does.
    same_name: HashMap<String, HashSet<u64>>,
    /// The pairs disagreeing at the frame before (to mark a run of frames once, at its start).
    disagreeing: HashSet<(u64, u64)>,
    /// The capture's name, for words.
    path: String,
    /// The first and last frames read.
    seen: Option<(u64, u64)>,
}

impl CapturePlotter {
    /// A plotter of the capture `header` describes, for `request` (its shapes and pairs given:
    /// see [`plot_capture`] for the defaults).
    pub fn new(path: &Path, header: &crate::capture::Header, request: &PlotRequest) -> Self {
        let builder = PlotBuilder::new(
            request.shapes.len(),
            request.pairs.len(),
            &request.quantities(),
            request.frames,
            &header.units,
        );
        Self {
            builder,
            finder: EventFinder::for_capture(header),
            precision: header.precision,
            shapes: request.shapes.clone(),
            pairs: request.pairs.clone(),
            shape_ids: vec![None; request.shapes.len()],
            pair_ids: vec![[None, None]; request.pairs.len()],
            names_seen: BTreeMap::new(),
            most_shapes: 0,
            same_name: HashMap::new(),
            disagreeing: HashSet::new(),
            path: path.display().to_string(),
            seen: None,
        }
    }

    /// Whether the frames asked for are all read (the rest of the file need not be).
    pub fn done_before(&self, frame: u64) -> bool {
        self.builder.done_before(frame)
    }

    /// Take `frame`, the frame `state` stands after.
    pub(in crate::capture) fn frame(&mut self, state: &Keyframe, frame: &Frame) {
        self.seen = Some(match self.seen {
            Some((first, _)) => (first, frame.frame),
            None => (frame.frame, frame.frame),
        });
        self.find_shapes(state);
        let wanted = self.builder.wants(frame.frame);
        // The claims that touch a chosen shape or pair: judged, for the lines, the marks and
        // the events of those shapes (a stale contact is found from its judgement).
        let ids: HashSet<u64> = self
            .shape_ids
            .iter()
            .chain(self.pair_ids.iter().flatten())
            .flatten()
            .map(|(id, _)| *id)
            .collect();
        let touching: Vec<_> = frame
            .claims
            .iter()
            .filter(|c| ids.contains(&c.a) || ids.contains(&c.b))
            .collect();
        let precision = self.precision;
        let judged: Vec<Judgement> = touching
            .par_iter()
            .filter_map(|claim| judge_at(state, claim, precision))
            .collect();
        let mut events = self.finder.moved(state, frame);
        let judgement = FrameJudgement {
            frame: frame.frame,
            time: frame.time,
            claims: judged,
            events: Vec::new(),
            malformed: Vec::new(),
        };
        self.finder.judged(state, frame, &judgement);
        if wanted {
            self.add(state, frame, &judgement.claims);
        }
        self.mark_disagreeing(frame, &judgement.claims, &ids);
        events.retain(|e| self.wants_event(e));
        for e in events {
            self.mark_event(&e);
        }
    }

    /// The last frame's own events (after the last [`Self::frame`]).
    fn finish_events(&mut self) {
        let mut events = self.finder.finish();
        events.retain(|e| self.wants_event(e));
        for e in events {
            self.mark_event(&e);
        }
    }

    /// Look for the chosen shapes not found yet in the frame `state` stands after.
    fn find_shapes(&mut self, state: &Keyframe) {
        let lost = self.shape_ids.iter().any(Option::is_none)
            || self.pair_ids.iter().flatten().any(Option::is_none);
        if !lost {
            return;
        }
        let mut count = 0;
        for shape in state.shapes() {
            count += 1;
            let name = shape.name.as_deref();
            if self.names_seen.len() < 10_000 {
                self.names_seen
                    .entry(shape.display_name())
                    .or_insert(shape.id);
            }
            let wanted = self.shapes.iter().zip(&mut self.shape_ids).chain(
                self.pairs
                    .iter()
                    .zip(&mut self.pair_ids)
                    .flat_map(|((a, b), [ia, ib])| [(a, ia), (b, ib)]),
            );
            for (r, found) in wanted {
                if !r.is(shape.id, name) {
                    continue;
                }
                match found {
                    None => *found = Some((shape.id, shape.display_name())),
                    Some((id, _)) if *id != shape.id => {
                        if let ShapeRef::Given(given) = r {
                            let ids = self.same_name.entry(given.clone()).or_default();
                            ids.extend([*id, shape.id]);
                        }
                    }
                    Some(_) => {}
                }
            }
        }
        self.most_shapes = self.most_shapes.max(count);
    }

    /// The lines' values at `frame`.
    fn add(&mut self, state: &Keyframe, frame: &Frame, judged: &[Judgement]) {
        let precision = self.precision;
        let shape_ids = &self.shape_ids;
        let pair_ids = &self.pair_ids;
        self.builder.frame(
            frame.frame,
            frame.time,
            |n| {
                let (id, _) = shape_ids[n].as_ref()?;
                let s = state.shape(*id)?;
                Some(ShapeNow::of(&s.placed, &s.motion))
            },
            |n| {
                let [Some((a, _)), Some((b, _))] = &pair_ids[n] else {
                    return None;
                };
                let (sa, sb) = (state.shape(*a)?, state.shape(*b)?);
                let exact = Exact::of(&sa.placed, &sb.placed, None).summary;
                let claims: Vec<ClaimNow> = judged
                    .iter()
                    .filter_map(|j| claim_of(j, (*a, *b), precision, (&sa.placed, &sb.placed)))
                    .collect();
                Some(PairNow { exact, claims })
            },
        );
    }

    /// Whether `e` is about a chosen shape or pair.
    fn wants_event(&self, e: &CaptureEvent) -> bool {
        let shapes: HashSet<u64> = e.shapes().into_iter().collect();
        self.shape_ids
            .iter()
            .flatten()
            .any(|(id, _)| shapes.contains(id))
            || self.pair_ids.iter().any(|pair| match pair {
                [Some((a, _)), Some((b, _))] => shapes.contains(a) && shapes.contains(b),
                _ => false,
            })
    }

    /// Mark an event.
    fn mark_event(&mut self, e: &CaptureEvent) {
        if !self.builder.wants(e.frame()) {
            return;
        }
        self.builder.mark(Marker {
            frame: e.frame(),
            time: e.time(),
            kind: MarkKind::Event(e.kind()),
            text: crate::capture::words::event_mark(e),
        });
    }

    /// Mark the claims of `judged` (those of the chosen shapes) that disagree where the frame
    /// before they did not.
    fn mark_disagreeing(&mut self, frame: &Frame, judged: &[Judgement], ids: &HashSet<u64>) {
        let mut now = HashSet::new();
        for j in judged.iter().filter(|j| !j.agrees()) {
            let key = (j.a.min(j.b), j.a.max(j.b));
            if !now.insert(key) || self.disagreeing.contains(&key) {
                continue;
            }
            if self.builder.wants(frame.frame) && (ids.contains(&j.a) || ids.contains(&j.b)) {
                self.builder.mark(Marker {
                    frame: frame.frame,
                    time: frame.time,
                    kind: MarkKind::Disagrees,
                    text: crate::capture::words::disagreeing_mark(j),
                });
            }
        }
        self.disagreeing = now;
    }

    /// Every frame read as a plot, named, the last frame's own events marked, with no word
    /// against a pair never claimed (the window plots its exact lines: where an engine left a
    /// pair out is worth seeing).
    pub fn plot_as_read(mut self) -> Plot {
        self.finish_events();
        self.plot()
    }

    /// The plot so far, named (what the window shows while the capture is read).
    pub fn plot(&self) -> Plot {
        self.plot_from(0)
    }

    /// The plot's frames from the `from`-th on (every mark, the names), to add to the frames
    /// before it with [`Plot::append`]: what a followed capture's reader hands out each frame
    /// without copying the whole plot again.
    pub fn plot_from(&self, from: usize) -> Plot {
        let (shapes, pairs) = self.names();
        let mut plot = self.builder.plot().rows_from(from);
        crate::series::name_plot(&mut plot, shapes, pairs);
        plot
    }

    /// How many frames are plotted.
    pub fn frames(&self) -> usize {
        self.builder.frames()
    }

    /// The chosen shapes' and pairs' names (as asked for, until found).
    fn names(&self) -> (Vec<String>, Vec<(String, String)>) {
        let name = |found: &Option<(u64, String)>, r: &ShapeRef| match found {
            Some((_, name)) => name.clone(),
            None => r.given(),
        };
        let shapes = self
            .shape_ids
            .iter()
            .zip(&self.shapes)
            .map(|(f, r)| name(f, r))
            .collect();
        let pairs = self
            .pair_ids
            .iter()
            .zip(&self.pairs)
            .map(|([fa, fb], (a, b))| (name(fa, a), name(fb, b)))
            .collect();
        (shapes, pairs)
    }

    /// The plot of every frame read, or why there is none: a shape asked for that no frame
    /// held, a pair never claimed in the frames plotted. Also a note when a name asked for is
    /// borne by more than one shape.
    pub fn finish(mut self) -> Result<(Plot, Vec<String>), PlotError> {
        self.finish_events();
        if self.builder.frames() == 0 {
            return Err(PlotError::NotThere(crate::series::no_frames_words(
                &self.path,
                self.builder.frame_range(),
                self.seen,
            )));
        }
        let missing: Vec<&ShapeRef> = self
            .shapes
            .iter()
            .zip(&self.shape_ids)
            .chain(
                self.pairs
                    .iter()
                    .zip(&self.pair_ids)
                    .flat_map(|((a, b), [fa, fb])| [(a, fa), (b, fb)]),
            )
            .filter(|(_, found)| found.is_none())
            .map(|(r, _)| r)
            .collect();
        if let Some(first) = missing.first() {
            return Err(PlotError::NotThere(crate::capture::words::no_such_shape(
                &self.path,
                &first.given(),
                &self.names_seen,
                NAMES_LISTED,
            )));
        }
        let (shapes, pairs) = self.names();
        let notes = self
            .same_name
            .iter()
            .map(|(given, ids)| {
                let chosen = self
                    .shape_ids
                    .iter()
                    .chain(self.pair_ids.iter().flatten())
                    .flatten()
                    .find(|(_, name)| name == given)
                    .map_or(0, |(id, _)| *id);
                crate::capture::words::shared_name(given, ids.len(), chosen)
            })
            .collect();
        let plot = self.builder.finish(shapes, pairs);
        plot.check_claimed(&self.path)?;
        Ok((plot, notes))
    }
}

/// A judged claim as a plot takes it for the pair `(a, b)` (`None`: another pair's), turned to
/// run from `a` toward `b` when it was claimed the other way round.
fn claim_of(
    j: &Judgement,
    (a, b): (u64, u64),
    precision: Precision,
    placed: (&crate::Placed, &crate::Placed),
) -> Option<ClaimNow> {
    let turned = match (j.a, j.b) {
        (x, y) if (x, y) == (a, b) => false,
        (x, y) if (x, y) == (b, a) => true,
        _ => return None,
    };
    let exact = j.check.exact.clone();
    let tolerance = match Agreement::for_pair(precision, placed.0, placed.1).tolerance() {
        Some(tau) => tau,
        None => LENGTH_TOLERANCE * (1.0 + exact.depth + exact.distance),
    };
    let mut reported = j.claimed.clone();
    let mut exact = exact;
    if turned {
        reported.normal = reported.normal.map(|n| -n);
        exact = turned_summary(exact);
    }
    Some(ClaimNow {
        reported,
        exact,
        tolerance,
    })
}

/// The exact result of (A, B) as the result of (B, A).
fn turned_summary(mut s: PairSummary) -> PairSummary {
    s.normal = s.normal.map(|n| -n);
    s.closest = s.closest.map(|[a, b]| [b, a]);
    s
}

/// What a plot shows by default: the first event's or disagreeing claim's pair (and its
/// shapes that move), found by reading the capture up to it.
#[derive(Clone, Debug, PartialEq)]
pub struct Trouble {
    /// The frame it happened at.
    pub frame: u64,
    /// The pair.
    pub pair: (u64, u64),
    /// The shapes of it that move, the event's own shape first.
    pub moving: Vec<u64>,
}

/// The first event of the capture at `path` (within `frames`, when given), else its first
/// disagreeing claim, else its first claim on a moving shape (`None`: no claim at all).
pub fn first_trouble(
    path: &Path,
    frames: Option<(u64, u64)>,
) -> Result<Option<Trouble>, FileError> {
    let mut reader = CaptureReader::open(path)?;
    let mut finder = EventFinder::for_capture(reader.header());
    let within = |f: u64| frames.is_none_or(|(lo, hi)| (lo..=hi).contains(&f));
    let past = |f: u64| frames.is_some_and(|(_, hi)| f > hi + 1);
    let mut event: Option<(u64, (u64, u64), Option<u64>)> = None;
    let mut divergence: Option<(u64, (u64, u64))> = None;
    let mut first_claim: Option<(u64, (u64, u64))> = None;
    scan_capture(
        &mut reader,
        |judged| {
            if let Some(e) = judged.events.iter().find(|e| within(e.frame())) {
                event = Some((e.frame(), (e.a, e.b), e.shape()));
                return false;
            }
            if past(judged.frame) {
                return false;
            }
            if !within(judged.frame) {
                return true;
            }
            if divergence.is_none()
                && let Some(j) = judged.claims.iter().find(|j| !j.agrees())
            {
                divergence = Some((judged.frame, (j.a, j.b)));
            }
            if first_claim.is_none()
                && let Some(j) = judged.claims.first()
            {
                first_claim = Some((judged.frame, (j.a, j.b)));
            }
            true
        },
        Watch {
            events: Some(&mut finder),
            ..Watch::default()
        },
    )?;
    if event.is_none()
        && let Some(e) = finder.finish().into_iter().find(|e| within(e.frame()))
    {
        event = Some((e.frame(), (e.a, e.b), e.shape()));
    }
    let found = event.or(divergence.or(first_claim).map(|(f, p)| (f, p, None)));
    let Some((frame, pair, own)) = found else {
        return Ok(None);
    };
    let moves = |id: u64| {
        reader
            .shape(id)
            .is_none_or(|s| s.motion.body != Body::Static)
    };
    let mut moving: Vec<u64> = own.into_iter().collect();
    for id in [pair.0, pair.1] {
        if moves(id) && !moving.contains(&id) {
            moving.push(id);
        }
    }
    Ok(Some(Trouble {
        frame,
        pair,
        moving,
    }))
}

/// The request with its shapes and pairs given: as asked, or the first trouble's.
pub fn with_defaults(path: &Path, request: &PlotRequest) -> Result<PlotRequest, PlotError> {
    if !request.shapes.is_empty() || !request.pairs.is_empty() {
        return Ok(request.clone());
    }
    let Some(trouble) = first_trouble(path, request.frames)? else {
        return Err(PlotError::NotThere(crate::capture::words::nothing_to_plot(
            &path.display().to_string(),
        )));
    };
    Ok(request.choosing(
        trouble.moving.into_iter().map(ShapeRef::Id).collect(),
        vec![(ShapeRef::Id(trouble.pair.0), ShapeRef::Id(trouble.pair.1))],
    ))
}

/// Plot the capture at `path` as `request` asks (its shapes and pairs as [`with_defaults`]
/// gives them), reading it once more: the plot, and notes on names borne by several shapes.
pub fn plot_capture(path: &Path, request: &PlotRequest) -> Result<(Plot, Vec<String>), PlotError> {
    let request = with_defaults(path, request)?;
    let mut reader = CaptureReader::open(path)?;
    let mut plotter = CapturePlotter::new(path, reader.header(), &request);
    read_into(&mut reader, &mut plotter, BATCH, |_| true)?;
    plotter.finish()
}

/// Lines parsed at once, on every core, when a whole file is read.
pub const BATCH: usize = 256;

/// Read `reader`'s frames into `plotter` until its end, the frames asked for are read, or
/// `go_on` (given the plotter, after each frame) says stop; `batch` lines at a time parsed on every
/// core and applied in file order (1 for a capture still being written: each frame is taken
/// as soon as it is there). Whether the end of the file was met.
pub fn read_into(
    reader: &mut CaptureReader,
    plotter: &mut CapturePlotter,
    batch: usize,
    mut go_on: impl FnMut(&CapturePlotter) -> bool,
) -> Result<bool, FileError> {
    let batch = batch.max(1);
    loop {
        let mut raw = Vec::new();
        while raw.len() < batch {
            match reader.raw_line()? {
                Some(line) => raw.push(line),
                None => break,
            }
        }
        let end = raw.len() < batch;
        let parsed: Vec<_> = raw.into_par_iter().map(|line| line.parse()).collect();
        for line in parsed {
            let Some(frame) = reader.apply_line(line)? else {
                return Ok(true);
            };
            if plotter.done_before(frame.frame) {
                // The frame after the last asked for completes the last one's step: its
                // events are marked (its values are not plotted).
                plotter.frame(reader.state(), &frame);
                return Ok(false);
            }
            plotter.frame(reader.state(), &frame);
            if !go_on(plotter) {
                return Ok(false);
            }
        }
        if end {
            return Ok(true);
        }
    }
}

/// How often a plot being read is handed to the window.
const HAND_OUT: std::time::Duration = std::time::Duration::from_millis(120);

/// A plot of a capture built on a reader thread of its own, handed out as it grows: what the
/// window's Plot panel draws (never waiting on it). A capture still being written is followed:
/// its frames are plotted as they come, until the job is dropped.
pub struct PlotJob {
    request: PlotRequest,
    /// What the reader hands out: the plot's frames from a row on (0: the whole plot).
    found: std::sync::mpsc::Receiver<Result<(usize, Plot), String>>,
    latest: Option<Plot>,
    problem: Option<String>,
    reading: bool,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl PlotJob {
    /// Start plotting `source` as `request` asks (its shapes and pairs given); `live`: the
    /// file is still being written (followed from its start, and then as it grows). In the
    /// browser, with no thread to read on, a capture in memory is read here, whole.
    pub fn start(source: crate::capture::CaptureSource, live: bool, request: PlotRequest) -> Self {
        use std::sync::atomic::{AtomicBool, Ordering};
        let (send, found) = std::sync::mpsc::channel();
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let job_stop = stop.clone();
        let job_request = request.clone();
        let work = move || {
            let opened = match (&source, live) {
                (crate::capture::CaptureSource::File(path), true) => {
                    crate::capture::follow::Growing::open(path, None, job_stop.clone())
                        .map_err(|e| {
                            FileError::new(
                                path,
                                crate::files::Problem::io("cannot read the file", e),
                            )
                        })
                        .and_then(|growing| CaptureReader::new(path, growing))
                }
                _ => source.reader(),
            };
            let mut reader = match opened {
                Ok(reader) => reader,
                Err(e) => {
                    let _ = send.send(Err(e.to_string()));
                    return;
                }
            };
            let mut plotter = CapturePlotter::new(source.name(), reader.header(), &job_request);
            // In the browser the whole capture is read at once, with no clock to ask (the
            // standard library has none there): handed out at its end only.
            let mut last = (!cfg!(target_arch = "wasm32")).then(std::time::Instant::now);
            let batch = if live { 1 } else { BATCH };
            // The frames handed out so far: only those after them go next (a followed capture
            // hands out every frame as it comes, the reader then waiting for the next).
            let mut sent = 0;
            let read = read_into(&mut reader, &mut plotter, batch, |plotter| {
                if job_stop.load(Ordering::Relaxed) {
                    return false;
                }
                let due = match &mut last {
                    Some(at) if live || at.elapsed() >= HAND_OUT => {
                        *at = std::time::Instant::now();
                        true
                    }
                    _ => false,
                };
                if due {
                    let tail = plotter.plot_from(sent);
                    let from = std::mem::replace(&mut sent, plotter.frames());
                    return send.send(Ok((from, tail))).is_ok();
                }
                true
            });
            let _ = match read {
                Ok(_) => send.send(Ok((0, plotter.plot_as_read()))),
                Err(e) => send.send(Err(e.to_string())),
            };
        };
        let reading = if cfg!(target_arch = "wasm32") {
            work();
            true
        } else {
            std::thread::Builder::new()
                .name("capture plot".into())
                .spawn(work)
                .is_ok()
        };
        Self {
            request,
            found,
            latest: None,
            problem: (!reading).then(|| "cannot start a thread to read the plot on".into()),
            reading,
            stop,
        }
    }

    /// Take what the reader has handed out since: whether the plot changed.
    pub fn update(&mut self) -> bool {
        let mut changed = false;
        loop {
            match self.found.try_recv() {
                Ok(Ok((from, plot))) => {
                    match &mut self.latest {
                        Some(latest) if from > 0 && latest.frames.len() == from => {
                            latest.append(plot);
                        }
                        _ => self.latest = Some(plot),
                    }
                    changed = true;
                }
                Ok(Err(problem)) => {
                    self.problem = Some(problem);
                    changed = true;
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => return changed,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    changed |= std::mem::replace(&mut self.reading, false);
                    return changed;
                }
            }
        }
    }

    /// What it was asked for.
    pub fn request(&self) -> &PlotRequest {
        &self.request
    }

    /// The plot so far (`None` until the first frames are read).
    pub fn plot(&self) -> Option<&Plot> {
        self.latest.as_ref()
    }

    /// Why the capture could not be read to the end, if it could not.
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    /// Whether the reader is still at work (or waiting for a followed file to grow).
    pub fn is_reading(&self) -> bool {
        self.reading
    }
}

impl Drop for PlotJob {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}
