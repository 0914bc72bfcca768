//! Wire primitives: the encodings of every schema type, behind one trait.
//!
//! | schema type | Rust type | classic encoding | flexible (compact) encoding |
//! |---|---|---|---|
//! | `bool`, `int8` … `float64` | `bool`, `i8` … `f64` | fixed width, big-endian | same |
//! | `uuid` | [`Uuid`] | 16 bytes | same |
//! | `string` | `String` | int16 length, UTF-8 | uvarint length+1 |
//! | `bytes`, `records` | [`Bytes`] | int32 length | uvarint length+1 |
//! | `[]T` | `Vec<T>` | int32 count | uvarint count+1 |
//! | nullable | `Option<T>` | length/count −1, struct marker `ff` | uvarint 0 |
//!
//! Generated code calls these through [`Wire`] and [`Decode`]; decoding
//! shares memory with the input for `bytes` and `records`. The borrowed
//! views of the `borrowed` feature decode `string` to `&'a str`, `bytes`
//! and `records` to `&'a [u8]` and arrays of fixed-width values to
//! [`FixedArray`], all pointing into the input; [`IntoOwned`] turns them
//! into the owned types.

mod array;
mod borrowed;
mod bytes;
mod nullable;
mod number;
pub mod reader;
pub mod segment;
mod string;
mod uuid;
pub mod varint;
pub mod writer;

pub use self::borrowed::{FixedArray, IntoOwned};
pub use self::nullable::{DecodeNullable, Nullable};
pub use self::reader::{Input, Reader};
pub use self::segment::Segment;
pub use self::uuid::{ParseUuidError, Uuid};
pub use self::writer::Writer;

use ::bytes::Bytes;

use crate::error::{DecodeError, EncodeError, EncodeErrorKind};

/// A value with a Kafka wire encoding: every field type of a schema, and
/// every generated struct. Its decoding is [`Decode`].
///
/// `flexible` selects the compact encodings of strings, bytes, records and
/// arrays; fixed-width values ignore it. Structs choose their own
/// tagged-field section from `version`.
///
/// An implementation provides [`Wire::encode_value`] and
/// [`Wire::value_size`], and [`Decode::decode_value_into`] for its decoding.
///
/// # Example
/// ```
/// use kafka_wire::primitives::{Decode, Reader, Wire, Writer};
/// let mut buf = bytes::BytesMut::new();
/// "rk".to_string().encode_value(&mut Writer::new(&mut buf), 3, true)?;
/// assert_eq!(&buf[..], b"\x03rk");
/// let mut r = Reader::new(buf.freeze());
/// assert_eq!(String::decode_value(&mut r, 3, true)?, "rk");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Wire: Decode {
    /// Appends the encoding of `self` at `version`.
    ///
    /// # Errors
    /// [`EncodeError`] for a value this version cannot carry; the buffer may
    /// then hold part of the encoding.
    fn encode_value(&self, buf: &mut Writer<'_>, version: i16, flexible: bool) -> Result<(), EncodeError>;

    /// Bytes that [`Wire::encode_value`] writes when it succeeds.
    fn value_size(&self, version: i16, flexible: bool) -> usize;

    /// Appends the value as it appears inside a tagged-field entry (always compact).
    ///
    /// # Errors
    /// As [`Wire::encode_value`].
    #[inline]
    fn encode_tagged(&self, buf: &mut Writer<'_>, version: i16) -> Result<(), EncodeError> {
        self.encode_value(buf, version, true)
    }

    /// Bytes that [`Wire::encode_tagged`] writes.
    #[inline]
    fn tagged_size(&self, version: i16) -> usize {
        self.value_size(version, true)
    }
}

/// The decoding of a value from a [`Reader`] over the input `B`: [`Bytes`]
/// for owned values (every [`Wire`] type; `bytes` and `records` fields
/// share the input's memory), `&'a [u8]` for the borrowed views of the
/// `borrowed` feature (strings and bytes borrow the input).
///
/// An implementation provides [`Decode::decode_value_into`];
/// [`Decode::decode_value`] decodes into the [`Default`] value unless
/// overridden. Generated structs override only [`Decode::reset_value`]
/// besides, so each compiles one decode function.
///
/// # Example
/// ```
/// use kafka_wire::primitives::{Decode, Reader};
/// let input: &[u8] = b"\x00\x02rk";
/// let mut owned = Reader::new(bytes::Bytes::from_static(input));
/// assert_eq!(String::decode_value(&mut owned, 0, false)?, "rk");
/// let mut borrowed = Reader::new(input);
/// let rk: &str = Decode::decode_value(&mut borrowed, 0, false)?; // points into `input`
/// assert_eq!(rk, "rk");
/// # Ok::<(), kafka_wire::error::DecodeError>(())
/// ```
pub trait Decode<B: Input = Bytes>: Sized + Default {
    /// Fewest bytes one value can take; bounds array counts before any allocation.
    const MIN_SIZE: usize = 1;

    /// Reads one value into `self`, reusing what `self` has allocated
    /// (strings, arrays, nested structs), so that decoding into the same value
    /// again and again allocates nothing once it has grown to size.
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

    /// Sets `self` to its default value in place. Strings and arrays are
    /// cleared, keeping their capacity, and generated structs reset field
    /// by field, so a field that a decode resets (absent at the version, or
    /// tagged and not sent) keeps its allocations and costs a few stores.
    ///
    /// # Example
    /// ```
    /// use kafka_wire::messages::fetch_response::EpochEndOffset;
    /// use kafka_wire::primitives::Decode;
    /// let mut value = EpochEndOffset { epoch: 5, end_offset: 100, ..Default::default() };
    /// value.reset_value();
    /// assert_eq!(value, EpochEndOffset::default()); // epoch and end offset -1
    /// ```
    #[inline]
    fn reset_value(&mut self) {
        *self = Self::default();
    }
}

/// A fixed-width value (`bool`, the integers, `float64`, `uuid`): it has
/// one size at every version and cannot fail to encode.
///
/// # Example
/// ```
/// use kafka_wire::primitives::{Fixed, Writer};
/// let mut buf = bytes::BytesMut::new();
/// 7i32.put(&mut Writer::new(&mut buf));
/// assert_eq!(&buf[..], [0, 0, 0, 7]);
/// ```
pub trait Fixed: Wire + Copy + 'static + sealed::Sealed {
    /// The encoded size, in bytes.
    const SIZE: usize;

    /// Appends the value's big-endian bytes.
    fn put(self, buf: &mut Writer<'_>);

    /// Writes the value's big-endian bytes to `out`, which is
    /// [`Fixed::SIZE`] bytes long: every byte of it is written.
    fn write(self, out: &mut [std::mem::MaybeUninit<u8>]);

    /// The value from its encoding; `chunk` is [`Fixed::SIZE`] bytes long
    /// (anything shorter reads as zero bytes, never a panic).
    fn from_chunk(chunk: &[u8]) -> Self;
}

/// A generated struct: a message body, a struct nested in one, or the
/// borrowed view of either. Nullable struct fields (`Option<S>`) use a
/// one-byte marker before the struct.
pub trait Struct: Default {}

mod sealed {
    /// Keeps [`super::Fixed`] to this crate's fixed-width types.
    pub trait Sealed {}
    impl Sealed for bool {}
    impl Sealed for i8 {}
    impl Sealed for i16 {}
    impl Sealed for u16 {}
    impl Sealed for i32 {}
    impl Sealed for u32 {}
    impl Sealed for i64 {}
    impl Sealed for f64 {}
    impl Sealed for super::Uuid {}
}

/// Fields of generated code go through these, so each error names its field.
#[doc(hidden)]
pub mod field {
    use super::*;

    #[inline]
    pub fn encode<T: Wire>(
        value: &T,
        buf: &mut Writer<'_>,
        version: i16,
        flexible: bool,
        name: &'static str,
    ) -> Result<(), EncodeError> {
        value.encode_value(buf, version, flexible).map_err(|e| e.in_field(name))
    }

    /// Writes the value of an `Option` field at a version where it is not
    /// nullable: the value's own encoding, with no presence marker.
    ///
    /// # Errors
    /// [`EncodeErrorKind::NullNotAllowed`] for `None`, else as [`encode`].
    #[inline]
    pub fn encode_required<T: Wire>(
        value: &Option<T>,
        buf: &mut Writer<'_>,
        version: i16,
        flexible: bool,
        name: &'static str,
    ) -> Result<(), EncodeError> {
        match value {
            Some(value) => encode(value, buf, version, flexible, name),
            None => Err(null_not_allowed(name)),
        }
    }

    /// Bytes that [`encode_required`] writes (0 for `None`, which it refuses).
    #[inline]
    pub fn size_required<T: Wire>(value: &Option<T>, version: i16, flexible: bool) -> usize {
        value.as_ref().map_or(0, |value| value.value_size(version, flexible))
    }

    #[inline]
    pub fn decode<B: Input, T: Decode<B>>(
        r: &mut Reader<B>,
        version: i16,
        flexible: bool,
        name: &'static str,
    ) -> Result<T, DecodeError> {
        T::decode_value(r, version, flexible).map_err(|e| e.in_field(name))
    }

    /// [`Decode::decode_value_into`], naming the field on error.
    #[inline]
    pub fn decode_into<B: Input, T: Decode<B>>(
        place: &mut T,
        r: &mut Reader<B>,
        version: i16,
        flexible: bool,
        name: &'static str,
    ) -> Result<(), DecodeError> {
        place.decode_value_into(r, version, flexible).map_err(|e| e.in_field(name))
    }

    /// [`Segment::put_str`], naming the field on error.
    #[inline(always)]
    pub fn put_str(s: &mut Segment<'_>, value: &str, flexible: bool, name: &'static str) -> Result<(), EncodeError> {
        s.put_str(value, flexible).map_err(|e| e.in_field(name))
    }

    /// [`Segment::put_nullable_str`], naming the field on error.
    #[inline(always)]
    pub fn put_nullable_str(
        s: &mut Segment<'_>,
        value: Option<&str>,
        flexible: bool,
        name: &'static str,
    ) -> Result<(), EncodeError> {
        s.put_nullable_str(value, flexible).map_err(|e| e.in_field(name))
    }

    /// [`Segment::put_count`], naming the field on error.
    #[inline(always)]
    pub fn put_count(s: &mut Segment<'_>, count: usize, flexible: bool, name: &'static str) -> Result<(), EncodeError> {
        s.put_count(count, flexible).map_err(|e| e.in_field(name))
    }

    /// The elements of an array whose count [`put_count`] wrote, naming
    /// the field and the element's index on error.
    #[inline]
    pub fn encode_elements<T: Wire>(
        items: &[T],
        buf: &mut Writer<'_>,
        version: i16,
        flexible: bool,
        name: &'static str,
    ) -> Result<(), EncodeError> {
        super::array::encode_items(items, buf, version, flexible).map_err(|e| e.in_field(name))
    }

    /// [`Segment::put_fixed_array`], naming the field on error.
    #[inline(always)]
    pub fn put_fixed_array<T: Fixed>(
        s: &mut Segment<'_>,
        items: &[T],
        flexible: bool,
        name: &'static str,
    ) -> Result<(), EncodeError> {
        s.put_fixed_array(items, flexible).map_err(|e| e.in_field(name))
    }

    /// Reads the bytes of adjacent fixed-width fields (`fields`: each one's
    /// name and size, `N` bytes in all) with one bounds check; generated
    /// code takes each field's value from its slice with [`Fixed::from_chunk`].
    ///
    /// # Errors
    /// When fewer than `N` bytes remain, the error that reading the fields
    /// one at a time gives: [`DecodeErrorKind::NotEnoughBytes`](crate::error::DecodeErrorKind::NotEnoughBytes)
    /// in the first field whose bytes run out, at its offset.
    #[inline(always)]
    pub fn read_run<B: Input, const N: usize>(
        r: &mut Reader<B>,
        fields: &[(&'static str, usize)],
    ) -> Result<[u8; N], DecodeError> {
        match r.read_array_or_none::<N>() {
            Some(run) => Ok(run),
            None => Err(run_error(r, fields)),
        }
    }

    /// The error of [`read_run`]: skips the fields that fit and reports the
    /// first that does not. Generic only over the input, so compiled once
    /// for owned decoding.
    #[cold]
    #[inline(never)]
    fn run_error<B: Input>(r: &mut Reader<B>, fields: &[(&'static str, usize)]) -> DecodeError {
        for &(name, size) in fields {
            if let Err(e) = r.skip(size) {
                return e.in_field(name);
            }
        }
        // The run's sizes add up to more than remains, so a skip failed above.
        r.error(crate::error::DecodeErrorKind::Invalid("fixed-width fields longer than their sizes"))
    }

    /// Reads a non-nullable array of fixed-width values into `place`
    /// (reusing its allocation), with one bounds check for the whole array.
    #[inline]
    pub fn decode_fixed_array_into<B: Input, T: Fixed>(
        place: &mut Vec<T>,
        r: &mut Reader<B>,
        flexible: bool,
        name: &'static str,
    ) -> Result<(), DecodeError> {
        read_fixed_array(place, r, flexible).map_err(|e| e.in_field(name))
    }

    fn read_fixed_array<B: Input, T: Fixed>(
        place: &mut Vec<T>,
        r: &mut Reader<B>,
        flexible: bool,
    ) -> Result<(), DecodeError> {
        let offset = r.offset();
        let Some(count) = super::bytes::read_len(r, flexible)? else {
            return Err(super::nullable::null_not_allowed(offset));
        };
        r.check_count(count, T::SIZE)?;
        let bytes = r.read_slice(count * T::SIZE)?;
        place.clear();
        // Most such arrays (replica lists, ISRs) hold a few values: read
        // straight, they skip the setup of a loop built for long arrays.
        match count {
            0 => {}
            1 => read_few::<T, 1>(place, bytes),
            2 => read_few::<T, 2>(place, bytes),
            3 => read_few::<T, 3>(place, bytes),
            4 => read_few::<T, 4>(place, bytes),
            _ => {
                let values = bytes.chunks_exact(T::SIZE).map(T::from_chunk);
                // In place when the capacity suffices (a value decoded
                // again), else one exact allocation without `extend`'s
                // growth path.
                if place.capacity() >= count {
                    place.extend(values);
                } else {
                    *place = values.collect();
                }
            }
        }
        Ok(())
    }

    /// Appends the `N` values in `bytes` to the empty `place`.
    #[inline(always)]
    fn read_few<T: Fixed, const N: usize>(place: &mut Vec<T>, bytes: &[u8]) {
        let mut values = [T::default(); N];
        for (value, chunk) in values.iter_mut().zip(bytes.chunks_exact(T::SIZE)) {
            *value = T::from_chunk(chunk);
        }
        if place.capacity() < N {
            *place = Vec::with_capacity(N);
        }
        place.extend_from_slice(&values);
    }

    /// Reads a value that may not be null at this version into an `Option` field.
    #[inline]
    pub fn decode_required_into<B: Input, T: Decode<B>>(
        place: &mut Option<T>,
        r: &mut Reader<B>,
        version: i16,
        flexible: bool,
        name: &'static str,
    ) -> Result<(), DecodeError> {
        match place {
            Some(value) => decode_into(value, r, version, flexible, name),
            None => {
                *place = Some(decode(r, version, flexible, name)?);
                Ok(())
            }
        }
    }

    /// Reads a value into an `Option` field at a version where null is not allowed.
    #[inline]
    pub fn decode_required<B: Input, T: Decode<B>>(
        r: &mut Reader<B>,
        version: i16,
        flexible: bool,
        name: &'static str,
    ) -> Result<Option<T>, DecodeError> {
        decode(r, version, flexible, name).map(Some)
    }

    #[inline]
    pub fn decode_tagged<B: Input, T: Decode<B>>(
        r: &mut Reader<B>,
        version: i16,
        name: &'static str,
    ) -> Result<T, DecodeError> {
        T::decode_tagged(r, version).map_err(|e| e.in_field(name))
    }

    #[cold]
    pub fn non_default(name: &'static str) -> EncodeError {
        EncodeError::new(EncodeErrorKind::NonDefaultField).in_field(name)
    }

    #[cold]
    pub fn null_not_allowed(name: &'static str) -> EncodeError {
        EncodeError::new(EncodeErrorKind::NullNotAllowed).in_field(name)
    }
}
