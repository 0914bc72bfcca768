//! Nullable values: `Option<T>`. Strings, bytes, records and arrays encode
//! null in their length prefix; a nullable struct carries a marker before
//! it: int8 `ff` (null) or `01` (present) in positional fields, and uvarint
//! `00` or `01` inside a tagged-field entry.
//!
//! Whether null is allowed at a version is the generated code's check; here
//! `None` always encodes as null.

use bytes::BufMut;

use super::structs::EncodeStruct;
use super::varint::put_uvarint;
use super::{Decode, Encode, Input, Reader, Struct, Writer};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};

/// A type whose wire form has a null value, so that `Option<Self>` is a
/// [`Encode`] type; its decoding is [`DecodeNullable`].
pub trait Nullable: Encode + DecodeNullable {
    /// Appends null.
    #[inline]
    fn encode_null(buf: &mut Writer<'_>, flexible: bool) {
        if flexible {
            buf.put_u8(0);
        } else {
            Self::put_classic_null(buf);
        }
    }

    /// Bytes that [`Nullable::encode_null`] writes.
    #[inline]
    fn null_size(flexible: bool) -> usize {
        if flexible {
            1
        } else {
            Self::CLASSIC_NULL_SIZE
        }
    }

    /// Size of the classic null: 2 for strings, 4 for bytes and arrays, 1 for structs.
    const CLASSIC_NULL_SIZE: usize = 4;

    /// Appends the classic null.
    #[inline]
    fn put_classic_null(buf: &mut Writer<'_>) {
        buf.put_i32(-1);
    }

    /// Appends a present value, with any marker it needs.
    ///
    /// # Errors
    /// As [`Encode::encode_value`].
    #[inline]
    fn encode_present(&self, buf: &mut Writer<'_>, version: i16, flexible: bool) -> Result<(), EncodeError> {
        self.encode_value(buf, version, flexible)
    }

    /// Bytes that [`Nullable::encode_present`] writes.
    #[inline]
    fn present_size(&self, version: i16, flexible: bool) -> usize {
        self.value_size(version, flexible)
    }

    /// Appends a present value inside a tagged-field entry.
    ///
    /// # Errors
    /// As [`Encode::encode_value`].
    #[inline]
    fn encode_present_tagged(&self, buf: &mut Writer<'_>, version: i16) -> Result<(), EncodeError> {
        self.encode_present(buf, version, true)
    }

    /// Bytes that [`Nullable::encode_present_tagged`] writes.
    #[inline]
    fn present_tagged_size(&self, version: i16) -> usize {
        self.present_size(version, true)
    }
}

/// The decoding of a type whose wire form has a null value, so that
/// `Option<Self>` decodes from the input `B` (see [`Decode`]).
///
/// # Example
/// ```
/// use kwire::encoding::DecodeNullable;
/// use kwire::primitives::Reader;
/// let mut r = Reader::new(bytes::Bytes::from_static(&[0xff, 0xff, 0x00, 0x01, b'x']));
/// use kwire::ByteString;
/// assert_eq!(ByteString::decode_option(&mut r, 0, false)?, None); // classic null: length -1
/// assert_eq!(ByteString::decode_option(&mut r, 0, false)?.as_deref(), Some("x"));
/// # Ok::<(), kwire::error::DecodeError>(())
/// ```
pub trait DecodeNullable<B: Input = bytes::Bytes>: Decode<B> {
    /// Reads a value or null.
    ///
    /// # Errors
    /// As [`Decode::decode_value`].
    fn decode_option(r: &mut Reader<B>, version: i16, flexible: bool) -> Result<Option<Self>, DecodeError>;

    /// Reads a value or null into `place`, reusing the allocation of a value
    /// already there.
    ///
    /// # Errors
    /// As [`DecodeNullable::decode_option`].
    #[inline]
    fn decode_option_into(
        place: &mut Option<Self>,
        r: &mut Reader<B>,
        version: i16,
        flexible: bool,
    ) -> Result<(), DecodeError> {
        *place = Self::decode_option(r, version, flexible)?;
        Ok(())
    }

    /// Reads a value or null inside a tagged-field entry.
    ///
    /// # Errors
    /// As [`Decode::decode_value`].
    #[inline]
    fn decode_option_tagged(r: &mut Reader<B>, version: i16) -> Result<Option<Self>, DecodeError> {
        Self::decode_option(r, version, true)
    }
}

impl<T: Nullable> Encode for Option<T> {
    #[inline]
    fn encode_value(&self, buf: &mut Writer<'_>, version: i16, flexible: bool) -> Result<(), EncodeError> {
        match self {
            Some(v) => v.encode_present(buf, version, flexible),
            None => {
                T::encode_null(buf, flexible);
                Ok(())
            }
        }
    }

    #[inline]
    fn value_size(&self, version: i16, flexible: bool) -> usize {
        match self {
            Some(v) => v.present_size(version, flexible),
            None => T::null_size(flexible),
        }
    }

    #[inline]
    fn encode_tagged(&self, buf: &mut Writer<'_>, version: i16) -> Result<(), EncodeError> {
        match self {
            Some(v) => v.encode_present_tagged(buf, version),
            None => {
                buf.put_u8(0);
                Ok(())
            }
        }
    }

    #[inline]
    fn tagged_size(&self, version: i16) -> usize {
        self.as_ref().map_or(1, |v| v.present_tagged_size(version))
    }
}

impl<B: Input, T: DecodeNullable<B>> Decode<B> for Option<T> {
    #[inline]
    fn decode_value(r: &mut Reader<B>, version: i16, flexible: bool) -> Result<Self, DecodeError> {
        T::decode_option(r, version, flexible)
    }

    #[inline]
    fn decode_value_into(&mut self, r: &mut Reader<B>, version: i16, flexible: bool) -> Result<(), DecodeError> {
        T::decode_option_into(self, r, version, flexible)
    }

    #[inline]
    fn decode_tagged(r: &mut Reader<B>, version: i16) -> Result<Self, DecodeError> {
        T::decode_option_tagged(r, version)
    }
}

impl<S: EncodeStruct> Nullable for S {
    const CLASSIC_NULL_SIZE: usize = 1;

    #[inline]
    fn encode_null(buf: &mut Writer<'_>, _: bool) {
        buf.put_i8(-1);
    }

    #[inline]
    fn null_size(_: bool) -> usize {
        1
    }

    #[inline]
    fn put_classic_null(buf: &mut Writer<'_>) {
        buf.put_i8(-1);
    }

    #[inline]
    fn encode_present(&self, buf: &mut Writer<'_>, version: i16, flexible: bool) -> Result<(), EncodeError> {
        buf.put_i8(1);
        self.encode_value(buf, version, flexible)
    }

    #[inline]
    fn present_size(&self, version: i16, flexible: bool) -> usize {
        1 + self.value_size(version, flexible)
    }

    #[inline]
    fn encode_present_tagged(&self, buf: &mut Writer<'_>, version: i16) -> Result<(), EncodeError> {
        put_uvarint(buf, 1);
        self.encode_tagged(buf, version)
    }

    #[inline]
    fn present_tagged_size(&self, version: i16) -> usize {
        1 + self.tagged_size(version)
    }
}

impl<S: Struct> DecodeNullable<S::Input> for S {
    #[inline]
    fn decode_option(r: &mut Reader<S::Input>, version: i16, flexible: bool) -> Result<Option<Self>, DecodeError> {
        // Any negative marker is null; any other marker means a struct follows.
        if r.read_i8()? < 0 {
            return Ok(None);
        }
        S::decode_value(r, version, flexible).map(Some)
    }

    #[inline]
    fn decode_option_into(
        place: &mut Option<Self>,
        r: &mut Reader<S::Input>,
        version: i16,
        flexible: bool,
    ) -> Result<(), DecodeError> {
        if r.read_i8()? < 0 {
            *place = None;
            return Ok(());
        }
        match place {
            Some(value) => value.decode_value_into(r, version, flexible),
            None => {
                *place = Some(S::decode_value(r, version, flexible)?);
                Ok(())
            }
        }
    }

    #[inline]
    fn decode_option_tagged(r: &mut Reader<S::Input>, version: i16) -> Result<Option<Self>, DecodeError> {
        match r.read_uvarint()? {
            0 => Ok(None),
            n if n > i32::MAX as u32 => Ok(None),
            _ => S::decode_tagged(r, version).map(Some),
        }
    }
}

/// Reads a value that may not be null: [`DecodeNullable::decode_option`],
/// with null an error at the value's offset. The whole decode of the view
/// types (`&str`, `&[u8]`, `FixedArray`), which are read, not filled in.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn decode_non_null<B: Input, T: DecodeNullable<B>>(
    r: &mut Reader<B>,
    version: i16,
    flexible: bool,
) -> Result<T, DecodeError> {
    let offset = r.offset();
    match T::decode_option(r, version, flexible)? {
        Some(value) => Ok(value),
        None => Err(null_not_allowed(offset)),
    }
}

/// A null where the type may not be null, at `offset`.
#[cold]
pub(crate) fn null_not_allowed(offset: usize) -> DecodeError {
    DecodeError::new(DecodeErrorKind::NullNotAllowed, offset)
}
