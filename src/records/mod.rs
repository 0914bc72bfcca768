//! Record batches: the payload of Produce requests and Fetch responses
//! (the `records` fields, which the message layer hands over as [`Bytes`]).
//!
//! A `records` field holds entries back to back. Since Kafka 0.11 each
//! entry is a record batch v2 (magic 2, KIP-98); older logs hold legacy
//! messages (magic 0 and 1). Both start with an int64 offset and an int32
//! size, and put the magic byte at position 16:
//!
//! ```text
//! records field: | batch | batch | … | (partial batch, Fetch only)
//!
//! batch v2:  base_offset i64 | batch_length i32 | partition_leader_epoch i32 | magic=2 i8
//!            | crc u32 (CRC-32C of the rest) | attributes i16 | last_offset_delta i32
//!            | base_timestamp i64 | max_timestamp i64 | producer_id i64 | producer_epoch i16
//!            | base_sequence i32 | record_count i32 | records (compressed as a whole)
//! record:    length varint | attributes i8 | timestamp_delta varlong | offset_delta varint
//!            | key (varint length, -1 null) | value (same) | header count varint
//!            | headers (key: varint length + UTF-8, value: varint length -1 null)
//! ```
//!
//! | item | role |
//! |---|---|
//! | [`Batches`] | iterator over the entries of a `records` field, partial tail skipped and reported |
//! | [`RecordBatch`], [`BatchHeader`], [`Attributes`] | one v2 batch: header read alone, CRC checked on demand |
//! | [`Records`], [`Record`], [`Header`] | the records of a batch, zero-copy over the input or over one decompressed buffer |
//! | [`RecordBatchBuilder`] | writes a batch: lengths, deltas, count and CRC computed |
//! | [`ControlRecordKey`], [`ControlRecordType`], [`EndTxnMarker`], [`ControlRecord`] | control records typed: commit/abort markers and their coordinator epoch, KRaft control types kept by id |
//! | [`BatchHeader::last_sequence`], [`increment_sequence`], [`NO_SEQUENCE`] | the producer's sequence rule: wraps to 0 after `i32::MAX` |
//! | [`Compression`], [`compress`], [`decompress`] | gzip, snappy (xerial/raw), lz4 frame, zstd, each behind its cargo feature |
//! | [`LegacyMessage`] | magic 0/1 messages, compressed wrappers unpacked |
//! | [`DecodeOptions`] | CRC checks, decompression limits (per batch and per `records` field), partial-batch policy |
//! | [`RecordError`], [`RecordErrorKind`], [`Location`] | typed errors: what went wrong, and where (batch base offset, record index, field) |
//!
//! # Example
//! ```
//! use bytes::Bytes;
//! use kwire::records::{Batch, Batches, DecodeOptions};
//! // test-vectors.md V14: one batch, one record, key null, value "", header ("h", null).
//! let bytes = Bytes::from_static(&[
//!     0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3b, 0xff, 0xff, 0xff, 0xff,
//!     0x02, 0x2a, 0x71, 0x98, 0xa5, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x8b, 0xcf,
//!     0xe5, 0x68, 0x00, 0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff,
//!     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01, 0x12, 0x00, 0x00,
//!     0x00, 0x01, 0x00, 0x02, 0x02, 0x68, 0x01,
//! ]);
//! for batch in Batches::new(bytes) {
//!     let Batch::V2(batch) = batch.unwrap() else { unreachable!() };
//!     for record in batch.records(&DecodeOptions::default()).unwrap() {
//!         let record = record.unwrap();
//!         assert_eq!((record.key, record.value.as_deref()), (None, Some(&b""[..])));
//!         assert_eq!((&record.headers[0].key[..], record.headers[0].value.clone()), (&b"h"[..], None));
//!     }
//! }
//! ```
//!
//! [`Bytes`]: bytes::Bytes

mod batch;
mod batches;
mod builder;
mod compression;
mod compression_type;
mod control;
mod error;
mod legacy;
mod record;

pub use self::batch::{
    increment_sequence, Attributes, BatchHeader, RecordBatch, Records, TimestampType, LOG_OVERHEAD, MAGIC_OFFSET,
    MAGIC_V2, NO_SEQUENCE,
};
pub use self::batches::{Batch, Batches, PartialBatch};
pub use self::builder::RecordBatchBuilder;
pub use self::compression::{compress, decompress, XERIAL_HEADER};
pub use self::compression_type::Compression;
pub use self::control::{
    ControlRecord, ControlRecordKey, ControlRecordType, EndTxnMarker, CONTROL_RECORD_KEY_SIZE,
    CONTROL_RECORD_KEY_VERSION, END_TXN_MARKER_SIZE, END_TXN_MARKER_VERSION,
};
pub use self::error::{Location, RecordError, RecordErrorKind};
pub use self::legacy::{LegacyMessage, MIN_MESSAGE_SIZE};
pub use self::record::{Header, Record, MIN_RECORD_SIZE};

/// Limits and checks for reading records.
///
/// Construct with [`DecodeOptions::default`] (or [`DecodeOptions::new`])
/// and change fields as needed.
///
/// # Decompression limits
/// Two limits bound what compressed batches may inflate to, each stopping
/// a decompressor as soon as its output would pass the limit:
///
/// | limit | applies to | default | error |
/// |---|---|---|---|
/// | [`max_decompressed_size`](DecodeOptions::max_decompressed_size) | one v2 batch's records, or one legacy wrapper's inner messages | 64 MiB | [`RecordErrorKind::DecompressedTooLarge`] |
/// | [`max_total_decompressed_size`](DecodeOptions::max_total_decompressed_size) | everything the entries of one [`Batches`] decompress to, together | 256 MiB | [`RecordErrorKind::TotalDecompressedTooLarge`] |
///
/// The first stops one compression bomb; the second stops many small
/// ones in the same `records` field (sixteen batches of 2 KiB of zstd can
/// each inflate to 64 MiB). The total is counted by the [`Batches`] that
/// yielded the entries, whose own options set it: every
/// [`RecordBatch::records`] and [`LegacyMessage::messages`] call on its
/// entries (and their clones) draws from it, whatever options that call
/// passes. An entry parsed on its own ([`RecordBatch::parse`],
/// [`LegacyMessage::parse`]) has only the per-batch limit. Both errors
/// name the entry's offset and the field `records` (`value` for a legacy
/// wrapper).
///
/// # Example
/// ```
/// use kwire::records::DecodeOptions;
/// let mut options = DecodeOptions::default();
/// assert_eq!(options.max_decompressed_size, 64 << 20);
/// assert_eq!(options.max_total_decompressed_size, 256 << 20);
/// options.max_decompressed_size = 1 << 20;
/// assert!(options.verify_crc && !options.reject_partial_batch);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecodeOptions {
    /// Most bytes one batch's (or one legacy wrapper's) records may
    /// decompress to: a compression bomb stops here with
    /// [`RecordErrorKind::DecompressedTooLarge`]. Default 64 MiB.
    pub max_decompressed_size: usize,
    /// Most bytes all the compressed entries of one `records` field, read
    /// through one [`Batches`], may decompress to together: many small
    /// bombs stop here with [`RecordErrorKind::TotalDecompressedTooLarge`].
    /// Default 256 MiB. A log segment file read whole (up to 1 GiB by
    /// Kafka's default `segment.bytes`) may need more.
    pub max_total_decompressed_size: usize,
    /// Check each entry's CRC as [`Batches`] reads it (and each inner
    /// legacy message's). Default true.
    pub verify_crc: bool,
    /// Make a partial batch at the end of the input an error
    /// ([`RecordErrorKind::PartialBatch`]) instead of stopping quietly.
    /// Default false, as Kafka's consumers do.
    pub reject_partial_batch: bool,
}

impl DecodeOptions {
    /// The default for [`DecodeOptions::max_decompressed_size`]: 64 MiB.
    pub const DEFAULT_MAX_DECOMPRESSED_SIZE: usize = 64 << 20;

    /// The default for [`DecodeOptions::max_total_decompressed_size`]: 256 MiB.
    pub const DEFAULT_MAX_TOTAL_DECOMPRESSED_SIZE: usize = 256 << 20;

    /// The defaults: 64 MiB per batch, 256 MiB per `records` field, CRCs
    /// checked, partial tail skipped.
    pub const fn new() -> Self {
        Self {
            max_decompressed_size: Self::DEFAULT_MAX_DECOMPRESSED_SIZE,
            max_total_decompressed_size: Self::DEFAULT_MAX_TOTAL_DECOMPRESSED_SIZE,
            verify_crc: true,
            reject_partial_batch: false,
        }
    }
}

impl Default for DecodeOptions {
    fn default() -> Self {
        Self::new()
    }
}
