//! How far behind the game the window is while live, and what streaming costs the game.
//!
//! **Lag**: a game thread writes a capture of 200 moving bodies (boxes, balls, hexagons, a
//! claim per neighbour pair) at 60 frames a second for 10 s; the window's side does what the
//! capture lab does each frame at 60 Hz (`CaptureIndex::update`, the newest frame asked for
//! and taken when read, judged). The lag of a frame is from the moment its line was written
//! and flushed to the moment the window holds it read and judged. Three ways in: a plain file
//! followed (`--follow`), a gzip file followed, and the loopback link (`ToWindow` to a
//! `Listener`, whose file the lab follows). Goal: under 100 ms.
//!
//! **Cost to the game**: `CaptureWriter::frame` of 200 and 1,000 bodies into `ToWindow`
//! (connected to a listening window) against the same into `std::io::sink()`: the difference
//! is the link's (the line read back to keep the state a gap needs, and the hand-over).
//!
//! `cargo bench --bench live`. Prints medians, the 99th percentile and the worst.
//!
//! Measured on 2 cores with nothing else running: lag median 10.7 ms (plain file), 10.7 ms
//! (gzip), 11.1 ms (link); 99th percentile 18.6-18.9 ms; worst 24.6-39.3 ms (with a build or
//! a fuzzer beside it: medians 10.4-12.0 ms, worst up to 43 ms). The link costs the game 1.53
//! us a body at 200 bodies and 1.63 at 1,000, on top of the writer's 0.74-0.84.

use collidoscope::capture::{
    BodyShape, CaptureIndex, CaptureWriter, Engine, Header, LinkEvent, Listener, Manifold,
    ManifoldPoint, NormalFrom, Penetration, ToWindow,
};
use collidoscope::geometry::{Circle, ConvexPolygon, DVec2, Shape};
use collidoscope::scene::Body;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const FPS: f64 = 60.0;
const SECONDS: f64 = 10.0;

fn shape(i: usize) -> Shape {
    match i % 3 {
        0 => ConvexPolygon::rectangle(DVec2::splat(0.45)).unwrap().into(),
        1 => Circle::new(0.45).unwrap().into(),
        _ => ConvexPolygon::regular(6, 0.45).unwrap().into(),
    }
}

/// Frame `k` of `n` bodies in a row, each moving, neighbours touching (a claim each).
fn frame(k: usize, n: usize, shapes: &[Shape]) -> (Vec<BodyShape>, Vec<Manifold>) {
    let bodies = (0..n)
        .map(|i| {
            let x = i as f64 * 0.9 + k as f64 * 1e-3;
            BodyShape::new(
                i as u64 + 1,
                shapes[i].clone(),
                DVec2::new(x, 0.0),
                DVec2::X,
            )
            .moving(Body::Dynamic, DVec2::new(0.06, 0.0), 0.0, true)
        })
        .collect();
    let contacts = (1..n)
        .map(|i| Manifold {
            a: i as u64,
            b: i as u64 + 1,
            normal: DVec2::X,
            points: vec![ManifoldPoint {
                point: DVec2::new(i as f64 * 0.9 - 0.45, 0.0),
                separation: -0.0,
                impulse: None,
            }]
            .into(),
            piece: None,
        })
        .collect();
    (bodies, contacts)
}

fn header() -> Header {
    Header::f32_metres(Engine::new("bench", "1"))
}

/// The game: `frames` frames of `n` bodies at 60 a second into `out`; when each was written.
fn game<W: Write>(out: W, n: usize, frames: usize, written: &Mutex<Vec<Instant>>) {
    let shapes: Vec<Shape> = (0..n).map(shape).collect();
    let mut writer = CaptureWriter::new(
        out,
        &header(),
        NormalFrom::AToB,
        Penetration::NegativeSeparation,
    )
    .unwrap();
    let start = Instant::now();
    for k in 0..frames {
        let due = start + Duration::from_secs_f64(k as f64 / FPS);
        if let Some(wait) = due.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        let (bodies, contacts) = frame(k, n, &shapes);
        writer.frame(k as f64 / FPS, &bodies, &contacts).unwrap();
        written.lock().unwrap().push(Instant::now());
    }
}

/// The window's side, as the capture lab does it at 60 Hz: the lag of each frame it came to
/// hold (read and judged), in seconds.
fn window(path: &Path, frames: usize, written: &Mutex<Vec<Instant>>) -> Vec<f64> {
    while !CaptureIndex::header_written(path) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let mut index = CaptureIndex::follow(path).unwrap();
    let mut lags = Vec::new();
    let mut held = 0;
    let deadline = Instant::now() + Duration::from_secs_f64(SECONDS + 10.0);
    while held < frames && Instant::now() < deadline {
        index.update();
        let found = index.frames().len();
        if found > held && index.pending().is_none() {
            index.request(found - 1);
        }
        if let Some((position, Ok(_shown))) = index.take_shown(Duration::from_millis(8)) {
            let now = Instant::now();
            let written = written.lock().unwrap();
            // Every frame up to the one shown is held: the scan judged them on the way.
            for k in held..=position {
                lags.push(now.duration_since(written[k]).as_secs_f64());
            }
            held = position + 1;
        }
        std::thread::sleep(Duration::from_millis(8));
    }
    lags
}

fn summary(name: &str, mut lags: Vec<f64>) {
    lags.sort_by(f64::total_cmp);
    let at = |q: f64| lags[((lags.len() - 1) as f64 * q) as usize] * 1e3;
    println!(
        "{name}: {} frames held; lag median {:.1} ms, 99th percentile {:.1} ms, worst {:.1} ms",
        lags.len(),
        at(0.5),
        at(0.99),
        at(1.0)
    );
}

fn lag_of_file(gzip: bool) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(if gzip {
        "g.capture.jsonl.gz"
    } else {
        "g.capture.jsonl"
    });
    let frames = (FPS * SECONDS) as usize;
    let written = Arc::new(Mutex::new(Vec::new()));
    let game_thread = {
        let (path, written) = (path.clone(), written.clone());
        std::thread::spawn(move || {
            let file = std::fs::File::create(&path).unwrap();
            if gzip {
                let shapes: Vec<Shape> = (0..200).map(shape).collect();
                let mut writer = CaptureWriter::compressed(
                    file,
                    &header(),
                    NormalFrom::AToB,
                    Penetration::NegativeSeparation,
                )
                .unwrap();
                let start = Instant::now();
                for k in 0..frames {
                    let due = start + Duration::from_secs_f64(k as f64 / FPS);
                    if let Some(wait) = due.checked_duration_since(Instant::now()) {
                        std::thread::sleep(wait);
                    }
                    let (bodies, contacts) = frame(k, 200, &shapes);
                    writer.frame(k as f64 / FPS, &bodies, &contacts).unwrap();
                    written.lock().unwrap().push(Instant::now());
                }
                writer.finish().unwrap();
            } else {
                game(file, 200, frames, &written);
            }
        })
    };
    let lags = window(&path, frames, &written);
    game_thread.join().unwrap();
    let name = if gzip {
        "followed gzip file, 200 bodies at 60 fps"
    } else {
        "followed plain file, 200 bodies at 60 fps"
    };
    summary(name, lags);
}

fn lag_of_link() {
    let dir = tempfile::tempdir().unwrap();
    let listener = Listener::bind(0, dir.path()).unwrap();
    let port = listener.port();
    let frames = (FPS * SECONDS) as usize;
    let written = Arc::new(Mutex::new(Vec::new()));
    let to_window = ToWindow::connect(port);
    let link = to_window.watch();
    while !link.stats().connected {
        std::thread::sleep(Duration::from_millis(1));
    }
    let game_thread = {
        let written = written.clone();
        std::thread::spawn(move || game(to_window, 200, frames, &written))
    };
    let capture: PathBuf = loop {
        if let Some(LinkEvent::Connected { capture, .. }) = listener.events().into_iter().next() {
            break capture;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let lags = window(&capture, frames, &written);
    game_thread.join().unwrap();
    let stats = link.stats();
    summary(
        &format!(
            "loopback link, 200 bodies at 60 fps ({} sent, {} dropped)",
            stats.sent, stats.dropped
        ),
        lags,
    );
}

/// The median time of `frame` for `n` bodies into `out`, in microseconds.
fn cost<W: Write>(out: W, n: usize) -> f64 {
    let shapes: Vec<Shape> = (0..n).map(shape).collect();
    let mut writer = CaptureWriter::new(
        out,
        &header(),
        NormalFrom::AToB,
        Penetration::NegativeSeparation,
    )
    .unwrap();
    let mut times = Vec::new();
    for k in 0..300 {
        let (bodies, contacts) = frame(k, n, &shapes);
        let start = Instant::now();
        writer.frame(k as f64 / FPS, &bodies, &contacts).unwrap();
        times.push(start.elapsed().as_secs_f64() * 1e6);
        // A game's pace (the link's thread sends between frames).
        std::thread::sleep(Duration::from_millis(2));
    }
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn link_cost() {
    for n in [200, 1000] {
        let dir = tempfile::tempdir().unwrap();
        let listener = Listener::bind(0, dir.path()).unwrap();
        let to_window = ToWindow::connect(listener.port());
        let link = to_window.watch();
        while !link.stats().connected {
            std::thread::sleep(Duration::from_millis(1));
        }
        let linked = cost(to_window, n);
        let alone = cost(std::io::sink(), n);
        println!(
            "{n} bodies a frame: written {alone:.0} us, streamed to a window {linked:.0} us: the link {:.0} us ({:.2} us a body)",
            linked - alone,
            (linked - alone) / n as f64
        );
        drop(listener);
    }
}

fn main() {
    lag_of_file(false);
    lag_of_file(true);
    lag_of_link();
    link_cost();
}
