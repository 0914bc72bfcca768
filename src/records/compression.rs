//! Record compression: the codecs that attributes bits 0-2 of a v2 batch
//! (and of a legacy wrapper message) name ([`Compression`]).
//!
//! | id | codec | crate (cargo feature) | stream format |
//! |---|---|---|---|
//! | 0 | none | | |
//! | 1 | gzip | `flate2`, pure-Rust backend (`gzip`) | RFC 1952 gzip, several members allowed |
//! | 2 | snappy | `snap` (`snappy`) | xerial framing on write; xerial or raw snappy on read |
//! | 3 | lz4 | `lz4_flex` (`lz4`) | LZ4 frame format (KIP-57) |
//! | 4 | zstd | `zstd` (`zstd`) | zstd frames (KIP-110), magic 2 only |
//!
//! Snappy as the Java client writes it (xerial `SnappyOutputStream`): a
//! 16-byte header, then blocks of at most 32 KiB of input, each an int32
//! length and a raw snappy block. librdkafka may send one raw snappy block
//! with no header instead; [`decompress`] tells them apart by the header.
//!
//! ```text
//! 82 53 4e 41 50 50 59 00 | 00 00 00 01 | 00 00 00 01 | len i32 | raw block | len i32 | raw block ...
//! magic "\x82SNAPPY\0"      version 1     compatible 1
//! ```
//!
//! Decompression writes into one buffer, allocated once at the size the
//! stream declares or its headers bound: gzip's ISIZE, snappy's block
//! lengths, the content size of lz4 and zstd frames, or else the sum of
//! their block headers' maximum outputs (frames from the Java client carry
//! no content size). It never allocates past the caller's limit: declared
//! sizes are checked against it first, a snappy length against what its
//! input can expand to, and reading stops one byte past the limit.
//! LZ4 inside magic-0 messages, written by Kafka 0.8 and 0.9, carries a
//! frame header checksum computed over the wrong bytes (the magic number
//! included; KIP-57 fixed it for magic 1): as Kafka does, the wrapper
//! messages of magic 0 ignore that checksum ([`LegacyMessage::messages`](super::LegacyMessage::messages)),
//! and every other reader checks it.

use std::fmt;

use super::compression_type::Compression;
use super::error::{Location, RecordError, RecordErrorKind};

/// The xerial snappy stream header: magic `82 53 4e 41 50 50 59 00`,
/// version 1, compatible version 1.
pub const XERIAL_HEADER: [u8; 16] = [0x82, b'S', b'N', b'A', b'P', b'P', b'Y', 0, 0, 0, 0, 1, 0, 0, 0, 1];

/// Input bytes per xerial block, as the Java client writes them.
#[cfg(feature = "snappy")]
const XERIAL_BLOCK: usize = 32 * 1024;

/// Compresses `data` with `compression`, in the stream format Kafka
/// expects (see the module docs). [`Compression::None`] copies.
///
/// # Errors
/// [`RecordErrorKind::CompressionUnavailable`] when the codec's feature is off;
/// [`RecordErrorKind::Compress`] when the codec fails.
///
/// # Example
/// ```
/// use kwire::records::{compress, decompress, Compression};
/// let packed = compress(Compression::Snappy, b"hello hello hello").unwrap();
/// assert_eq!(&packed[..8], b"\x82SNAPPY\x00");
/// assert_eq!(decompress(Compression::Snappy, &packed, 1024).unwrap(), b"hello hello hello");
/// ```
pub fn compress(compression: Compression, data: &[u8]) -> Result<Vec<u8>, RecordError> {
    match compression {
        Compression::None => Ok(data.to_vec()),
        #[cfg(feature = "gzip")]
        Compression::Gzip => gzip::compress(data),
        #[cfg(feature = "snappy")]
        Compression::Snappy => snappy::compress(data),
        #[cfg(feature = "lz4")]
        Compression::Lz4 => lz4::compress(data),
        #[cfg(feature = "zstd")]
        Compression::Zstd => zstd::compress(data),
        #[allow(unreachable_patterns)]
        _ => Err(RecordError::new(RecordErrorKind::CompressionUnavailable { compression }, Location::default())),
    }
}

/// Decompresses `data` into one new buffer of at most `max_size` bytes.
///
/// Snappy input is read as xerial-framed when it starts with
/// [`XERIAL_HEADER`]'s magic, and as one raw snappy block otherwise.
///
/// # Errors
/// [`RecordErrorKind::DecompressedTooLarge`] when the output would pass
/// `max_size` (checked before allocating where the stream declares its
/// size, and while reading otherwise); [`RecordErrorKind::Decompress`] for
/// corrupt input; [`RecordErrorKind::CompressionUnavailable`] when the codec's
/// feature is off. The location is left empty for the caller to fill.
///
/// # Example
/// ```
/// use kwire::records::{decompress, Compression, RecordErrorKind};
/// // Raw snappy, as librdkafka may send: uvarint length 3, literal "abc".
/// let raw = [0x03, 0x08, b'a', b'b', b'c'];
/// assert_eq!(decompress(Compression::Snappy, &raw, 16).unwrap(), b"abc");
/// let err = decompress(Compression::Snappy, &raw, 2).unwrap_err();
/// assert_eq!(*err.kind(), RecordErrorKind::DecompressedTooLarge { limit: 2 });
/// ```
pub fn decompress(compression: Compression, data: &[u8], max_size: usize) -> Result<Vec<u8>, RecordError> {
    match compression {
        Compression::None => {
            check_size(data.len() as u64, max_size)?;
            Ok(data.to_vec())
        }
        #[cfg(feature = "gzip")]
        Compression::Gzip => gzip::decompress(data, max_size),
        #[cfg(feature = "snappy")]
        Compression::Snappy => snappy::decompress(data, max_size),
        #[cfg(feature = "lz4")]
        Compression::Lz4 => lz4::decompress(data, max_size),
        #[cfg(feature = "zstd")]
        Compression::Zstd => zstd::decompress(data, max_size),
        #[allow(unreachable_patterns)]
        _ => Err(RecordError::new(RecordErrorKind::CompressionUnavailable { compression }, Location::default())),
    }
}

/// As [`decompress`], for the value of a legacy wrapper message of `magic`:
/// LZ4 frames of magic 0 are read without checking their header checksum,
/// which Kafka 0.8 and 0.9 computed over the wrong bytes (Kafka's reader
/// ignores it for magic 0 too).
pub(crate) fn decompress_legacy(
    compression: Compression,
    magic: i8,
    data: &[u8],
    max_size: usize,
) -> Result<Vec<u8>, RecordError> {
    #[cfg(feature = "lz4")]
    if compression == Compression::Lz4 && magic == 0 {
        return lz4::decompress(&lz4::with_header_checksums(data), max_size);
    }
    let _ = magic;
    decompress(compression, data, max_size)
}

fn check_size(size: u64, max_size: usize) -> Result<(), RecordError> {
    if size > max_size as u64 {
        return Err(RecordError::new(RecordErrorKind::DecompressedTooLarge { limit: max_size }, Location::default()));
    }
    Ok(())
}

#[allow(dead_code)]
fn corrupt(compression: Compression, message: impl fmt::Display) -> RecordError {
    RecordError::new(RecordErrorKind::Decompress { compression, message: message.to_string() }, Location::default())
}

#[allow(dead_code)]
fn compress_failed(compression: Compression, message: impl fmt::Display) -> RecordError {
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
#[allow(dead_code)]
fn read_limited(
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
#[allow(dead_code)]
type FrameWalk = Option<(Option<u64>, u64, usize)>;

/// Sizes a sequence of frames declares: their content sizes summed (a lower
/// bound of the output), and an upper bound when every frame parses (the
/// decoder then reports what does not).
#[allow(dead_code)]
fn frame_sizes(mut data: &[u8], walk: fn(&[u8]) -> FrameWalk) -> (Option<u64>, Option<u64>) {
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

#[cfg(feature = "gzip")]
mod gzip {
    use std::io::Write;

    use super::*;

    pub(super) fn compress(data: &[u8]) -> Result<Vec<u8>, RecordError> {
        let mut enc =
            flate2::write::GzEncoder::new(Vec::with_capacity(data.len() / 2 + 32), flate2::Compression::default());
        enc.write_all(data).map_err(|e| compress_failed(Compression::Gzip, e))?;
        enc.finish().map_err(|e| compress_failed(Compression::Gzip, e))
    }

    pub(super) fn decompress(data: &[u8], max_size: usize) -> Result<Vec<u8>, RecordError> {
        // ISIZE, the last 4 bytes: the size of the last member mod 2^32, so
        // never more than the whole output.
        let declared = match data.len() {
            n if n >= 18 => Some(u32::from_le_bytes([data[n - 4], data[n - 3], data[n - 2], data[n - 1]]) as u64),
            _ => None,
        };
        let reader = flate2::read::MultiGzDecoder::new(data);
        // Deflate expands at most 1032 times.
        read_limited(Compression::Gzip, reader, (declared, None), data.len(), 1032, max_size)
    }
}

#[cfg(feature = "snappy")]
mod snappy {
    use super::*;

    pub(super) fn compress(data: &[u8]) -> Result<Vec<u8>, RecordError> {
        let blocks = data.len().div_ceil(XERIAL_BLOCK);
        let mut out = Vec::with_capacity(XERIAL_HEADER.len() + 4 * blocks + snap::raw::max_compress_len(data.len()));
        out.extend_from_slice(&XERIAL_HEADER);
        let mut encoder = snap::raw::Encoder::new();
        for chunk in data.chunks(XERIAL_BLOCK) {
            let start = out.len();
            out.resize(start + 4 + snap::raw::max_compress_len(chunk.len()), 0);
            let n =
                encoder.compress(chunk, &mut out[start + 4..]).map_err(|e| compress_failed(Compression::Snappy, e))?;
            out.truncate(start + 4 + n);
            // A block of at most 32 KiB input compresses to well under 2^31 bytes.
            out[start..start + 4].copy_from_slice(&(n as i32).to_be_bytes());
        }
        Ok(out)
    }

    /// Most output bytes one input byte of raw snappy can give: a 3-byte
    /// copy element writes at most 64 bytes (plus room for the length varint).
    const MAX_RATIO: usize = 22;

    /// The uncompressed length a raw snappy block declares, checked against
    /// what its bytes can expand to.
    fn declared_len(block: &[u8]) -> Result<usize, RecordError> {
        let len = snap::raw::decompress_len(block).map_err(|e| corrupt(Compression::Snappy, e))?;
        if len > block.len().saturating_mul(MAX_RATIO) {
            return Err(corrupt(
                Compression::Snappy,
                format!("declared length {len} is more than {} bytes can expand to", block.len()),
            ));
        }
        Ok(len)
    }

    pub(super) fn decompress(data: &[u8], max_size: usize) -> Result<Vec<u8>, RecordError> {
        if data.starts_with(&XERIAL_HEADER[..8]) {
            return decompress_xerial(data, max_size);
        }
        let len = snap::raw::decompress_len(data).map_err(|e| corrupt(Compression::Snappy, e))?;
        check_size(len as u64, max_size)?;
        let len = declared_len(data)?;
        let mut out = vec![0; len];
        let n = snap::raw::Decoder::new().decompress(data, &mut out).map_err(|e| corrupt(Compression::Snappy, e))?;
        out.truncate(n);
        Ok(out)
    }

    /// Splits xerial blocks off `body`: int32 length, then that many bytes.
    fn blocks(body: &[u8]) -> impl Iterator<Item = Result<&[u8], RecordError>> {
        let mut rest = body;
        std::iter::from_fn(move || {
            if rest.is_empty() {
                return None;
            }
            let Some((len, tail)) = rest.split_first_chunk::<4>() else {
                rest = &[];
                return Some(Err(corrupt(Compression::Snappy, "xerial block length cut short")));
            };
            let len = i32::from_be_bytes(*len);
            if len < 0 || len as usize > tail.len() {
                rest = &[];
                return Some(Err(corrupt(Compression::Snappy, format!("xerial block length {len} out of range"))));
            }
            let (block, next) = tail.split_at(len as usize);
            rest = next;
            Some(Ok(block))
        })
    }

    fn decompress_xerial(data: &[u8], max_size: usize) -> Result<Vec<u8>, RecordError> {
        let Some(body) = data.get(XERIAL_HEADER.len()..) else {
            return Err(corrupt(Compression::Snappy, "xerial header cut short"));
        };
        // First pass: the blocks' declared sizes, so the output is allocated once.
        let mut total: u64 = 0;
        for block in blocks(body) {
            let block = block?;
            let len = snap::raw::decompress_len(block).map_err(|e| corrupt(Compression::Snappy, e))?;
            total += len as u64;
            check_size(total, max_size)?;
            declared_len(block)?;
        }
        let mut out = vec![0; total as usize];
        let mut pos = 0;
        let mut decoder = snap::raw::Decoder::new();
        for block in blocks(body) {
            pos += decoder.decompress(block?, &mut out[pos..]).map_err(|e| corrupt(Compression::Snappy, e))?;
        }
        out.truncate(pos);
        Ok(out)
    }
}

#[cfg(feature = "lz4")]
mod lz4 {
    use std::io::Write;

    use lz4_flex::frame::{BlockMode, BlockSize, FrameDecoder, FrameEncoder, FrameInfo};

    use super::*;

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
}

#[cfg(feature = "zstd")]
mod zstd {
    use super::*;

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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        (0..100_000u32).flat_map(|i| (i % 251).to_be_bytes()).collect()
    }

    #[test]
    fn every_available_codec_round_trips() {
        let data = sample();
        for c in Compression::ALL.into_iter().filter(|c| c.is_available()) {
            let packed = compress(c, &data).unwrap();
            assert_eq!(decompress(c, &packed, data.len()).unwrap(), data, "{c}");
            let err = decompress(c, &packed, data.len() - 1).unwrap_err();
            assert_eq!(*err.kind(), RecordErrorKind::DecompressedTooLarge { limit: data.len() - 1 }, "{c}");
            assert_eq!(decompress(c, &compress(c, b"").unwrap(), 0).unwrap(), b"", "{c} empty");
        }
    }

    #[cfg(feature = "snappy")]
    #[test]
    fn snappy_xerial_layout_and_raw() {
        let data = sample();
        let packed = compress(Compression::Snappy, &data).unwrap();
        assert_eq!(packed[..16], XERIAL_HEADER);
        // 400000 bytes of input: 13 blocks of 32 KiB (the last one short).
        let mut rest = &packed[16..];
        let mut blocks = 0;
        while !rest.is_empty() {
            let len = i32::from_be_bytes(rest[..4].try_into().unwrap()) as usize;
            rest = &rest[4 + len..];
            blocks += 1;
        }
        assert_eq!(blocks, data.len().div_ceil(32 * 1024));
        let raw = snap::raw::Encoder::new().compress_vec(&data).unwrap();
        assert_eq!(decompress(Compression::Snappy, &raw, usize::MAX).unwrap(), data);
        // Cut-short block length and a block running past the end.
        let mut bad = XERIAL_HEADER.to_vec();
        bad.extend_from_slice(&[0, 0]);
        assert!(matches!(
            decompress(Compression::Snappy, &bad, 100).unwrap_err().kind(),
            RecordErrorKind::Decompress { .. }
        ));
        bad.truncate(16);
        bad.extend_from_slice(&[0, 0, 0, 9, 1]);
        assert!(matches!(
            decompress(Compression::Snappy, &bad, 100).unwrap_err().kind(),
            RecordErrorKind::Decompress { .. }
        ));
    }

    #[test]
    fn corrupt_input_is_an_error() {
        for c in Compression::ALL.into_iter().filter(|c| c.is_available() && *c != Compression::None) {
            let err = decompress(
                c,
                // Starts with a small snappy length and ends in a small gzip ISIZE,
                // so every codec gets past its size check and parses it.
                &[0x05, 0xad, 0xbe, 0xef, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 0],
                1 << 20,
            )
            .unwrap_err();
            assert!(
                matches!(err.kind(), RecordErrorKind::Decompress { compression, .. } if *compression == c),
                "{c}: {err}"
            );
        }
    }

    #[test]
    fn decompression_allocates_once() {
        // The output buffer is allocated at its final size: gzip's ISIZE,
        // snappy's lengths, zstd's content size, and for lz4 (whose frames
        // from the Java client carry no content size) the block headers'
        // bound, at most one block too large.
        let data = sample();
        for c in Compression::ALL.into_iter().filter(|c| c.is_available()) {
            let out = decompress(c, &compress(c, &data).unwrap(), 1 << 30).unwrap();
            assert_eq!(out, data);
            let slack = if c == Compression::Lz4 { 64 << 10 } else { 0 };
            assert!(out.capacity() >= data.len() && out.capacity() - data.len() <= slack, "{c}: {}", out.capacity());
        }
    }

    #[cfg(feature = "lz4")]
    #[test]
    fn lz4_frame_sizes() {
        let data = sample();
        let packed = compress(Compression::Lz4, &data).unwrap();
        let blocks = data.len().div_ceil(64 << 10) as u64;
        assert_eq!(lz4::sizes(&packed), (None, Some(blocks * (64 << 10))));
        let two = [&packed[..], &packed[..]].concat();
        assert_eq!(lz4::sizes(&two), (None, Some(2 * blocks * (64 << 10))));
        assert_eq!(lz4::sizes(&packed[..packed.len() - 1]), (None, None));
        assert_eq!(decompress(Compression::Lz4, &two, 1 << 30).unwrap().len(), 2 * data.len());
    }

    #[cfg(feature = "zstd")]
    #[test]
    fn zstd_frame_sizes() {
        let data = sample();
        // One-shot compression declares the content size.
        let packed = compress(Compression::Zstd, &data).unwrap();
        assert_eq!(zstd::sizes(&packed), (Some(data.len() as u64), Some(data.len() as u64)));
        // Streaming compression, as the Java client's, does not: the block
        // headers bound the output within one block.
        let streamed = ::zstd::stream::encode_all(&data[..], 3).unwrap();
        let (at_least, at_most) = zstd::sizes(&streamed);
        assert_eq!(at_least, None);
        let at_most = at_most.unwrap();
        assert!(at_most >= data.len() as u64 && at_most - (data.len() as u64) < 128 << 10, "{at_most}");
        let out = decompress(Compression::Zstd, &streamed, 1 << 30).unwrap();
        // Allocated once: at the bound (or the ratio cap below it), never grown past it.
        assert_eq!(out.len(), data.len());
        assert!(out.capacity() >= data.len() && out.capacity() as u64 <= at_most, "{}", out.capacity());
        assert_eq!(zstd::sizes(&streamed[..streamed.len() - 1]).1, None);
        // Two frames, and a skippable frame between them.
        let mut two = packed.clone();
        two.extend_from_slice(&[0x50, 0x2a, 0x4d, 0x18, 2, 0, 0, 0, 0xaa, 0xbb]);
        two.extend_from_slice(&streamed);
        assert_eq!(zstd::sizes(&two).0, Some(data.len() as u64));
        assert_eq!(decompress(Compression::Zstd, &two, 1 << 30).unwrap().len(), 2 * data.len());
    }

    #[cfg(feature = "snappy")]
    #[test]
    fn snappy_declared_length_must_fit_the_input() {
        // 3 bytes declaring 64 KiB: under the limit, but no snappy stream of
        // 3 bytes can expand that far, so nothing is allocated for it.
        let err = decompress(Compression::Snappy, &[0x80, 0x80, 0x04], 1 << 20).unwrap_err();
        assert!(err.to_string().contains("declared length 65536 is more than 3 bytes can expand to"), "{err}");
        let mut framed = XERIAL_HEADER.to_vec();
        framed.extend_from_slice(&[0, 0, 0, 3, 0x80, 0x80, 0x04]);
        assert!(matches!(
            decompress(Compression::Snappy, &framed, 1 << 20).unwrap_err().kind(),
            RecordErrorKind::Decompress { .. }
        ));
    }

    #[cfg(feature = "gzip")]
    #[test]
    fn gzip_declared_size_stops_before_allocating() {
        let mut packed = compress(Compression::Gzip, b"abc").unwrap();
        let n = packed.len();
        packed[n - 4..].copy_from_slice(&u32::MAX.to_le_bytes());
        let err = decompress(Compression::Gzip, &packed, 1 << 20).unwrap_err();
        assert_eq!(*err.kind(), RecordErrorKind::DecompressedTooLarge { limit: 1_048_576 });
    }
}
