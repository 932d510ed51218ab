// Captures from matter-js (0.19, 0.20): every body part as the convex polygon matter collides
// (circles included: matter collides a circle's vertices), posed and moving as they were when
// matter detected its collisions in `Engine.update` (after it integrated the bodies, before it
// resolved them), and the collisions it found there.

import { CaptureWriter } from './writer.js';

/**
 * Capture `engine` (a `Matter.Engine`) of the game's `Matter`.
 *
 * ```js
 * const cap = matterCapture(Matter, engine, { out: 'game.capture.jsonl.gz' });
 * cap.step(1000 / 60);   // in place of Matter.Engine.update(engine, 1000 / 60)
 * await cap.close();
 * ```
 * Options: `out` (see the package's README), `units` (default `"px"`), `y_up` (default false:
 * matter's y points down the screen).
 */
export function matterCapture(Matter, engine, given = {}) {
  const options = optionsOf(given, 'matter');
  if (!Matter || !Matter.Engine || !Matter.Detector || !Matter.Composite) {
    throw new Error('collidoscope-capture/matter: the first argument must be the matter-js module (import Matter from "matter-js")');
  }
  if (!engine || !engine.world || !engine.timing) {
    throw new Error('collidoscope-capture/matter: the second argument must be a Matter.Engine');
  }
  const header = {
    engine: {
      name: 'matter-js',
      version: String(Matter.version ?? 'unknown'),
      settings: {
        positionIterations: engine.positionIterations,
        velocityIterations: engine.velocityIterations,
        constraintIterations: engine.constraintIterations,
        enableSleeping: Boolean(engine.enableSleeping),
        slop: 0.05,
        speculative_margin: 0,
        // matter recomputes every collision every step: no claim is a kept one.
        contact_recycling: false,
      },
    },
    precision: 'f64',
    units: options.units ?? 'px',
    y_up: options.y_up ?? false,
  };
  const writer = new CaptureWriter(options.out, header);
  const local = new Map(); // part id -> its points in its body's frame, as written

  /** Every part, and the collisions, as they are when matter detects collisions. */
  function snapshot(collisions) {
    const delta = engine.timing.lastDelta;
    const shapes = [];
    for (const body of Matter.Composite.allBodies(engine.world)) {
      const parts = body.parts.length > 1 ? body.parts.slice(1) : [body];
      const name = nameOf(body);
      const seconds = (body.deltaTime ?? delta * (body.timeScale ?? 1)) / 1000;
      const moving = !body.isStatic && seconds > 0;
      parts.forEach((part, k) => {
        if (part.isSensor || body.isSensor) return;
        const what = parts.length > 1 ? `body '${name}' (id ${body.id}), part ${k + 1}` : `body '${name}' (id ${body.id})`;
        if (!Array.isArray(part.vertices) || part.vertices.length < 3) {
          throw new Error(`collidoscope-capture/matter: ${what}: a part with ${part.vertices?.length ?? 0} vertices is no convex polygon`);
        }
        const points = pointsOf(part, body, local, what);
        shapes.push({
          id: part.id,
          what,
          name: parts.length > 1 ? `${name}/part ${k + 1}` : name,
          kind: 'polygon',
          points,
          geometryOf: points,
          position: [body.position.x, body.position.y],
          angle: body.angle,
          body: body.isStatic ? 'static' : 'dynamic',
          velocity: moving ? [(body.position.x - body.positionPrev.x) / seconds, (body.position.y - body.positionPrev.y) / seconds] : [0, 0],
          angular_velocity: moving ? (body.angle - body.anglePrev) / seconds : 0,
          awake: !body.isStatic && !body.isSleeping,
          filter: filterOf(body.collisionFilter),
          body_id: body.id,
        });
      });
    }
    const manifolds = [];
    for (const c of collisions) {
      if (!c || !c.collided) continue;
      if (c.bodyA.isSensor || c.bodyB.isSensor || c.parentA?.isSensor || c.parentB?.isSensor) continue;
      const count = c.supportCount ?? c.supports.length;
      const points = [];
      for (let i = 0; i < count; i += 1) {
        const s = c.supports[i];
        if (s) points.push({ point: [s.x, s.y], separation: -c.depth });
      }
      // matter's normal points from bodyB toward bodyA: the claim is (B, A).
      manifolds.push({ a: c.bodyB.id, b: c.bodyA.id, normal: [c.normal.x, c.normal.y], points, collision: c });
    }
    return { time: engine.timing.timestamp / 1000, shapes, manifolds };
  }

  return {
    writer,
    /** Matter's own step (`Matter.Engine.update(engine, delta)`), captured. */
    step(delta = 1000 / 60) {
      const detector = Matter.Detector;
      const original = detector.collisions;
      let seen = null;
      let problem = null;
      detector.collisions = function collisions(...args) {
        const found = original.apply(this, args);
        try {
          seen = snapshot(found);
        } catch (e) {
          problem = e;
        }
        return found;
      };
      try {
        Matter.Engine.update(engine, delta);
      } finally {
        detector.collisions = original;
      }
      if (problem) throw problem;
      if (seen) {
        impulses(Matter, engine, seen.manifolds, (delta * (engine.timing.timeScale ?? 1)) / 1000);
        writer.frame(seen.time, seen.shapes, seen.manifolds);
      }
      return engine;
    },
    /** End the capture. */
    close: () => writer.close(),
  };
}

/**
 * Each point's impulse, read once the step is solved: matter keeps a resting contact's
 * accumulated normal impulse on its pair's contact (`normalImpulse`, <= 0, in mass times
 * pixels per step), matched to the collision's supports in order (0.19: its active contacts); as mass times pixels per
 * second, the velocities' unit. matter keeps none for an impact faster than its resting
 * threshold (it applies it and stores 0): such a point's impulse is the 0 matter kept.
 */
function impulses(Matter, engine, manifolds, seconds) {
  for (const m of manifolds) {
    const c = m.collision;
    // matter 0.20 links a collision to its pair, whose contacts follow the supports; 0.19
    // keeps the pair in the engine's table, its active contacts in the supports' order.
    const pair = c?.pair ?? engine.pairs?.table?.[Matter.Pair?.id?.(c.bodyA, c.bodyB)];
    const contacts = Array.isArray(pair?.activeContacts) ? pair.activeContacts : pair?.contacts;
    if (!Array.isArray(contacts) || !(seconds > 0)) continue;
    m.points.forEach((p, i) => {
      const j = contacts[i]?.normalImpulse;
      if (typeof j === 'number') p.impulse = Math.max(0, -j) / seconds;
    });
  }
}

/** The options, or `out` given alone (a path, a function or a ws:// address). */
export function optionsOf(given, adapter) {
  if (typeof given === 'string' || typeof given === 'function') return { out: given };
  if (given && typeof given === 'object' && !Array.isArray(given)) return given;
  throw new Error(`collidoscope-capture/${adapter}: the third argument is the options, { out: 'game.capture.jsonl' } (or the output alone), found ${given === null ? 'null' : typeof given}`);
}

/** A body's name: its `label`, with its id when the label is matter's default. */
function nameOf(body) {
  const label = body.label ?? 'Body';
  return /(^|\s)Body$/.test(label) ? `${label} ${body.id}` : label;
}

/** matter's filter in the capture's words (bits as unsigned 32-bit integers). */
function filterOf(f) {
  if (!f) return undefined;
  return { category: (f.category ?? 1) >>> 0, mask: (f.mask ?? 0xffffffff) >>> 0, group: f.group ?? 0 };
}

/**
 * A part's vertices in its body's frame. Kept from the frame they were first written while
 * they still agree (to 1e-9 of the part's size) with the vertices matter collides now, so an
 * unchanged part is not written again; a part matter reshaped (`Body.scale`, `setVertices`)
 * is written anew.
 */
function pointsOf(part, body, local, what) {
  const c = Math.cos(body.angle);
  const s = Math.sin(body.angle);
  const now = part.vertices.map((v) => {
    const dx = v.x - body.position.x;
    const dy = v.y - body.position.y;
    return [c * dx + s * dy, -s * dx + c * dy];
  });
  for (const p of now) {
    if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) {
      throw new Error(`collidoscope-capture/matter: ${what}: a vertex is not a finite number`);
    }
  }
  const kept = local.get(part.id);
  if (kept && kept.length === now.length) {
    let size = 0;
    for (const p of kept) size = Math.max(size, Math.abs(p[0]), Math.abs(p[1]));
    const tolerance = 1e-9 * (1 + size);
    if (kept.every((p, i) => Math.abs(p[0] - now[i][0]) <= tolerance && Math.abs(p[1] - now[i][1]) <= tolerance)) {
      return kept;
    }
  }
  local.set(part.id, now);
  return now;
}
