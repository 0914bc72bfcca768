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
//! (checked against 4.4.0 by `tests/cluster_reauth.rs`) is stricter, and
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

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

use kwire::messages::ApiKey;

/// The broker setting's base name, `connections.max.reauth.ms` (KIP-368).
///
/// Maximum time, in ms, a SASL-authenticated connection may live before it
/// must re-authenticate; `0` (Kafka's default) means no limit. It may be set
/// per listener and per mechanism; see [`connections_max_reauth_ms_keys`].
pub const CONNECTIONS_MAX_REAUTH_MS: &str = "connections.max.reauth.ms";

/// A `connections.max.reauth.ms` value that cannot be used.
///
/// Both variants name the exact setting key that held the bad value.
///
/// ```
/// use kwire_broker::reauth::{resolve_connections_max_reauth_ms, ReauthConfigError};
///
/// let err = resolve_connections_max_reauth_ms("PLAIN", "PLAIN", |key: &str| {
///     (key == "connections.max.reauth.ms").then_some("-5")
/// })
/// .unwrap_err();
/// assert_eq!(
///     err,
///     ReauthConfigError::Negative { key: "connections.max.reauth.ms".into(), value: -5 }
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReauthConfigError {
    /// The value is not a whole number of milliseconds that fits in an `i64`.
    #[error("setting `{key}` = {value:?} is not a whole number of milliseconds")]
    NotANumber {
        /// The setting key, e.g. `listener.name.sasl_ssl.connections.max.reauth.ms`.
        key: String,
        /// The value as found.
        value: String,
    },
    /// The value is below zero (use 0 for "no limit").
    #[error("setting `{key}` = {value} is negative; 0 means no limit")]
    Negative {
        /// The setting key.
        key: String,
        /// The parsed value.
        value: i64,
    },
}

/// The three setting keys that may hold `connections.max.reauth.ms` for a
/// listener and SASL mechanism, most specific first:
///
/// 1. `listener.name.<listener>.<mechanism>.connections.max.reauth.ms`
/// 2. `listener.name.<listener>.connections.max.reauth.ms`
/// 3. `connections.max.reauth.ms`
///
/// Listener and mechanism names are lower-cased, as Kafka does.
///
/// ```
/// let keys = kwire_broker::reauth::connections_max_reauth_ms_keys("SASL_SSL", "SCRAM-SHA-256");
/// assert_eq!(keys[0], "listener.name.sasl_ssl.scram-sha-256.connections.max.reauth.ms");
/// assert_eq!(keys[1], "listener.name.sasl_ssl.connections.max.reauth.ms");
/// assert_eq!(keys[2], "connections.max.reauth.ms");
/// ```
pub fn connections_max_reauth_ms_keys(listener: &str, mechanism: &str) -> [String; 3] {
    let listener = listener.to_lowercase();
    let mechanism = mechanism.to_lowercase();
    [
        format!("listener.name.{listener}.{mechanism}.{CONNECTIONS_MAX_REAUTH_MS}"),
        format!("listener.name.{listener}.{CONNECTIONS_MAX_REAUTH_MS}"),
        CONNECTIONS_MAX_REAUTH_MS.to_string(),
    ]
}

/// The `connections.max.reauth.ms` (ms) that applies to a listener and SASL
/// mechanism; `0` means no limit (Kafka's default, also returned when no key
/// is set).
///
/// `lookup` returns a setting's value by key (for a `HashMap<String, String>`:
/// `|key| map.get(key)`). The keys of [`connections_max_reauth_ms_keys`] are
/// tried most specific first; the first key present decides, even if it holds
/// `0`. Values are trimmed before parsing.
///
/// Source: KIP-368, broker setting `connections.max.reauth.ms`.
///
/// # Errors
///
/// [`ReauthConfigError::NotANumber`] or [`ReauthConfigError::Negative`] for
/// the deciding key's value.
///
/// ```
/// use kwire_broker::reauth::resolve_connections_max_reauth_ms;
/// use std::collections::HashMap;
///
/// let settings = HashMap::from([
///     ("connections.max.reauth.ms".to_string(), "600000".to_string()),
///     ("listener.name.internal.connections.max.reauth.ms".to_string(), "0".to_string()),
/// ]);
/// let lookup = |key: &str| settings.get(key);
/// assert_eq!(resolve_connections_max_reauth_ms("EXTERNAL", "PLAIN", lookup)?, 600_000);
/// assert_eq!(resolve_connections_max_reauth_ms("INTERNAL", "PLAIN", lookup)?, 0);
/// # Ok::<(), kwire_broker::reauth::ReauthConfigError>(())
/// ```
pub fn resolve_connections_max_reauth_ms<F, S>(
    listener: &str,
    mechanism: &str,
    lookup: F,
) -> Result<u64, ReauthConfigError>
where
    F: Fn(&str) -> Option<S>,
    S: AsRef<str>,
{
    for key in connections_max_reauth_ms_keys(listener, mechanism) {
        if let Some(value) = lookup(&key) {
            let value = value.as_ref();
            let parsed: i64 = value
                .trim()
                .parse()
                .map_err(|_| ReauthConfigError::NotANumber { key: key.clone(), value: value.to_string() })?;
            return u64::try_from(parsed).map_err(|_| ReauthConfigError::Negative { key, value: parsed });
        }
    }
    Ok(0)
}

/// The session lifetime (ms) a broker gives a connection authenticated at
/// `authenticated_at_ms`, or `None` when the session has no limit.
///
/// - `max_reauth_ms`: the applicable `connections.max.reauth.ms`
///   ([`resolve_connections_max_reauth_ms`]); `0` = no maximum.
/// - `credential_expiry_ms`: when the credential used to authenticate expires
///   (e.g. an OAuth bearer token's expiry), if it has one.
/// - `authenticated_at_ms`: when authentication completed.
///
/// Rules (KIP-368, as Kafka's `SaslServerAuthenticator` computes them):
/// maximum only → the maximum; credential expiry only → the credential's
/// remaining lifetime; both → the smaller; neither → `None`. Never
/// negative: a credential that had expired when authentication completed,
/// or expired at that instant, gives `Some(0)`, a session that is over at
/// once ([`SessionExpiry::new`]).
///
/// The SaslAuthenticate v1+ response's `SessionLifetimeMs` (`int64`) is
/// `lifetime.unwrap_or(0)`: on the wire 0 means "no limit" for both `None`
/// and `Some(0)`, so a client told 0 does not re-authenticate, while the
/// broker closes the connection on its next request.
///
/// ```
/// use kwire_broker::reauth::session_lifetime_ms;
///
/// let now = 1_000_000;
/// assert_eq!(session_lifetime_ms(60_000, None, now), Some(60_000));
/// assert_eq!(session_lifetime_ms(0, Some(now + 5_000), now), Some(5_000));
/// assert_eq!(session_lifetime_ms(60_000, Some(now + 5_000), now), Some(5_000));
/// assert_eq!(session_lifetime_ms(0, None, now), None);
/// assert_eq!(session_lifetime_ms(60_000, Some(now - 1), now), Some(0));
/// ```
pub fn session_lifetime_ms(
    max_reauth_ms: u64,
    credential_expiry_ms: Option<i64>,
    authenticated_at_ms: i64,
) -> Option<i64> {
    let maximum = (max_reauth_ms > 0).then(|| i64::try_from(max_reauth_ms).unwrap_or(i64::MAX));
    let remaining = credential_expiry_ms.map(|expiry| expiry.saturating_sub(authenticated_at_ms));
    let lifetime = match (maximum, remaining) {
        (Some(maximum), Some(remaining)) => maximum.min(remaining),
        (Some(maximum), None) => maximum,
        (None, Some(remaining)) => remaining,
        (None, None) => return None,
    };
    Some(lifetime.max(0))
}

/// What a broker does with a request on an authenticated connection.
///
/// ```
/// use kwire_broker::reauth::{RequestDecision, SessionExpiry};
///
/// assert_eq!(SessionExpiry::NEVER.decide(0, i64::MAX), RequestDecision::Allow);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RequestDecision {
    /// Handle the request.
    Allow,
    /// The session expired and the request is not part of re-authentication:
    /// close the connection without handling it.
    CloseConnection,
}

/// Whether a request with this API key may still be sent on a connection
/// whose session expired: only SaslHandshake (17), which starts a
/// re-authentication. The SaslAuthenticate that follows it is part of that
/// re-authentication and not subject to this check.
///
/// Source: KIP-368 as Apache Kafka's broker enforces it. KIP-368's text
/// also names ApiVersions (18) and SaslAuthenticate (36); Kafka's broker
/// (4.4.0) closes the connection on both, and this function follows the
/// broker (module docs; `tests/cluster_reauth.rs` checks it against a real
/// broker).
///
/// ```
/// use kwire_broker::reauth::allowed_after_expiry;
///
/// assert!(allowed_after_expiry(17)); // SaslHandshake
/// assert!(!allowed_after_expiry(18)); // ApiVersions: Kafka closes
/// assert!(!allowed_after_expiry(36)); // SaslAuthenticate without a handshake
/// assert!(!allowed_after_expiry(0)); // Produce
/// ```
pub const fn allowed_after_expiry(api_key: i16) -> bool {
    api_key == ApiKey::SaslHandshake.code()
}

/// When a connection's authenticated session expires, and the per-request
/// policy that follows (KIP-368, broker side).
///
/// Build one after each successful (re-)authentication. Until the expiry
/// instant every request is allowed; strictly after it, only
/// [`allowed_after_expiry`] requests are, and any other request means closing
/// the connection. A session whose lifetime is 0 (the credential had expired
/// when authentication completed) is over at once: no request but a
/// re-authentication is allowed on it, even in the same millisecond. The
/// policy only acts on requests: an idle connection is never closed by it.
///
/// ```
/// use kwire_broker::reauth::{RequestDecision, SessionExpiry};
///
/// let expiry = SessionExpiry::new(10_000, Some(5_000));
/// assert_eq!(expiry.expires_at_ms(), Some(15_000));
/// assert_eq!(expiry.decide(3, 15_000), RequestDecision::Allow); // Metadata, at expiry
/// assert_eq!(expiry.decide(3, 15_001), RequestDecision::CloseConnection);
/// assert_eq!(expiry.decide(17, 15_001), RequestDecision::Allow); // SaslHandshake
/// assert_eq!(expiry.decide(18, 15_001), RequestDecision::CloseConnection); // ApiVersions
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SessionExpiry {
    limit: Limit,
}

/// The three kinds of session: unlimited, expiring strictly after an
/// instant, or over from its start (lifetime 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Limit {
    Never,
    After(i64),
    Over(i64),
}

impl SessionExpiry {
    /// A session that never expires (no session lifetime).
    ///
    /// ```
    /// use kwire_broker::reauth::SessionExpiry;
    ///
    /// assert_eq!(SessionExpiry::NEVER.expires_at_ms(), None);
    /// assert_eq!(SessionExpiry::new(5, None), SessionExpiry::NEVER);
    /// ```
    pub const NEVER: SessionExpiry = SessionExpiry { limit: Limit::Never };

    /// The session of a connection authenticated at `authenticated_at_ms`
    /// that lasts `session_lifetime_ms` ([`session_lifetime_ms`]'s result):
    /// `None` never expires; `Some(ms)` expires at `authenticated_at_ms + ms`,
    /// and a lifetime of 0 or less is over at once, as Kafka's broker ends a
    /// session whose credential had expired when authentication completed.
    ///
    /// ```
    /// use kwire_broker::reauth::{RequestDecision, SessionExpiry};
    ///
    /// assert_eq!(SessionExpiry::new(1_000, Some(250)).expires_at_ms(), Some(1_250));
    /// let over = SessionExpiry::new(1_000, Some(0));
    /// assert_eq!(over.expires_at_ms(), Some(1_000));
    /// assert_eq!(over.decide(3, 1_000), RequestDecision::CloseConnection);
    /// ```
    pub const fn new(authenticated_at_ms: i64, session_lifetime_ms: Option<i64>) -> Self {
        let limit = match session_lifetime_ms {
            None => Limit::Never,
            Some(lifetime) if lifetime > 0 => Limit::After(authenticated_at_ms.saturating_add(lifetime)),
            Some(_) => Limit::Over(authenticated_at_ms),
        };
        SessionExpiry { limit }
    }

    /// The session a broker enforces after an authentication that
    /// completed at `authenticated_at_ms` (ms): the same as
    /// [`SessionExpiry::new`] with [`session_lifetime_ms`]'s lifetime. It
    /// ends at the earlier of `authenticated_at_ms + max_reauth_ms` (when the
    /// applicable `connections.max.reauth.ms`,
    /// [`resolve_connections_max_reauth_ms`], is not 0) and
    /// `credential_expiry_ms` (when the credential has an expiry, e.g. an
    /// OAuth bearer token's), and never with neither. A credential that had
    /// already expired, or expires at `authenticated_at_ms`, gives a session
    /// that is over at once: the next request other than re-authentication
    /// closes the connection (Kafka's broker does the same).
    ///
    /// ```
    /// use kwire_broker::reauth::{session_lifetime_ms, RequestDecision, SessionExpiry};
    ///
    /// let now = 1_000_000;
    /// assert_eq!(SessionExpiry::for_credential(60_000, None, now).expires_at_ms(), Some(now + 60_000));
    /// assert_eq!(SessionExpiry::for_credential(60_000, Some(now + 5_000), now).expires_at_ms(), Some(now + 5_000));
    /// assert_eq!(SessionExpiry::for_credential(0, None, now), SessionExpiry::NEVER);
    ///
    /// // A token that expired before authentication finished.
    /// assert_eq!(session_lifetime_ms(60_000, Some(now - 1), now), Some(0)); // 0 on the wire
    /// let expiry = SessionExpiry::for_credential(60_000, Some(now - 1), now);
    /// assert_eq!(expiry.decide(0, now), RequestDecision::CloseConnection); // Produce
    /// assert_eq!(expiry.decide(17, now), RequestDecision::Allow); // SaslHandshake: re-authenticate
    /// ```
    pub fn for_credential(max_reauth_ms: u64, credential_expiry_ms: Option<i64>, authenticated_at_ms: i64) -> Self {
        Self::new(authenticated_at_ms, session_lifetime_ms(max_reauth_ms, credential_expiry_ms, authenticated_at_ms))
    }

    /// The instant (ms) the session expires, or `None` if it never does;
    /// for a session over at once, the instant authentication completed.
    ///
    /// ```
    /// use kwire_broker::reauth::SessionExpiry;
    ///
    /// assert_eq!(SessionExpiry::new(0, Some(1)).expires_at_ms(), Some(1));
    /// ```
    pub const fn expires_at_ms(&self) -> Option<i64> {
        match self.limit {
            Limit::Never => None,
            Limit::After(at) | Limit::Over(at) => Some(at),
        }
    }

    /// Whether the session has expired at `now_ms`: strictly after the
    /// expiry instant, or always for a session over at once (lifetime 0).
    ///
    /// ```
    /// use kwire_broker::reauth::SessionExpiry;
    ///
    /// let expiry = SessionExpiry::new(0, Some(100));
    /// assert!(!expiry.is_expired(100));
    /// assert!(expiry.is_expired(101));
    /// assert!(SessionExpiry::new(0, Some(0)).is_expired(0));
    /// ```
    pub const fn is_expired(&self, now_ms: i64) -> bool {
        match self.limit {
            Limit::Never => false,
            Limit::After(expires_at_ms) => now_ms > expires_at_ms,
            Limit::Over(_) => true,
        }
    }

    /// The decision for a request with `api_key` arriving at `now_ms`.
    ///
    /// ```
    /// use kwire_broker::reauth::{RequestDecision, SessionExpiry};
    ///
    /// let expiry = SessionExpiry::new(0, Some(100));
    /// assert_eq!(expiry.decide(1, 50), RequestDecision::Allow); // Fetch, in time
    /// assert_eq!(expiry.decide(1, 150), RequestDecision::CloseConnection);
    /// assert_eq!(expiry.decide(17, 150), RequestDecision::Allow); // SaslHandshake
    /// assert_eq!(expiry.decide(36, 150), RequestDecision::CloseConnection); // no handshake first
    /// ```
    pub const fn decide(&self, api_key: i16, now_ms: i64) -> RequestDecision {
        if !self.is_expired(now_ms) || allowed_after_expiry(api_key) {
            RequestDecision::Allow
        } else {
            RequestDecision::CloseConnection
        }
    }
}

/// A source of the uniform random number `r` in `[0, 1)` used to spread
/// re-authentications ([`reauthenticate_after`]).
///
/// Any `FnMut() -> f64` closure is one, which makes tests deterministic;
/// [`StdJitter`] draws real random numbers.
///
/// ```
/// use kwire_broker::reauth::JitterSource;
///
/// let mut fixed = || 0.25;
/// assert_eq!(fixed.next_unit(), 0.25);
/// ```
pub trait JitterSource {
    /// The next number, expected in `[0, 1)`.
    fn next_unit(&mut self) -> f64;
}

impl<F: FnMut() -> f64> JitterSource for F {
    fn next_unit(&mut self) -> f64 {
        self()
    }
}

/// A [`JitterSource`] from the standard library's randomly keyed hasher
/// (`RandomState`): unpredictable enough to spread re-authentications, with
/// no extra dependency. Not for cryptographic use.
///
/// ```
/// use kwire_broker::reauth::{JitterSource, StdJitter};
///
/// let mut jitter = StdJitter::new();
/// let r = jitter.next_unit();
/// assert!((0.0..1.0).contains(&r));
/// ```
#[derive(Debug, Clone, Default)]
pub struct StdJitter {
    state: RandomState,
    counter: u64,
}

impl StdJitter {
    /// A new source with fresh random keys.
    ///
    /// ```
    /// let _jitter = kwire_broker::reauth::StdJitter::new();
    /// ```
    pub fn new() -> Self {
        Self::default()
    }
}

impl JitterSource for StdJitter {
    fn next_unit(&mut self) -> f64 {
        let mut hasher = self.state.build_hasher();
        hasher.write_u64(self.counter);
        self.counter = self.counter.wrapping_add(1);
        // 53 random bits → a double in [0, 1).
        (hasher.finish() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Start of the client's re-authentication window, as a share of the session
/// lifetime (85%, KIP-368).
pub const REAUTH_WINDOW_START_PERCENT: u8 = 85;

/// Width of the client's re-authentication window, as a share of the session
/// lifetime (10%, so the window ends at 95%; KIP-368).
pub const REAUTH_WINDOW_WIDTH_PERCENT: u8 = 10;

/// How long after authentication ended a client should re-authenticate, or
/// `None` if it should not.
///
/// - `sasl_authenticate_max_version`: the highest SaslAuthenticate version the
///   broker supports (from ApiVersions). Below 1 the broker sends no session
///   lifetime, so there is no re-authentication.
/// - `session_lifetime_ms`: `SessionLifetimeMs` from the SaslAuthenticate
///   response; 0 (or a negative value, which is invalid) means no limit.
/// - `jitter`: supplies `r`; values outside `[0, 1)` are clamped into it and
///   NaN counts as 0.
///
/// Result: `lifetime × (0.85 + r × 0.10)` ms, computed as Kafka's
/// `SaslClientAuthenticator` computes it, in one expression: the factor in
/// double precision, the product truncated to whole ms (for 999 ms and
/// r = 0.25, 874 ms). It lies in 85%–95% of the lifetime, so many
/// connections do not re-authenticate at the same moment.
///
/// Source: KIP-368.
///
/// ```
/// use kwire_broker::reauth::reauthenticate_after;
/// use std::time::Duration;
///
/// assert_eq!(reauthenticate_after(1, 10_000, &mut || 0.0), Some(Duration::from_millis(8_500)));
/// assert_eq!(reauthenticate_after(1, 10_000, &mut || 0.5), Some(Duration::from_millis(9_000)));
/// assert_eq!(reauthenticate_after(1, 999, &mut || 0.25), Some(Duration::from_millis(874)));
/// assert_eq!(reauthenticate_after(0, 10_000, &mut || 0.5), None); // v0 broker
/// assert_eq!(reauthenticate_after(2, 0, &mut || 0.5), None); // no limit
/// ```
pub fn reauthenticate_after(
    sasl_authenticate_max_version: i16,
    session_lifetime_ms: i64,
    jitter: &mut impl JitterSource,
) -> Option<Duration> {
    if sasl_authenticate_max_version < 1 || session_lifetime_ms <= 0 {
        return None;
    }
    let start = f64::from(REAUTH_WINDOW_START_PERCENT) / 100.0; // 0.85, the same double as the literal
    let width = f64::from(REAUTH_WINDOW_WIDTH_PERCENT) / 100.0; // 0.1
    let r = jitter.next_unit();
    // The largest double below 1: `r` stays in [0, 1) as Java's nextDouble.
    let r = if r.is_nan() { 0.0 } else { r.clamp(0.0, 1.0 - f64::EPSILON / 2.0) };
    // A positive lifetime times a factor in [0.85, 0.95): positive and
    // below i64::MAX, so the truncating `as` (saturating, as Java's d2l)
    // loses nothing but the fraction.
    let after_ms = (session_lifetime_ms as f64 * (start + r * width)) as u64;
    Some(Duration::from_millis(after_ms))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn settings(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    const MECH_KEY: &str = "listener.name.sasl_ssl.oauthbearer.connections.max.reauth.ms";
    const LISTENER_KEY: &str = "listener.name.sasl_ssl.connections.max.reauth.ms";

    fn resolve(map: &HashMap<String, String>) -> Result<u64, ReauthConfigError> {
        resolve_connections_max_reauth_ms("SASL_SSL", "OAUTHBEARER", |key| map.get(key))
    }

    #[test]
    fn unset_means_no_limit() {
        assert_eq!(resolve(&settings(&[])), Ok(0));
        // Keys for other listeners or mechanisms do not apply.
        let map = settings(&[
            ("listener.name.plaintext.connections.max.reauth.ms", "5"),
            ("listener.name.sasl_ssl.plain.connections.max.reauth.ms", "6"),
        ]);
        assert_eq!(resolve(&map), Ok(0));
    }

    #[test]
    fn precedence_most_specific_first() {
        let all = settings(&[(MECH_KEY, "100"), (LISTENER_KEY, "200"), ("connections.max.reauth.ms", "300")]);
        assert_eq!(resolve(&all), Ok(100));

        let listener_and_global = settings(&[(LISTENER_KEY, "200"), ("connections.max.reauth.ms", "300")]);
        assert_eq!(resolve(&listener_and_global), Ok(200));

        let global = settings(&[("connections.max.reauth.ms", "300")]);
        assert_eq!(resolve(&global), Ok(300));
    }

    #[test]
    fn specific_zero_overrides_general_limit() {
        let map = settings(&[(MECH_KEY, "0"), ("connections.max.reauth.ms", "300")]);
        assert_eq!(resolve(&map), Ok(0));
    }

    #[test]
    fn names_are_lower_cased_and_values_trimmed() {
        let map = settings(&[(MECH_KEY, " 42 ")]);
        assert_eq!(resolve_connections_max_reauth_ms("Sasl_Ssl", "OAuthBearer", |key| map.get(key)), Ok(42));
        // Upper-case keys in the map are not found.
        let upper = settings(&[("listener.name.SASL_SSL.OAUTHBEARER.connections.max.reauth.ms", "42")]);
        assert_eq!(resolve(&upper), Ok(0));
    }

    #[test]
    fn bad_values_name_the_key() {
        let map = settings(&[(LISTENER_KEY, "1h"), ("connections.max.reauth.ms", "5")]);
        assert_eq!(
            resolve(&map),
            Err(ReauthConfigError::NotANumber { key: LISTENER_KEY.to_string(), value: "1h".to_string() })
        );
        let map = settings(&[(MECH_KEY, "-1")]);
        let err = resolve(&map).unwrap_err();
        assert_eq!(err, ReauthConfigError::Negative { key: MECH_KEY.to_string(), value: -1 });
        assert_eq!(err.to_string(), format!("setting `{MECH_KEY}` = -1 is negative; 0 means no limit"));
        let map = settings(&[("connections.max.reauth.ms", "99999999999999999999")]);
        assert!(matches!(
            resolve(&map),
            Err(ReauthConfigError::NotANumber { ref key, .. }) if key == "connections.max.reauth.ms"
        ));
        let map = settings(&[("connections.max.reauth.ms", "")]);
        assert!(matches!(resolve(&map), Err(ReauthConfigError::NotANumber { .. })));
    }

    #[test]
    fn lifetime_rules() {
        let now = 1_700_000_000_000;
        // Maximum only.
        assert_eq!(session_lifetime_ms(3_600_000, None, now), Some(3_600_000));
        // Credential only.
        assert_eq!(session_lifetime_ms(0, Some(now + 1_234), now), Some(1_234));
        // Both: the smaller.
        assert_eq!(session_lifetime_ms(3_600_000, Some(now + 1_234), now), Some(1_234));
        assert_eq!(session_lifetime_ms(1_000, Some(now + 1_234), now), Some(1_000));
        // Neither: no limit, not a lifetime of 0.
        assert_eq!(session_lifetime_ms(0, None, now), None);
    }

    #[test]
    fn broker_expiry_agrees_with_the_lifetime_sent_and_ends_expired_sessions_at_once() {
        let now = 1_700_000_000_000;
        for max in [0u64, 1, 1_000, 3_600_000] {
            for credential in [None, Some(now - 10_000), Some(now - 1), Some(now), Some(now + 1), Some(now + 5_000)] {
                let lifetime = session_lifetime_ms(max, credential, now);
                let expiry = SessionExpiry::for_credential(max, credential, now);
                let case = format!("max {max}, credential {credential:?}");
                // Both constructors give the same session.
                assert_eq!(expiry, SessionExpiry::new(now, lifetime), "{case}");
                match lifetime {
                    None => {
                        assert_eq!((max, credential), (0, None), "{case}");
                        assert_eq!(expiry, SessionExpiry::NEVER, "{case}");
                    }
                    Some(ms) if ms > 0 => assert_eq!(expiry.expires_at_ms(), Some(now + ms), "{case}"),
                    Some(ms) => {
                        // Lifetime 0 on the wire, yet the session is over at
                        // once, from the instant authentication completed
                        // (Kafka: expiry = end + 0): only re-authentication
                        // may follow, even within the same millisecond.
                        assert_eq!(ms, 0, "{case}");
                        assert!(credential.is_some_and(|c| c <= now), "{case}");
                        assert_eq!(expiry.expires_at_ms(), Some(now), "{case}");
                        for at in [now, now + 1, i64::MAX] {
                            assert_eq!(expiry.decide(3, at), RequestDecision::CloseConnection, "{case} at {at}");
                            let handshake = expiry.decide(ApiKey::SaslHandshake.code(), at);
                            assert_eq!(handshake, RequestDecision::Allow, "{case} at {at}");
                        }
                    }
                }
            }
        }
        assert_eq!(SessionExpiry::for_credential(u64::MAX, None, now).expires_at_ms(), Some(i64::MAX));
    }

    #[test]
    fn lifetime_is_clamped() {
        let now = 1_700_000_000_000;
        assert_eq!(session_lifetime_ms(0, Some(now - 10), now), Some(0));
        assert_eq!(session_lifetime_ms(5_000, Some(now - 10), now), Some(0));
        assert_eq!(session_lifetime_ms(0, Some(now), now), Some(0));
        // Extreme inputs saturate instead of overflowing.
        assert_eq!(session_lifetime_ms(u64::MAX, None, now), Some(i64::MAX));
        assert_eq!(session_lifetime_ms(0, Some(i64::MIN), i64::MAX), Some(0));
        assert_eq!(session_lifetime_ms(0, Some(i64::MAX), i64::MIN), Some(i64::MAX));
    }

    #[test]
    fn expiry_boundary_and_allowed_requests() {
        let expiry = SessionExpiry::new(1_000, Some(500));
        assert_eq!(expiry.expires_at_ms(), Some(1_500));
        for api_key in [0, 1, 3, 17, 18, 36, 42, -1, i16::MAX] {
            assert_eq!(expiry.decide(api_key, 1_000), RequestDecision::Allow);
            assert_eq!(expiry.decide(api_key, 1_500), RequestDecision::Allow);
        }
        // Only SaslHandshake starts a re-authentication after expiry.
        assert_eq!(expiry.decide(17, 1_501), RequestDecision::Allow);
        assert_eq!(expiry.decide(17, i64::MAX), RequestDecision::Allow);
        // Kafka's broker closes on ApiVersions and on a SaslAuthenticate
        // without a handshake, although KIP-368's text allows both.
        for api_key in [0, 1, 3, 16, 18, 19, 35, 36, 37, -1, i16::MAX] {
            assert_eq!(expiry.decide(api_key, 1_501), RequestDecision::CloseConnection);
        }
    }

    #[test]
    fn no_lifetime_never_expires_and_zero_lifetime_is_over_at_once() {
        for expiry in [SessionExpiry::new(1_000, None), SessionExpiry::NEVER] {
            assert_eq!(expiry.expires_at_ms(), None);
            assert!(!expiry.is_expired(i64::MAX));
            assert_eq!(expiry.decide(0, i64::MAX), RequestDecision::Allow);
        }
        for expiry in [SessionExpiry::new(1_000, Some(0)), SessionExpiry::new(1_000, Some(-5))] {
            assert_eq!(expiry.expires_at_ms(), Some(1_000));
            for now in [999, 1_000, 1_001] {
                assert!(expiry.is_expired(now));
                assert_eq!(expiry.decide(0, now), RequestDecision::CloseConnection);
                assert_eq!(expiry.decide(17, now), RequestDecision::Allow);
            }
        }
        // Saturating expiry instead of overflow.
        assert_eq!(SessionExpiry::new(i64::MAX - 1, Some(10)).expires_at_ms(), Some(i64::MAX));
    }

    #[test]
    fn reauth_window_bounds() {
        let at = |r: f64| reauthenticate_after(1, 100_000, &mut || r);
        assert_eq!(at(0.0), Some(Duration::from_millis(85_000)));
        assert_eq!(at(0.25), Some(Duration::from_millis(87_500)));
        assert_eq!(at(0.5), Some(Duration::from_millis(90_000)));
        assert_eq!(at(0.999_999), Some(Duration::from_millis(94_999)));
        // Out-of-range jitter is clamped to the largest double below 1, as
        // Java's nextDouble can return: 95% once rounded, as in Kafka.
        assert_eq!(at(1.0), Some(Duration::from_millis(95_000)));
        assert_eq!(at(7.0), Some(Duration::from_millis(95_000)));
        assert_eq!(at(-3.0), Some(Duration::from_millis(85_000)));
        assert_eq!(at(f64::NAN), Some(Duration::from_millis(85_000)));
    }

    /// `(long) (lifetime * (0.85 + r * 0.10))` as Java evaluates it (the
    /// expression of Kafka's SaslClientAuthenticator), for these lifetimes
    /// and r = 0, 0.25, 0.5, 0.99, 0.999999 and the largest double below 1.
    #[test]
    fn reauth_time_is_kafkas_single_expression() {
        let rs = [0.0, 0.25, 0.5, 0.99, 0.999_999, 1.0 - f64::EPSILON / 2.0];
        let golden: [(i64, [u64; 6]); 8] = [
            (1, [0, 0, 0, 0, 0, 0]),
            (20, [17, 17, 18, 18, 18, 19]),
            (999, [849, 874, 899, 948, 949, 949]),
            (1_000, [850, 875, 900, 949, 949, 950]),
            (6_000, [5_100, 5_250, 5_400, 5_694, 5_699, 5_700]),
            (100_000, [85_000, 87_500, 90_000, 94_900, 94_999, 95_000]),
            (3_600_000, [3_060_000, 3_150_000, 3_240_000, 3_416_400, 3_419_999, 3_420_000]),
            (
                i64::MAX,
                [
                    7_839_866_231_326_559_232,
                    8_070_450_532_247_928_832,
                    8_301_034_833_169_298_432,
                    8_752_980_062_975_181_824,
                    8_762_202_512_674_833_408,
                    8_762_203_435_012_036_608,
                ],
            ),
        ];
        for (lifetime, expected) in golden {
            for (r, ms) in rs.into_iter().zip(expected) {
                let after = reauthenticate_after(1, lifetime, &mut || r);
                assert_eq!(after, Some(Duration::from_millis(ms)), "lifetime {lifetime}, r {r}");
            }
        }
    }

    #[test]
    fn reauth_needs_v1_and_a_lifetime() {
        let mut half = || 0.5;
        assert_eq!(reauthenticate_after(0, 10_000, &mut half), None);
        assert_eq!(reauthenticate_after(-1, 10_000, &mut half), None);
        assert_eq!(reauthenticate_after(1, 0, &mut half), None);
        assert_eq!(reauthenticate_after(1, -10_000, &mut half), None);
        assert_eq!(reauthenticate_after(1, 10_000, &mut half), Some(Duration::from_millis(9_000)));
        assert_eq!(reauthenticate_after(2, 10_000, &mut half), Some(Duration::from_millis(9_000)));
    }

    #[test]
    fn reauth_tiny_and_huge_lifetimes() {
        // 1 ms: rounds down to 0.
        assert_eq!(reauthenticate_after(1, 1, &mut || 0.9), Some(Duration::from_millis(0)));
        assert_eq!(reauthenticate_after(1, 20, &mut || 0.0), Some(Duration::from_millis(17)));
        assert_eq!(reauthenticate_after(1, 20, &mut || 0.99), Some(Duration::from_millis(18)));
        let huge = reauthenticate_after(1, i64::MAX, &mut || 0.0).unwrap();
        assert_eq!(huge, Duration::from_millis(7_839_866_231_326_559_232));
    }

    #[test]
    fn std_jitter_stays_in_unit_interval_and_varies() {
        let mut jitter = StdJitter::new();
        let draws: Vec<f64> = (0..1_000).map(|_| jitter.next_unit()).collect();
        assert!(draws.iter().all(|r| (0.0..1.0).contains(r)));
        let distinct: std::collections::HashSet<u64> = draws.iter().map(|r| r.to_bits()).collect();
        assert!(distinct.len() > 990);
        let lifetime = 1_000_000;
        for _ in 0..1_000 {
            let after = reauthenticate_after(1, lifetime, &mut jitter).unwrap();
            let ms = after.as_millis();
            assert!((850_000..950_000).contains(&ms), "{ms}");
        }
    }
}
