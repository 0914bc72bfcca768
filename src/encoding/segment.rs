//! [`Segment`]: capacity reserved once in a [`Writer`]'s buffer for a
//! stretch of a struct's fields (fixed-width runs, strings, arrays of
//! fixed-width values, an empty tagged section), then written front to back.
//!
//! Generated code computes an upper bound of the stretch's bytes, calls
//! [`Writer::segment`] with it, writes the fields through the segment and
//! keeps them with [`Segment::finish`]. The segment is a local value: its
//! pointer, length and position stay in registers between writes, where
//! appending to the `BytesMut` one field at a time reloads them after
//! every store. Every write is still checked against the reservation (see
//! [`Writer::segment`]): a write that does not fit returns an error, never
//! writes out of bounds.

use std::mem::MaybeUninit;

use bytes::BytesMut;

use crate::error::{EncodeError, EncodeErrorKind};
use crate::primitives::fixed::write_bytes;
use crate::primitives::string::MAX_STRING_LEN;
use crate::primitives::{Fixed, Writer};

/// Reserved, not yet initialized bytes at the end of a [`Writer`]'s
/// buffer, and how many of them have been written. What is written is
/// kept by [`Segment::finish`]; a segment dropped without it (an error
/// returned halfway) leaves the buffer as it was.
///
/// # Example
/// ```
/// use bytes::BytesMut;
/// use kwire::primitives::Writer;
/// let mut buf = BytesMut::new();
/// let mut w = Writer::new(&mut buf);
/// let mut s = w.segment(2 + 5 + 2);
/// s.put_fixed(7i16)?;
/// s.put_str("rk", true)?; // compact: length+1, then the bytes
/// s.put_u8(0)?;
/// s.finish();
/// assert_eq!(&buf[..], [0, 7, 3, b'r', b'k', 0]);
/// # Ok::<(), kwire::error::EncodeError>(())
/// ```
#[derive(Debug)]
pub struct Segment<'w> {
    /// The buffer, borrowed for the segment's life: nothing else can
    /// read, grow or move it meanwhile. Touched only by `finish`.
    buf: &'w mut BytesMut,
    /// The start of the reservation: `buf`'s spare capacity.
    start: *mut MaybeUninit<u8>,
    /// Reserved bytes, all of them spare capacity of `buf` (see
    /// [`Writer::segment`]); invariant `pos <= cap`, and `start[..pos]` written.
    cap: usize,
    pos: usize,
}

impl<'w> Segment<'w> {
    /// The next `n` bytes of the reservation, and the position after them.
    ///
    /// # Errors
    /// [`EncodeErrorKind::Invalid`] when fewer than `n` bytes are left.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn room(&mut self, n: usize) -> Result<(&mut [MaybeUninit<u8>], usize), EncodeError> {
        if n > self.cap - self.pos {
            return Err(segment_short());
        }
        let end = self.pos + n;
        // SAFETY: `start..start + cap` is spare capacity of `buf`, which the
        // segment borrows exclusively (so it is neither read nor moved
        // meanwhile), and `pos <= end <= cap` was checked just above.
        Ok((unsafe { std::slice::from_raw_parts_mut(self.start.add(self.pos), n) }, end))
    }

    /// Keeps what was written: the buffer's length grows by it.
    ///
    /// # Example
    /// ```
    /// # use kwire::primitives::Writer;
    /// let mut buf = bytes::BytesMut::new();
    /// let mut w = Writer::new(&mut buf);
    /// let mut s = w.segment(4);
    /// s.put_slice(b"ab")?;
    /// s.finish();
    /// let mut s = w.segment(4);
    /// s.put_slice(b"cd")?;
    /// drop(s); // not finished: not kept
    /// assert_eq!(&buf[..], b"ab");
    /// # Ok::<(), kwire::error::EncodeError>(())
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn finish(self) {
        let len = self.buf.len() + self.pos;
        // SAFETY: the first `pos` bytes of the spare capacity were written
        // (the invariant of `pos`).
        unsafe { self.buf.set_len(len) };
    }

    /// Appends one byte.
    ///
    /// # Errors
    /// [`EncodeErrorKind::Invalid`] when the reservation is full.
    ///
    /// # Example
    /// ```
    /// # use kwire::primitives::Writer;
    /// let mut buf = bytes::BytesMut::new();
    /// let mut w = Writer::new(&mut buf);
    /// let mut s = w.segment(1);
    /// s.put_u8(0)?;
    /// s.finish();
    /// assert_eq!(&buf[..], [0]);
    /// # Ok::<(), kwire::error::EncodeError>(())
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn put_u8(&mut self, byte: u8) -> Result<(), EncodeError> {
        self.put_slice(&[byte])
    }

    /// Appends `src`.
    ///
    /// # Errors
    /// [`EncodeErrorKind::Invalid`] when `src` does not fit in what is left.
    ///
    /// # Example
    /// ```
    /// # use kwire::primitives::Writer;
    /// let mut buf = bytes::BytesMut::new();
    /// let mut w = Writer::new(&mut buf);
    /// let mut s = w.segment(3);
    /// s.put_slice(b"abc")?;
    /// s.finish();
    /// assert_eq!(&buf[..], b"abc");
    /// # Ok::<(), kwire::error::EncodeError>(())
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn put_slice(&mut self, src: &[u8]) -> Result<(), EncodeError> {
        self.put_prefixed([], src)
    }

    /// Appends a fixed-width value's big-endian bytes ([`Fixed::SIZE`] of them).
    ///
    /// # Errors
    /// [`EncodeErrorKind::Invalid`] when the value does not fit in what is left.
    ///
    /// # Example
    /// ```
    /// # use kwire::primitives::Writer;
    /// let mut buf = bytes::BytesMut::new();
    /// let mut w = Writer::new(&mut buf);
    /// let mut s = w.segment(4);
    /// s.put_fixed(258i32)?;
    /// s.finish();
    /// assert_eq!(&buf[..], [0, 0, 1, 2]);
    /// # Ok::<(), kwire::error::EncodeError>(())
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn put_fixed<T: Fixed>(&mut self, value: T) -> Result<(), EncodeError> {
        let (dst, end) = self.room(T::SIZE)?;
        value.write(dst);
        self.pos = end;
        Ok(())
    }

    /// Appends a string: int16 length (classic) or uvarint length+1
    /// (compact, when `flexible`), then its UTF-8 bytes; at most 5 + its
    /// length bytes.
    ///
    /// # Errors
    /// [`EncodeErrorKind::TooLong`] for a string over 32767 bytes;
    /// [`EncodeErrorKind::Invalid`] when it does not fit in what is left.
    ///
    /// # Example
    /// ```
    /// # use kwire::primitives::Writer;
    /// let mut buf = bytes::BytesMut::new();
    /// let mut w = Writer::new(&mut buf);
    /// let mut s = w.segment(2 + 2);
    /// s.put_str("rk", false)?;
    /// s.finish();
    /// assert_eq!(&buf[..], [0, 2, b'r', b'k']);
    /// # Ok::<(), kwire::error::EncodeError>(())
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn put_str(&mut self, s: &str, flexible: bool) -> Result<(), EncodeError> {
        // As the `Writer`'s: the common prefixes inline, the rest shared;
        // a common prefix and the bytes checked against the reservation at
        // once.
        if !flexible && s.len() <= MAX_STRING_LEN {
            self.put_prefixed((s.len() as i16).to_be_bytes(), s.as_bytes())
        } else if flexible && s.len() < 0x7f {
            self.put_prefixed([s.len() as u8 + 1], s.as_bytes())
        } else {
            let (prefix, n) = crate::primitives::string::long_str_len(s.len())?;
            self.put_slice(prefix.get(..n).unwrap_or_default())?;
            self.put_slice(s.as_bytes())
        }
    }

    /// Writes `prefix`, then `src`, after one check that both fit.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn put_prefixed<const N: usize>(&mut self, prefix: [u8; N], src: &[u8]) -> Result<(), EncodeError> {
        let (dst, end) = self.room(N + src.len())?;
        let (head, tail) = dst.split_at_mut(N);
        write_bytes(head, &prefix);
        write_bytes(tail, src);
        self.pos = end;
        Ok(())
    }

    /// Appends a string or null (classic `ff ff`, compact `00`).
    ///
    /// # Errors
    /// As [`Segment::put_str`].
    ///
    /// # Example
    /// ```
    /// # use kwire::primitives::Writer;
    /// let mut buf = bytes::BytesMut::new();
    /// let mut w = Writer::new(&mut buf);
    /// let mut s = w.segment(2 + 1);
    /// s.put_nullable_str(None, false)?;
    /// s.put_nullable_str(None, true)?;
    /// s.finish();
    /// assert_eq!(&buf[..], [0xff, 0xff, 0]);
    /// # Ok::<(), kwire::error::EncodeError>(())
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn put_nullable_str(&mut self, s: Option<&str>, flexible: bool) -> Result<(), EncodeError> {
        match s {
            Some(s) => self.put_str(s, flexible),
            None if flexible => self.put_u8(0),
            None => self.put_slice(&[0xff, 0xff]),
        }
    }

    /// Appends an array of fixed-width values: int32 count (classic) or
    /// uvarint count+1 (compact, when `flexible`), then the values; at most
    /// 5 + `items.len() * T::SIZE` bytes.
    ///
    /// # Errors
    /// [`EncodeErrorKind::TooLong`] for more items than an int32 count
    /// holds; [`EncodeErrorKind::Invalid`] when they do not fit in what is left.
    ///
    /// # Example
    /// ```
    /// # use kwire::primitives::Writer;
    /// let mut buf = bytes::BytesMut::new();
    /// let mut w = Writer::new(&mut buf);
    /// let mut s = w.segment(1 + 8);
    /// s.put_fixed_array(&[1i32, 2], true)?;
    /// s.finish();
    /// assert_eq!(&buf[..], [3, 0, 0, 0, 1, 0, 0, 0, 2]);
    /// # Ok::<(), kwire::error::EncodeError>(())
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn put_fixed_array<T: Fixed>(&mut self, items: &[T], flexible: bool) -> Result<(), EncodeError> {
        // As for strings: a common prefix and the values checked against
        // the reservation at once.
        if flexible && items.len() < 0x7f {
            self.put_prefixed_values([items.len() as u8 + 1], items)
        } else if !flexible && items.len() < i32::MAX as usize {
            self.put_prefixed_values((items.len() as i32).to_be_bytes(), items)
        } else {
            self.put_count(items.len(), flexible)?;
            self.put_prefixed_values([], items)
        }
    }

    /// Appends the count of an array whose elements are written after the
    /// segment (structs, strings): int32 (classic) or uvarint count+1
    /// (compact, when `flexible`); at most 5 bytes.
    ///
    /// # Errors
    /// [`EncodeErrorKind::TooLong`] for more items than an int32 count
    /// holds; [`EncodeErrorKind::Invalid`] when it does not fit in what is left.
    ///
    /// # Example
    /// ```
    /// # use kwire::primitives::Writer;
    /// let mut buf = bytes::BytesMut::new();
    /// let mut w = Writer::new(&mut buf);
    /// let mut s = w.segment(4 + 1);
    /// s.put_count(2, false)?;
    /// s.put_count(2, true)?;
    /// s.finish();
    /// assert_eq!(&buf[..], [0, 0, 0, 2, 3]);
    /// # Ok::<(), kwire::error::EncodeError>(())
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn put_count(&mut self, count: usize, flexible: bool) -> Result<(), EncodeError> {
        if flexible && count < 0x7f {
            self.put_u8(count as u8 + 1)
        } else if !flexible && count < i32::MAX as usize {
            self.put_fixed(count as i32)
        } else {
            let (prefix, n) = crate::primitives::bytes::long_len(count)?;
            match flexible {
                true => self.put_slice(prefix.get(..n).unwrap_or_default()),
                false => self.put_slice(&(count as i32).to_be_bytes()),
            }
        }
    }

    /// Writes `prefix`, then each of `items`, after one check that all fit.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn put_prefixed_values<T: Fixed, const N: usize>(
        &mut self,
        prefix: [u8; N],
        items: &[T],
    ) -> Result<(), EncodeError> {
        let (dst, end) = self.room(N + items.len() * T::SIZE)?;
        let (head, tail) = dst.split_at_mut(N);
        write_bytes(head, &prefix);
        // Most such arrays (replica lists, ISRs) hold a few values: written
        // straight, they skip the setup of a loop built for long arrays.
        let chunks = tail.chunks_exact_mut(T::SIZE);
        match *items {
            [a] => write_all([a], chunks),
            [a, b] => write_all([a, b], chunks),
            [a, b, c] => write_all([a, b, c], chunks),
            [a, b, c, d] => write_all([a, b, c, d], chunks),
            _ => {
                for (chunk, &item) in chunks.zip(items) {
                    item.write(chunk);
                }
            }
        }
        self.pos = end;
        Ok(())
    }
}

impl Writer<'_> {
    /// Reserves `bound` bytes and returns them as a [`Segment`] to write
    /// into; [`Segment::finish`] keeps what was written. Generated code
    /// adds up each field's most bytes for `bound`.
    ///
    /// Writes are checked against exactly `bound`: a bound too small fails
    /// every time, and a write past the end returns an error and never
    /// writes out of bounds. Where `bound` and the writes are constants (a
    /// struct of fixed-width fields) the checks cost nothing.
    ///
    /// For generated code, as the rest of [`crate::encoding`]: hidden
    /// from the documentation, not part of the stable API.
    #[doc(hidden)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn segment(&mut self, bound: usize) -> Segment<'_> {
        let buf: &mut BytesMut = self;
        buf.reserve(bound);
        let spare = buf.spare_capacity_mut();
        // The segment is `bound` bytes: where `bound` and the writes are
        // constants the compiler then knows each write fits and drops its
        // check. `reserve` leaves at least `bound` bytes of spare capacity
        // (its documented guarantee), so they are all spare capacity; builds
        // with debug assertions take the smaller of the two all the same.
        let cap = if cfg!(debug_assertions) { bound.min(spare.len()) } else { bound };
        let start = spare.as_mut_ptr();
        Segment { buf, start, cap, pos: 0 }
    }
}

/// Writes `N` values to the first `N` chunks, unrolled.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
fn write_all<T: Fixed, const N: usize>(values: [T; N], mut chunks: std::slice::ChunksExactMut<'_, MaybeUninit<u8>>) {
    // Indexes rather than the array's `into_iter`: no iterator types to
    // compile for each `T` and `N`.
    #[allow(clippy::needless_range_loop)]
    for i in 0..N {
        if let Some(chunk) = chunks.next() {
            values[i].write(chunk);
        }
    }
}

#[cold]
fn segment_short() -> EncodeError {
    EncodeError::new(EncodeErrorKind::Invalid("encoding is longer than the bytes reserved for it"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::primitives::varint::put_uvarint;

    /// What `f` writes into a segment of `bound` bytes, or its error.
    fn written(
        bound: usize,
        f: impl FnOnce(&mut Segment<'_>) -> Result<(), EncodeError>,
    ) -> Result<Vec<u8>, EncodeError> {
        let mut buf = BytesMut::new();
        let mut w = Writer::new(&mut buf);
        let mut s = w.segment(bound);
        f(&mut s)?;
        s.finish();
        Ok(buf.to_vec())
    }

    #[test]
    fn counts_match_the_writer_prefixes_on_both_sides_of_one_byte() -> Result<(), EncodeError> {
        for count in [0usize, 1, 125, 126, 127, 128, 16382, 16383, 16384, 2_000_000] {
            let mut expected = BytesMut::new();
            put_uvarint(&mut Writer::new(&mut expected), count as u32 + 1);
            assert_eq!(written(5, |s| s.put_count(count, true))?, expected, "compact {count}");
            assert_eq!(written(5, |s| s.put_count(count, false))?, (count as i32).to_be_bytes(), "classic {count}");
        }
        Ok(())
    }

    #[test]
    fn strings_of_every_short_length_are_copied_whole() -> Result<(), EncodeError> {
        // Lengths on both sides of 8, 16 and 32 bytes, each byte distinct so
        // that a misplaced or missing chunk shows.
        let text: String = (0..40u8).map(|i| char::from(b'A' + i)).collect();
        for n in 0..=text.len() {
            let s = &text[..n];
            for (flexible, prefix) in [(false, (n as u16).to_be_bytes().to_vec()), (true, vec![n as u8 + 1])] {
                // A bound of exactly what is written: no spare byte to hide an overrun in debug builds.
                let out = written(prefix.len() + n, |seg| seg.put_str(s, flexible))?;
                assert_eq!(out, [prefix.as_slice(), s.as_bytes()].concat(), "length {n}, flexible {flexible}");
            }
        }
        Ok(())
    }

    #[test]
    fn a_count_beyond_an_int32_is_refused_not_truncated() {
        for flexible in [false, true] {
            let result = written(5, |s| s.put_count(i32::MAX as usize, flexible));
            assert!(
                matches!(&result, Err(e) if matches!(e.kind(), EncodeErrorKind::TooLong(n) if *n == i32::MAX as usize)),
                "{result:?}"
            );
        }
    }

    #[test]
    fn fixed_arrays_long_enough_for_a_two_byte_prefix() -> Result<(), EncodeError> {
        let items: Vec<i32> = (0..200).collect();
        let out = written(5 + 800, |s| s.put_fixed_array(&items, true))?;
        assert_eq!(out[..2], [0xc9, 0x01]); // 201 as a uvarint
        assert_eq!(out[2..6], [0, 0, 0, 0]);
        assert_eq!(out[out.len() - 4..], 199i32.to_be_bytes());
        assert_eq!(out.len(), 2 + 800);
        Ok(())
    }

    #[test]
    #[cfg(debug_assertions)]
    fn writes_beyond_the_bound_fail_even_with_spare_capacity() -> Result<(), EncodeError> {
        let mut buf = BytesMut::with_capacity(64);
        let mut w = Writer::new(&mut buf);
        let mut s = w.segment(3);
        assert!(s.put_count(1, false).is_err());
        s.put_count(1, true)?;
        s.put_slice(b"ab")?;
        assert!(s.put_u8(0).is_err());
        s.finish();
        assert_eq!(&buf[..], [2, b'a', b'b']);
        Ok(())
    }
}
