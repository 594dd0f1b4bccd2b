// The web golden adapter: the golden driver's line protocol (docs/golden-files.md) over
// the web binding (lib/corelogic.js) and the WebAssembly module, in Node.js, with a
// StateMirror in patch mode. The same answers as bindings/node/test/golden_adapter.js.
// Usage: node golden_adapter.mjs CORELOGIC_WASM
import { readFileSync, readSync, writeSync } from 'node:fs';
import * as corelogic from '../lib/corelogic.js';

await corelogic.load(readFileSync(process.argv[2]));
let pending = Buffer.alloc(0);
let system = null;
let mirror = null;

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

function batch(result) {
  if (result === corelogic.STALE) return 'stale';
  const out = { effects: result.effects, steps: result.steps, queries: result.queries || {} };
  if (result.patch === undefined) out.state = result.state;
  else {
    mirror.apply(result);
    Object.assign(out, { revision: result.revision, base: result.base, patch: result.patch });
  }
  return 'ok ' + JSON.stringify(out);
}

function answer(command, argument, payload) {
  switch (command) {
    case 'features': return 'ok ' + JSON.stringify(corelogic.features());
    case 'create':
      system = new corelogic.System(argument, payload === 'null' ? null : corelogic.raw(payload));
      mirror = null;
      return batch(system.initialBatch);
    case 'output': {
      const baseline = system.setOutput(argument === 'patch' ? corelogic.Output.PATCH : corelogic.Output.FULL);
      mirror = argument === 'patch' ? new corelogic.StateMirror(baseline) : null;
      return 'ok ' + JSON.stringify(baseline);
    }
    case 'watch': return 'ok ' + JSON.stringify(system.watchQueries(JSON.parse(argument)));
    case 'send': return batch(system.sendJson(payload));
    case 'deliver': return batch(system.deliver(BigInt(argument), corelogic.raw(payload)));
    case 'complete': return batch(system.complete(BigInt(argument)));
    case 'query': return 'ok ' + JSON.stringify(system.query(argument));
    case 'check': return 'ok ' + JSON.stringify(system.check());
    case 'state': return 'ok ' + system.stateJson;
    case 'mirror': return mirror ? 'ok ' + JSON.stringify({ revision: mirror.revision, state: mirror.state }) : 'none';
    case 'free': system.close(); return 'ok';
    default: return `error CORELOGIC_ERR_ARG - unknown command ${command}`;
  }
}

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
  let reply;
  try {
    reply = answer(command, argument, payload);
  } catch (error) {
    if (!(error instanceof corelogic.CorelogicError)) throw error;
    reply = `error ${error.statusName} ${error.name} ${error.libraryMessage.replace(/[\r\n]/g, ' ')}`;
  }
  writeSync(1, reply + '\n');
}
