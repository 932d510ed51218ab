// Node's side of the outputs: files written line by line (synchronously, so a crash keeps
// every frame written) and a WebSocket client for Node 20, which has no global WebSocket
// without --experimental-websocket.

import * as fs from 'node:fs';
import * as zlib from 'node:zlib';
import * as net from 'node:net';
import * as crypto from 'node:crypto';

/**
 * A file at `path`: each line written as it comes. A name ending in `.gz` is gzip, each line
 * a gzip member of its own (readers take the members one after another as one text, and a
 * crash leaves every finished line readable).
 */
export function fileOutput(path) {
  let fd;
  try {
    fd = fs.openSync(path, 'w');
  } catch (e) {
    throw new Error(`collidoscope-capture: cannot write ${path}: ${e.message}`);
  }
  const gzip = path.endsWith('.gz');
  return {
    write(line) {
      const bytes = gzip ? zlib.gzipSync(line) : Buffer.from(line);
      fs.writeSync(fd, bytes);
    },
    async close() {
      if (fd !== null) fs.closeSync(fd);
      fd = null;
    },
    path,
  };
}

/**
 * A small WebSocket client (RFC 6455: the opening handshake, masked text frames, a close
 * frame) with the browser's `onopen` / `onerror` / `onclose`, `send` and `bufferedAmount`.
 */
export function webSocket(address) {
  const url = new URL(address);
  const socket = net.connect({ host: url.hostname, port: Number(url.port) || 80 });
  const key = crypto.randomBytes(16).toString('base64');
  const ws = {
    onopen: null,
    onerror: null,
    onclose: null,
    get bufferedAmount() {
      return socket.writableLength;
    },
    send(text) {
      socket.write(frame(0x1, Buffer.from(text)));
    },
    close(code = 1000, reason = '') {
      const body = Buffer.alloc(2 + Buffer.byteLength(reason));
      body.writeUInt16BE(code, 0);
      body.write(reason, 2);
      socket.end(frame(0x8, body));
    },
  };
  let answer = Buffer.alloc(0);
  let opened = false;
  socket.on('connect', () => {
    socket.write(
      `GET ${url.pathname || '/'} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
  });
  socket.on('data', (data) => {
    if (opened) return;
    answer = Buffer.concat([answer, data]);
    const end = answer.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = answer.subarray(0, end).toString();
    const accept = crypto.createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    if (!/^HTTP\/1\.1 101/.test(head) || !head.toLowerCase().includes(`sec-websocket-accept: ${accept.toLowerCase()}`)) {
      ws.onerror?.(new Error(`the server did not accept the WebSocket: ${head.split('\r\n')[0]}`));
      socket.destroy();
      return;
    }
    opened = true;
    ws.onopen?.();
  });
  socket.on('error', (e) => ws.onerror?.(e));
  socket.on('close', () => ws.onclose?.());
  return ws;
}

/** A masked frame (a client's frames are masked) with opcode `op` and `payload`. */
function frame(op, payload) {
  const n = payload.length;
  const head = n < 126 ? Buffer.alloc(2) : n < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = 0x80 | op;
  if (n < 126) head[1] = 0x80 | n;
  else if (n < 65536) {
    head[1] = 0x80 | 126;
    head.writeUInt16BE(n, 2);
  } else {
    head[1] = 0x80 | 127;
    head.writeBigUInt64BE(BigInt(n), 2);
  }
  const mask = crypto.randomBytes(4);
  const body = Buffer.alloc(n);
  for (let i = 0; i < n; i += 1) body[i] = payload[i] ^ mask[i & 3];
  return Buffer.concat([head, mask, body]);
}
