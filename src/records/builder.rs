//! [`RecordBatchBuilder`]: records in, one v2 batch out, with its length,
//! deltas, record count and CRC-32C computed.

use bytes::{Bytes, BytesMut};

use super::batch::{Attributes, BatchHeader, TimestampType, LOG_OVERHEAD, MAGIC_V2};
use super::compression::compress;
use super::compression_type::Compression;
use super::error::{Location, RecordError, RecordErrorKind};
use super::record::{to_i32, Header, Record};

/// Builds one v2 record batch.
///
/// Defaults are those of a plain (non-idempotent) producer: partition
/// leader epoch, producer id, producer epoch and base sequence -1, no
/// compression, create time. [`RecordBatchBuilder::append`] gives each
/// record the next offset delta and a timestamp delta from the base
/// timestamp (the first appended timestamp unless set before).
/// `last_offset_delta` and `max_timestamp` come from the records unless set.
///
/// ```text
/// base_offset | batch_length* | leader_epoch | 02 | crc* | attributes | last_offset_delta*
/// | base_timestamp* | max_timestamp* | producer_id | producer_epoch | base_sequence
/// | record_count* | records (compressed as a whole)          * computed
/// ```
///
/// # Example
/// ```
/// use bytes::Bytes;
/// use kwire::records::{Batch, Batches, Compression, DecodeOptions, Header, RecordBatchBuilder};
/// let mut builder = RecordBatchBuilder::new(0);
/// builder.compression(Compression::None).producer(7, 0, 42);
/// for i in 0..3 {
///     let headers = vec![Header::new("h", Some(Bytes::from_static(b"v")))];
///     builder.append(1_700_000_000_000 + i, Some(format!("k{i}").into()), Some(format!("hello-{i}").into()), headers);
/// }
/// let bytes = builder.to_bytes().unwrap();
/// let Some(Ok(Batch::V2(batch))) = Batches::new(bytes).next() else { panic!() };
/// let h = batch.header();
/// assert_eq!((h.record_count, h.last_offset_delta, h.max_timestamp), (3, 2, 1_700_000_000_002));
/// assert_eq!((h.producer_id, h.producer_epoch, h.base_sequence), (7, 0, 42));
/// let values: Vec<_> = batch.records(&DecodeOptions::default()).unwrap().map(|r| r.unwrap().value.unwrap()).collect();
/// assert_eq!(values, ["hello-0", "hello-1", "hello-2"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordBatchBuilder {
    base_offset: i64,
    partition_leader_epoch: i32,
    attributes: Attributes,
    base_timestamp: Option<i64>,
    max_timestamp: Option<i64>,
    last_offset_delta: Option<i32>,
    producer_id: i64,
    producer_epoch: i16,
    base_sequence: i32,
    records: Vec<Record>,
}

impl RecordBatchBuilder {
    /// An empty batch whose first record will have offset `base_offset`
    /// (producers send 0; the broker assigns the real offset).
    pub fn new(base_offset: i64) -> Self {
        Self {
            base_offset,
            partition_leader_epoch: -1,
            attributes: Attributes::new(),
            base_timestamp: None,
            max_timestamp: None,
            last_offset_delta: None,
            producer_id: -1,
            producer_epoch: -1,
            base_sequence: -1,
            records: Vec::new(),
        }
    }

    /// A builder that writes `header`'s fields as they are (attributes,
    /// `last_offset_delta` and `max_timestamp` included), so that a decoded
    /// batch re-encodes byte for byte once its records are pushed back with
    /// [`RecordBatchBuilder::push`]. Length, CRC and count are computed.
    pub fn from_header(header: &BatchHeader) -> Self {
        Self {
            base_offset: header.base_offset,
            partition_leader_epoch: header.partition_leader_epoch,
            attributes: header.attributes,
            base_timestamp: Some(header.base_timestamp),
            max_timestamp: Some(header.max_timestamp),
            last_offset_delta: Some(header.last_offset_delta),
            producer_id: header.producer_id,
            producer_epoch: header.producer_epoch,
            base_sequence: header.base_sequence,
            records: Vec::new(),
        }
    }

    /// Sets the partition leader epoch (brokers stamp it; producers send -1).
    pub fn partition_leader_epoch(&mut self, epoch: i32) -> &mut Self {
        self.partition_leader_epoch = epoch;
        self
    }

    /// Sets all attribute bits at once.
    pub fn attributes(&mut self, attributes: Attributes) -> &mut Self {
        self.attributes = attributes;
        self
    }

    /// Sets the codec that compresses the records as a whole.
    pub fn compression(&mut self, compression: Compression) -> &mut Self {
        self.attributes = self.attributes.with_compression(compression);
        self
    }

    /// Sets the timestamp type. For log-append time, also set
    /// [`RecordBatchBuilder::max_timestamp`] to the append time.
    pub fn timestamp_type(&mut self, timestamp_type: TimestampType) -> &mut Self {
        self.attributes = self.attributes.with_timestamp_type(timestamp_type);
        self
    }

    /// Marks the batch transactional.
    pub fn transactional(&mut self, on: bool) -> &mut Self {
        self.attributes = self.attributes.with_transactional(on);
        self
    }

    /// Marks the batch as a control batch.
    pub fn control(&mut self, on: bool) -> &mut Self {
        self.attributes = self.attributes.with_control(on);
        self
    }

    /// Sets the idempotent producer's id, epoch and first sequence number.
    pub fn producer(&mut self, id: i64, epoch: i16, base_sequence: i32) -> &mut Self {
        self.producer_id = id;
        self.producer_epoch = epoch;
        self.base_sequence = base_sequence;
        self
    }

    /// Sets the base timestamp (ms) that later [`RecordBatchBuilder::append`]
    /// calls measure from; records already appended keep their deltas.
    pub fn base_timestamp(&mut self, timestamp: i64) -> &mut Self {
        self.base_timestamp = Some(timestamp);
        self
    }

    /// Sets `max_timestamp` (ms) instead of computing it from the records.
    pub fn max_timestamp(&mut self, timestamp: i64) -> &mut Self {
        self.max_timestamp = Some(timestamp);
        self
    }

    /// Sets `last_offset_delta` instead of taking the records' largest.
    pub fn last_offset_delta(&mut self, delta: i32) -> &mut Self {
        self.last_offset_delta = Some(delta);
        self
    }

    /// Appends a record with the next offset delta (0 first) and its
    /// timestamp (ms) as a delta from the base timestamp.
    pub fn append(
        &mut self,
        timestamp: i64,
        key: Option<Bytes>,
        value: Option<Bytes>,
        headers: Vec<Header>,
    ) -> &mut Self {
        let base = *self.base_timestamp.get_or_insert(timestamp);
        let offset_delta = self.records.last().map_or(0, |r| r.offset_delta.wrapping_add(1));
        self.records.push(Record {
            attributes: 0,
            timestamp_delta: timestamp.wrapping_sub(base),
            offset_delta,
            key,
            value,
            headers,
        });
        self
    }

    /// Appends a record with its deltas as they are.
    pub fn push(&mut self, record: Record) -> &mut Self {
        self.records.push(record);
        self
    }

    /// The records so far.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The header [`RecordBatchBuilder::encode`] writes, before its length and CRC.
    fn header(&self) -> Result<BatchHeader, RecordError> {
        let base_timestamp = self.base_timestamp.unwrap_or(-1);
        let max_timestamp = self.max_timestamp.unwrap_or_else(|| {
            self.records.iter().map(|r| base_timestamp.wrapping_add(r.timestamp_delta)).max().unwrap_or(base_timestamp)
        });
        let last_offset_delta =
            self.last_offset_delta.unwrap_or_else(|| self.records.iter().map(|r| r.offset_delta).max().unwrap_or(0));
        Ok(BatchHeader {
            base_offset: self.base_offset,
            batch_length: 0,
            partition_leader_epoch: self.partition_leader_epoch,
            magic: MAGIC_V2,
            crc: 0,
            attributes: self.attributes,
            last_offset_delta,
            base_timestamp,
            max_timestamp,
            producer_id: self.producer_id,
            producer_epoch: self.producer_epoch,
            base_sequence: self.base_sequence,
            record_count: to_i32("record count", self.records.len())?,
        })
    }

    /// Appends the batch to `buf`.
    ///
    /// # Errors
    /// [`RecordErrorKind::TooLarge`] when a record, the record count or the
    /// batch passes the format's int32 limits; [`RecordErrorKind::UnknownCompression`]
    /// for attributes bits 0-2 of 5-7; [`RecordErrorKind::CompressionUnavailable`]
    /// or [`RecordErrorKind::Compress`] from the codec. On error, see
    /// [buffers after an error](crate::error#buffers-after-an-error).
    pub fn encode(&self, buf: &mut BytesMut) -> Result<(), RecordError> {
        let start = buf.len();
        let result = self.encode_inner(buf, start);
        if result.is_err() {
            buf.truncate(start);
        }
        result
    }

    fn encode_inner(&self, buf: &mut BytesMut, start: usize) -> Result<(), RecordError> {
        let header = self.header()?;
        let compression = self.attributes.compression().ok_or_else(|| {
            RecordError::new(
                RecordErrorKind::UnknownCompression { codec: self.attributes.compression_id() },
                Location::batch(self.base_offset).field("attributes"),
            )
        })?;
        let mut records_len = 0usize;
        for r in &self.records {
            records_len = records_len.saturating_add(r.encoded_size()?);
        }
        if compression == Compression::None {
            buf.reserve(BatchHeader::SIZE.saturating_add(records_len));
            header.encode(buf);
            for r in &self.records {
                r.encode(buf)?;
            }
        } else {
            let mut raw = Vec::with_capacity(records_len);
            for r in &self.records {
                r.encode(&mut raw)?;
            }
            let packed = compress(compression, &raw)?;
            buf.reserve(BatchHeader::SIZE + packed.len());
            header.encode(buf);
            buf.extend_from_slice(&packed);
        }
        let batch_length = to_i32("batch", buf.len() - start - LOG_OVERHEAD)?;
        buf[start + 8..start + 12].copy_from_slice(&batch_length.to_be_bytes());
        let crc = crc32c::crc32c(&buf[start + 21..]);
        buf[start + 17..start + 21].copy_from_slice(&crc.to_be_bytes());
        Ok(())
    }

    /// The batch as one buffer.
    ///
    /// # Errors
    /// As [`RecordBatchBuilder::encode`].
    pub fn to_bytes(&self) -> Result<Bytes, RecordError> {
        let mut buf = BytesMut::new();
        self.encode(&mut buf)?;
        Ok(buf.freeze())
    }
}
