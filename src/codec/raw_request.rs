//! A request as a server reads it: the head peeked, the body left as bytes.

use bytes::Bytes;

use super::CodecError;
use crate::frame::{RequestFrame, RequestHead};

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
    /// let mut kept = RequestFrame::decode(kwire::Bytes::from_static(&[0, 18, 0, 0, 0, 0, 0, 1, 0, 0]))?;
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

/// The head of a request frame, or [`CodecError::ShortRequest`] under its
/// 8 bytes (whatever the api key: a proxy relays unknown ones too).
pub(super) fn parse_head(frame: &[u8]) -> Result<RequestHead, CodecError> {
    RequestHead::parse(frame).map_err(|_| CodecError::ShortRequest(frame.len()))
}
