//! Any bytes as a request frame, with and without the size prefix: a value or
//! a typed error, never a panic; a decoded request re-encodes and decodes to
//! itself. "Itself" is judged by the bytes and the `Debug` text: a float64
//! field may hold a NaN, which is not equal to itself.
#![no_main]

use kwire::frame;
use kwire::{Bytes, BytesMut};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let bytes = Bytes::copy_from_slice(data);
    let _ = frame::RequestFrame::decode_sized(bytes.clone());
    if let Ok(f) = frame::RequestFrame::decode(bytes) {
        let mut buf = BytesMut::new();
        if frame::RequestFrame::encode_parts(&f.header, &f.body, &mut buf).is_ok() {
            let once = buf.freeze();
            let again = frame::RequestFrame::decode(once.clone()).expect("our own encoding decodes");
            assert_eq!(format!("{again:?}"), format!("{f:?}"));
            let mut twice = BytesMut::new();
            frame::RequestFrame::encode_parts(&again.header, &again.body, &mut twice).expect("encodes again");
            assert_eq!(twice, once);
        }
    }
});
