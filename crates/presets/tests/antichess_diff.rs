//! `suicide-chess` against shakmaty's Antichess (lichess rules, RULINGS
//! P15): random playouts from a seeded PRNG compare the legal-move sets and
//! the results at every position.

mod common;

use houserules_engine::{Color, Status};
use shakmaty::fen::Fen;
use shakmaty::variant::Antichess;
use shakmaty::{CastlingMode, EnPassantMode, KnownOutcome, Outcome, Position};

use common::Rng;

#[test]
fn suicide_chess_matches_shakmaty_antichess_on_random_playouts() {
    let mut rng = Rng(20261129);
    let mut finished = 0;
    for game_no in 0..300 {
        let mut g = common::game("suicide-chess", None, None);
        let mut s: Antichess = Antichess::default();
        for ply in 0..300 {
            let mut ours = common::ucis(&g);
            let mut theirs: Vec<String> = s
                .legal_moves()
                .iter()
                .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                .collect();
            theirs.sort();
            ours.sort();
            let fen = Fen::from_position(&s, EnPassantMode::Legal).to_string();
            assert_eq!(ours, theirs, "game {game_no} ply {ply}: {fen}");
            let want = match s.outcome() {
                Outcome::Known(KnownOutcome::Decisive { winner }) => Some(Some(match winner {
                    shakmaty::Color::White => Color::White,
                    shakmaty::Color::Black => Color::Black,
                })),
                Outcome::Known(KnownOutcome::Draw) => Some(None),
                Outcome::Unknown => None,
            };
            let got = match g.status() {
                Status::Variant { winner, .. } => Some(winner),
                Status::Ongoing => None,
                other => panic!("game {game_no} ply {ply}: unexpected {other:?} in {fen}"),
            };
            assert_eq!(got, want, "game {game_no} ply {ply}: {fen}");
            if want.is_some() {
                finished += 1;
                break;
            }
            let i = (rng.next() % ours.len() as u64) as usize;
            let uci = ours[i].clone();
            g.apply_uci(&uci).unwrap();
            let m = uci
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(&s)
                .unwrap();
            s.play_unchecked(m);
        }
    }
    assert!(finished > 100, "only {finished} games reached a result");
}
