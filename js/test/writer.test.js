// The generic writer: the Rust writer's file conventions, bad input refused by name with no
// broken line, and a crash keeping every frame written.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import Matter from 'matter-js';
import { CaptureWriter } from 'collidoscope-capture';
import { matterCapture } from 'collidoscope-capture/matter';
import { diagnose, scratch, lines } from './helpers.js';

const folder = scratch('writer');
const header = { engine: { name: 'test', version: '1' }, precision: 'f64', units: 'm', y_up: true };
const crate = (x, vx) => ({ id: 7, name: 'crate', kind: 'polygon', points: [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]], position: [x, 0.5], angle: 0, body: 'dynamic', velocity: [vx, 0], angular_velocity: 0, awake: true });
const ground = { id: 1, name: 'ground', kind: 'segment', a: [-10, 0], b: [10, 0], position: [0, 0], angle: 0, body: 'static', awake: false };

test('a shape is written in full once, then only the keys that changed; removed ids are said', () => {
  const written = [];
  const w = new CaptureWriter((line) => written.push(line), header);
  w.frame(0, [ground, crate(0, 1)], [{ a: 1, b: 7, normal: [0, 1], points: [{ point: [0, 0], separation: -0.01 }] }]);
  w.frame(1 / 60, [ground, crate(1 / 60, 1)], []);
  w.frame(2 / 60, [ground, crate(1 / 60, 0)], [{ a: 1, b: 7, normal: [0, 2], points: [{ point: [0, 0], separation: 0.02 }] }]);
  w.frame(3 / 60, [ground], []);
  const [head, f0, f1, f2, f3] = written.map((l) => JSON.parse(l));
  assert.deepEqual(head, { format: 'collidoscope-capture', version: 1, engine: { name: 'test', version: '1' }, precision: 'f64', units: 'm', y_up: true });
  assert.equal(f0.shapes.length, 2);
  assert.deepEqual(f0.claims, [{ a: 1, b: 7, intersecting: true, depth: 0.01, normal: [0, 1], contacts: [[0, 0]] }]);
  assert.deepEqual(f1.shapes, [{ id: 7, position: [1 / 60, 0.5] }]);
  assert.deepEqual(f2.shapes, [{ id: 7, velocity: [0, 0] }]);
  assert.deepEqual(f2.claims, [{ a: 1, b: 7, intersecting: false, normal: [0, 1], separation: 0.02, contacts: [[0, 0]] }], 'a speculative contact keeps its unit normal');
  assert.deepEqual(f3, { frame: 3, time: 0.05, shapes: [], removed: [7], claims: [] });
  assert.ok(written.every((l) => l.endsWith('\n') && !l.slice(0, -1).includes('\n')));
});

test('numbers are written as the doubles they are (shortest round trip), f32 values exactly', () => {
  const written = [];
  const w = new CaptureWriter((line) => written.push(line), { ...header, precision: 'f32' });
  const x = Math.fround(0.1);
  w.frame(0, [{ ...crate(x, 0.1 + 0.2), id: 3 }], []);
  const shape = JSON.parse(written[1]).shapes[0];
  assert.equal(shape.position[0], x);
  assert.equal(shape.velocity[0], 0.1 + 0.2);
  assert.match(written[1], /"position":\[0\.10000000149011612,0\.5\]/);
});

test('impulses: one per kept point after the claim\'s piece, and none when a point has none or a bad one', () => {
  const written = [];
  const w = new CaptureWriter((line) => written.push(line), header);
  const points = [
    { point: [0, 0], separation: -0.01, impulse: 0.25 },
    { point: [1, 0], separation: 0.005, impulse: 0.5 },
    { point: [2, 0], separation: -0.02, impulse: 0 },
  ];
  w.frame(0, [ground, crate(0, 1)], [{ a: 1, b: 7, normal: [0, 1], points, piece: 3 }]);
  w.frame(1 / 60, [ground, crate(0, 1)], [{ a: 1, b: 7, normal: [0, 1], points: points.map((p) => ({ ...p, separation: 0.01 })) }]);
  w.frame(2 / 60, [ground, crate(0, 1)], [{ a: 1, b: 7, normal: [0, 1], points: [points[0], { ...points[2], impulse: -1 }] }]);
  w.frame(3 / 60, [ground, crate(0, 1)], [{ a: 1, b: 7, normal: [0, 1], points: [points[0], { ...points[2], impulse: undefined }] }]);
  const [, f0, f1, f2, f3] = written.map((l) => JSON.parse(l));
  assert.deepEqual(f0.claims[0].impulses, [0.25, 0], 'the penetrating points kept, their impulses with them');
  assert.match(written[1], /"piece":3,"impulses":\[0\.25,0\]\}/);
  assert.deepEqual(f1.claims[0].impulses, [0.25, 0.5, 0], 'an apart claim keeps every point');
  assert.equal(f2.claims[0].impulses, undefined, 'an impulse below 0 leaves them out, never the claim');
  assert.equal(f3.claims[0].impulses, undefined, 'a point without one leaves them out');
  assert.equal(f3.claims[0].intersecting, true);
});

test('bad input throws an Error naming the shape, and writes no broken line', () => {
  const written = [];
  const w = new CaptureWriter((line) => written.push(line), header);
  w.frame(0, [ground, crate(0, 0)], []);
  const cases = [
    [[ground, { ...crate(NaN, 0), what: "body 'crate' (id 7)" }], /body 'crate' \(id 7\): "position" must be two finite numbers, found \[NaN, 0\.5\]/],
    [[ground, { ...crate(0, 0), kind: 'circle', radius: 1 }], /id 7 was a polygon and is now a circle/],
    [[ground, { ...crate(0, 0), kind: 'ellipse' }], /"kind" "ellipse" is not one of/],
    [[ground, crate(0, 0), crate(1, 0)], /id 7 is given twice/],
    [[{ ...ground, body: 'dynamic' }, crate(0, 0)], /a segment is static geometry/],
    [[ground, { ...crate(0, 0), points: [[0, 0], [1, 0]] }], /a polygon needs 3 points or more/],
  ];
  for (const [shapes, said] of cases) {
    assert.throws(() => w.frame(1 / 60, shapes, []), said);
  }
  assert.throws(() => w.frame(1 / 60, [ground, crate(0, 0)], [{ a: 1, b: 9, normal: [0, 1], points: [] }]), /names id 9, which is not among this frame's shapes/);
  assert.throws(() => w.frame(1 / 60, [ground, crate(0, 0)], [{ a: 1, b: 7, normal: [0, NaN], points: [{ point: [0, 0], separation: -1 }] }]), /the contact of shape 1 and shape 7: the normal \[0, NaN\] is not finite/);
  assert.equal(written.length, 2, 'only the header and the first frame');
  w.frame(1 / 60, [ground, crate(0.1, 0)], []);
  assert.equal(JSON.parse(written[2]).frame, 1, 'a refused frame takes no frame number');
});

test('an adapter given its output alone takes it as { out }; anything else is refused saying what it takes', () => {
  const engine = Matter.Engine.create();
  const written = [];
  const cap = matterCapture(Matter, engine, (line) => written.push(line));
  cap.step();
  assert.equal(written.length, 2);
  assert.throws(() => matterCapture(Matter, engine, 42), /the third argument is the options, \{ out: 'game.capture.jsonl' \} \(or the output alone\), found number/);
});

test('matter: a body whose parts cannot be read is named', () => {
  const engine = Matter.Engine.create();
  const body = Matter.Bodies.rectangle(0, 0, 10, 10, { label: 'broken' });
  Matter.Composite.add(engine.world, body);
  body.vertices.length = 2;
  const written = [];
  const cap = matterCapture(Matter, engine, { out: (l) => written.push(l) });
  assert.throws(() => cap.step(), /body 'broken' \(id \d+\): a part with 2 vertices is no convex polygon/);
  assert.equal(written.length, 1);
});

test('a game that crashes mid-run leaves every frame written, gzip or not, readable', () => {
  for (const name of ['crash.capture.jsonl', 'crash.capture.jsonl.gz']) {
    const out = join(folder, name);
    const run = spawnSync(process.execPath, [fileURLToPath(new URL('./crash.mjs', import.meta.url)), out]);
    assert.equal(run.signal, 'SIGKILL');
    assert.equal(lines(out).length, 51, `${name}: the header and 50 frames`);
    const report = diagnose(out);
    assert.equal(report.frames.length, 50);
    assert.ok(readFileSync(out).length > 0);
  }
});
