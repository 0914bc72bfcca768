//! kafka-wire: the Kafka wire protocol for Rust.

// Errors with their place: message, version, field path, byte offset.
pub mod error;
// Encodings of every schema type and the `Wire` trait behind them.
pub mod primitives;
// The tagged-field section, unknown fields kept.
pub mod tagged;
// Message traits and version ranges.
pub mod message;
// Kafka protocol error codes (-1..=128), names, retriability.
pub mod error_code;
// KIP-368 SASL re-authentication: reauth settings, session lifetime, expiry policy, client timing.
pub mod reauth;
