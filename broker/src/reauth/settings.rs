//! The broker setting `connections.max.reauth.ms`: its keys per listener
//! and mechanism, and which one applies.

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
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReauthConfigError {
    /// The value is not a whole number of milliseconds that fits in an `i64`.
    NotANumber {
        /// The setting key, e.g. `listener.name.sasl_ssl.connections.max.reauth.ms`.
        key: String,
        /// The value as found.
        value: String,
    },
    /// The value is below zero (use 0 for "no limit").
    Negative {
        /// The setting key.
        key: String,
        /// The parsed value.
        value: i64,
    },
}

impl std::fmt::Display for ReauthConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotANumber { key, value } => {
                write!(f, "setting `{key}` = {value:?} is not a whole number of milliseconds")
            }
            Self::Negative { key, value } => write!(f, "setting `{key}` = {value} is negative; 0 means no limit"),
        }
    }
}

impl std::error::Error for ReauthConfigError {}

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

    /// The text of each variant, as users match on it; neither has a source.
    #[test]
    fn error_texts() {
        let cases = [
            (
                ReauthConfigError::NotANumber { key: "connections.max.reauth.ms".into(), value: "1.5".into() },
                "setting `connections.max.reauth.ms` = \"1.5\" is not a whole number of milliseconds",
            ),
            (
                ReauthConfigError::Negative { key: "connections.max.reauth.ms".into(), value: -5 },
                "setting `connections.max.reauth.ms` = -5 is negative; 0 means no limit",
            ),
        ];
        for (err, text) in cases {
            assert_eq!(err.to_string(), text);
            assert!(std::error::Error::source(&err).is_none());
        }
    }
}
