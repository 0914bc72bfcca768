//! Signing and verifying internal Connect REST requests (KIP-507).
//!
//! A worker forwarding a request to another worker (for example task
//! configurations sent to the leader) computes an HMAC of the raw request
//! body with the current session key and sends it in two headers:
//!
//! - [`AUTHORIZATION_HEADER`] (`X-Connect-Authorization`): the MAC, base64
//!   (standard alphabet, padded);
//! - [`SIGNATURE_ALGORITHM_HEADER`] (`X-Connect-Request-Signature-Algorithm`):
//!   the MAC's JCA name, e.g. `HmacSHA256`.
//!
//! The receiver recomputes the MAC with its current session key and compares
//! in constant time ([`verify`]). As a Kafka Connect worker, it accepts
//! only an algorithm header spelled exactly as a permitted algorithm's JCA
//! name (`hmacsha256` is refused), and an empty session key is no key
//! (Java's `SecretKeySpec` refuses one).
//!
//! ```
//! use kwire_connect::signing::{verify, SignatureAlgorithm};
//!
//! let key = b"session key bytes";
//! let body = br#"[{"config":"value"}]"#;
//! let headers = SignatureAlgorithm::HmacSHA256.sign_headers(key, body);
//! assert_eq!(headers.signature_algorithm, "HmacSHA256");
//!
//! let permitted = [SignatureAlgorithm::HmacSHA256];
//! verify(
//!     body,
//!     Some(&headers.authorization),
//!     Some(&headers.signature_algorithm),
//!     Some(key),
//!     &permitted,
//! )?;
//! # Ok::<(), kwire_connect::signing::SignatureError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine as _;
use hmac::digest::KeyInit;
use hmac::{Hmac, Mac};

/// Header carrying the request signature, `X-Connect-Authorization`: base64
/// (standard alphabet, padded) of the HMAC of the raw request body (KIP-507).
pub const AUTHORIZATION_HEADER: &str = "X-Connect-Authorization";

/// Header carrying the JCA name of the MAC used to sign the request,
/// `X-Connect-Request-Signature-Algorithm` (KIP-507).
pub const SIGNATURE_ALGORITHM_HEADER: &str = "X-Connect-Request-Signature-Algorithm";

/// Base64 with the standard alphabet: writes padding, reads with or without
/// it (as Java's basic decoder does).
pub(crate) const BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// A MAC algorithm for signing internal requests and for session keys,
/// named as in the Java Cryptography Architecture (JCA).
///
/// Used by the Connect worker settings `inter.worker.signature.algorithm`,
/// `inter.worker.verification.algorithms` and
/// `inter.worker.key.generation.algorithm` (KIP-507). The default is
/// `HmacSHA256`.
///
/// ```
/// use kwire_connect::signing::SignatureAlgorithm;
///
/// let algorithm: SignatureAlgorithm = "HmacSHA512".parse()?;
/// assert_eq!(algorithm, SignatureAlgorithm::HmacSHA512);
/// assert_eq!(algorithm.to_string(), "HmacSHA512");
/// assert_eq!(SignatureAlgorithm::default(), SignatureAlgorithm::HmacSHA256);
/// # Ok::<(), kwire_connect::signing::UnknownAlgorithm>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SignatureAlgorithm {
    /// `HmacSHA256`: HMAC with SHA-256 (32-byte MAC). The default.
    #[default]
    HmacSHA256,
    /// `HmacSHA1`: HMAC with SHA-1 (20-byte MAC).
    HmacSHA1,
    /// `HmacSHA384`: HMAC with SHA-384 (48-byte MAC).
    HmacSHA384,
    /// `HmacSHA512`: HMAC with SHA-512 (64-byte MAC).
    HmacSHA512,
}

/// A MAC algorithm name that is not one of [`SignatureAlgorithm::ALL`].
///
/// ```
/// use kwire_connect::signing::SignatureAlgorithm;
///
/// let err = SignatureAlgorithm::from_jca_name("HmacMD5").unwrap_err();
/// assert_eq!(err.name, "HmacMD5");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown MAC algorithm {name:?}; known: HmacSHA256, HmacSHA1, HmacSHA384, HmacSHA512")]
pub struct UnknownAlgorithm {
    /// The name as given.
    pub name: String,
}

impl SignatureAlgorithm {
    /// Every supported algorithm, default first.
    ///
    /// ```
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// // The names a worker setting such as `inter.worker.verification.algorithms` accepts.
    /// let names: Vec<&str> = SignatureAlgorithm::ALL.iter().map(|a| a.jca_name()).collect();
    /// assert_eq!(names, ["HmacSHA256", "HmacSHA1", "HmacSHA384", "HmacSHA512"]);
    /// ```
    pub const ALL: [SignatureAlgorithm; 4] = [
        SignatureAlgorithm::HmacSHA256,
        SignatureAlgorithm::HmacSHA1,
        SignatureAlgorithm::HmacSHA384,
        SignatureAlgorithm::HmacSHA512,
    ];

    /// The JCA name, as written in settings, headers and session keys.
    ///
    /// ```
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// assert_eq!(SignatureAlgorithm::HmacSHA1.jca_name(), "HmacSHA1");
    /// ```
    pub const fn jca_name(self) -> &'static str {
        match self {
            SignatureAlgorithm::HmacSHA256 => "HmacSHA256",
            SignatureAlgorithm::HmacSHA1 => "HmacSHA1",
            SignatureAlgorithm::HmacSHA384 => "HmacSHA384",
            SignatureAlgorithm::HmacSHA512 => "HmacSHA512",
        }
    }

    /// The algorithm with this JCA name. Like JCA's algorithm lookup, letter
    /// case is ignored (`hmacsha256` is `HmacSHA256`); [`verify`] compares
    /// the request's header exactly, as a Connect worker does.
    ///
    /// # Errors
    ///
    /// [`UnknownAlgorithm`] for any other name.
    ///
    /// ```
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// assert_eq!(SignatureAlgorithm::from_jca_name("HmacSHA384")?, SignatureAlgorithm::HmacSHA384);
    /// assert_eq!(SignatureAlgorithm::from_jca_name("HMACSHA1")?, SignatureAlgorithm::HmacSHA1);
    /// assert!(SignatureAlgorithm::from_jca_name("SHA256").is_err());
    /// # Ok::<(), kwire_connect::signing::UnknownAlgorithm>(())
    /// ```
    pub fn from_jca_name(name: &str) -> Result<Self, UnknownAlgorithm> {
        Self::ALL
            .into_iter()
            .find(|algorithm| algorithm.jca_name().eq_ignore_ascii_case(name))
            .ok_or_else(|| UnknownAlgorithm { name: name.to_string() })
    }

    /// Size of the MAC this algorithm produces, in bits.
    ///
    /// ```
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// assert_eq!(SignatureAlgorithm::HmacSHA1.output_bits(), 160);
    /// assert_eq!(SignatureAlgorithm::HmacSHA256.output_bits(), 256);
    /// ```
    pub const fn output_bits(self) -> u32 {
        match self {
            SignatureAlgorithm::HmacSHA256 => 256,
            SignatureAlgorithm::HmacSHA1 => 160,
            SignatureAlgorithm::HmacSHA384 => 384,
            SignatureAlgorithm::HmacSHA512 => 512,
        }
    }

    /// The key size, in bits, a worker generates for this algorithm when
    /// `inter.worker.key.size` is not set: the default of the JDK's key
    /// generator for the algorithm. That equals [`output_bits`] for the
    /// SHA-2 algorithms; for `HmacSHA1` the JDK generates 64-byte (512-bit)
    /// keys, not 160-bit ones.
    ///
    /// [`output_bits`]: SignatureAlgorithm::output_bits
    ///
    /// ```
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// assert_eq!(SignatureAlgorithm::HmacSHA256.default_key_size_bits(), 256);
    /// assert_eq!(SignatureAlgorithm::HmacSHA1.default_key_size_bits(), 512);
    /// ```
    pub const fn default_key_size_bits(self) -> u32 {
        match self {
            SignatureAlgorithm::HmacSHA1 => 512,
            other => other.output_bits(),
        }
    }

    /// The MAC of `body` under `key` ([`output_bits`] / 8 bytes long).
    ///
    /// `key` may have any length but 0: an empty key is no key (Java's
    /// `SecretKeySpec` refuses one, so no Connect worker signs or verifies
    /// with it), and the MAC is then empty, which [`verify`] never accepts.
    ///
    /// [`output_bits`]: SignatureAlgorithm::output_bits
    ///
    /// ```
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// let mac = SignatureAlgorithm::HmacSHA256.sign(b"key", b"The quick brown fox jumps over the lazy dog");
    /// assert_eq!(mac.len(), 32);
    /// assert_eq!(mac[..4], [0xf7, 0xbc, 0x83, 0xf4]);
    /// ```
    pub fn sign(self, key: &[u8], body: &[u8]) -> Vec<u8> {
        match self {
            SignatureAlgorithm::HmacSHA256 => mac::<Hmac<sha2::Sha256>>(key, body),
            SignatureAlgorithm::HmacSHA1 => mac::<Hmac<sha1::Sha1>>(key, body),
            SignatureAlgorithm::HmacSHA384 => mac::<Hmac<sha2::Sha384>>(key, body),
            SignatureAlgorithm::HmacSHA512 => mac::<Hmac<sha2::Sha512>>(key, body),
        }
    }

    /// The two header values for a request with this `body`, signed with the
    /// session `key`.
    ///
    /// ```
    /// use kwire_connect::signing::{SignatureAlgorithm, AUTHORIZATION_HEADER};
    ///
    /// let headers = SignatureAlgorithm::HmacSHA1.sign_headers(b"key", b"");
    /// assert_eq!(headers.signature_algorithm, "HmacSHA1");
    /// assert_eq!(headers.authorization, "9Cuw7rAY671Fl65yE3EexgdghD8=");
    /// assert_eq!(headers.pairs()[0], (AUTHORIZATION_HEADER, "9Cuw7rAY671Fl65yE3EexgdghD8="));
    /// ```
    pub fn sign_headers(self, key: &[u8], body: &[u8]) -> SignatureHeaders {
        SignatureHeaders {
            authorization: BASE64.encode(self.sign(key, body)),
            signature_algorithm: self.jca_name().to_string(),
        }
    }

    fn verify_mac(self, key: &[u8], body: &[u8], signature: &[u8]) -> bool {
        match self {
            SignatureAlgorithm::HmacSHA256 => verify_mac::<Hmac<sha2::Sha256>>(key, body, signature),
            SignatureAlgorithm::HmacSHA1 => verify_mac::<Hmac<sha1::Sha1>>(key, body, signature),
            SignatureAlgorithm::HmacSHA384 => verify_mac::<Hmac<sha2::Sha384>>(key, body, signature),
            SignatureAlgorithm::HmacSHA512 => verify_mac::<Hmac<sha2::Sha512>>(key, body, signature),
        }
    }
}

/// The MAC of `body` under `key`, `None` for an empty key (Java's
/// `SecretKeySpec` refuses one). HMAC accepts keys of every other length
/// (long keys are hashed, short ones padded), so `new_from_slice` never
/// refuses one; were it ever to, both callers fail closed: signing yields
/// an empty signature, which no verifier accepts, and verification says no.
fn keyed<M: Mac + KeyInit>(key: &[u8], body: &[u8]) -> Option<M> {
    if key.is_empty() {
        return None;
    }
    let mut mac = <M as KeyInit>::new_from_slice(key).ok()?;
    mac.update(body);
    Some(mac)
}

fn mac<M: Mac + KeyInit>(key: &[u8], body: &[u8]) -> Vec<u8> {
    keyed::<M>(key, body).map(|m| m.finalize().into_bytes().to_vec()).unwrap_or_default()
}

fn verify_mac<M: Mac + KeyInit>(key: &[u8], body: &[u8], signature: &[u8]) -> bool {
    keyed::<M>(key, body).is_some_and(|m| m.verify_slice(signature).is_ok())
}

impl fmt::Display for SignatureAlgorithm {
    /// Writes the JCA name.
    ///
    /// ```
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// assert_eq!(format!("{}", SignatureAlgorithm::HmacSHA384), "HmacSHA384");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.jca_name())
    }
}

impl FromStr for SignatureAlgorithm {
    type Err = UnknownAlgorithm;

    /// Same as [`SignatureAlgorithm::from_jca_name`].
    ///
    /// ```
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// assert_eq!("HmacSHA1".parse::<SignatureAlgorithm>(), Ok(SignatureAlgorithm::HmacSHA1));
    /// ```
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Self::from_jca_name(name)
    }
}

/// The two header values that sign one request, from
/// [`SignatureAlgorithm::sign_headers`].
///
/// ```
/// use kwire_connect::signing::{SignatureAlgorithm, SIGNATURE_ALGORITHM_HEADER};
///
/// let headers = SignatureAlgorithm::HmacSHA256.sign_headers(b"k", b"{}");
/// assert_eq!(headers.pairs()[1], (SIGNATURE_ALGORITHM_HEADER, "HmacSHA256"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SignatureHeaders {
    /// Value of [`AUTHORIZATION_HEADER`]: base64 (padded) of the MAC.
    pub authorization: String,
    /// Value of [`SIGNATURE_ALGORITHM_HEADER`]: the JCA name.
    pub signature_algorithm: String,
}

impl SignatureHeaders {
    /// `(header name, value)` pairs, ready to add to an HTTP request.
    ///
    /// ```
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// let headers = SignatureAlgorithm::HmacSHA256.sign_headers(b"k", b"{}");
    /// for (name, value) in headers.pairs() {
    ///     assert!(name.starts_with("X-Connect-"));
    ///     assert!(!value.is_empty());
    /// }
    /// ```
    pub fn pairs(&self) -> [(&'static str, &str); 2] {
        [(AUTHORIZATION_HEADER, &self.authorization), (SIGNATURE_ALGORITHM_HEADER, &self.signature_algorithm)]
    }
}

/// Why a signed request was refused by [`verify`].
///
/// ```
/// use kwire_connect::signing::{verify, SignatureAlgorithm, SignatureError};
///
/// let err = verify(b"{}", None, Some("HmacSHA256"), Some(b"k"), &[SignatureAlgorithm::HmacSHA256]);
/// assert_eq!(err, Err(SignatureError::MissingHeader("X-Connect-Authorization")));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    /// A signature header is absent (holds the header's name).
    #[error("internal request is missing the {0} header")]
    MissingHeader(&'static str),
    /// The `X-Connect-Authorization` value is not valid base64.
    #[error("X-Connect-Authorization header is not valid base64")]
    InvalidBase64(#[source] base64::DecodeError),
    /// The `X-Connect-Request-Signature-Algorithm` value names no known MAC.
    #[error("request signature algorithm is not known")]
    UnknownAlgorithm(#[from] UnknownAlgorithm),
    /// The algorithm is known but its name, exactly as sent, is not one of
    /// `inter.worker.verification.algorithms` (a Connect worker compares the
    /// names as strings: `hmacsha256` is not `HmacSHA256`).
    #[error("request signature algorithm {algorithm:?} is not permitted (permitted: {permitted:?})")]
    AlgorithmNotPermitted {
        /// The `X-Connect-Request-Signature-Algorithm` value as sent.
        algorithm: String,
        /// The algorithms this worker accepts.
        permitted: Vec<SignatureAlgorithm>,
    },
    /// This worker has not read a session key yet (or was given an empty
    /// one, which is no key), so it cannot check signatures.
    #[error("no session key yet; the request signature cannot be checked")]
    NoSessionKey,
    /// The MAC does not match the body under the current session key (the
    /// body was changed, or it was signed with another, e.g. stale, key).
    #[error("request signature does not match")]
    BadSignature,
}

/// Checks a signed internal request.
///
/// - `body`: the raw request body as received.
/// - `authorization`, `signature_algorithm`: the values of
///   [`AUTHORIZATION_HEADER`] and [`SIGNATURE_ALGORITHM_HEADER`], `None` when
///   absent.
/// - `session_key`: the current session key's bytes, `None` if this worker
///   has none yet; an empty key counts as none (Java's `SecretKeySpec`
///   refuses one, so a worker never holds it). Only the current key is
///   tried (KIP-507: a request signed with an older key is refused and the
///   sender retries).
/// - `permitted`: `inter.worker.verification.algorithms`.
///
/// As Kafka's Connect worker: the algorithm name is looked up ignoring
/// case, as JCA does (an unknown name is [`SignatureError::UnknownAlgorithm`]),
/// then must equal a permitted algorithm's JCA name exactly
/// ([`SignatureError::AlgorithmNotPermitted`] for `hmacsha256`). The MAC is
/// compared in constant time.
///
/// # Errors
///
/// Checked in this order: [`SignatureError::MissingHeader`],
/// [`SignatureError::UnknownAlgorithm`], [`SignatureError::InvalidBase64`],
/// [`SignatureError::AlgorithmNotPermitted`], [`SignatureError::NoSessionKey`],
/// [`SignatureError::BadSignature`].
///
/// ```
/// use kwire_connect::signing::{verify, SignatureAlgorithm, SignatureError};
///
/// let key = b"current key";
/// let headers = SignatureAlgorithm::HmacSHA256.sign_headers(key, b"body");
/// let check = |body: &[u8], key: Option<&[u8]>| {
///     verify(body, Some(&headers.authorization), Some(&headers.signature_algorithm), key,
///            &[SignatureAlgorithm::HmacSHA256])
/// };
/// assert_eq!(check(b"body", Some(key)), Ok(()));
/// assert_eq!(check(b"bodY", Some(key)), Err(SignatureError::BadSignature));
/// assert_eq!(check(b"body", Some(b"old key")), Err(SignatureError::BadSignature));
/// assert_eq!(check(b"body", None), Err(SignatureError::NoSessionKey));
/// ```
pub fn verify(
    body: &[u8],
    authorization: Option<&str>,
    signature_algorithm: Option<&str>,
    session_key: Option<&[u8]>,
    permitted: &[SignatureAlgorithm],
) -> Result<(), SignatureError> {
    let authorization = authorization.ok_or(SignatureError::MissingHeader(AUTHORIZATION_HEADER))?;
    let signature_algorithm = signature_algorithm.ok_or(SignatureError::MissingHeader(SIGNATURE_ALGORITHM_HEADER))?;
    let algorithm = SignatureAlgorithm::from_jca_name(signature_algorithm)?;
    let signature = BASE64.decode(authorization).map_err(SignatureError::InvalidBase64)?;
    if !permitted.iter().any(|p| p.jca_name() == signature_algorithm) {
        return Err(SignatureError::AlgorithmNotPermitted {
            algorithm: signature_algorithm.to_string(),
            permitted: permitted.to_vec(),
        });
    }
    let key = session_key.filter(|key| !key.is_empty()).ok_or(SignatureError::NoSessionKey)?;
    if algorithm.verify_mac(key, body, &signature) {
        Ok(())
    } else {
        Err(SignatureError::BadSignature)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn rfc_4231_test_case_2() {
        // RFC 4231, test case 2: key "Jefe", data "what do ya want for nothing?".
        let key = b"Jefe";
        let data = b"what do ya want for nothing?";
        assert_eq!(
            hex(&SignatureAlgorithm::HmacSHA256.sign(key, data)),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(
            hex(&SignatureAlgorithm::HmacSHA384.sign(key, data)),
            "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e\
             8e2240ca5e69e2c78b3239ecfab21649"
        );
        assert_eq!(
            hex(&SignatureAlgorithm::HmacSHA512.sign(key, data)),
            "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554\
             9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"
        );
    }

    #[test]
    fn rfc_4231_test_case_2_headers() {
        let headers = SignatureAlgorithm::HmacSHA256.sign_headers(b"Jefe", b"what do ya want for nothing?");
        // base64 of 5bdcc146...64ec3843
        assert_eq!(headers.authorization, "W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM=");
        assert_eq!(headers.signature_algorithm, "HmacSHA256");
    }

    #[test]
    fn rfc_2202_sha1_test_case_2() {
        assert_eq!(
            hex(&SignatureAlgorithm::HmacSHA1.sign(b"Jefe", b"what do ya want for nothing?")),
            "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"
        );
    }

    #[test]
    fn round_trip_every_algorithm() {
        let key = b"0123456789abcdef0123456789abcdef";
        let body = br#"[{"connector.class":"FileStreamSource","tasks.max":"1"}]"#;
        for algorithm in SignatureAlgorithm::ALL {
            let headers = algorithm.sign_headers(key, body);
            assert_eq!(headers.signature_algorithm, algorithm.jca_name());
            let decoded = BASE64.decode(&headers.authorization).unwrap();
            assert_eq!(decoded.len() * 8, algorithm.output_bits() as usize);
            assert!(headers.authorization.len() % 4 == 0, "padded");
            assert_eq!(
                verify(
                    body,
                    Some(&headers.authorization),
                    Some(&headers.signature_algorithm),
                    Some(key),
                    &SignatureAlgorithm::ALL,
                ),
                Ok(())
            );
        }
    }

    #[test]
    fn tampered_body_refused() {
        let key = b"key";
        let headers = SignatureAlgorithm::HmacSHA512.sign_headers(key, b"{\"a\":1}");
        assert_eq!(
            verify(
                b"{\"a\":2}",
                Some(&headers.authorization),
                Some(&headers.signature_algorithm),
                Some(key),
                &[SignatureAlgorithm::HmacSHA512],
            ),
            Err(SignatureError::BadSignature)
        );
    }

    fn refusal(
        authorization: Option<&str>,
        algorithm: Option<&str>,
        key: Option<&[u8]>,
        permitted: &[SignatureAlgorithm],
    ) -> SignatureError {
        verify(b"body", authorization, algorithm, key, permitted).unwrap_err()
    }

    #[test]
    fn each_refusal() {
        let good = SignatureAlgorithm::HmacSHA256.sign_headers(b"key", b"body");
        let auth = Some(good.authorization.as_str());
        let sha256 = [SignatureAlgorithm::HmacSHA256];
        assert_eq!(
            refusal(None, Some("HmacSHA256"), Some(b"key"), &sha256),
            SignatureError::MissingHeader("X-Connect-Authorization")
        );
        assert_eq!(
            refusal(auth, None, Some(b"key"), &sha256),
            SignatureError::MissingHeader("X-Connect-Request-Signature-Algorithm")
        );
        assert!(matches!(
            refusal(Some("not base64!"), Some("HmacSHA256"), Some(b"key"), &sha256),
            SignatureError::InvalidBase64(_)
        ));
        assert_eq!(
            refusal(auth, Some("HmacMD5"), Some(b"key"), &sha256),
            SignatureError::UnknownAlgorithm(UnknownAlgorithm { name: "HmacMD5".into() })
        );
        let sha1 = SignatureAlgorithm::HmacSHA1.sign_headers(b"key", b"body");
        assert_eq!(
            refusal(Some(&sha1.authorization), Some("HmacSHA1"), Some(b"key"), &sha256),
            SignatureError::AlgorithmNotPermitted { algorithm: "HmacSHA1".into(), permitted: sha256.to_vec() }
        );
        assert_eq!(refusal(auth, Some("HmacSHA256"), None, &sha256), SignatureError::NoSessionKey);
        assert_eq!(refusal(auth, Some("HmacSHA256"), Some(b"other key"), &sha256), SignatureError::BadSignature);
        // Signature of the wrong length, and an empty one.
        assert_eq!(refusal(Some("AAAA"), Some("HmacSHA256"), Some(b"key"), &sha256), SignatureError::BadSignature);
        assert_eq!(refusal(Some(""), Some("HmacSHA256"), Some(b"key"), &sha256), SignatureError::BadSignature);
        // The header names the algorithm; a MAC of another one does not pass.
        assert_eq!(
            refusal(Some(&sha1.authorization), Some("HmacSHA256"), Some(b"key"), &SignatureAlgorithm::ALL),
            SignatureError::BadSignature
        );
        // Nothing permitted: everything refused.
        assert!(matches!(
            refusal(auth, Some("HmacSHA256"), Some(b"key"), &[]),
            SignatureError::AlgorithmNotPermitted { .. }
        ));
    }

    /// A Connect worker compares the algorithm header with its permitted
    /// names as strings: a correct MAC labelled in another letter case is
    /// refused (Kafka answers 400), while a name JCA does not know at all is
    /// an unknown algorithm.
    #[test]
    fn algorithm_header_compared_exactly() {
        let good = SignatureAlgorithm::HmacSHA256.sign_headers(b"key", b"body");
        let auth = Some(good.authorization.as_str());
        for label in ["hmacsha256", "HMACSHA256", "HmacSha256"] {
            assert_eq!(
                refusal(auth, Some(label), Some(b"key"), &SignatureAlgorithm::ALL),
                SignatureError::AlgorithmNotPermitted {
                    algorithm: label.into(),
                    permitted: SignatureAlgorithm::ALL.to_vec()
                },
                "{label}"
            );
        }
        assert_eq!(
            refusal(auth, Some("HmacSHA256 "), Some(b"key"), &SignatureAlgorithm::ALL),
            SignatureError::UnknownAlgorithm(UnknownAlgorithm { name: "HmacSHA256 ".into() })
        );
        let message = refusal(auth, Some("hmacsha256"), Some(b"key"), &[SignatureAlgorithm::HmacSHA256]).to_string();
        assert_eq!(message, r#"request signature algorithm "hmacsha256" is not permitted (permitted: [HmacSHA256])"#);
    }

    #[test]
    fn unpadded_base64_is_accepted() {
        let good = SignatureAlgorithm::HmacSHA256.sign_headers(b"key", b"body");
        let unpadded = good.authorization.trim_end_matches('=');
        assert_ne!(unpadded, good.authorization);
        assert_eq!(
            verify(b"body", Some(unpadded), Some("HmacSHA256"), Some(b"key"), &[SignatureAlgorithm::HmacSHA256]),
            Ok(())
        );
    }

    #[test]
    fn names_parse_and_print() {
        for algorithm in SignatureAlgorithm::ALL {
            assert_eq!(SignatureAlgorithm::from_jca_name(algorithm.jca_name()), Ok(algorithm));
            assert_eq!(algorithm.to_string().parse(), Ok(algorithm));
            assert_eq!(SignatureAlgorithm::from_jca_name(&algorithm.jca_name().to_lowercase()), Ok(algorithm));
        }
        for bad in ["", "HmacSHA256 ", "SHA256", "HmacSHA224", "HmacMD5"] {
            assert_eq!(SignatureAlgorithm::from_jca_name(bad), Err(UnknownAlgorithm { name: bad.into() }));
        }
    }

    #[test]
    fn long_and_empty_keys() {
        // RFC 4231 test case 6: a 131-byte key, longer than the block size.
        let key = [0xaa_u8; 131];
        assert_eq!(
            hex(&SignatureAlgorithm::HmacSHA256.sign(&key, b"Test Using Larger Than Block-Size Key - Hash Key First")),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
        // An empty key is no key: no MAC, and nothing verifies under it,
        // not even the HMAC a library that allows the empty key computes
        // (keys are zero-padded to the block size, so it is the MAC under
        // one zero byte).
        for algorithm in SignatureAlgorithm::ALL {
            assert_eq!(algorithm.sign(b"", b"body"), Vec::<u8>::new(), "{algorithm}");
        }
        let empty_key_mac = SignatureAlgorithm::HmacSHA256.sign(&[0], b"body");
        assert_eq!(empty_key_mac, SignatureAlgorithm::HmacSHA256.sign(&[0; 64], b"body"));
        let authorization = BASE64.encode(&empty_key_mac);
        let permitted = [SignatureAlgorithm::HmacSHA256];
        assert_eq!(
            verify(b"body", Some(&authorization), Some("HmacSHA256"), Some(b""), &permitted),
            Err(SignatureError::NoSessionKey)
        );
        let empty = SignatureAlgorithm::HmacSHA256.sign_headers(b"", b"body");
        assert_eq!(
            verify(b"body", Some(&empty.authorization), Some("HmacSHA256"), Some(b"key"), &permitted),
            Err(SignatureError::BadSignature)
        );
    }
}
