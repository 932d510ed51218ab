// Captures from Rapier's JavaScript build (@dimforge/rapier2d, -compat, -simd-compat; 0.19 to
// 0.21), the same reading as collidoscope's Rust Rapier adapter: every collider's shape and
// pose read before `world.step` (Rapier computes a step's contacts at its start, before it
// moves the bodies), and every contact manifold read after it. Rapier's WebAssembly build
// computes in f32; its handles are numbers that are mapped to integer ids.
//
// Rapier JS recycles contacts (a pair that moved little keeps the points of an earlier step)
// and has no switch to turn that off: those claims are written as Rapier made them, and
// `collidoscope diagnose` names them stale.

import { CaptureWriter } from './writer.js';
import { optionsOf } from './matter.js';

/** The first id of a piece of a collider made of pieces, as in the Rust adapter: 2^52. */
export const FIRST_PART_ID = 2 ** 52;

// Rapier's ShapeType numbers (stable from 0.11 on).
const BALL = 0;
const CUBOID = 1;
const CAPSULE = 2;
const SEGMENT = 3;
const POLYLINE = 4;
const TRIANGLE = 5;
const TRIMESH = 6;
const HEIGHTFIELD = 7;
const COMPOUND = 8;
const CONVEX_POLYGON = 9;
const ROUND_CUBOID = 10;
const ROUND_TRIANGLE = 11;
const ROUND_CONVEX_POLYGON = 12;
const HALF_SPACE = 13;
const VOXELS = 14;
const NAMES = ['Ball', 'Cuboid', 'Capsule', 'Segment', 'Polyline', 'Triangle', 'TriMesh', 'HeightField', 'Compound', 'ConvexPolygon', 'RoundCuboid', 'RoundTriangle', 'RoundConvexPolygon', 'HalfSpace', 'Voxels'];

/**
 * Capture `world` (a `RAPIER.World`) of the game's `RAPIER` (after `await RAPIER.init()` for
 * the -compat builds).
 *
 * ```js
 * const cap = rapierCapture(RAPIER, world, { out: 'game.capture.jsonl.gz' });
 * cap.step(eventQueue);   // in place of world.step(eventQueue)
 * await cap.close();
 * ```
 * Options: `out`, `units` (default `"m"`), `y_up` (default true), `version` (the package's
 * version for the header, when `RAPIER.version()` is missing).
 */
export function rapierCapture(RAPIER, world, given = {}) {
  const options = optionsOf(given, 'rapier');
  if (!RAPIER || typeof RAPIER.World !== 'function') {
    throw new Error("collidoscope-capture/rapier: the first argument must be the Rapier module (import RAPIER from '@dimforge/rapier2d-compat', after await RAPIER.init())");
  }
  if (!world || typeof world.step !== 'function' || typeof world.forEachCollider !== 'function') {
    throw new Error('collidoscope-capture/rapier: the second argument must be a RAPIER.World');
  }
  const p = world.integrationParameters;
  const lengthUnit = p.lengthUnit ?? 1;
  const prediction = (p.normalizedPredictionDistance ?? 0.002) * lengthUnit;
  const header = {
    engine: {
      name: 'rapier2d-js',
      version: String(typeof RAPIER.version === 'function' ? RAPIER.version() : (options.version ?? 'unknown')),
      settings: {
        contact_recycling: true,
        dt: p.dt,
        length_unit: lengthUnit,
        prediction_distance: prediction,
        speculative_margin: prediction,
        num_solver_iterations: p.numSolverIterations,
      },
    },
    precision: 'f32',
    units: options.units ?? 'm',
    y_up: options.y_up ?? true,
  };
  const writer = new CaptureWriter(options.out, header);
  const ids = new Map(); // collider handle -> id
  const pieceIds = new Map(); // "handle/k" -> id
  let nextId = 1;
  let nextPiece = FIRST_PART_ID;
  const bodyIds = new Map(); // body handle -> id
  let nextBody = 1;
  const converted = new WeakMap(); // a Rapier shape -> its capture pieces
  let time = 0;

  /** Every collider's capture shapes, read now (before the step). */
  function read() {
    const shapes = [];
    const colliders = new Map(); // handle -> { pieces: [{ id, part, pose }], what }
    world.forEachCollider((collider) => {
      if (collider.isSensor() || !collider.isEnabled()) return;
      const handle = collider.handle;
      let id = ids.get(handle);
      if (id === undefined) {
        id = nextId++;
        ids.set(handle, id);
      }
      const parent = collider.parent();
      const bodyName = nameOf(collider.userData) ?? nameOf(parent?.userData);
      const name = bodyName ?? `collider ${id}`;
      const what = `collider '${name}' (handle ${handle})`;
      const kind = bodyKind(RAPIER, parent);
      const t = collider.translation();
      const angle = collider.rotation();
      const pose = { x: t.x, y: t.y, angle };
      let velocity = [0, 0];
      let angular = 0;
      let com = null;
      if (parent && kind !== 'static') {
        const v = parent.linvel();
        angular = parent.angvel();
        velocity = [v.x, v.y];
        if (angular !== 0) {
          com = parent.worldCom();
          velocity = [v.x - angular * (t.y - com.y), v.y + angular * (t.x - com.x)];
        }
      }
      const awake = kind !== 'static' && !(parent && parent.isSleeping());
      const groups = collider.collisionGroups();
      const filter = { category: (groups >>> 16) & 0xffff, mask: groups & 0xffff };
      let bodyId = null;
      if (parent) {
        bodyId = bodyIds.get(parent.handle);
        if (bodyId === undefined) {
          bodyId = nextBody++;
          bodyIds.set(parent.handle, bodyId);
        }
      }
      const shape = collider.shape; // Rapier keeps it (setShape replaces it)
      let cached = converted.get(shape);
      if (cached === undefined || cached.kind !== kind) {
        cached = { kind, pieces: piecesOf(shape, kind, what) };
        converted.set(shape, cached);
      }
      const pieces = cached.pieces;
      const entry = { pieces: [], what, fixed: kind === 'static', collider };
      for (const piece of pieces) {
        let pid = id;
        let pname = name;
        let at = pose;
        if (piece.part !== null) {
          const key = `${handle}/${piece.part}`;
          pid = pieceIds.get(key);
          if (pid === undefined) {
            pid = nextPiece++;
            pieceIds.set(key, pid);
          }
          pname = `${name}/${piece.word} ${piece.part}`;
          at = compose(pose, piece.local);
        }
        let v = velocity;
        if (piece.local && (piece.local.x !== 0 || piece.local.y !== 0) && com !== null) {
          v = [velocity[0] - angular * (at.y - t.y), velocity[1] + angular * (at.x - t.x)];
        }
        entry.pieces.push({ id: pid, part: piece.part, pose: at });
        shapes.push({
          id: pid,
          geometryOf: piece.shape,
          what: piece.part === null ? what : `${what}, ${piece.word} ${piece.part}`,
          name: pname,
          ...piece.shape,
          position: [at.x, at.y],
          angle: at.angle,
          body: kind,
          velocity: v,
          angular_velocity: angular,
          awake,
          filter,
          body_id: bodyId,
        });
      }
      colliders.set(handle, entry);
    });
    return { shapes, colliders };
  }

  /**
   * Every contact pair with a solver contact: its manifolds as claims. Each pair is met from
   * its moving collider (from the lower handle when both move): two fixed colliders have none.
   */
  function manifolds(colliders) {
    const out = [];
    const narrow = world.narrowPhase;
    for (const [handle, entry] of colliders) {
      if (entry.fixed) continue;
      narrow.contactPairsWith(handle, (other) => {
        const second = colliders.get(other);
        if (second === undefined || (!second.fixed && other < handle)) return;
        const found = [];
        let active = false;
        // World.contactPair: the same in every version (NarrowPhase.contactPair took the body set
        // only from 0.20 on).
        world.contactPair(entry.collider, second.collider, (manifold, flipped) => {
          const [h1, h2] = flipped ? [other, handle] : [handle, other];
          const e1 = colliders.get(h1);
          const e2 = colliders.get(h2);
          const p1 = pieceOf(e1, manifold.subshape1());
          const p2 = pieceOf(e2, manifold.subshape2());
          if (!p1 || !p2) return;
          if (manifold.numSolverContacts() > 0) active = true;
          const n = manifold.normal();
          const points = [];
          for (let i = 0; i < manifold.numContacts(); i += 1) {
            const l1 = manifold.localContactPoint1(i);
            const l2 = manifold.localContactPoint2(i);
            if (!l1 || !l2) continue;
            const w1 = place(p1.pose, l1);
            const w2 = place(p2.pose, l2);
            points.push({
              point: [(w1[0] + w2[0]) / 2, (w1[1] + w2[1]) / 2],
              separation: manifold.contactDist(i),
              // The solver's impulse at the point over the step (read after it).
              impulse: typeof manifold.contactImpulse === 'function' ? manifold.contactImpulse(i) : undefined,
            });
          }
          found.push({ a: p1.id, b: p2.id, normal: [n.x, n.y], points });
        });
        if (active) out.push(...found);
      });
    }
    return out;
  }

  return {
    writer,
    /** Rapier's own step (`world.step(eventQueue, hooks)`), captured. */
    step(eventQueue, hooks) {
      if (eventQueue !== undefined && eventQueue !== null && typeof eventQueue !== 'object') {
        throw new Error(`collidoscope-capture/rapier: step(eventQueue, hooks) takes what world.step takes (a RAPIER.EventQueue, or nothing), found ${typeof eventQueue} ${eventQueue}`);
      }
      const before = read();
      const t = time;
      world.step(eventQueue, hooks);
      time += world.timestep ?? p.dt;
      writer.frame(t, before.shapes, manifolds(before.colliders));
      return world;
    },
    /** End the capture. */
    close: () => writer.close(),
  };
}

function nameOf(data) {
  if (typeof data === 'string' && data !== '') return data;
  if (data && typeof data === 'object') {
    const n = data.name ?? data.label;
    if (typeof n === 'string' && n !== '') return n;
  }
  return null;
}

function bodyKind(RAPIER, body) {
  if (!body) return 'static';
  const t = body.bodyType();
  const T = RAPIER.RigidBodyType;
  if (t === T.Fixed) return 'static';
  if (t === T.Dynamic) return 'dynamic';
  return 'kinematic';
}

/** The piece a manifold's subshape names: the whole collider's, or that piece. */
function pieceOf(entry, subshape) {
  if (!entry) return null;
  if (entry.pieces.length === 1 && entry.pieces[0].part === null) return entry.pieces[0];
  return entry.pieces.find((p) => p.part === subshape) ?? null;
}

function compose(pose, local) {
  if (!local) return pose;
  const c = Math.cos(pose.angle);
  const s = Math.sin(pose.angle);
  return { x: pose.x + c * local.x - s * local.y, y: pose.y + s * local.x + c * local.y, angle: pose.angle + local.angle };
}

function place(pose, p) {
  const c = Math.cos(pose.angle);
  const s = Math.sin(pose.angle);
  return [pose.x + c * p.x - s * p.y, pose.y + s * p.x + c * p.y];
}

const IDENTITY = null;

/** The capture shapes of a Rapier shape: itself, or its pieces. */
function piecesOf(shape, kind, what) {
  const type = shape.type;
  const fixedOnly = (name) => {
    if (kind !== 'static') {
      throw new Error(`collidoscope-capture/rapier: ${what}: its shape is a ${name} on a ${kind} body: its segments are captured as segments, which a capture holds on fixed bodies only (use a Compound of capsules or polygons on a moving body)`);
    }
  };
  const pairs = (array) => {
    const out = [];
    for (let i = 0; i + 1 < array.length; i += 2) out.push([array[i], array[i + 1]]);
    return out;
  };
  switch (type) {
    case COMPOUND: {
      if (shape.flags) {
        throw new Error(`collidoscope-capture/rapier: ${what}: its shape is a Compound with CompoundFlags.FIX_INTERNAL_EDGES: its contact normals are clamped by pseudo-normals of the whole surface, which no single piece gives; capture it without the flag`);
      }
      return shape.shapes.map((part, k) => {
        const r = shape.rotations[k];
        const angle = typeof r === 'number' ? r : Math.atan2(r.sin ?? r.y ?? 0, r.cos ?? r.x ?? 1);
        const local = { x: Math.fround(shape.positions[k].x), y: Math.fround(shape.positions[k].y), angle: Math.fround(angle) };
        return { part: k, word: 'part', shape: whole(part, kind, `${what}, part ${k}`), local };
      });
    }
    case POLYLINE: {
      if (shape.flags & 1) {
        throw new Error(`collidoscope-capture/rapier: ${what}: its shape is a Polyline with PolylineFlags.ORIENTED, which a capture cannot hold; capture it without the flag`);
      }
      fixedOnly('Polyline');
      const v = pairs(shape.vertices);
      const idx = shape.indices && shape.indices.length > 0 ? pairs(shape.indices) : v.slice(0, -1).map((_, i) => [i, i + 1]);
      return idx.map(([i, j], k) => ({ part: k, word: 'segment', shape: { kind: 'segment', a: v[i], b: v[j] }, local: IDENTITY }));
    }
    case HEIGHTFIELD: {
      fixedOnly('HeightField');
      const h = shape.heights;
      const n = h.length;
      const out = [];
      for (let k = 0; k + 1 < n; k += 1) {
        // parry's cell k, computed in f32 as parry computes it.
        const f = Math.fround;
        const step = f(1 / (n - 1));
        const x0 = f(-0.5 + f(step * k));
        const x1 = f(x0 + step);
        const [sx, sy] = [f(shape.scale.x), f(shape.scale.y)];
        out.push({ part: k, word: 'segment', shape: { kind: 'segment', a: [f(x0 * sx), f(h[k] * sy)], b: [f(x1 * sx), f(h[k + 1] * sy)] }, local: IDENTITY });
      }
      return out;
    }
    case TRIMESH: {
      if (shape.flags & 0x80) {
        throw new Error(`collidoscope-capture/rapier: ${what}: its shape is a TriMesh with TriMeshFlags.FIX_INTERNAL_EDGES: its contact normals are clamped by pseudo-normals of the whole surface, which no single piece gives; capture it without the flag`);
      }
      const v = pairs(shape.vertices);
      const out = [];
      for (let k = 0; k * 3 + 2 < shape.indices.length; k += 1) {
        const t = [0, 1, 2].map((j) => v[shape.indices[k * 3 + j]]);
        out.push({ part: k, word: 'triangle', shape: { kind: 'polygon', points: t }, local: IDENTITY });
      }
      return out;
    }
    default:
      return [{ part: null, word: '', shape: whole(shape, kind, what), local: IDENTITY }];
  }
}

/**
 * A Rapier shape that is one capture shape. Its numbers are the f32 ones Rapier collides (the
 * JavaScript object may hold the f64 the game passed: 0.05 is 0.05000000074505806 there).
 */
function whole(shape, kind, what) {
  const f = Math.fround;
  const v = (p) => [f(p.x), f(p.y)];
  const polygon = (vertices) => {
    const out = [];
    for (let i = 0; i + 1 < vertices.length; i += 2) out.push([vertices[i], vertices[i + 1]]);
    return out;
  };
  switch (shape.type) {
    case BALL:
      return { kind: 'circle', radius: f(shape.radius) };
    case CUBOID:
    case ROUND_CUBOID: {
      const [x, y] = v(shape.halfExtents);
      const points = [[-x, -y], [x, -y], [x, y], [-x, y]];
      return shape.type === ROUND_CUBOID ? { kind: 'polygon', points, radius: f(shape.borderRadius) } : { kind: 'polygon', points };
    }
    case CAPSULE:
      return { kind: 'capsule', a: [0, -f(shape.halfHeight)], b: [0, f(shape.halfHeight)], radius: f(shape.radius) };
    case SEGMENT:
      if (kind !== 'static') {
        throw new Error(`collidoscope-capture/rapier: ${what}: its shape is a Segment on a ${kind} body, which a capture holds on fixed bodies only (use a Capsule)`);
      }
      return { kind: 'segment', a: v(shape.a), b: v(shape.b) };
    case TRIANGLE:
      return { kind: 'polygon', points: [v(shape.a), v(shape.b), v(shape.c)] };
    case ROUND_TRIANGLE:
      return { kind: 'polygon', points: [v(shape.a), v(shape.b), v(shape.c)], radius: f(shape.borderRadius) };
    case CONVEX_POLYGON:
      return { kind: 'polygon', points: polygon(shape.vertices) };
    case ROUND_CONVEX_POLYGON:
      return { kind: 'polygon', points: polygon(shape.vertices), radius: f(shape.borderRadius) };
    case HALF_SPACE:
    case VOXELS:
    default:
      throw new Error(`collidoscope-capture/rapier: ${what}: its shape is a ${NAMES[shape.type] ?? `shape of type ${shape.type}`}, which has no collidoscope kind (captured: Ball, Cuboid, Capsule, ConvexPolygon, Triangle, their Round forms, Segment, Polyline and HeightField on a fixed body, TriMesh, and Compound of these)`);
  }
}
