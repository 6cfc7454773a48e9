//! A hasher for keys made of machine words (bitboards, boards): one
//! multiply per word, as the Firefox hash does, instead of SipHash's
//! rounds. No key comes from an adversary, so flooding is no concern; the
//! encoder's clause set and the proof-game search's tables use it.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// The hasher: rotate, mix in the word, multiply (from a non-zero seed,
/// so leading zero words count).
#[derive(Clone, Copy, Debug)]
pub struct WordHasher(u64);

impl Default for WordHasher {
    fn default() -> WordHasher {
        WordHasher(0x243f_6a88_85a3_08d3)
    }
}

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_u128(&mut self, key: u128) {
        self.write_u64(key as u64);
        self.write_u64((key >> 64) as u64);
    }
}

/// A map hashed by [`WordHasher`].
pub type WordMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

/// A set hashed by [`WordHasher`].
pub type WordSet<K> = HashSet<K, BuildHasherDefault<WordHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_that_differ_hash_apart() {
        let hash = |words: &[u64]| {
            let mut h = WordHasher::default();
            words.iter().for_each(|&w| h.write_u64(w));
            h.finish()
        };
        assert_ne!(hash(&[1, 2]), hash(&[2, 1]));
        assert_ne!(hash(&[0, 1]), hash(&[1]));
        let mut set = WordSet::default();
        assert!(set.insert(7u128 << 64) && !set.insert(7u128 << 64) && set.insert(7));
    }
}
