// The web app through a cluster when the node holding a game dies (issue 24; run by
// scripts/e2e-cluster.sh, which starts 3 nodes behind haproxy at --base and passes the folder
// with each node's process id and the database's name). Two pages (white and black) open the game
// through haproxy and play 1. e4; the node that owns the game (read from `game_owner`) is killed
// with SIGKILL; both pages' sockets close (1006 on the dead node, 1012 relayed from a survivor),
// the pages reconnect by themselves through haproxy, another node takes the game over, and
// 1... e5 plays and reaches the other page. Prints a line per check and the time from the kill
// to the move shown; exit code 1 when a check fails.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
const base = args.includes('--base') ? args[args.indexOf('--base') + 1] : null;
const dir = process.env.E2E_CLUSTER_DIR;
const db = process.env.E2E_CLUSTER_DB;
if (!base || !dir || !db) {
  console.error('usage: E2E_CLUSTER_DIR=… E2E_CLUSTER_DB=… node e2e-cluster.mjs --base URL (scripts/e2e-cluster.sh)');
  process.exit(2);
}
let failed = 0;
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failed++;
};
const owner = (id) =>
  execFileSync('psql', ['-h', '127.0.0.1', '-p', '5432', '-U', 'postgres', '-d', db, '-qAtc', `SELECT node_id FROM game_owner WHERE game_id = '${id}'`], {
    encoding: 'utf8',
  }).trim();

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
async function page(path) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: base });
  const p = await ctx.newPage();
  p.setDefaultTimeout(20_000);
  p.on('pageerror', (e) => check(false, `page error on ${path}: ${e.message}`));
  // The close codes the page's sockets saw.
  await p.addInitScript(() => {
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (d) {
      if (!this.__watched) {
        this.__watched = true;
        this.addEventListener('close', (e) => (window.__closeCodes ??= []).push(e.code));
      }
      return send.call(this, d);
    };
  });
  await p.goto(path);
  return p;
}
async function clickSquare(p, s) {
  const a = await p.locator(`[data-square="${s}"]`).boundingBox();
  await p.mouse.click(a.x + a.width / 2, a.y + a.height / 2);
}

try {
  const res = await fetch(`${base}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const g = await res.json();
  const w = await page(g.seats.white.url);
  const b = await page(g.seats.black.url);
  for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]');
  await clickSquare(w, 'e2');
  await clickSquare(w, 'e4');
  await b.waitForSelector('[data-on="e4"][data-piece="white-pawn"]');
  check(true, 'through haproxy: 1. e4 reaches the other page');
  const before = owner(g.id);
  const name = before.split('-')[0];
  const pid = Number(readFileSync(join(dir, `${name}.pid`), 'utf8').trim());
  check(/^n[123]$/.test(name) && pid > 0, `the game's owner is node ${name} (process ${pid})`);
  const t0 = Date.now();
  process.kill(pid, 'SIGKILL');
  // Each page's socket closes: on the dead node at once, relayed ones when the owner goes silent.
  for (const x of [w, b]) await x.waitForFunction(() => (window.__closeCodes ?? []).length > 0, null, { timeout: 15_000 });
  const codes = await Promise.all([w, b].map((p) => p.evaluate(() => window.__closeCodes.join())));
  check(
    codes.every((c) => ['1006', '1012'].includes(c.split(',')[0])),
    `kill -9 of ${name}: both pages' sockets closed (${codes.join(' / ')}: 1006 on the dead node, 1012 relayed)`,
  );
  for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]', { timeout: 30_000 });
  check(true, `both pages reconnected through haproxy ${Date.now() - t0} ms after the kill`);
  await clickSquare(b, 'e7');
  await clickSquare(b, 'e5');
  await w.waitForSelector('[data-on="e5"][data-piece="black-pawn"]', { timeout: 20_000 });
  const took = Date.now() - t0;
  check((await w.locator('[data-on="e4"][data-piece="white-pawn"]').count()) === 1, `after the failover 1... e5 plays and reaches white (${took} ms after the kill; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')})`);
  const after = owner(g.id);
  check(after.split('-')[0] !== name && after !== '', `a survivor owns the game now (${after.split('-')[0]})`);
  for (const x of [w, b]) {
    const lost = await x.locator('.notices .notice', { hasText: 'connection lost' }).count();
    check(lost === 0, 'the connection-lost warning is gone once connected again');
  }
} catch (e) {
  check(false, e.message.split('\n')[0]);
} finally {
  await browser.close();
}
console.log(failed ? `${failed} check(s) failed` : 'all checks passed');
process.exit(failed ? 1 : 0);
