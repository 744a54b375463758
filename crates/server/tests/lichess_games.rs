//! lichess's variants in the server (issue 25): `GET /api/rules` lists
//! every shipped one, and each can be created and played to its end over
//! real sockets. Every game below, its result and its final FEN were made
//! by python-chess 1.11.2's variant boards (`chess.variant`):
//!
//! ```text
//! b = chess.variant.find_variant(VARIANT)()
//! for m in MOVES: b.push_uci(m)
//! b.outcome().result(), b.fen()
//! ```
//!
//! The antichess, racing kings and three-check games are the shortest
//! finished ones among 300 seeded random playouts; the horde game the
//! shortest finished one among random playouts where White prefers
//! mates and checks.

mod common;

use common::{create, get_json, start, Backend, Client};
use serde_json::json;

/// (game id, moves in UCI, python-chess's result, python-chess's FEN).
const GAMES: &[(&str, &str, &str, &str)] = &[
    (
        "atomic",
        // 3. Nxf7 explodes with the f7 pawn the pieces around f7 but
        // pawns: the king on e8, the f8 bishop and the g8 knight.
        "g1f3 a7a6 f3g5 a6a5 g5f7",
        "1-0",
        "rnbq3r/1pppp1pp/8/p7/8/8/PPPPPPPP/RNBQKB1R b KQ - 0 3",
    ),
    (
        "kingofthehill",
        "e2e4 a7a6 e1e2 a6a5 e2e3 a5a4 e3d4",
        "1-0",
        "rnbqkbnr/1ppppppp/8/8/p2KP3/8/PPPP1PPP/RNBQ1BNR b kq - 1 4",
    ),
    (
        "crazyhouse",
        "f2f3 e7e5 g2g4 d8h4",
        "0-1",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR[] w KQkq - 1 3",
    ),
    (
        "racingkings",
        "h2h3 a2a3 h3g4 a3b4 g4h5 c2f5 h5h6 b4a5 h6g7 a5a6 g7h8",
        "1-0",
        "7K/8/k7/5b2/8/8/1r1nNBR1/qrbnNBRQ b - - 11 6",
    ),
    (
        "antichess",
        "h2h3 f7f6 b2b4 b8a6 g2g3 a6b4 c2c4 b4a2 a1a2 h7h5 a2a7 a8a7 g3g4 h5g4 h3g4 h8h1 \
         d1c2 h1g1 c2d3 g1g4 d3d7 e8d7 f2f4 g4f4 b1c3 f4f1 e1f1 c7c5 d2d3 d7c7 c1h6 g8h6 \
         e2e4 d8d3 f1e2 d3c3 e2f3 c3f3 e4e5 f6e5",
        "1-0",
        "2b2b2/rpk1p1p1/7n/2p1p3/2P5/5q2/8/8 w - - 0 21",
    ),
    (
        "3check",
        "e2e4 d7d6 f1b5 c7c6 g1h3 b8d7 b5c6 f7f5 c6d7 e8f7 h3g1 d8a5 e4e5 a5e5 e1f1 b7b6 \
         b2b3 f7g6 g1h3 d6d5 d1g4",
        "1-0",
        "r1b2bnr/p2Bp1pp/1p4k1/3pqp2/6Q1/1P5N/P1PP1PPP/RNB2K1R b - - 0+2 1 11",
    ),
    (
        "horde",
        // 1. g6 h5 2. e5 f6 3. exf6 a5 4. f7#: the f7 pawn checks e8,
        // Black's own pieces fill d8, f8, d7 and e7, and the g6 pawn
        // guards f7 (python-chess: checkmate).
        "g5g6 h7h5 e4e5 f7f6 e5f6 a7a5 f6f7",
        "1-0",
        "rnbqkbnr/1ppppPp1/6P1/pPP2P1p/PPPP1PPP/PPPPPPPP/PPPPPPPP/PPPPPPPP b kq - 0 4",
    ),
];

/// Each shipped lichess game is listed by `GET /api/rules` and plays to
/// python-chess's result and final position.
async fn lichess_games_are_listed_and_play_to_their_result(b: Backend) {
    let s = start(b).await;
    let rules = get_json(s.addr, "/api/rules").await;
    let listed: Vec<String> = rules["games"]
        .as_array()
        .expect("games listed")
        .iter()
        .map(|g| g["id"].as_str().unwrap_or_default().to_string())
        .collect();
    for g in houserules_presets::lichess::LICHESS_GAMES {
        assert!(
            listed.iter().any(|id| id == g.id),
            "{} not listed: {listed:?}",
            g.id
        );
    }
    for &(game, moves, result, fen) in GAMES {
        let g = create(s.addr, json!({"game": game})).await;
        let mut w = Client::connect(s.addr, &g.id, &g.white, 1).await;
        let mut bl = Client::connect(s.addr, &g.id, &g.black, 1).await;
        for (ply, m) in moves.split_whitespace().enumerate() {
            let c = if ply % 2 == 0 { &mut w } else { &mut bl };
            c.mv(m, ply as u32).await;
            for c in [&mut w, &mut bl] {
                let st = c.expect("state").await;
                assert_eq!(st["seq"], ply as u64 + 1, "{game} ply {ply}");
            }
        }
        let over = w.expect("game-over").await;
        assert_eq!(over["result"], result, "{game}: {over}");
        let v = get_json(s.addr, &format!("/api/games/{}", g.id)).await;
        assert_eq!(v["fen"], fen, "{game}");
        assert_eq!(v["result"]["result"], result, "{game}");
    }
}

on_both!(lichess_games_are_listed_and_play_to_their_result);
