//! Real Box2D v3 worlds (boxdd-sys, built from its C source) captured through the `box2d`
//! adapter and judged frame by frame: ramps, a pyramid, capsules and balls in a chain bowl,
//! and a bullet, at the origin and at pixel scale. An honest run with contact recycling off
//! agrees at f32 claim for claim; with recycling on, the recycled contacts are named
//! `previous-poses`; injected mistakes are named. Read as motion (events): a crate catches on
//! the seam between separate tiles and not on one box or one chain, a bullet tunnels through a
//! thin wall only with continuous collision off, recycled contacts are stale with their age.
//!
//! The adapter is compiled here from its own source (`src/capture/adapters/box2d/`, the `box2d`
//! feature's module), so `cargo test` runs it against the engine without the feature.

#[allow(dead_code, unused_imports)]
#[path = "../src/capture/adapters/box2d/mod.rs"]
mod box2d_capture;
#[path = "common/plot_check.rs"]
mod plot_check;

use box2d_capture::{Box2dCapture, header};
use boxdd_sys::ffi::*;
use collidoscope::capture::{
    CaptureReader, CaptureWriter, FrameClaim, NormalFrom, Penetration, judge_frame,
};
use collidoscope::event::{EventKind, Through, What};
use collidoscope::query::{Mistake, mistaken_outcome};
use std::collections::BTreeMap;
use std::io::Cursor;

fn v(x: f64, y: f64) -> b2Vec2 {
    b2Vec2 {
        x: x as f32,
        y: y as f32,
    }
}

fn rot(angle: f64) -> b2Rot {
    // SAFETY: pure function.
    let cs = unsafe { b2ComputeCosSin(angle as f32) };
    b2Rot {
        c: cs.cosine,
        s: cs.sine,
    }
}

/// Where a scene sits: lengths times `scale`, moved by `offset`.
#[derive(Clone, Copy)]
struct Frame {
    scale: f64,
    offset: f64,
}

impl Frame {
    fn at(&self, x: f64, y: f64) -> b2Vec2 {
        v(self.offset + self.scale * x, self.offset + self.scale * y)
    }
    fn len(&self, l: f64) -> f32 {
        (self.scale * l) as f32
    }
}

struct World {
    id: b2WorldId,
    bodies: Vec<b2BodyId>,
    /// Names given to bodies, written in the capture.
    names: Vec<(b2BodyId, String)>,
    recycling: bool,
    frame: Frame,
}

impl World {
    fn new(frame: Frame, recycling: bool) -> Self {
        Self::continuous(frame, recycling, true)
    }

    /// A world with Box2D's continuous collision (of fast bodies against static ones) on or
    /// off.
    fn continuous(frame: Frame, recycling: bool, continuous: bool) -> Self {
        // SAFETY: creating a world from the default definition.
        let id = unsafe {
            b2SetLengthUnitsPerMeter(frame.scale as f32);
            let mut def = b2DefaultWorldDef();
            def.gravity = v(0.0, -10.0 * frame.scale);
            def.enableContinuous = continuous;
            b2CreateWorld(&def)
        };
        Self {
            id,
            bodies: Vec::new(),
            names: Vec::new(),
            recycling,
            frame,
        }
    }

    fn body(&mut self, kind: b2BodyType, x: f64, y: f64, angle: f64, bullet: bool) -> b2BodyId {
        // SAFETY: the world is live.
        let id = unsafe {
            let mut def = b2DefaultBodyDef();
            def.type_ = kind;
            def.position = self.frame.at(x, y);
            def.rotation = rot(angle);
            def.isBullet = bullet;
            def.enableContactRecycling = self.recycling;
            b2CreateBody(self.id, &def)
        };
        self.bodies.push(id);
        id
    }

    fn boxed(
        &mut self,
        kind: b2BodyType,
        x: f64,
        y: f64,
        angle: f64,
        hx: f64,
        hy: f64,
    ) -> b2BodyId {
        let body = self.body(kind, x, y, angle, false);
        // SAFETY: the body is live.
        unsafe {
            let shape = b2DefaultShapeDef();
            let polygon = b2MakeBox(self.frame.len(hx), self.frame.len(hy));
            b2CreatePolygonShape(body, &shape, &polygon);
        }
        body
    }

    fn ball(&mut self, x: f64, y: f64, r: f64, bullet: bool, velocity: (f64, f64)) {
        let body = self.body(b2BodyType_b2_dynamicBody, x, y, 0.0, bullet);
        // SAFETY: the body is live.
        unsafe {
            b2Body_SetLinearVelocity(
                body,
                v(velocity.0 * self.frame.scale, velocity.1 * self.frame.scale),
            );
            let shape = b2DefaultShapeDef();
            let circle = b2Circle {
                center: v(0.0, 0.0),
                radius: self.frame.len(r),
            };
            b2CreateCircleShape(body, &shape, &circle);
        }
    }

    fn capsule(&mut self, x: f64, y: f64, angle: f64, half: f64, r: f64) {
        let body = self.body(b2BodyType_b2_dynamicBody, x, y, angle, false);
        // SAFETY: the body is live.
        unsafe {
            let shape = b2DefaultShapeDef();
            let capsule = b2Capsule {
                center1: v(-half * self.frame.scale, 0.0),
                center2: v(half * self.frame.scale, 0.0),
                radius: self.frame.len(r),
            };
            b2CreateCapsuleShape(body, &shape, &capsule);
        }
    }

    /// A static open chain through `points` (scene units), its front on the right.
    fn chain(&mut self, points: &[(f64, f64)]) {
        self.chain_made(points, false);
    }

    /// A static chain through `points`, open or a loop, its front on the right (a loop
    /// counter-clockwise round a solid faces out).
    fn chain_made(&mut self, points: &[(f64, f64)], looped: bool) {
        let body = self.body(b2BodyType_b2_staticBody, 0.0, 0.0, 0.0, false);
        let points: Vec<b2Vec2> = points
            .iter()
            .map(|(x, y)| v(self.frame.scale * x, self.frame.scale * y))
            .collect();
        // SAFETY: the body is live; the points outlive the call.
        unsafe {
            let mut def = b2DefaultChainDef();
            def.points = points.as_ptr();
            def.count = points.len() as i32;
            def.isLoop = looped;
            b2CreateChain(body, &def);
        }
    }

    /// Step `steps` times at 60 Hz, capturing every step.
    fn run(&mut self, steps: usize) -> Vec<u8> {
        let dt = 1.0 / 60.0;
        let writer = CaptureWriter::new(
            Vec::new(),
            &header(4, dt, self.recycling),
            NormalFrom::AToB,
            Penetration::NegativeSeparation,
        )
        .unwrap();
        let mut capture = Box2dCapture::new(writer);
        for (body, name) in &self.names {
            capture.name(*body, name.clone());
        }
        for step in 0..steps {
            capture.before_step(&self.bodies).unwrap();
            // SAFETY: the world is live.
            unsafe { b2World_Step(self.id, dt as f32, 4) };
            capture.after_step(step as f64 * dt, &self.bodies).unwrap();
        }
        capture.finish().unwrap()
    }
}

impl World {
    /// [`Self::run`], with Box2D recording the world from before the first step
    /// (`b2World_StartRecording`): the capture written live and the recording's bytes.
    fn run_recorded(&mut self, steps: usize) -> (Vec<u8>, Vec<u8>) {
        self.run_recorded_after(|_| {}, steps)
    }

    /// [`Self::run_recorded`], the recording started before `make` adds to the world (as a
    /// game that records its world as soon as it creates it).
    fn run_recorded_after(
        &mut self,
        make: impl FnOnce(&mut Self),
        steps: usize,
    ) -> (Vec<u8>, Vec<u8>) {
        // SAFETY: a fresh recording buffer for a live world, read after recording stops and
        // destroyed once.
        unsafe {
            let recording = b2CreateRecording(0);
            b2World_StartRecording(self.id, recording);
            make(self);
            let live = self.run(steps);
            b2World_StopRecording(self.id);
            let bytes = std::slice::from_raw_parts(
                b2Recording_GetData(recording),
                b2Recording_GetSize(recording) as usize,
            )
            .to_vec();
            b2DestroyRecording(recording);
            (live, bytes)
        }
    }
}

impl Drop for World {
    fn drop(&mut self) {
        // SAFETY: the world is live and dropped once.
        unsafe { b2DestroyWorld(self.id) };
    }
}

/// How a capture's claims were judged.
#[derive(Debug, Default)]
struct Tally {
    claims: usize,
    agreeing: usize,
    intersecting: usize,
    by_cause: BTreeMap<String, usize>,
    worst: Vec<String>,
}

fn judge(capture: Vec<u8>) -> Tally {
    let mut reader =
        CaptureReader::new("box2d.capture.jsonl".as_ref(), Cursor::new(capture)).unwrap();
    let mut tally = Tally::default();
    while let Some(frame) = reader.next_frame().unwrap() {
        for c in judge_frame(&reader, &frame).claims {
            tally.claims += 1;
            tally.intersecting += usize::from(c.claimed.intersecting);
            if c.agrees() {
                tally.agreeing += 1;
                continue;
            }
            for m in &c.causes().collect::<Vec<_>>() {
                *tally.by_cause.entry(m.name().to_string()).or_default() += 1;
            }
            if c.causes().collect::<Vec<_>>().is_empty() {
                *tally.by_cause.entry("none".into()).or_default() += 1;
            }
            if tally.worst.len() < 5 {
                tally
                    .worst
                    .push(format!("frame {}: {}", frame.frame, c.lines().join(" | ")));
            }
        }
    }
    tally
}

type Scene = fn(&mut World) -> usize;

fn ramp(w: &mut World) -> usize {
    w.boxed(b2BodyType_b2_staticBody, 0.0, -0.5, 0.0, 20.0, 0.5);
    w.boxed(b2BodyType_b2_staticBody, -4.0, 3.0, -0.4, 6.0, 0.25);
    for i in 0..5 {
        w.boxed(
            b2BodyType_b2_dynamicBody,
            -8.0 + 1.3 * i as f64,
            6.5 - 0.5 * i as f64,
            -0.4,
            0.5,
            0.5,
        );
    }
    240
}

fn pyramid(w: &mut World) -> usize {
    w.boxed(b2BodyType_b2_staticBody, 0.0, -0.5, 0.0, 20.0, 0.5);
    let rows = 6;
    for row in 0..rows {
        for i in 0..rows - row {
            let x = (i as f64 - (rows - row) as f64 / 2.0) * 1.05 + 0.5;
            w.boxed(
                b2BodyType_b2_dynamicBody,
                x,
                0.5 + row as f64 * 1.0,
                0.0,
                0.5,
                0.5,
            );
        }
    }
    180
}

fn bowl(w: &mut World) -> usize {
    // Right to left along the bottom, so each piece's front (its right) faces in and up.
    let points: Vec<(f64, f64)> = (0..=16)
        .map(|k| {
            let t = std::f64::consts::PI * (k as f64 / 16.0);
            (6.0 * t.cos(), 6.0 - 6.0 * t.sin())
        })
        .collect();
    w.chain(&points);
    for i in 0..4 {
        w.capsule(
            -2.0 + 1.3 * i as f64,
            5.0 + i as f64,
            0.3 * i as f64,
            0.5,
            0.25,
        );
        w.ball(
            -1.5 + 1.1 * i as f64,
            7.0 + i as f64,
            0.3,
            false,
            (0.0, 0.0),
        );
    }
    240
}

fn bullet(w: &mut World) -> usize {
    w.boxed(b2BodyType_b2_staticBody, 0.0, -0.5, 0.0, 20.0, 0.5);
    w.boxed(b2BodyType_b2_staticBody, 8.0, 2.0, 0.0, 0.1, 2.0);
    w.ball(-5.0, 1.0, 0.1, true, (120.0, 0.0));
    60
}

const SCENES: [(&str, Scene); 4] = [
    ("ramp", ramp),
    ("pyramid", pyramid),
    ("bowl", bowl),
    ("bullet", bullet),
];
const ORIGIN: Frame = Frame {
    scale: 1.0,
    offset: 0.0,
};
const PIXELS: Frame = Frame {
    scale: 32.0,
    offset: 500.0,
};

/// Box2D's world registry and length unit are process-wide: one test at a time.
static BOX2D: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn capture(scene: Scene, frame: Frame, recycling: bool) -> Vec<u8> {
    let mut world = World::new(frame, recycling);
    let steps = scene(&mut world);
    world.run(steps)
}

/// One test for every honest run: with contact recycling off, Box2D's every claim agrees at f32.
#[test]
fn honest_box2d_runs_agree_claim_for_claim_at_f32() {
    let _box2d = BOX2D.lock().unwrap_or_else(|e| e.into_inner());
    let mut report = Vec::new();
    for frame in [ORIGIN, PIXELS] {
        for (name, scene) in SCENES {
            let honest = judge(capture(scene, frame, false));
            report.push(format!("{name} x{}: {honest:?}", frame.scale));
            assert!(
                honest.intersecting > 0,
                "{name}: no contact at all: {honest:?}"
            );
            assert_eq!(
                honest.agreeing, honest.claims,
                "{name} at scale {}: {honest:#?}",
                frame.scale
            );
        }
    }
    // SAFETY: back to Box2D's default for any later world.
    unsafe { b2SetLengthUnitsPerMeter(1.0) };
    println!("{}", report.join("\n"));
}

/// With recycling on (Box2D's default), contacts reused from the step before disagree; those
/// reused unchanged are named `previous-poses`. (Box2D moves a recycled contact's separation
/// by the bodies' relative motion, so most recycled contacts match neither frame exactly.)
#[test]
fn recycled_contacts_disagree_and_stale_ones_are_named_previous_poses() {
    let _box2d = BOX2D.lock().unwrap_or_else(|e| e.into_inner());
    for frame in [ORIGIN, PIXELS] {
        let recycled = judge(capture(bowl, frame, true));
        println!("bowl, recycling on, x{}: {recycled:?}", frame.scale);
        assert!(recycled.agreeing < recycled.claims, "{recycled:#?}");
        assert!(
            recycled
                .by_cause
                .get("previous-poses")
                .copied()
                .unwrap_or(0)
                > 0,
            "{recycled:#?}"
        );
    }
    // SAFETY: back to Box2D's default for any later world.
    unsafe { b2SetLengthUnitsPerMeter(1.0) };
}

/// Rewrite every claim of `capture` with `change` (given the reader at that frame and the
/// claim as JSON), as a buggy engine would have reported it.
fn tampered(
    capture: &[u8],
    mut change: impl FnMut(&CaptureReader, &mut serde_json::Value),
) -> Vec<u8> {
    let text = String::from_utf8(capture.to_vec()).unwrap();
    let mut reader = CaptureReader::new(
        "box2d.capture.jsonl".as_ref(),
        Cursor::new(capture.to_vec()),
    )
    .unwrap();
    let mut lines = text.lines();
    let mut out = format!("{}\n", lines.next().unwrap());
    for line in lines {
        reader.next_frame().unwrap().unwrap();
        let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
        if let Some(claims) = value.get_mut("claims").and_then(|c| c.as_array_mut()) {
            for claim in claims {
                change(&reader, claim);
            }
        }
        out.push_str(&value.to_string());
        out.push('\n');
    }
    out.into_bytes()
}

/// Every claim that disagrees is reproduced by `cause` (and there are some).
fn all_named(tally: &Tally, cause: &str) {
    let differing = tally.claims - tally.agreeing;
    assert!(differing > 0, "{tally:#?}");
    assert_eq!(
        tally.by_cause.get(cause).copied(),
        Some(differing),
        "{tally:#?}"
    );
}

#[test]
fn injected_mistakes_are_named() {
    let _box2d = BOX2D.lock().unwrap_or_else(|e| e.into_inner());
    let ramp_run = capture(ramp, ORIGIN, false);
    let pyramid_run = capture(pyramid, ORIGIN, false);
    // The pair order (or sign convention) swapped: every normal turned round.
    let reversed = judge(tampered(&ramp_run, |_, claim| {
        if let Some(n) = claim.get_mut("normal").and_then(|n| n.as_array_mut()) {
            for x in n.iter_mut() {
                *x = (-x.as_f64().unwrap()).into();
            }
        }
    }));
    all_named(&reversed, "normal-reversed");
    // Contacts shallower than 1e-4 dropped (reported apart).
    let shallow = judge(tampered(&pyramid_run, |_, claim| {
        if claim["depth"].as_f64().is_some_and(|d| d < 1e-4) {
            *claim = serde_json::json!({"a": claim["a"], "b": claim["b"], "intersecting": false});
        }
    }));
    all_named(&shallow, "shallow-ignored");
    // The tutorial's rule: the smallest overlap wins, its axis taken as it comes.
    let naive = judge(tampered(&ramp_run, |reader, claim| {
        let id = |key: &str| claim[key].as_u64().unwrap();
        let (a, b) = (
            reader.shape(id("a")).unwrap(),
            reader.shape(id("b")).unwrap(),
        );
        let o = mistaken_outcome(Mistake::NaiveSmallestOverlap, &a.placed, &b.placed);
        *claim = match o.normal.filter(|_| o.intersecting) {
            Some(n) => {
                serde_json::json!({"a": claim["a"], "b": claim["b"], "intersecting": true, "depth": o.depth, "normal": [n.x, n.y]})
            }
            None => serde_json::json!({"a": claim["a"], "b": claim["b"], "intersecting": false}),
        };
    }));
    assert!(
        naive
            .by_cause
            .get("naive-smallest-overlap")
            .copied()
            .unwrap_or(0)
            > 0,
        "{naive:#?}"
    );
    assert_eq!(naive.by_cause.get("none"), None, "{naive:#?}");
    println!("reversed: {reversed:?}\nshallow: {shallow:?}\nnaive: {naive:?}");
}

/// What went wrong over time in a capture: its events, in order.
fn events(capture: Vec<u8>) -> Vec<collidoscope::capture::CaptureEvent> {
    let mut reader =
        CaptureReader::new("box2d.capture.jsonl".as_ref(), Cursor::new(capture)).unwrap();
    let mut finder = collidoscope::capture::EventFinder::for_capture(reader.header());
    let mut out = Vec::new();
    while let Some(frame) = reader.next_frame().unwrap() {
        let judged = judge_frame(&reader, &frame);
        out.extend(finder.frame(&reader, &frame, &judged));
    }
    out.extend(finder.finish());
    out
}

fn said(events: &[collidoscope::capture::CaptureEvent]) -> String {
    events
        .iter()
        .map(|e| collidoscope::capture::words::capture_event(e, None))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The floor under the crate: twelve separate 1 m box tiles, one box, or one chain loop round
/// the same 12 m by 1 m.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Floor {
    Tiles,
    OneBox,
    Chain,
}

/// Twelve separate 1 m box tiles named tile1 to tile12, their tops at y = 0, from x = -6 to 6.
fn tiles(w: &mut World) {
    for k in 0..12 {
        let tile = w.boxed(
            b2BodyType_b2_staticBody,
            -5.5 + k as f64,
            -0.5,
            0.0,
            0.5,
            0.5,
        );
        w.names.push((tile, format!("tile{}", k + 1)));
    }
}

/// A floor from x = -6 to 6, its top at y = 0; a crate sliding along it at 7 m/s; a ball
/// rolling down a ramp onto it.
fn floor_game(w: &mut World, floor: Floor) {
    match floor {
        Floor::Tiles => tiles(w),
        Floor::OneBox => {
            let floor = w.boxed(b2BodyType_b2_staticBody, 0.0, -0.5, 0.0, 6.0, 0.5);
            w.names.push((floor, "floor".into()));
        }
        Floor::Chain => w.chain_made(&[(-6.0, -1.0), (6.0, -1.0), (6.0, 0.0), (-6.0, 0.0)], true),
    }
    let ramp = w.boxed(b2BodyType_b2_staticBody, 3.5, 1.2, 0.5, 1.5, 0.1);
    w.names.push((ramp, "ramp".into()));
    let crate_body = w.boxed(b2BodyType_b2_dynamicBody, -5.5, 0.25, 0.0, 0.25, 0.25);
    // SAFETY: the body is live.
    unsafe { b2Body_SetLinearVelocity(crate_body, v(7.0 * w.frame.scale, 0.0)) };
    w.names.push((crate_body, "crate".into()));
    w.ball(4.6, 2.2, 0.2, false, (0.0, 0.0));
    let ball = *w.bodies.last().unwrap();
    w.names.push((ball, "ball".into()));
}

/// The crate catches on the seam between tile3 and tile4 at frame 23 (measured: 4.70 to
/// 1.69 m/s), at the origin and at 32 units a metre, then tips on tile4's corner (24-26); the
/// ball rolling back over the tiles is bumped on two of their shared corners in the 120 frames,
/// caught once on each (1.77 to 0.86 m/s into the corner at (1, 0)): seams at corners (docs/format.md, "A seam
/// at a corner"). On one floor box, or on one chain loop round the same floor, nothing happens.
#[test]
fn a_crate_on_separate_box2d_tiles_catches_on_a_seam_and_on_one_box_or_chain_does_not() {
    let _box2d = BOX2D.lock().unwrap_or_else(|e| e.into_inner());
    for frame in [ORIGIN, PIXELS] {
        let mut world = World::new(frame, false);
        floor_game(&mut world, Floor::Tiles);
        let capture = world.run(120);
        let tally = judge(capture.clone());
        assert_eq!(tally.agreeing, tally.claims, "{tally:#?}");
        let found = events(capture);
        let words = said(&found);
        let name_of = |e: &collidoscope::capture::CaptureEvent, id: Option<u64>| {
            e.names[&id.unwrap()].clone()
        };
        let corners: Vec<(u64, String, bool)> = found
            .iter()
            .filter(|e| e.seam().and_then(|s| s.corner).map(|c| c.corner).is_some())
            .map(|e| {
                (
                    e.frame(),
                    name_of(e, e.shape()),
                    e.seam().map(|s| s.caught) == Some(true),
                )
            })
            .collect();
        assert_eq!(corners.len(), 9, "{words}");
        assert_eq!(
            corners
                .iter()
                .filter(|(_, shape, caught)| shape == "ball" && *caught)
                .count(),
            2,
            "{words}"
        );
        assert!(found.iter().all(|e| e.kind() == EventKind::Seam), "{words}");
        let e = &found[0];
        assert_eq!((e.kind(), e.frame()), (EventKind::Seam, 23), "{words}");
        let name = |id: Option<u64>| e.names[&id.unwrap()].clone();
        assert_eq!(
            (
                name(e.shape()),
                name(e.seam().map(|s| s.face_of)),
                name(e.seam().map(|s| s.covered_by))
            ),
            ("crate".into(), "tile4".into(), "tile3".into())
        );
        assert_eq!(e.seam().map(|s| s.caught), Some(true));
        let (before, after) = (
            e.seam().map(|s| s.speed_before).unwrap() / frame.scale,
            e.seam().map(|s| s.speed_after).unwrap() / frame.scale,
        );
        assert!((before - 4.7001).abs() < 1e-3, "{words}");
        assert!((after - 1.6917).abs() < 1e-3, "{words}");
        // The impulse that stopped it (docs/format.md, "Impulses"): Box2D's with the seam's
        // contact over that step (0.654 and 0.0065 at its two points), about the momentum the
        // crate lost, m (v0 - v1) with m = 0.25 kg: 0.66 of 0.75, the rest the friction of the
        // tile under it (its normal impulse 0.169 that step, times Box2D's 0.6). In metres only:
        // at 32 units a metre Box2D's mass and impulse are in its own units.
        let impulse = e
            .seam()
            .and_then(|s| s.impulse)
            .expect("the seam's impulse");
        assert!(words.contains("under an impulse of"), "{words}");
        if frame.scale == 1.0 {
            let lost = 0.25 * (before - after);
            assert!(
                (impulse - lost).abs() < 0.15 * lost,
                "{impulse} against {lost}: {words}"
            );
        }
        for floor in [Floor::OneBox, Floor::Chain] {
            let mut world = World::new(frame, false);
            floor_game(&mut world, floor);
            let found = events(world.run(120));
            assert!(found.is_empty(), "{floor:?}: {}", said(&found));
        }
    }
    // SAFETY: back to Box2D's default for any later world.
    unsafe { b2SetLengthUnitsPerMeter(1.0) };
}

/// A rounded crate (`b2MakeRoundedBox(0.2, 0.2, 0.05)`, as games make crates that slide over
/// seams) sliding at 3 m/s over twelve separate tiles: the adapter keeps its radius (shape-set
/// version 4), every claim agrees at f32, live and from the `.b2rec` recording replayed, and
/// where its rounded corner meets the shared corner of two tiles the bump is named, a seam at
/// the corner (it rides over: not caught).
#[test]
fn a_rounded_crate_on_separate_box2d_tiles_bumps_on_a_corner() {
    use box2d_capture::replay::replay;
    let _box2d = BOX2D.lock().unwrap_or_else(|e| e.into_inner());
    let make = |w: &mut World| {
        tiles(w);
        let body = w.body(b2BodyType_b2_dynamicBody, -5.5, 0.25, 0.0, false);
        // SAFETY: the body is live.
        unsafe {
            let shape = b2DefaultShapeDef();
            let polygon = b2MakeRoundedBox(0.2, 0.2, 0.05);
            b2CreatePolygonShape(body, &shape, &polygon);
            b2Body_SetLinearVelocity(body, v(3.0, 0.0));
        }
        w.names.push((body, "rounded crate".into()));
    };
    let mut world = World::new(ORIGIN, false);
    let (live, recording) = world.run_recorded_after(make, 120);
    let (_, replayed) = replay(&recording, Vec::new(), false, |_, _| {}).unwrap();
    for (what, capture) in [("live", live), ("replayed", replayed)] {
        let text = String::from_utf8_lossy(&capture).to_string();
        assert!(
            text.contains("\"radius\":0.05000000074505806"),
            "{what}: the radius is kept"
        );
        let tally = judge(capture.clone());
        assert_eq!(tally.agreeing, tally.claims, "{what}: {tally:#?}");
        assert!(tally.claims > 100, "{what}: {tally:?}");
        let found = events(capture);
        let words = said(&found);
        let corners: Vec<_> = found
            .iter()
            .filter(|e| e.seam().and_then(|s| s.corner).map(|c| c.corner).is_some())
            .collect();
        assert!(
            !corners.is_empty(),
            "{what}: the bump at a seam is named: {words}"
        );
        // Measured: at frame 6 the crate's rounded corner meets the corner between tile1 and
        // tile2, the normal leaning 32.044 degrees back from the floor's; it rides on.
        assert_eq!(corners[0].frame(), 6, "{what}: {words}");
        assert_eq!(
            corners[0].seam().and_then(|s| s.corner).map(|c| c.corner),
            Some(collidoscope::geometry::DVec2::new(-5.0, 0.0))
        );
        assert!(words.contains("leans 32.044 degrees"), "{what}: {words}");
        assert!(
            found.iter().all(|e| e.kind() == EventKind::Seam),
            "{what}: {words}"
        );
        println!("{what}: {} claims agree; {words}", tally.claims);
    }
}

/// With continuous collision off, the bullet goes from x = 1.3 to 3.3 through the wall at 3
/// with no contact: `tunnelled` at frame 1, touching at 0.8 of the step (its front at the
/// wall's near face, x = 2.95, from x = 2.9), as deep as the wall is thick; with it on, Box2D
/// stops it: no event.
#[test]
fn a_box2d_bullet_tunnels_through_a_thin_wall_only_without_continuous_collision() {
    let _box2d = BOX2D.lock().unwrap_or_else(|e| e.into_inner());
    for frame in [ORIGIN, PIXELS] {
        let mut world = World::continuous(frame, false, false);
        w_bullet(&mut world);
        let found = events(world.run(30));
        let words = said(&found);
        assert_eq!(found.len(), 1, "{words}");
        let e = &found[0];
        assert_eq!((e.kind(), e.frame()), (EventKind::Tunnelled, 1), "{words}");
        assert_eq!(e.names[&e.shape().unwrap()], "bullet");
        let What::Tunnelled {
            through: Through::Step { t, depth },
            ..
        } = e.what
        else {
            panic!("{e:?}")
        };
        assert!((t - 0.8).abs() < 1e-4, "{words}");
        assert!((depth / frame.scale - 0.1).abs() < 1e-4, "{words}");
        assert!(words.contains("bullet tunnelled through wall"), "{words}");
        let mut world = World::continuous(frame, false, true);
        w_bullet(&mut world);
        let found = events(world.run(30));
        assert!(found.is_empty(), "{}", said(&found));
    }
    // SAFETY: back to Box2D's default for any later world.
    unsafe { b2SetLengthUnitsPerMeter(1.0) };
}

/// With contact recycling on (Box2D's default), the ball's contact with the ramp is recycled
/// while it rolls: stale at frame 7 (one frame old), then older (2, 3, 6, 13 frames, measured);
/// the crate's seam is still named.
#[test]
fn box2d_recycled_contacts_are_stale_with_their_age() {
    let _box2d = BOX2D.lock().unwrap_or_else(|e| e.into_inner());
    let mut world = World::new(ORIGIN, true);
    floor_game(&mut world, Floor::Tiles);
    let found = events(world.run(120));
    let words = said(&found);
    let stale: Vec<(u64, u64)> = found
        .iter()
        .filter(|e| e.kind() == EventKind::Stale)
        .map(|e| (e.frame(), e.age().unwrap()))
        .collect();
    println!("{words}");
    assert_eq!(stale[..3], [(7, 1), (8, 2), (9, 3)], "{words}");
    assert!(
        found
            .iter()
            .filter(|e| e.kind() == EventKind::Stale)
            .all(|e| e.names.values().any(|n| n == "ball")
                && e.names.values().any(|n| n == "ramp")),
        "{words}"
    );
    assert!(
        words.contains("the contact of ramp and ball is stale"),
        "{words}"
    );
    // The crate's catch on tile4's face; the rest are bumps on the tiles' corners.
    let seams = |at: collidoscope::motion::SeamAt| {
        found
            .iter()
            .filter(|e| e.kind() == EventKind::Seam && e.seam().map(|s| s.at()) == Some(at))
            .count()
    };
    assert_eq!(seams(collidoscope::motion::SeamAt::Face), 1, "{words}");
    assert!(seams(collidoscope::motion::SeamAt::Corner) > 0, "{words}");
}

/// A 5 cm bullet at 120 m/s (2 m a step) at a 10 cm wall at x = 3, no gravity.
fn w_bullet(w: &mut World) {
    let wall = w.boxed(b2BodyType_b2_staticBody, 3.0, 2.0, 0.0, 0.05, 2.0);
    w.names.push((wall, "wall".into()));
    w.ball(-0.7, 1.0, 0.05, false, (120.0, 0.0));
    let bullet = *w.bodies.last().unwrap();
    w.names.push((bullet, "bullet".into()));
    // SAFETY: the body is live.
    unsafe { b2Body_SetGravityScale(bullet, 0.0) };
}

/// A Box2D world built from a shape set (in its own units, `units` of them a metre): its
/// static polygons as static polygon shapes, its chains as Box2D chains (loops as loops,
/// points in the world), its dynamic boxes and balls as dynamic bodies with their velocity and
/// no friction (so only a seam slows them).
fn box2d_world_of(scene: &collidoscope::scene::Scene, units: f64) -> World {
    use collidoscope::geometry::Shape;
    use collidoscope::scene::Body;
    let frame = Frame {
        scale: units,
        offset: 0.0,
    };
    let mut w = World::new(frame, false);
    // SAFETY: the world is live.
    unsafe {
        let g = scene.gravity.unwrap_or_default();
        b2World_SetGravity(w.id, v(g.x, g.y));
    }
    for s in &scene.shapes {
        let pose = s.placed.pose;
        let kind = match s.motion.body {
            Body::Dynamic => b2BodyType_b2_dynamicBody,
            Body::Kinematic => b2BodyType_b2_kinematicBody,
            Body::Static => b2BodyType_b2_staticBody,
        };
        let at = |p: collidoscope::geometry::DVec2| v(p.x, p.y);
        // SAFETY: creating bodies and shapes in the live world; the points outlive each call.
        let body = unsafe {
            let mut def = b2DefaultBodyDef();
            def.type_ = kind;
            def.position = at(pose.position);
            def.rotation = rot(pose.angle());
            def.enableContactRecycling = false;
            def.linearVelocity = at(s.motion.velocity);
            let body = b2CreateBody(w.id, &def);
            let mut shape = b2DefaultShapeDef();
            shape.material.friction = 0.0;
            match &s.placed.shape {
                Shape::Polygon(p) => {
                    let points: Vec<b2Vec2> = p.points().iter().map(|q| at(*q)).collect();
                    let hull = b2ComputeHull(points.as_ptr(), points.len() as i32);
                    let polygon = b2MakePolygon(&hull, 0.0);
                    b2CreatePolygonShape(body, &shape, &polygon);
                }
                Shape::Circle(c) => {
                    let circle = b2Circle {
                        center: v(0.0, 0.0),
                        radius: c.radius() as f32,
                    };
                    b2CreateCircleShape(body, &shape, &circle);
                }
                Shape::Chain(c) => {
                    let points: Vec<b2Vec2> =
                        c.points().iter().map(|q| at(pose.apply(*q))).collect();
                    let mut def = b2DefaultChainDef();
                    def.points = points.as_ptr();
                    def.count = points.len() as i32;
                    def.isLoop = c.is_loop();
                    b2CreateChain(body, &def);
                }
                other => panic!("not in the room: {other:?}"),
            }
            body
        };
        w.bodies.push(body);
        if let Some(name) = &s.name {
            w.names.push((body, name.clone()));
        }
    }
    w
}

/// The Godot test room (tests/levels/godot/room, 73 tiles of 32 px) in Box2D at 32 px a metre:
/// a 24 x 32 box resting on the floor slides left at 60 px/s with no friction. On the
/// separate tiles it catches on a seam; after `import --merge` (the tiles become chains
/// along their outline) it slides on with no event at all.
#[test]
fn box2d_on_the_godot_room_catches_on_a_seam_until_its_tiles_are_merged() {
    use collidoscope::geometry::{ConvexPolygon, DVec2, Placed, Pose};
    use collidoscope::import::{Convert, import, merge};
    use collidoscope::scene::{Body, Motion, SceneShape};
    let _box2d = BOX2D.lock().unwrap_or_else(|e| e.into_inner());
    let room = std::path::Path::new("tests/levels/godot/room/room.tscn");
    let tiles = import(room, Convert { scale: 1.0 }, false).unwrap().scene;
    for merged in [false, true] {
        let mut scene = if merged {
            merge(&tiles, None).scene
        } else {
            tiles.clone()
        };
        scene.gravity = Some(DVec2::new(0.0, -320.0));
        // The floor's top is y = -352; the box's bottom on it.
        let mut crate_box = SceneShape::named(
            "box",
            Placed::new(
                ConvexPolygon::rectangle(DVec2::new(12.0, 16.0)).unwrap(),
                Pose::at(DVec2::new(300.0, -352.0 + 16.0)),
            ),
        );
        crate_box.motion = Motion {
            body: Body::Dynamic,
            velocity: DVec2::new(-60.0, 0.0),
            angular_velocity: 0.0,
        };
        scene.add(crate_box);
        let mut world = box2d_world_of(&scene, 32.0);
        let capture = world.run(240);
        let tally = judge(capture.clone());
        assert_eq!(tally.agreeing, tally.claims, "{tally:#?}");
        let found = events(capture);
        let words = said(&found);
        println!("merged {merged}: {words}");
        if merged {
            assert!(found.is_empty(), "{words}");
            continue;
        }
        // Measured: at frame 32 the box meets the right face of tile [7,11], which [8,11]
        // covers, and drops from 60 to 25.1 px/s; later seams slow it again.
        let e = &found[0];
        assert_eq!(
            (e.kind(), e.frame(), e.seam().map(|s| s.caught)),
            (EventKind::Seam, 32, Some(true))
        );
        let name = |id: Option<u64>| e.names[&id.unwrap()].clone();
        assert_eq!(name(e.shape()), "box");
        assert!(
            name(e.seam().map(|s| s.face_of)).starts_with("Walls[7,11]"),
            "{words}"
        );
        assert!(
            name(e.seam().map(|s| s.covered_by)).starts_with("Walls[8,11]"),
            "{words}"
        );
        assert!(
            (e.seam().map(|s| s.speed_before).unwrap() - 60.0).abs() < 0.01,
            "{words}"
        );
        assert!(
            (e.seam().map(|s| s.speed_after).unwrap() - 25.13).abs() < 0.01,
            "{words}"
        );
    }
    // SAFETY: back to Box2D's default for any later world.
    unsafe { b2SetLengthUnitsPerMeter(1.0) };
}

/// A crate pressed into the floor near the end of a chain's piece, as a fixture: the chain's
/// points run right to left (Box2D's chain normals point right of the run, so up), the crate
/// turned -0.3 rad.
fn chain_and_crate_fixture(x: f64) -> String {
    let text = format!(
        r#"{{"format": "collidoscope-shapes", "version": 3, "shapes": [
            {{"name": "floor", "kind": "chain", "points": [[5, 0], [2, 0], [0, 0], [-3, 0]]}},
            {{"name": "crate", "kind": "polygon", "position": [{x}, 0.45], "angle": -0.3,
              "points": [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]}}]}}"#
    );
    let scene = collidoscope::scene::parse(std::path::Path::new("case.json"), text.as_bytes())
        .expect("the case reads");
    collidoscope::scene::to_json(&collidoscope::fixture::make(&scene, None))
}

#[test]
fn a_box2d_engine_fixture_fails_where_box2d_clips_a_chain_contact_and_passes_where_it_agrees() {
    use collidoscope::fixture::{FixtureError, verify_engine};
    let engine = box2d_capture::Box2dNarrowPhase;
    // The crate's deepest corner over the piece from x = 0 to 2: Box2D's manifold agrees at f32.
    assert_eq!(verify_engine(&chain_and_crate_fixture(1.5), &engine), Ok(1));
    // Its deepest corner past the piece's end at x = 2 (over the next piece): Box2D measures
    // the contact at the points clipped to the piece, shallower than the crate's push (the
    // `clipped` difference docs/format.md names).
    let Err(FixtureError::Disagreed(v)) = verify_engine(&chain_and_crate_fixture(2.0), &engine)
    else {
        panic!("Box2D disagrees on the clipped contact")
    };
    assert_eq!((v.pairs, v.drifts.len(), v.disagreements.len()), (1, 0, 1));
    let d = &v.disagreements[0];
    assert_eq!((d.pair, d.claimed.piece), ((0, 1), Some(1)));
    let check = d.check.as_ref().expect("Box2D takes the pair");
    let (claimed, exact) = (d.claimed.depth.unwrap(), check.exact.depth);
    assert!(claimed < exact - 0.05, "Box2D {claimed}, exact {exact}");
    let message = FixtureError::Disagreed(v.clone()).to_string();
    assert!(
        message.starts_with("1 engine answer(s) about 1 pinned pair(s) disagree"),
        "{message}"
    );
    assert!(
        message.contains("pair floor / crate (0 1) piece 1: Box2D 3."),
        "{message}"
    );
    assert!(message.contains("(b2Collide*) disagrees"), "{message}");
}

/// Every frame of a capture: its number, time, each shape (id, geometry at its pose, motion)
/// and its claims; names left out (those given through `Box2dCapture::name` are not Box2D's,
/// and a recording keeps only Box2D's own, `b2Body_SetName`).
fn frames_of(capture: &[u8]) -> Vec<(u64, f64, Vec<String>, Vec<FrameClaim>)> {
    let mut reader =
        CaptureReader::new("c.capture.jsonl".as_ref(), Cursor::new(capture.to_vec())).unwrap();
    let mut frames = Vec::new();
    while let Some(frame) = reader.next_frame().unwrap() {
        let mut shapes: Vec<String> = reader
            .shapes()
            .map(|s| format!("{} {:?} {:?}", s.id, s.placed, s.motion))
            .collect();
        shapes.sort();
        frames.push((frame.frame, frame.time, shapes, frame.claims));
    }
    frames
}

/// Over time (docs/format.md, "Impulses"): a crate resting on a floor box is held up by
/// the solver's normal impulses, written on its claim one per contact point. Once it has
/// settled (and until it sleeps), they add up each step to its weight times the step (m g dt: 0.25 kg at 10 m/s^2
/// over 1/60 s), and every claim still agrees.
#[test]
fn a_resting_box2d_crate_is_held_up_by_the_impulses_on_its_claims() {
    let _box2d = BOX2D.lock().unwrap_or_else(|e| e.into_inner());
    let mut world = World::new(ORIGIN, false);
    world.boxed(b2BodyType_b2_staticBody, 0.0, -0.5, 0.0, 6.0, 0.5);
    world.boxed(b2BodyType_b2_dynamicBody, 0.0, 0.26, 0.0, 0.25, 0.25);
    let capture = world.run(90);
    let tally = judge(capture.clone());
    assert_eq!(tally.agreeing, tally.claims, "{tally:#?}");
    let weight = 0.25 * 10.0 / 60.0;
    let frames = frames_of(&capture);
    // Box2D puts it to sleep after half a second (its claims then left out): frames 10 to 27.
    for (frame, _, _, claims) in &frames[10..28] {
        assert_eq!(claims.len(), 1, "frame {frame}: {claims:?}");
        let reported = &claims[0].reported;
        let impulses = reported
            .impulses
            .as_ref()
            .unwrap_or_else(|| panic!("frame {frame}: no impulses on {reported:?}"));
        assert_eq!(
            Some(impulses.len()),
            reported.contacts.as_ref().map(Vec::len)
        );
        assert!(
            impulses.iter().all(|j| *j > 0.0),
            "frame {frame}: {impulses:?}"
        );
        let total: f64 = impulses.iter().sum();
        assert!(
            (total - weight).abs() < 0.01 * weight,
            "frame {frame}: {total} against m g dt = {weight}"
        );
    }
}

/// A C game records its world with Box2D's own calls; `import` replays the recording with
/// Box2D and writes the capture the game would have written: the tile floor and the bullet,
/// frame for frame the same shapes, poses, velocities and claims as the capture written live
/// (names aside), every claim agreeing, and the same seam and tunnel named.
#[test]
fn a_box2d_recording_replayed_gives_the_live_capture_frame_for_frame() {
    use box2d_capture::replay::replay;
    let _box2d = BOX2D.lock().unwrap_or_else(|e| e.into_inner());
    let mut tiles = World::new(ORIGIN, false);
    floor_game(&mut tiles, Floor::Tiles);
    let mut bullet = World::continuous(ORIGIN, false, false);
    w_bullet(&mut bullet);
    for (mut world, steps, kind) in [
        (tiles, 120, EventKind::Seam),
        (bullet, 30, EventKind::Tunnelled),
    ] {
        let (live, recording) = world.run_recorded(steps);
        let mut seen = Vec::new();
        let (replayed, capture) =
            replay(&recording, Vec::new(), false, |k, n| seen.push((k, n))).unwrap();
        assert_eq!(replayed.frames, steps as u64);
        assert_eq!(replayed.dt, f64::from(1.0f32 / 60.0));
        assert_eq!((replayed.substeps, replayed.diverged_at), (4, None));
        assert_eq!(seen.last(), Some(&(steps as u64, steps as u64)));
        let (a, b) = (frames_of(&live), frames_of(&capture));
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.0, y.0);
            // The recording keeps the step in f32.
            assert!(
                (x.1 - y.1).abs() < 1e-6,
                "frame {}: time {} and {}",
                x.0,
                x.1,
                y.1
            );
            assert_eq!((&x.2, &x.3), (&y.2, &y.3), "frame {}", x.0);
        }
        let tally = judge(capture.clone());
        assert_eq!(tally.agreeing, tally.claims, "{tally:#?}");
        // The bullet passes through the wall without a contact.
        assert!(tally.claims > 0 || kind == EventKind::Tunnelled);
        let (live_events, replayed_events) = (events(live), events(capture));
        assert_eq!(
            replayed_events[0].kind(),
            kind,
            "{}",
            said(&replayed_events)
        );
        // The same events (a seam's at corners too), for the same shapes.
        assert_eq!(
            live_events.len(),
            replayed_events.len(),
            "{}",
            said(&replayed_events)
        );
        for (e, f) in live_events.iter().zip(&replayed_events) {
            assert_eq!(
                (
                    f.kind(),
                    f.frame(),
                    f.shape(),
                    f.seam().map(|s| s.face_of),
                    f.seam().and_then(|s| s.corner).map(|c| c.corner)
                ),
                (
                    e.kind(),
                    e.frame(),
                    e.shape(),
                    e.seam().map(|s| s.face_of),
                    e.seam().and_then(|s| s.corner).map(|c| c.corner)
                )
            );
        }
    }
}

/// Two recordings replayed at once on two threads (a tool that replays a folder of them in
/// parallel): each gives the capture it gives replayed alone. Box2D's `b2CreateWorld` takes a
/// slot of its process-wide array of worlds unguarded, so replays make their worlds one at a
/// time (the lock held here keeps this file's other tests' worlds out of the way).
#[test]
fn recordings_replayed_on_two_threads_at_once_each_give_their_own_capture() {
    use box2d_capture::replay::replay;
    let _box2d = BOX2D.lock().unwrap_or_else(|e| e.into_inner());
    let recordings = ["tile-floor.b2rec", "tile-floor-recycling.b2rec"]
        .map(|name| std::fs::read(format!("tests/captures/{name}")).unwrap());
    let alone = |recording: &[u8]| replay(recording, Vec::new(), false, |_, _| {}).unwrap().1;
    let expected = recordings.each_ref().map(|r| alone(r));
    assert_ne!(expected[0], expected[1], "two different runs");
    for round in 0..8 {
        let together = std::thread::scope(|s| {
            let running = recordings.each_ref().map(|r| s.spawn(|| alone(r)));
            running.map(|thread| thread.join().expect("a replay"))
        });
        assert!(
            together == expected,
            "round {round}: a replay differs from itself alone"
        );
    }
}

/// A game that records its world as soon as it creates it, before it makes its bodies (as
/// examples/box2d_recording.rs does): the replay's first frame is frame 0, the world as the
/// first step found it (the bodies made, the crate already sliding), and the whole replay is
/// frame for frame the capture written live; `frames` counts the frames written.
#[test]
fn a_recording_begun_before_the_bodies_were_made_keeps_its_first_step() {
    use box2d_capture::replay::replay;
    let _box2d = BOX2D.lock().unwrap_or_else(|e| e.into_inner());
    let steps = 40;
    let mut world = World::new(ORIGIN, false);
    let (live, recording) = world.run_recorded_after(|w| floor_game(w, Floor::Tiles), steps);
    let (replayed, capture) = replay(&recording, Vec::new(), false, |_, _| {}).unwrap();
    let (a, b) = (frames_of(&live), frames_of(&capture));
    assert_eq!(a.len(), steps);
    assert_eq!(b.first().map(|f| f.0), Some(0), "the capture's first frame");
    assert_eq!(
        (replayed.frames, b.len() as u64),
        (steps as u64, steps as u64)
    );
    // Frame 0 holds the crate's first contacts with the tiles.
    assert!(!b[0].3.is_empty());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.0, y.0);
        assert!((x.1 - y.1).abs() < 1e-6, "frame {}", x.0);
        assert_eq!((&x.2, &x.3), (&y.2, &y.3), "frame {}", x.0);
    }
}

/// The same game recorded with Box2D's contact recycling on (its default): Box2D keeps the
/// ball's contact with the ramp while it rolls, its normal and points as computed, its
/// separation moved along the normal (`b2Collide`), so those claims match no frame's exact
/// result. Each is named stale, with how many frames back it was computed: the kept contact of
/// that frame moved to this one's poses (the event carries the kept normal). Measured: 15 of
/// 234 claims disagree; 7 were left as no known mistake before.
#[test]
fn a_recording_with_recycling_on_names_every_recycled_claim_stale() {
    use box2d_capture::replay::replay;
    let _box2d = BOX2D.lock().unwrap_or_else(|e| e.into_inner());
    let mut world = World::new(ORIGIN, true);
    let (_, recording) = world.run_recorded_after(|w| floor_game(w, Floor::Tiles), 120);
    let (_, capture) = replay(&recording, Vec::new(), false, |_, _| {}).unwrap();
    let mut reader = CaptureReader::new(
        "recycled.capture.jsonl".as_ref(),
        Cursor::new(capture.clone()),
    )
    .unwrap();
    let mut differing = Vec::new();
    while let Some(frame) = reader.next_frame().unwrap() {
        for c in judge_frame(&reader, &frame).claims {
            if !c.agrees() {
                differing.push((frame.frame, c.a.min(c.b), c.a.max(c.b)));
            }
        }
    }
    let found = events(capture);
    let stale: BTreeMap<(u64, u64, u64), &collidoscope::capture::CaptureEvent> = found
        .iter()
        .filter(|e| e.kind() == EventKind::Stale)
        .map(|e| ((e.frame(), e.a, e.b), e))
        .collect();
    assert!(differing.len() >= 10, "{differing:?}");
    let unnamed: Vec<_> = differing
        .iter()
        .filter(|c| !stale.contains_key(c))
        .collect();
    assert!(
        unnamed.is_empty(),
        "not named stale: {unnamed:?}\n{}",
        said(&found)
    );
    // Some are the kept contact moved, the normal it kept carried by the event.
    let kept = stale.values().filter(|e| e.what.normal().is_some()).count();
    assert!(kept >= 5, "{}", said(&found));
}

/// A recording in another recording format (here the header says 3.1), a file that is not a
/// recording, and one cut short are refused, each saying why.
#[test]
fn a_recording_of_another_box2d_version_or_damaged_is_refused_by_name() {
    use box2d_capture::replay::replay;
    let _box2d = BOX2D.lock().unwrap_or_else(|e| e.into_inner());
    let mut world = World::continuous(ORIGIN, false, false);
    w_bullet(&mut world);
    let (_, recording) = world.run_recorded(10);
    let refusal = |bytes: &[u8]| match replay(bytes, Vec::new(), false, |_, _| {}) {
        Ok(_) => panic!("refused"),
        Err(e) => e.to_string(),
    };
    let mut older = recording.clone();
    older[6..8].copy_from_slice(&1u16.to_le_bytes());
    let said = refusal(&older);
    assert!(
        said.contains("Box2D's recording format 3.1, and this build replays format 3.2 (Box2D 3.2"),
        "{said}"
    );
    let said = refusal(b"{\"format\": \"collidoscope-shapes\"}");
    assert!(said.contains("it is not a Box2D recording"), "{said}");
    let said = refusal(&recording[..recording.len() / 2]);
    assert!(said.contains("cut short or damaged"), "{said}");
    // Found by fuzzing (fuzz/fuzz_targets/replay_recording.rs): the tile floor's recording with
    // bytes shuffled into a step asking for 16,777,220 sub-steps, which Box2D would run for
    // hours; refused before Box2D runs it.
    let said = refusal(&std::fs::read("tests/captures/fuzz-16m-substeps.b2rec").unwrap());
    assert!(
        said.contains("its step 109 (byte 13600) asks Box2D for 16777220 sub-steps"),
        "{said}"
    );
}

/// The records of a recording Box2D wrote, walked by the size each gives (every record Box2D
/// writes gives the size its player reads): each one's byte offset and opcode.
fn records_of(recording: &[u8]) -> Vec<(usize, u8)> {
    let snapshot = u64::from_le_bytes(recording[24..32].try_into().unwrap()) as usize;
    let (mut at, mut found) = (32 + snapshot, Vec::new());
    while at + 4 <= recording.len() {
        let size = u32::from_le_bytes([recording[at + 1], recording[at + 2], recording[at + 3], 0]);
        found.push((at, recording[at]));
        at += 4 + size as usize;
    }
    found
}

/// Where each step of a recording Box2D wrote begins.
fn steps_of(recording: &[u8]) -> Vec<usize> {
    records_of(recording)
        .into_iter()
        .filter(|(_, opcode)| *opcode == 0x80)
        .map(|(at, _)| at)
        .collect()
}

/// A game that makes every call Box2D records (each world setting, body, shape, chain and
/// joint call, each query) gives a recording the check walks as Box2D's player reads it: each
/// of its 146 kinds of record read whole, to the size it gives (a record read otherwise would
/// refuse a game's own recording), and replayed to its last step.
#[test]
fn a_recording_of_every_call_box2d_records_is_read_as_its_player_reads_it() {
    use box2d_capture::replay::{check_header, replay};
    let _box2d = BOX2D.lock().unwrap_or_else(|e| e.into_inner());
    unsafe extern "C" fn overlap(_: b2ShapeId, _: *mut std::ffi::c_void) -> bool {
        true
    }
    unsafe extern "C" fn cast(
        _: b2ShapeId,
        _: b2Pos,
        _: b2Vec2,
        f: f32,
        _: *mut std::ffi::c_void,
    ) -> f32 {
        f
    }
    unsafe extern "C" fn plane(
        _: b2ShapeId,
        _: *const b2PlaneResult,
        _: *mut std::ffi::c_void,
    ) -> bool {
        true
    }
    let mut world = World::new(ORIGIN, false);
    let recording = world
        .run_recorded_after(
            |w| {
                let ground = w.boxed(b2BodyType_b2_staticBody, 0.0, -1.0, 0.0, 20.0, 1.0);
                let a = w.boxed(b2BodyType_b2_dynamicBody, -2.0, 2.0, 0.0, 0.5, 0.5);
                let b = w.boxed(b2BodyType_b2_dynamicBody, 2.0, 2.0, 0.0, 0.5, 0.5);
                w.ball(0.0, 4.0, 0.25, false, (0.0, 0.0));
                w.capsule(4.0, 4.0, 0.0, 0.5, 0.2);
                w.chain_made(&[(-8.0, 0.0), (-6.0, 0.0), (-6.0, 1.0), (-8.0, 1.0)], true);
                let id = w.id;
                // SAFETY: the world and its bodies are live; every pointer outlives its call.
                unsafe {
                    b2World_EnableSleeping(id, true);
                    b2World_EnableContinuous(id, true);
                    b2World_SetRestitutionThreshold(id, 1.0);
                    b2World_SetHitEventThreshold(id, 1.0);
                    b2World_SetGravity(id, v(0.0, -9.0));
                    let mut explosion = b2DefaultExplosionDef();
                    explosion.position = v(0.0, 0.0);
                    explosion.radius = 1.0;
                    explosion.impulsePerLength = 0.1;
                    b2World_Explode(id, &explosion);
                    b2World_SetContactTuning(id, 30.0, 10.0, 3.0);
                    b2World_SetContactRecycleDistance(id, 0.0);
                    b2World_SetMaximumLinearSpeed(id, 400.0);
                    b2World_EnableWarmStarting(id, true);
                    b2World_RebuildStaticTree(id);
                    b2World_EnableSpeculative(id, true);

                    let mut def = b2DefaultBodyDef();
                    def.type_ = b2BodyType_b2_dynamicBody;
                    def.position = v(6.0, 3.0);
                    def.name = c"a body named at its making".as_ptr();
                    let body = b2CreateBody(id, &def);
                    b2Body_SetTransform(body, v(6.0, 3.5), rot(0.1));
                    b2Body_SetLinearVelocity(body, v(0.1, 0.0));
                    b2Body_SetType(body, b2BodyType_b2_kinematicBody);
                    b2Body_SetType(body, b2BodyType_b2_dynamicBody);
                    b2Body_SetName(body, c"named".as_ptr());
                    b2Body_SetName(body, std::ptr::null());
                    b2Body_SetAngularVelocity(body, 0.1);
                    b2Body_SetTargetTransform(
                        body,
                        b2WorldTransform {
                            p: v(6.0, 3.6),
                            q: rot(0.0),
                        },
                        1.0 / 60.0,
                        true,
                    );
                    b2Body_ApplyForce(body, v(1.0, 0.0), v(6.0, 3.0), true);
                    b2Body_ApplyForceToCenter(body, v(1.0, 0.0), true);
                    b2Body_ApplyTorque(body, 0.5, true);
                    b2Body_ClearForces(body);
                    b2Body_ApplyLinearImpulse(body, v(0.1, 0.0), v(6.0, 3.0), true);
                    b2Body_ApplyLinearImpulseToCenter(body, v(0.1, 0.0), true);
                    b2Body_ApplyAngularImpulse(body, 0.1, true);
                    let shape = b2DefaultShapeDef();
                    let circle = b2Circle {
                        center: v(0.0, 0.0),
                        radius: 0.3,
                    };
                    let round = b2CreateCircleShape(body, &shape, &circle);
                    let segment = b2Segment {
                        point1: v(-0.5, 0.0),
                        point2: v(0.5, 0.0),
                    };
                    let line = b2CreateSegmentShape(ground, &shape, &segment);
                    let piece = b2ChainSegment {
                        ghost1: v(-11.0, 2.0),
                        segment: b2Segment {
                            point1: v(-10.0, 2.0),
                            point2: v(-9.0, 2.0),
                        },
                        ghost2: v(-8.0, 2.0),
                        chainId: -1,
                    };
                    let tile = b2CreateChainSegmentShape(ground, &shape, &piece);
                    b2Body_SetMassData(
                        body,
                        b2MassData {
                            mass: 1.0,
                            center: v(0.0, 0.0),
                            rotationalInertia: 0.1,
                        },
                    );
                    b2Body_ApplyMassFromShapes(body);
                    b2Body_SetLinearDamping(body, 0.1);
                    b2Body_SetAngularDamping(body, 0.1);
                    b2Body_SetGravityScale(body, 0.5);
                    b2Body_SetAwake(body, true);
                    b2Body_WakeTouching(body);
                    b2Body_EnableSleep(body, true);
                    b2Body_SetSleepThreshold(body, 0.05);
                    b2Body_Disable(body);
                    b2Body_Enable(body);
                    b2Body_SetMotionLocks(
                        body,
                        b2MotionLocks {
                            linearX: false,
                            linearY: false,
                            angularZ: true,
                        },
                    );
                    b2Body_SetBullet(body, false);
                    b2Body_EnableContactRecycling(body, false);
                    b2Body_EnableContactEvents(body, true);
                    b2Body_EnableHitEvents(body, true);

                    b2Shape_SetDensity(round, 2.0, true);
                    b2Shape_SetFriction(round, 0.5);
                    b2Shape_SetRestitution(round, 0.1);
                    b2Shape_SetUserMaterial(round, 7);
                    let material = b2DefaultSurfaceMaterial();
                    b2Shape_SetSurfaceMaterial(round, &material);
                    b2Shape_SetFilter(round, b2DefaultShapeDef().filter);
                    b2Shape_EnableSensorEvents(round, true);
                    b2Shape_EnableContactEvents(round, true);
                    b2Shape_EnablePreSolveEvents(round, false);
                    b2Shape_EnableHitEvents(round, true);
                    b2Shape_SetCircle(
                        round,
                        &b2Circle {
                            center: v(0.0, 0.0),
                            radius: 0.35,
                        },
                    );
                    b2Shape_SetCapsule(
                        round,
                        &b2Capsule {
                            center1: v(-0.2, 0.0),
                            center2: v(0.2, 0.0),
                            radius: 0.2,
                        },
                    );
                    b2Shape_SetSegment(
                        line,
                        &b2Segment {
                            point1: v(-0.6, 0.0),
                            point2: v(0.6, 0.0),
                        },
                    );
                    b2Shape_SetPolygon(round, &b2MakeSquare(0.3));
                    b2Shape_SetChainSegment(tile, &piece);
                    b2Shape_ApplyWind(round, v(1.0, 0.0), 1.0, 0.5, true);

                    let points = [v(10.0, 0.0), v(12.0, 0.0), v(12.0, 1.0), v(10.0, 1.0)];
                    let materials = [material; 4];
                    let mut chain = b2DefaultChainDef();
                    chain.points = points.as_ptr();
                    chain.count = 4;
                    chain.materials = materials.as_ptr();
                    chain.materialCount = 4;
                    chain.isLoop = true;
                    let loop_ = b2CreateChain(ground, &chain);
                    b2Chain_SetSurfaceMaterial(loop_, &material, 1);

                    let joined = |base: &mut b2JointDef| {
                        base.bodyIdA = a;
                        base.bodyIdB = b;
                    };
                    let mut distance = b2DefaultDistanceJointDef();
                    joined(&mut distance.base);
                    distance.length = 4.0;
                    let j = b2CreateDistanceJoint(id, &distance);
                    b2Joint_SetLocalFrameA(
                        j,
                        b2Transform {
                            p: v(0.0, 0.0),
                            q: rot(0.0),
                        },
                    );
                    b2Joint_SetLocalFrameB(
                        j,
                        b2Transform {
                            p: v(0.0, 0.0),
                            q: rot(0.0),
                        },
                    );
                    b2Joint_SetCollideConnected(j, false);
                    b2Joint_WakeBodies(j);
                    b2Joint_SetConstraintTuning(j, 60.0, 2.0);
                    b2Joint_SetForceThreshold(j, 1e9);
                    b2Joint_SetTorqueThreshold(j, 1e9);
                    b2DistanceJoint_SetLength(j, 4.0);
                    b2DistanceJoint_EnableSpring(j, true);
                    b2DistanceJoint_SetSpringForceRange(j, -10.0, 10.0);
                    b2DistanceJoint_SetSpringHertz(j, 2.0);
                    b2DistanceJoint_SetSpringDampingRatio(j, 0.5);
                    b2DistanceJoint_EnableLimit(j, true);
                    b2DistanceJoint_SetLengthRange(j, 3.0, 5.0);
                    b2DistanceJoint_EnableMotor(j, true);
                    b2DistanceJoint_SetMotorSpeed(j, 0.1);
                    b2DistanceJoint_SetMaxMotorForce(j, 1.0);
                    let mut motor = b2DefaultMotorJointDef();
                    joined(&mut motor.base);
                    let j = b2CreateMotorJoint(id, &motor);
                    b2MotorJoint_SetLinearVelocity(j, v(0.0, 0.0));
                    b2MotorJoint_SetAngularVelocity(j, 0.0);
                    b2MotorJoint_SetMaxVelocityForce(j, 1.0);
                    b2MotorJoint_SetMaxVelocityTorque(j, 1.0);
                    b2MotorJoint_SetLinearHertz(j, 1.0);
                    b2MotorJoint_SetLinearDampingRatio(j, 1.0);
                    b2MotorJoint_SetAngularHertz(j, 1.0);
                    b2MotorJoint_SetAngularDampingRatio(j, 1.0);
                    b2MotorJoint_SetMaxSpringForce(j, 1.0);
                    b2MotorJoint_SetMaxSpringTorque(j, 1.0);
                    let mut filter = b2DefaultFilterJointDef();
                    joined(&mut filter.base);
                    let j = b2CreateFilterJoint(id, &filter);
                    b2DestroyJoint(j, true);
                    let mut prismatic = b2DefaultPrismaticJointDef();
                    joined(&mut prismatic.base);
                    let j = b2CreatePrismaticJoint(id, &prismatic);
                    b2PrismaticJoint_EnableSpring(j, true);
                    b2PrismaticJoint_SetSpringHertz(j, 1.0);
                    b2PrismaticJoint_SetSpringDampingRatio(j, 0.5);
                    b2PrismaticJoint_SetTargetTranslation(j, 0.0);
                    b2PrismaticJoint_EnableLimit(j, true);
                    b2PrismaticJoint_SetLimits(j, -1.0, 1.0);
                    b2PrismaticJoint_EnableMotor(j, true);
                    b2PrismaticJoint_SetMotorSpeed(j, 0.1);
                    b2PrismaticJoint_SetMaxMotorForce(j, 1.0);
                    let mut revolute = b2DefaultRevoluteJointDef();
                    joined(&mut revolute.base);
                    let j = b2CreateRevoluteJoint(id, &revolute);
                    b2RevoluteJoint_EnableSpring(j, true);
                    b2RevoluteJoint_SetSpringHertz(j, 1.0);
                    b2RevoluteJoint_SetSpringDampingRatio(j, 0.5);
                    b2RevoluteJoint_SetTargetAngle(j, 0.0);
                    b2RevoluteJoint_EnableLimit(j, true);
                    b2RevoluteJoint_SetLimits(j, -0.5, 0.5);
                    b2RevoluteJoint_EnableMotor(j, true);
                    b2RevoluteJoint_SetMotorSpeed(j, 0.1);
                    b2RevoluteJoint_SetMaxMotorTorque(j, 1.0);
                    let mut weld = b2DefaultWeldJointDef();
                    joined(&mut weld.base);
                    let j = b2CreateWeldJoint(id, &weld);
                    b2WeldJoint_SetLinearHertz(j, 1.0);
                    b2WeldJoint_SetLinearDampingRatio(j, 1.0);
                    b2WeldJoint_SetAngularHertz(j, 1.0);
                    b2WeldJoint_SetAngularDampingRatio(j, 1.0);
                    let mut wheel = b2DefaultWheelJointDef();
                    joined(&mut wheel.base);
                    let j = b2CreateWheelJoint(id, &wheel);
                    b2WheelJoint_EnableSpring(j, true);
                    b2WheelJoint_SetSpringHertz(j, 1.0);
                    b2WheelJoint_SetSpringDampingRatio(j, 0.5);
                    b2WheelJoint_EnableLimit(j, true);
                    b2WheelJoint_SetLimits(j, -1.0, 1.0);
                    b2WheelJoint_EnableMotor(j, true);
                    b2WheelJoint_SetMotorSpeed(j, 0.1);
                    b2WheelJoint_SetMaxMotorTorque(j, 1.0);

                    let everything = b2AABB {
                        lowerBound: v(-50.0, -50.0),
                        upperBound: v(50.0, 50.0),
                    };
                    let all = b2DefaultQueryFilter();
                    let none = std::ptr::null_mut();
                    let origin = v(0.0, 0.0);
                    b2World_OverlapAABB(id, origin, everything, all, Some(overlap), none);
                    let square = [v(-1.0, -1.0), v(1.0, -1.0), v(1.0, 1.0), v(-1.0, 1.0)];
                    let proxy = b2MakeProxy(square.as_ptr(), 4, 0.0);
                    b2World_OverlapShape(id, origin, &proxy, all, Some(overlap), none);
                    b2World_CastRay(id, v(0.0, 10.0), v(0.0, -20.0), all, Some(cast), none);
                    b2World_CastShape(
                        id,
                        v(0.0, 10.0),
                        &proxy,
                        v(0.0, -20.0),
                        all,
                        Some(cast),
                        none,
                    );
                    let mover = b2Capsule {
                        center1: v(0.0, 0.0),
                        center2: v(0.0, 1.0),
                        radius: 0.5,
                    };
                    b2World_CollideMover(id, v(-2.0, 2.0), &mover, all, Some(plane), none);
                    b2World_CastRayClosest(id, v(0.0, 10.0), v(0.0, -20.0), all);
                    b2World_CastMover(id, v(0.0, 10.0), &mover, v(0.0, -20.0), all);
                    b2Shape_TestPoint(round, v(6.0, 3.5));
                    b2Shape_RayCast(round, v(6.0, 10.0), v(0.0, -20.0));

                    b2DestroyShape(line, true);
                    // A chain segment without a chain is not captured (the adapter reads each
                    // chain segment's chain).
                    b2DestroyShape(tile, false);
                    b2DestroyChain(loop_);
                    b2DestroyBody(body);
                }
            },
            20,
        )
        .1;
    check_header(&recording).unwrap();
    let kinds: std::collections::BTreeSet<u8> = records_of(&recording)
        .into_iter()
        .map(|(_, opcode)| opcode)
        .collect();
    assert_eq!(kinds.len(), 146, "{kinds:02X?}");
    let (replayed, _) = replay(&recording, Vec::new(), false, |_, _| {}).unwrap();
    assert_eq!(replayed.frames, 20);
}

/// The recording the issue found (issue 60): the tile floor's recording
/// (tests/captures/tile-floor.b2rec) with one step's record giving its size as 1 byte and a
/// later step asking Box2D for 1,240,648,196 sub-steps. The check walked the records by their
/// sizes and lost its place, so the later step was never checked, and the replay sat in
/// `b2World_Step` for ever; walked as Box2D's player reads it, it is refused at once, naming
/// the record and its size field. The same sub-step count alone, a record no call makes, a
/// record cut off inside a field and a polygon of more corners than Box2D's polygons hold are
/// refused likewise, each before Box2D runs a step.
#[test]
fn a_damaged_record_is_refused_where_box2ds_player_would_read_it() {
    use box2d_capture::replay::check_header;
    let recording = std::fs::read("tests/captures/tile-floor.b2rec").unwrap();
    let steps = steps_of(&recording);
    let (tenth, twentieth) = (steps[10], steps[20]);
    assert_eq!((tenth, twentieth), (10736, 11056));
    let refusal = |bytes: &[u8]| {
        let started = std::time::Instant::now();
        let said = check_header(bytes).expect_err("refused").to_string();
        assert!(started.elapsed().as_secs_f64() < 1.0, "{said}");
        said
    };
    let mut damaged = recording.clone();
    damaged[tenth + 1] = 1;
    damaged[twentieth + 12..twentieth + 16].copy_from_slice(&1_240_648_196i32.to_le_bytes());
    assert_eq!(
        refusal(&damaged),
        "its record at byte 10736 (b2World_Step, step 10) gives its size as 1 byte, and Box2D's \
         player reads 12 bytes there: its size field is damaged"
    );
    let mut substeps = recording.clone();
    substeps[twentieth + 12..twentieth + 16].copy_from_slice(&1_240_648_196i32.to_le_bytes());
    assert!(
        refusal(&substeps).starts_with(
            "its step 20 (byte 11056) asks Box2D for 1240648196 sub-steps, and collidoscope \
             replays 1 to 1024 a step"
        ),
        "{}",
        refusal(&substeps)
    );
    let mut unknown = recording.clone();
    unknown[twentieth] = 0x00;
    assert_eq!(
        refusal(&unknown),
        "its record at byte 11056 (after step 19) has the opcode 0x00, which no call of Box2D \
         3.2.0 records: damaged"
    );
    // The last record, b2DestroyWorld (4 bytes: its world), cut after 2.
    let last = records_of(&recording).last().unwrap().0;
    assert_eq!(recording.len(), last + 8);
    assert_eq!(
        refusal(&recording[..last + 6]),
        format!(
            "it ends inside its record at byte {last} (b2DestroyWorld, after step 149), in its \
             world: the recording is cut short or damaged there"
        )
    );
    // The first polygon made (b2CreatePolygonShape: body 8 bytes, shape definition 68, then
    // the polygon, whose count follows its 8 corners, 8 normals, centroid and radius).
    let (polygon, _) = records_of(&recording)
        .into_iter()
        .find(|(_, opcode)| *opcode == 0x43)
        .unwrap();
    let mut corners = recording.clone();
    let count = polygon + 4 + 8 + 68 + 140;
    assert_eq!(corners[count..count + 4], 4i32.to_le_bytes());
    corners[count..count + 4].copy_from_slice(&100_000i32.to_le_bytes());
    assert_eq!(
        refusal(&corners),
        format!(
            "its record at byte {polygon} (b2CreatePolygonShape, before the first step) gives \
             its polygon 100000 corners, and a Box2D polygon has at most 8: damaged"
        )
    );
}

/// A replay that does not finish in time is stopped: the child process (the real
/// `collidoscope replay-recording`) replaying a wall of 200 boxes for 400 steps of 1,024
/// sub-steps each (8.6 s to the end, measured in a release build) is killed at a deadline of
/// a second, the refusal says so, and the capture it began is removed. A recording's own
/// deadline follows its steps: a minute, and 50 ms a step.
#[test]
fn a_replay_past_its_deadline_is_stopped_and_leaves_nothing() {
    use box2d_capture::replay::{Deadline, replay_in_child_within};
    let recording = {
        let _box2d = BOX2D.lock().unwrap_or_else(|e| e.into_inner());
        let mut world = World::new(ORIGIN, false);
        let mut recording = world
            .run_recorded_after(
                |w| {
                    // A wall of 200 boxes, 10 wide and 20 high, that never sleeps.
                    for row in 0..20 {
                        for column in 0..10 {
                            let (x, y) = (column as f64 * 1.01, 0.5 + row as f64 * 1.01);
                            w.boxed(b2BodyType_b2_dynamicBody, x, y, 0.0, 0.5, 0.5);
                        }
                    }
                    w.boxed(b2BodyType_b2_staticBody, 0.0, -0.5, 0.0, 40.0, 0.5);
                    // SAFETY: the world is live.
                    unsafe { b2World_EnableSleeping(w.id, false) };
                },
                400,
            )
            .1;
        for at in steps_of(&recording) {
            recording[at + 12..at + 16].copy_from_slice(&1024i32.to_le_bytes());
        }
        recording
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("slow.b2rec");
    std::fs::write(&file, &recording).unwrap();
    let capture = dir.path().join("slow.capture.jsonl");
    // Watch the folder while the child runs: it writes its capture to a temporary file.
    let watching = dir.path().to_path_buf();
    let (tell, seen) = std::sync::mpsc::channel();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stopped = stop.clone();
    let watcher = std::thread::spawn(move || {
        let mut found = false;
        while !stopped.load(std::sync::atomic::Ordering::Relaxed) {
            found |= std::fs::read_dir(&watching)
                .unwrap()
                .any(|e| e.unwrap().file_name().to_string_lossy().ends_with(".tmp"));
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        tell.send(found).unwrap();
    });
    let started = std::time::Instant::now();
    let said = replay_in_child_within(
        env!("CARGO_BIN_EXE_collidoscope").as_ref(),
        &file,
        Some(&capture),
        Deadline::after(std::time::Duration::from_secs(1)),
        |_, _| {},
    )
    .expect_err("stopped");
    let took = started.elapsed();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    watcher.join().unwrap();
    assert!(seen.recv().unwrap(), "the child began no capture");
    assert!(
        said.starts_with(&format!(
            "the replay of {} did not finish within 1 s, and was stopped",
            file.display()
        )) && said.ends_with(&format!("; nothing was written to {}", capture.display())),
        "{said}"
    );
    assert!(took.as_secs_f64() < 4.0, "{took:?}");
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["slow.b2rec"]);
    assert_eq!(
        Deadline::for_steps(400).limit,
        std::time::Duration::from_secs(80)
    );
    assert_eq!(
        Deadline::for_steps(0).limit,
        std::time::Duration::from_secs(60)
    );
}

/// Found by fuzzing once every record was checked: the tile floor's recording with two bytes
/// of its snapshot (the image of the world when recording began, which Box2D reads itself)
/// changed, 0x00 0x02 at byte 2900 to 0x02 0x00. Box2D never returns from making the next
/// shape (its broad phase's tree loops); `import` waited for ever. Its real deadline is
/// 67.5 s (150 steps; measured: stopped at 67.50 s, 10 MB); here, given a second, the child
/// is killed, the refusal says so and nothing is left.
#[test]
fn a_replay_stuck_in_box2d_is_killed_at_its_deadline() {
    use box2d_capture::replay::{Deadline, recorded_steps, replay_in_child_within};
    let mut bytes = std::fs::read("tests/captures/tile-floor.b2rec").unwrap();
    assert_eq!(bytes[2900..2902], [0x00, 0x02]);
    bytes[2900..2902].copy_from_slice(&[0x02, 0x00]);
    let steps = recorded_steps(&bytes);
    assert_eq!(Deadline::for_steps(steps).limit.as_secs_f64(), 67.5);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("stuck.b2rec");
    std::fs::write(&file, &bytes).unwrap();
    let capture = dir.path().join("stuck.capture.jsonl");
    let started = std::time::Instant::now();
    let said = replay_in_child_within(
        env!("CARGO_BIN_EXE_collidoscope").as_ref(),
        &file,
        Some(&capture),
        Deadline::after(std::time::Duration::from_secs(1)),
        |_, _| {},
    )
    .expect_err("stopped");
    assert!(started.elapsed().as_secs_f64() < 4.0);
    assert_eq!(
        said,
        format!(
            "the replay of {} did not finish within 1 s, and was stopped before it said a \
             frame was done: Box2D may be stuck on a damaged recording (or the world is too \
             large to replay in that time); nothing was written to {}",
            file.display(),
            capture.display()
        )
    );
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["stuck.b2rec"]);
}

/// The last frame of a capture read back: its shapes (with their filters and bodies) by
/// name, and its claims.
fn last_frame(capture: Vec<u8>) -> (CaptureReader, collidoscope::capture::Frame) {
    let mut reader = CaptureReader::new("filters.capture.jsonl".as_ref(), Cursor::new(capture))
        .expect("the capture opens");
    let mut last = None;
    while let Some(frame) = reader.next_frame().expect("every frame reads") {
        last = Some(frame);
    }
    (reader, last.expect("a frame"))
}

/// Why the engine left a pair of the reader's last frame out, the pair named.
fn left_out_of(
    reader: &CaptureReader,
    frame: &collidoscope::capture::Frame,
    a: &str,
    b: &str,
) -> collidoscope::capture::LeftOut {
    let find = |name: &str| {
        reader
            .shapes()
            .find(|s| s.name.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("a shape named {name}"))
    };
    let (a, b) = (find(a), find(b));
    assert!(
        !frame
            .claims
            .iter()
            .any(|c| (c.a, c.b) == (a.id, b.id) || (c.b, c.a) == (a.id, b.id)),
        "the pair has no claim"
    );
    let margin = collidoscope::capture::Margin::of_settings(&reader.header().engine.settings);
    collidoscope::capture::left_out(a.side(), b.side(), margin)
}

/// Box2D's filters and bodies reach the capture, and each pair that Box2D leaves out is
/// named by the stage that does: two crates in one negative group fall through each other,
/// a player's mask leaves out the debris it overlaps, the two shapes of one body overlap
/// with no claim, and a ball 0.5 m from a crate is beyond the 2 cm speculative margin.
#[test]
fn box2d_filters_and_bodies_name_the_stage_that_left_a_pair_out() {
    use collidoscope::capture::{Filter, FilterVerdict, LeftOut, Margin};
    let mut w = World::new(
        Frame {
            scale: 1.0,
            offset: 0.0,
        },
        false,
    );
    let floor = w.boxed(b2BodyType_b2_staticBody, 0.0, -0.5, 0.0, 6.0, 0.5);
    w.names.push((floor, "floor".into()));
    let filtered = |w: &mut World, x: f64, y: f64, filter: b2Filter, name: &str| {
        let body = w.body(b2BodyType_b2_dynamicBody, x, y, 0.0, false);
        // SAFETY: the body is live.
        unsafe {
            let mut def = b2DefaultShapeDef();
            def.filter = filter;
            let polygon = b2MakeBox(0.25, 0.25);
            b2CreatePolygonShape(body, &def, &polygon);
        }
        w.names.push((body, name.into()));
    };
    // SAFETY: b2DefaultFilter reads constants.
    let default = unsafe { b2DefaultFilter() };
    let ghost = b2Filter {
        groupIndex: -1,
        ..default
    };
    filtered(&mut w, -3.0, 0.25, ghost, "ghost a");
    filtered(&mut w, -3.1, 0.6, ghost, "ghost b");
    let player = b2Filter {
        categoryBits: 0b10,
        maskBits: !0b100,
        groupIndex: 0,
    };
    let debris = b2Filter {
        categoryBits: 0b100,
        ..default
    };
    filtered(&mut w, 0.0, 0.25, player, "player");
    filtered(&mut w, 0.1, 0.6, debris, "debris");
    // One body, two overlapping boxes.
    let compound = w.body(b2BodyType_b2_dynamicBody, 3.0, 0.25, 0.0, false);
    // SAFETY: the body is live.
    unsafe {
        let def = b2DefaultShapeDef();
        b2CreatePolygonShape(compound, &def, &b2MakeBox(0.25, 0.25));
        let offset = b2MakeOffsetBox(0.25, 0.25, v(0.2, 0.2), rot(0.0));
        b2CreatePolygonShape(compound, &def, &offset);
    }
    w.names.push((compound, "compound".into()));
    w.ball(5.0, 0.2, 0.2, false, (0.0, 0.0));
    let ball = *w.bodies.last().unwrap();
    w.names.push((ball, "ball".into()));
    let (reader, frame) = last_frame(w.run(40));
    assert_eq!(
        Margin::of_settings(&reader.header().engine.settings),
        Margin::Given(f64::from(4.0 * 0.005f32)),
        "B2_SPECULATIVE_DISTANCE at one unit a metre"
    );
    let shape = |name: &str| {
        reader
            .shapes()
            .find(|s| s.name.as_deref() == Some(name))
            .unwrap()
    };
    assert_eq!(
        shape("player").pairing.filter,
        Some(Filter::box2d(0b10, !0b100, 0))
    );
    assert_eq!(
        shape("floor").pairing.filter,
        Some(Filter::box2d(1, u64::MAX, 0))
    );
    assert!(shape("player").pairing.body_id.is_some());
    // The ghosts went through each other and both rest on the floor, overlapping.
    match left_out_of(&reader, &frame, "ghost a", "ghost b") {
        LeftOut::Filtered { verdict, .. } => assert_eq!(verdict, FilterVerdict::GroupNever(-1)),
        other => panic!("ghosts: {other:?}"),
    }
    let (a, b) = (shape("ghost a"), shape("ghost b"));
    assert!(
        collidoscope::query::collide(&a.placed, &b.placed).is_some(),
        "the ghosts overlap"
    );
    match left_out_of(&reader, &frame, "player", "debris") {
        LeftOut::Filtered { verdict, .. } => assert_eq!(verdict, FilterVerdict::MaskOfA),
        other => panic!("player and debris: {other:?}"),
    }
    let halves: Vec<_> = reader
        .shapes()
        .filter(|s| s.name.as_deref() == Some("compound"))
        .collect();
    assert_eq!(halves.len(), 2);
    let margin = Margin::of_settings(&reader.header().engine.settings);
    assert!(matches!(
        collidoscope::capture::left_out(halves[0].side(), halves[1].side(), margin),
        LeftOut::SameBody(_)
    ));
    match left_out_of(&reader, &frame, "ball", "player") {
        LeftOut::BoxesApart { gap, .. } => assert!(gap > 4.0, "{gap}"),
        other => panic!("ball and player: {other:?}"),
    }
    // The player rests on the floor, asleep by now: Box2D recomputes no contact of two
    // sleeping bodies, so the capture holds none, and no stage left it out.
    match left_out_of(&reader, &frame, "floor", "player") {
        LeftOut::NotLeftOut {
            at_rest, filter, ..
        } => {
            assert!(at_rest, "asleep, at rest");
            assert_eq!(filter, Some(FilterVerdict::Passes));
        }
        other => panic!("floor and player: {other:?}"),
    }
}

/// Box2D's tile floor judged in the game's process, step by step: the crate's snag on the
/// seam between tile3 and tile4 (frame 23, as `diagnose` finds it in the file) comes back from
/// the step after it, the first step that is not clean, in words with its fix.
#[test]
fn a_box2d_step_judged_in_process_names_the_seam_the_capture_file_names() {
    let mut w = World::new(
        Frame {
            scale: 1.0,
            offset: 0.0,
        },
        false,
    );
    floor_game(&mut w, Floor::Tiles);
    let dt = 1.0 / 60.0;
    let writer = CaptureWriter::new(
        Vec::new(),
        &header(4, dt, false),
        NormalFrom::AToB,
        Penetration::NegativeSeparation,
    )
    .unwrap()
    .judging();
    let mut capture = Box2dCapture::new(writer);
    for (body, name) in &w.names {
        capture.name(*body, name.clone());
    }
    let mut first_wrong = None;
    for step in 0..40 {
        capture.before_step(&w.bodies).unwrap();
        // SAFETY: the world is live.
        unsafe { b2World_Step(w.id, dt as f32, 4) };
        let judged = capture
            .after_step(step as f64 * dt, &w.bodies)
            .unwrap()
            .expect("judging");
        assert_eq!(judged.frame, step as u64);
        assert!(judged.disagreeing.is_empty(), "{judged}");
        if first_wrong.is_none() && !judged.is_clean() {
            first_wrong = Some(judged);
        }
    }
    let step = first_wrong.expect("the crate snags");
    assert_eq!(step.frame, 24);
    let seam = &step.events[0];
    assert_eq!((seam.kind(), seam.frame()), (EventKind::Seam, 23));
    let said = step.to_string();
    assert!(
        said.contains("crate caught on the seam between tile3 and tile4"),
        "{said}"
    );
    // The file written beside it says the same.
    let events = events(capture.finish().unwrap());
    assert_eq!(events[0].frame(), 23);
}

/// Over time (docs/format.md, "collidoscope plot"): a plot of the tile floor's crate is the
/// capture's own numbers, column for column and to the bit (its pose and velocity every frame,
/// the pair's claim and impulses where Box2D claimed it, the exact depth at the frame's poses),
/// and marks the seam the crate catches on at frame 23 where its speed drops. On one floor box
/// the pair is claimed, with impulses, every frame the crate touches it.
#[test]
fn a_plot_of_a_box2d_capture_is_the_capture_s_own_numbers() {
    use collidoscope::series::{MarkKind, Quantity};
    let _box2d = BOX2D.lock().unwrap_or_else(|e| e.into_inner());
    let mut world = World::new(ORIGIN, false);
    floor_game(&mut world, Floor::Tiles);
    let capture = world.run(120);
    let checked = plot_check::csv_equals_the_capture(&capture, "crate", ("tile4", "crate"));
    assert_eq!(checked.rows, 120);
    assert!(checked.claimed >= 3, "{checked:?}");
    assert_eq!(checked.with_impulses, checked.claimed);
    let plot = &checked.plot;
    let seam = plot
        .markers
        .iter()
        .find(|m| m.kind == MarkKind::Event(EventKind::Seam) && m.frame == 23)
        .unwrap_or_else(|| panic!("no seam marked at frame 23: {:?}", plot.markers));
    assert!(
        seam.text.contains("crate") && seam.text.contains("tile4"),
        "{seam:?}"
    );
    let speed = plot
        .series
        .iter()
        .find(|s| s.quantity == Quantity::Speed)
        .unwrap();
    let at = |frame: u64| speed.values[plot.frames.iter().position(|f| *f == frame).unwrap()];
    assert!(
        at(23) > 4.0 && at(24) < 0.6 * at(23),
        "{} then {}",
        at(23),
        at(24)
    );

    let mut world = World::new(ORIGIN, false);
    floor_game(&mut world, Floor::OneBox);
    let capture = world.run(60);
    let checked = plot_check::csv_equals_the_capture(&capture, "crate", ("floor", "crate"));
    assert_eq!(checked.rows, 60);
    assert!(checked.claimed >= 55, "{checked:?}");
    assert_eq!(checked.with_impulses, checked.claimed);
}
