//! One record of a v2 batch, and its headers.
//!
//! ```text
//! length            varint   bytes after this field
//! attributes        int8     unused, 0
//! timestamp_delta   varlong  timestamp - batch base_timestamp, ms
//! offset_delta      varint   offset - batch base_offset
//! key_length        varint   -1 for null
//! key               bytes
//! value_length      varint   -1 for null
//! value             bytes
//! header_count      varint
//! headers           header_count x (key_length varint, key bytes (UTF-8),
//!                                   value_length varint (-1 null), value bytes)
//! ```
//!
//! Varints here are zig-zag (`-1 -> 01`, `1 -> 02`). Source: Kafka's record
//! format v2 (KIP-98), headers from KIP-82.

use bytes::{BufMut, Bytes};

use super::error::{At, Location, RecordError, RecordErrorKind};
use crate::error::DecodeErrorKind;
use crate::primitives::varint::{put_varint, put_varlong, varint_len, varlong_len};
use crate::primitives::Reader;

/// Fewest bytes a record takes, length prefix included: seven one-byte
/// fields (length, attributes, both deltas, null key, null value, no headers).
pub const MIN_RECORD_SIZE: usize = 7;

/// Fewest bytes a header takes: an empty key and a null value.
const MIN_HEADER_SIZE: usize = 2;

/// A record header (KIP-82): a key string and a value that may be null.
///
/// The key is kept as the bytes on the wire (Kafka writes UTF-8); use
/// [`Header::key_str`] to read it as text. Headers keep their order and
/// duplicates in [`Record::headers`].
///
/// # Example
/// ```
/// use kwire::records::Header;
/// let h = Header::new("trace", Some("abc".into()));
/// assert_eq!(h.key_str(), Ok("trace"));
/// assert_eq!(h.value.as_deref(), Some(&b"abc"[..]));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Header {
    /// The key: varint length (never null) and UTF-8 bytes.
    pub key: Bytes,
    /// The value: varint length (-1 for null) and bytes.
    pub value: Option<Bytes>,
}

impl Header {
    /// A header with `key` and `value`.
    pub fn new(key: impl Into<Bytes>, value: Option<Bytes>) -> Self {
        Self { key: key.into(), value }
    }

    /// The key as text.
    ///
    /// # Errors
    /// When the key is not UTF-8.
    pub fn key_str(&self) -> Result<&str, std::str::Utf8Error> {
        std::str::from_utf8(&self.key)
    }
}

/// One record of a v2 batch, as on the wire: offset and timestamp are
/// deltas from the batch's base values (see
/// [`BatchHeader::offset_of`](super::BatchHeader::offset_of) and
/// [`BatchHeader::timestamp_of`](super::BatchHeader::timestamp_of)).
///
/// Decoded from an uncompressed batch, `key`, `value` and header keys and
/// values are slices of the input; from a compressed one, slices of the
/// batch's single decompressed buffer.
///
/// # Example
/// ```
/// use bytes::Bytes;
/// use kwire::primitives::Reader;
/// use kwire::records::{Location, Record};
/// let record = Record::new(None, Some(Bytes::from_static(b"")))
///     .with_header("h", None);
/// let mut buf = Vec::new();
/// record.encode(&mut buf).unwrap();
/// // length 9, attributes, ts delta 0, offset delta 0, key null, value "",
/// // 1 header: key "h", value null
/// assert_eq!(buf, [0x12, 0x00, 0x00, 0x00, 0x01, 0x00, 0x02, 0x02, 0x68, 0x01]);
/// let mut r = Reader::new(Bytes::from(buf));
/// assert_eq!(Record::decode_from(&mut r, Location::default()).unwrap(), record);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Record {
    /// Record attributes: unused by Kafka, written as 0.
    pub attributes: i8,
    /// Timestamp minus the batch's base timestamp, in milliseconds.
    pub timestamp_delta: i64,
    /// Offset minus the batch's base offset.
    pub offset_delta: i32,
    /// The key; `None` is null, distinct from empty.
    pub key: Option<Bytes>,
    /// The value; `None` is null (a tombstone), distinct from empty.
    pub value: Option<Bytes>,
    /// Headers in wire order, duplicates and null values kept.
    pub headers: Vec<Header>,
}

impl Record {
    /// A record with `key` and `value`, both deltas 0 and no headers.
    pub fn new(key: Option<Bytes>, value: Option<Bytes>) -> Self {
        Self { key, value, ..Self::default() }
    }

    /// The same record with one more header.
    #[must_use]
    pub fn with_header(mut self, key: impl Into<Bytes>, value: Option<Bytes>) -> Self {
        self.headers.push(Header::new(key, value));
        self
    }

    /// Bytes after the length prefix.
    ///
    /// # Errors
    /// [`RecordErrorKind::TooLarge`] when a length or the header count does not
    /// fit the format's int32 varints.
    pub fn body_size(&self) -> Result<usize, RecordError> {
        let mut n = 1
            + varlong_len(self.timestamp_delta)
            + varint_len(self.offset_delta)
            + nullable_len("key", self.key.as_deref())?
            + nullable_len("value", self.value.as_deref())?
            + varint_len(to_i32("header count", self.headers.len())?);
        for h in &self.headers {
            n += nullable_len("header key", Some(&h.key))? + nullable_len("header value", h.value.as_deref())?;
        }
        to_i32("record", n)?;
        Ok(n)
    }

    /// Bytes [`Record::encode`] writes, length prefix included.
    ///
    /// # Errors
    /// As [`Record::body_size`].
    pub fn encoded_size(&self) -> Result<usize, RecordError> {
        let body = self.body_size()?;
        Ok(varint_len(body as i32) + body)
    }

    /// Appends the record: varint length, then its fields (see the module docs).
    ///
    /// # Errors
    /// As [`Record::body_size`]; nothing is written then.
    pub fn encode(&self, buf: &mut impl BufMut) -> Result<(), RecordError> {
        let body = self.body_size()?;
        put_varint(buf, body as i32);
        buf.put_i8(self.attributes);
        put_varlong(buf, self.timestamp_delta);
        put_varint(buf, self.offset_delta);
        put_nullable(buf, self.key.as_deref());
        put_nullable(buf, self.value.as_deref());
        put_varint(buf, self.headers.len() as i32);
        for h in &self.headers {
            put_nullable(buf, Some(&h.key));
            put_nullable(buf, h.value.as_deref());
        }
        Ok(())
    }

    /// Reads one record; key, value and header bytes share `r`'s memory.
    ///
    /// # Errors
    /// [`RecordErrorKind::Decode`] at `at` with the field named, when the input
    /// ends early, a length is below -1, a header key is null, the header
    /// count is negative or more than the record's bytes can hold, or the
    /// fields do not fill exactly the record's declared length.
    pub fn decode_from(r: &mut Reader, at: Location) -> Result<Self, RecordError> {
        let len = r.read_varint().at(at.field("length"))?;
        if len < 0 {
            return Err(r.error(DecodeErrorKind::InvalidLength(len as i64))).at(at.field("length"));
        }
        let mut body = r.sub_reader(len as usize).at(at.field("length"))?;
        let attributes = body.read_i8().at(at.field("attributes"))?;
        let timestamp_delta = body.read_varlong().at(at.field("timestamp_delta"))?;
        let offset_delta = body.read_varint().at(at.field("offset_delta"))?;
        let key = read_nullable(&mut body).at(at.field("key"))?;
        let value = read_nullable(&mut body).at(at.field("value"))?;
        let count = body.read_varint().at(at.field("header_count"))?;
        if count < 0 {
            return Err(body.error(DecodeErrorKind::Invalid("negative header count"))).at(at.field("header_count"));
        }
        body.check_count(count as usize, MIN_HEADER_SIZE).at(at.field("header_count"))?;
        let mut headers = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let key = match read_nullable(&mut body).at(at.field("header key"))? {
                Some(key) => key,
                None => {
                    return Err(body.error(DecodeErrorKind::NullNotAllowed)).at(at.field("header key"));
                }
            };
            let value = read_nullable(&mut body).at(at.field("header value"))?;
            headers.push(Header { key, value });
        }
        body.finish().at(at.field("length"))?;
        Ok(Self { attributes, timestamp_delta, offset_delta, key, value, headers })
    }
}

/// Reads varint length (-1 null) and bytes.
fn read_nullable(r: &mut Reader) -> Result<Option<Bytes>, crate::error::DecodeError> {
    match r.read_varint()? {
        -1 => Ok(None),
        n if n < 0 => Err(r.error(DecodeErrorKind::InvalidLength(n as i64))),
        n => r.read_bytes(n as usize).map(Some),
    }
}

fn put_nullable(buf: &mut impl BufMut, bytes: Option<&[u8]>) {
    match bytes {
        None => put_varint(buf, -1),
        Some(b) => {
            put_varint(buf, b.len() as i32);
            buf.put_slice(b);
        }
    }
}

fn nullable_len(what: &'static str, bytes: Option<&[u8]>) -> Result<usize, RecordError> {
    Ok(match bytes {
        None => 1,
        Some(b) => varint_len(to_i32(what, b.len())?) + b.len(),
    })
}

/// `len` as an int32, or [`RecordErrorKind::TooLarge`] naming `what`.
pub(crate) fn to_i32(what: &'static str, len: usize) -> Result<i32, RecordError> {
    i32::try_from(len).map_err(|_| RecordError::from(RecordErrorKind::TooLarge { what, len }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> Result<Record, RecordError> {
        Record::decode_from(&mut Reader::new(Bytes::copy_from_slice(bytes)), Location::batch(0).record(0))
    }

    #[test]
    fn duplicate_headers_and_null_values_keep_order() {
        let record = Record::new(Some("k".into()), None)
            .with_header("a", Some("1".into()))
            .with_header("a", None)
            .with_header("b", Some("".into()))
            .with_header("a", Some("2".into()));
        let mut buf = Vec::new();
        record.encode(&mut buf).unwrap();
        assert_eq!(buf.len(), record.encoded_size().unwrap());
        let back = decode(&buf).unwrap();
        let pairs: Vec<_> = back.headers.iter().map(|h| (h.key_str().unwrap(), h.value.as_deref())).collect();
        assert_eq!(pairs, [("a", Some(&b"1"[..])), ("a", None), ("b", Some(&b""[..])), ("a", Some(&b"2"[..]))]);
        assert_eq!(back.value, None);
    }

    #[test]
    fn bad_records_are_errors() {
        // Header count 63 with 3 bytes left in the record.
        let err = decode(&[0x12, 0x00, 0x00, 0x00, 0x01, 0x00, 0x7e, 0x02, 0x68, 0x01]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "batch at offset 0, record 0, header_count: count 63 but 3 bytes remain (offset 7)"
        );
        // Negative header count.
        let err = decode(&[0x0c, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]).unwrap_err();
        assert!(err.to_string().contains("negative header count"), "{err}");
        // Null header key.
        let err = decode(&[0x10, 0x00, 0x00, 0x00, 0x01, 0x00, 0x02, 0x01, 0x01]).unwrap_err();
        assert!(err.to_string().contains("header key: null"), "{err}");
        // Key length -2.
        let err = decode(&[0x0c, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00]).unwrap_err();
        assert!(err.to_string().contains("key: invalid length -2"), "{err}");
        // Negative record length, and a length past the input.
        assert!(decode(&[0x01]).unwrap_err().to_string().contains("length: invalid length -1"));
        assert!(decode(&[0x14, 0x00]).unwrap_err().to_string().contains("need 10 bytes, have 1"));
        // A length larger than the fields use.
        let err = decode(&[0x0e, 0x00, 0x00, 0x00, 0x01, 0x01, 0x00, 0xff]).unwrap_err();
        assert!(err.to_string().contains("1 bytes left over"), "{err}");
    }
}
