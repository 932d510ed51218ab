// planck.js (Box2D v2 in JavaScript) from the registry, run on scenes of its own, captured,
// and judged by collidoscope.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as planckModule from 'planck';
import { planckCapture } from 'collidoscope-capture/planck';
import { diagnose, scratch, disagreeing, events, firstDrop, passedAt, lines, assertImpulsesAddUp } from './helpers.js';

const planck = planckModule.default ?? planckModule;
const { World, Vec2, Box, Circle, Edge, Chain } = planck;
const folder = scratch('planck');

/**
 * A 0.5-m crate (fixed rotation) sliding at 4 m/s over 0.5-m tiles, or over one floor: a box,
 * or a chain of one edge, or edges.
 */
async function slide(floor, out) {
  const world = new World({ gravity: Vec2(0, -10) });
  const ground = [];
  if (floor === 'tiles') {
    for (let i = 0; i < 40; i += 1) {
      const body = world.createBody({ position: Vec2(i * 0.5 + 0.25, -0.25), userData: `tile${i + 1}` });
      ground.push(body.createFixture(new Box(0.25, 0.25), { friction: 0 }));
    }
  } else if (floor === 'box') {
    world.createBody({ userData: 'floor' }).createFixture(new Box(10, 0.25, Vec2(10, -0.25)), { friction: 0 });
  } else {
    world.createBody({ userData: 'floor' }).createFixture(new Chain([Vec2(0, 0), Vec2(8, 0), Vec2(20, 0)], false), { friction: 0 });
  }
  const crate = world.createBody({ type: 'dynamic', fixedRotation: true, position: Vec2(1, 0.25), userData: 'crate' });
  crate.createFixture(new Box(0.25, 0.25), { density: 1, friction: 0 });
  crate.setLinearVelocity(Vec2(4, 0));
  const cap = planckCapture(planck, world, { out, version: '1.5.0' });
  const speeds = [];
  for (let i = 0; i < 150; i += 1) {
    cap.step(1 / 60, 8, 3);
    speeds.push(crate.getLinearVelocity().x);
  }
  await cap.close();
  return { speeds, ground };
}

test('a crate caught on the seam between two tiles: named at the step planck stopped it', async () => {
  const out = join(folder, 'tiles.capture.jsonl.gz');
  const { speeds } = await slide('tiles', out);
  const drop = firstDrop(speeds, 0.5);
  assert.notEqual(drop, null, `planck stopped the crate (${speeds.slice(0, 30).map((v) => v.toFixed(2))})`);
  const report = diagnose(out);
  assert.equal(report.engine.name, 'planck');
  const caught = events(report, 'seam').filter((e) => e.caught);
  assert.ok(caught.length > 0);
  assert.equal(caught[0].frame, drop, `the first caught seam is at step ${drop}, where planck's own velocity fell`);
  const names = new Map(lines(out).flatMap((l) => (l.shapes ?? []).filter((s) => s.name).map((s) => [s.id, s.name])));
  assert.equal(names.get(caught[0].shape), 'crate');
  assert.match(names.get(caught[0].face_of), /^tile\d+$/);
  assert.match(names.get(caught[0].covered_by), /^tile\d+$/);
  // Box2D v2 collides two polygons by the faces of their cores, the skin added along the
  // face's normal: where two corners meet (at the seam) that is not the rounded polygon the
  // skin makes. Those claims, and only those, disagree, and collidoscope names the mistake.
  const wrong = disagreeing(report);
  assert.ok(wrong.length > 0);
  for (const c of wrong) {
    assert.ok(c.matches.includes('edge-normals-only'), JSON.stringify(c));
    assert.equal(c.exact.intersecting, false, 'the rounded shapes are apart where the sharp skin meets');
  }
  // Box2D v2 recomputes every touching contact every step: none is named stale.
  assert.deepEqual(events(report, 'stale'), []);
  const atCatch = report.frames[caught[0].frame].claims.find((c) => [c.a, c.b].includes(caught[0].face_of));
  assert.ok(atCatch && !atCatch.agrees, 'the contact that caught the crate is one of them');
});

for (const floor of ['box', 'chain']) {
  test(`the same crate on one floor (${floor}): no seam, no drop, every claim exact`, async () => {
    const out = join(folder, `${floor}.capture.jsonl`);
    const { speeds } = await slide(floor, out);
    assert.equal(firstDrop(speeds, 0.5), null);
    const report = diagnose(out);
    assert.deepEqual(disagreeing(report), []);
    assert.deepEqual(report.events, []);
    assert.ok(report.claims >= 150, `${report.claims} claims`);
  });
}

test('a fast ball through a wall with continuous physics off: tunnelled at the step it passed', async () => {
  const out = join(folder, 'tunnel.capture.jsonl');
  const world = new World({ gravity: Vec2(0, 0), continuousPhysics: false });
  world.createBody({ position: Vec2(5, 0), userData: 'wall' }).createFixture(new Box(0.05, 2));
  const ball = world.createBody({ type: 'dynamic', position: Vec2(0, 0), bullet: true, userData: 'ball' });
  ball.createFixture(new Circle(0.1), { density: 1 });
  ball.setLinearVelocity(Vec2(40, 0));
  const cap = planckCapture(planck, world, { out });
  const xs = [];
  for (let i = 0; i < 20; i += 1) {
    xs.push(ball.getPosition().x); // planck's frame k: the poses before step k
    cap.step(1 / 60);
  }
  await cap.close();
  const passed = passedAt(xs, 4.95 - 0.1, 5.05 + 0.1);
  assert.notEqual(passed, null);
  const report = diagnose(out);
  assert.deepEqual(disagreeing(report), []);
  const tunnels = events(report, 'tunnelled');
  assert.equal(tunnels.length, 1, JSON.stringify(report.events));
  assert.equal(tunnels[0].frame, passed);
  assert.equal(report.settings?.continuousPhysics ?? lines(out)[0].engine.settings.continuousPhysics, false);
});

test('a resting box is held up by the impulses on its claims (docs/format.md, "Impulses")', async () => {
  const out = join(folder, 'resting.capture.jsonl');
  const world = new World({ gravity: Vec2(0, -10) });
  world.createBody({ userData: 'floor' }).createFixture(new Box(8, 0.5, Vec2(0, -0.5)));
  const box = world.createBody({ type: 'dynamic', position: Vec2(0, 0.5), userData: 'box' });
  box.createFixture(new Box(0.5, 0.5), { density: 1 });
  const cap = planckCapture(planck, world, { out, version: '1.5.0' });
  for (let i = 0; i < 60; i += 1) cap.step(1 / 60, 8, 3);
  await cap.close();
  assert.deepEqual(disagreeing(diagnose(out)), []);
  const weight = (box.getMass() * 10) / 60;
  const frames = lines(out).filter((l) => l.frame !== undefined && l.frame >= 20 && (l.claims ?? []).length > 0);
  assert.ok(frames.length >= 10, `${frames.length} frames with a claim`);
  assertImpulsesAddUp(frames, weight, 0.02, 'm g dt');
});
