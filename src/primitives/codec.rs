//! The two traits every schema type implements: [`Encode`] and [`Decode`].
//! Generated code and the runtime call them; users encode and decode
//! through [`crate::message::Message`] and the frame types, so they are
//! public only in the hidden [`crate::encoding`] module.

use super::{Input, Reader, Writer};
use ::bytes::Bytes;

use crate::error::{DecodeError, EncodeError};

/// The encoding of a value: every field type of a schema, and every
/// generated struct. Its decoding is the separate trait [`Decode`].
///
/// `flexible` selects the compact encodings of strings, bytes, records and
/// arrays; fixed-width values ignore it, and generated structs choose
/// compact forms and their tagged-field section from `version` alone.
///
/// An implementation provides [`Encode::encode_value`] and
/// [`Encode::value_size`].
///
/// # Example
/// ```
/// use kwire::encoding::{Decode, Encode};
/// use kwire::primitives::{Reader, Writer};
/// let mut buf = bytes::BytesMut::new();
/// kwire::ByteString::from("rk").encode_value(&mut Writer::new(&mut buf), 3, true)?;
/// assert_eq!(&buf[..], b"\x03rk");
/// let mut r = Reader::new(buf.freeze());
/// assert_eq!(kwire::ByteString::decode_value(&mut r, 3, true)?, "rk");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Encode {
    /// Appends the encoding of `self` at `version`.
    ///
    /// # Errors
    /// [`EncodeError`] for a value this version cannot carry; the buffer may
    /// then hold part of the encoding.
    fn encode_value(&self, buf: &mut Writer<'_>, version: i16, flexible: bool) -> Result<(), EncodeError>;

    /// Bytes that [`Encode::encode_value`] writes when it succeeds.
    fn value_size(&self, version: i16, flexible: bool) -> usize;

    /// Appends the value as it appears inside a tagged-field entry (always compact).
    ///
    /// # Errors
    /// As [`Encode::encode_value`].
    #[inline]
    fn encode_tagged(&self, buf: &mut Writer<'_>, version: i16) -> Result<(), EncodeError> {
        self.encode_value(buf, version, true)
    }

    /// Bytes that [`Encode::encode_tagged`] writes.
    #[inline]
    fn tagged_size(&self, version: i16) -> usize {
        self.value_size(version, true)
    }
}

/// The decoding of a value from a [`Reader`] over the input `B`: [`Bytes`]
/// for owned values (every [`Encode`] type; `bytes` and `records` fields
/// share the input's memory), `&'a [u8]` for the borrowed views of the
/// `borrowed` feature (strings and bytes borrow the input).
///
/// An implementation provides [`Decode::decode_value_into`];
/// [`Decode::decode_value`] decodes into the [`Default`] value unless
/// overridden. Generated structs get theirs from a blanket impl over the
/// struct's own decode, which takes no `flexible` flag, and override only
/// [`Decode::reset_value`] besides, so each compiles one decode function.
///
/// # Example
/// ```
/// use kwire::encoding::Decode;
/// use kwire::primitives::Reader;
/// let input: &[u8] = b"\x00\x02rk";
/// let mut owned = Reader::new(bytes::Bytes::from_static(input));
/// assert_eq!(kwire::ByteString::decode_value(&mut owned, 0, false)?, "rk");
/// let mut borrowed = Reader::new(input);
/// let rk: &str = Decode::decode_value(&mut borrowed, 0, false)?; // points into `input`
/// assert_eq!(rk, "rk");
/// # Ok::<(), kwire::error::DecodeError>(())
/// ```
pub trait Decode<B: Input = Bytes>: Sized + Default {
    /// Fewest bytes one value can take; bounds array counts before any allocation.
    const MIN_SIZE: usize = 1;

    /// Reads one value into `self`, reusing what `self` has allocated
    /// (arrays, nested structs; a string is replaced by a slice of the
    /// input), so that decoding into the same value again and again
    /// allocates nothing once it has grown to size.
    ///
    /// # Errors
    /// As [`Decode::decode_value`]; `self` then holds a valid but unspecified value.
    fn decode_value_into(&mut self, r: &mut Reader<B>, version: i16, flexible: bool) -> Result<(), DecodeError>;

    /// Reads one value: the default value, then [`Decode::decode_value_into`].
    ///
    /// # Errors
    /// [`DecodeError`] for input that is short or breaks the encoding's rules.
    #[inline]
    fn decode_value(r: &mut Reader<B>, version: i16, flexible: bool) -> Result<Self, DecodeError> {
        let mut value = Self::default();
        value.decode_value_into(r, version, flexible)?;
        Ok(value)
    }

    /// Reads the value of a tagged-field entry (always compact).
    ///
    /// # Errors
    /// As [`Decode::decode_value`].
    #[inline]
    fn decode_tagged(r: &mut Reader<B>, version: i16) -> Result<Self, DecodeError> {
        Self::decode_value(r, version, true)
    }

    /// Sets `self` to its default value in place. Arrays are cleared,
    /// keeping their capacity, strings emptied, and generated structs reset
    /// field by field, so a field that a decode resets (absent at the version, or
    /// tagged and not sent) keeps its allocations and costs a few stores.
    ///
    /// # Example
    /// ```
    /// use kwire::messages::fetch_response::EpochEndOffset;
    /// use kwire::encoding::Decode;
    /// let mut value = EpochEndOffset { epoch: 5, end_offset: 100, ..Default::default() };
    /// value.reset_value();
    /// assert_eq!(value, EpochEndOffset::default()); // epoch and end offset -1
    /// ```
    #[inline]
    fn reset_value(&mut self) {
        *self = Self::default();
    }
}
