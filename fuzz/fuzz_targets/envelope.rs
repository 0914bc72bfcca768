//! Any bytes through KIP-590 forwarding (kwire-broker's `forward`) and the
//! embedded decoders (`kwire::embedded`): a value or a typed refusal, never
//! a panic. The first byte chooses the side:
//!
//! ```text
//! byte0 & 3 == 0  controller: an EnvelopeRequest of principal, address and request data,
//!                 laid out as [principal length (0xff: null)] [principal]
//!                 [address length] [address] [request data]
//! byte0 & 3 == 1  broker: a client request and the controller's EnvelopeResponse,
//!                 laid out as [request length (2 bytes)] [request] [error code (2 bytes)]
//!                 [response data (null when byte0 & 0x80)]
//! otherwise       the embedded decoders alone: principal, client address, embedded
//!                 request and request header (version (byte0 >> 4) & 3, at most 2) of the rest
//! ```
//!
//! Invariants: a request the broker wraps, the controller unwraps to the
//! same header and body, and what the controller unwraps (with no trailing
//! bytes) the broker wraps; a re-wrapped request carries the client's bytes
//! and address unchanged and unwraps to the same request, principal and
//! address; refusals answer with the codes Kafka's controller answers
//! (35, 42 or 97). An EnvelopeResponse gives the outcome its error code and
//! data call for, and an embedded response re-wraps and unwraps to itself,
//! the re-wrapped bytes being the canonical encoding.
#![no_main]

use std::net::{IpAddr, Ipv4Addr};

use kwire::api::ApiKey;
use kwire::embedded::{EmbeddedHeader, EmbeddedMessage};
use kwire::error_code::ErrorCode;
use kwire::frame::{RequestFrame, ResponseFrame};
use kwire::message::Message;
use kwire::messages::{DefaultPrincipalData, EnvelopeRequest, EnvelopeResponse, RequestBody, RequestHeader};
use kwire::{Bytes, BytesMut};
use kwire_broker::forward::{
    client_address_to_bytes, decode_client_address, decode_principal, error_response, principal_to_bytes,
    unwrap_request, unwrap_response, wrap_request, wrap_response, ForwardOutcome, ForwardedRequest, ResponseError,
    UnwrapError, ENVELOPE_HEADER_VERSION, ENVELOPE_VERSION,
};
use libfuzzer_sys::fuzz_target;

/// `Debug` text, to compare values that may hold a NaN float64.
fn text<T: std::fmt::Debug>(v: &T) -> String {
    format!("{v:?}")
}

/// Splits a length byte and that many bytes (fewer at the end) off `data`.
fn take(data: &[u8]) -> (Option<&[u8]>, &[u8]) {
    let Some((&len, rest)) = data.split_first() else { return (None, data) };
    if len == 0xff {
        return (None, rest);
    }
    let (part, rest) = rest.split_at((len as usize).min(rest.len()));
    (Some(part), rest)
}

fn check_refusal(e: &UnwrapError) {
    let code = e.error_code().code();
    assert!([35, 42, 97].contains(&code), "{e:?} answers {code}");
    let response = e.envelope_response();
    assert_eq!((response.error_code, response.response_data), (code, None));
}

/// The controller's side: unwrap, and wrap again what unwraps.
fn controller(data: &[u8]) {
    let (principal, rest) = take(data);
    let (address, request) = take(rest);
    let address = address.unwrap_or_default();
    let envelope = EnvelopeRequest {
        request_data: EmbeddedMessage(Bytes::copy_from_slice(request)),
        request_principal: principal.map(Bytes::copy_from_slice),
        client_host_address: Bytes::copy_from_slice(address),
        ..Default::default()
    };
    let unwrapped = match unwrap_request(&envelope) {
        Ok(u) => u,
        Err(e) => {
            check_refusal(&e);
            if principal.is_none() {
                assert_eq!(e, UnwrapError::MissingPrincipal);
            }
            // What the broker wraps, the controller unwraps.
            let principal = DefaultPrincipalData::default();
            let localhost = IpAddr::V4(Ipv4Addr::LOCALHOST);
            if let Ok(w) = wrap_request(Bytes::copy_from_slice(request), &principal, localhost, 1, None) {
                let u = unwrap_request(&w.envelope).unwrap_or_else(|e| panic!("what wraps unwraps: {e}"));
                assert_eq!(text(&(u.header, u.body)), text(&(w.forwarded.header, w.forwarded.body)));
            }
            return;
        }
    };
    let principal = principal.expect("a principal when unwrapped");
    assert_eq!(decode_principal(Bytes::copy_from_slice(principal)).as_ref(), Ok(&unwrapped.principal));
    assert_eq!(decode_client_address(address), Ok(unwrapped.client_address));
    assert_eq!(client_address_to_bytes(unwrapped.client_address), address, "the address's bytes");
    assert!(unwrapped.trailing_bytes <= request.len());
    let embedded = Bytes::copy_from_slice(&request[..request.len() - unwrapped.trailing_bytes]);
    // The embedded decoders agree.
    let (header, _) = envelope.request_data.parse_request().expect("a header that unwraps parses");
    assert_eq!(header, unwrapped.header);
    let frame = RequestFrame::decode(embedded.clone()).expect("an embedded request that unwraps decodes as a frame");
    assert_eq!(text(&(&frame.header, &frame.body)), text(&(&unwrapped.header, &unwrapped.body)));
    // Re-wrapped: the client's bytes and address unchanged, the same request, principal and address.
    let wrapped = wrap_request(embedded.clone(), &unwrapped.principal, unwrapped.client_address, 9, Some("broker"))
        .unwrap_or_else(|e| panic!("what unwraps wraps: {e}"));
    assert_eq!(wrapped.envelope.request_data.as_bytes(), &embedded);
    assert_eq!(wrapped.envelope.client_host_address, address);
    assert_eq!(wrapped.envelope.request_principal, principal_to_bytes(&unwrapped.principal).ok());
    assert_eq!(wrapped.header.initial_principal_name.as_deref(), Some(&*unwrapped.principal.name));
    assert_eq!(wrapped.header.initial_client_id, unwrapped.header.client_id);
    let again = unwrap_request(&wrapped.envelope).unwrap_or_else(|e| panic!("a re-wrapped request unwraps: {e}"));
    assert_eq!(again.trailing_bytes, 0);
    assert_eq!((&again.principal, again.client_address), (&unwrapped.principal, unwrapped.client_address));
    assert_eq!(text(&(&again.header, &again.body)), text(&(&unwrapped.header, &unwrapped.body)));
    // The envelope frame itself round-trips.
    let mut buf = BytesMut::new();
    wrapped.encode(&mut buf).expect("the envelope encodes");
    let frame = RequestFrame::decode(buf.freeze()).expect("the envelope frame decodes");
    assert_eq!(frame.header.request_api_version, ENVELOPE_VERSION);
    assert_eq!(frame.header, wrapped.header);
    assert_eq!(frame.body, RequestBody::Envelope(wrapped.envelope));
}

/// The broker's side: the controller's answer to a wrapped client request.
fn broker(selector: u8, data: &[u8]) {
    let [hi, lo, rest @ ..] = data else { return };
    let (request, rest) = rest.split_at((u16::from_be_bytes([*hi, *lo]) as usize).min(rest.len()));
    let [c0, c1, response_data @ ..] = rest else { return };
    let principal = DefaultPrincipalData::default();
    let Ok(wrapped) =
        wrap_request(Bytes::copy_from_slice(request), &principal, IpAddr::V4(Ipv4Addr::LOCALHOST), 1, None)
    else {
        return;
    };
    let forwarded: ForwardedRequest = wrapped.forwarded;
    let (api_key, version) = (forwarded.api_key(), forwarded.api_version());
    let response = EnvelopeResponse {
        error_code: i16::from_be_bytes([*c0, *c1]),
        response_data: (selector & 0x80 == 0).then(|| EmbeddedMessage(Bytes::copy_from_slice(response_data))),
        ..Default::default()
    };
    let outcome = unwrap_response(&response, &forwarded);
    match ErrorCode::from_code(response.error_code) {
        ErrorCode::None => {}
        ErrorCode::NotController => {
            assert_eq!(outcome, Ok(ForwardOutcome::RetryOnNewController));
            return;
        }
        ErrorCode::UnsupportedVersion => {
            assert_eq!(outcome, Ok(ForwardOutcome::CloseConnection));
            return;
        }
        code => {
            // Whatever the envelope's error, the client is told
            // UNKNOWN_SERVER_ERROR on its own response type.
            let Ok(ForwardOutcome::ErrorToClient(body)) = outcome else { panic!("{code:?} gave {outcome:?}") };
            assert_eq!(body.api_key(), api_key);
            let expected =
                error_response(&forwarded.body, version, ErrorCode::UnknownServerError).expect("a forwardable api");
            assert_eq!(text(&body), text(&expected));
            let mut buf = BytesMut::new();
            body.encode(&mut buf, version).expect("an error response encodes at the request's version");
            return;
        }
    }
    // A successful envelope whose data is no answer: the client is told
    // UNKNOWN_SERVER_ERROR on its own response type, and why is said.
    let unknown_server_error = |reason: ResponseError| -> Result<ForwardOutcome, kwire_broker::forward::NotForwardable> {
        let error_response =
            error_response(&forwarded.body, version, ErrorCode::UnknownServerError).expect("a forwardable api");
        Ok(ForwardOutcome::UnreadableResponse { error_response, reason })
    };
    let Some(data) = &response.response_data else {
        assert_eq!(text(&outcome), text(&unknown_server_error(ResponseError::MissingResponseData)));
        return;
    };
    // Bytes after the body are left unread, as Kafka leaves them.
    let (header, body) = match (ResponseFrame::decode_lenient(data.as_bytes().clone(), api_key, version), outcome) {
        (Err(e), outcome) => {
            assert_eq!(text(&outcome), text(&unknown_server_error(ResponseError::Malformed(e))));
            return;
        }
        (Ok((f, _)), outcome) if f.header.correlation_id != forwarded.correlation_id() => {
            let (expected, found) = (forwarded.correlation_id(), f.header.correlation_id);
            assert_eq!(
                text(&outcome),
                text(&unknown_server_error(ResponseError::CorrelationIdMismatch { expected, found }))
            );
            return;
        }
        (Ok((f, _)), Ok(ForwardOutcome::Response(header, body))) => {
            assert_eq!(text(&(&header, &body)), text(&(&f.header, &f.body)));
            (header, body)
        }
        (Ok(_), outcome) => panic!("an embedded response that decodes gave {outcome:?}"),
    };
    // Re-wrapped, it unwraps to itself; wrapped again, to the same bytes.
    let rewrapped = wrap_response(&header, &body, version).expect("what unwraps re-wraps");
    let Ok(ForwardOutcome::Response(h, b)) = unwrap_response(&rewrapped, &forwarded) else {
        panic!("a re-wrapped response does not unwrap")
    };
    assert_eq!(text(&(&h, &b)), text(&(&header, &body)));
    let twice = wrap_response(&h, &b, version).expect("re-wraps");
    assert_eq!(twice, rewrapped, "{api_key:?} v{version}: re-wrapping is not stable");
}

/// The embedded decoders on their own.
fn embedded(selector: u8, data: &[u8]) {
    let bytes = Bytes::copy_from_slice(data);
    if let Ok(p) = decode_principal(bytes.clone()) {
        let again = principal_to_bytes(&p).expect("a decoded principal encodes");
        assert_eq!(decode_principal(again), Ok(p));
    }
    match decode_client_address(data) {
        Ok(a) => assert_eq!(client_address_to_bytes(a), data),
        Err(e) => assert_eq!(e, UnwrapError::BadClientAddress { len: data.len() }),
    }
    let message = EmbeddedMessage(bytes.clone());
    if let Ok((header, body)) = message.parse_request() {
        // The header, encoded at its version, parses back with the same body bytes.
        let info = ApiKey::try_from(header.request_api_key).expect("a parsed header has a known api key").info();
        let header_version = info.request_header_version(header.request_api_version);
        let mut buf = BytesMut::new();
        header.encode(&mut buf, header_version).expect("a parsed header encodes");
        buf.extend_from_slice(&body);
        let (h, b) = EmbeddedMessage(buf.freeze()).parse_request().expect("and parses");
        assert_eq!((h, b), (header, body));
    }
    let header_version = i16::from((selector >> 4) & 3).min(ENVELOPE_HEADER_VERSION);
    if let Ok(header) = EmbeddedHeader(bytes).decode(header_version) {
        let again = EmbeddedHeader::from_header(&header, header_version).expect("a decoded header encodes");
        assert_eq!(again.decode(header_version), Ok(header.clone()));
        assert_eq!(RequestHeader::decode_exact(again.0, header_version), Ok(header));
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    match selector & 3 {
        0 => controller(rest),
        1 => broker(selector, rest),
        _ => embedded(selector, rest),
    }
});
