//! `string`: int16 length then UTF-8 (classic), or uvarint length+1 then
//! UTF-8 (compact). At most 32767 bytes in both encodings.
//!
//! ```text
//! classic "rk": 00 02 72 6b      compact "rk": 03 72 6b
//! classic null: ff ff            compact null: 00
//! ```

use bytes::{BufMut, BytesMut};

use super::varint::{put_uvarint, uvarint_len};
use super::{Nullable, Reader, Wire};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

/// Longest string Kafka's encodings carry, in bytes.
pub const MAX_STRING_LEN: usize = i16::MAX as usize;

#[inline]
pub(super) fn put_str(buf: &mut BytesMut, s: &str, flexible: bool) -> Result<(), EncodeError> {
    if s.len() > MAX_STRING_LEN {
        return Err(EncodeError::new(EncodeErrorKind::TooLong(s.len())));
    }
    if flexible {
        put_uvarint(buf, s.len() as u32 + 1);
    } else {
        buf.put_i16(s.len() as i16);
    }
    buf.put_slice(s.as_bytes());
    Ok(())
}

#[inline]
pub(super) fn str_size(s: &str, flexible: bool) -> usize {
    s.len() + if flexible { uvarint_len(s.len() as u32 + 1) } else { 2 }
}

/// Reads a string or null (`None`).
#[inline]
pub(super) fn read_str(r: &mut Reader, flexible: bool) -> Result<Option<String>, DecodeError> {
    let len = if flexible {
        match r.read_uvarint()? {
            0 => return Ok(None),
            n => (n - 1) as usize,
        }
    } else {
        match r.read_i16()? {
            n if n < 0 => return Ok(None),
            n => n as usize,
        }
    };
    if len > MAX_STRING_LEN {
        return Err(r.error(DecodeErrorKind::InvalidLength(len as i64)));
    }
    let start = r.offset();
    let bytes = r.read_bytes(len)?;
    match std::str::from_utf8(&bytes) {
        Ok(s) => Ok(Some(s.to_owned())),
        Err(_) => Err(DecodeError::new(DecodeErrorKind::InvalidUtf8, start)),
    }
}

impl Wire for String {
    #[inline]
    fn encode_value(&self, buf: &mut BytesMut, _: i16, flexible: bool) -> Result<(), EncodeError> {
        put_str(buf, self, flexible)
    }

    #[inline]
    fn value_size(&self, _: i16, flexible: bool) -> usize {
        str_size(self, flexible)
    }

    #[inline]
    fn decode_value(r: &mut Reader, _: i16, flexible: bool) -> Result<Self, DecodeError> {
        let offset = r.offset();
        read_str(r, flexible)?.ok_or_else(|| DecodeError::new(DecodeErrorKind::NullNotAllowed, offset))
    }
}

impl Nullable for String {
    const CLASSIC_NULL_SIZE: usize = 2;

    #[inline]
    fn put_classic_null(buf: &mut BytesMut) {
        buf.put_i16(-1);
    }

    #[inline]
    fn decode_option(r: &mut Reader, _: i16, flexible: bool) -> Result<Option<Self>, DecodeError> {
        read_str(r, flexible)
    }
}
