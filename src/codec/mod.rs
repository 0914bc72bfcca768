//! tokio-util codecs for Kafka connections (cargo feature `tokio`).
//!
//! Every Kafka message travels in a frame: a 4-byte big-endian size, then
//! that many bytes (spec §6).
//!
//! ```text
//! +----------------+---------------------------------------------+
//! | size: int32 BE | size bytes: request or response header+body |
//! +----------------+---------------------------------------------+
//! ```
//!
//! | codec | reads | writes | for |
//! |---|---|---|---|
//! | [`FrameCodec`] | [`Bytes`] (one frame, no size) | [`Bytes`] | any peer, untyped |
//! | [`ServerCodec`] | [`RawRequest`] (peeked header, raw bytes) | [`ResponseFrame`] | brokers, proxies |
//! | [`ClientCodec`] | [`ResponseFrame`] | [`RequestFrame`] | clients |
//!
//! [`Correlator`] tells which request a response answers (its api key and
//! version), for a proxy that relays raw frames; [`Call`] builds a typed
//! request's frame and takes its typed response out of a [`ResponseFrame`].
//!
//! [`FrameCodec`] checks the announced size against a configurable maximum,
//! and reserves room for a frame only as its bytes arrive (at most as much
//! again as has arrived), never by the announced size, so a peer cannot make
//! it allocate by announcing; a half-read frame resumes where it stopped
//! without reparsing the size. After an error the connection is out of step: drop it.
//!
//! [`ServerCodec`] holds a connection to a smaller maximum until it
//! authenticates ([`DEFAULT_MAX_UNAUTHENTICATED_FRAME_SIZE`], 512 KiB, as
//! Kafka's `sasl.server.max.receive.size`), and gives each request as a
//! [`RawRequest`] whose head (api key, version, correlation id) is read and
//! whose body stays bytes until asked for: a server decides on the head
//! (the SASL gate, the versions it serves) before it decodes anything.
//!
//! # Example
//! ```
//! use kwire::codec::FrameCodec;
//! use kwire::{Bytes, BytesMut};
//! use tokio_util::codec::{Decoder, Encoder};
//!
//! let mut codec = FrameCodec::new();
//! let mut wire = BytesMut::new();
//! codec.encode(Bytes::from_static(b"hello"), &mut wire)?;
//! assert_eq!(&wire[..], b"\x00\x00\x00\x05hello");
//!
//! // The bytes arrive in two pieces.
//! let mut rx = BytesMut::from(&wire[..6]);
//! assert_eq!(codec.decode(&mut rx)?, None);
//! rx.extend_from_slice(&wire[6..]);
//! assert_eq!(codec.decode(&mut rx)?, Some(Bytes::from_static(b"hello")));
//! # Ok::<(), kwire::codec::CodecError>(())
//! ```

#[cfg(doc)]
use bytes::Bytes;

#[cfg(doc)]
use crate::frame::{RequestFrame, ResponseFrame};

mod call;
mod client;
mod correlator;
mod error;
mod frame;
mod raw_request;
mod server;

pub use call::Call;
pub use client::ClientCodec;
pub use correlator::{Correlated, Correlator};
pub use error::CodecError;
pub use frame::FrameCodec;
pub use raw_request::RawRequest;
pub use server::ServerCodec;

/// The default largest frame a codec accepts: 104,857,600 bytes (100 MiB),
/// the default of Kafka's broker setting `socket.request.max.bytes`.
pub const DEFAULT_MAX_FRAME_SIZE: usize = 100 * 1024 * 1024;

/// The default largest frame a [`ServerCodec`] accepts from a connection
/// that has not authenticated: 524,288 bytes (512 KiB), the default of
/// Kafka's broker setting `sasl.server.max.receive.size`. Kafka's SASL
/// authenticator reads the frames of an unauthenticated connection with
/// this limit and closes the connection on a larger size prefix.
pub const DEFAULT_MAX_UNAUTHENTICATED_FRAME_SIZE: usize = 512 * 1024;

/// `body` behind its 4-byte size prefix, as a peer sends it.
#[cfg(test)]
fn sized(body: &[u8]) -> bytes::BytesMut {
    let mut buf = bytes::BytesMut::with_capacity(4 + body.len());
    bytes::BufMut::put_i32(&mut buf, i32::try_from(body.len()).unwrap_or(i32::MAX));
    buf.extend_from_slice(body);
    buf
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::{RequestFrame, ResponseFrame};
    use crate::messages::{ApiVersionsRequest, ApiVersionsResponse, RequestHeader, ResponseBody, ResponseHeader};
    use bytes::BytesMut;
    use tokio_util::codec::{Decoder, Encoder};

    #[test]
    fn codecs_encode_in_place_and_leave_nothing_behind_on_an_error() -> Result<(), CodecError> {
        let header =
            RequestHeader { request_api_key: 18, request_api_version: 3, correlation_id: 5, ..Default::default() };
        let body = ApiVersionsRequest { client_software_name: "t".repeat(64).into(), ..Default::default() };
        let request = || RequestFrame { header: header.clone(), body: body.clone().into() };
        let mut wire = BytesMut::from(&b"queued"[..]);
        // Too large for the maximum: refused after encoding, nothing kept, nothing remembered.
        let mut client = ClientCodec::with_frames(FrameCodec::with_max_frame_size(32));
        let err = client.encode(request(), &mut wire).unwrap_err();
        assert!(matches!(err, CodecError::FrameTooLarge { max: 32, size } if size > 64), "{err}");
        assert_eq!((&wire[..], client.in_flight()), (&b"queued"[..], 0));
        // Not encodable at its version: the same.
        let bad = RequestFrame {
            header: RequestHeader { request_api_version: 99, ..header.clone() },
            body: body.clone().into(),
        };
        assert!(matches!(ClientCodec::new().encode(bad, &mut wire), Err(CodecError::Encode(_))));
        assert_eq!(&wire[..], b"queued");
        // Within the maximum: the frame follows what was queued, byte for byte
        // what RequestFrame::encode_sized gives.
        let mut client = ClientCodec::with_frames(FrameCodec::with_max_frame_size(256));
        client.encode(request(), &mut wire)?;
        let mut expected = BytesMut::from(&b"queued"[..]);
        RequestFrame { header: header.clone(), body: body.clone().into() }.encode_sized(&mut expected)?;
        assert_eq!((&wire[..], client.in_flight()), (&expected[..], 1));

        let mut server = ServerCodec::with_frames(FrameCodec::with_max_frame_size(8));
        let response = ApiVersionsResponse { api_keys: vec![Default::default(); 4], ..Default::default() };
        let answer = ResponseFrame { header: ResponseHeader::default(), body: response.into(), version: 3 };
        assert!(matches!(server.encode(answer, &mut wire), Err(CodecError::FrameTooLarge { max: 8, .. })));
        assert_eq!(&wire[..], &expected[..]);
        Ok(())
    }

    #[test]
    fn client_and_server_talk() {
        let mut client = ClientCodec::new();
        let mut server = ServerCodec::new();
        let mut wire = BytesMut::new();
        let header = RequestHeader {
            request_api_key: 18,
            request_api_version: 3,
            correlation_id: 5,
            client_id: Some("test".into()),
            ..Default::default()
        };
        let body = ApiVersionsRequest {
            client_software_name: "t".into(),
            client_software_version: "1".into(),
            ..Default::default()
        };
        client.encode(RequestFrame { header, body: body.clone().into() }, &mut wire).unwrap();

        let request = server.decode(&mut wire).unwrap().unwrap();
        let head = request.head();
        assert_eq!((head.api_key, head.api_version, head.correlation_id), (18, 3, 5));
        let decoded = request.decode().unwrap();
        assert_eq!(decoded.body, body.into());

        let answer = ApiVersionsResponse { api_keys: vec![Default::default()], ..Default::default() };
        let header = ResponseHeader { correlation_id: 5, ..Default::default() };
        server.encode(ResponseFrame { header, body: answer.clone().into(), version: 3 }, &mut wire).unwrap();
        let response = client.decode(&mut wire).unwrap().unwrap();
        assert_eq!((response.header.correlation_id, response.version), (5, 3));
        assert_eq!(response.body, ResponseBody::ApiVersions(answer));
        assert!(wire.is_empty());
    }
}
