//! SASL re-authentication (KIP-368): the timing and policy rules, as pure
//! functions without I/O.
//!
//! Broker side:
//! - [`resolve_connections_max_reauth_ms`] finds the `connections.max.reauth.ms`
//!   setting that applies to a listener and SASL mechanism;
//! - [`session_lifetime_ms`] computes the `SessionLifetimeMs` to put in a
//!   SaslAuthenticate v1+ response;
//! - [`SessionExpiry`] decides, per request, whether an authenticated
//!   connection may go on or must be closed because its session expired.
//!
//! Client side:
//! - [`reauthenticate_after`] says how long after authentication to start
//!   re-authenticating, with a jitter drawn from a [`JitterSource`].
//!
//! All times are milliseconds; instants are milliseconds since the Unix epoch
//! (or any one clock, as long as the caller uses it consistently).
//!
//! # Kafka's broker, not KIP-368's text, on an expired session
//!
//! KIP-368's text lets a connection whose session expired still send
//! ApiVersions, SaslHandshake and SaslAuthenticate. Apache Kafka's broker
//! (checked against 4.4.0 by `interop/tests/cluster_reauth.rs`) is stricter, and
//! this module follows the broker: once the session has expired, only
//! **SaslHandshake** (api key 17) is let through, because it starts a
//! re-authentication; **every other request, ApiVersions (18) and a
//! SaslAuthenticate (36) without a SaslHandshake before it included, closes
//! the connection** without an answer. The SaslAuthenticate that follows an
//! accepted SaslHandshake belongs to the re-authentication the handshake
//! started: a broker routes it to its SASL exchange, not through
//! [`SessionExpiry::decide`]. A re-authenticating client therefore sends
//! SaslHandshake then SaslAuthenticate, and no ApiVersions, on the
//! connection it keeps (Kafka's Java client does the same).
//!
//! ```
//! use kwire_broker::reauth::{
//!     reauthenticate_after, resolve_connections_max_reauth_ms, session_lifetime_ms,
//!     RequestDecision, SessionExpiry,
//! };
//! use std::collections::HashMap;
//! use std::time::Duration;
//! use kwire::messages::ApiKey;
//!
//! // Broker: one hour for SASL_SSL/OAUTHBEARER, nothing elsewhere.
//! let settings = HashMap::from([(
//!     "listener.name.sasl_ssl.oauthbearer.connections.max.reauth.ms".to_string(),
//!     "3600000".to_string(),
//! )]);
//! let max = resolve_connections_max_reauth_ms("SASL_SSL", "OAUTHBEARER", |key| settings.get(key))?;
//! assert_eq!(max, 3_600_000);
//!
//! // The token expires in 10 minutes, sooner than the limit.
//! let now = 1_700_000_000_000;
//! let lifetime = session_lifetime_ms(max, Some(now + 600_000), now);
//! assert_eq!(lifetime, Some(600_000));
//!
//! let expiry = SessionExpiry::for_credential(max, Some(now + 600_000), now);
//! assert_eq!(expiry, SessionExpiry::new(now, lifetime));
//! assert_eq!(expiry.decide(0, now + 600_001), RequestDecision::CloseConnection);
//! assert_eq!(expiry.decide(ApiKey::SaslHandshake.code(), now + 600_001), RequestDecision::Allow);
//! // Kafka's broker closes an expired connection on ApiVersions too.
//! assert_eq!(expiry.decide(ApiKey::ApiVersions.code(), now + 600_001), RequestDecision::CloseConnection);
//!
//! // A token that had expired when authentication ended: the client is
//! // told 0 (no limit), yet the session is over at once.
//! let stale = session_lifetime_ms(max, Some(now - 1), now);
//! assert_eq!(stale, Some(0));
//! assert_eq!(SessionExpiry::new(now, stale), SessionExpiry::for_credential(max, Some(now - 1), now));
//! assert_eq!(SessionExpiry::new(now, stale).decide(0, now), RequestDecision::CloseConnection);
//!
//! // Client: SaslAuthenticate v1+ and r = 0.5 → 90% of the lifetime sent
//! // (the response's SessionLifetimeMs: 0 when there is no lifetime).
//! let after = reauthenticate_after(2, lifetime.unwrap_or(0), &mut || 0.5);
//! assert_eq!(after, Some(Duration::from_millis(540_000)));
//! # Ok::<(), kwire_broker::reauth::ReauthConfigError>(())
//! ```
mod broker;
mod client;
mod settings;

pub use broker::{allowed_after_expiry, session_lifetime_ms, RequestDecision, SessionExpiry};
pub use client::{
    reauthenticate_after, JitterSource, StdJitter, REAUTH_WINDOW_START_PERCENT, REAUTH_WINDOW_WIDTH_PERCENT,
};
pub use settings::{
    connections_max_reauth_ms_keys, resolve_connections_max_reauth_ms, ReauthConfigError, CONNECTIONS_MAX_REAUTH_MS,
};
