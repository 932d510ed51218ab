// The examples' game: a crate pushed over a floor of 32-px tiles (it catches on a seam, as
// matter's boxes do) and a ball bouncing along, drawn with matter's own renderer.

/** Make the world into `engine`; the crate and the ball. */
export function buildScene(Matter, engine) {
  const { Bodies, Composite, Body } = Matter;
  const tiles = Array.from({ length: 25 }, (_, i) => Bodies.rectangle(16 + 32 * i, 400, 32, 32, { isStatic: true, label: `tile${i + 1}`, render: { fillStyle: '#3b4252', strokeStyle: '#9aa3b5', lineWidth: 1 } }));
  const crate = Bodies.rectangle(40, 364, 40, 40, { label: 'crate', friction: 0, frictionAir: 0, render: { fillStyle: '#e0a040' } });
  const ball = Bodies.circle(200, 200, 14, { label: 'ball', restitution: 0.8, render: { fillStyle: '#5aa0e0' } });
  Composite.add(engine.world, [...tiles, crate, ball]);
  Body.setVelocity(crate, { x: 6, y: 0 });
  Body.setVelocity(ball, { x: 2, y: 0 });
  return { crate, ball };
}

/** Draw the world on `canvas` (matter's Render, not running: drawn after each step). */
export function renderer(Matter, engine, canvas) {
  const render = Matter.Render.create({ canvas, engine, options: { width: canvas.width, height: canvas.height, wireframes: false, background: '#1b1d22' } });
  return () => Matter.Render.world(render);
}

/** Run `steps` steps of `step`, one an animation frame, drawing after each; resolves when done. */
export function play(steps, step, draw, said) {
  return new Promise((done) => {
    let k = 0;
    const tick = () => {
      step();
      draw();
      k += 1;
      said(k);
      if (k < steps) requestAnimationFrame(tick);
      else done();
    };
    requestAnimationFrame(tick);
  });
}
