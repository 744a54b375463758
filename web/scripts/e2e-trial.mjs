// Browser checks of the session-14 new-user trial's web findings (docs/status.md § "Found by
// new-user trials, still open"), run by scripts/e2e.mjs against the mock and, for the steps that
// need the real rules, against `houserules serve` (scripts/e2e-real.sh). Each check names the
// finding it guards. `E2E_ONLY=trial14` runs only these.
//
// Expected values come from the spec and the docs: docs/modifiers.md § Primitives (which trigger a
// primitive may go in), docs/presets.md (`capture-to-win` is "First Blood"), the lichess atomic
// rules (a capture explodes the capturer and the captured piece), never from the pages' own output.

export async function trialChecks(h) {
  const { page, api, check, step, clickSquare, shot, DESKTOP, PHONE, mock } = h;
  const inView = (p, sel) =>
    p.locator(sel).first().evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { top: Math.round(r.top), bottom: Math.round(r.bottom), h: window.innerHeight, ok: r.top >= 0 && r.bottom <= window.innerHeight };
    });
  const viewShot = (p, name) => shot(p, name, false);

  // ---- Lobby: a refused submission clears the previous game's panel and shows why, in view; the
  // panel is wholly in view at 1280×800; the FEN, seed and coin-flip fields have linked labels.
  await step('trial14: lobby refusals', async () => {
    const p = await page(DESKTOP, '/');
    await p.waitForSelector('[data-preset]');
    await p.click('details.advanced summary');
    // Labels: linked by id (label[for]) as well as by wrapping, so `getByLabel` finds each field.
    for (const [name, label] of [['fen', 'Start position'], ['seed', 'Seed'], ['coinFlips', 'Coin flips']]) {
      const linked = await p.locator(`[name="${name}"]`).evaluate((el) => !!el.id && !!document.querySelector(`label[for="${el.id}"]`) && el.labels.length > 0);
      const found = await p.getByLabel(label).getAttribute('name').catch(() => null);
      check(linked && found === name, `lobby: the ${name} field has a linked label (“${label}” finds it: ${found})`);
    }
    // Every other field of the form too (the computer's level shows with the computer picked).
    await p.check('input[name=opponent][value=computer]');
    const unlinked = await p.locator('form input:not([type=checkbox]):not([type=radio]), form select').evaluateAll((els) =>
      els.filter((el) => !el.id || !document.querySelector(`label[for="${el.id}"]`)).map((el) => el.getAttribute('name') ?? el.outerHTML.slice(0, 40)),
    );
    check(unlinked.length === 0, `lobby: every field of the form has a label linked by id (unlinked: ${unlinked.join(', ') || 'none'})`);
    await p.check('input[name=opponent][value=friend]');
    await p.click('button[type=submit]');
    await p.waitForSelector('.created[data-game]');
    const panel = await inView(p, '.created');
    check(panel.ok, `lobby at 1280×800: the whole "Game created" panel is in view (${panel.top}–${panel.bottom} of ${panel.h})`);
    await viewShot(p, 'trial-lobby-created-desktop');
    const refusals = [
      ['seed', '-5', /seed is a whole number from 0 to 4294967295, not “-5”/],
      ['seed', '1.5', /not “1\.5”/],
      ['seed', '12345678901234567890', /not “12345678901234567890”/],
      ['choiceTimeoutSeconds', '0', /choice timeout is a whole number of seconds from 1 to 3600, not “0”/],
    ];
    for (const [field, value, want] of refusals) {
      // A game first, so there is a panel to clear.
      await p.fill('input[name=seed]', '');
      await p.fill('input[name=choiceTimeoutSeconds]', '60');
      await p.click('button[type=submit]');
      await p.waitForSelector('.created[data-game]');
      await p.fill(`input[name=${field}]`, value);
      await p.click('button[type=submit]');
      await p.waitForSelector('[data-create-error]');
      const text = (await p.locator('[data-create-error]').textContent()) ?? '';
      const gone = (await p.locator('.created').count()) === 0;
      const err = await inView(p, '[data-create-error]');
      const marked = (await p.getAttribute(`input[name=${field}]`, 'aria-invalid')) === 'true';
      check(gone && want.test(text) && err.ok && marked, `lobby: ${field} ${value} is refused on the page, the old panel goes, the reason is in view, the field is marked (${text.trim()}; ${err.top}–${err.bottom})`);
    }
    await viewShot(p, 'trial-lobby-refused-desktop');
    await p.fill('input[name=choiceTimeoutSeconds]', '60');
    if (!mock) {
      // A YAML game the server refuses: the previous panel goes, the server's findings show.
      await p.fill('input[name=seed]', '');
      await p.click('button[type=submit]');
      await p.waitForSelector('.created[data-game]');
      await p.setInputFiles('input[type=file]', { name: 'broken.yaml', mimeType: 'text/yaml', buffer: Buffer.from('name: Broken\nboard: { widht: 5 }\n') });
      await p.click('button[type=submit]');
      await p.waitForSelector('[data-create-error]');
      const gone = (await p.locator('.created').count()) === 0;
      const err = await inView(p, '[data-create-error]');
      check(gone && err.ok, `lobby: a refused YAML upload clears the old panel and its reason is in view (${err.top}–${err.bottom} of ${err.h}; ${((await p.locator('[data-create-error]').textContent()) ?? '').trim().slice(0, 90)})`);
    }
    const ph = await page(PHONE, '/');
    await ph.waitForSelector('[data-preset]');
    await ph.click('details.advanced summary');
    await ph.fill('input[name=seed]', '-5');
    await ph.click('button[type=submit]');
    await ph.waitForSelector('[data-create-error]');
    const e = await inView(ph, '[data-create-error]');
    check(e.ok, `lobby on a phone: the refusal is scrolled into view (${e.top}–${e.bottom} of ${e.h})`);
    await viewShot(ph, 'trial-lobby-refused-phone');
    await ph.fill('input[name=seed]', '');
    await ph.click('button[type=submit]');
    await ph.waitForSelector('.created[data-game]');
    const c = await inView(ph, '.created');
    check(c.top >= 0 && c.top < c.h, `lobby on a phone: the new game's panel is scrolled into view (from ${c.top})`);
    await viewShot(ph, 'trial-lobby-created-phone');
    await p.context().close();
    await ph.context().close();
  });

  // ---- Modifier editor: the template's copy has an id of its own; a library id is flagged; the
  // palette greys out what the trigger forbids; `pieces` is a form; the sandbox links back.
  await step('trial14: editor', async () => {
    const p = await page(DESKTOP, '/editor');
    await p.click('[data-template="simple-mine"]');
    await p.waitForSelector('[data-valid="true"]');
    check((await p.inputValue('#f-id')) === 'simple-mine-custom' && (await p.inputValue('#f-name')) === 'Simple Mine (custom)', 'editor: a template opens as a copy with an id of its own (simple-mine-custom)');
    if (!mock) {
      await p.fill('#f-id', 'simple-mine');
      await p.waitForSelector('[data-id-clash]');
      check(/library modifier/.test((await p.locator('[data-id-clash]').textContent()) ?? '') && (await p.locator('[data-id-clash-warning]').count()) === 1, 'editor: a library id is flagged beside the id field and under Validator before Save');
      await shot(p, 'trial-editor-id-clash-desktop');
      await p.click('[data-fix-id]');
      await p.waitForSelector('[data-id-clash]', { state: 'detached' });
      check((await p.inputValue('#f-id')) === 'simple-mine-custom', 'editor: the fix gives the id its own name');
    }
    // The palette: in on-move, cancel-capture is greyed out with the validator's reason; in
    // on-capture-attempt it is offered (docs/modifiers.md § Primitives).
    await p.click('text=New');
    await p.click('[data-palette="Trigger:on-move"]');
    const cc = p.locator('[data-palette="Imperative:cancel-capture"]');
    check((await cc.isDisabled()) && /only in on-capture-attempt, not in on-move/.test((await cc.getAttribute('title')) ?? ''), 'editor: in on-move the palette greys out cancel-capture and says why');
    check(await p.locator('[data-palette="Imperative:skip-turn"]').isDisabled(), 'editor: in on-move skip-turn is greyed out too');
    check(!(await p.locator('[data-palette="Imperative:kill"]').isDisabled()), 'editor: kill stays offered in on-move');
    await p.click('[data-palette="Trigger:on-capture-attempt"]');
    check(!(await cc.isDisabled()), 'editor: in on-capture-attempt cancel-capture is offered');
    // `pieces` as a form: kill the attacker, then every white pawn.
    await p.click('[data-palette="Imperative:kill"]');
    const pf = '[data-pieces-field="$.triggers[1].effects[0].params.pieces"]';
    await p.waitForSelector(pf);
    check((await p.locator(`${pf} [aria-label="pieces: the piece"]`).inputValue()) === '$event.piece', 'editor: kill’s pieces is a form, the event’s piece first');
    await p.selectOption(`${pf} [aria-label="pieces: the piece"]`, '$event.attacker');
    await p.waitForSelector('[data-valid="true"]');
    await shot(p, 'trial-editor-pieces-ref-desktop');
    await p.selectOption(`${pf} [aria-label="pieces: which"]`, 'filter');
    await p.check(`${pf} [data-pieces-type="pawn"]`);
    await p.selectOption(`${pf} [aria-label="pieces: colour"]`, 'white');
    await p.waitForSelector('[data-valid="true"]');
    await shot(p, 'trial-editor-pieces-desktop');
    await p.click('text=JSON view');
    const d = JSON.parse(await p.inputValue('textarea'));
    check(JSON.stringify(d.triggers[1].effects[0].params.pieces) === JSON.stringify({ type: ['pawn'], color: 'white' }), `editor: the pieces form writes the filter (${JSON.stringify(d.triggers[1].effects[0].params.pieces)})`);
    await p.click('text=Visual view');
    const ph = await page(PHONE, '/editor');
    await ph.click('text=New');
    await ph.click('[data-category="Trigger"] summary');
    await ph.click('[data-palette="Trigger:on-move"]');
    await ph.click('[data-category="Imperative"] summary');
    await ph.click('[data-palette="Imperative:kill"]');
    await ph.waitForSelector('[data-pieces-field]');
    await ph.locator('[data-pieces-field]').scrollIntoViewIfNeeded();
    const over = await ph.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(over <= 0, `editor on a phone: the pieces form does not push the page sideways (${over} px over)`);
    await viewShot(ph, 'trial-editor-pieces-phone');
    await ph.context().close();
    await p.context().close();
  });

  if (!mock) await step('trial14: sandbox back link and custom rule names', async () => {
    const p = await page(DESKTOP, '/editor');
    await p.click('[data-template="simple-mine"]');
    await p.fill('#f-id', 'trial_mine');
    await p.fill('#f-name', 'Trial Mine');
    await p.waitForSelector('[data-valid="true"]');
    await p.click('text=Try it');
    await p.waitForSelector('[data-sandbox-back]');
    await p.waitForSelector('.mods');
    const mods = (await p.locator('.mods').textContent()) ?? '';
    check(/In play now: Trial Mine/.test(mods) && !/trial_mine/.test(mods), `sandbox: "In play now" names the custom rule by its name (${mods.trim()})`);
    const href = await p.locator('[data-sandbox-back]').getAttribute('href');
    check(href === '/editor', `sandbox: a Back link to the modifier editor (${href})`);
    await viewShot(p, 'trial-sandbox-desktop');
    await p.click('[data-sandbox-back]');
    await p.waitForSelector('#f-id');
    check((await p.inputValue('#f-id')) === 'trial_mine', 'sandbox → Back: the editor holds the rule that was tried');
    const ph = await page(PHONE, '/editor');
    await ph.click('[data-template="simple-mine"]');
    await ph.waitForSelector('[data-valid="true"]');
    await ph.click('text=Try it');
    await ph.waitForSelector('[data-sandbox-back]');
    await viewShot(ph, 'trial-sandbox-phone');
    await ph.context().close();
    await p.context().close();
  });

  // ---- One word for an unnamed player, on the board and in the lobby (the server's PGN writes
  // the standard's `?`). First Blood's win is named First Blood (docs/presets.md: capture-to-win).
  if (!mock) await step('trial14: names and reasons', async () => {
    const g = await api('/api/games', { white: 'Ada', presets: ['capture-to-win'] });
    const w = await page(DESKTOP, g.seats.white.url);
    const b = await page(DESKTOP, g.seats.black.url);
    for (const x of [w, b]) await x.waitForSelector('[data-connection="open"]');
    const names = await w.locator('[data-player-name]').evaluateAll((ns) => Object.fromEntries(ns.map((n) => [n.getAttribute('data-player-name'), n.textContent])));
    check(names.white === 'Ada' && names.black === 'Anonymous', `board: an unnamed player is "Anonymous" (${JSON.stringify(names)})`);
    await clickSquare(w, 'e2');
    await clickSquare(w, 'e4');
    await b.waitForSelector('[data-on="e4"][data-piece="white-pawn"]');
    const l = await page(DESKTOP, '/');
    await l.waitForSelector(`[data-list-game="${g.id}"]`, { timeout: 10_000 });
    const line = (await l.locator(`[data-list-game="${g.id}"]`).textContent()) ?? '';
    check(/Ada vs Anonymous/.test(line) && /First Blood/.test(line), `lobby: the same word for the unnamed player (${line.trim()})`);
    await l.context().close();
    await clickSquare(b, 'd7');
    await clickSquare(b, 'd5');
    await w.waitForSelector('[data-on="d5"][data-piece="black-pawn"]');
    await clickSquare(w, 'e4');
    await clickSquare(w, 'd5');
    await w.waitForSelector('.banner');
    const banner = (await w.locator('.banner').textContent()) ?? '';
    check(/1-0/.test(banner) && /First Blood: the first capture won/.test(banner), `First Blood's win is named after the preset (${banner.trim()})`);
    await viewShot(w, 'trial-first-blood-desktop');
    await w.context().close();
    await b.context().close();
  });

  // ---- Draft cards in an even grid (equal widths, each row's cards equally tall).
  if (!mock) await step('trial14: draft cards grid', async () => {
    const g = await api('/api/games', { draft: true, seed: 3 });
    const pages = [];
    for (const [ctx, name] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
      const w = await page(ctx, g.seats.white.url);
      pages.push(w);
      await w.waitForSelector('[data-connection="open"]');
      if (name === 'desktop') {
        const b = await page(DESKTOP, g.seats.black.url);
        pages.push(b);
        await b.waitForSelector('[data-connection="open"]');
        await clickSquare(w, 'e2');
        await clickSquare(w, 'e4');
        await b.waitForSelector('[data-on="e4"][data-piece="white-pawn"]');
        await clickSquare(b, 'e7');
        await clickSquare(b, 'e5');
      }
      await w.waitForSelector('.choice[data-choice="card"] [data-option]');
      const boxes = await w.locator('.choice button.card').evaluateAll((bs) => bs.map((x) => x.getBoundingClientRect()).map((r) => ({ x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.width), h: Math.round(r.height) })));
      const widths = new Set(boxes.map((r) => r.w));
      const rows = new Map();
      for (const r of boxes) rows.set(r.y, [...(rows.get(r.y) ?? []), r.h]);
      const even = [...rows.values()].every((hs) => new Set(hs).size === 1);
      check(boxes.length === 3 && widths.size === 1 && even, `draft cards (${name}): a grid of equal widths, each row equally tall (${JSON.stringify(boxes)})`);
      // The game's choice timeout (60 s by default; docs/protocol.md) counts down for the card too.
      const left = (await w.locator('.choice .timeout').textContent().catch(() => '')) ?? '';
      const secs = Number(/(\d+) s left/.exec(left)?.[1] ?? NaN);
      check(secs > 0 && secs <= 60, `draft cards (${name}): the countdown shows (${left.trim()})`);
      await w.locator('.choice').scrollIntoViewIfNeeded();
      await viewShot(w, `trial-draft-${name}`);
    }
    for (const x of pages) await x.context().close();
  });

  // ---- Crazyhouse at 1280×800: a player's own pocket and clock are in view without scrolling.
  if (!mock) await step('trial14: crazyhouse fits', async () => {
    const g = await api('/api/games', { game: 'crazyhouse', clock: { initialSeconds: 300, incrementSeconds: 2 } });
    for (const side of ['white', 'black']) {
      const p = await page(DESKTOP, g.seats[side].url);
      await p.waitForSelector('[data-connection="open"]');
      const pocket = await inView(p, `[data-pocket="${side}"]`);
      const clock = await inView(p, `[data-clock="${side}"]`);
      const theirs = await inView(p, `[data-clock="${side === 'white' ? 'black' : 'white'}"]`);
      check(pocket.ok && clock.ok && theirs.ok, `crazyhouse at 1280×800 (${side}): both clocks and the own pocket are in view (pocket ${pocket.top}–${pocket.bottom}, clock ${clock.top}–${clock.bottom}, of ${pocket.h})`);
      await viewShot(p, `trial-crazyhouse-${side}-desktop`);
      await p.context().close();
    }
    // And a game without pockets: both clocks above the fold too.
    const f = await api('/api/games', { clock: { initialSeconds: 300, incrementSeconds: 2 } });
    const fp = await page(DESKTOP, f.seats.white.url);
    await fp.waitForSelector('[data-connection="open"]');
    const top = await inView(fp, '[data-clock="black"]');
    const bottom = await inView(fp, '[data-clock="white"]');
    check(top.ok && bottom.ok, `chess at 1280×800: both clocks are in view (${top.top}–${top.bottom}, ${bottom.top}–${bottom.bottom} of ${bottom.h})`);
    await viewShot(fp, 'trial-chess-clocks-desktop');
    await fp.context().close();
    const ph = await page(PHONE, g.seats.white.url);
    await ph.waitForSelector('[data-connection="open"]');
    const pocket = await inView(ph, '[data-pocket="white"]');
    check(pocket.ok, `crazyhouse on a phone: the own pocket is in view (${pocket.top}–${pocket.bottom} of ${pocket.h})`);
    await viewShot(ph, 'trial-crazyhouse-phone');
    await ph.context().close();
  });

  // ---- Atomic: the inspect line stops naming a piece once it has exploded. 1. e4 d5 2. exd5: the
  // capture explodes the capturer and the captured pawn (lichess atomic; pawns around survive).
  if (!mock) await step('trial14: atomic hover text', async () => {
    const g = await api('/api/games', { game: 'atomic' });
    const w = await page(DESKTOP, g.seats.white.url);
    const b = await page(DESKTOP, g.seats.black.url);
    const s = await page(DESKTOP, g.spectateUrl);
    for (const x of [w, b, s]) await x.waitForSelector('[data-connection="open"]');
    await clickSquare(w, 'e2');
    await clickSquare(w, 'e4');
    await b.waitForSelector('[data-on="e4"][data-piece="white-pawn"]');
    await clickSquare(b, 'd7');
    await clickSquare(b, 'd5');
    await s.waitForSelector('[data-on="d5"][data-piece="black-pawn"]');
    await s.hover('[data-on="d5"][data-piece]');
    const before = (await s.locator('.inspect').textContent()) ?? '';
    await clickSquare(w, 'e4');
    await clickSquare(w, 'd5');
    await s.waitForFunction(() => !document.querySelector('[data-on="d5"][data-piece]') && !document.querySelector('[data-on="e4"][data-piece]'));
    const after = (await s.locator('.inspect').textContent()) ?? '';
    const mine = (await w.locator('.inspect').textContent()) ?? '';
    check(/black pawn on d5/.test(before) && !/d5|e4/.test(after) && !/d5|e4/.test(mine), `atomic: the hover text drops the exploded pawns (before: ${before}; spectator after: ${after}; capturer after: ${mine})`);
    await viewShot(s, 'trial-atomic-desktop');
    for (const x of [w, b, s]) await x.context().close();
  });
}
