//! Any bytes as a `records` field: every batch and record a value or a typed
//! error, never a panic, never an allocation past the limits. CRC checks are
//! off so that mutated input reaches the record and decompression code.
#![no_main]

use kwire::records::{Batch, Batches, DecodeOptions};
use kwire::Bytes;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut options = DecodeOptions::default();
    options.max_decompressed_size = 1 << 20;
    options.verify_crc = false;
    for batch in Batches::with_options(Bytes::copy_from_slice(data), options).take(64) {
        match batch {
            Ok(Batch::V2(batch)) => {
                if let Ok(records) = batch.records(&options) {
                    for record in records.take(1024) {
                        let _ = record;
                    }
                }
            }
            Ok(Batch::Legacy(message)) => {
                if let Ok(inner) = message.messages(&options) {
                    for m in inner.into_iter().take(1024) {
                        let _ = m;
                    }
                }
            }
            Err(_) => break,
        }
    }
});
