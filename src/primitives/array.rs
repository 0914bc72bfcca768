//! `[]T`: int32 count (classic) or uvarint count+1 (compact), then the
//! elements in their own encoding. The count is checked against the bytes
//! left before any allocation.
//!
//! ```text
//! classic [1, 2] of int32: 00 00 00 02 00 00 00 01 00 00 00 02
//! compact [1, 2] of int32: 03 00 00 00 01 00 00 00 02
//! ```

use super::bytes::{len_size, put_len, read_len};
use super::{Nullable, Reader, Wire, Writer};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};

/// Elements reserved up front at most; more grow as they decode.
const MAX_PREALLOC: usize = 1024;

impl<T: Wire> Wire for Vec<T> {
    #[inline]
    fn encode_value(&self, buf: &mut Writer<'_>, version: i16, flexible: bool) -> Result<(), EncodeError> {
        put_len(buf, self.len(), flexible)?;
        encode_items(self, buf, version, flexible)
    }

    #[inline]
    fn value_size(&self, version: i16, flexible: bool) -> usize {
        let mut size = len_size(self.len(), flexible);
        for item in self {
            size += item.value_size(version, flexible);
        }
        size
    }

    #[inline]
    fn decode_value_into(&mut self, r: &mut Reader, version: i16, flexible: bool) -> Result<(), DecodeError> {
        // A compact empty array, the byte 01, is common enough to read inline.
        if flexible && r.next_is(1) {
            self.clear();
            return Ok(());
        }
        let offset = r.offset();
        match read_count(r, flexible, T::MIN_SIZE)? {
            Some(count) => decode_items_into(self, count, r, version, flexible),
            None => Err(null_array(offset)),
        }
    }
}

/// Writes each of `items` (the elements of an array, after its count),
/// naming the index of the one that fails.
#[inline]
pub(super) fn encode_items<T: Wire>(
    items: &[T],
    buf: &mut Writer<'_>,
    version: i16,
    flexible: bool,
) -> Result<(), EncodeError> {
    // A counter rather than `enumerate`: one iterator type less to
    // compile for each element type.
    let mut i = 0;
    #[allow(clippy::explicit_counter_loop)]
    for item in items {
        if let Err(e) = item.encode_value(buf, version, flexible) {
            return Err(e.at_index(i));
        }
        i += 1;
    }
    Ok(())
}

/// The element count of an array, `None` for null, checked against the
/// bytes left (each element takes at least `min_size`) before anything is
/// allocated. Not generic, so compiled once.
fn read_count(r: &mut Reader, flexible: bool, min_size: usize) -> Result<Option<usize>, DecodeError> {
    let count = read_len(r, flexible)?;
    if let Some(count) = count {
        r.check_count(count, min_size)?;
    }
    Ok(count)
}

/// A null count where the array may not be null, at the count's offset.
#[cold]
fn null_array(offset: usize) -> DecodeError {
    DecodeError::new(DecodeErrorKind::NullNotAllowed, offset)
}

/// Reads `count` elements into `items`: the elements already there are
/// decoded in place (keeping their allocations), the rest start from their
/// default and are decoded in the same way (no separate `decode_value` per
/// element type).
fn decode_items_into<T: Wire>(
    items: &mut Vec<T>,
    count: usize,
    r: &mut Reader,
    version: i16,
    flexible: bool,
) -> Result<(), DecodeError> {
    if count == 0 {
        items.clear();
        return Ok(());
    }
    items.truncate(count);
    // Reserve no more memory than the input has bytes left: a hostile count
    // of large structs gets a small start, and the vector grows only with
    // elements that really decode.
    let by_input = r.remaining() / std::mem::size_of::<T>().max(1);
    items.reserve_exact((count - items.len()).min(MAX_PREALLOC).min(by_input));
    let mut i = 0;
    for item in items.iter_mut() {
        if let Err(e) = item.decode_value_into(r, version, flexible) {
            return Err(e.at_index(i));
        }
        i += 1;
    }
    while i < count {
        let mut item = T::default();
        if let Err(e) = item.decode_value_into(r, version, flexible) {
            return Err(e.at_index(i));
        }
        items.push(item);
        i += 1;
    }
    Ok(())
}

impl<T: Wire> Nullable for Vec<T> {
    fn decode_option(r: &mut Reader, version: i16, flexible: bool) -> Result<Option<Self>, DecodeError> {
        let mut place = None;
        Self::decode_option_into(&mut place, r, version, flexible)?;
        Ok(place)
    }

    fn decode_option_into(
        place: &mut Option<Self>,
        r: &mut Reader,
        version: i16,
        flexible: bool,
    ) -> Result<(), DecodeError> {
        // Compact null (00) and empty (01) arrays, read inline.
        if flexible && r.next_is(0) {
            *place = None;
            return Ok(());
        }
        if flexible && r.next_is(1) {
            place.get_or_insert_with(Vec::new).clear();
            return Ok(());
        }
        let Some(count) = read_count(r, flexible, T::MIN_SIZE)? else {
            *place = None;
            return Ok(());
        };
        decode_items_into(place.get_or_insert_with(Vec::new), count, r, version, flexible)
    }
}
