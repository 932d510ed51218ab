// Type declarations of collidoscope-capture (the writer and the outputs). The engine adapters
// are declared in matter.d.ts, planck.d.ts and rapier.d.ts.

/** The capture format this package writes: "collidoscope-capture". */
export declare const FORMAT: 'collidoscope-capture';
/** The capture format's version. */
export declare const VERSION: 1;

/** A capture's header (docs/format.md, "Captures"). */
export interface Header {
  engine: { name: string; version: string; settings?: Record<string, string | number | boolean> };
  /** The precision the engine computed its contacts in. */
  precision: 'f64' | 'f32';
  /** The unit of every length ("m", "px"). */
  units: string;
  /** Whether +y points up in the engine's world. */
  y_up: boolean;
}

/** Where a capture's lines go. */
export type Output =
  /** A file path (Node only); a name ending in `.gz` is gzip. */
  | string
  /** `ws://127.0.0.1:PORT`: streamed to `collidoscope --listen PORT` or `collidoscope diagnose --listen PORT`. */
  | `ws://${string}`
  /** Called with each line (ending in "\n"). */
  | ((line: string) => void)
  /** Any object that takes lines. */
  | { write(line: string): void; close?(): void | Promise<void> };

export type Point = [number, number];

/** A collision filter, as Box2D's: category and mask bits, and a group. */
export interface Filter {
  category: number;
  mask: number;
  group?: number;
  either?: boolean;
}

/** One shape as the engine collided it this step. */
export interface CapturedShape {
  /** An integer in [0, 2^53) naming this shape for the whole capture. */
  id: number;
  name?: string;
  kind: 'circle' | 'capsule' | 'polygon' | 'segment' | 'chain';
  radius?: number;
  a?: Point;
  b?: Point;
  points?: Point[];
  loop?: boolean;
  position: Point;
  /** Radians: world point = rotate(angle) * local point + position. */
  angle: number;
  body: 'static' | 'kinematic' | 'dynamic';
  velocity?: Point;
  angular_velocity?: number;
  /** Whether the engine recomputes this shape's contacts this step (not static, not asleep). */
  awake: boolean;
  filter?: Filter | null;
  body_id?: number | null;
  /** Names the shape in errors ("body 'crate' (id 4)"). */
  what?: string;
}

/** One contact manifold as the engine reported it. */
export interface CapturedManifold {
  a: number;
  b: number;
  /** From `a` toward `b`. */
  normal: Point;
  /**
   * Each point's separation is negative when penetrating; `impulse`, where the engine gives
   * it, is the normal impulse its solver applied there over the step (>= 0), written as the
   * claim's `impulses` when every point kept has one.
   */
  points: { point: Point; separation: number; impulse?: number }[];
  /** For a pair with a chain: the chain's piece. */
  piece?: number;
}

/** A capture being written: a header line, then one line a step, flushed as written. */
export declare class CaptureWriter {
  constructor(out: Output, header: Header);
  /**
   * Write one frame. Throws an Error naming the shape or pair, and writes nothing, when a number
   * is not finite, an id is repeated or changes kind, or a shape is one the reader refuses.
   */
  frame(time: number, shapes: CapturedShape[], manifolds: CapturedManifold[]): void;
  /** End the capture (a file closed, a stream's end sent). */
  close(): Promise<void>;
}

/** The header's line. */
export declare function headerLine(header: Header): string;

/** The output for `out` (what the writer and the adapters call). */
export declare function openOutput(out: Output): { write(line: string): void; close(): Promise<void> };

/** In a browser: an output that keeps every line, with `download(name)` and `text()`. */
export declare function collector(): ((line: string) => void) & { text(): string; download(name?: string): void };

/** Offer `text` as a file named `name` (in a browser). */
export declare function download(text: string, name?: string): void;

/** What every adapter returns. */
export interface EngineCapture<Step extends (...args: never[]) => unknown> {
  /** The writer under it. */
  writer: CaptureWriter;
  /** The engine's own step, captured: call it in place of the engine's step. */
  step: Step;
  /** End the capture. */
  close(): Promise<void>;
}

/** What every adapter takes. */
export interface CaptureOptions {
  out: Output;
  /** The unit of every length (matter: "px"; planck and Rapier: "m"). */
  units?: string;
  /** Whether +y points up in the game's world (matter: false; planck and Rapier: true). */
  y_up?: boolean;
}
