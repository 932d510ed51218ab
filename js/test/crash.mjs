// A game that dies mid-run (SIGKILL: no exit handler runs) after 50 captured steps, writing
// to the file named by its argument. Run by writer.test.js.
import Matter from 'matter-js';
import { matterCapture } from 'collidoscope-capture/matter';

const engine = Matter.Engine.create();
Matter.Composite.add(engine.world, [
  Matter.Bodies.rectangle(0, 100, 400, 20, { isStatic: true, label: 'floor' }),
  Matter.Bodies.circle(0, 0, 10, { label: 'ball' }),
]);
const cap = matterCapture(Matter, engine, { out: process.argv[2] });
for (let i = 0; i < 50; i += 1) cap.step(1000 / 60);
process.kill(process.pid, 'SIGKILL');
