//! The board's geometry as the runtime sees it: width and height, square
//! numbering `rank * width + file` from a1 = 0 (RULINGS G1, modifier-rulings
//! E3), square names with files `a`… and ranks `1`… (`j10` on a 10×10
//! board), and offsets that stay on the board.

/// Width and height of the board (1–16 each). Copy, two bytes: passed by
/// value wherever squares are read or named.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geom {
    /// Files (a = 0).
    pub w: u8,
    /// Ranks (1 = 0).
    pub h: u8,
}

impl Geom {
    /// The 8×8 board of FIDE chess.
    pub const CHESS: Geom = Geom { w: 8, h: 8 };
    /// Most files or ranks a board has (the engine's limit: 16 a side).
    pub const MAX_SIDE: u8 = 16;
    /// Most squares a board has (the engine's `u128` bitboards).
    pub const MAX_SQUARES: u16 = 128;

    /// Whether some board the engine holds (at most 16 files, 16 ranks
    /// and 128 squares) has a square on file `f` and rank `r` (from 0):
    /// the smallest such board is `(f + 1) × (r + 1)`. Descriptors
    /// checked without a board accept exactly these (`p8` on 16×8, `h16`
    /// on 8×16, `j10` on 10×10; never `p9`).
    pub fn on_some_board(f: u8, r: u8) -> bool {
        f < Self::MAX_SIDE
            && r < Self::MAX_SIDE
            && (u16::from(f) + 1) * (u16::from(r) + 1) <= Self::MAX_SQUARES
    }

    /// The `(file, rank)` (from 0) a square name such as `e4` or `j10`
    /// spells, on any board: a letter `a`–`p` and a rank `1`–`16`
    /// written without a leading zero. No board is checked.
    pub fn spell(s: &str) -> Option<(u8, u8)> {
        let b = s.as_bytes();
        let (&f, digits) = b.split_first()?;
        if !(b'a'..=b'p').contains(&f) || digits.is_empty() || digits.len() > 2 {
            return None;
        }
        if digits[0] == b'0' || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let r = digits.iter().fold(0u8, |n, d| n * 10 + (d - b'0'));
        (1..=Self::MAX_SIDE)
            .contains(&r)
            .then_some((f - b'a', r - 1))
    }

    /// Whether a square name is on some board the engine holds
    /// ([`Geom::on_some_board`]).
    pub fn name_on_some_board(s: &str) -> bool {
        Self::spell(s).is_some_and(|(f, r)| Self::on_some_board(f, r))
    }

    /// Whether this is the 8×8 board (the compiled legality and its
    /// precomputed line tables are for it alone).
    #[inline]
    pub fn is_chess(self) -> bool {
        self == Geom::CHESS
    }

    /// Number of squares.
    #[inline]
    pub fn squares(self) -> u8 {
        self.w * self.h
    }

    /// The file of `sq` (a = 0).
    #[inline]
    pub fn file(self, sq: u8) -> u8 {
        sq % self.w
    }

    /// The rank of `sq` (1 = 0).
    #[inline]
    pub fn rank(self, sq: u8) -> u8 {
        sq / self.w
    }

    /// The square on file `f`, rank `r`, if both are on the board.
    #[inline]
    pub fn at(self, f: i32, r: i32) -> Option<u8> {
        ((0..i32::from(self.w)).contains(&f) && (0..i32::from(self.h)).contains(&r))
            .then(|| (r * i32::from(self.w) + f) as u8)
    }

    /// `sq` moved by `(dx, dy)` files and ranks, if still on the board
    /// (off-board offsets are clipped, never wrapped).
    #[inline]
    pub fn offset(self, sq: u8, dx: i32, dy: i32) -> Option<u8> {
        self.at(i32::from(self.file(sq)) + dx, i32::from(self.rank(sq)) + dy)
    }

    /// The name of `sq` (`e4`, `j10`).
    pub fn name(self, sq: u8) -> String {
        // Not `format!`: names are written for every event of every ply.
        let mut s = String::with_capacity(3);
        s.push((b'a' + self.file(sq)) as char);
        let rank = self.rank(sq) + 1;
        if rank >= 10 {
            s.push((b'0' + rank / 10) as char);
        }
        s.push((b'0' + rank % 10) as char);
        s
    }

    /// The square a name such as `e4` or `j10` names on this board.
    pub fn parse(self, s: &str) -> Option<u8> {
        let b = s.as_bytes();
        let (&f, digits) = b.split_first()?;
        if !f.is_ascii_lowercase() || digits.is_empty() || digits.len() > 2 {
            return None;
        }
        if digits[0] == b'0' || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let r = digits
            .iter()
            .fold(0i32, |n, d| n * 10 + i32::from(d - b'0'));
        self.at(i32::from(f - b'a'), r - 1)
    }

    /// A file named by a letter (`"j"`) on this board.
    pub fn parse_file(self, s: &str) -> Option<u8> {
        match s.as_bytes() {
            [c] if c.is_ascii_lowercase() && c - b'a' < self.w => Some(c - b'a'),
            _ => None,
        }
    }

    /// A rank named by its number (`"10"`) on this board.
    pub fn parse_rank(self, s: &str) -> Option<u8> {
        let n: u8 = s.parse().ok().filter(|_| !s.starts_with(['0', '+']))?;
        (1..=self.h).contains(&n).then(|| n - 1)
    }

    /// Every square of the board as a 128-square mask (bit `sq` for square
    /// `sq`).
    #[inline]
    pub fn all(self) -> u128 {
        match u32::from(self.w) * u32::from(self.h) {
            128.. => !0,
            n => (1u128 << n) - 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Geom;

    #[test]
    fn names_and_numbering_follow_rank_times_width_plus_file() {
        let g = Geom { w: 10, h: 10 };
        // j10: file 9, rank 9, square 9 * 10 + 9 = 99 (RULINGS G1).
        assert_eq!(g.parse("j10"), Some(99));
        assert_eq!(g.name(99), "j10");
        // a1 = 0, b2 = 1 * 10 + 1 = 11.
        assert_eq!(g.parse("b2"), Some(11));
        assert_eq!(g.parse("k1"), None);
        assert_eq!(g.parse("a11"), None);
        assert_eq!(g.parse("a01"), None);
        let s = Geom { w: 6, h: 6 };
        // f6 on 6×6: 5 * 6 + 5 = 35; g1 and a7 are off the board.
        assert_eq!(s.parse("f6"), Some(35));
        assert_eq!(s.parse("g1"), None);
        assert_eq!(s.parse("a7"), None);
        // An offset off the edge is clipped, not wrapped: f6 + (1, 0).
        assert_eq!(s.offset(35, 1, 0), None);
        assert_eq!(s.offset(35, -1, -1), Some(28));
        assert_eq!(s.all().count_ones(), 36);
        assert_eq!(Geom::CHESS.all(), u128::from(u64::MAX));
        // 16×8 fills all 128 bits; 10×10 holds 100 squares.
        assert_eq!(Geom { w: 16, h: 8 }.all(), !0);
        assert_eq!(Geom { w: 10, h: 10 }.all().count_ones(), 100);
        // Names some board has: p8 (16×8), h16 (8×16), j10; never p9
        // (16 × 9 = 144 squares) or q1 (17 files).
        for n in ["a1", "p8", "h16", "j10", "l10"] {
            assert!(Geom::name_on_some_board(n), "{n}");
        }
        for n in ["p9", "q1", "a17", "a0", "i16", "e04"] {
            assert!(!Geom::name_on_some_board(n), "{n}");
        }
        assert_eq!(s.parse_file("f"), Some(5));
        assert_eq!(s.parse_file("g"), None);
        assert_eq!(g.parse_rank("10"), Some(9));
        assert_eq!(s.parse_rank("7"), None);
    }
}
