//! A two-row board of up to 2 x 8 holes as 16 byte lanes, a lane per hole: one SSE2
//! register on x86_64, one `u128` elsewhere. A sowing is then one addition of a vector
//! with a byte per hole it feeds: the whole laps as `rounds` in every lane, the last
//! partial lap as a run of ones around the ring of holes, read from a table. Which holes
//! are empty is one compare and one `movemask`; no lane can carry into the next, since a
//! board holds at most 255 counters in all.
//!
//! Lane `i` is hole `i` of [`crate::rows::Board`] (`0..m` South's row, `m..2m` North's),
//! so the vector is the board's first 16 bytes.
//!
//! SSE2 is part of the x86_64 baseline, so no feature detection is needed: nothing here
//! uses a later instruction (no `pshufb`; the one reversal the rules need, of the row
//! across the board, is done on the 16-bit mask of empty holes). Other targets get the
//! same operations on a `u128` ([`swar::Lanes`]), tested on every target against the
//! same definitions (and selected on x86_64 too by `--cfg mancala_portable`).

/// The largest row the vector holds.
pub const MAX_ROW: usize = 8;

/// 16 bytes aligned for one vector load: a table row, or one half of a game state.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[repr(C, align(16))]
pub struct Row16(pub [u8; 16]);

/// The operations the rules use on 16 byte lanes; the names say what each does to every
/// lane.
pub trait LaneOps: Copy {
    fn load(row: &Row16) -> Self;
    fn to_row(self) -> Row16;
    /// Every lane `b`.
    fn splat(b: u8) -> Self;
    /// Lanes 0..8 from the bytes of `lo`, 8..16 from those of `hi` (little-endian).
    fn from_u64s(lo: u64, hi: u64) -> Self;
    /// Lane by lane, wrapping (no lane carries into the next).
    fn add(self, other: Self) -> Self;
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    /// `self` with the bits of `mask` cleared.
    fn and_not(self, mask: Self) -> Self;
    /// Bit `i` set when lane `i` is `b`.
    fn eq_bits(self, b: u8) -> u32;
    /// Bit `i` set when lane `i` is zero.
    #[inline(always)]
    fn zero_bits(self) -> u32 {
        self.eq_bits(0)
    }
    /// The sum of all lanes.
    fn sum(self) -> u32;
    /// The smallest lane.
    fn min_lane(self) -> u8;
    /// Lane `i` is lane `15 - i`.
    fn reverse(self) -> Self;
}

// `--cfg mancala_portable` (in RUSTFLAGS) selects the portable lanes on x86_64 too, to
// run the whole test suite on them: `RUSTFLAGS="--cfg mancala_portable" cargo test -p
// mancala-core`.
#[cfg(all(target_arch = "x86_64", not(mancala_portable)))]
pub use sse2::Lanes;
#[cfg(any(not(target_arch = "x86_64"), mancala_portable))]
pub use swar::Lanes;

/// The lanes as one SSE2 register.
#[cfg(target_arch = "x86_64")]
pub mod sse2 {
    use super::{LaneOps, Row16};
    use std::arch::x86_64::*;

    #[derive(Copy, Clone, Debug)]
    pub struct Lanes(__m128i);

    // SAFETY (every `unsafe` block below): each intrinsic is SSE2, which every x86_64
    // processor has (it is enabled in the target's baseline features); the only memory
    // read is `_mm_load_si128` from a `Row16`, 16 bytes aligned to 16.
    impl LaneOps for Lanes {
        #[inline(always)]
        fn load(row: &Row16) -> Self {
            Lanes(unsafe { _mm_load_si128(row as *const Row16 as *const __m128i) })
        }
        #[inline(always)]
        fn to_row(self) -> Row16 {
            let mut row = Row16::default();
            unsafe { _mm_store_si128(&mut row as *mut Row16 as *mut __m128i, self.0) };
            row
        }
        #[inline(always)]
        fn splat(b: u8) -> Self {
            Lanes(unsafe { _mm_set1_epi8(b as i8) })
        }
        #[inline(always)]
        fn from_u64s(lo: u64, hi: u64) -> Self {
            Lanes(unsafe { _mm_set_epi64x(hi as i64, lo as i64) })
        }
        #[inline(always)]
        fn add(self, other: Self) -> Self {
            Lanes(unsafe { _mm_add_epi8(self.0, other.0) })
        }
        #[inline(always)]
        fn and(self, other: Self) -> Self {
            Lanes(unsafe { _mm_and_si128(self.0, other.0) })
        }
        #[inline(always)]
        fn or(self, other: Self) -> Self {
            Lanes(unsafe { _mm_or_si128(self.0, other.0) })
        }
        #[inline(always)]
        fn and_not(self, mask: Self) -> Self {
            Lanes(unsafe { _mm_andnot_si128(mask.0, self.0) })
        }
        #[inline(always)]
        fn eq_bits(self, b: u8) -> u32 {
            unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(self.0, _mm_set1_epi8(b as i8))) as u32 }
        }
        #[inline(always)]
        fn sum(self) -> u32 {
            unsafe {
                let s = _mm_sad_epu8(self.0, _mm_setzero_si128());
                (_mm_cvtsi128_si32(s) + _mm_extract_epi16::<4>(s)) as u32
            }
        }
        #[inline(always)]
        fn min_lane(self) -> u8 {
            unsafe {
                let v = _mm_min_epu8(self.0, _mm_srli_si128::<8>(self.0));
                let v = _mm_min_epu8(v, _mm_srli_si128::<4>(v));
                let v = _mm_min_epu8(v, _mm_srli_si128::<2>(v));
                let v = _mm_min_epu8(v, _mm_srli_si128::<1>(v));
                _mm_cvtsi128_si32(v) as u8
            }
        }
        #[inline(always)]
        fn reverse(self) -> Self {
            // The bytes of each 16-bit lane swapped, then the 16-bit lanes of each half
            // reversed, then the halves swapped: six one-cycle instructions.
            unsafe {
                let x = self.0;
                let v = _mm_or_si128(_mm_slli_epi16::<8>(x), _mm_srli_epi16::<8>(x));
                let v = _mm_shufflehi_epi16::<0x1B>(_mm_shufflelo_epi16::<0x1B>(v));
                Lanes(_mm_shuffle_epi32::<0x4E>(v))
            }
        }
    }
}

/// The lanes as one `u128`, SIMD within a register: the portable version, compiled and
/// tested on every target.
pub mod swar {
    use super::{LaneOps, Row16};

    #[derive(Copy, Clone, Debug)]
    pub struct Lanes(u128);

    /// A one in every byte lane.
    const ONES: u128 = u128::MAX / 0xFF;

    impl LaneOps for Lanes {
        #[inline(always)]
        fn load(row: &Row16) -> Self {
            Lanes(u128::from_le_bytes(row.0))
        }
        #[inline(always)]
        fn to_row(self) -> Row16 {
            Row16(self.0.to_le_bytes())
        }
        #[inline(always)]
        fn splat(b: u8) -> Self {
            Lanes(ONES * b as u128)
        }
        #[inline(always)]
        fn from_u64s(lo: u64, hi: u64) -> Self {
            Lanes(lo as u128 | (hi as u128) << 64)
        }
        #[inline(always)]
        fn add(self, other: Self) -> Self {
            // Low seven bits added, then the high bits by exclusive or: no carry leaves a
            // lane.
            const LOW7: u128 = ONES * 0x7F;
            let low = (self.0 & LOW7) + (other.0 & LOW7);
            Lanes(low ^ ((self.0 ^ other.0) & !LOW7))
        }
        #[inline(always)]
        fn and(self, other: Self) -> Self {
            Lanes(self.0 & other.0)
        }
        #[inline(always)]
        fn or(self, other: Self) -> Self {
            Lanes(self.0 | other.0)
        }
        #[inline(always)]
        fn and_not(self, mask: Self) -> Self {
            Lanes(self.0 & !mask.0)
        }
        #[inline(always)]
        fn eq_bits(self, b: u8) -> u32 {
            const LOW7: u128 = ONES * 0x7F;
            const HIGH: u128 = ONES * 0x80;
            let x = self.0 ^ (ONES * b as u128);
            // The high bit of every lane that is not zero (exact: no carry leaves a lane).
            let nonzero = (((x & LOW7) + LOW7) | x) & HIGH;
            // The high bits of 8 lanes gathered into the top byte by one multiplication:
            // each partial product lands on its own bit.
            let gather = |w: u64| (w >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
            !(gather(nonzero as u64) | gather((nonzero >> 64) as u64) << 8) as u32 & 0xFFFF
        }
        #[inline(always)]
        fn sum(self) -> u32 {
            self.0.to_le_bytes().iter().map(|&b| b as u32).sum()
        }
        #[inline(always)]
        fn min_lane(self) -> u8 {
            self.0.to_le_bytes().into_iter().min().unwrap_or(0)
        }
        #[inline(always)]
        fn reverse(self) -> Self {
            Lanes(self.0.swap_bytes())
        }
    }
}

/// All bits of the lane of hole `i` (`i` < 16).
#[inline(always)]
pub fn hole(i: usize) -> Lanes {
    Lanes::load(&HOLES[i])
}

static HOLES: [Row16; 16] = {
    let mut t = [Row16([0; 16]); 16];
    let mut i = 0;
    while i < 16 {
        t[i].0[i] = 0xFF;
        i += 1;
    }
    t
};

/// All bits of the lowest `len` lanes (`len` <= 16): the board's holes when `len` is
/// their number.
#[inline(always)]
pub fn first(len: usize) -> Lanes {
    Lanes::load(&FIRST[len])
}

static FIRST: [Row16; 17] = {
    let mut t = [Row16([0; 16]); 17];
    let mut len = 0;
    while len <= 16 {
        let mut i = 0;
        while i < len {
            t[len].0[i] = 0xFF;
            i += 1;
        }
        len += 1;
    }
    t
};

/// All bits of the lanes whose bit is set in `bits` (16 bits): one table row per byte.
#[inline(always)]
pub fn expand(bits: u32) -> Lanes {
    Lanes::from_u64s(
        EXPAND[(bits & 0xFF) as usize],
        EXPAND[(bits >> 8 & 0xFF) as usize],
    )
}

/// Byte `i` of row `b` is 0xFF when bit `i` of `b` is set.
static EXPAND: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 == 1 {
                t[b] |= 0xFF << (8 * i);
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// A one in each lane of the run of `len` holes that starts at hole `from` and goes round
/// a ring of `n` holes (`n` even, `from` < `n` <= 16, `len` <= `n`): one load from
/// `RING_RUNS`.
#[inline(always)]
pub fn ring_run(n: usize, from: usize, len: usize) -> Lanes {
    Lanes::load(&RING_RUNS[n / 2 - 1][from][len])
}

/// [`ring_run`] for every even ring of up to 16 holes: `[n / 2 - 1][from][len]` (35 KB,
/// of which a game reads the 4 KB of its own board).
static RING_RUNS: [[[Row16; 17]; 16]; 8] = {
    let mut t = [[[Row16([0; 16]); 17]; 16]; 8];
    let mut r = 0;
    while r < 8 {
        let n = 2 * (r + 1);
        let mut from = 0;
        while from < n {
            let mut len = 0;
            while len <= n {
                let mut k = 0;
                while k < len {
                    t[r][from][len].0[(from + k) % n] = 1;
                    k += 1;
                }
                len += 1;
            }
            from += 1;
        }
        r += 1;
    }
    t
};

/// Byte `k` of row `b` is the `k`-th set bit of `b`: the holes of a bit mask in order,
/// to write a list of moves without a branch per move, or to pick the `k`-th move.
pub static SET_BITS: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let (mut i, mut k) = (0, 0);
        while i < 8 {
            if b >> i & 1 == 1 {
                t[b] |= (i as u64) << (8 * k);
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// A bit drawn from the mask `bits` of legal moves (8 bits): `pick(count)` chooses the
/// `k`-th set bit, returned with the count; `None` when no bit is set. How Kalah and
/// Afrika draw a move without a list ([`crate::Game::pick_move`]).
#[inline(always)]
pub fn pick_bit(bits: u32, pick: impl FnOnce(usize) -> usize) -> Option<(usize, usize)> {
    if bits == 0 {
        return None;
    }
    let count = count(bits);
    Some((nth_set_bit(bits, pick(count)), count))
}

/// The `k`-th set bit of `bits` (8 bits, `k` below their count).
#[inline(always)]
pub fn nth_set_bit(bits: u32, k: usize) -> usize {
    (SET_BITS[bits as usize & 0xFF] >> (8 * k)) as u8 as usize
}

/// The number of set bits of `bits` (8 bits): one load, where `count_ones` is a dozen
/// instructions on the x86_64 baseline (which has no `popcnt`).
#[inline(always)]
pub fn count(bits: u32) -> usize {
    COUNTS[bits as usize & 0xFF] as usize
}

static COUNTS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u32).count_ones() as u8;
        b += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::SplitMix;

    fn lane<L: LaneOps>(x: L, i: usize) -> u8 {
        x.to_row().0[i]
    }

    /// Each operation of `L` against its definition, lane by lane, on random lanes
    /// (often 0, 1 and 0xFF, the values the rules test for).
    fn check_ops<L: LaneOps>() {
        let mut rng = SplitMix(7);
        let draw = |rng: &mut SplitMix| {
            let mut r = Row16::default();
            for b in &mut r.0 {
                *b = match rng.below(4) {
                    0 => rng.below(3) as u8,
                    1 => 0xFF,
                    _ => rng.next_u64() as u8,
                };
            }
            r
        };
        for _ in 0..20_000 {
            let (a, b) = (draw(&mut rng), draw(&mut rng));
            let (x, y) = (L::load(&a), L::load(&b));
            assert_eq!(x.to_row(), a);
            let v = rng.next_u64() as u8;
            for i in 0..16 {
                assert_eq!(lane(x.add(y), i), a.0[i].wrapping_add(b.0[i]));
                assert_eq!(lane(x.and(y), i), a.0[i] & b.0[i]);
                assert_eq!(lane(x.or(y), i), a.0[i] | b.0[i]);
                assert_eq!(lane(x.and_not(y), i), a.0[i] & !b.0[i]);
                assert_eq!(lane(L::splat(v), i), v);
                assert_eq!(x.eq_bits(v) >> i & 1, (a.0[i] == v) as u32);
                assert_eq!(x.zero_bits() >> i & 1, (a.0[i] == 0) as u32);
            }
            assert_eq!(x.eq_bits(v) >> 16, 0);
            assert_eq!(x.sum(), a.0.iter().map(|&b| b as u32).sum::<u32>());
            assert_eq!(x.min_lane(), *a.0.iter().min().unwrap());
            let mut reversed = a;
            reversed.0.reverse();
            assert_eq!(x.reverse().to_row(), reversed);
            let (lo, hi) = (rng.next_u64(), rng.next_u64());
            let mut want = [0u8; 16];
            want[..8].copy_from_slice(&lo.to_le_bytes());
            want[8..].copy_from_slice(&hi.to_le_bytes());
            assert_eq!(L::from_u64s(lo, hi).to_row().0, want);
        }
    }

    #[test]
    fn vector_lanes_agree_with_their_definitions() {
        check_ops::<Lanes>();
    }

    #[test]
    fn portable_lanes_agree_with_their_definitions() {
        check_ops::<swar::Lanes>();
    }

    /// Each table against its definition, lane by lane, over every argument.
    #[test]
    fn tables_agree_with_their_definitions_lane_by_lane() {
        for n in (2..=16).step_by(2) {
            for from in 0..n {
                for len in 0..=n {
                    let run = ring_run(n, from, len);
                    for i in 0..16 {
                        let inside = i < n && (i + n - from) % n < len;
                        assert_eq!(lane(run, i), inside as u8, "n {n} from {from} len {len}");
                    }
                }
            }
        }
        for i in 0..16 {
            for j in 0..16 {
                assert_eq!(lane(hole(i), j), if i == j { 0xFF } else { 0 });
            }
        }
        for len in 0..=16 {
            for i in 0..16 {
                assert_eq!(lane(first(len), i), if i < len { 0xFF } else { 0 });
            }
        }
        for b in (0..1u32 << 16).step_by(7) {
            for i in 0..16 {
                assert_eq!(lane(expand(b), i), if b >> i & 1 == 1 { 0xFF } else { 0 });
            }
        }
        for (b, &row) in SET_BITS.iter().enumerate() {
            let set: Vec<usize> = (0..8).filter(|i| b >> i & 1 == 1).collect();
            for (k, &i) in set.iter().enumerate() {
                assert_eq!(nth_set_bit(b as u32, k), i, "{b:#x}");
            }
            assert_eq!(row >> (8 * set.len()).min(63), 0, "{b:#x}");
        }
        for b in 0..256 {
            assert_eq!(count(b), b.count_ones() as usize);
        }
    }
}
