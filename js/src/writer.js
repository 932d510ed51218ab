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
   * separation }] (negative when penetrating), piece? }`.
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
      checkShape(s);
      if (present.has(s.id)) {
        throw new Error(`collidoscope-capture: ${s.what ?? `shape ${s.id}`}: id ${s.id} is given twice in one frame`);
      }
      if (this.removed.has(s.id)) {
        throw new Error(`collidoscope-capture: ${s.what ?? `shape ${s.id}`}: id ${s.id} was removed earlier and cannot come back`);
      }
      const known = this.known.get(s.id);
      if (known && known.kind !== s.kind) {
        throw new Error(`collidoscope-capture: ${s.what ?? `shape ${s.id}`}: id ${s.id} was a ${known.kind} and is now a ${s.kind} (an id never changes kind)`);
      }
      present.set(s.id, s);
    }
    const claims = chooseClaims(manifolds, present, this.frameNumber);
    let line = `{"frame":${this.frameNumber},"time":${num(time)},"shapes":[`;
    let first = true;
    const updates = [];
    for (const s of shapes) {
      const [keys, written] = this.shapeKeys(s);
      updates.push([s.id, written]);
      if (keys === '') continue;
      line += `${first ? '' : ','}{"id":${s.id}${keys}}`;
      first = false;
    }
    line += ']';
    const gone = [...this.known.keys()].filter((id) => !present.has(id)).sort((x, y) => x - y);
    if (gone.length > 0) line += `,"removed":[${gone.join(',')}]`;
    line += `,"claims":[${claims.join(',')}]}\n`;
    // Only now, with the whole line made, is what it says remembered.
    for (const id of gone) {
      this.known.delete(id);
      this.removed.add(id);
    }
    for (const [id, written] of updates) this.known.set(id, written);
    this.out.write(line);
    this.frameNumber += 1;
  }

  /** The keys of `s` to write after its id: all the first time, then those that changed. */
  shapeKeys(s) {
    const before = this.known.get(s.id);
    const geometry = geometryKeys(s);
    const isStatic = s.body === 'static';
    const velocity = isStatic ? [0, 0] : (s.velocity ?? [0, 0]);
    const angular = isStatic ? 0 : (s.angular_velocity ?? 0);
    const written = {
      kind: s.kind,
      geometry,
      name: s.name ?? null,
      filter: s.filter === undefined ? null : JSON.stringify(s.filter),
      bodyId: s.body_id ?? null,
      position: s.position,
      angle: s.angle,
      body: s.body,
      velocity,
      angular,
    };
    let keys = '';
    if (!before) {
      if (s.name != null) keys += `,"name":${JSON.stringify(String(s.name))}`;
      keys += `,"kind":"${s.kind}"${geometry}`;
      if (written.filter !== null) keys += `,"filter":${written.filter}`;
      if (written.bodyId !== null) keys += `,"body_id":${written.bodyId}`;
      keys += `,"position":${point(s.position)},"angle":${num(s.angle)},"body":"${s.body}"`;
      if (!isStatic) keys += `,"velocity":${point(velocity)},"angular_velocity":${num(angular)}`;
      return [keys, written];
    }
    if (written.name !== before.name && written.name !== null) keys += `,"name":${JSON.stringify(String(written.name))}`;
    if (geometry !== before.geometry) keys += geometry;
    if (written.filter !== before.filter) keys += `,"filter":${written.filter ?? 'null'}`;
    if (written.bodyId !== before.bodyId) keys += `,"body_id":${written.bodyId ?? 'null'}`;
    if (!samePoint(s.position, before.position)) keys += `,"position":${point(s.position)}`;
    if (!Object.is(s.angle, before.angle)) keys += `,"angle":${num(s.angle)}`;
    if (s.body !== before.body) keys += `,"body":"${s.body}"`;
    if (!samePoint(velocity, before.velocity)) keys += `,"velocity":${point(velocity)}`;
    if (!Object.is(angular, before.angular)) keys += `,"angular_velocity":${num(angular)}`;
    return [keys, written];
  }

  /** End the capture: the output is finished (a file closed; a stream's end sent). */
  async close() {
    if (this.closed) return;
    this.closed = true;
    await this.out.close();
  }
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

/** Refuse, naming the shape, what the reader would refuse or JSON cannot hold. */
function checkShape(s) {
  const what = s.what ?? `shape ${s.id}`;
  const fail = (m) => {
    throw new Error(`collidoscope-capture: ${what}: ${m}`);
  };
  if (!Number.isSafeInteger(s.id) || s.id < 0) fail(`the id ${s.id} must be an integer in [0, 2^53)`);
  if (!KINDS.has(s.kind)) fail(`"kind" ${JSON.stringify(s.kind)} is not one of circle, capsule, polygon, segment, chain`);
  if (!BODIES.has(s.body)) fail(`"body" ${JSON.stringify(s.body)} is not static, kinematic or dynamic`);
  const finitePoint = (p, key) => {
    if (!Array.isArray(p) || p.length !== 2 || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) {
      fail(`"${key}" must be two finite numbers, found ${JSON.stringify(p)}`);
    }
  };
  const finite = (x, key) => {
    if (!Number.isFinite(x)) fail(`"${key}" must be a finite number, found ${x}`);
  };
  finitePoint(s.position, 'position');
  finite(s.angle, 'angle');
  if (s.velocity !== undefined) finitePoint(s.velocity, 'velocity');
  if (s.angular_velocity !== undefined) finite(s.angular_velocity, 'angular_velocity');
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
  if ((s.kind === 'segment' || s.kind === 'chain') && s.body !== 'static') {
    fail(`a ${s.kind} is static geometry: it cannot be on a ${s.body} body`);
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
  const chosen = new Map();
  for (const m of manifolds) {
    const a = present.get(m.a);
    const b = present.get(m.b);
    if (!a || !b) {
      const missing = a ? m.b : m.a;
      throw new Error(`collidoscope-capture: frame ${frame}: a contact of ids ${m.a} and ${m.b} names id ${missing}, which is not among this frame's shapes`);
    }
    if (m.points.length === 0 || m.a === m.b) continue;
    if (!a.awake && !b.awake) continue;
    const [text, deepest] = claimText(m, a, b);
    const key = m.a < m.b ? `${m.a},${m.b}` : `${m.b},${m.a}`;
    const earlier = chosen.get(key);
    if (!earlier || deepest < earlier.deepest) chosen.set(key, { text, deepest });
  }
  return [...chosen.values()].map((c) => c.text);
}

/**
 * A manifold's claim: intersecting when some point's separation is < 0 (depth the deepest,
 * contacts the penetrating points); else a speculative apart claim with its unit normal, its
 * smallest separation and its points.
 */
function claimText(m, a, b) {
  const what = `the contact of ${a.what ?? `shape ${m.a}`} and ${b.what ?? `shape ${m.b}`}`;
  const fail = (x) => {
    throw new Error(`collidoscope-capture: ${what}: ${x}`);
  };
  if (!Number.isFinite(m.normal[0]) || !Number.isFinite(m.normal[1])) fail(`the normal ${JSON.stringify(m.normal)} is not finite`);
  m.points.forEach((p, i) => {
    if (!Number.isFinite(p.separation) || !Number.isFinite(p.point[0]) || !Number.isFinite(p.point[1])) {
      fail(`point ${i} has a number that is not finite`);
    }
  });
  const deepest = Math.min(...m.points.map((p) => p.separation));
  const length = Math.hypot(m.normal[0], m.normal[1]);
  const piece = m.piece === undefined || m.piece === null ? '' : `,"piece":${m.piece}`;
  const head = `{"a":${m.a},"b":${m.b}`;
  if (deepest < 0) {
    if (!(length > 0)) fail('an intersecting contact needs a normal');
    const n = [m.normal[0] / length, m.normal[1] / length];
    const contacts = m.points.filter((p) => p.separation < 0).map((p) => point(p.point));
    return [`${head},"intersecting":true,"depth":${num(-deepest)},"normal":${point(n)},"contacts":[${contacts.join(',')}]${piece}}`, deepest];
  }
  if (!(length > 0)) return [`${head},"intersecting":false${piece}}`, deepest];
  const n = [m.normal[0] / length, m.normal[1] / length];
  const contacts = m.points.map((p) => point(p.point));
  return [`${head},"intersecting":false,"normal":${point(n)},"separation":${num(deepest)},"contacts":[${contacts.join(',')}]${piece}}`, deepest];
}

/** A number as JSON writes it: the shortest digits that read back to the same double. */
export function num(x) {
  return Object.is(x, -0) ? '0' : String(x);
}

function point(p) {
  return `[${num(p[0])},${num(p[1])}]`;
}

function samePoint(p, q) {
  return Object.is(p[0], q[0]) && Object.is(p[1], q[1]);
}
