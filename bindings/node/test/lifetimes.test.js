'use strict';
// Threads and lifetimes: JS is only ever called on its own thread; unclosed systems are freed.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');
const { Worker } = require('node:worker_threads');
const corelogic = require('..');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

test('a call from a worker thread never runs the handlers of the main thread', async () => {
  const counter = new corelogic.System('counter');
  const states = [];
  counter.onState((state) => states.push(state.count));
  counter.send('increment');
  assert.deepEqual(states, [1]);
  // The worker drives the same native system by its handle: the library calls the
  // registered C callback on the worker's thread, which must not enter the main thread's JS.
  const worker = new Worker(`
    const { parentPort, workerData } = require('node:worker_threads');
    const corelogic = require(workerData.binding);
    const system = Object.create(corelogic.System.prototype);
    system._feature = 'counter';
    system._cell = { handle: workerData.handle };
    let count = 0;
    for (let i = 0; i < 100; i++) count = system.send('increment').state.count;
    parentPort.postMessage(count);
  `, { eval: true, workerData: { binding: path.resolve(__dirname, '..'), handle: counter._cell.handle } });
  const count = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  assert.equal(count, 101);
  assert.deepEqual(states, [1], 'a handler ran for a call made on another thread');
  counter.send('increment');
  assert.deepEqual(states, [1, 102]);
  counter.close();
});

test('an unclosed system is freed by the finalizer once collected', async () => {
  let handle;
  (() => {
    const counter = new corelogic.System('counter');
    counter.send('increment');
    handle = counter._cell.handle;
  })();
  const probe = Object.create(corelogic.System.prototype);
  probe._feature = 'counter';
  probe._cell = { handle };
  assert.equal(probe.state.count, 1);
  const deadline = Date.now() + 20000;
  for (;;) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
    try {
      probe.stateJson;
    } catch (error) {
      assert.ok(error instanceof corelogic.HandleError);
      return;
    }
    assert.ok(Date.now() < deadline, 'the finalizer did not free the handle');
  }
});
