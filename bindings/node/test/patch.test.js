'use strict';
// Patch output: setOutput, resync, watchQueries, and StateMirror following the patches.
const test = require('node:test');
const assert = require('node:assert/strict');
const corelogic = require('..');

const SWIFT = { queryChanged: { text: 'swift' } };
const page = (...names) => ({ pageLoaded: { items: names.map((name, i) => ({ id: i + 1, name, stars: 10 })), nextURL: '/next' } });

test('applyPatch follows RFC 6902 and never changes the state it is given', () => {
  const before = { items: [{ n: 1 }], 'a/b': { '~': 1 }, keep: { deep: true } };
  const after = corelogic.applyPatch(before, [
    { op: 'add', path: '/items/-', value: { n: 2 } },
    { op: 'add', path: '/items/0', value: { n: 0 } },
    { op: 'replace', path: '/a~1b/~0', value: 2 },
    { op: 'remove', path: '/items/1' },
    { op: 'add', path: '/fresh', value: null },
  ]);
  assert.deepEqual(after, { items: [{ n: 0 }, { n: 2 }], 'a/b': { '~': 2 }, keep: { deep: true }, fresh: null });
  assert.deepEqual(before, { items: [{ n: 1 }], 'a/b': { '~': 1 }, keep: { deep: true } });
  assert.equal(after.keep, before.keep, 'an untouched subtree is shared');
  assert.deepEqual(corelogic.applyPatch(before, [{ op: 'replace', path: '', value: { x: 1 } }]), { x: 1 });
  assert.throws(() => corelogic.applyPatch(before, [{ op: 'remove', path: '/missing' }]), /cannot apply/);
  assert.throws(() => corelogic.applyPatch(before, [{ op: 'move', path: '/a', from: '/b' }]), /unsupported op/);
});

test('a mirror fed every patch batch equals the full state at every step', () => {
  const search = new corelogic.System('search');
  const mirror = new corelogic.StateMirror(search.setOutput(corelogic.Output.PATCH));
  assert.equal(search.output, corelogic.Output.PATCH);
  const events = [SWIFT, { queryChanged: { text: 'swiftui' } }];
  for (const event of events) {
    const batch = search.send(event);
    assert.equal(batch.state, undefined);
    assert.equal(batch.base, mirror.revision);
    assert.ok(mirror.apply(batch));
    assert.deepEqual(mirror.state, search.state);
  }
  const [load] = search.effects;
  const delivered = search.deliver(load.id, page('a/b', 'c/d'));
  assert.ok(mirror.apply(delivered));
  assert.deepEqual(mirror.state, search.state);
  assert.equal(mirror.state.items.length, 2);
  search.close();
});

test('a missed patch is noticed and resync catches up', () => {
  const counter = new corelogic.System('counter');
  const mirror = new corelogic.StateMirror(counter.setOutput(corelogic.Output.PATCH));
  counter.send('increment');                 // a batch this host drops
  const next = counter.send('increment');
  assert.equal(mirror.apply(next), false);
  assert.equal(mirror.state.count, 0, 'a patch with the wrong base changes nothing');
  const baseline = counter.resync();
  assert.deepEqual(baseline.state, { count: 2 });
  mirror.reset(baseline);
  assert.ok(mirror.apply(counter.send('increment')));
  assert.deepEqual(mirror.state, { count: 3 });
  assert.deepEqual(counter.setOutput(corelogic.Output.FULL).state, { count: 3 });
  assert.deepEqual(counter.send('increment').state, { count: 4 });
  assert.throws(() => counter.setOutput(7), corelogic.ArgumentError);
  counter.close();
});

test('the state handler receives patches in patch mode', () => {
  const counter = new corelogic.System('counter');
  const mirror = new corelogic.StateMirror(counter.setOutput(corelogic.Output.PATCH));
  const messages = [];
  counter.onState((message) => messages.push(message));
  counter.send('increment');
  counter.send(corelogic.raw('"increment"'));
  assert.equal(messages.length, 2);
  for (const message of messages) assert.ok(mirror.apply(message));
  assert.deepEqual(mirror.state, { count: 2 });
  counter.close();
});

test('watched queries report only what changed', () => {
  const counter = new corelogic.System('counter');
  assert.deepEqual(counter.watchQueries(['isZero']), { isZero: true });
  assert.deepEqual(counter.send('increment').queries, { isZero: false });
  assert.deepEqual(counter.send('increment').queries, {});
  assert.throws(() => counter.watchQueries(['nope']), corelogic.NotFoundError);
  assert.throws(() => counter.watchQueries('isZero'), corelogic.ArgumentError);
  counter.watchQueries([]);
  assert.equal(counter.send('increment').queries, undefined);
  counter.close();
});

test('a runner follows the patches from whichever mode it started in', async () => {
  for (const switchFirst of [true, false]) {
    const search = new corelogic.System('search');
    if (switchFirst) search.setOutput(corelogic.Output.PATCH);
    const runner = new corelogic.Runner(search);
    runner.effect('loadPage', async () => page('apple/swift'));
    runner.start();
    // Switched after the runner started: its first patch finds no copy to apply to, and
    // the runner catches up with resync.
    if (!switchFirst) search.setOutput(corelogic.Output.PATCH);
    search.send(SWIFT);
    const state = await runner.runUntil((s) => s.items.length > 0, { timeout: 5000 });
    assert.deepEqual(state, search.state);
    search.send({ queryChanged: { text: '' } });
    const cleared = await runner.runUntil((s) => s.items.length === 0, { timeout: 5000 });
    assert.equal(cleared.query, '');
    assert.deepEqual(cleared, search.state);
    runner.close();
    search.close();
  }
});

test('a mirror follows a long random run of list changes exactly', () => {
  // A seeded generator: the same run every time, and a failure names its step.
  let seed = 0x2f6b1c3d;
  const random = (n) => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return seed % n;
  };
  const list = new corelogic.System('list');
  const mirror = new corelogic.StateMirror(list.setOutput(corelogic.Output.PATCH));
  const item = (id) => ({ id, title: `item ${id} ${random(3)}` });
  const events = [{ initialLoaded: { items: [item('a'), item('b'), item('c')] } }];
  for (let i = 0; i < 400; i++) {
    const id = String.fromCharCode(97 + random(12));
    const kind = random(4);
    if (kind === 0) events.push({ add: { item: item(id), index: random(3) === 0 ? null : random(14) } });
    else if (kind === 1) events.push({ remove: { id } });
    else if (kind === 2) events.push({ move: { id, index: random(14) } });
    else events.push({ add: { item: item(`${id}/~${random(5)}`), index: random(2) } });
  }
  events.forEach((event, step) => {
    const batch = list.send(event);
    assert.ok(mirror.apply(batch), `step ${step}: base ${batch.base}, mirror at ${mirror.revision}`);
    assert.deepEqual(mirror.state, list.state, `step ${step}: ${JSON.stringify(event)}`);
  });
  assert.ok(list.state.items.length > 0);
  list.close();
});
