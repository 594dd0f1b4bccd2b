// The golden driver's line protocol on standard input and output (docs/golden-files.md,
// "The driver and the adapters"): a request line, a payload of the byte length it names
// for create, send and deliver, and one reply line. Shared by the Node.js adapter and the
// web binding's adapter in Node.js.
import { readSync, writeSync } from 'node:fs';

let pending = Buffer.alloc(0);

/** Reads standard input until `count` bytes are pending or it ends. */
function fill(count) {
  while (pending.length < count) {
    const chunk = Buffer.alloc(65536);
    let got;
    try { got = readSync(0, chunk, 0, chunk.length, null); } catch (e) { if (e.code === 'EAGAIN') continue; throw e; }
    if (got === 0) return;
    pending = Buffer.concat([pending, chunk.subarray(0, got)]);
  }
}

/** The next `count` bytes of standard input (fewer only at its end). */
function read(count) {
  fill(count);
  const out = pending.subarray(0, count);
  pending = pending.subarray(out.length);
  return out;
}

function readLine() {
  for (;;) {
    const end = pending.indexOf(10);
    if (end >= 0) return read(end + 1).toString('utf8', 0, end);
    const before = pending.length;
    fill(before + 1);
    if (pending.length === before) return null;
  }
}

/** Answers every request on standard input with `reply(command, argument, payload)`. */
export function serveGolden(reply) {
  for (let line; (line = readLine()) !== null;) {
    const space = line.indexOf(' ');
    const command = space < 0 ? line : line.slice(0, space);
    let argument = space < 0 ? '' : line.slice(space + 1);
    let payload = null;
    if (['create', 'send', 'deliver'].includes(command)) {
      const last = argument.lastIndexOf(' ');
      payload = read(Number(argument.slice(last + 1)) + 1).toString('utf8').slice(0, -1);
      argument = last < 0 ? '' : argument.slice(0, last);
    }
    writeSync(1, reply(command, argument, payload) + '\n');
  }
}
