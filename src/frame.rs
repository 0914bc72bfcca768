//! Whole frames: header and body together, the header version chosen from
//! the api key and version (spec §7), with or without the 4-byte size.
//!
//! ```text
//! request frame:  int32 size | request header (v0, v1 or v2) | request body
//! response frame: int32 size | response header (v0 or v1)    | response body
//! ```
//!
//! A request announces its api key and version in its first four bytes,
//! so it decodes alone; a response is read with the api key and version of
//! the request it answers.

use bytes::{Buf, BufMut, Bytes, BytesMut};

use crate::api::{api_info, ApiInfo, API_VERSIONS_KEY};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::message::Message;
use crate::messages::{RequestBody, RequestHeader, ResponseBody, ResponseHeader};
use crate::primitives::writer::all_or_nothing;
use crate::primitives::{Input, Reader, Writer};

/// A decoded request: its header and typed body. The default (a default
/// header and an empty Produce body) is a placeholder to decode into
/// ([`decode_request_into`]).
///
/// # Example
/// ```
/// use kafka_wire::frame::RequestFrame;
/// use kafka_wire::messages::{ApiVersionsRequest, RequestHeader};
/// let frame = RequestFrame {
///     header: RequestHeader { request_api_key: 18, correlation_id: 1, ..Default::default() },
///     body: ApiVersionsRequest::default().into(),
/// };
/// assert_eq!(frame.body.api_key(), frame.header.request_api_key);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RequestFrame {
    /// The request header, at the version the api key and version call for.
    pub header: RequestHeader,
    /// The body, at `header.request_api_version`.
    pub body: RequestBody,
}

/// A decoded response: its header, typed body, and the version the body was
/// read at (which differs from the request's only in the ApiVersions fallback).
/// The default is a placeholder to decode into ([`decode_response_into`]).
///
/// # Example
/// ```
/// let bytes = kafka_wire::Bytes::from_static(b"\x00\x00\x00\x07\x00\x00\x00\x00\x00\x00");
/// let frame = kafka_wire::frame::decode_response(bytes, 17, 1)?; // SaslHandshake v1
/// assert_eq!((frame.header.correlation_id, frame.body.api_key(), frame.version), (7, 17, 1));
/// # Ok::<(), kafka_wire::error::DecodeError>(())
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

fn info(api_key: i16, offset: usize) -> Result<&'static ApiInfo, DecodeError> {
    api_info(api_key).ok_or_else(|| DecodeError::new(DecodeErrorKind::UnknownApiKey(api_key), offset))
}

/// Decodes a request (header and body, no size prefix) that fills `buf`.
///
/// # Errors
/// An unknown api key, a version the api does not have, a malformed header
/// or body, or bytes left over.
///
/// # Example
/// ```
/// // ApiVersions v3 from kafka-python: header v2 (client id stays int16-prefixed), then the body.
/// let bytes = kafka_wire::Bytes::from_static(b"\x00\x12\x00\x03\x00\x00\x00\x02\x00\x01k\x00\x02p\x021\x00");
/// let frame = kafka_wire::frame::decode_request(bytes).unwrap();
/// assert_eq!(frame.header.correlation_id, 2);
/// assert_eq!(frame.body.api_key(), 18);
/// ```
pub fn decode_request(buf: Bytes) -> Result<RequestFrame, DecodeError> {
    let mut r = Reader::new(buf);
    let (info, api_version, header_version) = request_versions(&r)?;
    let header = RequestHeader::decode_from(&mut r, header_version)?;
    let body = RequestBody::decode(info.api_key, &mut r, api_version)?;
    body_end(&r, info.request_name, api_version)?;
    Ok(RequestFrame { header, body })
}

/// [`decode_request`] into `frame`, reusing what it holds: the header's
/// strings, and the body's strings, arrays and structs when it holds a body
/// of the same api key ([`RequestBody::decode_into`]). A server that keeps
/// one `RequestFrame` per connection allocates nothing once it has grown,
/// for as long as requests of one api key follow each other. The result
/// equals what [`decode_request`] returns.
///
/// # Errors
/// As [`decode_request`]. For `frame` after an error, see
/// [values decoded into after an error](crate::error#values-decoded-into-after-an-error).
///
/// # Example
/// ```
/// use kafka_wire::frame::{self, RequestFrame};
/// let bytes = kafka_wire::Bytes::from_static(b"\x00\x12\x00\x03\x00\x00\x00\x02\x00\x01k\x00\x02p\x021\x00");
/// let mut kept = RequestFrame::default();
/// for _ in 0..3 {
///     frame::decode_request_into(bytes.clone(), &mut kept)?;
///     assert_eq!(kept, frame::decode_request(bytes.clone())?);
/// }
/// # Ok::<(), kafka_wire::error::DecodeError>(())
/// ```
#[inline]
pub fn decode_request_into(buf: Bytes, frame: &mut RequestFrame) -> Result<(), DecodeError> {
    let mut r = Reader::new(buf);
    let (info, api_version, header_version) = request_versions(&r)?;
    frame.header.decode_into_from(&mut r, header_version)?;
    frame.body.decode_into(info.api_key, &mut r, api_version)?;
    body_end(&r, info.request_name, api_version)
}

/// The api, api version and header version of the request `r` is at, read
/// from its first four bytes without moving `r`.
fn request_versions<B: Input>(r: &Reader<B>) -> Result<(&'static ApiInfo, i16, i16), DecodeError> {
    let mut peek = r.clone();
    let (api_key, api_version) = (peek.read_i16()?, peek.read_i16()?);
    let info = info(api_key, 0)?;
    Ok((info, api_version, info.request_header_version(api_version)))
}

/// Checks that the body `message` at `version` ended the frame: bytes left
/// over are its error.
fn body_end<B: Input>(r: &Reader<B>, message: &'static str, version: i16) -> Result<(), DecodeError> {
    r.finish().map_err(|e| e.in_message(message, version))
}

/// Decodes a request frame: the 4-byte size, then exactly that many bytes.
///
/// # Errors
/// As [`decode_request`], and a size that does not match the bytes given.
///
/// # Example
/// ```
/// use kafka_wire::{frame, Bytes};
/// // Size 10, then ApiVersions v0: header v1 with client id "" and no body.
/// let bytes = Bytes::from_static(b"\x00\x00\x00\x0a\x00\x12\x00\x00\x00\x00\x00\x01\x00\x00");
/// assert_eq!(frame::decode_request_frame(bytes)?.header.correlation_id, 1);
/// // A size that does not match the bytes is an error.
/// assert!(frame::decode_request_frame(Bytes::from_static(b"\x00\x00\x00\x0b\x00\x12")).is_err());
/// # Ok::<(), kafka_wire::error::DecodeError>(())
/// ```
pub fn decode_request_frame(mut buf: Bytes) -> Result<RequestFrame, DecodeError> {
    let body = unframe(&mut buf)?;
    decode_request(body)
}

/// Appends a request (header and body, no size prefix), the header at the
/// version its api key and version call for.
///
/// # Errors
/// An unknown api key, a body of another api key than the header's, or a
/// header or body that the version cannot carry. On error, see
/// [buffers after an error](crate::error#buffers-after-an-error).
///
/// # Example
/// ```
/// use kafka_wire::frame;
/// use kafka_wire::messages::{ApiVersionsRequest, RequestBody, RequestHeader};
/// let header = RequestHeader { request_api_key: 18, correlation_id: 1, ..Default::default() };
/// let body = RequestBody::from(ApiVersionsRequest::default());
/// let mut buf = kafka_wire::BytesMut::new();
/// frame::encode_request(&header, &body, &mut buf)?;
/// // ApiVersions v0: request header v1 (client id ""), an empty body.
/// assert_eq!(&buf[..], b"\x00\x12\x00\x00\x00\x00\x00\x01\x00\x00");
/// assert_eq!(frame::decode_request(buf.freeze())?.header, header);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn encode_request(header: &RequestHeader, body: &RequestBody, buf: &mut BytesMut) -> Result<(), EncodeError> {
    let info = api_info(header.request_api_key)
        .ok_or_else(|| EncodeError::new(EncodeErrorKind::Invalid("unknown api key in request header")))?;
    if body.api_key() != header.request_api_key {
        return Err(EncodeError::new(EncodeErrorKind::Invalid("request body and header name different api keys")));
    }
    all_or_nothing(buf, |buf| {
        header.encode(buf, info.request_header_version(header.request_api_version))?;
        body.encode(buf, header.request_api_version)
    })
}

/// Appends a response (header and body, no size prefix) answering a request
/// of the body's api key at `api_version`.
///
/// # Errors
/// An unknown api key, or a header or body that the version cannot carry.
/// On error, see [buffers after an error](crate::error#buffers-after-an-error).
///
/// # Example
/// ```
/// use kafka_wire::frame;
/// use kafka_wire::messages::{ResponseHeader, SaslHandshakeResponse};
/// let body = SaslHandshakeResponse { error_code: 0, mechanisms: vec!["PLAIN".into()] };
/// let header = ResponseHeader { correlation_id: 7, ..Default::default() };
/// let mut buf = kafka_wire::BytesMut::new();
/// frame::encode_response(&header, &body.clone().into(), 1, &mut buf)?;
/// // Response header v0 (SaslHandshake is never flexible), the error code,
/// // one mechanism.
/// assert_eq!(&buf[..], b"\x00\x00\x00\x07\x00\x00\x00\x00\x00\x01\x00\x05PLAIN");
/// let decoded = frame::decode_response(buf.freeze(), 17, 1)?;
/// assert_eq!(decoded.body, body.into());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn encode_response(
    header: &ResponseHeader,
    body: &ResponseBody,
    api_version: i16,
    buf: &mut BytesMut,
) -> Result<(), EncodeError> {
    let info = api_info(body.api_key()).ok_or_else(|| EncodeError::new(EncodeErrorKind::Invalid("unknown api key")))?;
    all_or_nothing(buf, |buf| {
        header.encode(buf, info.response_header_version(api_version))?;
        body.encode(buf, api_version)
    })
}

/// A whole response frame (4-byte size, header, body) as chunks whose
/// concatenation is the frame, sharing every `records` or `bytes` value of
/// at least [`SHARE_MIN`](crate::message::SHARE_MIN) bytes with
/// `body` instead of copying it ([`Message::encode_vectored`]): a broker
/// answers a Fetch with megabytes of records without touching them, by
/// writing the chunks with `write_vectored` or as a [`Buf`] chain.
///
/// # Errors
/// As [`encode_response`], or a frame over `i32::MAX` bytes.
///
/// # Example
/// ```
/// use kafka_wire::frame;
/// use kafka_wire::messages::fetch_response::{FetchableTopicResponse, PartitionData};
/// use kafka_wire::messages::{FetchResponse, ResponseBody, ResponseHeader};
/// use kafka_wire::Bytes;
/// let records = Bytes::from(vec![0u8; 1 << 20]);
/// let body = ResponseBody::from(FetchResponse {
///     responses: vec![FetchableTopicResponse {
///         topic: "orders".into(),
///         partitions: vec![PartitionData { records: Some(records.clone()), ..Default::default() }],
///         ..Default::default()
///     }],
///     ..Default::default()
/// });
/// let header = ResponseHeader { correlation_id: 7, ..Default::default() };
/// let chunks = frame::encode_response_frame_vectored(&header, &body, 12)?;
/// assert!(chunks.iter().any(|c| c.as_ptr() == records.as_ptr())); // not copied
///
/// let mut whole = kafka_wire::BytesMut::new();
/// frame::write_frame(&mut whole, |b| frame::encode_response(&header, &body, 12, b))?;
/// assert_eq!(chunks.concat(), whole);
/// # Ok::<(), kafka_wire::error::EncodeError>(())
/// ```
pub fn encode_response_frame_vectored(
    header: &ResponseHeader,
    body: &ResponseBody,
    api_version: i16,
) -> Result<Vec<Bytes>, EncodeError> {
    let info = api_info(body.api_key()).ok_or_else(|| EncodeError::new(EncodeErrorKind::Invalid("unknown api key")))?;
    let header_version = info.response_header_version(api_version);
    let (mut buf, mut chunks) = (BytesMut::new(), Vec::new());
    buf.put_i32(0); // the size, known once the frame is written
    let mut w = Writer::vectored(&mut buf, &mut chunks);
    header.encode_to(&mut w, header_version)?;
    body.encode_to(&mut w, api_version)?;
    // Summed from what was written, not sized beforehand: no pass over the
    // message, and no size code compiled for every message.
    let size = chunks.iter().map(Bytes::len).sum::<usize>() + buf.len() - 4;
    let size = i32::try_from(size).map_err(|_| EncodeError::new(EncodeErrorKind::TooLong(size)))?.to_be_bytes();
    if chunks.is_empty() {
        buf[..4].copy_from_slice(&size);
    } else {
        // The placeholder left with the first chunk: the size becomes a
        // chunk of its own, the rest of that chunk shared, not copied.
        let rest = chunks[0].slice(4..);
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
/// What `write` returns, or a frame over `i32::MAX` bytes. On error, see
/// [buffers after an error](crate::error#buffers-after-an-error); the rule
/// holds here as long as `write` only appends.
///
/// ```
/// use kafka_wire::message::Message;
/// let mut buf = kafka_wire::BytesMut::new();
/// let header = kafka_wire::messages::ResponseHeader { correlation_id: 1, ..Default::default() };
/// kafka_wire::frame::write_frame(&mut buf, |b| header.encode(b, 0)).unwrap();
/// assert_eq!(&buf[..], [0, 0, 0, 4, 0, 0, 0, 1]);
/// ```
pub fn write_frame(
    buf: &mut BytesMut,
    write: impl FnOnce(&mut BytesMut) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    all_or_nothing(buf, |buf| {
        let start = buf.len();
        buf.put_i32(0);
        write(buf)?;
        let size = buf.len() - start - 4;
        let size = i32::try_from(size).map_err(|_| EncodeError::new(EncodeErrorKind::TooLong(size)))?;
        buf[start..start + 4].copy_from_slice(&size.to_be_bytes());
        Ok(())
    })
}

/// Decodes a response (header and body, no size prefix) to a request of
/// `api_key` at `api_version`, which must fill `buf`.
///
/// ApiVersions answers a version it does not support with a v0-shaped body
/// carrying UNSUPPORTED_VERSION (35): when the body does not decode at
/// `api_version`, it is decoded again at v0, and [`ResponseFrame::version`]
/// says so.
///
/// # Errors
/// An unknown api key, a malformed header or body, or bytes left over.
///
/// # Example
/// ```
/// // A broker that knows ApiVersions up to v2 answers a v4 request: header
/// // v0, then error code 35 and its own range for api key 18 (0 to 2).
/// let bytes = kafka_wire::Bytes::from_static(b"\x00\x00\x00\x09\x00\x23\x00\x00\x00\x01\x00\x12\x00\x00\x00\x02");
/// let frame = kafka_wire::frame::decode_response(bytes, 18, 4)?;
/// assert_eq!((frame.header.correlation_id, frame.version), (9, 0));
/// # Ok::<(), kafka_wire::error::DecodeError>(())
/// ```
pub fn decode_response(buf: Bytes, api_key: i16, api_version: i16) -> Result<ResponseFrame, DecodeError> {
    let info = info(api_key, 0)?;
    let mut r = Reader::new(buf);
    let header = ResponseHeader::decode_from(&mut r, info.response_header_version(api_version))?;
    let (body, version) = response_body(r, info, api_version, ResponseBody::decode)?;
    Ok(ResponseFrame { header, body, version })
}

/// [`decode_response`] into `frame`, reusing what it holds: the header,
/// and the body's strings, arrays and structs when it holds a body of
/// `api_key` ([`ResponseBody::decode_into`]). A client that keeps one
/// `ResponseFrame` per api key allocates nothing once it has grown. The
/// result equals what [`decode_response`] returns, the ApiVersions v0
/// fallback included.
///
/// # Errors
/// As [`decode_response`]. For `frame` after an error, see
/// [values decoded into after an error](crate::error#values-decoded-into-after-an-error).
///
/// # Example
/// ```
/// use kafka_wire::frame::{self, ResponseFrame};
/// use kafka_wire::message::Message;
/// use kafka_wire::messages::{ResponseHeader, SaslHandshakeResponse};
/// let header = ResponseHeader { correlation_id: 9, ..Default::default() };
/// let body = SaslHandshakeResponse { mechanisms: vec!["PLAIN".into()], ..Default::default() };
/// let bytes = kafka_wire::Bytes::from([header.to_bytes(0)?, body.to_bytes(1)?].concat());
/// let mut kept = ResponseFrame::default();
/// frame::decode_response_into(bytes.clone(), 17, 1, &mut kept)?;
/// assert_eq!(kept, frame::decode_response(bytes, 17, 1)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[inline]
pub fn decode_response_into(
    buf: Bytes,
    api_key: i16,
    api_version: i16,
    frame: &mut ResponseFrame,
) -> Result<(), DecodeError> {
    let info = info(api_key, 0)?;
    let mut r = Reader::new(buf);
    frame.header.decode_into_from(&mut r, info.response_header_version(api_version))?;
    let body = &mut frame.body;
    let ((), version) = response_body(r, info, api_version, |key, r, version| body.decode_into(key, r, version))?;
    frame.version = version;
    Ok(())
}

/// The body of a response after its header, filling the rest of `r`, and
/// the version it was read at: an ApiVersions response that fails at
/// `api_version` is read again at v0 (a broker answers a version it does
/// not support with a v0 body), failing with the first error.
fn response_body<B: Input, T>(
    r: Reader<B>,
    info: &'static ApiInfo,
    api_version: i16,
    mut decode: impl FnMut(i16, &mut Reader<B>, i16) -> Result<T, DecodeError>,
) -> Result<(T, i16), DecodeError> {
    let mut whole = |mut r: Reader<B>, version: i16| {
        let body = decode(info.api_key, &mut r, version)?;
        body_end(&r, info.response_name, version)?;
        Ok((body, version))
    };
    match whole(r.clone(), api_version) {
        Err(e) if info.api_key == API_VERSIONS_KEY && api_version > 0 => whole(r, 0).map_err(|_| e),
        result => result,
    }
}

/// Decodes a response frame: the 4-byte size, then exactly that many bytes.
///
/// # Errors
/// As [`decode_response`], and a size that does not match the bytes given.
///
/// # Example
/// ```
/// // Size 10: SaslHandshake v1 response header v0, error code 0, no mechanisms.
/// let bytes = kafka_wire::Bytes::from_static(b"\x00\x00\x00\x0a\x00\x00\x00\x07\x00\x00\x00\x00\x00\x00");
/// let frame = kafka_wire::frame::decode_response_frame(bytes, 17, 1)?;
/// assert_eq!(frame.header.correlation_id, 7);
/// # Ok::<(), kafka_wire::error::DecodeError>(())
/// ```
pub fn decode_response_frame(mut buf: Bytes, api_key: i16, api_version: i16) -> Result<ResponseFrame, DecodeError> {
    let body = unframe(&mut buf)?;
    decode_response(body, api_key, api_version)
}

/// Splits the 4-byte size from a whole frame and checks it.
fn unframe(buf: &mut Bytes) -> Result<Bytes, DecodeError> {
    if buf.len() < 4 {
        return Err(DecodeError::new(DecodeErrorKind::NotEnoughBytes { needed: 4, remaining: buf.len() }, 0));
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
        return Err(DecodeError::new(kind, 0));
    }
    Ok(std::mem::take(buf))
}

/// The borrowed view of a request (feature `borrowed`): header and body
/// borrowing the frame's bytes.
///
/// # Example
/// ```
/// # #[cfg(feature = "borrowed")] {
/// // SaslHandshake v1: header v1 (client id "k"), mechanism "PLAIN".
/// let bytes = b"\x00\x11\x00\x01\x00\x00\x00\x05\x00\x01k\x00\x05PLAIN";
/// let frame = kafka_wire::frame::decode_request_view(bytes)?;
/// use kafka_wire::messages::RequestBodyRef;
/// assert_eq!(frame.header.client_id, Some("k"));
/// assert!(matches!(&frame.body, RequestBodyRef::SaslHandshake(body) if body.mechanism == "PLAIN"));
/// # }
/// # Ok::<(), kafka_wire::error::DecodeError>(())
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
/// let frame = kafka_wire::frame::decode_response_view(bytes, 17, 1)?;
/// use kafka_wire::messages::ResponseBodyRef;
/// assert_eq!((frame.header.correlation_id, frame.version), (5, 1));
/// assert!(matches!(&frame.body, ResponseBodyRef::SaslHandshake(body) if body.mechanisms.len() == 1));
/// # }
/// # Ok::<(), kafka_wire::error::DecodeError>(())
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

/// [`decode_request`] into a borrowed view (feature `borrowed`): strings,
/// bytes and fixed-width arrays of the header and body point into `buf`.
/// A proxy can read the api key, client id and topic names of a request
/// without copying them, and forward `buf` as it came.
///
/// # Errors
/// As [`decode_request`], with the same kinds, paths and offsets.
///
/// # Example
/// ```
/// # #[cfg(feature = "borrowed")] {
/// // ApiVersions v3 from kafka-python, as in `decode_request`.
/// let bytes = b"\x00\x12\x00\x03\x00\x00\x00\x02\x00\x01k\x00\x02p\x021\x00";
/// let frame = kafka_wire::frame::decode_request_view(bytes)?;
/// assert_eq!((frame.header.client_id, frame.body.api_key()), (Some("k"), 18));
/// assert_eq!(frame.into_owned(), kafka_wire::frame::decode_request(kafka_wire::Bytes::from_static(bytes))?);
/// # }
/// # Ok::<(), kafka_wire::error::DecodeError>(())
/// ```
#[cfg(feature = "borrowed")]
pub fn decode_request_view(buf: &[u8]) -> Result<RequestFrameRef<'_>, DecodeError> {
    use crate::message::MessageView;
    let mut r = Reader::new(buf);
    let (info, api_version, header_version) = request_versions(&r)?;
    let header = MessageView::decode_from(&mut r, header_version)?;
    let body = crate::messages::RequestBodyRef::decode(info.api_key, &mut r, api_version)?;
    body_end(&r, info.request_name, api_version)?;
    Ok(RequestFrameRef { header, body })
}

/// [`decode_response`] into a borrowed view (feature `borrowed`).
///
/// # Errors
/// As [`decode_response`], with the same kinds, paths and offsets.
///
/// # Example
/// ```
/// # #[cfg(feature = "borrowed")] {
/// use kafka_wire::message::Message;
/// use kafka_wire::messages::{ResponseHeader, SaslHandshakeResponse};
/// let header = ResponseHeader { correlation_id: 9, ..Default::default() };
/// let body = SaslHandshakeResponse { mechanisms: vec!["PLAIN".into()], ..Default::default() };
/// let bytes = [header.to_bytes(0)?, body.to_bytes(1)?].concat();
/// let frame = kafka_wire::frame::decode_response_view(&bytes, 17, 1)?;
/// assert_eq!(frame.header.correlation_id, 9);
/// assert_eq!(frame.into_owned().body, body.into());
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "borrowed")]
pub fn decode_response_view(buf: &[u8], api_key: i16, api_version: i16) -> Result<ResponseFrameRef<'_>, DecodeError> {
    use crate::message::MessageView;
    let info = info(api_key, 0)?;
    let mut r = Reader::new(buf);
    let header = MessageView::decode_from(&mut r, info.response_header_version(api_version))?;
    let (body, version) = response_body(r, info, api_version, crate::messages::ResponseBodyRef::decode)?;
    Ok(ResponseFrameRef { header, body, version })
}

#[cfg(feature = "borrowed")]
impl RequestFrameRef<'_> {
    /// The owned [`RequestFrame`], allocating what the view borrowed.
    ///
    /// # Example
    /// ```
    /// # #[cfg(feature = "borrowed")] {
    /// let bytes = b"\x00\x11\x00\x01\x00\x00\x00\x05\x00\x01k\x00\x05PLAIN";
    /// let owned = kafka_wire::frame::decode_request_view(bytes)?.into_owned();
    /// assert_eq!(owned, kafka_wire::frame::decode_request(kafka_wire::Bytes::from_static(bytes))?);
    /// # }
    /// # Ok::<(), kafka_wire::error::DecodeError>(())
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
    /// let owned = kafka_wire::frame::decode_response_view(bytes, 17, 1)?.into_owned();
    /// assert_eq!(owned, kafka_wire::frame::decode_response(kafka_wire::Bytes::from_static(bytes), 17, 1)?);
    /// # }
    /// # Ok::<(), kafka_wire::error::DecodeError>(())
    /// ```
    #[inline]
    pub fn into_owned(self) -> ResponseFrame {
        use crate::primitives::IntoOwned;
        ResponseFrame { header: self.header.into_owned(), body: self.body.into_owned(), version: self.version }
    }
}
