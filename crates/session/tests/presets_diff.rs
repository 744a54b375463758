//! Rulings G1: the preset-shaped catalog rules, written as descriptors,
//! give the same legal moves as the presets of the same rules on positions
//! reached by random play (both sides' moves, captures and promotions).

use houserules_modifiers::Mulberry32;
use houserules_session::{CreateRequest, Session};
use serde_json::json;

/// Sorted legal moves, or `None` when plain chess refuses the FEN (the
/// preset may reach positions where the side not to move is attacked by
/// FIDE rules; a modifier game starts from a FIDE-valid FEN).
fn legal(preset: Option<&str>, modifier: Option<&str>, fen: &str) -> Option<Vec<String>> {
    let s = Session::create(CreateRequest {
        fen: Some(fen.into()),
        presets: preset.map(|p| vec![p.to_string()]).unwrap_or_default(),
        modifiers: modifier.map(|m| vec![json!(m)]).unwrap_or_default(),
        ..CreateRequest::default()
    })
    .ok()?;
    let mut v = s.legal_moves_uci();
    v.sort();
    Some(v)
}

fn compare(preset: &str, modifier: &str, games: u32, plies: u32) {
    let mut rng = Mulberry32::new(7);
    let mut checked = 0;
    for _ in 0..games {
        let mut s = Session::create(CreateRequest {
            presets: vec![preset.into()],
            ..CreateRequest::default()
        })
        .unwrap();
        for _ in 0..plies {
            let fen = s.game().fen();
            let a = legal(Some(preset), None, &fen).expect("the preset reads its own positions");
            if let Some(b) = legal(None, Some(modifier), &fen) {
                assert_eq!(a, b, "{preset} vs {modifier} at {fen}");
                checked += 1;
            }
            if a.is_empty() {
                break;
            }
            let m = a[rng.below(a.len() as u32) as usize].clone();
            s.submit(houserules_session::Input::Move { mv: m }).unwrap();
        }
    }
    assert!(checked > 50);
}

#[test]
fn proletariat_descriptor_matches_the_preset() {
    compare("proletariat", "proletariat", 6, 40);
}

#[test]
fn trains_rights_descriptor_matches_the_trans_rights_preset() {
    compare("trans-rights", "trains_rights", 6, 40);
}

#[test]
fn god_kings_descriptor_matches_the_preset() {
    compare("god-kings", "god_kings", 6, 40);
}

#[test]
fn short_stop_descriptor_matches_the_preset() {
    compare("short-stop", "short_stop", 6, 40);
}
