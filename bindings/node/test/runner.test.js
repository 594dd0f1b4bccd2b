'use strict';
// Runner: start/cancel commands become Promise-based handlers with AbortSignals; stale results are dropped.
const test = require('node:test');
const assert = require('node:assert/strict');
const { setTimeout: sleep } = require('node:timers/promises');
const corelogic = require('..');

const page = (...names) => ({ pageLoaded: { items: names.map((name, i) => ({ id: i + 1, name, stars: 10 })) } });
const query = (text) => ({ queryChanged: { text } });
const loaded = (state) => state.items.length > 0 && !state.shouldLoadNextPage;

test('a handler result is delivered and the effect completed', async () => {
  const search = new corelogic.System('search');
  const runner = new corelogic.Runner(search);
  let calledDuringSend = false;
  let sending = false;
  runner.effect('loadPage', async (request) => {
    calledDuringSend = sending;
    await sleep(1);
    return page('apple/swift');
  });
  runner.start();
  sending = true;
  runner.send(query('swift'));
  sending = false;
  const state = await runner.runUntil(loaded, { timeout: 5000 });
  assert.equal(state.items[0].name, 'apple/swift');
  assert.equal(calledDuringSend, false, 'a handler ran inside the library call');
  await sleep(1);
  assert.deepEqual(search.effects, []);
  assert.equal(runner.running.size, 0);
  runner.close();
  search.close();
});

test('a cancel aborts the signal and the late result is dropped', async () => {
  const search = new corelogic.System('search');
  const trace = [];
  const runner = new corelogic.Runner(search, { trace: (kind, id) => trace.push([kind, id]) });
  let aborted = false;
  let lateDelivered = null;
  runner.effect('loadPage', async (request, { signal, deliver }) => {
    if (request.url.endsWith('=a')) {
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      aborted = signal.aborted;
      lateDelivered = deliver(page('late/a'));
      return page('late/a');
    }
    await sleep(5);
    return page('fresh/b');
  });
  runner.start();
  runner.send(query('a'));
  await sleep(1);
  runner.send(query('b'));
  const state = await runner.runUntil(loaded, { timeout: 5000 });
  await sleep(5);
  assert.equal(aborted, true);
  assert.equal(lateDelivered, false);
  assert.equal(state.items[0].name, 'fresh/b');
  assert.equal(search.state.items.length, 1);
  assert.ok(trace.some(([kind, id]) => kind === 'cancel' && id === 1), JSON.stringify(trace));
  runner.close();
  search.close();
});

test('effects already running when the runner starts are run', async () => {
  const loading = { query: 'swift', items: [], nextURL: '/search/repositories?q=swift', shouldLoadNextPage: true };
  const search = new corelogic.System('search', loading);
  const runner = new corelogic.Runner(search);
  runner.effect('loadPage', async () => page('resumed/one'));
  const state = await runner.runUntil(loaded, { timeout: 5000 });
  assert.equal(state.items[0].name, 'resumed/one');
  runner.close();
  search.close();
});

test('a rejected handler is mapped to an event by onError', async () => {
  const search = new corelogic.System('search');
  const errors = [];
  const runner = new corelogic.Runner(search, {
    onError: (error, effect) => { errors.push([error.message, effect.feedback]); return { loadFailed: { error: 'offline' } }; },
  });
  runner.effect('loadPage', async () => { throw new Error('network is down'); });
  runner.effect('retryTimer', (request, { signal }) => new Promise((resolve) => {
    const timer = setTimeout(() => resolve('retry'), 60000);
    signal.addEventListener('abort', () => { clearTimeout(timer); resolve(null); });
  }));
  runner.start();
  runner.send(query('swift'));
  const state = await runner.runUntil((s) => s.lastError !== null && s.lastError !== undefined, { timeout: 5000 });
  assert.deepEqual(state.lastError, { offline: {} });
  assert.deepEqual(errors, [['network is down', 'loadPage']]);
  runner.close();
  await sleep(1);
  search.close();
});

test('many concurrent effects all finish', async () => {
  const downloads = new corelogic.System('downloads');
  const runner = new corelogic.Runner(downloads);
  runner.effect('download', async (request) => {
    await sleep(1);
    return { finished: { url: request.url } };
  });
  runner.start();
  for (let i = 0; i < 20; i++) runner.send({ enqueue: { url: `https://example.com/${i}` } });
  await runner.runUntil(() => downloads.query('finished').length === 20, { timeout: 10000 });
  assert.equal(downloads.query('finished').length, 20);
  runner.close();
  downloads.close();
});

test('misuse is reported clearly', async () => {
  const search = new corelogic.System('search');
  const runner = new corelogic.Runner(search);
  assert.throws(() => runner.effect('nope', async () => null), (error) => error instanceof corelogic.ArgumentError
    && /loadPage/.test(error.message));
  runner.start();
  assert.throws(() => new corelogic.Runner(search).start(), /one runner per system/);
  await assert.rejects(runner.runUntil(() => false, { timeout: 20 }), corelogic.TimeoutError);
  assert.throws(() => new corelogic.Runner({}), corelogic.ArgumentError);
  runner.close();
  search.close();
});
