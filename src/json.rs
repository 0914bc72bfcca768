//! Kafka's JSON form of every message (feature `json`): what Apache Kafka's
//! generated converters (`XxxDataJsonConverter.write(data, version)` and
//! `.read(json, version)` in kafka-clients) write and read.
//!
//! Every generated struct implements [`ToJson`] and [`FromJson`], and the
//! dispatch enums have `RequestBody::to_json` / `RequestBody::from_json`
//! (and the same on `ResponseBody`). [`ToJson::write_json`] (and
//! `RequestBody::write_json`) appends the same JSON as text to a
//! [`JsonWriter`] without building the [`Value`], for output one message
//! at a time (a log line, `kwire decode`): generated from the same plan
//! as `to_json_with`, so the text is `Value::to_string`'s, byte for byte.
//! The form, as Kafka writes it:
//!
//! - keys are the schema's field names with the first letter lower-cased
//!   (`ThrottleTimeMs` → `throttleTimeMs`, `KRaftVersion` → `kRaftVersion`),
//!   in the schema's field order, as Kafka writes them: the `json` feature
//!   turns on serde_json's `preserve_order`, so a [`Map`] keeps its keys in
//!   insertion order and `Value::to_string` writes Kafka's text (comparing
//!   two [`Value`]s with `==` still ignores key order);
//! - a field absent at the version is left out; a tagged field is written
//!   only when it differs from its default; unknown tagged fields are left
//!   out (Kafka's converters drop them);
//! - integers are JSON integers, `float64` a JSON number, except NaN and the
//!   infinities, which Jackson writes as the strings `"NaN"`, `"Infinity"`
//!   and `"-Infinity"`, and -0.0 is `-0.0`; in the text, a float64 is
//!   serde_json's shortest form (`0.00001`, `5e-324`) where Jackson writes
//!   Java's `Double.toString` (`1.0E-5`, `4.9E-324`): the same number, the
//!   one place where the text differs from Kafka's;
//! - `bytes` (and the KIP-590 `ApiMessage` and `Header` fields, bytes in
//!   Kafka's schemas) are standard base64 with padding; a `records` field
//!   is written as `""` whatever it holds (Kafka's `write(data, version)`
//!   leaves record contents out) and read from base64;
//! - a `uuid` is Kafka's `Uuid.toString()`: URL-safe base64 without padding;
//! - null is JSON `null`.
//!
//! One deliberate difference, on by default: fields that carry secrets
//! (SASL auth bytes, SCRAM salts and salted passwords, delegation-token
//! HMACs: the schema compiler's sensitive fields, see [`crate::redact`]) are
//! written as the string `"<redacted N bytes>"`, so that JSON printed to a
//! log holds no secret. The same goes for the KIP-590 `ApiMessage` fields
//! of EnvelopeRequest and EnvelopeResponse, which may carry another
//! message's secrets: written as the forwarded request they hold, decoded
//! and redacted, or as `"<redacted N bytes>"` (see [`crate::embedded`]).
//! [`ToJson::to_json_with`] with [`JsonOptions::unredacted`] writes them
//! all as Kafka does.
//!
//! Reading follows Kafka's reader: a field mandatory at the version (present
//! and not tagged) must be there; a field given at a version that lacks it
//! is still read (and then refused on writing, as Kafka does, when it is
//! not ignorable and not at its default); integers must be JSON integers in
//! range, `float64` a JSON number with a fraction or exponent (Kafka refuses
//! `1` for a float64), strings JSON strings. Kafka's reader refuses the
//! strings `"NaN"`, `"Infinity"` and `"-Infinity"` that its writer
//! produces, and so does this one: a float64 NaN or infinity does not come
//! back from Kafka's JSON form. Two quirks of Kafka's reader are kept so
//! that the same JSON means the same value: an `int8` of 128 to 256 is read
//! as that minus 128, and a `uint32` above 4294967293 is refused. One
//! deliberate difference: a struct must be a JSON object (Kafka takes any
//! non-object as an object without fields).
//!
//! # Why not serde
//!
//! Kafka's JSON form depends on the version: which fields exist, which are
//! tagged, and so which keys are written and which are mandatory on reading.
//! `serde::Serialize` and `Deserialize` have no place for a version, and a
//! version-free form (every field, always) would not be Kafka's: Kafka could
//! not read it at older versions, and it would not match the JSON Kafka's
//! tools and logs print. So the generated code converts to and from a
//! [`serde_json::Value`] at a version, and offers no serde impls; a
//! version-free serde derive could come later behind a feature of its own.
//!
//! # Example
//! ```
//! # #[cfg(feature = "json")] {
//! use kwire::json::{FromJson, ToJson};
//! use kwire::messages::ApiVersionsRequest;
//!
//! let request = ApiVersionsRequest::with_default_client_software();
//! let json = request.to_json(3)?;
//! assert_eq!(json.to_string(), format!(r#"{{"clientSoftwareName":"kwire","clientSoftwareVersion":"{}"}}"#, env!("CARGO_PKG_VERSION")));
//! assert_eq!(ApiVersionsRequest::from_json(&json, 3)?, request);
//! assert_eq!(request.to_json(0)?.to_string(), "{}"); // v0 has no fields
//!
//! // Keys in the schema's field order, not sorted.
//! let produce = kwire::messages::ProduceRequest { acks: -1, timeout_ms: 5000, ..Default::default() };
//! assert_eq!(produce.to_json(9)?.to_string(), r#"{"transactionalId":null,"acks":-1,"timeoutMs":5000,"topicData":[]}"#);
//! # }
//! # Ok::<(), kwire::json::JsonError>(())
//! ```

use std::fmt;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use bytes::Bytes;

use crate::embedded::{EmbeddedHeader, EmbeddedMessage};
use crate::primitives::Uuid;
use crate::redact::{redacted_text, Sensitive};

pub use serde_json::{Map, Value};

/// A value with Kafka's JSON form at a version.
pub trait ToJson {
    /// Kafka's JSON form of `self` at `version`, with fields the compiler
    /// marked sensitive redacted ([`JsonOptions::default`]).
    ///
    /// # Errors
    /// [`JsonErrorKind::NonDefaultField`] when a field that the version
    /// lacks, and that is not ignorable, holds a value other than its
    /// default (Kafka's converters refuse it the same way).
    fn to_json(&self, version: i16) -> Result<Value, JsonError> {
        self.to_json_with(version, JsonOptions::default())
    }

    /// Kafka's JSON form of `self` at `version`, written as `options` say.
    ///
    /// # Errors
    /// As [`ToJson::to_json`].
    fn to_json_with(&self, version: i16, options: JsonOptions) -> Result<Value, JsonError>;

    /// Appends to `w` the text of
    /// `self.to_json_with(version, w.options())?.to_string()`: the same
    /// JSON, byte for byte, without building the [`Value`]. Generated
    /// structs and the runtime's types stream it field by field; any other
    /// implementation writes its [`Value`] (this default).
    ///
    /// # Errors
    /// As [`ToJson::to_json`]. The text appended before the error is left
    /// in `w`'s buffer: a caller that needs whole values only truncates the
    /// buffer back to its length before the call.
    fn write_json(&self, w: &mut JsonWriter<'_>, version: i16) -> Result<(), JsonError> {
        let json = self.to_json_with(version, w.options)?;
        w.value(&json);
        Ok(())
    }
}

/// Where [`ToJson::write_json`] appends Kafka's JSON form as text: a byte
/// buffer, the [`JsonOptions`] to write with, and optionally how to write
/// `records` fields.
///
/// # Example
/// ```
/// # #[cfg(feature = "json")] {
/// use kwire::json::{JsonOptions, JsonWriter, ToJson};
/// use kwire::messages::ProduceRequest;
///
/// let produce = ProduceRequest { acks: -1, timeout_ms: 5000, ..Default::default() };
/// let mut text = Vec::new();
/// produce.write_json(&mut JsonWriter::new(&mut text, JsonOptions::default()), 9)?;
/// assert_eq!(text, produce.to_json(9)?.to_string().into_bytes());
/// # }
/// # Ok::<(), kwire::json::JsonError>(())
/// ```
pub struct JsonWriter<'a> {
    out: &'a mut Vec<u8>,
    options: JsonOptions,
    records: Option<RecordsHook<'a>>,
}

/// What writes a `records` field's bytes as a JSON value into the buffer.
type RecordsHook<'a> = &'a mut dyn FnMut(&Bytes, &mut Vec<u8>);

impl fmt::Debug for JsonWriter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JsonWriter")
            .field("len", &self.out.len())
            .field("options", &self.options)
            .field("records", &self.records.is_some())
            .finish()
    }
}

impl<'a> JsonWriter<'a> {
    /// A writer appending to `out`, with `options`; `records` fields are
    /// written as Kafka writes them (`""`, or `null`).
    pub fn new(out: &'a mut Vec<u8>, options: JsonOptions) -> Self {
        JsonWriter { out, options, records: None }
    }

    /// The same writer with each non-null `records` field written by
    /// `records` in place of Kafka's `""`: it gets the field's bytes and
    /// the buffer, and must append exactly one JSON value (a
    /// [`ToJson::to_json_with`] `Value` has `""` there whatever this does).
    pub fn with_records(self, records: &'a mut dyn FnMut(&Bytes, &mut Vec<u8>)) -> Self {
        JsonWriter { records: Some(records), ..self }
    }

    /// The options it writes with.
    pub fn options(&self) -> JsonOptions {
        self.options
    }

    /// Appends `json`'s compact text, as `Value::to_string` writes it.
    fn value(&mut self, json: &Value) {
        // Writing into a `Vec` does not fail, nor does serializing a `Value`.
        let _ = serde_json::to_writer(&mut *self.out, json);
    }

    /// Appends `text` as a JSON string, escaped as serde_json escapes it.
    fn string(&mut self, text: &str) {
        // Writing into a `Vec` does not fail, nor does serializing a `str`.
        let _ = serde_json::to_writer(&mut *self.out, text);
    }
}

/// How [`ToJson`] writes.
///
/// Fields that carry secrets (marked by the schema compiler, see
/// [`crate::redact`]: SASL auth bytes, SCRAM salts and salted passwords,
/// delegation-token HMACs) are written by default as the string
/// `"<redacted N bytes>"` (or `null` when null), so that JSON meant for
/// logs holds no secret; such JSON does not read back into the value.
/// Kafka's own converters write them as base64, which
/// [`JsonOptions::unredacted`] does too, for a byte-for-byte match with
/// Kafka's JSON or a lossless round trip.
///
/// # Example
/// ```
/// # #[cfg(feature = "json")] {
/// use kwire::json::{JsonOptions, ToJson};
/// use kwire::messages::SaslAuthenticateRequest;
///
/// let request = SaslAuthenticateRequest { auth_bytes: kwire::Bytes::from_static(b"\0alice\0secret"), ..Default::default() };
/// assert_eq!(request.to_json(2)?.to_string(), r#"{"authBytes":"<redacted 13 bytes>"}"#);
/// let kafkas = request.to_json_with(2, JsonOptions::unredacted())?;
/// assert_eq!(kafkas.to_string(), r#"{"authBytes":"AGFsaWNlAHNlY3JldA=="}"#);
/// # }
/// # Ok::<(), kwire::json::JsonError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct JsonOptions {
    /// Whether sensitive fields are written as `"<redacted N bytes>"`
    /// (default `true`).
    pub redact_sensitive: bool,
}

impl Default for JsonOptions {
    fn default() -> Self {
        JsonOptions { redact_sensitive: true }
    }
}

impl JsonOptions {
    /// Sensitive fields written as Kafka's converters write them (base64
    /// of their bytes, or the string), not redacted.
    pub fn unredacted() -> Self {
        JsonOptions { redact_sensitive: false }
    }
}

/// A value read from Kafka's JSON form at a version.
pub trait FromJson: Sized {
    /// Reads `json` as Kafka's reader does at `version`.
    ///
    /// # Errors
    /// A [`JsonError`] naming the message, version and JSON path.
    fn from_json(json: &Value, version: i16) -> Result<Self, JsonError>;
}

/// What went wrong converting to or from JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum JsonErrorKind {
    /// A field mandatory at the version is missing.
    Missing,
    /// The JSON has another type than the field needs (`expected` names it).
    Expected(&'static str),
    /// An integer outside the field type's range.
    OutOfRange,
    /// Text that is not valid base64 (bytes) or not a Kafka uuid.
    BadEncoding(&'static str),
    /// Writing: a field the version lacks holds a non-default value.
    NonDefaultField,
    /// An api key with no message in this build.
    UnknownApiKey(i16),
}

impl fmt::Display for JsonErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Missing => f.write_str("missing, and mandatory at this version"),
            Self::Expected(what) => write!(f, "expected {what}"),
            Self::OutOfRange => f.write_str("integer out of the field's range"),
            Self::BadEncoding(what) => write!(f, "not {what}"),
            Self::NonDefaultField => f.write_str("field is not in this version and holds a non-default value"),
            Self::UnknownApiKey(key) => write!(f, "api key {key} is unknown or not compiled"),
        }
    }
}

/// An error converting to or from Kafka's JSON form: the message (the
/// outermost struct converted), the version, the JSON path of the value
/// (`topics[2].name`; empty for the message itself) and what went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// The message, e.g. `CreateTopicsRequest` (empty for a bare value).
    pub message: &'static str,
    /// The version converted at.
    pub version: i16,
    /// The JSON path, e.g. `topics[2].name`.
    pub path: String,
    /// What went wrong.
    pub kind: JsonErrorKind,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = if self.message.is_empty() { "value" } else { self.message };
        write!(f, "{message} v{}", self.version)?;
        if !self.path.is_empty() {
            write!(f, " at {}", self.path)?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for JsonError {}

impl JsonError {
    /// An error of `kind` at the value itself.
    pub fn new(kind: JsonErrorKind, version: i16) -> Self {
        JsonError { message: "", version, path: String::new(), kind }
    }

    /// The same error seen from the struct `owner`, field `key`: the path
    /// gains `key` in front and the message becomes `owner`.
    pub fn within(mut self, owner: &'static str, key: &str) -> Self {
        self.path = match self.path.as_bytes().first() {
            None => key.to_owned(),
            Some(b'[') => format!("{key}{}", self.path),
            Some(_) => format!("{key}.{}", self.path),
        };
        self.message = owner;
        self
    }

    /// The same error seen from an array, at element `index`.
    pub fn at(mut self, index: usize) -> Self {
        self.path = match self.path.as_bytes().first() {
            None => format!("[{index}]"),
            Some(b'[') => format!("[{index}]{}", self.path),
            Some(_) => format!("[{index}].{}", self.path),
        };
        self
    }
}

fn expected(what: &'static str, version: i16) -> JsonError {
    JsonError::new(JsonErrorKind::Expected(what), version)
}

// ---------------------------------------------------------------------------
/// Helpers the generated code calls (through the crate's hidden `encoding`
/// module): each puts the struct and field on the error.
pub(crate) mod support {
    use super::*;

    /// The object of a struct's JSON form, for `owner`.
    ///
    /// # Errors
    /// [`JsonErrorKind::Expected`] when `json` is not an object.
    pub fn object<'a>(json: &'a Value, owner: &'static str, version: i16) -> Result<&'a Map<String, Value>, JsonError> {
        json.as_object().ok_or_else(|| JsonError { message: owner, ..expected("a JSON object", version) })
    }

    /// Reads field `key` of struct `owner` from `json`.
    ///
    /// # Errors
    /// The field's error, with `owner` and `key` in its path.
    #[inline]
    pub fn field<T: FromJson>(json: &Value, version: i16, owner: &'static str, key: &str) -> Result<T, JsonError> {
        T::from_json(json, version).map_err(|e| e.within(owner, key))
    }

    /// Writes field `key` of struct `owner` into `out`.
    ///
    /// # Errors
    /// The field's error, with `owner` and `key` in its path.
    #[inline]
    pub fn put<T: ToJson + ?Sized>(
        out: &mut Map<String, Value>,
        value: &T,
        version: i16,
        options: JsonOptions,
        owner: &'static str,
        key: &str,
    ) -> Result<(), JsonError> {
        let json = value.to_json_with(version, options).map_err(|e| e.within(owner, key))?;
        out.insert(key.to_owned(), json);
        Ok(())
    }

    /// As [`put`], for a field marked sensitive: unless `options` say
    /// otherwise, the string `"<redacted N bytes>"` (`null` when null) in
    /// place of its value.
    ///
    /// # Errors
    /// As [`put`] (none when redacted).
    #[inline]
    pub fn put_sensitive<T: ToJson + Sensitive + ?Sized>(
        out: &mut Map<String, Value>,
        value: &T,
        version: i16,
        options: JsonOptions,
        owner: &'static str,
        key: &str,
    ) -> Result<(), JsonError> {
        if !options.redact_sensitive {
            return put(out, value, version, options, owner, key);
        }
        out.insert(key.to_owned(), redacted(value));
        Ok(())
    }

    /// A sensitive value redacted: `"<redacted N bytes>"`, `null` when null.
    fn redacted<T: Sensitive + ?Sized>(value: &T) -> Value {
        match value.redacted_len() {
            Some(len) => Value::String(redacted_text(len)),
            None => Value::Null,
        }
    }

    /// A struct's JSON object being written into a [`JsonWriter`]: `{`,
    /// its fields each after a `,` but the first, then `}`.
    pub struct Object<'w, 'a> {
        w: &'w mut JsonWriter<'a>,
        owner: &'static str,
        first: bool,
    }

    impl<'w, 'a> Object<'w, 'a> {
        /// Opens the object of struct `owner`.
        #[inline]
        pub fn begin(w: &'w mut JsonWriter<'a>, owner: &'static str) -> Self {
            w.out.push(b'{');
            Object { w, owner, first: true }
        }

        /// Appends `text`, a key as the text holds it (`"key":`).
        #[inline]
        fn key(&mut self, text: &str) {
            if !self.first {
                self.w.out.push(b',');
            }
            self.first = false;
            self.w.out.extend_from_slice(text.as_bytes());
        }

        /// Writes field `key` (`text` in the text) with `value`, as [`put`].
        ///
        /// # Errors
        /// The field's error, with the struct and `key` in its path.
        #[inline]
        pub fn field<T: ToJson + ?Sized>(
            &mut self,
            key: &str,
            text: &str,
            value: &T,
            version: i16,
        ) -> Result<(), JsonError> {
            self.key(text);
            value.write_json(self.w, version).map_err(|e| e.within(self.owner, key))
        }

        /// As [`Object::field`], for a field marked sensitive, as [`put_sensitive`].
        ///
        /// # Errors
        /// As [`Object::field`] (none when redacted).
        #[inline]
        pub fn sensitive<T: ToJson + Sensitive + ?Sized>(
            &mut self,
            key: &str,
            text: &str,
            value: &T,
            version: i16,
        ) -> Result<(), JsonError> {
            if !self.w.options.redact_sensitive {
                return self.field(key, text, value, version);
            }
            self.key(text);
            self.w.value(&redacted(value));
            Ok(())
        }

        /// A `records` field (`text` its key): `""` as [`records`], or what
        /// the writer's records hook writes.
        #[inline]
        pub fn records(&mut self, text: &str, records: &Bytes) {
            self.key(text);
            match &mut self.w.records {
                Some(hook) => hook(records, self.w.out),
                None => self.w.out.extend_from_slice(b"\"\""),
            }
        }

        /// A nullable `records` field: `null`, or as [`Object::records`].
        #[inline]
        pub fn nullable_records(&mut self, text: &str, records: &Option<Bytes>) {
            match records {
                Some(records) => self.records(text, records),
                None => {
                    self.key(text);
                    self.w.out.extend_from_slice(b"null");
                }
            }
        }

        /// Closes the object.
        #[inline]
        pub fn end(self) {
            self.w.out.push(b'}');
        }
    }

    /// The error for field `key` of `owner` missing at `version`.
    pub fn missing(owner: &'static str, key: &str, version: i16) -> JsonError {
        JsonError::new(JsonErrorKind::Missing, version).within(owner, key)
    }

    /// The error for field `key` of `owner` holding a non-default value at a
    /// `version` that lacks it.
    pub fn non_default(owner: &'static str, key: &str, version: i16) -> JsonError {
        JsonError::new(JsonErrorKind::NonDefaultField, version).within(owner, key)
    }

    /// A `records` field as Kafka's `write(data, version)` writes it: `""`
    /// whatever the records hold.
    pub fn records(_records: &Bytes) -> Value {
        Value::String(String::new())
    }

    /// A nullable `records` field: `null`, or `""` as [`records`].
    pub fn nullable_records(records: &Option<Bytes>) -> Value {
        match records {
            None => Value::Null,
            Some(_) => Value::String(String::new()),
        }
    }
}

// ---------------------------------------------------------------------------
// Primitives.

impl ToJson for bool {
    fn to_json_with(&self, _version: i16, _options: JsonOptions) -> Result<Value, JsonError> {
        Ok(Value::Bool(*self))
    }

    fn write_json(&self, w: &mut JsonWriter<'_>, _version: i16) -> Result<(), JsonError> {
        w.out.extend_from_slice(if *self { b"true" } else { b"false" });
        Ok(())
    }
}

impl FromJson for bool {
    fn from_json(json: &Value, version: i16) -> Result<Self, JsonError> {
        json.as_bool().ok_or_else(|| expected("a boolean", version))
    }
}

/// A JSON integer within `lo..=hi`.
fn integer(json: &Value, lo: i64, hi: i64, version: i16) -> Result<i64, JsonError> {
    let n = match json {
        Value::Number(n) if n.is_i64() || n.is_u64() => n,
        _ => return Err(expected("an integer", version)),
    };
    match n.as_i64() {
        Some(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(JsonError::new(JsonErrorKind::OutOfRange, version)),
    }
}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl ToJson for $t {
            fn to_json_with(&self, _version: i16, _options: JsonOptions) -> Result<Value, JsonError> {
                Ok(Value::from(*self))
            }

            fn write_json(&self, w: &mut JsonWriter<'_>, _version: i16) -> Result<(), JsonError> {
                // Writing into a `Vec` does not fail, nor does serializing an integer.
                let _ = serde_json::to_writer(&mut *w.out, self);
                Ok(())
            }
        }
    )*};
}
integers!(i8, i16, u16, i32, u32, i64);

impl FromJson for i8 {
    fn from_json(json: &Value, version: i16) -> Result<Self, JsonError> {
        // Kafka's MessageUtil.jsonNodeToByte reads 128..=256 as 0..=128
        // (value - 128, then cast): kept, so that the same JSON means the same value.
        let v = integer(json, i64::from(i8::MIN), 256, version)?;
        Ok(if v > 127 { (v - 128) as u8 as i8 } else { v as i8 })
    }
}

impl FromJson for i16 {
    fn from_json(json: &Value, version: i16) -> Result<Self, JsonError> {
        integer(json, i16::MIN.into(), i16::MAX.into(), version).map(|v| v as i16)
    }
}

impl FromJson for u16 {
    fn from_json(json: &Value, version: i16) -> Result<Self, JsonError> {
        integer(json, 0, u16::MAX.into(), version).map(|v| v as u16)
    }
}

impl FromJson for i32 {
    fn from_json(json: &Value, version: i16) -> Result<Self, JsonError> {
        integer(json, i32::MIN.into(), i32::MAX.into(), version).map(|v| v as i32)
    }
}

impl FromJson for u32 {
    fn from_json(json: &Value, version: i16) -> Result<Self, JsonError> {
        // Kafka's MessageUtil.jsonNodeToUnsignedInt stops at 4294967293.
        integer(json, 0, 4_294_967_293, version).map(|v| v as u32)
    }
}

impl FromJson for i64 {
    fn from_json(json: &Value, version: i16) -> Result<Self, JsonError> {
        integer(json, i64::MIN, i64::MAX, version)
    }
}

impl ToJson for f64 {
    fn to_json_with(&self, _version: i16, _options: JsonOptions) -> Result<Value, JsonError> {
        Ok(match serde_json::Number::from_f64(*self) {
            Some(n) => Value::Number(n),
            // Jackson's default (QUOTE_NON_NUMERIC_NUMBERS).
            None if self.is_nan() => Value::String("NaN".into()),
            None if *self > 0.0 => Value::String("Infinity".into()),
            None => Value::String("-Infinity".into()),
        })
    }

    fn write_json(&self, w: &mut JsonWriter<'_>, _version: i16) -> Result<(), JsonError> {
        if self.is_finite() {
            // A finite f64 serializes as `Value::Number` of it does, into a
            // `Vec` that does not fail.
            let _ = serde_json::to_writer(&mut *w.out, self);
            Ok(())
        } else {
            let json = self.to_json_with(_version, w.options)?;
            w.value(&json);
            Ok(())
        }
    }
}

/// A JSON number with a fraction or exponent, as Kafka's reader
/// (`MessageUtil.jsonNodeToDouble`) takes only a floating-point node: `1`
/// and the strings `"NaN"`, `"Infinity"` and `"-Infinity"` that Kafka's own
/// writer produces are refused, as Kafka refuses them.
impl FromJson for f64 {
    fn from_json(json: &Value, version: i16) -> Result<Self, JsonError> {
        match json {
            Value::Number(n) if n.is_f64() => Ok(n.as_f64().unwrap_or_default()),
            _ => Err(expected("a floating point number", version)),
        }
    }
}

impl ToJson for crate::ByteString {
    fn to_json_with(&self, _version: i16, _options: JsonOptions) -> Result<Value, JsonError> {
        Ok(Value::String(String::from(&**self)))
    }

    fn write_json(&self, w: &mut JsonWriter<'_>, _version: i16) -> Result<(), JsonError> {
        w.string(self);
        Ok(())
    }
}

impl FromJson for crate::ByteString {
    fn from_json(json: &Value, version: i16) -> Result<Self, JsonError> {
        json.as_str().map(crate::ByteString::from).ok_or_else(|| expected("a string", version))
    }
}

impl ToJson for Bytes {
    fn to_json_with(&self, _version: i16, _options: JsonOptions) -> Result<Value, JsonError> {
        Ok(Value::String(STANDARD.encode(self)))
    }

    /// Standard base64 needs no escaping: its text goes in as it is.
    fn write_json(&self, w: &mut JsonWriter<'_>, _version: i16) -> Result<(), JsonError> {
        let at = w.out.len() + 1;
        let len = base64::encoded_len(self.len(), true).unwrap_or(0);
        w.out.resize(at + len, b'"');
        let written = STANDARD.encode_slice(self, &mut w.out[at..at + len]).unwrap_or(0);
        w.out.truncate(at + written);
        w.out.push(b'"');
        Ok(())
    }
}

impl FromJson for Bytes {
    fn from_json(json: &Value, version: i16) -> Result<Self, JsonError> {
        let text = json.as_str().ok_or_else(|| expected("a base64 string", version))?;
        STANDARD
            .decode(text)
            .map(Bytes::from)
            .map_err(|_| JsonError::new(JsonErrorKind::BadEncoding("base64"), version))
    }
}

/// The forwardable request `message` holds, with its header's version and
/// the body's.
fn forwarded(message: &EmbeddedMessage) -> Option<(crate::frame::RequestFrame, i16, i16)> {
    let frame = message.forwarded_request()?;
    let api_version = frame.header.request_api_version;
    let header_version =
        crate::api::api_info(frame.header.request_api_key).map_or(2, |info| info.request_header_version(api_version));
    Some((frame, header_version, api_version))
}

/// Unredacted ([`JsonOptions::unredacted`]): base64 of the bytes, as Kafka
/// writes an `ApiMessage` field. Redacted (the default): the forwardable
/// request the bytes hold as `{"header": …, "body": …}` (each in its JSON
/// form at its version, sensitive fields redacted), or
/// `"<redacted N bytes>"` for anything else; never the bytes (see
/// [`crate::embedded`]).
impl ToJson for EmbeddedMessage {
    fn to_json_with(&self, version: i16, options: JsonOptions) -> Result<Value, JsonError> {
        if !options.redact_sensitive {
            return self.0.to_json_with(version, options);
        }
        let Some((frame, header_version, api_version)) = forwarded(self) else {
            return Ok(Value::String(redacted_text(self.0.len())));
        };
        let mut out = Map::new();
        out.insert("header".into(), frame.header.to_json_with(header_version, options)?);
        out.insert("body".into(), frame.body.to_json_with(api_version, options)?);
        Ok(Value::Object(out))
    }

    fn write_json(&self, w: &mut JsonWriter<'_>, version: i16) -> Result<(), JsonError> {
        if !w.options.redact_sensitive {
            return self.0.write_json(w, version);
        }
        let Some((frame, header_version, api_version)) = forwarded(self) else {
            w.string(&redacted_text(self.0.len()));
            return Ok(());
        };
        w.out.extend_from_slice(br#"{"header":"#);
        frame.header.write_json(w, header_version)?;
        w.out.extend_from_slice(br#","body":"#);
        frame.body.write_json(w, api_version)?;
        w.out.push(b'}');
        Ok(())
    }
}

impl FromJson for EmbeddedMessage {
    fn from_json(json: &Value, version: i16) -> Result<Self, JsonError> {
        Bytes::from_json(json, version).map(EmbeddedMessage)
    }
}

impl ToJson for EmbeddedHeader {
    fn to_json_with(&self, version: i16, options: JsonOptions) -> Result<Value, JsonError> {
        self.0.to_json_with(version, options)
    }

    fn write_json(&self, w: &mut JsonWriter<'_>, version: i16) -> Result<(), JsonError> {
        self.0.write_json(w, version)
    }
}

impl FromJson for EmbeddedHeader {
    fn from_json(json: &Value, version: i16) -> Result<Self, JsonError> {
        Bytes::from_json(json, version).map(EmbeddedHeader)
    }
}

impl ToJson for Uuid {
    fn to_json_with(&self, _version: i16, _options: JsonOptions) -> Result<Value, JsonError> {
        Ok(Value::String(self.to_string()))
    }

    /// URL-safe base64 needs no escaping: its text goes in as it is.
    fn write_json(&self, w: &mut JsonWriter<'_>, _version: i16) -> Result<(), JsonError> {
        use std::io::Write;
        // Writing into a `Vec` does not fail.
        let _ = write!(w.out, "\"{self}\"");
        Ok(())
    }
}

/// As Kafka's `Uuid.fromString` (see [`Uuid::from_base64`]).
impl FromJson for Uuid {
    fn from_json(json: &Value, version: i16) -> Result<Self, JsonError> {
        let text = json.as_str().ok_or_else(|| expected("a uuid string", version))?;
        Uuid::from_base64(text).map_err(|_| {
            JsonError::new(JsonErrorKind::BadEncoding("a uuid (22 characters of URL-safe base64)"), version)
        })
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn to_json_with(&self, version: i16, options: JsonOptions) -> Result<Value, JsonError> {
        self.iter()
            .enumerate()
            .map(|(i, v)| v.to_json_with(version, options).map_err(|e| e.at(i)))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array)
    }

    fn write_json(&self, w: &mut JsonWriter<'_>, version: i16) -> Result<(), JsonError> {
        w.out.push(b'[');
        for (i, v) in self.iter().enumerate() {
            if i > 0 {
                w.out.push(b',');
            }
            v.write_json(w, version).map_err(|e| e.at(i))?;
        }
        w.out.push(b']');
        Ok(())
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(json: &Value, version: i16) -> Result<Self, JsonError> {
        let items = json.as_array().ok_or_else(|| expected("a JSON array", version))?;
        items.iter().enumerate().map(|(i, v)| T::from_json(v, version).map_err(|e| e.at(i))).collect()
    }
}

impl<T: ToJson> ToJson for Option<T> {
    fn to_json_with(&self, version: i16, options: JsonOptions) -> Result<Value, JsonError> {
        match self {
            None => Ok(Value::Null),
            Some(v) => v.to_json_with(version, options),
        }
    }

    fn write_json(&self, w: &mut JsonWriter<'_>, version: i16) -> Result<(), JsonError> {
        match self {
            None => {
                w.out.extend_from_slice(b"null");
                Ok(())
            }
            Some(v) => v.write_json(w, version),
        }
    }
}

impl<T: FromJson> FromJson for Option<T> {
    fn from_json(json: &Value, version: i16) -> Result<Self, JsonError> {
        match json {
            Value::Null => Ok(None),
            v => T::from_json(v, version).map(Some),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primitives_as_kafka_writes_them() {
        assert_eq!(Uuid::from_u128(1).to_json(0).unwrap(), "AAAAAAAAAAAAAAAAAAAAAQ");
        assert_eq!(Uuid::from_json(&Value::from("AAAAAAAAAAAAAAAAAAAAAQ=="), 0).unwrap(), Uuid::from_u128(1));
        assert!(Uuid::from_json(&Value::from("AAAA"), 0).is_err());
        // Kafka's Uuid.fromString ignores the 4 bits past the 16 bytes.
        assert_eq!(Uuid::from_json(&Value::from("AAAAAAAAAAAAAAAAAAAAAB"), 0).unwrap(), Uuid::NIL);
        assert_eq!(Bytes::from_static(b"\0\x01").to_json(0).unwrap(), "AAE=");
        assert!(Bytes::from_json(&Value::from("AAE"), 0).is_err());
        assert_eq!(f64::NAN.to_json(0).unwrap(), "NaN");
        assert_eq!(f64::INFINITY.to_json(0).unwrap(), "Infinity");
        assert_eq!(f64::NEG_INFINITY.to_json(0).unwrap(), "-Infinity");
        assert_eq!((-0.0f64).to_json(0).unwrap().to_string(), "-0.0");
        assert!(f64::from_json(&serde_json::json!(1), 0).is_err());
        assert_eq!(f64::from_json(&serde_json::json!(1.0), 0).unwrap(), 1.0);
        let negative_zero = f64::from_json(&serde_json::from_str("-0.0").unwrap(), 0).unwrap();
        assert_eq!(negative_zero.to_bits(), (-0.0f64).to_bits());
        assert_eq!(f64::from_json(&serde_json::from_str("1e21").unwrap(), 0).unwrap(), 1e21);
        // What Kafka writes for NaN and the infinities, Kafka's reader refuses.
        for text in ["NaN", "Infinity", "-Infinity"] {
            let e = f64::from_json(&Value::from(text), 0).unwrap_err();
            assert_eq!(e.to_string(), "value v0: expected a floating point number", "{text}");
        }
        assert_eq!(i8::from_json(&serde_json::json!(200), 0).unwrap(), 72);
        assert!(i16::from_json(&serde_json::json!(40000), 0).is_err());
        assert!(i32::from_json(&serde_json::json!("1"), 0).is_err());
        assert!(u32::from_json(&serde_json::json!(4_294_967_294u32), 0).is_err());
        let e = Vec::<Option<i32>>::from_json(&serde_json::json!([1, null, "x"]), 3).unwrap_err().within("M", "xs");
        assert_eq!(e.to_string(), "M v3 at xs[2]: expected an integer");
    }
}
