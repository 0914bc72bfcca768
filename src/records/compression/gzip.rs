//! gzip (codec 1): RFC 1952 members, several allowed, through flate2's
//! pure-Rust backend.

use std::io::Write;

use super::stream::{compress_failed, read_limited};
use crate::records::compression_type::Compression;
use crate::records::error::RecordError;

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

#[cfg(test)]
mod tests {
    use crate::records::{compress, decompress, Compression, RecordErrorKind};

    #[test]
    fn gzip_declared_size_stops_before_allocating() {
        let mut packed = compress(Compression::Gzip, b"abc").unwrap();
        let n = packed.len();
        packed[n - 4..].copy_from_slice(&u32::MAX.to_le_bytes());
        let err = decompress(Compression::Gzip, &packed, 1 << 20).unwrap_err();
        assert_eq!(*err.kind(), RecordErrorKind::DecompressedTooLarge { limit: 1_048_576 });
    }
}
