// What the engine tests share: the collidoscope binary that judges the captures, and reading
// a capture back.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const repository = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The collidoscope binary: COLLIDOSCOPE_BIN, else the repository's debug or release build. */
export function collidoscope() {
  const candidates = [process.env.COLLIDOSCOPE_BIN, join(repository, 'target/debug/collidoscope'), join(repository, 'target/release/collidoscope')];
  const found = candidates.find((c) => c && existsSync(c));
  if (!found) {
    throw new Error(`no collidoscope binary: build it (cargo build) or set COLLIDOSCOPE_BIN; looked at ${candidates.filter(Boolean).join(', ')}`);
  }
  return found;
}

/** `collidoscope diagnose --json FILE`, parsed (its exit status is 1 when it found anything). */
export function diagnose(file) {
  let text;
  try {
    text = execFileSync(collidoscope(), ['diagnose', '--json', file], { maxBuffer: 1 << 30 }).toString();
  } catch (e) {
    if (e.status !== 1 || !e.stdout) throw e;
    text = e.stdout.toString();
  }
  const report = JSON.parse(text);
  if (report.error) throw new Error(`diagnose refused ${file}: ${report.error}`);
  return report;
}

/** The folders made by `scratch` in this test file's process. */
const made = [];
process.on('exit', () => made.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** A fresh folder for a test's captures, removed when the test file's process ends. */
export function scratch(name) {
  const folder = mkdtempSync(join(tmpdir(), `collidoscope-js-${name}-`));
  made.push(folder);
  return folder;
}

/** A capture's lines, parsed (gzip or not). */
export function lines(file) {
  let bytes = readFileSync(file);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  return bytes.toString().trim().split('\n').map((l) => JSON.parse(l));
}

/** The claims of a report that do not agree. */
export function disagreeing(report) {
  return report.frames.flatMap((f) => f.claims.filter((c) => !c.agrees).map((c) => ({ frame: f.frame, ...c })));
}

/** The events of a kind. */
export function events(report, kind) {
  return report.events.filter((e) => e.kind === kind);
}

/** The first step k at which a speed fell below half of the step before's (speeds[k] is after step k). */
export function firstDrop(speeds, floor) {
  for (let k = 1; k < speeds.length; k += 1) {
    if (speeds[k - 1] > floor && speeds[k] < speeds[k - 1] / 2) return k;
  }
  return null;
}

/** The first k with xs[k] before `from` and xs[k + 1] past `to`. */
export function passedAt(xs, from, to) {
  for (let k = 0; k + 1 < xs.length; k += 1) {
    if (xs[k] < from && xs[k + 1] > to) return k;
  }
  return null;
}

/**
 * Check that the first claim of every frame in `frames` carries one impulse per contact point,
 * adding up to `expected` within `share` of it (a resting body's impulses hold its weight up:
 * m g dt a step).
 */
export function assertImpulsesAddUp(frames, expected, share, what = 'the expected impulse') {
  for (const f of frames) {
    const claim = (f.claims ?? [])[0];
    assert.ok(claim, `frame ${f.frame}: no claim`);
    const { impulses, contacts } = claim;
    assert.ok(Array.isArray(impulses), `frame ${f.frame}: impulses on ${JSON.stringify(claim)}`);
    assert.equal(impulses.length, contacts.length);
    const total = impulses.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(total - expected) < share * expected, `frame ${f.frame}: ${impulses} add up to ${total}, against ${what} = ${expected}`);
  }
}
