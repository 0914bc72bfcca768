//! Record batch v2 (magic 2): the 61-byte header, its attributes, and the
//! records after it.
//!
//! ```text
//! offset  size  field
//!      0     8  base_offset             int64
//!      8     4  batch_length            int32  bytes after this field
//!     12     4  partition_leader_epoch  int32
//!     16     1  magic                   int8   2
//!     17     4  crc                     uint32 CRC-32C of bytes 21..end
//!     21     2  attributes              int16  see Attributes
//!     23     4  last_offset_delta       int32
//!     27     8  base_timestamp          int64  ms
//!     35     8  max_timestamp           int64  ms
//!     43     8  producer_id             int64  -1 when not idempotent
//!     51     2  producer_epoch          int16
//!     53     4  base_sequence           int32
//!     57     4  record_count            int32
//!     61     …  records                 compressed as a whole per attributes
//! ```
//!
//! Source: Kafka's record format v2 (KIP-98); zstd from KIP-110, the delete
//! horizon bit from KIP-534.

use bytes::Bytes;

use super::batches::Budget;
use super::compression::decompress;
use super::compression_type::Compression;
use super::error::{At, Location, RecordError, RecordErrorKind};
use super::record::{Record, MIN_RECORD_SIZE};
use super::DecodeOptions;
use crate::error::{DecodeError, DecodeErrorKind};
use crate::primitives::Reader;

/// The magic byte of record batches v2.
pub const MAGIC_V2: i8 = 2;

/// Bytes before `batch_length` counts: base offset and the length itself.
pub const LOG_OVERHEAD: usize = 12;

/// Byte position of the magic byte in a batch (and in a legacy message).
pub const MAGIC_OFFSET: usize = 16;

/// Byte position where the CRC-32C coverage starts: the attributes.
const CRC_START: usize = 21;

/// `base_sequence` (and `producer_id`, `producer_epoch`) of a batch whose
/// producer is not idempotent: -1.
pub const NO_SEQUENCE: i32 = -1;

/// `sequence` advanced by `increment` the way Kafka's producers and brokers
/// count (KIP-98): sequence numbers are int32s that wrap from `i32::MAX` to
/// 0, not to `i32::MIN`. Computed with 32-bit wrapping arithmetic, exactly
/// as Kafka's `DefaultRecordBatch.incrementSequence`, so even out-of-range
/// inputs (a negative increment from a corrupt batch) give Kafka's answer
/// and never panic.
///
/// ```
/// use kwire::records::increment_sequence;
/// assert_eq!(increment_sequence(5, 2), 7);
/// assert_eq!(increment_sequence(i32::MAX, 1), 0);
/// assert_eq!(increment_sequence(2_147_483_646, 2), 0);
/// assert_eq!(increment_sequence(2_147_483_640, 10), 2);
/// ```
pub const fn increment_sequence(sequence: i32, increment: i32) -> i32 {
    if sequence > i32::MAX.wrapping_sub(increment) {
        increment.wrapping_sub(i32::MAX.wrapping_sub(sequence)).wrapping_sub(1)
    } else {
        sequence.wrapping_add(increment)
    }
}

/// How a batch's timestamps were set: attributes bit 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TimestampType {
    /// 0: the producer's timestamps (`CreateTime`).
    #[default]
    CreateTime,
    /// 1: the broker's append time (`LogAppendTime`); every record's
    /// timestamp is then the batch's `max_timestamp`.
    LogAppendTime,
}

/// The 16-bit attributes of a v2 batch.
///
/// ```text
/// bit  0-2  compression: 0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd
/// bit    3  timestamp type: 0 create time, 1 log-append time
/// bit    4  transactional
/// bit    5  control batch (transaction markers)
/// bit    6  delete horizon set: base_timestamp is the delete horizon (KIP-534)
/// bit 7-15  unused, kept as read
/// ```
///
/// # Example
/// ```
/// use kwire::records::{Attributes, Compression, TimestampType};
/// let a = Attributes::new().with_compression(Compression::Lz4).with_transactional(true);
/// assert_eq!(a.bits(), 0b1_0011);
/// assert_eq!(a.compression(), Some(Compression::Lz4));
/// assert_eq!(a.timestamp_type(), TimestampType::CreateTime);
/// assert!(a.is_transactional() && !a.is_control());
/// assert_eq!(Attributes::from_bits(0x0007).compression(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Attributes(i16);

impl Attributes {
    const TIMESTAMP_TYPE: i16 = 1 << 3;
    const TRANSACTIONAL: i16 = 1 << 4;
    const CONTROL: i16 = 1 << 5;
    const DELETE_HORIZON: i16 = 1 << 6;

    /// No compression, create time, not transactional, not control.
    pub const fn new() -> Self {
        Self(0)
    }

    /// Attributes with these bits, unused ones kept.
    pub const fn from_bits(bits: i16) -> Self {
        Self(bits)
    }

    /// The bits as on the wire.
    pub const fn bits(self) -> i16 {
        self.0
    }

    /// Bits 0-2, the codec id.
    pub const fn compression_id(self) -> u8 {
        (self.0 & 0x07) as u8
    }

    /// The codec; `None` for ids 5-7.
    pub const fn compression(self) -> Option<Compression> {
        Compression::from_id(self.compression_id())
    }

    /// Bit 3.
    pub const fn timestamp_type(self) -> TimestampType {
        if self.0 & Self::TIMESTAMP_TYPE != 0 {
            TimestampType::LogAppendTime
        } else {
            TimestampType::CreateTime
        }
    }

    /// Bit 4: the batch belongs to a transaction.
    pub const fn is_transactional(self) -> bool {
        self.0 & Self::TRANSACTIONAL != 0
    }

    /// Bit 5: the batch holds control records (commit/abort markers).
    pub const fn is_control(self) -> bool {
        self.0 & Self::CONTROL != 0
    }

    /// Bit 6: `base_timestamp` holds the delete horizon (KIP-534).
    pub const fn has_delete_horizon(self) -> bool {
        self.0 & Self::DELETE_HORIZON != 0
    }

    const fn set(self, bit: i16, on: bool) -> Self {
        Self(if on { self.0 | bit } else { self.0 & !bit })
    }

    /// The same attributes with bits 0-2 set to `compression`.
    #[must_use]
    pub const fn with_compression(self, compression: Compression) -> Self {
        Self((self.0 & !0x07) | compression.id() as i16)
    }

    /// The same attributes with bit 3 set for `timestamp_type`.
    #[must_use]
    pub const fn with_timestamp_type(self, timestamp_type: TimestampType) -> Self {
        self.set(Self::TIMESTAMP_TYPE, matches!(timestamp_type, TimestampType::LogAppendTime))
    }

    /// The same attributes with bit 4 set to `on`.
    #[must_use]
    pub const fn with_transactional(self, on: bool) -> Self {
        self.set(Self::TRANSACTIONAL, on)
    }

    /// The same attributes with bit 5 set to `on`.
    #[must_use]
    pub const fn with_control(self, on: bool) -> Self {
        self.set(Self::CONTROL, on)
    }

    /// The same attributes with bit 6 set to `on`.
    #[must_use]
    pub const fn with_delete_horizon(self, on: bool) -> Self {
        self.set(Self::DELETE_HORIZON, on)
    }
}

/// The 61-byte header of a v2 batch (layout in the module docs).
///
/// # Example
/// ```
/// use kwire::records::BatchHeader;
/// // test-vectors.md V14: the first 61 bytes are enough.
/// let bytes = [
///     0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x3b, 0xff, 0xff, 0xff, 0xff, 2, 0x2a, 0x71, 0x98, 0xa5,
///     0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0, 0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0,
///     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 1,
/// ];
/// let h = BatchHeader::parse(&bytes).unwrap();
/// assert_eq!((h.base_offset, h.batch_length, h.crc, h.record_count), (0, 59, 0x2a7198a5, 1));
/// assert_eq!(h.base_timestamp, 1_700_000_000_000);
/// assert_eq!(h.batch_size(), 71);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BatchHeader {
    /// Offset of the first record (records carry deltas from it).
    pub base_offset: i64,
    /// Bytes after this field: the whole batch is 12 bytes more.
    pub batch_length: i32,
    /// Leader epoch the broker stamped on the batch; -1 from producers.
    pub partition_leader_epoch: i32,
    /// Always [`MAGIC_V2`].
    pub magic: i8,
    /// CRC-32C (Castagnoli) over the bytes from `attributes` to the end.
    pub crc: u32,
    /// Compression, timestamp type and flags.
    pub attributes: Attributes,
    /// Offset delta of the last record; kept when compaction removes records.
    pub last_offset_delta: i32,
    /// Timestamp of the first record, in ms since the epoch (the delete
    /// horizon when [`Attributes::has_delete_horizon`]).
    pub base_timestamp: i64,
    /// Largest record timestamp, in ms since the epoch.
    pub max_timestamp: i64,
    /// Idempotent/transactional producer id, -1 when none.
    pub producer_id: i64,
    /// Producer epoch, -1 when none.
    pub producer_epoch: i16,
    /// Sequence number of the first record, -1 when none.
    pub base_sequence: i32,
    /// Records in the batch.
    pub record_count: i32,
}

impl BatchHeader {
    /// Bytes in the header.
    pub const SIZE: usize = 61;

    /// Reads the header from the first 61 bytes of `bytes`; the records
    /// after it are not read.
    ///
    /// # Errors
    /// [`RecordErrorKind::Decode`] when fewer than 61 bytes are given;
    /// [`RecordErrorKind::UnsupportedMagic`] when the magic is not 2;
    /// [`RecordErrorKind::Invalid`] when `batch_length` is below 49 (a batch
    /// without its header).
    pub fn parse(bytes: &[u8]) -> Result<Self, RecordError> {
        let Some(h) = bytes.first_chunk::<{ Self::SIZE }>() else {
            let base_offset = bytes.first_chunk::<8>().map(|b| i64::from_be_bytes(*b));
            let source =
                DecodeError::new(DecodeErrorKind::NotEnoughBytes { needed: Self::SIZE, remaining: bytes.len() }, 0);
            return Err(RecordError::new(
                RecordErrorKind::Decode { source },
                Location { base_offset, ..Location::default() },
            ));
        };
        let be = |from: usize, to: usize| -> u64 { h[from..to].iter().fold(0, |acc, &b| (acc << 8) | b as u64) };
        let header = Self {
            base_offset: be(0, 8) as i64,
            batch_length: be(8, 12) as u32 as i32,
            partition_leader_epoch: be(12, 16) as u32 as i32,
            magic: h[16] as i8,
            crc: be(17, 21) as u32,
            attributes: Attributes(be(21, 23) as u16 as i16),
            last_offset_delta: be(23, 27) as u32 as i32,
            base_timestamp: be(27, 35) as i64,
            max_timestamp: be(35, 43) as i64,
            producer_id: be(43, 51) as i64,
            producer_epoch: be(51, 53) as u16 as i16,
            base_sequence: be(53, 57) as u32 as i32,
            record_count: be(57, 61) as u32 as i32,
        };
        let at = Location::batch(header.base_offset);
        if header.magic != MAGIC_V2 {
            return Err(RecordError::new(RecordErrorKind::UnsupportedMagic { magic: header.magic }, at.field("magic")));
        }
        if (header.batch_length as i64) < (Self::SIZE - LOG_OVERHEAD) as i64 {
            return Err(RecordError::new(
                RecordErrorKind::Invalid { what: "batch length is smaller than the batch header" },
                at.field("batch_length"),
            ));
        }
        Ok(header)
    }

    /// Appends the 61 header bytes exactly as the fields say (no length or
    /// CRC is computed: see [`RecordBatchBuilder`](super::RecordBatchBuilder) for that).
    pub fn encode(&self, buf: &mut impl bytes::BufMut) {
        buf.put_i64(self.base_offset);
        buf.put_i32(self.batch_length);
        buf.put_i32(self.partition_leader_epoch);
        buf.put_i8(self.magic);
        buf.put_u32(self.crc);
        buf.put_i16(self.attributes.0);
        buf.put_i32(self.last_offset_delta);
        buf.put_i64(self.base_timestamp);
        buf.put_i64(self.max_timestamp);
        buf.put_i64(self.producer_id);
        buf.put_i16(self.producer_epoch);
        buf.put_i32(self.base_sequence);
        buf.put_i32(self.record_count);
    }

    /// Bytes in the whole batch: `batch_length` + 12.
    pub fn batch_size(&self) -> usize {
        self.batch_length.max(0) as usize + LOG_OVERHEAD
    }

    /// Offset of the last record: `base_offset + last_offset_delta`.
    pub fn last_offset(&self) -> i64 {
        self.base_offset.wrapping_add(self.last_offset_delta as i64)
    }

    /// Sequence number of the batch's last record, by the producer's
    /// rule (KIP-98): `base_sequence + last_offset_delta`, wrapping to 0
    /// after `i32::MAX` ([`increment_sequence`]); [`NO_SEQUENCE`] (-1) when
    /// the batch has no base sequence (a producer that is not idempotent).
    ///
    /// The step is `last_offset_delta`, not `record_count - 1`: a batch
    /// that compaction thinned keeps its delta and so its last sequence, as
    /// in Kafka's `DefaultRecordBatch.lastSequence`.
    ///
    /// ```
    /// use kwire::records::{BatchHeader, RecordBatchBuilder, RecordBatch, NO_SEQUENCE};
    /// let mut builder = RecordBatchBuilder::new(0);
    /// builder.producer(1000, 0, 2_147_483_646);
    /// for i in 0..3 {
    ///     builder.append(1_700_000_000_000, None, Some(format!("v{i}").into()), vec![]);
    /// }
    /// let batch = RecordBatch::parse(builder.to_bytes().unwrap()).unwrap();
    /// assert_eq!(batch.header().last_sequence(), 0); // 2147483646, 2147483647, 0
    /// let plain = RecordBatch::parse(RecordBatchBuilder::new(0).to_bytes().unwrap()).unwrap();
    /// assert_eq!(plain.header().last_sequence(), NO_SEQUENCE);
    /// ```
    pub fn last_sequence(&self) -> i32 {
        if self.base_sequence == NO_SEQUENCE {
            return NO_SEQUENCE;
        }
        increment_sequence(self.base_sequence, self.last_offset_delta)
    }

    /// Absolute offset of `record` in this batch.
    pub fn offset_of(&self, record: &Record) -> i64 {
        self.base_offset.wrapping_add(record.offset_delta as i64)
    }

    /// Timestamp of `record` in ms: `max_timestamp` for log-append time,
    /// `base_timestamp + timestamp_delta` otherwise.
    pub fn timestamp_of(&self, record: &Record) -> i64 {
        match self.attributes.timestamp_type() {
            TimestampType::LogAppendTime => self.max_timestamp,
            TimestampType::CreateTime => self.base_timestamp.wrapping_add(record.timestamp_delta),
        }
    }
}

/// One whole v2 batch over shared bytes: the header parsed, the records
/// read on demand.
///
/// # Example
/// ```
/// use bytes::Bytes;
/// use kwire::records::{DecodeOptions, Record, RecordBatch, RecordBatchBuilder};
/// let mut builder = RecordBatchBuilder::new(100);
/// builder.append(1_700_000_000_000, Some("k0".into()), Some("hello-0".into()), vec![]);
/// let batch = RecordBatch::parse(builder.to_bytes().unwrap()).unwrap();
/// batch.verify_crc().unwrap();
/// let records: Vec<Record> = batch.records(&DecodeOptions::default()).unwrap().collect::<Result<_, _>>().unwrap();
/// assert_eq!(batch.header().offset_of(&records[0]), 100);
/// assert_eq!(records[0].value.as_deref(), Some(&b"hello-0"[..]));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordBatch {
    header: BatchHeader,
    bytes: Bytes,
    budget: Budget,
}

impl RecordBatch {
    /// Parses the header of the batch that `bytes` holds exactly (from its
    /// base offset to its last byte). The CRC is not checked and the
    /// records are not read.
    ///
    /// # Errors
    /// As [`BatchHeader::parse`]; [`RecordErrorKind::Invalid`] when
    /// `batch_length` + 12 is not the length of `bytes`.
    pub fn parse(bytes: Bytes) -> Result<Self, RecordError> {
        let header = BatchHeader::parse(&bytes)?;
        if header.batch_size() != bytes.len() {
            return Err(RecordError::new(
                RecordErrorKind::Invalid { what: "batch length does not match the bytes of the batch" },
                Location::batch(header.base_offset).field("batch_length"),
            ));
        }
        Ok(Self { header, bytes, budget: Budget::default() })
    }

    /// The batch, drawing on `budget` when decompressed.
    pub(crate) fn with_budget(self, budget: Budget) -> Self {
        Self { budget, ..self }
    }

    /// The header.
    pub fn header(&self) -> &BatchHeader {
        &self.header
    }

    /// The whole batch as received, to forward or store unchanged.
    pub fn as_bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// The bytes after the header: the records, compressed as the
    /// attributes say.
    pub fn records_bytes(&self) -> Bytes {
        self.bytes.slice(BatchHeader::SIZE..)
    }

    /// Sequence number of the last record: [`BatchHeader::last_sequence`].
    pub fn last_sequence(&self) -> i32 {
        self.header.last_sequence()
    }

    /// CRC-32C of the bytes from the attributes to the end.
    pub fn compute_crc(&self) -> u32 {
        crc32c::crc32c(&self.bytes[CRC_START..])
    }

    /// Checks the stored CRC.
    ///
    /// # Errors
    /// [`RecordErrorKind::CrcMismatch`] naming the batch's base offset.
    pub fn verify_crc(&self) -> Result<(), RecordError> {
        let computed = self.compute_crc();
        if computed != self.header.crc {
            return Err(RecordError::new(
                RecordErrorKind::CrcMismatch { stored: self.header.crc, computed },
                Location::batch(self.header.base_offset).field("crc"),
            ));
        }
        Ok(())
    }

    /// An iterator over the records. An uncompressed batch is read in
    /// place (keys and values are slices of the batch's bytes); a
    /// compressed one is first decompressed into one buffer that the
    /// records then share.
    ///
    /// # Errors
    /// [`RecordErrorKind::Invalid`] for a negative `record_count`;
    /// [`RecordErrorKind::UnknownCompression`], [`RecordErrorKind::CompressionUnavailable`],
    /// [`RecordErrorKind::Decompress`] and [`RecordErrorKind::DecompressedTooLarge`]
    /// (limit from `options`) for the records' compression;
    /// [`RecordErrorKind::TotalDecompressedTooLarge`] when the batch came from
    /// [`Batches`](super::Batches) and passes its budget (see [`DecodeOptions`]);
    /// [`RecordErrorKind::Decode`] when `record_count` records of at least 7
    /// bytes cannot fit in the (decompressed) bytes. Each record's own
    /// errors come from the iterator.
    pub fn records(&self, options: &DecodeOptions) -> Result<Records, RecordError> {
        let at = Location::batch(self.header.base_offset);
        let count = self.header.record_count;
        if count < 0 {
            return Err(RecordError::new(
                RecordErrorKind::Invalid { what: "negative record count" },
                at.field("record_count"),
            ));
        }
        let attributes = self.header.attributes;
        let compression = attributes.compression().ok_or_else(|| {
            RecordError::new(
                RecordErrorKind::UnknownCompression { codec: attributes.compression_id() },
                at.field("attributes"),
            )
        })?;
        let reader = match compression {
            Compression::None => {
                let mut r = Reader::new(self.bytes.clone());
                r.read_bytes(BatchHeader::SIZE).at(at)?;
                r
            }
            _ => {
                let data = self
                    .budget
                    .decompress(options.max_decompressed_size, |limit| {
                        decompress(compression, &self.bytes[BatchHeader::SIZE..], limit)
                    })
                    .map_err(|e| e.within(at.field("records")))?;
                Reader::new(Bytes::from(data))
            }
        };
        reader.check_count(count as usize, MIN_RECORD_SIZE).at(at.field("record_count"))?;
        Ok(Records { reader, at, index: 0, count: count as usize, done: false })
    }
}

/// The records of one batch, in order: see [`RecordBatch::records`].
///
/// After `record_count` records, bytes left over are an error (the batch's
/// declared size disagrees with its records). The iterator ends after the
/// first error.
#[derive(Debug, Clone)]
pub struct Records {
    reader: Reader,
    at: Location,
    index: usize,
    count: usize,
    done: bool,
}

impl Records {
    /// Records not yet read.
    pub fn remaining(&self) -> usize {
        self.count - self.index
    }
}

impl Iterator for Records {
    type Item = Result<Record, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if self.index == self.count {
            self.done = true;
            return self.reader.finish().at(self.at.field("records")).err().map(Err);
        }
        let result = Record::decode_from(&mut self.reader, self.at.record(self.index));
        self.index += 1;
        self.done = result.is_err();
        Some(result)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.done {
            (0, Some(0))
        } else {
            (0, Some(self.remaining() + 1))
        }
    }
}

impl std::iter::FusedIterator for Records {}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(base_sequence: i32, last_offset_delta: i32) -> BatchHeader {
        BatchHeader {
            base_offset: 0,
            batch_length: 49,
            partition_leader_epoch: -1,
            magic: MAGIC_V2,
            crc: 0,
            attributes: Attributes::new(),
            last_offset_delta,
            base_timestamp: 0,
            max_timestamp: 0,
            producer_id: 1000,
            producer_epoch: 0,
            base_sequence,
            record_count: last_offset_delta.saturating_add(1),
        }
    }

    #[test]
    fn last_sequence_wraps_to_zero_after_i32_max() {
        // Sequences wrap to 0 after i32::MAX (KIP-98, Kafka's
        // DefaultRecordBatch.lastSequence): base 2147483646, three records → 0.
        assert_eq!(header(2_147_483_646, 2).last_sequence(), 0);
        assert_eq!(header(i32::MAX, 0).last_sequence(), i32::MAX);
        assert_eq!(header(i32::MAX, 1).last_sequence(), 0);
        assert_eq!(header(i32::MAX - 4, 9).last_sequence(), 4);
        assert_eq!(header(0, 0).last_sequence(), 0);
        assert_eq!(header(42, 4).last_sequence(), 46);
        assert_eq!(header(0, i32::MAX).last_sequence(), i32::MAX);
        assert_eq!(header(1, i32::MAX).last_sequence(), 0);
    }

    #[test]
    fn no_sequence_stays_no_sequence() {
        assert_eq!(header(NO_SEQUENCE, 0).last_sequence(), NO_SEQUENCE);
        assert_eq!(header(NO_SEQUENCE, 5).last_sequence(), NO_SEQUENCE);
        // Other negative values are not special: Kafka adds the delta.
        assert_eq!(header(-5, 2).last_sequence(), -3);
    }

    #[test]
    fn increment_matches_kafkas_32_bit_arithmetic() {
        // Expected values worked out with Java int arithmetic:
        // `s > MAX - i ? i - (MAX - s) - 1 : s + i`, every step wrapping.
        let cases = [
            (0, 0, 0),
            (7, 3, 10),
            (2_147_483_646, 1, 2_147_483_647),
            (2_147_483_646, 2, 0),
            (2_147_483_647, 2_147_483_647, 2_147_483_646),
            // A negative increment (a corrupt last_offset_delta): MAX - (-1)
            // wraps to MIN, 5 > MIN, so -1 - (MAX - 5) - 1.
            (5, -1, -2_147_483_644),
            // MAX - MIN wraps to -1; MIN > -1 is false; MIN + MIN wraps to 0.
            (i32::MIN, i32::MIN, 0),
        ];
        for (sequence, increment, expected) in cases {
            assert_eq!(increment_sequence(sequence, increment), expected, "{sequence} + {increment}");
        }
    }
}
