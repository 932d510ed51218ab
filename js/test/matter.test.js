// matter-js from the registry, run on scenes of its own, captured, and judged by collidoscope.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Matter20 from 'matter-js';
import Matter19 from 'matter-js-0.19';
import { matterCapture } from 'collidoscope-capture/matter';
import { diagnose, scratch, disagreeing, events, firstDrop, passedAt, lines, assertImpulsesAddUp } from './helpers.js';

const folder = scratch('matter');

for (const Matter of [Matter20, Matter19]) {
const { Engine, Bodies, Composite, Body } = Matter;
const v = Matter.version;

/** A 40-px crate sliding at 6 px a step over a floor of 32-px tiles (or one floor body). */
async function slide(tiles, out) {
  const engine = Engine.create();
  const floor = tiles
    ? Array.from({ length: 40 }, (_, i) => Bodies.rectangle(16 + 32 * i, 400, 32, 32, { isStatic: true, label: `tile${i + 1}` }))
    : [Bodies.rectangle(640, 400, 1280, 32, { isStatic: true, label: 'floor' })];
  const crate = Bodies.rectangle(40, 364, 40, 40, { label: 'crate', friction: 0, frictionAir: 0 });
  Composite.add(engine.world, [...floor, crate]);
  Body.setVelocity(crate, { x: 6, y: 0 });
  const cap = matterCapture(Matter, engine, { out });
  const speeds = [];
  for (let i = 0; i < 90; i += 1) {
    cap.step(1000 / 60);
    speeds.push(crate.velocity.x);
  }
  await cap.close();
  return { crate, floor, speeds };
}

test(`matter ${v}: a crate caught on the seam between two tiles: named at the step matter stopped it, every claim exact`, async () => {
  const out = join(folder, `tiles-${v}.capture.jsonl.gz`);
  const { crate, floor, speeds } = await slide(true, out);
  const drop = firstDrop(speeds, 1);
  assert.notEqual(drop, null, `matter stopped the crate (speeds ${speeds.slice(0, 60).map((v) => v.toFixed(2))})`);
  const report = diagnose(out);
  assert.equal(report.engine.name, 'matter-js');
  assert.equal(report.engine.version, v);
  assert.equal(report.precision, 'f64');
  assert.ok(report.claims > 100, `${report.claims} claims`);
  assert.deepEqual(disagreeing(report), [], 'every claim of matter agrees with the exact result');
  const caught = events(report, 'seam').filter((e) => e.caught);
  assert.ok(caught.length > 0, 'a caught seam is named');
  const first = caught[0];
  assert.equal(first.frame, drop, `the first caught seam is at step ${drop}, where matter's own velocity fell`);
  assert.equal(first.shape, crate.id);
  const tiles = new Set(floor.map((t) => t.id));
  assert.ok(tiles.has(first.face_of) && tiles.has(first.covered_by), JSON.stringify(first));
  assert.ok(first.speed_after < first.speed_before / 2);
});

test(`matter ${v}: the same crate on one floor body: no seam, no drop, every claim exact`, async () => {
  const out = join(folder, `floor-${v}.capture.jsonl`);
  const { speeds } = await slide(false, out);
  assert.equal(firstDrop(speeds, 1), null);
  const report = diagnose(out);
  assert.deepEqual(disagreeing(report), []);
  assert.deepEqual(report.events, []);
  assert.equal(report.first_divergence, null);
});

test(`matter ${v}: a fast ball through a thin wall (matter has no continuous collision): tunnelled at the step it passed`, async () => {
  const out = join(folder, `tunnel-${v}.capture.jsonl`);
  const engine = Engine.create({ gravity: { x: 0, y: 0 } });
  const wall = Bodies.rectangle(400, 300, 10, 200, { isStatic: true, label: 'wall' });
  const ball = Bodies.circle(100, 300, 8, { label: 'ball', frictionAir: 0 });
  Composite.add(engine.world, [wall, ball]);
  Body.setVelocity(ball, { x: 45, y: 0 });
  const cap = matterCapture(Matter, engine, { out });
  const xs = [];
  for (let i = 0; i < 20; i += 1) {
    cap.step(1000 / 60);
    xs.push(ball.position.x); // matter's frame k: the poses it collided at, in update k
  }
  await cap.close();
  const passed = passedAt(xs, 395 - 8, 405 + 8);
  assert.notEqual(passed, null, `the ball passed the wall (${xs.map((x) => x.toFixed(1))})`);
  const report = diagnose(out);
  assert.deepEqual(disagreeing(report), []);
  const tunnels = events(report, 'tunnelled');
  assert.equal(tunnels.length, 1, JSON.stringify(report.events));
  assert.equal(tunnels[0].frame, passed);
  assert.equal(tunnels[0].shape, ball.id);
  const named = new Map(lines(out).flatMap((l) => (l.shapes ?? []).filter((s) => s.name).map((s) => [s.id, s.name])));
  assert.equal(named.get(tunnels[0].a === ball.id ? tunnels[0].b : tunnels[0].a), 'wall');
});
test(`matter ${v}: a resting crate is held up by the impulses on its claims (docs/format.md, "Impulses")`, async () => {
  const out = join(folder, `resting-${v}.capture.jsonl`);
  const engine = Engine.create();
  const floor = Bodies.rectangle(400, 400, 800, 32, { isStatic: true, label: 'floor' });
  const crate = Bodies.rectangle(400, 364, 40, 40, { label: 'crate' });
  Composite.add(engine.world, [floor, crate]);
  const cap = matterCapture(Matter, engine, { out });
  for (let i = 0; i < 120; i += 1) cap.step(1000 / 60);
  await cap.close();
  const report = diagnose(out);
  assert.deepEqual(disagreeing(report), [], 'impulses are never judged');
  // matter's gravity gives a body gravity.y * gravity.scale * delta^2 pixels a step of speed a
  // step: mass times that, per second, is the impulse that holds it up.
  const seconds = 1 / 60;
  const weight = (crate.mass * engine.gravity.y * engine.gravity.scale * (1000 / 60) ** 2) / seconds;
  const frames = lines(out).filter((l) => l.frame !== undefined && l.frame >= 60);
  assert.ok(frames.length >= 50);
  for (const f of frames) assert.equal((f.claims ?? []).length, 1, JSON.stringify(f));
  assertImpulsesAddUp(frames, weight, 0.05, 'm g dt');
});
}
