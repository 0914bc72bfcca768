//! What the codecs share: their errors, reading a decompressing stream
//! within a limit, and the sizes a sequence of frames declares.

use std::fmt;

#[cfg(any(feature = "gzip", feature = "lz4", feature = "zstd"))]
use super::check_size;
use crate::records::compression_type::Compression;
use crate::records::error::{Location, RecordError, RecordErrorKind};

pub(super) fn corrupt(compression: Compression, message: impl fmt::Display) -> RecordError {
    RecordError::new(RecordErrorKind::Decompress { compression, message: message.to_string() }, Location::default())
}

pub(super) fn compress_failed(compression: Compression, message: impl fmt::Display) -> RecordError {
    RecordError::from(RecordErrorKind::Compress { compression, message: message.to_string() })
}

/// Reads a decompressing stream to its end into one buffer, never reading
/// more than `max_size` + 1 bytes.
///
/// `at_least` is a size the stream declares that the output cannot be
/// below: over `max_size`, it fails at once. The buffer is allocated once
/// at `at_most` (an upper bound the stream's headers give) or else
/// `at_least`, held to `max_ratio` times the input so that a few bytes
/// claiming megabytes reserve no more than real data of their size could
/// need; only when the stream declared nothing, or lied, does it grow.
#[cfg(any(feature = "gzip", feature = "lz4", feature = "zstd"))]
pub(super) fn read_limited(
    compression: Compression,
    reader: impl std::io::Read,
    (at_least, at_most): (Option<u64>, Option<u64>),
    input_len: usize,
    max_ratio: usize,
    max_size: usize,
) -> Result<Vec<u8>, RecordError> {
    use std::io::Read;
    if let Some(size) = at_least {
        check_size(size, max_size)?;
    }
    let capacity = at_most
        .or(at_least)
        .map_or(input_len.saturating_mul(4), |size| size.min(usize::MAX as u64) as usize)
        .min(input_len.saturating_mul(max_ratio))
        .min(max_size);
    let mut out = Vec::with_capacity(capacity);
    reader.take((max_size as u64).saturating_add(1)).read_to_end(&mut out).map_err(|e| corrupt(compression, e))?;
    check_size(out.len() as u64, max_size)?;
    Ok(out)
}

/// One frame's walk: its declared content size, an upper bound of its
/// output, and its length in bytes; `None` when it does not parse.
#[cfg(any(feature = "lz4", feature = "zstd"))]
pub(super) type FrameWalk = Option<(Option<u64>, u64, usize)>;

/// Sizes a sequence of frames declares: their content sizes summed (a lower
/// bound of the output), and an upper bound when every frame parses (the
/// decoder then reports what does not).
#[cfg(any(feature = "lz4", feature = "zstd"))]
pub(super) fn frame_sizes(mut data: &[u8], walk: fn(&[u8]) -> FrameWalk) -> (Option<u64>, Option<u64>) {
    let (mut at_least, mut at_most) = (None::<u64>, Some(0u64));
    while !data.is_empty() {
        let Some((content, bound, used)) = walk(data) else {
            return (at_least, None);
        };
        if let Some(c) = content {
            at_least = Some(at_least.unwrap_or(0).saturating_add(c));
        }
        at_most = at_most.map(|m| m.saturating_add(content.unwrap_or(bound)));
        data = &data[used..];
    }
    (at_least, at_most)
}
