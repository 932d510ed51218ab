// Where a capture's lines go: a file (Node), a function, a WebSocket to a listening
// collidoscope, or any object with `write(line)` and `close()`.

const inNode = typeof process !== 'undefined' && process.versions != null && process.versions.node != null;
// Node's files and sockets, loaded only in Node (a browser bundle maps ./node.js to nothing).
const node = inNode ? await import('./node.js') : null;

/**
 * An output for `out`:
 * - a function: called with each line (a string ending in "\n");
 * - `ws://127.0.0.1:PORT`: each line sent as a WebSocket message to `collidoscope --listen PORT`
 *   (or `collidoscope diagnose --listen PORT`);
 * - any other string: a file path (Node only), gzip-compressed when it ends in `.gz`;
 * - an object with `write(line)` (and optionally `close()`): used as it is.
 */
export function openOutput(out) {
  if (typeof out === 'function') {
    return { write: out, close: async () => {} };
  }
  if (out && typeof out === 'object' && typeof out.write === 'function') {
    return { write: (line) => out.write(line), close: async () => { if (typeof out.close === 'function') await out.close(); } };
  }
  if (typeof out === 'string' && /^wss?:\/\//.test(out)) {
    return webSocketOutput(out);
  }
  if (typeof out === 'string') {
    if (!node) {
      throw new Error(`collidoscope-capture: cannot write the file ${out} in a browser: give \`out\` a function (see download()) or a ws:// address`);
    }
    return node.fileOutput(out);
  }
  throw new Error(`collidoscope-capture: "out" must be a file path, a function, a ws:// address or an object with write(line), found ${typeof out}`);
}

/**
 * Lines sent over a WebSocket: queued until it opens, then one message each. The game never
 * waits for the socket; `close()` waits until every line went out (or the socket failed).
 */
function webSocketOutput(address) {
  const url = new URL(address);
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
    throw new Error(`collidoscope-capture: ${address}: a capture streams to this machine only (ws://127.0.0.1:PORT)`);
  }
  const Socket = globalThis.WebSocket;
  const socket = Socket ? new Socket(address) : node.webSocket(address);
  const queue = [];
  let open = false;
  let failed = null;
  const opened = new Promise((resolve) => {
    socket.onopen = () => {
      open = true;
      for (const line of queue.splice(0)) socket.send(line);
      resolve();
    };
    socket.onerror = () => {
      failed = `collidoscope-capture: cannot stream to ${address}: is \`collidoscope --listen ${url.port}\` running?`;
      resolve();
    };
    socket.onclose = () => resolve();
  });
  return {
    write(line) {
      if (open) socket.send(line);
      else if (!failed) queue.push(line);
    },
    async close() {
      await opened;
      if (failed) throw new Error(failed);
      // Wait for what is still buffered to go out, then close.
      while (socket.bufferedAmount > 0) await new Promise((r) => setTimeout(r, 5));
      const closed = new Promise((resolve) => {
        socket.onclose = () => resolve();
      });
      socket.close(1000, 'end of capture');
      await Promise.race([closed, new Promise((r) => setTimeout(r, 2000))]);
    },
    socket,
  };
}

/**
 * In a browser: keep every line, and offer them as a file to download. `download(name)` saves
 * what was written so far (plain text, `.capture.jsonl`); `text()` gives it.
 */
export function collector() {
  const lines = [];
  const out = (line) => {
    lines.push(line);
  };
  out.text = () => lines.join('');
  out.download = (name = 'game.capture.jsonl') => download(out.text(), name);
  return out;
}

/** Offer `text` as a file named `name` (in a browser). */
export function download(text, name = 'game.capture.jsonl') {
  const blob = new Blob([text], { type: 'application/jsonl' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
