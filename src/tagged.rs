//! The tagged-field section (KIP-482) that ends every struct in a flexible
//! version:
//!
//! ```text
//! uvarint count
//! count × { uvarint tag, uvarint size, size bytes of value }
//! ```
//!
//! Known tags of a struct are `0..n`; anything else is kept as a
//! [`RawTaggedField`] and written back unchanged, in tag order. As Kafka
//! does, a decoder reads known tags in any order and keeps the last value
//! of a repeated one; unknown tags must ascend, since they are written back
//! as read.

//!
//! Generated code reads and writes the section through the crate's hidden
//! `encoding` module; this module holds what users see of it.

use bytes::Bytes;

/// A tagged field this schema does not know, kept as its tag and raw bytes:
/// a [`Bytes`] in owned values, a `&'a [u8]` of the input in borrowed views.
///
/// # Example
/// ```
/// use kwire::tagged::RawTaggedField;
/// let f = RawTaggedField::new(1000, bytes::Bytes::from_static(&[1, 2, 3]));
/// assert_eq!((f.tag, &f.data[..]), (1000, &[1u8, 2, 3][..]));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RawTaggedField<D = Bytes> {
    /// The tag number.
    pub tag: u32,
    /// The value's bytes, without tag or size.
    pub data: D,
}

impl<D> RawTaggedField<D> {
    /// A raw field with `tag` and `data`.
    pub fn new(tag: u32, data: D) -> Self {
        Self { tag, data }
    }
}

/// The largest tag a tagged field may have: 2^31 - 2. Kafka reads tags into
/// a signed 32-bit number and refuses 2^31 - 1 and above (checked against
/// Kafka's own classes by interop/tests/oracle.rs), so kwire neither reads nor
/// writes them.
pub const MAX_TAG: u32 = (i32::MAX - 1) as u32;
