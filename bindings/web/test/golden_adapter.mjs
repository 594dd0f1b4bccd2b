// The web golden adapter: the golden driver's line protocol (docs/golden-files.md) over
// the web binding (lib/corelogic.js) and the WebAssembly module, in Node.js, with a
// StateMirror in patch mode. The same answers as bindings/node/test/golden_adapter.js.
// Usage: node golden_adapter.mjs CORELOGIC_WASM
import { readFileSync, readSync, writeSync } from 'node:fs';
import * as corelogic from '../lib/corelogic.js';
import { goldenReplier } from './golden_answer.mjs';

await corelogic.load(readFileSync(process.argv[2]));
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

const reply = goldenReplier(corelogic);

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
