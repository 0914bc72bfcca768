//! zstd (codec 4, magic 2 only): zstd frames (KIP-110).

use super::stream::{compress_failed, corrupt, frame_sizes, read_limited, FrameWalk};
use crate::records::compression_type::Compression;
use crate::records::error::RecordError;

/// zstd's own default level.
const LEVEL: i32 = 3;

pub(super) fn compress(data: &[u8]) -> Result<Vec<u8>, RecordError> {
    ::zstd::bulk::compress(data, LEVEL).map_err(|e| compress_failed(Compression::Zstd, e))
}

/// Largest output of one compressed block.
const BLOCK_MAX: u64 = 128 << 10;

/// One frame's declared content size, an upper bound of its output from
/// its block headers, and its length in bytes (RFC 8878). Skippable
/// frames give nothing.
///
/// ```text
/// 28 b5 2f fd | descriptor | [window] | [dict id 0/1/2/4] | [content size 0/1/2/4/8 LE]
/// | blocks: 3-byte LE header (bit 0 last, bits 1-2 raw/RLE/compressed, bits 3-23 size), content
/// | [checksum u32]
/// ```
fn walk_frame(data: &[u8]) -> FrameWalk {
    let magic = u32::from_le_bytes(data.get(..4)?.try_into().ok()?);
    if magic & 0xffff_fff0 == 0x184d_2a50 {
        let used = 8usize.checked_add(u32::from_le_bytes(data.get(4..8)?.try_into().ok()?) as usize)?;
        return (used <= data.len()).then_some((Some(0), 0, used));
    }
    if magic != 0xfd2f_b528 {
        return None;
    }
    let descriptor = *data.get(4)?;
    let single_segment = descriptor & 0x20 != 0;
    let mut pos = 5;
    let window = if single_segment {
        None
    } else {
        let w = *data.get(pos)?;
        pos += 1;
        let base = 1u64 << (10 + (w >> 3));
        Some(base + base / 8 * (w & 0x07) as u64)
    };
    pos += [0, 1, 2, 4][(descriptor & 0x03) as usize];
    let size_len = match descriptor >> 6 {
        0 => usize::from(single_segment),
        1 => 2,
        2 => 4,
        _ => 8,
    };
    let content = match data.get(pos..pos + size_len)? {
        [] => None,
        bytes => {
            let v = bytes.iter().rev().fold(0u64, |acc, &b| (acc << 8) | b as u64);
            Some(if size_len == 2 { v + 256 } else { v })
        }
    };
    pos += size_len;
    let block_max = window.or(content).unwrap_or(BLOCK_MAX).min(BLOCK_MAX);
    let mut bound = 0u64;
    loop {
        let h = data.get(pos..pos + 3)?;
        let header = u32::from_le_bytes([h[0], h[1], h[2], 0]);
        pos += 3;
        let size = (header >> 3) as usize;
        let (stored, out) = match (header >> 1) & 0x03 {
            0 => (size, size as u64),
            1 => (1, size as u64),
            2 => (size, block_max),
            _ => return None,
        };
        pos = pos.checked_add(stored)?;
        bound += out;
        if header & 1 != 0 {
            break;
        }
    }
    pos += if descriptor & 0x04 != 0 { 4 } else { 0 };
    (pos <= data.len()).then_some((content, bound, pos))
}

/// Sizes the frames declare (see [`frame_sizes`]).
pub(super) fn sizes(data: &[u8]) -> (Option<u64>, Option<u64>) {
    frame_sizes(data, walk_frame)
}

pub(super) fn decompress(data: &[u8], max_size: usize) -> Result<Vec<u8>, RecordError> {
    let reader = ::zstd::stream::read::Decoder::with_buffer(data).map_err(|e| corrupt(Compression::Zstd, e))?;
    // RLE blocks can expand further; 1024 only bounds the first allocation.
    read_limited(Compression::Zstd, reader, sizes(data), data.len(), 1024, max_size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::compression::sample;
    use crate::records::{compress, decompress, Compression};

    #[test]
    fn zstd_frame_sizes() {
        let data = sample();
        // One-shot compression declares the content size.
        let packed = compress(Compression::Zstd, &data).unwrap();
        assert_eq!(sizes(&packed), (Some(data.len() as u64), Some(data.len() as u64)));
        // Streaming compression, as the Java client's, does not: the block
        // headers bound the output within one block.
        let streamed = ::zstd::stream::encode_all(&data[..], 3).unwrap();
        let (at_least, at_most) = sizes(&streamed);
        assert_eq!(at_least, None);
        let at_most = at_most.unwrap();
        assert!(at_most >= data.len() as u64 && at_most - (data.len() as u64) < 128 << 10, "{at_most}");
        let out = decompress(Compression::Zstd, &streamed, 1 << 30).unwrap();
        // Allocated once: at the bound (or the ratio cap below it), never grown past it.
        assert_eq!(out.len(), data.len());
        assert!(out.capacity() >= data.len() && out.capacity() as u64 <= at_most, "{}", out.capacity());
        assert_eq!(sizes(&streamed[..streamed.len() - 1]).1, None);
        // Two frames, and a skippable frame between them.
        let mut two = packed.clone();
        two.extend_from_slice(&[0x50, 0x2a, 0x4d, 0x18, 2, 0, 0, 0, 0xaa, 0xbb]);
        two.extend_from_slice(&streamed);
        assert_eq!(sizes(&two).0, Some(data.len() as u64));
        assert_eq!(decompress(Compression::Zstd, &two, 1 << 30).unwrap().len(), 2 * data.len());
    }
}
