//! `uuid`: 16 bytes in RFC 4122 order (most significant half first).
//!
//! As text, a uuid is written as Kafka's tools write it (its `Uuid.toString`):
//! the 16 bytes in URL-safe base64 (RFC 4648 §5, `-` and `_` for 62 and 63)
//! without padding, 22 characters. The encoder and decoder of those 22
//! characters are here, so that the default features need no base64 crate.

use std::fmt;
use std::str::FromStr;

use std::mem::MaybeUninit;

use bytes::BufMut;

use super::{Decode, Encode, Fixed, Input, Reader, Writer};
use crate::error::{DecodeError, EncodeError};

/// A 128-bit UUID as Kafka sends it: topic ids, client instance ids.
/// The all-zero value is the default ("no id").
///
/// `Display` and `FromStr` use Kafka's text form, URL-safe base64 of the 16
/// bytes without padding (22 characters), which Kafka's tools print and
/// accept; [`Uuid::to_rfc_string`] and [`Uuid::from_rfc_string`] give the RFC 4122
/// form (`8-4-4-4-12` hex digits). With the feature `uuid`, it converts to
/// and from `uuid::Uuid` (same bytes, same order).
///
/// # Example
/// ```
/// use kwire::primitives::Uuid;
/// let id = Uuid::from_u128(0x0102030405060708090a0b0c0d0e0f10);
/// assert_eq!(id.to_string(), "AQIDBAUGBwgJCgsMDQ4PEA");
/// assert_eq!("AQIDBAUGBwgJCgsMDQ4PEA".parse::<Uuid>(), Ok(id));
/// assert_eq!(id.to_rfc_string(), "01020304-0506-0708-090a-0b0c0d0e0f10");
/// assert_eq!(Uuid::from_rfc_string("01020304-0506-0708-090a-0b0c0d0e0f10"), Ok(id));
/// assert_eq!(Uuid::NIL.to_string(), "AAAAAAAAAAAAAAAAAAAAAA");
/// assert!(Uuid::default().is_nil());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Uuid(pub [u8; 16]);

/// Why text is not a uuid: [`Uuid`]'s `FromStr` (Kafka's base64 form) and
/// [`Uuid::from_rfc_string`] (the RFC 4122 form).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseUuidError {
    /// Longer than the 24 characters of base64 with padding (Kafka refuses
    /// such text before decoding it).
    TooLong {
        /// Length of the text, in bytes.
        len: usize,
    },
    /// A character outside the alphabet: URL-safe base64 (`A`–`Z`, `a`–`z`,
    /// `0`–`9`, `-`, `_`), or hex digits and hyphens for the RFC form.
    InvalidCharacter {
        /// The character.
        character: char,
        /// Its byte offset in the text.
        position: usize,
        /// What was expected: `URL-safe base64` or `hex digit` or `-`.
        alphabet: &'static str,
    },
    /// `=` other than as the two characters that pad 22 characters of base64 to 24.
    BadPadding {
        /// Byte offset of the first misplaced `=`.
        position: usize,
    },
    /// Base64 that does not decode to 16 bytes (22 characters, or 24 with
    /// `==`), or RFC text that is not 36 characters.
    WrongLength {
        /// Length of the text without padding, in bytes.
        len: usize,
        /// `base64` or `RFC 4122`.
        form: &'static str,
        /// The length expected.
        expected: &'static str,
    },
}

impl fmt::Display for ParseUuidError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLong { len } => write!(f, "{len} characters is too long for a base64 uuid (at most 24)"),
            Self::InvalidCharacter { character, position, alphabet } => {
                write!(f, "{character:?} at byte {position} is not a {alphabet} character")
            }
            Self::BadPadding { position } => write!(f, "misplaced base64 padding at byte {position}"),
            Self::WrongLength { len, form, expected } => {
                write!(f, "{len} characters is not the length of a {form} uuid ({expected})")
            }
        }
    }
}

impl std::error::Error for ParseUuidError {}

/// The URL-safe base64 alphabet (RFC 4648 §5).
const BASE64_URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The 6-bit value of a URL-safe base64 character.
const fn sextet(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'-' => Some(62),
        b'_' => Some(63),
        _ => None,
    }
}

/// The character that starts at byte `at` of `text` (a char boundary: every
/// byte before it is ASCII).
fn char_at(text: &str, at: usize) -> char {
    text.get(at..).and_then(|rest| rest.chars().next()).unwrap_or('\u{fffd}')
}

impl Uuid {
    /// The all-zero UUID.
    pub const NIL: Uuid = Uuid([0; 16]);

    /// From a 128-bit number, most significant byte first.
    pub const fn from_u128(value: u128) -> Self {
        Self(value.to_be_bytes())
    }

    /// As a 128-bit number.
    pub const fn as_u128(&self) -> u128 {
        u128::from_be_bytes(self.0)
    }

    /// True for the all-zero UUID.
    pub const fn is_nil(&self) -> bool {
        self.as_u128() == 0
    }

    /// Kafka's text form: the 16 bytes in URL-safe base64 without padding,
    /// 22 ASCII characters (what `Display` writes).
    pub fn to_base64(&self) -> [u8; 22] {
        let value = self.as_u128();
        let mut out = [0u8; 22];
        // 21 characters of 6 bits (126 bits), then the last 2 bits padded with 4 zero bits.
        for (i, c) in out.iter_mut().take(21).enumerate() {
            *c = BASE64_URL[((value >> (122 - 6 * i)) & 63) as usize];
        }
        out[21] = BASE64_URL[((value & 3) << 4) as usize];
        out
    }

    /// The RFC 4122 form: 32 lowercase hex digits in groups of 8-4-4-4-12,
    /// e.g. `01020304-0506-0708-090a-0b0c0d0e0f10`.
    pub fn to_rfc_string(&self) -> String {
        let mut out = String::with_capacity(36);
        for (i, b) in self.0.iter().enumerate() {
            if matches!(i, 4 | 6 | 8 | 10) {
                out.push('-');
            }
            out.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
            out.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
        }
        out
    }

    /// Parses the RFC 4122 form: 32 hex digits (either case) in groups of
    /// 8-4-4-4-12 separated by `-`, 36 characters, nothing around them.
    ///
    /// # Errors
    /// [`ParseUuidError::WrongLength`] for text that is not 36 bytes long,
    /// [`ParseUuidError::InvalidCharacter`] for a character other than a hex
    /// digit where one belongs, or other than `-` between the groups.
    pub fn from_rfc_string(text: &str) -> Result<Uuid, ParseUuidError> {
        let bytes = text.as_bytes();
        if bytes.len() != 36 {
            return Err(ParseUuidError::WrongLength { len: bytes.len(), form: "RFC 4122", expected: "36" });
        }
        let mut value = 0u128;
        for (position, &c) in bytes.iter().enumerate() {
            if matches!(position, 8 | 13 | 18 | 23) {
                if c != b'-' {
                    let character = char_at(text, position);
                    return Err(ParseUuidError::InvalidCharacter { character, position, alphabet: "-" });
                }
                continue;
            }
            let Some(digit) = char::from(c).to_digit(16) else {
                let character = char_at(text, position);
                return Err(ParseUuidError::InvalidCharacter { character, position, alphabet: "hex digit" });
            };
            value = (value << 4) | u128::from(digit);
        }
        Ok(Uuid::from_u128(value))
    }

    /// Parses Kafka's text form, accepting what Kafka's `Uuid.fromString`
    /// accepts: 22 characters of URL-safe base64, optionally followed by the
    /// padding `==`. As in Kafka, the 4 bits the last character carries
    /// beyond the 16 bytes are ignored, so `AAAAAAAAAAAAAAAAAAAAAB` is the
    /// nil uuid too. The same as `text.parse::<Uuid>()`.
    ///
    /// # Errors
    /// [`ParseUuidError::TooLong`] beyond 24 bytes,
    /// [`ParseUuidError::InvalidCharacter`] for a character outside URL-safe
    /// base64 (`+` and `/` of standard base64 included),
    /// [`ParseUuidError::BadPadding`] for a misplaced `=`, and
    /// [`ParseUuidError::WrongLength`] for base64 that is not 16 bytes.
    pub fn from_base64(text: &str) -> Result<Uuid, ParseUuidError> {
        let bytes = text.as_bytes();
        if bytes.len() > 24 {
            return Err(ParseUuidError::TooLong { len: bytes.len() });
        }
        let digits = bytes.strip_suffix(b"==").unwrap_or(bytes);
        let mut value = 0u128;
        for (position, &c) in digits.iter().enumerate() {
            let Some(six) = sextet(c) else {
                if c == b'=' {
                    return Err(ParseUuidError::BadPadding { position });
                }
                let character = char_at(text, position);
                return Err(ParseUuidError::InvalidCharacter { character, position, alphabet: "URL-safe base64" });
            };
            // Only the first 128 of the 132 bits count.
            value = match position {
                0..=20 => (value << 6) | u128::from(six),
                _ => (value << 2) | u128::from(six >> 4),
            };
        }
        if digits.len() != 22 {
            return Err(ParseUuidError::WrongLength {
                len: digits.len(),
                form: "base64",
                expected: "22, or 24 with `==`",
            });
        }
        Ok(Uuid::from_u128(value))
    }
}

/// Kafka's text form: URL-safe base64 without padding (see [`Uuid::to_base64`]).
impl fmt::Display for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.to_base64();
        f.pad(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

/// Kafka's text form, as Kafka's `Uuid.fromString` reads it (see [`Uuid::from_base64`]).
impl FromStr for Uuid {
    type Err = ParseUuidError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Uuid::from_base64(text)
    }
}

impl fmt::Debug for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Uuid({self})")
    }
}

/// The same 16 bytes (both types keep RFC 4122 byte order).
#[cfg(feature = "uuid")]
impl From<uuid::Uuid> for Uuid {
    fn from(id: uuid::Uuid) -> Self {
        Uuid(id.into_bytes())
    }
}

/// The same 16 bytes (both types keep RFC 4122 byte order).
#[cfg(feature = "uuid")]
impl From<Uuid> for uuid::Uuid {
    fn from(id: Uuid) -> Self {
        uuid::Uuid::from_bytes(id.0)
    }
}

impl Encode for Uuid {
    #[inline]
    fn encode_value(&self, buf: &mut Writer<'_>, _: i16, _: bool) -> Result<(), EncodeError> {
        buf.put_slice(&self.0);
        Ok(())
    }

    #[inline]
    fn value_size(&self, _: i16, _: bool) -> usize {
        16
    }
}

impl<B: Input> Decode<B> for Uuid {
    const MIN_SIZE: usize = 16;

    #[inline]
    fn decode_value(r: &mut Reader<B>, _: i16, _: bool) -> Result<Self, DecodeError> {
        r.read_array().map(Uuid)
    }

    #[inline]
    fn decode_value_into(&mut self, r: &mut Reader<B>, _: i16, _: bool) -> Result<(), DecodeError> {
        self.0 = r.read_array()?;
        Ok(())
    }
}

impl Fixed for Uuid {
    const SIZE: usize = 16;

    #[inline]
    fn from_chunk(chunk: &[u8]) -> Self {
        Uuid(chunk.first_chunk().copied().unwrap_or_default())
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn write(self, out: &mut [MaybeUninit<u8>]) {
        super::fixed::write_bytes(out, &self.0);
    }

    #[inline]
    fn put(self, buf: &mut Writer<'_>) {
        buf.put_slice(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::{ParseUuidError, Uuid};

    // Expected texts computed apart from this code, with Python:
    // base64.urlsafe_b64encode(b).rstrip(b"=") and str(uuid.UUID(bytes=b)).
    const CASES: [(u128, &str, &str); 4] = [
        (0x0102030405060708090a0b0c0d0e0f10, "AQIDBAUGBwgJCgsMDQ4PEA", "01020304-0506-0708-090a-0b0c0d0e0f10"),
        (0xf81d4fae7dec11d0a76500a0c91e6bf6, "-B1Prn3sEdCnZQCgyR5r9g", "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"),
        (u128::MAX, "_____________________w", "ffffffff-ffff-ffff-ffff-ffffffffffff"),
        (0, "AAAAAAAAAAAAAAAAAAAAAA", "00000000-0000-0000-0000-000000000000"),
    ];

    #[test]
    fn base64_both_ways() {
        for (value, base64, _) in CASES {
            let id = Uuid::from_u128(value);
            assert_eq!(id.to_string(), base64);
            assert_eq!(base64.parse::<Uuid>(), Ok(id), "{base64}");
            assert_eq!(format!("{base64}==").parse::<Uuid>(), Ok(id), "{base64}== (padded)");
        }
        assert_eq!(format!("{:>24}", Uuid::NIL), "  AAAAAAAAAAAAAAAAAAAAAA");
    }

    #[test]
    fn rfc_both_ways() {
        for (value, _, rfc) in CASES {
            let id = Uuid::from_u128(value);
            assert_eq!(id.to_rfc_string(), rfc);
            assert_eq!(Uuid::from_rfc_string(rfc), Ok(id));
            assert_eq!(Uuid::from_rfc_string(&rfc.to_uppercase()), Ok(id));
        }
        assert!(matches!(
            Uuid::from_rfc_string("0102030405060708090a0b0c0d0e0f10"),
            Err(ParseUuidError::WrongLength { len: 32, .. })
        ));
        assert_eq!(
            Uuid::from_rfc_string("01020304_0506-0708-090a-0b0c0d0e0f10"),
            Err(ParseUuidError::InvalidCharacter { character: '_', position: 8, alphabet: "-" })
        );
        assert_eq!(
            Uuid::from_rfc_string("01020304-0506-0708-090a-0b0c0d0e0f1g"),
            Err(ParseUuidError::InvalidCharacter { character: 'g', position: 35, alphabet: "hex digit" })
        );
        assert!(Uuid::from_rfc_string("+1020304-0506-0708-090a-0b0c0d0e0f10").is_err());
        assert!(Uuid::from_rfc_string("é1020304-0506-0708-090a-0b0c0d0e0f1").is_err());
    }

    /// What Kafka 4.4's `Uuid.fromString` accepts and refuses, input by input
    /// (run against kafka-clients 4.4.0).
    #[test]
    fn parses_what_kafka_parses() {
        // The 4 bits beyond the 16 bytes are ignored.
        assert_eq!("AAAAAAAAAAAAAAAAAAAAAB".parse::<Uuid>(), Ok(Uuid::NIL));
        assert_eq!("AAAAAAAAAAAAAAAAAAAAAP".parse::<Uuid>(), Ok(Uuid::NIL));
        assert_eq!("AAAAAAAAAAAAAAAAAAAAAQ".parse::<Uuid>(), Ok(Uuid::from_u128(1)));
        let refused = |text: &str| text.parse::<Uuid>().err();
        assert_eq!(refused("AAAAAAAAAAAAAAAAAAAAAA="), Some(ParseUuidError::BadPadding { position: 22 }));
        assert_eq!(refused("AAAAAAAAAAAAAAAAAAAAAA=A"), Some(ParseUuidError::BadPadding { position: 22 }));
        assert!(matches!(refused("AAAAAAAAAAAAAAAAAAAA=="), Some(ParseUuidError::WrongLength { len: 20, .. })));
        assert!(matches!(refused("AAAAAAAAAAAAAAAAAAAAA"), Some(ParseUuidError::WrongLength { len: 21, .. })));
        assert!(matches!(refused("AAAAAAAAAAAAAAAAAAAAAAA"), Some(ParseUuidError::WrongLength { len: 23, .. })));
        assert!(matches!(refused(""), Some(ParseUuidError::WrongLength { len: 0, .. })));
        assert_eq!(refused(&"_".repeat(25)), Some(ParseUuidError::TooLong { len: 25 }));
        for (text, character, position) in [
            ("AAAAAAAAAAAAAAAAAAAAA/", '/', 21),
            ("AAAAAAAAAAAAAAAAAAAAA+", '+', 21),
            (" AAAAAAAAAAAAAAAAAAAAA", ' ', 0),
        ] {
            assert_eq!(
                refused(text),
                Some(ParseUuidError::InvalidCharacter { character, position, alphabet: "URL-safe base64" })
            );
        }
        assert_eq!(
            refused("AAAAAAAAAAAAAAAAAAAAéA"),
            Some(ParseUuidError::InvalidCharacter { character: 'é', position: 20, alphabet: "URL-safe base64" })
        );
        // The RFC form is not Kafka's text form.
        assert!(refused("01020304-0506-0708-090a-0b0c0d0e0f10").is_some());
    }

    #[test]
    fn every_bit_survives_base64() {
        for bit in 0..128 {
            let id = Uuid::from_u128(1u128 << bit);
            assert_eq!(id.to_string().parse::<Uuid>(), Ok(id), "bit {bit}");
        }
    }

    #[cfg(feature = "uuid")]
    #[test]
    fn converts_with_the_uuid_crate() {
        let theirs = uuid::Uuid::parse_str("f81d4fae-7dec-11d0-a765-00a0c91e6bf6").expect("valid");
        let ours = Uuid::from(theirs);
        assert_eq!(ours, Uuid::from_u128(0xf81d4fae7dec11d0a76500a0c91e6bf6));
        assert_eq!(ours.to_string(), "-B1Prn3sEdCnZQCgyR5r9g");
        assert_eq!(uuid::Uuid::from(ours), theirs);
        assert_eq!(ours.to_rfc_string(), theirs.to_string());
    }

    /// The text of every variant, as users match on it.
    #[test]
    fn error_texts() {
        let cases = [
            ("x".repeat(25).parse::<Uuid>().err(), "25 characters is too long for a base64 uuid (at most 24)"),
            ("AAAA+AAAAAAAAAAAAAAAAA".parse::<Uuid>().err(), "'+' at byte 4 is not a URL-safe base64 character"),
            ("AAAAAAAAAAAAAAAAAAAAAA=".parse::<Uuid>().err(), "misplaced base64 padding at byte 22"),
            (
                "AAAAAAAAAAAAAAAAAAAAA".parse::<Uuid>().err(),
                "21 characters is not the length of a base64 uuid (22, or 24 with `==`)",
            ),
            (Uuid::from_rfc_string("0102").err(), "4 characters is not the length of a RFC 4122 uuid (36)"),
            (
                Uuid::from_rfc_string("01020304-0506-0708-090a-0b0c0d0e0f1g").err(),
                "'g' at byte 35 is not a hex digit character",
            ),
        ];
        for (err, text) in cases {
            let err = err.expect(text);
            assert_eq!(err.to_string(), text);
            assert!(std::error::Error::source(&err).is_none());
        }
    }
}
