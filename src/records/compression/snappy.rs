//! snappy (codec 2): xerial framing on write; xerial or one raw block on
//! read (see the parent module).

use super::stream::{compress_failed, corrupt};
use super::{check_size, XERIAL_HEADER};
use crate::records::compression_type::Compression;
use crate::records::error::RecordError;

/// Input bytes per xerial block, as the Java client writes them.
const XERIAL_BLOCK: usize = 32 * 1024;

pub(super) fn compress(data: &[u8]) -> Result<Vec<u8>, RecordError> {
    let blocks = data.len().div_ceil(XERIAL_BLOCK);
    let mut out = Vec::with_capacity(XERIAL_HEADER.len() + 4 * blocks + snap::raw::max_compress_len(data.len()));
    out.extend_from_slice(&XERIAL_HEADER);
    let mut encoder = snap::raw::Encoder::new();
    for chunk in data.chunks(XERIAL_BLOCK) {
        let start = out.len();
        out.resize(start + 4 + snap::raw::max_compress_len(chunk.len()), 0);
        let n = encoder.compress(chunk, &mut out[start + 4..]).map_err(|e| compress_failed(Compression::Snappy, e))?;
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

#[cfg(test)]
mod tests {
    use crate::records::compression::sample;
    use crate::records::XERIAL_HEADER;
    use crate::records::{compress, decompress, Compression, RecordErrorKind};

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
}
