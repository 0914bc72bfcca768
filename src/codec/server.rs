//! The server side of a connection: requests in, responses out.

use bytes::{Bytes, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use super::{CodecError, FrameCodec, RawRequest, DEFAULT_MAX_UNAUTHENTICATED_FRAME_SIZE};
use crate::frame::ResponseFrame;

#[cfg(doc)]
use super::DEFAULT_MAX_FRAME_SIZE;

/// The server side of a Kafka connection: reads [`RawRequest`]s, writes
/// [`ResponseFrame`]s (header at the version the api key and version call
/// for, body at [`ResponseFrame::version`]).
///
/// Until [`ServerCodec::set_authenticated`] says the connection has
/// authenticated, a request frame may be at most
/// [`ServerCodec::max_unauthenticated_frame_size`] bytes
/// ([`DEFAULT_MAX_UNAUTHENTICATED_FRAME_SIZE`], 512 KiB, as Kafka's
/// `sasl.server.max.receive.size`); after, [`FrameCodec::max_frame_size`] of
/// [`ServerCodec::frames`] ([`DEFAULT_MAX_FRAME_SIZE`], as Kafka's
/// `socket.request.max.bytes`). A larger size prefix is
/// [`CodecError::FrameTooLarge`], before any of the frame is read: close
/// the connection, as Kafka does. A server without authentication (Kafka's
/// PLAINTEXT listener) marks every connection authenticated when it accepts
/// it. Responses are held to the frame codec's maximum alone.
///
/// ```
/// use kwire::codec::ServerCodec;
/// use kwire::frame::ResponseFrame;
/// use kwire::messages::{ResponseHeader, SaslHandshakeResponse};
/// use kwire::BytesMut;
/// use tokio_util::codec::{Decoder, Encoder};
///
/// let mut codec = ServerCodec::new();
/// let mut rx = BytesMut::from(&b"\x00\x00\x00\x10\x00\x11\x00\x01\x00\x00\x00\x07\xff\xff\x00\x04SCAN"[..]);
/// let request = codec.decode(&mut rx)?.unwrap();
/// assert_eq!((request.head().api_key, request.head().correlation_id), (17, 7));
///
/// let body = SaslHandshakeResponse { error_code: 33, mechanisms: vec!["PLAIN".into()] };
/// let header = ResponseHeader { correlation_id: request.head().correlation_id, ..Default::default() };
/// let mut tx = BytesMut::new();
/// codec.encode(ResponseFrame { header, body: body.into(), version: 1 }, &mut tx)?;
/// assert_eq!(&tx[..], b"\x00\x00\x00\x11\x00\x00\x00\x07\x00\x21\x00\x00\x00\x01\x00\x05PLAIN");
/// # Ok::<(), kwire::codec::CodecError>(())
/// ```
///
/// A 1 MiB frame before authentication, and after:
///
/// ```
/// use kwire::codec::{CodecError, ServerCodec};
/// use kwire::BytesMut;
/// use tokio_util::codec::Decoder;
///
/// let mut codec = ServerCodec::new();
/// let mut rx = BytesMut::from(&(1u32 << 20).to_be_bytes()[..]);
/// assert!(matches!(codec.decode(&mut rx), Err(CodecError::FrameTooLarge { size: 1048576, max: 524288 })));
///
/// let mut codec = ServerCodec::new();
/// codec.set_authenticated(true);
/// assert_eq!(codec.decode(&mut rx)?, None); // waits for the rest
/// # Ok::<(), kwire::codec::CodecError>(())
/// ```
#[derive(Debug, Clone)]
pub struct ServerCodec {
    frames: FrameCodec,
    max_unauthenticated_frame_size: usize,
    authenticated: bool,
}

impl Default for ServerCodec {
    /// Same as [`ServerCodec::new`].
    fn default() -> Self {
        Self::with_frames(FrameCodec::new())
    }
}

impl ServerCodec {
    /// A server codec with the default maximum frame sizes, for a
    /// connection that has not authenticated.
    ///
    /// ```
    /// let codec = kwire::codec::ServerCodec::new();
    /// assert_eq!(codec.frames().max_frame_size(), kwire::codec::DEFAULT_MAX_FRAME_SIZE);
    /// assert_eq!(codec.max_frame_size(), kwire::codec::DEFAULT_MAX_UNAUTHENTICATED_FRAME_SIZE);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// A server codec over a configured [`FrameCodec`], whose maximum holds
    /// once the connection has authenticated; before, the default
    /// [`DEFAULT_MAX_UNAUTHENTICATED_FRAME_SIZE`] (or the frame codec's
    /// maximum, when smaller).
    ///
    /// ```
    /// use kwire::codec::{FrameCodec, ServerCodec};
    /// let codec = ServerCodec::with_frames(FrameCodec::with_max_frame_size(1 << 20));
    /// assert_eq!(codec.frames().max_frame_size(), 1 << 20);
    /// assert_eq!(codec.max_unauthenticated_frame_size(), 512 << 10);
    /// ```
    pub fn with_frames(frames: FrameCodec) -> Self {
        Self { frames, max_unauthenticated_frame_size: DEFAULT_MAX_UNAUTHENTICATED_FRAME_SIZE, authenticated: false }
    }

    /// The frame codec underneath; its maximum is the one after
    /// authentication, and for responses.
    ///
    /// ```
    /// let codec = kwire::codec::ServerCodec::new();
    /// let _limit = codec.frames().max_frame_size();
    /// ```
    pub fn frames(&self) -> &FrameCodec {
        &self.frames
    }

    /// The frame codec underneath, to change its maximum.
    ///
    /// ```
    /// let mut codec = kwire::codec::ServerCodec::new();
    /// codec.frames_mut().set_max_frame_size(4096);
    /// assert_eq!(codec.frames().max_frame_size(), 4096);
    /// ```
    pub fn frames_mut(&mut self) -> &mut FrameCodec {
        &mut self.frames
    }

    /// The largest request frame accepted before authentication, in bytes,
    /// size prefix not counted (Kafka's `sasl.server.max.receive.size`).
    ///
    /// ```
    /// assert_eq!(kwire::codec::ServerCodec::new().max_unauthenticated_frame_size(), 524_288);
    /// ```
    pub fn max_unauthenticated_frame_size(&self) -> usize {
        self.max_unauthenticated_frame_size
    }

    /// Changes the largest request frame accepted before authentication; a
    /// frame whose size was already read keeps the size it was accepted with.
    ///
    /// ```
    /// let mut codec = kwire::codec::ServerCodec::new();
    /// codec.set_max_unauthenticated_frame_size(64 << 10);
    /// assert_eq!(codec.max_frame_size(), 64 << 10);
    /// ```
    pub fn set_max_unauthenticated_frame_size(&mut self, max_frame_size: usize) {
        self.max_unauthenticated_frame_size = max_frame_size;
    }

    /// Whether the connection has authenticated (as last set by
    /// [`ServerCodec::set_authenticated`]; `false` for a new codec).
    ///
    /// ```
    /// assert!(!kwire::codec::ServerCodec::new().is_authenticated());
    /// ```
    pub fn is_authenticated(&self) -> bool {
        self.authenticated
    }

    /// Says whether the connection has authenticated (a successful
    /// SaslAuthenticate, or a listener without authentication): from the
    /// next size prefix on, the request frame limit is
    /// [`FrameCodec::max_frame_size`] rather than
    /// [`ServerCodec::max_unauthenticated_frame_size`].
    ///
    /// ```
    /// let mut codec = kwire::codec::ServerCodec::new();
    /// codec.set_authenticated(true);
    /// assert_eq!(codec.max_frame_size(), kwire::codec::DEFAULT_MAX_FRAME_SIZE);
    /// ```
    pub fn set_authenticated(&mut self, authenticated: bool) {
        self.authenticated = authenticated;
    }

    /// The largest request frame accepted now, in bytes, size prefix not
    /// counted: [`FrameCodec::max_frame_size`] once authenticated, before
    /// that the smaller of it and
    /// [`ServerCodec::max_unauthenticated_frame_size`].
    ///
    /// ```
    /// let codec = kwire::codec::ServerCodec::new();
    /// assert_eq!(codec.max_frame_size(), 512 << 10);
    /// ```
    pub fn max_frame_size(&self) -> usize {
        let max = self.frames.max_frame_size();
        if self.authenticated {
            max
        } else {
            max.min(self.max_unauthenticated_frame_size)
        }
    }
}

impl Decoder for ServerCodec {
    type Item = RawRequest;
    type Error = CodecError;

    /// The next request, or `Ok(None)` when more bytes are needed. Only
    /// the head is read ([`RawRequest::head`]); the body stays bytes.
    ///
    /// # Errors
    /// As [`FrameCodec::decode`] with [`ServerCodec::max_frame_size`] as the
    /// maximum, and [`CodecError::ShortRequest`] (the short frame is
    /// consumed: the codec is at the next frame).
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<RawRequest>, CodecError> {
        let max = self.max_frame_size();
        self.frames.decode_up_to(src, max)?.map(RawRequest::parse).transpose()
    }

    /// As [`ServerCodec::decode`] at the end of the stream.
    ///
    /// # Errors
    /// As [`FrameCodec::decode_eof`], and [`CodecError::ShortRequest`].
    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<RawRequest>, CodecError> {
        let max = self.max_frame_size();
        self.frames.decode_eof_up_to(src, max)?.map(RawRequest::parse).transpose()
    }
}

impl Encoder<ResponseFrame> for ServerCodec {
    type Error = CodecError;

    /// Appends the response as a frame.
    ///
    /// # Errors
    /// [`CodecError::Encode`] when the header or body cannot be encoded at
    /// the version; [`CodecError::FrameTooLarge`]. On error, see
    /// [buffers after an error](crate::error#buffers-after-an-error).
    fn encode(&mut self, response: ResponseFrame, dst: &mut BytesMut) -> Result<(), CodecError> {
        self.frames.encode_in_place(dst, |b| response.encode(b))
    }
}

impl Encoder<Bytes> for ServerCodec {
    type Error = CodecError;

    /// Appends bytes already encoded (a response relayed from another
    /// broker, or a raw SASL token after SaslHandshake v0) as a frame.
    ///
    /// # Errors
    /// As [`FrameCodec::encode`].
    ///
    /// ```
    /// use kwire::codec::ServerCodec;
    /// use kwire::{Bytes, BytesMut};
    /// use tokio_util::codec::Encoder;
    /// let mut tx = BytesMut::new();
    /// ServerCodec::new().encode(Bytes::new(), &mut tx)?; // an empty SASL challenge
    /// assert_eq!(&tx[..], [0, 0, 0, 0]);
    /// # Ok::<(), kwire::codec::CodecError>(())
    /// ```
    fn encode(&mut self, frame: Bytes, dst: &mut BytesMut) -> Result<(), CodecError> {
        self.frames.encode(frame, dst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{sized, DEFAULT_MAX_FRAME_SIZE};
    use crate::messages::{ApiVersionsResponse, ResponseHeader};

    #[test]
    fn server_codec_limits_frames_until_authenticated() -> Result<(), CodecError> {
        let limit = DEFAULT_MAX_UNAUTHENTICATED_FRAME_SIZE;
        assert_eq!(limit, 524_288);
        // Exactly the limit is read before authentication; one byte more is refused
        // at the size prefix, nothing reserved.
        let mut request = vec![0u8; limit];
        request[..8].copy_from_slice(b"\x00\x12\x00\x03\x00\x00\x00\x01");
        let mut codec = ServerCodec::new();
        assert_eq!(codec.decode(&mut sized(&request))?.map(|r| r.as_bytes().len()), Some(limit));
        let mut rx = BytesMut::from(&((limit + 1) as u32).to_be_bytes()[..]);
        let err = codec.decode(&mut rx).unwrap_err();
        assert!(matches!(err, CodecError::FrameTooLarge { size, max } if size == limit + 1 && max == limit), "{err}");
        assert_eq!((rx.len(), rx.capacity()), (4, 4));
        // Authenticated: the frame codec's maximum.
        codec.set_authenticated(true);
        assert!(codec.is_authenticated());
        request.push(0);
        assert_eq!(codec.decode(&mut sized(&request))?.map(|r| r.as_bytes().len()), Some(limit + 1));
        let mut rx = BytesMut::from(&((DEFAULT_MAX_FRAME_SIZE + 1) as u32).to_be_bytes()[..]);
        assert!(matches!(codec.decode(&mut rx), Err(CodecError::FrameTooLarge { max: DEFAULT_MAX_FRAME_SIZE, .. })));
        // A smaller limit of one's own, and a frame codec smaller than it.
        let mut codec = ServerCodec::with_frames(FrameCodec::with_max_frame_size(100));
        assert_eq!(codec.max_frame_size(), 100);
        codec.set_max_unauthenticated_frame_size(10);
        assert!(matches!(
            codec.decode(&mut sized(&request[..11])),
            Err(CodecError::FrameTooLarge { size: 11, max: 10 })
        ));
        // Responses are held to the frame codec's maximum alone.
        let mut codec = ServerCodec::with_frames(FrameCodec::with_max_frame_size(1 << 20));
        codec.set_max_unauthenticated_frame_size(8);
        let response = ApiVersionsResponse { api_keys: vec![Default::default(); 4], ..Default::default() };
        let answer = ResponseFrame { header: ResponseHeader::default(), body: response.into(), version: 3 };
        codec.encode(answer, &mut BytesMut::new())?;
        Ok(())
    }

    #[test]
    fn server_codec_rejects_short_requests() {
        let mut codec = ServerCodec::new();
        assert!(matches!(codec.decode(&mut sized(b"\x00\x12\x00\x03")), Err(CodecError::ShortRequest(4))));
    }
}
