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
  // The empty state is at most 64 bytes of JSON: the step that outgrows that sends its
  // state whole, and patches follow from it.
  const grown = search.send(SWIFT);
  assert.equal(grown.patch, undefined);
  assert.equal(grown.revision, 1);
  assert.ok(mirror.apply(grown));
  assert.deepEqual(mirror.state, search.state);
  for (const event of [{ queryChanged: { text: 'swiftui' } }, { queryChanged: { text: 'swift' } }]) {
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

// A search state of more than 64 bytes of JSON, which patch mode sends as patches.
const LARGER = { query: 'swift', items: [], nextURL: '/search/repositories?q=swift', shouldLoadNextPage: false };

test('a missed patch is noticed and resync catches up', () => {
  const search = new corelogic.System('search', LARGER);
  const mirror = new corelogic.StateMirror(search.setOutput(corelogic.Output.PATCH));
  search.send('reachedBottom');               // a batch this host drops
  const next = search.send({ loadFailed: { error: 'offline' } });
  assert.equal(mirror.apply(next), false);
  assert.equal(mirror.state.shouldLoadNextPage, false, 'a patch with the wrong base changes nothing');
  assert.equal(mirror.state.lastError, undefined);
  const baseline = search.resync();
  assert.deepEqual(baseline.state.lastError, { offline: {} });
  mirror.reset(baseline);
  assert.ok(mirror.apply(search.send('retry')));
  assert.deepEqual(mirror.state, search.state);
  assert.deepEqual(search.setOutput(corelogic.Output.FULL).state, search.state);
  assert.equal(search.send('reachedBottom').state.query, 'swift');
  assert.throws(() => search.setOutput(7), corelogic.ArgumentError);
  search.close();
});

test('a small state is sent whole and becomes the mirror', () => {
  const counter = new corelogic.System('counter');
  const mirror = new corelogic.StateMirror(counter.setOutput(corelogic.Output.PATCH));
  counter.send('increment');                 // a batch this host drops: the next one is whole
  const next = counter.send('increment');
  assert.deepEqual([next.revision, next.state, next.patch, next.base], [2, { count: 2 }, undefined, undefined]);
  assert.ok(mirror.apply(next));
  assert.deepEqual([mirror.revision, mirror.state], [2, { count: 2 }]);
  assert.equal(mirror.apply({ revision: 1, state: { count: 1 } }), false, 'an older whole state changes nothing');
  assert.deepEqual(mirror.state, { count: 2 });
  assert.throws(() => mirror.apply({ revision: 3 }), /neither "patch" nor "state"/);
  counter.close();
});

test('the state handler receives patches in patch mode', () => {
  const search = new corelogic.System('search', LARGER);
  const mirror = new corelogic.StateMirror(search.setOutput(corelogic.Output.PATCH));
  const messages = [];
  search.onState((message) => messages.push(message));
  search.send({ loadFailed: { error: 'offline' } });
  search.send(corelogic.raw('"retry"'));
  assert.equal(messages.length, 2);
  for (const message of messages) {
    assert.ok(Array.isArray(message.patch) && message.state === undefined);
    assert.ok(mirror.apply(message));
  }
  assert.deepEqual(mirror.state, search.state);
  search.close();
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
