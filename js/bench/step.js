// The capture's cost a step beside the engine's own step, at 1,000 bodies, for each engine:
// two copies of one scene (1,000 boxes and balls falling into a pile on a floor), one stepped
// by the engine alone and one through the adapter, writing a plain file (and a gzip one), the
// same steps interleaved in rounds so both see the same pile. Run: npm run bench
// (node bench/step.js [bodies] [steps]).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Matter from 'matter-js';
import * as planckModule from 'planck';
import RAPIER from '@dimforge/rapier2d-compat';
import { matterCapture } from '../src/matter.js';
import { planckCapture } from '../src/planck.js';
import { rapierCapture } from '../src/rapier.js';

const planck = planckModule.default ?? planckModule;
const bodies = Number(process.argv[2] ?? 1000);
const steps = Number(process.argv[3] ?? 240);
const folder = mkdtempSync(join(tmpdir(), 'collidoscope-js-bench-'));
await RAPIER.init();

function matterWorld() {
  const engine = Matter.Engine.create();
  const things = [Matter.Bodies.rectangle(1000, 1020, 2400, 40, { isStatic: true, label: 'floor' })];
  for (let i = 0; i < bodies; i += 1) {
    const [x, y] = [100 + (i % 50) * 36, 980 - Math.floor(i / 50) * 36];
    things.push(i % 2 ? Matter.Bodies.rectangle(x, y, 30, 30) : Matter.Bodies.circle(x, y, 15));
  }
  Matter.Composite.add(engine.world, things);
  return { plain: () => Matter.Engine.update(engine, 1000 / 60), capture: (out) => matterCapture(Matter, engine, { out }) };
}

function planckWorld() {
  const world = new planck.World({ gravity: planck.Vec2(0, -10) });
  world.createBody().createFixture(new planck.Box(40, 0.5, planck.Vec2(20, -0.5)));
  for (let i = 0; i < bodies; i += 1) {
    const body = world.createBody({ type: 'dynamic', position: planck.Vec2(1 + (i % 50) * 0.7, 0.4 + Math.floor(i / 50) * 0.7) });
    body.createFixture(i % 2 ? new planck.Box(0.3, 0.3) : new planck.Circle(0.3), { density: 1 });
  }
  return { plain: () => world.step(1 / 60, 8, 3), capture: (out) => planckCapture(planck, world, { out }) };
}

function rapierWorld() {
  const world = new RAPIER.World({ x: 0, y: -9.81 });
  world.createCollider(RAPIER.ColliderDesc.cuboid(40, 0.5).setTranslation(20, -0.5));
  for (let i = 0; i < bodies; i += 1) {
    const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(1 + (i % 50) * 0.7, 0.4 + Math.floor(i / 50) * 0.7));
    world.createCollider(i % 2 ? RAPIER.ColliderDesc.cuboid(0.3, 0.3) : RAPIER.ColliderDesc.ball(0.3), body);
  }
  return { plain: () => world.step(), capture: (out) => rapierCapture(RAPIER, world, { out }) };
}

const rows = [];
for (const [name, make] of [['matter-js 0.20.0', matterWorld], ['planck 1.5.0', planckWorld], ['rapier2d-compat 0.21.0', rapierWorld]]) {
  for (const gz of [false, true]) {
    const alone = make();
    const captured = make();
    const cap = captured.capture(join(folder, `${name.split(' ')[0]}.capture.jsonl${gz ? '.gz' : ''}`));
    let [plainTime, capTime] = [0, 0];
    for (let k = 0; k < steps; k += 1) {
      let t = process.hrtime.bigint();
      alone.plain();
      plainTime += Number(process.hrtime.bigint() - t);
      t = process.hrtime.bigint();
      cap.step();
      capTime += Number(process.hrtime.bigint() - t);
    }
    await cap.close();
    const step = plainTime / steps / 1e6;
    const captureOnly = (capTime - plainTime) / steps / 1e6;
    rows.push({ engine: name, file: gz ? 'gzip' : 'plain', 'step (ms)': step.toFixed(2), 'capture (ms)': captureOnly.toFixed(2), 'capture / step': (captureOnly / step).toFixed(2), 'capture a body (us)': ((captureOnly * 1000) / bodies).toFixed(2) });
  }
}
rmSync(folder, { recursive: true, force: true });
console.log(`${bodies} bodies, ${steps} steps, Node ${process.version}`);
console.table(rows);
