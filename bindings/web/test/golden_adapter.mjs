// The web golden adapter: the golden driver's line protocol (docs/golden-files.md) over
// the web binding (lib/corelogic.js) and the WebAssembly module, in Node.js, with a
// StateMirror in patch mode: the Node.js adapter's answers (bindings/node/test).
// Usage: node golden_adapter.mjs CORELOGIC_WASM
import { readFileSync } from 'node:fs';
import * as corelogic from '../lib/corelogic.js';
import { goldenReplier } from '../../node/test/golden_answer.mjs';
import { serveGolden } from '../../node/test/golden_stdio.mjs';

await corelogic.load(readFileSync(process.argv[2]));
serveGolden(goldenReplier(corelogic));
