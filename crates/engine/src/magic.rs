//! Magic bitboards for rook and bishop rides on 8×8 boards.
//!
//! Any piece whose shapes include all four unlimited orthogonal (or
//! diagonal) rides uses these tables instead of four ray scans. The magic
//! multipliers are found once per process by a deterministic search (a
//! fixed-seed generator, so every run finds the same numbers).

use std::sync::OnceLock;

#[derive(Clone, Copy, Debug, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

/// Rook and bishop attack tables, plus `between` for aligned squares.
#[derive(Debug)]
pub(crate) struct Magics {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    table: Vec<u64>,
    /// Squares strictly between two aligned squares (rank, file, diagonal).
    between: Vec<u64>,
}

const ROOK_DIRS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn slow_attacks(sq: usize, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut out = 0;
    for &(dx, dy) in dirs {
        let (mut x, mut y) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            x += dx;
            y += dy;
            if !(0..8).contains(&x) || !(0..8).contains(&y) {
                break;
            }
            let b = 1u64 << (y * 8 + x);
            out |= b;
            if occ & b != 0 {
                break;
            }
        }
    }
    out
}

fn relevant_mask(sq: usize, dirs: &[(i32, i32)]) -> u64 {
    let mut out = 0;
    for &(dx, dy) in dirs {
        let (mut x, mut y) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            x += dx;
            y += dy;
            let (nx, ny) = (x + dx, y + dy);
            if !(0..8).contains(&nx) || !(0..8).contains(&ny) {
                break;
            }
            out |= 1u64 << (y * 8 + x);
        }
    }
    out
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn find(dirs: &[(i32, i32)], table: &mut Vec<u64>, rng: &mut Rng) -> [Magic; 64] {
    let mut out = [Magic::default(); 64];
    let mut occs = Vec::with_capacity(4096);
    let mut atts = Vec::with_capacity(4096);
    let mut used = Vec::new();
    for (sq, slot) in out.iter_mut().enumerate() {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        occs.clear();
        atts.clear();
        let mut sub = 0u64;
        loop {
            occs.push(sub);
            atts.push(slow_attacks(sq, sub, dirs));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let size = 1usize << bits;
        let shift = 64 - bits;
        used.clear();
        used.resize(size, u64::MAX);
        let magic = loop {
            let m = rng.sparse();
            if (mask.wrapping_mul(m) >> 56).count_ones() < 6 {
                continue;
            }
            used.iter_mut().for_each(|u| *u = u64::MAX);
            let ok = occs.iter().zip(&atts).all(|(&o, &a)| {
                let i = (o.wrapping_mul(m) >> shift) as usize;
                if used[i] == u64::MAX {
                    used[i] = a;
                    true
                } else {
                    used[i] == a
                }
            });
            if ok {
                break m;
            }
        };
        let offset = table.len() as u32;
        table.resize(table.len() + size, 0);
        for (&o, &a) in occs.iter().zip(&atts) {
            table[offset as usize + (o.wrapping_mul(magic) >> shift) as usize] = a;
        }
        *slot = Magic {
            mask,
            magic,
            shift,
            offset,
        };
    }
    out
}

impl Magics {
    fn build() -> Magics {
        let mut table = Vec::new();
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let rook = find(&ROOK_DIRS, &mut table, &mut rng);
        let bishop = find(&BISHOP_DIRS, &mut table, &mut rng);
        let mut between = vec![0u64; 64 * 64];
        for a in 0..64usize {
            for &(dx, dy) in ROOK_DIRS.iter().chain(&BISHOP_DIRS) {
                let (mut x, mut y) = ((a % 8) as i32, (a / 8) as i32);
                let mut acc = 0u64;
                loop {
                    x += dx;
                    y += dy;
                    if !(0..8).contains(&x) || !(0..8).contains(&y) {
                        break;
                    }
                    let b = (y * 8 + x) as usize;
                    between[a * 64 + b] = acc;
                    acc |= 1 << b;
                }
            }
        }
        Magics {
            rook,
            bishop,
            table,
            between,
        }
    }

    /// The shared tables (built on first use).
    pub(crate) fn get() -> &'static Magics {
        static M: OnceLock<Magics> = OnceLock::new();
        M.get_or_init(Magics::build)
    }

    #[inline(always)]
    pub(crate) fn rook(&self, sq: u8, occ: u64) -> u64 {
        let m = &self.rook[sq as usize];
        self.table[m.offset as usize + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
    }

    #[inline(always)]
    pub(crate) fn bishop(&self, sq: u8, occ: u64) -> u64 {
        let m = &self.bishop[sq as usize];
        self.table[m.offset as usize + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
    }

    #[inline(always)]
    pub(crate) fn between(&self, a: u8, b: u8) -> u64 {
        self.between[a as usize * 64 + b as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magics_agree_with_ray_walks() {
        let m = Magics::get();
        let mut rng = Rng(7);
        for _ in 0..2000 {
            let occ = rng.next() & rng.next();
            for sq in 0..64u8 {
                assert_eq!(m.rook(sq, occ), slow_attacks(sq as usize, occ, &ROOK_DIRS));
                assert_eq!(
                    m.bishop(sq, occ),
                    slow_attacks(sq as usize, occ, &BISHOP_DIRS)
                );
            }
        }
        // a1..h8 diagonal: between a1 and d4 are b2, c3.
        assert_eq!(m.between(0, 27), (1 << 9) | (1 << 18));
        assert_eq!(m.between(0, 1), 0);
        assert_eq!(m.between(0, 10), 0);
    }
}
