'use strict';
// make bench, hosts section: the Node.js binding's counter round trip,
// system.send('increment') returning a parsed Batch, after a JIT warm-up.
// Prints the median of the rounds as "node: <ns> ns/call".
const path = require('path');
const corelogic = require(path.join(__dirname, '..', '..', 'bindings', 'node'));

const ROUNDS = 7;
const CALLS = 100000;

function roundNs(counter, calls) {
  const start = process.hrtime.bigint();
  let sink = 0;
  for (let i = 0; i < calls; i++) sink += counter.send('increment').state.count;
  const elapsed = Number(process.hrtime.bigint() - start);
  if (sink === 0) throw new Error('no increment counted');
  return elapsed / calls;
}

const counter = new corelogic.System('counter');
for (let i = 0; i < 5; i++) roundNs(counter, CALLS / 5);
const rounds = [];
for (let r = 0; r < ROUNDS; r++) rounds.push(roundNs(counter, CALLS));
rounds.sort((a, b) => a - b);
console.log(`node: ${rounds[Math.floor(ROUNDS / 2)].toFixed(1)} ns/call`);
counter.close();
