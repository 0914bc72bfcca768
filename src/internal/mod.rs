//! Kafka's internal records (feature `internal-records`): what brokers and
//! controllers write to their own logs and internal topics, compiled from
//! Kafka 4.4.0's schema families (`schemas-internal/`, about texts our own).
//!
//! | module | schemas | where Kafka writes them |
//! |---|---|---|
//! | [`metadata`] | `metadata` | the KRaft metadata log `__cluster_metadata` and its snapshots |
//! | [`group_coordinator`] | `group-coordinator` | `__consumer_offsets` |
//! | [`share_coordinator`] | `share-coordinator` | `__share_group_state` |
//! | [`transaction_coordinator`] | `transaction-coordinator` | `__transaction_state` |
//! | [`raft`] | `raft` | a KRaft node's `quorum-state` file |
//! | [`storage`] | `storage` | producer snapshots, `__remote_log_metadata` |
//!
//! The framing around them:
//!
//! ```text
//! metadata log record value = uvarint frame_version (1) | uvarint record type | uvarint version | record
//!                             (each varint at most 32767; key null)           [`ApiMessageAndVersion`]
//! coordinator record key    = int16 record type | key struct (version 0)
//! coordinator record value  = int16 version | value struct of the key's record type, or null: a tombstone
//!                                                                               [`CoordinatorRecord`]
//! control record key        = int16 version (0) | int16 type: 0 abort, 1 commit, 2 leader change,
//!                             3 snapshot header, 4 snapshot footer, 5 kraft.version, 6 voters
//!                                                                               [`log::ControlRecord`]
//! ```
//!
//! The record type is the schema's `apiKey`; each family's dispatch enum
//! ([`metadata::MetadataRecord`], [`group_coordinator::CoordinatorRecordKey`]
//! and [`group_coordinator::CoordinatorRecordValue`], ...) holds one variant
//! per record type and implements [`RecordData`]. [`log`] reads whole log
//! segments, snapshots (`.checkpoint` files) and fetched records into typed
//! entries, each of which encodes back to its bytes.
//!
//! # Example
//! ```
//! use kwire::internal::metadata::{MetadataRecord, TopicRecord};
//! use kwire::internal::ApiMessageAndVersion;
//! let record = ApiMessageAndVersion {
//!     version: 0,
//!     message: MetadataRecord::from(TopicRecord { name: "orders".into(), ..Default::default() }),
//! };
//! let bytes = record.to_bytes_framed()?;
//! // frame version 1, record type 2 (TopicRecord), version 0, then the record.
//! assert_eq!(&bytes[..3], [1, 2, 0]);
//! assert_eq!(ApiMessageAndVersion::<MetadataRecord>::decode_framed(bytes)?, record);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use bytes::{BufMut, Bytes, BytesMut};

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::message::VersionRange;
use crate::primitives::varint::put_uvarint;
use crate::primitives::writer::all_or_nothing;
use crate::primitives::{Reader, Writer};

pub mod log;

/// The `metadata` family: every record of the KRaft metadata log
/// (`__cluster_metadata`) and its snapshots, and [`MetadataRecord`](metadata::MetadataRecord) over
/// their record types.
pub mod metadata {
    include!(concat!(env!("KWIRE_GENERATED"), "/internal/metadata/mod.rs"));
    include!(concat!(env!("KWIRE_GENERATED"), "/internal/metadata/records.rs"));
}

/// The `group-coordinator` family: the keys and values of
/// `__consumer_offsets` (classic, consumer, share and streams groups,
/// committed offsets), and [`GroupCoordinatorRecord`](group_coordinator::GroupCoordinatorRecord).
pub mod group_coordinator {
    include!(concat!(env!("KWIRE_GENERATED"), "/internal/group_coordinator/mod.rs"));
    include!(concat!(env!("KWIRE_GENERATED"), "/internal/group_coordinator/records.rs"));
    /// A record of `__consumer_offsets`: key and value (null for a tombstone).
    pub type GroupCoordinatorRecord = super::CoordinatorRecord<CoordinatorRecordKey, CoordinatorRecordValue>;
}

/// The `share-coordinator` family: the keys and values of
/// `__share_group_state`, and [`ShareCoordinatorRecord`](share_coordinator::ShareCoordinatorRecord).
pub mod share_coordinator {
    include!(concat!(env!("KWIRE_GENERATED"), "/internal/share_coordinator/mod.rs"));
    include!(concat!(env!("KWIRE_GENERATED"), "/internal/share_coordinator/records.rs"));
    /// A record of `__share_group_state`: key and value (null for a tombstone).
    pub type ShareCoordinatorRecord = super::CoordinatorRecord<CoordinatorRecordKey, CoordinatorRecordValue>;
}

/// The `transaction-coordinator` family: the keys and values of
/// `__transaction_state`, and [`TransactionCoordinatorRecord`](transaction_coordinator::TransactionCoordinatorRecord).
pub mod transaction_coordinator {
    include!(concat!(env!("KWIRE_GENERATED"), "/internal/transaction_coordinator/mod.rs"));
    include!(concat!(env!("KWIRE_GENERATED"), "/internal/transaction_coordinator/records.rs"));
    /// A record of `__transaction_state`: key and value (null for a tombstone).
    pub type TransactionCoordinatorRecord = super::CoordinatorRecord<CoordinatorRecordKey, CoordinatorRecordValue>;
}

/// The `raft` family: the `quorum-state` file a KRaft node keeps
/// (JSON on disk, written by Kafka's JSON converter).
pub mod raft {
    include!(concat!(env!("KWIRE_GENERATED"), "/internal/raft/mod.rs"));
}

/// The `storage` family: producer-state snapshots (`.snapshot` files) and
/// the remote log metadata records of KIP-405 (`__remote_log_metadata`,
/// framed as metadata log records), and [`RemoteLogMetadataRecord`](storage::RemoteLogMetadataRecord).
pub mod storage {
    include!(concat!(env!("KWIRE_GENERATED"), "/internal/storage/mod.rs"));
    include!(concat!(env!("KWIRE_GENERATED"), "/internal/storage/records.rs"));
}

/// One record type of a family: the schema's `apiKey`, name and versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordType {
    /// The record type (the schema's `apiKey`).
    pub id: i16,
    /// The schema's name, e.g. `PartitionRecord`.
    pub name: &'static str,
    /// The name of Kafka's generated record-type enum constant, e.g.
    /// `PARTITION_RECORD` (`OFFSET_COMMIT` for `OffsetCommitKey` and `OffsetCommitValue`).
    pub type_name: &'static str,
    /// The schema's valid versions.
    pub versions: VersionRange,
}

/// The dispatch enums over the record types of a family, generated from
/// its schemas by kwire-codegen (`records.rs` of each family in `generated/internal/`).
pub trait RecordData: Sized + Clone + fmt::Debug + PartialEq {
    /// What these records are, for messages: `"metadata record"`, `"coordinator key"`, ...
    const KIND: &'static str;
    /// Every record type, by id.
    const RECORD_TYPES: &'static [RecordType];

    /// The record type of this value.
    fn record_type(&self) -> i16;

    /// Reads the struct of `record_type` at `version`.
    ///
    /// # Errors
    /// [`DecodeErrorKind::UnknownRecordType`] for a record type the family
    /// lacks; otherwise as [`Message::decode`](crate::message::Message::decode).
    fn decode_from(record_type: i16, r: &mut Reader, version: i16) -> Result<Self, DecodeError>;

    /// Writes the struct at `version`.
    ///
    /// # Errors
    /// As [`Message::encode`](crate::message::Message::encode).
    fn encode_to(&self, w: &mut Writer<'_>, version: i16) -> Result<(), EncodeError>;

    /// Bytes [`RecordData::encode_to`] writes at `version`.
    fn encoded_size(&self, version: i16) -> usize;

    /// Kafka's JSON form of the struct at `version` (feature `json`), with
    /// secrets redacted as [`JsonOptions::default`](crate::json::JsonOptions)
    /// has it.
    ///
    /// # Errors
    /// As [`ToJson::to_json`](crate::json::ToJson::to_json).
    #[cfg(feature = "json")]
    fn to_json(&self, version: i16) -> Result<crate::json::Value, crate::json::JsonError> {
        self.to_json_with(version, crate::json::JsonOptions::default())
    }

    /// Kafka's JSON form of the struct at `version` with `options`
    /// (feature `json`); [`JsonOptions::unredacted`](crate::json::JsonOptions::unredacted)
    /// writes what Kafka's converters write.
    ///
    /// # Errors
    /// As [`ToJson::to_json_with`](crate::json::ToJson::to_json_with).
    #[cfg(feature = "json")]
    fn to_json_with(
        &self,
        version: i16,
        options: crate::json::JsonOptions,
    ) -> Result<crate::json::Value, crate::json::JsonError>;

    /// Appends to `w` the text of the struct's JSON form at `version`
    /// (feature `json`): what [`RecordData::to_json_with`] gives with `w`'s
    /// options, without building the `Value`.
    ///
    /// # Errors
    /// As [`ToJson::write_json`](crate::json::ToJson::write_json).
    #[cfg(feature = "json")]
    fn write_json(&self, w: &mut crate::json::JsonWriter<'_>, version: i16) -> Result<(), crate::json::JsonError>;

    /// Reads Kafka's JSON form of the struct of `record_type` at `version` (feature `json`).
    ///
    /// # Errors
    /// As [`FromJson::from_json`](crate::json::FromJson::from_json); an
    /// unknown record type is `JsonErrorKind::UnknownApiKey`.
    #[cfg(feature = "json")]
    fn from_json(record_type: i16, json: &crate::json::Value, version: i16) -> Result<Self, crate::json::JsonError>;

    /// A random struct of `record_type` shaped to `version`, `None` for a
    /// record type the family lacks (feature `sample`).
    #[cfg(feature = "sample")]
    fn sample(record_type: i16, g: &mut crate::sample::SampleGen, version: i16) -> Option<Self>;

    /// The record type `id`, when the family has it.
    fn record_type_info(id: i16) -> Option<&'static RecordType> {
        Self::RECORD_TYPES.iter().find(|t| t.id == id)
    }

    /// The record type of this value, described.
    fn info(&self) -> Option<&'static RecordType> {
        Self::record_type_info(self.record_type())
    }
}

/// A record with the version it is written at, as Kafka's
/// `ApiMessageAndVersion`: a metadata log record (framed, see
/// [`ApiMessageAndVersion::decode_framed`]) or a coordinator record's value
/// (version-prefixed, see [`ApiMessageAndVersion::decode_prefixed`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ApiMessageAndVersion<T> {
    /// The version of `message`'s schema it is written at.
    pub version: i16,
    /// The record.
    pub message: T,
}

/// Reads an unsigned varint that must fit an int16, as Kafka's metadata
/// record reader does.
fn read_short_uvarint(r: &mut Reader, field: &'static str) -> Result<i16, DecodeError> {
    let at = r.offset();
    let value = r.read_uvarint().map_err(|e| e.in_field(field))?;
    i16::try_from(value).map_err(|_| {
        DecodeError::new(DecodeErrorKind::Invalid("value above 32767 where Kafka needs an int16"), at).in_field(field)
    })
}

/// Length of an unsigned varint.
fn uvarint_len(value: u32) -> usize {
    match value {
        0..=0x7f => 1,
        0x80..=0x3fff => 2,
        0x4000..=0x1f_ffff => 3,
        0x20_0000..=0xfff_ffff => 4,
        _ => 5,
    }
}

impl<T: RecordData> ApiMessageAndVersion<T> {
    /// The frame version of metadata log records: Kafka writes 1 and reads
    /// nothing else (0 was KRaft's 2.8 preview).
    pub const FRAME_VERSION: u32 = 1;

    /// The record type of the message.
    pub fn record_type(&self) -> i16 {
        self.message.record_type()
    }

    /// Reads a metadata log record: uvarint frame version (1), uvarint
    /// record type, uvarint version, then the record, which must end the
    /// input (Kafka's `MetadataRecordSerde`).
    ///
    /// # Errors
    /// [`DecodeErrorKind::UnsupportedVersion`] at `frame_version` for a frame
    /// version other than 1; [`DecodeErrorKind::UnknownRecordType`] at
    /// `record_type`; [`DecodeErrorKind::Invalid`] for a varint above 32767;
    /// the record's own errors (message, version, field path, offset); and
    /// [`DecodeErrorKind::TrailingBytes`] for bytes after it.
    pub fn decode_framed(bytes: Bytes) -> Result<Self, DecodeError> {
        let mut r = Reader::new(bytes);
        let at = r.offset();
        let frame = read_short_uvarint(&mut r, "frame_version")?;
        if frame as u32 != Self::FRAME_VERSION {
            return Err(DecodeError::new(DecodeErrorKind::UnsupportedVersion(frame), at).in_field("frame_version"));
        }
        let at = r.offset();
        let record_type = read_short_uvarint(&mut r, "record_type")?;
        if T::record_type_info(record_type).is_none() {
            return Err(DecodeError::new(DecodeErrorKind::UnknownRecordType(record_type), at).in_field("record_type"));
        }
        let version = read_short_uvarint(&mut r, "version")?;
        let message = T::decode_from(record_type, &mut r, version)?;
        r.finish()?;
        Ok(Self { version, message })
    }

    /// Appends the record framed as [`ApiMessageAndVersion::decode_framed`] reads it.
    ///
    /// # Errors
    /// As [`Message::encode`](crate::message::Message::encode) (a version
    /// the record type lacks, a negative version among them). On error, see
    /// [buffers after an error](crate::error#buffers-after-an-error).
    pub fn encode_framed(&self, buf: &mut BytesMut) -> Result<(), EncodeError> {
        if self.version < 0 {
            return Err(EncodeError::new(EncodeErrorKind::UnsupportedVersion(self.version)));
        }
        all_or_nothing(buf, |buf| {
            for v in [Self::FRAME_VERSION, self.record_type() as u16 as u32, self.version as u16 as u32] {
                put_uvarint(buf, v);
            }
            self.message.encode_to(&mut Writer::new(buf), self.version)
        })
    }

    /// Bytes [`ApiMessageAndVersion::encode_framed`] writes.
    pub fn encoded_size_framed(&self) -> usize {
        uvarint_len(Self::FRAME_VERSION)
            + uvarint_len(self.record_type() as u16 as u32)
            + uvarint_len(self.version as u16 as u32)
            + self.message.encoded_size(self.version)
    }

    /// The framed record as a new buffer.
    ///
    /// # Errors
    /// As [`ApiMessageAndVersion::encode_framed`].
    pub fn to_bytes_framed(&self) -> Result<Bytes, EncodeError> {
        let mut buf = BytesMut::with_capacity(self.encoded_size_framed());
        self.encode_framed(&mut buf)?;
        Ok(buf.freeze())
    }

    /// Reads a coordinator record's value of `record_type` (its key's):
    /// int16 version, then the value struct, which must end the input.
    ///
    /// # Errors
    /// [`DecodeErrorKind::UnknownRecordType`] for a record type the family
    /// lacks; the value's own errors ([`DecodeErrorKind::UnsupportedVersion`]
    /// for a version its schema lacks); [`DecodeErrorKind::TrailingBytes`].
    pub fn decode_prefixed(record_type: i16, bytes: Bytes) -> Result<Self, DecodeError> {
        let mut r = Reader::new(bytes);
        let version = r.read_i16().map_err(|e| e.in_field("version"))?;
        if T::record_type_info(record_type).is_none() {
            return Err(r.error(DecodeErrorKind::UnknownRecordType(record_type)));
        }
        let message = T::decode_from(record_type, &mut r, version)?;
        r.finish()?;
        Ok(Self { version, message })
    }

    /// Appends the value as [`ApiMessageAndVersion::decode_prefixed`] reads it.
    ///
    /// # Errors
    /// As [`Message::encode`](crate::message::Message::encode). On error, see
    /// [buffers after an error](crate::error#buffers-after-an-error).
    pub fn encode_prefixed(&self, buf: &mut BytesMut) -> Result<(), EncodeError> {
        all_or_nothing(buf, |buf| {
            buf.put_i16(self.version);
            self.message.encode_to(&mut Writer::new(buf), self.version)
        })
    }

    /// The version-prefixed value as a new buffer.
    ///
    /// # Errors
    /// As [`ApiMessageAndVersion::encode_prefixed`].
    pub fn to_bytes_prefixed(&self) -> Result<Bytes, EncodeError> {
        let mut buf = BytesMut::with_capacity(2 + self.message.encoded_size(self.version));
        self.encode_prefixed(&mut buf)?;
        Ok(buf.freeze())
    }
}

/// A record of a coordinator's internal topic (`__consumer_offsets`,
/// `__share_group_state`, `__transaction_state`), as Kafka's
/// `CoordinatorRecordSerde` reads it: the key chooses the record type, the
/// value is written at a version of that type's value schema, or is null
/// (a tombstone, which compaction uses to delete the key).
#[derive(Debug, Clone, PartialEq)]
pub struct CoordinatorRecord<K, V> {
    /// The key; its record type chooses the value's schema.
    pub key: K,
    /// The value and its version; `None` for a tombstone.
    pub value: Option<ApiMessageAndVersion<V>>,
}

/// Which part of a record an error is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordPart {
    /// The record's key.
    Key,
    /// The record's value.
    Value,
}

impl fmt::Display for RecordPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Key => "key",
            Self::Value => "value",
        })
    }
}

/// A record's key or value that does not decode: which part, and the
/// [`DecodeError`] with its place (message, version, field path, offset
/// within that part).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordDecodeError {
    /// Key or value.
    pub part: RecordPart,
    /// What went wrong, and where.
    pub source: DecodeError,
}

impl fmt::Display for RecordDecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.part, self.source)
    }
}

impl std::error::Error for RecordDecodeError {
    /// The [`DecodeError`].
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

impl RecordDecodeError {
    fn key(source: DecodeError) -> Self {
        Self { part: RecordPart::Key, source }
    }
    fn value(source: DecodeError) -> Self {
        Self { part: RecordPart::Value, source }
    }
}

impl<K: RecordData, V: RecordData> CoordinatorRecord<K, V> {
    /// The version keys are written at: each key schema has version 0 only.
    pub const KEY_VERSION: i16 = 0;

    /// The record type (the key's).
    pub fn record_type(&self) -> i16 {
        self.key.record_type()
    }

    /// [`log::LogRecord::decode`] once the key is known not to be null.
    pub(crate) fn decode_keyed(key: Bytes, value: Option<Bytes>) -> Result<Self, RecordDecodeError> {
        let mut r = Reader::new(key);
        let at = r.offset();
        let record_type = r.read_i16().map_err(|e| RecordDecodeError::key(e.in_field("record_type")))?;
        if K::record_type_info(record_type).is_none() {
            let e = DecodeError::new(DecodeErrorKind::UnknownRecordType(record_type), at).in_field("record_type");
            return Err(RecordDecodeError::key(e));
        }
        let key = K::decode_from(record_type, &mut r, Self::KEY_VERSION).map_err(RecordDecodeError::key)?;
        r.finish().map_err(RecordDecodeError::key)?;
        let value = match value {
            None => None,
            Some(bytes) => {
                Some(ApiMessageAndVersion::decode_prefixed(record_type, bytes).map_err(RecordDecodeError::value)?)
            }
        };
        Ok(Self { key, value })
    }

    /// The key's bytes: int16 record type, then the key at version 0.
    ///
    /// # Errors
    /// As [`Message::encode`](crate::message::Message::encode).
    pub fn key_bytes(&self) -> Result<Bytes, EncodeError> {
        let mut buf = BytesMut::with_capacity(2 + self.key.encoded_size(Self::KEY_VERSION));
        buf.put_i16(self.record_type());
        self.key.encode_to(&mut Writer::new(&mut buf), Self::KEY_VERSION)?;
        Ok(buf.freeze())
    }

    /// The value's bytes (int16 version, then the value), `None` for a tombstone.
    ///
    /// # Errors
    /// As [`Message::encode`](crate::message::Message::encode), and
    /// [`EncodeErrorKind::Invalid`] when the value's record type is not the key's.
    pub fn value_bytes(&self) -> Result<Option<Bytes>, EncodeError> {
        let Some(value) = &self.value else { return Ok(None) };
        if value.record_type() != self.record_type() {
            return Err(EncodeError::new(EncodeErrorKind::Invalid("the value's record type is not the key's")));
        }
        value.to_bytes_prefixed().map(Some)
    }
}
