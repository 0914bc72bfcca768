//! kwire-broker: the decisions a Kafka broker takes around the wire,
//! as pure functions and plain types on top of [`kwire`]'s messages.
//!
//! - `forward` (feature `forward`, on by default): KIP-590 forwarding to the controller. A broker wraps a
//!   client's admin write, byte for byte, with the client's principal and
//!   address in an Envelope (api key 58); the controller unwraps it and
//!   refuses what may not be forwarded with Kafka's error codes; the broker
//!   reads the answer back and decides between passing it on, retrying on
//!   the new controller and answering the client with an error.
//! - [`reauth`]: KIP-368 SASL re-authentication. The session lifetime a
//!   broker grants, which requests an expired connection may still send
//!   (Apache Kafka's broker, which is stricter than the KIP's text), and
//!   when a client starts re-authenticating.
//!
//! Nothing here does I/O: the caller owns the sockets and the clock.

#![warn(missing_docs)]
// docs.rs (`--cfg docsrs`): badge each item with the features it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "forward")]
pub mod forward;
pub mod reauth;
