//! [`Reader`]: a decoding cursor over [`Bytes`] (or a borrowed `&[u8]`)
//! that knows its byte offset.

use bytes::Bytes;

use crate::error::{DecodeError, DecodeErrorKind};

/// A cursor over [`Bytes`] that reads Kafka's fixed-width big-endian values
/// and varints, and hands out sub-slices without copying.
///
/// Every read checks the remaining length first; on failure the cursor is
/// left where it was and the error names the offset from the start of the
/// input.
///
/// # Example
/// ```
/// use kwire::primitives::Reader;
/// let mut r = Reader::new(bytes::Bytes::from_static(&[0x00, 0x12, 0x80, 0x01]));
/// assert_eq!(r.read_i16().unwrap(), 18);
/// assert_eq!(r.read_uvarint().unwrap(), 128);
/// assert_eq!(r.remaining(), 0);
/// ```
/// The input is [`Bytes`] by default, which owned messages decode from
/// (their `bytes` and `records` fields share its memory), or a borrowed
/// `&'a [u8]`, which views (feature `borrowed`) decode from: then
/// [`Reader::read_bytes`] hands out `&'a [u8]` slices of it.
#[derive(Debug, Clone)]
pub struct Reader<B = Bytes> {
    /// The whole input; only `bytes` and `records` fields take slices of it.
    buf: B,
    /// Index of the next byte in `buf`; never past its end, since every
    /// method checks before it moves it (the unchecked reads rely on this).
    pos: usize,
    /// Offset of `buf[0]` from the start of the outermost input.
    base: usize,
    /// The limits on counts this reader enforces; sub-readers inherit them.
    limits: ReadLimits,
}

/// Limits on the element counts a [`Reader`] accepts while decoding
/// messages, beyond the check that every count fits in the bytes left.
///
/// The defaults are Kafka 4.4's (its `MessageUtil.MAX_ARRAY_LENGTH` and
/// `MAX_TAGGED_FIELD_COUNT`): an array of messages (classic or compact,
/// nullable or not, tagged or not; not the records of a `records` field)
/// of more than 1,000,000 elements is refused with
/// [`DecodeErrorKind::ArrayTooLong`], a tagged-field section of more than
/// 10,000 entries with [`DecodeErrorKind::TooManyTaggedFields`]. Kafka
/// 4.2.2 has them too; 3.9, 4.0, 4.1 and 4.3.1 have neither:
/// [`ReadLimits::NONE`] reads as they do. [`Message::decode`](crate::message::Message::decode) and the
/// frame decoders use the defaults; to change them, decode from a reader
/// made with [`Reader::with_limits`].
///
/// # Example
/// ```
/// use kwire::message::Message;
/// use kwire::messages::ResponseHeader;
/// use kwire::primitives::{ReadLimits, Reader};
/// assert_eq!(ReadLimits::default().max_array_length, 1_000_000);
/// // ResponseHeader v1: correlation id 1, then 10,001 empty unknown tagged
/// // fields, tags 0 to 10,000 (the count 10,001 is the uvarint 91 4e).
/// let mut bytes = vec![0, 0, 0, 1, 0x91, 0x4e];
/// for tag in 0u32..10_001 {
///     match tag {
///         0..=127 => bytes.extend([tag as u8, 0]),
///         _ => bytes.extend([tag as u8 | 0x80, (tag >> 7) as u8, 0]),
///     }
/// }
/// let bytes = bytes::Bytes::from(bytes);
/// assert!(ResponseHeader::decode_exact(bytes.clone(), 1).is_err());
/// let mut lifted = Reader::new(bytes).with_limits(ReadLimits::NONE);
/// let header = ResponseHeader::decode_from(&mut lifted, 1)?;
/// assert_eq!(header.unknown_tagged_fields.len(), 10_001);
/// # Ok::<(), kwire::error::DecodeError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadLimits {
    /// Most elements an array may hold. Default 1,000,000.
    pub max_array_length: usize,
    /// Most entries a tagged-field section may hold. Default 10,000.
    pub max_tagged_fields: usize,
}

impl ReadLimits {
    /// Kafka 4.4's limits: 1,000,000 elements, 10,000 tagged fields.
    pub const KAFKA: ReadLimits = ReadLimits { max_array_length: 1_000_000, max_tagged_fields: 10_000 };

    /// No limit but the bytes left, as Kafka 3.9 reads.
    pub const NONE: ReadLimits = ReadLimits { max_array_length: usize::MAX, max_tagged_fields: usize::MAX };
}

impl Default for ReadLimits {
    fn default() -> Self {
        Self::KAFKA
    }
}

macro_rules! read_fixed {
    ($(#[$doc:meta] $name:ident -> $ty:ty, $n:expr;)*) => {$(
        #[$doc]
        ///
        /// # Errors
        /// [`DecodeErrorKind::NotEnoughBytes`] when fewer bytes remain.
        #[inline]
        pub fn $name(&mut self) -> Result<$ty, DecodeError> {
            Ok(<$ty>::from_be_bytes(self.take::<$n>()?))
        }
    )*};
}

/// What a [`Reader`] reads from: [`Bytes`] (slices share its memory) or
/// `&[u8]` (slices borrow it). Sealed.
///
/// # Example
/// ```
/// use kwire::primitives::Reader;
/// let input: &[u8] = b"\x00\x00\x00\x02rk";
/// let mut borrowed = Reader::new(input);
/// let len = borrowed.read_i32()? as usize;
/// let rk: &[u8] = borrowed.read_bytes(len)?; // a slice of `input`
/// assert_eq!(rk, b"rk");
/// let mut shared = Reader::new(bytes::Bytes::from_static(input));
/// shared.skip(4)?;
/// assert_eq!(shared.read_bytes(2)?, bytes::Bytes::from_static(b"rk"));
/// # Ok::<(), kwire::error::DecodeError>(())
/// ```
pub trait Input: AsRef<[u8]> + Clone + Default + sealed::Slice {}

impl Input for Bytes {}

impl Input for &[u8] {}

mod sealed {
    use bytes::{Buf, Bytes};

    /// Keeps [`super::Input`] to the two inputs the decoders are built for,
    /// and its slicing to the reader, which checks the bounds first.
    pub trait Slice: Sized {
        /// Bytes `start..end`, where `start <= end <= len`.
        fn slice(&self, start: usize, end: usize) -> Self;

        /// Without the first `n` bytes, where `n <= len`.
        fn skip(self, n: usize) -> Self;
    }

    impl Slice for Bytes {
        #[inline]
        fn slice(&self, start: usize, end: usize) -> Self {
            Bytes::slice(self, start..end)
        }

        #[inline]
        fn skip(mut self, n: usize) -> Self {
            self.advance(n);
            self
        }
    }

    impl Slice for &[u8] {
        #[inline]
        fn slice(&self, start: usize, end: usize) -> Self {
            self.get(start..end).unwrap_or_default()
        }

        #[inline]
        fn skip(self, n: usize) -> Self {
            self.get(n..).unwrap_or_default()
        }
    }
}

impl<B: Input> Reader<B> {
    /// A reader over `buf`, at offset 0.
    pub fn new(buf: B) -> Self {
        Self { buf, pos: 0, base: 0, limits: ReadLimits::KAFKA }
    }

    /// This reader with `limits` in place of the defaults.
    #[must_use]
    pub fn with_limits(mut self, limits: ReadLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Bytes not yet read.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.buf.as_ref().len() - self.pos
    }

    /// Offset of the next byte from the start of the input, in bytes.
    #[inline]
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// An error of `kind` at the current offset.
    #[cold]
    pub fn error(&self, kind: DecodeErrorKind) -> DecodeError {
        DecodeError::new(kind, self.offset())
    }

    #[cold]
    fn short(&self, n: usize) -> DecodeError {
        self.error(DecodeErrorKind::NotEnoughBytes { needed: n, remaining: self.remaining() })
    }

    /// The bytes not yet read, borrowed.
    #[inline]
    fn rest(&self) -> &[u8] {
        match self.buf.as_ref().get(self.pos..) {
            Some(rest) => rest,
            None => &[],
        }
    }

    /// The next `N` bytes as an array: one bounds check.
    ///
    /// # Errors
    /// [`DecodeErrorKind::NotEnoughBytes`] when fewer than `N` remain.
    ///
    /// # Example
    /// ```
    /// use kwire::primitives::Reader;
    /// let mut r = Reader::new(bytes::Bytes::from_static(&[1, 2, 3]));
    /// assert_eq!(r.read_array::<2>()?, [1, 2]);
    /// assert!(r.read_array::<2>().is_err()); // one byte left, and it stays
    /// assert_eq!(r.remaining(), 1);
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    #[inline]
    pub fn read_array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        self.take()
    }

    /// Moves past the next byte when it is `byte`; true when it was.
    #[inline]
    pub(crate) fn next_is(&mut self, byte: u8) -> bool {
        let found = self.rest().first() == Some(&byte);
        self.pos += usize::from(found);
        found
    }

    /// Reads `N` bytes, or `None` (reading nothing) when fewer remain: for
    /// callers that build their own error.
    #[inline]
    pub(crate) fn read_array_or_none<const N: usize>(&mut self) -> Option<[u8; N]> {
        let chunk = *self.rest().first_chunk::<N>()?;
        self.pos += N;
        Some(chunk)
    }

    #[inline]
    fn take<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        match self.rest().first_chunk::<N>() {
            Some(chunk) => {
                let chunk = *chunk;
                self.pos += N;
                Ok(chunk)
            }
            None => Err(self.short(N)),
        }
    }

    /// Borrows the next `n` bytes and moves past them, without touching the
    /// reference count of the input (strings are read this way).
    ///
    /// # Errors
    /// [`DecodeErrorKind::NotEnoughBytes`] when fewer than `n` remain.
    ///
    /// # Example
    /// ```
    /// use kwire::primitives::Reader;
    /// let mut r = Reader::new(bytes::Bytes::from_static(b"rk!"));
    /// assert_eq!(r.read_slice(2)?, b"rk");
    /// assert_eq!(r.offset(), 2);
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    #[inline]
    pub fn read_slice(&mut self, n: usize) -> Result<&[u8], DecodeError> {
        let start = self.pos;
        match self.buf.as_ref().get(start..).and_then(|rest| rest.get(..n)) {
            Some(slice) => {
                self.pos += n;
                Ok(slice)
            }
            None => Err(self.short(n)),
        }
    }

    /// The next byte, without moving past it; `None` at the end of input.
    ///
    /// # Example
    /// ```
    /// use kwire::primitives::Reader;
    /// let mut r = Reader::new(bytes::Bytes::from_static(&[0]));
    /// assert_eq!(r.peek_u8(), Some(0));
    /// r.skip(1)?;
    /// assert_eq!(r.peek_u8(), None);
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    #[inline]
    pub fn peek_u8(&self) -> Option<u8> {
        self.rest().first().copied()
    }

    /// Moves past `n` bytes already inspected with [`Reader::peek_u8`].
    ///
    /// # Errors
    /// [`DecodeErrorKind::NotEnoughBytes`] when fewer than `n` remain.
    #[inline]
    pub fn skip(&mut self, n: usize) -> Result<(), DecodeError> {
        self.read_slice(n).map(|_| ())
    }

    read_fixed! {
        /// Reads an `int8`.
        read_i8 -> i8, 1;
        /// Reads a big-endian `int16`.
        read_i16 -> i16, 2;
        /// Reads a big-endian `uint16`.
        read_u16 -> u16, 2;
        /// Reads a big-endian `int32`.
        read_i32 -> i32, 4;
        /// Reads a big-endian `uint32`.
        read_u32 -> u32, 4;
        /// Reads a big-endian `int64`.
        read_i64 -> i64, 8;
        /// Reads a big-endian IEEE-754 `float64`.
        read_f64 -> f64, 8;
    }

    /// Reads a `bool`: any non-zero byte is `true`.
    ///
    /// # Errors
    /// [`DecodeErrorKind::NotEnoughBytes`] at the end of input.
    #[inline]
    pub fn read_bool(&mut self) -> Result<bool, DecodeError> {
        Ok(self.read_i8()? != 0)
    }

    /// Reads an unsigned varint of at most 5 bytes (a `u32`).
    ///
    /// # Errors
    /// [`DecodeErrorKind::VarintTooLong`] when the 5th byte has its high bit
    /// set; [`DecodeErrorKind::NotEnoughBytes`] when the input ends first.
    #[inline]
    pub fn read_uvarint(&mut self) -> Result<u32, DecodeError> {
        // Nearly every count, length and tag fits in one byte.
        if let Some(&b) = self.rest().first() {
            if b < 0x80 {
                self.pos += 1;
                return Ok(u32::from(b));
            }
        }
        self.read_long_uvarint()
    }

    /// [`Reader::read_uvarint`] of two bytes or more, in one shared function.
    #[inline(never)]
    fn read_long_uvarint(&mut self) -> Result<u32, DecodeError> {
        self.read_uvarint_inline()
    }

    /// [`Reader::read_uvarint`] compiled in place, for the lengths of
    /// `bytes` and `records` fields: most of them take two bytes or more.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn read_uvarint_inline(&mut self) -> Result<u32, DecodeError> {
        let (value, len) = super::varint::decode_u32(self.rest()).map_err(|kind| self.error(kind))?;
        self.pos += len;
        Ok(value)
    }

    /// Reads an unsigned varint of at most 10 bytes (a `u64`).
    ///
    /// # Errors
    /// As [`Reader::read_uvarint`], with a 10-byte limit.
    #[inline]
    pub fn read_uvarlong(&mut self) -> Result<u64, DecodeError> {
        let (value, len) = super::varint::decode_u64(self.rest()).map_err(|kind| self.error(kind))?;
        self.pos += len;
        Ok(value)
    }

    /// Reads a zig-zag signed varint (record batches only).
    ///
    /// # Errors
    /// As [`Reader::read_uvarint`].
    #[inline]
    pub fn read_varint(&mut self) -> Result<i32, DecodeError> {
        self.read_uvarint().map(super::varint::unzigzag32)
    }

    /// Reads a zig-zag signed varlong (record batches only).
    ///
    /// # Errors
    /// As [`Reader::read_uvarlong`].
    #[inline]
    pub fn read_varlong(&mut self) -> Result<i64, DecodeError> {
        self.read_uvarlong().map(super::varint::unzigzag64)
    }

    /// Takes the next `n` bytes as a slice of the input: a [`Bytes`] that
    /// shares its memory, or a `&'a [u8]` that borrows it.
    ///
    /// # Errors
    /// [`DecodeErrorKind::NotEnoughBytes`] when fewer than `n` remain.
    #[inline]
    pub fn read_bytes(&mut self, n: usize) -> Result<B, DecodeError> {
        // Written so that the compiler sees `start <= end <= len` and drops
        // the range checks of the slice.
        let start = self.pos;
        match start.checked_add(n) {
            Some(end) if end <= self.buf.as_ref().len() => {
                self.pos = end;
                Ok(self.buf.slice(start, end))
            }
            _ => Err(self.short(n)),
        }
    }

    /// Succeeds when at least `n` bytes remain: for readers that look at
    /// bytes ([`Reader::next_slice_unchecked`]) before they take them
    /// ([`Reader::read_bytes_unchecked`]).
    ///
    /// # Errors
    /// [`DecodeErrorKind::NotEnoughBytes`] when fewer than `n` remain.
    #[inline]
    pub(crate) fn ensure_remaining(&self, n: usize) -> Result<(), DecodeError> {
        match n <= self.remaining() {
            true => Ok(()),
            false => Err(self.short(n)),
        }
    }

    /// The next `n` bytes, borrowed, without moving past them.
    ///
    /// # Safety
    /// At least `n` bytes remain ([`Reader::ensure_remaining`]).
    #[inline]
    pub(crate) unsafe fn next_slice_unchecked(&self, n: usize) -> &[u8] {
        // SAFETY: `pos + n` is within the input, by the caller's check.
        unsafe { self.buf.as_ref().get_unchecked(self.pos..self.pos + n) }
    }

    /// Takes the next `n` bytes as [`Reader::read_bytes`] does, without
    /// checking again that they are there.
    ///
    /// # Safety
    /// At least `n` bytes remain ([`Reader::ensure_remaining`]).
    #[inline]
    pub(crate) unsafe fn read_bytes_unchecked(&mut self, n: usize) -> B {
        let start = self.pos;
        let end = start + n;
        // SAFETY: `start + n` is within the input, by the caller's check;
        // said here so that the compiler drops the slice's own range checks.
        unsafe { std::hint::assert_unchecked(start <= end && end <= self.buf.as_ref().len()) };
        self.pos = end;
        self.buf.slice(start, end)
    }

    /// Takes the next `n` bytes as a reader of their own that keeps counting
    /// offsets from the start of the whole input.
    ///
    /// # Errors
    /// [`DecodeErrorKind::NotEnoughBytes`] when fewer than `n` remain.
    #[inline]
    pub fn sub_reader(&mut self, n: usize) -> Result<Reader<B>, DecodeError> {
        let base = self.offset();
        let limits = self.limits;
        Ok(Reader { buf: self.read_bytes(n)?, pos: 0, base, limits })
    }

    /// Checks that a count of elements, each at least `min_size` bytes, can
    /// fit in what remains, before anything is allocated for them.
    ///
    /// # Errors
    /// [`DecodeErrorKind::CountTooLarge`] when it cannot.
    #[inline]
    pub fn check_count(&self, count: usize, min_size: usize) -> Result<(), DecodeError> {
        if count.saturating_mul(min_size.max(1)) > self.remaining() {
            return Err(self.error(DecodeErrorKind::CountTooLarge { count: count as u64, remaining: self.remaining() }));
        }
        Ok(())
    }

    /// [`Reader::check_count`] for the element count of an array of a
    /// message, then the [`ReadLimits::max_array_length`] limit.
    ///
    /// # Errors
    /// [`DecodeErrorKind::CountTooLarge`], then
    /// [`DecodeErrorKind::ArrayTooLong`].
    #[inline]
    pub(crate) fn check_array(&self, count: usize, min_size: usize) -> Result<(), DecodeError> {
        self.check_count(count, min_size)?;
        if count > self.limits.max_array_length {
            return Err(self.over_limit(count, false));
        }
        Ok(())
    }

    /// [`Reader::check_count`] for the entry count of a tagged-field
    /// section (each at least 2 bytes), then the
    /// [`ReadLimits::max_tagged_fields`] limit.
    ///
    /// # Errors
    /// [`DecodeErrorKind::CountTooLarge`], then
    /// [`DecodeErrorKind::TooManyTaggedFields`].
    #[inline]
    pub(crate) fn check_tagged_fields(&self, count: usize) -> Result<(), DecodeError> {
        self.check_count(count, 2)?;
        if count > self.limits.max_tagged_fields {
            return Err(self.over_limit(count, true));
        }
        Ok(())
    }

    #[cold]
    fn over_limit(&self, count: usize, tagged: bool) -> DecodeError {
        self.error(match tagged {
            false => DecodeErrorKind::ArrayTooLong { count, max: self.limits.max_array_length },
            true => DecodeErrorKind::TooManyTaggedFields { count, max: self.limits.max_tagged_fields },
        })
    }

    /// The bytes not yet read, consuming the reader.
    #[inline]
    pub fn into_remaining(self) -> B {
        let read = self.pos.min(self.buf.as_ref().len());
        self.buf.skip(read)
    }

    /// Succeeds only when every byte was read.
    ///
    /// # Errors
    /// [`DecodeErrorKind::TrailingBytes`] with the count left over.
    pub fn finish(&self) -> Result<(), DecodeError> {
        match self.remaining() {
            0 => Ok(()),
            n => Err(self.error(DecodeErrorKind::TrailingBytes(n))),
        }
    }
}

impl Reader<Bytes> {
    /// Runs `read` on a reader that takes `buf` for the call (no
    /// reference-count traffic), then leaves in `buf` what was not read, or
    /// all of it when `read` fails.
    #[inline]
    pub(crate) fn lend<T>(
        buf: &mut Bytes,
        read: impl FnOnce(&mut Reader) -> Result<T, DecodeError>,
    ) -> Result<T, DecodeError> {
        let mut r = Reader::new(std::mem::take(buf));
        // Each arm hands on what `read` returned as it is, so that a decoded
        // message is not copied once more through a local.
        match read(&mut r) {
            Ok(value) => {
                *buf = r.into_remaining();
                Ok(value)
            }
            Err(e) => {
                *buf = r.buf;
                Err(e)
            }
        }
    }
}
