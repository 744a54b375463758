// Browser tests of the web app with playwright-core and Debian's chromium, against a server at
// --base (a real `houserules serve`) or, by default, the mock server (scripts/mock-server.mjs)
// started here on a free loopback port. The steps that rely on the mock's scripted states (every
// marker kind, choices at the start) run only against the mock; the steps that need the real rules
// (a whole game to checkmate, piece-hp damage, a clock that runs out, a Grand game created from the
// lobby) only against `houserules serve` (scripts/e2e-real.sh starts one). A 10×10 game is played
// against both. Writes screenshots to web/screenshots/ and prints a line per check and the
// budgets. Exit code 1 when a check fails.
//
//   npm run build && npm run e2e [-- --base http://127.0.0.1:8080]
//   scripts/e2e-real.sh        # against a real houserules serve on a free port
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ruleChecks } from './e2e-rules.mjs';
import { trialChecks } from './e2e-trial.mjs';
import { trial18Checks } from './e2e-trial18.mjs';
import { trial20Checks } from './e2e-trial20.mjs';
import { trial26Checks } from './e2e-trial26.mjs';

const args = process.argv.slice(2);
const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const here = new URL('..', import.meta.url).pathname;
const shots = join(here, 'screenshots');
mkdirSync(shots, { recursive: true });

let mock = null;
let base = opt('--base', null);
if (!base) {
  const port = 20000 + Math.floor(Math.random() * 20000);
  mock = spawn(process.execPath, [join(here, 'scripts/mock-server.mjs'), '--port', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((ok, fail) => {
    const t = setTimeout(() => fail(new Error('mock server did not start in 10 s')), 10_000);
    mock.stdout.on('data', (d) => {
      if (String(d).includes('mock server on')) {
        clearTimeout(t);
        ok();
      }
    });
  });
  base = `http://127.0.0.1:${port}`;
}

process.on('exit', () => mock?.kill());
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130)); // runs the exit handler
// playwright-core's launch runs chromium on a fresh temporary profile of its own (a
// `--user-data-dir` argument is refused there), removed when the browser closes.
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
let failures = 0;
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
};
const only = process.env.E2E_ONLY; // run only the steps whose name contains this (development)
const step = async (what, f) => {
  if (only && !what.includes(only)) return;
  try {
    await f();
  } catch (e) {
    // Playwright's message: the failure, then what it was waiting for
    check(false, `${what}: ${e.message.split('\n').filter((l) => l.trim() && !/^=+/.test(l)).slice(0, 3).join(' | ')}`);
  }
};

async function api(path, body) {
  const res = await fetch(base + path, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}
async function page(ctxOpts, path) {
  const ctx = await browser.newContext({ ...ctxOpts, baseURL: base });
  const p = await ctx.newPage();
  p.setDefaultTimeout(15_000); // a check that waits for what never comes fails, bounded
  p.on('pageerror', (e) => check(false, `page error on ${path}: ${e.message}`));
  // Latency probes on the page's own clock (all pages share the machine's clock): when a move
  // left this page, and when a piece appeared on a square here.
  await p.addInitScript(() => {
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (d) {
      if (String(d).includes('"kind":"move"')) window.__sentAt = Date.now();
      // The close codes the page's sockets saw (each socket sends hello first).
      if (!this.__watched) {
        this.__watched = true;
        this.addEventListener('close', (e) => (window.__closeCodes ??= []).push(e.code));
      }
      return send.call(this, d);
    };
    window.__appeared = (sel) =>
      new Promise((ok) => {
        if (document.querySelector(sel)) return ok(Date.now());
        const o = new MutationObserver(() => {
          if (document.querySelector(sel)) {
            o.disconnect();
            ok(Date.now());
          }
        });
        o.observe(document.body, { subtree: true, childList: true, attributes: true });
      });
  });
  await p.goto(path);
  return p;
}
// fullPage false: what the viewport shows (a check that something is in view at that size).
const shot = (p, name, fullPage = true) => p.screenshot({ path: join(shots, `${name}.png`), fullPage });
// A square is covered by its piece and markers: click where it is, as a user does.
async function clickSquare(p, s) {
  const a = await p.locator(`[data-square="${s}"]`).boundingBox();
  await p.mouse.click(a.x + a.width / 2, a.y + a.height / 2);
}
async function dragMove(p, from, to) {
  const a = await p.locator(`[data-square="${from}"]`).boundingBox();
  const b = await p.locator(`[data-square="${to}"]`).boundingBox();
  await p.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await p.mouse.down();
  await p.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 10, { steps: 3 });
  await p.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 6 });
  await p.mouse.up();
}
const pieceOn = (p, s) => p.locator(`[data-on="${s}"][data-piece]`).getAttribute('data-piece', { timeout: 5000 });

try {
  // ---- Lobby: rules, incompatibility, create, invite links; screenshots
  let invite = {};
  await step('lobby', async () => {
    const p = await page(DESKTOP, '/');
    await p.waitForSelector('[data-preset="piece-hp"]');
    await p.check('[data-preset="piece-hp"]');
    await p.check('[data-preset="suicide-chess"]');
    const msg = await p.locator('.notice.error').first().textContent();
    check(/cannot be combined/.test(msg ?? ''), 'lobby explains incompatible presets as they are picked');
    check(await p.locator('button[type=submit]').isDisabled(), 'lobby: create is disabled while presets conflict');
    // The server's reason (GET /api/rules incompatibleReasons; session-6 web trial: dropped). Both
    // decide which pieces are royal (presets registry, incompatibility_reason).
    check(/cannot be combined with .*: \S/.test(msg ?? ''), `the conflict gives the server's reason (${msg})`);
    await p.uncheck('[data-preset="suicide-chess"]');
    await p.uncheck('[data-preset="piece-hp"]');
    // Regression (session-6 web trial): no favicon. Ours, linked and served.
    const icon = await p.locator('link[rel="icon"]').getAttribute('href');
    const res = await fetch(new URL(icon, base));
    check(res.ok && /image\/svg\+xml/.test(res.headers.get('content-type') ?? '') && (await res.text()).startsWith('<svg'), `the page has a favicon (${icon})`);
    await shot(p, 'lobby-desktop');
    // Regressions (session-7 web trial): an empty seed field sent no seed (the server's 0: the same
    // random outcomes in every game); a double click on Create game made two games; the panel with
    // the links was below the fold at 1280×800.
    await p.click('details.advanced summary');
    check(/empty: a random seed/.test(await p.locator('label:has(input[name=seed])').textContent()), 'the seed field says an empty seed is random');
    // Session-7 web trial: "called by the players" read as a guess; a real coin is tossed (B6).
    check(/tossed at the table/.test(await p.locator('select[name=coinFlips] option[value=manual]').textContent()), 'the manual coin flips option says the coin is tossed at the table');
    await shot(p, 'lobby-seed-desktop');
    const posts = [];
    p.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/games') posts.push(JSON.parse(r.postData() ?? '{}'));
    });
    await p.dblclick('button[type=submit]');
    await p.waitForSelector('[data-invite="black"]');
    await p.waitForTimeout(500);
    check(posts.length === 1, `a double click on Create game creates one game (${posts.length} requests)`);
    const sent = posts[0]?.seed;
    // The panel names the seed only for random rules (modifiers, a draft; trial 18): none here.
    check(Number.isInteger(sent) && sent >= 0 && sent <= 4294967295 && (await p.locator('[data-seed]').count()) === 0, `an empty seed field sends a random u32 (${sent}); a game without random rules shows no seed`);
    await p.waitForFunction(() => { const r = document.querySelector('.created')?.getBoundingClientRect(); return !!r && r.top >= 0 && r.top < window.innerHeight; });
    check(true, 'the created game panel is scrolled into view');
    await shot(p, 'lobby-created-desktop');
    for (const s of ['white', 'black', 'spectator']) invite[s] = await p.inputValue(`[data-invite="${s}"]`);
    check(invite.black.includes('token='), 'lobby shows an invite link per seat');
    const ph = await page(PHONE, '/');
    await ph.waitForSelector('[data-preset="piece-hp"]');
    await shot(ph, 'lobby-phone');
    await ph.click('details.advanced summary');
    await ph.locator('input[name=seed]').scrollIntoViewIfNeeded();
    await ph.screenshot({ path: join(shots, 'lobby-seed-phone.png') });
    await p.context().close();
    await ph.context().close();
  });

  // ---- Against the real server: two players and a spectator from the invite links play a whole
  // game to checkmate, with both castlings, en passant and a promotion through the picker.
  // The line, checked with python-chess 1.11 (every move legal, the last one mate):
  // 1. e4 Nf6 2. e5 d5 3. exd6 e.p. Nc6 4. dxc7 Bf5 5. Nf3 e6 6. Bc4 Bd6 7. O-O O-O 8. c8=Q Kh8
  // 9. Ng5 Rg8 10. Nxf7# 1-0.
  if (!mock) await step('whole game from invite links', async () => {
    const w = await page(DESKTOP, invite.white);
    const b = await page(DESKTOP, invite.black);
    const s = await page(DESKTOP, invite.spectator);
    for (const x of [w, b, s]) await x.waitForSelector('[data-connection="open"]');
    check((await w.locator('[data-square]').count()) === 64, 'every square carries data-square');
    const lat = [];
    // [who, how, from, to, the piece then on `to`]: moves by click-click, drag, typed SAN, or the
    // king then its rook (castling).
    const line = [
      ['w', 'click', 'e2', 'e4', 'white-pawn'], ['b', 'drag', 'g8', 'f6', 'black-knight'],
      ['w', 'type:e5', 'e4', 'e5', 'white-pawn'], ['b', 'click', 'd7', 'd5', 'black-pawn'],
      ['w', 'click', 'e5', 'd6', 'white-pawn'], ['b', 'type:Nc6', 'b8', 'c6', 'black-knight'],
      ['w', 'type:dxc7', 'd6', 'c7', 'white-pawn'], ['b', 'click', 'c8', 'f5', 'black-bishop'],
      ['w', 'drag', 'g1', 'f3', 'white-knight'], ['b', 'click', 'e7', 'e6', 'black-pawn'],
      ['w', 'click', 'f1', 'c4', 'white-bishop'], ['b', 'type:Bd6', 'f8', 'd6', 'black-bishop'],
      ['w', 'rook:h1', 'e1', 'g1', 'white-king'], ['b', 'type:O-O', 'e8', 'g8', 'black-king'],
      ['w', 'promote:q', 'c7', 'c8', 'white-queen'], ['b', 'click', 'g8', 'h8', 'black-king'],
      ['w', 'click', 'f3', 'g5', 'white-knight'], ['b', 'click', 'f8', 'g8', 'black-rook'],
      ['w', 'click', 'g5', 'f7', 'white-knight'],
    ];
    for (const [i, [who, how, from, to, piece]] of line.entries()) {
      const [me, other] = who === 'w' ? [w, b] : [b, w];
      const sel = `[data-on="${to}"][data-piece="${piece}"]`;
      const seen = other.evaluate((q) => window.__appeared(q), sel);
      if (how === 'click') {
        await clickSquare(me, from);
        await clickSquare(me, to);
      } else if (how.startsWith('rook:')) {
        // king, then its own rook: castles (session-7 web trial: it selected the rook)
        await clickSquare(me, from);
        await clickSquare(me, how.slice(5));
      } else if (how === 'drag') {
        await dragMove(me, from, to);
      } else if (how.startsWith('type:')) {
        await me.fill('.typed input', how.slice(5));
        await me.press('.typed input', 'Enter');
      } else {
        await clickSquare(me, from);
        await clickSquare(me, to);
        await me.waitForSelector('[data-promotion="n"]');
        check((await me.locator('[data-promotion]').count()) === 4, 'the promotion picker offers the four choices');
        await me.click(`[data-promotion="${how.slice(8)}"]`);
      }
      const at = await seen;
      lat.push(at - (await me.evaluate(() => window.__sentAt)));
      await s.waitForSelector(sel);
      if (i === 4) check((await pieceOn(s, 'd5').catch(() => null)) === null, 'en passant removes the pawn on d5');
      if (i === 5) {
        // a reload in mid-game resumes it where it was
        await b.reload();
        await b.waitForSelector('[data-on="d6"][data-piece="white-pawn"]');
        await b.waitForSelector('[data-connection="open"]');
        check((await pieceOn(b, 'c6')) === 'black-knight', 'a reload in mid-game resumes it');
      }
      if (i === 11) {
        const moves = (await s.locator('.moves').textContent()).replace(/\s+/g, ' ');
        check(/1\. ?e4 ?Nf6 ?2\. ?e5 ?d5 ?3\. ?exd6 ?Nc6 ?4\. ?dxc7/.test(moves), `move list in SAN (${moves.trim().slice(0, 80)})`);
        await w.fill('.typed input', 'Ke3');
        await w.press('.typed input', 'Enter');
        check(/not a legal move/.test(await w.locator('#typed-error').textContent()), 'an illegal typed move is refused with a reason');
        await w.fill('.typed input', '');
      }
      if (i === 12) check((await pieceOn(w, 'f1')) === 'white-rook', 'castling short moves the rook to f1');
      if (i === 13) {
        check((await pieceOn(s, 'f8')) === 'black-rook', 'black castles short: rook on f8');
        await shot(w, 'game-desktop');
        const ph = await page(PHONE, invite.spectator);
        await ph.waitForSelector('[data-on="f8"][data-piece="black-rook"]');
        await shot(ph, 'game-phone');
        await ph.context().close();
      }
    }
    lat.sort((x, y) => x - y);
    const p95 = lat[Math.ceil(lat.length * 0.95) - 1];
    console.log(`budget: a move appears in the other browser after p50 ${lat[lat.length >> 1]} ms, p95 ${p95} ms (target p95 < 100 ms; ${lat.length} moves; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`);
    // Reported, not judged: a timed result is a measurement, and with 19
    // moves the p95 is the slowest one, so one scheduler stall on a shared
    // machine would fail the run (session 7: p50 7 ms, p95 136 ms).
    console.log(`budget: move latency ${p95 < 100 ? 'within' : 'OVER'} the 100 ms p95 budget on this run`);
    for (const x of [w, b, s]) {
      await x.waitForSelector('.banner');
      check(/1-0/.test(await x.locator('.banner').textContent()), `checkmate: the banner reads 1-0 (${(await x.locator('.banner').textContent()).trim()})`);
      // Regression (session-6 web trial): the move list never showed the result at its end.
      check((await x.locator('.moves li:last-child').getAttribute('data-move-result')) === '1-0', 'the move list ends with 1-0');
    }
    // Issue 26 item 10: the banner leaves the final position in view, and the mated king is marked.
    const bb = await s.locator('svg.board').boundingBox();
    const nb = await s.locator('.banner').boundingBox();
    check(nb.y >= bb.y + bb.height - 1 || nb.y + nb.height <= bb.y + 1, `checkmate: the result banner does not cover the board (board ${Math.round(bb.y)}–${Math.round(bb.y + bb.height)}, banner from ${Math.round(nb.y)})`);
    check((await s.locator('.sq.check').count()) === 1, 'checkmate: the mated king\'s square is marked');
    await shot(s, 'checkmate-desktop');
    for (const x of [w, b, s]) await x.context().close();
  });

  // ---- piece-hp through the real rules: badges from the start (presets-and-triggers.md § piece-hp:
  // non-king pieces start at hp 2, kings at 1) and a capture that only damages.
  if (!mock) await step('piece-hp', async () => {
    const g = await api('/api/games', { presets: ['piece-hp'] });
    const w = await page(DESKTOP, g.seats.white.url);
    const b = await page(DESKTOP, g.seats.black.url);
    await w.waitForSelector('[data-connection="open"]');
    check((await w.locator('.hp').count()) === 32, 'piece-hp: every piece has a hit-point badge');
    check((await w.locator('.hp[data-hp="1"]').count()) === 2 && (await w.locator('.hp[data-hp="2"]').count()) === 30, 'piece-hp: kings start at 1, the others at 2');
    for (const [me, m] of [[w, 'e4'], [b, 'd5'], [w, 'exd5']]) {
      await me.fill('.typed input', m);
      await me.press('.typed input', 'Enter');
      await me.waitForFunction((n) => document.querySelectorAll('.moves').length && document.querySelector('.moves').textContent.includes(n), m);
    }
    // The captured pawn (hp 2) takes one damage and survives: 32 pieces, three at hp 1.
    await w.waitForFunction(() => document.querySelectorAll('.hp[data-hp="1"]').length === 3);
    check((await w.locator('.hp').count()) === 32, 'piece-hp: a capture of a 2-hp pawn leaves it on the board with 1 hp');
    // § piece-hp scenario 1: the survivor is pushed to the first empty neighbour clockwise from north.
    check((await pieceOn(w, 'd6')) === 'black-pawn' && (await pieceOn(w, 'd5')) === 'white-pawn', 'piece-hp: the damaged pawn is pushed from d5 to d6');
    // Issue 26 item 6 (session 18): the damage and the push are in the event log, named after the
    // preset (Hit Points), after White's second move ("2.").
    await w.waitForSelector('[data-event-log] li:has-text("pushed")');
    const hpRows = (await w.locator('[data-event-log] li').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    check(
      hpRows.some((t) => /^2\. ?Hit Points: The black pawn on d6 lost a hit point: 1 left\.$/.test(t)) && hpRows.some((t) => /^2\. ?Hit Points: The black pawn was pushed from d5 to d6\.$/.test(t)),
      `piece-hp: the log says the damage and the push, named after Hit Points (${hpRows.join(' | ')})`,
    );
    // Issue 26 item 10: no hit-point badge covers a file letter (they share no pixel box).
    const covered = await w.evaluate(() => {
      const boxes = [...document.querySelectorAll('.hp circle')].map((c) => c.getBoundingClientRect());
      return [...document.querySelectorAll('text.coord')].filter((t) => /^[a-z]$/.test(t.textContent)).filter((t) => {
        const r = t.getBoundingClientRect();
        return boxes.some((b) => r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom);
      }).map((t) => t.textContent);
    });
    check(covered.length === 0, `piece-hp: the hit-point badges leave the file letters clear (${covered.join('') || 'none covered'})`);
    await shot(w, 'piece-hp-desktop');
    await w.context().close();
    await b.context().close();
  });

  // ---- The rules panel (issue 26 item 1): a player and a spectator see the game, every preset
  // and modifier by name with the description GET /api/rules gives (its first sentence; the whole
  // text on a tap), the time control, the choice timeout and the seed.
  if (!mock) await step('rules panel', async () => {
    const rules = await api('/api/rules');
    const desc = (list, id) => rules[list].find((e) => e.id === id).description;
    const g = await api('/api/games', {
      presets: ['piece-hp', 'king-heals'], modifiers: ['parry', 'minefield'], seed: 7,
      clock: { initialSeconds: 300, incrementSeconds: 2 }, choiceTimeout: { mode: 'timeout-with-default', seconds: 45 },
    });
    for (const [who, p] of [['player', await page(DESKTOP, g.seats.white.url)], ['spectator', await page(PHONE, `/games/${g.id}`)]]) {
      await p.waitForSelector('[data-rules-panel] [data-rule-id="minefield"]');
      // The panel names rules by id until GET /api/rules has answered (a loaded machine made the
      // check read "Piece hp" in session 14): wait for the names, then compare.
      await p
        .waitForFunction(() => document.querySelector('[data-rules-panel] [data-rule-id="piece-hp"] .rule-name')?.textContent === 'Hit Points', null, { timeout: 10000 })
        .catch(() => {});
      const lines = await p.locator('[data-rules-panel] [data-rule-id]').evaluateAll((ls) => ls.map((l) => [l.dataset.ruleKind, l.dataset.ruleId, l.querySelector('.rule-name').textContent, l.querySelector('.full')?.textContent]));
      check(JSON.stringify(lines) === JSON.stringify([
        ['preset', 'piece-hp', 'Hit Points', desc('presets', 'piece-hp')],
        ['preset', 'king-heals', 'Regenerating King', desc('presets', 'king-heals')],
        ['modifier', 'parry', 'Parry', desc('modifiers', 'parry')],
        ['modifier', 'minefield', 'Minefield', desc('modifiers', 'minefield')],
      ]), `rules panel (${who}): every preset and modifier by name with the server's description (${lines.map((l) => l[2]).join(', ')})`);
      const facts = (await p.locator('[data-rules-panel] .facts').textContent()).replace(/\s+/g, ' ');
      check(/Clock ?5\+2/.test(facts) && /45 s to answer/.test(facts) && /Seed ?7/.test(facts), `rules panel (${who}): time control, choice timeout and seed (${facts.trim()})`);
      await p.locator('[data-rule-id="parry"] summary').click();
      check(await p.locator('[data-rule-id="parry"] .full').isVisible(), `rules panel (${who}): a tap on a rule shows its whole description`);
      const over = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      check(over <= 0, `rules panel (${who}): no sideways scroll (${over} px over)`);
      await shot(p, `rules-panel-${who}`);
      await p.context().close();
    }
  });

  // ---- Issue 26: check from the rules in force; the move box says why a move cannot be sent;
  // controls that cannot work are hidden; player names from the lobby, in the page and the PGN.
  if (!mock) await step('rules-in-force check, messages, names', async () => {
    // Under trans-rights a queen steps like a king (docs/presets.md): after 1. c3 f6 2. a3 Kf7
    // 3. a4 Kg6, 4. Qc2 checks in standard chess (python-chess: "Qc2+") but not here. The page
    // wrote "+" and marked the king from standard chess's test while the server's SAN had no check.
    const g = await api('/api/games', { presets: ['trans-rights'], white: 'Ada', black: 'Grace', clock: { initialSeconds: 300, incrementSeconds: 2 } });
    const w = await page(DESKTOP, g.seats.white.url);
    const b = await page(DESKTOP, g.seats.black.url);
    for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]');
    // Out of turn: "not your turn", not "not a legal move" (the legal moves listed are White's).
    await b.fill('.typed input', 'e5');
    await b.press('.typed input', 'Enter');
    const outOfTurn = (await b.locator('#typed-error').textContent()).trim();
    check(outOfTurn === 'not your turn', `a move typed out of turn says so (${outOfTurn})`);
    await b.fill('.typed input', '');
    // Claim draw only when a draw can be claimed (never at the start).
    check((await w.locator('[data-claim="draw"]').count()) === 0, 'Claim draw is not offered when no draw can be claimed');
    const line = ['c3', 'f6', 'a3', 'Kf7', 'a4', 'Kg6', 'Qc2'];
    for (const [i, m] of line.entries()) {
      const me = i % 2 === 0 ? w : b;
      await me.fill('.typed input', m);
      await me.press('.typed input', 'Enter');
      await w.waitForFunction((n) => [...document.querySelectorAll('.moves .w, .moves .b')].filter((e) => /[a-h]/.test(e.textContent ?? '')).length >= n, i + 1);
    }
    await b.waitForFunction(() => /Qc2/.test(document.querySelector('.moves')?.textContent ?? ''));
    const moves = (await b.locator('.moves').textContent()).replace(/\s+/g, ' ');
    check(/Qc2(?!\+)/.test(moves), `trans-rights: the move list writes Qc2 without + (${moves.trim()})`);
    check((await b.locator('.sq.check').count()) === 0 && (await w.locator('.sq.check').count()) === 0, 'trans-rights: no king is marked in check after Qc2');
    const pgn = await (await fetch(`${base}/api/games/${g.id}/pgn`)).text();
    check(/4\. Qc2 \*/.test(pgn.replace(/\s+/g, ' ')), 'trans-rights: the PGN agrees (4. Qc2)');
    check(/\[White "Ada"\]/.test(pgn) && /\[Black "Grace"\]/.test(pgn) && /\[TimeControl "300\+2"\]/.test(pgn), 'the PGN names the players and the time control (300+2)');
    const names = (await w.locator('.player .name').allTextContents()).join(',');
    check(/Ada/.test(names) && /Grace/.test(names), `the game page shows the players' names (${names})`);
    await shot(w, 'check-rules-desktop');
    const ph = await page(PHONE, g.seats.black.url);
    await ph.waitForSelector('[data-connection="open"]');
    await shot(ph, 'check-rules-phone');
    await ph.context().close();
    await w.context().close();
    await b.context().close();
    // Claim draw appears once a draw can be claimed: 1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8
    // brings the start position back for the third time (FIDE 9.2.2), White to move.
    {
      const g3 = await api('/api/games', {});
      const w3 = await page(DESKTOP, g3.seats.white.url);
      const b3 = await page(DESKTOP, g3.seats.black.url);
      for (const x of [w3, b3]) await x.waitForSelector('[data-connection="open"]');
      for (const [i, m] of ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1', 'Ng8'].entries()) {
        const me = i % 2 === 0 ? w3 : b3;
        await me.fill('.typed input', m);
        await me.press('.typed input', 'Enter');
        await w3.waitForFunction((n) => [...document.querySelectorAll('.moves .w, .moves .b')].filter((e) => /[a-h]/.test(e.textContent ?? '')).length >= n, i + 1);
      }
      await w3.waitForSelector('[data-claim="draw"]');
      const title = await w3.locator('[data-claim="draw"]').getAttribute('title');
      check(/three times/.test(title ?? '') && (await b3.locator('[data-claim="draw"]').count()) === 0, `Claim draw appears on the claimant's turn once the position is repeated three times (${title})`);
      await w3.click('[data-claim="draw"]');
      await b3.waitForSelector('.banner');
      check(/½|1\/2/.test(await b3.locator('.banner').textContent()), 'the claimed draw ends the game');
      await w3.context().close();
      await b3.context().close();
    }
    // Claim victory is not offered against a seat that never came to the board (the server
    // refuses it: claim.opponent-never-joined).
    const g2 = await api('/api/games', {});
    const lone = await page(DESKTOP, g2.seats.white.url);
    await lone.waitForSelector('[data-connection="open"]');
    await lone.waitForTimeout(500);
    check((await lone.locator('[data-claim="victory"]').count()) === 0, 'Claim victory is not offered before the opponent ever joined');
    await lone.context().close();
    // The lobby asks for a name, sends it with the game and remembers it in the browser.
    const lp = await page(DESKTOP, '/');
    await lp.waitForSelector('input[name=playerName]');
    await lp.fill('input[name=playerName]', 'Hypatia');
    const posted = lp.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/games');
    await lp.click('button[type=submit]');
    const body = JSON.parse((await posted).postData() ?? '{}');
    check(body.white === 'Hypatia' || body.black === 'Hypatia', `the lobby sends the player's name with the game (${body.white} / ${body.black})`);
    await lp.waitForSelector('[data-invite="black"]');
    await lp.reload();
    await lp.waitForSelector('input[name=playerName]');
    check((await lp.inputValue('input[name=playerName]')) === 'Hypatia', 'the lobby remembers the name in this browser');
    await shot(lp, 'lobby-name-desktop');
    const lph = await page(PHONE, '/');
    await lph.waitForSelector('input[name=playerName]');
    await lph.locator('input[name=playerName]').scrollIntoViewIfNeeded();
    await lph.screenshot({ path: join(shots, 'lobby-name-phone.png') });
    await lph.context().close();
    await lp.context().close();
  });

  // ---- The server restarted in mid-game (scripts/e2e-real.sh passes how it started it): the
  // server is killed by its PID (SIGKILL, as a crash: every input is committed before it is
  // acknowledged, docs/protocol.md § Persistence) and started again on the same SQLite file. Both
  // pages reconnect by themselves, the position, the markers and the move list are back, and the
  // game goes on. The game has minefield's two mines (their squares are compared before and after).
  if (!mock && process.env.E2E_SERVER_PIDFILE) await step('server restart', async () => {
    const g = await api('/api/games', { modifiers: ['minefield'], seed: 0 });
    const w = await page(DESKTOP, g.seats.white.url);
    const b = await page(DESKTOP, g.seats.black.url);
    for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]');
    const mines = async (p) => (await p.locator('[data-marker="mine"]').evaluateAll((ms) => ms.map((m) => m.getAttribute('data-on')))).sort().join();
    const before = await mines(w);
    // Regression (session-6 web trial): the legend listed all nine marker kinds; only mines here.
    const legend = await w.locator('.legend li').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-legend')).join());
    check(legend === 'mine', `the legend lists only the kinds on the board (${legend})`);
    for (const [me, other, from, to, piece] of [[w, b, 'd2', 'd4', 'white-pawn'], [b, w, 'd7', 'd5', 'black-pawn']]) {
      await clickSquare(me, from);
      await clickSquare(me, to);
      await other.waitForSelector(`[data-on="${to}"][data-piece="${piece}"]`);
    }
    const pidFile = process.env.E2E_SERVER_PIDFILE;
    process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGKILL');
    await w.waitForSelector('[data-connection="reconnecting"]');
    await b.waitForSelector('[data-connection="reconnecting"]');
    check(true, 'restart: the pages see the connection drop');
    const [bin, ...argv] = process.env.E2E_SERVER_CMD.split('\n').filter(Boolean);
    const log = openSync(process.env.E2E_SERVER_LOG ?? '/dev/null', 'a');
    // detached: the restarted server outlives this script until e2e-real.sh stops it by its PID
    const child = spawn(bin, argv, { stdio: ['ignore', log, log], detached: true });
    child.unref();
    writeFileSync(pidFile, `${child.pid}\n`);
    for (let i = 0; i < 100; i++) {
      if (await fetch(`${process.env.E2E_SERVER_BASE ?? base}/healthz`).then((r) => r.ok, () => false)) break;
      await new Promise((ok) => setTimeout(ok, 100));
    }
    for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]', { timeout: 20_000 });
    // Issue 26 item 3 (regression): the "connection lost" warning goes once connected again.
    for (const x of [w, b]) await x.locator('.notices .notice', { hasText: 'connection lost' }).first().waitFor({ state: 'detached', timeout: 5_000 });
    check(true, 'restart: the connection-lost warning clears once the pages are connected again');
    check((await mines(w)) === before && before.split(',').length === 2, `restart: the page reconnects with the position and its markers (mines ${before})`);
    await clickSquare(w, 'c2');
    await clickSquare(w, 'c4');
    await b.waitForSelector('[data-on="c4"][data-piece="white-pawn"]');
    check((await b.locator('[data-on="d5"][data-piece="black-pawn"]').count()) === 1, 'restart: the game continues where it was (c4 after d4 d5)');
    await w.waitForFunction(() => /1\. ?d4 ?d5 ?2\. ?c4/.test(document.querySelector('.moves')?.textContent.replace(/\s+/g, ' ') ?? ''));
    check(true, 'restart: the move list reads 1. d4 d5 2. c4');
    for (const x of [w, b]) await x.context().close();
  });

  // ---- The server stopped by SIGTERM in mid-game and started again (issue 22 § Shutdown; issue 26
  // item 3, regression: after a restart every open page kept "connection lost; reconnecting…" for
  // the rest of the game although moves arrived). The stop closes both pages' sockets with 1012;
  // each shows the warning, reconnects by itself once the server is back, and the warning goes
  // once the new connection is open and its welcome read. A move then plays on both pages.
  if (!mock && process.env.E2E_SERVER_PIDFILE) await step('server stop and start (SIGTERM, 1012)', async () => {
    const lost = 'connection lost; reconnecting…';
    const banner = (p) => p.locator('.notices .notice', { hasText: lost });
    const g = await api('/api/games', {});
    const w = await page(DESKTOP, g.seats.white.url);
    const b = await page(DESKTOP, g.seats.black.url);
    for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]');
    await clickSquare(w, 'e2');
    await clickSquare(w, 'e4');
    await b.waitForSelector('[data-on="e4"][data-piece="white-pawn"]');
    const pidFile = process.env.E2E_SERVER_PIDFILE;
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    const t0 = Date.now();
    process.kill(pid, 'SIGTERM');
    for (const x of [w, b]) await x.waitForSelector('[data-connection="reconnecting"]');
    for (const x of [w, b]) await banner(x).first().waitFor();
    const codes = await Promise.all([w, b].map((p) => p.evaluate(() => (window.__closeCodes ?? []).join())));
    check(codes.every((c) => c.split(',')[0] === '1012'), `SIGTERM: both pages' sockets are closed with 1012, service restart (${codes.join(' / ')})`);
    check(true, 'SIGTERM: both pages see the connection drop and say so');
    // The old process must be gone (its port free) before the new one binds it.
    const gone = () => {
      try {
        process.kill(pid, 0);
      } catch {
        return true;
      }
      try {
        return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
      } catch {
        return true;
      }
    };
    while (!gone() && Date.now() - t0 < 12_000) await new Promise((ok) => setTimeout(ok, 50));
    check(gone() && Date.now() - t0 < 10_000, `SIGTERM: the server exits within 10 s (${Date.now() - t0} ms)`);
    // Down a while, as in a real restart: the pages keep trying (backoff).
    await new Promise((ok) => setTimeout(ok, 1500));
    check((await banner(w).count()) === 1 && (await banner(b).count()) === 1, 'SIGTERM: one warning per page while the server is down');
    const [bin, ...argv] = process.env.E2E_SERVER_CMD.split('\n').filter(Boolean);
    const log = openSync(process.env.E2E_SERVER_LOG ?? '/dev/null', 'a');
    const child = spawn(bin, argv, { stdio: ['ignore', log, log], detached: true });
    child.unref();
    writeFileSync(pidFile, `${child.pid}\n`);
    for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]', { timeout: 20_000 });
    for (const x of [w, b]) await banner(x).first().waitFor({ state: 'detached', timeout: 5_000 });
    check((await banner(w).count()) === 0 && (await banner(b).count()) === 0, 'SIGTERM: the warning clears once the pages are connected again');
    await clickSquare(b, 'e7');
    await clickSquare(b, 'e5');
    await w.waitForSelector('[data-on="e5"][data-piece="black-pawn"]');
    check((await w.locator('[data-on="e4"][data-piece="white-pawn"]').count()) === 1, 'SIGTERM: after the restart a move plays (e5 after e4) and reaches the other page');
    await new Promise((ok) => setTimeout(ok, 300));
    check((await banner(w).count()) === 0 && (await banner(b).count()) === 0, 'SIGTERM: the warning stays away while play goes on');
    await shot(w, 'after-sigterm-restart-desktop');
    for (const x of [w, b]) await x.context().close();
  });

  // ---- Typed moves (session-7 web trial): a promotion typed without its piece (g7g8) opened no
  // picker but an error; "e1-e2" was refused; a 5,000-character text ran off the screen, as did a
  // very long game id in the URL. White: Ke1, Pg7; Black: Ka8 (g8 is free, so g7g8 promotes).
  if (!mock) await step('typed moves', async () => {
    const g = await api('/api/games', { fen: 'k7/6P1/8/8/8/8/8/4K3 w - - 0 1' });
    const w = await page(DESKTOP, g.seats.white.url);
    const b = await page(DESKTOP, g.seats.black.url);
    for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]');
    await w.fill('.typed input', 'x'.repeat(5000));
    await w.press('.typed input', 'Enter');
    await w.waitForSelector('#typed-error:not(:empty)');
    const err = await w.locator('#typed-error').textContent();
    const wide = await w.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(err.length < 100 && wide <= 0, `a 5,000-character move gives a short error and no sideways scroll (${err.length} characters, ${wide} px over)`);
    await w.fill('.typed input', 'g7g8');
    await w.press('.typed input', 'Enter');
    await w.waitForSelector('[data-promotion="q"]');
    check(true, 'g7g8 typed without the piece opens the promotion picker');
    await w.click('[data-promotion="q"]');
    await b.waitForSelector('[data-on="g8"][data-piece="white-queen"]');
    check(true, 'the piece picked for the typed promotion is played (g8=Q+; a knight would leave K+N v K, a dead position)');
    await b.fill('.typed input', 'a8-a7');
    await b.press('.typed input', 'Enter');
    await w.waitForSelector('[data-on="a7"][data-piece="black-king"]');
    check(true, '"a8-a7" is read as a8a7');
    // Session-7 web trial: Claim draw and Claim victory were always shown; issue 26 item 9: Claim
    // draw was still shown on every turn. White is to move in a position seen once, with no
    // fifty-move count: no draw can be claimed (the server's drawClaim is null), so neither page
    // offers it; nobody has Claim victory while both are here; once Black leaves, White's page
    // offers it.
    check((await w.locator('[data-claim="draw"]').count()) === 0 && (await b.locator('[data-claim="draw"]').count()) === 0 && (await w.locator('[data-claim="victory"]').count()) === 0, 'no Claim draw when none can be claimed; no Claim victory while the opponent is here');
    await b.context().close();
    // Not before the opponent has been away the server's claimVictoryAfterMs (40 s by default,
    // docs/protocol.md; trial 26 item 2: it came 3 s after they left, beside "not back in 37 s").
    await w.waitForSelector('[data-opponent-away]');
    check((await w.locator('[data-claim="victory"]').count()) === 0, 'no Claim victory just after the opponent left');
    await w.waitForSelector('[data-claim="victory"]', { timeout: 60_000 });
    check(true, 'Claim victory appears once the opponent has been away long enough');
    await w.context().close();
    const longId = await page(DESKTOP, `/games/${'z'.repeat(3000)}`);
    await longId.waitForSelector('main.loading [role=status]:has-text("There is no game")');
    const over = await longId.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(over <= 0, `a very long game id does not push the page sideways (${over} px over)`);
    await longId.context().close();
  });

  // ---- Draft cards (session-7 web trial: the cards showed raw ids). Draft mode deals White three
  // cards before the third ply (modifier-rulings G2: P = 2, (P + 1) % 3 == 0); each button names
  // its modifier as GET /api/rules does, with the description.
  if (!mock) await step('draft cards', async () => {
    const g = await api('/api/games', { draft: true, seed: 3, choiceTimeout: { mode: 'timeout-with-default', seconds: 45 } });
    const rules = await api('/api/rules');
    const named = Object.fromEntries(rules.modifiers.map((m) => [m.id, m.name]));
    const w = await page(DESKTOP, g.seats.white.url);
    const b = await page(DESKTOP, g.seats.black.url);
    for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]');
    await clickSquare(w, 'e2');
    await clickSquare(w, 'e4');
    await b.waitForSelector('[data-on="e4"][data-piece="white-pawn"]');
    await clickSquare(b, 'e7');
    await clickSquare(b, 'e5');
    await w.waitForSelector('.choice[data-choice="card"] [data-option]');
    const cards = await w.locator('.choice [data-option]').evaluateAll((bs) => bs.map((x) => [x.getAttribute('data-option'), x.querySelector('b')?.textContent, !!x.querySelector('small')?.textContent]));
    check(cards.length === 3 && cards.every(([id, name, desc]) => name === named[id] && name !== id && desc), `draft cards show the modifier's name and description (${cards.map((c) => c.slice(0, 2).join('=')).join(', ')})`);
    const title = await w.locator('.choice h3').textContent();
    const wait = await b.locator('.choice').textContent();
    check(/choose a rule/i.test(title) && /Waiting for White to choose a rule card/.test(wait), `the draft prompt and the wait say what is chosen (${title}; ${wait.trim()})`);
    // Session 18: the server sends the draft prompt's timeout (45 s here) as for every prompt.
    const st = await api(`/api/games/${g.id}`);
    check(st.pendingChoice?.prompt?.timeout === 45, `the draft prompt carries the game's choice timeout (${JSON.stringify(st.pendingChoice?.prompt?.timeout)})`);
    const left = Number(/(\d+) s left/.exec((await w.locator('.choice .timeout').textContent()) ?? '')?.[1]);
    check(left > 30 && left <= 45, `the draft's countdown runs from the prompt's 45 s (${left} s left)`);
    await shot(w, 'draft-desktop');
    await w.context().close();
    await b.context().close();
  });

  // ---- A clock that runs out: 3 s each; White moves, Black does not, Black's flag falls (FIDE 6.9).
  if (!mock) await step('clock runs out', async () => {
    const g = await api('/api/games', { clock: { initialSeconds: 3, incrementSeconds: 0 } });
    const w = await page(DESKTOP, g.seats.white.url);
    await w.waitForSelector('[data-connection="open"]');
    await w.fill('.typed input', 'e4');
    await w.press('.typed input', 'Enter');
    await w.waitForSelector('.banner', { timeout: 10_000 });
    const text = await w.locator('.banner').textContent();
    check(/1-0/.test(text) && /time/i.test(text), `the flag falls: ${text.trim()}`);
    check((await w.locator('[data-clock="black"]').textContent()).includes('0:00'), 'the fallen clock reads 0:00');
    await w.context().close();
  });

  // ---- A 10×10 game against the real server: Grand chess chosen in the lobby's Game select, both
  // seats from the invite links, a pawn move and a reply played by clicking (issue 14). The server
  // hosts boards over 64 squares without modifiers (docs/protocol.md, play.rs `capablanca_game`).
  // The moves, derived by hand from Grand's start position (`houserules state --game grand`,
  // crates/definitions/games/grand.yaml):
  //   r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1
  // White's pawns stand on rank 3, Black's on rank 8, ranks 4–7 are empty. A pawn that has not
  // moved steps one or two squares forward onto empty squares (grand.yaml's Pawn: `Step` and the
  // range-2 `Step` while `has_moved == false`) and captures diagonally; e4 and e5 are empty and no
  // black piece stands on d4 or f4, so the e3 pawn may go to e4 or e5 and nowhere else.
  // 1. e5 (e3–e5). Then Black's e8 pawn: e7 and e6 are empty, e5 holds White's pawn, so its moves
  // are e7 and e6 (no capture: d7 and f7 are empty). 1... e6 (e8–e6). Neither move uncovers a king:
  // the kings on e2/e9 stand behind their own pieces on the e-file and nothing checks them.
  // Regression (session-6 web trial): an unknown game or a wrong seat token showed "Connecting
  // again…" forever; the server answers 404 game.not-found / 403 seat.bad-token, so the page says why.
  // ---- An open challenge from the lobby (session-6 web trial: lobby games were never open, so
  // Join was reachable only through the API), on a random Chess960 position (the lobby picks the
  // index and says which: the server refuses a bare `chess960`). One browser creates it, another
  // sees it in the lobby's list, joins and both play a move; then a draw offer is made, declined,
  // and the game resigned: the move list ends with the result.
  if (!mock) await step('open challenge', async () => {
    const a = await page(DESKTOP, '/');
    await a.waitForSelector('[data-preset="piece-hp"]');
    await a.selectOption('select[name="layout"]', 'chess960');
    check((await a.inputValue('input[name="chess960"]')) === 'random', 'the Chess960 position defaults to random');
    await a.check('input[name="mode"][value="open"]');
    await a.selectOption('select[name="colour"]', 'white');
    await shot(a, 'lobby-choices-desktop');
    const aph = await page(PHONE, '/');
    await aph.waitForSelector('[data-preset="piece-hp"]');
    await aph.selectOption('select[name="layout"]', 'chess960');
    await aph.check('input[name="mode"][value="open"]');
    await aph.locator('fieldset.mode').scrollIntoViewIfNeeded();
    await shot(aph, 'lobby-choices-phone');
    await aph.context().close();
    await a.click('button[type=submit]');
    // Regression (session-7 web trial): the lobby said "Waiting for an opponent…" after the join.
    // The creator is taken to the game page at once, which says the opponent has not joined.
    await a.waitForURL(/\/games\/.*token=/);
    await a.waitForSelector('[data-connection="open"]');
    const id = decodeURIComponent(new URL(a.url()).pathname.split('/').pop());
    await a.waitForSelector('[data-waiting-opponent]');
    check((await a.locator('[data-claim="victory"]').count()) === 0, 'the open challenge\'s creator is on the game page, told the opponent has not joined, without Claim victory');
    await shot(a, 'open-waiting-desktop');
    const open = await api('/api/games?status=open');
    const row = open.find((g) => g.id === id);
    const n = Number(/^chess960:(\d+)$/.exec(row?.request?.layout ?? '')?.[1]);
    check(Number.isInteger(n) && n >= 0 && n <= 959 && row?.request?.seat === 'white', `the server holds an open challenge on a random chess960:${n} (${JSON.stringify(row?.request)})`);
    const b = await page(DESKTOP, '/');
    await b.waitForSelector(`[data-list-game="${id}"] [data-join="${id}"]`);
    check(/Chess960 position \d+/.test(await b.locator(`[data-list-game="${id}"]`).textContent()), 'the open challenge is listed with its layout in words');
    await shot(b, 'lobby-open-list-desktop');
    const bph = await page(PHONE, '/');
    await bph.waitForSelector(`[data-join="${id}"]`);
    await bph.locator('.lists').scrollIntoViewIfNeeded();
    await shot(bph, 'lobby-open-list-phone');
    await bph.context().close();
    // A third lobby that still lists the challenge when b takes it (session-7 web trial: after a
    // failed join the taken challenge stayed listed with its Join button).
    const c = await page(DESKTOP, '/');
    await c.waitForSelector(`[data-join="${id}"]`);
    await b.click(`[data-join="${id}"]`);
    await b.waitForURL(/\/games\/.*token=/);
    if (await c.locator(`[data-join="${id}"]`).count()) {
      await c.click(`[data-join="${id}"]`);
      await c.waitForSelector('.lists .notice.error:has-text("Could not join")');
      await c.waitForSelector(`[data-join="${id}"]`, { state: 'detached', timeout: 3000 });
      check(true, 'a failed join says so and the taken challenge leaves the list');
    }
    await c.context().close();
    await b.waitForSelector('[data-connection="open"]');
    check(/playing black/.test(await b.locator('.conn').textContent()), 'Join takes the free seat (black) and opens the game page');
    await a.waitForSelector('[data-waiting-opponent]', { state: 'detached' });
    check(true, 'the creator\'s page sees the opponent arrive');
    // Every Chess960 array keeps the pawns on ranks 2 and 7: e4 and e5 are legal in any of them.
    await clickSquare(a, 'e2');
    await clickSquare(a, 'e4');
    await b.waitForSelector('[data-on="e4"][data-piece="white-pawn"]');
    await clickSquare(b, 'e7');
    await clickSquare(b, 'e5');
    await a.waitForSelector('[data-on="e5"][data-piece="black-pawn"]');
    check(true, 'both players of the joined open challenge move');
    const live = await api('/api/games?status=live');
    check(live.some((g) => g.id === id), 'the joined challenge is a live game to watch');
    // Session-7 web trial: the live list showed invitations nobody opened, and ids. An invitation
    // (two links, no move) is left out; the joined challenge is listed by names with Watch.
    const idle = await api('/api/games', { presets: ['piece-hp'] });
    const lv = await page(DESKTOP, '/');
    await lv.waitForSelector(`[data-list-game="${id}"] a:has-text("Watch")`);
    const lvText = await lv.locator(`[data-list-game="${id}"]`).textContent();
    check(/^Chess · Chess960 position \d+/.test(lvText.trim()), `the live game is described in words (${lvText.trim()})`);
    check((await lv.locator(`[data-list-game="${idle.id}"]`).count()) === 0, 'an invitation nobody acted in is not a live game to watch');
    await lv.locator('.lists').scrollIntoViewIfNeeded();
    await shot(lv, 'lobby-live-list-desktop');
    await lv.context().close();
    // Regression (session-6 web trial): a draw offer had no text, a declined one said nothing.
    await a.click('text=Offer draw');
    await a.waitForSelector('[data-draw-offer="white"]');
    check(/Draw offer sent/.test(await a.locator('[data-draw-offer]').textContent()), 'the offerer reads "Draw offer sent"');
    await b.waitForSelector('[data-draw-offer="white"]');
    check(/White offers a draw/.test(await b.locator('[data-draw-offer]').textContent()) && (await b.locator('text=Accept draw').count()) === 1, 'the other player reads "White offers a draw" with Accept and Decline');
    await shot(b, 'draw-offer-desktop');
    const bu = new URL(b.url());
    const bphone = await page(PHONE, bu.pathname + bu.search);
    await bphone.waitForSelector('[data-draw-offer="white"]');
    await shot(bphone, 'draw-offer-phone');
    await bphone.context().close();
    await b.click('text=Decline draw');
    await a.waitForSelector('.notice.info:has-text("declined")');
    check((await a.locator('[data-draw-offer]').count()) === 0, 'a declined offer says so and its line goes');
    b.once('dialog', (d) => d.accept());
    await b.click('text=Resign');
    await a.waitForSelector('.banner');
    // Regression (session-7 web trial): the banner showed the reason's slug.
    const bannerText = (await a.locator('.banner').textContent()).trim();
    check(/by resignation/.test(bannerText) && !/-/.test(bannerText.replace(/^1-0/, '')), `the game-over banner reads in words (${bannerText})`);
    await shot(a, 'banner-desktop');
    for (const x of [a, b]) {
      await x.waitForSelector('.moves [data-move-result]');
      check((await x.locator('.moves li:last-child').getAttribute('data-move-result')) === '1-0', 'after a resignation the move list ends with 1-0');
    }
    for (const x of [a, b]) await x.context().close();
  });

  if (!mock) await step('links that cannot join say why', async () => {
    const none = await page(DESKTOP, '/games/doesnotexist');
    await none.waitForSelector('main.loading [role=status]:has-text("There is no game")');
    check(true, 'an unknown game id says there is no such game');
    await none.context().close();
    // Session-14 trial: an unknown path showed the lobby as if nothing were wrong.
    const lost = await page(DESKTOP, '/nosuchpage/abc');
    await lost.waitForSelector('[data-not-found]:has-text("No such page")');
    check((await lost.locator('[data-not-found] a[href="/"]').count()) === 1, 'an unknown path says there is no such page and links to the lobby');
    await lost.context().close();
    const created = await (await fetch(`${base}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json();
    const bad = await page(DESKTOP, `/games/${created.id}?token=badtoken`);
    await bad.waitForSelector('main.loading [role=status]:has-text("does not open a seat")');
    check(true, 'a wrong seat token says the link does not open a seat');
    await bad.context().close();
  });

  // Issue 15: the lobby's "Opponent: the computer" seats the server's engine (`black: engine:N`)
  // and opens the game page of the human's seat only; the engine answers 1. e4 on the board.
  if (!mock) await step('play the computer', async () => {
    const l = await page(DESKTOP, '/');
    await l.check('input[name="opponent"][value="computer"]');
    await l.selectOption('select[name="engineLevel"]', '1');
    await shot(l, 'computer-lobby-desktop');
    const lp = await page(PHONE, '/');
    await lp.check('input[name="opponent"][value="computer"]');
    await lp.locator('fieldset.opponent').scrollIntoViewIfNeeded();
    await shot(lp, 'computer-lobby-phone');
    await lp.context().close();
    await l.click('button[type=submit]');
    await l.waitForURL(/\/games\/[0-9a-f]+\?token=/);
    check(true, 'the lobby opens the game page of the human seat against the computer');
    check((await l.locator('[data-invite]').count()) === 0, 'no invite links against the computer');
    await l.waitForSelector('[data-connection="open"]');
    const names = await l.locator('.name').allTextContents();
    check(names.some((n) => /Computer \(level 1\)/.test(n)), `the opponent is shown as the computer (${names.join(', ')})`);
    await clickSquare(l, 'e2');
    await clickSquare(l, 'e4');
    await l.waitForSelector('[data-on="e4"][data-piece="white-pawn"]');
    // The engine's reply: one black piece leaves ranks 7–8 (16 black pieces stand there at the start,
    // and 1. e4 captures nothing), and the move list reads "1. e4" and a second move.
    await l.waitForFunction(() => document.querySelectorAll('[data-piece^="black"][data-on$="7"], [data-piece^="black"][data-on$="8"]').length === 15, null, { timeout: 10_000 });
    await l.waitForFunction(() => /1\. ?e4 ?[A-Za-z]/.test(document.querySelector('.moves')?.textContent.replace(/\s+/g, ' ') ?? ''));
    const moves = (await l.locator('.moves').textContent()).replace(/\s+/g, ' ').trim();
    check(true, `the computer's reply appears on the board and in the move list (${moves.slice(0, 40)})`);
    await shot(l, 'computer-game-desktop');
    const ph = await page(PHONE, new URL(l.url()).pathname + new URL(l.url()).search);
    await ph.waitForSelector('[data-on="e4"][data-piece="white-pawn"]');
    await shot(ph, 'computer-game-phone');
    // Issue 26 item 10: the live list names the computer in words ("? vs engine:5" before) and its
    // Watch link stays on one line at phone width.
    const gid = new URL(l.url()).pathname.split('/').pop();
    const lobby = await page(PHONE, '/');
    const row = lobby.locator(`[data-list-game="${gid}"]`);
    await row.waitFor();
    const text = (await row.textContent()).replace(/\s+/g, ' ');
    check(/Computer \(level 1\)/.test(text) && !/engine:|\?/.test(text), `the live list names the computer in words (${text.trim()})`);
    const watch = await row.locator('a').boundingBox();
    const lineHeight = await row.locator('a').evaluate((a) => parseFloat(window.getComputedStyle(a).lineHeight) || 24);
    check(watch.height <= lineHeight * 1.3, `"Watch" stays on one line (${Math.round(watch.height)} px high)`);
    for (const x of [l, ph, lobby]) await x.context().close();
  });

  if (!mock) await step('crazyhouse drops, takeback, rematch', async () => {
    // Issue 26: pockets and drops (click and drag), a takeback asked and accepted, then a rematch
    // offered and accepted: both pages land on the new game with their swapped seats.
    const g = await api('/api/games', { game: 'crazyhouse' });
    const w = await page(DESKTOP, g.seats.white.url);
    const b = await page(DESKTOP, g.seats.black.url);
    for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]');
    const count = (p, side, k) => p.locator(`[data-pocket="${side}"] [data-pocket-piece="${k}"]`).getAttribute('data-count');
    check((await count(w, 'white', 'P')) === '0', 'crazyhouse shows the pockets, empty at the start');
    await clickSquare(w, 'e2'); await clickSquare(w, 'e4');
    await b.waitForSelector('[data-on="e4"][data-piece="white-pawn"]');
    await clickSquare(b, 'd7'); await clickSquare(b, 'd5');
    await w.waitForSelector('[data-on="d5"][data-piece="black-pawn"]');
    await clickSquare(w, 'e4'); await clickSquare(w, 'd5');
    await b.waitForSelector('[data-on="d5"][data-piece="white-pawn"]');
    await w.waitForFunction(() => document.querySelector('[data-pocket="white"] [data-pocket-piece="P"]')?.getAttribute('data-count') === '1');
    check(true, 'a capture puts the pawn in the capturer\'s pocket (1. e4 d5 2. exd5: White holds P)');
    await clickSquare(b, 'd8'); await clickSquare(b, 'd5');
    await w.waitForSelector('[data-on="d5"][data-piece="black-queen"]');
    // White drops by click: the pocket pawn, then d4 (a legal drop, N@-style UCI `P@d4`).
    await w.click('[data-pocket="white"] [data-pocket-piece="P"]');
    await w.waitForSelector('[data-dest="d4"]');
    await clickSquare(w, 'd4');
    await b.waitForSelector('[data-on="d4"][data-piece="white-pawn"]');
    check((await count(w, 'white', 'P')) === '0', 'a click drop empties the pocket and puts the pawn on d4');
    await shot(w, 'crazyhouse-desktop');
    const ph = await page(PHONE, g.seats.black.url);
    await ph.waitForSelector('[data-on="d4"][data-piece="white-pawn"]');
    await shot(ph, 'crazyhouse-phone');
    await ph.context().close();
    // Black drops by dragging the pocket pawn to h5.
    await b.locator('[data-pocket="black"] [data-pocket-piece="P"]').dragTo(b.locator('[data-square="h5"]'));
    await w.waitForSelector('[data-on="h5"][data-piece="black-pawn"]');
    check(true, 'a drag from the pocket drops the pawn on h5');
    // Black asks to take the drop back; White accepts: the pawn is back in Black's pocket.
    await b.click('[data-takeback="offer"]');
    await w.waitForSelector('[data-takeback="accept"]');
    await shot(w, 'takeback-offer-desktop');
    await w.click('[data-takeback="accept"]');
    await b.waitForFunction(() => !document.querySelector('[data-on="h5"][data-piece]'));
    await b.waitForFunction(() => document.querySelector('[data-pocket="black"] [data-pocket-piece="P"]')?.getAttribute('data-count') === '1');
    check(true, 'an accepted takeback removes the drop and gives the pawn back');
    // White resigns; Black offers a rematch; White accepts; both land on the new game.
    w.on('dialog', (d) => d.accept());
    await w.click('button:has-text("Resign")');
    await b.waitForSelector('[data-rematch-action="offer"]');
    await b.click('[data-rematch-action="offer"]');
    await w.waitForSelector('[data-rematch-action="accept"]');
    await shot(w, 'rematch-offer-desktop');
    const wp = await page(PHONE, g.seats.white.url);
    await wp.waitForSelector('[data-rematch-action="accept"]');
    await shot(wp, 'rematch-offer-phone');
    await wp.context().close();
    await w.click('[data-rematch-action="accept"]');
    await w.waitForURL((u) => !u.pathname.endsWith(g.id), { timeout: 10_000 });
    await b.waitForURL((u) => !u.pathname.endsWith(g.id), { timeout: 10_000 });
    const idOf = (p) => new URL(p.url()).pathname.split('/').pop();
    check(idOf(w) === idOf(b) && idOf(w) !== g.id, `both players land on the rematch (${idOf(w)})`);
    await w.waitForSelector('[data-connection="open"]');
    await b.waitForSelector('[data-connection="open"]');
    const wc = await w.locator('.conn').textContent();
    const bc = await b.locator('.conn').textContent();
    check(/playing black/.test(wc) && /playing white/.test(bc), `colours swapped in the rematch (${wc.trim()} / ${bc.trim()})`);
    check((await w.locator('[data-pocket]').count()) === 2, 'the rematch is crazyhouse again (pockets shown)');
    for (const x of [w, b]) await x.context().close();
  });

  if (!mock) await step('grand from the lobby', async () => {
    const l = await page(DESKTOP, '/');
    await l.waitForSelector('select[name="game"] option[value="grand"]', { state: 'attached' });
    const label = await l.locator('select[name="game"] option[value="grand"]').textContent();
    check(/Grand/.test(label ?? ''), `the lobby's Game select offers Grand (${label})`);
    await l.selectOption('select[name="game"]', 'grand');
    await l.click('button[type=submit]');
    await l.waitForSelector('[data-invite="black"]');
    const links = { white: await l.inputValue('[data-invite="white"]'), black: await l.inputValue('[data-invite="black"]') };
    await l.context().close();
    const w = await page(DESKTOP, links.white);
    const b = await page(DESKTOP, links.black);
    for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]');
    for (const x of [w, b]) {
      await x.waitForSelector('[data-square="j10"]');
      const n = await x.locator('[data-square]').count();
      const corners = await Promise.all(['a1', 'j1', 'a10', 'j10'].map((q) => x.locator(`[data-square="${q}"]`).count()));
      check(n === 100 && corners.every((c) => c === 1), `Grand from the lobby: a 10×10 board of 100 squares with a1, j1, a10, j10 (${n})`);
    }
    // The start position as drawn (the FEN above): rooks in the corners of rank 1 and 10, the
    // kings on e2 and e9, the pawns on ranks 3 and 8.
    const start = await Promise.all([['a10', w], ['j1', w], ['e2', b], ['e9', b], ['e3', w], ['e8', b]].map(([q, x]) => pieceOn(x, q)));
    check(start.join() === 'black-rook,white-rook,white-king,black-king,white-pawn,black-pawn', `Grand's start position is drawn (${start.join()})`);
    await clickSquare(w, 'e3');
    const wd = (await w.locator('[data-dest]').evaluateAll((d) => d.map((x) => x.getAttribute('data-dest')))).sort().join();
    check(wd === 'e4,e5', `Grand: the e3 pawn may go to e4 or e5 (${wd})`);
    await clickSquare(w, 'e5');
    for (const x of [w, b]) await x.waitForSelector('[data-on="e5"][data-piece="white-pawn"]');
    check((await w.locator('[data-on="e3"][data-piece]').count()) + (await b.locator('[data-on="e3"][data-piece]').count()) === 0, 'Grand: 1. e5 moved the pawn from e3 in both browsers');
    await clickSquare(b, 'e8');
    const bd = (await b.locator('[data-dest]').evaluateAll((d) => d.map((x) => x.getAttribute('data-dest')))).sort().join();
    check(bd === 'e6,e7', `Grand: the e8 pawn may go to e7 or e6 (${bd})`);
    await clickSquare(b, 'e6');
    for (const x of [w, b]) await x.waitForSelector('[data-on="e6"][data-piece="black-pawn"]');
    check((await w.locator('[data-on="e8"][data-piece]').count()) + (await b.locator('[data-on="e8"][data-piece]').count()) === 0, 'Grand: 1... e6 moved the pawn from e8 in both browsers');
    await w.waitForFunction(() => /1\. ?e5 ?e6/.test(document.querySelector('.moves')?.textContent.replace(/\s+/g, ' ') ?? ''));
    check(true, 'Grand: the move list reads 1. e5 e6');
    await shot(w, 'grand-desktop');
    const ph = await page(PHONE, links.black);
    await ph.waitForSelector('[data-on="e6"][data-piece="black-pawn"]');
    await shot(ph, 'grand-phone');
    for (const x of [w, b, ph]) await x.context().close();
  });

  // ---- The modifier runtime through the UI: parity scenarios, every choice kind, a timeout
  if (!mock) await ruleChecks({ page, api, check, step, clickSquare, shot, DESKTOP, PHONE, base });

  // ---- Two players and a spectator from the invite links (mock)
  if (mock) await step('play from invite links', async () => {
    const w = await page(DESKTOP, invite.white);
    const b = await page(DESKTOP, invite.black);
    const s = await page(DESKTOP, invite.spectator);
    for (const x of [w, b, s]) await x.waitForSelector('[data-connection="open"]');
    check((await w.locator('[data-square]').count()) === 64, 'every square carries data-square');
    // click-click
    const lat = [];
    let t0 = Date.now();
    await clickSquare(w, 'e2');
    check((await w.locator('[data-dest]').count()) === 2, 'selecting e2 shows its two legal destinations');
    await clickSquare(w, 'e4');
    await b.waitForSelector('[data-on="e4"][data-piece="white-pawn"]');
    lat.push(Date.now() - t0);
    // drag
    t0 = Date.now();
    await dragMove(b, 'e7', 'e5');
    await w.waitForSelector('[data-on="e5"][data-piece="black-pawn"]');
    lat.push(Date.now() - t0);
    // keyboard SAN
    t0 = Date.now();
    await w.fill('.typed input', 'Nf3');
    await w.press('.typed input', 'Enter');
    await s.waitForSelector('[data-on="f3"][data-piece="white-knight"]');
    lat.push(Date.now() - t0);
    const moves = (await s.locator('.moves').textContent()).replace(/\s+/g, ' ');
    check(/1\. ?e4 ?e5 ?2\. ?Nf3/.test(moves), `move list in SAN (${moves.trim()})`);
    // an illegal keyboard move is refused with a reason
    await b.fill('.typed input', 'Ke5');
    await b.press('.typed input', 'Enter');
    check(/not a legal move/.test(await b.locator('#typed-error').textContent()), 'an illegal typed move is refused with a reason');
    // a dropped connection reconnects by itself and resumes with lastSeq
    if (mock) {
      await api(`/api/_mock/drop/${invite.spectator.split('/games/')[1]}`, {});
      await b.waitForSelector('[data-connection="reconnecting"]', { timeout: 3000 }).catch(() => {});
      await b.waitForSelector('[data-connection="open"]');
      await b.fill('.typed input', 'Nc6');
      await b.press('.typed input', 'Enter');
      await w.waitForSelector('[data-on="c6"][data-piece="black-knight"]');
      await b.fill('.typed input', 'Nb8');
      await b.waitForTimeout(0);
      await w.fill('.typed input', 'Ng1');
      await w.press('.typed input', 'Enter');
      await b.waitForSelector('[data-on="g1"][data-piece="white-knight"]');
      await b.press('.typed input', 'Enter');
      await w.waitForSelector('[data-on="b8"][data-piece="black-knight"]');
      await w.fill('.typed input', 'Nf3');
      await w.press('.typed input', 'Enter');
      await b.waitForSelector('[data-on="f3"][data-piece="white-knight"]');
      check(true, 'after a dropped connection the client reconnects and play goes on');
    }
    // reload resumes
    await b.reload();
    await b.waitForSelector('[data-on="f3"][data-piece="white-knight"]');
    check(true, 'a reload in mid-game resumes it');
    // latency: 20 knight moves typed in UCI, each timed from the sender's WebSocket send to the
    // piece appearing in the other browser
    lat.length = 0;
    const shuffle = [['b', 'b8c6', 'c6'], ['w', 'f3g1', 'g1'], ['b', 'c6b8', 'b8'], ['w', 'g1f3', 'f3']];
    for (let i = 0; i < 20; i++) {
      const [who, uci, to] = shuffle[i % 4];
      const [from, other] = who === 'w' ? [w, b] : [b, w];
      const seen = other.evaluate((sel) => window.__appeared(sel), `[data-on="${to}"][data-piece$="knight"]`);
      await from.fill('.typed input', uci);
      await from.press('.typed input', 'Enter');
      const at = await seen;
      const sent = await from.evaluate(() => window.__sentAt);
      lat.push(at - sent);
    }
    lat.sort((x, y) => x - y);
    const p95 = lat[Math.ceil(lat.length * 0.95) - 1];
    console.log(`budget: a move appears in the other browser after p50 ${lat[lat.length >> 1]} ms, p95 ${p95} ms (target p95 < 100 ms; ${lat.length} moves; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`);
    // Reported, not judged: a timed result is a measurement, and with 19
    // moves the p95 is the slowest one, so one scheduler stall on a shared
    // machine would fail the run (session 7: p50 7 ms, p95 136 ms).
    console.log(`budget: move latency ${p95 < 100 ? 'within' : 'OVER'} the 100 ms p95 budget on this run`);
    await w.setViewportSize({ width: 1280, height: 800 });
    await shot(w, 'game-desktop');
    // resign: the banner shows result and reason in every browser
    w.once('dialog', (d) => d.accept());
    await w.click('text=Resign');
    await s.waitForSelector('.banner');
    check(/0-1/.test(await s.locator('.banner').textContent()), 'game-over banner with result and reason');
    for (const x of [w, b, s]) await x.context().close();
  });

  // ---- Markers, badges, auras
  if (mock) await step('markers and badges', async () => {
    const g = await api('/api/games', { modifiers: ['showcase'], seed: 0, clock: { initialSeconds: 300, incrementSeconds: 3 } });
    const p = await page(DESKTOP, g.seats.white.url);
    await p.waitForSelector('[data-marker]');
    check((await p.locator('[data-marker]').count()) >= 9, 'markers of every kind are drawn');
    check((await p.locator('.hp').count()) === 32, 'every piece has a hit-point badge');
    check((await p.locator('[data-aura]').count()) > 0, 'aura indicators are drawn');
    check((await p.locator('.legend li').count()) === 9, 'the legend lists the marker kinds in priority order');
    await p.hover('[data-on="e2"][data-piece]');
    check(/aura/.test(await p.locator('.inspect').textContent()), 'hovering a piece shows its attributes');
    await clickSquare(p, 'd2');
    await clickSquare(p, 'd4');
    await p.waitForSelector('[data-on="d4"][data-piece]');
    const c1 = await p.locator('[data-clock="black"]').textContent();
    await p.waitForTimeout(1200);
    const c2 = await p.locator('[data-clock="black"]').textContent();
    check(c1 !== c2, `the running clock counts down (${c1} → ${c2})`);
    await shot(p, 'markers-desktop');
    const ph = await page(PHONE, g.seats.white.url);
    await ph.waitForSelector('[data-marker]');
    await shot(ph, 'markers-phone');
    await p.context().close();
    await ph.context().close();
  });

  // ---- Choices: piece on the board, rps with the first answer hidden, coin flip, column
  if (mock) await step('piece choice', async () => {
    const g = await api('/api/games', { modifiers: ['mind_control'], seed: 0 });
    const p = await page(DESKTOP, g.seats.white.url);
    await p.waitForSelector('.choice h3');
    check((await p.locator('.sq.choosable').count()) > 0, 'a piece choice highlights its options on the board');
    await shot(p, 'choice-desktop');
    const ph = await page(PHONE, g.seats.white.url);
    await ph.waitForSelector('.choice h3');
    await shot(ph, 'choice-phone');
    await ph.context().close();
    await clickSquare(p, 'b8');
    await p.waitForSelector('.choice', { state: 'detached' });
    check(/White chose b8/.test(await p.locator('.events').textContent()), 'the piece choice, made on the board, is logged in words (White chose b8)');
    await p.context().close();
  });
  if (mock) await step('rps choice', async () => {
    const g = await api('/api/games', { modifiers: ['parry'], seed: 0 });
    const w = await page(DESKTOP, g.seats.white.url);
    const b = await page(DESKTOP, g.seats.black.url);
    await w.waitForSelector('[data-option="rock"]');
    await b.waitForSelector('[data-option="paper"]');
    await w.click('[data-option="rock"]');
    await w.waitForSelector('text=stays hidden');
    await b.waitForTimeout(300);
    // black's page names rock twice (the title and its own button), never as white's answer; the
    // rules panel's description of Parry ("rock-paper-scissors") is not an answer
    await b.waitForSelector('[data-rules-panel]');
    const panel = await b.locator('[data-rules-panel]').innerText();
    const bt = (await b.locator('body').innerText()).replace(panel, '');
    check((bt.match(/rock/gi) ?? []).length === 2 && (await b.locator('[data-option]').count()) === 3, 'rps: the first answer stays hidden from the other player');
    await b.click('[data-option="paper"]');
    await w.waitForSelector('.choice', { state: 'detached' });
    check(true, 'rps resolved after both answers');
    await w.context().close();
    await b.context().close();
  });
  if (mock) await step('coin and column choices', async () => {
    const g = await api('/api/games', { modifiers: ['all_on_red'], seed: 0 });
    const p = await page(DESKTOP, g.seats.white.url);
    await p.click('[data-option="tails"]');
    await p.waitForSelector('.choice', { state: 'detached' });
    const g2 = await api('/api/games', { modifiers: ['frozen_choice'], seed: 0 });
    const q = await page(DESKTOP, g2.seats.white.url);
    await q.waitForSelector('.sq.choosable');
    await clickSquare(q, 'c5');
    await q.waitForSelector('.choice', { state: 'detached' });
    check(/"?c"?/.test(await q.locator('.events').textContent()), 'coin flip and column choice answered');
    await p.context().close();
    await q.context().close();
  });

  // ---- A 10×10 board with lettered fairy pieces, rendered and played against the mock (the real
  // server's Grand game, created from the lobby, is the 'grand from the lobby' check above). The
  // mock moves pawns and the standard pieces on 10×10; two-digit ranks go through the whole path
  // (click, UCI `e3e5`, the state's FEN, the pieces, the move list).
  if (mock) await step('grand', async () => {
    const g = await api('/api/games', { game: 'grand' });
    const w = await page(DESKTOP, g.seats.white.url);
    const b = await page(DESKTOP, g.seats.black.url);
    for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]');
    await w.waitForSelector('[data-square="j10"]');
    check((await w.locator('[data-square]').count()) === 100, 'a 10×10 board has 100 squares');
    check((await pieceOn(w, 'f9')) === 'black-marshal', 'fairy pieces are drawn from the game (marshal on f9)');
    await clickSquare(w, 'e3');
    const ds = (await w.locator('[data-dest]').evaluateAll((d) => d.map((x) => x.getAttribute('data-dest')))).sort().join();
    check(ds === 'e4,e5', `10×10: the e3 pawn may go to e4 or e5 (${ds})`);
    await clickSquare(w, 'e5');
    await b.waitForSelector('[data-on="e5"][data-piece="white-pawn"]');
    await clickSquare(b, 'e8');
    await clickSquare(b, 'e6');
    await w.waitForSelector('[data-on="e6"][data-piece="black-pawn"]');
    await clickSquare(w, 'b2');
    await clickSquare(w, 'c4');
    await b.waitForSelector('[data-on="c4"][data-piece="white-knight"]');
    const moves = (await b.locator('.moves').textContent()).replace(/\s+/g, ' ');
    check(/1\. ?e5 ?e6 ?2\. ?Nc4/.test(moves), `10×10: moves played by click on both sides, in the move list (${moves.trim()})`);
    // grand-desktop/grand-phone.png are the real server's (the check above)
    await shot(w, 'grand-mock-desktop');
    const ph = await page(PHONE, g.spectateUrl);
    await ph.waitForSelector('[data-on="c4"][data-piece="white-knight"]');
    await shot(ph, 'grand-mock-phone');
    for (const x of [w, b, ph]) await x.context().close();
  });

  // ---- Promotion through the picker (against the real server it is in the whole game above)
  if (mock) await step('promotion', async () => {
    const g = await api('/api/games', { fen: '8/P6k/8/8/8/8/8/K7 w - - 0 1' });
    const p = await page(DESKTOP, g.seats.white.url);
    await p.waitForSelector('[data-connection="open"]');
    await clickSquare(p, 'a7');
    await clickSquare(p, 'a8');
    await p.waitForSelector('[data-promotion="n"]');
    check((await p.locator('[data-promotion]').count()) === 4, 'the promotion picker offers the four choices');
    await p.click('[data-promotion="n"]');
    check((await pieceOn(p, 'a8')) === 'white-knight', 'promotion to a knight through the picker');
    await p.context().close();
  });

  // ---- Editor: template, broken parameter with its finding at the field, fixed, JSON round trip, save
  await step('editor', async () => {
    const p = await page(DESKTOP, '/editor');
    await p.click('[data-template="simple-mine"]');
    await p.waitForSelector('[data-valid="true"]');
    const field = '[data-path="$.triggers[0].effects[0].params.at"] input.sq-text';
    await p.fill(field, 'z9');
    await p.waitForSelector('[data-findings-for="$.triggers[0].effects[0].params.at"]');
    check(true, 'a broken parameter shows its finding beside the field');
    await shot(p, 'editor-desktop');
    const ph = await page(PHONE, '/editor');
    await ph.click('[data-template="frozen-column"]');
    await ph.waitForSelector('[data-valid="true"]');
    await shot(ph, 'editor-phone');
    await ph.context().close();
    await p.fill(field, '$param.square');
    await p.waitForSelector('[data-valid="true"]');
    await p.click('[data-pick-square="c6"]');
    await p.click('text=JSON view');
    const text = await p.inputValue('textarea');
    check(JSON.parse(text).parameters[0].default === 'c6', 'the square renderer writes the parameter');
    await p.click('text=Visual view');
    await p.click('text=JSON view');
    check((await p.inputValue('textarea')) === text, 'JSON view round trip without loss');
    // Regression (session-6 web trial): in the JSON view the validator said "valid" for malformed
    // JSON, and Save / Try it used the last visual descriptor. `"id" "simple-mine-custom"` lacks
    // its colon: the parser stops at the string after "id", column 8 (two spaces, `"id"`, a space).
    // (The template opens as a copy with an id of its own: session-14 trial.)
    const idLine = text.split('\n').findIndex((l) => l.startsWith('  "id": "simple-mine-custom"')) + 1;
    const broken = text.replace('"id": "simple-mine-custom"', '"id" "simple-mine-custom"');
    await p.fill('textarea', broken);
    await p.waitForSelector('.all-findings [data-valid="false"]');
    const said = (await p.locator('.all-findings').textContent()) ?? '';
    check(idLine > 0 && said.includes(`line ${idLine}, column 8`) && (await p.locator('[data-valid="true"]').count()) === 0, `the validator shows the JSON syntax error at once (${said.trim().slice(0, 90)})`);
    await shot(p, 'editor-json-error-desktop');
    await p.click('text=Save');
    await p.waitForSelector('text=Not sent');
    await p.click('text=Try it');
    check(new URL(p.url()).pathname === '/editor', 'Try it refuses malformed JSON');
    await p.click('text=Visual view');
    check((await p.inputValue('textarea')) === broken, 'the JSON view is not left with malformed JSON, and keeps its text');
    // Id and name changed in the JSON text are what Save sends.
    await p.fill('textarea', text.replace('"id": "simple-mine-custom"', '"id": "json_mine"').replace('"name": "Simple Mine (custom)"', '"name": "JSON mine"'));
    await p.waitForSelector('[data-valid="true"]');
    await p.click('text=Save');
    await p.waitForSelector('text=Saved “JSON mine”');
    if (!mock) {
      const saved = (await api('/api/rules?saved=json_mine')).modifiers.find((m) => m.saved && m.id === 'json_mine');
      check(saved?.descriptor?.parameters?.[0]?.default === 'c6', 'Save sends the JSON text being edited');
    }
    const phj = await page(PHONE, '/editor');
    await phj.click('text=JSON view');
    await phj.fill('textarea', '{\n  "id": "x",\n  "name" "y"\n}');
    await phj.waitForSelector('.all-findings [data-valid="false"]');
    await shot(phj, 'editor-json-error-phone');
    await phj.context().close();
    await p.click('text=Visual view');
    // A user's own rule gets its own id and name before it is saved.
    await p.fill('#f-id', 'mine_on_c6');
    await p.fill('#f-name', 'Mine on c6');
    await p.waitForSelector('[data-valid="true"]');
    await p.click('text=Save');
    await p.waitForSelector('text=Saved “Mine on c6”');
    check(true, 'the descriptor is saved');
    if (!mock) {
      // The saved rule in a new game from the lobby (GET /api/rules lists it, the lobby sends it
      // inline). simple-mine puts one mine on its square parameter (c6 now) and kills the first
      // non-royal piece that ends a move there (library simple-mine.json): after 1. e4 Nc6 the
      // knight is gone and so is the one-shot mine.
      // In the browser that saved it: the lobby lists the saved rules whose owner tokens it holds
      // (session 18; another browser's lobby does not, e2e-rules.mjs checks it).
      const l = await p.context().newPage();
      l.setDefaultTimeout(15_000);
      await l.goto('/');
      await l.waitForSelector('[data-modifier="mine_on_c6"][data-saved="true"]');
      await l.check('[data-modifier="mine_on_c6"]');
      await l.click('button[type=submit]');
      await l.waitForSelector('[data-invite="black"]');
      const links = { white: await l.inputValue('[data-invite="white"]'), black: await l.inputValue('[data-invite="black"]') };
      await l.close();
      const w = await page(DESKTOP, links.white);
      const b = await page(DESKTOP, links.black);
      await b.waitForSelector('[data-marker="mine"][data-on="c6"]');
      check((await b.locator('[data-marker]').count()) === 1, 'the saved rule acts in a new game: one mine, on c6');
      await clickSquare(w, 'e2');
      await clickSquare(w, 'e4');
      await b.waitForSelector('[data-on="e4"][data-piece="white-pawn"]');
      await clickSquare(b, 'b8');
      await clickSquare(b, 'c6');
      await w.waitForFunction(() => !document.querySelector('[data-on="b8"][data-piece]') && !document.querySelector('[data-marker]'));
      check((await w.locator('[data-on="c6"][data-piece]').count()) === 0, 'the saved rule acts: the knight ending on the c6 mine dies, the mine is used up');
      await w.context().close();
      await b.context().close();
    }
    await p.click('text=Try it');
    await p.waitForSelector('text=sandbox');
    // one person plays both sides
    await clickSquare(p, 'e2');
    await clickSquare(p, 'e4');
    await p.waitForSelector('[data-on="e4"][data-piece="white-pawn"]');
    await clickSquare(p, 'e7');
    await clickSquare(p, 'e5');
    await p.waitForSelector('[data-on="e5"][data-piece="black-pawn"]');
    check(true, 'try it opens a sandbox game where one person plays both sides');
    await shot(p, 'sandbox-desktop');
    await p.context().close();
  });

  // Issue 26 problem 4: the editor lost the rule after Try it → Back, and a saved rule could not be
  // reopened. Problem 5: a rule that only places a frozen-square marker was "valid" and did nothing;
  // the forbid-move selector was a raw JSON field.
  if (!mock) await step('editor draft, saved rules, markers nothing reads, move-filter form', async () => {
    const p = await page(DESKTOP, '/editor');
    await p.click('[data-template="simple-mine"]');
    await p.fill('#f-id', 'draft_mine');
    await p.fill('#f-name', 'Draft mine');
    await p.waitForSelector('[data-valid="true"]');
    await p.click('text=Try it');
    await p.waitForSelector('text=sandbox');
    await p.goBack();
    await p.waitForSelector('#f-id');
    check((await p.inputValue('#f-id')) === 'draft_mine' && (await p.inputValue('#f-name')) === 'Draft mine', 'Try it → Back: the editor still holds the rule being edited');
    // Chromium's back/forward cache may restore the page as it was; the header's link loads it
    // afresh, as a browser without that cache does (this check failed before the draft was kept).
    await p.goForward();
    await p.waitForSelector('text=sandbox');
    await p.click('nav[aria-label="Main"] >> text=Modifier editor');
    await p.waitForSelector('#f-id');
    check((await p.inputValue('#f-id')) === 'draft_mine', 'Try it, then the editor loaded afresh: the draft is kept');
    await p.reload();
    await p.waitForSelector('#f-id');
    check((await p.inputValue('#f-id')) === 'draft_mine', 'a reload keeps the draft');
    await p.click('text=Save');
    await p.waitForSelector('text=Saved “Draft mine”');
    // Reopened from the lobby's list of saved rules, changed, saved again — in the same browser,
    // which keeps the rule's owner token (another browser's save of the id is refused, 403).
    const l = await p.context().newPage();
    l.setDefaultTimeout(15_000);
    await l.goto('/');
    await l.click('[data-edit-saved="draft_mine"]');
    await l.waitForURL((u) => u.pathname === '/editor');
    await l.waitForSelector('text=Editing the saved rule “Draft mine”');
    check((await l.inputValue('#f-id')) === 'draft_mine', 'the lobby opens a saved rule in the editor');
    await l.fill('#f-name', 'Draft mine, changed');
    await l.waitForSelector('[data-valid="true"]');
    await l.click('text=Save');
    await l.waitForSelector('text=Saved “Draft mine, changed”');
    const again = (await api('/api/rules?saved=draft_mine')).modifiers.filter((m) => m.saved && m.id === 'draft_mine');
    check(again.length === 1 && again[0].name === 'Draft mine, changed', 'the reopened rule is saved again under its id (one entry, the new name)');
    await l.close();
    // And from the editor's own list, in a browser that never edited it but was given the rule's
    // share link (session 18: a browser lists the saved rules it saved or was given).
    const e2 = await page(DESKTOP, '/?rule=draft_mine');
    await e2.waitForSelector('[data-modifier="draft_mine"][data-saved="true"]');
    await e2.goto('/editor');
    await e2.waitForSelector('[data-saved-rules]');
    await e2.selectOption('[data-saved-rules]', 'saved:draft_mine');
    await e2.waitForSelector('text=Editing the saved rule');
    check((await e2.inputValue('#f-name')) === 'Draft mine, changed', 'the editor’s list of saved rules opens one');
    await e2.context().close();

    // A rule that only places a frozen-square marker on e2: valid, and the editor says it does nothing.
    const onlyMarker = {
      version: 1, id: 'freeze_e2', name: 'Freeze e2', description: 'The pawn on e2 is frozen.',
      triggers: [{ kind: 'on-rule-activated', effects: [{ kind: 'spawn-marker', params: { kind: 'frozen-square', at: 'e2', lifetime: { kind: 'permanent' } } }] }],
    };
    await p.click('text=JSON view');
    await p.fill('textarea', JSON.stringify(onlyMarker, null, 2));
    await p.click('text=Visual view');
    await p.waitForSelector('[data-valid="true"]');
    await p.waitForSelector('[data-marker-warning="frozen-square"]');
    const words = (await p.locator('[data-rule-words]').textContent()) ?? '';
    check(/place a frozen-square marker on e2/.test(words), `the editor says what the rule does (${words.slice(0, 80)})`);
    check((await p.locator('[data-marker-warning-at="$.triggers[0].effects[0]"]').count()) === 1, 'a marker nothing reads: warned beside the validator and at the spawn-marker');
    await shot(p, 'editor-marker-warning-desktop');
    const ph = await page(PHONE, '/editor');
    await ph.click('text=JSON view');
    await ph.fill('textarea', JSON.stringify(onlyMarker, null, 2));
    await ph.click('text=Visual view');
    await ph.waitForSelector('[data-marker-warning="frozen-square"]');
    await shot(ph, 'editor-marker-warning-phone');
    await p.click('[data-fix-marker="frozen-square"]');
    await p.waitForSelector('[data-marker-warning]', { state: 'detached' });
    await p.waitForSelector('[data-valid="true"]');
    check((await p.locator('[data-square-filter="from"] select').first().inputValue()) === 'marker', 'the fix adds a forbid-move from squares with the marker, shown in the form');
    // The rule now does what was meant: in the sandbox the e2 pawn has no move, d2's has.
    await p.click('text=Try it');
    await p.waitForSelector('[data-marker="frozen-square"][data-on="e2"]');
    await clickSquare(p, 'e2');
    const frozenDests = await p.locator('[data-dest]').count();
    await clickSquare(p, 'd2');
    const freeDests = await p.locator('[data-dest]').count();
    check(frozenDests === 0 && freeDests === 2, `with the fix the frozen pawn cannot move (e2: ${frozenDests} moves, d2: ${freeDests})`);
    await p.goBack();
    await p.waitForSelector('[data-marker-warning-at]', { state: 'detached' });
    check((await p.inputValue('#f-id')) === 'freeze_e2', 'Back from the sandbox: the fixed rule is still there');

    // forbid-move as a form: white kings and queens may not capture on e4 or d5.
    await p.click('text=New');
    await p.click('[data-category="Restriction"] summary');
    await p.click('[data-palette="Restriction:forbid-move"]');
    await p.waitForSelector('[data-move-filter="$.passive[0]"]');
    await p.check('[data-mf-type="queen"]');
    await p.selectOption('[aria-label="piece colour"]', 'white');
    await p.selectOption('[aria-label="to: which squares"]', 'squares');
    await p.fill('[aria-label^="to: squares"]', 'e4 d5');
    await p.selectOption('[aria-label="captures"]', 'true');
    await p.waitForSelector('[data-valid="true"]');
    await shot(p, 'editor-forbid-move-form-desktop');
    await p.click('text=JSON view');
    const params = JSON.parse(await p.inputValue('textarea')).passive[0].params;
    check(
      JSON.stringify(params) === JSON.stringify({ piece: { type: ['king', 'queen'], color: 'white' }, to: { squares: ['e4', 'd5'] }, capture: true }),
      `the forbid-move form writes the filter (${JSON.stringify(params)})`,
    );
    await p.click('text=Visual view');
    await p.click('.mf-json summary');
    check((await p.locator('.mf-json input').inputValue()).includes('"capture":true'), 'the filter’s JSON stays viewable beside the form');
    await ph.click('text=New');
    await ph.click('[data-category="Restriction"] summary');
    await ph.click('[data-palette="Restriction:forbid-move"]');
    await ph.waitForSelector('[data-move-filter="$.passive[0]"]');
    await ph.selectOption('[aria-label="from: which squares"]', 'marker');
    await ph.waitForSelector('[data-valid="true"]');
    await shot(ph, 'editor-forbid-move-form-phone');
    await ph.context().close();
    await p.context().close();
  });

  // Premoves (issue 26, as lichess): entered in the opponent's time, shown, cancelled by a right
  // click or a click elsewhere, sent at once when the turn comes if legal then, else dropped.
  if (!mock) await step('premoves', async () => {
    const g = await api('/api/games', {});
    const w = await page(DESKTOP, g.seats.white.url);
    const b = await page(PHONE, g.seats.black.url);
    for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]');
    // Black premoves e7e5 while White thinks.
    await clickSquare(b, 'e7');
    await clickSquare(b, 'e5');
    await b.waitForSelector('[data-premove="e7e5"]');
    check((await b.locator('.sq.premove').count()) === 2 && (await b.locator('[data-premove-note]').count()) === 1, 'a premove is shown: its two squares and a note');
    await shot(b, 'premove-phone');
    await clickSquare(w, 'e2');
    await clickSquare(w, 'e4');
    await w.waitForSelector('[data-on="e5"][data-piece="black-pawn"]');
    await b.waitForSelector('[data-premove]', { state: 'detached' });
    check(true, 'the premove is sent at once when the turn comes (1. e4 e5)');
    await clickSquare(w, 'g1');
    await clickSquare(w, 'f3');
    await b.waitForSelector('[data-on="f3"][data-piece="white-knight"]');
    // White's premoves in Black's time: shown, then cancelled by a right click, then by a click elsewhere.
    await clickSquare(w, 'd2');
    await clickSquare(w, 'd4');
    await w.waitForSelector('[data-premove="d2d4"]');
    await shot(w, 'premove-desktop');
    const box = await w.locator('[data-square="h5"]').boundingBox();
    await w.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { button: 'right' });
    await w.waitForSelector('[data-premove]', { state: 'detached' });
    check(true, 'a right click cancels the premove');
    await clickSquare(w, 'd2');
    await clickSquare(w, 'd4');
    await w.waitForSelector('[data-premove="d2d4"]');
    await clickSquare(w, 'a5');
    await w.waitForSelector('[data-premove]', { state: 'detached' });
    check(true, 'a click elsewhere cancels the premove');
    // An illegal premove (the rook on a1 is behind its pawn) is dropped silently when the turn comes.
    await clickSquare(w, 'a1');
    await clickSquare(w, 'a3');
    await w.waitForSelector('[data-premove="a1a3"]');
    await clickSquare(b, 'b8');
    await clickSquare(b, 'c6');
    await w.waitForSelector('[data-on="c6"][data-piece="black-knight"]');
    await w.waitForSelector('[data-premove]', { state: 'detached' });
    await w.waitForTimeout(300);
    check(
      (await pieceOn(w, 'a1')) === 'white-rook' && (await w.locator('.notice.error').count()) === 0,
      'an illegal premove is dropped silently (the rook stays, no error shown)',
    );
    await clickSquare(w, 'd2');
    await clickSquare(w, 'd3');
    await b.waitForSelector('[data-on="d3"][data-piece="white-pawn"]');
    // Dragged in the opponent's time: Bc1–g5 once Black has moved.
    await dragMove(w, 'c1', 'g5');
    await w.waitForSelector('[data-premove="c1g5"]');
    await clickSquare(b, 'a7');
    await clickSquare(b, 'a6');
    await b.waitForSelector('[data-on="g5"][data-piece="white-bishop"]');
    check(true, 'a dragged premove is played when its turn comes (4. Bg5)');
    await w.context().close();
    await b.context().close();
  });

  // ---- The session-14 new-user trial's web findings (scripts/e2e-trial.mjs)
  await trialChecks({ page, api, check, step, clickSquare, shot, DESKTOP, PHONE, mock });
  if (!mock) await trial18Checks({ page, api, check, step, clickSquare, shot, DESKTOP, PHONE });
  if (!mock) await trial20Checks({ page, api, base, check, step, clickSquare, shot, DESKTOP, PHONE });
  if (!mock) await trial26Checks({ page, api, check, step, clickSquare, shot, DESKTOP, PHONE });

  await step('yaml editor', async () => {
    const p = await page(DESKTOP, '/yaml');
    if (!mock) {
      // Regression (session-6 web trial): the starting sample was invalid (`files`/`ranks`).
      await p.waitForSelector('.diagnostics .ok');
      await p.waitForSelector('[data-square="e5"]');
      check((await p.locator('[data-square]').count()) === 25, 'the YAML editor starts with a valid game and its preview');
      // The server's hint beside its diagnostic: `widht` for the board's `width`.
      const gardnerText = readFileSync(join(here, '../crates/definitions/games/gardner.yaml'), 'utf8');
      await p.fill('textarea', gardnerText.replace('  width: 5', '  widht: 5'));
      await p.waitForSelector('.diagnostics [data-help]');
      const hint = await p.locator('.diagnostics [data-help]').first().textContent();
      check(/did you mean `width`/.test(hint ?? ''), `the YAML editor shows the server's hint (${hint})`);
      await shot(p, 'yaml-hint-desktop');
    }
    await p.fill('textarea', 'board: { files: 5, ranks: 5 }\n');
    await p.waitForSelector('.diagnostics [data-line="1"]');
    check(/line 1, column 1/.test(await p.locator('.diagnostics').textContent()), 'the YAML editor shows diagnostics at line and column');
    if (!mock) {
      // Gardner's definition as shipped (crates/definitions/games/gardner.yaml): a 5×5 preview
      // whose b1 knight goes to a3 or c3 (d2 holds its own pawn).
      await p.fill('textarea', readFileSync(join(here, '../crates/definitions/games/gardner.yaml'), 'utf8'));
    } else await p.fill('textarea', 'name: Gardner\nboard: { files: 5, ranks: 5 }\n');
    await p.waitForSelector('[data-square="e5"]');
    check((await p.locator('[data-square]').count()) === 25, 'the YAML preview board is 5×5');
    await clickSquare(p, 'b1');
    const ds = (await p.locator('[data-dest]').evaluateAll((d) => d.map((x) => x.getAttribute('data-dest')))).sort().join();
    check(ds === 'a3,c3', `the preview board shows legal moves on click (b1: ${ds})`);
    await shot(p, 'yaml-desktop');
    if (!mock) {
      // Grand chess as shipped (crates/definitions/games/grand.yaml), from the real engine: a 10×10
      // preview; by Grand's rules (Freeling) a pawn on its third rank may step one or two squares.
      await p.fill('textarea', readFileSync(join(here, '../crates/definitions/games/grand.yaml'), 'utf8'));
      await p.waitForSelector('[data-square="j10"]');
      check((await p.locator('[data-square]').count()) === 100, 'the YAML preview of Grand is 10×10');
      await clickSquare(p, 'e3');
      const gd = (await p.locator('[data-dest]').evaluateAll((d) => d.map((x) => x.getAttribute('data-dest')))).sort().join();
      check(gd === 'e4,e5', `Grand's preview: the e3 pawn goes to e4 or e5 (${gd})`);
      await shot(p, 'yaml-grand-desktop');
    }
    if (!mock) {
      // Session-7 web trial: an edited game could not be played. "Play this game" is disabled
      // while the text has diagnostics, and plays the edited Gardner in a sandbox (both sides).
      const gardnerText = readFileSync(join(here, '../crates/definitions/games/gardner.yaml'), 'utf8');
      await p.fill('textarea', gardnerText.replace('  width: 5', '  widht: 5'));
      await p.waitForSelector('.diagnostics [data-help]');
      check(await p.locator('[data-play-yaml]').isDisabled(), 'Play this game is disabled while the definition has diagnostics');
      await p.fill('textarea', gardnerText.replace('name: Gardner minichess', 'name: Gardner, edited'));
      await p.waitForSelector('[data-play-yaml]:not([disabled])');
      const ph = await page(PHONE, '/yaml');
      await ph.waitForSelector('[data-play-yaml]:not([disabled])');
      await ph.locator('[data-play-yaml]').scrollIntoViewIfNeeded();
      await shot(ph, 'yaml-play-phone');
      await ph.context().close();
      await p.click('[data-play-yaml]');
      await p.waitForURL(/\/games\/.*#white=/);
      await p.waitForSelector('[data-connection="open"]');
      check((await p.locator('[data-square]').count()) === 25, 'the played YAML game is on a 5×5 board');
      const names = (await p.locator('.player .name').allTextContents()).join(',');
      check(!/sandbox/.test(names), `the sandbox's seats read as sides, not the lobby's marker name (${names})`);
      // Gardner's b1 knight goes to c3 (the preview's legal moves above).
      await clickSquare(p, 'b1');
      await clickSquare(p, 'c3');
      await p.waitForSelector('[data-on="c3"][data-piece="white-knight"]');
      check(true, 'a move is made in the game played from the YAML editor');
      await shot(p, 'yaml-played-desktop');
    }
    await p.context().close();
  });
} finally {
  await browser.close();
  if (mock) mock.kill();
}
console.log(failures ? `${failures} check(s) failed` : 'all browser checks passed');
process.exit(failures ? 1 : 0);
