//! Any bytes through the borrowed views (feature `borrowed`) and through the
//! owned decode: the same verdict for the same bytes. Where one accepts, the
//! other does too and the view turns into the same value, having read as
//! many bytes; where one refuses, the other refuses with the same error (the
//! same message, version, field path and offset). The first three bytes
//! choose what the rest is:
//!
//! ```text
//! byte0 % 4     0 a request frame (header and body), 1 a response frame,
//!               2 a request body, 3 a response body
//! byte1         the api key of a response frame or a body, as an index into the api-key table
//! byte2         its version, as an offset from the api's lowest
//! byte3..       the bytes
//! ```
//!
//! Frames are read strictly and leniently (bytes after the body allowed and
//! counted). Values are compared as `Debug` text: a float64 may be NaN. One
//! difference is allowed: a view refuses a string that is not UTF-8, which
//! the owned decode reads lossily.
#![no_main]

use std::fmt::Debug;

mod api_choice;

use kwire::error::DecodeError;
use kwire::frame::{RequestFrame, RequestFrameRef, ResponseFrame, ResponseFrameRef};
use kwire::messages::{RequestBody, RequestBodyRef, ResponseBody, ResponseBodyRef};
use kwire::primitives::Reader;
use kwire::Bytes;
use libfuzzer_sys::fuzz_target;

/// A decode's outcome as text: the value's `Debug` or the error's `Display`.
fn verdict<T: Debug>(r: Result<T, DecodeError>) -> Result<String, String> {
    r.map(|v| format!("{v:?}")).map_err(|e| e.to_string())
}

fn same(what: &str, owned: Result<String, String>, viewed: Result<String, String>) {
    // A string that is not UTF-8: the owned decode reads it lossily, as
    // Kafka does, where a view, whose strings are slices of the input,
    // refuses it; whatever the owned decode makes of the rest.
    if viewed.as_ref().is_err_and(|e| e.contains("string is not valid UTF-8")) {
        return;
    }
    assert_eq!(viewed, owned, "{what}: the view and the owned decode disagree");
}

fuzz_target!(|data: &[u8]| {
    let [mode, index, offset, rest @ ..] = data else { return };
    let (info, version) = api_choice::api_version(*index, *offset);
    let (api_key, bytes) = (info.api_key, Bytes::copy_from_slice(rest));
    let what = format!("{api_key:?} v{version} mode {}", mode % 4);
    match mode % 4 {
        0 => {
            same(
                "request frame",
                verdict(RequestFrame::decode(bytes.clone())),
                verdict(RequestFrameRef::decode(rest).map(|v| v.into_owned())),
            );
            same(
                "lenient request frame",
                verdict(RequestFrame::decode_lenient(bytes)),
                verdict(RequestFrameRef::decode_lenient(rest).map(|(f, n)| (f.into_owned(), n))),
            );
        }
        1 => {
            same(
                &what,
                verdict(ResponseFrame::decode(bytes.clone(), api_key, version)),
                verdict(ResponseFrameRef::decode(rest, api_key, version).map(|v| v.into_owned())),
            );
            same(
                &what,
                verdict(ResponseFrame::decode_lenient(bytes, api_key, version)),
                verdict(ResponseFrameRef::decode_lenient(rest, api_key, version).map(|(f, n)| (f.into_owned(), n))),
            );
        }
        request => {
            let (mut owned_reader, mut view_reader) = (Reader::new(bytes), Reader::new(rest));
            let (owned, viewed) = if request == 2 {
                (
                    verdict(RequestBody::decode_from(api_key, &mut owned_reader, version)),
                    verdict(RequestBodyRef::decode_from(api_key, &mut view_reader, version).map(|v| v.into_owned())),
                )
            } else {
                (
                    verdict(ResponseBody::decode_from(api_key, &mut owned_reader, version)),
                    verdict(ResponseBodyRef::decode_from(api_key, &mut view_reader, version).map(|v| v.into_owned())),
                )
            };
            // Both read the whole value: the same number of bytes.
            let both_accepted = owned.is_ok() && viewed.is_ok();
            same(&what, owned, viewed);
            if both_accepted {
                assert_eq!(view_reader.offset(), owned_reader.offset(), "{what}: bytes read");
            }
        }
    }
});
