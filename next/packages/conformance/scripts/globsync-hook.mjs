// Node 20 shim for @modelcontextprotocol/conformance (0.1.16 and 0.2.0-alpha.12 alike).
//
// The package ships a single bundle, dist/index.js, whose first line contains
//   import { existsSync, globSync, mkdtempSync, promises, readFileSync } from "fs";
// `fs.globSync` only exists in Node >= 22, so on Node 20 the ESM linker throws
//   SyntaxError: The requested module 'fs' does not provide an export named 'globSync'
// before any code runs. In the bundle globSync is only used by the `tier-check`
// subcommand (globSync(`**/checks.json`, { cwd })), so the server/client/list
// commands don't need a real implementation. We still provide a small one that
// handles `**/<literal>` / `<literal>` / simple `*` patterns.
//
// Usage:
//   node --import /work/main/scratchpad/conformance/globsync-hook.mjs \
//        /path/to/node_modules/@modelcontextprotocol/conformance/dist/index.js list
// (or NODE_OPTIONS="--import /abs/path/globsync-hook.mjs" npx conformance ...)
//
// This file is both the registration entry (run via --import) and the hooks
// module (registered with module.register(import.meta.url)).
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const SHIM_URL = 'globsync-shim:fs';

const SHIM_SOURCE = `
import fs from 'node:fs';
import path from 'node:path';
export * from 'node:fs';
export default fs;

function toRegExp(glob) {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      // '**/' matches zero or more directories
      if (glob[i + 2] === '/') { re += '(?:.*/)?'; i += 2; } else { re += '.*'; i += 1; }
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^$()|[\\]{}\\\\]/g, '\\\\$&');
  }
  return new RegExp('^' + re + '$');
}

function walk(root, rel, out) {
  let entries;
  try { entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true }); }
  catch { return; }
  for (const d of entries) {
    const r = rel ? rel + '/' + d.name : d.name;
    out.push(r);
    if (d.isDirectory()) walk(root, r, out);
  }
}

export const globSync = typeof fs.globSync === 'function'
  ? fs.globSync
  : function globSync(pattern, options = {}) {
      const cwd = options.cwd ? String(options.cwd) : process.cwd();
      const pats = Array.isArray(pattern) ? pattern : [pattern];
      const all = [];
      walk(cwd, '', all);
      const res = new Set();
      for (const p of pats) {
        const rx = toRegExp(String(p).replace(/\\\\/g, '/'));
        for (const f of all) if (rx.test(f)) res.add(path.sep === '/' ? f : f.split('/').join(path.sep));
      }
      return [...res];
    };
`;

export async function resolve(specifier, context, nextResolve) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL !== SHIM_URL) {
    return { url: SHIM_URL, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (url === SHIM_URL) {
    return { format: 'module', source: SHIM_SOURCE, shortCircuit: true };
  }
  return nextLoad(url, context);
}

// When loaded through --import on the main thread, register ourselves as hooks.
// (When loaded as the hooks module inside the loader thread, isMainThread is false.)
if (isMainThread) {
  register(import.meta.url);
}
