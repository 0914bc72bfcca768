//! The session key shared by Connect workers for signing internal requests
//! (KIP-507), as stored in the config topic, and its rotation timing.
//!
//! The leader writes the key to the config topic under the record key
//! [`SESSION_KEY_RECORD_KEY`] (`session-key`); the value, as the worker's JSON
//! converter writes it, is:
//!
//! ```text
//! {"key":"<base64 of the key bytes>","algorithm":"HmacSHA256","creation-timestamp":<ms since epoch>}
//! ```
//!
//! The leader makes a new key when there is none or when
//! `creation-timestamp + inter.worker.key.ttl.ms` has been reached
//! ([`rotation_needed`]); every worker switches to a key when it reads it.
//!
//! ```
//! use kwire_connect::session_key::SessionKey;
//! use kwire_connect::signing::SignatureAlgorithm;
//!
//! let json = r#"{"key":"c2VjcmV0","algorithm":"HmacSHA256","creation-timestamp":1700000000000}"#;
//! let key = SessionKey::from_json(json)?;
//! assert_eq!(key.key(), b"secret");
//! assert_eq!(key.algorithm(), SignatureAlgorithm::HmacSHA256);
//! assert_eq!(key.to_json(), json);
//! assert!(key.needs_rotation(1_700_003_600_000, 3_600_000));
//! # Ok::<(), kwire_connect::session_key::SessionKeyError>(())
//! ```

use std::fmt;

use base64::Engine as _;
use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq;

use super::signing::{SignatureAlgorithm, UnknownAlgorithm, BASE64};

/// Record key of the session key in the Connect config topic: `session-key`.
pub const SESSION_KEY_RECORD_KEY: &str = "session-key";

/// Why a stored session key could not be read.
///
/// ```
/// use kwire_connect::session_key::{SessionKey, SessionKeyError};
///
/// let err = SessionKey::from_json(r#"{"key":"c2VjcmV0","algorithm":"HmacMD5","creation-timestamp":0}"#);
/// assert!(matches!(err, Err(SessionKeyError::UnknownAlgorithm(_))));
/// ```
#[derive(Debug, thiserror::Error)]
pub enum SessionKeyError {
    /// Not JSON, or a field is missing or of the wrong type (`key` and
    /// `algorithm` strings, `creation-timestamp` an `i64`).
    #[error("session key record is not valid JSON of the expected shape")]
    Json(#[source] serde_json::Error),
    /// `key` is not valid base64.
    #[error("session key `key` field is not valid base64")]
    InvalidBase64(#[source] base64::DecodeError),
    /// `algorithm` names no known MAC algorithm.
    #[error("session key `algorithm` field is not known")]
    UnknownAlgorithm(#[from] UnknownAlgorithm),
    /// The key has no bytes (`key` is `""`). Java's `SecretKeySpec`
    /// refuses an empty key, so a Connect worker never takes it as its
    /// session key.
    #[error("session key `key` field is empty")]
    EmptyKey,
}

/// The JSON record exactly as stored; field order is the order written.
#[derive(Serialize, Deserialize)]
struct SessionKeyRecord {
    key: String,
    algorithm: String,
    #[serde(rename = "creation-timestamp")]
    creation_timestamp: i64,
}

/// A session key: the raw key bytes, the algorithm it was generated for, and
/// when it was created (ms since the Unix epoch).
///
/// Serializes to and from the config-topic JSON with serde (see the
/// [module documentation](self)). `Debug` does not print the key bytes.
/// Use [`SessionKey::is_current`] rather than `==` to compare a presented key
/// with the current one: it compares the bytes in constant time.
///
/// ```
/// use kwire_connect::session_key::SessionKey;
/// use kwire_connect::signing::SignatureAlgorithm;
///
/// let key = SessionKey::new(vec![1, 2, 3], SignatureAlgorithm::HmacSHA256, 42)?;
/// assert_eq!(key.creation_timestamp_ms(), 42);
/// assert!(!format!("{key:?}").contains("[1, 2, 3]"));
/// # Ok::<(), kwire_connect::session_key::SessionKeyError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SessionKeyRecord", into = "SessionKeyRecord")]
pub struct SessionKey {
    key: Vec<u8>,
    algorithm: SignatureAlgorithm,
    creation_timestamp_ms: i64,
}

impl SessionKey {
    /// A session key from its parts; `creation_timestamp_ms` is ms since the
    /// Unix epoch.
    ///
    /// # Errors
    ///
    /// [`SessionKeyError::EmptyKey`] when `key` is empty, as Java's
    /// `SecretKeySpec` refuses it.
    ///
    /// ```
    /// use kwire_connect::session_key::{SessionKey, SessionKeyError};
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// let key = SessionKey::new(b"k".to_vec(), SignatureAlgorithm::HmacSHA512, 0)?;
    /// assert_eq!(key.algorithm(), SignatureAlgorithm::HmacSHA512);
    /// assert!(matches!(SessionKey::new(vec![], SignatureAlgorithm::HmacSHA512, 0), Err(SessionKeyError::EmptyKey)));
    /// # Ok::<(), SessionKeyError>(())
    /// ```
    pub fn new(
        key: Vec<u8>,
        algorithm: SignatureAlgorithm,
        creation_timestamp_ms: i64,
    ) -> Result<Self, SessionKeyError> {
        if key.is_empty() {
            return Err(SessionKeyError::EmptyKey);
        }
        Ok(SessionKey { key, algorithm, creation_timestamp_ms })
    }

    /// The raw key bytes (what signing and [`verify`](super::signing::verify)
    /// take).
    ///
    /// ```
    /// use kwire_connect::session_key::SessionKey;
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// assert_eq!(SessionKey::new(vec![7; 4], SignatureAlgorithm::HmacSHA256, 0)?.key(), &[7; 4]);
    /// # Ok::<(), kwire_connect::session_key::SessionKeyError>(())
    /// ```
    pub fn key(&self) -> &[u8] {
        &self.key
    }

    /// The algorithm the key was generated for
    /// (`inter.worker.key.generation.algorithm`).
    ///
    /// ```
    /// use kwire_connect::session_key::SessionKey;
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// let key = SessionKey::new(vec![1], SignatureAlgorithm::HmacSHA1, 0)?;
    /// assert_eq!(key.algorithm(), SignatureAlgorithm::HmacSHA1);
    /// # Ok::<(), kwire_connect::session_key::SessionKeyError>(())
    /// ```
    pub fn algorithm(&self) -> SignatureAlgorithm {
        self.algorithm
    }

    /// When the key was created, ms since the Unix epoch.
    ///
    /// ```
    /// use kwire_connect::session_key::SessionKey;
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// assert_eq!(SessionKey::new(vec![1], SignatureAlgorithm::HmacSHA256, 9)?.creation_timestamp_ms(), 9);
    /// # Ok::<(), kwire_connect::session_key::SessionKeyError>(())
    /// ```
    pub fn creation_timestamp_ms(&self) -> i64 {
        self.creation_timestamp_ms
    }

    /// Reads the config-topic JSON value.
    ///
    /// Unknown extra fields are ignored. The base64 of `key` may be written
    /// with or without padding.
    ///
    /// # Errors
    ///
    /// [`SessionKeyError::Json`], [`SessionKeyError::InvalidBase64`],
    /// [`SessionKeyError::UnknownAlgorithm`] or [`SessionKeyError::EmptyKey`]
    /// (`"key":""`, which a Connect worker refuses as its session key).
    ///
    /// ```
    /// use kwire_connect::session_key::{SessionKey, SessionKeyError};
    ///
    /// let key = SessionKey::from_json(r#"{"key":"AAE=","algorithm":"HmacSHA1","creation-timestamp":5}"#)?;
    /// assert_eq!(key.key(), &[0, 1]);
    /// assert!(matches!(SessionKey::from_json("{}"), Err(SessionKeyError::Json(_))));
    /// # Ok::<(), SessionKeyError>(())
    /// ```
    pub fn from_json(json: &str) -> Result<Self, SessionKeyError> {
        Self::from_json_slice(json.as_bytes())
    }

    /// Same as [`SessionKey::from_json`], from the record value's bytes.
    ///
    /// # Errors
    ///
    /// As [`SessionKey::from_json`]; invalid UTF-8 is a
    /// [`SessionKeyError::Json`].
    ///
    /// ```
    /// use kwire_connect::session_key::SessionKey;
    ///
    /// let value = br#"{"key":"AAE=","algorithm":"HmacSHA256","creation-timestamp":5}"#;
    /// assert_eq!(SessionKey::from_json_slice(value)?.creation_timestamp_ms(), 5);
    /// # Ok::<(), kwire_connect::session_key::SessionKeyError>(())
    /// ```
    pub fn from_json_slice(json: &[u8]) -> Result<Self, SessionKeyError> {
        let record: SessionKeyRecord = serde_json::from_slice(json).map_err(SessionKeyError::Json)?;
        SessionKey::try_from(record)
    }

    /// The config-topic JSON value, compact, fields in the order `key`,
    /// `algorithm`, `creation-timestamp`; `key` is padded base64.
    ///
    /// ```
    /// use kwire_connect::session_key::SessionKey;
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// let key = SessionKey::new(vec![0, 1], SignatureAlgorithm::HmacSHA256, 5)?;
    /// assert_eq!(key.to_json(), r#"{"key":"AAE=","algorithm":"HmacSHA256","creation-timestamp":5}"#);
    /// # Ok::<(), kwire_connect::session_key::SessionKeyError>(())
    /// ```
    pub fn to_json(&self) -> String {
        // Written by hand rather than through serde_json, so that nothing
        // here can fail: base64 and the JCA names hold no character JSON
        // escapes. The same bytes as Kafka's JSON converter writes (checked
        // against a real worker by interop/tests/cluster_connect.rs).
        format!(
            r#"{{"key":"{}","algorithm":"{}","creation-timestamp":{}}}"#,
            BASE64.encode(&self.key),
            self.algorithm.jca_name(),
            self.creation_timestamp_ms
        )
    }

    /// When the next key is due (ms since the Unix epoch):
    /// `creation-timestamp + inter.worker.key.ttl.ms`, saturating.
    ///
    /// ```
    /// use kwire_connect::session_key::SessionKey;
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// let key = SessionKey::new(vec![1; 32], SignatureAlgorithm::HmacSHA256, 1_000)?;
    /// assert_eq!(key.rotation_due_at_ms(3_600_000), 3_601_000);
    /// # Ok::<(), kwire_connect::session_key::SessionKeyError>(())
    /// ```
    pub fn rotation_due_at_ms(&self, key_ttl_ms: u64) -> i64 {
        let ttl = i64::try_from(key_ttl_ms).unwrap_or(i64::MAX);
        self.creation_timestamp_ms.saturating_add(ttl)
    }

    /// Whether the leader should replace this key at `now_ms`: from
    /// [`rotation_due_at_ms`](SessionKey::rotation_due_at_ms) on (inclusive).
    ///
    /// ```
    /// use kwire_connect::session_key::SessionKey;
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// let key = SessionKey::new(vec![1; 32], SignatureAlgorithm::HmacSHA256, 1_000)?;
    /// assert!(!key.needs_rotation(1_999, 1_000));
    /// assert!(key.needs_rotation(2_000, 1_000));
    /// # Ok::<(), kwire_connect::session_key::SessionKeyError>(())
    /// ```
    pub fn needs_rotation(&self, now_ms: i64, key_ttl_ms: u64) -> bool {
        now_ms >= self.rotation_due_at_ms(key_ttl_ms)
    }

    /// Whether `presented` is this (current) key: same bytes, compared in
    /// constant time, same algorithm and same creation timestamp. The leader
    /// accepts only the current key; anything else is stale.
    ///
    /// ```
    /// use kwire_connect::session_key::SessionKey;
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// let current = SessionKey::new(vec![1; 32], SignatureAlgorithm::HmacSHA256, 2_000)?;
    /// let stale = SessionKey::new(vec![2; 32], SignatureAlgorithm::HmacSHA256, 1_000)?;
    /// assert!(current.is_current(&current.clone()));
    /// assert!(!current.is_current(&stale));
    /// # Ok::<(), kwire_connect::session_key::SessionKeyError>(())
    /// ```
    pub fn is_current(&self, presented: &SessionKey) -> bool {
        let same_bytes: bool = self.key.as_slice().ct_eq(presented.key.as_slice()).into();
        same_bytes
            && self.algorithm == presented.algorithm
            && self.creation_timestamp_ms == presented.creation_timestamp_ms
    }
}

/// Whether the leader must create a new session key at `now_ms`: when it has
/// none, or when the current one reached its rotation time
/// ([`SessionKey::needs_rotation`] with `inter.worker.key.ttl.ms`).
///
/// Source: KIP-507.
///
/// ```
/// use kwire_connect::session_key::{rotation_needed, SessionKey};
/// use kwire_connect::signing::SignatureAlgorithm;
///
/// assert!(rotation_needed(None, 0, 3_600_000));
/// let key = SessionKey::new(vec![1; 32], SignatureAlgorithm::HmacSHA256, 0)?;
/// assert!(!rotation_needed(Some(&key), 3_599_999, 3_600_000));
/// assert!(rotation_needed(Some(&key), 3_600_000, 3_600_000));
/// # Ok::<(), kwire_connect::session_key::SessionKeyError>(())
/// ```
pub fn rotation_needed(current: Option<&SessionKey>, now_ms: i64, key_ttl_ms: u64) -> bool {
    match current {
        Some(key) => key.needs_rotation(now_ms, key_ttl_ms),
        None => true,
    }
}

impl fmt::Debug for SessionKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SessionKey")
            .field("key", &format_args!("<{} bytes>", self.key.len()))
            .field("algorithm", &self.algorithm)
            .field("creation_timestamp_ms", &self.creation_timestamp_ms)
            .finish()
    }
}

impl TryFrom<SessionKeyRecord> for SessionKey {
    type Error = SessionKeyError;

    fn try_from(record: SessionKeyRecord) -> Result<Self, Self::Error> {
        let key = BASE64.decode(&record.key).map_err(SessionKeyError::InvalidBase64)?;
        let algorithm = SignatureAlgorithm::from_jca_name(&record.algorithm)?;
        SessionKey::new(key, algorithm, record.creation_timestamp)
    }
}

impl From<SessionKey> for SessionKeyRecord {
    fn from(key: SessionKey) -> Self {
        SessionKeyRecord {
            key: BASE64.encode(&key.key),
            algorithm: key.algorithm.jca_name().to_string(),
            creation_timestamp: key.creation_timestamp_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> SessionKey {
        SessionKey::new((0u8..32).collect(), SignatureAlgorithm::HmacSHA256, 1_700_000_000_123).unwrap()
    }

    const SAMPLE_JSON: &str = r#"{"key":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=","algorithm":"HmacSHA256","creation-timestamp":1700000000123}"#;

    #[test]
    fn json_exact_and_round_trip() {
        let key = sample();
        assert_eq!(key.to_json(), SAMPLE_JSON);
        assert_eq!(SessionKey::from_json(SAMPLE_JSON).unwrap(), key);
        // Through serde directly, too.
        assert_eq!(serde_json::to_string(&key).unwrap(), SAMPLE_JSON);
        let back: SessionKey = serde_json::from_str(SAMPLE_JSON).unwrap();
        assert_eq!(back, key);
        for algorithm in SignatureAlgorithm::ALL {
            let key = SessionKey::new(vec![0xff; 64], algorithm, -1).unwrap();
            assert_eq!(SessionKey::from_json(&key.to_json()).unwrap(), key);
        }
    }

    #[test]
    fn json_reading_is_tolerant_of_layout() {
        let json = r#" {
            "creation-timestamp": 1700000000123,
            "algorithm": "HmacSHA256",
            "extra": [1, 2],
            "key": "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
        } "#;
        assert_eq!(SessionKey::from_json(json).unwrap(), sample());
    }

    #[test]
    fn json_errors() {
        for bad in [
            "",
            "not json",
            "[]",
            r#"{"key":"AAE=","algorithm":"HmacSHA256"}"#,
            r#"{"key":"AAE=","creation-timestamp":1}"#,
            r#"{"algorithm":"HmacSHA256","creation-timestamp":1}"#,
            r#"{"key":1,"algorithm":"HmacSHA256","creation-timestamp":1}"#,
            r#"{"key":"AAE=","algorithm":"HmacSHA256","creation-timestamp":1.5}"#,
            r#"{"key":"AAE=","algorithm":"HmacSHA256","creation-timestamp":"1"}"#,
            r#"{"key":"AAE=","algorithm":"HmacSHA256","creation-timestamp":9223372036854775808}"#,
            r#"{"key":"AAE=","algorithm":null,"creation-timestamp":1}"#,
        ] {
            assert!(matches!(SessionKey::from_json(bad), Err(SessionKeyError::Json(_))), "{bad}");
        }
        assert!(matches!(SessionKey::from_json_slice(b"\xff\xfe"), Err(SessionKeyError::Json(_))));
        assert!(matches!(
            SessionKey::from_json(r#"{"key":"A*A=","algorithm":"HmacSHA256","creation-timestamp":1}"#),
            Err(SessionKeyError::InvalidBase64(_))
        ));
        match SessionKey::from_json(r#"{"key":"AAE=","algorithm":"AES","creation-timestamp":1}"#) {
            Err(SessionKeyError::UnknownAlgorithm(UnknownAlgorithm { name })) => {
                assert_eq!(name, "AES")
            }
            other => panic!("unexpected {other:?}"),
        }
        // An empty key, with or without its base64 padding: refused, as
        // Java's SecretKeySpec refuses it.
        for empty in [
            r#"{"key":"","algorithm":"HmacSHA256","creation-timestamp":1}"#,
            r#"{"key":"","algorithm":"HmacSHA512","creation-timestamp":1700000000123}"#,
        ] {
            assert!(matches!(SessionKey::from_json(empty), Err(SessionKeyError::EmptyKey)), "{empty}");
            assert!(serde_json::from_str::<SessionKey>(empty).is_err(), "{empty}");
        }
        assert!(matches!(SessionKey::new(Vec::new(), SignatureAlgorithm::HmacSHA1, 0), Err(SessionKeyError::EmptyKey)));
        // Through serde, the typed error surfaces as a message.
        let err = serde_json::from_str::<SessionKey>(r#"{"key":"AAE=","algorithm":"AES","creation-timestamp":1}"#)
            .unwrap_err();
        assert!(err.to_string().contains("algorithm"), "{err}");
    }

    #[test]
    fn rotation_at_the_boundary() {
        let key = sample();
        let ttl = 3_600_000;
        let due = 1_700_000_000_123 + 3_600_000;
        assert_eq!(key.rotation_due_at_ms(ttl), due);
        assert!(!key.needs_rotation(due - 1, ttl));
        assert!(key.needs_rotation(due, ttl));
        assert!(key.needs_rotation(due + 1, ttl));
        assert!(!rotation_needed(Some(&key), due - 1, ttl));
        assert!(rotation_needed(Some(&key), due, ttl));
        assert!(rotation_needed(None, i64::MIN, ttl));
        // TTL 0: due immediately.
        assert!(key.needs_rotation(1_700_000_000_123, 0));
        // Huge TTL saturates instead of overflowing.
        assert_eq!(key.rotation_due_at_ms(u64::MAX), i64::MAX);
        assert!(!key.needs_rotation(i64::MAX - 1, u64::MAX));
    }

    #[test]
    fn only_current_key_accepted() {
        let current = sample();
        assert!(current.is_current(&sample()));
        let mut other_bytes = sample();
        other_bytes.key[31] ^= 1;
        assert!(!current.is_current(&other_bytes));
        let shorter = SessionKey::new((0u8..31).collect(), SignatureAlgorithm::HmacSHA256, 1_700_000_000_123).unwrap();
        assert!(!current.is_current(&shorter));
        let other_algorithm =
            SessionKey::new((0u8..32).collect(), SignatureAlgorithm::HmacSHA512, 1_700_000_000_123).unwrap();
        assert!(!current.is_current(&other_algorithm));
        let older = SessionKey::new((0u8..32).collect(), SignatureAlgorithm::HmacSHA256, 1).unwrap();
        assert!(!current.is_current(&older));
    }

    #[test]
    fn debug_hides_key_bytes() {
        let text = format!("{:?}", sample());
        assert_eq!(text, "SessionKey { key: <32 bytes>, algorithm: HmacSHA256, creation_timestamp_ms: 1700000000123 }");
    }
}
