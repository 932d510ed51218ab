//! A packet log's timeline as quantities over time ([`crate::series`]): each chosen player's
//! pose and velocity along its track (what the server knows after every packet: positions
//! interpolated between two packets, never extrapolated; the velocity the slope of the track
//! there), and each chosen pair's exact depth, separation and normal at the bucket times, with
//! the collisions the server found and those a late packet took back marked at their times.
//!
//! A frame is a bucket time: frame 0 is the first multiple of the step S at or after the
//! earliest packet's `sent`, frame n is S n ms after it. A log claims no contacts (the server
//! only says "collision" or not), so a pair's lines are exact only: `impulse` and `error` are
//! refused.

use super::engine::{PacketEngine, Settings};
use super::log::PacketLog;
use super::track::Track;
use crate::Exact;
use crate::files::{FileError, Problem};
use crate::geometry::{DVec2, Placed};
use crate::series::{
    MarkKind, Marker, PairNow, Plot, PlotBuilder, PlotError, PlotRequest, Quantity, ShapeNow,
    ShapeRef,
};
use crate::text;
use std::path::Path;

/// The most frames a packet log's plot has: a step that would give more is refused, with the
/// step that would fit.
pub const MAX_FRAMES: u64 = 1_000_000;

/// The step a plot of `log` takes when none is given (ms): the median time between a player's
/// consecutive packets (by `sent`), so each packet's pose is about one frame; 1 ms when no
/// player sent two.
pub fn default_step(log: &PacketLog) -> f64 {
    let mut sent: Vec<Vec<f64>> = vec![Vec::new(); log.players.len()];
    for p in &log.packets {
        if let Some(list) = sent.get_mut(p.player) {
            list.push(p.sent);
        }
    }
    let mut gaps: Vec<f64> = Vec::new();
    for list in &mut sent {
        list.sort_by(f64::total_cmp);
        gaps.extend(list.windows(2).map(|w| w[1] - w[0]).filter(|g| *g > 0.0));
    }
    if gaps.is_empty() {
        return 1.0;
    }
    gaps.sort_by(f64::total_cmp);
    gaps[gaps.len() / 2]
}

/// A player's numbers at `t` (ms) along `track`: its interpolated pose, and the slope of the
/// track there (per second; the piece after `t` at a packet's own time, the one before it at
/// the last packet; `None` outside the track). A track of one packet has a pose and no
/// velocity (`NaN`).
pub fn player_now(track: &Track, t: f64) -> Option<ShapeNow> {
    let (position, angle) = track.state_at(t)?;
    let samples = track.samples();
    let after = samples.partition_point(|s| s.sent <= t);
    let piece = match after {
        n if n == samples.len() => n.checked_sub(2),
        0 => None,
        n => Some(n - 1),
    };
    let (velocity, angular) = match piece.map(|i| (&samples[i], &samples[i + 1])) {
        Some((p, q)) => {
            let seconds = (q.sent - p.sent) / 1000.0;
            (
                (q.position - p.position) / seconds,
                (q.angle - p.angle) / seconds,
            )
        }
        None => (DVec2::NAN, f64::NAN),
    };
    Some(ShapeNow {
        position,
        angle,
        velocity,
        angular,
    })
}

/// The player `r` names in `log` (by name, or by its place in the list), or the words for none
/// with the names there are.
fn find(log: &PacketLog, r: &ShapeRef, path: &str) -> Result<usize, PlotError> {
    let names: Vec<Option<&str>> = log.players.iter().map(|p| p.name.as_deref()).collect();
    crate::series::find_in_list(&names, r, path, ("player", "log"))
}

/// The request with its players and pairs given: as asked, else the earliest collision's pair
/// and both its players, else the first player.
fn with_defaults(engine: &PacketEngine, request: &PlotRequest) -> PlotRequest {
    if !request.shapes.is_empty() || !request.pairs.is_empty() {
        return request.clone();
    }
    let first = engine
        .collisions()
        .iter()
        .min_by(|x, y| x.time.total_cmp(&y.time));
    let (shapes, pairs) = match first {
        Some(c) => (
            vec![ShapeRef::Id(c.a as u64), ShapeRef::Id(c.b as u64)],
            vec![(ShapeRef::Id(c.a as u64), ShapeRef::Id(c.b as u64))],
        ),
        None => (vec![ShapeRef::Id(0)], Vec::new()),
    };
    request.choosing(shapes, pairs)
}

/// The quantities a packet log cannot give, in words (`None`: it gives all asked).
fn refused_quantities(path: &str, what: &[Quantity]) -> Option<String> {
    let refused: Vec<&str> = what
        .iter()
        .filter(|q| matches!(q, Quantity::Impulse | Quantity::Error))
        .map(|q| q.name())
        .collect();
    if refused.is_empty() {
        return None;
    }
    let has: Vec<&str> = Quantity::ALL
        .iter()
        .filter(|q| !matches!(q, Quantity::Impulse | Quantity::Error))
        .map(|q| q.name())
        .collect();
    Some(format!(
        "{path}: a packet log has the players' positions only, no engine's contacts: no {}; \
         it has {}",
        refused.join(" or "),
        has.join(", ")
    ))
}

/// Plot the packet log at `path` as `request` asks, its collisions found with `settings`
/// (`step_ms` `None`: [`default_step`]): the plot and notes to say (the step taken when none
/// was given).
pub fn plot_packet_log(
    path: &Path,
    step_ms: Option<f64>,
    swept: bool,
    request: &PlotRequest,
) -> Result<(Plot, Vec<String>), PlotError> {
    let log = PacketLog::load(path).map_err(PlotError::File)?;
    plot_log(&log, path, step_ms, swept, request)
}

/// [`plot_packet_log`] of a log already read (from `path`, for words).
pub fn plot_log(
    log: &PacketLog,
    path: &Path,
    step_ms: Option<f64>,
    swept: bool,
    request: &PlotRequest,
) -> Result<(Plot, Vec<String>), PlotError> {
    let name = path.display().to_string();
    let mut notes = Vec::new();
    let step = match step_ms {
        Some(s) => s,
        None => {
            let s = default_step(log);
            notes.push(format!(
                "{name}: step {} ms (the median time between a player's packets; --step chooses)",
                text::number(s)
            ));
            s
        }
    };
    let settings = Settings {
        step_ms: step,
        swept,
    };
    let Some((lo, hi)) = log.sent_range() else {
        return Err(PlotError::NotThere(format!(
            "{name}: the log has no packets: nothing to plot"
        )));
    };
    let first = (lo / step).ceil();
    let count = ((hi / step).floor() - first + 1.0).max(0.0);
    if count > MAX_FRAMES as f64 {
        return Err(PlotError::NotThere(format!(
            "{name}: step {} ms gives {} frames from {} to {} ms, more than {MAX_FRAMES}: \
             give --step {} or more",
            text::number(step),
            count,
            text::number(lo),
            text::number(hi),
            text::number(((hi - lo) / MAX_FRAMES as f64).ceil())
        )));
    }
    let mut engine = PacketEngine::for_log(log, settings);
    for (i, p) in log.packets.iter().enumerate() {
        if let Err(e) = engine.push(p) {
            return Err(PlotError::File(FileError::new(
                path,
                Problem::Document(format!("packet {i}: {e}")),
            )));
        }
    }
    let request = with_defaults(&engine, request);
    if let Some(words) = refused_quantities(&name, &request.quantities()) {
        return Err(PlotError::NotThere(words));
    }
    let players: Vec<usize> = request
        .shapes
        .iter()
        .map(|r| find(log, r, &name))
        .collect::<Result<_, _>>()?;
    let pairs: Vec<(usize, usize)> = request
        .pairs
        .iter()
        .map(|(a, b)| Ok((find(log, a, &name)?, find(log, b, &name)?)))
        .collect::<Result<_, PlotError>>()?;
    if players.is_empty() && pairs.is_empty() {
        return Err(PlotError::NotThere(format!(
            "{name}: the log has no players: nothing to plot"
        )));
    }
    let count = count as u64;
    let time_of = |n: u64| (first + n as f64) * step;
    let tracks = engine.tracks();
    let mut builder = PlotBuilder::new(
        players.len(),
        pairs.len(),
        &request.quantities(),
        request.frames,
        "",
    )
    .exact_only();
    let at = |i: usize, t: f64| {
        let pose = tracks[i].pose_at(t)?;
        Some(Placed::new(log.players[i].shape.clone(), pose))
    };
    for n in 0..count {
        if builder.done_before(n) {
            break;
        }
        if !builder.wants(n) {
            continue;
        }
        let t = time_of(n);
        builder.frame(
            n,
            t / 1000.0,
            |k| player_now(&tracks[players[k]], t),
            |k| {
                let (a, b) = pairs[k];
                let (a, b) = (at(a, t)?, at(b, t)?);
                Some(PairNow {
                    exact: Exact::of(&a, &b, None).summary,
                    claims: Vec::new(),
                })
            },
        );
    }
    if builder.frames() == 0 {
        return Err(PlotError::NotThere(crate::series::no_frames_words(
            &name,
            request.frames,
            count.checked_sub(1).map(|last| (0, last)),
        )));
    }
    let player = |i: usize| log.players[i].display_name(i);
    let about = |a: usize, b: usize| {
        players.contains(&a)
            || players.contains(&b)
            || pairs
                .iter()
                .any(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b))
    };
    // A collision's frame is the bucket at or before its time (a swept contact lies between
    // two buckets). A pair's collisions at consecutive buckets found (or taken back) by one
    // packet are one mark: a late packet can reveal a contact that lasted a second.
    let frame_of = |time: f64| ((time / step).floor() - first).max(0.0) as u64;
    let found = engine
        .collisions()
        .iter()
        .map(|c| (true, c.a, c.b, c.time, c.between, c.detected_at));
    let taken = engine
        .retracted()
        .iter()
        .map(|r| (false, r.a, r.b, r.time, r.between, r.retracted_at));
    let mut all: Vec<_> = found
        .chain(taken)
        .filter(|&(_, a, b, ..)| about(a, b))
        .collect();
    // Found before taken back; then by pair, by the packet, buckets before swept, by time.
    all.sort_by(|x, y| {
        (y.0.cmp(&x.0))
            .then((x.1, x.2).cmp(&(y.1, y.2)))
            .then(x.5.total_cmp(&y.5))
            .then(x.4.is_some().cmp(&y.4.is_some()))
            .then(x.3.total_cmp(&y.3))
    });
    let mut marks: Vec<Marker> = Vec::new();
    let mut i = 0;
    while i < all.len() {
        let (is_found, a, b, t0, between, at) = all[i];
        let mut j = i + 1;
        if between.is_none() {
            while j < all.len() && {
                let (f, x, y, t, w, r) = all[j];
                (f, x, y, w, r) == (is_found, a, b, None, at)
                    && (t / step).round() == (all[j - 1].3 / step).round() + 1.0
            } {
                j += 1;
            }
        }
        let t1 = all[j - 1].3;
        let text = match between {
            Some(_) if is_found => format!(
                "collision: {}",
                text::latency_collision(&player(a), &player(b), t0, between, at)
            ),
            Some(_) => text::latency_retraction(&player(a), &player(b), t0, at),
            None => text::latency_run(&player(a), &player(b), (t0, t1), j - i, at, is_found),
        };
        marks.push(Marker {
            frame: frame_of(t0),
            time: t0 / 1000.0,
            kind: if is_found {
                MarkKind::Found
            } else {
                MarkKind::Retracted
            },
            text,
        });
        i = j;
    }
    marks.retain(|m| builder.wants(m.frame));
    marks.sort_by(|x, y| x.time.total_cmp(&y.time));
    for m in marks {
        builder.mark(m);
    }
    let plot = builder.finish(
        players.iter().map(|&i| player(i)).collect(),
        pairs.iter().map(|&(a, b)| (player(a), player(b))).collect(),
    );
    Ok((plot, notes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::latency::Sample;

    fn sample(sent: f64, x: f64, angle: f64) -> Sample {
        Sample {
            sent,
            position: DVec2::new(x, 0.0),
            angle,
        }
    }

    #[test]
    fn a_players_velocity_is_the_slope_of_its_track_there() {
        let mut track = Track::default();
        for s in [
            sample(0.0, 0.0, 0.0),
            sample(100.0, 1.0, 0.5),
            sample(300.0, 1.0, 0.5),
        ] {
            track.insert(s);
        }
        let now = |t| player_now(&track, t).unwrap();
        // 1 unit in 0.1 s, then still.
        assert_eq!(now(0.0).velocity, DVec2::new(10.0, 0.0));
        assert_eq!(now(50.0).position, DVec2::new(0.5, 0.0));
        assert_eq!(now(50.0).angular, 5.0);
        // At a packet's own time: the piece after it; at the last: the piece before.
        assert_eq!(now(100.0).velocity, DVec2::ZERO);
        assert_eq!(now(300.0).velocity, DVec2::ZERO);
        assert!(player_now(&track, -1.0).is_none());
        assert!(player_now(&track, 301.0).is_none());
        let mut one = Track::default();
        one.insert(sample(5.0, 2.0, 0.0));
        let lone = player_now(&one, 5.0).unwrap();
        assert_eq!(lone.position, DVec2::new(2.0, 0.0));
        assert!(lone.velocity.x.is_nan() && lone.angular.is_nan());
    }
}
