/**
 * The game page's sounds (issue 26): a move, a capture, a check and the game's end, made with the
 * Web Audio API (short tones: no sound files, nothing downloaded). The off switch is remembered in
 * localStorage under `houserules.sound` (`off`; on by default, as lichess's).
 */

export type SoundKind = 'move' | 'capture' | 'check' | 'end';

/** The key of the off switch in localStorage. */
export const SOUND_KEY = 'houserules.sound';

/** Whether sounds are on (a browser without storage: on). */
export function soundOn(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): boolean {
  try {
    return storage?.getItem(SOUND_KEY) !== 'off';
  } catch {
    return true;
  }
}

/** Turns the sounds on or off, remembered. */
export function setSoundOn(on: boolean, storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(SOUND_KEY, on ? 'on' : 'off');
  } catch {
    /* private mode: not remembered */
  }
}

/**
 * The sound an event of the game makes: the end over a check over a capture over a plain move;
 * `null` when no move was added and the game did not end.
 */
export function soundFor(e: { moved: boolean; capture: boolean; check: boolean; ended: boolean }): SoundKind | null {
  if (e.ended) return 'end';
  if (!e.moved) return null;
  if (e.check) return 'check';
  if (e.capture) return 'capture';
  return 'move';
}

/** Each sound's tones: [frequency in Hz, start s, length s]; a square wave for the end. */
const TONES: Record<SoundKind, [number, number, number][]> = {
  move: [[520, 0, 0.07]],
  capture: [[330, 0, 0.06], [220, 0.05, 0.09]],
  check: [[880, 0, 0.08], [660, 0.09, 0.1]],
  end: [[523, 0, 0.15], [659, 0.15, 0.15], [784, 0.3, 0.3]],
};

let ctx: AudioContext | null = null;

/** Plays `kind` if sounds are on and the browser has Web Audio (a failure is silent). */
export function play(kind: SoundKind): void {
  if (!soundOn()) return;
  try {
    const AC = globalThis.AudioContext ?? (globalThis as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!AC) return;
    ctx ??= new AC();
    const t0 = ctx.currentTime;
    for (const [f, at, len] of TONES[kind]) {
      const o = ctx.createOscillator();
      const g = ctx.createGain();
      o.type = kind === 'end' ? 'square' : 'sine';
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, t0 + at);
      g.gain.exponentialRampToValueAtTime(0.15, t0 + at + 0.01);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
      o.connect(g).connect(ctx.destination);
      o.start(t0 + at);
      o.stop(t0 + at + len + 0.02);
    }
  } catch {
    /* no audio: the game goes on */
  }
}
