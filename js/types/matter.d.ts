import type { CaptureOptions, EngineCapture } from './index.js';

/**
 * Capture a matter-js (0.19, 0.20) engine: every body's parts as the convex polygons matter
 * collides (circles included), at the moment it detects collisions (after integrating, before
 * resolving), and the collisions it found. `step(delta)` stands in for
 * `Matter.Engine.update(engine, delta)`.
 */
export declare function matterCapture(
  Matter: unknown,
  engine: unknown,
  options: CaptureOptions,
): EngineCapture<(delta?: number) => unknown>;
