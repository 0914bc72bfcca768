//! Mutations of a valid encoding, for property tests that feed decoders
//! hostile input: a flipped byte, a cut, inserted or removed bytes, a length
//! or count overwritten with an edge value.

use proptest::prelude::*;

/// One change to a valid encoding.
#[derive(Debug, Clone)]
pub enum Mutation {
    /// XOR a byte.
    Flip(usize, u8),
    /// Cut the bytes at a position.
    Truncate(usize),
    /// Insert bytes at a position.
    Insert(usize, Vec<u8>),
    /// Remove up to `n` bytes at a position.
    Remove(usize, usize),
    /// Overwrite 4 bytes with an int32 (a length, count or size).
    SetI32(usize, i32),
    /// Overwrite 2 bytes with an int16.
    SetI16(usize, i16),
}

/// Values of an int32 at the edges lengths, counts and sizes meet.
pub fn interesting_i32() -> impl Strategy<Value = i32> {
    prop_oneof![
        Just(-1),
        Just(0),
        Just(i32::MIN),
        Just(i32::MAX),
        Just(0x7fff),
        Just(0x8000),
        Just(1 << 20),
        any::<i32>(),
    ]
}

/// One random [`Mutation`].
pub fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), 1..=255u8).prop_map(|(i, x)| Mutation::Flip(i, x)),
        1 => any::<usize>().prop_map(Mutation::Truncate),
        2 => (any::<usize>(), prop_oneof![
            proptest::collection::vec(any::<u8>(), 1..8),
            Just(vec![0xff; 5]),
            Just(vec![0xff; 10]),
            Just(vec![0x80, 0x80, 0x80, 0x80, 0x80, 0x01]),
            Just(vec![0x7f, 0xff, 0xff, 0xff]),
        ]).prop_map(|(i, b)| Mutation::Insert(i, b)),
        1 => (any::<usize>(), 1..16usize).prop_map(|(i, n)| Mutation::Remove(i, n)),
        2 => (any::<usize>(), interesting_i32()).prop_map(|(i, v)| Mutation::SetI32(i, v)),
        1 => (any::<usize>(), prop_oneof![Just(-1i16), Just(i16::MIN), Just(i16::MAX), any::<i16>()])
            .prop_map(|(i, v)| Mutation::SetI16(i, v)),
    ]
}

/// `bytes` with `mutations` applied in turn (positions taken modulo the length).
pub fn mutate(bytes: &[u8], mutations: &[Mutation]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for m in mutations {
        let len = out.len();
        let at = |i: usize| if len == 0 { 0 } else { i % len };
        match m {
            Mutation::Flip(i, x) if len > 0 => out[at(*i)] ^= x,
            Mutation::Truncate(i) => out.truncate(i % (len + 1)),
            Mutation::Insert(i, b) => {
                let i = i % (len + 1);
                out.splice(i..i, b.iter().copied());
            }
            Mutation::Remove(i, n) if len > 0 => {
                let i = at(*i);
                out.drain(i..(i + n).min(len));
            }
            Mutation::SetI32(i, v) if len >= 4 => {
                let i = i % (len - 3);
                out[i..i + 4].copy_from_slice(&v.to_be_bytes());
            }
            Mutation::SetI16(i, v) if len >= 2 => {
                let i = i % (len - 1);
                out[i..i + 2].copy_from_slice(&v.to_be_bytes());
            }
            _ => {}
        }
    }
    out
}
