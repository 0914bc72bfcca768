//! Any bytes as the response to any api key and version (chosen by the
//! first two bytes): a value or a typed error, never a panic; a decoded
//! response re-encodes and decodes to itself, judged by the bytes and the
//! `Debug` text (a float64 field may hold a NaN, not equal to itself).
#![no_main]

mod api_choice;

use kwire::frame;
use kwire::{Bytes, BytesMut};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let (info, version) = api_choice::api_version(data[0], data[1]);
    let bytes = Bytes::copy_from_slice(&data[2..]);
    if let Ok(f) = frame::ResponseFrame::decode(bytes, info.api_key, version) {
        let mut buf = BytesMut::new();
        if frame::ResponseFrame::encode_parts(&f.header, &f.body, f.version, &mut buf).is_ok() {
            let once = buf.freeze();
            let again =
                frame::ResponseFrame::decode(once.clone(), info.api_key, f.version).expect("our own encoding decodes");
            assert_eq!(format!("{:?}", again.body), format!("{:?}", f.body));
            let mut twice = BytesMut::new();
            frame::ResponseFrame::encode_parts(&again.header, &again.body, again.version, &mut twice)
                .expect("encodes again");
            assert_eq!(twice, once);
        }
    }
});
