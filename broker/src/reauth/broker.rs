//! The broker side: the session lifetime given at authentication, and what
//! a request may do once it is over.

use kwire::messages::ApiKey;

#[cfg(doc)]
use super::resolve_connections_max_reauth_ms;

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
/// broker (module docs; `interop/tests/cluster_reauth.rs` checks it against a real
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
