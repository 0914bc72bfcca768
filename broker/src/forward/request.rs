//! The request direction: wrapping a client request into an EnvelopeRequest
//! on the broker, unwrapping it on the controller.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use bytes::{BufMut, Bytes, BytesMut};

use kwire::api::{api_info, ApiKey};
use kwire::embedded::EmbeddedMessage;
use kwire::error::{DecodeError, DecodeErrorKind, EncodeError};
use kwire::error_code::ErrorCode;
use kwire::frame::RequestHead;
use kwire::message::{ApiMessage, Message};
use kwire::messages::{DefaultPrincipalData, EnvelopeRequest, EnvelopeResponse, RequestBody, RequestHeader};
use kwire::primitives::Reader;

use super::error_envelope::envelope_error;

/// The Envelope api's version this module writes (its only version, 0).
pub const ENVELOPE_VERSION: i16 = 0;

/// The request header version of Envelope v0 (flexible: v2, which carries
/// the KIP-590 tagged fields `InitialPrincipalName` and `InitialClientId`).
pub const ENVELOPE_HEADER_VERSION: i16 = 2;

/// The version of [`DefaultPrincipalData`] in `RequestPrincipal` (0, its
/// only version; flexible encoding), which [`principal_to_bytes`] also writes
/// in front of it as an int16.
pub const PRINCIPAL_DATA_VERSION: i16 = 0;

/// A client request as the forwarding broker received and decoded it: what
/// the broker keeps to read the controller's answer ([`super::unwrap_response`]).
///
/// ```
/// use kwire::api::ApiKey;
/// use kwire_broker::forward::ForwardedRequest;
/// use kwire::messages::{CreateTopicsRequest, RequestHeader};
/// let header = RequestHeader { request_api_key: 19, request_api_version: 4, correlation_id: 3, ..Default::default() };
/// let forwarded = ForwardedRequest { header, body: CreateTopicsRequest::default().into() };
/// assert_eq!((forwarded.api_key(), forwarded.api_version(), forwarded.correlation_id()), (ApiKey::CreateTopics, 4, 3));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ForwardedRequest {
    /// The client's request header.
    pub header: RequestHeader,
    /// The client's request body, at `header.request_api_version`.
    pub body: RequestBody,
}

impl ForwardedRequest {
    /// The api key of the client's request: its body's (the header names
    /// the same one when the request was read from the wire).
    pub fn api_key(&self) -> ApiKey {
        self.body.api_key()
    }

    /// The version of the client's request (and of its response).
    pub fn api_version(&self) -> i16 {
        self.header.request_api_version
    }

    /// The client's correlation id, which the embedded response must echo.
    pub fn correlation_id(&self) -> i32 {
        self.header.correlation_id
    }
}

/// What [`wrap_request`] builds: the envelope's header and body, and the
/// decoded client request.
///
/// ```
/// use std::net::{IpAddr, Ipv6Addr};
/// use kwire_broker::forward::wrap_request;
/// use kwire::messages::DefaultPrincipalData;
/// // UnregisterBroker v0 (header v2): correlation id 1, client id "c", no tags; broker id 5, no tags.
/// let request = kwire::Bytes::from_static(b"\x00\x40\x00\x00\x00\x00\x00\x01\x00\x01c\x00\x00\x00\x00\x05\x00");
/// let wrapped = wrap_request(request, &DefaultPrincipalData::default(), IpAddr::V6(Ipv6Addr::LOCALHOST), 7, None)?;
/// let mut buf = kwire::BytesMut::new();
/// wrapped.encode(&mut buf)?;
/// assert_eq!(&buf[..4], [0, 58, 0, 0]); // Envelope v0
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct WrappedRequest {
    /// The envelope's request header: v2, api key 58 version 0, with
    /// `initial_principal_name` and `initial_client_id` filled.
    pub header: RequestHeader,
    /// The envelope: the client's bytes, principal and address.
    pub envelope: EnvelopeRequest,
    /// The client's request, decoded.
    pub forwarded: ForwardedRequest,
}

impl WrappedRequest {
    /// Appends the envelope request, header (v2) then body (v0), without
    /// the 4-byte size (see [`kwire::frame::size_prefix::encode`]).
    ///
    /// # Errors
    /// An encode error of the header or body (for example a client id over
    /// 32767 bytes). On error, see
    /// [buffers after an error](kwire::error#buffers-after-an-error).
    pub fn encode(&self, buf: &mut BytesMut) -> Result<(), EncodeError> {
        let start = buf.len();
        let written =
            self.header.encode(buf, ENVELOPE_HEADER_VERSION).and_then(|()| self.envelope.encode(buf, ENVELOPE_VERSION));
        if written.is_err() {
            buf.truncate(start);
        }
        written
    }
}

/// Why a broker will not forward a client request ([`wrap_request`]).
///
/// ```
/// use kwire_broker::forward::WrapError;
/// use kwire::error_code::ErrorCode;
/// assert_eq!(WrapError::NotForwardable { api_key: 3 }.error_code(), ErrorCode::InvalidRequest);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum WrapError {
    /// The request is itself an Envelope.
    NestedEnvelope,
    /// The api is unknown or not forwardable ([`kwire::api::ApiInfo::forwardable`]).
    NotForwardable {
        /// The request's api key.
        api_key: i16,
    },
    /// The api has no such version.
    UnsupportedVersion {
        /// The request's api key.
        api_key: ApiKey,
        /// The request's version.
        version: i16,
    },
    /// The request header or body does not decode, or bytes are left over.
    Malformed(DecodeError),
    /// The principal cannot be encoded (a name over 32767 bytes).
    Principal(EncodeError),
}

impl std::fmt::Display for WrapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NestedEnvelope => f.write_str("an Envelope request cannot be forwarded inside another envelope"),
            Self::NotForwardable { api_key } => write!(f, "api key {api_key} is not forwardable"),
            Self::UnsupportedVersion { api_key, version } => {
                write!(f, "{} (api key {}) has no version {version}", api_key.info().name, api_key.code())
            }
            Self::Malformed(e) => write!(f, "the request to forward is malformed: {e}"),
            Self::Principal(e) => write!(f, "the principal cannot be encoded: {e}"),
        }
    }
}

impl std::error::Error for WrapError {
    /// The decoding or encoding error of `Malformed` and `Principal`.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Malformed(e) => Some(e),
            Self::Principal(e) => Some(e),
            Self::NestedEnvelope | Self::NotForwardable { .. } | Self::UnsupportedVersion { .. } => None,
        }
    }
}

impl WrapError {
    /// The error a broker would answer the client with: UNSUPPORTED_VERSION
    /// (35) for [`WrapError::UnsupportedVersion`], UNKNOWN_SERVER_ERROR (-1)
    /// for [`WrapError::Principal`], INVALID_REQUEST (42) otherwise.
    pub fn error_code(&self) -> ErrorCode {
        match self {
            WrapError::UnsupportedVersion { .. } => ErrorCode::UnsupportedVersion,
            WrapError::Principal(_) => ErrorCode::UnknownServerError,
            _ => ErrorCode::InvalidRequest,
        }
    }
}

/// What [`unwrap_request`] reads from an envelope on the controller.
///
/// ```
/// use std::net::{IpAddr, Ipv4Addr};
/// use kwire_broker::forward::{unwrap_request, wrap_request};
/// use kwire::messages::DefaultPrincipalData;
/// let request = kwire::Bytes::from_static(b"\x00\x40\x00\x00\x00\x00\x00\x01\x00\x01c\x00\x00\x00\x00\x05\x00");
/// let principal = DefaultPrincipalData { r#type: "User".into(), name: "bob".into(), token_authenticated: true, ..Default::default() };
/// let address = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1));
/// let wrapped = wrap_request(request, &principal, address, 7, None)?;
/// let unwrapped = unwrap_request(&wrapped.envelope)?;
/// assert_eq!((unwrapped.principal, unwrapped.client_address), (principal, address));
/// assert_eq!((unwrapped.header.correlation_id, unwrapped.trailing_bytes), (1, 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct UnwrappedRequest {
    /// The client's request header, as embedded.
    pub header: RequestHeader,
    /// The client's request body.
    pub body: RequestBody,
    /// The client's principal, for the controller to authorize the request with.
    pub principal: DefaultPrincipalData,
    /// The client's IP address.
    pub client_address: IpAddr,
    /// Bytes of `RequestData` after the embedded body, which are ignored
    /// (Kafka's controller ignores them too: checked against Apache Kafka
    /// 4.4.0, which answers such a CreateTopics and creates the topic).
    pub trailing_bytes: usize,
}

/// Why a controller refuses a forwarded request ([`unwrap_request`]); each
/// maps to the error code of the error EnvelopeResponse it answers with,
/// the code Apache Kafka 4.4.0's controller answers the same envelope with
/// (`interop/tests/cluster_envelope.rs`).
///
/// ```
/// use kwire_broker::forward::UnwrapError;
/// use kwire::api::ApiKey;
/// let refusal = UnwrapError::UnsupportedVersion { api_key: ApiKey::CreateTopics, version: 99 };
/// assert_eq!(refusal.to_string(), "the envelope holds CreateTopics (api key 19) at version 99, which it does not have");
/// assert_eq!(refusal.error_code().code(), 35);
/// assert_eq!(refusal.envelope_response().error_code, 35);
/// assert_eq!(refusal.envelope_response().response_data, None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnwrapError {
    /// The embedded request is itself an Envelope. INVALID_REQUEST (42).
    NestedEnvelope,
    /// The embedded api key is known but not forwardable. INVALID_REQUEST (42).
    NotForwardable {
        /// The embedded api key.
        api_key: ApiKey,
    },
    /// The embedded api key is unknown, so its request header cannot be
    /// read. UNSUPPORTED_VERSION (35), as for any embedded request that
    /// cannot be parsed (KAFKA-12168).
    UnknownApiKey {
        /// The embedded api key.
        api_key: i16,
    },
    /// The embedded version is not one the api has. UNSUPPORTED_VERSION (35).
    UnsupportedVersion {
        /// The embedded api key.
        api_key: ApiKey,
        /// The embedded version.
        version: i16,
    },
    /// The embedded request header does not decode. UNSUPPORTED_VERSION
    /// (35) (KAFKA-12168).
    MalformedHeader(DecodeError),
    /// The embedded request body does not decode. UNSUPPORTED_VERSION (35)
    /// (KAFKA-12168).
    MalformedBody(DecodeError),
    /// `RequestPrincipal` is null. PRINCIPAL_DESERIALIZATION_FAILURE (97).
    MissingPrincipal,
    /// `RequestPrincipal` is not an int16 version 0 followed by a
    /// DefaultPrincipalData v0 ([`decode_principal`]).
    /// PRINCIPAL_DESERIALIZATION_FAILURE (97).
    MalformedPrincipal(DecodeError),
    /// `ClientHostAddress` is neither 4 nor 16 bytes. INVALID_REQUEST (42).
    BadClientAddress {
        /// Its length in bytes.
        len: usize,
    },
}

impl std::fmt::Display for UnwrapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NestedEnvelope => f.write_str("the envelope holds another envelope"),
            Self::NotForwardable { api_key } => write!(
                f,
                "the envelope holds {} (api key {}), which is not forwardable",
                api_key.info().name,
                api_key.code()
            ),
            Self::UnknownApiKey { api_key } => write!(f, "the envelope holds api key {api_key}, which is unknown"),
            Self::UnsupportedVersion { api_key, version } => write!(
                f,
                "the envelope holds {} (api key {}) at version {version}, which it does not have",
                api_key.info().name,
                api_key.code()
            ),
            Self::MalformedHeader(e) => write!(f, "the embedded request header is malformed: {e}"),
            Self::MalformedBody(e) => write!(f, "the embedded request body is malformed: {e}"),
            Self::MissingPrincipal => f.write_str("the envelope has no principal"),
            Self::MalformedPrincipal(e) => write!(f, "the envelope's principal is malformed: {e}"),
            Self::BadClientAddress { len } => {
                write!(f, "the client address has {len} bytes; expected 4 (IPv4) or 16 (IPv6)")
            }
        }
    }
}

impl std::error::Error for UnwrapError {
    /// The [`DecodeError`] of the `Malformed…` variants.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::MalformedHeader(e) | Self::MalformedBody(e) | Self::MalformedPrincipal(e) => Some(e),
            _ => None,
        }
    }
}

impl UnwrapError {
    /// The error code a controller answers this refusal with, in the
    /// EnvelopeResponse's `ErrorCode`: PRINCIPAL_DESERIALIZATION_FAILURE
    /// (97) for the principal; INVALID_REQUEST (42) for the client address,
    /// a nested envelope or an api that is not forwardable;
    /// UNSUPPORTED_VERSION (35) for an embedded request that cannot be
    /// parsed: unknown api key, version the api lacks, malformed header or
    /// body.
    ///
    /// KIP-590 does not list these codes; they are what Apache Kafka 4.4.0's
    /// controller answers (`interop/tests/cluster_envelope.rs`). UNSUPPORTED_VERSION
    /// for what cannot be parsed comes from KAFKA-12168: it tells a broker
    /// that the controller does not understand what the broker understood,
    /// apart from faults of the envelope itself.
    ///
    /// ```
    /// use kwire::error_code::ErrorCode;
    /// use kwire_broker::forward::UnwrapError;
    /// assert_eq!(UnwrapError::MissingPrincipal.error_code(), ErrorCode::PrincipalDeserializationFailure);
    /// assert_eq!(UnwrapError::NestedEnvelope.error_code(), ErrorCode::InvalidRequest);
    /// assert_eq!(UnwrapError::UnknownApiKey { api_key: 999 }.error_code(), ErrorCode::UnsupportedVersion);
    /// ```
    pub fn error_code(&self) -> ErrorCode {
        match self {
            UnwrapError::UnsupportedVersion { .. }
            | UnwrapError::UnknownApiKey { .. }
            | UnwrapError::MalformedHeader(_)
            | UnwrapError::MalformedBody(_) => ErrorCode::UnsupportedVersion,
            UnwrapError::MissingPrincipal | UnwrapError::MalformedPrincipal(_) => {
                ErrorCode::PrincipalDeserializationFailure
            }
            UnwrapError::NestedEnvelope | UnwrapError::NotForwardable { .. } | UnwrapError::BadClientAddress { .. } => {
                ErrorCode::InvalidRequest
            }
        }
    }

    /// The error EnvelopeResponse for this refusal: no response data,
    /// [`UnwrapError::error_code`].
    pub fn envelope_response(&self) -> EnvelopeResponse {
        envelope_error(self.error_code())
    }
}

/// A principal as `RequestPrincipal` holds it, as a new `Bytes`: the way Kafka's
/// default principal serde (`DefaultKafkaPrincipalBuilder`) writes it: an
/// int16 version ([`PRINCIPAL_DATA_VERSION`], 0), then DefaultPrincipalData
/// at that version (compact strings `Type` and `Name`, bool
/// `TokenAuthenticated`, tagged fields).
///
/// The version prefix is not part of the DefaultPrincipalData schema;
/// KIP-590 leaves the principal's bytes to the principal builder, and Kafka's
/// brokers and controllers (checked against Apache Kafka 4.4.0 in
/// `interop/tests/cluster_envelope.rs`) write and expect it.
///
/// # Errors
/// A string over 32767 bytes.
///
/// ```
/// use kwire_broker::forward::principal_to_bytes;
/// use kwire::messages::DefaultPrincipalData;
/// let principal = DefaultPrincipalData { r#type: "User".into(), name: "a".into(), ..Default::default() };
/// // Version 0, then compact strings (length + 1), false, no tagged fields.
/// assert_eq!(&principal_to_bytes(&principal)?[..], b"\x00\x00\x05User\x02a\x00\x00");
/// # Ok::<(), kwire::error::EncodeError>(())
/// ```
pub fn principal_to_bytes(principal: &DefaultPrincipalData) -> Result<Bytes, EncodeError> {
    let mut buf = BytesMut::with_capacity(2 + principal.encoded_size(PRINCIPAL_DATA_VERSION));
    buf.put_i16(PRINCIPAL_DATA_VERSION);
    principal.encode(&mut buf, PRINCIPAL_DATA_VERSION)?;
    Ok(buf.freeze())
}

/// Decodes `RequestPrincipal` as Kafka's default principal serde writes it
/// ([`principal_to_bytes`]): an int16 version, then a DefaultPrincipalData of
/// that version. Bytes after it are ignored, as Kafka's controller ignores
/// them (checked against Apache Kafka 4.4.0, which handles such an envelope).
///
/// # Errors
/// [`UnwrapError::MalformedPrincipal`] (code 97) for a missing or unknown
/// version (only 0 exists) or malformed bytes; the error's offset counts
/// from the start of `RequestPrincipal`.
///
/// ```
/// use kwire_broker::forward::decode_principal;
/// let principal = decode_principal(kwire::Bytes::from_static(b"\x00\x00\x05User\x02a\x01\x00"))?;
/// assert_eq!((&*principal.r#type, &*principal.name, principal.token_authenticated), ("User", "a", true));
/// // Without the version prefix, or at a version that does not exist.
/// assert!(decode_principal(kwire::Bytes::from_static(b"\x05User\x02a\x01\x00")).is_err());
/// assert!(decode_principal(kwire::Bytes::from_static(b"\x00\x01\x05User\x02a\x01\x00")).is_err());
/// # Ok::<(), kwire_broker::forward::UnwrapError>(())
/// ```
pub fn decode_principal(bytes: Bytes) -> Result<DefaultPrincipalData, UnwrapError> {
    let mut r = Reader::new(bytes);
    let version = r.read_i16().map_err(UnwrapError::MalformedPrincipal)?;
    if version != PRINCIPAL_DATA_VERSION {
        return Err(UnwrapError::MalformedPrincipal(DecodeError::new(DecodeErrorKind::UnsupportedVersion(version), 0)));
    }
    DefaultPrincipalData::decode_from(&mut r, version).map_err(UnwrapError::MalformedPrincipal)
}

/// `ClientHostAddress` for an address: its 4 (IPv4) or 16 (IPv6) bytes in
/// network order.
///
/// ```
/// use std::net::{IpAddr, Ipv4Addr};
/// let bytes = kwire_broker::forward::client_address_to_bytes(IpAddr::V4(Ipv4Addr::new(10, 1, 2, 3)));
/// assert_eq!(&bytes[..], [10, 1, 2, 3]);
/// ```
pub fn client_address_to_bytes(address: IpAddr) -> Bytes {
    match address {
        IpAddr::V4(v4) => Bytes::copy_from_slice(&v4.octets()),
        IpAddr::V6(v6) => Bytes::copy_from_slice(&v6.octets()),
    }
}

/// Reads `ClientHostAddress`: 4 bytes are IPv4, 16 bytes IPv6.
///
/// # Errors
/// [`UnwrapError::BadClientAddress`] (code 42) for any other length.
///
/// ```
/// use std::net::{IpAddr, Ipv6Addr};
/// use kwire_broker::forward::decode_client_address;
/// let mut v6 = [0u8; 16];
/// v6[15] = 1;
/// assert_eq!(decode_client_address(&v6), Ok(IpAddr::V6(Ipv6Addr::LOCALHOST)));
/// assert!(decode_client_address(&[127, 0, 0]).is_err());
/// ```
pub fn decode_client_address(bytes: &[u8]) -> Result<IpAddr, UnwrapError> {
    if let Ok(v4) = <[u8; 4]>::try_from(bytes) {
        Ok(IpAddr::V4(Ipv4Addr::from(v4)))
    } else if let Ok(v6) = <[u8; 16]>::try_from(bytes) {
        Ok(IpAddr::V6(Ipv6Addr::from(v6)))
    } else {
        Err(UnwrapError::BadClientAddress { len: bytes.len() })
    }
}

/// Why an embedded request was refused, before it is told as a
/// [`WrapError`] (broker) or an [`UnwrapError`] (controller).
enum Refusal {
    Nested,
    NotForwardable(ApiKey),
    UnknownApiKey(i16),
    UnsupportedVersion(ApiKey, i16),
    Header(DecodeError),
    Body(DecodeError),
}

impl From<Refusal> for UnwrapError {
    fn from(refusal: Refusal) -> Self {
        match refusal {
            Refusal::Nested => UnwrapError::NestedEnvelope,
            Refusal::NotForwardable(api_key) => UnwrapError::NotForwardable { api_key },
            Refusal::UnknownApiKey(api_key) => UnwrapError::UnknownApiKey { api_key },
            Refusal::UnsupportedVersion(api_key, version) => UnwrapError::UnsupportedVersion { api_key, version },
            Refusal::Header(e) => UnwrapError::MalformedHeader(e),
            Refusal::Body(e) => UnwrapError::MalformedBody(e),
        }
    }
}

impl From<Refusal> for WrapError {
    fn from(refusal: Refusal) -> Self {
        match refusal {
            Refusal::Nested => WrapError::NestedEnvelope,
            Refusal::NotForwardable(api_key) => WrapError::NotForwardable { api_key: api_key.code() },
            Refusal::UnknownApiKey(api_key) => WrapError::NotForwardable { api_key },
            Refusal::UnsupportedVersion(api_key, version) => WrapError::UnsupportedVersion { api_key, version },
            Refusal::Header(e) | Refusal::Body(e) => WrapError::Malformed(e),
        }
    }
}

/// An embedded request read and checked by [`read_embedded`].
struct Embedded {
    header: RequestHeader,
    body: RequestBody,
    /// Bytes after the body.
    trailing: usize,
    /// Where they start.
    end: usize,
}

/// Reads and checks an embedded request in the order Kafka's controller
/// does (observed against Apache Kafka 4.4.0): the header (which needs a
/// known api key for its version), then nesting and forwardability, then
/// the version and the body. Bytes after the body are counted, not refused.
fn read_embedded(bytes: &Bytes) -> Result<Embedded, Refusal> {
    let head = RequestHead::parse(bytes).map_err(|e| match e.kind() {
        DecodeErrorKind::UnknownApiKey(api_key) => Refusal::UnknownApiKey(*api_key),
        _ => Refusal::Header(e),
    })?;
    let version = head.api_version;
    let info = api_info(head.api_key).ok_or(Refusal::UnknownApiKey(head.api_key))?;
    let api_key = info.api_key;
    let mut r = Reader::new(bytes.clone());
    let header = RequestHeader::decode_from(&mut r, info.request_header_version(version)).map_err(Refusal::Header)?;
    if api_key == ApiKey::Envelope {
        return Err(Refusal::Nested);
    }
    if !info.forwardable {
        return Err(Refusal::NotForwardable(api_key));
    }
    if !info.valid_versions.contains(version) {
        return Err(Refusal::UnsupportedVersion(api_key, version));
    }
    let body = RequestBody::decode_from(api_key, &mut r, version).map_err(Refusal::Body)?;
    Ok(Embedded { header, body, trailing: r.remaining(), end: r.offset() })
}

/// Wraps a client request, as received, for forwarding to the controller.
///
/// `request` is the client's request header and body exactly as read from
/// the connection (the frame without its 4-byte size); it becomes the
/// envelope's `RequestData` unchanged. The envelope carries `principal`
/// encoded as Kafka's brokers encode it ([`principal_to_bytes`]: version 0,
/// then DefaultPrincipalData v0) and `client_address` as 4 or 16 bytes.
/// The envelope's own header is v2, api key 58 version 0, with the
/// broker's `correlation_id` and `client_id`, `initial_principal_name` =
/// the principal's name and `initial_client_id` = the client's client id.
///
/// # Errors
/// [`WrapError::NestedEnvelope`] for an Envelope request;
/// [`WrapError::NotForwardable`] for an api that is unknown or not
/// forwardable; [`WrapError::UnsupportedVersion`]; [`WrapError::Malformed`]
/// when the header or body does not decode or bytes are left over;
/// [`WrapError::Principal`] when the principal cannot be encoded. (Bytes
/// after the body are refused here, where the controller's
/// [`unwrap_request`] ignores them as Kafka's does: a broker on kwire
/// that accepts such requests from its clients forwards its own encoding.)
///
/// ```
/// use std::net::{IpAddr, Ipv4Addr};
/// use kwire_broker::forward::{wrap_request, WrapError};
/// use kwire::messages::DefaultPrincipalData;
/// // Metadata v0 (header v1), correlation id 1, no client id (null), all topics (empty array).
/// let metadata = kwire::Bytes::from_static(b"\x00\x03\x00\x00\x00\x00\x00\x01\xff\xff\x00\x00\x00\x00");
/// let err = wrap_request(metadata, &DefaultPrincipalData::default(), IpAddr::V4(Ipv4Addr::LOCALHOST), 1, None);
/// assert_eq!(err, Err(WrapError::NotForwardable { api_key: 3 }));
/// ```
pub fn wrap_request(
    request: Bytes,
    principal: &DefaultPrincipalData,
    client_address: IpAddr,
    correlation_id: i32,
    client_id: Option<&str>,
) -> Result<WrappedRequest, WrapError> {
    let Embedded { header: client_header, body, trailing, end } = read_embedded(&request)?;
    if trailing > 0 {
        return Err(WrapError::Malformed(DecodeError::new(DecodeErrorKind::TrailingBytes(trailing), end)));
    }
    let principal_bytes = principal_to_bytes(principal).map_err(WrapError::Principal)?;
    let header = RequestHeader {
        request_api_key: EnvelopeRequest::API_KEY,
        request_api_version: ENVELOPE_VERSION,
        correlation_id,
        client_id: client_id.map(Into::into),
        initial_principal_name: Some(principal.name.clone()),
        initial_client_id: client_header.client_id.clone(),
        ..Default::default()
    };
    let envelope = EnvelopeRequest {
        request_data: EmbeddedMessage(request),
        request_principal: Some(principal_bytes),
        client_host_address: client_address_to_bytes(client_address),
        ..Default::default()
    };
    Ok(WrappedRequest { header, envelope, forwarded: ForwardedRequest { header: client_header, body } })
}

/// Unwraps a forwarded request on the controller, after the envelope itself
/// passed the CLUSTER_ACTION check.
///
/// Checks in the order Apache Kafka 4.4.0's controller does, so that an
/// envelope with several faults is refused with the same code: the
/// principal, the client address, then the embedded request (its header,
/// not an Envelope, a forwardable api, a version the api has, its body).
/// Bytes after the embedded body are ignored, as Kafka ignores them, and
/// counted in [`UnwrappedRequest::trailing_bytes`].
///
/// # Errors
/// An [`UnwrapError`]; answer it with [`UnwrapError::envelope_response`].
///
/// ```
/// use kwire_broker::forward::{principal_to_bytes, unwrap_request, UnwrapError};
/// use kwire::messages::{DefaultPrincipalData, EnvelopeRequest};
/// let principal = principal_to_bytes(&DefaultPrincipalData::default())?;
/// // Embedded data 00 31 00 01 00: AlterClientQuotas v1, cut inside the correlation id.
/// let envelope = EnvelopeRequest {
///     request_data: kwire::Bytes::from_static(&[0x00, 0x31, 0x00, 0x01, 0x00]).into(),
///     request_principal: Some(principal),
///     client_host_address: vec![10, 0, 0, 1].into(),
///     ..Default::default()
/// };
/// let refusal = unwrap_request(&envelope).unwrap_err();
/// assert!(matches!(refusal, UnwrapError::MalformedHeader(_)));
/// assert_eq!(refusal.error_code().code(), 35); // UNSUPPORTED_VERSION, as Kafka's controller answers
/// # Ok::<(), kwire::error::EncodeError>(())
/// ```
pub fn unwrap_request(envelope: &EnvelopeRequest) -> Result<UnwrappedRequest, UnwrapError> {
    let principal = decode_principal(envelope.request_principal.clone().ok_or(UnwrapError::MissingPrincipal)?)?;
    let client_address = decode_client_address(&envelope.client_host_address)?;
    let Embedded { header, body, trailing, .. } = read_embedded(envelope.request_data.as_bytes())?;
    Ok(UnwrappedRequest { header, body, principal, client_address, trailing_bytes: trailing })
}
