//! The length-prefixed frame codec every other codec of this module reads
//! and writes through.

use bytes::{Buf, Bytes, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use super::{CodecError, DEFAULT_MAX_FRAME_SIZE};
use crate::error::{EncodeError, EncodeErrorKind};
use crate::frame::size_prefix;
use crate::primitives::writer::all_or_nothing;

/// Where [`FrameCodec::decode`] is in the current frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DecodeState {
    /// Waiting for the 4-byte size.
    Head,
    /// The size was read; waiting for this many bytes of body.
    Data(usize),
}

/// The length-prefixed frame codec: decodes one frame (without its size)
/// as [`Bytes`], encodes [`Bytes`] with a size in front.
///
/// Decoding checks the size against [`FrameCodec::max_frame_size`], grows
/// the buffer with the bytes that arrive rather than by the size announced,
/// and remembers a size already read, so a
/// frame split over many reads is parsed once. Encoding refuses frames over
/// the same maximum.
///
/// ```
/// use kwire::codec::{CodecError, FrameCodec};
/// use kwire::BytesMut;
/// use tokio_util::codec::Decoder;
///
/// let mut codec = FrameCodec::with_max_frame_size(16);
/// let mut rx = BytesMut::from(&b"\x00\x00\x01\x00"[..]); // 256 bytes announced
/// assert!(matches!(codec.decode(&mut rx), Err(CodecError::FrameTooLarge { size: 256, max: 16 })));
/// ```
#[derive(Debug, Clone)]
pub struct FrameCodec {
    max_frame_size: usize,
    state: DecodeState,
}

impl FrameCodec {
    /// A codec with the default maximum, [`DEFAULT_MAX_FRAME_SIZE`].
    ///
    /// ```
    /// let codec = kwire::codec::FrameCodec::new();
    /// assert_eq!(codec.max_frame_size(), kwire::codec::DEFAULT_MAX_FRAME_SIZE);
    /// ```
    pub fn new() -> Self {
        Self::with_max_frame_size(DEFAULT_MAX_FRAME_SIZE)
    }

    /// A codec that accepts frames of at most `max_frame_size` bytes (size
    /// prefix not counted).
    ///
    /// ```
    /// let codec = kwire::codec::FrameCodec::with_max_frame_size(1 << 20);
    /// assert_eq!(codec.max_frame_size(), 1 << 20);
    /// ```
    pub fn with_max_frame_size(max_frame_size: usize) -> Self {
        Self { max_frame_size, state: DecodeState::Head }
    }

    /// The largest frame accepted, in bytes, size prefix not counted.
    ///
    /// ```
    /// assert_eq!(kwire::codec::FrameCodec::with_max_frame_size(9).max_frame_size(), 9);
    /// ```
    pub fn max_frame_size(&self) -> usize {
        self.max_frame_size
    }

    /// Changes the maximum; a frame whose size was already read keeps the
    /// size it was accepted with.
    ///
    /// ```
    /// let mut codec = kwire::codec::FrameCodec::new();
    /// codec.set_max_frame_size(1024);
    /// assert_eq!(codec.max_frame_size(), 1024);
    /// ```
    pub fn set_max_frame_size(&mut self, max_frame_size: usize) {
        self.max_frame_size = max_frame_size;
    }

    /// Appends a frame that `write` encodes in place, straight into `dst`
    /// (no intermediate buffer, no second copy of large records), and checks
    /// its size against the maximum once written. A frame over the maximum
    /// is taken back, but the capacity it made `dst` reserve stays.
    ///
    /// # Errors
    /// What `write` returns, as [`CodecError::Encode`];
    /// [`CodecError::FrameTooLarge`] over [`FrameCodec::max_frame_size`] (or
    /// `i32::MAX`). On error, see [buffers after an error](crate::error#buffers-after-an-error).
    pub(super) fn encode_in_place(
        &self,
        dst: &mut BytesMut,
        write: impl FnOnce(&mut BytesMut) -> Result<(), EncodeError>,
    ) -> Result<(), CodecError> {
        let max = self.max_frame_size.min(i32::MAX as usize);
        let mut too_large = None;
        let written = all_or_nothing(dst, |dst| {
            size_prefix::encode(dst, |body| {
                let start = body.len();
                write(body)?;
                let size = body.len() - start;
                if size > max {
                    // Caught below; checked before the size prefix's own int32 check.
                    too_large = Some(size);
                    return Err(EncodeError::new(EncodeErrorKind::TooLong(size)));
                }
                Ok(())
            })
        });
        match (written, too_large) {
            (Err(_), Some(size)) => Err(CodecError::FrameTooLarge { size, max }),
            (written, _) => written.map_err(CodecError::from),
        }
    }

    /// Reads the size prefix from `src` (consuming it) once 4 bytes are
    /// there, after checking it against `max`.
    fn decode_head(&mut self, src: &mut BytesMut, max: usize) -> Result<Option<usize>, CodecError> {
        let Some(size) = size_prefix::parse(src) else {
            return Ok(None);
        };
        let size = usize::try_from(size).map_err(|_| CodecError::NegativeSize(size))?;
        if size > max {
            return Err(CodecError::FrameTooLarge { size, max });
        }
        src.advance(size_prefix::LEN);
        Ok(Some(size))
    }

    /// [`FrameCodec::decode`] with `max` in place of the codec's maximum
    /// for a size prefix read now.
    pub(super) fn decode_up_to(&mut self, src: &mut BytesMut, max: usize) -> Result<Option<Bytes>, CodecError> {
        let size = match self.state {
            DecodeState::Head => match self.decode_head(src, max)? {
                Some(size) => {
                    self.state = DecodeState::Data(size);
                    size
                }
                None => return Ok(None),
            },
            DecodeState::Data(size) => size,
        };
        if src.len() < size {
            reserve_as_bytes_arrive(src, size);
            return Ok(None);
        }
        self.state = DecodeState::Head;
        let frame = src.split_to(size).freeze();
        Ok(Some(frame))
    }

    /// [`FrameCodec::decode_eof`] with `max` as in [`FrameCodec::decode_up_to`].
    pub(super) fn decode_eof_up_to(&mut self, src: &mut BytesMut, max: usize) -> Result<Option<Bytes>, CodecError> {
        if let Some(frame) = self.decode_up_to(src, max)? {
            return Ok(Some(frame));
        }
        match self.state {
            DecodeState::Head if src.is_empty() => Ok(None),
            DecodeState::Head => Err(CodecError::Truncated { expected: size_prefix::LEN, received: src.len() }),
            DecodeState::Data(size) => Err(CodecError::Truncated { expected: size, received: src.len() }),
        }
    }
}

/// Reserves room for more of a frame of `size` bytes of which `src` holds
/// the start: the rest, but no more than what has arrived, so that the size
/// prefix, which the peer chose, never sizes an allocation (a prefix alone
/// reserves nothing); the buffer doubles as bytes come.
fn reserve_as_bytes_arrive(src: &mut BytesMut, size: usize) {
    let rest = size.saturating_sub(src.len());
    src.reserve(rest.min(src.len()));
}

impl Default for FrameCodec {
    /// Same as [`FrameCodec::new`].
    ///
    /// ```
    /// let codec = kwire::codec::FrameCodec::default();
    /// assert_eq!(codec.max_frame_size(), 100 << 20);
    /// ```
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder for FrameCodec {
    type Item = Bytes;
    type Error = CodecError;

    /// The next whole frame without its size prefix, or `Ok(None)` when more
    /// bytes are needed.
    ///
    /// # Errors
    /// [`CodecError::NegativeSize`] and [`CodecError::FrameTooLarge`] for a
    /// bad size prefix; nothing is reserved for such a frame.
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Bytes>, CodecError> {
        self.decode_up_to(src, self.max_frame_size)
    }

    /// As [`FrameCodec::decode`], but at the end of the stream a partial
    /// frame is an error.
    ///
    /// # Errors
    /// As [`FrameCodec::decode`], and [`CodecError::Truncated`] when the
    /// stream ends inside a frame.
    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Bytes>, CodecError> {
        self.decode_eof_up_to(src, self.max_frame_size)
    }
}

impl Encoder<Bytes> for FrameCodec {
    type Error = CodecError;

    /// Appends the size prefix and the frame.
    ///
    /// # Errors
    /// [`CodecError::FrameTooLarge`] over [`FrameCodec::max_frame_size`] (or
    /// `i32::MAX`). On error, see [buffers after an error](crate::error#buffers-after-an-error).
    fn encode(&mut self, frame: Bytes, dst: &mut BytesMut) -> Result<(), CodecError> {
        let max = self.max_frame_size.min(i32::MAX as usize);
        if frame.len() > max {
            return Err(CodecError::FrameTooLarge { size: frame.len(), max });
        }
        let size = size_prefix::to_bytes(frame.len())?;
        dst.reserve(size_prefix::LEN + frame.len());
        dst.extend_from_slice(&size);
        dst.extend_from_slice(&frame);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::sized;
    use bytes::BufMut;

    #[test]
    fn decodes_back_to_back_frames() {
        let mut codec = FrameCodec::new();
        let mut rx = sized(b"one");
        rx.extend_from_slice(&sized(b""));
        rx.extend_from_slice(&sized(b"three"));
        assert_eq!(codec.decode(&mut rx).unwrap().as_deref(), Some(&b"one"[..]));
        assert_eq!(codec.decode(&mut rx).unwrap().as_deref(), Some(&b""[..]));
        assert_eq!(codec.decode(&mut rx).unwrap().as_deref(), Some(&b"three"[..]));
        assert_eq!(codec.decode(&mut rx).unwrap(), None);
        assert!(rx.is_empty());
    }

    #[test]
    fn resumes_a_frame_fed_one_byte_at_a_time() {
        let mut codec = FrameCodec::new();
        let wire = sized(b"hello, kafka");
        let mut rx = BytesMut::new();
        let mut out = Vec::new();
        for &b in wire.iter() {
            rx.put_u8(b);
            if let Some(f) = codec.decode(&mut rx).unwrap() {
                out.push(f);
            }
        }
        assert_eq!(out, [Bytes::from_static(b"hello, kafka")]);
        // The size was consumed once and remembered while the body arrived.
        assert_eq!(codec.state, DecodeState::Head);
    }

    #[test]
    fn remembers_the_size_between_reads() {
        let mut codec = FrameCodec::new();
        let mut rx = BytesMut::from(&b"\x00\x00\x00\x03ab"[..]);
        assert_eq!(codec.decode(&mut rx).unwrap(), None);
        assert_eq!(codec.state, DecodeState::Data(3));
        assert_eq!(&rx[..], b"ab");
        rx.put_u8(b'c');
        assert_eq!(codec.decode(&mut rx).unwrap().as_deref(), Some(&b"abc"[..]));
    }

    #[test]
    fn checks_the_size_before_reserving() {
        let mut codec = FrameCodec::with_max_frame_size(1024);
        let mut rx = BytesMut::from(&b"\x7f\xff\xff\xff"[..]);
        let capacity = rx.capacity();
        assert!(matches!(codec.decode(&mut rx), Err(CodecError::FrameTooLarge { size: 0x7fff_ffff, max: 1024 })));
        assert_eq!(rx.capacity(), capacity);
        let mut rx = BytesMut::from(&b"\xff\xff\xff\xfe"[..]);
        assert!(matches!(codec.decode(&mut rx), Err(CodecError::NegativeSize(-2))));
        // Exactly the maximum is fine.
        let mut codec = FrameCodec::with_max_frame_size(3);
        assert_eq!(codec.decode(&mut sized(b"abc")).unwrap().as_deref(), Some(&b"abc"[..]));
    }

    #[test]
    fn a_size_prefix_alone_reserves_nothing() -> Result<(), CodecError> {
        // 100 MiB - 1 announced, nothing sent: nothing reserved.
        let mut codec = FrameCodec::new();
        let mut rx = BytesMut::from(&b"\x06\x3f\xff\xff"[..]);
        assert_eq!(codec.decode(&mut rx)?, None);
        assert_eq!(rx.capacity(), 0);
        // As bytes arrive the room ahead grows with them (the buffer at most
        // doubling on top), not with the 10 MiB announced.
        let mut codec = FrameCodec::new();
        let size = 10 << 20;
        let mut rx = BytesMut::from(&(size as u32).to_be_bytes()[..]);
        for _ in 0..20 {
            rx.extend_from_slice(&[7u8; 20_000]);
            assert_eq!(codec.decode(&mut rx)?, None);
            assert!(rx.capacity() <= 4 * rx.len(), "{} for {}", rx.capacity(), rx.len());
        }
        rx.extend_from_slice(&vec![7u8; size - rx.len()]);
        assert_eq!(codec.decode(&mut rx)?.map(|f| f.len()), Some(size));
        Ok(())
    }

    #[test]
    fn eof_inside_a_frame_is_an_error() {
        let mut codec = FrameCodec::new();
        assert!(codec.decode_eof(&mut BytesMut::new()).unwrap().is_none());
        let mut rx = BytesMut::from(&b"\x00\x00"[..]);
        assert!(matches!(codec.decode_eof(&mut rx), Err(CodecError::Truncated { expected: 4, received: 2 })));
        let mut codec = FrameCodec::new();
        let mut rx = BytesMut::from(&b"\x00\x00\x00\x05ab"[..]);
        assert!(matches!(codec.decode_eof(&mut rx), Err(CodecError::Truncated { expected: 5, received: 2 })));
        let mut codec = FrameCodec::new();
        assert_eq!(codec.decode_eof(&mut sized(b"x")).unwrap().as_deref(), Some(&b"x"[..]));
    }

    #[test]
    fn encode_refuses_frames_over_the_maximum() {
        let mut codec = FrameCodec::with_max_frame_size(2);
        let mut dst = BytesMut::from(&b"keep"[..]);
        assert!(matches!(
            codec.encode(Bytes::from_static(b"abc"), &mut dst),
            Err(CodecError::FrameTooLarge { size: 3, max: 2 })
        ));
        assert_eq!(&dst[..], b"keep");
        codec.encode(Bytes::from_static(b"ab"), &mut dst).unwrap();
        assert_eq!(&dst[..], b"keep\x00\x00\x00\x02ab");
    }

    #[test]
    fn random_splits_give_the_same_frames() {
        // A fixed pseudo-random sequence of split points over many frames.
        let frames: Vec<Vec<u8>> = (0..50u8).map(|i| vec![i; usize::from(i) * 7]).collect();
        let mut wire = BytesMut::new();
        let mut enc = FrameCodec::new();
        for f in &frames {
            enc.encode(Bytes::copy_from_slice(f), &mut wire).unwrap();
        }
        let mut seed = 0x2545_f491_u32;
        let mut codec = FrameCodec::new();
        let mut rx = BytesMut::new();
        let mut out = Vec::new();
        let mut pos = 0;
        while pos < wire.len() {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let n = (seed as usize % 40 + 1).min(wire.len() - pos);
            rx.extend_from_slice(&wire[pos..pos + n]);
            pos += n;
            while let Some(f) = codec.decode(&mut rx).unwrap() {
                out.push(f.to_vec());
            }
        }
        assert_eq!(out, frames);
    }
}
