//! The record layer against golden bytes, real client captures, every
//! codec, hostile input and random batches.

mod common;

use std::collections::BTreeSet;

use bytes::{Bytes, BytesMut};
use kwire::error::DecodeErrorKind;
use kwire::records::{
    compress, Batch, BatchHeader, Batches, Compression, DecodeOptions, Header, LegacyMessage, Location, Record,
    RecordBatch, RecordBatchBuilder, RecordError, RecordErrorKind, TimestampType,
};
use proptest::prelude::*;

/// test-vectors.md V14: one batch, one record (key null, value "", header ("h", null)).
const V14: [u8; 71] = [
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // base_offset 0
    0x00, 0x00, 0x00, 0x3b, // batch_length 59
    0xff, 0xff, 0xff, 0xff, // partition_leader_epoch -1
    0x02, // magic
    0x2a, 0x71, 0x98, 0xa5, // crc
    0x00, 0x00, // attributes
    0x00, 0x00, 0x00, 0x00, // last_offset_delta
    0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, // base_timestamp 1700000000000
    0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, // max_timestamp
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, // producer_id -1
    0xff, 0xff, // producer_epoch -1
    0xff, 0xff, 0xff, 0xff, // base_sequence -1
    0x00, 0x00, 0x00, 0x01, // record_count 1
    0x12, 0x00, 0x00, 0x00, 0x01, 0x00, 0x02, 0x02, 0x68, 0x01, // the record
];

fn options() -> DecodeOptions {
    DecodeOptions::default()
}

/// The only entry of `bytes`, which must be a v2 batch.
fn single_batch(bytes: Bytes, options: DecodeOptions) -> Result<RecordBatch, RecordError> {
    let mut batches = Batches::with_options(bytes, options);
    let batch = match batches.next().expect("one entry")? {
        Batch::V2(batch) => batch,
        Batch::Legacy(m) => panic!("expected a v2 batch, got magic {}", m.magic),
    };
    assert!(batches.next().is_none() && batches.partial_batch().is_none());
    Ok(batch)
}

fn records_of(batch: &RecordBatch, options: &DecodeOptions) -> Result<Vec<Record>, RecordError> {
    batch.records(options)?.collect()
}

/// Rewrites the batch length and CRC-32C of a hand-made v2 batch.
fn seal(batch: &mut [u8]) {
    let len = (batch.len() - 12) as i32;
    batch[8..12].copy_from_slice(&len.to_be_bytes());
    let crc = crc32c::crc32c(&batch[21..]);
    batch[17..21].copy_from_slice(&crc.to_be_bytes());
}

fn available_codecs() -> Vec<Compression> {
    Compression::ALL.into_iter().filter(|c| c.is_available()).collect()
}

fn three_records(builder: &mut RecordBatchBuilder, headers: bool) {
    for i in 0..3 {
        let h = if headers { vec![Header::new("h", Some(Bytes::from_static(b"v")))] } else { vec![] };
        builder.append(1_700_000_000_000 + 10 * i, Some(format!("k{i}").into()), Some(format!("hello-{i}").into()), h);
    }
}

#[test]
fn v14_decodes_and_reencodes_byte_exact() {
    let input = Bytes::from_static(&V14);
    let batch = single_batch(input.clone(), options()).unwrap();
    let h = *batch.header();
    assert_eq!((h.base_offset, h.batch_length, h.partition_leader_epoch, h.magic, h.crc), (0, 59, -1, 2, 0x2a71_98a5));
    assert_eq!(h.attributes.compression(), Some(Compression::None));
    assert_eq!(h.attributes.timestamp_type(), TimestampType::CreateTime);
    assert_eq!((h.last_offset_delta, h.base_timestamp, h.max_timestamp), (0, 1_700_000_000_000, 1_700_000_000_000));
    assert_eq!((h.producer_id, h.producer_epoch, h.base_sequence, h.record_count), (-1, -1, -1, 1));
    assert_eq!(batch.compute_crc(), 0x2a71_98a5);
    batch.verify_crc().unwrap();

    let records = records_of(&batch, &options()).unwrap();
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r.key, None);
    assert_eq!(r.value, Some(Bytes::new()));
    assert_eq!(r.headers, vec![Header { key: Bytes::from_static(b"h"), value: None }]);
    assert_eq!((h.offset_of(r), h.timestamp_of(r)), (0, 1_700_000_000_000));

    let mut builder = RecordBatchBuilder::from_header(&h);
    for r in records {
        builder.push(r);
    }
    assert_eq!(&builder.to_bytes().unwrap()[..], &V14[..]);

    // The same batch from the high-level builder calls.
    let mut builder = RecordBatchBuilder::new(0);
    builder.append(1_700_000_000_000, None, Some(Bytes::new()), vec![Header::new("h", None)]);
    assert_eq!(&builder.to_bytes().unwrap()[..], &V14[..]);
}

#[test]
fn v14_header_alone() {
    // Only the first 61 bytes: the header reads without the records.
    let h = BatchHeader::parse(&V14[..61]).unwrap();
    assert_eq!((h.record_count, h.batch_size(), h.last_offset()), (1, 71, 0));
    let err = BatchHeader::parse(&V14[..60]).unwrap_err();
    assert_eq!(err.location(), Some(&Location { base_offset: Some(0), ..Location::default() }));
    assert!(matches!(
        err.kind(),
        RecordErrorKind::Decode { source }
            if *source.kind() == DecodeErrorKind::NotEnoughBytes { needed: 61, remaining: 60 }
    ));
}

#[test]
fn negative_record_count_is_an_error() {
    let mut bytes = V14;
    bytes[57..61].copy_from_slice(&(-1i32).to_be_bytes());
    seal(&mut bytes);
    let batch = single_batch(Bytes::copy_from_slice(&bytes), options()).unwrap();
    let err = batch.records(&options()).unwrap_err();
    assert_eq!(
        err,
        RecordError::new(
            RecordErrorKind::Invalid { what: "negative record count" },
            Location::batch(0).field("record_count")
        )
    );
    // A count that the 10 record bytes cannot hold is caught before reading.
    bytes[57..61].copy_from_slice(&2i32.to_be_bytes());
    seal(&mut bytes);
    let batch = single_batch(Bytes::copy_from_slice(&bytes), options()).unwrap();
    let err = batch.records(&options()).unwrap_err();
    assert_eq!(err.to_string(), "batch at offset 0, record_count: count 2 but 10 bytes remain (offset 61)");
}

#[test]
fn header_count_larger_than_remaining_is_an_error() {
    let mut bytes = V14;
    bytes[67] = 0x7e; // header count 63, with 3 bytes left in the record
    seal(&mut bytes);
    let batch = single_batch(Bytes::copy_from_slice(&bytes), options()).unwrap();
    let err = records_of(&batch, &options()).unwrap_err();
    let RecordErrorKind::Decode { source } = err.kind() else { panic!("{err}") };
    assert_eq!(err.location(), Some(&Location::batch(0).record(0).field("header_count")));
    assert_eq!(*source.kind(), DecodeErrorKind::CountTooLarge { count: 63, remaining: 3 });
    assert_eq!(source.offset(), 68);
    // Same with a huge count: no allocation of its size is attempted.
    let mut huge = V14[..67].to_vec();
    huge.extend_from_slice(&[0xfe, 0xff, 0xff, 0xff, 0x0f]); // varint i32::MAX
    huge[61] = 0x1a; // record length 13: the count takes 4 more bytes
    huge.extend_from_slice(&[0x02, 0x68, 0x01]);
    seal(&mut huge);
    let batch = single_batch(Bytes::from(huge), options()).unwrap();
    let err = records_of(&batch, &options()).unwrap_err();
    assert!(err.to_string().contains("count 2147483647 but 3 bytes remain"), "{err}");
}

#[test]
fn corrupted_crc_names_the_batch() {
    let mut b = RecordBatchBuilder::new(42);
    three_records(&mut b, true);
    let mut bytes = b.to_bytes().unwrap().to_vec();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x01; // inside the last header value
    let err = single_batch(Bytes::from(bytes.clone()), options()).unwrap_err();
    let RecordErrorKind::CrcMismatch { stored, computed } = *err.kind() else { panic!("{err}") };
    assert_eq!(err.location(), Some(&Location::batch(42).field("crc")));
    assert_eq!(stored, u32::from_be_bytes(bytes[17..21].try_into().unwrap()));
    assert_eq!(computed, crc32c::crc32c(&bytes[21..]));
    assert!(err.to_string().starts_with("batch at offset 42, crc: CRC mismatch"), "{err}");
    // Skipping the check reads the damaged value.
    let mut lenient = options();
    lenient.verify_crc = false;
    let batch = single_batch(Bytes::from(bytes), lenient).unwrap();
    let records = records_of(&batch, &lenient).unwrap();
    assert_eq!(records[2].headers[0].value.as_deref(), Some(&b"w"[..]));
}

#[test]
fn every_codec_round_trips() {
    for codec in available_codecs() {
        let mut b = RecordBatchBuilder::new(1000);
        b.compression(codec).producer(5, 1, 17).partition_leader_epoch(3).transactional(true);
        three_records(&mut b, true);
        // A big, compressible record too, spanning several snappy/lz4 blocks.
        let big: Bytes = (0..200_000u32).map(|i| (i % 7) as u8).collect::<Vec<u8>>().into();
        b.append(1_700_000_000_005, None, Some(big.clone()), vec![]);
        let bytes = b.to_bytes().unwrap();
        let batch = single_batch(bytes.clone(), options()).unwrap();
        let h = *batch.header();
        assert_eq!(h.attributes.compression(), Some(codec), "{codec}");
        assert!(h.attributes.is_transactional() && !h.attributes.is_control());
        assert_eq!((h.producer_id, h.producer_epoch, h.base_sequence, h.partition_leader_epoch), (5, 1, 17, 3));
        assert_eq!((h.record_count, h.last_offset_delta, h.max_timestamp), (4, 3, 1_700_000_000_020));
        if codec != Compression::None {
            assert!(bytes.len() < 20_000, "{codec} did not compress: {}", bytes.len());
        }
        let records = records_of(&batch, &options()).unwrap();
        assert_eq!(records, b.records(), "{codec}");
        assert_eq!(h.offset_of(&records[2]), 1002);
        assert_eq!(h.timestamp_of(&records[2]), 1_700_000_000_020);
        assert_eq!(records[3].value.as_ref(), Some(&big));
        // Re-encoding from the header and the decoded records is byte-exact.
        let mut again = RecordBatchBuilder::from_header(&h);
        records.into_iter().for_each(|r| {
            again.push(r);
        });
        assert_eq!(again.to_bytes().unwrap(), bytes, "{codec}");
    }
}

#[cfg(feature = "snappy")]
#[test]
fn raw_snappy_batches_decode() {
    // librdkafka may send one raw snappy block with no xerial header.
    let mut plain = RecordBatchBuilder::new(0);
    three_records(&mut plain, false);
    let plain = plain.to_bytes().unwrap();
    let records = &plain[61..];
    let mut raw = snap::raw::Encoder::new().compress_vec(records).unwrap();
    let mut bytes = plain[..61].to_vec();
    bytes[21..23].copy_from_slice(&2i16.to_be_bytes());
    bytes.append(&mut raw);
    seal(&mut bytes);
    let batch = single_batch(Bytes::from(bytes), options()).unwrap();
    let keys: Vec<_> = records_of(&batch, &options()).unwrap().into_iter().map(|r| r.key.unwrap()).collect();
    assert_eq!(keys, ["k0", "k1", "k2"]);
}

#[test]
fn codecs_left_out_of_the_build_are_typed_errors() {
    for codec in Compression::ALL.into_iter().filter(|c| !c.is_available()) {
        let err = compress(codec, b"x").unwrap_err();
        assert_eq!(*err.kind(), RecordErrorKind::CompressionUnavailable { compression: codec });
        let mut bytes = V14.to_vec();
        bytes[22] = codec.id();
        seal(&mut bytes);
        let batch = single_batch(Bytes::from(bytes), options()).unwrap();
        let err = batch.records(&options()).unwrap_err();
        assert_eq!(
            err,
            RecordError::new(
                RecordErrorKind::CompressionUnavailable { compression: codec },
                Location::batch(0).field("records")
            )
        );
    }
}

#[test]
fn uncompressed_records_share_the_input() {
    let mut b = RecordBatchBuilder::new(0);
    three_records(&mut b, true);
    let input = b.to_bytes().unwrap();
    let span = input.as_ptr() as usize..input.as_ptr() as usize + input.len();
    let batch = single_batch(input.clone(), options()).unwrap();
    for r in records_of(&batch, &options()).unwrap() {
        for part in [r.key.unwrap(), r.value.unwrap(), r.headers[0].key.clone(), r.headers[0].value.clone().unwrap()] {
            assert!(span.contains(&(part.as_ptr() as usize)), "a slice was copied out of the input");
        }
    }
}

#[test]
fn compressed_records_share_one_buffer() {
    for codec in available_codecs().into_iter().filter(|c| *c != Compression::None) {
        let mut b = RecordBatchBuilder::new(0);
        b.compression(codec);
        three_records(&mut b, true);
        let raw_len: usize = b.records().iter().map(|r| r.encoded_size().unwrap()).sum();
        let batch = single_batch(b.to_bytes().unwrap(), options()).unwrap();
        let (mut lo, mut hi) = (usize::MAX, 0);
        for r in records_of(&batch, &options()).unwrap() {
            for part in [r.key.unwrap(), r.value.unwrap(), r.headers[0].value.clone().unwrap()] {
                lo = lo.min(part.as_ptr() as usize);
                hi = hi.max(part.as_ptr() as usize + part.len());
            }
        }
        assert!(hi - lo <= raw_len, "{codec}: record slices span {} bytes of {raw_len}", hi - lo);
    }
}

#[test]
fn compression_bomb_is_stopped() {
    let mut small = options();
    small.max_decompressed_size = 1 << 20;
    for codec in available_codecs().into_iter().filter(|c| *c != Compression::None) {
        let mut b = RecordBatchBuilder::new(7);
        b.compression(codec);
        b.append(0, None, Some(vec![0u8; 4 << 20].into()), vec![]);
        let bytes = b.to_bytes().unwrap();
        assert!(bytes.len() < 300_000, "{codec}: {}", bytes.len());
        let batch = single_batch(bytes, small).unwrap();
        let err = batch.records(&small).unwrap_err();
        assert_eq!(
            err,
            RecordError::new(
                RecordErrorKind::DecompressedTooLarge { limit: 1 << 20 },
                Location::batch(7).field("records")
            ),
            "{codec}"
        );
        // The default 64 MiB allows it.
        assert_eq!(records_of(&batch, &options()).unwrap()[0].value.as_ref().map(Bytes::len), Some(4 << 20));
    }
}

#[test]
fn many_small_bombs_pass_the_total_limit() {
    // Sixteen batches, each 1 MiB of zeros (far under the 64 MiB per batch)
    // and at most 64 KB compressed, against a total of a little over 4 MiB
    // for the field (each batch's records are 1 MiB and a few bytes).
    let mut options = options();
    options.max_total_decompressed_size = 4_200_000;
    for codec in available_codecs().into_iter().filter(|c| *c != Compression::None) {
        let set: Vec<u8> = (0..16)
            .flat_map(|i| {
                let mut b = RecordBatchBuilder::new(i * 10);
                b.compression(codec);
                b.append(0, None, Some(vec![0u8; 1 << 20].into()), vec![]);
                b.to_bytes().unwrap().to_vec()
            })
            .collect();
        assert!(set.len() < 16 * 64_000, "{codec}: {}", set.len());
        let set = Bytes::from(set);
        let mut read = Vec::new();
        let mut failed = None;
        for batch in Batches::with_options(set.clone(), options) {
            let Batch::V2(batch) = batch.unwrap() else { panic!("v2 expected") };
            // The budget goes with the batch: a clone read with other
            // options draws from it too.
            match records_of(&batch.clone(), &DecodeOptions::default()) {
                Ok(records) => read.push((batch.header().base_offset, records[0].value.as_ref().map(Bytes::len))),
                Err(err) => {
                    failed = Some(err);
                    break;
                }
            }
        }
        assert_eq!(
            read,
            [(0, Some(1 << 20)), (10, Some(1 << 20)), (20, Some(1 << 20)), (30, Some(1 << 20))],
            "{codec}"
        );
        let err = failed.unwrap();
        assert_eq!(
            err,
            RecordError::new(
                RecordErrorKind::TotalDecompressedTooLarge { limit: 4_200_000 },
                Location::batch(40).field("records")
            ),
            "{codec}"
        );
        assert_eq!(
            err.to_string(),
            "batch at offset 40, records: decompressed data of the records field exceeds its limit of 4200000 bytes in all"
        );
        // Each Batches has its own budget, and a batch parsed alone has none.
        let mut fresh = Batches::with_options(set.clone(), options);
        let Some(Ok(Batch::V2(first))) = fresh.next() else { panic!("v2 expected") };
        assert!(records_of(&first, &options).is_ok(), "{codec}");
        let alone = RecordBatch::parse(set.slice(..first.as_bytes().len())).unwrap();
        for _ in 0..8 {
            assert!(records_of(&alone, &options).is_ok(), "{codec}");
        }
        // The per-batch limit still applies, and wins when it is the lower.
        let mut per_batch = options;
        per_batch.max_decompressed_size = 1 << 19;
        let err = Batches::with_options(set, per_batch)
            .next()
            .map(|b| match b.unwrap() {
                Batch::V2(b) => b.records(&per_batch).map(|_| ()),
                Batch::Legacy(_) => panic!("v2 expected"),
            })
            .unwrap()
            .unwrap_err();
        assert_eq!(*err.kind(), RecordErrorKind::DecompressedTooLarge { limit: 1 << 19 }, "{codec}");
    }
}

#[cfg(feature = "snappy")]
#[test]
fn declared_snappy_size_is_checked_before_allocating() {
    // Raw snappy claiming 4 GiB - 1 of output in 5 bytes.
    let mut bytes = V14[..61].to_vec();
    bytes[21..23].copy_from_slice(&2i16.to_be_bytes());
    bytes.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x0f]);
    seal(&mut bytes);
    let batch = single_batch(Bytes::from(bytes), options()).unwrap();
    let err = batch.records(&options()).unwrap_err();
    assert_eq!(*err.kind(), RecordErrorKind::DecompressedTooLarge { limit: 64 << 20 }, "{err}");
}

#[test]
fn partial_tail_is_skipped_and_reported() {
    let one = Bytes::from_static(&V14);
    for cut in [0, 5, 11, 12, 30, 70] {
        let set = Bytes::from([&V14[..], &V14[..], &V14[..cut]].concat());
        let mut batches = Batches::new(set.clone());
        assert_eq!(batches.by_ref().map(|b| b.unwrap().base_offset()).collect::<Vec<_>>(), [0, 0]);
        let partial = batches.partial_batch().copied();
        if cut == 0 {
            assert_eq!(partial, None);
            continue;
        }
        let needed = if cut < 12 { 12 } else { one.len() };
        let base_offset = if cut >= 8 { Some(0) } else { None };
        assert_eq!(partial, Some(kwire::records::PartialBatch { position: 142, base_offset, needed, available: cut }));
        // Or as an error, when asked.
        let mut strict = options();
        strict.reject_partial_batch = true;
        let last = Batches::with_options(set, strict).last().unwrap();
        assert_eq!(
            last,
            Err(RecordError::new(
                RecordErrorKind::PartialBatch { needed, available: cut },
                Location { base_offset, ..Location::default() }
            ))
        );
    }
}

#[test]
fn broken_entries_end_the_iteration() {
    // batch_length below the smallest entry.
    let mut bytes = V14.to_vec();
    bytes[8..12].copy_from_slice(&13i32.to_be_bytes());
    let mut batches = Batches::new(Bytes::from(bytes));
    let err = batches.next().unwrap().unwrap_err();
    assert_eq!(*err.kind(), RecordErrorKind::Invalid { what: "batch length is below the minimum of 14" });
    assert!(batches.next().is_none());
    // Unknown magic.
    let mut bytes = V14.to_vec();
    bytes[16] = 3;
    let err = Batches::new(Bytes::from(bytes)).next().unwrap().unwrap_err();
    assert_eq!(
        err,
        RecordError::new(RecordErrorKind::UnsupportedMagic { magic: 3 }, Location::batch(0).field("magic"))
    );
    // Compression codec 6.
    let mut bytes = V14.to_vec();
    bytes[22] = 6;
    seal(&mut bytes);
    let batch = single_batch(Bytes::from(bytes), options()).unwrap();
    let err = batch.records(&options()).unwrap_err();
    assert_eq!(
        err,
        RecordError::new(RecordErrorKind::UnknownCompression { codec: 6 }, Location::batch(0).field("attributes"))
    );
    // A record count below the records present leaves bytes over.
    let mut b = RecordBatchBuilder::new(9);
    three_records(&mut b, false);
    let mut bytes = b.to_bytes().unwrap().to_vec();
    bytes[57..61].copy_from_slice(&2i32.to_be_bytes());
    seal(&mut bytes);
    let batch = single_batch(Bytes::from(bytes), options()).unwrap();
    let results: Vec<_> = batch.records(&options()).unwrap().collect();
    assert_eq!(results.len(), 3);
    let err = results[2].clone().unwrap_err();
    assert!(err.to_string().starts_with("batch at offset 9, records: "), "{err}");
    assert!(err.to_string().contains("bytes left over"), "{err}");
}

/// A legacy message: offset, size, IEEE CRC-32, magic, attributes,
/// [timestamp], key and value with int32 lengths.
fn legacy(offset: i64, magic: i8, attributes: i8, timestamp: i64, key: Option<&[u8]>, value: Option<&[u8]>) -> Vec<u8> {
    let mut body = vec![magic as u8, attributes as u8];
    if magic == 1 {
        body.extend_from_slice(&timestamp.to_be_bytes());
    }
    for part in [key, value] {
        match part {
            None => body.extend_from_slice(&(-1i32).to_be_bytes()),
            Some(b) => {
                body.extend_from_slice(&(b.len() as i32).to_be_bytes());
                body.extend_from_slice(b);
            }
        }
    }
    let mut out = offset.to_be_bytes().to_vec();
    out.extend_from_slice(&((body.len() + 4) as i32).to_be_bytes());
    out.extend_from_slice(&crc32fast::hash(&body).to_be_bytes());
    out.extend_from_slice(&body);
    out
}

fn legacy_inner(magic: i8, first_offset: i64) -> Vec<u8> {
    (0..3)
        .flat_map(|i| {
            let key = format!("k{i}");
            let value = format!("hello-{i}");
            legacy(first_offset + i, magic, 0, 1_600_000_000_000 + i, Some(key.as_bytes()), Some(value.as_bytes()))
        })
        .collect()
}

fn legacy_messages(set: Bytes, options: &DecodeOptions) -> Result<Vec<LegacyMessage>, RecordError> {
    let mut out = Vec::new();
    for entry in Batches::with_options(set, *options) {
        match entry? {
            Batch::Legacy(m) => out.extend(m.messages(options)?),
            Batch::V2(b) => panic!("unexpected v2 batch at {}", b.header().base_offset),
        }
    }
    Ok(out)
}

#[test]
fn legacy_uncompressed_sets() {
    // Golden magic 0 message: offset 5, key null, value "a" (CRC by zlib.crc32).
    let golden: [u8; 27] =
        [0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 15, 0x51, 0xdf, 0x3a, 0x32, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 1, b'a'];
    assert_eq!(legacy(5, 0, 0, 0, None, Some(b"a")), golden);
    for magic in [0, 1] {
        let set = Bytes::from(legacy_inner(magic, 10));
        let messages = legacy_messages(set, &options()).unwrap();
        let got: Vec<_> =
            messages.iter().map(|m| (m.offset, m.key.clone().unwrap(), m.value.clone().unwrap())).collect();
        assert_eq!(
            got,
            [
                (10, "k0".into(), "hello-0".into()),
                (11, "k1".into(), "hello-1".into()),
                (12, "k2".into(), "hello-2".into())
            ]
        );
        let ts: Vec<_> = messages.iter().map(|m| m.timestamp).collect();
        if magic == 1 {
            assert_eq!(ts, [Some(1_600_000_000_000), Some(1_600_000_000_001), Some(1_600_000_000_002)]);
        } else {
            assert_eq!(ts, [None, None, None]);
        }
    }
    // A flipped value byte fails the CRC, naming the message's offset.
    let mut set = legacy_inner(1, 10);
    let end = set.len();
    set[end - 1] ^= 0x20;
    let err = legacy_messages(Bytes::from(set), &options()).unwrap_err();
    assert!(matches!(err.kind(), RecordErrorKind::CrcMismatch { .. }), "{err}");
    assert_eq!(err.location(), Some(&Location::batch(12).field("crc")));
}

#[test]
fn legacy_compressed_wrappers() {
    for codec in available_codecs().into_iter().filter(|c| !matches!(c, Compression::None | Compression::Zstd)) {
        // Magic 1: relative inner offsets 0..2, wrapper at the last absolute offset.
        let inner = compress(codec, &legacy_inner(1, 0)).unwrap();
        let wrapper = legacy(102, 1, codec.id() as i8, 1_600_000_000_002, None, Some(&inner));
        let messages = legacy_messages(Bytes::from(wrapper.clone()), &options()).unwrap();
        let got: Vec<_> = messages.iter().map(|m| (m.offset, m.key.clone().unwrap(), m.timestamp)).collect();
        assert_eq!(
            got,
            [
                (100, "k0".into(), Some(1_600_000_000_000)),
                (101, "k1".into(), Some(1_600_000_000_001)),
                (102, "k2".into(), Some(1_600_000_000_002))
            ],
            "{codec}"
        );
        assert!(messages.iter().all(|m| m.timestamp_type() == TimestampType::CreateTime), "{codec}");
        // Log-append time on the wrapper: inner messages take its timestamp
        // and report its timestamp type (their own attributes say create time).
        let wrapper = legacy(102, 1, codec.id() as i8 | 0x08, 999, None, Some(&inner));
        let messages = legacy_messages(Bytes::from(wrapper), &options()).unwrap();
        let got: Vec<_> = messages.iter().map(|m| (m.timestamp, m.timestamp_type(), m.attributes)).collect();
        assert_eq!(got, [(Some(999), TimestampType::LogAppendTime, 0); 3], "{codec}");
        // Inner messages that say log-append time in a create-time wrapper
        // report create time and keep their own timestamps.
        let inner_lat: Vec<u8> = (0..2).flat_map(|i| legacy(i, 1, 0x08, 7 + i, None, Some(b"v"))).collect();
        let wrapper = legacy(1, 1, codec.id() as i8, 999, None, Some(&compress(codec, &inner_lat).unwrap()));
        let got: Vec<_> = legacy_messages(Bytes::from(wrapper), &options())
            .unwrap()
            .iter()
            .map(|m| (m.timestamp, m.timestamp_type()))
            .collect();
        assert_eq!(got, [(Some(7), TimestampType::CreateTime), (Some(8), TimestampType::CreateTime)], "{codec}");
        // Magic 0: inner offsets are absolute already.
        let inner0 = compress(codec, &legacy_inner(0, 50)).unwrap();
        let wrapper = legacy(52, 0, codec.id() as i8, 0, None, Some(&inner0));
        let offsets: Vec<_> =
            legacy_messages(Bytes::from(wrapper), &options()).unwrap().iter().map(|m| m.offset).collect();
        assert_eq!(offsets, [50, 51, 52], "{codec}");
        // A bomb in a wrapper.
        let bomb = compress(codec, &legacy(0, 1, 0, 0, None, Some(&vec![0u8; 2 << 20]))).unwrap();
        let wrapper = legacy(0, 1, codec.id() as i8, 0, None, Some(&bomb));
        let mut small = options();
        small.max_decompressed_size = 1 << 20;
        let err = legacy_messages(Bytes::from(wrapper), &small).unwrap_err();
        assert_eq!(
            err,
            RecordError::new(
                RecordErrorKind::DecompressedTooLarge { limit: 1 << 20 },
                Location::batch(0).field("value")
            )
        );
    }
}

#[cfg(feature = "gzip")]
#[test]
fn legacy_wrappers_share_the_total_limit() {
    let gzip = Compression::Gzip.id() as i8;
    let inner = compress(Compression::Gzip, &legacy(0, 1, 0, 0, None, Some(&vec![0u8; 1 << 20]))).unwrap();
    let set: Vec<u8> = (0..4).flat_map(|i| legacy(i, 1, gzip, 0, None, Some(&inner))).collect();
    let mut options = options();
    options.max_total_decompressed_size = (5 << 20) / 2;
    let err = legacy_messages(Bytes::from(set), &options).unwrap_err();
    assert_eq!(
        err,
        RecordError::new(
            RecordErrorKind::TotalDecompressedTooLarge { limit: (5 << 20) / 2 },
            Location::batch(2).field("value")
        )
    );
}

#[cfg(feature = "gzip")]
#[test]
fn legacy_wrapper_errors() {
    let gzip = Compression::Gzip.id() as i8;
    // Null value.
    let err = legacy_messages(Bytes::from(legacy(3, 1, gzip, 0, None, None)), &options()).unwrap_err();
    assert_eq!(
        err,
        RecordError::new(
            RecordErrorKind::Invalid { what: "compressed wrapper message has a null value" },
            Location::batch(3).field("value")
        )
    );
    // A wrapper whose value decompresses to no message at all.
    let empty = compress(Compression::Gzip, &[]).unwrap();
    let err = legacy_messages(Bytes::from(legacy(9, 1, gzip, 0, None, Some(&empty))), &options()).unwrap_err();
    assert_eq!(
        err,
        RecordError::new(
            RecordErrorKind::Invalid { what: "compressed wrapper message holds no inner message" },
            Location::batch(9).field("value")
        )
    );
    assert_eq!(err.to_string(), "batch at offset 9, value: compressed wrapper message holds no inner message");
    // Nested compression.
    let nested = compress(Compression::Gzip, &legacy(0, 1, gzip, 0, None, Some(b"x"))).unwrap();
    let err = legacy_messages(Bytes::from(legacy(0, 1, gzip, 0, None, Some(&nested))), &options()).unwrap_err();
    assert_eq!(*err.kind(), RecordErrorKind::Invalid { what: "inner message is itself compressed" }, "{err}");
    // Damaged inner CRC: located by wrapper offset and inner index.
    let mut inner = legacy_inner(1, 0);
    let end = inner.len();
    inner[end - 1] ^= 1;
    let packed = compress(Compression::Gzip, &inner).unwrap();
    let err = legacy_messages(Bytes::from(legacy(77, 1, gzip, 0, None, Some(&packed))), &options()).unwrap_err();
    assert!(matches!(err.kind(), RecordErrorKind::CrcMismatch { .. }), "{err}");
    assert_eq!(err.location(), Some(&Location::batch(77).record(2).field("crc")));
    // An inner set cut short.
    let packed = compress(Compression::Gzip, &legacy_inner(1, 0)[..50]).unwrap();
    let err = legacy_messages(Bytes::from(legacy(77, 1, gzip, 0, None, Some(&packed))), &options()).unwrap_err();
    assert!(err.to_string().starts_with("batch at offset 77, record 1, message_size: need"), "{err}");
    // zstd is not a legacy codec.
    let err = legacy_messages(Bytes::from(legacy(4, 1, 4, 0, None, Some(b"x"))), &options()).unwrap_err();
    assert_eq!(
        err,
        RecordError::new(RecordErrorKind::UnknownCompression { codec: 4 }, Location::batch(4).field("attributes"))
    );
}

/// Legacy message sets read by kwire and by Kafka 4.4's own record iterator
/// (the oracle's `records`): the same offsets, timestamps and timestamp
/// types, and both refuse a wrapper with no inner message.
#[cfg(feature = "gzip")]
#[test]
fn legacy_sets_as_kafka_reads_them() {
    let Some(launcher) = common::kafka_oracle("4.4.0") else { return };
    let mut oracle = common::oracle::Oracle::start(&launcher);
    let gzip = Compression::Gzip.id() as i8;
    let packed = compress(Compression::Gzip, &legacy_inner(1, 0)).unwrap();
    let lat: Vec<u8> = (0..2).flat_map(|i| legacy(i, 1, 0x08, 7 + i, None, Some(b"v"))).collect();
    let sets: Vec<(&str, Vec<u8>)> = vec![
        ("create-time wrapper", legacy(102, 1, gzip, 1_600_000_000_002, None, Some(&packed))),
        ("log-append-time wrapper", legacy(102, 1, gzip | 0x08, 999, None, Some(&packed))),
        (
            "log-append-time inner, create-time wrapper",
            legacy(1, 1, gzip, 999, None, Some(&compress(Compression::Gzip, &lat).unwrap())),
        ),
        ("uncompressed magic 1", legacy_inner(1, 10)),
    ];
    let questions: Vec<String> = sets.iter().map(|(_, set)| format!("records {}", hex::encode(set))).collect();
    let answers = oracle.ask_all(&questions);
    for ((what, set), answer) in sets.iter().zip(&answers) {
        let ours: Vec<String> = legacy_messages(Bytes::from(set.clone()), &options())
            .unwrap()
            .iter()
            .map(|m| {
                let kind = match m.timestamp_type() {
                    TimestampType::CreateTime => "CreateTime",
                    TimestampType::LogAppendTime => "LogAppendTime",
                };
                format!("{}:{}:{kind}", m.offset, m.timestamp.unwrap_or(-1))
            })
            .collect();
        assert_eq!(format!("ok {}", ours.join(" ")), *answer, "{what}");
    }
    // A wrapper whose value holds no message: an error on both sides.
    let empty = legacy(9, 1, gzip, 0, None, Some(&compress(Compression::Gzip, &[]).unwrap()));
    let answer = oracle.ask_all(&[format!("records {}", hex::encode(&empty))]).remove(0);
    assert!(answer.starts_with("error") && answer.contains("no inner records"), "{answer}");
    assert!(legacy_messages(Bytes::from(empty), &options()).is_err());
}

#[test]
fn mixed_legacy_and_v2_set() {
    let mut set = legacy_inner(1, 0);
    set.extend_from_slice(&V14);
    let magics: Vec<_> = Batches::new(Bytes::from(set)).map(|b| b.unwrap().magic()).collect();
    assert_eq!(magics, [1, 1, 1, 2]);
}

/// Finds the record batches in a whole Kafka frame without decoding the
/// message around them.
///
/// A position `p` starts a v2 batch when byte `p + 16` is the magic 2, the
/// int32 batch length at `p + 8` is at least 49 and fits in the frame, and
/// the CRC-32C of bytes `p + 21 .. p + 12 + length` equals the uint32 at
/// `p + 17`: a 32-bit check, so a false hit is practically impossible.
/// Hits that follow each other directly form one `records` field, which
/// must be preceded by its own length prefix: an int32 (classic versions)
/// or a uvarint of length + 1 (flexible versions). That proves the scan
/// found every batch of the field. Returns each field's bytes.
fn records_fields(frame: &[u8]) -> Vec<Bytes> {
    let mut hits: Vec<(usize, usize)> = Vec::new();
    let mut p = 0;
    while p + 61 <= frame.len() {
        let len = i32::from_be_bytes(frame[p + 8..p + 12].try_into().unwrap());
        let end = p.saturating_add(12).saturating_add(len.max(0) as usize);
        if frame[p + 16] == 2
            && len >= 49
            && end <= frame.len()
            && crc32c::crc32c(&frame[p + 21..end]) == u32::from_be_bytes(frame[p + 17..p + 21].try_into().unwrap())
        {
            hits.push((p, end));
            p = end;
        } else {
            p += 1;
        }
    }
    let mut fields: Vec<(usize, usize)> = Vec::new();
    for (start, end) in hits {
        match fields.last_mut() {
            Some(last) if last.1 == start => last.1 = end,
            _ => fields.push((start, end)),
        }
    }
    fields
        .into_iter()
        .map(|(start, end)| {
            let len = end - start;
            let classic = start >= 4 && frame[start - 4..start] == (len as i32).to_be_bytes();
            let mut compact = Vec::new();
            kwire::encoding::put_uvarint(&mut compact, len as u32 + 1);
            let compact = frame[..start].ends_with(&compact);
            assert!(classic || compact, "no records length prefix before the batch at {start}");
            Bytes::copy_from_slice(&frame[start..end])
        })
        .collect()
}

#[test]
fn captured_produce_and_fetch_batches() {
    let Some(shared) = common::shared_dir("record batches in captured Produce and Fetch frames") else {
        return;
    };
    let captures = shared.join("captures");
    // (file, records): counts read off the frames by an independent scan.
    let expected: &[(&str, usize)] = &[
        ("noida/confluent-kafka-Fetch-v12-resp.hex", 3),
        ("noida/confluent-kafka-Produce-v9-req.hex", 3),
        ("noida/kafka-python-Fetch-v12-resp.hex", 3),
        ("noida/kafka-python-Produce-v9-req.hex", 3),
        ("noida/kafkajs-Fetch-v11-resp.hex", 3),
        ("noida/kafkajs-Produce-v7-req.hex", 3),
        ("noida/kcat-Fetch-v11-resp.hex", 2),
        ("noida/kcat-Produce-v7-req.hex", 2),
        ("tansu/confluent-kafka-Fetch-v16-resp.hex", 3),
        ("tansu/confluent-kafka-Produce-v10-req.hex", 3),
        ("tansu/kafka-python-Fetch-v12-resp.hex", 3),
        ("tansu/kafka-python-Produce-v9-req.hex", 3),
        ("tansu/kafkajs-Fetch-v11-resp.hex", 3),
        ("tansu/kafkajs-Produce-v7-req.hex", 3),
        ("tansu/kcat-rdk2.16-Fetch-v16-resp.hex", 0),
        ("tansu/kcat-rdk2.16-Produce-v10-req.hex", 1),
    ];
    // Every Produce request and Fetch response in the index is covered.
    let index = std::fs::read_to_string(captures.join("index.tsv")).unwrap();
    let listed: BTreeSet<String> = index
        .lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let wanted = matches!((cols[5], cols[3]), ("Produce", "req") | ("Fetch", "resp"));
            (wanted && !cols[0].starts_with("fake/")).then(|| cols[0].to_string())
        })
        .collect();
    assert_eq!(listed, expected.iter().map(|(f, _)| f.to_string()).collect::<BTreeSet<_>>());

    for &(file, count) in expected {
        let hex = std::fs::read_to_string(captures.join(file)).unwrap();
        let frame = hex::decode(hex.trim()).unwrap();
        let kcat = file.split('/').nth(1).unwrap().starts_with("kcat");
        let mut records = Vec::new();
        for field in records_fields(&frame) {
            let mut batches = Batches::with_options(field, options());
            for batch in batches.by_ref() {
                let Batch::V2(batch) = batch.unwrap() else { panic!("{file}: legacy message") };
                let h = *batch.header();
                for r in batch.records(&options()).unwrap() {
                    records.push((h, r.unwrap()));
                }
            }
            assert!(batches.partial_batch().is_none(), "{file}");
        }
        assert_eq!(records.len(), count, "{file}");
        let mut offsets = Vec::new();
        for (h, r) in &records {
            let key = std::str::from_utf8(r.key.as_deref().unwrap()).unwrap();
            let i = key.strip_prefix('k').unwrap();
            assert!(["0", "1", "2"].contains(&i), "{file}: key {key}");
            assert_eq!(r.value.as_deref(), Some(format!("hello-{i}").as_bytes()), "{file}");
            let headers: Vec<_> = r.headers.iter().map(|h| (h.key_str().unwrap(), h.value.as_deref())).collect();
            if kcat {
                assert!(headers.is_empty(), "{file}: {headers:?}");
            } else {
                assert_eq!(headers, [("h", Some(&b"v"[..]))], "{file}");
            }
            offsets.push(h.offset_of(r));
        }
        if count == 3 {
            let keys: Vec<_> = records.iter().map(|(_, r)| r.key.clone().unwrap()).collect();
            assert_eq!(keys, ["k0", "k1", "k2"], "{file}");
            assert_eq!(offsets.windows(2).filter(|w| w[1] == w[0] + 1).count(), 2, "{file}: {offsets:?}");
        }
        if file.contains("-Produce-") {
            assert!(offsets.iter().zip(0..).all(|(o, i)| *o == i), "{file}: producers send offsets 0..n: {offsets:?}");
        }
    }
}

fn arb_bytes(max: usize) -> impl Strategy<Value = Option<Bytes>> {
    proptest::option::of(proptest::collection::vec(any::<u8>(), 0..max).prop_map(Bytes::from))
}

fn arb_record() -> impl Strategy<Value = Record> {
    (
        any::<i8>(),
        any::<i64>(),
        any::<i32>(),
        arb_bytes(40),
        arb_bytes(200),
        proptest::collection::vec(("[a-z\u{e9}]{0,6}", arb_bytes(12)), 0..4),
    )
        .prop_map(|(attributes, timestamp_delta, offset_delta, key, value, headers)| Record {
            attributes,
            timestamp_delta,
            offset_delta,
            key,
            value,
            headers: headers.into_iter().map(|(k, v)| Header::new(k, v)).collect(),
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn random_batches_round_trip(
        base_offset in any::<i64>(),
        leader_epoch in any::<i32>(),
        base_timestamp in any::<i64>(),
        producer in (any::<i64>(), any::<i16>(), any::<i32>()),
        flags in 0u8..16,
        codec in 0usize..5,
        records in proptest::collection::vec(arb_record(), 0..12),
    ) {
        let codec = Compression::ALL[codec];
        prop_assume!(codec.is_available());
        let mut b = RecordBatchBuilder::new(base_offset);
        b.partition_leader_epoch(leader_epoch)
            .compression(codec)
            .producer(producer.0, producer.1, producer.2)
            .base_timestamp(base_timestamp)
            .transactional(flags & 1 != 0)
            .control(flags & 2 != 0)
            .timestamp_type(if flags & 4 != 0 { TimestampType::LogAppendTime } else { TimestampType::CreateTime });
        for r in &records {
            b.push(r.clone());
        }
        let bytes = b.to_bytes().unwrap();
        let mut buf = BytesMut::from(&b"prefix"[..]);
        b.encode(&mut buf).unwrap();
        prop_assert_eq!(&buf[6..], &bytes[..]);

        let batch = single_batch(bytes.clone(), options()).unwrap();
        let h = *batch.header();
        prop_assert_eq!(h.batch_size(), bytes.len());
        prop_assert_eq!((h.base_offset, h.partition_leader_epoch, h.base_timestamp), (base_offset, leader_epoch, base_timestamp));
        prop_assert_eq!((h.producer_id, h.producer_epoch, h.base_sequence), producer);
        prop_assert_eq!(h.attributes.compression(), Some(codec));
        prop_assert_eq!(h.attributes.is_transactional(), flags & 1 != 0);
        prop_assert_eq!(h.attributes.is_control(), flags & 2 != 0);
        prop_assert_eq!(h.record_count as usize, records.len());
        let decoded = records_of(&batch, &options()).unwrap();
        prop_assert_eq!(&decoded, &records);

        let mut again = RecordBatchBuilder::from_header(&h);
        for r in decoded {
            again.push(r);
        }
        prop_assert_eq!(again.to_bytes().unwrap(), bytes.clone());

        // Any truncation is a partial batch, never a panic.
        let cut = bytes.len() / 2;
        let mut batches = Batches::new(bytes.slice(..cut));
        prop_assert!(batches.next().is_none());
        prop_assert_eq!(batches.partial_batch().map(|p| p.available), (cut > 0).then_some(cut));
    }

    #[test]
    fn mutated_batches_never_panic(
        codec in 0usize..5,
        edits in proptest::collection::vec((any::<proptest::sample::Index>(), any::<u8>()), 1..4),
    ) {
        // Near-valid input reaches deeper than random bytes: the codecs'
        // own parsers and the record decoder behind them.
        let codec = Compression::ALL[codec];
        prop_assume!(codec.is_available());
        let mut b = RecordBatchBuilder::new(0);
        b.compression(codec);
        three_records(&mut b, true);
        let mut bytes = b.to_bytes().unwrap().to_vec();
        for (at, byte) in edits {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        let mut lenient = options();
        lenient.verify_crc = false;
        for entry in Batches::with_options(Bytes::from(bytes), lenient).flatten() {
            if let Batch::V2(batch) = entry {
                if let Ok(records) = batch.records(&lenient) {
                    records.for_each(drop);
                }
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..300), fix in any::<bool>()) {
        let mut data = data;
        if fix && data.len() >= 61 {
            // Make it look like one v2 batch, so the record decoder runs too.
            data[16] = 2;
            data[21] &= 0x07;
            data[22] &= 0x07;
            seal(&mut data);
        }
        let mut lenient = options();
        lenient.verify_crc = false;
        for entry in Batches::with_options(Bytes::from(data), lenient).flatten() {
            match entry {
                Batch::V2(batch) => {
                    if let Ok(records) = batch.records(&lenient) {
                        records.for_each(drop);
                    }
                }
                Batch::Legacy(m) => {
                    let _ = m.messages(&lenient);
                }
            }
        }
    }
}

/// LZ4 in magic-0 wrappers (Kafka 0.8 and 0.9) carries a frame header
/// checksum computed over the wrong bytes; Kafka ignores it for magic 0, and
/// so does kwire. Magic 1 and record batches still check it.
#[cfg(feature = "lz4")]
#[test]
fn lz4_header_checksum_is_ignored_for_magic_0_only() {
    let codec = Compression::Lz4;
    let mut inner0 = compress(codec, &legacy_inner(0, 50)).unwrap();
    // 04 22 4d 18 | FLG | BD | HC: no content size, no dictionary id.
    assert_eq!(&inner0[..4], &[0x04, 0x22, 0x4d, 0x18]);
    assert_eq!(inner0[4] & 0x09, 0, "no content size or dictionary id");
    inner0[6] ^= 0xff;
    let wrapper = legacy(52, 0, codec.id() as i8, 0, None, Some(&inner0));
    let messages = legacy_messages(Bytes::from(wrapper), &options()).unwrap();
    let got: Vec<_> = messages.iter().map(|m| (m.offset, m.key.clone().unwrap())).collect();
    assert_eq!(got, [(50, "k0".into()), (51, "k1".into()), (52, "k2".into())]);
    // Magic 1 with the same header: refused, as Kafka refuses it.
    let mut inner1 = compress(codec, &legacy_inner(1, 0)).unwrap();
    inner1[6] ^= 0xff;
    let wrapper = legacy(2, 1, codec.id() as i8, 0, None, Some(&inner1));
    let err = legacy_messages(Bytes::from(wrapper), &options()).unwrap_err();
    assert!(err.to_string().contains("lz4"), "{err}");
    assert!(err.to_string().contains("value"), "{err}");
    // And the plain decompression keeps checking it.
    assert!(kwire::records::decompress(codec, &inner0, 1 << 20).is_err());
}

/// A commit marker batch as Apache Kafka 4.4.0's transaction coordinator
/// wrote it (offset 17 of a partition, producer id 5, epoch 1 after the
/// transactions-v2 epoch bump, coordinator epoch 0), copied from the log
/// segment of the cluster of interop/scripts/kafka-cluster.sh; the abort marker
/// that followed it differs in offset (20), CRC, timestamps, epoch (2) and
/// the key's type byte.
const KAFKA_COMMIT_MARKER: [u8; 78] = [
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x42, 0x00, 0x00, 0x00, 0x00, 0x02, 0x77, 0x47,
    0x27, 0xd5, 0x00, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0xa2, 0x34, 0x08, 0x1f, 0xe8, 0x00, 0x00, 0x01,
    0xa2, 0x34, 0x08, 0x1f, 0xe8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x01, 0xff, 0xff, 0xff, 0xff,
    0x00, 0x00, 0x00, 0x01, 0x20, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00,
];
const KAFKA_ABORT_MARKER: [u8; 78] = [
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x42, 0x00, 0x00, 0x00, 0x00, 0x02, 0xe9, 0xd7,
    0x9a, 0x3e, 0x00, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0xa2, 0x34, 0x08, 0x20, 0x79, 0x00, 0x00, 0x01,
    0xa2, 0x34, 0x08, 0x20, 0x79, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x02, 0xff, 0xff, 0xff, 0xff,
    0x00, 0x00, 0x00, 0x01, 0x20, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00,
];

#[test]
fn kafka_transaction_markers_decode_and_rebuild_byte_exact() {
    use kwire::records::{ControlRecord, ControlRecordKey, ControlRecordType, EndTxnMarker, NO_SEQUENCE};
    for (bytes, offset, epoch, kind) in [
        (&KAFKA_COMMIT_MARKER, 17, 1, ControlRecordType::Commit),
        (&KAFKA_ABORT_MARKER, 20, 2, ControlRecordType::Abort),
    ] {
        let batch = single_batch(Bytes::copy_from_slice(bytes), options()).unwrap();
        batch.verify_crc().unwrap();
        let h = *batch.header();
        assert_eq!((h.base_offset, h.last_offset_delta, h.record_count), (offset, 0, 1));
        assert!(h.attributes.is_control() && h.attributes.is_transactional());
        assert_eq!(h.attributes.compression(), Some(Compression::None));
        assert_eq!((h.producer_id, h.producer_epoch, h.base_sequence), (5, epoch, NO_SEQUENCE));
        assert_eq!(h.last_sequence(), NO_SEQUENCE);
        let controls = batch.control_records(&options()).unwrap();
        assert_eq!(
            controls,
            [ControlRecord {
                key: ControlRecordKey { version: 0, record_type: kind },
                marker: Some(EndTxnMarker::new(0))
            }]
        );
        // Rebuilt from the typed key and value, the batch is Kafka's, byte for byte.
        let mut builder = RecordBatchBuilder::from_header(&h);
        builder.append(
            h.base_timestamp,
            Some(ControlRecordKey::new(kind).to_bytes()),
            Some(EndTxnMarker::new(0).to_bytes()),
            vec![],
        );
        assert_eq!(&builder.to_bytes().unwrap()[..], &bytes[..]);
    }
}

#[test]
fn last_sequence_wraps_in_a_built_batch() {
    use kwire::records::increment_sequence;
    // Sequences wrap to 0 after i32::MAX, as Kafka's DefaultRecordBatch
    // counts them (KIP-98): base sequence 2147483646, three records → last 0.
    let mut builder = RecordBatchBuilder::new(0);
    builder.producer(1000, 0, 2_147_483_646);
    three_records(&mut builder, false);
    let batch = single_batch(builder.to_bytes().unwrap(), options()).unwrap();
    assert_eq!(batch.last_sequence(), 0);
    assert_eq!(increment_sequence(batch.last_sequence(), 1), 1);
    // last_offset_delta, not the record count, decides (a compacted batch).
    builder.last_offset_delta(5);
    let batch = single_batch(builder.to_bytes().unwrap(), options()).unwrap();
    assert_eq!((batch.header().record_count, batch.last_sequence()), (3, 3));
}
