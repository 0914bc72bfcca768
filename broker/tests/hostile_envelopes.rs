//! Hostile envelopes against KIP-590 forwarding (`kwire_broker::forward`):
//! random bytes as an Envelope's embedded request, principal and client
//! address, and sampled requests of every forwardable api and version,
//! wrapped and then mutated. Checks: no panic; a refusal is one of the
//! error codes Kafka answers an Envelope with, and a malformed part says
//! where; what unwraps encodes back.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use proptest::prelude::*;

use kwire::api::API_INFO;
use kwire::frame;
use kwire::messages::{DefaultPrincipalData, EnvelopeRequest, RequestBody, RequestHeader};
use kwire::sample::SampleGen;
use kwire::{Bytes, BytesMut};
use kwire_broker::forward::{decode_client_address, decode_principal, unwrap_request, wrap_request, UnwrapError};
use kwire_testkit::mutation::{mutate, mutation};

/// `cases` per property, or `HOSTILE_CASES` (for a longer hunt).
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("HOSTILE_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(cases);
    ProptestConfig { cases, ..ProptestConfig::default() }
}

/// A DecodeError's Display always ends with its byte offset.
fn says_offset(text: &str) -> bool {
    text.contains("(offset ")
}

/// Sampled client requests of every forwardable api and version, encoded.
fn forwardable_requests() -> &'static [Vec<u8>] {
    static CELL: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    CELL.get_or_init(|| {
        let mut out = Vec::new();
        for info in API_INFO.iter().filter(|i| i.forwardable) {
            for version in info.valid_versions.min..=info.valid_versions.max {
                let mut g = SampleGen::new(((info.api_key.code() as u64) << 16) ^ version as u64);
                let Some(body) = RequestBody::sample(info.api_key, &mut g, version) else { continue };
                let header = RequestHeader {
                    request_api_key: info.api_key.code(),
                    request_api_version: version,
                    correlation_id: 11,
                    client_id: Some("c".into()),
                    ..Default::default()
                };
                let mut buf = BytesMut::new();
                frame::RequestFrame::encode_parts(&header, &body, &mut buf).expect("sampled requests encode");
                out.push(buf.to_vec());
            }
        }
        out
    })
}

fn check_unwrap_error(e: &UnwrapError) -> Result<(), TestCaseError> {
    let code = e.error_code().code();
    prop_assert!([35, 42, 97].contains(&code), "{:?} answers {}", e, code);
    prop_assert_eq!(e.envelope_response().error_code, code);
    match e {
        UnwrapError::MalformedHeader(d) | UnwrapError::MalformedBody(d) | UnwrapError::MalformedPrincipal(d) => {
            prop_assert!(says_offset(&d.to_string()), "{}", d);
        }
        _ => {}
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(600))]

    #[test]
    fn envelopes_of_any_bytes(
        data in proptest::collection::vec(any::<u8>(), 0..64),
        principal in proptest::option::of(proptest::collection::vec(any::<u8>(), 0..24)),
        address in proptest::collection::vec(any::<u8>(), 0..20),
        api_key in prop_oneof![Just(None), (0i16..100).prop_map(Some)],
    ) {
        let mut data = data;
        if let (Some(k), true) = (api_key, data.len() >= 2) {
            data[..2].copy_from_slice(&k.to_be_bytes());
        }
        let envelope = EnvelopeRequest {
            request_data: Bytes::from(data.clone()).into(),
            request_principal: principal.clone().map(Bytes::from),
            client_host_address: Bytes::from(address.clone()),
            ..Default::default()
        };
        match unwrap_request(&envelope) {
            Ok(u) => prop_assert!(u.trailing_bytes <= data.len()),
            Err(e) => check_unwrap_error(&e)?,
        }
        if let Some(p) = principal {
            match decode_principal(Bytes::from(p)) {
                Ok(p) => prop_assert!(p.r#type.len() + p.name.len() < 24),
                Err(e) => check_unwrap_error(&e)?,
            }
        }
        match decode_client_address(&address) {
            Ok(IpAddr::V4(_)) => prop_assert_eq!(address.len(), 4),
            Ok(IpAddr::V6(_)) => prop_assert_eq!(address.len(), 16),
            Err(e) => prop_assert_eq!(e, UnwrapError::BadClientAddress { len: address.len() }),
        }
        let _ = wrap_request(Bytes::from(data), &DefaultPrincipalData::default(), IpAddr::V4(Ipv4Addr::LOCALHOST), 1, None);
    }

    #[test]
    fn envelopes_mutated(index in any::<usize>(), mutations in proptest::collection::vec(mutation(), 1..4)) {
        let all = forwardable_requests();
        let request = Bytes::from(all[index % all.len()].clone());
        let principal = DefaultPrincipalData { r#type: "User".into(), name: "alice".into(), ..Default::default() };
        let address = IpAddr::V6(Ipv6Addr::LOCALHOST);
        let wrapped = wrap_request(request.clone(), &principal, address, 5, Some("broker"))
            .map_err(|e| TestCaseError::fail(format!("a sampled request wraps: {e}")))?;
        let unwrapped = unwrap_request(&wrapped.envelope).expect("and unwraps");
        prop_assert_eq!(unwrapped.trailing_bytes, 0);
        prop_assert_eq!((&unwrapped.header, &unwrapped.body), (&wrapped.forwarded.header, &wrapped.forwarded.body));
        // The embedded request mutated.
        let mut envelope = wrapped.envelope.clone();
        envelope.request_data = Bytes::from(mutate(&request, &mutations)).into();
        match unwrap_request(&envelope) {
            Ok(u) => {
                // What unwraps encodes back, trailing bytes aside.
                // (Compared as bytes: a mutated float may be NaN.)
                let mut buf = BytesMut::new();
                frame::RequestFrame::encode_parts(&u.header, &u.body, &mut buf).expect("what decodes encodes");
                let once = buf.freeze();
                let again = frame::RequestFrame::decode(once.clone()).expect("and decodes");
                let mut buf = BytesMut::new();
                frame::RequestFrame::encode_parts(&again.header, &again.body, &mut buf).expect("encodes");
                prop_assert_eq!(buf.freeze(), once);
            }
            Err(e) => check_unwrap_error(&e)?,
        }
        // The principal mutated.
        let mut envelope = wrapped.envelope.clone();
        let principal_bytes = envelope.request_principal.clone().expect("a principal");
        envelope.request_principal = Some(Bytes::from(mutate(&principal_bytes, &mutations)));
        if let Err(e) = unwrap_request(&envelope) {
            check_unwrap_error(&e)?;
        }
    }
}
