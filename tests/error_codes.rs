//! `visit_error_codes`: every error-code field of a response (`int16`,
//! named `ErrorCode` or ending in `ErrorCode`), nested structs and arrays
//! included, at the fields present at the version; checked against the
//! response's JSON form, whose keys are the schema's field names.

use kwire::api::ApiKey;
use kwire::json::{JsonOptions, Value};
use kwire::messages::add_partitions_to_txn_response::{
    AddPartitionsToTxnPartitionResult, AddPartitionsToTxnResult, AddPartitionsToTxnTopicResult,
};
use kwire::messages::{AddPartitionsToTxnResponse, ResponseBody};
use kwire::primitives::Reader;
use kwire::sample::SampleGen;
use kwire::BytesMut;

/// The codes `visit_error_codes` gives, in order.
fn visited(body: &ResponseBody, version: i16) -> Vec<i16> {
    let mut codes = Vec::new();
    body.visit_error_codes(version, &mut |code| codes.push(code));
    codes
}

/// Whether a JSON key is an error-code field's: `errorCode`, or Kafka's
/// camel case of a name ending in `ErrorCode`.
fn is_error_key(key: &str) -> bool {
    key == "errorCode" || key.ends_with("ErrorCode")
}

/// The error codes of a JSON form, in document order (schema order: the
/// objects keep their keys in the order written).
fn json_codes(json: &Value, out: &mut Vec<i16>) {
    match json {
        Value::Object(map) => {
            for (k, v) in map {
                if is_error_key(k) {
                    out.push(v.as_i64().and_then(|c| i16::try_from(c).ok()).expect("an int16 error code"));
                } else {
                    json_codes(v, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| json_codes(v, out)),
        _ => {}
    }
}

/// Whether `json` is `visited` without some of its zeros: the JSON form
/// leaves out a tagged field at its default (CreateTopics'
/// `TopicConfigErrorCode`), and only then.
fn matches_leaving_out_zeros(visited: &[i16], json: &[i16]) -> bool {
    let mut rest = json.iter().peekable();
    for code in visited {
        if rest.peek() == Some(&code) {
            rest.next();
        } else if *code != 0 {
            return false;
        }
    }
    rest.next().is_none()
}

/// `body` with every error code 0, through its unredacted JSON form.
fn without_errors(key: ApiKey, body: &ResponseBody, version: i16) -> ResponseBody {
    fn zero(json: &mut Value) {
        match json {
            Value::Object(map) => {
                for (k, v) in map.iter_mut() {
                    if is_error_key(k) {
                        *v = 0.into();
                    } else {
                        zero(v);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(zero),
            _ => {}
        }
    }
    let mut json = body.to_json_with(version, JsonOptions::unredacted()).unwrap();
    zero(&mut json);
    ResponseBody::from_json(key, &json, version).unwrap()
}

/// Every response at every version, random (error codes of all values,
/// nested lists) and with every error code 0, read back from its bytes as
/// a decoder reads it: the visited codes are the JSON form's.
#[test]
fn visited_error_codes_are_the_json_forms_for_every_response_at_every_version() {
    let mut g = SampleGen::new(35);
    let (mut nonzero, mut zero, mut tagged_left_out) = (0, 0, 0);
    for &key in ApiKey::ALL {
        let versions = key.info().valid_versions;
        for version in versions.min..=versions.max {
            for round in 0..6 {
                let Some(sample) = ResponseBody::sample(key, &mut g, version) else { continue };
                let mut buf = BytesMut::new();
                if sample.encode(&mut buf, version).is_err() {
                    continue;
                }
                let body = ResponseBody::decode_from(key, &mut Reader::new(buf.freeze()), version).unwrap();
                let body = if round == 0 { without_errors(key, &body, version) } else { body };
                let codes = visited(&body, version);
                let mut expected = Vec::new();
                json_codes(&body.to_json(version).unwrap(), &mut expected);
                assert!(
                    matches_leaving_out_zeros(&codes, &expected),
                    "{key:?} v{version}: visited {codes:?}, JSON {expected:?}: {body:?}"
                );
                tagged_left_out += usize::from(codes.len() != expected.len());
                if codes.iter().any(|c| *c != 0) {
                    nonzero += 1;
                } else {
                    zero += 1;
                }
            }
        }
    }
    assert!(
        nonzero > 1000 && zero > 300 && tagged_left_out > 0,
        "{nonzero} with an error, {zero} without, {tagged_left_out} with a tagged code left out"
    );
}

/// AddPartitionsToTxn before v4 has no top-level `ErrorCode`: its only
/// error codes are the partitions' `PartitionErrorCode`; from v4 the
/// per-transaction results are visited and the old per-topic list is not.
#[test]
fn partition_error_codes_are_visited_at_the_versions_that_carry_them() {
    let partition = |code| AddPartitionsToTxnPartitionResult {
        partition_index: 0,
        partition_error_code: code,
        ..Default::default()
    };
    let topic = |code| AddPartitionsToTxnTopicResult {
        name: "orders".into(),
        results_by_partition: vec![partition(0), partition(code)],
        ..Default::default()
    };
    let body = ResponseBody::AddPartitionsToTxn(AddPartitionsToTxnResponse {
        error_code: 7,
        results_by_topic_v3_and_below: vec![topic(53)],
        results_by_transaction: vec![AddPartitionsToTxnResult {
            transactional_id: "t".into(),
            topic_results: vec![topic(48)],
            ..Default::default()
        }],
        ..Default::default()
    });
    assert_eq!(visited(&body, 3), [0, 53]);
    assert_eq!(visited(&body, 4), [7, 0, 48]);
}
