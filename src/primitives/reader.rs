//! [`Reader`]: a decoding cursor over [`Bytes`] that knows its byte offset.

use bytes::{Buf, Bytes};

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
/// use kafka_wire::primitives::Reader;
/// let mut r = Reader::new(bytes::Bytes::from_static(&[0x00, 0x12, 0x80, 0x01]));
/// assert_eq!(r.read_i16().unwrap(), 18);
/// assert_eq!(r.read_uvarint().unwrap(), 128);
/// assert_eq!(r.remaining(), 0);
/// ```
#[derive(Debug, Clone)]
pub struct Reader {
    buf: Bytes,
    offset: usize,
}

macro_rules! read_fixed {
    ($(#[$doc:meta] $name:ident -> $ty:ty = $get:ident, $n:expr;)*) => {$(
        #[$doc]
        ///
        /// # Errors
        /// [`DecodeErrorKind::NotEnoughBytes`] when fewer bytes remain.
        #[inline]
        pub fn $name(&mut self) -> Result<$ty, DecodeError> {
            self.need($n)?;
            self.offset += $n;
            Ok(self.buf.$get())
        }
    )*};
}

impl Reader {
    /// A reader over `buf`, at offset 0.
    pub fn new(buf: Bytes) -> Self {
        Self { buf, offset: 0 }
    }

    /// Bytes not yet read.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.buf.len()
    }

    /// Offset of the next byte from the start of the input, in bytes.
    #[inline]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// An error of `kind` at the current offset.
    #[cold]
    pub fn error(&self, kind: DecodeErrorKind) -> DecodeError {
        DecodeError::new(kind, self.offset)
    }

    #[inline]
    fn need(&self, n: usize) -> Result<(), DecodeError> {
        if self.buf.len() < n {
            return Err(self.error(DecodeErrorKind::NotEnoughBytes { needed: n, remaining: self.buf.len() }));
        }
        Ok(())
    }

    read_fixed! {
        /// Reads an `int8`.
        read_i8 -> i8 = get_i8, 1;
        /// Reads a big-endian `int16`.
        read_i16 -> i16 = get_i16, 2;
        /// Reads a big-endian `uint16`.
        read_u16 -> u16 = get_u16, 2;
        /// Reads a big-endian `int32`.
        read_i32 -> i32 = get_i32, 4;
        /// Reads a big-endian `uint32`.
        read_u32 -> u32 = get_u32, 4;
        /// Reads a big-endian `int64`.
        read_i64 -> i64 = get_i64, 8;
        /// Reads a big-endian IEEE-754 `float64`.
        read_f64 -> f64 = get_f64, 8;
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
        let (value, len) = super::varint::decode_u32(&self.buf).map_err(|kind| self.error(kind))?;
        self.buf.advance(len);
        self.offset += len;
        Ok(value)
    }

    /// Reads an unsigned varint of at most 10 bytes (a `u64`).
    ///
    /// # Errors
    /// As [`Reader::read_uvarint`], with a 10-byte limit.
    #[inline]
    pub fn read_uvarlong(&mut self) -> Result<u64, DecodeError> {
        let (value, len) = super::varint::decode_u64(&self.buf).map_err(|kind| self.error(kind))?;
        self.buf.advance(len);
        self.offset += len;
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

    /// Takes the next `n` bytes as a [`Bytes`] that shares the input's memory.
    ///
    /// # Errors
    /// [`DecodeErrorKind::NotEnoughBytes`] when fewer than `n` remain.
    #[inline]
    pub fn read_bytes(&mut self, n: usize) -> Result<Bytes, DecodeError> {
        self.need(n)?;
        self.offset += n;
        Ok(self.buf.split_to(n))
    }

    /// Takes the next `n` bytes as a reader of their own that keeps counting
    /// offsets from the start of the whole input.
    ///
    /// # Errors
    /// [`DecodeErrorKind::NotEnoughBytes`] when fewer than `n` remain.
    #[inline]
    pub fn sub_reader(&mut self, n: usize) -> Result<Reader, DecodeError> {
        let offset = self.offset;
        Ok(Reader { buf: self.read_bytes(n)?, offset })
    }

    /// Checks that a count of elements, each at least `min_size` bytes, can
    /// fit in what remains, before anything is allocated for them.
    ///
    /// # Errors
    /// [`DecodeErrorKind::CountTooLarge`] when it cannot.
    #[inline]
    pub fn check_count(&self, count: usize, min_size: usize) -> Result<(), DecodeError> {
        if count.saturating_mul(min_size.max(1)) > self.buf.len() {
            return Err(self.error(DecodeErrorKind::CountTooLarge { count: count as u64, remaining: self.buf.len() }));
        }
        Ok(())
    }

    /// The bytes not yet read, consuming the reader.
    pub fn into_remaining(self) -> Bytes {
        self.buf
    }

    /// Succeeds only when every byte was read.
    ///
    /// # Errors
    /// [`DecodeErrorKind::TrailingBytes`] with the count left over.
    pub fn finish(&self) -> Result<(), DecodeError> {
        match self.buf.len() {
            0 => Ok(()),
            n => Err(self.error(DecodeErrorKind::TrailingBytes(n))),
        }
    }
}
