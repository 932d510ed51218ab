//! A Box2D game that records itself with Box2D's own calls, as a C or C++ game does: a crate
//! sliding over a floor of twelve separate tiles (it catches on a seam) and a ball rolling down
//! a ramp, then a bullet fired at a thin wall with continuous collision off (it tunnels). Only
//! the lines marked `record:` are added to the game (and `b2Body_SetName`, so that the capture
//! names the bodies), and each is one Box2D call (the same in C:
//! `b2CreateRecording`, `b2World_StartRecording`, `b2World_StopRecording`,
//! `b2SaveRecordingToFile`, `b2DestroyRecording`). collidoscope then replays the recording with
//! Box2D and shows what each step computed:
//!
//! ```text
//! cargo run --release --example box2d_recording -- game.b2rec
//! collidoscope import game.b2rec -o game.capture.jsonl.gz
//! collidoscope diagnose game.capture.jsonl.gz      # the seam and the tunnel, named
//! collidoscope game.b2rec                          # or open the recording in the window
//! ```
//!
//! With `--recycling` after the file's name, the bodies keep Box2D's contact recycling on (its
//! default): `tests/captures/tile-floor-recycling.b2rec` was made so, to show what recycled
//! contacts look like in a capture (named stale).

use boxdd_sys::ffi::*;
use std::ffi::CString;

const DT: f32 = 1.0 / 60.0;
const SUBSTEPS: i32 = 4;

fn v(x: f32, y: f32) -> b2Vec2 {
    b2Vec2 { x, y }
}

/// Give `body` a name Box2D keeps (and records): what collidoscope calls its shapes.
fn name(body: b2BodyId, name: &str) {
    let name = CString::new(name).expect("no NUL in a name");
    // SAFETY: a live body; Box2D copies the name.
    unsafe { b2Body_SetName(body, name.as_ptr()) };
}

/// A body with one box shape, named, contact recycling off (every contact computed at its
/// step's poses, so that each claim can be judged) unless `recycling`.
fn boxed(
    (world, recycling): (b2WorldId, bool),
    label: &str,
    kind: b2BodyType,
    at: b2Vec2,
    angle: f32,
    half: b2Vec2,
) -> b2BodyId {
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
        def.enableContactRecycling = recycling;
        let body = b2CreateBody(world, &def);
        let polygon = b2MakeBox(half.x, half.y);
        b2CreatePolygonShape(body, &b2DefaultShapeDef(), &polygon);
        name(body, label);
        body
    }
}

fn main() -> std::io::Result<()> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "game.b2rec".into());
    let recycling = std::env::args().nth(2).as_deref() == Some("--recycling");
    let (stat, dynamic) = (b2BodyType_b2_staticBody, b2BodyType_b2_dynamicBody);
    // SAFETY: one world, created, stepped and destroyed on this thread; the recording is made,
    // saved and destroyed here.
    unsafe {
        let mut def = b2DefaultWorldDef();
        def.gravity = v(0.0, -10.0);
        def.enableContinuous = false;
        let world = b2CreateWorld(&def);
        let game = (world, recycling);
        // record: a buffer, and the world recorded from before its first step.
        let recording = b2CreateRecording(0);
        b2World_StartRecording(world, recording);

        for k in 0..12 {
            let tile = format!("tile{}", k + 1);
            boxed(
                game,
                &tile,
                stat,
                v(-5.5 + k as f32, -0.5),
                0.0,
                v(0.5, 0.5),
            );
        }
        boxed(game, "ramp", stat, v(3.5, 1.2), 0.5, v(1.5, 0.1));
        let crate_body = boxed(game, "crate", dynamic, v(-5.5, 0.25), 0.0, v(0.25, 0.25));
        b2Body_SetLinearVelocity(crate_body, v(7.0, 0.0));
        let mut ball = b2DefaultBodyDef();
        ball.type_ = dynamic;
        ball.position = v(4.6, 2.2);
        ball.enableContactRecycling = recycling;
        let ball = b2CreateBody(world, &ball);
        let circle = b2Circle {
            center: v(0.0, 0.0),
            radius: 0.2,
        };
        b2CreateCircleShape(ball, &b2DefaultShapeDef(), &circle);
        name(ball, "ball");
        // A thin wall far to the right, and a bullet fired at it at step 90.
        boxed(game, "wall", stat, v(30.0, 1.0), 0.0, v(0.05, 2.0));
        let bullet = boxed(game, "bullet", dynamic, v(26.5, 1.0), 0.0, v(0.05, 0.05));
        b2Body_SetGravityScale(bullet, 0.0);

        for step in 0..150 {
            if step == 90 {
                b2Body_SetLinearVelocity(bullet, v(120.0, 0.0));
            }
            b2World_Step(world, DT, SUBSTEPS);
        }

        // record: stop, save, free.
        b2World_StopRecording(world);
        let file = CString::new(path.clone()).map_err(std::io::Error::other)?;
        let saved = b2SaveRecordingToFile(recording, file.as_ptr());
        let bytes = b2Recording_GetSize(recording);
        b2DestroyRecording(recording);
        b2DestroyWorld(world);
        if !saved {
            return Err(std::io::Error::other(format!(
                "Box2D could not write {path}"
            )));
        }
        println!("wrote {path}: 150 steps recorded by Box2D ({bytes} bytes)");
    }
    Ok(())
}
