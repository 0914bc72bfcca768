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
/// use kafka_wire::records::Location;
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

/// A failure to read or write record batches or legacy message sets.
///
/// Decoding variants carry a [`Location`]; byte offsets inside a
/// [`RecordError::Decode`] count from the start of the batch (for an
/// uncompressed batch) or of the decompressed records (for a compressed
/// one).
///
/// # Example
/// ```
/// use kafka_wire::records::{Location, RecordError};
/// let err = RecordError::CrcMismatch { at: Location::batch(7).field("crc"), stored: 0x2a7198a5, computed: 0 };
/// assert_eq!(err.to_string(), "batch at offset 7, crc: CRC mismatch: stored 0x2a7198a5, computed 0x00000000");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// The bytes end early or a varint, length or count breaks the encoding.
    #[error("{at}: {source}")]
    Decode {
        /// Where.
        at: Location,
        /// The wire-level error, with its byte offset.
        source: DecodeError,
    },
    /// A value that decodes but breaks a rule of the record format.
    #[error("{at}: {what}")]
    Invalid {
        /// Where.
        at: Location,
        /// The rule that was broken.
        what: &'static str,
    },
    /// The stored checksum does not match the bytes: CRC-32C over attributes
    /// to the end for magic 2, IEEE CRC-32 over magic to the end for magic 0 and 1.
    #[error("{at}: CRC mismatch: stored {stored:#010x}, computed {computed:#010x}")]
    CrcMismatch {
        /// Where.
        at: Location,
        /// The checksum on the wire.
        stored: u32,
        /// The checksum of the bytes.
        computed: u32,
    },
    /// A magic byte other than 0, 1 or 2.
    #[error("{at}: magic {magic} is not a known record format")]
    UnsupportedMagic {
        /// Where.
        at: Location,
        /// The magic byte read.
        magic: i8,
    },
    /// Compression bits (attributes bits 0-2) that name no codec: 5, 6 or 7,
    /// or zstd (4) in a legacy message.
    #[error("{at}: compression codec {codec} is not valid here")]
    UnknownCompression {
        /// Where.
        at: Location,
        /// Attributes bits 0-2.
        codec: u8,
    },
    /// A codec whose cargo feature is not enabled.
    #[error("{at}: {compression} support is not built in (cargo feature `{}`)", compression.name())]
    CompressionUnavailable {
        /// Where.
        at: Location,
        /// The codec.
        compression: Compression,
    },
    /// Compressed data the codec rejects.
    #[error("{at}: corrupt {compression} data: {message}")]
    Decompress {
        /// Where.
        at: Location,
        /// The codec.
        compression: Compression,
        /// The codec's own message.
        message: String,
    },
    /// Decompressed data larger than [`DecodeOptions::max_decompressed_size`](super::DecodeOptions::max_decompressed_size).
    #[error("{at}: decompressed data exceeds the limit of {limit} bytes")]
    DecompressedTooLarge {
        /// Where.
        at: Location,
        /// The limit in force, in bytes.
        limit: usize,
    },
    /// A batch cut off at the end of the input, as a broker sends when a
    /// Fetch response reaches its size limit. Only reported when
    /// [`DecodeOptions::reject_partial_batch`](super::DecodeOptions::reject_partial_batch) is set.
    #[error("{at}: partial batch: {needed} bytes declared, {available} present")]
    PartialBatch {
        /// Where.
        at: Location,
        /// Bytes the batch needs, including its 12-byte offset and length prefix.
        needed: usize,
        /// Bytes left in the input.
        available: usize,
    },
    /// A value too large for the record format (lengths are int32 or varint).
    #[error("{what} of {len} bytes or items is too large to encode")]
    TooLarge {
        /// What was too large: `"key"`, `"batch"`, `"record count"` ...
        what: &'static str,
        /// Its size.
        len: usize,
    },
    /// The codec failed while compressing.
    #[error("{compression} compression failed: {message}")]
    Compress {
        /// The codec.
        compression: Compression,
        /// The codec's own message.
        message: String,
    },
}

impl RecordError {
    /// Where the error was found, for decoding errors.
    pub fn location(&self) -> Option<&Location> {
        match self {
            Self::Decode { at, .. }
            | Self::Invalid { at, .. }
            | Self::CrcMismatch { at, .. }
            | Self::UnsupportedMagic { at, .. }
            | Self::UnknownCompression { at, .. }
            | Self::CompressionUnavailable { at, .. }
            | Self::Decompress { at, .. }
            | Self::DecompressedTooLarge { at, .. }
            | Self::PartialBatch { at, .. } => Some(at),
            Self::TooLarge { .. } | Self::Compress { .. } => None,
        }
    }

    /// Fills in the parts of the location that are still unknown.
    #[cold]
    #[must_use]
    pub(crate) fn within(mut self, outer: Location) -> Self {
        if let Some(at) = self.location_mut() {
            at.base_offset = at.base_offset.or(outer.base_offset);
            at.record = at.record.or(outer.record);
            at.field = at.field.or(outer.field);
        }
        self
    }

    fn location_mut(&mut self) -> Option<&mut Location> {
        match self {
            Self::Decode { at, .. }
            | Self::Invalid { at, .. }
            | Self::CrcMismatch { at, .. }
            | Self::UnsupportedMagic { at, .. }
            | Self::UnknownCompression { at, .. }
            | Self::CompressionUnavailable { at, .. }
            | Self::Decompress { at, .. }
            | Self::DecompressedTooLarge { at, .. }
            | Self::PartialBatch { at, .. } => Some(at),
            Self::TooLarge { .. } | Self::Compress { .. } => None,
        }
    }
}

impl From<DecodeError> for RecordError {
    /// A wire-level error at an unknown place in the record set.
    fn from(source: DecodeError) -> Self {
        Self::Decode { at: Location::default(), source }
    }
}

/// Shorthand used while decoding: attaches a location to a wire-level error.
pub(crate) trait At<T> {
    fn at(self, at: Location) -> Result<T, RecordError>;
}

impl<T> At<T> for Result<T, DecodeError> {
    #[inline]
    fn at(self, at: Location) -> Result<T, RecordError> {
        self.map_err(|source| RecordError::Decode { at, source })
    }
}
