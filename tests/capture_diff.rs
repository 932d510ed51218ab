//! `collidoscope diff`: two captures of a real Box2D v3 world (boxdd-sys, from its C source)
//! compared. The same run twice agrees, bit for bit, and so does Box2D on one thread and on
//! four. The same run with one box nudged by one f32 ulp at a chosen step (while the stack
//! falls) diverges at that frame and names the box, then drifts. A run renumbered as a server
//! would number its ticks agrees with `--offset`. A refused capture is refused as `diagnose`
//! refuses it.

#[allow(dead_code, unused_imports)]
#[path = "../src/capture/adapters/box2d/mod.rs"]
mod box2d_capture;

use box2d_capture::{Box2dCapture, header};
use boxdd_sys::ffi::*;
use collidoscope::capture::{
    CaptureWriter, DiffSettings, NormalFrom, Penetration, ShapeKey, diff_captures,
};
use std::path::{Path, PathBuf};
use std::process::Command;

fn v(x: f32, y: f32) -> b2Vec2 {
    b2Vec2 { x, y }
}

/// A Box2D task on its own thread: what `enqueue` started, for `finish` to join.
struct Task(std::thread::JoinHandle<()>);

/// The task's context pointer, handed to the thread that runs it (Box2D keeps it alive until
/// `finish` returns).
struct Context(*mut std::ffi::c_void);
// SAFETY: Box2D's task contexts are made to be run on worker threads.
unsafe impl Send for Context {}

/// Tasks Box2D handed to the task system (so the test knows the threads ran).
static TASKS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Box2D's task system as a game gives it: each task on a thread of its own.
unsafe extern "C" fn enqueue(
    task: b2TaskCallback,
    context: *mut std::ffi::c_void,
    _user: *mut std::ffi::c_void,
) -> *mut std::ffi::c_void {
    TASKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let context = Context(context);
    let thread = std::thread::spawn(move || {
        let context = context;
        // SAFETY: Box2D's own task and context, run exactly once, as its interface asks.
        unsafe { task.expect("a task")(context.0) };
    });
    Box::into_raw(Box::new(Task(thread))).cast()
}

unsafe extern "C" fn finish(task: *mut std::ffi::c_void, _user: *mut std::ffi::c_void) {
    // SAFETY: `task` is a pointer `enqueue` made from a box, finished once.
    let task = unsafe { Box::from_raw(task.cast::<Task>()) };
    task.0.join().expect("a Box2D task");
}

/// Box2D keeps its worlds in one process-wide array and `b2CreateWorld` takes a free slot
/// unguarded: two tests making a world at once could take the same one (seen once in CI as
/// Box2D's assertion on the new world's solver sets). One world at a time.
static BOX2D: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// [`run_with`] on Box2D's own single thread.
fn run(nudge: Option<usize>) -> Vec<u8> {
    run_with(nudge, 1)
}

/// A stack of five boxes falling onto a ground, a ball rolling into it; 120 steps of 1/60 s,
/// Box2D solving on `workers` threads (1: its own, no task system). With `nudge`, at that
/// step (before it is captured) the third box moves right by one f32 ulp of its x.
fn run_with(nudge: Option<usize>, workers: i32) -> Vec<u8> {
    let _box2d = BOX2D.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: one world, created, stepped and destroyed here; bodies used while it lives.
    unsafe {
        let mut def = b2DefaultWorldDef();
        def.gravity = v(0.0, -10.0);
        if workers > 1 {
            def.workerCount = workers;
            def.enqueueTask = Some(enqueue);
            def.finishTask = Some(finish);
        }
        let world = b2CreateWorld(&def);
        let mut bodies = Vec::new();
        let mut names = Vec::new();
        let mut make = |kind: b2BodyType, x: f32, y: f32| {
            let mut body = b2DefaultBodyDef();
            body.type_ = kind;
            body.position = v(x, y);
            let id = b2CreateBody(world, &body);
            bodies.push(id);
            id
        };
        let ground = make(b2BodyType_b2_staticBody, 0.0, -0.5);
        b2CreatePolygonShape(ground, &b2DefaultShapeDef(), &b2MakeBox(20.0, 0.5));
        names.push((ground, "ground".to_string()));
        let mut third = None;
        for k in 0..5 {
            let b = make(
                b2BodyType_b2_dynamicBody,
                0.1 * k as f32,
                0.6 + 1.05 * k as f32,
            );
            b2CreatePolygonShape(b, &b2DefaultShapeDef(), &b2MakeBox(0.5, 0.5));
            names.push((b, format!("box{k}")));
            if k == 2 {
                third = Some(b);
            }
        }
        let ball = make(b2BodyType_b2_dynamicBody, -4.0, 0.4);
        b2Body_SetLinearVelocity(ball, v(6.0, 0.0));
        let circle = b2Circle {
            center: v(0.0, 0.0),
            radius: 0.4,
        };
        b2CreateCircleShape(ball, &b2DefaultShapeDef(), &circle);
        names.push((ball, "ball".to_string()));

        let dt = 1.0 / 60.0;
        let writer = CaptureWriter::new(
            Vec::new(),
            &header(4, dt, false),
            NormalFrom::AToB,
            Penetration::NegativeSeparation,
        )
        .unwrap();
        let mut capture = Box2dCapture::new(writer);
        for (body, name) in &names {
            capture.name(*body, name.clone());
        }
        for step in 0..120 {
            if nudge == Some(step) {
                let b = third.unwrap();
                let p = b2Body_GetPosition(b);
                let x = f32::from_bits(p.x.to_bits() + 1);
                b2Body_SetTransform(b, v(x, p.y), b2Body_GetRotation(b));
            }
            capture.before_step(&bodies).unwrap();
            b2World_Step(world, dt as f32, 4);
            capture.after_step(step as f64 * dt, &bodies).unwrap();
        }
        let bytes = capture.finish().unwrap();
        b2DestroyWorld(world);
        bytes
    }
}

fn saved(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn the_same_run_twice_agrees_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    let a = saved(dir.path(), "a.capture.jsonl", &run(None));
    let b = saved(dir.path(), "b.capture.jsonl", &run(None));
    let diff = diff_captures(&a, &b, DiffSettings::default()).unwrap();
    assert_eq!(diff.frames_compared, 120);
    assert!(diff.agree(), "{diff:?}");
    assert!(diff.growth.is_empty());
}

/// Box2D v3 solves in an order that does not depend on the number of workers (its solver
/// breaks ties by island and body ids "to ensure determinism", `src/solver.c`; `b2Hash` in
/// `base.h` is for "determinism testing"). Measured here on captures: one thread against four
/// threads of a task system (every task on its own thread), every pose, velocity and claim
/// of 120 steps, bit for bit.
#[test]
fn box2d_on_one_thread_and_on_four_is_the_same_run() {
    let dir = tempfile::tempdir().unwrap();
    let a = saved(dir.path(), "one.capture.jsonl", &run_with(None, 1));
    let before = TASKS.load(std::sync::atomic::Ordering::Relaxed);
    let b = saved(dir.path(), "four.capture.jsonl", &run_with(None, 4));
    let tasks = TASKS.load(std::sync::atomic::Ordering::Relaxed) - before;
    assert!(
        tasks >= 120,
        "Box2D ran {tasks} tasks on the task system in 120 steps"
    );
    let diff = diff_captures(&a, &b, DiffSettings::default()).unwrap();
    assert_eq!(diff.frames_compared, 120);
    assert!(diff.agree(), "{diff:?}");
}

#[test]
fn one_ulp_at_step_10_diverges_there_names_the_box_and_drifts() {
    let dir = tempfile::tempdir().unwrap();
    let a = saved(dir.path(), "a.capture.jsonl", &run(None));
    let b = saved(dir.path(), "b.capture.jsonl", &run(Some(10)));
    let diff = diff_captures(&a, &b, DiffSettings::default()).unwrap();
    assert_eq!(diff.frames_compared, 120);
    let first = diff.first_divergence.as_ref().expect("the runs part");
    assert_eq!(first.frame, 10, "{first:?}");
    // At the frame itself only the nudged box differs, by its position alone, one f32 ulp.
    assert_eq!(first.shapes.len(), 1, "{first:?}");
    let shape = &first.shapes[0];
    assert_eq!(shape.name.as_deref(), Some("box2"));
    assert_eq!(shape.keys, vec![ShapeKey::Position]);
    let (pa, pb) = (shape.in_a.unwrap().position, shape.in_b.unwrap().position);
    assert_eq!(((pa.x as f32).to_bits() + 1), (pb.x as f32).to_bits());
    assert_eq!(pa.y, pb.y);
    assert!(shape.difference > 0.0 && shape.difference < 1e-6);
    // The growth starts there and runs to the end; the stack's boxes touch, so the ulp
    // spreads: later frames differ by more than the first.
    assert_eq!(diff.growth.first().map(|g| g.0), Some(10));
    assert_eq!(diff.growth.last().map(|g| g.0), Some(119));
    let last = diff.growth.last().unwrap().1;
    assert!(last > shape.difference, "{:?}", diff.growth);
    // A tolerance above the drift sees no divergence.
    let loose = diff_captures(
        &a,
        &b,
        DiffSettings {
            tolerance: Some(1.0),
            offset: 0,
        },
    )
    .unwrap();
    assert!(loose.first_divergence.is_none(), "{loose:?}");
}

/// The capture's frame numbers moved by `by`, as a server that started counting earlier.
fn renumbered(bytes: &[u8], by: u64) -> Vec<u8> {
    let text = std::str::from_utf8(bytes).unwrap();
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        if i == 0 {
            out.push_str(line);
        } else {
            let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
            let f = value["frame"].as_u64().unwrap();
            value["frame"] = (f + by).into();
            out.push_str(&serde_json::to_string(&value).unwrap());
        }
        out.push('\n');
    }
    out.into_bytes()
}

#[test]
fn a_server_counting_from_elsewhere_agrees_with_the_offset() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = run(None);
    let a = saved(dir.path(), "client.capture.jsonl", &bytes);
    let b = saved(dir.path(), "server.capture.jsonl", &renumbered(&bytes, 3));
    let aligned = DiffSettings {
        tolerance: None,
        offset: 3,
    };
    let diff = diff_captures(&a, &b, aligned).unwrap();
    assert_eq!(diff.frames_compared, 120);
    assert!(diff.agree(), "{diff:?}");
    // Without the offset, frame f of the client meets frame f - 3 of the run: they part at
    // once.
    let unaligned = diff_captures(&a, &b, DiffSettings::default()).unwrap();
    assert_eq!(unaligned.frames_compared, 117);
    assert_eq!(
        unaligned.first_divergence.as_ref().map(|d| d.frame),
        Some(3)
    );
    // The two runs hold as many frames, numbered 3 apart: the offset is proposed, in the
    // command's words and the window's.
    assert_eq!(
        collidoscope::capture::words::offset_hint(&unaligned),
        Some(3)
    );
    assert_eq!(collidoscope::capture::words::offset_hint(&diff), None);
    let said = collidoscope::capture::words::run_diff(&unaligned).join("\n");
    assert!(said.contains("try --offset 3"), "{said}");
    assert!(
        collidoscope::capture::words::runs_part(&unaligned).ends_with("try an offset of 3"),
        "{}",
        collidoscope::capture::words::runs_part(&unaligned)
    );
}

fn collidoscope(args: &[&str]) -> (u8, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap() as u8,
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn the_command_says_where_and_exits_as_documented() {
    let dir = tempfile::tempdir().unwrap();
    let a = saved(dir.path(), "a.capture.jsonl", &run(None));
    let b = saved(dir.path(), "b.capture.jsonl", &run(Some(10)));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());

    let (code, text, _) = collidoscope(&["diff", a, a]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("The runs agree"), "{text}");

    let (code, text, _) = collidoscope(&["diff", a, b]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("First divergence: frame 10"), "{text}");
    assert!(text.contains("box2 (id "), "{text}");
    assert!(text.contains("position"), "{text}");

    let (code, json, _) = collidoscope(&["diff", a, b, "--json"]);
    assert_eq!(code, 1);
    let line: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(line["a"], a);
    assert_eq!(line["frames_compared"], 120);
    assert_eq!(line["first_divergence"]["frame"], 10);
    assert_eq!(line["first_divergence"]["shapes"][0]["keys"][0], "position");
    assert!(
        line["first_divergence"]["shapes"][0]["difference"]
            .as_f64()
            .unwrap()
            > 0.0
    );
    assert!(line["first_divergence"]["claims"].is_array());
    assert_eq!(line["growth"][0][0], 10);

    let (code, json, _) = collidoscope(&["diff", a, a, "--json"]);
    assert_eq!(code, 0);
    let line: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert!(line["first_divergence"].is_null());

    // A refused capture: named as diagnose names it, exit 1 (as a refused file always is).
    let bad = saved(dir.path(), "bad.capture.jsonl", b"{\"format\":\"nope\"}\n");
    let (code, _, err) = collidoscope(&["diff", a, bad.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("bad.capture.jsonl: line 1"), "{err}");
    // Usage.
    let (code, _, _) = collidoscope(&["diff", a]);
    assert_eq!(code, 2);
    let (code, _, err) = collidoscope(&["diff", a, a, "--tolerance", "-1"]);
    assert_eq!(code, 2, "{err}");
}

/// A packet log's two views as captures, one frame every `tick` ms: the players' own (each at
/// the pose of its last packet sent by then) or the server's (each at the pose of its last
/// packet received by then). A player with no packet yet is not in the frame.
fn view(log: &collidoscope::latency::PacketLog, tick: f64, frames: usize, server: bool) -> Vec<u8> {
    use collidoscope::capture::{BodyShape, Engine, Header};
    use collidoscope::geometry::DVec2;
    let mut writer = CaptureWriter::new(
        Vec::new(),
        &Header::f32_metres(Engine::new(
            "packets",
            if server { "server" } else { "client" },
        )),
        NormalFrom::AToB,
        Penetration::NegativeSeparation,
    )
    .unwrap();
    for k in 0..frames {
        let t = k as f64 * tick;
        let shapes: Vec<BodyShape> = log
            .players
            .iter()
            .enumerate()
            .filter_map(|(i, player)| {
                let last = log
                    .packets
                    .iter()
                    .filter(|p| p.player == i && if server { p.received <= t } else { p.sent <= t })
                    .max_by(|x, y| x.sent.total_cmp(&y.sent))?;
                Some(
                    BodyShape::new(
                        i as u64,
                        player.shape.clone(),
                        last.position,
                        DVec2::from_angle(last.angle),
                    )
                    .named(player.display_name(i)),
                )
            })
            .collect();
        writer.frame(t / 1000.0, &shapes, &[]).unwrap();
    }
    writer.finish().unwrap()
}

/// Two players sending every 50 ms, received 100 ms later (two ticks of 50 ms); with `late`,
/// the runner's packet sent at 500 ms arrives at 700 ms instead.
fn packet_log(late: bool) -> collidoscope::latency::PacketLog {
    let mut packets = Vec::new();
    for k in 0..20 {
        let sent = 50.0 * k as f64;
        for (player, x) in [(0, 0.0), (1, 10.0 - 0.5 * k as f64)] {
            let received = if late && player == 1 && k == 10 {
                700.0
            } else {
                sent + 100.0
            };
            packets.push(format!(
                r#"{{"player": {player}, "sent": {sent}, "received": {received}, "position": [{x}, 0], "angle": 0}}"#
            ));
        }
    }
    // Arrival order, as a log holds its packets.
    packets.sort_by(|a, b| {
        let at = |p: &String| -> f64 {
            let v: serde_json::Value = serde_json::from_str(p).unwrap();
            v["received"].as_f64().unwrap()
        };
        at(a).total_cmp(&at(b))
    });
    let text = format!(
        r#"{{"format": "collidoscope-packets", "version": 1, "players": [{{"name": "post", "kind": "circle", "radius": 1}}, {{"name": "runner", "kind": "circle", "radius": 0.5}}], "packets": [{}]}}"#,
        packets.join(",")
    );
    collidoscope::latency::PacketLog::parse(Path::new("two-views.json"), text.as_bytes()).unwrap()
}

#[test]
fn a_client_and_a_server_from_a_packet_log_part_where_a_packet_is_late() {
    let dir = tempfile::tempdir().unwrap();
    // Every packet 100 ms late: the server's frame f + 2 is the players' frame f.
    let log = packet_log(false);
    let client = saved(
        dir.path(),
        "client.capture.jsonl",
        &view(&log, 50.0, 20, false),
    );
    let server = saved(
        dir.path(),
        "server.capture.jsonl",
        &view(&log, 50.0, 22, true),
    );
    let two_ticks = DiffSettings {
        tolerance: None,
        offset: 2,
    };
    let diff = diff_captures(&client, &server, two_ticks).unwrap();
    assert_eq!(diff.frames_compared, 20);
    assert!(diff.agree(), "{diff:?}");
    // One packet 200 ms late: the server still holds the runner's pose from 450 ms when the
    // runner is at its 500 ms one.
    let log = packet_log(true);
    let client = saved(
        dir.path(),
        "client-late.capture.jsonl",
        &view(&log, 50.0, 20, false),
    );
    let server = saved(
        dir.path(),
        "server-late.capture.jsonl",
        &view(&log, 50.0, 22, true),
    );
    let diff = diff_captures(&client, &server, two_ticks).unwrap();
    let first = diff.first_divergence.expect("the views part");
    assert_eq!(first.frame, 10);
    assert_eq!(first.shapes.len(), 1, "{first:?}");
    assert_eq!(first.shapes[0].name.as_deref(), Some("runner"));
    assert_eq!(first.shapes[0].keys, vec![ShapeKey::Position]);
    assert_eq!(first.shapes[0].difference, 0.5);
    // The next packet arrives on time, a tick later, and the server takes the newest: the
    // views meet again (the late one, when it comes, is older than what the server holds).
    assert_eq!(diff.growth[0], (10, 0.5));
    assert!(
        diff.growth[1..].iter().all(|(_, by)| *by == 0.0),
        "{:?}",
        diff.growth
    );
}

/// The capture's first `frames` frames (and its header).
fn first_frames(bytes: &[u8], frames: usize) -> Vec<u8> {
    let text = std::str::from_utf8(bytes).unwrap();
    let mut out = String::new();
    for line in text.lines().take(1 + frames) {
        out.push_str(line);
        out.push('\n');
    }
    out.into_bytes()
}

/// Two runs with no frame in common compare nothing: that is no agreement but a failure
/// (status 2) that says each run's frames and the offset that would put them side by side,
/// never the offset already in use; a run with no frame at all is said to have none, with no
/// offset proposed (none would help).
#[test]
fn no_frame_in_both_runs_fails_saying_each_runs_frames_and_the_offset_that_aligns_them() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = run(None);
    let a = saved(dir.path(), "client.capture.jsonl", &bytes);
    // A server counting from 500 that stopped after 60 frames (500-559).
    let b = saved(
        dir.path(),
        "server.capture.jsonl",
        &first_frames(&renumbered(&bytes, 500), 60),
    );
    let header_only = saved(dir.path(), "none.capture.jsonl", &first_frames(&bytes, 0));
    let (a, b, h) = (
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        header_only.to_str().unwrap(),
    );

    let (code, text, _) = collidoscope(&["diff", a, b]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("No frame is in both runs (aligned by number): A holds frames 0-119, B holds frames 500-559; try --offset 500, which puts B's frame 500 beside A's frame 0"),
        "{text}"
    );
    assert!(!text.contains("--offset 0"), "{text}");
    // The other way round, the offset is negative.
    let (code, text, _) = collidoscope(&["diff", b, a]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("try --offset -500"), "{text}");
    // With an offset that still meets nothing, that offset is named and another proposed.
    let (code, text, _) = collidoscope(&["diff", a, b, "--offset", "1000"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("(with --offset 1000)"), "{text}");
    assert!(text.contains("try --offset 500"), "{text}");
    // --json: the line as documented, the reason on stderr.
    let (code, json, err) = collidoscope(&["diff", a, b, "--json"]);
    assert_eq!(code, 2);
    let line: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(line["frames_compared"], 0);
    assert_eq!(line["frames_b"], serde_json::json!([500, 559]));
    assert!(err.contains("try --offset 500"), "{err}");
    // The offset proposed compares the 60 frames both hold, which agree.
    let (code, text, _) = collidoscope(&["diff", a, b, "--offset", "500"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("60 frames compared"), "{text}");
    // A run of a header alone: no offset would help.
    let (code, text, _) = collidoscope(&["diff", a, h]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("No frame is in both runs: B holds no frame (only its header)"),
        "{text}"
    );
    assert!(!text.contains("offset"), "{text}");
}

/// Each key of a shape that differs is said with its own difference: a distance for a
/// position or a velocity, radians for an angle.
#[test]
fn a_shape_that_differs_says_what_each_difference_measures() {
    use collidoscope::capture::{ShapeDifference, ShapeState};
    use collidoscope::geometry::DVec2;
    let at = |x: f64, vx: f64, angle: f64| ShapeState {
        position: DVec2::new(x, 2.0),
        angle,
        velocity: DVec2::new(vx, 0.0),
        angular_velocity: 0.0,
    };
    let crate_ = ShapeDifference {
        id: 7,
        name: Some("crate".into()),
        keys: vec![ShapeKey::Position, ShapeKey::Angle, ShapeKey::Velocity],
        difference: 0.5,
        in_a: Some(at(1.0, 0.0, 0.0)),
        in_b: Some(at(1.001, 0.5, 0.25)),
    };
    assert_eq!(
        collidoscope::capture::words::shape_difference(&crate_),
        "crate (id 7): position by 0.001: (1, 2) in A, (1.001, 2) in B; angle by 0.25: 0 in A, 0.25 in B; velocity by 0.5: (0, 0) in A, (0.5, 0) in B"
    );
    // The command's first divergence: the nudged box's position, by one ulp.
    let dir = tempfile::tempdir().unwrap();
    let a = saved(dir.path(), "a.capture.jsonl", &run(None));
    let b = saved(dir.path(), "b.capture.jsonl", &run(Some(10)));
    let (_, text, _) = collidoscope(&["diff", a.to_str().unwrap(), b.to_str().unwrap()]);
    let said = text
        .lines()
        .find(|l| l.contains("box2 (id "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(said.contains("): position by 1.5e-8: ("), "{said}");
}

/// The runs part at frame 50 (the ball 1 mm to the right in B for ten frames) and are the
/// same again from frame 60: said, kept in the JSON as the extra `same_again`, and each
/// frame known as the same again.
#[test]
fn runs_that_part_and_come_together_again_are_said_the_same_again() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = run(None);
    let a = saved(dir.path(), "a.capture.jsonl", &bytes);
    let b = saved(
        dir.path(),
        "b.capture.jsonl",
        &ball_moved(&bytes, 50..60, 0.001),
    );
    let diff = diff_captures(&a, &b, DiffSettings::default()).unwrap();
    assert_eq!(diff.first_divergence.as_ref().map(|d| d.frame), Some(50));
    assert_eq!(diff.same_again, vec![(60, 119)]);
    assert!(!diff.same_again_at(55) && diff.same_again_at(60) && diff.same_again_at(119));
    let said = collidoscope::capture::words::run_diff(&diff).join("\n");
    assert!(
        said.contains("The same again (every shape and claim) at frames 60-119."),
        "{said}"
    );
    assert!(
        collidoscope::capture::words::runs_part(&diff).contains("the same again from frame 60")
    );
    assert_eq!(
        collidoscope::capture::words::runs_apart_at(70, Some(0.0), true, Some(50)),
        "compared runs: the same here again; they part at frame 50 (J)"
    );
    let (code, json, _) =
        collidoscope(&["diff", a.to_str().unwrap(), b.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1);
    let line: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(line["same_again"], serde_json::json!([[60, 119]]));
}

/// The capture with the ball's position moved right by `by` in `frames` (the ball rolls, so
/// each of its frames writes its position; the frame after the last puts it back).
fn ball_moved(bytes: &[u8], frames: std::ops::Range<u64>, by: f64) -> Vec<u8> {
    let text = std::str::from_utf8(bytes).unwrap();
    let mut out = String::new();
    let mut ball = None;
    for (i, line) in text.lines().enumerate() {
        if i == 0 {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
        let frame = value["frame"].as_u64().unwrap();
        for shape in value["shapes"].as_array_mut().into_iter().flatten() {
            if shape["name"] == "ball" {
                ball = shape["id"].as_u64();
            }
            if shape["id"].as_u64() == ball && frames.contains(&frame) {
                let x = shape["position"][0].as_f64().expect("the ball's position");
                shape["position"][0] = (x + by).into();
            }
        }
        out.push_str(&serde_json::to_string(&value).unwrap());
        out.push('\n');
    }
    out.into_bytes()
}
