// A capture streamed over a WebSocket (as a game in a browser page streams it) to
// `collidoscope diagnose --listen`: the same events as the file of the same run.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Matter from 'matter-js';
import { matterCapture } from 'collidoscope-capture/matter';
import { collidoscope, diagnose, scratch } from './helpers.js';

const { Engine, Bodies, Composite, Body } = Matter;

/** The tiles scene of matter.test.js, written to `out`. */
async function tiles(out) {
  const engine = Engine.create();
  const floor = Array.from({ length: 40 }, (_, i) => Bodies.rectangle(16 + 32 * i, 400, 32, 32, { isStatic: true, label: `tile${i + 1}` }));
  const crate = Bodies.rectangle(40, 364, 40, 40, { label: 'crate', friction: 0, frictionAir: 0 });
  Composite.add(engine.world, [...floor, crate]);
  Body.setVelocity(crate, { x: 6, y: 0 });
  const cap = matterCapture(Matter, engine, { out });
  for (let i = 0; i < 90; i += 1) cap.step(1000 / 60);
  await cap.close();
}

/** Events without their ids (matter numbers bodies anew in each run), in order. */
function named(events) {
  return events.map(({ a, b, shape, face_of: f, covered_by: c, ...rest }) => rest);
}

test('streamed over a WebSocket to diagnose --listen: the same claims and events as the file', async () => {
  const listening = spawn(collidoscope(), ['diagnose', '--listen', '0', '--json', '--idle', '30']);
  let stdout = '';
  let stderr = '';
  listening.stdout.on('data', (d) => {
    stdout += d;
  });
  const port = await new Promise((resolve, reject) => {
    listening.stderr.on('data', (d) => {
      stderr += d;
      const m = stderr.match(/127\.0\.0\.1:(\d+)/);
      if (m) resolve(Number(m[1]));
    });
    listening.on('exit', () => reject(new Error(`diagnose --listen ended: ${stderr}`)));
  });
  const status = new Promise((resolve) => listening.on('exit', resolve));
  await tiles(`ws://127.0.0.1:${port}`);
  assert.equal(await status, 1, `an event happened, so diagnose exits 1 (${stderr})`);
  const streamed = stdout.trim().split('\n').map((l) => JSON.parse(l));
  const summary = streamed.at(-1);
  const file = join(scratch('stream'), 'tiles.capture.jsonl');
  await tiles(file);
  const report = diagnose(file);
  assert.equal(summary.claims, report.claims);
  assert.equal(summary.agreeing, report.agreeing);
  assert.equal(summary.engine.name, 'matter-js');
  assert.deepEqual(named(summary.events), named(report.events));
  // Each event was said as soon as its frame came, before the summary.
  const said = streamed.slice(0, -1).filter((l) => l.kind);
  assert.deepEqual(named(said), named(report.events));
  assert.ok(report.events.length > 0);
  assert.match(stderr, /matter-js 0\.20\.0 connected; its capture is kept as /);
});

test('a ws:// address anywhere but this machine is refused', () => {
  const engine = Engine.create();
  assert.throws(() => matterCapture(Matter, engine, { out: 'ws://192.168.1.4:9713' }), /streams to this machine only/);
});
