//! Captures of a big game: 1,000 moving bodies at 60 Hz, every one changing every frame, with
//! the contacts of their neighbours as claims. Measures the writer (one frame, compressed) and
//! `diagnose`'s reader and judge on every core (`judge_capture`), `diff` of the capture against
//! a copy of itself (every frame compared), and prints the capture's size
//! compressed and not, one `diagnose` pass of each, one `plot` pass of each (a body and its
//! pair over every frame), and the window's capture lab on it: how
//! soon the first frame shows, when every claim is judged, a jump to any frame, and a scrub
//! (the pointer sweeping the timeline, the frames read on the reader thread).
//!
//! `CAPTURE_SECONDS` sets how much simulated time the diagnosed capture holds (default 10 s,
//! 600 frames; a 10-minute capture is `CAPTURE_SECONDS=600`, 36,000 frames); `CAPTURE_DIR`
//! keeps the two captures in that folder.

use collidoscope::capture::analysis::series::{BATCH, CapturePlotter, read_into};
use collidoscope::capture::{
    BodyShape, CaptureIndex, CaptureReader, CaptureWriter, DiffSettings, Engine, EventFinder,
    Header, Manifold, ManifoldPoint, NormalFrom, Penetration, ScanState, diff_captures,
    judge_capture, judge_capture_with_events,
};
use collidoscope::geometry::{Circle, ConvexPolygon, DVec2, Placed, Pose, Shape};
use collidoscope::query::summarize;
use collidoscope::scene::Body;
use collidoscope::series::{PlotRequest, Quantity, ShapeRef};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::io::{BufWriter, Write};
use std::time::{Duration, Instant};

const BODIES: usize = 1000;
const COLUMNS: usize = 40;

/// Body `i`'s shape: boxes and balls, alternating.
fn shape(i: usize) -> Shape {
    if i.is_multiple_of(2) {
        ConvexPolygon::rectangle(DVec2::splat(0.45)).unwrap().into()
    } else {
        Circle::new(0.45).unwrap().into()
    }
}

/// Every body at frame `k`: on a grid, each swaying and turning a little, f32 poses as an
/// engine keeps them.
fn bodies(k: usize, shapes: &[Shape]) -> Vec<BodyShape> {
    let t = k as f64 / 60.0;
    (0..BODIES)
        .map(|i| {
            let phase = i as f64 * 0.37;
            let x = (i % COLUMNS) as f64 + 0.08 * (3.0 * t + phase).sin();
            let y = (i / COLUMNS) as f64 + 0.08 * (2.0 * t + phase).cos();
            let angle = 0.3 * (t + phase).sin();
            let f = |v: f64| v as f32 as f64;
            let rotation = DVec2::new(f(angle.cos()), f(angle.sin()));
            BodyShape::new(
                i as u64,
                shapes[i].clone(),
                DVec2::new(f(x), f(y)),
                rotation,
            )
            .moving(
                Body::Dynamic,
                DVec2::new(
                    f(0.24 * (3.0 * t + phase).cos()),
                    f(-0.16 * (2.0 * t + phase).sin()),
                ),
                f(0.3 * (t + phase).cos()),
                true,
            )
        })
        .collect()
}

/// The claims of a frame: each body against its right and upper neighbours when within 0.05,
/// as an engine reports them (its exact result, one point).
fn contacts(frame: &[BodyShape]) -> Vec<Manifold> {
    let placed = |b: &BodyShape| {
        Placed::new(
            b.shape.clone(),
            Pose::new(b.position, b.rotation.y.atan2(b.rotation.x)),
        )
    };
    let mut out = Vec::new();
    for i in 0..BODIES {
        for j in [i + 1, i + COLUMNS] {
            if j >= BODIES || (j == i + 1 && j.is_multiple_of(COLUMNS)) {
                continue;
            }
            let s = summarize(&placed(&frame[i]), &placed(&frame[j]));
            let (normal, separation, point) = match (s.normal, s.closest) {
                (Some(n), _) if s.intersecting => {
                    (n, -s.depth, s.contacts.first().copied().unwrap_or_default())
                }
                (_, Some([p, q])) if s.distance < 0.05 => {
                    ((q - p) / s.distance, s.distance, (p + q) / 2.0)
                }
                _ => continue,
            };
            out.push(Manifold {
                a: i as u64,
                b: j as u64,
                normal,
                points: vec![ManifoldPoint {
                    point,
                    separation,
                    impulse: None,
                }]
                .into(),
                piece: None,
            });
        }
    }
    out
}

fn header() -> Header {
    Header::f32_metres(Engine::new("collidoscope-bench", "1"))
}

fn write_capture(path: &std::path::Path, frames: usize, compressed: bool) -> u64 {
    let shapes: Vec<Shape> = (0..BODIES).map(shape).collect();
    let out = BufWriter::with_capacity(1 << 20, std::fs::File::create(path).unwrap());
    let (n, p) = (NormalFrom::AToB, Penetration::NegativeSeparation);
    let mut writer = if compressed {
        CaptureWriter::compressed(out, &header(), n, p).unwrap()
    } else {
        CaptureWriter::new(out, &header(), n, p).unwrap()
    };
    for k in 0..frames {
        let frame = bodies(k, &shapes);
        writer
            .frame(k as f64 / 60.0, &frame, &contacts(&frame))
            .unwrap();
    }
    writer.finish().unwrap().flush().unwrap();
    std::fs::metadata(path).unwrap().len()
}

fn bench_capture(c: &mut Criterion) {
    let seconds: usize = std::env::var("CAPTURE_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let frames = seconds * 60;
    // `CAPTURE_DIR` keeps the captures there (to open them in the window, or time
    // `collidoscope diagnose` on them); otherwise they go with a temporary folder.
    let temporary = tempfile::tempdir().unwrap();
    let dir = std::env::var_os("CAPTURE_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| temporary.path().to_path_buf());
    let (plain, gzip) = (
        dir.join("big.capture.jsonl"),
        dir.join("big.capture.jsonl.gz"),
    );
    let started = Instant::now();
    let gzip_bytes = write_capture(&gzip, frames, true);
    let wrote = started.elapsed();
    let plain_bytes = write_capture(&plain, frames, false);
    println!(
        "{BODIES} bodies, {frames} frames ({seconds} s at 60 Hz): {:.1} MB compressed, {:.1} MB plain; written compressed in {:.1} s",
        gzip_bytes as f64 / 1e6,
        plain_bytes as f64 / 1e6,
        wrote.as_secs_f64()
    );
    // One pass of each, timed once: at CAPTURE_SECONDS=600 a pass is minutes, too long to
    // repeat for criterion's samples.
    for (name, path) in [("plain", &plain), ("compressed", &gzip)] {
        let started = Instant::now();
        let mut claims = 0usize;
        let mut reader = CaptureReader::open(path).unwrap();
        judge_capture(&mut reader, |f| {
            claims += f.claims.len();
            true
        })
        .unwrap();
        let took = started.elapsed().as_secs_f64();
        println!(
            "diagnose, {name}: {claims} claims in {took:.1} s, {:.1} MB/s of text",
            plain_bytes as f64 / 1e6 / took
        );
        // The same pass naming events (seams, tunnels, stale contacts...) as diagnose does.
        // Goal: at most 1.5x the pass without.
        let started = Instant::now();
        let mut events = 0usize;
        let mut reader = CaptureReader::open(path).unwrap();
        let mut finder = EventFinder::for_capture(reader.header());
        judge_capture_with_events(&mut reader, &mut finder, |f| {
            events += f.events.len();
            true
        })
        .unwrap();
        events += finder.finish().len();
        let with = started.elapsed().as_secs_f64();
        println!(
            "diagnose with events, {name}: {events} events in {with:.1} s ({:.2}x the pass without)",
            with / took
        );
        // A plot of one body and its pair with its right neighbour over every frame
        // (`collidoscope plot --shape 0 --pair 0 1`): the capture read once, only their claims
        // judged. Goal: within 2x of diagnose (with events: a plot names them too).
        let started = Instant::now();
        let request = PlotRequest {
            shapes: vec![ShapeRef::Id(0)],
            pairs: vec![(ShapeRef::Id(0), ShapeRef::Id(1))],
            what: vec![Quantity::Speed, Quantity::Depth, Quantity::Error],
            frames: None,
        };
        // As `plot_capture` reads it, without its words for a pair never claimed.
        let mut reader = CaptureReader::open(path).unwrap();
        let mut plotter = CapturePlotter::new(path, reader.header(), &request);
        read_into(&mut reader, &mut plotter, BATCH, |_| true).unwrap();
        let plot = plotter.plot_as_read();
        let plotted = started.elapsed().as_secs_f64();
        assert_eq!(plot.frames.len(), frames);
        println!(
            "plot, {name}: {} frames of a body and a pair in {plotted:.1} s ({:.2}x diagnose, {:.2}x with events)",
            plot.frames.len(),
            plotted / took,
            plotted / with
        );
        // Two runs side by side (`collidoscope diff`): the capture against a copy of itself,
        // the worst case (every frame compared to its end). Goal: about the time diagnose
        // takes to read one.
        let copy = dir.join(format!("copy-{name}.capture.jsonl"));
        std::fs::copy(path, &copy).unwrap();
        let started = Instant::now();
        let diff = diff_captures(path, &copy, DiffSettings::default()).unwrap();
        let compared = started.elapsed().as_secs_f64();
        assert!(diff.agree() && diff.frames_compared == frames as u64);
        println!(
            "diff, {name}: {} frames of two captures compared in {compared:.1} s ({:.2}x diagnose reading one, {:.2}x with events)",
            diff.frames_compared,
            compared / took,
            compared / with
        );
        std::fs::remove_file(&copy).unwrap();
    }
    // The window: open, first frame shown; then, once read, frames anywhere.
    for (name, path) in [("plain", &plain), ("compressed", &gzip)] {
        let started = Instant::now();
        let mut index = CaptureIndex::open(path).unwrap();
        while index.frames().is_empty() {
            if !index.update() {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        index.show(0).unwrap();
        let first = started.elapsed().as_secs_f64();
        while matches!(index.state(), ScanState::Reading(_)) {
            if !index.update() {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        let read = started.elapsed().as_secs_f64();
        let count = index.frames().len();
        let started = Instant::now();
        let jumps = 20;
        for k in 0..jumps {
            // Back and forth over the whole capture, each jump far from the last.
            let position = (k * 7_919 + (k % 2) * count / 2) % count;
            index.show(position).unwrap();
        }
        let jump = started.elapsed().as_secs_f64() / jumps as f64;
        println!(
            "the capture lab, {name}: first frame shown {first:.2} s after opening; every claim judged after {read:.1} s; a jump to any frame {:.0} ms",
            jump * 1e3
        );
        // A scrub as the window does it: the pointer sweeps the whole timeline in 2 s at 60
        // frames a second, each window frame asking the reader thread for the frame under the
        // pointer (the latest wins) and never waiting; measured, for each frame shown, how
        // long after the pointer reached it, and how long the window waited for nothing.
        let (steps, frame) = (120usize, Duration::from_micros(16_667));
        let mut asked_at: Vec<Option<Instant>> = vec![None; count];
        let mut delays = Vec::new();
        let started = Instant::now();
        for k in 0..=steps + 30 {
            let tick = started + frame * k as u32;
            std::thread::sleep(tick.saturating_duration_since(Instant::now()));
            if k <= steps {
                let position = (k * (count - 1)) / steps;
                if index.pending() != Some(position) {
                    asked_at[position] = Some(Instant::now());
                    index.request(position);
                }
            }
            if let Some((_, shown)) = index.take_shown(Duration::ZERO) {
                let shown = shown.unwrap();
                if let Some(asked) = asked_at[shown.position] {
                    delays.push(asked.elapsed().as_secs_f64());
                }
            }
        }
        delays.sort_by(f64::total_cmp);
        let at = |q: f64| delays[((delays.len() - 1) as f64 * q) as usize] * 1e3;
        println!(
            "the capture lab, {name}, a 2 s scrub over the whole capture: {} frames shown, each {:.0} ms (median) to {:.0} ms (most) after the pointer reached it",
            delays.len(),
            at(0.5),
            at(1.0)
        );
    }

    let shapes: Vec<Shape> = (0..BODIES).map(shape).collect();
    let frame = bodies(7, &shapes);
    let manifolds = contacts(&frame);
    let mut group = c.benchmark_group("capture");
    group.throughput(Throughput::Elements(BODIES as u64));
    for compressed in [false, true] {
        let name = if compressed {
            "write one frame of 1000 bodies, compressed"
        } else {
            "write one frame of 1000 bodies, plain"
        };
        group.bench_function(name, |b| {
            let (n, p) = (NormalFrom::AToB, Penetration::NegativeSeparation);
            let mut writer = if compressed {
                CaptureWriter::compressed(std::io::sink(), &header(), n, p).unwrap()
            } else {
                CaptureWriter::new(std::io::sink(), &header(), n, p).unwrap()
            };
            let mut k = 0;
            b.iter(|| {
                k += 1;
                writer.frame(k as f64, &frame, &manifolds).unwrap();
            })
        });
    }
    group.sample_size(10);
    if seconds > 60 {
        // Minutes a pass: timed once above.
        group.finish();
        return;
    }
    for (name, path, bytes) in [
        ("diagnose, plain", &plain, plain_bytes),
        ("diagnose, compressed", &gzip, plain_bytes),
    ] {
        group.throughput(Throughput::Bytes(bytes));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut reader = CaptureReader::open(path).unwrap();
                let mut agreeing = 0usize;
                judge_capture(&mut reader, |f| {
                    agreeing += f.claims.iter().filter(|c| c.agrees()).count();
                    true
                })
                .unwrap();
                agreeing
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_capture);
criterion_main!(benches);
