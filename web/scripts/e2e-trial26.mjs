// Browser checks of the game-page findings of a fresh user's trial (issue 26, session 22, helper
// web26), run by scripts/e2e.mjs against `houserules serve` (scripts/e2e-real.sh). Each check names
// the finding it guards. `E2E_ONLY=trial26` runs only these.
//
// Expected values come from docs/protocol.md (§ Takeback: a move after which a choice was answered
// cannot be taken back; § Rules of play: `no-timeout` pauses the game while the chooser is away;
// `claimVictoryAfterMs`), the rules (modifier-rulings B5: Parry's throw waits for both players; `exd5`
// is the SAN of the pawn capture e4xd5; all_on_red.json flips for the side to move at the start of
// each turn; mr_freeze.json freezes the eight squares of the chosen file), never from the pages.

export async function trial26Checks(h) {
  const { page, api, check, step, clickSquare, shot, DESKTOP, PHONE } = h;
  const viewShot = (p, name) => shot(p, name, false);
  const text = async (p, sel) => ((await p.locator(sel).first().textContent()) ?? '').trim();
  const parryFen = '4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1';

  // ---- Item 1: "Your games": a closed tab's seat is found again in the lobby.
  await step('trial26: your games in the lobby, a held seat on the spectator link', async () => {
    for (const [ctx, name] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
      const g = await api('/api/games', { white: 'Ann', black: 'Bo', modifiers: ['parry'], clock: { initialSeconds: 300, incrementSeconds: 3 } });
      const done = await api('/api/games', { white: 'Ann', black: 'Cy' });
      const w = await page(ctx, g.seats.white.url);
      await w.waitForSelector('[data-connection="open"]');
      // A finished game this browser played, and a game the server no longer has.
      const f = await w.context().newPage();
      f.on('dialog', (d) => d.accept());
      await f.goto(done.seats.white.url);
      await f.waitForSelector('[data-connection="open"]');
      await f.getByRole('button', { name: 'Resign' }).click();
      await f.waitForSelector('[data-result]');
      await f.close();
      await w.evaluate(() => {
        const k = 'houserules.myGames';
        const list = JSON.parse(window.localStorage.getItem(k) ?? '[]');
        list.push({ id: 'no-such-game-web26', seat: 'black', token: 'x', url: '/games/no-such-game-web26?token=x', at: Date.now() - 3_600_000 });
        window.localStorage.setItem(k, JSON.stringify(list));
      });
      await w.goto('/');
      await w.waitForSelector(`[data-my-game="${g.id}"]`);
      const href = await w.locator(`[data-my-game="${g.id}"] a[data-resume]`).getAttribute('href');
      check(href === g.seats.white.url || href === new URL(g.seats.white.url, 'http://x').pathname + new URL(g.seats.white.url, 'http://x').search, `${name}: the lobby lists the seat with a Resume link to it (${href})`);
      const line = await text(w, `[data-my-game="${g.id}"]`);
      check(/White vs Bo/.test(line) && /Parry/.test(line) && /5\+3/.test(line), `${name}: with the opponent, the rules and the clock (${line})`);
      await w.waitForSelector(`[data-my-game="${done.id}"][data-my-finished]`);
      check(true, `${name}: the finished game is listed among the finished ones`);
      await w.waitForFunction(() => !document.querySelector('[data-my-game="no-such-game-web26"]'));
      check(true, `${name}: a game the server does not have (404) is dropped`);
      await w.locator('h2', { hasText: 'Your games' }).scrollIntoViewIfNeeded();
      await viewShot(w, `trial26-your-games-${name}`);
      await w.click(`[data-my-game="${g.id}"] a[data-resume]`);
      await w.waitForSelector('[data-connection="open"]');
      check(/playing white/.test(await text(w, '[data-connection]')), `${name}: Resume opens the seat again`);
      // The plain link in this browser: the seat is offered, not silently spectated.
      await w.goto(`/games/${g.id}`);
      await w.waitForSelector('[data-held-seat]');
      const held = await text(w, '[data-held-seat]');
      check(/You have a seat in this game: play as White/.test(held), `${name}: the spectator link offers the seat (${held})`);
      await viewShot(w, `trial26-held-seat-${name}`);
      await w.click('[data-held-seat-link]');
      await w.waitForFunction(() => /playing white/.test(document.querySelector('[data-connection]')?.textContent ?? ''));
      check(true, `${name}: its link opens the seat`);
      await w.context().close();
    }
  });

  // ---- Items 4, 2, 6: a second tab of the seat; Takeback after the throw; SAN after it.
  await step('trial26: second tab follows the throw, takeback refused with its reason, SAN kept', async () => {
    const g = await api('/api/games', { fen: parryFen, modifiers: ['parry'], seed: 0, choiceTimeout: { mode: 'no-timeout' } });
    const w = await page(DESKTOP, g.seats.white.url);
    const b = await page(DESKTOP, g.seats.black.url);
    for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]');
    await clickSquare(w, 'e4');
    await clickSquare(w, 'd5');
    await w.waitForSelector('.choice [data-option="rock"]');
    // A second tab of White's seat, and a spectator, opened while the throw waits.
    const w2 = await w.context().newPage();
    await w2.goto(g.seats.white.url);
    await w2.waitForSelector('.choice [data-option="rock"]');
    const spec = await page(DESKTOP, `/games/${g.id}`);
    await spec.waitForSelector('ol.moves');
    await w.click('.choice [data-option="rock"]');
    await w2.waitForFunction(() => !document.querySelector('.choice [data-option]'));
    check(true, 'the second tab drops the throw’s buttons once the first tab answered');
    await viewShot(w2, 'trial26-second-tab-desktop');
    await b.click('.choice [data-option="paper"]');
    // Decided: the capture stands or is cancelled; either way Black is to move.
    await spec.waitForFunction(() => !document.querySelector('.choice'));
    const moves = await text(spec, 'ol.moves');
    check(/exd5/.test(moves) && !/e4d5/.test(moves), `the spectator opened during the throw shows SAN once decided (${moves})`);
    const log = await text(spec, '[data-event-log]');
    check(!/e4d5/.test(log), `the event log writes the capture in SAN (${log.slice(0, 200)})`);
    await w.waitForSelector('[data-takeback="offer"]');
    const tb = w.locator('[data-takeback="offer"]');
    const title = (await tb.getAttribute('title')) ?? '';
    check((await tb.isDisabled()) && /choice was answered/.test(title), `Takeback is disabled after the throw, with the reason (${title})`);
    await viewShot(w, 'trial26-takeback-blocked-desktop');
    for (const x of [w, b, spec]) await x.context().close();
  });

  // ---- Items 3, 2: the game paused for an absent chooser; Claim victory not before its time.
  await step('trial26: paused notice; no early Claim victory', async () => {
    const g = await api('/api/games', { fen: parryFen, modifiers: ['parry'], seed: 0, choiceTimeout: { mode: 'no-timeout' } });
    const w = await page(DESKTOP, g.seats.white.url);
    const b = await page(PHONE, g.seats.black.url);
    for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]');
    await clickSquare(w, 'e4');
    await clickSquare(w, 'd5');
    await w.click('.choice [data-option="rock"]');
    await b.waitForSelector('.choice [data-option]');
    await b.context().close();
    await w.waitForSelector('[data-paused]');
    const p = await text(w, '[data-paused]');
    check(/Game paused: waiting for your opponent \(Black\) to come back and choose/.test(p), `the opponent reads that the game is paused (${p})`);
    const spec = await page(PHONE, `/games/${g.id}`);
    await spec.waitForSelector('[data-paused]');
    check(/waiting for Black to come back/.test(await text(spec, '[data-paused]')), 'a spectator too');
    await viewShot(w, 'trial26-paused-desktop');
    await viewShot(spec, 'trial26-paused-phone');
    await spec.context().close();
    await w.context().close();
    // Claim victory: a plain game, Black leaves; the away notice counts down and no button yet.
    const g2 = await api('/api/games', {});
    const w2 = await page(DESKTOP, g2.seats.white.url);
    const b2 = await page(DESKTOP, g2.seats.black.url);
    for (const x of [w2, b2]) await x.waitForSelector('[data-connection="open"]');
    await b2.context().close();
    await w2.waitForSelector('[data-opponent-away]');
    await w2.waitForTimeout(3_000);
    const away = await text(w2, '[data-opponent-away]');
    const n = (await w2.locator('[data-claim="victory"]').count());
    check(n === 0 && /not back in \d+ s/.test(away), `no Claim victory while the notice counts down (${away}; buttons ${n})`);
    await viewShot(w2, 'trial26-no-early-claim-desktop');
    await w2.context().close();
  });

  // ---- Items 2, 7: an open challenge has no Offer draw; the name box goes at the end.
  await step('trial26: open challenge without Offer draw; name box gone when over', async () => {
    const g = await api('/api/games', { seat: 'white', white: 'Ann' });
    const w = await page(PHONE, g.seats.white.url);
    await w.waitForSelector('[data-waiting-opponent]');
    check((await w.getByRole('button', { name: 'Offer draw' }).count()) === 0, 'no Offer draw before the opponent joined');
    await viewShot(w, 'trial26-open-no-draw-phone');
    await w.context().close();
    const g2 = await api('/api/games', { white: 'Ann' });
    const b = await page(DESKTOP, g2.seats.black.url);
    await b.waitForSelector('[data-name-seat]');
    b.on('dialog', (d) => d.accept());
    await b.getByRole('button', { name: 'Resign' }).click();
    await b.waitForSelector('[data-result]');
    check((await b.locator('[data-name-seat]').count()) === 0, 'the name box is gone once the game is over');
    await viewShot(b, 'trial26-over-no-name-desktop');
    await b.context().close();
  });

  // ---- Items 5, 7: the coming turn's coin; Mr. Freeze's squares on one line; Layout once.
  await step('trial26: event log coin and frozen squares; layout list', async () => {
    // A seed whose first coin (White's, when the rule attaches) is heads, so White may play e4.
    let g = null;
    for (let seed = 1; seed < 40 && !g; seed++) {
      const c = await api('/api/games', { modifiers: ['all_on_red'], seed });
      const st = await api(`/api/games/${c.id}`);
      const log = st.session?.log ?? st.log ?? [];
      const coin = log.find((e) => e.event === 'coin');
      if (coin && coin.detail?.value === 'heads') g = c;
    }
    check(!!g, 'a seed with White’s first coin heads');
    const w = await page(DESKTOP, g.seats.white.url);
    await w.waitForSelector('[data-connection="open"]');
    // Black's coin comes after White's move: wait for it.
    const before = await w.locator('[data-event-log] li').count();
    const canE4 = await w.evaluate(() => !!document.querySelector('[data-square="e2"]'));
    // White may be limited to king moves by its own coin: play a king move then (e1 has none at
    // the start, so a pawn move is legal whenever the coin allows one).
    await clickSquare(w, 'e2');
    await clickSquare(w, 'e4');
    await w.waitForFunction((n) => document.querySelectorAll('[data-event-log] li').length > n, before).catch(() => {});
    const rows = await w.locator('[data-event-log] li').allTextContents();
    const black = rows.find((r) => /Black’s coin flip/.test(r));
    check(canE4 && !!black && /^1…/.test(black), `the coin after White's first move is Black's, on Black's turn (${rows.join(' | ')})`);
    await viewShot(w, 'trial26-coin-log-desktop');
    await w.context().close();

    const f = await api('/api/games', { modifiers: ['mr_freeze'] });
    for (const [ctx, name] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
      const p = await page(ctx, f.seats.white.url);
      if (name === 'desktop') {
        await p.waitForSelector('.choice [data-option="c"]');
        await p.click('.choice [data-option="c"]');
      }
      await p.waitForFunction(() => /were placed on/.test(document.querySelector('[data-event-log]')?.textContent ?? ''));
      const lines = await p.locator('[data-event-log] li').allTextContents();
      const frozen = lines.filter((l) => /frozen square/i.test(l));
      check(frozen.length === 1 && /c1, c2, c3, c4, c5, c6, c7, c8/.test(frozen[0]), `${name}: one line for the eight frozen squares (${frozen.join(' | ')})`);
      await p.locator('[data-event-log]').scrollIntoViewIfNeeded();
      await viewShot(p, `trial26-frozen-log-${name}`);
      await p.context().close();
    }

    const l = await page(DESKTOP, '/');
    await l.waitForFunction(() => document.querySelectorAll('#lobby-layout option').length > 1);
    const opts = await l.locator('#lobby-layout option').allTextContents();
    check(opts.filter((o) => /standard/i.test(o)).length === 1, `the Layout list has one standard entry (${opts.join(', ')})`);
    await l.context().close();
  });
}
