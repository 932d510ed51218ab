// Compiled by types.test.js: what a TypeScript game writes type-checks against the package's
// declarations.
import { CaptureWriter, collector, type CapturedShape } from 'collidoscope-capture';
import { matterCapture } from 'collidoscope-capture/matter';
import { planckCapture } from 'collidoscope-capture/planck';
import { rapierCapture, FIRST_PART_ID } from 'collidoscope-capture/rapier';

declare const Matter: unknown;
declare const engine: unknown;
const cap = matterCapture(Matter, engine, { out: 'game.capture.jsonl.gz' });
cap.step(1000 / 60);
void cap.close();
const p = planckCapture({}, {}, { out: 'ws://127.0.0.1:9713', version: '1.5.0' });
p.step(1 / 60, 8, 3);
const r = rapierCapture({}, {}, { out: (line: string) => console.log(line) });
r.step();
const shape: CapturedShape = { id: FIRST_PART_ID, kind: 'circle', radius: 1, position: [0, 0], angle: 0, body: 'dynamic', awake: true };
const lines = collector();
const w = new CaptureWriter(lines, { engine: { name: 'mine', version: '1' }, precision: 'f64', units: 'm', y_up: true });
w.frame(0, [shape], []);
const text: string = lines.text();
void text;
