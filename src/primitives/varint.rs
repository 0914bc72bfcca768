//! Varints: unsigned LEB128 (compact lengths, tags, tagged sizes) and the
//! zig-zag signed forms used inside record batches.
//!
//! ```text
//! 0 -> 00    127 -> 7f    128 -> 80 01    2^31-1 -> ff ff ff ff 07
//! ```

use bytes::BufMut;

use crate::error::DecodeErrorKind;

/// Encoded length of `value` as an unsigned varint, in bytes (1 to 5).
///
/// ```
/// assert_eq!(kwire::encoding::uvarint_len(127), 1);
/// assert_eq!(kwire::encoding::uvarint_len(128), 2);
/// ```
///
/// Almost every length, count and tag a message sizes is below 128, so
/// that case is one predictable comparison; the bit count (a bit scan and
/// a division by 7, slow on x86-64 without `lzcnt`) is left to the rest.
#[inline]
pub const fn uvarint_len(value: u32) -> usize {
    uvarlong_len(value as u64)
}

/// Encoded length of `value` as an unsigned varlong, in bytes (1 to 10).
#[inline]
pub const fn uvarlong_len(value: u64) -> usize {
    if value < 0x80 {
        1
    } else {
        let bits = 64 - value.leading_zeros() as usize;
        bits.div_ceil(7)
    }
}

/// Writes `value` as an unsigned varint, least-significant 7 bits first.
///
/// ```
/// let mut buf = Vec::new();
/// kwire::encoding::put_uvarint(&mut buf, 300);
/// assert_eq!(buf, [0xac, 0x02]);
/// ```
#[inline]
pub fn put_uvarint(buf: &mut impl BufMut, value: u32) {
    put_uvarlong(buf, value as u64)
}

/// Writes `value` as an unsigned varlong.
#[inline]
pub fn put_uvarlong(buf: &mut impl BufMut, value: u64) {
    if value < 0x80 {
        buf.put_u8(value as u8);
    } else {
        let (bytes, len) = uvarlong_bytes(value);
        buf.put_slice(&bytes[..len]);
    }
}

/// The varlong encoding of `value` and its length: built on the stack, so
/// that a multi-byte varint is appended with one capacity check. Not
/// generic, so compiled once.
#[inline(never)]
pub(super) fn uvarlong_bytes(mut value: u64) -> ([u8; 10], usize) {
    let mut bytes = [0u8; 10];
    let mut len = 0;
    while value >= 0x80 && len < 9 {
        bytes[len] = (value as u8) | 0x80;
        value >>= 7;
        len += 1;
    }
    bytes[len] = value as u8;
    (bytes, len + 1)
}

/// Writes `value` zig-zag encoded as a varint: `-1 -> 01`, `1 -> 02`.
#[inline]
pub fn put_varint(buf: &mut impl BufMut, value: i32) {
    put_uvarint(buf, zigzag32(value))
}

/// Writes `value` zig-zag encoded as a varlong.
#[inline]
pub fn put_varlong(buf: &mut impl BufMut, value: i64) {
    put_uvarlong(buf, zigzag64(value))
}

/// Encoded length of a zig-zag varint, in bytes.
#[inline]
pub const fn varint_len(value: i32) -> usize {
    uvarint_len(zigzag32(value))
}

/// Encoded length of a zig-zag varlong, in bytes.
#[inline]
pub const fn varlong_len(value: i64) -> usize {
    uvarlong_len(zigzag64(value))
}

/// Zig-zag maps signed to unsigned so small magnitudes stay short.
#[inline]
pub const fn zigzag32(n: i32) -> u32 {
    ((n << 1) ^ (n >> 31)) as u32
}

/// Inverse of [`zigzag32`].
#[inline]
pub const fn unzigzag32(u: u32) -> i32 {
    ((u >> 1) as i32) ^ -((u & 1) as i32)
}

/// Zig-zag for 64-bit values.
#[inline]
pub const fn zigzag64(n: i64) -> u64 {
    ((n << 1) ^ (n >> 63)) as u64
}

/// Inverse of [`zigzag64`].
#[inline]
pub const fn unzigzag64(u: u64) -> i64 {
    ((u >> 1) as i64) ^ -((u & 1) as i64)
}

/// Decodes an unsigned varint of at most 5 bytes from the front of `buf`,
/// returning the value and the bytes used. Non-minimal forms are accepted;
/// bits beyond 32 in the 5th byte are dropped, as Kafka does.
///
/// # Errors
/// [`DecodeErrorKind::VarintTooLong`] or [`DecodeErrorKind::NotEnoughBytes`].
#[inline]
pub fn decode_u32(buf: &[u8]) -> Result<(u32, usize), DecodeErrorKind> {
    let (value, len) = decode(buf, 5)?;
    Ok((value as u32, len))
}

/// Decodes an unsigned varlong of at most 10 bytes from the front of `buf`.
///
/// # Errors
/// As [`decode_u32`].
#[inline]
pub fn decode_u64(buf: &[u8]) -> Result<(u64, usize), DecodeErrorKind> {
    decode(buf, 10)
}

#[inline]
fn decode(buf: &[u8], max_len: usize) -> Result<(u64, usize), DecodeErrorKind> {
    let mut value = 0u64;
    for (i, &b) in buf.iter().take(max_len).enumerate() {
        value |= ((b & 0x7f) as u64) << (7 * i);
        if b & 0x80 == 0 {
            return Ok((value, i + 1));
        }
    }
    if buf.len() >= max_len {
        Err(DecodeErrorKind::VarintTooLong)
    } else {
        Err(DecodeErrorKind::NotEnoughBytes { needed: buf.len() + 1, remaining: buf.len() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(v: u32) -> Vec<u8> {
        let mut b = Vec::new();
        put_uvarint(&mut b, v);
        b
    }

    #[test]
    fn golden_uvarints() {
        assert_eq!(enc(0), [0x00]);
        assert_eq!(enc(127), [0x7f]);
        assert_eq!(enc(128), [0x80, 0x01]);
        assert_eq!(enc(32767), [0xff, 0xff, 0x01]);
        assert_eq!(enc(i32::MAX as u32), [0xff, 0xff, 0xff, 0xff, 0x07]);
        assert_eq!(enc(u32::MAX), [0xff, 0xff, 0xff, 0xff, 0x0f]);
        for v in [0, 1, 127, 128, 16383, 16384, 1 << 21, 1 << 28, u32::MAX] {
            assert_eq!(enc(v).len(), uvarint_len(v));
            assert_eq!(decode_u32(&enc(v)), Ok((v, enc(v).len())));
        }
    }

    #[test]
    fn uvarlong_len_at_each_byte_boundary() {
        assert_eq!(uvarlong_len(0), 1);
        for bytes in 1..10 {
            let last = (1u64 << (7 * bytes)) - 1;
            assert_eq!(uvarlong_len(last), bytes as usize, "{last}");
            assert_eq!(uvarlong_len(last + 1), bytes as usize + 1, "{}", last + 1);
        }
        assert_eq!(uvarlong_len(u64::MAX), 10);
    }

    #[test]
    fn golden_zigzag() {
        for (n, bytes) in [
            (0, vec![0x00]),
            (-1, vec![0x01]),
            (1, vec![0x02]),
            (63, vec![0x7e]),
            (-64, vec![0x7f]),
            (64, vec![0x80, 0x01]),
        ] {
            let mut b = Vec::new();
            put_varint(&mut b, n);
            assert_eq!(b, bytes, "{n}");
            assert_eq!(varint_len(n), b.len());
        }
        for n in [i32::MIN, -1, 0, 1, i32::MAX] {
            assert_eq!(unzigzag32(zigzag32(n)), n);
        }
        for n in [i64::MIN, -1, 0, 1, i64::MAX] {
            assert_eq!(unzigzag64(zigzag64(n)), n);
            let mut b = Vec::new();
            put_varlong(&mut b, n);
            assert_eq!(b.len(), varlong_len(n));
            assert_eq!(decode_u64(&b).map(|(u, _)| unzigzag64(u)), Ok(n));
        }
    }

    #[test]
    fn over_long_and_truncated() {
        // test-vectors.md V15
        assert_eq!(decode_u32(&[0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), Err(DecodeErrorKind::VarintTooLong));
        assert_eq!(decode_u32(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x00]), Err(DecodeErrorKind::VarintTooLong));
        assert_eq!(decode_u64(&[0xff; 11]), Err(DecodeErrorKind::VarintTooLong));
        assert_eq!(decode_u32(&[0x80, 0x80]), Err(DecodeErrorKind::NotEnoughBytes { needed: 3, remaining: 2 }));
        // Non-minimal but within 5 bytes is accepted, as Kafka does.
        assert_eq!(decode_u32(&[0x81, 0x80, 0x80, 0x80, 0x00]), Ok((1, 5)));
    }
}
