//! Bitboards: one bit per square, index `rank * width + file` (RULINGS G1).
//!
//! The engine is generic over the bitboard width so that 8×8 chess runs on
//! `u64` at full speed while boards of up to 128 squares (12×10, 10×10, …)
//! run on `u128` through the same code.

use core::fmt::Debug;
use core::hash::Hash;
use core::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Index, IndexMut, Not,
};

/// A set of squares packed into an unsigned integer.
///
/// Implemented for `u64` (boards of up to 64 squares) and `u128` (up to 128).
pub trait BitSet:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// Number of squares the set can hold.
    const CAPACITY: usize;
    /// The empty set.
    const EMPTY: Self;
    /// A per-square array of bytes (the mailbox).
    type Bytes: Copy + Debug + Eq + Hash + Send + Sync + Index<usize, Output = u8> + IndexMut<usize>;
    /// A per-square array of piece ids.
    type Ids: Copy + Debug + Eq + Hash + Send + Sync + Index<usize, Output = u16> + IndexMut<usize>;
    /// A zeroed mailbox.
    const ZERO_BYTES: Self::Bytes;
    /// A zeroed id array.
    const ZERO_IDS: Self::Ids;

    /// The set holding only `sq`.
    fn bit(sq: u8) -> Self;
    /// Whether the set holds `sq`.
    fn has(self, sq: u8) -> bool;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// Whether the set holds at least one square.
    #[inline(always)]
    fn any(self) -> bool {
        !self.is_empty()
    }
    /// Number of squares in the set.
    fn count(self) -> u32;
    /// The lowest square (undefined for the empty set).
    fn lsb(self) -> u8;
    /// The highest square (undefined for the empty set).
    fn msb(self) -> u8;
    /// Whether the set holds more than one square.
    fn more_than_one(self) -> bool;
    /// Removes and returns the lowest square.
    #[inline(always)]
    fn pop(&mut self) -> Option<u8> {
        if self.is_empty() {
            None
        } else {
            let sq = self.lsb();
            *self = self.clear_lowest();
            Some(sq)
        }
    }
    /// The set without its lowest square.
    fn clear_lowest(self) -> Self;
    /// The set holding the squares `0..n`.
    fn below(n: usize) -> Self;
    /// Moves every square by `d` indices (up for positive `d`); squares
    /// moved off the integer are lost. Callers mask file wrap-around.
    fn shift(self, d: i32) -> Self;
    /// Widens a 64-square set (identity for `u64`).
    fn from_u64(b: u64) -> Self;
    /// The low 64 squares (identity for `u64`).
    fn to_u64(self) -> u64;
    /// Widens the set to 128 squares (identity for `u128`): rule layers
    /// that serve every board width keep their square sets in a `u128`.
    fn to_u128(self) -> u128;
    /// The set from a 128-square set; squares the type cannot hold (64 and
    /// up for `u64`) are dropped (identity for `u128`).
    fn from_u128(b: u128) -> Self;
    /// Iterates over the squares, lowest first.
    #[inline(always)]
    fn iter(self) -> Squares<Self> {
        Squares(self)
    }
}

/// Iterator over the squares of a [`BitSet`], lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares<B>(pub B);

impl<B: BitSet> Iterator for Squares<B> {
    type Item = u8;
    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        self.0.pop()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

macro_rules! impl_bitset {
    ($t:ty, $n:expr) => {
        impl BitSet for $t {
            const CAPACITY: usize = $n;
            const EMPTY: Self = 0;
            type Bytes = [u8; $n];
            type Ids = [u16; $n];
            const ZERO_BYTES: Self::Bytes = [0; $n];
            const ZERO_IDS: Self::Ids = [0; $n];
            #[inline(always)]
            fn bit(sq: u8) -> Self {
                1 << sq
            }
            #[inline(always)]
            fn has(self, sq: u8) -> bool {
                (self >> sq) & 1 != 0
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lsb(self) -> u8 {
                self.trailing_zeros() as u8
            }
            #[inline(always)]
            fn msb(self) -> u8 {
                ($n - 1 - self.leading_zeros()) as u8
            }
            #[inline(always)]
            fn more_than_one(self) -> bool {
                self & self.wrapping_sub(1) != 0
            }
            #[inline(always)]
            fn clear_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn shift(self, d: i32) -> Self {
                if d >= 0 {
                    self << d
                } else {
                    self >> (-d)
                }
            }
            #[inline(always)]
            fn from_u64(b: u64) -> Self {
                b as $t
            }
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn from_u128(b: u128) -> Self {
                b as $t
            }
            #[inline(always)]
            fn below(n: usize) -> Self {
                if n >= $n {
                    !0
                } else {
                    (1 << n) - 1
                }
            }
        }
    };
}

impl_bitset!(u64, 64);
impl_bitset!(u128, 128);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pop_order_and_count() {
        let b: u64 = (1 << 3) | (1 << 40) | (1 << 63);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![3, 40, 63]);
        assert_eq!(b.count(), 3);
        assert_eq!(b.msb(), 63);
        let c: u128 = 1 << 119;
        assert_eq!(c.lsb(), 119);
        assert_eq!(c.msb(), 119);
        assert!(!c.more_than_one());
        assert_eq!(<u128 as BitSet>::below(120).count(), 120);
        // Widening keeps every square; narrowing drops squares 64 and up.
        assert_eq!(b.to_u128(), b as u128);
        assert_eq!(<u64 as BitSet>::from_u128(c | 0b101), 0b101);
        assert_eq!(<u128 as BitSet>::from_u128(c), c);
    }
}
