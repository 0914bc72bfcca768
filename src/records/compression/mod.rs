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

use super::compression_type::Compression;
use super::error::{Location, RecordError, RecordErrorKind};

#[cfg(feature = "gzip")]
mod gzip;
#[cfg(feature = "lz4")]
mod lz4;
#[cfg(feature = "snappy")]
mod snappy;
#[cfg(any(feature = "gzip", feature = "snappy", feature = "lz4", feature = "zstd"))]
mod stream;
#[cfg(feature = "zstd")]
mod zstd;

/// The xerial snappy stream header: magic `82 53 4e 41 50 50 59 00`,
/// version 1, compatible version 1.
pub const XERIAL_HEADER: [u8; 16] = [0x82, b'S', b'N', b'A', b'P', b'P', b'Y', 0, 0, 0, 0, 1, 0, 0, 0, 1];

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

/// 400,000 bytes that compress well, for the codecs' tests.
#[cfg(test)]
fn sample() -> Vec<u8> {
    (0..100_000u32).flat_map(|i| (i % 251).to_be_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
