'use strict';
// make bench, hosts section: the Node.js binding's counter against its floor, after a JIT
// warm-up. Three loops, interleaved round by round, each printed as the median of its
// rounds:
//   node floor: the addon's send (one N-API call; the library's batch copied into a JS
//               string and freed) and JSON.parse of it: the least any N-API host does
//   node full:  System.send('increment'), the batch's state read
//   node patch: the same in patch mode, a StateMirror kept up to date from each batch
//   node searchfull, node searchpatch: the search state with an empty list (about 100 bytes,
//               so patch mode sends patches), loadFailed and retry in turn, in full mode (the
//               state read) and in patch mode (a StateMirror kept)
const path = require('path');
const corelogic = require(path.join(__dirname, '..', '..', 'bindings', 'node'));

const ROUNDS = 7;
const CALLS = 100000;

function timed(calls, body) {
  const start = process.hrtime.bigint();
  const sink = body(calls);
  const elapsed = Number(process.hrtime.bigint() - start);
  if (sink === 0) throw new Error('no increment counted');
  return elapsed / calls;
}

const full = new corelogic.System('counter');
const patched = new corelogic.System('counter');
const mirror = new corelogic.StateMirror(patched.setOutput(corelogic.Output.PATCH));
// The addon the binding loaded (the same module: require caches it by path), driven
// bare, on a system of its own.
const addon = require(path.join(__dirname, '..', '..', '.build', 'node', 'corelogic.node'));
const [bare] = addon.systemNew('counter', null);
const SEARCH = { query: 'swift', items: [], nextURL: '/search/repositories?q=swift', shouldLoadNextPage: false };
const searchFull = new corelogic.System('search', SEARCH);
const searchPatched = new corelogic.System('search', SEARCH);
const searchMirror = new corelogic.StateMirror(searchPatched.setOutput(corelogic.Output.PATCH));
const failed = { loadFailed: { error: 'offline' } };

const loops = {
  floor: (calls) => {
    let sink = 0;
    for (let i = 0; i < calls; i++) sink += JSON.parse(addon.send(bare, '"increment"', true)).state.count;
    return sink;
  },
  full: (calls) => {
    let sink = 0;
    for (let i = 0; i < calls; i++) sink += full.send('increment').state.count;
    return sink;
  },
  patch: (calls) => {
    let sink = 0;
    for (let i = 0; i < calls; i++) {
      if (!mirror.apply(patched.send('increment'))) throw new Error('a patch was missed');
      sink += mirror.state.count;
    }
    return sink;
  },
  searchfull: (calls) => {
    let sink = 0;
    for (let i = 0; i < calls; i++) sink += 'lastError' in searchFull.send(i & 1 ? 'retry' : failed).state ? 1 : 0;
    return sink;
  },
  searchpatch: (calls) => {
    let sink = 0;
    for (let i = 0; i < calls; i++) {
      if (!searchMirror.apply(searchPatched.send(i & 1 ? 'retry' : failed))) throw new Error('a patch was missed');
      sink += 'lastError' in searchMirror.state ? 1 : 0;
    }
    return sink;
  },
};

for (let i = 0; i < 5; i++) for (const body of Object.values(loops)) timed(CALLS / 5, body);
const rounds = Object.fromEntries(Object.keys(loops).map((name) => [name, []]));
for (let r = 0; r < ROUNDS; r++) for (const [name, body] of Object.entries(loops)) rounds[name].push(timed(CALLS, body));
const expected = CALLS + ROUNDS * CALLS;
for (const count of [full.state.count, patched.state.count, JSON.parse(addon.state(bare)).count]) {
  if (count !== expected) throw new Error(`counted ${count}, expected ${expected}`);
}
if (JSON.stringify(searchMirror.state) !== JSON.stringify(searchPatched.state)) throw new Error('the search mirror is not the state');
for (const [name, values] of Object.entries(rounds)) {
  values.sort((a, b) => a - b);
  console.log(`node ${name}: ${values[Math.floor(ROUNDS / 2)].toFixed(1)} ns/call`);
}
addon.systemFree(bare);
full.close();
patched.close();
searchFull.close();
searchPatched.close();
