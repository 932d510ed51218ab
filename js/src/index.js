// collidoscope-capture: the generic writer and the outputs. The engine adapters are the
// subpath exports collidoscope-capture/matter, /planck and /rapier.

export { CaptureWriter, FORMAT, VERSION, headerLine } from './writer.js';
export { openOutput, collector, download } from './output.js';
