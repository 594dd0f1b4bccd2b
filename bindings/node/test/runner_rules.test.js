'use strict';
// The effect runners' rules (docs/hosts.md, "Effect runners"), the same scenarios as the
// Python (test_runner_rules.py) and JVM (RunnerRulesTest) suites.
const test = require('node:test');
const assert = require('node:assert/strict');
const { setTimeout: sleep } = require('node:timers/promises');
const corelogic = require('..');

const page = (...names) => ({ pageLoaded: { items: names.map((name, i) => ({ id: i + 1, name, stars: 10 })) } });
const SWIFT = { queryChanged: { text: 'swift' } };
const START = { start: { id: 1, feedback: 'loadPage', request: { url: '/search/repositories?q=swift' } } };
const ids = (system) => system.effects.map((effect) => effect.id);

test('rule 1: a start whose effect is running is ignored', async () => {
  const search = new corelogic.System('search');
  const runner = new corelogic.Runner(search);
  let calls = 0;
  let release;
  runner.effect('loadPage', () => { calls += 1; return new Promise((resolve) => { release = resolve; }); });
  runner.start();
  runner.send(SWIFT);
  await sleep(1);
  runner._onCommand(START);
  await sleep(1);
  release(null);
  await sleep(1);
  assert.equal(calls, 1);
  assert.deepEqual(ids(search), []);
  runner.close(); search.close();
});

test('rule 2: a cancel of a finished effect does nothing', async () => {
  const search = new corelogic.System('search');
  const log = [];
  const runner = new corelogic.Runner(search, { trace: (kind) => log.push(kind) });
  runner.effect('loadPage', async () => null);
  runner.start();
  runner.send(SWIFT);
  await sleep(1);
  assert.deepEqual(ids(search), []);
  runner._onCommand({ cancel: 1 });
  assert.equal(log.includes('cancel'), false);
  assert.equal(log[log.length - 1], 'complete');
  runner.close(); search.close();
});

test('rule 3: an answer after close() is dropped and the effect stays running', async () => {
  const search = new corelogic.System('search');
  const runner = new corelogic.Runner(search);
  let release;
  let context;
  runner.effect('loadPage', (request, ctx) => { context = ctx; return new Promise((resolve) => { release = resolve; }); });
  runner.start();
  runner.send(SWIFT);
  await sleep(1);
  runner.close();
  assert.equal(context.deliver(page('early')), false);
  release(page('apple/swift')); // ignores its signal on purpose
  await sleep(1);
  assert.deepEqual(search.state.items, []);
  assert.deepEqual(ids(search), [1]);
  search.close();
});

test('rule 4: an exception goes to onError, then the effect completes', async () => {
  const search = new corelogic.System('search');
  const runner = new corelogic.Runner(search, { onError: () => page('mapped') });
  runner.effect('loadPage', async () => { throw new Error('offline'); });
  runner.start();
  runner.send(SWIFT);
  const state = await runner.runUntil((s) => s.items.length > 0, { timeout: 5000 });
  await sleep(1);
  assert.equal(state.items[0].name, 'mapped');
  assert.deepEqual(ids(search), []);
  runner.close(); search.close();
});

test('rule 5: shutdown aborts the handlers and leaves their effects running', async () => {
  const search = new corelogic.System('search');
  const runner = new corelogic.Runner(search);
  let signal;
  runner.effect('loadPage', (request, ctx) => { signal = ctx.signal; return new Promise(() => {}); });
  runner.start();
  runner.send(SWIFT);
  await sleep(1);
  runner.close();
  assert.equal(signal.aborted, true);
  assert.equal(runner.running.size, 0);
  assert.deepEqual(ids(search), [1]);
  search.close();
});
