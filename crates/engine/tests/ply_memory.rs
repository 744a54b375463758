//! What a ply costs a [`Game`] in heap (issue 21: the game kept a full
//! position per ply for undo, about a kilobyte; 7.2 KiB of a live server
//! game's RSS a ply). This binary holds one test, so that the counting
//! allocator sees only it.

use houserules_engine::Game;

#[global_allocator]
static A: houserules_alloc_count::Counting = houserules_alloc_count::Counting;

/// A game's heap grows by less than 200 bytes a ply over 300 plies of a
/// FIDE game that shuffles knights (Nf3 Nf6 Ng1 Ng8 …, no game end: the
/// engine judges no repetition by itself). The bound: a move and a key
/// (about 14 bytes), vectors that double (up to twice that), and a
/// position of about a kilobyte every 16 plies (about 64 bytes a ply);
/// a full position per ply, as before, is about 1,000 bytes a ply and
/// fails it.
#[test]
fn a_ply_costs_a_game_less_than_200_bytes() {
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let mut g = Game::chess();
    for uci in cycle.iter().cycle().take(10) {
        g.apply_uci(uci).unwrap();
    }
    let at_10 = houserules_alloc_count::live();
    for uci in cycle.iter().cycle().skip(10 % 4).take(290) {
        g.apply_uci(uci).unwrap();
    }
    let at_300 = houserules_alloc_count::live();
    assert_eq!(g.moves().len(), 300);
    let per_ply = (at_300 - at_10) as f64 / 290.0;
    println!("{per_ply:.0} bytes a ply");
    assert!(per_ply < 200.0, "{per_ply:.0} bytes a ply");
    // Undo still reaches the start.
    for _ in 0..300 {
        g.undo().unwrap();
    }
    assert_eq!(g.fen(), Game::chess().fen());
}
