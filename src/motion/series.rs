//! A motion-lab run's quantities over time ([`crate::series`]): its shapes' poses and
//! velocities step by step, and each chosen pair's depth, separation and normal as the run's
//! resolver sees them at the step's end (claimed) beside the exact ones, the steps of its
//! events marked.

use super::Event;
use super::recording::Recording;
use super::simulation::resolver_pair;
use crate::scene::{Body, Scene};
use crate::series::{
    ClaimNow, MarkKind, Marker, PairNow, Plot, PlotBuilder, PlotError, PlotRequest, ShapeNow,
    ShapeRef,
};
use crate::{Exact, Reported};

/// A shape of a run as a plot names it: by its name, else by its place in the list.
pub type PlotShape = ShapeRef;

/// The list position `r` names in `scene`, or the words for none (with the names there are).
fn find(scene: &Scene, r: &ShapeRef, path: &str) -> Result<usize, PlotError> {
    let names: Vec<Option<&str>> = scene.shapes.iter().map(|s| s.name.as_deref()).collect();
    crate::series::find_in_list(&names, r, path, ("shape", "run"))
}

/// The request with its shapes and pairs given: as asked, or the first event's pair (and its
/// dynamic shapes), else the first dynamic shape.
fn with_defaults(recording: &Recording, request: &PlotRequest) -> PlotRequest {
    if !request.shapes.is_empty() || !request.pairs.is_empty() {
        return request.clone();
    }
    let scene = recording.scene();
    let moves = |i: usize| scene.shapes[i].motion.body == Body::Dynamic;
    let (mut shapes, mut pairs) = (Vec::new(), Vec::new());
    match recording.events().first() {
        Some(e) => {
            for i in [e.a, e.b] {
                if moves(i) {
                    shapes.push(ShapeRef::Id(i as u64));
                }
            }
            pairs.push((ShapeRef::Id(e.a as u64), ShapeRef::Id(e.b as u64)));
        }
        None => {
            if let Some(i) = (0..scene.shapes.len()).find(|&i| moves(i)) {
                shapes.push(ShapeRef::Id(i as u64));
            }
        }
    }
    request.choosing(shapes, pairs)
}

/// Plot `recording` (read from `path`, for words) as `request` asks: every step from 0 (the
/// scene at the start) to the last, the steps of events about a chosen shape or pair marked.
pub fn plot_recording(
    recording: &Recording,
    request: &PlotRequest,
    path: &str,
) -> Result<Plot, PlotError> {
    let request = with_defaults(recording, request);
    let start = recording.scene();
    let shapes: Vec<usize> = request
        .shapes
        .iter()
        .map(|r| find(start, r, path))
        .collect::<Result<_, _>>()?;
    let pairs: Vec<(usize, usize)> = request
        .pairs
        .iter()
        .map(|(a, b)| Ok((find(start, a, path)?, find(start, b, path)?)))
        .collect::<Result<_, PlotError>>()?;
    if shapes.is_empty() && pairs.is_empty() {
        return Err(PlotError::NotThere(format!(
            "{path}: the run has no event and no dynamic shape: name what to plot with --shape or --pair"
        )));
    }
    let config = recording.config();
    let mut builder = PlotBuilder::new(
        shapes.len(),
        pairs.len(),
        &request.quantities(),
        request.frames,
        "",
    );
    let mut scene = start.clone();
    // Frame 0 is the scene at the start; the rest are decoded a block at a time.
    let mut block: Option<(u64, Vec<Vec<super::BodyState>>)> = None;
    for k in 0..=recording.steps() {
        if builder.done_before(k) {
            break;
        }
        if !builder.wants(k) {
            continue;
        }
        if k > 0 {
            let held = block
                .as_ref()
                .is_some_and(|(first, frames)| (*first..*first + frames.len() as u64).contains(&k));
            if !held {
                block = recording.block_of(k);
            }
            let Some((first, frames)) = &block else {
                break;
            };
            recording.place(&mut scene, &frames[(k - first) as usize]);
        }
        let shapes_now = &scene.shapes;
        builder.frame(
            k,
            k as f64 * config.dt,
            |n| {
                let s = &shapes_now[shapes[n]];
                Some(ShapeNow::of(&s.placed, &s.motion))
            },
            |n| {
                let (a, b) = (
                    &shapes_now[pairs[n].0].placed,
                    &shapes_now[pairs[n].1].placed,
                );
                let exact = Exact::of(a, b, None).summary;
                let claims = resolver_pair(config.resolver, a, b)
                    .into_iter()
                    .map(|(piece, normal, depth)| ClaimNow {
                        reported: Reported {
                            piece,
                            ..Reported::intersecting(depth, normal)
                        },
                        exact: Exact::of(a, b, piece).summary,
                        tolerance: crate::judge::agreement::LENGTH_TOLERANCE * (1.0 + depth),
                    })
                    .collect();
                Some(PairNow { exact, claims })
            },
        );
    }
    let about = |e: &Event| {
        let ids = e.shapes();
        shapes.iter().any(|s| ids.contains(s))
            || pairs
                .iter()
                .any(|(a, b)| ids.contains(a) && ids.contains(b))
    };
    let name = |i: usize| start.shapes[i].display_name(i);
    for e in recording.events().iter().filter(|e| about(e)) {
        let k = e.step();
        if builder.wants(k) {
            builder.mark(Marker {
                frame: k,
                time: k as f64 * config.dt,
                kind: MarkKind::Event(e.kind()),
                text: format!("{}: {} / {}", e.kind().name(), name(e.a), name(e.b)),
            });
        }
    }
    if builder.frames() == 0 {
        return Err(PlotError::NotThere(crate::series::no_frames_words(
            path,
            request.frames,
            Some((0, recording.steps())),
        )));
    }
    let plot = builder.finish(
        shapes.iter().map(|&i| name(i)).collect(),
        pairs.iter().map(|&(a, b)| (name(a), name(b))).collect(),
    );
    // A run's frames are its poses after each step's resolution, where a correct resolver
    // rarely still sees a contact: a pair is plotted, exact, whether or not it was "claimed".
    Ok(plot)
}
