//! Magic bitboards for rook and bishop rides on 8×8 boards.
//!
//! Any piece whose shapes include all four unlimited orthogonal (or
//! diagonal) rides uses these tables instead of four ray scans. The magic
//! multipliers below were found by the search in this module's tests
//! (`search_finds_valid_magics`, a fixed-seed generator); the tables are
//! filled from them once per process, which takes well under a millisecond.

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
    /// Attack sets, padded to `TABLE_SIZE` so that a masked index needs no
    /// bounds check.
    table: Box<[u64; TABLE_SIZE]>,
    /// Squares strictly between two aligned squares (rank, file, diagonal).
    between: Box<[u64; 64 * 64]>,
    /// The half-line from a square (excluded) through an aligned square to
    /// the edge; empty when they are not aligned.
    ray: Box<[u64; 64 * 64]>,
}

/// The attack table rounded up to a power of two (107,648 entries used).
const TABLE_SIZE: usize = 1 << 17;

const ROOK_MAGICS: [u64; 64] = [
    0x0980008011400020,
    0x8340004410002000,
    0x0880200090008268,
    0x0080080080100004,
    0x8100110004020800,
    0x0300010004000822,
    0x08801a0029000080,
    0x8100050001204882,
    0x0844800081400320,
    0x0804402010004000,
    0x0108802003100480,
    0x0004808008001000,
    0x0003001801001014,
    0x0002000200041008,
    0x0004008108042210,
    0x0105000100009042,
    0x0400808000400021,
    0xc100404010002000,
    0x0060008010002088,
    0x0400808008001000,
    0x4440808008000400,
    0x1002008004000280,
    0x40024400300d1248,
    0x0010020000408104,
    0x0101008200204200,
    0x8020002040005000,
    0x4100100080802000,
    0x4008006a80100280,
    0x1020080080040080,
    0x0004010040020040,
    0x0018a12400080290,
    0x6140004200008104,
    0x4000400020800090,
    0x2020002080804000,
    0x0000408202002010,
    0x0080100501000820,
    0x0000800400800800,
    0x000a200408014010,
    0x0100800200800100,
    0xa00800570200008c,
    0x008000406000c010,
    0x1040100028002000,
    0x0048200100110040,
    0x0068490210030020,
    0x1009080005010010,
    0x2142000804010100,
    0x1001080110840002,
    0x1801004400820001,
    0x010440208d020200,
    0x0000400020008080,
    0x0200200080100280,
    0x0000100020090100,
    0x0204008008020480,
    0x8104010040020040,
    0x78000201b0080400,
    0x0040800051002880,
    0x0050108001002041,
    0x208a801100614003,
    0x0006002042089082,
    0x0011090004201001,
    0x1002001004200802,
    0x0005000208040001,
    0x0002002701ac0822,
    0x000010250184004a,
];
const BISHOP_MAGICS: [u64; 64] = [
    0xc0a0012206040ea0,
    0x8010228200420001,
    0x0110008220400400,
    0x02445c0080106000,
    0x0044042004008100,
    0x0880900420408c05,
    0x0201080110080002,
    0x0000108094202000,
    0x0000042002040108,
    0x0000623024110042,
    0x0086100094811002,
    0x0000044502002080,
    0x0100460211400040,
    0x0008109004200004,
    0x0202320084844000,
    0x8040042421041009,
    0x201010c05102008c,
    0x1020888208024080,
    0x0108000c80290200,
    0x8048000420425203,
    0x0005000090402000,
    0x2080400201104100,
    0x8820420111101000,
    0x4ac0302208821802,
    0x000440001002a840,
    0x2002200010041080,
    0x1012080201004400,
    0x8440040002410120,
    0x1090820084010400,
    0x2084852012021000,
    0x12040062c1011003,
    0x02008205e1090080,
    0x088c102808042080,
    0x0802102200904280,
    0x8020209002080020,
    0x2200080800060a00,
    0x20c0004010010100,
    0x0802004100821003,
    0x0008024400008080,
    0x0000840102008090,
    0x0030a40420244007,
    0x0a19084210011282,
    0x0004082090019806,
    0x6108004208020080,
    0x0081200410110100,
    0x1040810701010208,
    0x0282047832012080,
    0x0010020099000020,
    0x000e010422400840,
    0x10204208b0089090,
    0x081004440c048000,
    0x88c0180084040001,
    0x3100020803040080,
    0x890070a041210c00,
    0x0020200101010a09,
    0x0004100240410400,
    0x0006004402080200,
    0x0801062484042000,
    0x00010002d7441004,
    0x0810080000208800,
    0x0000020808030411,
    0x1450001020014440,
    0x004060081081a288,
    0x0044011404108a00,
];

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

#[cfg(test)]
struct Rng(u64);
#[cfg(test)]
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

/// Searches magic multipliers (how the constants were made).
#[cfg(test)]
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

/// Fills the attack table for known multipliers.
fn fill(dirs: &[(i32, i32)], magics: &[u64; 64], table: &mut Vec<u64>) -> [Magic; 64] {
    let mut out = [Magic::default(); 64];
    for (sq, slot) in out.iter_mut().enumerate() {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let shift = 64 - bits;
        let offset = table.len() as u32;
        table.resize(table.len() + (1usize << bits), 0);
        let magic = magics[sq];
        let mut sub = 0u64;
        loop {
            let i = offset as usize + (sub.wrapping_mul(magic) >> shift) as usize;
            let a = slow_attacks(sq, sub, dirs);
            // A valid multiplier maps equal attack sets together only.
            debug_assert!(table[i] == 0 || table[i] == a, "bad magic for square {sq}");
            table[i] = a;
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
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
        let mut table = Vec::with_capacity(107_648);
        let rook = fill(&ROOK_DIRS, &ROOK_MAGICS, &mut table);
        let bishop = fill(&BISHOP_DIRS, &BISHOP_MAGICS, &mut table);
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
        assert!(table.len() <= TABLE_SIZE, "magic table fits its padding");
        table.resize(TABLE_SIZE, 0);
        let table: Box<[u64; TABLE_SIZE]> = table
            .into_boxed_slice()
            .try_into()
            .expect("table has TABLE_SIZE entries");
        let mut ray = vec![0u64; 64 * 64];
        for a in 0..64usize {
            for &(dx, dy) in ROOK_DIRS.iter().chain(&BISHOP_DIRS) {
                let (mut x, mut y) = ((a % 8) as i32, (a / 8) as i32);
                let mut half = 0u64;
                loop {
                    x += dx;
                    y += dy;
                    if !(0..8).contains(&x) || !(0..8).contains(&y) {
                        break;
                    }
                    half |= 1 << (y * 8 + x);
                }
                let mut rest = half;
                while rest != 0 {
                    let b = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    ray[a * 64 + b] = half;
                }
            }
        }
        let ray: Box<[u64; 64 * 64]> = ray.into_boxed_slice().try_into().expect("64 x 64 entries");
        let between: Box<[u64; 64 * 64]> = between
            .into_boxed_slice()
            .try_into()
            .expect("64 x 64 entries");
        Magics {
            rook,
            bishop,
            table,
            between,
            ray,
        }
    }

    /// The shared tables (built on first use).
    pub(crate) fn get() -> &'static Magics {
        static M: OnceLock<Magics> = OnceLock::new();
        M.get_or_init(Magics::build)
    }

    // Indices are masked (squares are below 64 and every table offset plus
    // index below `TABLE_SIZE` by construction): no bounds checks.
    #[inline(always)]
    pub(crate) fn rook(&self, sq: u8, occ: u64) -> u64 {
        let m = &self.rook[sq as usize & 63];
        self.table[(m.offset as usize + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize)
            & (TABLE_SIZE - 1)]
    }

    #[inline(always)]
    pub(crate) fn bishop(&self, sq: u8, occ: u64) -> u64 {
        let m = &self.bishop[sq as usize & 63];
        self.table[(m.offset as usize + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize)
            & (TABLE_SIZE - 1)]
    }

    #[inline(always)]
    pub(crate) fn between(&self, a: u8, b: u8) -> u64 {
        self.between[(a as usize & 63) * 64 + (b as usize & 63)]
    }

    /// The half-line from `a` (excluded) through `b` to the edge (empty
    /// when not aligned).
    #[inline(always)]
    pub(crate) fn ray(&self, a: u8, b: u8) -> u64 {
        self.ray[(a as usize & 63) * 64 + (b as usize & 63)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_finds_valid_magics() {
        // The constants came from this search; it must still succeed and
        // give the same multipliers.
        let mut table = Vec::new();
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let rook = find(&ROOK_DIRS, &mut table, &mut rng);
        let bishop = find(&BISHOP_DIRS, &mut table, &mut rng);
        for sq in 0..64 {
            assert_eq!(rook[sq].magic, ROOK_MAGICS[sq]);
            assert_eq!(bishop[sq].magic, BISHOP_MAGICS[sq]);
        }
    }

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
        // Half-lines run from the first square (excluded) through the
        // second to the edge.
        assert_eq!(m.ray(0, 27), 0x8040_2010_0804_0200);
        assert_eq!(m.ray(27, 0), (1 << 18) | (1 << 9) | 1);
        assert_eq!(m.ray(9, 14), 0xfc00);
        assert_eq!(m.ray(0, 10), 0);
    }
}
