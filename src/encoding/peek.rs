//! Reading one leading field of an encoded struct without decoding the
//! rest: the helpers of the generated `peek_*` functions and of a header's
//! `peek_len`. Each works on a borrowed slice, allocates nothing, and names
//! the field on error, at the offset where its bytes ran out or went wrong.

use crate::error::DecodeError;
use crate::primitives::fixed::Fixed;
use crate::primitives::Reader;

/// Skips a string field (nullable or not: a null has no bytes
/// after its length), compact when `flexible`.
///
/// # Errors
/// Short input (or a varint over 5 bytes), in field `name`.
#[inline]
pub fn skip_str(r: &mut Reader<&[u8]>, flexible: bool, name: &'static str) -> Result<(), DecodeError> {
    let len = if flexible {
        // Compact: length + 1, 0 for null.
        (r.read_uvarint().map_err(|e| e.in_field(name))? as usize).saturating_sub(1)
    } else {
        // Classic: an i16 length, negative for null.
        usize::try_from(r.read_i16().map_err(|e| e.in_field(name))?).unwrap_or(0)
    };
    r.skip(len).map_err(|e| e.in_field(name))
}

/// Skips a `bytes` or `records` field (nullable or not), compact when
/// `flexible`: a classic length is an i32.
///
/// # Errors
/// As [`skip_str`].
#[inline]
pub fn skip_bytes(r: &mut Reader<&[u8]>, flexible: bool, name: &'static str) -> Result<(), DecodeError> {
    if flexible {
        return skip_str(r, true, name);
    }
    let len = usize::try_from(r.read_i32().map_err(|e| e.in_field(name))?).unwrap_or(0);
    r.skip(len).map_err(|e| e.in_field(name))
}

/// Skips a fixed-width field.
///
/// # Errors
/// Short input, in field `name`.
#[inline]
pub fn skip_fixed<T: Fixed>(r: &mut Reader<&[u8]>, name: &'static str) -> Result<(), DecodeError> {
    r.skip(T::SIZE).map_err(|e| e.in_field(name))
}

/// Reads a fixed-width field.
///
/// # Errors
/// Short input, in field `name`.
#[inline]
pub fn read_fixed<T: Fixed>(r: &mut Reader<&[u8]>, name: &'static str) -> Result<T, DecodeError> {
    let chunk = r.read_slice(T::SIZE).map_err(|e| e.in_field(name))?;
    Ok(T::from_chunk(chunk))
}

/// Skips a tagged-field section: its count, then each entry's tag, size
/// and value.
///
/// # Errors
/// Short input, in the section (`tagged_fields`).
#[inline]
pub fn skip_tagged_section(r: &mut Reader<&[u8]>) -> Result<(), DecodeError> {
    const SECTION: &str = "tagged_fields";
    if r.peek_u8() == Some(0) {
        return r.skip(1);
    }
    let count = r.read_uvarint().map_err(|e| e.in_field(SECTION))?;
    for _ in 0..count {
        r.read_uvarint().map_err(|e| e.in_field(SECTION))?;
        let size = r.read_uvarint().map_err(|e| e.in_field(SECTION))?;
        r.skip(size as usize).map_err(|e| e.in_field(SECTION))?;
    }
    Ok(())
}
