import type { CaptureOptions, EngineCapture } from './index.js';

/** The first id of a piece of a collider made of pieces (a Compound's part, a Polyline's segment...): 2^52. */
export declare const FIRST_PART_ID: number;

/**
 * Capture a Rapier JS (0.19 to 0.21; plain, -compat, -simd-compat) world: every collider's
 * shape and pose before the step, every contact manifold after it, in f32. `step(eventQueue?,
 * hooks?)` stands in for `world.step`. Rapier JS recycles contacts: `collidoscope diagnose`
 * names those claims stale.
 */
export declare function rapierCapture(
  RAPIER: unknown,
  world: unknown,
  options: CaptureOptions & { version?: string },
): EngineCapture<(eventQueue?: unknown, hooks?: unknown) => unknown>;
