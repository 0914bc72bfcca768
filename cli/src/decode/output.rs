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

/// Whether any error code of a decoded response at `version` is not 0
/// (NONE): its error-code fields as `ResponseBody::visit_error_codes`
/// finds them (every `int16` field named `ErrorCode` or ending in
/// `ErrorCode`, nested ones included).
pub fn body_has_error(body: &ResponseBody, version: i16) -> bool {
    let mut found = false;
    body.visit_error_codes(version, &mut |code| found |= code != 0);
    found
}
