//! [`Versions`]: an inclusive range of message versions, as Kafka's schema
//! language writes them (`none`, `3`, `1-4`, `2+`).

use std::fmt;

/// Highest version: an open range `N+` ends here.
pub const MAX_VERSION: i16 = i16::MAX;

/// An inclusive range of versions; empty when `lo > hi`. It parses from
/// and prints as the schema language writes ranges: `none`, `3`, `1-4`, `2+`.
///
/// # Example
/// ```
/// use kwire_codegen::evolution::Versions;
/// let some: Versions = "3-5".parse().unwrap();
/// assert!(some.contains(4) && !some.contains(6) && !some.is_open());
/// assert_eq!(some.to_string(), "3-5");
/// let open: Versions = "2+".parse().unwrap();
/// assert!(open.is_open() && open.contains(i16::MAX));
/// assert!("none".parse::<Versions>().unwrap().is_empty());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Versions {
    /// Lowest version.
    pub lo: i16,
    /// Highest version; `i16::MAX` for an open range (`N+`).
    pub hi: i16,
}

impl Versions {
    /// The empty range.
    pub(crate) const NONE: Versions = Versions { lo: 0, hi: -1 };

    /// The range `lo..=hi`.
    pub(crate) const fn new(lo: i16, hi: i16) -> Self {
        Self { lo, hi }
    }

    /// True when no version is in the range.
    pub const fn is_empty(self) -> bool {
        self.lo > self.hi
    }

    /// True when the range ends at `i16::MAX`, the highest version (written `N+`).
    pub const fn is_open(self) -> bool {
        !self.is_empty() && self.hi == MAX_VERSION
    }

    /// True when `v` is in the range.
    pub const fn contains(self, v: i16) -> bool {
        self.lo <= v && v <= self.hi
    }

    /// True when every version of `other` is in `self` (always for an empty `other`).
    pub(crate) const fn contains_range(self, other: Versions) -> bool {
        other.is_empty() || (self.lo <= other.lo && other.hi <= self.hi)
    }

    /// The versions in both ranges.
    #[must_use]
    pub(crate) fn intersect(self, other: Versions) -> Versions {
        let r = Versions::new(self.lo.max(other.lo), self.hi.min(other.hi));
        if r.is_empty() {
            Versions::NONE
        } else {
            r
        }
    }

    /// The versions of `self` not in `other`, when that is one range;
    /// `None` when `other` lies strictly inside `self` (two pieces).
    pub(crate) fn subtract(self, other: Versions) -> Option<Versions> {
        if self.is_empty() || other.is_empty() || other.hi < self.lo || other.lo > self.hi {
            return Some(self);
        }
        match (other.lo <= self.lo, other.hi >= self.hi) {
            (true, true) => Some(Versions::NONE),
            (true, false) => Some(Versions::new(other.hi + 1, self.hi)),
            (false, true) => Some(Versions::new(self.lo, other.lo - 1)),
            (false, false) => None,
        }
    }
}

/// Why a version string could not be parsed: the string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseVersionsError(pub String);

impl fmt::Display for ParseVersionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid version range \"{}\": expected none, N, A-B or N+ with versions 0 to 32767", self.0)
    }
}

impl std::str::FromStr for Versions {
    type Err = ParseVersionsError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let s = text.trim();
        let num = |part: &str| -> Result<i16, ParseVersionsError> {
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ParseVersionsError(text.to_string()));
            }
            part.parse::<i16>().map_err(|_| ParseVersionsError(text.to_string()))
        };
        if s == "none" {
            Ok(Versions::NONE)
        } else if let Some(lo) = s.strip_suffix('+') {
            Ok(Versions::new(num(lo)?, MAX_VERSION))
        } else if let Some((lo, hi)) = s.split_once('-') {
            Ok(Versions::new(num(lo)?, num(hi)?))
        } else {
            let v = num(s)?;
            Ok(Versions::new(v, v))
        }
    }
}

impl fmt::Display for Versions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            f.write_str("none")
        } else if self.lo == self.hi {
            write!(f, "{}", self.lo)
        } else if self.hi == MAX_VERSION {
            write!(f, "{}+", self.lo)
        } else {
            write!(f, "{}-{}", self.lo, self.hi)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Versions {
        s.parse().unwrap()
    }

    #[test]
    fn parse_and_format_round_trip() {
        for s in ["0+", "1-3", "2", "3+", "none"] {
            assert_eq!(v(s).to_string(), s);
        }
        assert_eq!(v(" 2+ "), Versions::new(2, MAX_VERSION));
        for bad in ["0 - 2", "-1", "x", "1-", "+", "40000", "1-2-3", ""] {
            assert!(bad.parse::<Versions>().is_err(), "{bad}");
        }
        // Inverted ranges parse (Kafka accepts them) but are empty.
        assert!(v("3-1").is_empty());
    }

    #[test]
    fn intersect_contains_subtract() {
        assert_eq!(v("1+").intersect(v("0-4")), v("1-4"));
        assert_eq!(v("5+").intersect(v("0-4")), Versions::NONE);
        assert!(v("0+").contains_range(v("none")));
        assert!(!v("1-3").contains_range(v("0-2")));
        assert_eq!(v("0-10").subtract(v("0-100")), Some(Versions::NONE));
        assert_eq!(v("0-10").subtract(v("4+")), Some(v("0-3")));
        assert_eq!(v("0-10").subtract(v("0-3")), Some(v("4-10")));
        assert_eq!(v("0-10").subtract(v("11+")), Some(v("0-10")));
        assert_eq!(v("0+").subtract(v("1-100")), None);
    }
}
