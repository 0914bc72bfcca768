//! Reading Kafka's internal logs: a log segment (`.log`), a KRaft snapshot
//! (`.checkpoint`) or records fetched from an internal topic, as typed
//! entries, each a control record or a record of the family read.
//!
//! ```text
//! segment / snapshot / fetched records = record batches v2, back to back
//! control batch (attributes bit 5) records: key   = int16 version (0) | int16 control type
//!                                           value = by type, below
//!   0 abort, 1 commit  int16 version | EndTxnMarker v0 (int32 coordinator epoch)
//!   2 leader change    LeaderChangeMessage v0        5 kraft.version  KRaftVersionRecord v0
//!   3 snapshot header  SnapshotHeaderRecord v0       6 voters         VotersRecord v0
//!   4 snapshot footer  SnapshotFooterRecord v0
//! snapshot = first batch: a control batch holding the snapshot header;
//!            last batch: a control batch holding the snapshot footer
//! ```
//!
//! Which family the data records belong to is the type parameter: a
//! [`LogRecord`], [`MetadataLogRecord`] for `__cluster_metadata`,
//! [`GroupCoordinatorRecord`](super::group_coordinator::GroupCoordinatorRecord)
//! for `__consumer_offsets`, and so on. Every entry keeps the record it was
//! read from ([`LogEntry::record`]), and [`LogEntry::to_key_value`]
//! gives back its key and value bytes from the typed form.
//!
//! # Example
//! ```
//! use kwire::internal::log::{Entry, LogEntries, MetadataLogRecord};
//! use kwire::internal::metadata::{MetadataRecord, NoOpRecord};
//! use kwire::internal::ApiMessageAndVersion;
//! use kwire::records::RecordBatchBuilder;
//! let value = ApiMessageAndVersion { version: 0, message: MetadataRecord::from(NoOpRecord::default()) };
//! let mut batch = RecordBatchBuilder::new(42);
//! batch.append(0, None, Some(value.to_bytes_framed()?), vec![]);
//! let entries: Vec<_> = LogEntries::<MetadataLogRecord>::new(batch.to_bytes()?).collect::<Result<_, _>>()?;
//! assert_eq!(entries[0].offset, 42);
//! assert!(matches!(&entries[0].entry, Entry::Data(v) if *v == value));
//! assert_eq!(entries[0].to_key_value()?, (None, entries[0].record.value.clone()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::marker::PhantomData;

use bytes::{BufMut, Bytes, BytesMut};

use super::{ApiMessageAndVersion, CoordinatorRecord, RecordData, RecordDecodeError};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::message::Message;
use crate::messages::{
    EndTxnMarker, KRaftVersionRecord, LeaderChangeMessage, SnapshotFooterRecord, SnapshotHeaderRecord, VotersRecord,
};
use crate::primitives::Reader;
use crate::records::{Batch, BatchHeader, Batches, DecodeOptions, Record, RecordError, Records};

/// A record of the metadata log: `__cluster_metadata`'s value framing
/// around a [`MetadataRecord`](super::metadata::MetadataRecord).
pub type MetadataLogRecord = ApiMessageAndVersion<super::metadata::MetadataRecord>;

/// The value of an abort or commit marker: an int16 version, then
/// [`EndTxnMarker`] at version 0 (Kafka's `EndTransactionMarker`, which
/// reads any version from 0 up as version 0).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EndTransactionMarker {
    /// The version written before the marker (0 from every Kafka release).
    pub version: i16,
    /// The marker.
    pub marker: EndTxnMarker,
}

/// The value of a control record, by its control type.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ControlValue {
    /// Type 0 (`ABORT`): a transaction's abort marker.
    Abort(EndTransactionMarker),
    /// Type 1 (`COMMIT`): a transaction's commit marker.
    Commit(EndTransactionMarker),
    /// Type 2 (`LEADER_CHANGE`): a KRaft leader's first record of its epoch.
    LeaderChange(LeaderChangeMessage),
    /// Type 3 (`SNAPSHOT_HEADER`): the first record of a snapshot.
    SnapshotHeader(SnapshotHeaderRecord),
    /// Type 4 (`SNAPSHOT_FOOTER`): the last record of a snapshot.
    SnapshotFooter(SnapshotFooterRecord),
    /// Type 5 (`KRAFT_VERSION`): the finalized kraft.version.
    KRaftVersion(KRaftVersionRecord),
    /// Type 6 (`KRAFT_VOTERS`): the set of voters.
    KRaftVoters(VotersRecord),
}

impl ControlValue {
    /// The control type: 0 to 6.
    pub fn control_type(&self) -> i16 {
        match self {
            Self::Abort(_) => 0,
            Self::Commit(_) => 1,
            Self::LeaderChange(_) => 2,
            Self::SnapshotHeader(_) => 3,
            Self::SnapshotFooter(_) => 4,
            Self::KRaftVersion(_) => 5,
            Self::KRaftVoters(_) => 6,
        }
    }

    /// The name of Kafka's `ControlRecordType` constant, e.g. `SNAPSHOT_HEADER`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Self::Abort(_) => "ABORT",
            Self::Commit(_) => "COMMIT",
            Self::LeaderChange(_) => "LEADER_CHANGE",
            Self::SnapshotHeader(_) => "SNAPSHOT_HEADER",
            Self::SnapshotFooter(_) => "SNAPSHOT_FOOTER",
            Self::KRaftVersion(_) => "KRAFT_VERSION",
            Self::KRaftVoters(_) => "KRAFT_VOTERS",
        }
    }

    /// Kafka's JSON form of the value (feature `json`): the marker's fields
    /// (with `version`) for abort and commit, the message's otherwise.
    ///
    /// # Errors
    /// As [`ToJson::to_json`](crate::json::ToJson::to_json).
    #[cfg(feature = "json")]
    pub fn to_json(&self) -> Result<crate::json::Value, crate::json::JsonError> {
        use crate::json::ToJson;
        match self {
            Self::Abort(m) | Self::Commit(m) => {
                let mut json = m.marker.to_json(0)?;
                if let Some(obj) = json.as_object_mut() {
                    obj.insert("version".into(), m.version.into());
                }
                Ok(json)
            }
            Self::LeaderChange(m) => m.to_json(0),
            Self::SnapshotHeader(m) => m.to_json(0),
            Self::SnapshotFooter(m) => m.to_json(0),
            Self::KRaftVersion(m) => m.to_json(0),
            Self::KRaftVoters(m) => m.to_json(0),
        }
    }
}

/// A control record: the key's version and the typed value.
#[derive(Debug, Clone, PartialEq)]
pub struct ControlRecord {
    /// The version of the key (0 from every Kafka release; Kafka reads the
    /// type of higher versions the same way, and refuses negative ones).
    pub key_version: i16,
    /// The value, typed by the key's control type.
    pub value: ControlValue,
}

/// Reads a value at version 0 that must fill `bytes`.
fn exact<M: Message>(bytes: Bytes) -> Result<M, DecodeError> {
    M::decode_exact(bytes, 0)
}

impl ControlRecord {
    /// Reads a control record from its key and value.
    ///
    /// # Errors
    /// [`RecordDecodeError`] naming the key (shorter than 4 bytes, longer,
    /// of a negative version, or of an unknown control type) or the value
    /// (missing, or not decoding as its type at version 0, bytes left over
    /// included).
    pub fn decode(key: Option<Bytes>, value: Option<Bytes>) -> Result<Self, RecordDecodeError> {
        let key_error = |source| RecordDecodeError { part: super::RecordPart::Key, source };
        let value_error = |source| RecordDecodeError { part: super::RecordPart::Value, source };
        let Some(key) = key else {
            return Err(key_error(DecodeError::new(DecodeErrorKind::NullNotAllowed, 0)));
        };
        let mut r = Reader::new(key);
        let key_version = r.read_i16().map_err(|e| key_error(e.in_field("version")))?;
        if key_version < 0 {
            // Kafka's ControlRecordType.parse refuses it, as records::ControlRecordKey does.
            let e = DecodeError::new(DecodeErrorKind::UnsupportedVersion(key_version), 0).in_field("version");
            return Err(key_error(e));
        }
        let at = r.offset();
        let control_type = r.read_i16().map_err(|e| key_error(e.in_field("type")))?;
        r.finish().map_err(key_error)?;
        if !(0..=6).contains(&control_type) {
            let e = DecodeError::new(DecodeErrorKind::UnknownRecordType(control_type), at).in_field("type");
            return Err(key_error(e));
        }
        let Some(value) = value else {
            return Err(value_error(DecodeError::new(DecodeErrorKind::NullNotAllowed, 0)));
        };
        let value = match control_type {
            0 | 1 => {
                let mut r = Reader::new(value);
                let version = r.read_i16().map_err(|e| value_error(e.in_field("version")))?;
                if version < 0 {
                    return Err(value_error(r.error(DecodeErrorKind::UnsupportedVersion(version))));
                }
                let marker = EndTxnMarker::decode_from(&mut r, 0).map_err(value_error)?;
                r.finish().map_err(value_error)?;
                let marker = EndTransactionMarker { version, marker };
                if control_type == 0 {
                    ControlValue::Abort(marker)
                } else {
                    ControlValue::Commit(marker)
                }
            }
            2 => ControlValue::LeaderChange(exact(value).map_err(value_error)?),
            3 => ControlValue::SnapshotHeader(exact(value).map_err(value_error)?),
            4 => ControlValue::SnapshotFooter(exact(value).map_err(value_error)?),
            5 => ControlValue::KRaftVersion(exact(value).map_err(value_error)?),
            _ => ControlValue::KRaftVoters(exact(value).map_err(value_error)?),
        };
        Ok(Self { key_version, value })
    }

    /// The key's bytes: int16 key version, int16 control type.
    pub fn key_bytes(&self) -> Bytes {
        let mut buf = BytesMut::with_capacity(4);
        buf.put_i16(self.key_version);
        buf.put_i16(self.value.control_type());
        buf.freeze()
    }

    /// The value's bytes.
    ///
    /// # Errors
    /// As [`Message::encode`].
    pub fn value_bytes(&self) -> Result<Bytes, EncodeError> {
        match &self.value {
            ControlValue::Abort(m) | ControlValue::Commit(m) => {
                let mut buf = BytesMut::with_capacity(6);
                buf.put_i16(m.version);
                m.marker.encode(&mut buf, 0)?;
                Ok(buf.freeze())
            }
            ControlValue::LeaderChange(m) => m.to_bytes(0),
            ControlValue::SnapshotHeader(m) => m.to_bytes(0),
            ControlValue::SnapshotFooter(m) => m.to_bytes(0),
            ControlValue::KRaftVersion(m) => m.to_bytes(0),
            ControlValue::KRaftVoters(m) => m.to_bytes(0),
        }
    }
}

/// The records of one family, as their key and value bytes hold them.
pub trait LogRecord: Sized {
    /// Reads a record from its key and value (`None` for null), as a
    /// [`Record`] holds them.
    ///
    /// # Errors
    /// A [`RecordDecodeError`] naming the part that failed: for a
    /// [`CoordinatorRecord`], a null key, a key shorter than 2 bytes or of
    /// an unknown record type, either struct failing to decode (a value
    /// version outside its schema's among them), or bytes left after
    /// either; for an [`ApiMessageAndVersion`], a non-null key, a null
    /// value, or a value that [`ApiMessageAndVersion::decode_framed`]
    /// refuses.
    fn decode(key: Option<Bytes>, value: Option<Bytes>) -> Result<Self, RecordDecodeError>;

    /// The key and value bytes the record is written as.
    ///
    /// # Errors
    /// As [`Message::encode`].
    fn to_key_value(&self) -> Result<(Option<Bytes>, Option<Bytes>), EncodeError>;
}

/// Metadata log records (and `__remote_log_metadata`'s): key null, value framed.
impl<T: RecordData> LogRecord for ApiMessageAndVersion<T> {
    fn decode(key: Option<Bytes>, value: Option<Bytes>) -> Result<Self, RecordDecodeError> {
        if let Some(key) = key {
            let source = DecodeError::new(DecodeErrorKind::Invalid("metadata log records have a null key"), 0)
                .in_field(if key.is_empty() { "empty key" } else { "key" });
            return Err(RecordDecodeError { part: super::RecordPart::Key, source });
        }
        let Some(value) = value else {
            let source = DecodeError::new(DecodeErrorKind::NullNotAllowed, 0);
            return Err(RecordDecodeError { part: super::RecordPart::Value, source });
        };
        Self::decode_framed(value).map_err(|source| RecordDecodeError { part: super::RecordPart::Value, source })
    }

    fn to_key_value(&self) -> Result<(Option<Bytes>, Option<Bytes>), EncodeError> {
        Ok((None, Some(self.to_bytes_framed()?)))
    }
}

/// Coordinator records: key required, value null for a tombstone.
impl<K: RecordData, V: RecordData> LogRecord for CoordinatorRecord<K, V> {
    fn decode(key: Option<Bytes>, value: Option<Bytes>) -> Result<Self, RecordDecodeError> {
        let Some(key) = key else {
            let source = DecodeError::new(DecodeErrorKind::NullNotAllowed, 0);
            return Err(RecordDecodeError { part: super::RecordPart::Key, source });
        };
        CoordinatorRecord::decode_keyed(key, value)
    }

    fn to_key_value(&self) -> Result<(Option<Bytes>, Option<Bytes>), EncodeError> {
        Ok((Some(self.key_bytes()?), self.value_bytes()?))
    }
}

/// One entry of a log: a control record or a record of the family.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry<R> {
    /// A record of a control batch.
    Control(ControlRecord),
    /// A record of a data batch.
    Data(R),
}

/// One record of a log, typed, with where it was found.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEntry<R> {
    /// The header of its batch.
    pub batch: BatchHeader,
    /// Its offset.
    pub offset: i64,
    /// Its timestamp in ms (the batch's, for log-append time).
    pub timestamp: i64,
    /// The record as read: key, value, headers and deltas.
    pub record: Record,
    /// The record typed.
    pub entry: Entry<R>,
}

impl<R: LogRecord> LogEntry<R> {
    /// The key and value bytes of the typed entry: equal to
    /// [`LogEntry::record`]'s key and value for every entry read from Kafka's logs.
    ///
    /// # Errors
    /// As [`Message::encode`].
    pub fn to_key_value(&self) -> Result<(Option<Bytes>, Option<Bytes>), EncodeError> {
        match &self.entry {
            Entry::Control(c) => Ok((Some(c.key_bytes()), Some(c.value_bytes()?))),
            Entry::Data(r) => r.to_key_value(),
        }
    }
}

/// What went wrong reading a log, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LogError {
    /// The batches themselves: lengths, CRCs, compression.
    Batch(RecordError),
    /// A record whose key or value does not decode.
    Record {
        /// The record's offset.
        offset: i64,
        /// The part and the decoding error, with its place.
        source: RecordDecodeError,
    },
    /// A legacy message (magic 0 or 1): Kafka's internal logs of the
    /// releases these schemas come from hold record batches v2 only.
    Legacy {
        /// The message's offset.
        offset: i64,
        /// Its magic byte.
        magic: i8,
    },
    /// A snapshot that does not begin with a snapshot header or end with a
    /// snapshot footer.
    Snapshot(&'static str),
}

impl fmt::Display for LogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Batch(e) => fmt::Display::fmt(e, f),
            Self::Record { offset, source } => write!(f, "record at offset {offset}: {source}"),
            Self::Legacy { offset, magic } => {
                write!(f, "entry at offset {offset}: legacy messages (magic {magic}) are not read as internal records")
            }
            Self::Snapshot(what) => write!(f, "snapshot: {what}"),
        }
    }
}

impl std::error::Error for LogError {
    /// The [`RecordDecodeError`] of a `Record`; a `Batch` error is shown in
    /// place, so this is the [`RecordError`]'s own source.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Batch(e) => std::error::Error::source(e),
            Self::Record { source, .. } => Some(source),
            Self::Legacy { .. } | Self::Snapshot(_) => None,
        }
    }
}

impl From<RecordError> for LogError {
    /// [`LogError::Batch`].
    fn from(e: RecordError) -> Self {
        Self::Batch(e)
    }
}

/// Iterator over the typed entries of a log: a log segment file, a
/// snapshot file, or the records of a Fetch response partition.
#[derive(Debug)]
pub struct LogEntries<R> {
    batches: Batches,
    options: DecodeOptions,
    current: Option<(BatchHeader, Records)>,
    done: bool,
    family: PhantomData<fn() -> R>,
}

impl<R: LogRecord> LogEntries<R> {
    /// The entries of `bytes`: a log segment file, a snapshot file, or the
    /// records of a Fetch response partition, read with default
    /// [`DecodeOptions`] (CRCs checked, a partial batch at the end skipped,
    /// 256 MiB decompressed in all: a large segment file of compressed
    /// batches needs [`LogEntries::with_options`] with a higher
    /// [`DecodeOptions::max_total_decompressed_size`]).
    pub fn new(bytes: Bytes) -> Self {
        Self::with_options(bytes, DecodeOptions::default())
    }

    /// As [`LogEntries::new`], with `options`.
    pub fn with_options(bytes: Bytes, options: DecodeOptions) -> Self {
        LogEntries {
            batches: Batches::with_options(bytes, options),
            options,
            current: None,
            done: false,
            family: PhantomData,
        }
    }

    /// The batches read so far, for [`Batches::partial_batch`].
    pub fn batches(&self) -> &Batches {
        &self.batches
    }

    fn next_entry(&mut self) -> Result<Option<LogEntry<R>>, LogError> {
        loop {
            if let Some((header, records)) = &mut self.current {
                match records.next() {
                    Some(record) => {
                        let record = record?;
                        let header = *header;
                        let offset = header.offset_of(&record);
                        let (key, value) = (record.key.clone(), record.value.clone());
                        let entry = if header.attributes.is_control() {
                            ControlRecord::decode(key, value).map(Entry::Control)
                        } else {
                            R::decode(key, value).map(Entry::Data)
                        };
                        let entry = entry.map_err(|source| LogError::Record { offset, source })?;
                        let timestamp = header.timestamp_of(&record);
                        return Ok(Some(LogEntry { batch: header, offset, timestamp, record, entry }));
                    }
                    None => self.current = None,
                }
            }
            match self.batches.next() {
                None => return Ok(None),
                Some(Err(e)) => return Err(e.into()),
                Some(Ok(Batch::Legacy(m))) => return Err(LogError::Legacy { offset: m.offset, magic: m.magic }),
                Some(Ok(Batch::V2(batch))) => {
                    let records = batch.records(&self.options)?;
                    self.current = Some((*batch.header(), records));
                }
            }
        }
    }
}

impl<R: LogRecord> Iterator for LogEntries<R> {
    type Item = Result<LogEntry<R>, LogError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let result = self.next_entry().transpose();
        self.done = !matches!(result, Some(Ok(_)));
        result
    }
}

/// A KRaft snapshot (`.checkpoint` file) read whole.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot<R> {
    /// The header: the first record.
    pub header: SnapshotHeaderRecord,
    /// The footer: the last record.
    pub footer: SnapshotFooterRecord,
    /// Every entry, header and footer included, in order.
    pub entries: Vec<LogEntry<R>>,
}

impl<R: LogRecord> Snapshot<R> {
    /// Reads a snapshot: its entries, checking that the first is a snapshot
    /// header in a control batch and the last a snapshot footer. Bytes too
    /// few to be a whole batch at the end are ignored, as Kafka's readers
    /// do; to refuse them, read the entries with [`LogEntries::with_options`]
    /// and [`DecodeOptions::reject_partial_batch`].
    ///
    /// # Errors
    /// As [`LogEntries::new`]'s entries; [`LogError::Snapshot`] when the
    /// header or footer is not where it belongs.
    pub fn decode(bytes: Bytes) -> Result<Self, LogError> {
        let entries: Vec<LogEntry<R>> = LogEntries::new(bytes).collect::<Result<_, _>>()?;
        let header = match entries.first().map(|e| &e.entry) {
            Some(Entry::Control(ControlRecord { value: ControlValue::SnapshotHeader(h), .. })) => h.clone(),
            _ => return Err(LogError::Snapshot("the first record is not a snapshot header")),
        };
        let footer = match entries.last().map(|e| &e.entry) {
            Some(Entry::Control(ControlRecord { value: ControlValue::SnapshotFooter(f), .. })) => f.clone(),
            _ => return Err(LogError::Snapshot("the last record is not a snapshot footer")),
        };
        Ok(Snapshot { header, footer, entries })
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;
    use crate::internal::RecordPart;
    use crate::records::{Location, RecordErrorKind};

    /// The text of every variant, as users match on it, and its source.
    #[test]
    fn log_error_texts_and_sources() {
        let utf8 = DecodeError::new(DecodeErrorKind::InvalidUtf8, 5).in_field("name");
        let batch = RecordError::new(RecordErrorKind::Decode { source: utf8.clone() }, Location::batch(7));
        // Shown in place: the batch error's text, and its own source.
        let err = LogError::from(batch.clone());
        assert_eq!(err.to_string(), batch.to_string());
        assert_eq!(err.to_string(), "batch at offset 7: name: string is not valid UTF-8 (offset 5)");
        assert_eq!(err.source().map(ToString::to_string), Some(utf8.to_string()));
        let crc = RecordError::new(RecordErrorKind::CrcMismatch { stored: 1, computed: 2 }, Location::batch(0));
        assert!(LogError::from(crc).source().is_none());

        let record = RecordDecodeError { part: RecordPart::Value, source: utf8.clone() };
        assert_eq!(record.to_string(), "value: name: string is not valid UTF-8 (offset 5)");
        assert_eq!(record.source().map(ToString::to_string), Some(utf8.to_string()));
        let err = LogError::Record { offset: 42, source: record.clone() };
        assert_eq!(err.to_string(), "record at offset 42: value: name: string is not valid UTF-8 (offset 5)");
        assert_eq!(err.source().map(ToString::to_string), Some(record.to_string()));
        let key = RecordDecodeError { part: RecordPart::Key, source: utf8 };
        assert_eq!(key.to_string(), "key: name: string is not valid UTF-8 (offset 5)");

        let err = LogError::Legacy { offset: 3, magic: 1 };
        assert_eq!(err.to_string(), "entry at offset 3: legacy messages (magic 1) are not read as internal records");
        assert!(err.source().is_none());
        let err = LogError::Snapshot("no snapshot header");
        assert_eq!(err.to_string(), "snapshot: no snapshot header");
        assert!(err.source().is_none());
    }
}
