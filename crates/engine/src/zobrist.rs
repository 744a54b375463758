//! Zobrist keys, generated at compile time from a fixed seed so that hashes
//! are identical on every machine and every run.

use crate::tables::MAX_KINDS;

const SQUARES: usize = 128;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn table<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, v) = splitmix(state);
        state = s;
        out[i] = v;
        i += 1;
    }
    out
}

/// `[(kind * 2 + color) * 128 + square]`.
pub(crate) static PIECE: [u64; MAX_KINDS * 2 * SQUARES] = table(0x686f_7573_6572_756c);
/// Castling right held by the rook on a square.
pub(crate) static CASTLING: [u64; SQUARES] = table(0x6361_7374_6c69_6e67);
/// En passant square.
pub(crate) static EN_PASSANT: [u64; SQUARES] = table(0x656e_7061_7373_616e);
/// Unmoved piece on a square (first-move shapes).
pub(crate) static UNMOVED: [u64; SQUARES] = table(0x756e_6d6f_7665_6421);
/// Black to move.
pub(crate) const BLACK_TO_MOVE: u64 = 0x5c1d_5b2a_77e4_03f1;

#[inline(always)]
pub(crate) fn piece(kind: u8, color: u8, sq: u8) -> u64 {
    PIECE[((kind as usize * 2 + color as usize) << 7) + sq as usize]
}

/// Rule-layer state: one key per slot, multiplied into the value so that
/// value 0 hashes to nothing (positions without rule state keep FIDE
/// hashes).
static RULE: [u64; 4] = table(0x7275_6c65_7374_6174);

#[inline(always)]
pub(crate) fn rule_state(slot: usize, value: u16) -> u64 {
    if value == 0 {
        0
    } else {
        RULE[slot & 3]
            .wrapping_mul(value as u64 | 1)
            .rotate_left(value as u32 & 63)
            ^ value as u64
    }
}

/// Per-piece attribute byte on a square.
static ATTR: [u64; SQUARES] = table(0x6174_7472_6962_7574);

/// The key of attribute `value` on `sq`; value 0 hashes to nothing so that
/// positions without attributes keep their hashes.
#[inline(always)]
pub(crate) fn attr(sq: u8, value: u8) -> u64 {
    if value == 0 {
        0
    } else {
        ATTR[(sq & 127) as usize]
            .wrapping_mul(value as u64 | 1)
            .rotate_left(value as u32 & 63)
            ^ (value as u64) << 56
    }
}

/// Pieces in hand: one key per colour and kind.
static POCKET: [u64; 2 * MAX_KINDS] = table(0x706f_636b_6574_7321);

/// The key of `count` pieces of `kind` in `color`'s hand; 0 pieces hash to
/// nothing, so games without drops keep their hashes.
#[inline(always)]
pub(crate) fn pocket(color: usize, kind: usize, count: u8) -> u64 {
    if count == 0 {
        0
    } else {
        POCKET[(color & 1) * MAX_KINDS + (kind % MAX_KINDS)]
            .wrapping_mul(count as u64 | 1)
            .rotate_left(count as u32 & 63)
            ^ count as u64
    }
}

/// Checks a side still needs to give (three-check), one key per side;
/// the value is stored as `limit - remaining`, so 0 given hashes to
/// nothing.
static CHECKS: [u64; 2] = table(0x6368_6563_6b73_2121);

#[inline(always)]
pub(crate) fn checks(color: usize, given: u8) -> u64 {
    if given == 0 {
        0
    } else {
        CHECKS[color & 1]
            .wrapping_mul(given as u64 | 1)
            .rotate_left(given as u32 & 63)
            ^ given as u64
    }
}

/// A promoted piece on a square (drop games: it returns to the hand
/// demoted).
pub(crate) static PROMOTED: [u64; SQUARES] = table(0x7072_6f6d_6f74_6564);
