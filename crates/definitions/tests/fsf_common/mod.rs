//! What the Fairy-Stockfish differential tests share (this crate's
//! `fsf_differential.rs` and the presets crate's, which includes this file
//! by path): the reference's final-position record, reading the JSONL
//! reference written by `tests/data/make_fsf_reference.py`, and the FNV-1a
//! digest of a sorted move list that the reference stores.

use std::path::PathBuf;

use serde::de::DeserializeOwned;

/// The last position of a playout as Fairy-Stockfish saw it.
#[derive(serde::Deserialize)]
pub struct Final {
    /// Its FEN, as Fairy-Stockfish writes it.
    pub fen: String,
    /// How many legal moves Fairy-Stockfish lists there.
    pub count: usize,
    /// [`fnv1a32`] of those moves, sorted and joined by spaces.
    pub digest: String,
    /// Why the playout ended (`checkmate`, `stalemate`, a claim, …).
    pub end: String,
    /// The game's value for the side to move, when it has one.
    pub value: Option<i64>,
}

/// Every playout of `tests/data/fsf_reference.jsonl` of the crate under
/// test; fails with the way to regenerate the file when it is missing.
pub fn reference<T: DeserializeOwned>(manifest_dir: &str) -> Vec<T> {
    let path = PathBuf::from(manifest_dir).join("tests/data/fsf_reference.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}): regenerate it with tests/data/make_fsf_reference.py (needs pyffish 0.0.90)",
            path.display()
        )
    });
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("fsf_reference.jsonl line {}: {e}", i + 1))
        })
        .collect()
}

/// The 32-bit FNV-1a hash of `s`, as 8 hex digits (the script's digest).
pub fn fnv1a32(s: &str) -> String {
    let mut h: u32 = 0x811C_9DC5;
    for b in s.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    format!("{h:08x}")
}

/// Whether our sorted legal moves `ours` are the `count` moves whose
/// [`fnv1a32`] digest the reference stores.
pub fn same_moves(ours: &[String], count: usize, digest: &str) -> bool {
    ours.len() == count && fnv1a32(&ours.join(" ")) == digest
}

/// A ply entry of the reference, `MOVE COUNT DIGEST`: the move played and
/// the legal-move count and digest of the position it was played in.
pub fn ply_entry(entry: &str) -> Result<(&str, usize, &str), String> {
    let mut it = entry.split(' ');
    let (Some(mv), Some(count), Some(digest)) = (it.next(), it.next(), it.next()) else {
        return Err(format!("malformed ply entry `{entry}`"));
    };
    let count = count
        .parse()
        .map_err(|_| format!("bad count in `{entry}`"))?;
    Ok((mv, count, digest))
}
