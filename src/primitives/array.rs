//! `[]T`: int32 count (classic) or uvarint count+1 (compact), then the
//! elements in their own encoding. The count is checked against the bytes
//! left before any allocation.
//!
//! ```text
//! classic [1, 2] of int32: 00 00 00 02 00 00 00 01 00 00 00 02
//! compact [1, 2] of int32: 03 00 00 00 01 00 00 00 02
//! ```

use super::bytes::{len_size, put_len, read_len};
use super::nullable::null_not_allowed;
use super::{Decode, DecodeNullable, Encode, Input, Nullable, Reader, Writer};
use crate::error::{DecodeError, EncodeError};

/// Elements reserved up front at most; more grow as they decode.
const MAX_PREALLOC: usize = 1024;

impl<T: Encode> Encode for Vec<T> {
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
}

impl<B: Input, T: Decode<B>> Decode<B> for Vec<T> {
    /// Clears the array, keeping its capacity.
    #[inline]
    fn reset_value(&mut self) {
        self.clear();
    }

    #[inline]
    fn decode_value_into(&mut self, r: &mut Reader<B>, version: i16, flexible: bool) -> Result<(), DecodeError> {
        // A compact empty array, the byte 01, is common enough to read inline.
        if flexible && r.next_is(1) {
            self.clear();
            return Ok(());
        }
        match read_required_count(r, flexible, T::MIN_SIZE) {
            Ok(count) => T::decode_items_into(self, count, r, version, flexible),
            Err(e) => Err(e),
        }
    }
}

/// Writes each of `items` (the elements of an array, after its count),
/// naming the index of the one that fails. Never inlined: one copy of the
/// loop for each element type, rather than one optimized again in every
/// struct that holds such an array (a call per array, not per element).
#[inline(never)]
pub(crate) fn encode_items<T: Encode>(
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
/// allocated. Generic only over the input, so compiled once for owned
/// decoding.
fn read_count<B: Input>(r: &mut Reader<B>, flexible: bool, min_size: usize) -> Result<Option<usize>, DecodeError> {
    let count = read_len(r, flexible)?;
    if let Some(count) = count {
        r.check_array(count, min_size)?;
    }
    Ok(count)
}

/// [`read_count`] for an array that may not be null.
fn read_required_count<B: Input>(r: &mut Reader<B>, flexible: bool, min_size: usize) -> Result<usize, DecodeError> {
    let offset = r.offset();
    match read_count(r, flexible, min_size)? {
        Some(count) => Ok(count),
        None => Err(null_not_allowed(offset)),
    }
}

/// How many elements [`DecodeItems::decode_items_into`] adds room for, `left` of them
/// still to decode into a vector of `len` (all decoded) with `input_left`
/// bytes of input for elements of `size` bytes each. No more than the
/// input has bytes left for: a hostile count of large structs gets a small
/// start, and the vector grows only with elements that really decode. The
/// first room (`first`) is at most `MAX_PREALLOC` elements; later room
/// doubles the vector, as a vector grows, but never past `left`. Not
/// generic: the arithmetic is compiled once, not for each element type.
fn room(left: usize, len: usize, input_left: usize, size: usize, first: bool) -> usize {
    let wanted = left.min((input_left / size.max(1)).max(1));
    match first {
        true => wanted.min(MAX_PREALLOC),
        false => wanted.max(len).min(left),
    }
}

/// Reads `count` elements into `items`: the elements already there are
/// decoded in place (keeping their allocations), the rest are added as
/// defaults, a batch at a time, and decoded in place too. One loop, so an
/// element type's decoding (often inlined) is compiled once per array type.
///
/// The elements are decoded through a slice iterator (an index loop runs
/// more instructions per element), and the defaults written through a raw
/// pointer: fewer library functions to compile for each element type than
/// range indexing, `spare_capacity_mut` and `take`.
///
/// A method of a trait implemented for every element type rather than a
/// free function: the compiler places each copy beside its element type's
/// own code, which holds that type's drop code already, instead of putting
/// every copy, and the drop code of every element type, in this module.
trait DecodeItems<B: Input>: Decode<B> {
    fn decode_items_into(
        items: &mut Vec<Self>,
        count: usize,
        r: &mut Reader<B>,
        version: i16,
        flexible: bool,
    ) -> Result<(), DecodeError>;
}

/// [`Vec::truncate`], written here: the standard library's is compiled
/// for each element type in the codegen unit of the standard library's
/// code, with a copy of that type's drop code, where this one is compiled
/// into [`DecodeItems::decode_items_into`], beside the element type's own
/// code.
#[inline]
fn truncate<T>(items: &mut Vec<T>, len: usize) {
    let old = items.len();
    if len >= old {
        return;
    }
    // SAFETY: elements `len..old` are initialized; the length is set
    // first, so a panic while dropping them leaks the rest rather than
    // dropping any twice.
    unsafe {
        let tail = std::ptr::slice_from_raw_parts_mut(items.as_mut_ptr().add(len), old - len);
        items.set_len(len);
        std::ptr::drop_in_place(tail);
    }
}

impl<B: Input, T: Decode<B>> DecodeItems<B> for T {
    // Never inlined, as `encode_items`: the loop is compiled once for each
    // element type.
    #[inline(never)]
    fn decode_items_into(
        items: &mut Vec<T>,
        count: usize,
        r: &mut Reader<B>,
        version: i16,
        flexible: bool,
    ) -> Result<(), DecodeError> {
        truncate(items, count);
        let kept = items.len();
        let mut i = 0;
        loop {
            let len = items.len();
            // SAFETY: elements `i..len` are initialized, and the vector is
            // not touched while they are borrowed.
            let rest = unsafe { std::slice::from_raw_parts_mut(items.as_mut_ptr().add(i), len - i) };
            for item in rest {
                if let Err(e) = item.decode_value_into(r, version, flexible) {
                    return Err(e.at_index(i));
                }
                i += 1;
            }
            if i >= count {
                return Ok(());
            }
            items.reserve_exact(room(count - i, len, r.remaining(), std::mem::size_of::<T>(), i == kept));
            let batch = (items.capacity() - len).min(count - i);
            let first = items.as_mut_ptr();
            for slot in len..len + batch {
                // SAFETY: `slot` is below the capacity, past the length.
                unsafe { first.add(slot).write(T::default()) };
            }
            // SAFETY: the `batch` slots after the first `len` elements were
            // initialized just above, within the capacity. A panic in `default`
            // leaks the ones written before it, which is safe.
            unsafe { items.set_len(len + batch) };
        }
    }
}

impl<T: Encode + Decode> Nullable for Vec<T> {}

impl<B: Input, T: Decode<B>> DecodeNullable<B> for Vec<T> {
    fn decode_option(r: &mut Reader<B>, version: i16, flexible: bool) -> Result<Option<Self>, DecodeError> {
        let mut place = None;
        Self::decode_option_into(&mut place, r, version, flexible)?;
        Ok(place)
    }

    fn decode_option_into(
        place: &mut Option<Self>,
        r: &mut Reader<B>,
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
        T::decode_items_into(place.get_or_insert_with(Vec::new), count, r, version, flexible)
    }
}

#[cfg(test)]
mod tests {
    use bytes::{Bytes, BytesMut};

    use super::*;
    use crate::error::PathSegment;
    use bytestring::ByteString;

    /// `names` as a classic `[]string`.
    fn encoded(names: &Vec<ByteString>) -> Result<Bytes, EncodeError> {
        let mut buf = BytesMut::new();
        names.encode_value(&mut Writer::new(&mut buf), 0, false)?;
        Ok(buf.freeze())
    }

    fn names(n: usize, tag: &str) -> Vec<ByteString> {
        (0..n).map(|i| format!("{tag}{i}").into()).collect()
    }

    fn decode_into(place: &mut Vec<ByteString>, input: &Bytes) -> Result<(), DecodeError> {
        let mut r = Reader::new(input.clone());
        place.decode_value_into(&mut r, 0, false)?;
        assert_eq!(r.remaining(), 0);
        Ok(())
    }

    #[test]
    fn reset_keeps_the_capacity_of_arrays_and_empties_strings() {
        let mut items = names(100, "t");
        let mut name = ByteString::from("topic");
        let items_capacity = items.capacity();
        items.reset_value();
        name.reset_value();
        assert!(items.is_empty() && name.is_empty());
        assert_eq!(items.capacity(), items_capacity);
    }

    #[test]
    fn new_elements_come_in_batches_past_the_first_reservation() -> Result<(), Box<dyn std::error::Error>> {
        // 3,000 strings of 2 + 5 bytes or less: each batch is bounded by
        // the input left over the size of a `ByteString`, so several are needed.
        let expected = names(3000, "t");
        let input = encoded(&expected)?;
        for kept in [0, 1, 5, 1023, 1024, 1025, 2999, 3000, 5000] {
            let mut place = names(kept, "old");
            decode_into(&mut place, &input)?;
            assert_eq!(place, expected, "{kept} kept");
        }
        let fresh = Vec::<ByteString>::decode_value(&mut Reader::new(input), 0, false)?;
        assert_eq!(fresh, expected);
        Ok(())
    }

    #[test]
    fn room_is_bounded_by_the_input_the_first_reservation_and_the_count() {
        // First room: the elements left, the input's bytes over the element
        // size (at least one), and `MAX_PREALLOC`.
        assert_eq!(room(10, 0, 1000, 8, true), 10);
        assert_eq!(room(1_000_000, 0, 80, 8, true), 10);
        assert_eq!(room(1_000_000, 0, 0, 8, true), 1);
        assert_eq!(room(1_000_000, 0, 1 << 30, 8, true), MAX_PREALLOC);
        assert_eq!(room(5, 0, 100, 0, true), 5);
        // Later room doubles the vector, up to the elements left.
        assert_eq!(room(5000, 1024, 80, 8, false), 1024);
        assert_eq!(room(300, 1024, 1 << 30, 8, false), 300);
        assert_eq!(room(5000, 10, 1 << 30, 8, false), 5000);
    }

    #[test]
    fn an_error_past_the_first_batch_names_its_element() -> Result<(), EncodeError> {
        let input = encoded(&names(3000, "t"))?;
        // Cut inside the last element ("t2999": 2 + 5 bytes).
        let cut = input.slice(..input.len() - 3);
        let mut place = names(10, "old");
        let result = decode_into(&mut place, &cut);
        assert!(
            matches!(&result, Err(e) if e.path() == [PathSegment::Index(2999)] && e.offset() == input.len() - 5),
            "{result:?}"
        );
        Ok(())
    }
}
