//! Starting layouts by id.
//!
//! | id | FEN |
//! |----|-----|
//! | `standard` | the FIDE start position |
//! | `chess960:N` | Chess960 position `N` (0–959) in the standard Scharnagl numbering, Shredder-FEN castling (518 is the standard array) |
//! | `chess960:random:SEED` | a Chess960 position chosen from `SEED` (SplitMix64) |
//! | `dual-classic` | queens replaced by a second king (d1/d8), no castling (spec, RULINGS P16) |
//! | `knightmate` | queens replaced by a knight: `rnbnkbnr`, castling kept (spec, tsv) |
//! | `monster` | White king e1 and pawns c2–f2 against the full black army (spec "Monster") |
//! | `pawns-only` | kings and pawns only (our choice: the spec names the layout but gives no FEN; kings stay so that royalty and check keep their meaning) |

use serde::Serialize;

use crate::error::PresetError;

/// A starting layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Layout {
    /// FIDE.
    Standard,
    /// Chess960 by Scharnagl index (0–959).
    Chess960(u16),
    /// Dual Classic.
    DualClassic,
    /// Knightmate (`rnbnkbnr`).
    Knightmate,
    /// Monster.
    Monster,
    /// Kings and pawns.
    PawnsOnly,
}

/// Ids of the layouts, for listings.
pub const LAYOUT_IDS: &[&str] = &[
    "standard",
    "chess960",
    "dual-classic",
    "knightmate",
    "monster",
    "pawns-only",
];

impl Layout {
    /// Parses a layout id: `standard`, `chess960:N`, `chess960:random:SEED`,
    /// `dual-classic`, `knightmate`, `monster`, `pawns-only`.
    ///
    /// # Errors
    /// [`PresetError::BadLayout`].
    pub fn parse(s: &str) -> Result<Layout, PresetError> {
        let bad = |reason: &str| PresetError::BadLayout {
            id: s.to_string(),
            reason: reason.to_string(),
        };
        let s2 = s.trim();
        Ok(match s2 {
            "standard" => Layout::Standard,
            "dual-classic" => Layout::DualClassic,
            "knightmate" => Layout::Knightmate,
            "monster" => Layout::Monster,
            "pawns-only" => Layout::PawnsOnly,
            "chess960" => {
                return Err(bad(
                    "give an index (chess960:518) or a seed (chess960:random:42)",
                ))
            }
            _ => {
                if let Some(rest) = s2.strip_prefix("chess960:") {
                    if let Some(seed) = rest.strip_prefix("random:") {
                        let seed: u64 = seed
                            .parse()
                            .map_err(|_| bad("the seed must be an unsigned 64-bit integer"))?;
                        Layout::chess960_random(seed)
                    } else {
                        let n: u16 = rest
                            .parse()
                            .map_err(|_| bad("the index must be a number from 0 to 959"))?;
                        if n > 959 {
                            return Err(bad("the index must be a number from 0 to 959"));
                        }
                        Layout::Chess960(n)
                    }
                } else {
                    return Err(bad(&format!(
                        "unknown layout (known: {})",
                        LAYOUT_IDS.join(", ")
                    )));
                }
            }
        })
    }

    /// A Chess960 layout chosen by `seed` (SplitMix64, reproducible).
    pub fn chess960_random(seed: u64) -> Layout {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Layout::Chess960((z % 960) as u16)
    }

    /// The id (`chess960:N` for Chess960).
    pub fn id(&self) -> String {
        match self {
            Layout::Standard => "standard".into(),
            Layout::Chess960(n) => format!("chess960:{n}"),
            Layout::DualClassic => "dual-classic".into(),
            Layout::Knightmate => "knightmate".into(),
            Layout::Monster => "monster".into(),
            Layout::PawnsOnly => "pawns-only".into(),
        }
    }

    /// The start FEN (FIDE letters; Shredder castling for Chess960).
    pub fn fen(&self) -> String {
        match self {
            Layout::Standard => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            Layout::DualClassic => "rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1".into(),
            Layout::Knightmate => "rnbnkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBNKBNR w KQkq - 0 1".into(),
            Layout::Monster => "rnbqkbnr/pppppppp/8/8/8/8/2PPPP2/4K3 w kq - 0 1".into(),
            Layout::PawnsOnly => "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1".into(),
            Layout::Chess960(n) => {
                let rank = chess960_back_rank(*n);
                let white: String = rank.iter().collect();
                let black = white.to_ascii_lowercase();
                let files: Vec<usize> = rank
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| **c == 'R')
                    .map(|(i, _)| i)
                    .collect();
                let letters: String = files
                    .iter()
                    .rev()
                    .map(|&f| (b'A' + f as u8) as char)
                    .collect();
                format!(
                    "{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {}{} - 0 1",
                    letters,
                    letters.to_ascii_lowercase()
                )
            }
        }
    }
}

/// The white back rank of Chess960 position `n` (0–959; larger values are
/// taken modulo 960) in Scharnagl's numbering.
pub fn chess960_back_rank(n: u16) -> [char; 8] {
    let mut n = (n % 960) as usize;
    let mut r = [' '; 8];
    r[(n % 4) * 2 + 1] = 'B';
    n /= 4;
    r[(n % 4) * 2] = 'B';
    n /= 4;
    let q = n % 6;
    n /= 6;
    place(&mut r, q, 'Q');
    const KN: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = KN[n % 10];
    // Place the second first so the first index still counts the same
    // empties.
    place(&mut r, b, 'N');
    place(&mut r, a, 'N');
    place(&mut r, 0, 'R');
    place(&mut r, 0, 'K');
    place(&mut r, 0, 'R');
    r
}

fn place(r: &mut [char; 8], nth_empty: usize, c: char) {
    if let Some(i) = r
        .iter()
        .enumerate()
        .filter(|(_, x)| **x == ' ')
        .map(|(i, _)| i)
        .nth(nth_empty)
    {
        r[i] = c;
    }
}
