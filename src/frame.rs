//! Whole frames: header and body together, the header version chosen from
//! the api key and version (spec §7), with or without the 4-byte size.
//!
//! ```text
//! request frame:  int32 size | request header (v0, v1 or v2) | request body
//! response frame: int32 size | response header (v0 or v1)    | response body
//! ```
//!
//! The frame types' `decode` and `encode` read and write a frame without
//! its size; `decode_sized` and `encode_sized` with it.
//!
//! A request announces its api key and version in its first four bytes,
//! so it decodes alone; a response is read with the api key and version of
//! the request it answers.

use bytes::{Bytes, BytesMut};

use crate::api::{api_info, ApiInfo, ApiKey};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::message::Message;
use crate::messages::{RequestBody, RequestHeader, ResponseBody, ResponseHeader};
use crate::primitives::writer::all_or_nothing;
use crate::primitives::{Input, Reader};

/// The three fields every request header starts with (spec §7.1): api key,
/// api version and correlation id, read from a request's first 8 bytes
/// without decoding the rest.
///
/// ```text
/// int16 request_api_key | int16 request_api_version | int32 correlation_id | ...
/// ```
///
/// The api key stays an `i16`: a proxy or broker must be able to hold, and
/// answer, a request of an api key this build does not know.
/// [`RequestHead::api`] and [`RequestHead::header_version`] look it up in
/// the api-key table.
///
/// # Example
/// ```
/// use kwire::api::ApiKey;
/// use kwire::frame::RequestHead;
/// // Metadata v12, correlation id 1, then the rest of the header and the body.
/// let head = RequestHead::parse(&[0, 3, 0, 12, 0, 0, 0, 1, 0xff, 0xff])?;
/// assert_eq!((head.api_key, head.api_version, head.correlation_id), (3, 12, 1));
/// assert_eq!((head.api()?, head.header_version()?), (ApiKey::Metadata, 2));
/// # Ok::<(), kwire::error::DecodeError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RequestHead {
    /// The request's api key (`RequestApiKey`), known to this build or not.
    pub api_key: i16,
    /// The request's api version (`RequestApiVersion`).
    pub api_version: i16,
    /// The correlation id (`CorrelationId`) the response must echo.
    pub correlation_id: i32,
}

impl RequestHead {
    /// The bytes a head takes: 8.
    pub const LEN: usize = 8;

    /// Reads the head from the first [`RequestHead::LEN`] bytes of a request
    /// (header and body, no size prefix); what follows is not looked at.
    ///
    /// # Errors
    /// Under 8 bytes, the error that decoding the request would give for
    /// the same bytes: a short api key or version, an unknown api key
    /// ([`DecodeErrorKind::UnknownApiKey`]), or the header's own short read.
    /// A proxy that only needs to know the bytes are too short can ignore
    /// the kind.
    ///
    /// ```
    /// use kwire::error::DecodeErrorKind;
    /// use kwire::frame::RequestHead;
    /// let err = RequestHead::parse(&[0x7f, 0, 0, 0, 0]).unwrap_err();
    /// assert_eq!(err.kind(), &DecodeErrorKind::UnknownApiKey(0x7f00));
    /// let err = RequestHead::parse(&[0, 3, 0]).unwrap_err();
    /// assert_eq!(err.to_string(), "request_api_version: need 2 bytes, have 1 (offset 2)");
    /// ```
    pub fn parse(buf: &[u8]) -> Result<Self, DecodeError> {
        match buf.first_chunk::<8>() {
            Some(b) => Ok(Self {
                api_key: i16::from_be_bytes([b[0], b[1]]),
                api_version: i16::from_be_bytes([b[2], b[3]]),
                correlation_id: i32::from_be_bytes([b[4], b[5], b[6], b[7]]),
            }),
            None => Err(short_head(buf)),
        }
    }

    /// The api key, when this build knows it.
    ///
    /// # Errors
    /// [`DecodeErrorKind::UnknownApiKey`] at offset 0.
    ///
    /// ```
    /// let head = kwire::frame::RequestHead { api_key: 18, api_version: 3, correlation_id: 1 };
    /// assert_eq!(head.api()?, kwire::api::ApiKey::ApiVersions);
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    pub fn api(&self) -> Result<ApiKey, DecodeError> {
        ApiKey::try_from(self.api_key).map_err(|_| unknown_api_key(self.api_key))
    }

    /// The api's entry in the api-key table.
    ///
    /// # Errors
    /// [`DecodeErrorKind::UnknownApiKey`] at offset 0.
    ///
    /// ```
    /// let head = kwire::frame::RequestHead { api_key: 19, api_version: 7, correlation_id: 1 };
    /// assert!(head.info()?.forwardable); // CreateTopics
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    pub fn info(&self) -> Result<&'static ApiInfo, DecodeError> {
        self.api().map(ApiKey::info)
    }

    /// The version of the request header that starts with this head
    /// ([`ApiInfo::request_header_version`]): 2 in flexible versions, else
    /// 1, and 0 for ControlledShutdown v0.
    ///
    /// # Errors
    /// [`DecodeErrorKind::UnknownApiKey`] at offset 0.
    ///
    /// ```
    /// let head = kwire::frame::RequestHead { api_key: 7, api_version: 0, correlation_id: 1 };
    /// assert_eq!(head.header_version()?, 0); // ControlledShutdown v0
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    pub fn header_version(&self) -> Result<i16, DecodeError> {
        self.info().map(|info| info.request_header_version(self.api_version))
    }
}

/// The error decoding a request header gives for a request under 8 bytes:
/// read as the decoders read, api key and version first, then the header.
#[cold]
fn short_head(buf: &[u8]) -> DecodeError {
    let mut r = Reader::new(buf);
    let api_key = match r.read_i16() {
        Ok(key) => key,
        Err(e) => return e.in_field("request_api_key"),
    };
    let api_version = match r.read_i16() {
        Ok(version) => version,
        Err(e) => return e.in_field("request_api_version"),
    };
    let Some(info) = api_info(api_key) else { return unknown_api_key(api_key) };
    let mut r = Reader::new(Bytes::copy_from_slice(buf));
    match RequestHeader::decode_from(&mut r, info.request_header_version(api_version)) {
        Err(e) => e,
        // Unreachable: every header version starts with 8 bytes.
        Ok(_) => {
            DecodeError::new(DecodeErrorKind::NotEnoughBytes { needed: RequestHead::LEN, remaining: buf.len() }, 0)
        }
    }
}

fn unknown_api_key(api_key: i16) -> DecodeError {
    DecodeError::new(DecodeErrorKind::UnknownApiKey(api_key), 0)
}

/// The api, api version and header version of the request in `buf`.
fn request_versions(buf: &[u8]) -> Result<(&'static ApiInfo, i16, i16), DecodeError> {
    let head = RequestHead::parse(buf)?;
    let info = head.info()?;
    Ok((info, head.api_version, info.request_header_version(head.api_version)))
}

/// A decoded request: its header and typed body. It has no default (no
/// request is more of a default than another): a frame to decode into
/// ([`RequestFrame::decode_into`]) starts as the first request decoded.
///
/// # Example
/// ```
/// use kwire::frame::RequestFrame;
/// use kwire::messages::{ApiVersionsRequest, RequestHeader};
/// let frame = RequestFrame {
///     header: RequestHeader { request_api_key: 18, correlation_id: 1, ..Default::default() },
///     body: ApiVersionsRequest::default().into(),
/// };
/// assert_eq!(frame.body.api_key().code(), frame.header.request_api_key);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct RequestFrame {
    /// The request header, at the version the api key and version call for.
    pub header: RequestHeader,
    /// The body, at `header.request_api_version`.
    pub body: RequestBody,
}

/// A decoded response: its header, typed body, and the version the body was
/// read at (which differs from the request's only in the ApiVersions fallback).
/// The default is a placeholder to decode into ([`ResponseFrame::decode_into`]).
///
/// # Example
/// ```
/// let bytes = kwire::Bytes::from_static(b"\x00\x00\x00\x07\x00\x00\x00\x00\x00\x00");
/// let frame = kwire::frame::ResponseFrame::decode(bytes, kwire::api::ApiKey::SaslHandshake, 1)?;
/// assert_eq!((frame.header.correlation_id, frame.body.api_key(), frame.version), (7, kwire::api::ApiKey::SaslHandshake, 1));
/// # Ok::<(), kwire::error::DecodeError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResponseFrame {
    /// The response header.
    pub header: ResponseHeader,
    /// The body.
    pub body: ResponseBody,
    /// The version the body was decoded at.
    pub version: i16,
}

/// Checks that the body `message` at `version` ended the frame: bytes left
/// over are its error.
fn body_end<B: Input>(r: &Reader<B>, message: &'static str, version: i16) -> Result<(), DecodeError> {
    r.finish().map_err(|e| e.in_message(message, version))
}

impl RequestFrame {
    /// Decodes a request (header and body, no size prefix) that fills `buf`.
    ///
    /// # Errors
    /// An unknown api key, a version the api does not have, a malformed
    /// header or body, or bytes left over
    /// ([`DecodeErrorKind::TrailingBytes`]).
    ///
    /// # Example
    /// ```
    /// use kwire::frame::RequestFrame;
    /// // ApiVersions v3 from kafka-python: header v2 (client id stays int16-prefixed), then the body.
    /// let bytes = kwire::Bytes::from_static(b"\x00\x12\x00\x03\x00\x00\x00\x02\x00\x01k\x00\x02p\x021\x00");
    /// let frame = RequestFrame::decode(bytes)?;
    /// assert_eq!(frame.header.correlation_id, 2);
    /// assert_eq!(frame.body.api_key(), kwire::api::ApiKey::ApiVersions);
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    pub fn decode(buf: Bytes) -> Result<Self, DecodeError> {
        let (frame, r, info, api_version) = Self::decode_prefix(buf)?;
        body_end(&r, info.request_name, api_version)?;
        Ok(frame)
    }

    /// Decodes a request as [`RequestFrame::decode`] does, but accepts bytes
    /// after the body and returns how many there were.
    ///
    /// Kafka's broker reads a request's fields and ignores what follows, and
    /// real clients rely on it: librdkafka 2.16 asks Metadata v12 for every
    /// topic with a 4-byte placeholder where the 1-byte compact array length
    /// goes, which leaves 3 bytes after the body. Kafka's controller reads
    /// the request inside an EnvelopeRequest the same way.
    ///
    /// # Errors
    /// An unknown api key, a version the api does not have, or a malformed
    /// header or body.
    ///
    /// # Example
    /// ```
    /// use kwire::frame::RequestFrame;
    /// use kwire::messages::RequestBody;
    /// // librdkafka 2.16's Metadata v12 for all topics: null array (00), 3 stray
    /// // zero bytes, then AllowAutoTopicCreation, IncludeTopicAuthorizedOperations
    /// // and an empty tagged-field section.
    /// let bytes = kwire::Bytes::from_static(
    ///     b"\x00\x03\x00\x0c\x00\x00\x00\x03\x00\x07rdkafka\x00\x00\x00\x00\x00\x01\x00\x00",
    /// );
    /// assert!(RequestFrame::decode(bytes.clone()).is_err());
    /// let (frame, trailing) = RequestFrame::decode_lenient(bytes)?;
    /// let RequestBody::Metadata(metadata) = frame.body else { unreachable!() };
    /// assert_eq!((metadata.topics, trailing), (None, 3));
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    pub fn decode_lenient(buf: Bytes) -> Result<(Self, usize), DecodeError> {
        let (frame, r, _, _) = Self::decode_prefix(buf)?;
        Ok((frame, r.remaining()))
    }

    /// Header and body from the start of `buf`, and where they ended.
    fn decode_prefix(buf: Bytes) -> Result<(Self, Reader, &'static ApiInfo, i16), DecodeError> {
        let (info, api_version, header_version) = request_versions(&buf)?;
        let mut r = Reader::new(buf);
        let header = RequestHeader::decode_from(&mut r, header_version)?;
        let body = RequestBody::decode_from(info.api_key, &mut r, api_version)?;
        Ok((Self { header, body }, r, info, api_version))
    }

    /// [`RequestFrame::decode`] into `self`, reusing what it holds: the
    /// body's arrays and structs when it holds a body of the same api key
    /// ([`RequestBody::decode_into_from`]; strings become slices of `buf`). A
    /// server that keeps one `RequestFrame` per connection allocates nothing
    /// once it has grown, for as long as requests of one api key follow each
    /// other. The result equals what [`RequestFrame::decode`] returns.
    ///
    /// # Errors
    /// As [`RequestFrame::decode`]. For `self` after an error, see
    /// [values decoded into after an error](crate::error#values-decoded-into-after-an-error).
    ///
    /// # Example
    /// ```
    /// use kwire::frame::RequestFrame;
    /// let bytes = kwire::Bytes::from_static(b"\x00\x12\x00\x03\x00\x00\x00\x02\x00\x01k\x00\x02p\x021\x00");
    /// // The first request is decoded fresh; the frame kept from it takes the next ones.
    /// let mut kept = RequestFrame::decode(bytes.clone())?;
    /// for _ in 0..3 {
    ///     kept.decode_into(bytes.clone())?;
    ///     assert_eq!(kept, RequestFrame::decode(bytes.clone())?);
    /// }
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    #[inline]
    pub fn decode_into(&mut self, buf: Bytes) -> Result<(), DecodeError> {
        let (info, api_version, header_version) = request_versions(&buf)?;
        let mut r = Reader::new(buf);
        self.header.decode_into_from(&mut r, header_version)?;
        self.body.decode_into_from(info.api_key, &mut r, api_version)?;
        body_end(&r, info.request_name, api_version)
    }

    /// Decodes a request frame: the 4-byte size ([`size_prefix`]), then
    /// exactly that many bytes of header and body.
    ///
    /// # Errors
    /// As [`RequestFrame::decode`], and a size that does not match the bytes
    /// given ([`size_prefix::decode_exact`], field `size`). Offsets count
    /// from the start of `buf`, the size included.
    ///
    /// # Example
    /// ```
    /// use kwire::{frame::RequestFrame, Bytes};
    /// // Size 10, then ApiVersions v0: header v1 with client id "" and no body.
    /// let bytes = Bytes::from_static(b"\x00\x00\x00\x0a\x00\x12\x00\x00\x00\x00\x00\x01\x00\x00");
    /// assert_eq!(RequestFrame::decode_sized(bytes)?.header.correlation_id, 1);
    /// // A size that does not match the bytes is an error.
    /// assert!(RequestFrame::decode_sized(Bytes::from_static(b"\x00\x00\x00\x0b\x00\x12")).is_err());
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    pub fn decode_sized(buf: Bytes) -> Result<Self, DecodeError> {
        size_prefix::decode_with(buf, Self::decode)
    }

    /// Appends the request (header and body, no size prefix), the header at
    /// the version its api key and version call for.
    ///
    /// # Errors
    /// As [`RequestFrame::encode_parts`].
    ///
    /// # Example
    /// ```
    /// use kwire::frame::RequestFrame;
    /// use kwire::messages::{ApiVersionsRequest, RequestHeader};
    /// let header = RequestHeader { request_api_key: 18, correlation_id: 1, ..Default::default() };
    /// let frame = RequestFrame { header, body: ApiVersionsRequest::default().into() };
    /// let mut buf = kwire::BytesMut::new();
    /// frame.encode(&mut buf)?;
    /// // ApiVersions v0: request header v1 (client id ""), an empty body.
    /// assert_eq!(&buf[..], b"\x00\x12\x00\x00\x00\x00\x00\x01\x00\x00");
    /// assert_eq!(RequestFrame::decode(buf.freeze())?, frame);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn encode(&self, buf: &mut BytesMut) -> Result<(), EncodeError> {
        Self::encode_parts(&self.header, &self.body, buf)
    }

    /// [`RequestFrame::encode`] for a header and body held apart, without
    /// moving them into a frame.
    ///
    /// # Errors
    /// An unknown api key, a body of another api key than the header's, or a
    /// header or body that the version cannot carry. On error, see
    /// [buffers after an error](crate::error#buffers-after-an-error).
    ///
    /// # Example
    /// ```
    /// use kwire::frame::RequestFrame;
    /// use kwire::messages::{MetadataRequest, RequestBody, RequestHeader};
    /// let header = RequestHeader { request_api_key: 18, correlation_id: 1, ..Default::default() };
    /// let body = RequestBody::from(MetadataRequest::default());
    /// let mut buf = kwire::BytesMut::new();
    /// assert!(RequestFrame::encode_parts(&header, &body, &mut buf).is_err()); // api keys differ
    /// assert!(buf.is_empty());
    /// ```
    pub fn encode_parts(header: &RequestHeader, body: &RequestBody, buf: &mut BytesMut) -> Result<(), EncodeError> {
        let info = api_info(header.request_api_key)
            .ok_or_else(|| EncodeError::new(EncodeErrorKind::Invalid("unknown api key in request header")))?;
        if body.api_key().code() != header.request_api_key {
            return Err(EncodeError::new(EncodeErrorKind::Invalid("request body and header name different api keys")));
        }
        all_or_nothing(buf, |buf| {
            header.encode(buf, info.request_header_version(header.request_api_version))?;
            body.encode(buf, header.request_api_version)
        })
    }

    /// Appends the request as a frame: the 4-byte size, then header and body
    /// ([`size_prefix::encode`]).
    ///
    /// # Errors
    /// As [`RequestFrame::encode`], or a frame over `i32::MAX` bytes.
    ///
    /// # Example
    /// ```
    /// use kwire::frame::RequestFrame;
    /// use kwire::messages::{ApiVersionsRequest, RequestHeader};
    /// let header = RequestHeader { request_api_key: 18, correlation_id: 1, ..Default::default() };
    /// let frame = RequestFrame { header, body: ApiVersionsRequest::default().into() };
    /// let mut buf = kwire::BytesMut::new();
    /// frame.encode_sized(&mut buf)?;
    /// assert_eq!(&buf[..4], [0, 0, 0, 10]);
    /// assert_eq!(RequestFrame::decode_sized(buf.freeze())?, frame);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn encode_sized(&self, buf: &mut BytesMut) -> Result<(), EncodeError> {
        size_prefix::encode(buf, |b| self.encode(b))
    }
}

impl ResponseFrame {
    /// Decodes a response (header and body, no size prefix) to a request of
    /// `api_key` at `api_version`, which must fill `buf`.
    ///
    /// ApiVersions answers a version it does not support with a v0-shaped
    /// body carrying UNSUPPORTED_VERSION (35): when the body does not decode
    /// at `api_version`, it is decoded again at v0, and
    /// [`ResponseFrame::version`] says so.
    ///
    /// # Errors
    /// A malformed header or body, or bytes left over
    /// ([`DecodeErrorKind::TrailingBytes`]).
    ///
    /// # Example
    /// ```
    /// use kwire::{api::ApiKey, frame::ResponseFrame};
    /// // A broker that knows ApiVersions up to v2 answers a v4 request: header
    /// // v0, then error code 35 and its own range for api key 18 (0 to 2).
    /// let bytes = kwire::Bytes::from_static(b"\x00\x00\x00\x09\x00\x23\x00\x00\x00\x01\x00\x12\x00\x00\x00\x02");
    /// let frame = ResponseFrame::decode(bytes, ApiKey::ApiVersions, 4)?;
    /// assert_eq!((frame.header.correlation_id, frame.version), (9, 0));
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    pub fn decode(buf: Bytes, api_key: ApiKey, api_version: i16) -> Result<Self, DecodeError> {
        let info = api_key.info();
        let mut r = Reader::new(buf);
        let header = ResponseHeader::decode_from(&mut r, info.response_header_version(api_version))?;
        let (body, version) = response_body(r, info, api_version, true, ResponseBody::decode_from)?;
        Ok(Self { header, body, version })
    }

    /// Decodes a response as [`ResponseFrame::decode`] does, but accepts
    /// bytes after the body and returns how many there were. The
    /// ApiVersions v0 fallback is taken only when the body does not decode
    /// at `api_version` at all.
    ///
    /// # Errors
    /// A malformed header or body.
    ///
    /// # Example
    /// ```
    /// use kwire::{api::ApiKey, frame::ResponseFrame};
    /// // SaslHandshake v1: header v0 (correlation id 7), error 0, no mechanisms, then 2 stray bytes.
    /// let bytes = kwire::Bytes::from_static(b"\x00\x00\x00\x07\x00\x00\x00\x00\x00\x00\xab\xcd");
    /// assert!(ResponseFrame::decode(bytes.clone(), ApiKey::SaslHandshake, 1).is_err());
    /// let (frame, trailing) = ResponseFrame::decode_lenient(bytes, ApiKey::SaslHandshake, 1)?;
    /// assert_eq!((frame.header.correlation_id, trailing), (7, 2));
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    pub fn decode_lenient(buf: Bytes, api_key: ApiKey, api_version: i16) -> Result<(Self, usize), DecodeError> {
        let info = api_key.info();
        let mut r = Reader::new(buf);
        let header = ResponseHeader::decode_from(&mut r, info.response_header_version(api_version))?;
        let ((body, trailing), version) = response_body(r, info, api_version, false, |key, r, version| {
            ResponseBody::decode_from(key, r, version).map(|body| (body, r.remaining()))
        })?;
        Ok((Self { header, body, version }, trailing))
    }

    /// [`ResponseFrame::decode`] into `self`, reusing what it holds: the
    /// header, and the body's arrays and structs when it holds a body of
    /// `api_key` ([`ResponseBody::decode_into_from`]; strings become slices
    /// of `buf`). A client that
    /// keeps one `ResponseFrame` per api key allocates nothing once it has
    /// grown. The result equals what [`ResponseFrame::decode`] returns, the
    /// ApiVersions v0 fallback included.
    ///
    /// # Errors
    /// As [`ResponseFrame::decode`]. For `self` after an error, see
    /// [values decoded into after an error](crate::error#values-decoded-into-after-an-error).
    ///
    /// # Example
    /// ```
    /// use kwire::{api::ApiKey, frame::ResponseFrame};
    /// use kwire::message::Message;
    /// use kwire::messages::{ResponseHeader, SaslHandshakeResponse};
    /// let header = ResponseHeader { correlation_id: 9, ..Default::default() };
    /// let body = SaslHandshakeResponse { mechanisms: vec!["PLAIN".into()], ..Default::default() };
    /// let bytes = kwire::Bytes::from([header.to_bytes(0)?, body.to_bytes(1)?].concat());
    /// let mut kept = ResponseFrame::default();
    /// kept.decode_into(bytes.clone(), ApiKey::SaslHandshake, 1)?;
    /// assert_eq!(kept, ResponseFrame::decode(bytes, ApiKey::SaslHandshake, 1)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn decode_into(&mut self, buf: Bytes, api_key: ApiKey, api_version: i16) -> Result<(), DecodeError> {
        let info = api_key.info();
        let mut r = Reader::new(buf);
        self.header.decode_into_from(&mut r, info.response_header_version(api_version))?;
        let body = &mut self.body;
        let ((), version) =
            response_body(r, info, api_version, true, |key, r, version| body.decode_into_from(key, r, version))?;
        self.version = version;
        Ok(())
    }

    /// Decodes a response frame: the 4-byte size ([`size_prefix`]), then
    /// exactly that many bytes of header and body.
    ///
    /// # Errors
    /// As [`ResponseFrame::decode`], and a size that does not match the
    /// bytes given ([`size_prefix::decode_exact`], field `size`). Offsets
    /// count from the start of `buf`, the size included.
    ///
    /// # Example
    /// ```
    /// use kwire::{api::ApiKey, frame::ResponseFrame};
    /// // Size 10: SaslHandshake v1 response header v0, error code 0, no mechanisms.
    /// let bytes = kwire::Bytes::from_static(b"\x00\x00\x00\x0a\x00\x00\x00\x07\x00\x00\x00\x00\x00\x00");
    /// let frame = ResponseFrame::decode_sized(bytes, ApiKey::SaslHandshake, 1)?;
    /// assert_eq!(frame.header.correlation_id, 7);
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    pub fn decode_sized(buf: Bytes, api_key: ApiKey, api_version: i16) -> Result<Self, DecodeError> {
        size_prefix::decode_with(buf, |body| Self::decode(body, api_key, api_version))
    }

    /// Appends the response (header and body, no size prefix): the header
    /// at the version the body's api key and [`ResponseFrame::version`] call
    /// for, the body at that version.
    ///
    /// # Errors
    /// As [`ResponseFrame::encode_parts`].
    ///
    /// # Example
    /// ```
    /// use kwire::{api::ApiKey, frame::ResponseFrame};
    /// use kwire::messages::{ResponseHeader, SaslHandshakeResponse};
    /// let body = SaslHandshakeResponse { error_code: 0, mechanisms: vec!["PLAIN".into()] };
    /// let header = ResponseHeader { correlation_id: 7, ..Default::default() };
    /// let frame = ResponseFrame { header, body: body.into(), version: 1 };
    /// let mut buf = kwire::BytesMut::new();
    /// frame.encode(&mut buf)?;
    /// // Response header v0 (SaslHandshake is never flexible), the error code,
    /// // one mechanism.
    /// assert_eq!(&buf[..], b"\x00\x00\x00\x07\x00\x00\x00\x00\x00\x01\x00\x05PLAIN");
    /// assert_eq!(ResponseFrame::decode(buf.freeze(), ApiKey::SaslHandshake, 1)?, frame);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn encode(&self, buf: &mut BytesMut) -> Result<(), EncodeError> {
        Self::encode_parts(&self.header, &self.body, self.version, buf)
    }

    /// [`ResponseFrame::encode`] for a header and body held apart, at
    /// `api_version`, without moving them into a frame.
    ///
    /// # Errors
    /// A header or body that the version cannot carry. On error, see
    /// [buffers after an error](crate::error#buffers-after-an-error).
    ///
    /// # Example
    /// ```
    /// use kwire::frame::ResponseFrame;
    /// use kwire::messages::{ResponseHeader, SaslHandshakeResponse};
    /// let header = ResponseHeader { correlation_id: 7, ..Default::default() };
    /// let body = SaslHandshakeResponse::default().into();
    /// let mut buf = kwire::BytesMut::new();
    /// ResponseFrame::encode_parts(&header, &body, 1, &mut buf)?;
    /// assert_eq!(&buf[..], b"\x00\x00\x00\x07\x00\x00\x00\x00\x00\x00");
    /// # Ok::<(), kwire::error::EncodeError>(())
    /// ```
    pub fn encode_parts(
        header: &ResponseHeader,
        body: &ResponseBody,
        api_version: i16,
        buf: &mut BytesMut,
    ) -> Result<(), EncodeError> {
        let info = body.api_key().info();
        all_or_nothing(buf, |buf| {
            header.encode(buf, info.response_header_version(api_version))?;
            body.encode(buf, api_version)
        })
    }

    /// Appends the response as a frame: the 4-byte size, then header and
    /// body ([`size_prefix::encode`]).
    ///
    /// # Errors
    /// As [`ResponseFrame::encode`], or a frame over `i32::MAX` bytes.
    ///
    /// # Example
    /// ```
    /// use kwire::{api::ApiKey, frame::ResponseFrame};
    /// use kwire::messages::{ResponseHeader, SaslHandshakeResponse};
    /// let header = ResponseHeader { correlation_id: 7, ..Default::default() };
    /// let frame = ResponseFrame { header, body: SaslHandshakeResponse::default().into(), version: 1 };
    /// let mut buf = kwire::BytesMut::new();
    /// frame.encode_sized(&mut buf)?;
    /// assert_eq!(ResponseFrame::decode_sized(buf.freeze(), ApiKey::SaslHandshake, 1)?, frame);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn encode_sized(&self, buf: &mut BytesMut) -> Result<(), EncodeError> {
        size_prefix::encode(buf, |b| self.encode(b))
    }

    /// The whole response frame (4-byte size, header, body) as chunks whose
    /// concatenation is what [`ResponseFrame::encode_sized`] writes, sharing
    /// every `records` or `bytes` value of at least
    /// [`SHARE_MIN`](crate::message::SHARE_MIN) bytes with the body instead
    /// of copying it ([`Message::encode_vectored`]): a broker answers a
    /// Fetch with megabytes of records without touching them, by writing
    /// the chunks with `write_vectored` or as a [`Buf`](bytes::Buf) chain.
    ///
    /// # Errors
    /// As [`ResponseFrame::encode`], or a frame over `i32::MAX` bytes.
    ///
    /// # Example
    /// ```
    /// use kwire::frame::ResponseFrame;
    /// use kwire::messages::fetch_response::{FetchableTopicResponse, PartitionData};
    /// use kwire::messages::{FetchResponse, ResponseHeader};
    /// use kwire::Bytes;
    /// let records = Bytes::from(vec![0u8; 1 << 20]);
    /// let body = FetchResponse {
    ///     responses: vec![FetchableTopicResponse {
    ///         topic: "orders".into(),
    ///         partitions: vec![PartitionData { records: Some(records.clone()), ..Default::default() }],
    ///         ..Default::default()
    ///     }],
    ///     ..Default::default()
    /// };
    /// let header = ResponseHeader { correlation_id: 7, ..Default::default() };
    /// let frame = ResponseFrame { header, body: body.into(), version: 12 };
    /// let chunks = frame.encode_vectored_sized()?;
    /// assert!(chunks.iter().any(|c| c.as_ptr() == records.as_ptr())); // not copied
    ///
    /// let mut whole = kwire::BytesMut::new();
    /// frame.encode_sized(&mut whole)?;
    /// assert_eq!(chunks.concat(), whole);
    /// # Ok::<(), kwire::error::EncodeError>(())
    /// ```
    pub fn encode_vectored_sized(&self) -> Result<Vec<Bytes>, EncodeError> {
        let info = self.body.api_key().info();
        let header_version = info.response_header_version(self.version);
        size_prefix::encode_vectored(|w| {
            self.header.encode_to(w, header_version)?;
            self.body.encode_to(w, self.version)
        })
    }
}

/// The body of a response after its header, and the version it was read
/// at: an ApiVersions response that fails at `api_version` is read again at
/// v0 (a broker answers a version it does not support with a v0 body),
/// failing with the first error. With `exact`, bytes after the body are an
/// error.
fn response_body<B: Input, T>(
    r: Reader<B>,
    info: &'static ApiInfo,
    api_version: i16,
    exact: bool,
    mut decode: impl FnMut(ApiKey, &mut Reader<B>, i16) -> Result<T, DecodeError>,
) -> Result<(T, i16), DecodeError> {
    let mut whole = |mut r: Reader<B>, version: i16| {
        let body = decode(info.api_key, &mut r, version)?;
        if exact {
            body_end(&r, info.response_name, version)?;
        }
        Ok((body, version))
    };
    match whole(r.clone(), api_version) {
        Err(e) if info.api_key == ApiKey::ApiVersions && api_version > 0 => whole(r, 0).map_err(|_| e),
        result => result,
    }
}

/// The 4-byte size that starts every frame on a connection: a big-endian
/// `int32`, the number of bytes that follow (header and body). The only
/// place it is read and written; `codec` builds on it.
///
/// ```text
/// int32 size | size bytes: header and body
/// ```
pub mod size_prefix {
    use bytes::{Buf, BufMut, Bytes, BytesMut};

    use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
    use crate::primitives::writer::{all_or_nothing, Writer};

    /// The bytes the size takes: 4.
    pub const LEN: usize = 4;

    /// The size at the start of `buf`, without consuming it, or `None`
    /// under 4 bytes. It may be negative: what to do with that is the
    /// caller's.
    ///
    /// ```
    /// use kwire::frame::size_prefix;
    /// assert_eq!(size_prefix::parse(&[0, 0, 1, 0, 0xaa]), Some(256));
    /// assert_eq!(size_prefix::parse(&[0xff, 0xff, 0xff, 0xff]), Some(-1));
    /// assert_eq!(size_prefix::parse(&[0, 0]), None);
    /// ```
    pub fn parse(buf: &[u8]) -> Option<i32> {
        buf.first_chunk::<LEN>().map(|b| i32::from_be_bytes(*b))
    }

    /// The size a frame of `len` bytes (after the size) announces.
    ///
    /// # Errors
    /// [`EncodeErrorKind::TooLong`] over `i32::MAX`.
    ///
    /// ```
    /// use kwire::frame::size_prefix;
    /// assert_eq!(size_prefix::to_bytes(10)?, [0, 0, 0, 10]);
    /// assert!(size_prefix::to_bytes(1 << 31).is_err());
    /// # Ok::<(), kwire::error::EncodeError>(())
    /// ```
    pub fn to_bytes(len: usize) -> Result<[u8; LEN], EncodeError> {
        i32::try_from(len).map(i32::to_be_bytes).map_err(|_| EncodeError::new(EncodeErrorKind::TooLong(len)))
    }

    /// The bytes after the size of a whole frame, after checking that the
    /// size says exactly how many follow.
    ///
    /// # Errors
    /// At offset 0, in field `size`: [`DecodeErrorKind::NotEnoughBytes`]
    /// under 4 bytes or when the size asks for more bytes than follow,
    /// [`DecodeErrorKind::InvalidLength`] for a negative size,
    /// [`DecodeErrorKind::TrailingBytes`] when more bytes follow than it
    /// says.
    ///
    /// ```
    /// use kwire::{frame::size_prefix, Bytes};
    /// assert_eq!(size_prefix::decode_exact(Bytes::from_static(b"\x00\x00\x00\x02hi"))?, "hi");
    /// let err = size_prefix::decode_exact(Bytes::from_static(b"\x00\x00\x00\x03hi")).unwrap_err();
    /// assert_eq!(err.to_string(), "size: need 3 bytes, have 2 (offset 0)");
    /// assert!(size_prefix::decode_exact(Bytes::from_static(b"\x00\x00\x00\x01hi")).is_err());
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    pub fn decode_exact(mut buf: Bytes) -> Result<Bytes, DecodeError> {
        if buf.len() < LEN {
            let e = DecodeError::new(DecodeErrorKind::NotEnoughBytes { needed: LEN, remaining: buf.len() }, 0);
            return Err(e.in_field("size"));
        }
        let size = buf.get_i32();
        if size < 0 || size as usize != buf.len() {
            let kind = if size >= 0 && (size as usize) > buf.len() {
                DecodeErrorKind::NotEnoughBytes { needed: size as usize, remaining: buf.len() }
            } else if size < 0 {
                DecodeErrorKind::InvalidLength(size.into())
            } else {
                DecodeErrorKind::TrailingBytes(buf.len() - size as usize)
            };
            return Err(DecodeError::new(kind, 0).in_field("size"));
        }
        Ok(buf)
    }

    /// What `read` decodes from the bytes after the size of a whole frame
    /// ([`decode_exact`]), its errors' offsets counted from the start of
    /// `buf`, the size included: the counterpart of [`encode`].
    pub(crate) fn decode_with<T>(
        buf: Bytes,
        read: impl FnOnce(Bytes) -> Result<T, DecodeError>,
    ) -> Result<T, DecodeError> {
        read(decode_exact(buf)?).map_err(|e| e.shifted(LEN))
    }

    /// A frame as chunks: a 4-byte size, then what `write` writes to a
    /// vectored [`Writer`] (large `bytes` and `records` values shared as
    /// chunks of their own, not copied); the counterpart of [`encode`]
    /// for a vectored write.
    ///
    /// # Errors
    /// What `write` returns, or a frame over `i32::MAX` bytes.
    pub(crate) fn encode_vectored(
        write: impl FnOnce(&mut Writer<'_>) -> Result<(), EncodeError>,
    ) -> Result<Vec<Bytes>, EncodeError> {
        let (mut buf, mut chunks) = (BytesMut::new(), Vec::new());
        buf.put_i32(0); // the size, known once the frame is written
        write(&mut Writer::vectored(&mut buf, &mut chunks))?;
        // Summed from what was written, not sized beforehand: no pass over the
        // message, and no size code compiled for every message.
        let size = to_bytes(chunks.iter().map(Bytes::len).sum::<usize>() + buf.len() - LEN)?;
        if chunks.is_empty() {
            buf[..LEN].copy_from_slice(&size);
        } else {
            // The placeholder left with the first chunk: the size becomes a
            // chunk of its own, the rest of that chunk shared, not copied.
            let rest = chunks[0].slice(LEN..);
            chunks[0] = Bytes::copy_from_slice(&size);
            if !rest.is_empty() {
                chunks.insert(1, rest);
            }
        }
        if !buf.is_empty() {
            chunks.push(buf.freeze());
        }
        Ok(chunks)
    }

    /// Appends a frame: a 4-byte size, then what `write` appends.
    ///
    /// # Errors
    /// What `write` returns, or a frame over `i32::MAX` bytes. On error,
    /// see [buffers after an error](crate::error#buffers-after-an-error);
    /// the rule holds here as long as `write` only appends.
    ///
    /// ```
    /// use kwire::message::Message;
    /// let mut buf = kwire::BytesMut::new();
    /// let header = kwire::messages::ResponseHeader { correlation_id: 1, ..Default::default() };
    /// kwire::frame::size_prefix::encode(&mut buf, |b| header.encode(b, 0))?;
    /// assert_eq!(&buf[..], [0, 0, 0, 4, 0, 0, 0, 1]);
    /// # Ok::<(), kwire::error::EncodeError>(())
    /// ```
    pub fn encode(
        buf: &mut BytesMut,
        write: impl FnOnce(&mut BytesMut) -> Result<(), EncodeError>,
    ) -> Result<(), EncodeError> {
        all_or_nothing(buf, |buf| {
            let start = buf.len();
            buf.put_i32(0);
            write(buf)?;
            let size = to_bytes(buf.len() - start - LEN)?;
            buf[start..start + LEN].copy_from_slice(&size);
            Ok(())
        })
    }
}

/// The borrowed view of a request (feature `borrowed`): header and body
/// borrowing the frame's bytes.
///
/// # Example
/// ```
/// # #[cfg(feature = "borrowed")] {
/// // SaslHandshake v1: header v1 (client id "k"), mechanism "PLAIN".
/// let bytes = b"\x00\x11\x00\x01\x00\x00\x00\x05\x00\x01k\x00\x05PLAIN";
/// let frame = kwire::frame::RequestFrameRef::decode(bytes)?;
/// use kwire::messages::RequestBodyRef;
/// assert_eq!(frame.header.client_id, Some("k"));
/// assert!(matches!(&frame.body, RequestBodyRef::SaslHandshake(body) if body.mechanism == "PLAIN"));
/// # }
/// # Ok::<(), kwire::error::DecodeError>(())
/// ```
#[cfg(feature = "borrowed")]
#[derive(Debug, Clone, PartialEq)]
pub struct RequestFrameRef<'a> {
    /// The request header, at the version the api key and version call for.
    pub header: crate::messages::request_header::RequestHeaderRef<'a>,
    /// The body, at `header.request_api_version`.
    pub body: crate::messages::RequestBodyRef<'a>,
}

/// The borrowed view of a response (feature `borrowed`): header and body
/// borrowing the frame's bytes, and the version the body was read at.
///
/// # Example
/// ```
/// # #[cfg(feature = "borrowed")] {
/// // SaslHandshake v1 response: header v0, error code 0, mechanisms ["PLAIN"].
/// let bytes = b"\x00\x00\x00\x05\x00\x00\x00\x00\x00\x01\x00\x05PLAIN";
/// let frame = kwire::frame::ResponseFrameRef::decode(bytes, kwire::api::ApiKey::SaslHandshake, 1)?;
/// use kwire::messages::ResponseBodyRef;
/// assert_eq!((frame.header.correlation_id, frame.version), (5, 1));
/// assert!(matches!(&frame.body, ResponseBodyRef::SaslHandshake(body) if body.mechanisms.len() == 1));
/// # }
/// # Ok::<(), kwire::error::DecodeError>(())
/// ```
#[cfg(feature = "borrowed")]
#[derive(Debug, Clone, PartialEq)]
pub struct ResponseFrameRef<'a> {
    /// The response header.
    pub header: crate::messages::response_header::ResponseHeaderRef<'a>,
    /// The body.
    pub body: crate::messages::ResponseBodyRef<'a>,
    /// The version the body was decoded at.
    pub version: i16,
}

#[cfg(feature = "borrowed")]
impl<'a> RequestFrameRef<'a> {
    /// [`RequestFrame::decode`] into a borrowed view (feature `borrowed`):
    /// strings, bytes and fixed-width arrays of the header and body point
    /// into `buf`. A proxy can read the api key, client id and topic names
    /// of a request without copying them, and forward `buf` as it came.
    ///
    /// # Errors
    /// As [`RequestFrame::decode`], with the same kinds, paths and offsets.
    ///
    /// # Example
    /// ```
    /// # #[cfg(feature = "borrowed")] {
    /// use kwire::frame::{RequestFrame, RequestFrameRef};
    /// // ApiVersions v3 from kafka-python, as in `RequestFrame::decode`.
    /// let bytes = b"\x00\x12\x00\x03\x00\x00\x00\x02\x00\x01k\x00\x02p\x021\x00";
    /// let frame = RequestFrameRef::decode(bytes)?;
    /// assert_eq!((frame.header.client_id, frame.body.api_key()), (Some("k"), kwire::api::ApiKey::ApiVersions));
    /// assert_eq!(frame.into_owned(), RequestFrame::decode(kwire::Bytes::from_static(bytes))?);
    /// # }
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    pub fn decode(buf: &'a [u8]) -> Result<Self, DecodeError> {
        let (frame, r, info, api_version) = Self::decode_prefix(buf)?;
        body_end(&r, info.request_name, api_version)?;
        Ok(frame)
    }

    /// [`RequestFrame::decode_lenient`] into a borrowed view: bytes after
    /// the body are accepted and counted, as Kafka's broker does.
    ///
    /// # Errors
    /// As [`RequestFrame::decode_lenient`].
    ///
    /// # Example
    /// ```
    /// # #[cfg(feature = "borrowed")] {
    /// use kwire::frame::RequestFrameRef;
    /// use kwire::messages::RequestBodyRef;
    /// // librdkafka 2.16's Metadata v12 for all topics, 3 stray bytes after the
    /// // topics' null array (as in `RequestFrame::decode_lenient`).
    /// let bytes = b"\x00\x03\x00\x0c\x00\x00\x00\x03\x00\x07rdkafka\x00\x00\x00\x00\x00\x01\x00\x00";
    /// assert!(RequestFrameRef::decode(bytes).is_err());
    /// let (frame, trailing) = RequestFrameRef::decode_lenient(bytes)?;
    /// let RequestBodyRef::Metadata(metadata) = frame.body else { unreachable!() };
    /// assert_eq!((frame.header.client_id, metadata.topics.is_none(), trailing), (Some("rdkafka"), true, 3));
    /// # }
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    pub fn decode_lenient(buf: &'a [u8]) -> Result<(Self, usize), DecodeError> {
        let (frame, r, _, _) = Self::decode_prefix(buf)?;
        Ok((frame, r.remaining()))
    }

    /// Header and body from the start of `buf`, and where they ended.
    #[allow(clippy::type_complexity)]
    fn decode_prefix(buf: &'a [u8]) -> Result<(Self, Reader<&'a [u8]>, &'static ApiInfo, i16), DecodeError> {
        use crate::message::MessageView;
        let (info, api_version, header_version) = request_versions(buf)?;
        let mut r = Reader::new(buf);
        let header = MessageView::decode_from(&mut r, header_version)?;
        let body = crate::messages::RequestBodyRef::decode_from(info.api_key, &mut r, api_version)?;
        Ok((Self { header, body }, r, info, api_version))
    }
}

#[cfg(feature = "borrowed")]
impl<'a> ResponseFrameRef<'a> {
    /// [`ResponseFrame::decode`] into a borrowed view (feature `borrowed`).
    ///
    /// # Errors
    /// As [`ResponseFrame::decode`], with the same kinds, paths and offsets.
    ///
    /// # Example
    /// ```
    /// # #[cfg(feature = "borrowed")] {
    /// use kwire::{api::ApiKey, frame::ResponseFrameRef};
    /// use kwire::message::Message;
    /// use kwire::messages::{ResponseHeader, SaslHandshakeResponse};
    /// let header = ResponseHeader { correlation_id: 9, ..Default::default() };
    /// let body = SaslHandshakeResponse { mechanisms: vec!["PLAIN".into()], ..Default::default() };
    /// let bytes = [header.to_bytes(0)?, body.to_bytes(1)?].concat();
    /// let frame = ResponseFrameRef::decode(&bytes, ApiKey::SaslHandshake, 1)?;
    /// assert_eq!(frame.header.correlation_id, 9);
    /// assert_eq!(frame.into_owned().body, body.into());
    /// # }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn decode(buf: &'a [u8], api_key: ApiKey, api_version: i16) -> Result<Self, DecodeError> {
        use crate::message::MessageView;
        let info = api_key.info();
        let mut r = Reader::new(buf);
        let header = MessageView::decode_from(&mut r, info.response_header_version(api_version))?;
        let (body, version) = response_body(r, info, api_version, true, crate::messages::ResponseBodyRef::decode_from)?;
        Ok(Self { header, body, version })
    }

    /// [`ResponseFrame::decode_lenient`] into a borrowed view: bytes after
    /// the body are accepted and counted.
    ///
    /// # Errors
    /// As [`ResponseFrame::decode_lenient`].
    ///
    /// # Example
    /// ```
    /// # #[cfg(feature = "borrowed")] {
    /// use kwire::{api::ApiKey, frame::ResponseFrameRef};
    /// // SaslHandshake v1: header v0 (correlation id 7), error 0, no mechanisms, then 2 stray bytes.
    /// let bytes = b"\x00\x00\x00\x07\x00\x00\x00\x00\x00\x00\xab\xcd";
    /// assert!(ResponseFrameRef::decode(bytes, ApiKey::SaslHandshake, 1).is_err());
    /// let (frame, trailing) = ResponseFrameRef::decode_lenient(bytes, ApiKey::SaslHandshake, 1)?;
    /// assert_eq!((frame.header.correlation_id, frame.version, trailing), (7, 1, 2));
    /// # }
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    pub fn decode_lenient(buf: &'a [u8], api_key: ApiKey, api_version: i16) -> Result<(Self, usize), DecodeError> {
        use crate::message::MessageView;
        let info = api_key.info();
        let mut r = Reader::new(buf);
        let header = MessageView::decode_from(&mut r, info.response_header_version(api_version))?;
        let ((body, trailing), version) = response_body(r, info, api_version, false, |key, r, version| {
            crate::messages::ResponseBodyRef::decode_from(key, r, version).map(|body| (body, r.remaining()))
        })?;
        Ok((Self { header, body, version }, trailing))
    }
}

#[cfg(feature = "borrowed")]
impl RequestFrameRef<'_> {
    /// The owned [`RequestFrame`], allocating what the view borrowed.
    ///
    /// # Example
    /// ```
    /// # #[cfg(feature = "borrowed")] {
    /// let bytes = b"\x00\x11\x00\x01\x00\x00\x00\x05\x00\x01k\x00\x05PLAIN";
    /// let owned = kwire::frame::RequestFrameRef::decode(bytes)?.into_owned();
    /// assert_eq!(owned, kwire::frame::RequestFrame::decode(kwire::Bytes::from_static(bytes))?);
    /// # }
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    #[inline]
    pub fn into_owned(self) -> RequestFrame {
        use crate::primitives::IntoOwned;
        RequestFrame { header: self.header.into_owned(), body: self.body.into_owned() }
    }
}

#[cfg(feature = "borrowed")]
impl ResponseFrameRef<'_> {
    /// The owned [`ResponseFrame`], allocating what the view borrowed.
    ///
    /// # Example
    /// ```
    /// # #[cfg(feature = "borrowed")] {
    /// let bytes = b"\x00\x00\x00\x05\x00\x00\x00\x00\x00\x01\x00\x05PLAIN";
    /// let owned = kwire::frame::ResponseFrameRef::decode(bytes, kwire::api::ApiKey::SaslHandshake, 1)?.into_owned();
    /// assert_eq!(owned, kwire::frame::ResponseFrame::decode(kwire::Bytes::from_static(bytes), kwire::api::ApiKey::SaslHandshake, 1)?);
    /// # }
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    #[inline]
    pub fn into_owned(self) -> ResponseFrame {
        use crate::primitives::IntoOwned;
        ResponseFrame { header: self.header.into_owned(), body: self.body.into_owned(), version: self.version }
    }
}
