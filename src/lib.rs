//! kwire: the Kafka wire protocol for Rust.
//!
//! Every Kafka message, generated from the schemas in `schemas/` (Kafka's
//! own JSON schema language) into plain structs with encode, decode and
//! size for every version, plus the runtime they stand on.
//!
//! # The wire format on one page
//!
//! ```text
//! frame     = int32 size, header, body
//! request   = header v0: int16 api key, int16 api version, int32 correlation id
//!             header v1: v0 + client id (int16-length string, -1 = null)
//!             header v2: v1 + tagged fields          (flexible api versions)
//! response  = header v0: int32 correlation id
//!             header v1: v0 + tagged fields          (flexible; never ApiVersions)
//! body      = fields in schema order, each present in its versions
//! classic   = string: int16 len | bytes, array: int32 len | null = -1
//! compact   = string, bytes, array: uvarint (len + 1) | null = 0   (flexible versions)
//! tagged    = uvarint count, then per field: uvarint tag, uvarint size, value
//! ```
//!
//! - [`message::Message`]: `encode`, `decode`, `encoded_size` at a version, for every message;
//!   `decode_into` to decode into a kept value without allocating, and
//!   `encode_vectored` to hand large records out as shared chunks instead of copying them.
//! - [`messages`]: the generated types, one module per schema, plus
//!   [`messages::RequestBody`] and [`messages::ResponseBody`] by api key.
//! - [`frame`]: whole frames, header version chosen from api key and version.
//! - [`api`]: the api-key table; [`error_code`]: Kafka's error codes.
//! - [`embedded`]: the embedded messages and headers of KIP-590 forwarding;
//!   [`records`]: record batches.
//!
//! Policy built on the wire lives in sibling crates: `kwire-broker`
//! (KIP-590 forwarding decisions, KIP-368 re-authentication timing) and
//! `kwire-connect` (KIP-507 signed Connect requests, the worker group
//! protocol).
//!
//! # One verb for one act
//!
//! Every type with a wire form uses the same names for the same acts:
//!
//! | verb | what it does |
//! |---|---|
//! | `encode(&self, buf, …)` | appends the encoding to a `BytesMut` (any `BufMut` for the fixed-size parts of [`records`]); on error `buf` is as it was |
//! | `encode_to(&self, writer, …)` | appends into a [`primitives::Writer`] (plain or vectored) |
//! | `encoded_size(&self, …)` | the number of bytes `encode` appends |
//! | `to_bytes(&self, …)` | the encoding as a new `Bytes`; a free function of the same act is named for what it encodes, `…_to_bytes(value, …)` |
//! | `decode(buf, …)` | reads one value from the front of `buf` and advances past it |
//! | `decode_exact(bytes, …)` | reads one value that fills `bytes`; anything left over is an error |
//! | `decode_into(&mut self, buf, …)` | `decode` into a kept value, reusing its allocations |
//! | `decode_from(reader, …)` | `decode` from a [`primitives::Reader`], for callers that hold one |
//! | `decode_into_from(&mut self, reader, …)` | `decode_into` from a [`primitives::Reader`] |
//! | `encode_vectored(&self, …)` | the encoding as chunks; large `bytes` and `records` values are shared, not copied |
//! | `parse(bytes)` | reads a head (sizes, api key, batch header, control record key) without decoding what follows, which it keeps (`RawRequest`, `RecordBatch`) or leaves alone |
//! | `from_*`, `into_*` | conversions between in-memory forms |
//!
//! Frames add suffixes to these verbs: `…_sized` with the 4-byte size
//! prefix, `…_lenient` ignoring bytes after the body (and saying how
//! many), `encode_parts` the header and body apart. A frame's `decode`
//! takes the whole frame (without the size; `decode_sized` with it), so
//! bytes left over are an error as in `decode_exact`; so does every
//! `decode…` that takes its input as `Bytes` by value rather than
//! `&mut Bytes` (`ApiMessageAndVersion::decode_framed` and
//! `decode_prefixed`, `size_prefix::decode_exact`).
//!
//! A type that keeps bytes undecoded (`codec::RawRequest`,
//! `embedded::EmbeddedHeader`, `embedded::EmbeddedMessage`) decodes them
//! with `decode…(&self, …)`. Where one value may hold a request or a
//! response, the verb names which with `_request` or `_response`
//! (`EmbeddedMessage::from_request`, `decode_response`, `parse_request`).
//! The two forms of a record value in Kafka's internal logs
//! (`internal::ApiMessageAndVersion`) are suffixes too: `…_framed` as the
//! KRaft metadata log frames it (frame version, record type, version),
//! `…_prefixed` as a coordinator record's value (an int16 version first).
//! Values that Kafka stores as a record's key and value (coordinator and
//! KRaft log records, the control records of a log) are read from that
//! pair with `decode(key, value)` and written with `key_bytes` and
//! `value_bytes`, or both at once with `LogRecord::to_key_value`.
//!
//! Every decode error names the message, version, field path and byte
//! offset; decoding never panics and never allocates more than the input
//! can hold.

#![warn(missing_docs)]
// docs.rs (`--cfg docsrs`, see Cargo.toml): badge each item with the features it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use bytes::{Bytes, BytesMut};
/// The type of every owned `string` field: an immutable UTF-8 string held
/// in a [`Bytes`]. A decoded string shares the input's bytes (one reference
/// count, no copy, no allocation), so it keeps that input alive while it
/// lives; `ByteString::from(&*s)` copies one out. It derefs to `str`,
/// compares with `&str` and `String`, and converts from both with `into()`
/// (`name: "orders".into()`, which copies; [`ByteString::from_static`]
/// does not). See the bytestring crate for the rest of its API.
pub use bytestring::ByteString;

// Errors with their place: message, version, field path, byte offset.
pub mod error;
// Encodings of every schema type: Reader, Writer, Uuid, the borrowed views' types.
pub mod primitives;
// The tagged-field section, unknown fields kept.
pub mod tagged;
// What generated code calls: field helpers, the tagged section, segments, varints.
#[doc(hidden)]
pub mod encoding;
// Message traits and version ranges.
pub mod message;
// Every message of `schemas/`, generated by kwire-codegen.
pub mod messages;
// The api-key table and header-version rules.
pub mod api;
// Whole request and response frames, dispatched by api key.
pub mod frame;
// tokio-util codecs: size-prefixed frames, typed server and client sides (feature `tokio`).
#[cfg(feature = "tokio")]
pub mod codec;
// Embedded messages and headers (KIP-590 `ApiMessage` and `Header`).
pub mod embedded;
// Kafka's JSON form of every message, as Kafka's JSON converters (feature `json`).
#[cfg(feature = "json")]
pub mod json;
// Random values shaped to a version, for property tests.
#[cfg(feature = "sample")]
pub mod sample;
// Fields that carry secrets (SASL auth bytes, SCRAM salted passwords, token HMACs), shown redacted.
pub mod redact;
// Entity accessors for proxies: visit and rewrite topic names, broker ids, group ids and the like (feature `entities`).
#[cfg(feature = "entities")]
pub mod entity;
// Kafka protocol error codes (-1..=128), names, retriability.
pub mod error_code;
// Record batches v2 and legacy message sets: the payload of Produce and Fetch.
pub mod records;
// Kafka's internal records: metadata log and snapshots, coordinator topics, raft and storage files (feature `internal-records`).
#[cfg(feature = "internal-records")]
pub mod internal;

/// The README's examples, compiled and run as doctests (they use every
/// api key, so they need the `admin` and `controller` features).
#[cfg(all(doctest, feature = "admin", feature = "controller"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
