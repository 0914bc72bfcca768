//! Any bytes as a request frame, with and without the size prefix: a value or
//! a typed error, never a panic; a decoded request re-encodes and decodes to itself.
#![no_main]

use kafka_wire::frame;
use kafka_wire::{Bytes, BytesMut};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let bytes = Bytes::copy_from_slice(data);
    let _ = frame::decode_request_frame(bytes.clone());
    if let Ok(f) = frame::decode_request(bytes) {
        let mut buf = BytesMut::new();
        if frame::encode_request(&f.header, &f.body, &mut buf).is_ok() {
            let again = frame::decode_request(buf.freeze()).expect("our own encoding decodes");
            assert_eq!(again, f);
        }
    }
});
