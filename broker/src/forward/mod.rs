//! KIP-590: a broker forwards admin requests to the active controller
//! inside an Envelope (api key 58), and reads the controller's answer back.
//!
//! ```text
//! client ── CreateTopics ──▶ broker ── Envelope(RequestData = the client's bytes) ──▶ controller
//!                                       header v2: InitialPrincipalName, InitialClientId
//! client ◀── CreateTopicsResponse ── broker ◀── EnvelopeResponse(ResponseData, ErrorCode) ──
//! ```
//!
//! - Broker, out: [`wrap_request`] puts a client request, byte for byte,
//!   with the client's principal (an int16 version 0, then
//!   [`DefaultPrincipalData`] v0, as Kafka writes it) and address,
//!   into an [`EnvelopeRequest`] and builds the envelope's request header.
//! - Controller: after the CLUSTER_ACTION check on the envelope (failure:
//!   [`cluster_authorization_failed`]), [`unwrap_request`] reads principal,
//!   address, embedded header and typed body, refusing what may not be
//!   forwarded with an [`UnwrapError`] that names the error code to answer
//!   with ([`UnwrapError::envelope_response`]). The answer goes back with
//!   [`wrap_response`].
//! - Broker, back: [`unwrap_response`] checks the embedded correlation id
//!   and decides ([`ForwardOutcome`]) as Kafka's forwarding broker does:
//!   pass the response on, retry on the new controller (NOT_CONTROLLER),
//!   close the client's connection without an answer (UNSUPPORTED_VERSION,
//!   so that the client asks for api versions again), or answer the client
//!   with its own response type carrying UNKNOWN_SERVER_ERROR
//!   ([`error_response`]) for any other envelope error, which is never
//!   passed on as it is, and for a successful envelope whose embedded
//!   response cannot be read ([`ForwardOutcome::UnreadableResponse`]).
//!
//! Which apis may be forwarded is [`ApiInfo::forwardable`] of the api-key
//! table ([`forwardable_apis`]).
//!
//! ```
//! use std::net::{IpAddr, Ipv4Addr};
//! use kwire::error_code::ErrorCode;
//! use kwire_broker::forward::{envelope_error, unwrap_request, unwrap_response, wrap_request, ForwardOutcome};
//! use kwire::messages::{DefaultPrincipalData, RequestBody, ResponseBody};
//! use kwire::Bytes;
//!
//! // DeleteTopics v1 (request header v1): correlation id 9, client id "c", topic "t", timeout 1000 ms.
//! let client_request = Bytes::from_static(b"\x00\x14\x00\x01\x00\x00\x00\x09\x00\x01c\x00\x00\x00\x01\x00\x01t\x00\x00\x03\xe8");
//! let principal = DefaultPrincipalData { r#type: "User".into(), name: "alice".into(), ..Default::default() };
//! let client = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 7));
//!
//! // Broker: wrap.
//! let wrapped = wrap_request(client_request.clone(), &principal, client, 100, Some("broker-1"))?;
//! assert_eq!(wrapped.envelope.request_data.as_bytes(), &client_request);
//! assert_eq!(wrapped.header.initial_principal_name.as_deref(), Some("alice"));
//!
//! // Controller: unwrap.
//! let unwrapped = unwrap_request(&wrapped.envelope)?;
//! assert_eq!((&*unwrapped.principal.name, unwrapped.client_address), ("alice", client));
//! let RequestBody::DeleteTopics(body) = &unwrapped.body else { unreachable!() };
//! assert_eq!(body.topic_names, ["t"]);
//!
//! // The controller refuses the envelope with INVALID_REQUEST; the broker
//! // answers the client with UNKNOWN_SERVER_ERROR for its topic.
//! let outcome = unwrap_response(&envelope_error(ErrorCode::InvalidRequest), &wrapped.forwarded)?;
//! let ForwardOutcome::ErrorToClient(ResponseBody::DeleteTopics(answer)) = outcome else { unreachable!() };
//! assert_eq!((answer.responses[0].name.as_deref(), answer.responses[0].error_code), (Some("t"), -1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`DefaultPrincipalData`]: kwire::messages::DefaultPrincipalData
//! [`EnvelopeRequest`]: kwire::messages::EnvelopeRequest
//! [`ApiInfo::forwardable`]: kwire::api::ApiInfo::forwardable

mod error_envelope;
mod error_response;
mod request;
mod response;

pub use error_envelope::{cluster_authorization_failed, envelope_error};
pub use error_response::{error_response, error_response_with_message, NotForwardable};
pub use request::{
    client_address_to_bytes, decode_client_address, decode_principal, principal_to_bytes, unwrap_request, wrap_request,
    ForwardedRequest, UnwrapError, UnwrappedRequest, WrapError, WrappedRequest, ENVELOPE_HEADER_VERSION,
    ENVELOPE_VERSION, PRINCIPAL_DATA_VERSION,
};
pub use response::{unwrap_response, wrap_response, ForwardOutcome, ResponseError};

use kwire::api::{ApiInfo, API_INFO};

/// The apis a broker may forward to the controller, in api-key order: those
/// of the api-key table whose [`ApiInfo::forwardable`] is true.
///
/// ```
/// let keys: Vec<i16> = kwire_broker::forward::forwardable_apis().map(|info| info.api_key.code()).collect();
/// assert_eq!(keys.len(), 22);
/// assert_eq!(keys[..3], [19, 20, 30]); // CreateTopics, DeleteTopics, CreateAcls
/// ```
pub fn forwardable_apis() -> impl Iterator<Item = &'static ApiInfo> {
    API_INFO.iter().filter(|info| info.forwardable)
}

#[cfg(test)]
mod error_texts {
    use kwire::api::ApiKey;
    use kwire::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

    use super::{NotForwardable, ResponseError, UnwrapError, WrapError};

    /// `(error, its text, the text of its source)` for each case.
    fn check<E: std::error::Error>(cases: Vec<(E, &str, Option<&str>)>) {
        for (err, text, source) in cases {
            assert_eq!(err.to_string(), text, "{err:?}");
            assert_eq!(err.source().map(ToString::to_string).as_deref(), source, "{err:?}");
        }
    }

    fn utf8() -> DecodeError {
        DecodeError::new(DecodeErrorKind::InvalidUtf8, 9).in_field("name")
    }
    const UTF8: &str = "name: string is not valid UTF-8 (offset 9)";

    /// The text of every variant, as users match on it, and its source.
    #[test]
    fn wrap_error() {
        check(vec![
            (WrapError::NestedEnvelope, "an Envelope request cannot be forwarded inside another envelope", None),
            (WrapError::NotForwardable { api_key: 3 }, "api key 3 is not forwardable", None),
            (
                WrapError::UnsupportedVersion { api_key: ApiKey::CreateTopics, version: 99 },
                "CreateTopics (api key 19) has no version 99",
                None,
            ),
            (WrapError::Malformed(utf8()), &format!("the request to forward is malformed: {UTF8}"), Some(UTF8)),
            (
                WrapError::Principal(EncodeError::new(EncodeErrorKind::DuplicateTag(3))),
                "the principal cannot be encoded: tag 3 is used twice",
                Some("tag 3 is used twice"),
            ),
        ]);
    }

    #[test]
    fn unwrap_error() {
        check(vec![
            (UnwrapError::NestedEnvelope, "the envelope holds another envelope", None),
            (
                UnwrapError::NotForwardable { api_key: ApiKey::Metadata },
                "the envelope holds Metadata (api key 3), which is not forwardable",
                None,
            ),
            (UnwrapError::UnknownApiKey { api_key: -7 }, "the envelope holds api key -7, which is unknown", None),
            (
                UnwrapError::UnsupportedVersion { api_key: ApiKey::CreateTopics, version: 99 },
                "the envelope holds CreateTopics (api key 19) at version 99, which it does not have",
                None,
            ),
            (
                UnwrapError::MalformedHeader(utf8()),
                &format!("the embedded request header is malformed: {UTF8}"),
                Some(UTF8),
            ),
            (
                UnwrapError::MalformedBody(utf8()),
                &format!("the embedded request body is malformed: {UTF8}"),
                Some(UTF8),
            ),
            (UnwrapError::MissingPrincipal, "the envelope has no principal", None),
            (
                UnwrapError::MalformedPrincipal(utf8()),
                &format!("the envelope's principal is malformed: {UTF8}"),
                Some(UTF8),
            ),
            (
                UnwrapError::BadClientAddress { len: 5 },
                "the client address has 5 bytes; expected 4 (IPv4) or 16 (IPv6)",
                None,
            ),
        ]);
    }

    #[test]
    fn response_error_and_not_forwardable() {
        check(vec![
            (ResponseError::MissingResponseData, "the envelope response has neither an error nor response data", None),
            (ResponseError::Malformed(utf8()), &format!("the embedded response is malformed: {UTF8}"), Some(UTF8)),
            (
                ResponseError::CorrelationIdMismatch { expected: 3, found: 4 },
                "the embedded response answers correlation id 4, not the forwarded 3",
                None,
            ),
        ]);
        check(vec![(NotForwardable { api_key: ApiKey::Metadata }, "api key 3 is not forwardable", None)]);
    }
}
