import type { CaptureOptions, EngineCapture } from './index.js';

/**
 * Capture a planck.js (1.x) world: circles, polygons with their 0.01 m skin as a rounded
 * polygon's radius, edges as segments, chains as chains (written twice, once reversed: planck's
 * chains are two-sided), posed before the step, with every touching contact's manifold.
 * `step(dt, velocityIterations?, positionIterations?)` stands in for `world.step`.
 */
export declare function planckCapture(
  planck: unknown,
  world: unknown,
  options: CaptureOptions & { version?: string },
): EngineCapture<(dt?: number, velocityIterations?: number, positionIterations?: number) => unknown>;
