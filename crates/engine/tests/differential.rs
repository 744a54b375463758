//! # Differential tests: houserules against shakmaty and cozy-chess
//!
//! Seeded random playouts are played in three engines at once — ours,
//! shakmaty 0.30.1 and cozy-chess 0.3 — and at every ply they must agree on:
//!
//! - (a) the set of legal moves, as UCI strings: ours against shakmaty's
//!   `UciMove::from_move` (castling `e1g1` in standard chess, king-takes-rook
//!   in Chess960, matching `Game::set_chess960`), and ours in
//!   king-takes-rook form against cozy-chess (which always prints castling
//!   that way); our UCI reader must read shakmaty's UCI back into the
//!   same move;
//! - (b) the FEN: our `fen()` against shakmaty's
//!   `Fen::from_position(pos, EnPassantMode::Legal)`, clocks included, and
//!   reading shakmaty's FEN must give the same FEN and the same `hash()` as
//!   the incrementally updated game.
//!   shakmaty writes X-FEN castling in *both* castling modes (`KQkq` for the
//!   outermost rook, a file letter otherwise), so our X-FEN is compared with
//!   it verbatim for Chess960 too; additionally our `shredder_fen()` board,
//!   side and castling fields are compared with cozy-chess's Shredder-FEN
//!   (`{:#}`). cozy-chess's clocks and en passant field follow other
//!   conventions (it caps the half-move clock at 100 and writes the en
//!   passant square after every double step), so those fields are not
//!   compared with it;
//! - (c) the SAN of every legal move: our `san(m)` against shakmaty's
//!   `SanPlus::from_move` (with `+`/`#`), and our SAN reader must read
//!   shakmaty's SAN, with and without the suffix, back into the same move;
//! - (d) the status: check (shakmaty and cozy-chess), checkmate, stalemate,
//!   insufficient material (shakmaty's `is_checkmate`, `is_stalemate`,
//!   `is_insufficient_material`), and our 75-move and fivefold-repetition
//!   statuses and threefold/fifty-move claims, computed from shakmaty's
//!   half-move clock and shakmaty's Zobrist hashes of the positions played
//!   (ordered as `Game::status` documents: checkmate, insufficient
//!   material, stalemate, 75 moves, fivefold).
//!
//! Every 32 plies of a playout (at a per-playout offset) `perft(3)` is also
//! compared with shakmaty's `perft`, so whole subtrees around the playout
//! are checked; a mismatch is walked down to the first position whose move
//! lists differ.
//!
//! Playouts start from the start position, from the 960 Chess960 start
//! positions (made by cozy-chess's `Board::chess960_startpos`), and from the
//! positions of the perft suites. Moves are drawn by a SplitMix64 PRNG with a
//! per-playout bias: castling, en passant and promotions are taken often
//! when available, some playouts prefer captures (so that games reach
//! endgames, mates, stalemates and insufficient material) and some shuffle
//! pieces back and forth (repetitions).
//!
//! A failure prints the seed, the playout number, the start, the ply, the
//! FEN, the moves played and the disagreement, and the command that replays
//! only that playout.
//!
//! ## Running
//!
//! Default run (at least 500,000 positions, with about 15,000 perft(3)
//! comparisons: about 35 CPU-seconds, so 20 s on 2 idle cores in the
//! optimised test profile):
//!
//! ```text
//! cargo test -p houserules-engine --test differential
//! ```
//!
//! Long run:
//!
//! ```text
//! HOUSERULES_DIFF_POSITIONS=5000000 cargo test -p houserules-engine --test differential -- --nocapture
//! ```
//!
//! Environment variables:
//!
//! - `HOUSERULES_DIFF_POSITIONS`: positions to compare (default 500,000;
//!   5,000,000 took 305 CPU-seconds, about 3 minutes on 2 idle cores).
//! - `HOUSERULES_DIFF_SEED`: the base seed (default `0x686f7573`; decimal or
//!   `0x` hex).
//! - `HOUSERULES_DIFF_PLAYOUT`: replay only this playout number (with the
//!   seed it was printed with).
//! - `HOUSERULES_TEST_THREADS`: worker threads (default: available
//!   parallelism).
//! - `PROPTEST_CASES`, `PROPTEST_RNG_SEED`: cases per property test
//!   (default 256) and their seed (default fixed).
//!
//! The property tests at the end of this file (proptest) check our own
//! consistency on random playouts: `apply` then `undo` restores `fen()`,
//! `hash()` and the legal moves; the incrementally updated `hash()` equals
//! the hash of the same FEN parsed afresh; and `perft(d, true) ==
//! perft(d, false)` for `d <= 3`.
//!
//! The suite positions are read from `tests/data` and `../shared/data/perft`;
//! a test that needs `../shared` fails with a message when it is absent.

mod common;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use common::{
    env_u64, locate_perft_divergence, our_game, our_moves_by_uci, read_local, read_shared, secs,
    set_diff, shakmaty_moves_by_uci, shakmaty_position, threads, SplitMix,
};
use houserules_engine::{suite, Claim, Color, Game, Move, Status, Variant};
use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

const DEFAULT_POSITIONS: u64 = 500_000;
const DEFAULT_SEED: u64 = 0x686f_7573;
/// Every this many plies of a playout, perft(PERFT_DEPTH) is compared with
/// shakmaty's (so the move lists of the whole subtree are checked too).
const PERFT_EVERY: usize = 32;
const PERFT_DEPTH: u32 = 3;
/// Failures printed in full (all are counted).
const REPORT_AT_MOST: usize = 12;

// ---------------------------------------------------------------------------
// Start positions

#[derive(Clone, Debug)]
struct Start {
    label: String,
    fen: String,
    /// Castling written king-takes-rook (shakmaty's Chess960 mode).
    chess960: bool,
}

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The 960 Chess960 start positions, as cozy-chess writes them
/// (Shredder-FEN).
fn chess960_starts() -> Vec<Start> {
    (0..960)
        .map(|n| Start {
            label: format!("chess960 start #{n}"),
            fen: format!("{:#}", cozy_chess::Board::chess960_startpos(n)),
            chess960: true,
        })
        .collect()
}

/// Every position of the five perft suites. The castling mode is
/// shakmaty's `CastlingMode::detect` of the FEN.
fn suite_starts() -> Vec<Start> {
    let files: [(&str, String); 5] = [
        ("standard.epd", read_shared("standard.epd")),
        ("tricky.perft", read_local("tricky.perft")),
        (
            "tricky-shakmaty.perft",
            read_shared("tricky-shakmaty.perft"),
        ),
        ("chess960.perft", read_local("chess960.perft")),
        ("random.perft", read_shared("random.perft")),
    ];
    let mut out = Vec::new();
    for (name, text) in &files {
        let entries = suite::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!entries.is_empty(), "{name}: no positions parsed");
        for e in entries {
            let setup = e.fen.parse::<Fen>().unwrap_or_else(|err| {
                panic!("{name}:{}: shakmaty cannot read the FEN: {err}", e.line)
            });
            let chess960 = CastlingMode::detect(setup.as_setup()).is_chess960();
            out.push(Start {
                label: format!("{name}:{} (id {})", e.line, e.id),
                fen: e.fen,
                chess960,
            });
        }
    }
    assert_eq!(
        out.len(),
        128 + 18 + 26 + 960 + 6838,
        "suite position count changed"
    );
    out
}

// ---------------------------------------------------------------------------
// The three engines side by side

/// One position in all three engines, with the history the repetition
/// rules need.
#[derive(Clone)]
struct Trio {
    ours: Game,
    sh: Chess,
    mode: CastlingMode,
    /// `None` when cozy-chess rejects the start position (some suite
    /// positions are deliberately odd).
    cozy: Option<cozy_chess::Board>,
    /// shakmaty Zobrist hashes of every position so far, current last.
    history: Vec<u64>,
    moves: Vec<String>,
}

/// A disagreement (or a setup failure) with all the context to reproduce it.
#[derive(Debug)]
struct Discrepancy {
    what: String,
    fen: String,
    ply: usize,
    moves: Vec<String>,
}

/// What a playout saw, for the coverage summary.
#[derive(Default, Clone, Debug)]
struct Coverage {
    positions: u64,
    castles: u64,
    en_passant: u64,
    promotions: u64,
    underpromotions: u64,
    checks: u64,
    checkmates: u64,
    stalemates: u64,
    insufficient: u64,
    seventy_five: u64,
    fivefold: u64,
    threefold_claims: u64,
    fifty_claims: u64,
    cozy_skipped: u64,
    perft_checks: u64,
}

impl Coverage {
    fn add(&mut self, o: &Coverage) {
        self.positions += o.positions;
        self.castles += o.castles;
        self.en_passant += o.en_passant;
        self.promotions += o.promotions;
        self.underpromotions += o.underpromotions;
        self.checks += o.checks;
        self.checkmates += o.checkmates;
        self.stalemates += o.stalemates;
        self.insufficient += o.insufficient;
        self.seventy_five += o.seventy_five;
        self.fivefold += o.fivefold;
        self.threefold_claims += o.threefold_claims;
        self.fifty_claims += o.fifty_claims;
        self.cozy_skipped += o.cozy_skipped;
        self.perft_checks += o.perft_checks;
    }
}

/// Shredder-FEN for cozy-chess, made from shakmaty's FEN and castling rook
/// squares (cozy-chess reads only Shredder letters in a 960 position).
fn shredder_for_cozy(pos: &Chess) -> String {
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    let rooks = pos.castles().castling_rights();
    let mut castling = String::new();
    for (color, rank) in [
        (shakmaty::Color::White, shakmaty::Rank::First),
        (shakmaty::Color::Black, shakmaty::Rank::Eighth),
    ] {
        let mut files: Vec<char> = rooks
            .into_iter()
            .filter(|sq| sq.rank() == rank)
            .map(|sq| sq.file().char())
            .collect();
        files.sort_unstable_by(|a, b| b.cmp(a));
        for f in files {
            castling.push(if color == shakmaty::Color::White {
                f.to_ascii_uppercase()
            } else {
                f
            });
        }
    }
    fields[2] = if castling.is_empty() {
        "-".into()
    } else {
        castling
    };
    fields.join(" ")
}

fn cozy_moves(board: &cozy_chess::Board) -> BTreeMap<String, cozy_chess::Move> {
    let mut out = BTreeMap::new();
    board.generate_moves(|pm| {
        for m in pm {
            out.insert(m.to_string(), m);
        }
        false
    });
    out
}

fn fen_fields(fen: &str, n: usize) -> String {
    fen.split_whitespace().take(n).collect::<Vec<_>>().join(" ")
}

impl Trio {
    fn new(start: &Start) -> Result<Trio, String> {
        let mode = CastlingMode::from_chess960(start.chess960);
        let sh = shakmaty_position(&start.fen, mode)?;
        let mut ours = our_game(&start.fen)?;
        ours.set_chess960(start.chess960);
        let cozy = cozy_chess::Board::from_fen(&shredder_for_cozy(&sh), true).ok();
        let history = vec![sh.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0];
        Ok(Trio {
            ours,
            sh,
            mode,
            cozy,
            history,
            moves: Vec::new(),
        })
    }

    /// Number of times the current position occurred since the last
    /// irreversible move, by shakmaty's hashes.
    fn reference_repetitions(&self) -> usize {
        let window = self.sh.halfmoves() as usize + 1;
        let cur = *self.history.last().expect("at least one position");
        self.history
            .iter()
            .rev()
            .take(window)
            .filter(|&&h| h == cur)
            .count()
    }

    /// Compares everything at the current position. Returns our moves and
    /// shakmaty's, keyed by the same UCI strings.
    #[allow(clippy::type_complexity)]
    fn compare(
        &mut self,
        cov: &mut Coverage,
    ) -> Result<(BTreeMap<String, Move>, BTreeMap<String, shakmaty::Move>), String> {
        cov.positions += 1;
        // (b) FEN.
        let our_fen = self.ours.fen();
        let sh_fen = Fen::from_position(&self.sh, EnPassantMode::Legal).to_string();
        if our_fen != sh_fen {
            return Err(format!(
                "FEN differs: ours {our_fen:?}, shakmaty {sh_fen:?}"
            ));
        }
        // Reading shakmaty's FEN gives back the same FEN and the same hash
        // as the incrementally updated position.
        let reread = our_game(&sh_fen)?;
        if reread.fen() != sh_fen || reread.hash() != self.ours.hash() {
            return Err(format!(
                "reading shakmaty's FEN {sh_fen:?} gives {:?} with hash {:#x}; the played position has hash {:#x}",
                reread.fen(),
                reread.hash(),
                self.ours.hash()
            ));
        }
        // (a) legal moves against shakmaty.
        let ours = our_moves_by_uci(&mut self.ours, self.mode.is_chess960());
        let theirs = shakmaty_moves_by_uci(&self.sh, self.mode);
        if ours.len() != self.ours.legal_moves().len() {
            return Err(format!(
                "two of our legal moves have the same UCI string: {} moves, {} distinct strings",
                self.ours.legal_moves().len(),
                ours.len()
            ));
        }
        let (only_ours, only_theirs) = set_diff(&ours, &theirs);
        if !only_ours.is_empty() || !only_theirs.is_empty() {
            return Err(format!(
                "legal moves differ: only houserules {only_ours:?}, only shakmaty {only_theirs:?}"
            ));
        }
        if self.ours.count_legal_moves() != ours.len() as u64 {
            return Err(format!(
                "count_legal_moves() = {} but legal_moves() has {}",
                self.ours.count_legal_moves(),
                ours.len()
            ));
        }
        // (a) and (b) against cozy-chess.
        if let Some(cozy) = &self.cozy {
            let cz = cozy_moves(cozy);
            let ours960 = our_moves_by_uci(&mut self.ours, true);
            let (only_ours, only_cozy) = set_diff(&ours960, &cz);
            if !only_ours.is_empty() || !only_cozy.is_empty() {
                return Err(format!("legal moves (king-takes-rook) differ: only houserules {only_ours:?}, only cozy-chess {only_cozy:?}"));
            }
            let ours_sh = fen_fields(&self.ours.shredder_fen(), 3);
            let cozy_sh = fen_fields(&format!("{cozy:#}"), 3);
            if ours_sh != cozy_sh {
                return Err(format!(
                    "Shredder-FEN differs: ours {ours_sh:?}, cozy-chess {cozy_sh:?}"
                ));
            }
            let cozy_check = !cozy.checkers().is_empty();
            if self.ours.is_check() != cozy_check {
                return Err(format!(
                    "is_check: ours {}, cozy-chess {cozy_check}",
                    self.ours.is_check()
                ));
            }
        } else {
            cov.cozy_skipped += 1;
        }
        // (c) SAN, written and read; and our UCI reader on shakmaty's UCI.
        for (uci, &m) in &ours {
            let sm = theirs[uci];
            match self.ours.parse_uci(uci) {
                Ok(back) if back == m => {}
                other => {
                    return Err(format!(
                        "our UCI reader reads shakmaty's {uci:?} as {other:?}, not {m:?}"
                    ))
                }
            }
            let want = SanPlus::from_move(self.sh.clone(), sm).to_string();
            let got = self.ours.san(m);
            if got != want {
                return Err(format!("SAN of {uci}: ours {got:?}, shakmaty {want:?}"));
            }
            let bare = San::from_move(&self.sh, sm).to_string();
            for text in [&want, &bare] {
                match self.ours.parse_san(text) {
                    Ok(back) if back == m => {}
                    Ok(back) => {
                        return Err(format!(
                            "our SAN reader reads shakmaty's {text:?} as {}, not {uci}",
                            self.ours.uci(back)
                        ));
                    }
                    Err(e) => {
                        return Err(format!(
                            "our SAN reader rejects shakmaty's {text:?} (for {uci}): {e}"
                        ))
                    }
                }
            }
        }
        // (d) status.
        let check = self.sh.is_check();
        if self.ours.is_check() != check {
            return Err(format!(
                "is_check: ours {}, shakmaty {check}",
                self.ours.is_check()
            ));
        }
        let insufficient = self.sh.is_insufficient_material();
        if self.ours.is_insufficient_material() != insufficient {
            return Err(format!(
                "is_insufficient_material: ours {}, shakmaty {insufficient}",
                self.ours.is_insufficient_material()
            ));
        }
        let reps = self.reference_repetitions();
        if self.ours.repetitions() != reps {
            return Err(format!(
                "repetitions: ours {}, by shakmaty's hashes {reps}",
                self.ours.repetitions()
            ));
        }
        let expected = if self.sh.is_checkmate() {
            Status::Checkmate {
                winner: if self.sh.turn() == shakmaty::Color::White {
                    Color::Black
                } else {
                    Color::White
                },
            }
        } else if insufficient {
            Status::InsufficientMaterial
        } else if self.sh.is_stalemate() {
            Status::Stalemate
        } else if self.sh.halfmoves() >= 150 {
            Status::SeventyFiveMoveRule
        } else if reps >= 5 {
            Status::FivefoldRepetition
        } else {
            Status::Ongoing
        };
        let status = self.ours.status();
        if status != expected {
            return Err(format!(
                "status: ours {status:?}, expected {expected:?} from shakmaty"
            ));
        }
        let expected_claim = if reps >= 3 {
            Some(Claim::ThreefoldRepetition)
        } else if self.sh.halfmoves() >= 100 && !theirs.is_empty() {
            Some(Claim::FiftyMoveRule)
        } else {
            None
        };
        if self.ours.claimable_draw() != expected_claim {
            return Err(format!(
                "claimable_draw: ours {:?}, expected {expected_claim:?}",
                self.ours.claimable_draw()
            ));
        }
        cov.checks += u64::from(check);
        match status {
            Status::Checkmate { .. } => cov.checkmates += 1,
            Status::Stalemate => cov.stalemates += 1,
            Status::InsufficientMaterial => cov.insufficient += 1,
            Status::SeventyFiveMoveRule => cov.seventy_five += 1,
            Status::FivefoldRepetition => cov.fivefold += 1,
            _ => {}
        }
        match expected_claim {
            Some(Claim::ThreefoldRepetition) => cov.threefold_claims += 1,
            Some(Claim::FiftyMoveRule) => cov.fifty_claims += 1,
            None => {}
        }
        Ok((ours, theirs))
    }

    fn play(&mut self, uci: &str, m: Move, sm: shakmaty::Move) -> Result<(), String> {
        self.ours
            .apply(m)
            .map_err(|e| format!("our apply({uci}) failed: {e}"))?;
        self.sh.play_unchecked(sm);
        if let Some(cozy) = &mut self.cozy {
            let ktr = match sm {
                shakmaty::Move::Castle { king, rook } => format!("{king}{rook}"),
                _ => uci.to_string(),
            };
            let cm: cozy_chess::Move = ktr
                .parse()
                .map_err(|e| format!("cozy-chess cannot read {ktr}: {e:?}"))?;
            cozy.play_unchecked(cm);
        }
        self.history
            .push(self.sh.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0);
        self.moves.push(uci.to_string());
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Playouts

/// How playout `index` of a run with `base_seed` starts and chooses moves.
struct Plan<'a> {
    start: &'a Start,
    seed: u64,
    max_plies: usize,
}

fn plan<'a>(
    index: u64,
    base_seed: u64,
    startpos: &'a Start,
    c960: &'a [Start],
    suites: &'a [Start],
) -> Plan<'a> {
    let seed = SplitMix::new(base_seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64();
    let k = index / 5;
    match index % 5 {
        0 | 1 => Plan {
            start: startpos,
            seed,
            max_plies: 700,
        },
        2 => Plan {
            start: &c960[(k % 960) as usize],
            seed,
            max_plies: 700,
        },
        r => {
            // 7,919 is prime and coprime with the suite size, so this walks
            // every suite position before repeating one.
            let j = (k * 2 + (r - 3)).wrapping_mul(7_919) % suites.len() as u64;
            Plan {
                start: &suites[j as usize],
                seed,
                max_plies: 160,
            }
        }
    }
}

/// Plays one playout; stops at the first disagreement.
fn playout(plan: &Plan, cov: &mut Coverage, budget: &AtomicU64) -> Result<(), Discrepancy> {
    let mut rng = SplitMix::new(plan.seed);
    // Per-playout style: how often to prefer a capture, and a special move
    // (castling, en passant, promotion) when one is available.
    let capture_bias = [0.0, 0.25, 0.5, 0.8][rng.below(4)];
    let special_bias = [0.3, 0.7][rng.below(2)];
    // Some playouts shuffle pieces back and forth (undoing the side's own
    // previous move when legal) to reach repetitions.
    let repeat_bias = [0.0, 0.0, 0.0, 0.9][rng.below(4)];
    let perft_offset = rng.below(PERFT_EVERY);
    let mut trio = Trio::new(plan.start).map_err(|what| Discrepancy {
        what: format!("setup: {what}"),
        fen: plan.start.fen.clone(),
        ply: 0,
        moves: Vec::new(),
    })?;
    for ply in 0..=plan.max_plies {
        let fail = |trio: &Trio, what: String| Discrepancy {
            what,
            fen: trio.ours.fen(),
            ply,
            moves: trio.moves.clone(),
        };
        let (ours, theirs) = trio.compare(cov).map_err(|w| fail(&trio, w))?;
        budget.fetch_add(1, Ordering::Relaxed);
        // Every PERFT_EVERY plies, the whole tree three plies deep.
        if ply % PERFT_EVERY == perft_offset {
            cov.perft_checks += 1;
            let a = trio.ours.perft(PERFT_DEPTH, true);
            let b = shakmaty::perft(&trio.sh, PERFT_DEPTH);
            if a != b {
                let fen = trio.ours.fen();
                return Err(fail(
                    &trio,
                    format!(
                        "perft({PERFT_DEPTH}): ours {a}, shakmaty {b}; located: {}",
                        locate_perft_divergence(&fen, PERFT_DEPTH)
                    ),
                ));
            }
        }
        if trio.ours.status().is_over() || ply == plan.max_plies {
            break;
        }
        let keys: Vec<&String> = theirs.keys().collect();
        let special: Vec<&String> = keys
            .iter()
            .copied()
            .filter(|k| {
                let m = theirs[*k];
                m.is_castle() || m.is_en_passant() || m.is_promotion()
            })
            .collect();
        let captures: Vec<&String> = keys
            .iter()
            .copied()
            .filter(|k| theirs[*k].is_capture())
            .collect();
        // The reverse of the side to move's own previous move, if legal.
        let back = trio.moves.len().checked_sub(2).map(|i| {
            let m = &trio.moves[i];
            format!("{}{}", &m[2..4], &m[0..2])
        });
        let back = back
            .as_ref()
            .and_then(|b| theirs.get_key_value(b))
            .map(|(k, _)| k);
        let pick = if let Some(b) = back.filter(|_| rng.chance(repeat_bias)) {
            b
        } else if !special.is_empty() && rng.chance(special_bias) {
            special[rng.below(special.len())]
        } else if !captures.is_empty() && rng.chance(capture_bias) {
            captures[rng.below(captures.len())]
        } else {
            keys[rng.below(keys.len())]
        };
        let sm = theirs[pick];
        if sm.is_castle() {
            cov.castles += 1;
        }
        if sm.is_en_passant() {
            cov.en_passant += 1;
        }
        if let Some(p) = sm.promotion() {
            cov.promotions += 1;
            if p != shakmaty::Role::Queen {
                cov.underpromotions += 1;
            }
        }
        let pick = pick.clone();
        trio.play(&pick, ours[&pick], sm)
            .map_err(|w| fail(&trio, w))?;
    }
    Ok(())
}

fn parse_seed(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Err(_) => default,
        Ok(v) => {
            let v = v.trim();
            let parsed = match v.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16),
                None => v.parse(),
            };
            parsed.unwrap_or_else(|_| panic!("{name}={v:?} is not a number"))
        }
    }
}

#[test]
fn random_playouts_agree_with_shakmaty_and_cozy_chess() {
    let t0 = Instant::now();
    let target = env_u64("HOUSERULES_DIFF_POSITIONS", DEFAULT_POSITIONS);
    let base_seed = parse_seed("HOUSERULES_DIFF_SEED", DEFAULT_SEED);
    let only = std::env::var("HOUSERULES_DIFF_PLAYOUT").ok().map(|v| {
        v.trim()
            .parse::<u64>()
            .unwrap_or_else(|_| panic!("HOUSERULES_DIFF_PLAYOUT={v:?} is not a number"))
    });
    let startpos = Start {
        label: "start position".into(),
        fen: STARTPOS.into(),
        chess960: false,
    };
    let c960 = chess960_starts();
    let suites = suite_starts();

    let positions = AtomicU64::new(0);
    let next = AtomicUsize::new(0);
    let failures: Mutex<Vec<(u64, Discrepancy)>> = Mutex::new(Vec::new());
    let total = Mutex::new(Coverage::default());
    let playouts = AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads() {
            s.spawn(|| {
                let mut cov = Coverage::default();
                loop {
                    let index = match only {
                        Some(i) => {
                            if next.fetch_add(1, Ordering::Relaxed) > 0 {
                                break;
                            }
                            i
                        }
                        None => {
                            if positions.load(Ordering::Relaxed) >= target {
                                break;
                            }
                            next.fetch_add(1, Ordering::Relaxed) as u64
                        }
                    };
                    let p = plan(index, base_seed, &startpos, &c960, &suites);
                    playouts.fetch_add(1, Ordering::Relaxed);
                    if let Err(d) = playout(&p, &mut cov, &positions) {
                        failures
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push((index, d));
                    }
                }
                total.lock().unwrap_or_else(|e| e.into_inner()).add(&cov);
            });
        }
    });
    let cov = total.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    failures.sort_by_key(|(i, _)| *i);
    eprintln!(
        "differential: {} playouts, {} positions compared, seed {base_seed:#x}, {} failures, {}\n  coverage: {cov:?}",
        playouts.load(Ordering::Relaxed),
        cov.positions,
        failures.len(),
        secs(t0.elapsed())
    );
    if !failures.is_empty() {
        let mut report = format!(
            "{} playouts disagree with the reference engines:\n",
            failures.len()
        );
        for (index, d) in failures.iter().take(REPORT_AT_MOST) {
            let p = plan(*index, base_seed, &startpos, &c960, &suites);
            report.push_str(&format!(
                "\n- playout {index} (seed {:#x}), start {} [{}], ply {}\n  FEN:   {}\n  moves: {}\n  what:  {}\n  replay: HOUSERULES_DIFF_SEED={base_seed:#x} HOUSERULES_DIFF_PLAYOUT={index} cargo test -p houserules-engine --test differential random_playouts -- --nocapture\n",
                p.seed,
                p.start.label,
                p.start.fen,
                d.ply,
                d.fen,
                d.moves.join(" "),
                d.what
            ));
        }
        panic!("{report}");
    }
    if only.is_none() {
        assert!(
            cov.positions >= target,
            "only {} positions compared, {target} asked",
            cov.positions
        );
        if target >= DEFAULT_POSITIONS {
            // The default run must actually reach the special rules.
            for (name, n) in [
                ("castling moves", cov.castles),
                ("en passant captures", cov.en_passant),
                ("promotions", cov.promotions),
                ("underpromotions", cov.underpromotions),
                ("checkmates", cov.checkmates),
                ("stalemates", cov.stalemates),
                ("insufficient-material endings", cov.insufficient),
                ("75-move-rule endings", cov.seventy_five),
                ("fivefold repetitions", cov.fivefold),
                ("threefold-repetition claims", cov.threefold_claims),
                (
                    "positions compared with cozy-chess",
                    cov.positions - cov.cozy_skipped,
                ),
            ] {
                assert!(n > 0, "the playouts never reached {name}: {cov:?}");
            }
        }
    }
}

/// Every suite position itself (ply 0, no playout) agrees with the
/// references: the odd ones (X-FEN castling, impossible checkers, 218 legal
/// moves, en passant edge cases) are compared in every run.
#[test]
fn every_suite_position_agrees() {
    let suites = suite_starts();
    let mut cov = Coverage::default();
    let mut bad = Vec::new();
    let mut setup_skipped = Vec::new();
    for start in &suites {
        match Trio::new(start) {
            Err(what) => setup_skipped.push(format!("{}: {what}", start.label)),
            Ok(mut trio) => {
                if let Err(what) = trio.compare(&mut cov) {
                    bad.push(format!("{} [{}]: {what}", start.label, start.fen));
                }
            }
        }
    }
    eprintln!(
        "suite positions: {} compared, {} not compared with cozy-chess, {} not set up by shakmaty",
        cov.positions,
        cov.cozy_skipped,
        setup_skipped.len()
    );
    // shakmaty accepts every suite position (its lenient options cover the
    // impossible-check ones); a refusal is a setup problem of this test.
    assert!(
        setup_skipped.is_empty(),
        "setup failures:\n{}",
        setup_skipped.join("\n")
    );
    assert!(
        bad.is_empty(),
        "{} suite positions disagree:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// The castling mode `our_game` picks for a suite position (Chess960 when
/// standard castling would drop a right the FEN gives) agrees with
/// shakmaty's `CastlingMode::detect` on every suite position, so the
/// comparisons above play each position in the mode shakmaty does.
#[test]
fn chess960_detection_agrees_with_shakmaty() {
    let mut bad = Vec::new();
    let starts = suite_starts();
    for start in &starts {
        let g = our_game(&start.fen).unwrap_or_else(|e| panic!("{}: {e}", start.label));
        if g.is_chess960() != start.chess960 {
            bad.push(format!(
                "{} [{}]: ours {}, shakmaty {}",
                start.label,
                start.fen,
                g.is_chess960(),
                start.chess960
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "is_chess960() differs from shakmaty's CastlingMode::detect on {} of {} suite positions; the first ones:\n{}",
        bad.len(),
        starts.len(),
        bad.iter().take(10).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Regression (engine bug found by this suite): `Game::from_fen` took every
/// standard chess position with a castling right for Chess960, so `uci()`
/// wrote castling king-takes-rook (`e1h1`) instead of `e1g1` unless the
/// caller called `set_chess960(false)`. Reference: shakmaty's UCI in
/// standard castling mode.
#[test]
fn bug_standard_castling_detected_as_chess960() {
    for fen in [
        STARTPOS,
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    ] {
        let mut g = our_game(fen).expect("valid FEN");
        let sh = shakmaty_position(fen, CastlingMode::Standard).expect("valid FEN");
        let theirs = shakmaty_moves_by_uci(&sh, CastlingMode::Standard);
        let is960 = g.is_chess960();
        let ours: BTreeMap<String, Move> =
            g.legal_moves().into_iter().map(|m| (g.uci(m), m)).collect();
        let (only_ours, only_theirs) = set_diff(&ours, &theirs);
        assert!(
            !is960 && only_ours.is_empty() && only_theirs.is_empty(),
            "{fen}: is_chess960() = {is960}; UCI only ours {only_ours:?}, only shakmaty (standard) {only_theirs:?}"
        );
        // Setting the flag explicitly gives king-takes-rook.
        g.set_chess960(true);
        let ktr: BTreeMap<String, Move> =
            g.legal_moves().into_iter().map(|m| (g.uci(m), m)).collect();
        let (only_ours, only_theirs) =
            set_diff(&ktr, &shakmaty_moves_by_uci(&sh, CastlingMode::Chess960));
        assert!(
            only_ours.is_empty() && only_theirs.is_empty(),
            "{fen} with set_chess960(true): only ours {only_ours:?}, only shakmaty {only_theirs:?}"
        );
    }
    assert!(
        !Game::chess().is_chess960(),
        "Game::chess() must write castling as e1g1"
    );
}

// ---------------------------------------------------------------------------
// Property tests: our own consistency on random playouts

/// Start positions for the property tests (from the perft suites: start
/// position, Kiwipete, positions 3–5, en passant and promotion cases, two
/// Chess960 positions).
const PROP_STARTS: &[&str] = &[
    STARTPOS,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/8/8/5k2/3p4/8/4P3/4K3 w - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
];

fn sorted_uci(g: &Game) -> Vec<String> {
    let mut v: Vec<String> = g.legal_moves().into_iter().map(|m| g.uci(m)).collect();
    v.sort();
    v
}

/// 256 cases (or `PROPTEST_CASES`), a fixed RNG seed unless
/// `PROPTEST_RNG_SEED` is set (so CI runs are reproducible), and no
/// regression files (proptest prints the minimal failing input).
fn prop_config() -> ProptestConfig {
    let mut c = ProptestConfig::default();
    if matches!(c.rng_seed, proptest::test_runner::RngSeed::Random) {
        c.rng_seed = proptest::test_runner::RngSeed::Fixed(DEFAULT_SEED);
    }
    c.failure_persistence = None;
    c
}

proptest! {
    #![proptest_config(prop_config())]

    /// `apply` then `undo` restores `fen()`, `hash()` and the legal moves;
    /// after each move `hash()` equals the hash of the same FEN read afresh.
    #[test]
    fn apply_undo_and_incremental_hash(start in 0..PROP_STARTS.len(), choices in prop::collection::vec(any::<u32>(), 1..160)) {
        let mut g = Game::from_fen(Variant::chess(), PROP_STARTS[start]).expect("valid start");
        let first = (g.fen(), g.hash());
        let mut played = 0;
        for c in choices {
            let legal = g.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[c as usize % legal.len()];
            let before = (g.fen(), g.hash(), sorted_uci(&g));
            let uci = g.uci(m);
            g.apply(m).expect("legal move applies");
            played += 1;
            let fresh = Game::from_fen(Variant::chess(), &g.fen()).expect("our FEN reads back");
            prop_assert_eq!(fresh.fen(), g.fen(), "FEN round trip after {}", uci);
            prop_assert_eq!(g.hash(), fresh.hash(), "incremental hash != fresh hash after {} at {}", uci, g.fen());
            let mut back = g.clone();
            prop_assert_eq!(back.undo().expect("one move to undo"), m);
            prop_assert_eq!(&back.fen(), &before.0, "undo of {} does not restore the FEN", uci);
            prop_assert_eq!(back.hash(), before.1, "undo of {} does not restore the hash", uci);
            prop_assert_eq!(sorted_uci(&back), before.2, "undo of {} does not restore the legal moves", uci);
        }
        for _ in 0..played {
            g.undo().expect("undo");
        }
        prop_assert!(g.undo().is_err(), "undo past the start must fail");
        prop_assert_eq!((g.fen(), g.hash()), first);
    }

    /// Bulk counting does not change perft.
    #[test]
    fn perft_bulk_equals_full(start in 0..PROP_STARTS.len(), choices in prop::collection::vec(any::<u32>(), 0..80), depth in 1u32..=3) {
        let mut g = Game::from_fen(Variant::chess(), PROP_STARTS[start]).expect("valid start");
        for c in choices {
            let legal = g.legal_moves();
            if legal.is_empty() {
                break;
            }
            g.apply(legal[c as usize % legal.len()]).expect("legal move applies");
        }
        prop_assert_eq!(g.perft(depth, true), g.perft(depth, false), "perft({}) at {}", depth, g.fen());
        prop_assert_eq!(g.perft(1, true), g.legal_moves().len() as u64);
        let divide: u64 = g.divide(depth, true).iter().map(|(_, n)| n).sum();
        prop_assert_eq!(divide, g.perft(depth, true), "divide({}) sums differently at {}", depth, g.fen());
    }
}
