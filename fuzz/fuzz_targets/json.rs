//! Any text as Kafka's JSON form of any request or response at any version
//! (feature `json`). The first three bytes choose what the rest is read as:
//!
//! ```text
//! byte0 & 1     0 a request, 1 a response
//! byte1         the api key, as an index into the api-key table
//! byte2         the version, as an offset from the api's lowest
//! byte3..       JSON text
//! ```
//!
//! `from_json` gives a value or a typed error, never a panic. What it
//! accepts writes back (unredacted) to the JSON it was read from: every key
//! written is a key of the input with the same value, except where Kafka's
//! form itself normalizes (a `records` field written as `""`, an int8 of
//! 128 to 256 read as that minus 128, a uuid with `==` padding or stray
//! bits in its last character). The only refusal on writing is a field the
//! version lacks holding a non-default value. What is written is the
//! canonical form: it reads back and writes again to itself. And the value
//! survives the wire: when it encodes at the version, the bytes decode, with
//! nothing left over, to a value that encodes to the same bytes and writes
//! the same JSON.
#![no_main]

mod api_choice;

use kwire::api::ApiKey;
use kwire::error::DecodeError;
use kwire::json::{FromJson, JsonError, JsonErrorKind, JsonOptions, Value};
use kwire::messages::{RequestBody, ResponseBody};
use kwire::primitives::{Reader, Uuid};
use kwire::{Bytes, BytesMut};
use libfuzzer_sys::fuzz_target;

/// What the target needs of a request or response body.
trait Body: Sized {
    fn read(api_key: ApiKey, json: &Value, version: i16) -> Result<Self, JsonError>;
    fn write(&self, version: i16) -> Result<Value, JsonError>;
    fn encode_at(&self, version: i16) -> Option<Bytes>;
    fn decode_at(api_key: ApiKey, bytes: Bytes, version: i16) -> Result<Self, DecodeError>;
}

macro_rules! body {
    ($ty:ty) => {
        impl Body for $ty {
            fn read(api_key: ApiKey, json: &Value, version: i16) -> Result<Self, JsonError> {
                <$ty>::from_json(api_key, json, version)
            }
            fn write(&self, version: i16) -> Result<Value, JsonError> {
                self.to_json_with(version, JsonOptions::unredacted())
            }
            fn encode_at(&self, version: i16) -> Option<Bytes> {
                let mut buf = BytesMut::new();
                self.encode(&mut buf, version).ok().map(|()| buf.freeze())
            }
            fn decode_at(api_key: ApiKey, bytes: Bytes, version: i16) -> Result<Self, DecodeError> {
                let mut r = Reader::new(bytes);
                let body = <$ty>::decode_from(api_key, &mut r, version)?;
                r.finish()?;
                Ok(body)
            }
        }
    };
}
body!(RequestBody);
body!(ResponseBody);

/// Whether `written` (what `to_json` wrote) says what `read` (the input)
/// said, key by key: every key written was read with the same value, up to
/// the normalizations of Kafka's form.
fn agrees(read: &Value, written: &Value) -> bool {
    match (read, written) {
        (Value::Object(r), Value::Object(w)) => w.iter().all(|(k, wv)| r.get(k).is_some_and(|rv| agrees(rv, wv))),
        (Value::Array(r), Value::Array(w)) => r.len() == w.len() && r.iter().zip(w).all(|(rv, wv)| agrees(rv, wv)),
        (r, w) if r == w => true,
        // A `records` field: read from base64, written as "" whatever it holds.
        (Value::String(_), Value::String(w)) if w.is_empty() && Bytes::from_json(read, 0).is_ok() => true,
        // A uuid: `==` padding and the last character's 4 spare bits dropped.
        (Value::String(r), Value::String(w)) => {
            matches!((Uuid::from_base64(r), Uuid::from_base64(w)), (Ok(a), Ok(b)) if a == b && a.to_string() == *w)
        }
        // An int8 of 128..=256, read as that minus 128.
        (Value::Number(r), Value::Number(w)) => {
            matches!((r.as_i64(), w.as_i64()), (Some(r @ 128..=256), Some(w)) if w == i64::from((r - 128) as u8 as i8))
        }
        _ => false,
    }
}

fn check<B: Body>(api_key: ApiKey, version: i16, input: &Value) {
    let Ok(value) = B::read(api_key, input, version) else { return };
    let written = match value.write(version) {
        Ok(w) => w,
        Err(e) => {
            assert_eq!(e.kind, JsonErrorKind::NonDefaultField, "{api_key:?} v{version}: {e}");
            return;
        }
    };
    assert!(agrees(input, &written), "{api_key:?} v{version}: read {input}\nwrote {written}");
    let again = B::read(api_key, &written, version)
        .unwrap_or_else(|e| panic!("{api_key:?} v{version}: its own JSON does not read: {e}\n{written}"));
    let rewritten = again.write(version).unwrap_or_else(|e| panic!("{api_key:?} v{version}: {e}"));
    assert_eq!(rewritten, written, "{api_key:?} v{version}: the canonical form is not stable");
    // Compared as bytes and JSON, not as values: a float64 may be NaN.
    if let Some(bytes) = value.encode_at(version) {
        let decoded = B::decode_at(api_key, bytes.clone(), version)
            .unwrap_or_else(|e| panic!("{api_key:?} v{version}: its own encoding does not decode: {e}"));
        assert_eq!(decoded.encode_at(version).as_ref(), Some(&bytes), "{api_key:?} v{version}: encode, decode, encode");
        assert_eq!(decoded.write(version).ok().as_ref(), Some(&written), "{api_key:?} v{version}: JSON after the wire");
    }
}

fuzz_target!(|data: &[u8]| {
    let [selector, index, offset, text @ ..] = data else { return };
    let (info, version) = api_choice::api_version(*index, *offset);
    let Ok(input) = serde_json::from_slice::<Value>(text) else { return };
    if selector & 1 == 0 {
        check::<RequestBody>(info.api_key, version, &input);
    } else {
        check::<ResponseBody>(info.api_key, version, &input);
    }
});
