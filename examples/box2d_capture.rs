//! A small Box2D v3 game that writes a capture: boxes sliding down a ramp onto a pyramid, a
//! crate sent along a floor of twelve separate tiles (below the rest), which catches on a seam
//! between two of them, and a bullet fired through the scene. The lines marked `capture:` are
//! all a game needs.
//!
//! ```text
//! cargo run --release --example box2d_capture --features box2d -- box2d.capture.jsonl.gz
//! collidoscope diagnose box2d.capture.jsonl.gz
//! collidoscope box2d.capture.jsonl.gz        # the window's capture lab
//! ```
//!
//! With `--window` after the file name, the game streams its capture to a collidoscope window
//! instead (starting `collidoscope --listen` if none runs: the `collidoscope` on the path, or
//! the program `COLLIDOSCOPE_BIN` names) at 60 steps a second, while a flight recorder keeps
//! the last two seconds and saves them to the file named at the first step that is not clean:
//!
//! ```text
//! cargo run --release --example box2d_capture --features box2d -- seam.capture.jsonl.gz --window
//! ```
//!
//! With `--recycling` after the file name, Box2D keeps its contact recycling on (as a game
//! does by default): the capture then shows what that does to the contacts it reports.

use boxdd_sys::ffi::*;
use collidoscope::capture::box2d::{Box2dCapture, header};
use collidoscope::capture::{
    CaptureWriter, FlightRecorder, NormalFrom, Penetration, Tee, ToWindow,
};
use std::fs::File;
use std::io::{BufWriter, Write};

const DT: f32 = 1.0 / 60.0;
const SUBSTEPS: i32 = 4;

fn v(x: f32, y: f32) -> b2Vec2 {
    b2Vec2 { x, y }
}

/// Box2D's contact recycling: off while capturing, unless `--recycling` is given.
static RECYCLING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A body with one box shape. Contact recycling off: every contact is recomputed each step,
/// at the poses the capture writes with it.
fn boxed(world: b2WorldId, kind: b2BodyType, at: b2Vec2, angle: f32, half: b2Vec2) -> b2BodyId {
    // SAFETY: the world is live; the definitions are Box2D's defaults, filled in.
    unsafe {
        let mut def = b2DefaultBodyDef();
        def.type_ = kind;
        def.position = at;
        let cs = b2ComputeCosSin(angle);
        def.rotation = b2Rot {
            c: cs.cosine,
            s: cs.sine,
        };
        // capture: recycled contacts belong to other poses
        def.enableContactRecycling = RECYCLING.load(std::sync::atomic::Ordering::Relaxed);
        let body = b2CreateBody(world, &def);
        let polygon = b2MakeBox(half.x, half.y);
        b2CreatePolygonShape(body, &b2DefaultShapeDef(), &polygon);
        body
    }
}

/// The link to a window, started if none runs; the game waits (once, up to 20 s) for it to
/// connect so that the window sees its first frames.
fn to_window() -> std::io::Result<ToWindow> {
    let link = ToWindow::spawn();
    if !link.wait_for_window(std::time::Duration::from_secs(20)) {
        let problem = link.stats().problem.unwrap_or_default();
        return Err(std::io::Error::other(format!(
            "no window connected in 20 s: {problem}"
        )));
    }
    Ok(link)
}

fn main() -> std::io::Result<()> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "box2d.capture.jsonl.gz".into());
    let recycling = std::env::args().any(|a| a == "--recycling");
    let window = std::env::args().any(|a| a == "--window");
    RECYCLING.store(recycling, std::sync::atomic::Ordering::Relaxed);
    // SAFETY: one world, created and destroyed here, stepped on this thread only.
    let world = unsafe {
        let mut def = b2DefaultWorldDef();
        def.gravity = v(0.0, -10.0);
        b2CreateWorld(&def)
    };
    let (stat, dynamic) = (b2BodyType_b2_staticBody, b2BodyType_b2_dynamicBody);
    let mut bodies = vec![
        boxed(world, stat, v(0.0, -0.5), 0.0, v(20.0, 0.5)),
        boxed(world, stat, v(-8.0, 4.0), -0.35, v(5.0, 0.25)),
    ];
    for row in 0..5 {
        for i in 0..5 - row {
            let x = 4.0 + (i as f32 - (5 - row) as f32 / 2.0) * 1.05;
            bodies.push(boxed(
                world,
                dynamic,
                v(x, 0.5 + row as f32),
                0.0,
                v(0.5, 0.5),
            ));
        }
    }
    for i in 0..3 {
        bodies.push(boxed(
            world,
            dynamic,
            v(-12.0 + 1.5 * i as f32, 7.0),
            -0.35,
            v(0.4, 0.4),
        ));
    }
    // Twelve separate 1 m tiles 20 m below, and a crate sent along them at 7 m/s.
    for k in 0..12 {
        bodies.push(boxed(
            world,
            stat,
            v(-5.5 + k as f32, -20.5),
            0.0,
            v(0.5, 0.5),
        ));
    }
    let crate_body = boxed(world, dynamic, v(-5.5, -19.75), 0.0, v(0.25, 0.25));
    // SAFETY: the body is live.
    unsafe { b2Body_SetLinearVelocity(crate_body, v(7.0, 0.0)) };
    bodies.push(crate_body);
    let bullet = boxed(world, dynamic, v(-18.0, 1.0), 0.0, v(0.1, 0.1));
    bodies.push(bullet);

    // capture: a header naming the engine, a writer with Box2D's conventions, the adapter.
    // With --window: to a window (started if none runs) and a flight recorder of the last two
    // seconds, saved at the first step that is not clean.
    let recorder = FlightRecorder::keeping(2.0).save_on_first(&path);
    let conventions = (NormalFrom::AToB, Penetration::NegativeSeparation);
    let header = header(SUBSTEPS, DT as f64, recycling);
    let mut link = None;
    let writer: CaptureWriter<Box<dyn Write>> = if window {
        let to_window = to_window()?;
        link = Some(to_window.watch());
        let out: Box<dyn Write> = Box::new(Tee(to_window, recorder.output()));
        CaptureWriter::new(out, &header, conventions.0, conventions.1)?
    } else {
        let out: Box<dyn Write> = Box::new(BufWriter::new(File::create(&path)?));
        CaptureWriter::compressed(out, &header, conventions.0, conventions.1)?
    };
    let mut capture = Box2dCapture::new(writer);
    // capture (optional): names to show instead of ids.
    for (k, body) in bodies.iter().enumerate() {
        let name = match k {
            0 => "ground".to_string(),
            1 => "ramp".to_string(),
            k if k == bodies.len() - 1 => "bullet".to_string(),
            k if k < 17 => format!("pyramid {}", k - 2),
            k if k < 20 => format!("slider {}", k - 17),
            k if k < 32 => format!("tile{}", k - 19),
            _ => "crate".to_string(),
        };
        capture.name(*body, name);
    }

    for step in 0..600 {
        if step == 240 {
            // SAFETY: the body is live.
            unsafe {
                b2Body_SetBullet(bullet, true);
                b2Body_SetLinearVelocity(bullet, v(150.0, 0.0));
            }
        }
        // capture: the shapes before the step, the contacts after it.
        capture
            .before_step(&bodies)
            .map_err(std::io::Error::other)?;
        // SAFETY: the world is live.
        unsafe { b2World_Step(world, DT, SUBSTEPS) };
        capture.after_step(step as f64 * DT as f64, &bodies)?;
        if window {
            // A game's pace, so the window is watched live.
            std::thread::sleep(std::time::Duration::from_secs_f32(DT));
        }
    }
    capture.finish()?;
    // SAFETY: destroyed once, after its last use.
    unsafe { b2DestroyWorld(world) };
    if !window {
        println!("wrote {path}: 600 frames of {} bodies", bodies.len());
    } else {
        let stats = link.map(|l| l.stats()).unwrap_or_default();
        println!(
            "600 frames: {} sent to the window, {} dropped",
            stats.sent, stats.dropped
        );
        match recorder.saved_on() {
            Some((saved, step)) => println!(
                "the flight recorder saved the seconds before the first step that was not clean to {}:\n{step}",
                saved.display()
            ),
            None => println!("every step was clean"),
        }
    }
    Ok(())
}
