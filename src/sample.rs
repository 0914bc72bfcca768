//! Random values for property tests (feature `sample`): each generated
//! struct gets a [`Sample`] impl that fills the fields a version carries,
//! null only where that version allows it.
//!
//! ```
//! use kwire::sample::{Sample, SampleGen};
//! let mut g = SampleGen::new(7);
//! let a: Vec<i32> = Sample::sample(&mut g, 0);
//! assert!(a.len() <= 3);
//! ```

use bytes::Bytes;

use crate::embedded::{EmbeddedHeader, EmbeddedMessage};
use crate::primitives::Uuid;
use crate::tagged::RawTaggedField;

/// A small deterministic generator (SplitMix64), seeded by the test.
#[derive(Debug, Clone)]
pub struct SampleGen(u64);

impl SampleGen {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        SampleGen(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// True about once in `n` calls.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.next_u64().is_multiple_of(n.max(1))
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// Zero to two unknown tagged fields with ascending tags from `known` up.
    pub fn unknown_tagged_fields(&mut self, known: u32) -> Vec<RawTaggedField> {
        let mut tag = known;
        (0..self.below(3))
            .map(|_| {
                tag += self.below(200) as u32;
                let field = RawTaggedField::new(tag, Sample::sample(self, 0));
                tag += 1;
                field
            })
            .collect()
    }
}

/// A type that can produce a random value shaped to a version.
pub trait Sample {
    /// A random value that `version` can carry.
    fn sample(g: &mut SampleGen, version: i16) -> Self;
}

macro_rules! sample_int {
    ($($ty:ty),*) => {$(
        impl Sample for $ty {
            fn sample(g: &mut SampleGen, _: i16) -> Self {
                // Favour small values and the edges, as real messages do.
                match g.below(4) {
                    0 => 0,
                    1 => <$ty>::MAX,
                    2 => <$ty>::MIN,
                    _ => g.next_u64() as $ty,
                }
            }
        }
    )*};
}

sample_int!(i8, i16, u16, i32, u32, i64);

impl Sample for bool {
    fn sample(g: &mut SampleGen, _: i16) -> Self {
        g.one_in(2)
    }
}

impl Sample for f64 {
    fn sample(g: &mut SampleGen, _: i16) -> Self {
        // Any finite value: NaN never equals itself.
        let f = f64::from_bits(g.next_u64());
        if f.is_finite() {
            f
        } else {
            g.below(1000) as f64 / 8.0
        }
    }
}

impl Sample for Uuid {
    fn sample(g: &mut SampleGen, _: i16) -> Self {
        Uuid::from_u128((u128::from(g.next_u64()) << 64) | u128::from(g.next_u64()))
    }
}

impl Sample for crate::ByteString {
    fn sample(g: &mut SampleGen, _: i16) -> Self {
        const CHARS: &[&str] = &["a", "k", "7", "-", ".", "é", "文", "🦀"];
        (0..g.below(6)).map(|_| CHARS[g.below(CHARS.len() as u64) as usize]).collect::<String>().into()
    }
}

impl Sample for Bytes {
    fn sample(g: &mut SampleGen, _: i16) -> Self {
        (0..g.below(6)).map(|_| g.next_u64() as u8).collect::<Vec<u8>>().into()
    }
}

impl Sample for EmbeddedMessage {
    fn sample(g: &mut SampleGen, version: i16) -> Self {
        EmbeddedMessage(Bytes::sample(g, version))
    }
}

impl Sample for EmbeddedHeader {
    fn sample(g: &mut SampleGen, version: i16) -> Self {
        EmbeddedHeader(Bytes::sample(g, version))
    }
}

impl<T: Sample> Sample for Vec<T> {
    fn sample(g: &mut SampleGen, version: i16) -> Self {
        (0..g.below(4)).map(|_| T::sample(g, version)).collect()
    }
}
