// Browser checks of the session-20 trial's open page findings (docs/status.md § Session 20, "Trial
// 20, still open"), run by scripts/e2e.mjs against `houserules serve` (scripts/e2e-real.sh; they need
// the real rules). Each check names the finding it guards. `E2E_ONLY=trial20` runs only these.
//
// Expected values come from the decisions in docs/protocol.md (§ Player names: a seat named once;
// the state's `pendingMove`) and the rules (modifier-rulings B5: Parry's throw waits for both
// players; `exd5` is the SAN of the pawn capture e4xd5), never from the pages' own output.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export async function trial20Checks(h) {
  const { page, api, base, check, step, clickSquare, shot, DESKTOP, PHONE } = h;
  const viewShot = (p, name) => shot(p, name, false);
  const text = async (p, sel) => ((await p.locator(sel).first().textContent()) ?? '').trim();

  // ---- Item 8: the invited friend names their seat on the invite page; both pages see it.
  await step('trial20: an invited friend names their seat', async () => {
    const g = await api('/api/games', { white: 'Ann' });
    const w = await page(DESKTOP, g.seats.white.url);
    const b = await page(DESKTOP, g.seats.black.url);
    for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]');
    check((await w.locator('[data-name-seat]').count()) === 0, 'the creator, named in the lobby, is not asked for a name');
    await b.waitForSelector('[data-name-seat]');
    await viewShot(b, 'trial20-name-seat-desktop');
    // A name the server refuses is said before it is sent.
    await b.fill('#seat-name', 'engine:3');
    await b.click('[data-name-seat] button[type=submit]');
    check(/computer/.test(await text(b, '[data-name-error]')), `a refused name is explained (${await text(b, '[data-name-error]')})`);
    await b.fill('#seat-name', '  Bo ');
    await b.click('[data-name-seat] button[type=submit]');
    await b.waitForFunction(() => document.querySelector('[data-player-name="black"]')?.textContent === 'Bo');
    await w.waitForFunction(() => document.querySelector('[data-player-name="black"]')?.textContent === 'Bo');
    check(true, 'the friend’s name reaches both pages without a reload (the patch’s players)');
    check((await b.locator('[data-name-seat]').count()) === 0, 'once named, the form is gone (a seat is named once)');
    const pgn = await (await fetch(`${base}/api/games/${g.id}/pgn`)).text();
    check(pgn.includes('[Black "Bo"]') && pgn.includes('[White "Ann"]'), 'the PGN names both players');
    await viewShot(b, 'trial20-named-desktop');
    for (const x of [w, b]) await x.context().close();
    const g2 = await api('/api/games', {});
    const p = await page(PHONE, g2.seats.black.url);
    await p.waitForSelector('[data-name-seat]');
    await viewShot(p, 'trial20-name-seat-phone');
    await p.context().close();
  });

  // ---- Item 8: joining an open challenge with the lobby's name; the lobby remembers it.
  await step('trial20: a joiner names the seat in the join', async () => {
    const g = await api('/api/games', { white: 'Carol', seat: 'white' });
    const l = await page(DESKTOP, '/');
    await l.waitForSelector(`[data-join="${g.id}"]`, { timeout: 10_000 });
    await l.fill('#join-name', 'Dan');
    await viewShot(l, 'trial20-join-name-desktop');
    await l.click(`[data-join="${g.id}"]`);
    await l.waitForSelector('[data-player-name="black"]');
    await l.waitForFunction(() => document.querySelector('[data-player-name="black"]')?.textContent === 'Dan');
    check((await l.locator('[data-name-seat]').count()) === 0, 'the joiner named in the join is not asked again');
    await l.goto('/');
    await l.waitForSelector('#lobby-name');
    check((await l.locator('#lobby-name').inputValue()) === 'Dan', 'the lobby remembers the name');
    await l.context().close();
    const g2 = await api('/api/games', { white: 'Eve', seat: 'white' });
    const ph = await page(PHONE, '/');
    await ph.waitForSelector(`[data-join="${g2.id}"]`, { timeout: 10_000 });
    await ph.fill('#join-name', 'Fay');
    await ph.locator('#join-name').scrollIntoViewIfNeeded();
    await viewShot(ph, 'trial20-join-name-phone');
    await ph.context().close();
  });

  // ---- Item 10: a 100-character name without spaces squeezed "(you)".
  await step('trial20: a long name keeps "(you)" and the clock whole', async () => {
    const long = 'W'.repeat(100);
    const g = await api('/api/games', { white: long, clock: { initialSeconds: 300, incrementSeconds: 0 } });
    for (const [ctx, name] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
      const p = await page(ctx, g.seats.white.url);
      await p.waitForSelector('[data-player-name="white"]');
      const m = await p.evaluate(() => {
        const n = document.querySelector('[data-player-name="white"]');
        const you = n.parentElement.querySelector('.you').getBoundingClientRect();
        const clock = n.parentElement.querySelector('.clock').getBoundingClientRect();
        return { cut: n.scrollWidth > n.clientWidth, youW: Math.round(you.width), youR: Math.round(you.right), clockL: Math.round(clock.left), w: window.innerWidth, title: n.getAttribute('title') };
      });
      check(m.cut && m.youW > 20 && m.youR <= m.clockL && m.youR <= m.w && m.title === long, `${name}: the name ends in an ellipsis, "(you)" is whole before the clock (${JSON.stringify(m)})`);
      await viewShot(p, `trial20-long-name-${name}`);
      await p.context().close();
    }
  });

  // ---- Item 2: a contested capture waiting for its throw is in SAN, after a reload too; who is
  // still to answer (spectators and the phone line).
  await step('trial20: a pending Parry capture in SAN; who still answers', async () => {
    const g = await api('/api/games', { fen: '4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1', modifiers: ['parry'], seed: 0, choiceTimeout: { mode: 'no-timeout' } });
    const w = await page(PHONE, g.seats.white.url);
    const b = await page(DESKTOP, g.seats.black.url);
    for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]');
    await clickSquare(w, 'e4');
    await clickSquare(w, 'd5');
    await b.waitForSelector('.choice');
    const spec = await page(DESKTOP, `/games/${g.id}`);
    await spec.waitForSelector('ol.moves');
    const specMoves = await text(spec, 'ol.moves');
    check(/exd5/.test(specMoves) && !/e4d5/.test(specMoves), `a page opened while the throw waits shows the capture in SAN (${specMoves})`);
    await b.reload();
    await b.waitForSelector('ol.moves');
    const bMoves = await text(b, 'ol.moves');
    check(/exd5/.test(bMoves) && !/e4d5/.test(bMoves), `after a reload too (${bMoves})`);
    // White throws (on the phone): the spectator and White's line under the board say the game
    // waits for Black, not for both players.
    await w.waitForSelector('[data-choice-jump]');
    await w.click('[data-choice-jump]');
    await w.click('.choice [data-option="rock"]');
    await spec.waitForFunction(() => /Waiting for Black/.test(document.querySelector('.choice')?.textContent ?? ''));
    check(true, `the spectator reads that the game waits for Black (${(await text(spec, '.choice')).slice(0, 80)})`);
    await viewShot(spec, 'trial20-waiting-for-black-desktop');
    await w.reload();
    await w.waitForSelector('[data-choice-near]');
    const near = await text(w, '[data-choice-near]');
    check(/Black/.test(near) && !/both players/.test(near), `White's phone line, after White's throw and a reload, waits for Black (${near})`);
    await w.evaluate(() => window.scrollTo(0, 0));
    await viewShot(w, 'trial20-waiting-phone');
    for (const x of [w, b, spec]) await x.context().close();
  });

  // ---- Item 10: stale error text under the move box; the asker of an accepted takeback is told.
  await step('trial20: move box error and takeback notice', async () => {
    const g = await api('/api/games', {});
    const w = await page(DESKTOP, g.seats.white.url);
    const b = await page(DESKTOP, g.seats.black.url);
    for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]');
    await w.fill('form.typed input', 'Ke5');
    await w.click('form.typed button[type=submit]');
    await w.waitForFunction(() => (document.querySelector('#typed-error')?.textContent ?? '').length > 0);
    await clickSquare(w, 'e2');
    await clickSquare(w, 'e4');
    await b.waitForSelector('[data-on="e4"][data-piece="white-pawn"]');
    check((await text(w, '#typed-error')) === '', 'after a good move on the board the move box’s error is gone');
    await clickSquare(b, 'e7');
    await clickSquare(b, 'e5');
    await w.waitForSelector('[data-on="e5"][data-piece="black-pawn"]');
    await b.click('[data-takeback="offer"]');
    await w.waitForSelector('[data-takeback="accept"]');
    await w.click('[data-takeback="accept"]');
    await b.waitForFunction(() => [...document.querySelectorAll('.notice')].some((n) => /Your takeback was accepted/.test(n.textContent ?? '')));
    check(true, 'the asker is told the takeback was accepted');
    await viewShot(b, 'trial20-takeback-accepted-desktop');
    for (const x of [w, b]) await x.context().close();
  });

  // ---- Item 9: a bad YAML file's diagnostic keeps its lines in the lobby.
  await step('trial20: a bad YAML file’s diagnostic, preformatted', async () => {
    const gardner = readFileSync(join(here, '../../crates/definitions/games/gardner.yaml'), 'utf8');
    for (const [ctx, name] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
      const l = await page(ctx, '/');
      await l.waitForSelector('#lobby-yaml');
      await l.setInputFiles('#lobby-yaml', { name: 'bad.yaml', mimeType: 'text/yaml', buffer: Buffer.from(gardner.replace('  width: 5', '  widht: 5')) });
      await l.check('input[name=opponent][value=friend]').catch(() => {});
      await l.click('button[type=submit]');
      await l.waitForSelector('[data-create-error]');
      const pre = l.locator('[data-create-error] pre[data-diagnostic]');
      const lines = ((await pre.first().textContent()) ?? '').split('\n');
      check((await pre.count()) === 1 && lines.length >= 3 && lines.some((x) => /\^/.test(x)), `${name}: the diagnostic keeps its lines and caret (${lines.length} lines)`);
      await viewShot(l, `trial20-yaml-diagnostic-${name}`);
      await l.context().close();
    }
  });

  // ---- Item 10: atomic's move list read `Qxf2` where the PGN had `Qxf2#`. python-chess 1.11.2
  // (AtomicBoard of the FEN below): `Qxf7#`, the capture explodes the king on e8.
  await step('trial20: atomic move list', async () => {
    const g = await api('/api/games', { game: 'atomic', fen: '4k3/5p2/8/8/8/5Q2/8/4K3 w - - 0 1' });
    const w = await page(DESKTOP, g.seats.white.url);
    await w.waitForSelector('[data-connection="open"]');
    await clickSquare(w, 'f3');
    await clickSquare(w, 'f7');
    await w.waitForSelector('[data-result]');
    const moves = await text(w, 'ol.moves');
    check(/Qxf7#/.test(moves), `the move list has the PGN's Qxf7# (${moves})`);
    const log = await w.locator('.log, [data-log], .events').first().textContent().catch(() => '');
    check(/explo/i.test(log ?? ''), `the log tells the explosion (${(log ?? '').slice(0, 160)})`);
    await viewShot(w, 'trial20-atomic-desktop');
    await w.reload();
    await w.waitForSelector('ol.moves');
    const again = await text(w, 'ol.moves');
    check(/Qxf7#/.test(again), `after a reload too (${again})`);
    await w.context().close();
  });
}
