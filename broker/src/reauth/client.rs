//! The client side: when to re-authenticate, spread by a jitter.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

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
