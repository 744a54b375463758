//! cozy-chess perft, the reference of the FIDE perft benchmarks (engine and
//! definitions crates; the presets bench has no cozy-chess dependency, so
//! this is a module of its own beside `mod.rs`).

/// Perft of `board` to `depth` with cozy-chess; with `bulk`, the last ply
/// is counted from the move lists without playing it.
pub fn perft(board: &cozy_chess::Board, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if bulk && depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
        return nodes;
    }
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += perft(&child, depth - 1, bulk);
        }
        false
    });
    nodes
}
