// The web binding's errors.js, system.js, patch.js and runner.js are the Node.js binding's
// (bindings/node/lib) written as ES modules, and its corelogic.d.ts is the Node.js one's
// without journals: one logic for both hosts. This writes them (node
// bindings/web/esm.mjs), or with --check exits 1 when a written copy differs.
import { readFileSync, writeFileSync } from 'node:fs';

const here = new URL('.', import.meta.url);
const check = process.argv.includes('--check');
let stale = 0;

function convert(name, text) {
  let out = text.replace(/^'use strict';\n/, '');
  out = out.replace(/^const (\{[^}]*\}) = require\('\.\/(\w+)'\);$/gm, (_, names, module) => `import ${names} from './${module}.js';`);
  if (/^ +const .* = require\(/m.test(out)) throw new Error(`${name}: a require inside a function has no ES module form`);
  out = out.replace(/^module\.exports = (\{[\s\S]*?\});$/m, (_, names) => `export ${names.replace(/\};?$/, '}')};`);
  return `// Generated from bindings/node/lib/${name} by bindings/web/esm.mjs: change that file.\n${out}`;
}

/** `text` with `from` replaced by `to`; a `from` the Node.js file no longer has is an error. */
function edit(text, from, to) {
  if (!text.includes(from)) throw new Error(`corelogic.d.ts: ${JSON.stringify(from.slice(0, 60))} not found`);
  return text.replace(from, to);
}

/** The web binding's declarations: the Node.js binding's without journals and restore,
 * with the asynchronous load() of the module. */
function declarations(text) {
  let out = edit(text, '// TypeScript declarations of the Node.js binding (lib/corelogic.js). JSON values are\n',
    '// TypeScript declarations of the web binding (lib/corelogic.js): the Node.js binding\'s\n' +
    '// (bindings/node/lib/corelogic.d.ts) without journals and restore, with an asynchronous\n' +
    '// load() of the WebAssembly module. JSON values are\n');
  out = edit(out, '/** Durability modes of System#openJournal (docs/persistence.md). */\n' +
    'export declare const Durability: Readonly<{ EVERY_INPUT: 0; INTERVAL: 1 }>;\n', '');
  out = edit(out, '  /** What restore found (System.restore only), else null. */\n  readonly restoreReport: any;\n', '');
  out = edit(out, '  openJournal(directory: string, durability?: 0 | 1): void;\n  checkpoint(): void;\n' +
    '  syncJournal(): void;\n  closeJournal(): void;\n  static restore<State = any, Event = any, Request = any>(\n' +
    '    feature: string, directory: string): System<State, Event, Request>;\n', '');
  out = edit(out, '/** Loads the app\'s library from `libraryPath` before any other call. */\n' +
    'export declare function load(libraryPath: string): void;\n',
    '/** Loads corelogic.wasm (a URL, a Response, its bytes or a compiled module) before any other call. */\n' +
    'export declare function load(source: string | URL | Response | BufferSource | WebAssembly.Module): Promise<void>;\n');
  return `// Generated from bindings/node/lib/corelogic.d.ts by bindings/web/esm.mjs: change that file.\n${out}`;
}

const files = [
  ...['errors.js', 'system.js', 'patch.js', 'runner.js'].map((name) => [name, (text) => convert(name, text)]),
  ['corelogic.d.ts', declarations],
];
for (const [name, write] of files) {
  const converted = write(readFileSync(new URL(`../node/lib/${name}`, here), 'utf8'));
  const target = new URL(`lib/${name}`, here);
  let current = null;
  try { current = readFileSync(target, 'utf8'); } catch (_) { /* not written yet */ }
  if (current === converted) continue;
  if (check) {
    console.error(`bindings/web/lib/${name} differs from bindings/node/lib/${name}: run node bindings/web/esm.mjs`);
    stale++;
  } else {
    writeFileSync(target, converted);
    console.log(`wrote bindings/web/lib/${name}`);
  }
}
process.exit(stale ? 1 : 0);
