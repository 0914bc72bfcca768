//! Fields that carry secrets, shown without them.
//!
//! The schema compiler marks some string and bytes fields sensitive (its
//! `Builder::sensitive_fields`; kwire's own choice is the
//! `sensitive_fields` of `kafka-facts.json`: SASL auth bytes, SCRAM
//! salts and salted passwords, delegation-token HMACs). The generated
//! `Debug` of a struct prints such a field through [`Redacted`], which
//! shows whether it is null and its length in bytes, never its content;
//! the JSON form (feature `json`) writes it as the string
//! `"<redacted N bytes>"` unless asked otherwise
//! (`json::JsonOptions::unredacted`).
//!
//! # Example
//! ```
//! use kwire::messages::SaslAuthenticateRequest;
//! let request = SaslAuthenticateRequest { auth_bytes: kwire::Bytes::from_static(b"\0alice\0secret"), ..Default::default() };
//! assert_eq!(format!("{request:?}"), "SaslAuthenticateRequest { auth_bytes: <redacted 13 bytes>, unknown_tagged_fields: [] }");
//! ```

use std::fmt;

use bytes::Bytes;

/// A value that can be shown redacted: a string or bytes, or null.
pub trait Sensitive {
    /// Its length in bytes, or `None` for null.
    fn redacted_len(&self) -> Option<usize>;
}

impl Sensitive for [u8] {
    fn redacted_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl Sensitive for str {
    fn redacted_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl Sensitive for Bytes {
    fn redacted_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl Sensitive for crate::ByteString {
    fn redacted_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<T: Sensitive + ?Sized> Sensitive for &T {
    fn redacted_len(&self) -> Option<usize> {
        (**self).redacted_len()
    }
}

impl<T: Sensitive> Sensitive for Option<T> {
    fn redacted_len(&self) -> Option<usize> {
        self.as_ref().and_then(Sensitive::redacted_len)
    }
}

/// The text that stands for a sensitive value of `len` bytes.
pub fn redacted_text(len: usize) -> String {
    format!("<redacted {len} bytes>")
}

/// A sensitive field as `Debug` shows it: `<redacted N bytes>`, or `None`
/// for null.
///
/// ```
/// use kwire::redact::Redacted;
/// assert_eq!(format!("{:?}", Redacted(&kwire::Bytes::from_static(b"hunter2"))), "<redacted 7 bytes>");
/// assert_eq!(format!("{:?}", Redacted(&None::<kwire::ByteString>)), "None");
/// ```
pub struct Redacted<'a, T: ?Sized>(pub &'a T);

impl<T: Sensitive + ?Sized> fmt::Debug for Redacted<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.redacted_len() {
            Some(len) => write!(f, "<redacted {len} bytes>"),
            None => f.write_str("None"),
        }
    }
}
