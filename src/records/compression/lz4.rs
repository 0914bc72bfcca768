//! LZ4 (codec 3): the LZ4 frame format (KIP-57) through lz4_flex.

use std::io::Write;

use lz4_flex::frame::{BlockMode, BlockSize, FrameDecoder, FrameEncoder, FrameInfo};

use super::stream::{compress_failed, frame_sizes, read_limited, FrameWalk};
use crate::records::compression_type::Compression;
use crate::records::error::RecordError;

pub(super) fn compress(data: &[u8]) -> Result<Vec<u8>, RecordError> {
    // 64 KiB independent blocks, no content size: what Kafka's Java
    // reader accepts.
    let info = FrameInfo::new().block_size(BlockSize::Max64KB).block_mode(BlockMode::Independent);
    let mut enc = FrameEncoder::with_frame_info(info, Vec::with_capacity(data.len() / 2 + 32));
    enc.write_all(data).map_err(|e| compress_failed(Compression::Lz4, e))?;
    enc.finish().map_err(|e| compress_failed(Compression::Lz4, e))
}

/// One frame's declared content size (when FLG bit 3 says it is
/// there), an upper bound of its output from its block headers, and
/// its length in bytes.
///
/// ```text
/// 04 22 4d 18 | FLG | BD | [content size u64 LE] | [dict id u32] | HC
/// | blocks: u32 LE size (bit 31: stored uncompressed), data, [checksum u32] | 00 00 00 00
/// | [content checksum u32]
/// ```
fn walk_frame(data: &[u8]) -> FrameWalk {
    const MAGIC: [u8; 4] = [0x04, 0x22, 0x4d, 0x18];
    if data.get(..4)? != MAGIC {
        return None;
    }
    let (flg, bd) = (*data.get(4)?, *data.get(5)?);
    let content = match flg & 0x08 {
        0 => None,
        _ => Some(u64::from_le_bytes(data.get(6..14)?.try_into().ok()?)),
    };
    let mut pos = 7 + if content.is_some() { 8 } else { 0 } + if flg & 0x01 != 0 { 4 } else { 0 };
    let block_max: u64 = match (bd >> 4) & 0x07 {
        4 => 64 << 10,
        5 => 256 << 10,
        6 => 1 << 20,
        7 => 4 << 20,
        _ => return None,
    };
    let block_checksum = if flg & 0x10 != 0 { 4 } else { 0 };
    let mut bound = 0u64;
    loop {
        let size = u32::from_le_bytes(data.get(pos..pos + 4)?.try_into().ok()?);
        pos += 4;
        if size == 0 {
            break;
        }
        let len = (size & 0x7fff_ffff) as usize;
        pos = pos.checked_add(len)?.checked_add(block_checksum)?;
        bound += if size & 0x8000_0000 != 0 { len as u64 } else { block_max };
    }
    pos += if flg & 0x04 != 0 { 4 } else { 0 };
    (pos <= data.len()).then_some((content, bound, pos))
}

/// A copy of `data` whose LZ4 frames carry the header checksum the frame
/// format defines: the second byte of the xxHash32 (seed 0) of the
/// descriptor (FLG to the byte before the checksum). Frames it cannot
/// walk are left as they are, for the decoder to report.
pub(super) fn with_header_checksums(data: &[u8]) -> Vec<u8> {
    let mut out = data.to_vec();
    let mut start = 0;
    while start < out.len() {
        let Some((_, _, len)) = walk_frame(&out[start..]) else { break };
        let flg = out[start + 4];
        let checksum_at = start + 6 + if flg & 0x08 != 0 { 8 } else { 0 } + if flg & 0x01 != 0 { 4 } else { 0 };
        let hash = twox_hash::XxHash32::oneshot(0, &out[start + 4..checksum_at]);
        out[checksum_at] = (hash >> 8) as u8;
        start += len;
    }
    out
}

/// Sizes the frames declare (see [`frame_sizes`]).
pub(super) fn sizes(data: &[u8]) -> (Option<u64>, Option<u64>) {
    frame_sizes(data, walk_frame)
}

/// Reads frame after frame: lz4_flex's decoder reports the end of each
/// frame as the end of input.
struct Frames<'a>(FrameDecoder<std::io::Cursor<&'a [u8]>>);

impl std::io::Read for Frames<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let n = self.0.read(buf)?;
            let input = self.0.get_ref();
            // Each pass consumes at least a frame header, so this ends.
            if n > 0 || buf.is_empty() || input.position() >= input.get_ref().len() as u64 {
                return Ok(n);
            }
        }
    }
}

pub(super) fn decompress(data: &[u8], max_size: usize) -> Result<Vec<u8>, RecordError> {
    let frames = Frames(FrameDecoder::new(std::io::Cursor::new(data)));
    // An LZ4 block expands at most about 255 times.
    read_limited(Compression::Lz4, frames, sizes(data), data.len(), 255, max_size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::compression::sample;
    use crate::records::{compress, decompress, Compression};

    #[test]
    fn lz4_frame_sizes() {
        let data = sample();
        let packed = compress(Compression::Lz4, &data).unwrap();
        let blocks = data.len().div_ceil(64 << 10) as u64;
        assert_eq!(sizes(&packed), (None, Some(blocks * (64 << 10))));
        let two = [&packed[..], &packed[..]].concat();
        assert_eq!(sizes(&two), (None, Some(2 * blocks * (64 << 10))));
        assert_eq!(sizes(&packed[..packed.len() - 1]), (None, None));
        assert_eq!(decompress(Compression::Lz4, &two, 1 << 30).unwrap().len(), 2 * data.len());
    }
}
