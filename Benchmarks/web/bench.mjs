// The WebAssembly module beside the native library, in one Node.js process: the module's
// size (raw and gzipped), and counter and search events per second through the web
// binding (the module) and through the Node.js binding (the native addon), measured in
// alternating rounds so that both see the same machine load.
//
//     node Benchmarks/web/bench.mjs CORELOGIC_WASM   (CORELOGIC_LIBRARY: the native library)
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import * as web from '../../bindings/web/lib/corelogic.js';

const wasmPath = process.argv[2];
const bytes = readFileSync(wasmPath);
const gzipped = gzipSync(bytes, { level: 9 }).length;
console.log(`module ${wasmPath}`);
console.log(`  size: ${bytes.length.toLocaleString('en')} bytes raw, ${gzipped.toLocaleString('en')} bytes gzipped (goal: under 1 MB gzipped)`);

await web.load(bytes);
const native = createRequire(import.meta.url)('../../bindings/node/lib/corelogic.js');

const page = { pageLoaded: { items: Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `owner/repo-${i}`, stars: 100 - i })) } };

/** Counter: one send per event. */
function counter(corelogic, events) {
  const system = new corelogic.System('counter');
  for (let i = 0; i < events; i++) system.send('increment');
  system.close();
}

/** Search: a query, its page delivered (two events, a cancel and a start per cycle). */
function search(corelogic, events) {
  const system = new corelogic.System('search');
  for (let i = 0; i < events / 2; i++) {
    const started = system.send({ queryChanged: { text: `swift ${i % 7}` } }).started[0];
    system.deliver(started.id, page);
  }
  system.close();
}

function rate(run, corelogic, events) {
  const start = process.hrtime.bigint();
  run(corelogic, events);
  return events / (Number(process.hrtime.bigint() - start) / 1e9);
}

const rounds = 5;
for (const [name, run, events] of [['counter send("increment")', counter, 20000], ['search query + page delivered', search, 4000]]) {
  run(web, events / 10); run(native, events / 10); // warm up both
  const wasm = [];
  const addon = [];
  for (let round = 0; round < rounds; round++) {
    wasm.push(rate(run, web, events));
    addon.push(rate(run, native, events));
  }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const [w, a] = [median(wasm), median(addon)];
  console.log(`  ${name}: wasm ${Math.round(w).toLocaleString('en')} events/s, native addon ${Math.round(a).toLocaleString('en')} events/s (wasm/native ${(w / a).toFixed(2)})`);
}
