// A typed program against the web binding and the search feature's generated types
// (python -m corelogic.typegen search --lang typescript): make test-web compiles it with
// tsc --strict beside the generated file; a wrong event must not compile.
import * as corelogic from '../../../bindings/web/lib/corelogic.js';
import type * as Search from './search.js';

export async function run(wasm: URL): Promise<Search.FeatureState> {
  await corelogic.load(wasm);
  const search = new corelogic.System<Search.FeatureState, Search.FeatureEvent, Search.PageRequest>('search');
  const batch = search.send({ queryChanged: { text: 'swift' } });
  const started: corelogic.Start<Search.PageRequest>[] = batch.started;
  const url: string = started[0].request.url;
  const result = search.deliver(started[0].id, { pageLoaded: { items: [{ id: 1, name: url, stars: 2 }] } });
  if (result === corelogic.STALE) throw new Error('stale');
  // @ts-expect-error the text of a query is a string
  search.send({ queryChanged: { text: 5 } });
  const runner = new corelogic.Runner(search);
  runner.close();
  const state = search.state;
  search.close();
  return state;
}
