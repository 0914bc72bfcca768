//! The lines `kwire decode` prints: one per request, response, bare SASL
//! token and problem, each starting with the time and the connection.
//!
//! ```text
//! TIME CONN request API vN corr C {body}
//! TIME CONN response API vN corr C LATENCY {body}
//! TIME CONN response ApiVersions v4 (body v0) corr C LATENCY {body}
//! TIME CONN sasl-token client N bytes, not read
//! TIME CONN error SIDE offset N: CAUSE
//! ```
//!
//! The body is Kafka's JSON form of the message (kwire's `json` feature),
//! sensitive fields redacted. A `records` field, which Kafka's JSON leaves
//! empty, is replaced by a summary of its batches (and with `--records`,
//! the records themselves).

use std::fmt;
use std::time::{Duration, SystemTime};

use base64::Engine;
use kwire::frame::{RequestFrame, ResponseFrame};
use kwire::json::{JsonError, JsonOptions, JsonWriter, Map, Value};
use kwire::messages::{RequestBody, ResponseBody};
use kwire::records::{Batch, Batches, DecodeOptions};
use kwire::Bytes;

/// The time column: RFC 3339 in microseconds, `-` when the input has no times.
#[derive(Clone, Copy)]
pub struct Time(pub Option<SystemTime>);

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(t) => write!(f, "{}", humantime::format_rfc3339_micros(t)),
            None => f.write_str("-"),
        }
    }
}

/// A latency in milliseconds with microseconds, `-` when unknown.
pub struct Latency(pub Option<Duration>);

impl fmt::Display for Latency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(d) => write!(f, "{}.{:03}ms", d.as_millis(), d.subsec_micros() % 1000),
            None => f.write_str("-"),
        }
    }
}

/// ` (body vN)` after the api of a response read at another version than
/// its request's (ApiVersions' v0 fallback); nothing otherwise.
pub struct BodyVersion(pub Option<i16>);

impl fmt::Display for BodyVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(v) => write!(f, " (body v{v})"),
            None => Ok(()),
        }
    }
}

/// Writes the JSON body of a request into `out` (emptied first), records
/// summarized, streamed as the body's JSON form is written: no `Value` is
/// built but for the summaries. On error, `out` holds no complete body.
pub fn request_json(frame: &RequestFrame, records: bool, out: &mut Vec<u8>) -> Result<(), String> {
    let version = frame.header.request_api_version;
    let summarized = matches!(frame.body, RequestBody::Produce(_));
    body_json(out, summarized, records, |w| frame.body.write_json(w, version))
}

/// Writes the JSON body of a response into `out`, as [`request_json`].
pub fn response_json(frame: &ResponseFrame, records: bool, out: &mut Vec<u8>) -> Result<(), String> {
    let summarized = matches!(frame.body, ResponseBody::Fetch(_) | ResponseBody::ShareFetch(_));
    body_json(out, summarized, records, |w| frame.body.write_json(w, frame.version))
}

/// Empties `out` and has `write` stream a body into it, each `records`
/// field as its summary when `summarized` (the bodies whose records are
/// the partitions' data: Produce, Fetch, ShareFetch), else as Kafka writes it.
fn body_json(
    out: &mut Vec<u8>,
    summarized: bool,
    records: bool,
    write: impl FnOnce(&mut JsonWriter<'_>) -> Result<(), JsonError>,
) -> Result<(), String> {
    out.clear();
    let mut summary = |bytes: &Bytes, out: &mut Vec<u8>| {
        let _ = serde_json::to_writer(out, &summarize(bytes, records));
    };
    let w = JsonWriter::new(out, JsonOptions::default());
    let mut w = if summarized { w.with_records(&mut summary) } else { w };
    write(&mut w).map_err(|e| e.to_string())
}

/// A record set as `{"batches":N,"records":M,"codec":"...","offsets":[first,last]}`,
/// with `"list"` holding every record when `records`, and `"error"` when
/// an entry does not read.
fn summarize(bytes: &Bytes, records: bool) -> Value {
    let mut batches = 0u64;
    let mut count = 0u64;
    let mut codecs: Vec<&'static str> = Vec::new();
    let mut first: Option<i64> = None;
    let mut last: Option<i64> = None;
    let mut list = Vec::new();
    let mut error = None;
    let options = DecodeOptions::default();
    for batch in Batches::new(bytes.clone()) {
        let batch = match batch {
            Ok(batch) => batch,
            Err(e) => {
                error = Some(e.to_string());
                break;
            }
        };
        batches += 1;
        match &batch {
            Batch::V2(batch) => {
                let header = batch.header();
                let codec = header.attributes.compression().map_or("unknown", |c| c.name());
                if !codecs.contains(&codec) {
                    codecs.push(codec);
                }
                count += u64::try_from(header.record_count).unwrap_or(0);
                first.get_or_insert(header.base_offset);
                last = Some(header.last_offset());
                if records {
                    match batch.records(&options) {
                        Ok(iter) => {
                            for record in iter {
                                match record {
                                    Ok(record) => {
                                        let mut r = Map::new();
                                        r.insert("offset".into(), header.offset_of(&record).into());
                                        r.insert("timestamp".into(), header.timestamp_of(&record).into());
                                        r.insert("key".into(), text(record.key.as_ref()));
                                        r.insert("value".into(), text(record.value.as_ref()));
                                        let headers: Vec<Value> = record
                                            .headers
                                            .iter()
                                            .map(|h| {
                                                let mut m = Map::new();
                                                m.insert("key".into(), text(Some(&h.key)));
                                                m.insert("value".into(), text(h.value.as_ref()));
                                                Value::Object(m)
                                            })
                                            .collect();
                                        r.insert("headers".into(), headers.into());
                                        list.push(Value::Object(r));
                                    }
                                    Err(e) => {
                                        error = Some(e.to_string());
                                        break;
                                    }
                                }
                            }
                        }
                        Err(e) => error = Some(e.to_string()),
                    }
                }
            }
            Batch::Legacy(message) => {
                let codec = message.compression().map_or("unknown", |c| c.name());
                if !codecs.contains(&codec) {
                    codecs.push(codec);
                }
                match message.messages(&options) {
                    Ok(inner) => {
                        count += inner.len() as u64;
                        for m in &inner {
                            first.get_or_insert(m.offset);
                            last = Some(m.offset);
                            if records {
                                let mut r = Map::new();
                                r.insert("offset".into(), m.offset.into());
                                r.insert("timestamp".into(), m.timestamp.map_or(Value::Null, Value::from));
                                r.insert("key".into(), text(m.key.as_ref()));
                                r.insert("value".into(), text(m.value.as_ref()));
                                list.push(Value::Object(r));
                            }
                        }
                    }
                    Err(e) => error = Some(e.to_string()),
                }
            }
        }
        if error.is_some() {
            break;
        }
    }
    let mut summary = Map::new();
    summary.insert("bytes".into(), bytes.len().into());
    summary.insert("batches".into(), batches.into());
    summary.insert("records".into(), count.into());
    summary.insert("codec".into(), codecs.join(",").into());
    if let (Some(first), Some(last)) = (first, last) {
        summary.insert("offsets".into(), Value::Array(vec![first.into(), last.into()]));
    }
    if records {
        summary.insert("list".into(), list.into());
    }
    if let Some(error) = error {
        summary.insert("error".into(), error.into());
    }
    Value::Object(summary)
}

/// Bytes as text when they are UTF-8, else as `{"base64":"..."}`; null as null.
fn text(bytes: Option<&Bytes>) -> Value {
    match bytes {
        None => Value::Null,
        Some(b) => match std::str::from_utf8(b) {
            Ok(s) => s.into(),
            Err(_) => {
                let mut m = Map::new();
                m.insert("base64".into(), base64::engine::general_purpose::STANDARD.encode(b).into());
                Value::Object(m)
            }
        },
    }
}

/// Whether any `errorCode` in the body is not 0 (NONE).
#[cfg(test)]
pub fn has_error(json: &Value) -> bool {
    match json {
        Value::Object(map) => {
            map.iter().any(|(k, v)| (k == "errorCode" && v.as_i64().is_some_and(|c| c != 0)) || has_error(v))
        }
        Value::Array(items) => items.iter().any(has_error),
        _ => false,
    }
}

/// Whether any `error_code` field of a decoded response is not 0 (NONE):
/// the same answer as [`has_error`] on its JSON form (whose `errorCode`
/// keys are those fields), without building the JSON.
///
/// A derived `Debug` writes each field, nested structs and lists
/// included, as three pieces into a [`fmt::Write`], without allocating:
/// the name, `": "`, then the value. The body is written into a scanner
/// that waits for the piece `error_code` then `": "`, and stops the
/// writing at the first value that is not `0`. Quoted text cannot give
/// those pieces: `Debug` writes a string's characters between escapes as
/// one piece (followed by a quote or an escape, never `": "`) and a byte
/// string's one byte at a time.
pub fn body_has_error(body: &ResponseBody) -> bool {
    let mut scan = ErrorScan::default();
    let _ = fmt::write(&mut scan, format_args!("{body:?}"));
    scan.found
}

/// A [`fmt::Write`] that tells whether the `Debug` text written into it
/// holds an `error_code` field whose value is not `0`.
#[derive(Default)]
struct ErrorScan {
    /// Pieces of `error_code: ` seen last: 1 after the name, 2 after `": "`.
    at: u8,
    found: bool,
}

impl fmt::Write for ErrorScan {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.at = match (self.at, s) {
            // The value's first character: an i16 starting with `0` is 0.
            (2, value) if !value.starts_with('0') => {
                self.found = true;
                return Err(fmt::Error);
            }
            (1, ": ") => 2,
            (_, "error_code") => 1,
            _ => 0,
        };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kwire::api::ApiKey;
    use kwire::json::JsonOptions;
    use kwire::primitives::Reader;
    use kwire::sample::SampleGen;
    use kwire::BytesMut;

    /// Every response at every version, random (strings with quotes and
    /// backslashes, error codes of all values, nested lists) and at its
    /// defaults, read back from its bytes as the decoder reads it: the
    /// `Debug` scan and the JSON form find the same error codes.
    #[test]
    fn the_error_scan_agrees_with_the_json_form_for_every_response() {
        let mut g = SampleGen::new(35);
        let (mut with, mut without) = (0, 0);
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
                    let expected = has_error(&body.to_json(version).unwrap());
                    assert_eq!(body_has_error(&body), expected, "{key:?} v{version}: {body:?}");
                    if expected {
                        with += 1;
                    } else {
                        without += 1;
                    }
                }
            }
        }
        assert!(with > 1000 && without > 300, "{with} with an error, {without} without");
    }

    /// `body` with every error code 0, through its unredacted JSON form.
    fn without_errors(key: ApiKey, body: &ResponseBody, version: i16) -> ResponseBody {
        fn zero(json: &mut Value) {
            match json {
                Value::Object(map) => {
                    for (k, v) in map.iter_mut() {
                        if k == "errorCode" {
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

    #[test]
    fn the_error_scan_passes_over_strings_that_look_like_the_field() {
        let body = kwire::messages::SaslHandshakeResponse {
            error_code: 0,
            mechanisms: vec!["error_code".into(), "error_code: 5".into(), "\"error_code\": 7".into()],
        };
        assert!(!body_has_error(&ResponseBody::SaslHandshake(body.clone())));
        let body = kwire::messages::SaslHandshakeResponse { error_code: 33, ..body };
        assert!(body_has_error(&ResponseBody::SaslHandshake(body)));
    }
}
