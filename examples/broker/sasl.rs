//! SASL/PLAIN authentication and KIP-368 session lifetimes, per connection.
//!
//! ```text
//! Handshake ──SaslHandshake(PLAIN)──▶ Authenticate ──SaslAuthenticate ok──▶ Authenticated
//!     ▲                                    ▲                                   │
//!     └ ApiVersions allowed                └──── SaslHandshake (re-auth) ──────┘
//! ```
//!
//! Once authenticated, a connection whose session lifetime has passed may
//! only send SaslHandshake, which starts re-authentication (SaslAuthenticate
//! then follows in the Authenticate phase); anything else, ApiVersions
//! included, closes it, as Kafka's broker does
//! ([`kwire_broker::reauth::SessionExpiry`]).

use std::collections::BTreeMap;

use kwire::api::ApiKey;
use kwire::error_code::ErrorCode;
use kwire::messages::{SaslAuthenticateRequest, SaslAuthenticateResponse, SaslHandshakeRequest, SaslHandshakeResponse};
use kwire::ByteString;
use kwire::Bytes;
use kwire_broker::reauth::{session_lifetime_ms, RequestDecision, SessionExpiry};
use subtle::ConstantTimeEq;

/// The one mechanism served.
pub const PLAIN: &str = "PLAIN";

/// Where a connection is in authentication.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Nothing yet: only ApiVersions and SaslHandshake.
    Handshake,
    /// After SaslHandshake: only ApiVersions and SaslAuthenticate (v1), or
    /// one bare SASL token (v0).
    Authenticate {
        /// True when the connection was authenticated before (KIP-368).
        reauthentication: bool,
        /// True after SaslHandshake v0: the token comes as a bare frame.
        raw: bool,
    },
    /// Authenticated until the session expires.
    Authenticated,
}

/// What to do with a request on this connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// Handle it.
    Allow,
    /// Close the connection without answering, for this reason.
    Close(&'static str),
    /// Close it: the session expired.
    Expired,
}

/// A successful (re-)authentication, for the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authenticated {
    /// The user.
    pub user: ByteString,
    /// True for a KIP-368 re-authentication.
    pub reauthentication: bool,
    /// The session lifetime sent, ms (0 = none).
    pub session_lifetime_ms: i64,
}

/// One connection's SASL state.
#[derive(Debug, Clone)]
pub struct Session {
    phase: Phase,
    user: Option<ByteString>,
    expiry: SessionExpiry,
}

impl Session {
    /// A connection that has not authenticated.
    pub fn new() -> Self {
        Self { phase: Phase::Handshake, user: None, expiry: SessionExpiry::NEVER }
    }

    /// The authenticated user, once there is one.
    pub fn user(&self) -> Option<&str> {
        self.user.as_deref()
    }

    /// Whether a request with `api_key` may be handled at `now_ms`.
    pub fn gate(&self, api_key: i16, now_ms: i64) -> Gate {
        let known = ApiKey::try_from(api_key).ok();
        match self.phase {
            Phase::Handshake if matches!(known, Some(ApiKey::SaslHandshake | ApiKey::ApiVersions)) => Gate::Allow,
            Phase::Handshake => Gate::Close("request before SASL authentication"),
            Phase::Authenticate { raw: true, .. } => Gate::Close("a Kafka request where a SASL token was expected"),
            Phase::Authenticate { .. } if matches!(known, Some(ApiKey::ApiVersions | ApiKey::SaslAuthenticate)) => {
                Gate::Allow
            }
            Phase::Authenticate { .. } => Gate::Close("request other than SaslAuthenticate during SASL authentication"),
            Phase::Authenticated => match self.expiry.decide(api_key, now_ms) {
                RequestDecision::Allow => Gate::Allow,
                RequestDecision::CloseConnection => Gate::Expired,
            },
        }
    }

    /// How long ago the session expired, at `now_ms`.
    pub fn expired_for_ms(&self, now_ms: i64) -> i64 {
        self.expiry.expires_at_ms().map_or(0, |at| now_ms - at)
    }

    /// True after SaslHandshake v0: the next frame is a bare SASL token for
    /// [`Session::authenticate_raw`].
    pub fn expects_raw_token(&self) -> bool {
        matches!(self.phase, Phase::Authenticate { raw: true, .. })
    }

    /// Answers SaslHandshake at `version`; the flag says to close the
    /// connection after the answer.
    pub fn handshake(&mut self, request: &SaslHandshakeRequest, version: i16) -> (SaslHandshakeResponse, bool) {
        let mechanisms = vec![PLAIN.into()];
        let reauthentication = match self.phase {
            Phase::Handshake => false,
            // Re-authentication needs SaslAuthenticate (v1 handshakes).
            Phase::Authenticated if version >= 1 => true,
            Phase::Authenticated | Phase::Authenticate { .. } => {
                let body = SaslHandshakeResponse { error_code: ErrorCode::IllegalSaslState.code(), mechanisms };
                return (body, true);
            }
        };
        if request.mechanism != PLAIN {
            let body = SaslHandshakeResponse { error_code: ErrorCode::UnsupportedSaslMechanism.code(), mechanisms };
            return (body, true);
        }
        self.phase = Phase::Authenticate { reauthentication, raw: version == 0 };
        (SaslHandshakeResponse { error_code: 0, mechanisms }, false)
    }

    /// Answers SaslAuthenticate at `version`: checks the PLAIN credentials
    /// against `users` and starts a session of `reauth_ms` (KIP-368, sent
    /// as SessionLifetimeMs from v1). The flag says to close the connection
    /// after the answer.
    pub fn authenticate(
        &mut self,
        request: &SaslAuthenticateRequest,
        version: i16,
        users: &BTreeMap<String, String>,
        reauth_ms: u64,
        now_ms: i64,
    ) -> (SaslAuthenticateResponse, bool, Option<Authenticated>) {
        if !matches!(self.phase, Phase::Authenticate { raw: false, .. }) {
            return (failure(ErrorCode::IllegalSaslState, "SaslAuthenticate without SaslHandshake v1"), true, None);
        }
        match self.complete(&request.auth_bytes, users, reauth_ms, now_ms) {
            Err((code, message)) => (failure(code, message), true, None),
            Ok(event) => {
                let body = SaslAuthenticateResponse {
                    error_code: 0,
                    error_message: None,
                    auth_bytes: Bytes::new(),
                    session_lifetime_ms: if version >= 1 { event.session_lifetime_ms } else { 0 },
                    ..Default::default()
                };
                (body, false, Some(event))
            }
        }
    }

    /// Checks the bare PLAIN token that follows SaslHandshake v0. On
    /// success the broker answers with an empty frame; on failure it closes
    /// the connection (there is no error field).
    pub fn authenticate_raw(
        &mut self,
        token: &[u8],
        users: &BTreeMap<String, String>,
        reauth_ms: u64,
        now_ms: i64,
    ) -> Result<Authenticated, &'static str> {
        if !self.expects_raw_token() {
            return Err("a SASL token without SaslHandshake v0");
        }
        self.complete(token, users, reauth_ms, now_ms).map_err(|(_, message)| message)
    }

    /// Checks PLAIN credentials and starts the session.
    fn complete(
        &mut self,
        message: &[u8],
        users: &BTreeMap<String, String>,
        reauth_ms: u64,
        now_ms: i64,
    ) -> Result<Authenticated, (ErrorCode, &'static str)> {
        let Phase::Authenticate { reauthentication, .. } = self.phase else {
            return Err((ErrorCode::IllegalSaslState, "not authenticating"));
        };
        let Some(user) = check_plain(message, users) else {
            return Err((ErrorCode::SaslAuthenticationFailed, "Authentication failed: Invalid username or password"));
        };
        if reauthentication && self.user.as_deref() != Some(&*user) {
            return Err((ErrorCode::SaslAuthenticationFailed, "Cannot change principals during re-authentication"));
        }
        let lifetime = session_lifetime_ms(reauth_ms, None, now_ms);
        // Sessions expire whatever the version: a client that cannot
        // re-authenticate is closed when its session ends (KIP-368).
        self.expiry = SessionExpiry::for_credential(reauth_ms, None, now_ms);
        self.phase = Phase::Authenticated;
        self.user = Some(user.clone());
        Ok(Authenticated { user, reauthentication, session_lifetime_ms: lifetime.unwrap_or(0) })
    }
}

fn failure(code: ErrorCode, message: &str) -> SaslAuthenticateResponse {
    SaslAuthenticateResponse { error_code: code.code(), error_message: Some(message.into()), ..Default::default() }
}

/// Checks a PLAIN message (RFC 4616: `authzid NUL authcid NUL passwd`)
/// and returns the user. The authorization id must be empty or the user.
fn check_plain(message: &[u8], users: &BTreeMap<String, String>) -> Option<ByteString> {
    let mut parts = message.split(|&b| b == 0);
    let (authzid, user, password) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || user.is_empty() || password.is_empty() {
        return None;
    }
    if !authzid.is_empty() && authzid != user {
        return None;
    }
    let user = std::str::from_utf8(user).ok()?;
    let expected = users.get(user)?;
    bool::from(expected.as_bytes().ct_eq(password)).then(|| user.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn users() -> BTreeMap<String, String> {
        BTreeMap::from([("alice".to_string(), "s3cret".to_string())])
    }

    fn auth(bytes: &'static [u8]) -> SaslAuthenticateRequest {
        SaslAuthenticateRequest { auth_bytes: Bytes::from_static(bytes), ..Default::default() }
    }

    fn handshake() -> SaslHandshakeRequest {
        SaslHandshakeRequest { mechanism: PLAIN.into() }
    }

    #[test]
    fn plain_messages() {
        assert_eq!(check_plain(b"\0alice\0s3cret", &users()).as_deref(), Some("alice"));
        assert_eq!(check_plain(b"alice\0alice\0s3cret", &users()).as_deref(), Some("alice"));
        assert_eq!(check_plain(b"bob\0alice\0s3cret", &users()), None);
        assert_eq!(check_plain(b"\0alice\0wrong", &users()), None);
        assert_eq!(check_plain(b"\0alice\0s3cret\0", &users()), None);
        assert_eq!(check_plain(b"\0alice", &users()), None);
        assert_eq!(check_plain(b"", &users()), None);
    }

    #[test]
    fn session_lifecycle_and_reauthentication() {
        let mut s = Session::new();
        assert_eq!(s.gate(18, 0), Gate::Allow);
        assert!(matches!(s.gate(3, 0), Gate::Close(_)));
        assert_eq!(s.handshake(&handshake(), 1).0.error_code, 0);
        assert!(matches!(s.gate(3, 0), Gate::Close(_)));
        let (body, close, event) = s.authenticate(&auth(b"\0alice\0s3cret"), 1, &users(), 1_000, 10_000);
        assert_eq!((body.error_code, body.session_lifetime_ms, close), (0, 1_000, false));
        assert!(!event.unwrap().reauthentication);
        assert_eq!(s.gate(3, 11_000), Gate::Allow);
        assert_eq!(s.gate(3, 11_001), Gate::Expired);
        assert_eq!(s.gate(17, 11_001), Gate::Allow);
        // Re-authenticate: same user, new session.
        assert_eq!(s.handshake(&handshake(), 1).0.error_code, 0);
        let (body, _, event) = s.authenticate(&auth(b"\0alice\0s3cret"), 2, &users(), 1_000, 11_500);
        assert_eq!(body.error_code, 0);
        assert!(event.unwrap().reauthentication);
        assert_eq!(s.gate(3, 12_000), Gate::Allow);
    }

    #[test]
    fn failures_close() {
        let mut s = Session::new();
        let (body, close) = s.handshake(&SaslHandshakeRequest { mechanism: "SCRAM-SHA-256".into() }, 1);
        assert_eq!((body.error_code, close), (33, true));
        let mut s = Session::new();
        let (body, close, _) = s.authenticate(&auth(b"\0alice\0s3cret"), 1, &users(), 0, 0);
        assert_eq!((body.error_code, close), (34, true));
        s.handshake(&handshake(), 1);
        let (body, close, _) = s.authenticate(&auth(b"\0alice\0nope"), 1, &users(), 0, 0);
        assert_eq!((body.error_code, close), (58, true));
        // v0 gets no lifetime field, but the session still ends.
        let mut s = Session::new();
        s.handshake(&handshake(), 1);
        let (body, _, _) = s.authenticate(&auth(b"\0alice\0s3cret"), 0, &users(), 500, 0);
        assert_eq!(body.session_lifetime_ms, 0);
        assert_eq!(s.gate(0, 501), Gate::Expired);
    }

    #[test]
    fn handshake_v0_then_a_bare_token() {
        let mut s = Session::new();
        assert_eq!(s.handshake(&handshake(), 0).0.error_code, 0);
        assert!(s.expects_raw_token());
        assert!(matches!(s.gate(36, 0), Gate::Close(_)));
        let event = s.authenticate_raw(b"\0alice\0s3cret", &users(), 0, 0).unwrap();
        assert_eq!(event.user, "alice");
        assert_eq!(s.gate(3, 1), Gate::Allow);
        // No re-authentication through v0.
        assert_eq!(
            s.handshake(&handshake(), 0),
            (SaslHandshakeResponse { error_code: 34, mechanisms: vec!["PLAIN".into()] }, true)
        );
        let mut s = Session::new();
        s.handshake(&handshake(), 0);
        assert!(s.authenticate_raw(b"\0alice\0nope", &users(), 0, 0).is_err());
    }
}
