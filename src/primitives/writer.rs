//! [`Writer`]: where encoding appends, a [`BytesMut`], optionally handing
//! large `bytes` and `records` values out as shared chunks instead of
//! copying them (a vectored encode).

use std::ops::{Deref, DerefMut};

use bytes::buf::UninitSlice;
use bytes::{BufMut, Bytes, BytesMut};

/// `bytes` and `records` values shorter than this are copied even in a
/// vectored encode: below it, one more chunk costs more than the copy.
pub const SHARE_MIN: usize = 512;

/// Runs `encode` on `buf` and keeps what it appended only if it succeeds:
/// on an error `buf` is truncated back to the length it had, so a failed
/// encode leaves no partial message behind in a buffer shared with other
/// frames (only the capacity it reserved stays). [`Message::encode`],
/// the dispatch enums' `encode` and the [`frame`](crate::frame) encoders
/// all append this way.
///
/// [`Message::encode`]: crate::message::Message::encode
///
/// # Errors
/// What `encode` returns.
///
/// # Example
/// ```
/// use bytes::{BufMut, BytesMut};
/// use kwire::encoding::all_or_nothing;
/// let mut buf = BytesMut::from(&b"earlier frame"[..]);
/// let result = all_or_nothing(&mut buf, |b| {
///     b.put_u32(7);
///     Err("fails halfway")
/// });
/// assert_eq!(result, Err("fails halfway"));
/// assert_eq!(&buf[..], b"earlier frame");
/// ```
#[inline]
pub fn all_or_nothing<E>(buf: &mut BytesMut, encode: impl FnOnce(&mut BytesMut) -> Result<(), E>) -> Result<(), E> {
    let start = buf.len();
    match encode(buf) {
        Ok(()) => Ok(()),
        Err(e) => Err(roll_back(buf, start, e)),
    }
}

/// The rare path of [`all_or_nothing`], out of line: the check on the
/// common path is then one test of the result.
#[cold]
#[inline(never)]
fn roll_back<E>(buf: &mut BytesMut, start: usize, e: E) -> E {
    buf.truncate(start);
    e
}

/// The sink of [`Encode::encode_value`](super::Encode::encode_value): a
/// [`BytesMut`] to append to, and in a vectored encode also the list of
/// chunks that `bytes` and `records` values of at least [`SHARE_MIN`]
/// bytes go to, shared with the message instead of copied.
///
/// In a vectored encode the wire bytes are the chunks in order, followed by
/// what is left in the buffer ([`Message::encode_vectored`] puts it
/// together). It derefs to the buffer for plain appends.
///
/// [`Message::encode_vectored`]: crate::message::Message::encode_vectored
///
/// # Example
/// ```
/// use bytes::{BufMut, Bytes, BytesMut};
/// use kwire::primitives::Writer;
/// let records = Bytes::from(vec![7u8; 4096]);
/// let (mut buf, mut chunks) = (BytesMut::new(), Vec::new());
/// let mut w = Writer::vectored(&mut buf, &mut chunks);
/// w.put_i32(4096);
/// w.put_shared(&records); // shared, not copied
/// w.put_u8(0);
/// assert_eq!(chunks.len(), 2);
/// assert_eq!(&chunks[0][..], [0, 0, 16, 0]);
/// assert_eq!(chunks[1].as_ptr(), records.as_ptr());
/// assert_eq!(&buf[..], [0]);
/// ```
#[derive(Debug)]
pub struct Writer<'a> {
    buf: &'a mut BytesMut,
    chunks: Option<&'a mut Vec<Bytes>>,
}

impl<'a> Writer<'a> {
    /// A writer that appends everything to `buf`.
    ///
    /// # Example
    /// ```
    /// use bytes::{BufMut, Bytes, BytesMut};
    /// use kwire::primitives::Writer;
    /// let mut buf = BytesMut::new();
    /// Writer::new(&mut buf).put_shared(&Bytes::from(vec![1u8; 4096])); // copied
    /// assert_eq!(buf.len(), 4096);
    /// ```
    #[inline]
    pub fn new(buf: &'a mut BytesMut) -> Self {
        Self { buf, chunks: None }
    }

    /// A writer that appends to `buf`, and on each large shared value first
    /// moves what `buf` holds to `chunks`, then the value itself.
    pub fn vectored(buf: &'a mut BytesMut, chunks: &'a mut Vec<Bytes>) -> Self {
        Self { buf, chunks: Some(chunks) }
    }

    /// Appends `value`: copied, or in a vectored encode and when at least
    /// [`SHARE_MIN`] bytes long, handed out as a chunk that shares its memory.
    ///
    /// # Example
    /// ```
    /// use bytes::{Bytes, BytesMut};
    /// use kwire::message::SHARE_MIN;
    /// use kwire::primitives::Writer;
    /// let (mut buf, mut chunks) = (BytesMut::new(), Vec::new());
    /// let mut w = Writer::vectored(&mut buf, &mut chunks);
    /// w.put_shared(&Bytes::from(vec![0u8; SHARE_MIN - 1])); // short: copied
    /// w.put_shared(&Bytes::from(vec![0u8; SHARE_MIN])); // shared
    /// assert_eq!(chunks.iter().map(|c| c.len()).collect::<Vec<_>>(), [SHARE_MIN - 1, SHARE_MIN]);
    /// assert!(buf.is_empty());
    /// ```
    #[inline]
    pub fn put_shared(&mut self, value: &Bytes) {
        match &mut self.chunks {
            Some(chunks) if value.len() >= SHARE_MIN => {
                if !self.buf.is_empty() {
                    chunks.push(self.buf.split().freeze());
                }
                chunks.push(value.clone());
            }
            _ => self.buf.extend_from_slice(value),
        }
    }
}

impl<'a> From<&'a mut BytesMut> for Writer<'a> {
    fn from(buf: &'a mut BytesMut) -> Self {
        Self::new(buf)
    }
}

impl Deref for Writer<'_> {
    type Target = BytesMut;

    #[inline]
    fn deref(&self) -> &BytesMut {
        self.buf
    }
}

impl DerefMut for Writer<'_> {
    #[inline]
    fn deref_mut(&mut self) -> &mut BytesMut {
        self.buf
    }
}

// SAFETY: every method forwards to the `BytesMut`, which upholds the trait's
// contract; `Writer` adds no state of its own to the buffer.
unsafe impl BufMut for Writer<'_> {
    #[inline]
    fn remaining_mut(&self) -> usize {
        self.buf.remaining_mut()
    }

    #[inline]
    unsafe fn advance_mut(&mut self, cnt: usize) {
        // SAFETY: the caller's guarantee is passed on unchanged.
        unsafe { self.buf.advance_mut(cnt) }
    }

    #[inline]
    fn chunk_mut(&mut self) -> &mut UninitSlice {
        self.buf.chunk_mut()
    }

    #[inline]
    fn put_slice(&mut self, src: &[u8]) {
        self.buf.extend_from_slice(src);
    }

    #[inline]
    fn put_bytes(&mut self, val: u8, cnt: usize) {
        self.buf.put_bytes(val, cnt);
    }
}
