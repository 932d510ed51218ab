//! The latency lab's engine work, off the window's thread: a log's packets taken by the
//! latency-aware engine on a thread of its own, with progress and a cancel. The latest asked
//! for wins: work no longer wanted is stopped between two packets and its engine, valid as far
//! as it got, comes back to be carried on. What the panel and the timeline show of an engine
//! (counts, the lateness histogram, the first findings in words, the marks) is summed up there
//! too, once, instead of every frame. Where no thread can be started (the browser), the work
//! is done where it is asked.

use crate::latency::{PacketEngine, PacketLog, PushError, Settings, taken_back};
use crate::text;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Duration;

/// A collision on the timeline.
#[derive(Clone, Copy, Debug)]
pub struct TimelineFinding {
    /// The pair.
    pub a: usize,
    /// The pair.
    pub b: usize,
    /// Bucket time or first contact (ms).
    pub time: f64,
    /// Swept: the buckets around it.
    pub between: Option<[f64; 2]>,
    /// When it was found (ms).
    pub detected_at: f64,
    /// Taken back since.
    pub retracted: bool,
}

/// What the lab asks for: `log`'s first `upto` packets taken at `settings`, carrying on from
/// `engine` when it was made at those settings from no more packets.
struct Job {
    log: Arc<PacketLog>,
    settings: Settings,
    upto: usize,
    engine: Option<PacketEngine>,
    cancel: Arc<AtomicBool>,
    progress: Arc<AtomicUsize>,
}

/// Work finished, or stopped: the engine as far as it got, and what the lab shows of it.
pub struct Done {
    /// The engine after the packets it took.
    pub engine: PacketEngine,
    /// A packet it refused (its place in the log, and why): the ones after it are not taken.
    pub refused: Option<(usize, PushError)>,
    /// What the panel and the timeline show.
    pub digest: Digest,
}

/// What the panel and the timeline show of an engine, summed up once.
#[derive(Default)]
pub struct Digest {
    /// Collisions reported, of which swept; retractions; collisions standing.
    pub counts: Counts,
    /// How late each collision was found: bin width (ms) and the count in each bin.
    pub lateness: Option<(f64, Vec<u32>)>,
    /// The first findings in arrival order: packet, time, sentence, retraction.
    pub findings: Vec<(usize, f64, String, bool)>,
    /// Every collision as the timeline marks it.
    pub marks: Vec<TimelineFinding>,
}

/// How many collisions and retractions an engine holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Collisions reported.
    pub collisions: usize,
    /// Of which swept.
    pub swept: usize,
    /// Retractions.
    pub retracted: usize,
    /// Collisions standing (reported, not retracted).
    pub standing: usize,
}

/// The first findings put in words.
const FINDINGS: usize = 500;

impl Digest {
    /// Sum up `engine` after `log`'s packets.
    pub fn of(log: &PacketLog, engine: &PacketEngine) -> Self {
        let (collisions, retracted) = (engine.collisions(), engine.retracted());
        let back = taken_back(collisions, retracted);
        let marks: Vec<TimelineFinding> = collisions
            .iter()
            .zip(&back)
            .map(|(c, &retracted)| TimelineFinding {
                a: c.a,
                b: c.b,
                time: c.time,
                between: c.between,
                detected_at: c.detected_at,
                retracted,
            })
            .collect();
        let player = |i: usize| log.players[i].display_name(i);
        Digest {
            counts: Counts {
                collisions: collisions.len(),
                swept: collisions.iter().filter(|c| c.between.is_some()).count(),
                retracted: retracted.len(),
                standing: back.iter().filter(|b| !**b).count(),
            },
            lateness: lateness(collisions.iter().map(|c| c.detected_at - c.time)),
            findings: findings(engine, player),
            marks,
        }
    }
}

/// The lateness histogram: about a dozen bins of a round width.
fn lateness(late: impl Iterator<Item = f64> + Clone) -> Option<(f64, Vec<u32>)> {
    let hi = late
        .clone()
        .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))))?;
    let width = nice_bin(hi.max(0.0) / 12.0);
    let mut counts: Vec<u32> = vec![0; (hi.max(0.0) / width).floor() as usize + 1];
    for x in late {
        counts[(x.max(0.0) / width).floor() as usize] += 1;
    }
    Some((width, counts))
}

/// 1, 2 or 5 times a power of ten, at least `x` (and at least 1).
fn nice_bin(x: f64) -> f64 {
    let x = x.max(1.0);
    let p = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|w| *w >= x)
        .unwrap_or(10.0 * p)
}

/// The first [`FINDINGS`] collisions and retractions in arrival order, each as (packet, time,
/// sentence, retraction); only those are put in words.
fn findings(
    engine: &PacketEngine,
    player: impl Fn(usize) -> String,
) -> Vec<(usize, f64, String, bool)> {
    // By packet; at one packet, collisions before retractions (a stable sort keeps that).
    let mut order: Vec<(usize, bool, usize)> = engine
        .collisions()
        .iter()
        .enumerate()
        .map(|(k, c)| (c.packet, false, k))
        .chain(
            engine
                .retracted()
                .iter()
                .enumerate()
                .map(|(k, r)| (r.packet, true, k)),
        )
        .collect();
    order.sort_by_key(|(packet, _, _)| *packet);
    order.truncate(FINDINGS);
    order
        .into_iter()
        .map(|(packet, retraction, k)| {
            if retraction {
                let r = &engine.retracted()[k];
                let line =
                    text::latency_retraction(&player(r.a), &player(r.b), r.time, r.retracted_at);
                (packet, r.between.map_or(r.time, |b| b[0]), line, true)
            } else {
                let c = &engine.collisions()[k];
                let (a, b) = (player(c.a), player(c.b));
                let line = text::latency_collision(&a, &b, c.time, c.between, c.detected_at);
                (packet, c.between.map_or(c.time, |b| b[0]), line, false)
            }
        })
        .collect()
}

/// Take the packets a job asks for (stopping between two when it is cancelled), and sum up.
fn work(job: Job) -> Done {
    let Job {
        log,
        settings,
        upto,
        engine,
        cancel,
        progress,
    } = job;
    let mut engine = engine
        .filter(|e| e.settings() == settings && e.packets() <= upto)
        .unwrap_or_else(|| PacketEngine::for_log(&log, settings));
    let mut refused = None;
    for (at, packet) in log.packets[..upto]
        .iter()
        .enumerate()
        .skip(engine.packets())
    {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        if let Err(e) = engine.push(packet) {
            refused = Some((at, e));
            break;
        }
        progress.store(engine.packets(), Ordering::Relaxed);
    }
    let digest = Digest::of(&log, &engine);
    Done {
        engine,
        refused,
        digest,
    }
}

/// Work under way: what it is for, and how far it got.
pub struct Busy {
    /// The settings it takes packets at.
    pub settings: Settings,
    /// How many packets it is to take.
    pub upto: usize,
    cancel: Arc<AtomicBool>,
    progress: Arc<AtomicUsize>,
}

impl Busy {
    /// Packets taken so far.
    pub fn progress(&self) -> usize {
        self.progress.load(Ordering::Relaxed)
    }
}

/// The thread the lab's engine works on.
#[derive(Default)]
pub struct EngineWorker {
    send: Option<Sender<Job>>,
    found: Option<Receiver<Done>>,
    /// Done where it was asked (no thread).
    here: Option<Done>,
    busy: Option<Busy>,
}

impl EngineWorker {
    /// The work under way, if any.
    pub fn busy(&self) -> Option<&Busy> {
        self.busy.as_ref()
    }

    /// Take `log`'s first `upto` packets at `settings`, carrying on from `engine` when it
    /// can. One job at a time: call only when not [`Self::busy`].
    pub fn start(
        &mut self,
        log: Arc<PacketLog>,
        settings: Settings,
        upto: usize,
        engine: Option<PacketEngine>,
    ) {
        debug_assert!(self.busy.is_none());
        let cancel = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(AtomicUsize::new(engine.as_ref().map_or(0, |e| e.packets())));
        let job = Job {
            log,
            settings,
            upto,
            engine,
            cancel: cancel.clone(),
            progress: progress.clone(),
        };
        self.busy = Some(Busy {
            settings,
            upto,
            cancel,
            progress,
        });
        if self.send.is_none() {
            self.spawn();
        }
        let job = match &self.send {
            Some(send) => match send.send(job) {
                Ok(()) => return,
                Err(mpsc::SendError(job)) => job,
            },
            None => job,
        };
        self.here = Some(work(job));
    }

    /// Stop the work under way between two packets (its engine still comes back).
    pub fn cancel(&self) {
        if let Some(busy) = &self.busy {
            busy.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// The work finished or stopped, waiting up to `wait` for it.
    pub fn take(&mut self, wait: Duration) -> Option<Done> {
        self.busy.as_ref()?;
        let done = match self.here.take() {
            Some(done) => done,
            None => self.found.as_ref()?.recv_timeout(wait).ok()?,
        };
        self.busy = None;
        Some(done)
    }

    fn spawn(&mut self) {
        let (send, jobs) = mpsc::channel::<Job>();
        let (tell, found) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("latency engine".into())
            .spawn(move || {
                while let Ok(job) = jobs.recv() {
                    if tell.send(work(job)).is_err() {
                        return;
                    }
                }
            });
        if spawned.is_ok() {
            self.send = Some(send);
            self.found = Some(found);
        }
    }
}

impl Drop for EngineWorker {
    /// Work under way stops at the next packet when the lab goes.
    fn drop(&mut self) {
        self.cancel();
    }
}
