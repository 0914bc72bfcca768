//! [`Batches`]: the batches of one `records` field, back to back, v2
//! batches and legacy messages alike (both put their magic byte at
//! position 16, after an int64 offset and an int32 size).
//!
//! ```text
//! | base_offset i64 | length i32 | … length bytes … | base_offset i64 | length i32 | … | partial tail? |
//!                     ^ byte 16 of each entry is its magic: 2 = batch, 0/1 = legacy message
//! ```
//!
//! A Fetch response may end in a partial batch: the broker copies whole
//! log segments up to the request's max bytes and can cut the last batch
//! short. As Kafka's consumers do, the iterator stops there without an
//! error and reports what it skipped through [`Batches::partial_batch`];
//! with [`DecodeOptions::reject_partial_batch`] it yields
//! [`RecordErrorKind::PartialBatch`] instead.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use bytes::Bytes;

use super::batch::{RecordBatch, LOG_OVERHEAD, MAGIC_OFFSET, MAGIC_V2};
use super::error::{Location, RecordError, RecordErrorKind};
use super::legacy::{LegacyMessage, MIN_MESSAGE_SIZE};
use super::DecodeOptions;

/// One entry of a record set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Batch {
    /// A record batch v2 (magic 2).
    V2(RecordBatch),
    /// A legacy message (magic 0 or 1), possibly a compressed wrapper.
    Legacy(LegacyMessage),
}

impl Batch {
    /// The magic byte: 0, 1 or 2.
    pub fn magic(&self) -> i8 {
        match self {
            Self::V2(b) => b.header().magic,
            Self::Legacy(m) => m.magic,
        }
    }

    /// The v2 base offset, or the legacy message's offset (a wrapper's
    /// offset is that of its last inner message).
    pub fn base_offset(&self) -> i64 {
        match self {
            Self::V2(b) => b.header().base_offset,
            Self::Legacy(m) => m.offset,
        }
    }

    /// The entry's bytes as received.
    pub fn as_bytes(&self) -> &Bytes {
        match self {
            Self::V2(b) => b.as_bytes(),
            Self::Legacy(m) => m.as_bytes(),
        }
    }
}

/// What the entries of one [`Batches`] may still decompress to, together
/// ([`DecodeOptions::max_total_decompressed_size`]), shared by every entry
/// it yields and their clones. Entries parsed on their own have none.
///
/// Not part of an entry's value: two entries with the same bytes are equal
/// whatever their budgets.
#[derive(Clone, Default)]
pub(crate) struct Budget(Option<Arc<BudgetState>>);

struct BudgetState {
    limit: usize,
    left: AtomicUsize,
}

impl Budget {
    fn new(limit: usize) -> Self {
        Self(Some(Arc::new(BudgetState { limit, left: AtomicUsize::new(limit) })))
    }

    /// Runs `decompress` with the smaller of `max_size` (the per-batch
    /// limit) and what is left of the budget, and charges its output to
    /// the budget. An output stopped by the budget rather than by
    /// `max_size` becomes [`RecordErrorKind::TotalDecompressedTooLarge`].
    pub(crate) fn decompress(
        &self,
        max_size: usize,
        decompress: impl FnOnce(usize) -> Result<Vec<u8>, RecordError>,
    ) -> Result<Vec<u8>, RecordError> {
        let Some(state) = &self.0 else {
            return decompress(max_size);
        };
        let left = state.left.load(Ordering::Relaxed);
        let data = decompress(max_size.min(left)).map_err(|e| match e.kind() {
            RecordErrorKind::DecompressedTooLarge { .. } if left < max_size => {
                RecordError::new(RecordErrorKind::TotalDecompressedTooLarge { limit: state.limit }, Location::default())
            }
            _ => e,
        })?;
        // Saturating: entries decompressed at once on several threads may
        // together pass the budget by at most one batch each.
        let _ = state.left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| Some(n.saturating_sub(data.len())));
        Ok(data)
    }
}

impl std::fmt::Debug for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            None => f.write_str("none"),
            Some(state) => write!(f, "{} of {} bytes left", state.left.load(Ordering::Relaxed), state.limit),
        }
    }
}

impl PartialEq for Budget {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Budget {}

/// A batch cut short at the end of a record set, which [`Batches`] skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartialBatch {
    /// Byte position of the partial batch in the record set.
    pub position: usize,
    /// Its base offset, when its first 8 bytes are there.
    pub base_offset: Option<i64>,
    /// Bytes the whole batch needs (12 when even its length is missing).
    pub needed: usize,
    /// Bytes present.
    pub available: usize,
}

/// Iterator over the entries of a `records` field.
///
/// Each entry's size is checked (at least 14 bytes after the length field,
/// as for the smallest legacy message) before it is sliced off, without
/// copying. V2 batches get their header parsed; legacy messages are parsed
/// whole. The records of the compressed entries it yields, however they
/// are read, share one decompression limit
/// ([`DecodeOptions::max_total_decompressed_size`], beside each batch's
/// own). CRCs are checked when [`DecodeOptions::verify_crc`] is set (the
/// default). After an error the iterator ends: a bad length leaves no way
/// to find the next entry.
///
/// # Example
/// ```
/// use bytes::Bytes;
/// use kwire::records::{Batch, Batches, RecordBatchBuilder};
/// let mut b = RecordBatchBuilder::new(0);
/// b.append(0, None, Some("v".into()), vec![]);
/// let one = b.to_bytes().unwrap();
/// // Two batches, then the first 30 bytes of a third.
/// let set = Bytes::from([&one[..], &one[..], &one[..30]].concat());
/// let mut batches = Batches::new(set);
/// assert!(matches!(batches.next(), Some(Ok(Batch::V2(_)))));
/// assert!(matches!(batches.next(), Some(Ok(Batch::V2(_)))));
/// assert!(batches.next().is_none());
/// let partial = batches.partial_batch().unwrap();
/// assert_eq!((partial.position, partial.needed, partial.available), (2 * one.len(), one.len(), 30));
/// ```
#[derive(Debug, Clone)]
pub struct Batches {
    buf: Bytes,
    pos: usize,
    options: DecodeOptions,
    partial: Option<PartialBatch>,
    done: bool,
    budget: Budget,
}

impl Batches {
    /// The entries of `records`, with default [`DecodeOptions`].
    pub fn new(records: Bytes) -> Self {
        Self::with_options(records, DecodeOptions::default())
    }

    /// The entries of `records`, read with `options`.
    pub fn with_options(records: Bytes, options: DecodeOptions) -> Self {
        let budget = Budget::new(options.max_total_decompressed_size);
        Self { buf: records, pos: 0, options, partial: None, done: false, budget }
    }

    /// The partial batch at the end of the input, once the iterator has
    /// reached it.
    pub fn partial_batch(&self) -> Option<&PartialBatch> {
        self.partial.as_ref()
    }

    /// Byte position of the next entry in the input.
    pub fn position(&self) -> usize {
        self.pos
    }

    fn next_entry(&mut self) -> Result<Option<Batch>, RecordError> {
        let rest = &self.buf[self.pos..];
        if rest.is_empty() {
            return Ok(None);
        }
        let base_offset = rest.first_chunk::<8>().map(|b| i64::from_be_bytes(*b));
        let Some(size) = rest.get(8..12) else {
            return self.partial(base_offset, LOG_OVERHEAD);
        };
        let size = i32::from_be_bytes([size[0], size[1], size[2], size[3]]);
        let at = Location { base_offset, ..Location::default() };
        if size < MIN_MESSAGE_SIZE as i32 {
            return Err(RecordError::new(
                RecordErrorKind::Invalid { what: "batch length is below the minimum of 14" },
                at.field("batch_length"),
            ));
        }
        let total = LOG_OVERHEAD + size as usize;
        if total > rest.len() {
            return self.partial(base_offset, total);
        }
        let magic = rest[MAGIC_OFFSET] as i8;
        let bytes = self.buf.slice(self.pos..self.pos + total);
        self.pos += total;
        match magic {
            MAGIC_V2 => {
                let batch = RecordBatch::parse(bytes)?.with_budget(self.budget.clone());
                if self.options.verify_crc {
                    batch.verify_crc()?;
                }
                Ok(Some(Batch::V2(batch)))
            }
            0 | 1 => {
                let message = LegacyMessage::parse(bytes)?.with_budget(self.budget.clone());
                if self.options.verify_crc {
                    message.verify_crc()?;
                }
                Ok(Some(Batch::Legacy(message)))
            }
            _ => Err(RecordError::new(RecordErrorKind::UnsupportedMagic { magic }, at.field("magic"))),
        }
    }

    fn partial(&mut self, base_offset: Option<i64>, needed: usize) -> Result<Option<Batch>, RecordError> {
        let available = self.buf.len() - self.pos;
        self.partial = Some(PartialBatch { position: self.pos, base_offset, needed, available });
        if self.options.reject_partial_batch {
            let at = Location { base_offset, ..Location::default() };
            return Err(RecordError::new(RecordErrorKind::PartialBatch { needed, available }, at));
        }
        Ok(None)
    }
}

impl Iterator for Batches {
    type Item = Result<Batch, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let result = self.next_entry().transpose();
        self.done = !matches!(result, Some(Ok(_)));
        result
    }
}

impl std::iter::FusedIterator for Batches {}
