// The web binding's errors.js, system.js, patch.js and runner.js are the Node.js binding's
// (bindings/node/lib), written as ES modules: one logic for both hosts. This writes them
// (node bindings/web/esm.mjs), or with --check exits 1 when a written copy differs.
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

for (const name of ['errors.js', 'system.js', 'patch.js', 'runner.js']) {
  const converted = convert(name, readFileSync(new URL(`../node/lib/${name}`, here), 'utf8'));
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
