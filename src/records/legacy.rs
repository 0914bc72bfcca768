//! Legacy message sets: magic 0 (Kafka 0.8–0.9) and magic 1 (0.10, KIP-32
//! timestamps). Read only: Kafka 4 no longer writes them, but older logs
//! and clients still carry them in Produce v0–2 and Fetch v0–3.
//!
//! ```text
//! offset        int64   absolute; in a magic-1 wrapper, inner offsets are relative
//! message_size  int32   bytes after this field
//! crc           uint32  IEEE CRC-32 of magic..end
//! magic         int8    0 or 1
//! attributes    int8    bits 0-2 compression (0-3), bit 3 timestamp type (magic 1)
//! timestamp     int64   magic 1 only, ms
//! key_length    int32   -1 for null      key    bytes
//! value_length  int32   -1 for null      value  bytes
//! ```
//!
//! A compressed message is a wrapper: its value is a whole message set
//! (int32 lengths, never varints), compressed with the codec in its
//! attributes. The wrapper's offset is that of its last inner message.
//! Source: Kafka's message format v0/v1 (KIP-31, KIP-32).

use bytes::Bytes;

use super::batch::{TimestampType, LOG_OVERHEAD};
use super::batches::Budget;
use super::compression::decompress_legacy;
use super::compression_type::Compression;
use super::error::{At, Location, RecordError, RecordErrorKind};
use super::DecodeOptions;
use crate::error::{DecodeError, DecodeErrorKind};
use crate::primitives::Reader;

/// Fewest bytes after `message_size` in a magic-0 message: crc, magic,
/// attributes, two null lengths.
pub const MIN_MESSAGE_SIZE: usize = 14;

/// One legacy message, with its bytes kept for the CRC.
///
/// # Example
/// ```
/// use bytes::Bytes;
/// use kwire::records::LegacyMessage;
/// // magic 0, key null, value "a"; CRC-32 of 00 00 ff ff ff ff 00 00 00 01 61
/// let bytes = Bytes::from_static(&[
///     0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 15, 0x51, 0xdf, 0x3a, 0x32, 0, 0,
///     0xff, 0xff, 0xff, 0xff, 0, 0, 0, 1, b'a',
/// ]);
/// let m = LegacyMessage::parse(bytes).unwrap();
/// m.verify_crc().unwrap();
/// assert_eq!((m.offset, m.magic, m.timestamp, m.key), (5, 0, None, None));
/// assert_eq!(m.value.as_deref(), Some(&b"a"[..]));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegacyMessage {
    /// Absolute offset (relative on the wire inside a magic-1 wrapper;
    /// [`LegacyMessage::messages`] makes it absolute).
    pub offset: i64,
    /// IEEE CRC-32 as stored.
    pub crc: u32,
    /// 0 or 1.
    pub magic: i8,
    /// Compression in bits 0-2, timestamp type in bit 3 (magic 1).
    pub attributes: i8,
    /// Timestamp in ms; `None` for magic 0.
    pub timestamp: Option<i64>,
    /// Key; `None` is null.
    pub key: Option<Bytes>,
    /// Value; `None` is null. A wrapper's value is the compressed inner set.
    pub value: Option<Bytes>,
    bytes: Bytes,
    /// For a magic-1 message read out of a wrapper: the wrapper's timestamp
    /// type, which [`LegacyMessage::timestamp_type`] reports instead of this
    /// message's own attributes bit 3.
    wrapper_timestamp_type: Option<TimestampType>,
    budget: Budget,
}

impl LegacyMessage {
    /// Parses the message that `bytes` holds exactly (offset, size and
    /// message). The CRC is not checked.
    ///
    /// # Errors
    /// [`RecordErrorKind::Decode`] when the bytes end early, a length is below
    /// -1, or bytes are left after the value; [`RecordErrorKind::Invalid`] when
    /// `message_size` + 12 is not the length of `bytes`;
    /// [`RecordErrorKind::UnsupportedMagic`] for a magic other than 0 or 1.
    pub fn parse(bytes: Bytes) -> Result<Self, RecordError> {
        Self::decode(bytes, None)
    }

    /// `outer` names the wrapper and the inner index when this is an inner message.
    fn decode(bytes: Bytes, outer: Option<Location>) -> Result<Self, RecordError> {
        let mut r = Reader::new(bytes.clone());
        let offset = r.read_i64().at(outer.unwrap_or_default().field("offset"))?;
        let at = outer.unwrap_or(Location::batch(offset));
        let size = r.read_i32().at(at.field("message_size"))?;
        if size < 0 || size as usize != r.remaining() {
            return Err(RecordError::new(
                RecordErrorKind::Invalid { what: "message size does not match the bytes of the message" },
                at.field("message_size"),
            ));
        }
        let crc = r.read_u32().at(at.field("crc"))?;
        let magic = r.read_i8().at(at.field("magic"))?;
        if !(0..=1).contains(&magic) {
            return Err(RecordError::new(RecordErrorKind::UnsupportedMagic { magic }, at.field("magic")));
        }
        let attributes = r.read_i8().at(at.field("attributes"))?;
        let timestamp = match magic {
            0 => None,
            _ => Some(r.read_i64().at(at.field("timestamp"))?),
        };
        let key = read_nullable(&mut r).at(at.field("key"))?;
        let value = read_nullable(&mut r).at(at.field("value"))?;
        r.finish().at(at.field("value"))?;
        Ok(Self {
            offset,
            crc,
            magic,
            attributes,
            timestamp,
            key,
            value,
            bytes,
            wrapper_timestamp_type: None,
            budget: Budget::default(),
        })
    }

    /// The message, drawing on `budget` when decompressed.
    pub(crate) fn with_budget(self, budget: Budget) -> Self {
        Self { budget, ..self }
    }

    /// The message as received.
    pub fn as_bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// The codec in attributes bits 0-2.
    ///
    /// # Errors
    /// [`RecordErrorKind::UnknownCompression`] for 4 and above (zstd needs magic 2).
    pub fn compression(&self) -> Result<Compression, RecordError> {
        let id = (self.attributes & 0x07) as u8;
        match Compression::from_id(id) {
            Some(c) if c != Compression::Zstd => Ok(c),
            _ => Err(RecordError::new(
                RecordErrorKind::UnknownCompression { codec: id },
                Location::batch(self.offset).field("attributes"),
            )),
        }
    }

    /// Attributes bit 3 for magic 1; always create time for magic 0. A
    /// magic-1 message read out of a wrapper by [`LegacyMessage::messages`]
    /// reports the wrapper's type instead, as Kafka's legacy batch iterator
    /// does.
    pub fn timestamp_type(&self) -> TimestampType {
        if let (1.., Some(wrapper)) = (self.magic, self.wrapper_timestamp_type) {
            return wrapper;
        }
        if self.magic >= 1 && self.attributes & 0x08 != 0 {
            TimestampType::LogAppendTime
        } else {
            TimestampType::CreateTime
        }
    }

    /// IEEE CRC-32 of the bytes from the magic byte to the end.
    pub fn compute_crc(&self) -> u32 {
        crc32fast::hash(&self.bytes[LOG_OVERHEAD + 4..])
    }

    /// Checks the stored CRC.
    ///
    /// # Errors
    /// [`RecordErrorKind::CrcMismatch`] naming the message's offset.
    pub fn verify_crc(&self) -> Result<(), RecordError> {
        let computed = self.compute_crc();
        if computed != self.crc {
            return Err(RecordError::new(
                RecordErrorKind::CrcMismatch { stored: self.crc, computed },
                Location::batch(self.offset).field("crc"),
            ));
        }
        Ok(())
    }

    /// The messages this one stands for: itself when uncompressed; for a
    /// wrapper, its inner messages, decompressed into one buffer that they
    /// share, with absolute offsets. Each magic-1 inner message reports the
    /// wrapper's timestamp type and, when that is log-append time, the
    /// wrapper's timestamp (its own stays in [`LegacyMessage::as_bytes`]).
    ///
    /// # Errors
    /// [`RecordErrorKind::Invalid`] for a wrapper with a null value, with
    /// no inner message, or with compressed inner messages; codec errors as in
    /// [`decompress`](super::decompress), with the limit from `options`;
    /// [`RecordErrorKind::TotalDecompressedTooLarge`] when the wrapper came
    /// from [`Batches`](super::Batches) and passes its budget;
    /// each inner message's parse errors (and CRC errors when
    /// `options.verify_crc`), located by the wrapper's offset and the inner index.
    pub fn messages(&self, options: &DecodeOptions) -> Result<Vec<LegacyMessage>, RecordError> {
        let compression = self.compression()?;
        if compression == Compression::None {
            return Ok(vec![self.clone()]);
        }
        let at = Location::batch(self.offset);
        let Some(value) = &self.value else {
            return Err(RecordError::new(
                RecordErrorKind::Invalid { what: "compressed wrapper message has a null value" },
                at.field("value"),
            ));
        };
        let data = self
            .budget
            .decompress(options.max_decompressed_size, |limit| decompress_legacy(compression, self.magic, value, limit))
            .map_err(|e| e.within(at.field("value")))?;
        let mut r = Reader::new(Bytes::from(data));
        let mut inner: Vec<LegacyMessage> = Vec::new();
        while r.remaining() > 0 {
            let at = at.record(inner.len());
            let size = peek_size(&r).at(at.field("message_size"))?;
            let mut message = Self::decode(r.read_bytes(LOG_OVERHEAD + size).at(at.field("message_size"))?, Some(at))?;
            if options.verify_crc {
                let computed = message.compute_crc();
                if computed != message.crc {
                    return Err(RecordError::new(
                        RecordErrorKind::CrcMismatch { stored: message.crc, computed },
                        at.field("crc"),
                    ));
                }
            }
            if message.attributes & 0x07 != 0 {
                return Err(RecordError::new(
                    RecordErrorKind::Invalid { what: "inner message is itself compressed" },
                    at.field("attributes"),
                ));
            }
            if message.magic >= 1 {
                message.wrapper_timestamp_type = Some(self.timestamp_type());
                if self.timestamp_type() == TimestampType::LogAppendTime {
                    message.timestamp = self.timestamp;
                }
            }
            inner.push(message);
        }
        if inner.is_empty() {
            return Err(RecordError::new(
                RecordErrorKind::Invalid { what: "compressed wrapper message holds no inner message" },
                at.field("value"),
            ));
        }
        if self.magic >= 1 {
            // Inner offsets are relative; the wrapper carries the last one's absolute offset.
            let last = inner.last().map_or(0, |m| m.offset);
            let base = self.offset.wrapping_sub(last);
            for m in &mut inner {
                m.offset = base.wrapping_add(m.offset);
            }
        }
        Ok(inner)
    }
}

/// The `message_size` of the entry at the reader's position, checked
/// against the minimum and against what remains.
fn peek_size(r: &Reader) -> Result<usize, DecodeError> {
    let mut peek = r.clone();
    peek.read_i64()?;
    let size = peek.read_i32()?;
    if size < MIN_MESSAGE_SIZE as i32 {
        return Err(peek.error(DecodeErrorKind::InvalidLength(size as i64)));
    }
    if size as usize > peek.remaining() {
        return Err(peek.error(DecodeErrorKind::NotEnoughBytes { needed: size as usize, remaining: peek.remaining() }));
    }
    Ok(size as usize)
}

/// int32 length (-1 null) and bytes.
fn read_nullable(r: &mut Reader) -> Result<Option<Bytes>, DecodeError> {
    match r.read_i32()? {
        -1 => Ok(None),
        n if n < 0 => Err(r.error(DecodeErrorKind::InvalidLength(n as i64))),
        n => r.read_bytes(n as usize).map(Some),
    }
}
