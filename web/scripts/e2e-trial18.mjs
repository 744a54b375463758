// Browser checks of the session-18 new-user trial's page findings (docs/status.md § Session 18,
// "Still open from it"), run by scripts/e2e.mjs against `houserules serve` (scripts/e2e-real.sh;
// they need the real rules). Each check names the finding it guards. `E2E_ONLY=trial18` runs only
// these.
//
// Expected values come from the decisions written in docs/protocol.md (clocks during choices, the
// lobby's `abandoned`) and the rules (modifier-rulings B5: Parry's throw waits for both players),
// never from the pages' own output.

export async function trial18Checks(h) {
  const { page, api, check, step, clickSquare, shot, DESKTOP, PHONE } = h;
  const viewShot = (p, name) => shot(p, name, false);
  const inView = (p, sel) =>
    p.locator(sel).first().evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { top: Math.round(r.top), bottom: Math.round(r.bottom), h: window.innerHeight, ok: r.top >= 0 && r.bottom <= window.innerHeight };
    });

  // ---- Phone: a Parry throw waits, and the line under the board says so (the prompt itself is
  // below the fold at 390 px); Takeback is not offered while the choice waits; whose clock runs.
  await step('trial18: a choice waits, said near the board', async () => {
    const g = await api('/api/games', {
      fen: '4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1',
      modifiers: ['parry'],
      seed: 0,
      clock: { initialSeconds: 600, incrementSeconds: 0 },
      choiceTimeout: { mode: 'no-timeout' },
    });
    const w = await page(PHONE, g.seats.white.url);
    const b = await page(PHONE, g.seats.black.url);
    for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]');
    // A first move each, so the clocks run (they start with White's first move).
    await clickSquare(w, 'e1');
    await clickSquare(w, 'd1');
    await b.waitForSelector('[data-on="d1"][data-piece="white-king"]');
    await clickSquare(b, 'e8');
    await clickSquare(b, 'f8');
    await w.waitForSelector('[data-on="f8"][data-piece="black-king"]');
    await clickSquare(w, 'e4');
    await clickSquare(w, 'd5');
    for (const x of [w, b]) await x.waitForSelector('[data-choice-near]');
    const near = await inView(w, '[data-choice-near]');
    const wText = (await w.locator('[data-choice-near]').textContent()) ?? '';
    check(near.ok && /your answer is needed/.test(wText), `phone 390×844: under the board, in view, a line says a choice waits (${wText.trim()}; ${near.top}–${near.bottom} of ${near.h})`);
    await viewShot(w, 'trial18-choice-near-phone');
    check((await b.locator('[data-takeback="offer"]').count()) === 0, 'Takeback is not offered while the Parry throw waits (the server refuses it: takeback.choice)');
    // White (the mover) throws; the game then waits for Black, whose clock runs (docs/protocol.md
    // § Clocks during choices).
    await w.click('[data-choice-jump]');
    await w.click('.choice [data-option="rock"]');
    await b.waitForFunction(() => document.querySelector('.clock.black')?.classList.contains('running'));
    const bText = (await b.locator('[data-choice-clock]').first().textContent()) ?? '';
    check(/Your clock runs until you answer/.test(bText), `the defender reads that their own clock runs until they answer (${bText.trim()})`);
    check(!(await b.locator('.clock.white').getAttribute('class')).includes('running'), 'White, who has thrown, loses no time: White’s clock is stopped');
    await viewShot(b, 'trial18-choice-defender-phone');
    const d = await page(DESKTOP, g.seats.black.url);
    await d.waitForSelector('.choice');
    check(!(await d.locator('[data-choice-near]').isVisible()), 'at 1280×800 the prompt is beside the board: no extra line under it');
    await viewShot(d, 'trial18-choice-defender-desktop');
    for (const x of [w, b, d]) await x.context().close();
  });

  // ---- Lobby: an open challenge waits for an opponent (it read "Carol vs Anonymous"); no seed for a
  // game without random rules.
  await step('trial18: lobby lines', async () => {
    const open = await api('/api/games', { white: 'Carol', seat: 'white' });
    for (const [ctx, name] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
      const l = await page(ctx, '/');
      await l.waitForSelector(`[data-list-game="${open.id}"]`, { timeout: 10_000 });
      const line = (await l.locator(`[data-list-game="${open.id}"]`).textContent()) ?? '';
      check(/Carol \(white\), waiting for an opponent/.test(line) && !/Anonymous/.test(line), `lobby (${name}): the open challenge waits for an opponent (${line.trim()})`);
      await viewShot(l, `trial18-lobby-open-${name}`);
      await l.context().close();
    }
    const l = await page(DESKTOP, '/');
    await l.waitForSelector('[data-preset]');
    await l.check('input[name=opponent][value=friend]');
    await l.click('button[type=submit]');
    await l.waitForSelector('.created[data-game]');
    check((await l.locator('[data-seed]').count()) === 0, 'lobby: a game without modifiers or a draft shows no seed');
    await viewShot(l, 'trial18-lobby-created-desktop');
    await l.context().close();
  });

  // ---- A spectator is told of a rematch (nothing was shown).
  await step('trial18: spectator and rematch', async () => {
    const g = await api('/api/games', {});
    const w = await page(DESKTOP, g.seats.white.url);
    const b = await page(DESKTOP, g.seats.black.url);
    const sp = await page(PHONE, g.spectateUrl);
    for (const x of [w, b, sp]) await x.waitForSelector('[data-connection="open"]');
    check((await sp.locator('[data-game-seed]').count()) === 0, 'the rules panel of a game without modifiers or a draft shows no seed');
    w.on('dialog', (d) => d.accept());
    await w.click('button:has-text("Resign")');
    await b.waitForSelector('[data-rematch-action="offer"]');
    await b.click('[data-rematch-action="offer"]');
    await sp.waitForSelector('[data-rematch-spectator="offered"]');
    const t = (await sp.locator('[data-rematch-spectator]').textContent()) ?? '';
    check(/Black offers a rematch/.test(t), `the spectator is told of the rematch offer (${t.trim()})`);
    await viewShot(sp, 'trial18-spectator-rematch-phone');
    for (const x of [w, b, sp]) await x.context().close();
  });
}
