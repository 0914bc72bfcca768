//! Any bytes as a `records` field: every batch and record a value or a typed
//! error, never a panic, never an allocation past the limits.
#![no_main]

use kafka_wire::records::{Batch, Batches, DecodeOptions};
use kafka_wire::Bytes;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut options = DecodeOptions::default();
    options.max_decompressed_size = 1 << 20;
    for batch in Batches::new(Bytes::copy_from_slice(data)).take(64) {
        match batch {
            Ok(Batch::V2(batch)) => {
                if let Ok(records) = batch.records(&options) {
                    for record in records.take(1024) {
                        let _ = record;
                    }
                }
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
});
