//! Fields of generated code go through these, so each error names its field.

use crate::error::{DecodeError, EncodeError, EncodeErrorKind};
use crate::primitives::{Decode, Encode, Fixed, Input, Reader, Writer};

use super::Segment;

#[inline]
pub fn encode<T: Encode>(
    value: &T,
    buf: &mut Writer<'_>,
    version: i16,
    flexible: bool,
    name: &'static str,
) -> Result<(), EncodeError> {
    // `match` rather than `map_err`: no closure and no `map_err` to
    // compile for each value type.
    match value.encode_value(buf, version, flexible) {
        Ok(()) => Ok(()),
        Err(e) => Err(e.in_field(name)),
    }
}

/// Writes the value of an `Option` field at a version where it is not
/// nullable: the value's own encoding, with no presence marker.
///
/// # Errors
/// [`EncodeErrorKind::NullNotAllowed`] for `None`, else as [`encode`].
#[inline]
pub fn encode_required<T: Encode>(
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
pub fn size_required<T: Encode>(value: &Option<T>, version: i16, flexible: bool) -> usize {
    value.as_ref().map_or(0, |value| value.value_size(version, flexible))
}

#[inline]
pub fn decode<B: Input, T: Decode<B>>(
    r: &mut Reader<B>,
    version: i16,
    flexible: bool,
    name: &'static str,
) -> Result<T, DecodeError> {
    // `match` rather than `map_err`: no closure and no `map_err` to
    // compile for each field type.
    match T::decode_value(r, version, flexible) {
        Ok(value) => Ok(value),
        Err(e) => Err(e.in_field(name)),
    }
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
    match place.decode_value_into(r, version, flexible) {
        Ok(()) => Ok(()),
        Err(e) => Err(e.in_field(name)),
    }
}

/// [`Segment::put_str`], naming the field on error.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn put_str(s: &mut Segment<'_>, value: &str, flexible: bool, name: &'static str) -> Result<(), EncodeError> {
    s.put_str(value, flexible).map_err(|e| e.in_field(name))
}

/// [`Segment::put_nullable_str`], naming the field on error.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn put_nullable_str(
    s: &mut Segment<'_>,
    value: Option<&str>,
    flexible: bool,
    name: &'static str,
) -> Result<(), EncodeError> {
    s.put_nullable_str(value, flexible).map_err(|e| e.in_field(name))
}

/// [`Segment::put_count`], naming the field on error.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn put_count(s: &mut Segment<'_>, count: usize, flexible: bool, name: &'static str) -> Result<(), EncodeError> {
    s.put_count(count, flexible).map_err(|e| e.in_field(name))
}

/// The elements of an array whose count [`put_count`] wrote, naming
/// the field and the element's index on error.
#[inline]
pub fn encode_elements<T: Encode>(
    items: &[T],
    buf: &mut Writer<'_>,
    version: i16,
    flexible: bool,
    name: &'static str,
) -> Result<(), EncodeError> {
    match crate::primitives::array::encode_items(items, buf, version, flexible) {
        Ok(()) => Ok(()),
        Err(e) => Err(e.in_field(name)),
    }
}

/// [`Segment::put_fixed_array`], naming the field on error.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
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
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
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
    match read_fixed_array(place, r, flexible) {
        Ok(()) => Ok(()),
        Err(e) => Err(e.in_field(name)),
    }
}

fn read_fixed_array<B: Input, T: Fixed>(
    place: &mut Vec<T>,
    r: &mut Reader<B>,
    flexible: bool,
) -> Result<(), DecodeError> {
    let offset = r.offset();
    let Some(count) = crate::primitives::bytes::read_len(r, flexible)? else {
        return Err(crate::primitives::nullable::null_not_allowed(offset));
    };
    r.check_array(count, T::SIZE)?;
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
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
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

#[inline]
pub fn decode_tagged<B: Input, T: Decode<B>>(
    r: &mut Reader<B>,
    version: i16,
    name: &'static str,
) -> Result<T, DecodeError> {
    match T::decode_tagged(r, version) {
        Ok(value) => Ok(value),
        Err(e) => Err(e.in_field(name)),
    }
}

#[cold]
pub fn non_default(name: &'static str) -> EncodeError {
    EncodeError::new(EncodeErrorKind::NonDefaultField).in_field(name)
}

#[cold]
pub fn null_not_allowed(name: &'static str) -> EncodeError {
    EncodeError::new(EncodeErrorKind::NullNotAllowed).in_field(name)
}
