//! Embedded messages (KIP-590): the `ApiMessage` and `Header` schema types.
//!
//! On the wire each is length-prefixed bytes, exactly like `bytes` (compact
//! in flexible versions), so schemas that use them stay byte-compatible
//! with Kafka. In Rust they keep the raw bytes, so a forwarded request
//! travels unchanged, and offer typed encode and decode of what they hold.
//!
//! # Secrets
//! An embedded message can carry secrets (an AlterUserScramCredentials
//! request forwarded in an EnvelopeRequest holds salts and salted
//! passwords), so its `Debug` and its redacted JSON form (the default,
//! [`crate::json`]) never show its bytes. When the bytes are one whole
//! request of an api key that a broker may forward
//! ([`ApiInfo::forwardable`](crate::api::ApiInfo::forwardable)) and this
//! build compiles, both show that request decoded, its sensitive fields
//! redacted as in any other message ([`crate::redact`]); anything else (an
//! embedded response, whose api key its bytes do not say, or bytes that do
//! not decode) shows as its length only. The one way to the raw bytes is
//! explicit: [`EmbeddedMessage::as_bytes`] (or the field `.0`), and in
//! JSON [`JsonOptions::unredacted`](crate::json::JsonOptions::unredacted),
//! which writes base64 as Kafka's converters do.

use std::fmt;

use bytes::{Bytes, BytesMut};

use crate::encoding::{DecodeNullable, Nullable};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::message::{ApiMessage, Message};
use crate::messages::{RequestHeader, ResponseHeader};
use crate::primitives::{Decode, Encode, Reader, Writer};

/// An embedded request or response with its header, e.g. the
/// `RequestData` of an EnvelopeRequest: `header ‖ body` as raw bytes.
///
/// `Debug` shows the forwardable request it holds with its secrets
/// redacted, or its length only, never its bytes (see the
/// [module](self#secrets)).
///
/// # Example
/// ```
/// use kwire::embedded::EmbeddedMessage;
/// use kwire::messages::{RequestHeader, SaslHandshakeRequest};
/// let header = RequestHeader { request_api_key: 17, request_api_version: 1, correlation_id: 5, ..Default::default() };
/// let body = SaslHandshakeRequest { mechanism: "PLAIN".into() };
/// let embedded = EmbeddedMessage::from_request(&header, &body).unwrap();
/// let (h, rest) = embedded.parse_request().unwrap();
/// assert_eq!(h.correlation_id, 5);
/// assert_eq!(&rest[..], b"\x00\x05PLAIN");
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct EmbeddedMessage(pub Bytes);

/// An embedded request header as raw bytes (the `Header` schema type).
///
/// # Example
/// ```
/// use kwire::embedded::EmbeddedHeader;
/// use kwire::messages::RequestHeader;
/// let header = RequestHeader { request_api_key: 3, request_api_version: 12, correlation_id: 9, ..Default::default() };
/// let embedded = EmbeddedHeader::from_header(&header, 2)?;
/// assert_eq!(embedded.decode(2)?, header);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct EmbeddedHeader(pub Bytes);

impl EmbeddedMessage {
    /// The raw bytes, header and body.
    ///
    /// ```
    /// let embedded = kwire::embedded::EmbeddedMessage(kwire::Bytes::from_static(b"\x00\x03"));
    /// assert_eq!(&embedded.as_bytes()[..], b"\x00\x03");
    /// ```
    pub fn as_bytes(&self) -> &Bytes {
        &self.0
    }

    /// True when it holds no bytes.
    ///
    /// ```
    /// assert!(kwire::embedded::EmbeddedMessage::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Encodes `header` at the header version its api key and version call
    /// for, then `body` at `header.request_api_version`.
    ///
    /// # Errors
    /// An unknown api key, a header naming another api key than the body's
    /// ([`ApiMessage::API_KEY`]), or any encode error of the header or body.
    ///
    /// # Example
    /// ```
    /// use kwire::embedded::EmbeddedMessage;
    /// use kwire::messages::{RequestHeader, SaslHandshakeRequest};
    /// let body = SaslHandshakeRequest { mechanism: "PLAIN".into(), ..Default::default() };
    /// let header = RequestHeader { request_api_key: 17, request_api_version: 1, correlation_id: 5, ..Default::default() };
    /// let embedded = EmbeddedMessage::from_request(&header, &body)?;
    /// assert_eq!(&embedded.as_bytes()[..], b"\x00\x11\x00\x01\x00\x00\x00\x05\x00\x00\x00\x05PLAIN");
    /// // A header of another api key is refused.
    /// let metadata = RequestHeader { request_api_key: 3, ..header };
    /// assert!(EmbeddedMessage::from_request(&metadata, &body).is_err());
    /// # Ok::<(), kwire::error::EncodeError>(())
    /// ```
    pub fn from_request<R: ApiMessage>(header: &RequestHeader, body: &R) -> Result<Self, EncodeError> {
        if header.request_api_key != R::API_KEY {
            return Err(EncodeError::new(crate::error::EncodeErrorKind::Invalid(
                "request body and header name different api keys",
            )));
        }
        let info = crate::api::api_info(header.request_api_key).ok_or_else(|| {
            EncodeError::new(crate::error::EncodeErrorKind::Invalid("unknown api key in request header"))
        })?;
        let header_version = info.request_header_version(header.request_api_version);
        let mut buf = BytesMut::new();
        header.encode(&mut buf, header_version)?;
        body.encode(&mut buf, header.request_api_version)?;
        Ok(Self(buf.freeze()))
    }

    /// Encodes a response `header` and `body` at `api_version`, the header
    /// at the version the body's api key and `api_version` call for.
    ///
    /// # Errors
    /// Any encode error of the header or body.
    ///
    /// # Example
    /// ```
    /// use kwire::embedded::EmbeddedMessage;
    /// use kwire::messages::{ResponseHeader, SaslHandshakeResponse};
    /// let body = SaslHandshakeResponse { error_code: 0, mechanisms: vec!["PLAIN".into()] };
    /// let header = ResponseHeader { correlation_id: 5, ..Default::default() };
    /// let embedded = EmbeddedMessage::from_response(&header, &body, 1)?;
    /// let (h, b) = embedded.decode_response::<SaslHandshakeResponse>(1)?;
    /// assert_eq!((h, b), (header, body));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_response<R: ApiMessage>(
        header: &ResponseHeader,
        body: &R,
        api_version: i16,
    ) -> Result<Self, EncodeError> {
        let header_version = response_header_version(R::API_KEY, api_version);
        let mut buf = BytesMut::new();
        header.encode(&mut buf, header_version)?;
        body.encode(&mut buf, api_version)?;
        Ok(Self(buf.freeze()))
    }

    /// Decodes the request header, choosing its version from the api key
    /// and version it starts with; returns it with the body's bytes,
    /// undecoded.
    ///
    /// # Errors
    /// Short input, an unknown api key, or a malformed header.
    pub fn parse_request(&self) -> Result<(RequestHeader, Bytes), DecodeError> {
        let (header, r) = self.read_request_header()?;
        Ok((header, r.into_remaining()))
    }

    fn read_request_header(&self) -> Result<(RequestHeader, Reader), DecodeError> {
        let header_version = crate::frame::RequestHead::parse(&self.0)?.header_version()?;
        let mut r = Reader::new(self.0.clone());
        let header = RequestHeader::decode_from(&mut r, header_version)?;
        Ok((header, r))
    }

    /// Decodes the header and a request body of type `R`, which must fill
    /// the rest of the bytes.
    ///
    /// # Errors
    /// As [`EmbeddedMessage::parse_request`]; the header's api key not
    /// `R`'s; a malformed body; trailing bytes.
    ///
    /// # Example
    /// ```
    /// use kwire::embedded::EmbeddedMessage;
    /// use kwire::messages::{MetadataRequest, SaslHandshakeRequest};
    /// // SaslHandshake v1, header v1: api key 17, version 1, correlation id 5, client id "".
    /// let embedded = EmbeddedMessage(kwire::Bytes::from_static(b"\x00\x11\x00\x01\x00\x00\x00\x05\x00\x00\x00\x05PLAIN"));
    /// let (header, body) = embedded.decode_request::<SaslHandshakeRequest>()?;
    /// assert_eq!((header.correlation_id, &*body.mechanism), (5, "PLAIN"));
    /// assert!(embedded.decode_request::<MetadataRequest>().is_err()); // another api key
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    pub fn decode_request<R: ApiMessage>(&self) -> Result<(RequestHeader, R), DecodeError> {
        let (header, mut r) = self.read_request_header()?;
        if header.request_api_key != R::API_KEY {
            return Err(DecodeError::new(DecodeErrorKind::Invalid("embedded request has another api key"), 0));
        }
        let version = header.request_api_version;
        let body = R::decode_from(&mut r, version)?;
        r.finish().map_err(|e| e.in_message(R::NAME, version))?;
        Ok((header, body))
    }

    /// Decodes a response header and body of type `R` at `api_version`
    /// (the version of the request it answers).
    ///
    /// # Errors
    /// A malformed header or body, or trailing bytes.
    ///
    /// # Example
    /// ```
    /// use kwire::embedded::EmbeddedMessage;
    /// use kwire::messages::SaslHandshakeResponse;
    /// // Response header v0 (correlation id 5), error code 0, no mechanisms.
    /// let embedded = EmbeddedMessage(kwire::Bytes::from_static(b"\x00\x00\x00\x05\x00\x00\x00\x00\x00\x00"));
    /// let (header, body) = embedded.decode_response::<SaslHandshakeResponse>(1)?;
    /// assert_eq!((header.correlation_id, body.mechanisms.len()), (5, 0));
    /// # Ok::<(), kwire::error::DecodeError>(())
    /// ```
    pub fn decode_response<R: ApiMessage>(&self, api_version: i16) -> Result<(ResponseHeader, R), DecodeError> {
        let mut r = Reader::new(self.0.clone());
        let header = ResponseHeader::decode_from(&mut r, response_header_version(R::API_KEY, api_version))?;
        let body = R::decode_from(&mut r, api_version)?;
        r.finish().map_err(|e| e.in_message(R::NAME, api_version))?;
        Ok((header, body))
    }
}

impl EmbeddedMessage {
    /// The request these bytes hold, decoded, when they are exactly one
    /// request (header and body) of a forwardable api key this build
    /// compiles: what `Debug` and the redacted JSON form show.
    pub(crate) fn forwarded_request(&self) -> Option<crate::frame::RequestFrame> {
        let frame = crate::frame::RequestFrame::decode(self.0.clone()).ok()?;
        crate::api::api_info(frame.header.request_api_key).filter(|info| info.forwardable)?;
        Some(frame)
    }
}

/// `EmbeddedMessage { header: …, body: … }` for a forwardable request,
/// sensitive fields redacted; else `EmbeddedMessage(<N bytes>)`.
///
/// ```
/// use kwire::embedded::EmbeddedMessage;
/// use kwire::messages::{ResponseHeader, SaslAuthenticateResponse};
/// let response = SaslAuthenticateResponse { auth_bytes: kwire::Bytes::from_static(b"secret"), ..Default::default() };
/// let embedded = EmbeddedMessage::from_response(&ResponseHeader::default(), &response, 2).unwrap();
/// assert_eq!(format!("{embedded:?}"), format!("EmbeddedMessage(<{} bytes>)", embedded.as_bytes().len()));
/// ```
impl fmt::Debug for EmbeddedMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.forwarded_request() {
            Some(frame) => {
                f.debug_struct("EmbeddedMessage").field("header", &frame.header).field("body", &frame.body).finish()
            }
            None => write!(f, "EmbeddedMessage(<{} bytes>)", self.0.len()),
        }
    }
}

fn response_header_version(api_key: i16, api_version: i16) -> i16 {
    crate::api::api_info(api_key).map_or(0, |info| info.response_header_version(api_version))
}

impl EmbeddedHeader {
    /// Decodes the request header at `header_version`.
    ///
    /// # Errors
    /// A malformed header or trailing bytes.
    pub fn decode(&self, header_version: i16) -> Result<RequestHeader, DecodeError> {
        RequestHeader::decode_exact(self.0.clone(), header_version)
    }

    /// Encodes `header` at `header_version`.
    ///
    /// # Errors
    /// Any encode error of the header.
    pub fn from_header(header: &RequestHeader, header_version: i16) -> Result<Self, EncodeError> {
        header.to_bytes(header_version).map(Self)
    }

    /// True when it holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

macro_rules! bytes_like {
    ($ty:ident) => {
        impl Encode for $ty {
            #[inline]
            fn encode_value(&self, buf: &mut Writer<'_>, version: i16, flexible: bool) -> Result<(), EncodeError> {
                self.0.encode_value(buf, version, flexible)
            }

            #[inline]
            fn value_size(&self, version: i16, flexible: bool) -> usize {
                self.0.value_size(version, flexible)
            }
        }

        impl Decode for $ty {
            #[inline]
            fn decode_value(r: &mut Reader, version: i16, flexible: bool) -> Result<Self, DecodeError> {
                Bytes::decode_value(r, version, flexible).map($ty)
            }

            #[inline]
            fn decode_value_into(&mut self, r: &mut Reader, version: i16, flexible: bool) -> Result<(), DecodeError> {
                self.0.decode_value_into(r, version, flexible)
            }
        }

        impl Nullable for $ty {}

        impl DecodeNullable for $ty {
            #[inline]
            fn decode_option(r: &mut Reader, version: i16, flexible: bool) -> Result<Option<Self>, DecodeError> {
                Ok(Bytes::decode_option(r, version, flexible)?.map($ty))
            }
        }

        impl From<Bytes> for $ty {
            fn from(bytes: Bytes) -> Self {
                $ty(bytes)
            }
        }
    };
}

bytes_like!(EmbeddedMessage);
bytes_like!(EmbeddedHeader);
