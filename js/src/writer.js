// The capture writer: the file conventions of collidoscope's own Rust `CaptureWriter`
// (docs/format.md, "Captures"): a header line, then one line a step holding only the shapes
// added or changed since the line before, each line flushed as it is written, so a game that
// crashes leaves every frame before the crash intact. Engine adapters (./matter.js,
// ./planck.js, ./rapier.js) turn a world into the plain data this writer takes.

import { openOutput } from './output.js';

/** The capture format this package writes. */
export const FORMAT = 'collidoscope-capture';
/** The capture format's version. */
export const VERSION = 1;

const KINDS = new Set(['circle', 'capsule', 'polygon', 'segment', 'chain']);
const BODIES = new Set(['static', 'kinematic', 'dynamic']);

/**
 * A capture being written.
 *
 * `header`: `{ engine: { name, version, settings? }, precision: 'f64' | 'f32', units, y_up }`.
 * `out`: what `openOutput` takes (a file path in Node, a function given each line, a
 * `ws://127.0.0.1:PORT` address, or an object with `write(line)` and `close()`).
 */
export class CaptureWriter {
  constructor(out, header) {
    checkHeader(header);
    this.out = openOutput(out);
    this.frameNumber = 0;
    /** id -> { kind, geometry (its JSON text), name, filter, bodyId, pose (as written) } */
    this.known = new Map();
    this.removed = new Set();
    this.closed = false;
    this.out.write(headerLine(header));
  }

  /**
   * Write one frame: `time` in seconds, every shape as the engine collided it this step, and
   * every contact manifold it reported.
   *
   * A shape: `{ id, name?, kind, radius?, a?, b?, points?, loop?, position: [x, y], angle,
   * body: 'static' | 'kinematic' | 'dynamic', velocity?: [vx, vy], angular_velocity?, awake,
   * filter?: { category, mask, group?, either? } | null, body_id?: number | null, what }` where
   * `what` names it in errors ("body 'crate', part 2").
   *
   * A manifold: `{ a, b, normal: [x, y] (from a toward b), points: [{ point: [x, y],
   * separation, impulse? }] (negative when penetrating; the solver's normal impulse at the
   * point over the step, >= 0, where the engine gives it), piece? }`.
   *
   * Nothing is written when a number is not finite or an id is repeated: the Error names the
   * shape or the pair, and the file keeps every frame before.
   */
  frame(time, shapes, manifolds) {
    if (this.closed) throw new Error('collidoscope-capture: the capture is closed');
    if (!Number.isFinite(time) || time < 0) {
      throw new Error(`collidoscope-capture: frame ${this.frameNumber}: the time ${time} must be a finite number >= 0`);
    }
    const present = new Map();
    for (const s of shapes) {
      const earlier = this.known.get(s.id);
      // A shape whose geometry is the same object as last frame's (`geometryOf`) has its
      // geometry checked once.
      const geometryKnown = earlier !== undefined && s.geometryOf !== undefined && s.geometryOf === earlier.geometryOf && s.kind === earlier.kind;
      if (!(geometryKnown && quickPose(s))) checkShape(s, geometryKnown);
      if (present.has(s.id)) {
        throw new Error(`collidoscope-capture: ${s.what ?? `shape ${s.id}`}: id ${s.id} is given twice in one frame`);
      }
      if (earlier === undefined && this.removed.has(s.id)) {
        throw new Error(`collidoscope-capture: ${s.what ?? `shape ${s.id}`}: id ${s.id} was removed earlier and cannot come back`);
      }
      if (earlier !== undefined && earlier.kind !== s.kind) {
        throw new Error(`collidoscope-capture: ${s.what ?? `shape ${s.id}`}: id ${s.id} was a ${earlier.kind} and is now a ${s.kind} (an id never changes kind)`);
      }
      present.set(s.id, s);
    }
    // The last check: from here on nothing throws, and what the line says is remembered as
    // it is made.
    const claims = chooseClaims(manifolds, present, this.frameNumber);
    let line = `{"frame":${this.frameNumber},"time":${num(time)},"shapes":[`;
    let first = true;
    for (const s of shapes) {
      const keys = this.shapeKeys(s);
      if (keys === '') continue;
      line += first ? `{"id":${s.id}${keys}}` : `,{"id":${s.id}${keys}}`;
      first = false;
    }
    line += ']';
    if (this.known.size > present.size) {
      const gone = [];
      for (const id of this.known.keys()) if (!present.has(id)) gone.push(id);
      gone.sort((x, y) => x - y);
      line += `,"removed":[${gone.join(',')}]`;
      for (const id of gone) {
        this.known.delete(id);
        this.removed.add(id);
      }
    }
    line += `,"claims":[${claims}]}\n`;
    this.out.write(line);
    this.frameNumber += 1;
  }

  /**
   * The keys of `s` to write after its id: all the first time, then those that changed; what
   * is written is remembered.
   */
  shapeKeys(s) {
    const before = this.known.get(s.id);
    const isStatic = s.body === 'static';
    const velocity = isStatic || s.velocity === undefined ? ZERO : s.velocity;
    const angular = isStatic ? 0 : (s.angular_velocity ?? 0);
    const filter = s.filter === undefined || s.filter === null ? null : JSON.stringify(s.filter);
    const bodyId = s.body_id ?? null;
    const name = s.name ?? null;
    if (before === undefined) {
      const geometry = geometryKeys(s);
      let keys = '';
      if (name !== null) keys += `,"name":${JSON.stringify(String(name))}`;
      keys += `,"kind":"${s.kind}"${geometry}`;
      if (filter !== null) keys += `,"filter":${filter}`;
      if (bodyId !== null) keys += `,"body_id":${bodyId}`;
      keys += `,"position":${point(s.position)},"angle":${num(s.angle)},"body":"${s.body}"`;
      if (!isStatic) keys += `,"velocity":${point(velocity)},"angular_velocity":${num(angular)}`;
      this.known.set(s.id, {
        kind: s.kind,
        geometry,
        geometryOf: s.geometryOf,
        name,
        filter,
        bodyId,
        x: s.position[0],
        y: s.position[1],
        angle: s.angle,
        body: s.body,
        vx: velocity[0],
        vy: velocity[1],
        angular,
      });
      return keys;
    }
    let keys = '';
    if (name !== before.name && name !== null) keys += `,"name":${JSON.stringify(String(name))}`;
    before.name = name;
    if (s.geometryOf === undefined || s.geometryOf !== before.geometryOf) {
      const geometry = geometryKeys(s);
      if (geometry !== before.geometry) keys += geometry;
      before.geometry = geometry;
      before.geometryOf = s.geometryOf;
    }
    if (filter !== before.filter) keys += `,"filter":${filter ?? 'null'}`;
    before.filter = filter;
    if (bodyId !== before.bodyId) keys += `,"body_id":${bodyId ?? 'null'}`;
    before.bodyId = bodyId;
    const [x, y] = s.position;
    if (!Object.is(x, before.x) || !Object.is(y, before.y)) keys += `,"position":[${num(x)},${num(y)}]`;
    if (!Object.is(s.angle, before.angle)) keys += `,"angle":${num(s.angle)}`;
    if (s.body !== before.body) keys += `,"body":"${s.body}"`;
    const [vx, vy] = velocity;
    if (!Object.is(vx, before.vx) || !Object.is(vy, before.vy)) keys += `,"velocity":[${num(vx)},${num(vy)}]`;
    if (!Object.is(angular, before.angular)) keys += `,"angular_velocity":${num(angular)}`;
    before.x = x;
    before.y = y;
    before.angle = s.angle;
    before.body = s.body;
    before.vx = vx;
    before.vy = vy;
    before.angular = angular;
    return keys;
  }

  /** End the capture: the output is finished (a file closed; a stream's end sent). */
  async close() {
    if (this.closed) return;
    this.closed = true;
    await this.out.close();
  }
}

const ZERO = [0, 0];

/** Whether a known shape's pose and motion are finite numbers and its body a body type (the common case, checked without making a message). */
function quickPose(s) {
  const p = s.position;
  const v = s.velocity;
  return (
    Number.isFinite(p[0]) &&
    Number.isFinite(p[1]) &&
    Number.isFinite(s.angle) &&
    (v === undefined || (Number.isFinite(v[0]) && Number.isFinite(v[1]))) &&
    (s.angular_velocity === undefined || Number.isFinite(s.angular_velocity)) &&
    (s.body === 'dynamic' || s.body === 'static' || s.body === 'kinematic') &&
    (s.body === 'static' || (s.kind !== 'segment' && s.kind !== 'chain'))
  );
}

/** The header's line. */
export function headerLine(header) {
  const engine = { name: header.engine.name, version: header.engine.version };
  if (header.engine.settings && Object.keys(header.engine.settings).length > 0) {
    engine.settings = header.engine.settings;
  }
  return `${JSON.stringify({
    format: FORMAT,
    version: VERSION,
    engine,
    precision: header.precision,
    units: header.units,
    y_up: header.y_up,
  })}\n`;
}

function checkHeader(h) {
  const fail = (m) => {
    throw new Error(`collidoscope-capture: the header: ${m}`);
  };
  if (!h || typeof h !== 'object') fail('it must be an object');
  if (!h.engine || typeof h.engine.name !== 'string' || h.engine.name === '') fail('"engine.name" must be a non-empty string');
  if (typeof h.engine.version !== 'string') fail('"engine.version" must be a string');
  if (h.precision !== 'f64' && h.precision !== 'f32') fail(`"precision" must be "f64" or "f32", found ${JSON.stringify(h.precision)}`);
  if (typeof h.units !== 'string' || h.units === '') fail('"units" must be a non-empty string');
  if (typeof h.y_up !== 'boolean') fail('"y_up" must be true or false');
}

/**
 * Refuse, naming the shape, what the reader would refuse or JSON cannot hold (its geometry
 * left alone when `geometryKnown`: checked when it was first given).
 */
function checkShape(s, geometryKnown) {
  const what = s.what ?? `shape ${s.id}`;
  const fail = (m) => {
    throw new Error(`collidoscope-capture: ${what}: ${m}`);
  };
  if (!Number.isSafeInteger(s.id) || s.id < 0) fail(`the id ${s.id} must be an integer in [0, 2^53)`);
  if (!KINDS.has(s.kind)) fail(`"kind" ${JSON.stringify(s.kind)} is not one of circle, capsule, polygon, segment, chain`);
  if (!BODIES.has(s.body)) fail(`"body" ${JSON.stringify(s.body)} is not static, kinematic or dynamic`);
  if ((s.kind === 'segment' || s.kind === 'chain') && s.body !== 'static') {
    fail(`a ${s.kind} is static geometry: it cannot be on a ${s.body} body`);
  }
  const finitePoint = (p, key) => {
    if (!Array.isArray(p) || p.length !== 2 || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) {
      fail(`"${key}" must be two finite numbers, found ${shown(p)}`);
    }
  };
  const finite = (x, key) => {
    if (!Number.isFinite(x)) fail(`"${key}" must be a finite number, found ${x}`);
  };
  finitePoint(s.position, 'position');
  finite(s.angle, 'angle');
  if (s.velocity !== undefined) finitePoint(s.velocity, 'velocity');
  if (s.angular_velocity !== undefined) finite(s.angular_velocity, 'angular_velocity');
  if (geometryKnown) return;
  if (s.kind === 'circle' || s.kind === 'capsule') {
    finite(s.radius, 'radius');
    if (!(s.radius > 0)) fail(`a ${s.kind}'s "radius" must be > 0, found ${s.radius}`);
  }
  if (s.kind === 'polygon' && s.radius !== undefined) {
    finite(s.radius, 'radius');
    if (s.radius < 0) fail(`a polygon's "radius" must be >= 0, found ${s.radius}`);
  }
  if (s.kind === 'capsule' || s.kind === 'segment') {
    finitePoint(s.a, 'a');
    finitePoint(s.b, 'b');
  }
  if (s.kind === 'polygon' || s.kind === 'chain') {
    if (!Array.isArray(s.points)) fail('"points" must be a list of points');
    s.points.forEach((p, i) => finitePoint(p, `points[${i}]`));
    if (s.kind === 'polygon' && s.points.length < 3) fail(`a polygon needs 3 points or more, found ${s.points.length}`);
    if (s.kind === 'chain' && s.points.length < 2) fail(`a chain needs 2 points or more, found ${s.points.length}`);
  }
}

/** A shape's geometry keys, as text (compared bit for bit, by the text). */
function geometryKeys(s) {
  switch (s.kind) {
    case 'circle':
      return `,"radius":${num(s.radius)}`;
    case 'capsule':
      return `,"a":${point(s.a)},"b":${point(s.b)},"radius":${num(s.radius)}`;
    case 'segment':
      return `,"a":${point(s.a)},"b":${point(s.b)}`;
    case 'polygon': {
      const pts = `,"points":[${s.points.map(point).join(',')}]`;
      return s.radius > 0 ? `${pts},"radius":${num(s.radius)}` : pts;
    }
    case 'chain':
      return `,"points":[${s.points.map(point).join(',')}],"loop":${s.loop ? 'true' : 'false'}`;
    default:
      return '';
  }
}

/**
 * The claims of a frame, as text: one per pair (the deepest manifold when the engine gives a
 * pair more than one), manifolds with no point left out, and pairs of two shapes that are not
 * awake left out (the engine did not recompute them this step).
 */
function chooseClaims(manifolds, present, frame) {
  const chosen = [];
  // Pairs met so far, by lower id then higher id (an engine rarely gives a pair twice).
  const at = new Map();
  for (const m of manifolds) {
    const a = present.get(m.a);
    const b = present.get(m.b);
    if (a === undefined || b === undefined) {
      const missing = a ? m.b : m.a;
      throw new Error(`collidoscope-capture: frame ${frame}: a contact of ids ${m.a} and ${m.b} names id ${missing}, which is not among this frame's shapes`);
    }
    if (m.points.length === 0 || m.a === m.b) continue;
    if (!a.awake && !b.awake) continue;
    const [text, deepest] = claimText(m, a, b);
    const [low, high] = m.a < m.b ? [m.a, m.b] : [m.b, m.a];
    let row = at.get(low);
    if (row === undefined) {
      row = new Map();
      at.set(low, row);
    }
    const earlier = row.get(high);
    if (earlier === undefined) {
      row.set(high, chosen.length);
      chosen.push({ text, deepest });
    } else if (deepest < chosen[earlier].deepest) {
      chosen[earlier] = { text, deepest };
    }
  }
  return chosen.map((c) => c.text);
}

/**
 * A manifold's claim: intersecting when some point's separation is < 0 (depth the deepest,
 * contacts the penetrating points); else a speculative apart claim with its unit normal, its
 * smallest separation and its points.
 */
function claimText(m, a, b) {
  const nx = m.normal[0];
  const ny = m.normal[1];
  let deepest = Infinity;
  let finite = Number.isFinite(nx) && Number.isFinite(ny);
  for (const p of m.points) {
    if (!(Number.isFinite(p.separation) && Number.isFinite(p.point[0]) && Number.isFinite(p.point[1]))) finite = false;
    if (p.separation < deepest) deepest = p.separation;
  }
  if (!finite) refuseClaim(m, a, b);
  const length = Math.hypot(nx, ny);
  const piece = m.piece === undefined || m.piece === null ? '' : `,"piece":${m.piece}`;
  const head = `{"a":${m.a},"b":${m.b}`;
  if (deepest < 0) {
    if (!(length > 0)) refuseClaim(m, a, b);
    const kept = m.points.filter((p) => p.separation < 0);
    const contacts = kept.map((p) => point(p.point)).join(',');
    return [`${head},"intersecting":true,"depth":${num(-deepest)},"normal":[${num(nx / length)},${num(ny / length)}],"contacts":[${contacts}]${piece}${impulses(kept)}}`, deepest];
  }
  if (!(length > 0)) return [`${head},"intersecting":false${piece}}`, deepest];
  const contacts = m.points.map((p) => point(p.point)).join(',');
  return [`${head},"intersecting":false,"normal":[${num(nx / length)},${num(ny / length)}],"separation":${num(deepest)},"contacts":[${contacts}]${piece}${impulses(m.points)}}`, deepest];
}

/**
 * The points' impulses as the claim's `"impulses"` (one per point: the normal impulse the
 * engine's solver applied there over the step), when every point has one that is a finite
 * number >= 0; else none (an impulse the engine did not give leaves them all out, never the
 * claim).
 */
function impulses(points) {
  if (points.length === 0) return '';
  for (const p of points) {
    if (!(typeof p.impulse === 'number' && Number.isFinite(p.impulse) && p.impulse >= 0)) return '';
  }
  return `,"impulses":[${points.map((p) => num(p.impulse + 0)).join(',')}]`;
}

/** Why a manifold cannot be a claim, naming the pair. */
function refuseClaim(m, a, b) {
  const what = `the contact of ${a.what ?? `shape ${m.a}`} and ${b.what ?? `shape ${m.b}`}`;
  if (!Number.isFinite(m.normal[0]) || !Number.isFinite(m.normal[1])) {
    throw new Error(`collidoscope-capture: ${what}: the normal ${shown(m.normal)} is not finite`);
  }
  const i = m.points.findIndex((p) => !Number.isFinite(p.separation) || !Number.isFinite(p.point[0]) || !Number.isFinite(p.point[1]));
  if (i >= 0) throw new Error(`collidoscope-capture: ${what}: point ${i} has a number that is not finite`);
  throw new Error(`collidoscope-capture: ${what}: an intersecting contact needs a normal`);
}

/** A value as a message shows it: NaN and the infinities by name (JSON would say null). */
function shown(value) {
  return Array.isArray(value) ? `[${value.map(shown).join(', ')}]` : String(value);
}

/** A number as JSON writes it: the shortest digits that read back to the same double. */
export function num(x) {
  return Object.is(x, -0) ? '0' : String(x);
}

function point(p) {
  return `[${num(p[0])},${num(p[1])}]`;
}
