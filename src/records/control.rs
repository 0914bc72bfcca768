//! Control records: the records of a control batch (attributes bit 5),
//! typed. A control record's key says what it is; a transaction marker's
//! value says which coordinator epoch wrote it.
//!
//! ```text
//! key (every control record, 4 bytes at version 0):
//!   version  int16   0; a reader takes a later version as 0, a negative one is invalid
//!   type     int16   0 abort, 1 commit, 2 leader change, 3 snapshot header,
//!                    4 snapshot footer, 5 KRaft version, 6 KRaft voters
//!
//! value of an abort or commit marker (EndTxnMarker, 6 bytes at version 0):
//!   version            int16  0; later versions read as 0, negative invalid
//!   coordinator_epoch  int32  epoch of the transaction coordinator that wrote it
//! ```
//!
//! Transaction markers (KIP-98) end a transaction in each partition it
//! wrote: a control batch of one record whose key type is commit (1) or
//! abort (0), written with the transaction's producer id and epoch. A
//! consumer at `read_committed` drops the aborted records; at
//! `read_uncommitted` it sees them and the markers. Types 2-6 are written by
//! KRaft (KIP-595, KIP-630, KIP-853) in the metadata log and its snapshots;
//! their values are KRaft messages this module does not read.
//!
//! Apache Kafka 4.4.0 reads these as this module does (checked against its
//! `ControlRecordType` and `EndTransactionMarker`, and against its producer's
//! markers by `interop/tests/cluster_records.rs`): a key shorter than 4 bytes or
//! with a negative version is invalid; a type it does not know is kept as
//! unknown, not an error ([`ControlRecordType::Unknown`] keeps its id here);
//! bytes after the fields are ignored.

use bytes::{BufMut, Bytes};

use super::batch::RecordBatch;
use super::error::{Location, RecordError, RecordErrorKind};
use super::record::Record;
use super::DecodeOptions;
use crate::error::{DecodeError, DecodeErrorKind};

/// The version of control record keys written: 0.
pub const CONTROL_RECORD_KEY_VERSION: i16 = 0;

/// Bytes in a control record key at version 0: version and type, two int16s.
pub const CONTROL_RECORD_KEY_SIZE: usize = 4;

/// The version of transaction marker values written: 0.
pub const END_TXN_MARKER_VERSION: i16 = 0;

/// Bytes in a transaction marker value at version 0: version (int16) and
/// coordinator epoch (int32).
pub const END_TXN_MARKER_SIZE: usize = 6;

/// What a control record is: the `type` field of its key.
///
/// ```
/// use kwire::records::ControlRecordType;
/// assert_eq!(ControlRecordType::from_id(1), ControlRecordType::Commit);
/// assert_eq!(ControlRecordType::Commit.id(), 1);
/// assert_eq!(ControlRecordType::from_id(42), ControlRecordType::Unknown(42));
/// assert_eq!(ControlRecordType::Unknown(42).id(), 42);
/// assert!(ControlRecordType::Abort.is_transaction_marker());
/// assert!(!ControlRecordType::LeaderChange.is_transaction_marker());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ControlRecordType {
    /// 0: the transaction was aborted (KIP-98); the value is an [`EndTxnMarker`].
    Abort,
    /// 1: the transaction was committed (KIP-98); the value is an [`EndTxnMarker`].
    Commit,
    /// 2: a KRaft leader was elected (KIP-595); the value is a `LeaderChangeMessage`.
    LeaderChange,
    /// 3: first record of a KRaft snapshot (KIP-630); the value is a `SnapshotHeaderRecord`.
    SnapshotHeader,
    /// 4: last record of a KRaft snapshot (KIP-630); the value is a `SnapshotFooterRecord`.
    SnapshotFooter,
    /// 5: the KRaft protocol version (KIP-853); the value is a `KRaftVersionRecord`.
    KraftVersion,
    /// 6: the KRaft voter set (KIP-853); the value is a `VotersRecord`.
    KraftVoters,
    /// Any other id, kept as read (Kafka's readers call it unknown and go on).
    Unknown(i16),
}

impl ControlRecordType {
    /// The type of id `id`; ids without a name give [`ControlRecordType::Unknown`].
    pub const fn from_id(id: i16) -> Self {
        match id {
            0 => Self::Abort,
            1 => Self::Commit,
            2 => Self::LeaderChange,
            3 => Self::SnapshotHeader,
            4 => Self::SnapshotFooter,
            5 => Self::KraftVersion,
            6 => Self::KraftVoters,
            other => Self::Unknown(other),
        }
    }

    /// The id on the wire.
    pub const fn id(self) -> i16 {
        match self {
            Self::Abort => 0,
            Self::Commit => 1,
            Self::LeaderChange => 2,
            Self::SnapshotHeader => 3,
            Self::SnapshotFooter => 4,
            Self::KraftVersion => 5,
            Self::KraftVoters => 6,
            Self::Unknown(id) => id,
        }
    }

    /// Kafka's name for the type (`ABORT`, `COMMIT`, ..., `UNKNOWN`).
    ///
    /// ```
    /// use kwire::records::ControlRecordType;
    /// assert_eq!(ControlRecordType::KraftVoters.name(), "KRAFT_VOTERS");
    /// assert_eq!(ControlRecordType::Unknown(-3).name(), "UNKNOWN");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Self::Abort => "ABORT",
            Self::Commit => "COMMIT",
            Self::LeaderChange => "LEADER_CHANGE",
            Self::SnapshotHeader => "SNAPSHOT_HEADER",
            Self::SnapshotFooter => "SNAPSHOT_FOOTER",
            Self::KraftVersion => "KRAFT_VERSION",
            Self::KraftVoters => "KRAFT_VOTERS",
            Self::Unknown(_) => "UNKNOWN",
        }
    }

    /// True for commit and abort, whose value is an [`EndTxnMarker`].
    pub const fn is_transaction_marker(self) -> bool {
        matches!(self, Self::Abort | Self::Commit)
    }
}

fn short(at: Location, needed: usize, remaining: usize) -> RecordError {
    RecordError::new(
        RecordErrorKind::Decode { source: DecodeError::new(DecodeErrorKind::NotEnoughBytes { needed, remaining }, 0) },
        at,
    )
}

fn read_i16(bytes: &[u8], from: usize) -> Option<i16> {
    let pair = bytes.get(from..from.checked_add(2)?)?;
    Some(i16::from_be_bytes([pair[0], pair[1]]))
}

/// The key of a control record: a version and a [`ControlRecordType`]
/// (layout in the module docs).
///
/// # Example
/// ```
/// use kwire::records::{ControlRecordKey, ControlRecordType};
/// // A commit marker's key: version 0, type 1.
/// let key = ControlRecordKey::parse(&[0x00, 0x00, 0x00, 0x01]).unwrap();
/// assert_eq!(key, ControlRecordKey { version: 0, record_type: ControlRecordType::Commit });
/// assert_eq!(&key.to_bytes()[..], [0x00, 0x00, 0x00, 0x01]);
/// // A type this crate does not know is kept, not refused.
/// let key = ControlRecordKey::parse(&[0x00, 0x00, 0x00, 0x63]).unwrap();
/// assert_eq!(key.record_type, ControlRecordType::Unknown(99));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ControlRecordKey {
    /// The key's version, as read (a reader takes any version above 0 as 0).
    pub version: i16,
    /// What the record is.
    pub record_type: ControlRecordType,
}

impl ControlRecordKey {
    /// The key Kafka writes for `record_type`: version 0.
    pub const fn new(record_type: ControlRecordType) -> Self {
        Self { version: CONTROL_RECORD_KEY_VERSION, record_type }
    }

    /// Reads a key's head: version, then type. A version above 0 is read
    /// as version 0 and kept in [`ControlRecordKey::version`]. Trailing
    /// bytes after the type are ignored, not an error, as Kafka ignores them
    /// (room for fields of newer versions).
    ///
    /// # Errors
    /// [`RecordErrorKind::Decode`] (field `control key`) when fewer than 4
    /// bytes are given; [`RecordErrorKind::Invalid`] (field `control key
    /// version`) for a negative version.
    ///
    /// ```
    /// use kwire::records::{ControlRecordKey, ControlRecordType};
    /// // Version 1 and two bytes more: read as version 0, the rest ignored.
    /// let key = ControlRecordKey::parse(&[0x00, 0x01, 0x00, 0x00, 0xaa, 0xbb]).unwrap();
    /// assert_eq!(key, ControlRecordKey { version: 1, record_type: ControlRecordType::Abort });
    /// ```
    pub fn parse(key: &[u8]) -> Result<Self, RecordError> {
        Self::parse_at(key, Location::default())
    }

    fn parse_at(key: &[u8], at: Location) -> Result<Self, RecordError> {
        let (Some(version), Some(id)) = (read_i16(key, 0), read_i16(key, 2)) else {
            return Err(short(at.field("control key"), CONTROL_RECORD_KEY_SIZE, key.len()));
        };
        if version < 0 {
            return Err(RecordError::new(
                RecordErrorKind::Invalid { what: "negative control record key version" },
                at.field("control key version"),
            ));
        }
        Ok(Self { version, record_type: ControlRecordType::from_id(id) })
    }

    /// Appends the 4 bytes: version, type.
    pub fn encode(&self, buf: &mut impl BufMut) {
        buf.put_i16(self.version);
        buf.put_i16(self.record_type.id());
    }

    /// The 4 bytes of the key.
    pub fn to_bytes(&self) -> Bytes {
        let mut buf = Vec::with_capacity(CONTROL_RECORD_KEY_SIZE);
        self.encode(&mut buf);
        Bytes::from(buf)
    }
}

/// The value of a commit or abort marker (Kafka's `EndTxnMarker`): its
/// version and the epoch of the transaction coordinator that wrote it
/// (layout in the module docs).
///
/// # Example
/// ```
/// use kwire::records::EndTxnMarker;
/// let marker = EndTxnMarker::parse(&[0x00, 0x00, 0x00, 0x00, 0x00, 0x05]).unwrap();
/// assert_eq!(marker, EndTxnMarker { version: 0, coordinator_epoch: 5 });
/// assert_eq!(&EndTxnMarker::new(5).to_bytes()[..], [0x00, 0x00, 0x00, 0x00, 0x00, 0x05]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EndTxnMarker {
    /// The value's version, as read (a reader takes any version above 0 as 0).
    pub version: i16,
    /// Epoch of the transaction coordinator that wrote the marker.
    pub coordinator_epoch: i32,
}

impl EndTxnMarker {
    /// The value Kafka writes: version 0 and `coordinator_epoch`.
    pub const fn new(coordinator_epoch: i32) -> Self {
        Self { version: END_TXN_MARKER_VERSION, coordinator_epoch }
    }

    /// Reads a marker value's head: version, then coordinator epoch. A
    /// version above 0 is read as version 0 and kept. Trailing bytes after
    /// the epoch are ignored, not an error, as Kafka ignores them (room for
    /// fields of newer versions).
    ///
    /// # Errors
    /// [`RecordErrorKind::Decode`] (field `marker`) when fewer than 6 bytes are
    /// given; [`RecordErrorKind::Invalid`] (field `marker version`) for a
    /// negative version.
    ///
    /// ```
    /// use kwire::records::EndTxnMarker;
    /// // Version 1 and one byte more: read as version 0, the rest ignored.
    /// let marker = EndTxnMarker::parse(&[0x00, 0x01, 0x00, 0x00, 0x00, 0x07, 0xff]).unwrap();
    /// assert_eq!(marker, EndTxnMarker { version: 1, coordinator_epoch: 7 });
    /// ```
    pub fn parse(value: &[u8]) -> Result<Self, RecordError> {
        Self::parse_at(value, Location::default())
    }

    fn parse_at(value: &[u8], at: Location) -> Result<Self, RecordError> {
        let Some(version) = read_i16(value, 0) else {
            return Err(short(at.field("marker"), END_TXN_MARKER_SIZE, value.len()));
        };
        if version < 0 {
            return Err(RecordError::new(
                RecordErrorKind::Invalid { what: "negative marker version" },
                at.field("marker version"),
            ));
        }
        let Some(epoch) = value.get(2..END_TXN_MARKER_SIZE) else {
            return Err(short(at.field("marker"), END_TXN_MARKER_SIZE, value.len()));
        };
        let coordinator_epoch = i32::from_be_bytes([epoch[0], epoch[1], epoch[2], epoch[3]]);
        Ok(Self { version, coordinator_epoch })
    }

    /// Appends the 6 bytes: version, coordinator epoch.
    pub fn encode(&self, buf: &mut impl BufMut) {
        buf.put_i16(self.version);
        buf.put_i32(self.coordinator_epoch);
    }

    /// The 6 bytes of the value.
    pub fn to_bytes(&self) -> Bytes {
        let mut buf = Vec::with_capacity(END_TXN_MARKER_SIZE);
        self.encode(&mut buf);
        Bytes::from(buf)
    }
}

/// One record of a control batch, read: its key, and for commit and abort
/// its [`EndTxnMarker`]. The value of other types (KRaft messages) is left
/// in the [`Record`].
///
/// # Example
/// ```
/// use kwire::records::{ControlRecord, ControlRecordKey, ControlRecordType, EndTxnMarker, Location, Record};
/// let record = Record {
///     key: Some(ControlRecordKey::new(ControlRecordType::Abort).to_bytes()),
///     value: Some(EndTxnMarker::new(3).to_bytes()),
///     ..Record::default()
/// };
/// let control = ControlRecord::from_record(&record, Location::batch(40).record(0)).unwrap();
/// assert_eq!(control.key.record_type, ControlRecordType::Abort);
/// assert_eq!(control.marker, Some(EndTxnMarker { version: 0, coordinator_epoch: 3 }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ControlRecord {
    /// The key.
    pub key: ControlRecordKey,
    /// The value, for commit and abort markers; `None` for other types.
    pub marker: Option<EndTxnMarker>,
}

impl ControlRecord {
    /// Reads `record` as a control record; `at` names it in errors (e.g.
    /// `Location::batch(base_offset).record(index)`).
    ///
    /// # Errors
    /// [`RecordErrorKind::Invalid`] for a record without a key, or a commit or
    /// abort marker without a value; the errors of
    /// [`ControlRecordKey::parse`] and [`EndTxnMarker::parse`], located
    /// at `at`.
    pub fn from_record(record: &Record, at: Location) -> Result<Self, RecordError> {
        let key = record.key.as_deref().ok_or_else(|| {
            RecordError::new(RecordErrorKind::Invalid { what: "control record without a key" }, at.field("control key"))
        })?;
        let key = ControlRecordKey::parse_at(key, at)?;
        let marker = if key.record_type.is_transaction_marker() {
            let value = record.value.as_deref().ok_or_else(|| {
                RecordError::new(
                    RecordErrorKind::Invalid { what: "transaction marker without a value" },
                    at.field("marker"),
                )
            })?;
            Some(EndTxnMarker::parse_at(value, at)?)
        } else {
            None
        };
        Ok(Self { key, marker })
    }
}

impl RecordBatch {
    /// The records of a control batch, read as [`ControlRecord`]s (a
    /// transaction marker batch holds one).
    ///
    /// # Errors
    /// [`RecordErrorKind::Invalid`] (field `attributes`) when the batch is not a
    /// control batch; the errors of [`RecordBatch::records`] and of
    /// [`ControlRecord::from_record`], naming the batch and record index.
    ///
    /// # Example
    /// ```
    /// use kwire::records::{ControlRecordKey, ControlRecordType, DecodeOptions, EndTxnMarker, RecordBatch, RecordBatchBuilder};
    /// let mut builder = RecordBatchBuilder::new(7);
    /// builder.control(true).transactional(true).producer(1000, 0, -1);
    /// let (key, value) = (ControlRecordKey::new(ControlRecordType::Commit), EndTxnMarker::new(0));
    /// builder.append(1_700_000_000_000, Some(key.to_bytes()), Some(value.to_bytes()), vec![]);
    /// let batch = RecordBatch::parse(builder.to_bytes().unwrap()).unwrap();
    /// let markers = batch.control_records(&DecodeOptions::default()).unwrap();
    /// assert_eq!(markers[0].key.record_type, ControlRecordType::Commit);
    /// assert_eq!(markers[0].marker, Some(EndTxnMarker::new(0)));
    /// ```
    pub fn control_records(&self, options: &DecodeOptions) -> Result<Vec<ControlRecord>, RecordError> {
        let at = Location::batch(self.header().base_offset);
        if !self.header().attributes.is_control() {
            return Err(RecordError::new(
                RecordErrorKind::Invalid { what: "not a control batch" },
                at.field("attributes"),
            ));
        }
        let mut out = Vec::new();
        for (index, record) in self.records(options)?.enumerate() {
            out.push(ControlRecord::from_record(&record?, at.record(index))?);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_type_and_its_id() {
        let known = [
            (0, ControlRecordType::Abort, "ABORT"),
            (1, ControlRecordType::Commit, "COMMIT"),
            (2, ControlRecordType::LeaderChange, "LEADER_CHANGE"),
            (3, ControlRecordType::SnapshotHeader, "SNAPSHOT_HEADER"),
            (4, ControlRecordType::SnapshotFooter, "SNAPSHOT_FOOTER"),
            (5, ControlRecordType::KraftVersion, "KRAFT_VERSION"),
            (6, ControlRecordType::KraftVoters, "KRAFT_VOTERS"),
        ];
        for (id, t, name) in known {
            assert_eq!(ControlRecordType::from_id(id), t);
            assert_eq!((t.id(), t.name()), (id, name));
            assert_eq!(t.is_transaction_marker(), id <= 1);
        }
        for id in [7, 100, i16::MAX, -1, i16::MIN] {
            assert_eq!(ControlRecordType::from_id(id), ControlRecordType::Unknown(id));
            assert_eq!(ControlRecordType::Unknown(id).id(), id);
        }
    }

    #[test]
    fn golden_keys() {
        // Abort and commit keys as Kafka's producer-side coordinator writes them.
        let golden: [([u8; 4], ControlRecordType); 4] = [
            ([0x00, 0x00, 0x00, 0x00], ControlRecordType::Abort),
            ([0x00, 0x00, 0x00, 0x01], ControlRecordType::Commit),
            ([0x00, 0x00, 0x00, 0x03], ControlRecordType::SnapshotHeader),
            ([0x00, 0x00, 0x00, 0x06], ControlRecordType::KraftVoters),
        ];
        for (bytes, t) in golden {
            let key = ControlRecordKey::parse(&bytes).unwrap();
            assert_eq!(key, ControlRecordKey::new(t));
            assert_eq!(&key.to_bytes()[..], bytes);
        }
        // Unknown type 0x0102: kept, and written back as it came.
        let key = ControlRecordKey::parse(&[0x00, 0x00, 0x01, 0x02]).unwrap();
        assert_eq!(key.record_type, ControlRecordType::Unknown(258));
        assert_eq!(&key.to_bytes()[..], [0x00, 0x00, 0x01, 0x02]);
    }

    #[test]
    fn later_versions_are_read_as_zero_and_trailing_bytes_ignored() {
        let key = ControlRecordKey::parse(&[0x00, 0x07, 0x00, 0x01, 0xaa, 0xbb]).unwrap();
        assert_eq!(key, ControlRecordKey { version: 7, record_type: ControlRecordType::Commit });
        let marker = EndTxnMarker::parse(&[0x00, 0x02, 0xff, 0xff, 0xff, 0xfe, 0x01]).unwrap();
        assert_eq!(marker, EndTxnMarker { version: 2, coordinator_epoch: -2 });
    }

    #[test]
    fn short_or_negative_versions_are_errors_that_say_where() {
        let err = ControlRecordKey::parse(&[0x00, 0x00, 0x01]).unwrap_err();
        assert_eq!(err.location().and_then(|at| at.field), Some("control key"));
        assert!(
            matches!(
                err.kind(),
                RecordErrorKind::Decode { source }
                    if *source.kind() == DecodeErrorKind::NotEnoughBytes { needed: 4, remaining: 3 }
            ),
            "{err:?}"
        );
        let err = ControlRecordKey::parse(&[0xff, 0xff, 0x00, 0x01]).unwrap_err();
        assert_eq!(err.to_string(), "control key version: negative control record key version");

        let err = EndTxnMarker::parse(&[0x00, 0x00, 0x00, 0x00, 0x01]).unwrap_err();
        assert_eq!(err.location().and_then(|at| at.field), Some("marker"));
        assert!(EndTxnMarker::parse(&[]).is_err());
        let err = EndTxnMarker::parse(&[0x80, 0x00, 0x00, 0x00, 0x00, 0x01]).unwrap_err();
        assert_eq!(err.to_string(), "marker version: negative marker version");
    }

    #[test]
    fn golden_marker_values() {
        let golden: [([u8; 6], i32); 3] = [
            ([0x00, 0x00, 0x00, 0x00, 0x00, 0x00], 0),
            ([0x00, 0x00, 0x00, 0x00, 0x01, 0x2c], 300),
            ([0x00, 0x00, 0x7f, 0xff, 0xff, 0xff], i32::MAX),
        ];
        for (bytes, epoch) in golden {
            let marker = EndTxnMarker::parse(&bytes).unwrap();
            assert_eq!(marker, EndTxnMarker::new(epoch));
            assert_eq!(&marker.to_bytes()[..], bytes);
        }
    }

    #[test]
    fn control_record_errors_name_the_record() {
        let at = Location::batch(10).record(2);
        let no_key = Record { value: Some(EndTxnMarker::new(0).to_bytes()), ..Record::default() };
        assert_eq!(
            ControlRecord::from_record(&no_key, at).unwrap_err().to_string(),
            "batch at offset 10, record 2, control key: control record without a key"
        );
        let no_value =
            Record { key: Some(ControlRecordKey::new(ControlRecordType::Commit).to_bytes()), ..Record::default() };
        assert_eq!(
            ControlRecord::from_record(&no_value, at).unwrap_err().to_string(),
            "batch at offset 10, record 2, marker: transaction marker without a value"
        );
        let short_value = Record { value: Some(Bytes::from_static(&[0, 0, 0])), ..no_value.clone() };
        let err = ControlRecord::from_record(&short_value, at).unwrap_err();
        assert_eq!(err.location(), Some(&at.field("marker")));
        // A leader-change record's value is not read here.
        let leader = Record {
            key: Some(ControlRecordKey::new(ControlRecordType::LeaderChange).to_bytes()),
            value: Some(Bytes::from_static(b"anything")),
            ..Record::default()
        };
        let read = ControlRecord::from_record(&leader, at).unwrap();
        assert_eq!((read.key.record_type, read.marker), (ControlRecordType::LeaderChange, None));
    }
}
