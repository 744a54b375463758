// Prints the gzipped size of the built JavaScript and fails when it is over the budget (issue 14: 150 KiB).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET = 150 * 1024;
const dir = new URL('../dist/assets/', import.meta.url).pathname;
let raw = 0;
let gz = 0;
for (const f of readdirSync(dir)) {
  if (!f.endsWith('.js')) continue;
  const b = readFileSync(join(dir, f));
  raw += statSync(join(dir, f)).size;
  gz += gzipSync(b, { level: 9 }).length;
}
const kib = (n) => (n / 1024).toFixed(1);
console.log(`budget: app JavaScript ${kib(raw)} KiB, ${kib(gz)} KiB gzipped (budget ${kib(BUDGET)} KiB gzipped)`);
if (raw === 0) {
  console.error('budget: no JavaScript found in dist/assets: the build is missing');
  process.exit(1);
}
if (gz > BUDGET) {
  console.error('budget: over the budget');
  process.exit(1);
}
