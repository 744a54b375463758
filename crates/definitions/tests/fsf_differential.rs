//! # Differential test against Fairy-Stockfish on random playouts
//!
//! `tests/data/fsf_reference.jsonl` holds seeded random playouts of every
//! shipped game, played by Fairy-Stockfish through pyffish 0.0.90 (a GPL
//! test-time tool; the generator `tests/data/make_fsf_reference.py` says how
//! to rebuild the file and documents its fields). Each playout is replayed
//! here through the shipped YAML definition, and at every position:
//!
//! - the legal-move set agrees: same number of moves and the same digest
//!   (FNV-1a 32 of the sorted UCI strings joined by spaces);
//! - the game is neither over nor claimable where Fairy-Stockfish went on;
//! - at the last position the result agrees: checkmate (the side to move
//!   lost), stalemate (a draw in every shipped game), a 50-move or
//!   threefold claim, insufficient material (for the games whose
//!   definition enables that rule; see [`insufficient_material_rule`]);
//! - Fairy-Stockfish's final FEN, read by houserules, is the position
//!   houserules reached (compared through our own FEN writer, so
//!   notational differences in the castling and en passant fields do not
//!   matter, while their meaning does).
//!
//! ## Notation mapping
//!
//! Fairy-Stockfish's UCI and ours agree once the Chess960 flag is set as
//! Fairy-Stockfish's: king-to-destination castling (`e1g1`, Capablanca
//! `f1i1`) in normal mode, king-takes-rook (`e1h1`) in Chess960 mode (set
//! with [`Game::set_chess960`] for the `chess960` playouts, whose standard
//! array start 518 would otherwise be written `e1g1`); promotion letters in
//! lower case; two-digit ranks on 10-rank boards (`a9a10q`). Berolina's
//! two-square en passant field (`d3c4`) is read by our FEN parser.

mod fsf_common;
use std::collections::BTreeMap;

use fsf_common::{ply_entry, reference, same_moves, Final};

use houserules_engine::{Claim, Game, Status, Variant};

/// Positions expected in the file per game (the generator writes at least
/// 4,000); fewer means the file is truncated.
const MIN_POSITIONS_PER_GAME: usize = 4_000;

/// Shipped games compared with python-chess rather than Fairy-Stockfish
/// (lichess's variants: python-chess is the reference the issue names).
const LICHESS_GAMES: &[&str] = &["crazyhouse", "3check", "horde"];

#[derive(serde::Deserialize)]
struct Playout {
    game: String,
    chess960: bool,
    playout: usize,
    start: String,
    plies: Vec<String>,
    #[serde(rename = "final")]
    last: Final,
}

/// Our legal moves in UCI, sorted as byte strings.
fn legal_uci(game: &Game) -> Vec<String> {
    let mut v: Vec<String> = game.legal_moves().iter().map(|&m| game.uci(m)).collect();
    v.sort();
    v
}

/// Whether the definition ends games on insufficient material. Fairy-
/// Stockfish's per-side rule matched FIDE's dead-position rule as written in
/// our engine (the one of shakmaty and python-chess) on every playout where
/// it applied; `knightmate-classic` and `clobberers` switch the rule off
/// (their pieces are not FIDE's), so there the game must go on.
fn insufficient_material_rule(game: &Game) -> bool {
    game.variant().definition().end.insufficient_material
}

fn variant(id: &str) -> Variant {
    let def = houserules_definitions::builtin(id)
        .unwrap_or_else(|| panic!("shipped game `{id}` does not load"));
    Variant::new(def).unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// Replays one playout; returns a description of the first disagreement.
fn replay(p: &Playout, v: &Variant) -> Result<(), String> {
    let at = |ply: usize| format!("{} playout {} ply {ply}", p.game, p.playout);
    let mut game = Game::from_fen(v.clone(), &p.start)
        .map_err(|e| format!("{}: start FEN `{}`: {e}", at(0), p.start))?;
    if p.chess960 {
        game.set_chess960(true);
    }
    let check_legal = |game: &Game, ply: usize, count: usize, digest: &str| {
        let ours = legal_uci(game);
        if !same_moves(&ours, count, digest) {
            return Err(format!(
                "{}: legal moves differ in `{}`: Fairy-Stockfish has {count} (digest {digest}), houserules has {}:\n  {}\n(Fairy-Stockfish's list: make_fsf_reference.py --dump {} {})",
                at(ply),
                game.fen(),
                ours.len(),
                ours.join(" "),
                p.game,
                p.playout
            ));
        }
        Ok(())
    };
    for (ply, entry) in p.plies.iter().enumerate() {
        let (mv, count, digest) = ply_entry(entry).map_err(|e| format!("{}: {e}", at(ply)))?;
        check_legal(&game, ply, count, digest)?;
        let status = game.status();
        // Fairy-Stockfish went on here: the game is not over, and no draw
        // can be claimed. Insufficient material may only differ where the
        // definition has no such rule (then it is never reported).
        if status != Status::Ongoing {
            return Err(format!(
                "{}: houserules ends the game ({}) in `{}`, Fairy-Stockfish plays on",
                at(ply),
                status.name(),
                game.fen()
            ));
        }
        if let Some(c) = game.claimable_draw() {
            return Err(format!(
                "{}: houserules allows a {c:?} claim in `{}`, Fairy-Stockfish does not",
                at(ply),
                game.fen()
            ));
        }
        game.apply_uci(mv)
            .map_err(|e| format!("{}: move {mv} in `{}`: {e}", at(ply), game.fen()))?;
    }
    let n = p.plies.len();
    let f = &p.last;
    check_legal(&game, n, f.count, &f.digest)?;
    // The position reached is Fairy-Stockfish's: read its FEN and write both
    // with our writer.
    let theirs = Game::from_fen(v.clone(), &f.fen)
        .map_err(|e| format!("{}: Fairy-Stockfish's FEN `{}`: {e}", at(n), f.fen))?;
    if theirs.fen() != game.fen() {
        return Err(format!(
            "{}: position differs: Fairy-Stockfish `{}` (read as `{}`), houserules `{}`",
            at(n),
            f.fen,
            theirs.fen(),
            game.fen()
        ));
    }
    let status = game.status();
    let claim = game.claimable_draw();
    let ok = match f.end.as_str() {
        "checkmate" => {
            f.value.is_some_and(|v| v < 0)
                && status
                    == Status::Checkmate {
                        winner: game.turn().flip(),
                    }
        }
        // Stalemate is a draw in every shipped game (and in Fairy-
        // Stockfish's variants used here: value 0).
        "stalemate" => f.value == Some(0) && status == Status::Stalemate,
        "fifty-move" => status == Status::Ongoing && claim == Some(Claim::FiftyMoveRule),
        "threefold" => status == Status::Ongoing && claim == Some(Claim::ThreefoldRepetition),
        "insufficient-material" => {
            if insufficient_material_rule(&game) {
                status == Status::InsufficientMaterial
            } else {
                status == Status::Ongoing
            }
        }
        "ply-cap" => status == Status::Ongoing && claim.is_none(),
        other => return Err(format!("{}: unknown end `{other}`", at(n))),
    };
    if !ok {
        return Err(format!(
            "{}: Fairy-Stockfish ends with {} (value {:?}) in `{}`; houserules has status {} and claim {claim:?}",
            at(n),
            f.end,
            f.value,
            f.fen,
            status.name()
        ));
    }
    Ok(())
}

#[test]
fn shipped_games_agree_with_fairy_stockfish_on_random_playouts() {
    let playouts = reference::<Playout>(env!("CARGO_MANIFEST_DIR"));
    let mut positions: BTreeMap<&str, usize> = BTreeMap::new();
    let mut ends: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let mut variants: BTreeMap<String, Variant> = BTreeMap::new();
    let mut failures = Vec::new();
    for p in &playouts {
        let v = variants
            .entry(p.game.clone())
            .or_insert_with(|| variant(&p.game))
            .clone();
        *positions.entry(&p.game).or_default() += p.plies.len() + 1;
        *ends.entry((&p.game, &p.last.end)).or_default() += 1;
        if let Err(e) = replay(p, &v) {
            failures.push(e);
        }
    }
    let mut ids = houserules_definitions::builtin_ids();
    // lichess's variants are checked against python-chess instead
    // (crates/cli/tests/lichess_differential.rs).
    ids.retain(|id| !LICHESS_GAMES.contains(id));
    ids.sort();
    let covered: Vec<&str> = positions.keys().copied().collect();
    assert_eq!(
        covered, ids,
        "the reference must cover every shipped game (regenerate it)"
    );
    for (g, n) in &positions {
        assert!(
            *n >= MIN_POSITIONS_PER_GAME,
            "{g}: only {n} positions in the reference"
        );
    }
    eprintln!("positions per game: {positions:?}");
    eprintln!("playout ends: {ends:?}");
    assert!(
        failures.is_empty(),
        "{} of {} playouts disagree with Fairy-Stockfish:\n{}",
        failures.len(),
        playouts.len(),
        failures.join("\n")
    );
}
