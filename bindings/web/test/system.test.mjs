// The web binding over the WebAssembly module, in Node.js: the Node.js binding's API and
// error classes, handlers, patches and the Runner, and no trap on anything a host sends.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import * as corelogic from '../lib/corelogic.js';

await corelogic.load(readFileSync(process.env.CORELOGIC_WASM));

const page = (...names) => ({ pageLoaded: { items: names.map((name, i) => ({ id: i + 1, name, stars: 10 })) } });
const query = (text) => ({ queryChanged: { text } });
const loaded = (state) => state.items.length > 0 && !state.shouldLoadNextPage;

test('the module serves the sample features and the binding version', () => {
  const names = corelogic.features().map((feature) => feature.name);
  assert.ok(names.includes('counter') && names.includes('search') && names.length === 10, names.join(','));
  assert.equal(corelogic.version(), corelogic.BINDING_VERSION);
  assert.equal(corelogic.abiVersion(), corelogic.ABI_VERSION);
});

test("features() lists each feature's events, in the order its schema gives them", () => {
  const schemas = new URL('../../../Examples/Cookbook/schemas/', import.meta.url);
  for (const feature of corelogic.features()) {
    const schema = JSON.parse(readFileSync(new URL(`${feature.name}.schema.json`, schemas), 'utf8'));
    const event = schema.$defs[schema.$defs.event.$ref.split('/').pop()];
    const cases = event.oneOf.filter((alternative) => alternative.type === 'object').map((alternative) => alternative.required[0]);
    assert.deepEqual(feature.events, cases, feature.name);
  }
});

test('each failing status throws its error class with the library message, state unchanged', () => {
  const search = new corelogic.System('search');
  const before = search.stateJson;
  assert.throws(() => search.sendJson('{"queryChanged":'), corelogic.JSONError);
  assert.throws(() => search.send({ queryChanged: { text: 5 } }), corelogic.SchemaError);
  assert.throws(() => search.query('nope'), (error) => error instanceof corelogic.NotFoundError && /isLoadingNextPage/.test(error.message));
  assert.throws(() => new corelogic.System('nope'), corelogic.NotFoundError);
  assert.equal(search.stateJson, before);
  search.close();
  assert.throws(() => search.send('retry'), corelogic.HandleError);
});

test('a late result is STALE; patches keep a mirror equal to the state', () => {
  const search = new corelogic.System('search');
  const first = search.send(query('swift')).started[0];
  search.send(query('swiftui'));
  assert.equal(search.deliver(first.id, page('late')), corelogic.STALE);
  const mirror = new corelogic.StateMirror(search.setOutput(corelogic.Output.PATCH));
  const running = search.effects[0];
  mirror.apply(search.deliver(running.id, page('apple/swift', 'vapor/vapor')));
  assert.deepEqual(mirror.state, search.state);
  search.close();
});

test('handlers see every command and state; a call from a handler is queued', () => {
  const playcatch = new corelogic.System('playcatch');
  const commands = [];
  let states = 0;
  playcatch.onCommand((command) => commands.push(command));
  playcatch.onState(() => { states += 1; });
  const batch = playcatch.send('humanThrows');
  assert.ok(commands.length > 0 && commands.length === batch.effects.length);
  assert.equal(states, batch.steps);
  playcatch.onCommand(null);
  playcatch.onState(null);
  playcatch.close();
});

test('the Runner delivers handler results and aborts cancelled effects', async () => {
  const search = new corelogic.System('search');
  const runner = new corelogic.Runner(search);
  let aborted = false;
  runner.effect('loadPage', async (request, { signal }) => {
    if (request.url.endsWith('=a')) {
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      aborted = signal.aborted;
      return page('late/a');
    }
    await sleep(2);
    return page('fresh/b');
  });
  runner.start();
  runner.send(query('a'));
  await sleep(1);
  runner.send(query('b'));
  const state = await runner.runUntil(loaded, { timeout: 5000 });
  assert.equal(state.items[0].name, 'fresh/b');
  assert.equal(aborted, true);
  runner.close();
  search.close();
});

test('nothing a host sends traps the module', () => {
  // Random bytes, truncations and nestings of valid events, into every feature: each call
  // returns or throws a CorelogicError; a trap (RuntimeError) fails the test.
  let seed = 12345;
  const random = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const samples = ['"increment"', '{"queryChanged":{"text":"a"}}', '{"pageLoaded":{"items":[{"id":1,"name":"x","stars":2}]}}',
    '[[[[[[[[[[[[', '{"a":1e400}', '"\\ud800"', '{"x":{"y":{}}}', '-0', '1.5e-320', '"\u00e9"'];
  for (const feature of corelogic.features()) {
    const system = new corelogic.System(feature.name);
    for (let i = 0; i < 300; i++) {
      const base = samples[random(samples.length)];
      let text = base.slice(0, random(base.length + 1));
      if (random(3) === 0) text = '['.repeat(random(200)) + text;
      if (random(4) === 0) text += String.fromCharCode(random(128) + 1);
      try {
        system.sendJson(text);
        system.deliver(random(5), corelogic.raw(text));
      } catch (error) {
        if (!(error instanceof corelogic.CorelogicError)) throw error;
      }
    }
    system.close();
  }
});
