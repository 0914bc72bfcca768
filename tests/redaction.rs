//! No secrets in logs: the fields that carry secrets
//! (`sensitive_fields` of kafka-facts.json) print as
//! `<redacted N bytes>` in `Debug`, of the message, of the dispatch enum and
//! of the borrowed view, and in the JSON form unless asked otherwise.

use kwire::message::Message;
use kwire::messages::{RequestBody, SaslAuthenticateRequest, SaslAuthenticateResponse};
use kwire::primitives::Reader;
use kwire::{Bytes, BytesMut};

const PLAIN: &[u8] = b"\0alice\0secret";

/// `value` encoded at `version` and decoded again, as a proxy or broker would see it.
fn decoded<M: Message>(value: &M, version: i16) -> M {
    let mut buf = BytesMut::new();
    value.encode(&mut buf, version).expect("encodes");
    M::decode(&mut buf.freeze(), version).expect("decodes")
}

#[test]
fn sasl_authenticate_request_debug_hides_the_password() {
    let sent = SaslAuthenticateRequest { auth_bytes: Bytes::from_static(PLAIN), ..Default::default() };
    for version in 0..=2 {
        let request = decoded(&sent, version);
        assert_eq!(request.auth_bytes, PLAIN, "the value itself is intact");
        let shown = format!("{request:?}");
        assert_eq!(shown, "SaslAuthenticateRequest { auth_bytes: <redacted 13 bytes>, unknown_tagged_fields: [] }");
        assert!(!shown.contains("secret") && !shown.contains("alice"), "{shown}");
        let pretty = format!("{request:#?}");
        assert!(!pretty.contains("secret") && pretty.contains("<redacted 13 bytes>"), "{pretty}");
    }
    // Through the dispatch enum, decoded from a frame body by api key.
    let mut buf = BytesMut::new();
    sent.encode(&mut buf, 2).expect("encodes");
    let body = RequestBody::decode_from(kwire::api::ApiKey::SaslAuthenticate, &mut Reader::new(buf.freeze()), 2)
        .expect("decodes");
    let shown = format!("{body:?}");
    assert!(shown.contains("<redacted 13 bytes>") && !shown.contains("secret"), "{shown}");
}

#[test]
fn sasl_authenticate_response_debug_hides_the_server_message() {
    let response = SaslAuthenticateResponse {
        error_message: Some("bad password".into()),
        auth_bytes: Bytes::from_static(b"v=rmF9pqV8S7suAoZWja4dJRkFsKQ="),
        session_lifetime_ms: 1000,
        ..Default::default()
    };
    let shown = format!("{:?}", decoded(&response, 2));
    assert!(shown.contains("auth_bytes: <redacted 30 bytes>"), "{shown}");
    assert!(!shown.contains("rmF9pqV8"), "{shown}");
    // Other fields print as before.
    assert!(
        shown.contains("error_message: Some(\"bad password\")") && shown.contains("session_lifetime_ms: 1000"),
        "{shown}"
    );
}

/// An AlterUserScramCredentials request for alice: an 11-byte salt and a
/// 32-byte salted password, both containing "secret".
#[cfg(feature = "admin")]
fn scram_upsertion() -> kwire::messages::AlterUserScramCredentialsRequest {
    use kwire::messages::alter_user_scram_credentials_request::ScramCredentialUpsertion;
    kwire::messages::AlterUserScramCredentialsRequest {
        upsertions: vec![ScramCredentialUpsertion {
            name: "alice".into(),
            mechanism: 2,
            iterations: 8192,
            salt: Bytes::from_static(b"salt-secret"),
            salted_password: Bytes::from_static(b"salted-password-secret-32-bytes!"),
            ..Default::default()
        }],
        ..Default::default()
    }
}

#[cfg(feature = "admin")]
#[test]
fn scram_salted_password_and_salt_are_redacted() {
    let shown = format!("{:?}", decoded(&scram_upsertion(), 0));
    assert!(!shown.contains("secret"), "{shown}");
    assert!(shown.contains("salt: <redacted 11 bytes>"), "{shown}");
    assert!(shown.contains("salted_password: <redacted 32 bytes>"), "{shown}");
    // The user name and iterations are not secrets.
    assert!(shown.contains("name: \"alice\"") && shown.contains("iterations: 8192"), "{shown}");
}

/// An EnvelopeRequest forwarding AlterUserScramCredentials (KIP-590), as a
/// broker sends it to the controller, and the EnvelopeResponse carrying a
/// CreateDelegationToken answer.
#[cfg(feature = "admin")]
fn envelopes() -> (kwire::messages::EnvelopeRequest, kwire::messages::EnvelopeResponse) {
    use kwire::embedded::EmbeddedMessage;
    use kwire::messages::{
        CreateDelegationTokenResponse, EnvelopeRequest, EnvelopeResponse, RequestHeader, ResponseHeader,
    };
    let scram = scram_upsertion();
    let header = RequestHeader {
        request_api_key: 51,
        request_api_version: 0,
        correlation_id: 4,
        client_id: Some("admin".into()),
        ..Default::default()
    };
    let request = EnvelopeRequest {
        request_data: EmbeddedMessage::from_request(&header, &scram).expect("encodes"),
        request_principal: None,
        client_host_address: Bytes::from_static(&[127, 0, 0, 1]),
        ..Default::default()
    };
    let token = CreateDelegationTokenResponse {
        token_id: "tok".into(),
        hmac: Bytes::from_static(b"hmac-secret"),
        ..Default::default()
    };
    let response = EnvelopeResponse {
        response_data: Some(
            EmbeddedMessage::from_response(&ResponseHeader { correlation_id: 4, ..Default::default() }, &token, 3)
                .expect("encodes"),
        ),
        ..Default::default()
    };
    (request, response)
}

#[cfg(feature = "admin")]
#[test]
fn envelopes_redact_what_they_carry() {
    let (request, response) = envelopes();
    let shown = format!("{:?}", decoded(&request, 0));
    assert!(!shown.contains("secret"), "{shown}");
    assert!(shown.contains("salt: <redacted 11 bytes>"), "{shown}");
    assert!(shown.contains("salted_password: <redacted 32 bytes>"), "{shown}");
    assert!(shown.contains("request_api_key: 51") && shown.contains("name: \"alice\""), "{shown}");
    assert!(shown.contains("client_host_address: b\"\\x7f\\0\\0\\x01\""), "{shown}");
    // Through the dispatch enum and pretty-printed.
    let body = RequestBody::Envelope(request.clone());
    let pretty = format!("{body:#?}");
    assert!(!pretty.contains("secret") && pretty.contains("<redacted 32 bytes>"), "{pretty}");
    // A response names no api key: shown by its length alone.
    let len = response.response_data.as_ref().map(|m| m.as_bytes().len()).unwrap();
    let shown = format!("{:?}", decoded(&response, 0));
    assert!(!shown.contains("secret") && !shown.contains("tok"), "{shown}");
    assert!(shown.contains(&format!("response_data: Some(EmbeddedMessage(<{len} bytes>))")), "{shown}");
    // The raw bytes, asked for explicitly, are intact.
    let raw = format!("{:?}", request.request_data.as_bytes());
    assert!(raw.contains("salted-password-secret-32-bytes!"), "{raw}");
}

#[cfg(all(feature = "admin", feature = "json"))]
#[test]
fn envelope_json_redacts_what_it_carries() {
    use kwire::json::{FromJson, JsonOptions, ToJson};
    use kwire::messages::{EnvelopeRequest, EnvelopeResponse};
    let (request, response) = envelopes();
    let redacted = request.to_json(0).expect("json");
    let text = redacted.to_string();
    assert!(!text.contains("c2FsdC1zZWNyZXQ") && !text.contains("secret"), "{text}");
    let upsertion = &redacted["requestData"]["body"]["upsertions"][0];
    assert_eq!(upsertion["salt"], "<redacted 11 bytes>");
    assert_eq!(upsertion["saltedPassword"], "<redacted 32 bytes>");
    assert_eq!(upsertion["name"], "alice");
    assert_eq!(redacted["requestData"]["header"]["requestApiKey"], 51);
    assert_eq!(redacted["requestData"]["header"]["clientId"], "admin");
    let len = response.response_data.as_ref().map(|m| m.as_bytes().len()).unwrap();
    let redacted = response.to_json(0).expect("json");
    assert_eq!(redacted["responseData"], format!("<redacted {len} bytes>"));
    // Unredacted: Kafka's form (base64 of the embedded bytes), which reads back.
    let kafkas = request.to_json_with(0, JsonOptions::unredacted()).expect("json");
    assert!(kafkas["requestData"].as_str().is_some_and(|b64| b64.len() > 40), "{kafkas}");
    assert_eq!(EnvelopeRequest::from_json(&kafkas, 0).expect("reads"), request);
    let kafkas = response.to_json_with(0, JsonOptions::unredacted()).expect("json");
    assert_eq!(EnvelopeResponse::from_json(&kafkas, 0).expect("reads"), response);
    // The streamed text is the same JSON, with the forwarded request decoded.
    for options in [JsonOptions::default(), JsonOptions::unredacted()] {
        let streamed = |value: &dyn Fn(&mut kwire::json::JsonWriter<'_>) -> Result<(), kwire::json::JsonError>| {
            let mut text = Vec::new();
            value(&mut kwire::json::JsonWriter::new(&mut text, options)).expect("json");
            String::from_utf8(text).expect("UTF-8")
        };
        let text = request.to_json_with(0, options).expect("json").to_string();
        assert_eq!(streamed(&|w| request.write_json(w, 0)), text);
        let text = response.to_json_with(0, options).expect("json").to_string();
        assert_eq!(streamed(&|w| response.write_json(w, 0)), text);
    }
}

#[cfg(feature = "admin")]
#[test]
fn delegation_token_hmacs_are_redacted() {
    use kwire::messages::describe_delegation_token_response::DescribedDelegationToken;
    use kwire::messages::{
        CreateDelegationTokenResponse, DescribeDelegationTokenResponse, ExpireDelegationTokenRequest,
        RenewDelegationTokenRequest,
    };
    let hmac = Bytes::from_static(b"hmac-secret");
    let shown = [
        format!(
            "{:?}",
            CreateDelegationTokenResponse { token_id: "tok".into(), hmac: hmac.clone(), ..Default::default() }
        ),
        format!(
            "{:?}",
            DescribeDelegationTokenResponse {
                tokens: vec![DescribedDelegationToken {
                    token_id: "tok".into(),
                    hmac: hmac.clone(),
                    ..Default::default()
                }],
                ..Default::default()
            }
        ),
        format!("{:?}", RenewDelegationTokenRequest { hmac: hmac.clone(), ..Default::default() }),
        format!("{:?}", ExpireDelegationTokenRequest { hmac, ..Default::default() }),
    ];
    for s in shown {
        assert!(s.contains("hmac: <redacted 11 bytes>") && !s.contains("secret"), "{s}");
    }
}

#[cfg(feature = "borrowed")]
#[test]
fn borrowed_views_redact_too() {
    use kwire::message::MessageView;
    use kwire::messages::sasl_authenticate_request::SaslAuthenticateRequestRef;
    let mut buf = BytesMut::new();
    SaslAuthenticateRequest { auth_bytes: Bytes::from_static(PLAIN), ..Default::default() }
        .encode(&mut buf, 1)
        .expect("encodes");
    let bytes = buf.freeze();
    let view = SaslAuthenticateRequestRef::decode(&mut &bytes[..], 1).expect("decodes");
    let shown = format!("{view:?}");
    assert_eq!(shown, "SaslAuthenticateRequestRef { auth_bytes: <redacted 13 bytes>, unknown_tagged_fields: [] }");
}

#[cfg(feature = "json")]
#[test]
fn json_redacts_unless_asked() {
    use kwire::json::{FromJson, JsonOptions, ToJson};
    let request = SaslAuthenticateRequest { auth_bytes: Bytes::from_static(PLAIN), ..Default::default() };
    let redacted = request.to_json(2).expect("json");
    assert_eq!(redacted.to_string(), r#"{"authBytes":"<redacted 13 bytes>"}"#);
    // Kafka's converters write base64: the unredacted form, which reads back.
    let kafkas = request.to_json_with(2, JsonOptions::unredacted()).expect("json");
    assert_eq!(kafkas.to_string(), r#"{"authBytes":"AGFsaWNlAHNlY3JldA=="}"#);
    assert_eq!(SaslAuthenticateRequest::from_json(&kafkas, 2).expect("reads"), request);
    // The dispatch enum's form too.
    let body = RequestBody::SaslAuthenticate(request);
    assert_eq!(body.to_json(2).expect("json"), redacted);
    assert_eq!(body.to_json_with(2, JsonOptions::unredacted()).expect("json"), kafkas);
}

/// The KRaft metadata log holds SCRAM credentials too: their salt, stored key
/// and server key print redacted, as Kafka's own metadata tools redact them.
#[cfg(feature = "internal-records")]
#[test]
fn scram_credential_record_debug_hides_its_keys() {
    use kwire::internal::metadata::UserScramCredentialRecord;
    let record = UserScramCredentialRecord {
        name: "alice".into(),
        mechanism: 1,
        salt: Bytes::from_static(b"salt-secret"),
        stored_key: Bytes::from_static(b"stored-secret"),
        server_key: Bytes::from_static(b"server-secret"),
        iterations: 4096,
        ..Default::default()
    };
    let shown = format!("{:?}", decoded(&record, 0));
    assert!(!shown.contains("secret"), "{shown}");
    assert!(shown.contains("salt: <redacted 11 bytes>"), "{shown}");
    assert!(shown.contains("stored_key: <redacted 13 bytes>"), "{shown}");
    assert!(shown.contains("server_key: <redacted 13 bytes>"), "{shown}");
    assert!(shown.contains("\"alice\"") && shown.contains("iterations: 4096"), "{shown}");
}
