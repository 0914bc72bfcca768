//! tokio-util codecs for Kafka connections (cargo feature `tokio`).
//!
//! Every Kafka message travels in a frame: a 4-byte big-endian size, then
//! that many bytes (spec §6).
//!
//! ```text
//! +----------------+---------------------------------------------+
//! | size: int32 BE | size bytes: request or response header+body |
//! +----------------+---------------------------------------------+
//! ```
//!
//! | codec | reads | writes | for |
//! |---|---|---|---|
//! | [`FrameCodec`] | [`Bytes`] (one frame, no size) | [`Bytes`] | any peer, untyped |
//! | [`ServerCodec`] | [`RawRequest`] (peeked header, raw bytes) | [`ResponseFrame`] | brokers, proxies |
//! | [`ClientCodec`] | [`ResponseFrame`] | [`RequestFrame`] | clients |
//!
//! [`Correlator`] tells which request a response answers (its api key and
//! version), for a proxy that relays raw frames; [`Call`] builds a typed
//! request's frame and takes its typed response out of a [`ResponseFrame`].
//!
//! [`FrameCodec`] checks the announced size against a configurable maximum,
//! and reserves room for a frame only as its bytes arrive (at most as much
//! again as has arrived), never by the announced size, so a peer cannot make
//! it allocate by announcing; a half-read frame resumes where it stopped
//! without reparsing the size. After an error the connection is out of step: drop it.
//!
//! [`ServerCodec`] holds a connection to a smaller maximum until it
//! authenticates ([`DEFAULT_MAX_UNAUTHENTICATED_FRAME_SIZE`], 512 KiB, as
//! Kafka's `sasl.server.max.receive.size`), and gives each request as a
//! [`RawRequest`] whose head (api key, version, correlation id) is read and
//! whose body stays bytes until asked for: a server decides on the head
//! (the SASL gate, the versions it serves) before it decodes anything.
//!
//! # Example
//! ```
//! use kwire::codec::FrameCodec;
//! use kwire::{Bytes, BytesMut};
//! use tokio_util::codec::{Decoder, Encoder};
//!
//! let mut codec = FrameCodec::new();
//! let mut wire = BytesMut::new();
//! codec.encode(Bytes::from_static(b"hello"), &mut wire)?;
//! assert_eq!(&wire[..], b"\x00\x00\x00\x05hello");
//!
//! // The bytes arrive in two pieces.
//! let mut rx = BytesMut::from(&wire[..6]);
//! assert_eq!(codec.decode(&mut rx)?, None);
//! rx.extend_from_slice(&wire[6..]);
//! assert_eq!(codec.decode(&mut rx)?, Some(Bytes::from_static(b"hello")));
//! # Ok::<(), kwire::codec::CodecError>(())
//! ```

use std::collections::VecDeque;
use std::io;

use bytes::{Buf, Bytes, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use crate::api::ApiKey;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind, UnexpectedBody};
use crate::frame::{size_prefix, RequestFrame, RequestHead, ResponseFrame};
use crate::message::Request;
use crate::messages::{RequestBody, RequestHeader, ResponseBody};
use crate::primitives::writer::all_or_nothing;
use crate::primitives::Reader;

/// The default largest frame a codec accepts: 104,857,600 bytes (100 MiB),
/// the default of Kafka's broker setting `socket.request.max.bytes`.
pub const DEFAULT_MAX_FRAME_SIZE: usize = 100 * 1024 * 1024;

/// The default largest frame a [`ServerCodec`] accepts from a connection
/// that has not authenticated: 524,288 bytes (512 KiB), the default of
/// Kafka's broker setting `sasl.server.max.receive.size`. Kafka's SASL
/// authenticator reads the frames of an unauthenticated connection with
/// this limit and closes the connection on a larger size prefix.
pub const DEFAULT_MAX_UNAUTHENTICATED_FRAME_SIZE: usize = 512 * 1024;

/// Why a codec could not read or write a frame.
///
/// ```
/// use kwire::codec::CodecError;
/// let err = CodecError::FrameTooLarge { size: 200, max: 100 };
/// assert_eq!(err.to_string(), "frame of 200 bytes is over the limit of 100");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CodecError {
    /// The size prefix is negative.
    #[error("frame size {0} is negative")]
    NegativeSize(i32),
    /// The size prefix (or a frame to write) is over the codec's maximum.
    #[error("frame of {size} bytes is over the limit of {max}")]
    FrameTooLarge {
        /// The announced (or attempted) frame size.
        size: usize,
        /// The limit in force.
        max: usize,
    },
    /// The stream ended inside a frame.
    #[error("stream ended inside a frame: {received} of {expected} bytes received")]
    Truncated {
        /// Bytes the frame needed (size prefix included while it was not read yet).
        expected: usize,
        /// Bytes that had arrived.
        received: usize,
    },
    /// A request frame shorter than the 8 bytes every request header starts
    /// with (api key, api version, correlation id).
    #[error("request frame of {0} bytes is shorter than the 8 bytes of api key, version and correlation id")]
    ShortRequest(usize),
    /// A frame that did not decode as the expected message.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// A message that could not be encoded.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// A response whose correlation id is not the oldest request in flight
    /// (Kafka answers in order on a connection), or a response with no
    /// request in flight (`expected` is `None`).
    #[error("response with correlation id {found}, expected {expected:?}")]
    UnexpectedCorrelationId {
        /// The correlation id of the oldest request in flight, if any.
        expected: Option<i32>,
        /// The correlation id the response carries.
        found: i32,
    },
    /// A response body of another api key than the typed request's
    /// ([`Call::response_from`]), given back whole.
    #[error(transparent)]
    UnexpectedBody(Box<UnexpectedBody<ResponseBody>>),
    /// An I/O error of the underlying stream.
    #[error("i/o: {0}")]
    Io(#[from] io::Error),
}

impl From<UnexpectedBody<ResponseBody>> for CodecError {
    /// [`CodecError::UnexpectedBody`].
    fn from(e: UnexpectedBody<ResponseBody>) -> Self {
        Self::UnexpectedBody(Box::new(e))
    }
}

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
    fn encode_in_place(
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
    fn decode_up_to(&mut self, src: &mut BytesMut, max: usize) -> Result<Option<Bytes>, CodecError> {
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
    fn decode_eof_up_to(&mut self, src: &mut BytesMut, max: usize) -> Result<Option<Bytes>, CodecError> {
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

/// A request as a server reads it: the frame's bytes (header and body, no
/// size prefix) and the three fields every request header starts with,
/// read without decoding the rest.
///
/// A broker can look at the api key and version first (to answer an
/// ApiVersions request of an unknown version, or to refuse an api it does
/// not serve), forward [`RawRequest::as_bytes`] unchanged (KIP-590 Envelope),
/// or decode the whole request with [`RawRequest::decode`].
///
/// ```
/// use kwire::codec::RawRequest;
/// use kwire::Bytes;
/// // SaslHandshake v1, correlation id 7, client id "c", mechanism "PLAIN".
/// let raw = RawRequest::parse(Bytes::from_static(b"\x00\x11\x00\x01\x00\x00\x00\x07\x00\x01c\x00\x05PLAIN"))?;
/// let head = raw.head();
/// assert_eq!((head.api_key, head.api_version, head.correlation_id), (17, 1, 7));
/// let frame = raw.decode()?;
/// assert_eq!(frame.header.client_id.as_deref(), Some("c"));
/// # Ok::<(), kwire::codec::CodecError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawRequest {
    bytes: Bytes,
    head: RequestHead,
}

impl RawRequest {
    /// Reads api key, api version and correlation id from the start of a
    /// request frame (without its size prefix).
    ///
    /// # Errors
    /// [`CodecError::ShortRequest`] under 8 bytes.
    ///
    /// ```
    /// use kwire::codec::{CodecError, RawRequest};
    /// let short = RawRequest::parse(kwire::Bytes::from_static(b"\x00\x12\x00"));
    /// assert!(matches!(short, Err(CodecError::ShortRequest(3))));
    /// ```
    pub fn parse(bytes: Bytes) -> Result<Self, CodecError> {
        let head = parse_head(&bytes)?;
        Ok(Self { bytes, head })
    }

    /// The request's head: api key, api version and correlation id.
    ///
    /// ```
    /// let raw = kwire::codec::RawRequest::parse(kwire::Bytes::from_static(&[0, 3, 0, 12, 0, 0, 0, 1])).unwrap();
    /// assert_eq!(raw.head().header_version().ok(), Some(2)); // Metadata v12 is flexible
    /// ```
    pub fn head(&self) -> RequestHead {
        self.head
    }

    /// The whole request, header and body, as received (no size prefix).
    ///
    /// ```
    /// let raw = kwire::codec::RawRequest::parse(kwire::Bytes::from_static(&[0, 3, 0, 12, 0, 0, 0, 1])).unwrap();
    /// assert_eq!(raw.as_bytes().len(), 8);
    /// ```
    pub fn as_bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// The request's bytes, giving up the peeked fields.
    ///
    /// ```
    /// let raw = kwire::codec::RawRequest::parse(kwire::Bytes::from_static(&[0, 3, 0, 12, 0, 0, 0, 1])).unwrap();
    /// assert_eq!(raw.into_bytes().len(), 8);
    /// ```
    pub fn into_bytes(self) -> Bytes {
        self.bytes
    }

    /// Decodes header and body ([`RequestFrame::decode`]); `bytes` fields
    /// of the body share the frame's memory.
    ///
    /// To decode into a kept frame instead, reusing what it holds (a
    /// connection that keeps one `RequestFrame` allocates nothing once it
    /// has grown, while requests of one api key follow each other), give the
    /// bytes to [`RequestFrame::decode_into`]:
    /// `frame.decode_into(raw.as_bytes().clone())`.
    ///
    /// # Errors
    /// [`CodecError::Decode`]: an unknown api key, a version the api does
    /// not have, a malformed header or body, or bytes left over.
    ///
    /// ```
    /// use kwire::codec::RawRequest;
    /// use kwire::frame::RequestFrame;
    /// let raw = RawRequest::parse(kwire::Bytes::from_static(&[0x7f, 0, 0, 0, 0, 0, 0, 1]))?;
    /// assert!(raw.decode().is_err()); // api key 32512 is unknown
    ///
    /// let bytes = kwire::Bytes::from_static(b"\x00\x12\x00\x03\x00\x00\x00\x02\x00\x01k\x00\x02p\x021\x00");
    /// let raw = RawRequest::parse(bytes)?;
    /// let mut kept = RequestFrame::default();
    /// kept.decode_into(raw.as_bytes().clone())?;
    /// assert_eq!(kept, raw.decode()?);
    /// # Ok::<(), kwire::codec::CodecError>(())
    /// ```
    pub fn decode(&self) -> Result<RequestFrame, CodecError> {
        Ok(RequestFrame::decode(self.bytes.clone())?)
    }

    /// Decodes header and body as [`RawRequest::decode`] does, but accepts
    /// bytes after the body and returns how many there were
    /// ([`RequestFrame::decode_lenient`]).
    ///
    /// Kafka's broker reads a request's fields and ignores what follows, and
    /// real clients rely on it: librdkafka 2.16 asks Metadata v12 for every
    /// topic with a 4-byte placeholder where the 1-byte compact array length
    /// goes, which leaves 3 bytes after the body. A broker that wants such
    /// clients decodes this way (and may log the count).
    ///
    /// # Errors
    /// [`CodecError::Decode`]: an unknown api key, a version the api does
    /// not have, or a malformed header or body.
    ///
    /// ```
    /// use kwire::codec::RawRequest;
    /// use kwire::messages::RequestBody;
    /// // librdkafka 2.16's Metadata v12 for all topics: null array (00), 3 stray
    /// // zero bytes, then AllowAutoTopicCreation, IncludeTopicAuthorizedOperations
    /// // and an empty tagged-field section.
    /// let bytes = kwire::Bytes::from_static(
    ///     b"\x00\x03\x00\x0c\x00\x00\x00\x03\x00\x07rdkafka\x00\x00\x00\x00\x00\x01\x00\x00",
    /// );
    /// let raw = RawRequest::parse(bytes)?;
    /// assert!(raw.decode().is_err());
    /// let (frame, trailing) = raw.decode_lenient()?;
    /// let RequestBody::Metadata(metadata) = frame.body else { unreachable!() };
    /// assert_eq!((metadata.topics, trailing), (None, 3));
    /// # Ok::<(), kwire::codec::CodecError>(())
    /// ```
    pub fn decode_lenient(&self) -> Result<(RequestFrame, usize), CodecError> {
        Ok(RequestFrame::decode_lenient(self.bytes.clone())?)
    }
}

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

/// The client side of a Kafka connection: writes [`RequestFrame`]s and
/// reads the [`ResponseFrame`]s that answer them.
///
/// A response does not say which api it answers, so the codec remembers the
/// api key and version of every request it encodes, in order, and checks
/// that each response carries the correlation id of the oldest one (Kafka
/// answers in order on a connection), as a [`Correlator`] does. Produce
/// requests with `acks = 0` get no answer and are not remembered. An
/// ApiVersions response is decoded at version 0 when it does not decode at
/// the request's version (the UNSUPPORTED_VERSION fallback,
/// [`ResponseFrame::decode`]).
///
/// ```
/// use kwire::codec::ClientCodec;
/// use kwire::frame::RequestFrame;
/// use kwire::messages::{ApiVersionsRequest, RequestHeader, ResponseBody};
/// use kwire::BytesMut;
/// use tokio_util::codec::{Decoder, Encoder};
///
/// let mut codec = ClientCodec::new();
/// let header = RequestHeader { request_api_key: 18, request_api_version: 4, correlation_id: 1, ..Default::default() };
/// let mut tx = BytesMut::new();
/// codec.encode(RequestFrame { header, body: ApiVersionsRequest::with_default_client_software().into() }, &mut tx)?;
/// assert_eq!(codec.in_flight(), 1);
///
/// // A broker that only knows ApiVersions v0-3 answers with a v0 body and error 35.
/// let mut rx = BytesMut::from(&b"\x00\x00\x00\x10\x00\x00\x00\x01\x00\x23\x00\x00\x00\x01\x00\x12\x00\x00\x00\x03"[..]);
/// let response = codec.decode(&mut rx)?.unwrap();
/// assert_eq!(response.version, 0);
/// let ResponseBody::ApiVersions(body) = response.body else { unreachable!() };
/// assert_eq!((body.error_code, body.api_keys[0].max_version), (35, 3));
/// assert_eq!(codec.in_flight(), 0);
/// # Ok::<(), kwire::codec::CodecError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct ClientCodec {
    frames: FrameCodec,
    correlator: Correlator,
}

impl ClientCodec {
    /// A client codec with the default maximum frame size.
    ///
    /// ```
    /// assert_eq!(kwire::codec::ClientCodec::new().in_flight(), 0);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// A client codec over a configured [`FrameCodec`].
    ///
    /// ```
    /// use kwire::codec::{ClientCodec, FrameCodec};
    /// let codec = ClientCodec::with_frames(FrameCodec::with_max_frame_size(1 << 20));
    /// assert_eq!(codec.frames().max_frame_size(), 1 << 20);
    /// ```
    pub fn with_frames(frames: FrameCodec) -> Self {
        Self { frames, correlator: Correlator::new() }
    }

    /// The frame codec underneath.
    ///
    /// ```
    /// let codec = kwire::codec::ClientCodec::new();
    /// let _limit = codec.frames().max_frame_size();
    /// ```
    pub fn frames(&self) -> &FrameCodec {
        &self.frames
    }

    /// Requests encoded and not yet answered.
    ///
    /// ```
    /// assert_eq!(kwire::codec::ClientCodec::new().in_flight(), 0);
    /// ```
    pub fn in_flight(&self) -> usize {
        self.correlator.in_flight()
    }
}

/// True for a request that gets no response: Produce with `acks = 0`.
fn expects_response(body: &RequestBody) -> bool {
    !matches!(body, RequestBody::Produce(produce) if produce.acks == 0)
}

impl Encoder<RequestFrame> for ClientCodec {
    type Error = CodecError;

    /// Appends the request as a frame and remembers it (unless it is a
    /// Produce with `acks = 0`).
    ///
    /// # Errors
    /// [`CodecError::Encode`] when the header and body disagree on the api
    /// key or cannot be encoded at the version; [`CodecError::FrameTooLarge`].
    /// On error nothing is remembered; see also
    /// [buffers after an error](crate::error#buffers-after-an-error).
    fn encode(&mut self, request: RequestFrame, dst: &mut BytesMut) -> Result<(), CodecError> {
        self.frames.encode_in_place(dst, |b| request.encode(b))?;
        if expects_response(&request.body) {
            self.correlator.push(Correlated {
                correlation_id: request.header.correlation_id,
                api_key: request.header.request_api_key,
                api_version: request.header.request_api_version,
            });
        }
        Ok(())
    }
}

impl ClientCodec {
    fn response(&mut self, frame: Bytes) -> Result<ResponseFrame, CodecError> {
        let request = self.correlator.match_response(&frame)?;
        let api_key = ApiKey::try_from(request.api_key)
            .map_err(|_| DecodeError::new(DecodeErrorKind::UnknownApiKey(request.api_key), 0))?;
        Ok(ResponseFrame::decode(frame, api_key, request.api_version)?)
    }
}

impl Decoder for ClientCodec {
    type Item = ResponseFrame;
    type Error = CodecError;

    /// The next response, decoded at the api key and version of the request
    /// it answers, or `Ok(None)` when more bytes are needed.
    ///
    /// # Errors
    /// As [`FrameCodec::decode`]; [`CodecError::UnexpectedCorrelationId`];
    /// [`CodecError::Decode`] for a malformed response.
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<ResponseFrame>, CodecError> {
        self.frames.decode(src)?.map(|frame| self.response(frame)).transpose()
    }

    /// As [`ClientCodec::decode`] at the end of the stream.
    ///
    /// # Errors
    /// As [`FrameCodec::decode_eof`] and [`ClientCodec::decode`].
    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<ResponseFrame>, CodecError> {
        self.frames.decode_eof(src)?.map(|frame| self.response(frame)).transpose()
    }
}

/// The request a response answers: what a [`Correlator`] gives for a
/// response frame.
///
/// ```
/// use kwire::codec::Correlated;
/// let answered = Correlated { correlation_id: 7, api_key: 3, api_version: 12 };
/// assert_eq!(kwire::api::api_info(answered.api_key).unwrap().response_header_version(answered.api_version), 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Correlated {
    /// The correlation id that request and response carry.
    pub correlation_id: i32,
    /// The request's api key: the response's body is of this api key.
    pub api_key: i16,
    /// The request's api version: the response's body is of this version
    /// (save for the ApiVersions fallback of [`ResponseFrame::decode`]),
    /// and its header version follows from api key and version
    /// ([`ApiInfo::response_header_version`](crate::api::ApiInfo::response_header_version)).
    pub api_version: i16,
}

/// Pairs the responses on one connection with the requests they answer.
///
/// A response frame carries only its correlation id (response header
/// `CorrelationId`, the first 4 bytes), not its api key or version, which
/// its header and body layout depend on. A proxy or client that relays raw
/// frames hands each request frame to [`Correlator::track_request`] as it is
/// sent, and each response frame to [`Correlator::match_response`] as it
/// arrives, which tells the api key and version to decode it at.
///
/// Kafka answers the requests of a connection in the order they came, so
/// every response must carry the correlation id of the oldest request in
/// flight. A Produce request with `Acks` = 0 gets no response at all (the
/// ProduceRequest schema's `Acks`: "0 none (no response is sent)"), so it
/// is not recorded. Header fields as
/// spec §7.1 (request header) and §7.2 (response header `CorrelationId`). Everything is read from the first bytes of each frame:
/// nothing is decoded or copied.
///
/// Frames are without their 4-byte size prefix, as [`FrameCodec`] gives
/// them (a [`RawRequest`]'s [`RawRequest::as_bytes`]).
///
/// # Example
/// ```
/// use kwire::codec::{CodecError, Correlated, Correlator};
/// use kwire::frame::RequestFrame;
/// use kwire::messages::{MetadataRequest, ProduceRequest, RequestBody, RequestHeader};
/// use kwire::BytesMut;
///
/// // Frames as a proxy sees them: Metadata v12 (correlation id 1), then a
/// // fire-and-forget Produce v9 (acks 0, correlation id 2).
/// let request = |api_key, api_version, correlation_id, body: RequestBody| {
///     let header = RequestHeader { request_api_key: api_key, request_api_version: api_version, correlation_id, ..Default::default() };
///     let mut buf = BytesMut::new();
///     RequestFrame { header, body }.encode(&mut buf).map(|()| buf)
/// };
/// let metadata = request(3, 12, 1, MetadataRequest::default().into())?;
/// let produce = request(0, 9, 2, ProduceRequest { acks: 0, ..Default::default() }.into())?;
///
/// let mut correlator = Correlator::new();
/// assert!(correlator.track_request(&metadata)?);
/// assert!(!correlator.track_request(&produce)?); // no response will come
/// assert_eq!(correlator.in_flight(), 1);
///
/// // The broker's answer: correlation id 1, then header and body.
/// let answered = correlator.match_response(b"\x00\x00\x00\x01\x00...")?;
/// assert_eq!(answered, Correlated { correlation_id: 1, api_key: 3, api_version: 12 });
/// assert!(matches!(
///     correlator.match_response(b"\x00\x00\x00\x02\x00"),
///     Err(CodecError::UnexpectedCorrelationId { expected: None, found: 2 })
/// ));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Correlator {
    in_flight: VecDeque<Correlated>,
}

impl Correlator {
    /// A correlator with no request in flight.
    ///
    /// ```
    /// assert_eq!(kwire::codec::Correlator::new().in_flight(), 0);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a request frame as sent (without its size prefix): its api
    /// key, api version and correlation id (request header `RequestApiKey`,
    /// `RequestApiVersion`, `CorrelationId`). Returns whether a response
    /// is expected: `false`, and nothing recorded, for a Produce (api key
    /// 0) with `Acks` = 0. Any api key and version is recorded, known or
    /// not; only a Produce frame is read past its first 8 bytes, up to its
    /// `Acks`.
    ///
    /// # Errors
    /// [`CodecError::ShortRequest`] under 8 bytes; [`CodecError::Decode`]
    /// for a Produce frame that ends, or whose client id or transactional
    /// id is malformed, before its `Acks`. Nothing is recorded then.
    ///
    /// ```
    /// use kwire::codec::{CodecError, Correlator};
    /// let mut correlator = Correlator::new();
    /// // Metadata v0 (header v1), correlation id 9, null client id, no topics.
    /// assert!(correlator.track_request(b"\x00\x03\x00\x00\x00\x00\x00\x09\xff\xff\x00\x00\x00\x00")?);
    /// assert!(matches!(correlator.track_request(b"\x00\x03"), Err(CodecError::ShortRequest(2))));
    /// assert_eq!(correlator.in_flight(), 1);
    /// # Ok::<(), CodecError>(())
    /// ```
    pub fn track_request(&mut self, frame: &[u8]) -> Result<bool, CodecError> {
        let head = parse_head(frame)?;
        if head.api_key == ApiKey::Produce.code() && produce_acks(frame, head.api_version)? == 0 {
            return Ok(false);
        }
        self.push(Correlated {
            correlation_id: head.correlation_id,
            api_key: head.api_key,
            api_version: head.api_version,
        });
        Ok(true)
    }

    /// The request that a response frame (without its size prefix)
    /// answers, taken off the requests in flight.
    ///
    /// # Errors
    /// [`CodecError::Truncated`] under the 4 bytes of the correlation id;
    /// [`CodecError::UnexpectedCorrelationId`] when the response's
    /// correlation id is not the oldest request's, or no request is in
    /// flight (`expected: None`). Nothing is taken off then.
    ///
    /// ```
    /// use kwire::codec::{CodecError, Correlator};
    /// let mut correlator = Correlator::new();
    /// correlator.track_request(b"\x00\x12\x00\x03\x00\x00\x00\x05\xff\xff\x00\x00\x00\x00")?; // ApiVersions v3
    /// let err = correlator.match_response(b"\x00\x00\x00\x06\x00").unwrap_err();
    /// assert!(matches!(err, CodecError::UnexpectedCorrelationId { expected: Some(5), found: 6 }));
    /// assert_eq!(correlator.match_response(b"\x00\x00\x00\x05\x00")?.api_key, 18);
    /// # Ok::<(), CodecError>(())
    /// ```
    pub fn match_response(&mut self, frame: &[u8]) -> Result<Correlated, CodecError> {
        let Some(id) = frame.first_chunk::<4>() else {
            return Err(CodecError::Truncated { expected: 4, received: frame.len() });
        };
        let found = i32::from_be_bytes(*id);
        match self.in_flight.front().copied() {
            Some(request) if request.correlation_id == found => {
                self.in_flight.pop_front();
                Ok(request)
            }
            expected => {
                Err(CodecError::UnexpectedCorrelationId { expected: expected.map(|r| r.correlation_id), found })
            }
        }
    }

    /// Requests recorded and not yet answered.
    ///
    /// ```
    /// assert_eq!(kwire::codec::Correlator::default().in_flight(), 0);
    /// ```
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Records a request known to expect a response.
    fn push(&mut self, request: Correlated) {
        self.in_flight.push_back(request);
    }
}

/// The head of a request frame, or [`CodecError::ShortRequest`] under its
/// 8 bytes (whatever the api key: a proxy relays unknown ones too).
fn parse_head(frame: &[u8]) -> Result<RequestHead, CodecError> {
    RequestHead::parse(frame).map_err(|_| CodecError::ShortRequest(frame.len()))
}

/// The `Acks` of a Produce request frame at `api_version`, read past the
/// header (client id, and tagged fields in flexible versions) and the
/// body's `TransactionalId` (v3+), without decoding anything else.
fn produce_acks(frame: &[u8], api_version: i16) -> Result<i16, DecodeError> {
    let flexible = ApiKey::Produce.info().flexible_versions.contains(api_version);
    let mut r = Reader::new(frame);
    r.skip(8)?;
    // ClientId: a classic nullable string in every header version.
    let client_id = r.read_i16()?;
    r.skip(usize::try_from(client_id).unwrap_or(0))?;
    if flexible {
        // Request header v2's tagged fields: count, then tag, size, value.
        for _ in 0..r.read_uvarint()? {
            r.read_uvarint()?;
            let size = r.read_uvarint()?;
            r.skip(size as usize)?;
        }
    }
    if api_version >= 3 {
        // TransactionalId: nullable string, compact in flexible versions.
        let len = if flexible {
            (r.read_uvarint()? as usize).saturating_sub(1)
        } else {
            usize::try_from(r.read_i16()?).unwrap_or(0)
        };
        r.skip(len)?;
    }
    r.read_i16()
}

/// A request of this crate's message set that a client can send typed:
/// every generated request type `R` (with its response type
/// `R::Response`, [`Request`]), blanket-implemented.
///
/// [`Call::into_frame`] builds the [`RequestFrame`] to send (header
/// `RequestApiKey` = `R::API_KEY`), and [`Call::response_from`] takes
/// `R::Response` out of the [`ResponseFrame`] that a [`ClientCodec`]
/// decoded for it, so a client needs no `match` over [`ResponseBody`].
///
/// # Example
/// ```
/// use kwire::codec::{Call, ClientCodec, ServerCodec};
/// use kwire::frame::ResponseFrame;
/// use kwire::messages::{MetadataRequest, MetadataResponse, ResponseHeader};
/// use kwire::BytesMut;
/// use tokio_util::codec::{Decoder, Encoder};
///
/// let (mut client, mut server, mut wire) = (ClientCodec::new(), ServerCodec::new(), BytesMut::new());
/// client.encode(MetadataRequest::default().into_frame(12, 1, Some("me".into())), &mut wire)?;
///
/// let request = server.decode(&mut wire)?.unwrap();
/// let head = request.head();
/// assert_eq!((head.api_key, head.api_version, head.correlation_id), (3, 12, 1));
/// let answer = MetadataResponse { controller_id: 1, ..Default::default() };
/// let header = ResponseHeader { correlation_id: 1, ..Default::default() };
/// server.encode(ResponseFrame { header, body: answer.clone().into(), version: 12 }, &mut wire)?;
///
/// let frame = client.decode(&mut wire)?.unwrap();
/// let response: MetadataResponse = MetadataRequest::response_from(frame)?;
/// assert_eq!(response, answer);
/// # Ok::<(), kwire::codec::CodecError>(())
/// ```
pub trait Call:
    Request<Response: TryFrom<ResponseBody, Error = UnexpectedBody<ResponseBody>>> + Into<RequestBody>
{
    /// The request frame that sends `self` at `api_version` with
    /// `correlation_id` and `client_id` (request header fields
    /// `RequestApiVersion`, `CorrelationId`, `ClientId`; the header's
    /// tagged fields left empty). The header version follows from api key
    /// and version when it is encoded.
    ///
    /// ```
    /// use kwire::codec::Call;
    /// use kwire::messages::{ApiVersionsRequest, RequestBody};
    /// let frame = ApiVersionsRequest::with_default_client_software().into_frame(3, 7, None);
    /// assert_eq!((frame.header.request_api_key, frame.header.request_api_version, frame.header.correlation_id), (18, 3, 7));
    /// assert!(matches!(frame.body, RequestBody::ApiVersions(_)));
    /// ```
    fn into_frame(self, api_version: i16, correlation_id: i32, client_id: Option<crate::ByteString>) -> RequestFrame {
        let header = RequestHeader {
            request_api_key: Self::API_KEY,
            request_api_version: api_version,
            correlation_id,
            client_id,
            ..Default::default()
        };
        RequestFrame { header, body: self.into() }
    }

    /// The typed response in `frame`, converted from its body (the version it was
    /// decoded at is `frame.version`).
    ///
    /// # Errors
    /// [`CodecError::UnexpectedBody`], holding the body, when the body is
    /// of another api key (a frame that answers another request).
    ///
    /// ```
    /// use kwire::codec::{Call, CodecError};
    /// use kwire::frame::ResponseFrame;
    /// use kwire::messages::{ApiVersionsRequest, MetadataResponse, ResponseHeader};
    /// let frame = ResponseFrame { header: ResponseHeader::default(), body: MetadataResponse::default().into(), version: 12 };
    /// let Err(CodecError::UnexpectedBody(err)) = ApiVersionsRequest::response_from(frame) else { unreachable!() };
    /// assert_eq!((err.expected, err.found), (18, 3));
    /// ```
    fn response_from(frame: ResponseFrame) -> Result<Self::Response, CodecError> {
        Ok(Self::Response::try_from(frame.body)?)
    }
}

impl<R> Call for R where
    R: Request<Response: TryFrom<ResponseBody, Error = UnexpectedBody<ResponseBody>>> + Into<RequestBody>
{
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages::{
        ApiVersionsRequest, ApiVersionsResponse, MetadataRequest, ProduceRequest, RequestHeader, ResponseBody,
        ResponseHeader,
    };
    use bytes::BufMut;

    fn frame(body: &[u8]) -> BytesMut {
        let mut buf = BytesMut::new();
        buf.put_i32(body.len() as i32);
        buf.extend_from_slice(body);
        buf
    }

    #[test]
    fn decodes_back_to_back_frames() {
        let mut codec = FrameCodec::new();
        let mut rx = frame(b"one");
        rx.extend_from_slice(&frame(b""));
        rx.extend_from_slice(&frame(b"three"));
        assert_eq!(codec.decode(&mut rx).unwrap().as_deref(), Some(&b"one"[..]));
        assert_eq!(codec.decode(&mut rx).unwrap().as_deref(), Some(&b""[..]));
        assert_eq!(codec.decode(&mut rx).unwrap().as_deref(), Some(&b"three"[..]));
        assert_eq!(codec.decode(&mut rx).unwrap(), None);
        assert!(rx.is_empty());
    }

    #[test]
    fn resumes_a_frame_fed_one_byte_at_a_time() {
        let mut codec = FrameCodec::new();
        let wire = frame(b"hello, kafka");
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
        assert_eq!(codec.decode(&mut frame(b"abc")).unwrap().as_deref(), Some(&b"abc"[..]));
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
        assert_eq!(codec.decode_eof(&mut frame(b"x")).unwrap().as_deref(), Some(&b"x"[..]));
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

    #[test]
    fn server_codec_limits_frames_until_authenticated() -> Result<(), CodecError> {
        let limit = DEFAULT_MAX_UNAUTHENTICATED_FRAME_SIZE;
        assert_eq!(limit, 524_288);
        // Exactly the limit is read before authentication; one byte more is refused
        // at the size prefix, nothing reserved.
        let mut request = vec![0u8; limit];
        request[..8].copy_from_slice(b"\x00\x12\x00\x03\x00\x00\x00\x01");
        let mut codec = ServerCodec::new();
        assert_eq!(codec.decode(&mut frame(&request))?.map(|r| r.as_bytes().len()), Some(limit));
        let mut rx = BytesMut::from(&((limit + 1) as u32).to_be_bytes()[..]);
        let err = codec.decode(&mut rx).unwrap_err();
        assert!(matches!(err, CodecError::FrameTooLarge { size, max } if size == limit + 1 && max == limit), "{err}");
        assert_eq!((rx.len(), rx.capacity()), (4, 4));
        // Authenticated: the frame codec's maximum.
        codec.set_authenticated(true);
        assert!(codec.is_authenticated());
        request.push(0);
        assert_eq!(codec.decode(&mut frame(&request))?.map(|r| r.as_bytes().len()), Some(limit + 1));
        let mut rx = BytesMut::from(&((DEFAULT_MAX_FRAME_SIZE + 1) as u32).to_be_bytes()[..]);
        assert!(matches!(codec.decode(&mut rx), Err(CodecError::FrameTooLarge { max: DEFAULT_MAX_FRAME_SIZE, .. })));
        // A smaller limit of one's own, and a frame codec smaller than it.
        let mut codec = ServerCodec::with_frames(FrameCodec::with_max_frame_size(100));
        assert_eq!(codec.max_frame_size(), 100);
        codec.set_max_unauthenticated_frame_size(10);
        assert!(matches!(
            codec.decode(&mut frame(&request[..11])),
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
        assert!(matches!(codec.decode(&mut frame(b"\x00\x12\x00\x03")), Err(CodecError::ShortRequest(4))));
    }

    #[test]
    fn client_codec_checks_correlation_ids() {
        let mut codec = ClientCodec::new();
        let mut tx = BytesMut::new();
        for correlation_id in [1, 2] {
            let header =
                RequestHeader { request_api_key: 3, request_api_version: 12, correlation_id, ..Default::default() };
            codec.encode(RequestFrame { header, body: MetadataRequest::default().into() }, &mut tx).unwrap();
        }
        assert_eq!(codec.in_flight(), 2);
        // Correlation id 2 arrives first: out of order.
        let mut rx = frame(b"\x00\x00\x00\x02\x00");
        assert!(matches!(
            codec.decode(&mut rx),
            Err(CodecError::UnexpectedCorrelationId { expected: Some(1), found: 2 })
        ));
        let mut idle = ClientCodec::new();
        let mut rx = frame(b"\x00\x00\x00\x09");
        assert!(matches!(idle.decode(&mut rx), Err(CodecError::UnexpectedCorrelationId { expected: None, found: 9 })));
    }

    #[test]
    fn client_codec_does_not_wait_for_acks_zero() {
        let mut codec = ClientCodec::new();
        let mut tx = BytesMut::new();
        let header =
            RequestHeader { request_api_key: 0, request_api_version: 9, correlation_id: 1, ..Default::default() };
        let body = ProduceRequest { acks: 0, ..Default::default() };
        codec.encode(RequestFrame { header: header.clone(), body: body.into() }, &mut tx).unwrap();
        assert_eq!(codec.in_flight(), 0);
        let body = ProduceRequest { acks: -1, ..Default::default() };
        codec.encode(RequestFrame { header, body: body.into() }, &mut tx).unwrap();
        assert_eq!(codec.in_flight(), 1);
    }

    #[test]
    fn codecs_encode_in_place_and_leave_nothing_behind_on_an_error() -> Result<(), CodecError> {
        let header =
            RequestHeader { request_api_key: 18, request_api_version: 3, correlation_id: 5, ..Default::default() };
        let body = ApiVersionsRequest { client_software_name: "t".repeat(64).into(), ..Default::default() };
        let request = || RequestFrame { header: header.clone(), body: body.clone().into() };
        let mut wire = BytesMut::from(&b"queued"[..]);
        // Too large for the maximum: refused after encoding, nothing kept, nothing remembered.
        let mut client = ClientCodec::with_frames(FrameCodec::with_max_frame_size(32));
        let err = client.encode(request(), &mut wire).unwrap_err();
        assert!(matches!(err, CodecError::FrameTooLarge { max: 32, size } if size > 64), "{err}");
        assert_eq!((&wire[..], client.in_flight()), (&b"queued"[..], 0));
        // Not encodable at its version: the same.
        let bad = RequestFrame {
            header: RequestHeader { request_api_version: 99, ..header.clone() },
            body: body.clone().into(),
        };
        assert!(matches!(ClientCodec::new().encode(bad, &mut wire), Err(CodecError::Encode(_))));
        assert_eq!(&wire[..], b"queued");
        // Within the maximum: the frame follows what was queued, byte for byte
        // what RequestFrame::encode_sized gives.
        let mut client = ClientCodec::with_frames(FrameCodec::with_max_frame_size(256));
        client.encode(request(), &mut wire)?;
        let mut expected = BytesMut::from(&b"queued"[..]);
        RequestFrame { header: header.clone(), body: body.clone().into() }.encode_sized(&mut expected)?;
        assert_eq!((&wire[..], client.in_flight()), (&expected[..], 1));

        let mut server = ServerCodec::with_frames(FrameCodec::with_max_frame_size(8));
        let response = ApiVersionsResponse { api_keys: vec![Default::default(); 4], ..Default::default() };
        let answer = ResponseFrame { header: ResponseHeader::default(), body: response.into(), version: 3 };
        assert!(matches!(server.encode(answer, &mut wire), Err(CodecError::FrameTooLarge { max: 8, .. })));
        assert_eq!(&wire[..], &expected[..]);
        Ok(())
    }

    #[test]
    fn client_and_server_talk() {
        let mut client = ClientCodec::new();
        let mut server = ServerCodec::new();
        let mut wire = BytesMut::new();
        let header = RequestHeader {
            request_api_key: 18,
            request_api_version: 3,
            correlation_id: 5,
            client_id: Some("test".into()),
            ..Default::default()
        };
        let body = ApiVersionsRequest {
            client_software_name: "t".into(),
            client_software_version: "1".into(),
            ..Default::default()
        };
        client.encode(RequestFrame { header, body: body.clone().into() }, &mut wire).unwrap();

        let request = server.decode(&mut wire).unwrap().unwrap();
        let head = request.head();
        assert_eq!((head.api_key, head.api_version, head.correlation_id), (18, 3, 5));
        let decoded = request.decode().unwrap();
        assert_eq!(decoded.body, body.into());

        let answer = ApiVersionsResponse { api_keys: vec![Default::default()], ..Default::default() };
        let header = ResponseHeader { correlation_id: 5, ..Default::default() };
        server.encode(ResponseFrame { header, body: answer.clone().into(), version: 3 }, &mut wire).unwrap();
        let response = client.decode(&mut wire).unwrap().unwrap();
        assert_eq!((response.header.correlation_id, response.version), (5, 3));
        assert_eq!(response.body, ResponseBody::ApiVersions(answer));
        assert!(wire.is_empty());
    }
}
