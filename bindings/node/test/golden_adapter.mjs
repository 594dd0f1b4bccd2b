// The Node.js golden adapter: the golden driver's line protocol (docs/golden-files.md)
// over the public `corelogic` package, with a StateMirror in patch mode. Its answers are
// golden_answer.mjs's, which the web binding's adapters give too.
// Usage: node golden_adapter.mjs [LIBRARY]   (default: CORELOGIC_LIBRARY)
import { createRequire } from 'node:module';
import { goldenReplier } from './golden_answer.mjs';
import { serveGolden } from './golden_stdio.mjs';

const corelogic = createRequire(import.meta.url)('../lib/corelogic');
if (process.argv[2]) corelogic.load(process.argv[2]);
serveGolden(goldenReplier(corelogic));
