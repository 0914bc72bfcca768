//! `string`: int16 length then UTF-8 (classic), or uvarint length+1 then
//! UTF-8 (compact). At most 32767 bytes in both encodings.
//!
//! ```text
//! classic "rk": 00 02 72 6b      compact "rk": 03 72 6b
//! classic null: ff ff            compact null: 00
//! ```

use bytes::BufMut;
use bytestring::ByteString;

use super::nullable::{decode_non_null, null_not_allowed};
use super::varint::uvarint_len;
use super::{Decode, DecodeNullable, Encode, Input, Nullable, Reader, Writer};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};

/// Longest string Kafka's encodings carry, in bytes.
pub const MAX_STRING_LEN: usize = i16::MAX as usize;

#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(super) fn put_str(buf: &mut Writer<'_>, s: &str, flexible: bool) -> Result<(), EncodeError> {
    // A classic length, or a compact one of one byte (nearly every string
    // is shorter than 127 bytes), is written inline; the rest, and the
    // too-long error, in one shared function.
    if !flexible && s.len() <= MAX_STRING_LEN {
        buf.put_i16(s.len() as i16);
    } else if flexible && s.len() < 0x7f {
        buf.put_u8(s.len() as u8 + 1);
    } else {
        put_long_str_len(buf, s.len(), flexible)?;
    }
    buf.put_slice(s.as_bytes());
    Ok(())
}

/// The length of a compact string of 127 bytes or more, or the error for
/// a string longer than an int16 length allows.
#[inline(never)]
fn put_long_str_len(buf: &mut Writer<'_>, len: usize, flexible: bool) -> Result<(), EncodeError> {
    let (prefix, n) = long_str_len(len)?;
    if flexible {
        buf.put_slice(&prefix[..n]);
    } else {
        buf.put_i16(len as i16);
    }
    Ok(())
}

/// The compact length prefix of a string of `len` bytes (`len` + 1 as a
/// uvarint, in the first of the returned bytes), or the error for a string
/// longer than an int16 length allows. Not generic, so compiled once.
#[inline(never)]
pub(crate) fn long_str_len(len: usize) -> Result<([u8; 10], usize), EncodeError> {
    if len > MAX_STRING_LEN {
        return Err(super::bytes::too_long(len));
    }
    Ok(super::varint::uvarlong_bytes(len as u64 + 1))
}

#[inline]
pub(super) fn str_size(s: &str, flexible: bool) -> usize {
    s.len() + if flexible { uvarint_len(s.len() as u32 + 1) } else { 2 }
}

/// The length prefix of a string: `None` for null.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn read_str_len<B: Input>(r: &mut Reader<B>, flexible: bool) -> Result<Option<usize>, DecodeError> {
    if flexible {
        // A one-byte length (a string of up to 126 bytes) needs no further
        // check; null and longer lengths are read in one shared function.
        if let Some(b @ 1..0x80) = r.peek_u8() {
            r.skip(1)?;
            return Ok(Some(usize::from(b) - 1));
        }
        return read_long_compact_str_len(r);
    }
    // An int16 cannot exceed the longest string.
    match r.read_i16()? {
        n if n < 0 => Ok(None),
        n => Ok(Some(n as usize)),
    }
}

/// A compact string length that is null or takes more than one byte.
#[inline(never)]
fn read_long_compact_str_len<B: Input>(r: &mut Reader<B>) -> Result<Option<usize>, DecodeError> {
    let len = match r.read_uvarint()? {
        0 => return Ok(None),
        n => (n - 1) as usize,
    };
    if len > MAX_STRING_LEN {
        return Err(r.error(DecodeErrorKind::InvalidLength(len as i64)));
    }
    Ok(Some(len))
}

/// `bytes`, read at offset `start`, as UTF-8.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn utf8_at(bytes: &[u8], start: usize) -> Result<&str, DecodeError> {
    if !is_utf8(bytes) {
        return Err(invalid_utf8(start));
    }
    // SAFETY: checked just above.
    Ok(unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// True when no byte has its high bit set, for up to 32 bytes (most names
/// and ids): two overlapping loads and one test, where the standard check
/// loops over words and then bytes. False for longer input, which
/// [`is_long_or_not_ascii_utf8`] checks.
#[inline]
fn is_short_ascii(bytes: &[u8]) -> bool {
    if let (Some(a), Some(b)) = (bytes.first_chunk::<16>(), bytes.last_chunk::<16>()) {
        if bytes.len() > 32 {
            return false;
        }
        return (u128::from_ne_bytes(*a) | u128::from_ne_bytes(*b)) & (u128::MAX / 0xff * 0x80) == 0;
    }
    if let (Some(a), Some(b)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
        return (u64::from_ne_bytes(*a) | u64::from_ne_bytes(*b)) & (u64::MAX / 0xff * 0x80) == 0;
    }
    if let (Some(a), Some(b)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        return (u32::from_ne_bytes(*a) | u32::from_ne_bytes(*b)) & (u32::MAX / 0xff * 0x80) == 0;
    }
    bytes.iter().all(|&b| b < 0x80)
}

/// Whether `bytes` are UTF-8, for the borrowed views' strings. Out of line:
/// the views' string decode is inlined where each string field is read.
/// `extern "C"`, so its callers know it cannot unwind (a panic in it would
/// abort) and need no cleanup path around the call; only Rust calls it. The
/// short ASCII test needs no stack frame; the rest is a tail call.
#[inline(never)]
#[allow(improper_ctypes_definitions)]
extern "C" fn is_utf8(bytes: &[u8]) -> bool {
    is_short_ascii(bytes) || is_long_or_not_ascii_utf8(bytes)
}

/// Whether `bytes` are UTF-8, for input longer than 32 bytes or not all
/// ASCII ([`is_short_ascii`] checks the rest).
#[inline(never)]
fn is_long_or_not_ascii_utf8(bytes: &[u8]) -> bool {
    bytes.is_ascii() || std::str::from_utf8(bytes).is_ok()
}

/// The error for a string whose bytes, from offset `start`, are not UTF-8.
#[cold]
#[inline(never)]
fn invalid_utf8(start: usize) -> DecodeError {
    DecodeError::new(DecodeErrorKind::InvalidUtf8, start)
}

impl Encode for ByteString {
    #[inline]
    fn encode_value(&self, buf: &mut Writer<'_>, _: i16, flexible: bool) -> Result<(), EncodeError> {
        put_str(buf, self, flexible)
    }

    #[inline]
    fn value_size(&self, _: i16, flexible: bool) -> usize {
        str_size(self, flexible)
    }
}

impl Decode for ByteString {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn decode_value(r: &mut Reader, version: i16, flexible: bool) -> Result<Self, DecodeError> {
        let mut s = ByteString::new();
        s.decode_value_into(r, version, flexible)?;
        Ok(s)
    }

    /// Makes the string empty (and lets go of the input it shared).
    #[inline]
    fn reset_value(&mut self) {
        *self = ByteString::new();
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn decode_value_into(&mut self, r: &mut Reader, _: i16, flexible: bool) -> Result<(), DecodeError> {
        let offset = r.offset();
        match read_str_len(r, flexible)? {
            Some(len) => read_str_into(self, r, len),
            None => Err(null_not_allowed(offset)),
        }
    }
}

/// Reads `len` bytes, checks them as UTF-8 and puts them in `place` as a
/// slice of the reader's `Bytes` (no copy, no allocation), releasing the
/// string it held; on an error it holds what it held. One shared function:
/// inlined into every string field's read, it cost the core library's
/// build 3.6% more compiler work (docs/performance.md, "The core build
/// counted in instructions").
#[inline(never)]
fn read_str_into(place: &mut ByteString, r: &mut Reader, len: usize) -> Result<(), DecodeError> {
    str_into(place, r, len)
}

/// [`read_str_into`] for a nullable string: `len` is `None` for null.
#[inline(never)]
fn read_option_str_into(place: &mut Option<ByteString>, r: &mut Reader, len: Option<usize>) -> Result<(), DecodeError> {
    match (len, place.as_mut()) {
        (Some(len), Some(s)) => str_into(s, r, len),
        (Some(len), None) => {
            // Set only once read, so that an error leaves the `None`.
            let mut s = ByteString::new();
            str_into(&mut s, r, len)?;
            *place = Some(s);
            Ok(())
        }
        (None, _) => {
            *place = None;
            Ok(())
        }
    }
}

/// The body of [`read_str_into`] and [`read_option_str_into`].
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn str_into(place: &mut ByteString, r: &mut Reader, len: usize) -> Result<(), DecodeError> {
    r.ensure_remaining(len)?;
    // Short ASCII is checked here, anything else in a tail call, so that no
    // value waits across a call but the slice's reference count.
    // SAFETY (all three blocks): `len` bytes remain, checked just above.
    if is_short_ascii(unsafe { r.next_slice_unchecked(len) }) {
        unsafe { take_str(place, r, len) };
        Ok(())
    } else {
        unsafe { read_other_str_into(place, r, len) }
    }
}

/// [`read_str_into`] for strings longer than 32 bytes or not all ASCII.
///
/// # Safety
/// At least `len` bytes remain (the caller checked).
#[inline(never)]
unsafe fn read_other_str_into(place: &mut ByteString, r: &mut Reader, len: usize) -> Result<(), DecodeError> {
    // SAFETY (all three blocks): `len` bytes remain, by the caller's check.
    let bytes = unsafe { r.next_slice_unchecked(len) };
    if !is_long_or_not_ascii_utf8(bytes) {
        let text = lossy(bytes);
        r.skip(len)?;
        drop(std::mem::replace(place, text));
        return Ok(());
    }
    unsafe { take_str(place, r, len) };
    Ok(())
}

/// A string whose bytes are not UTF-8, read as Kafka reads it (Java's
/// `new String(bytes, UTF_8)` in `Readable.readString`): each invalid
/// sequence becomes one U+FFFD, the replacement character. Java cuts the
/// sequences as Unicode's maximal subparts (what `String::from_utf8_lossy`
/// does) but for the UTF-16 surrogates: a lead byte `ED` followed by `A0`
/// to `BF` takes the next byte too when it is a continuation byte, and is
/// one sequence (`ED A0 80` is one U+FFFD, not three). The only string an
/// owned value does not share with the input: an allocation of at most
/// three times the bytes read, which are all present.
#[cold]
#[inline(never)]
fn lossy(bytes: &[u8]) -> ByteString {
    const REPLACEMENT: &str = "\u{fffd}";
    let mut text = String::with_capacity(bytes.len());
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(valid) => {
                text.push_str(valid);
                break;
            }
            Err(e) => {
                let (valid, after) = rest.split_at(e.valid_up_to());
                // SAFETY: `from_utf8` found these bytes valid.
                text.push_str(unsafe { std::str::from_utf8_unchecked(valid) });
                text.push_str(REPLACEMENT);
                let invalid = match after {
                    [0xed, 0xa0..=0xbf, third, ..] if third & 0xc0 == 0x80 => 3,
                    [0xed, 0xa0..=0xbf, ..] => 2,
                    _ => e.error_len().unwrap_or(after.len()),
                };
                rest = &after[invalid..];
            }
        }
    }
    ByteString::from(text)
}

/// Moves past the next `len` bytes and puts them in `place`. The old
/// string is released last, so nothing waits across that call.
///
/// # Safety
/// At least `len` bytes remain, and they are UTF-8.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
unsafe fn take_str(place: &mut ByteString, r: &mut Reader, len: usize) {
    // SAFETY: by the caller's checks.
    let text = unsafe { ByteString::from_bytes_unchecked(r.read_bytes_unchecked(len)) };
    drop(std::mem::replace(place, text));
}

impl Nullable for ByteString {
    const CLASSIC_NULL_SIZE: usize = 2;

    #[inline]
    fn put_classic_null(buf: &mut Writer<'_>) {
        buf.put_i16(-1);
    }
}

impl DecodeNullable for ByteString {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn decode_option(r: &mut Reader, version: i16, flexible: bool) -> Result<Option<Self>, DecodeError> {
        let mut s = None;
        Self::decode_option_into(&mut s, r, version, flexible)?;
        Ok(s)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn decode_option_into(place: &mut Option<Self>, r: &mut Reader, _: i16, flexible: bool) -> Result<(), DecodeError> {
        let len = read_str_len(r, flexible)?;
        read_option_str_into(place, r, len)
    }
}

/// A borrowed view's string: a `&'a str` of the input, checked as UTF-8.
impl<'a> Decode<&'a [u8]> for &'a str {
    #[inline]
    fn decode_value(r: &mut Reader<&'a [u8]>, version: i16, flexible: bool) -> Result<Self, DecodeError> {
        decode_non_null(r, version, flexible)
    }

    #[inline]
    fn decode_value_into(&mut self, r: &mut Reader<&'a [u8]>, version: i16, flexible: bool) -> Result<(), DecodeError> {
        *self = decode_non_null(r, version, flexible)?;
        Ok(())
    }
}

impl<'a> DecodeNullable<&'a [u8]> for &'a str {
    #[inline]
    fn decode_option(r: &mut Reader<&'a [u8]>, _: i16, flexible: bool) -> Result<Option<Self>, DecodeError> {
        let Some(len) = read_str_len(r, flexible)? else {
            return Ok(None);
        };
        let start = r.offset();
        utf8_at(r.read_bytes(len)?, start).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use bytes::Bytes;

    use super::{is_short_ascii, is_utf8, ByteString};
    use crate::primitives::{Decode, Reader};

    /// `text` as a string of the encoding (compact when `flexible`).
    fn encoded(text: &str, flexible: bool) -> Bytes {
        let mut input = if flexible { vec![text.len() as u8 + 1] } else { (text.len() as i16).to_be_bytes().to_vec() };
        input.extend_from_slice(text.as_bytes());
        Bytes::from(input)
    }

    #[test]
    fn decoded_strings_share_the_input_and_decode_into_replaces_the_value() {
        for flexible in [false, true] {
            let mut into = ByteString::from("x".repeat(40));
            for text in ["", "rk", "consumer-orders-service-1", &"y".repeat(126), "unclean.leader.election.enable"] {
                let input = encoded(text, flexible);
                let mut r = Reader::new(input.clone());
                into.decode_value_into(&mut r, 0, flexible).unwrap();
                assert_eq!(into, text, "flexible {flexible}");
                assert_eq!(r.remaining(), 0);
                let fresh = ByteString::decode_value(&mut Reader::new(input.clone()), 0, flexible).unwrap();
                assert_eq!(fresh, text);
                if !text.is_empty() {
                    // The string's bytes are the input's, after the length prefix.
                    let prefix = input.len() - text.len();
                    assert_eq!(fresh.as_bytes().as_ptr(), input[prefix..].as_ptr());
                    assert_eq!(into.as_bytes().as_ptr(), input[prefix..].as_ptr());
                }
            }
        }
    }

    #[test]
    fn decode_into_checks_short_long_and_non_ascii_strings_and_keeps_the_value_on_errors() {
        use super::DecodeNullable;
        for flexible in [false, true] {
            let prefix = if flexible { 1 } else { 2 };
            // Valid: short and long ASCII, and UTF-8 beyond ASCII ("é") in both.
            for text in ["é", "naïve-topic", &"é".repeat(20), &"a".repeat(33)] {
                let mut into = ByteString::from("kept");
                into.decode_value_into(&mut Reader::new(encoded(text, flexible)), 0, flexible).unwrap();
                assert_eq!(into, text, "flexible {flexible}");
                let mut option = None;
                ByteString::decode_option_into(&mut option, &mut Reader::new(encoded(text, flexible)), 0, flexible)
                    .unwrap();
                assert_eq!(option.as_deref(), Some(text));
            }
            // Not UTF-8 (short, and past the 32-byte test): read lossily,
            // the last byte a lead byte with nothing after it becoming
            // U+FFFD. Cut short: an error at the string's bytes, the value
            // kept.
            for (bytes, offset) in [(&b"a\xff"[..], prefix), (&[b'a'; 40][..], prefix)] {
                let mut input = encoded(std::str::from_utf8(&bytes[..1]).unwrap(), flexible).to_vec();
                input.truncate(prefix);
                input[prefix - 1] = if flexible { bytes.len() as u8 + 1 } else { bytes.len() as u8 };
                let mut invalid = input.clone();
                invalid.extend_from_slice(bytes);
                *invalid.last_mut().unwrap() = 0xc3; // a lead byte with nothing after it
                let mut short = input;
                short.extend_from_slice(&bytes[1..]);
                let lossy = format!("{}\u{fffd}", std::str::from_utf8(&bytes[..bytes.len() - 1]).unwrap());
                let mut into = ByteString::from("kept");
                into.decode_value_into(&mut Reader::new(Bytes::from(invalid.clone())), 0, flexible).unwrap();
                assert_eq!(into, lossy);
                let mut option = None;
                ByteString::decode_option_into(&mut option, &mut Reader::new(Bytes::from(invalid)), 0, flexible)
                    .unwrap();
                assert_eq!(option.as_deref(), Some(&*lossy));
                let input = short;
                let mut into = ByteString::from("kept");
                let err =
                    into.decode_value_into(&mut Reader::new(Bytes::from(input.clone())), 0, flexible).unwrap_err();
                assert_eq!(err.offset(), offset, "{err}");
                assert!(err.to_string().contains("bytes"), "{err}");
                assert_eq!(into, "kept");
                let mut option = Some(ByteString::from("kept"));
                ByteString::decode_option_into(&mut option, &mut Reader::new(Bytes::from(input.clone())), 0, flexible)
                    .unwrap_err();
                assert_eq!(option.as_deref(), Some("kept"));
                let mut none = None;
                ByteString::decode_option_into(&mut none, &mut Reader::new(Bytes::from(input)), 0, flexible)
                    .unwrap_err();
                assert_eq!(none, None);
            }
            // Null replaces a kept nullable value.
            let null = Bytes::from(if flexible { vec![0] } else { vec![0xff, 0xff] });
            let mut option = Some(ByteString::from("kept"));
            ByteString::decode_option_into(&mut option, &mut Reader::new(null), 0, flexible).unwrap();
            assert_eq!(option, None);
        }
    }

    /// Owned strings read bytes that are not UTF-8 as Kafka does, each
    /// invalid sequence replaced by U+FFFD (EF BF BD); borrowed views, whose
    /// strings are slices of the input, refuse them at the string's bytes.
    #[test]
    fn invalid_utf8_is_read_lossily_and_refused_by_views() {
        use super::DecodeNullable;
        let input = Bytes::from_static(&[0x00, 0x03, b'a', 0xc3, 0xff]);
        let mut r = Reader::new(input.clone());
        assert_eq!(ByteString::decode_value(&mut r, 0, false).unwrap(), "a\u{fffd}\u{fffd}");
        assert_eq!(r.remaining(), 0);
        let mut option = Some(ByteString::from("kept"));
        ByteString::decode_option_into(&mut option, &mut Reader::new(input.clone()), 0, false).unwrap();
        assert_eq!(option.as_deref(), Some("a\u{fffd}\u{fffd}"));
        // Past 32 bytes, and compact.
        let mut long = vec![41];
        long.extend_from_slice(&[b'z'; 39]);
        long.push(0x80);
        let mut r = Reader::new(Bytes::from(long));
        let text = ByteString::decode_value(&mut r, 0, true).unwrap();
        assert_eq!((&text[..39], &text[39..], r.remaining()), (&*"z".repeat(39), "\u{fffd}", 0));
        // Each invalid sequence cut as Java cuts it: Unicode's maximal
        // subparts, but a UTF-16 surrogate's bytes are one sequence.
        for (bytes, text) in [
            (&b"\xed\xa0\x80"[..], "\u{fffd}"),
            (b"\xed\xbf\xbfa", "\u{fffd}a"),
            (b"\xed\xa0a", "\u{fffd}a"),
            (b"a\xed\xa0", "a\u{fffd}"),
            (b"\xed\x9fa", "\u{fffd}a"),
            (b"\xe0\x80\xaf", "\u{fffd}\u{fffd}\u{fffd}"),
            (b"\xf0\x9f\x98a", "\u{fffd}a"),
            (b"\xf4\x90\x80\x80", "\u{fffd}\u{fffd}\u{fffd}\u{fffd}"),
            (b"\xe2\x82", "\u{fffd}"),
            (b"\xe2(\xa1", "\u{fffd}(\u{fffd}"),
            (b"\xc1\xbf\xc2", "\u{fffd}\u{fffd}\u{fffd}"),
        ] {
            assert_eq!(super::lossy(bytes), text, "{bytes:x?}");
        }
        // A view refuses them.
        let bytes: &[u8] = &input;
        let err = <&str as super::Decode<&[u8]>>::decode_value(&mut Reader::new(bytes), 0, false).unwrap_err();
        assert_eq!(err.offset(), 2);
        assert!(err.to_string().contains("UTF-8"), "{err}");
    }

    #[test]
    fn compact_lengths_past_one_byte_null_and_too_long() {
        use super::DecodeNullable;
        // 127 bytes and more take a two-byte length: 200 + 1 = 0xc9 0x01.
        let text = "z".repeat(200);
        let mut input = vec![0xc9, 0x01];
        input.extend_from_slice(text.as_bytes());
        let mut r = Reader::new(Bytes::from(input));
        assert_eq!(ByteString::decode_value(&mut r, 0, true).unwrap(), text);
        assert_eq!(r.remaining(), 0);
        // 00 is null: refused where the field is not nullable, at its offset.
        let null = Bytes::from_static(&[0x00]);
        assert_eq!(ByteString::decode_option(&mut Reader::new(null.clone()), 0, true).unwrap(), None);
        let err = ByteString::decode_value(&mut Reader::new(null), 0, true).unwrap_err();
        assert_eq!(err.offset(), 0);
        // 32,768 bytes (length 32,769 = 0x81 0x80 0x02) is past the int16 limit.
        let err =
            ByteString::decode_value(&mut Reader::new(Bytes::from_static(&[0x81, 0x80, 0x02])), 0, true).unwrap_err();
        assert!(err.to_string().contains("32768"), "{err}");
        // Classic: -1 is null, and a length past the input is short.
        assert_eq!(
            ByteString::decode_option(&mut Reader::new(Bytes::from_static(&[0xff, 0xff])), 0, false).unwrap(),
            None
        );
        let err =
            ByteString::decode_value(&mut Reader::new(Bytes::from_static(&[0x00, 0x05, b'a'])), 0, false).unwrap_err();
        assert_eq!(err.offset(), 2);
    }

    #[test]
    fn the_utf8_check_agrees_with_the_standard_one_at_every_length_and_position() {
        for len in 0..=70 {
            let ascii: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            assert_eq!(is_short_ascii(&ascii), len <= 32, "length {len}");
            assert!(is_utf8(&ascii), "length {len}");
            for at in 0..len {
                // 0xc3 0xa9 is "é"; a lone 0x80, 0xc3 or 0xff is not UTF-8.
                for high in [&[0x80u8][..], &[0xc3], &[0xff], &[0xc3, 0xa9]] {
                    let mut bytes = ascii.clone();
                    bytes.splice(at..at + 1, high.iter().copied());
                    assert!(!is_short_ascii(&bytes), "length {len}, byte {at} = {high:x?}");
                    assert_eq!(
                        is_utf8(&bytes),
                        std::str::from_utf8(&bytes).is_ok(),
                        "length {len}, byte {at} = {high:x?}"
                    );
                }
            }
        }
    }
}
