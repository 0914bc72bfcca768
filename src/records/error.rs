//! [`RecordError`]: what went wrong in the record layer, and where
//! ([`Location`]: batch base offset, record index, field).

use std::fmt;

use super::compression_type::Compression;
use crate::error::DecodeError;

/// Where in a record set a problem was found.
///
/// Every part is optional: a batch whose base offset could not be read
/// has none, an error in a batch header has no record index.
///
/// # Example
/// ```
/// use kwire::records::Location;
/// let at = Location::batch(42).record(3).field("value");
/// assert_eq!(at.to_string(), "batch at offset 42, record 3, value");
/// assert_eq!(Location::default().to_string(), "record set");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Location {
    /// Base offset of the v2 batch, or offset of the legacy message, when it
    /// could be read.
    pub base_offset: Option<i64>,
    /// Index of the record inside its batch (or of the inner message inside
    /// a legacy wrapper), counting from 0.
    pub record: Option<usize>,
    /// The field being read or checked, e.g. `"crc"`, `"key"`, `"headers[1].value"`.
    pub field: Option<&'static str>,
}

impl Location {
    /// The batch (or legacy message) whose base offset is `base_offset`.
    pub const fn batch(base_offset: i64) -> Self {
        Self { base_offset: Some(base_offset), record: None, field: None }
    }

    /// The same place, narrowed to record `index`.
    #[must_use]
    pub const fn record(mut self, index: usize) -> Self {
        self.record = Some(index);
        self
    }

    /// The same place, narrowed to `field`.
    #[must_use]
    pub const fn field(mut self, field: &'static str) -> Self {
        self.field = Some(field);
        self
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        if let Some(offset) = self.base_offset {
            write!(f, "batch at offset {offset}")?;
            sep = ", ";
        }
        if let Some(index) = self.record {
            write!(f, "{sep}record {index}")?;
            sep = ", ";
        }
        if let Some(field) = self.field {
            write!(f, "{sep}{field}")?;
            sep = ", ";
        }
        if sep.is_empty() {
            f.write_str("record set")?;
        }
        Ok(())
    }
}

/// What went wrong in the record layer.
///
/// # Example
/// ```
/// use kwire::records::RecordErrorKind;
/// let kind = RecordErrorKind::CrcMismatch { stored: 0x2a7198a5, computed: 0 };
/// assert_eq!(kind.to_string(), "CRC mismatch: stored 0x2a7198a5, computed 0x00000000");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecordErrorKind {
    /// The bytes end early or a varint, length or count breaks the encoding.
    Decode {
        /// The wire-level error, with its byte offset.
        source: DecodeError,
    },
    /// A value that decodes but breaks a rule of the record format.
    Invalid {
        /// The rule that was broken.
        what: &'static str,
    },
    /// The stored checksum does not match the bytes: CRC-32C over attributes
    /// to the end for magic 2, IEEE CRC-32 over magic to the end for magic 0 and 1.
    CrcMismatch {
        /// The checksum on the wire.
        stored: u32,
        /// The checksum of the bytes.
        computed: u32,
    },
    /// A magic byte other than 0, 1 or 2.
    UnsupportedMagic {
        /// The magic byte read.
        magic: i8,
    },
    /// Compression bits (attributes bits 0-2) that name no codec: 5, 6 or 7,
    /// or zstd (4) in a legacy message.
    UnknownCompression {
        /// Attributes bits 0-2.
        codec: u8,
    },
    /// A codec whose cargo feature is not enabled.
    CompressionUnavailable {
        /// The codec.
        compression: Compression,
    },
    /// Compressed data the codec rejects.
    Decompress {
        /// The codec.
        compression: Compression,
        /// The codec's own message.
        message: String,
    },
    /// Decompressed data larger than [`DecodeOptions::max_decompressed_size`](super::DecodeOptions::max_decompressed_size).
    DecompressedTooLarge {
        /// The limit in force, in bytes.
        limit: usize,
    },
    /// Decompressed data that, with what the other entries of the same
    /// [`Batches`](super::Batches) decompressed to before, is larger than
    /// [`DecodeOptions::max_total_decompressed_size`](super::DecodeOptions::max_total_decompressed_size).
    TotalDecompressedTooLarge {
        /// The limit in force for the whole `records` field, in bytes.
        limit: usize,
    },
    /// A batch cut off at the end of the input, as a broker sends when a
    /// Fetch response reaches its size limit. Only reported when
    /// [`DecodeOptions::reject_partial_batch`](super::DecodeOptions::reject_partial_batch) is set.
    PartialBatch {
        /// Bytes the batch needs, including its 12-byte offset and length prefix.
        needed: usize,
        /// Bytes left in the input.
        available: usize,
    },
    /// A value too large for the record format (lengths are int32 or varint).
    /// An encoding error: it has no [`Location`].
    TooLarge {
        /// What was too large: `"key"`, `"batch"`, `"record count"` ...
        what: &'static str,
        /// Its size.
        len: usize,
    },
    /// The codec failed while compressing. An encoding error: it has no
    /// [`Location`].
    Compress {
        /// The codec.
        compression: Compression,
        /// The codec's own message.
        message: String,
    },
}

impl fmt::Display for RecordErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Decode { source } => write!(f, "{source}"),
            Self::Invalid { what } => f.write_str(what),
            Self::CrcMismatch { stored, computed } => {
                write!(f, "CRC mismatch: stored {stored:#010x}, computed {computed:#010x}")
            }
            Self::UnsupportedMagic { magic } => write!(f, "magic {magic} is not a known record format"),
            Self::UnknownCompression { codec } => write!(f, "compression codec {codec} is not valid here"),
            Self::CompressionUnavailable { compression } => {
                write!(f, "{compression} support is not built in (cargo feature `{}`)", compression.name())
            }
            Self::Decompress { compression, message } => write!(f, "corrupt {compression} data: {message}"),
            Self::DecompressedTooLarge { limit } => {
                write!(f, "decompressed data exceeds the limit of {limit} bytes")
            }
            Self::TotalDecompressedTooLarge { limit } => {
                write!(f, "decompressed data of the records field exceeds its limit of {limit} bytes in all")
            }
            Self::PartialBatch { needed, available } => {
                write!(f, "partial batch: {needed} bytes declared, {available} present")
            }
            Self::TooLarge { what, len } => write!(f, "{what} of {len} bytes or items is too large to encode"),
            Self::Compress { compression, message } => write!(f, "{compression} compression failed: {message}"),
        }
    }
}

/// A failure to read or write record batches or legacy message sets: a
/// [`RecordErrorKind`] and, for decoding errors, the [`Location`] where it
/// was found.
///
/// Byte offsets inside a [`RecordErrorKind::Decode`] count from the start
/// of the batch (for an uncompressed batch) or of the decompressed records
/// (for a compressed one).
///
/// Displayed as `{location}: {kind}`, or as the kind alone for the
/// encoding errors ([`RecordErrorKind::TooLarge`] and
/// [`RecordErrorKind::Compress`]), which have no location.
///
/// Boxed inside so that `Result<T, RecordError>` stays one word bigger than `T`.
///
/// # Example
/// ```
/// use kwire::records::{Location, RecordError, RecordErrorKind};
/// let err = RecordError::new(RecordErrorKind::CrcMismatch { stored: 0x2a7198a5, computed: 0 }, Location::batch(7).field("crc"));
/// assert_eq!(err.to_string(), "batch at offset 7, crc: CRC mismatch: stored 0x2a7198a5, computed 0x00000000");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct RecordError(Box<RecordInner>);

#[derive(Clone, PartialEq, Eq)]
struct RecordInner {
    kind: RecordErrorKind,
    at: Option<Location>,
}

impl RecordError {
    /// An error of `kind` found at `at`.
    ///
    /// ```
    /// use kwire::records::{Location, RecordError, RecordErrorKind};
    /// let err = RecordError::new(RecordErrorKind::UnsupportedMagic { magic: 3 }, Location::batch(0).field("magic"));
    /// assert_eq!(err.to_string(), "batch at offset 0, magic: magic 3 is not a known record format");
    /// ```
    #[cold]
    pub fn new(kind: RecordErrorKind, at: Location) -> Self {
        Self(Box::new(RecordInner { kind, at: Some(at) }))
    }

    /// What went wrong.
    ///
    /// ```
    /// use kwire::records::{RecordBatch, RecordErrorKind};
    /// let err = RecordBatch::parse(kwire::Bytes::from_static(&[0; 16])).unwrap_err();
    /// assert!(matches!(err.kind(), RecordErrorKind::Decode { .. }));
    /// ```
    pub fn kind(&self) -> &RecordErrorKind {
        &self.0.kind
    }

    /// Where the error was found: `None` for the encoding errors
    /// ([`RecordErrorKind::TooLarge`] and [`RecordErrorKind::Compress`]).
    ///
    /// ```
    /// use kwire::records::{Location, RecordError, RecordErrorKind};
    /// let at = Location::batch(42).record(3).field("key");
    /// let err = RecordError::new(RecordErrorKind::Invalid { what: "negative length" }, at);
    /// assert_eq!(err.location(), Some(&at));
    /// let err = RecordError::from(RecordErrorKind::TooLarge { what: "key", len: 1 << 31 });
    /// assert_eq!(err.location(), None);
    /// ```
    pub fn location(&self) -> Option<&Location> {
        self.0.at.as_ref()
    }

    /// Fills in the parts of the location that are still unknown.
    #[cold]
    #[must_use]
    pub(crate) fn within(mut self, outer: Location) -> Self {
        if let Some(at) = &mut self.0.at {
            at.base_offset = at.base_offset.or(outer.base_offset);
            at.record = at.record.or(outer.record);
            at.field = at.field.or(outer.field);
        }
        self
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(at) = &self.0.at {
            write!(f, "{at}: ")?;
        }
        write!(f, "{}", self.0.kind)
    }
}

impl fmt::Debug for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RecordError({self})")
    }
}

impl std::error::Error for RecordError {
    /// The wire-level [`DecodeError`] of a [`RecordErrorKind::Decode`].
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.kind {
            RecordErrorKind::Decode { source } => Some(source),
            _ => None,
        }
    }
}

impl From<RecordErrorKind> for RecordError {
    /// An error without a location: how the encoding errors
    /// ([`RecordErrorKind::TooLarge`], [`RecordErrorKind::Compress`]) are made.
    ///
    /// ```
    /// use kwire::records::{RecordError, RecordErrorKind};
    /// let err = RecordError::from(RecordErrorKind::TooLarge { what: "key", len: 1 << 31 });
    /// assert_eq!(err.to_string(), "key of 2147483648 bytes or items is too large to encode");
    /// ```
    fn from(kind: RecordErrorKind) -> Self {
        Self(Box::new(RecordInner { kind, at: None }))
    }
}

impl From<DecodeError> for RecordError {
    /// A wire-level error at an unknown place in the record set.
    fn from(source: DecodeError) -> Self {
        Self::new(RecordErrorKind::Decode { source }, Location::default())
    }
}

/// Shorthand used while decoding: attaches a location to a wire-level error.
pub(crate) trait At<T> {
    fn at(self, at: Location) -> Result<T, RecordError>;
}

impl<T> At<T> for Result<T, DecodeError> {
    #[inline]
    fn at(self, at: Location) -> Result<T, RecordError> {
        self.map_err(|source| RecordError::new(RecordErrorKind::Decode { source }, at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::DecodeErrorKind;

    #[test]
    fn a_result_is_one_word_bigger_than_its_value() {
        assert_eq!(std::mem::size_of::<RecordError>(), std::mem::size_of::<usize>());
        assert_eq!(std::mem::size_of::<Result<u64, RecordError>>(), 2 * std::mem::size_of::<usize>());
    }

    #[test]
    fn display_puts_the_location_first_when_there_is_one() {
        let err = RecordError::new(RecordErrorKind::PartialBatch { needed: 80, available: 20 }, Location::batch(5));
        assert_eq!(err.to_string(), "batch at offset 5: partial batch: 80 bytes declared, 20 present");
        let err = RecordError::new(RecordErrorKind::DecompressedTooLarge { limit: 16 }, Location::default());
        assert_eq!(err.to_string(), "record set: decompressed data exceeds the limit of 16 bytes");
        let err =
            RecordError::from(RecordErrorKind::Compress { compression: Compression::Gzip, message: "oops".into() });
        assert_eq!(err.to_string(), "gzip compression failed: oops");
        assert_eq!(format!("{err:?}"), "RecordError(gzip compression failed: oops)");
    }

    #[test]
    fn within_fills_only_the_unknown_parts() {
        let err = RecordError::new(RecordErrorKind::Invalid { what: "bad" }, Location::default().field("key"))
            .within(Location::batch(9).record(1).field("records"));
        assert_eq!(err.location(), Some(&Location::batch(9).record(1).field("key")));
        let err = RecordError::from(RecordErrorKind::TooLarge { what: "key", len: 3 }).within(Location::batch(9));
        assert_eq!(err.location(), None);
    }

    #[test]
    fn source_is_the_wire_error_of_a_decode_error() {
        use std::error::Error as _;
        let wire = DecodeError::new(DecodeErrorKind::VarintTooLong, 4);
        let err = RecordError::new(RecordErrorKind::Decode { source: wire.clone() }, Location::batch(0).record(0));
        assert_eq!(err.to_string(), "batch at offset 0, record 0: varint is too long (offset 4)");
        let source = err.source().and_then(|s| s.downcast_ref::<DecodeError>());
        assert_eq!(source, Some(&wire));
        let err = RecordError::new(RecordErrorKind::UnsupportedMagic { magic: 9 }, Location::batch(0));
        assert!(err.source().is_none());
    }
}
