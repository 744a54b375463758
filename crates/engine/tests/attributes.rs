//! Per-piece attribute bytes (the engine seam behind hit points, issue 4):
//! they move with the piece, are cleared on capture, are hashed, and
//! survive copy and undo. Variants whose hooks do not ask for attributes
//! never move them (FIDE pays nothing).

use houserules_engine::hooks::RuleHooks;
use houserules_engine::{BitSet, Game, GameDefinition, Move, Position, Variant};

/// FIDE rules with attributes switched on.
#[derive(Debug)]
struct WithAttrs;
impl<B: BitSet> RuleHooks<B> for WithAttrs {
    fn uses_piece_attributes(&self) -> bool {
        true
    }
}

fn sq(name: &str) -> u8 {
    let b = name.as_bytes();
    (b[1] - b'1') * 8 + (b[0] - b'a')
}

fn game(fen: &str) -> Game {
    let v = Variant::with_hooks(GameDefinition::fide(), WithAttrs).unwrap();
    Game::from_fen(v, fen).unwrap()
}

/// Sets attributes through the setup path (a position handed to the game).
fn with_attrs(g: &Game, attrs: &[(&str, u8)]) -> Game {
    let mut p: Position<u64> = *g.position::<u64>().unwrap();
    for (s, a) in attrs {
        assert!(p.set_piece_attribute(sq(s), *a), "{s} holds a piece");
    }
    Game::from_position(g.variant().clone(), p).unwrap()
}

fn attr(g: &Game, s: &str) -> u8 {
    g.position::<u64>().unwrap().piece_attribute(sq(s))
}

#[test]
fn attribute_moves_with_the_piece_and_is_cleared_on_capture() {
    let g = game("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1");
    let mut g = with_attrs(&g, &[("d1", 3), ("d5", 2)]);
    g.apply_uci("d1d5").unwrap();
    assert_eq!(attr(&g, "d5"), 3, "the rook's byte went with it");
    assert_eq!(attr(&g, "d1"), 0, "the vacated square holds 0");
}

#[test]
fn attribute_of_castling_rook_and_king_move_with_them() {
    let g = game("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    let mut g = with_attrs(&g, &[("e1", 2), ("h1", 5)]);
    g.apply_uci("e1g1").unwrap();
    assert_eq!(attr(&g, "g1"), 2);
    assert_eq!(attr(&g, "f1"), 5);
    assert_eq!(attr(&g, "e1"), 0);
    assert_eq!(attr(&g, "h1"), 0);
}

#[test]
fn attribute_of_en_passant_victim_is_cleared() {
    let g = game("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    let mut g = with_attrs(&g, &[("d5", 7), ("e5", 1)]);
    g.apply_uci("e5d6").unwrap();
    assert_eq!(attr(&g, "d6"), 1);
    assert_eq!(attr(&g, "d5"), 0);
    assert!(g.piece_at(sq("d5")).is_none());
}

#[test]
fn attributes_are_hashed_and_zero_hashes_to_nothing() {
    let plain = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let zero = with_attrs(&plain, &[("a1", 0)]);
    assert_eq!(zero.hash(), plain.hash(), "value 0 is the default");
    let one = with_attrs(&plain, &[("a1", 1)]);
    let two = with_attrs(&plain, &[("a1", 2)]);
    assert_ne!(one.hash(), plain.hash());
    assert_ne!(one.hash(), two.hash());
    // The same position reached by two routes hashes alike, attribute
    // included (incremental hash = the one computed from scratch).
    let mut a = one.clone();
    a.apply_uci("a1a4").unwrap();
    let rebuilt = Game::from_position(a.variant().clone(), *a.position::<u64>().unwrap()).unwrap();
    assert_eq!(a.hash(), rebuilt.hash());
}

#[test]
fn attributes_survive_copy_and_undo() {
    let g = game("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1");
    let mut g = with_attrs(&g, &[("d1", 3), ("d5", 2)]);
    let before = g.clone();
    g.apply_uci("d1d5").unwrap();
    g.undo().unwrap();
    assert_eq!(g.position::<u64>(), before.position::<u64>());
    assert_eq!(attr(&g, "d1"), 3);
    assert_eq!(attr(&g, "d5"), 2);
    assert_eq!(g.hash(), before.hash());
}

#[test]
fn without_the_hook_attributes_stay_put() {
    // FIDE tables do not carry attributes: the byte is not moved (the
    // documented cost-free path; only rule layers that ask use them).
    let v = Variant::chess();
    assert!(!v.tables_u64().unwrap().uses_piece_attributes());
    let p = Game::from_fen(v.clone(), "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
    let mut pos = *p.position::<u64>().unwrap();
    pos.set_piece_attribute(sq("a1"), 4);
    pos.play_unchecked(v.tables_u64().unwrap(), Move::new(sq("a1"), sq("a4")));
    assert_eq!(pos.piece_attribute(sq("a4")), 0);
}

#[test]
fn rule_layer_edits_keep_attributes_consistent() {
    let v = Variant::with_hooks(GameDefinition::fide(), WithAttrs).unwrap();
    let t = v.tables_u64().unwrap();
    let g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let mut p = *g.position::<u64>().unwrap();
    p.set_piece_attribute(sq("a1"), 9);
    let id = p.piece_id(sq("a1"));
    assert!(p.relocate_piece(sq("a1"), sq("b2")));
    assert_eq!((p.piece_attribute(sq("b2")), p.piece_id(sq("b2"))), (9, id));
    assert_eq!(p.piece_attribute(sq("a1")), 0);
    let piece = p.remove_piece(sq("b2")).unwrap();
    assert_eq!(p.piece_attribute(sq("b2")), 0, "removal clears the byte");
    assert!(!p.set_piece_attribute(sq("b2"), 1), "empty squares hold 0");
    assert!(p.place_piece(t, sq("c3"), piece, id, 9));
    assert_eq!((p.piece_attribute(sq("c3")), p.piece_id(sq("c3"))), (9, id));
    let back = Game::from_position(v.clone(), p).unwrap();
    assert_eq!(
        back.hash(),
        p.hash(),
        "incremental hash matches a recomputed one"
    );
}
