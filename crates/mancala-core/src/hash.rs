//! Position keys: a fast mix of the state's bytes, computed on demand.
//!
//! States are 16-32 bytes, so hashing the whole state costs a few multiplications and no
//! tables; nothing has to be kept incrementally in `play`.

const K1: u64 = 0x9E37_79B9_7F4A_7C15;
const K2: u64 = 0xBF58_476D_1CE4_E5B9;
const K3: u64 = 0x94D0_49BB_1331_11EB;

/// The SplitMix64 finaliser: a bijection on u64 with full avalanche.
#[inline(always)]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(K2);
    z = (z ^ (z >> 27)).wrapping_mul(K3);
    z ^ (z >> 31)
}

/// The `i`-th little-endian 64-bit word of `bytes`: keys and counts read a board's holes
/// in whole words (their unused tail is zero), which costs no copy.
#[inline(always)]
pub fn word(bytes: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap())
}

/// Hashes a byte slice (up to a few dozen bytes) into 64 bits.
#[inline]
pub fn hash_bytes(seed: u64, bytes: &[u8]) -> u64 {
    // Mix the seed on its own first: XORed straight into the first data word, a seed bit
    // and a data bit could cancel (a real collision this test suite once found).
    let mut h = mix64(seed.wrapping_mul(K2) ^ K1.wrapping_mul(bytes.len() as u64 + 1));
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        h = mix64(h ^ w).wrapping_add(K1);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut buf = [0u8; 8];
        buf[..rest.len()].copy_from_slice(rest);
        h = mix64(h ^ u64::from_le_bytes(buf)).wrapping_add(K1);
    }
    mix64(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_and_data_bits_do_not_cancel() {
        let mut a = [0u8; 8];
        a[4] = 1;
        assert_ne!(hash_bytes(1 << 32, &[0u8; 8]), hash_bytes(0, &a));
        for bit in 0..64 {
            let mut b = [0u8; 8];
            b[bit / 8] = 1 << (bit % 8);
            assert_ne!(
                hash_bytes(1u64 << bit, &[0u8; 8]),
                hash_bytes(0, &b),
                "bit {bit}"
            );
        }
    }

    #[test]
    fn distinct_inputs_give_distinct_keys() {
        let mut seen = std::collections::HashSet::new();
        for a in 0u8..16 {
            for b in 0u8..16 {
                for len in 1..12 {
                    let mut v = vec![0u8; len];
                    v[0] = a;
                    v[len - 1] ^= b;
                    seen.insert((len, a, b, hash_bytes(7, &v)));
                }
            }
        }
        let keys: std::collections::HashSet<u64> = seen.iter().map(|t| t.3).collect();
        // (a, b) with len 1 collapse to a^b, so count the distinct byte strings instead.
        let strings: std::collections::HashSet<Vec<u8>> = seen
            .iter()
            .map(|&(len, a, b, _)| {
                let mut v = vec![0u8; len];
                v[0] = a;
                v[len - 1] ^= b;
                v
            })
            .collect();
        assert_eq!(keys.len(), strings.len());
    }
}
