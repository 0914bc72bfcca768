//! Generated structs: their encoding follows from the version alone.
//!
//! A struct picks compact forms and its tagged-field section from its own
//! flexible versions, so the code generated for it takes a version and no
//! `flexible` flag; the blanket impls here give every struct [`Encode`]
//! and [`Decode`] for use as a field, an array element or a message.

use bytes::Bytes;

use super::{Decode, Encode, Input, Reader, Writer};
use crate::error::{DecodeError, EncodeError};

/// The decoding of a generated struct: a message body or a struct nested
/// in one (from [`Bytes`]), or the borrowed view of either (from
/// `&'a [u8]`). Nullable struct fields (`Option<S>`) put a one-byte marker
/// before it.
pub trait Struct: Default {
    /// The input it decodes from: [`Bytes`] for owned structs, `&'a [u8]`
    /// for borrowed views.
    type Input: Input;

    /// Reads every field present at `version` into `self`, reusing its
    /// allocations; fields absent at `version` are reset.
    ///
    /// # Errors
    /// [`DecodeError`] naming the field, for input that is short or breaks
    /// the encoding's rules; `self` then holds a valid but unspecified value.
    fn decode_fields_into(&mut self, r: &mut Reader<Self::Input>, version: i16) -> Result<(), DecodeError>;

    /// Sets every field to its default, keeping allocations.
    fn reset_fields(&mut self);
}

/// The encoding of a generated (owned) struct.
pub trait EncodeStruct: Struct<Input = Bytes> {
    /// Appends every field present at `version`, then the tagged-field
    /// section when `version` is flexible.
    ///
    /// # Errors
    /// [`EncodeError`] for a value this version cannot carry, naming the field.
    fn encode_fields(&self, buf: &mut Writer<'_>, version: i16) -> Result<(), EncodeError>;

    /// Bytes that [`EncodeStruct::encode_fields`] writes when it succeeds.
    fn fields_size(&self, version: i16) -> usize;
}

impl<S: EncodeStruct> Encode for S {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn encode_value(&self, buf: &mut Writer<'_>, version: i16, _: bool) -> Result<(), EncodeError> {
        self.encode_fields(buf, version)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn value_size(&self, version: i16, _: bool) -> usize {
        self.fields_size(version)
    }
}

impl<S: Struct> Decode<S::Input> for S {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn decode_value_into(&mut self, r: &mut Reader<S::Input>, version: i16, _: bool) -> Result<(), DecodeError> {
        self.decode_fields_into(r, version)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn reset_value(&mut self) {
        self.reset_fields();
    }
}
