//! `bytes` and `records`: int32 length then the bytes (classic), or
//! uvarint length+1 then the bytes (compact). Decoding shares the input's
//! memory: no copy is made.
//!
//! ```text
//! classic [43 66]: 00 00 00 02 43 66     compact [43 66]: 03 43 66
//! classic null:    ff ff ff ff           compact null:    00
//! ```

use bytes::{BufMut, Bytes};

use super::nullable::decode_non_null;
use super::varint::{put_uvarint, uvarint_len};
use super::{Decode, DecodeNullable, Encode, Input, Nullable, Reader, Writer};
use crate::error::{DecodeError, EncodeError, EncodeErrorKind};

#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn put_len(buf: &mut Writer<'_>, len: usize, flexible: bool) -> Result<(), EncodeError> {
    if len >= i32::MAX as usize {
        return Err(too_long(len));
    }
    if flexible {
        put_uvarint(buf, len as u32 + 1);
    } else {
        buf.put_i32(len as i32);
    }
    Ok(())
}

/// The compact prefix of a length or count of 127 or more (`len` + 1 as a
/// uvarint, in the first of the returned bytes), or the error for one
/// beyond an int32. Not generic, so compiled once.
#[inline(never)]
pub(crate) fn long_len(len: usize) -> Result<([u8; 10], usize), EncodeError> {
    if len >= i32::MAX as usize {
        return Err(too_long(len));
    }
    Ok(super::varint::uvarlong_bytes(len as u64 + 1))
}

#[cold]
pub(super) fn too_long(len: usize) -> EncodeError {
    EncodeError::new(EncodeErrorKind::TooLong(len))
}

#[inline]
pub(super) fn len_size(len: usize, flexible: bool) -> usize {
    if flexible {
        uvarint_len((len as u32).wrapping_add(1))
    } else {
        4
    }
}

/// Reads a length or count prefix: `None` for null (any negative classic
/// value, or compact 0).
#[inline]
pub(crate) fn read_len<B: Input>(r: &mut Reader<B>, flexible: bool) -> Result<Option<usize>, DecodeError> {
    read_len_by(r, flexible, Reader::read_uvarint)
}

/// [`read_len`] for `bytes` and `records`, whose compact lengths mostly
/// take two bytes or more: the varint is decoded in place.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn read_bytes_len<B: Input>(r: &mut Reader<B>, flexible: bool) -> Result<Option<usize>, DecodeError> {
    read_len_by(r, flexible, Reader::read_uvarint_inline)
}

#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn read_len_by<B: Input>(
    r: &mut Reader<B>,
    flexible: bool,
    read_uvarint: fn(&mut Reader<B>) -> Result<u32, DecodeError>,
) -> Result<Option<usize>, DecodeError> {
    if flexible {
        match read_uvarint(r)? {
            0 => Ok(None),
            n => Ok(Some((n - 1) as usize)),
        }
    } else {
        match r.read_i32()? {
            n if n < 0 => Ok(None),
            n => Ok(Some(n as usize)),
        }
    }
}

impl Encode for Bytes {
    #[inline]
    fn encode_value(&self, buf: &mut Writer<'_>, _: i16, flexible: bool) -> Result<(), EncodeError> {
        put_len(buf, self.len(), flexible)?;
        buf.put_shared(self);
        Ok(())
    }

    #[inline]
    fn value_size(&self, _: i16, flexible: bool) -> usize {
        self.len() + len_size(self.len(), flexible)
    }
}

/// `bytes` and `records` decode to a slice of the input: a [`Bytes`]
/// sharing its memory for owned values, a `&'a [u8]` borrowing it for
/// views. The two impls differ only in their input.
macro_rules! slice_of_input {
    ($(<$lt:lifetime>)? for $input:ty) => {
        impl$(<$lt>)? Decode<$input> for $input {
            #[inline]
            fn decode_value(r: &mut Reader<$input>, version: i16, flexible: bool) -> Result<Self, DecodeError> {
                decode_non_null(r, version, flexible)
            }

            #[inline]
            fn decode_value_into(&mut self, r: &mut Reader<$input>, version: i16, flexible: bool) -> Result<(), DecodeError> {
                *self = decode_non_null(r, version, flexible)?;
                Ok(())
            }
        }

        impl$(<$lt>)? DecodeNullable<$input> for $input {
            #[inline]
            fn decode_option(r: &mut Reader<$input>, _: i16, flexible: bool) -> Result<Option<Self>, DecodeError> {
                read_slice(r, flexible)
            }

            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn decode_option_into(
                place: &mut Option<Self>,
                r: &mut Reader<$input>,
                _: i16,
                flexible: bool,
            ) -> Result<(), DecodeError> {
                // Written in place: no `Option<Bytes>` passed back through a `Result`.
                *place = match read_bytes_len(r, flexible)? {
                    None => None,
                    Some(len) => Some(r.read_bytes(len)?),
                };
                Ok(())
            }
        }
    };
}

slice_of_input!(for Bytes);
slice_of_input!(<'a> for &'a [u8]);

impl Nullable for Bytes {}

/// A length-prefixed slice of the input, or null (`None`).
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn read_slice<B: Input>(r: &mut Reader<B>, flexible: bool) -> Result<Option<B>, DecodeError> {
    match read_bytes_len(r, flexible)? {
        None => Ok(None),
        Some(len) => r.read_bytes(len).map(Some),
    }
}
