//! Every frame in the shared captures (real clients against real brokers)
//! decodes with nothing left over and re-encodes to the same bytes.
//!
//! Known exception: tansu writes tagged fields equal to their defaults
//! (ApiVersions v3/v4 responses, and TopicConfigErrorCode 0 in CreateTopics
//! v5+ responses), which kwire leaves out, as Kafka does; those frames
//! are compared by value (decode, encode shorter, decode to the same value).

mod common;

use common::captures::captures;

use kwire::frame::{self, RequestFrame, ResponseFrame};
use kwire::{Bytes, BytesMut};

fn reencode_request(f: &RequestFrame) -> Bytes {
    let mut buf = BytesMut::new();
    frame::size_prefix::encode(&mut buf, |b| frame::RequestFrame::encode_parts(&f.header, &f.body, b))
        .expect("encodes");
    buf.freeze()
}

fn reencode_response(f: &ResponseFrame) -> Bytes {
    let mut buf = BytesMut::new();
    frame::size_prefix::encode(&mut buf, |b| frame::ResponseFrame::encode_parts(&f.header, &f.body, f.version, b))
        .expect("encodes");
    buf.freeze()
}

#[test]
fn every_captured_frame_round_trips() {
    let Some(captures) = captures() else { return };
    assert_eq!(captures.len(), 196, "the index lists 196 frames");
    let mut failures = Vec::new();
    let mut by_value = 0;
    for c in &captures {
        let result = if c.request {
            frame::RequestFrame::decode_sized(c.bytes.clone()).map(|f| {
                assert_eq!((f.header.request_api_key, f.header.request_api_version), (c.api_key, c.api_version));
                (reencode_request(&f), None)
            })
        } else {
            frame::ResponseFrame::decode_sized(
                c.bytes.clone(),
                kwire::api::ApiKey::try_from(c.api_key).expect("a known api key"),
                c.api_version,
            )
            .map(|f| {
                let again = reencode_response(&f);
                (again, Some(f))
            })
        };
        match result {
            Err(e) => failures.push(format!("{}: {e}", c.file)),
            Ok((again, _)) if again == c.bytes => {}
            Ok((again, Some(f))) if c.peer == "tansu" => {
                // Same value, fewer bytes: the default-valued tagged fields are gone.
                let back = frame::ResponseFrame::decode_sized(
                    again.clone(),
                    kwire::api::ApiKey::try_from(c.api_key).expect("a known api key"),
                    c.api_version,
                )
                .expect("re-decodes");
                assert_eq!(back, f, "{}", c.file);
                assert!(again.len() < c.bytes.len(), "{}", c.file);
                by_value += 1;
            }
            Ok((again, _)) => failures.push(format!(
                "{}: re-encoded bytes differ\n  captured {}\n  ours     {}",
                c.file,
                hex::encode(&c.bytes),
                hex::encode(&again)
            )),
        }
    }
    assert!(failures.is_empty(), "{} of {} frames failed:\n{}", failures.len(), captures.len(), failures.join("\n"));
    let tansu_av = captures.iter().filter(|c| c.peer == "tansu" && c.api_key == 18 && !c.request).count();
    assert!(by_value >= tansu_av, "tansu's ApiVersions responses carry default-valued tagged fields");
}

#[test]
fn unsupported_version_answer_falls_back_to_v0() {
    let Some(captures) = captures() else { return };
    let c = captures.iter().find(|c| c.file == "noida/kafka-python-ApiVersions-v4-resp-err35.hex").expect("capture");
    let f = frame::ResponseFrame::decode_sized(c.bytes.clone(), kwire::api::ApiKey::ApiVersions, 4)
        .expect("decodes through the v0 fallback");
    assert_eq!(f.version, 0);
    let kwire::messages::ResponseBody::ApiVersions(body) = f.body else { panic!("ApiVersions body") };
    assert_eq!(body.error_code, 35);
    assert_eq!(body.api_keys.len(), 1);
    assert_eq!((body.api_keys[0].api_key, body.api_keys[0].min_version, body.api_keys[0].max_version), (18, 0, 3));
}
