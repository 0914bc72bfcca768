//! The Connect worker settings that control internal request signing
//! (KIP-507), with their defaults and validation.
//!
//! | Setting | Default |
//! |---|---|
//! | `inter.worker.key.generation.algorithm` | `HmacSHA256` |
//! | `inter.worker.key.size` | unset: the algorithm's default (bits) |
//! | `inter.worker.key.ttl.ms` | `3600000` |
//! | `inter.worker.signature.algorithm` | `HmacSHA256` |
//! | `inter.worker.verification.algorithms` | `HmacSHA256` |
//!
//! The verification list must contain the signature algorithm, or a worker
//! would refuse its own requests.
//!
//! ```
//! use kwire_connect::config::InterWorkerConfig;
//! use kwire_connect::signing::SignatureAlgorithm;
//! use std::collections::HashMap;
//!
//! let settings = HashMap::from([
//!     ("inter.worker.signature.algorithm".to_string(), "HmacSHA512".to_string()),
//!     (
//!         "inter.worker.verification.algorithms".to_string(),
//!         "HmacSHA512, HmacSHA256".to_string(),
//!     ),
//! ]);
//! let config = InterWorkerConfig::from_settings(|key| settings.get(key))?;
//! assert_eq!(config.signature_algorithm, SignatureAlgorithm::HmacSHA512);
//! assert_eq!(config.key_ttl_ms, 3_600_000);
//! assert_eq!(config.effective_key_size_bits(), 256);
//! # Ok::<(), kwire_connect::config::ConfigError>(())
//! ```

use super::signing::{SignatureAlgorithm, UnknownAlgorithm};

/// Setting `inter.worker.key.generation.algorithm`: the algorithm session
/// keys are generated for. Default `HmacSHA256`.
pub const INTER_WORKER_KEY_GENERATION_ALGORITHM: &str = "inter.worker.key.generation.algorithm";

/// Setting `inter.worker.key.size`: session key size in bits. Default unset,
/// meaning [`SignatureAlgorithm::default_key_size_bits`] of the generation
/// algorithm.
pub const INTER_WORKER_KEY_SIZE: &str = "inter.worker.key.size";

/// Setting `inter.worker.key.ttl.ms`: how long, in ms, a session key is used
/// before the leader makes a new one. Default
/// [`DEFAULT_INTER_WORKER_KEY_TTL_MS`].
pub const INTER_WORKER_KEY_TTL_MS: &str = "inter.worker.key.ttl.ms";

/// Setting `inter.worker.signature.algorithm`: the MAC this worker signs its
/// internal requests with. Default `HmacSHA256`.
pub const INTER_WORKER_SIGNATURE_ALGORITHM: &str = "inter.worker.signature.algorithm";

/// Setting `inter.worker.verification.algorithms`: comma-separated MACs this
/// worker accepts on internal requests. Default `HmacSHA256`.
pub const INTER_WORKER_VERIFICATION_ALGORITHMS: &str = "inter.worker.verification.algorithms";

/// Default of `inter.worker.key.ttl.ms`: 3,600,000 ms (one hour).
pub const DEFAULT_INTER_WORKER_KEY_TTL_MS: u64 = 3_600_000;

/// A signing setting that cannot be used.
///
/// ```
/// use kwire_connect::config::{ConfigError, InterWorkerConfig};
///
/// let err = InterWorkerConfig::from_settings(|key: &str| {
///     (key == "inter.worker.key.ttl.ms").then_some("soon")
/// })
/// .unwrap_err();
/// assert!(matches!(err, ConfigError::InvalidValue { ref key, .. } if key == "inter.worker.key.ttl.ms"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The value is not of the setting's type or range.
    #[error("setting `{key}` = {value:?} is invalid: {reason}")]
    InvalidValue {
        /// The setting key.
        key: String,
        /// The value as found.
        value: String,
        /// What was expected.
        reason: &'static str,
    },
    /// The value names (or, for a list, contains) an unknown algorithm.
    #[error("setting `{key}` names an unknown algorithm")]
    UnknownAlgorithm {
        /// The setting key.
        key: String,
        /// The unknown name.
        #[source]
        source: UnknownAlgorithm,
    },
    /// `inter.worker.verification.algorithms` does not contain
    /// `inter.worker.signature.algorithm`.
    #[error(
        "inter.worker.verification.algorithms {verification_algorithms:?} must contain \
         inter.worker.signature.algorithm {signature_algorithm}"
    )]
    SignatureAlgorithmNotVerified {
        /// The configured signature algorithm.
        signature_algorithm: SignatureAlgorithm,
        /// The configured verification algorithms.
        verification_algorithms: Vec<SignatureAlgorithm>,
    },
}

/// The five internal-request signing settings of a Connect worker
/// (KIP-507).
///
/// [`Default`] gives Kafka's defaults. Build from a worker's settings with
/// [`InterWorkerConfig::from_settings`], which also runs
/// [`InterWorkerConfig::validate`].
///
/// ```
/// use kwire_connect::config::InterWorkerConfig;
/// use kwire_connect::signing::SignatureAlgorithm;
///
/// let config = InterWorkerConfig::default();
/// assert_eq!(config.key_generation_algorithm, SignatureAlgorithm::HmacSHA256);
/// assert_eq!(config.key_size_bits, None);
/// assert_eq!(config.key_ttl_ms, 3_600_000);
/// assert_eq!(config.signature_algorithm, SignatureAlgorithm::HmacSHA256);
/// assert_eq!(config.verification_algorithms, vec![SignatureAlgorithm::HmacSHA256]);
/// assert_eq!(config.validate(), Ok(()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InterWorkerConfig {
    /// `inter.worker.key.generation.algorithm`.
    pub key_generation_algorithm: SignatureAlgorithm,
    /// `inter.worker.key.size`, bits; `None` = the generation algorithm's
    /// default ([`InterWorkerConfig::effective_key_size_bits`]).
    pub key_size_bits: Option<u32>,
    /// `inter.worker.key.ttl.ms`, ms.
    pub key_ttl_ms: u64,
    /// `inter.worker.signature.algorithm`.
    pub signature_algorithm: SignatureAlgorithm,
    /// `inter.worker.verification.algorithms`, in the order given.
    pub verification_algorithms: Vec<SignatureAlgorithm>,
}

impl Default for InterWorkerConfig {
    fn default() -> Self {
        InterWorkerConfig {
            key_generation_algorithm: SignatureAlgorithm::HmacSHA256,
            key_size_bits: None,
            key_ttl_ms: DEFAULT_INTER_WORKER_KEY_TTL_MS,
            signature_algorithm: SignatureAlgorithm::HmacSHA256,
            verification_algorithms: vec![SignatureAlgorithm::HmacSHA256],
        }
    }
}

impl InterWorkerConfig {
    /// Reads the five settings; absent ones take their defaults.
    ///
    /// `lookup` returns a setting's value by key (for a
    /// `HashMap<String, String>`: `|key| map.get(key)`). Values are trimmed.
    /// `inter.worker.key.size` is a positive `i32` number of bits;
    /// `inter.worker.key.ttl.ms` a non-negative `i64`;
    /// `inter.worker.verification.algorithms` a comma-separated list (blank =
    /// empty). Algorithm names follow
    /// [`SignatureAlgorithm::from_jca_name`].
    ///
    /// # Errors
    ///
    /// [`ConfigError::InvalidValue`], [`ConfigError::UnknownAlgorithm`], or
    /// [`ConfigError::SignatureAlgorithmNotVerified`] from
    /// [`InterWorkerConfig::validate`].
    ///
    /// ```
    /// use kwire_connect::config::{ConfigError, InterWorkerConfig};
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// let config = InterWorkerConfig::from_settings(|key: &str| match key {
    ///     "inter.worker.key.generation.algorithm" => Some("HmacSHA1"),
    ///     "inter.worker.key.size" => Some("128"),
    ///     _ => None,
    /// })?;
    /// assert_eq!(config.key_generation_algorithm, SignatureAlgorithm::HmacSHA1);
    /// assert_eq!(config.effective_key_size_bits(), 128);
    ///
    /// let err = InterWorkerConfig::from_settings(|key: &str| {
    ///     (key == "inter.worker.signature.algorithm").then_some("HmacSHA512")
    /// });
    /// assert!(matches!(err, Err(ConfigError::SignatureAlgorithmNotVerified { .. })));
    /// # Ok::<(), ConfigError>(())
    /// ```
    pub fn from_settings<F, S>(lookup: F) -> Result<Self, ConfigError>
    where
        F: Fn(&str) -> Option<S>,
        S: AsRef<str>,
    {
        let defaults = InterWorkerConfig::default();
        let get = |key: &str| lookup(key).map(|value| value.as_ref().to_string());

        let algorithm = |key: &str, default: SignatureAlgorithm| match get(key) {
            Some(value) => parse_algorithm(key, value.trim()),
            None => Ok(default),
        };

        let key_size_bits = match get(INTER_WORKER_KEY_SIZE) {
            None => None,
            Some(value) => {
                let bits = value
                    .trim()
                    .parse::<i32>()
                    .ok()
                    .and_then(|bits| u32::try_from(bits).ok())
                    .filter(|&bits| bits > 0)
                    .ok_or_else(|| ConfigError::InvalidValue {
                        key: INTER_WORKER_KEY_SIZE.to_string(),
                        value: value.clone(),
                        reason: "expected a positive whole number of bits",
                    })?;
                Some(bits)
            }
        };

        let key_ttl_ms = match get(INTER_WORKER_KEY_TTL_MS) {
            None => defaults.key_ttl_ms,
            Some(value) => value.trim().parse::<i64>().ok().and_then(|ms| u64::try_from(ms).ok()).ok_or_else(|| {
                ConfigError::InvalidValue {
                    key: INTER_WORKER_KEY_TTL_MS.to_string(),
                    value: value.clone(),
                    reason: "expected a non-negative whole number of milliseconds",
                }
            })?,
        };

        let verification_algorithms = match get(INTER_WORKER_VERIFICATION_ALGORITHMS) {
            None => defaults.verification_algorithms,
            Some(value) if value.trim().is_empty() => Vec::new(),
            Some(value) => value
                .split(',')
                .map(|name| parse_algorithm(INTER_WORKER_VERIFICATION_ALGORITHMS, name.trim()))
                .collect::<Result<_, _>>()?,
        };

        let config = InterWorkerConfig {
            key_generation_algorithm: algorithm(
                INTER_WORKER_KEY_GENERATION_ALGORITHM,
                defaults.key_generation_algorithm,
            )?,
            key_size_bits,
            key_ttl_ms,
            signature_algorithm: algorithm(INTER_WORKER_SIGNATURE_ALGORITHM, defaults.signature_algorithm)?,
            verification_algorithms,
        };
        config.validate()?;
        Ok(config)
    }

    /// Checks the rules between settings: the verification algorithms must
    /// contain the signature algorithm, and a key size, if set, must be
    /// positive.
    ///
    /// # Errors
    ///
    /// [`ConfigError::SignatureAlgorithmNotVerified`], or
    /// [`ConfigError::InvalidValue`] for a key size of 0.
    ///
    /// ```
    /// use kwire_connect::config::{ConfigError, InterWorkerConfig};
    /// use kwire_connect::signing::SignatureAlgorithm;
    ///
    /// let config = InterWorkerConfig {
    ///     verification_algorithms: vec![SignatureAlgorithm::HmacSHA512],
    ///     ..InterWorkerConfig::default()
    /// };
    /// assert_eq!(
    ///     config.validate(),
    ///     Err(ConfigError::SignatureAlgorithmNotVerified {
    ///         signature_algorithm: SignatureAlgorithm::HmacSHA256,
    ///         verification_algorithms: vec![SignatureAlgorithm::HmacSHA512],
    ///     })
    /// );
    /// ```
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.key_size_bits == Some(0) {
            return Err(ConfigError::InvalidValue {
                key: INTER_WORKER_KEY_SIZE.to_string(),
                value: "0".to_string(),
                reason: "expected a positive whole number of bits",
            });
        }
        if !self.verification_algorithms.contains(&self.signature_algorithm) {
            return Err(ConfigError::SignatureAlgorithmNotVerified {
                signature_algorithm: self.signature_algorithm,
                verification_algorithms: self.verification_algorithms.clone(),
            });
        }
        Ok(())
    }

    /// Size, in bits, of the session keys to generate: `inter.worker.key.size`
    /// if set, else [`SignatureAlgorithm::default_key_size_bits`] of the
    /// generation algorithm (256 for `HmacSHA256`).
    ///
    /// ```
    /// use kwire_connect::config::InterWorkerConfig;
    ///
    /// assert_eq!(InterWorkerConfig::default().effective_key_size_bits(), 256);
    /// let config = InterWorkerConfig { key_size_bits: Some(384), ..Default::default() };
    /// assert_eq!(config.effective_key_size_bits(), 384);
    /// ```
    pub fn effective_key_size_bits(&self) -> u32 {
        self.key_size_bits.unwrap_or_else(|| self.key_generation_algorithm.default_key_size_bits())
    }

    /// Size, in bytes, of the session keys to generate:
    /// [`effective_key_size_bits`](InterWorkerConfig::effective_key_size_bits)
    /// rounded up to whole bytes.
    ///
    /// ```
    /// use kwire_connect::config::InterWorkerConfig;
    ///
    /// assert_eq!(InterWorkerConfig::default().key_size_bytes(), 32);
    /// let config = InterWorkerConfig { key_size_bits: Some(100), ..Default::default() };
    /// assert_eq!(config.key_size_bytes(), 13);
    /// ```
    pub fn key_size_bytes(&self) -> usize {
        usize::try_from(self.effective_key_size_bits().div_ceil(8)).unwrap_or(usize::MAX)
    }
}

fn parse_algorithm(key: &str, name: &str) -> Result<SignatureAlgorithm, ConfigError> {
    SignatureAlgorithm::from_jca_name(name)
        .map_err(|source| ConfigError::UnknownAlgorithm { key: key.to_string(), source })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn from(pairs: &[(&str, &str)]) -> Result<InterWorkerConfig, ConfigError> {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        InterWorkerConfig::from_settings(|key| map.get(key))
    }

    #[test]
    fn defaults() {
        let config = from(&[]).unwrap();
        assert_eq!(config, InterWorkerConfig::default());
        assert_eq!(config.key_generation_algorithm, SignatureAlgorithm::HmacSHA256);
        assert_eq!(config.key_size_bits, None);
        assert_eq!(config.effective_key_size_bits(), 256);
        assert_eq!(config.key_size_bytes(), 32);
        assert_eq!(config.key_ttl_ms, 3_600_000);
        assert_eq!(config.signature_algorithm, SignatureAlgorithm::HmacSHA256);
        assert_eq!(config.verification_algorithms, vec![SignatureAlgorithm::HmacSHA256]);
    }

    #[test]
    fn all_settings_read() {
        let config = from(&[
            (INTER_WORKER_KEY_GENERATION_ALGORITHM, " HmacSHA384 "),
            (INTER_WORKER_KEY_SIZE, "1024"),
            (INTER_WORKER_KEY_TTL_MS, "60000"),
            (INTER_WORKER_SIGNATURE_ALGORITHM, "HmacSHA1"),
            (INTER_WORKER_VERIFICATION_ALGORITHMS, "HmacSHA256 ,HmacSHA1,  HmacSHA512"),
        ])
        .unwrap();
        assert_eq!(
            config,
            InterWorkerConfig {
                key_generation_algorithm: SignatureAlgorithm::HmacSHA384,
                key_size_bits: Some(1024),
                key_ttl_ms: 60_000,
                signature_algorithm: SignatureAlgorithm::HmacSHA1,
                verification_algorithms: vec![
                    SignatureAlgorithm::HmacSHA256,
                    SignatureAlgorithm::HmacSHA1,
                    SignatureAlgorithm::HmacSHA512,
                ],
            }
        );
        assert_eq!(config.key_size_bytes(), 128);
    }

    #[test]
    fn default_key_size_follows_generation_algorithm() {
        for (name, bits) in [("HmacSHA256", 256), ("HmacSHA384", 384), ("HmacSHA512", 512), ("HmacSHA1", 512)] {
            let config = from(&[(INTER_WORKER_KEY_GENERATION_ALGORITHM, name)]).unwrap();
            assert_eq!(config.effective_key_size_bits(), bits, "{name}");
        }
    }

    #[test]
    fn verification_must_contain_signature_algorithm() {
        assert_eq!(
            from(&[(INTER_WORKER_VERIFICATION_ALGORITHMS, "HmacSHA512")]),
            Err(ConfigError::SignatureAlgorithmNotVerified {
                signature_algorithm: SignatureAlgorithm::HmacSHA256,
                verification_algorithms: vec![SignatureAlgorithm::HmacSHA512],
            })
        );
        assert_eq!(
            from(&[(INTER_WORKER_VERIFICATION_ALGORITHMS, "  ")]),
            Err(ConfigError::SignatureAlgorithmNotVerified {
                signature_algorithm: SignatureAlgorithm::HmacSHA256,
                verification_algorithms: vec![],
            })
        );
        let err = from(&[(INTER_WORKER_SIGNATURE_ALGORITHM, "HmacSHA1")]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "inter.worker.verification.algorithms [HmacSHA256] must contain \
             inter.worker.signature.algorithm HmacSHA1"
        );
        // Allowed once listed.
        assert!(from(&[
            (INTER_WORKER_SIGNATURE_ALGORITHM, "HmacSHA1"),
            (INTER_WORKER_VERIFICATION_ALGORITHMS, "HmacSHA1"),
        ])
        .is_ok());
    }

    #[test]
    fn unknown_algorithms_name_the_setting() {
        for key in [INTER_WORKER_KEY_GENERATION_ALGORITHM, INTER_WORKER_SIGNATURE_ALGORITHM] {
            assert_eq!(
                from(&[(key, "HmacMD5")]),
                Err(ConfigError::UnknownAlgorithm {
                    key: key.to_string(),
                    source: UnknownAlgorithm { name: "HmacMD5".into() },
                })
            );
        }
        assert_eq!(
            from(&[(INTER_WORKER_VERIFICATION_ALGORITHMS, "HmacSHA256,,HmacSHA1")]),
            Err(ConfigError::UnknownAlgorithm {
                key: INTER_WORKER_VERIFICATION_ALGORITHMS.to_string(),
                source: UnknownAlgorithm { name: "".into() },
            })
        );
    }

    #[test]
    fn bad_numbers() {
        for value in ["0", "-8", "abc", "", "2147483648", "1.5"] {
            assert!(
                matches!(
                    from(&[(INTER_WORKER_KEY_SIZE, value)]),
                    Err(ConfigError::InvalidValue { ref key, .. }) if key == INTER_WORKER_KEY_SIZE
                ),
                "{value:?}"
            );
        }
        for value in ["-1", "1h", "", "9223372036854775808"] {
            assert!(
                matches!(
                    from(&[(INTER_WORKER_KEY_TTL_MS, value)]),
                    Err(ConfigError::InvalidValue { ref key, .. }) if key == INTER_WORKER_KEY_TTL_MS
                ),
                "{value:?}"
            );
        }
        assert_eq!(from(&[(INTER_WORKER_KEY_TTL_MS, "0")]).unwrap().key_ttl_ms, 0);
        assert_eq!(from(&[(INTER_WORKER_KEY_SIZE, "2147483647")]).unwrap().key_size_bits, Some(2_147_483_647));
    }

    #[test]
    fn validate_rejects_zero_key_size() {
        let config = InterWorkerConfig { key_size_bits: Some(0), ..InterWorkerConfig::default() };
        assert!(matches!(
            config.validate(),
            Err(ConfigError::InvalidValue { ref key, .. }) if key == INTER_WORKER_KEY_SIZE
        ));
    }
}
