// Captures from planck.js (1.x, Box2D v2 in JavaScript): every fixture as collidoscope's
// shape (circles; polygons with their skin, `Settings.polygonRadius` = 0.01 m, as a rounded
// polygon's radius; edges as segments; chains as chains), posed where planck computed the
// step's contacts (before the step: `World.step` updates contacts, then solves), and every
// touching contact's manifold as planck's `getWorldManifold` gives it at those poses.

import { CaptureWriter } from './writer.js';
import { optionsOf } from './matter.js';

/**
 * Capture `world` (a `planck.World`) of the game's `planck`.
 *
 * ```js
 * const cap = planckCapture(planck, world, { out: 'game.capture.jsonl.gz' });
 * cap.step(1 / 60, 8, 3);   // in place of world.step(1 / 60, 8, 3)
 * await cap.close();
 * ```
 * Options: `out`, `units` (default `"m"`), `y_up` (default true), `version` (planck's version
 * for the header: planck does not say it; default "1").
 *
 * An edge's or chain's skin (0.01 m, as a polygon's) has no place on a collidoscope segment or
 * chain: it is taken off each point's separation of a claim with one (the claim is then about
 * the bare edge, which is what the file holds). A polygon keeps its skin as its radius.
 */
export function planckCapture(planck, world, given = {}) {
  const options = optionsOf(given, 'planck');
  if (!planck || typeof planck.World !== 'function') {
    throw new Error("collidoscope-capture/planck: the first argument must be the planck module (import * as planck from 'planck')");
  }
  if (!world || typeof world.step !== 'function' || typeof world.getBodyList !== 'function') {
    throw new Error('collidoscope-capture/planck: the second argument must be a planck.World');
  }
  const header = {
    engine: {
      name: 'planck',
      version: String(options.version ?? '1'),
      settings: {
        continuousPhysics: Boolean(world.m_continuousPhysics),
        blockSolve: Boolean(world.m_blockSolve),
        warmStarting: Boolean(world.m_warmStarting),
        polygonRadius: planck.Settings?.polygonRadius ?? 0.01,
        speculative_margin: 0,
        // Box2D v2 recomputes every touching contact every step: no claim is a kept one.
        contact_recycling: false,
      },
    },
    precision: 'f64',
    units: options.units ?? 'm',
    y_up: options.y_up ?? true,
  };
  const writer = new CaptureWriter(options.out, header);
  const ids = new WeakMap(); // fixture -> id
  const bodyIds = new WeakMap(); // body -> id
  const backIds = new WeakMap(); // chain fixture -> the id of its reversed copy
  const converted = new WeakMap(); // a planck shape -> its capture geometry (planck keeps it)
  let chains = new Map(); // chain fixture -> { points, loop, back } of this frame
  let nextId = 1;
  let nextBody = 1;
  let time = 0;
  const idOf = (map, thing, next) => {
    let id = map.get(thing);
    if (id === undefined) {
      id = next();
      map.set(thing, id);
    }
    return id;
  };

  /** Every fixture, as planck has it now. */
  function shapes() {
    const out = [];
    chains = new Map();
    for (let body = world.getBodyList(); body; body = body.getNext()) {
      const bodyId = idOf(bodyIds, body, () => nextBody++);
      const type = body.getType();
      const kind = type === 'static' ? 'static' : type === 'kinematic' ? 'kinematic' : 'dynamic';
      const position = body.getPosition();
      const angle = body.getAngle();
      const origin = body.getLinearVelocityFromWorldPoint(position);
      const bodyName = nameOf(body.getUserData()) ?? `body ${bodyId}`;
      const fixtures = [];
      for (let f = body.getFixtureList(); f; f = f.getNext()) fixtures.push(f);
      // planck keeps fixtures newest first: name them in the order the game made them.
      fixtures.reverse();
      fixtures.forEach((fixture, k) => {
        if (fixture.isSensor()) return;
        const name = nameOf(fixture.getUserData()) ?? (fixtures.length > 1 ? `${bodyName}/fixture ${k + 1}` : bodyName);
        const what = `body '${bodyName}', fixture ${k + 1}`;
        const planckShape = fixture.getShape();
        let known = converted.get(planckShape);
        if (known === undefined || known.body !== kind) {
          known = { body: kind, ...geometry(planckShape, what, kind) };
          converted.set(planckShape, known);
        }
        const { offset, body: _, ...kept } = known;
        let [at, moving] = [position, origin];
        if (offset && (offset[0] !== 0 || offset[1] !== 0)) {
          at = body.getWorldPoint(planck.Vec2(offset[0], offset[1]));
          moving = body.getLinearVelocityFromWorldPoint(at);
        }
        const shape = {
          id: idOf(ids, fixture, () => nextId++),
          what,
          name,
          ...kept,
          geometryOf: known,
          position: [at.x, at.y],
          angle,
          body: kind,
          velocity: [moving.x, moving.y],
          angular_velocity: body.getAngularVelocity(),
          awake: kind !== 'static' && body.isAwake(),
          filter: {
            category: fixture.getFilterCategoryBits() >>> 0,
            mask: fixture.getFilterMaskBits() >>> 0,
            group: fixture.getFilterGroupIndex(),
          },
          body_id: bodyId,
        };
        out.push(shape);
        if (shape.kind === 'chain') {
          // planck's chains are two-sided; a collidoscope chain collides from its front (the
          // right of its direction) only: the chain is written twice, the second reversed
          // ("NAME (back)"), and each claim names the one whose front it touches.
          const back = idOf(backIds, fixture, () => nextId++);
          chains.set(fixture, { points: shape.points, loop: shape.loop, back });
          known.reversed ??= [...shape.points].reverse();
          out.push({ ...shape, id: back, name: `${name} (back)`, what: `${what} (its back)`, points: known.reversed, geometryOf: known.reversed });
        }
      });
    }
    return out;
  }

  /** Every touching contact's manifold, at the poses of now. */
  function manifolds() {
    const out = [];
    for (let c = world.getContactList(); c; c = c.getNext()) {
      if (!c.isTouching() || !c.isEnabled()) continue;
      const fa = c.getFixtureA();
      const fb = c.getFixtureB();
      if (fa.isSensor() || fb.isSensor()) continue;
      const wm = c.getWorldManifold(null);
      if (!wm) continue;
      const count = c.getManifold().pointCount;
      // An edge's or chain's skin is not in the file's segment or chain: off the separation.
      const skin = bare(fa.getShape()) + bare(fb.getShape());
      const points = [];
      for (let i = 0; i < count; i += 1) {
        const p = wm.points[i];
        points.push({ point: [p.x, p.y], separation: wm.separations[i] + skin });
      }
      let [a, b, piece] = [ids.get(fa), ids.get(fb), undefined];
      const normal = [wm.normal.x, wm.normal.y];
      if (chains.has(fa) || chains.has(fb)) {
        const onA = chains.has(fa);
        const chain = chains.get(onA ? fa : fb);
        const fromChain = onA ? normal : [-normal[0], -normal[1]];
        const [id, k] = chainPiece(chain, onA ? c.getChildIndexA() : c.getChildIndexB(), fromChain, onA ? a : b);
        piece = k;
        if (onA) a = id;
        else b = id;
      }
      out.push({ a, b, normal, points, piece, contact: c, count });
    }
    return out;
  }

  return {
    writer,
    /** planck's own step (`world.step(dt, velocityIterations, positionIterations)`), captured. */
    step(dt = 1 / 60, velocityIterations, positionIterations) {
      // The contacts are read where planck updates them, before it solves: wrap its update.
      const update = world.updateContacts;
      let seen = null;
      let problem = null;
      world.updateContacts = function updateContacts(...args) {
        const result = update.apply(this, args);
        try {
          seen = { shapes: shapes(), manifolds: manifolds() };
        } catch (e) {
          problem = e;
        }
        return result;
      };
      try {
        world.step(dt, velocityIterations, positionIterations);
      } finally {
        delete world.updateContacts;
        if (world.updateContacts !== update) world.updateContacts = update;
      }
      if (problem) throw problem;
      if (seen) {
        // The step's impulses, stored on the manifold's points once planck has solved it.
        for (const m of seen.manifolds) {
          const stored = m.contact.getManifold().points;
          m.points.forEach((p, i) => {
            const j = i < m.count ? stored[i]?.normalImpulse : undefined;
            if (typeof j === 'number') p.impulse = j;
          });
        }
        writer.frame(time, seen.shapes, seen.manifolds);
      }
      time += dt;
      return world;
    },
    /** End the capture. */
    close: () => writer.close(),
  };
}

/**
 * The chain (the one written as planck has it, or its reversed copy) and piece a contact on
 * planck's child edge `child` touches, by the side its normal (from the chain) leaves from.
 */
function chainPiece(chain, child, fromChain, id) {
  const n = chain.points.length;
  const k = chain.loop ? child : child + 1;
  const p = chain.points[k];
  const q = chain.points[(k + 1) % n];
  const front = [q[1] - p[1], -(q[0] - p[0])];
  if (front[0] * fromChain[0] + front[1] * fromChain[1] >= 0) return [id, k];
  return [chain.back, chain.loop ? (((n - 2 - child) % n) + n) % n : n - 3 - child];
}

/** A name from user data: a string, or an object's `name` or `label`. */
function nameOf(data) {
  if (typeof data === 'string' && data !== '') return data;
  if (data && typeof data === 'object') {
    const n = data.name ?? data.label;
    if (typeof n === 'string' && n !== '') return n;
  }
  return null;
}

/** The skin of a shape the file holds bare (an edge's or chain's), else 0. */
function bare(shape) {
  const type = shape.getType();
  return type === 'edge' || type === 'chain' ? shape.m_radius : 0;
}

/** A planck shape's collidoscope kind and geometry (in the body's frame). */
function geometry(shape, what, body) {
  const type = shape.getType();
  const v = (p) => [p.x, p.y];
  switch (type) {
    case 'circle': {
      const c = shape.m_p;
      // A collidoscope circle is centred on its position: one off its body's origin is posed
      // at its centre.
      return { kind: 'circle', radius: shape.m_radius, offset: v(c) };
    }
    case 'polygon':
      return { kind: 'polygon', points: shape.m_vertices.slice(0, shape.m_count).map(v), radius: shape.m_radius };
    case 'edge':
      return { kind: 'segment', a: v(shape.m_vertex1), b: v(shape.m_vertex2), ...staticOnly(what, body, 'edge') };
    case 'chain': {
      let points = shape.m_vertices.slice(0, shape.m_count).map(v);
      const loop = Boolean(shape.m_isLoop);
      if (loop) {
        // A loop repeats its first vertex at its end.
        const [f, l] = [points[0], points[points.length - 1]];
        if (points.length > 1 && f[0] === l[0] && f[1] === l[1]) points = points.slice(0, -1);
      } else {
        // collidoscope's open chain starts and ends with ghost points: planck's own (setPrevVertex,
        // setNextVertex) where the game set them, else the end pieces carried straight on.
        const [p0, p1] = [points[0], points[1]];
        const [q1, q0] = [points[points.length - 2], points[points.length - 1]];
        const before = shape.m_hasPrevVertex ? v(shape.m_prevVertex) : [2 * p0[0] - p1[0], 2 * p0[1] - p1[1]];
        const after = shape.m_hasNextVertex ? v(shape.m_nextVertex) : [2 * q0[0] - q1[0], 2 * q0[1] - q1[1]];
        points = [before, ...points, after];
      }
      return { kind: 'chain', points, loop, ...staticOnly(what, body, 'chain') };
    }
    default:
      throw new Error(`collidoscope-capture/planck: ${what}: a ${type} shape has no collidoscope kind`);
  }
}

function staticOnly(what, body, type) {
  if (body !== 'static') {
    throw new Error(`collidoscope-capture/planck: ${what}: an ${type} on a ${body} body cannot be captured (collidoscope's segments and chains are static geometry)`);
  }
  return {};
}
