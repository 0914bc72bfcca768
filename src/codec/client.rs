//! The client side of a connection: requests out, the responses that
//! answer them in.

use bytes::{Bytes, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use super::{CodecError, Correlated, Correlator, FrameCodec};
use crate::api::ApiKey;
use crate::error::{DecodeError, DecodeErrorKind};
use crate::frame::{RequestFrame, ResponseFrame};
use crate::messages::RequestBody;

/// The client side of a Kafka connection: writes [`RequestFrame`]s and
/// reads the [`ResponseFrame`]s that answer them.
///
/// A response does not say which api it answers, so the codec remembers the
/// api key and version of every request it encodes, in order, and checks
/// that each response carries the correlation id of the oldest one (Kafka
/// answers in order on a connection), as a [`Correlator`] does. Produce
/// requests with `acks = 0` get no answer and are not remembered. An
/// ApiVersions response is decoded at version 0 when it does not decode at
/// the request's version (the UNSUPPORTED_VERSION fallback,
/// [`ResponseFrame::decode`]).
///
/// ```
/// use kwire::codec::ClientCodec;
/// use kwire::frame::RequestFrame;
/// use kwire::messages::{ApiVersionsRequest, RequestHeader, ResponseBody};
/// use kwire::BytesMut;
/// use tokio_util::codec::{Decoder, Encoder};
///
/// let mut codec = ClientCodec::new();
/// let header = RequestHeader { request_api_key: 18, request_api_version: 4, correlation_id: 1, ..Default::default() };
/// let mut tx = BytesMut::new();
/// codec.encode(RequestFrame { header, body: ApiVersionsRequest::with_default_client_software().into() }, &mut tx)?;
/// assert_eq!(codec.in_flight(), 1);
///
/// // A broker that only knows ApiVersions v0-3 answers with a v0 body and error 35.
/// let mut rx = BytesMut::from(&b"\x00\x00\x00\x10\x00\x00\x00\x01\x00\x23\x00\x00\x00\x01\x00\x12\x00\x00\x00\x03"[..]);
/// let response = codec.decode(&mut rx)?.unwrap();
/// assert_eq!(response.version, 0);
/// let ResponseBody::ApiVersions(body) = response.body else { unreachable!() };
/// assert_eq!((body.error_code, body.api_keys[0].max_version), (35, 3));
/// assert_eq!(codec.in_flight(), 0);
/// # Ok::<(), kwire::codec::CodecError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct ClientCodec {
    frames: FrameCodec,
    correlator: Correlator,
}

impl ClientCodec {
    /// A client codec with the default maximum frame size.
    ///
    /// ```
    /// assert_eq!(kwire::codec::ClientCodec::new().in_flight(), 0);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// A client codec over a configured [`FrameCodec`].
    ///
    /// ```
    /// use kwire::codec::{ClientCodec, FrameCodec};
    /// let codec = ClientCodec::with_frames(FrameCodec::with_max_frame_size(1 << 20));
    /// assert_eq!(codec.frames().max_frame_size(), 1 << 20);
    /// ```
    pub fn with_frames(frames: FrameCodec) -> Self {
        Self { frames, correlator: Correlator::new() }
    }

    /// The frame codec underneath.
    ///
    /// ```
    /// let codec = kwire::codec::ClientCodec::new();
    /// let _limit = codec.frames().max_frame_size();
    /// ```
    pub fn frames(&self) -> &FrameCodec {
        &self.frames
    }

    /// Requests encoded and not yet answered.
    ///
    /// ```
    /// assert_eq!(kwire::codec::ClientCodec::new().in_flight(), 0);
    /// ```
    pub fn in_flight(&self) -> usize {
        self.correlator.in_flight()
    }
}

/// True for a request that gets no response: Produce with `acks = 0`.
fn expects_response(body: &RequestBody) -> bool {
    !matches!(body, RequestBody::Produce(produce) if produce.acks == 0)
}

impl Encoder<RequestFrame> for ClientCodec {
    type Error = CodecError;

    /// Appends the request as a frame and remembers it (unless it is a
    /// Produce with `acks = 0`).
    ///
    /// # Errors
    /// [`CodecError::Encode`] when the header and body disagree on the api
    /// key or cannot be encoded at the version; [`CodecError::FrameTooLarge`].
    /// On error nothing is remembered; see also
    /// [buffers after an error](crate::error#buffers-after-an-error).
    fn encode(&mut self, request: RequestFrame, dst: &mut BytesMut) -> Result<(), CodecError> {
        self.frames.encode_in_place(dst, |b| request.encode(b))?;
        if expects_response(&request.body) {
            self.correlator.push(Correlated {
                correlation_id: request.header.correlation_id,
                api_key: request.header.request_api_key,
                api_version: request.header.request_api_version,
            });
        }
        Ok(())
    }
}

impl ClientCodec {
    fn response(&mut self, frame: Bytes) -> Result<ResponseFrame, CodecError> {
        let request = self.correlator.match_response(&frame)?;
        let api_key = ApiKey::try_from(request.api_key)
            .map_err(|_| DecodeError::new(DecodeErrorKind::UnknownApiKey(request.api_key), 0))?;
        Ok(ResponseFrame::decode(frame, api_key, request.api_version)?)
    }
}

impl Decoder for ClientCodec {
    type Item = ResponseFrame;
    type Error = CodecError;

    /// The next response, decoded at the api key and version of the request
    /// it answers, or `Ok(None)` when more bytes are needed.
    ///
    /// # Errors
    /// As [`FrameCodec::decode`]; [`CodecError::UnexpectedCorrelationId`];
    /// [`CodecError::Decode`] for a malformed response.
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<ResponseFrame>, CodecError> {
        self.frames.decode(src)?.map(|frame| self.response(frame)).transpose()
    }

    /// As [`ClientCodec::decode`] at the end of the stream.
    ///
    /// # Errors
    /// As [`FrameCodec::decode_eof`] and [`ClientCodec::decode`].
    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<ResponseFrame>, CodecError> {
        self.frames.decode_eof(src)?.map(|frame| self.response(frame)).transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::sized;
    use crate::messages::{MetadataRequest, ProduceRequest, RequestHeader};

    #[test]
    fn client_codec_checks_correlation_ids() {
        let mut codec = ClientCodec::new();
        let mut tx = BytesMut::new();
        for correlation_id in [1, 2] {
            let header =
                RequestHeader { request_api_key: 3, request_api_version: 12, correlation_id, ..Default::default() };
            codec.encode(RequestFrame { header, body: MetadataRequest::default().into() }, &mut tx).unwrap();
        }
        assert_eq!(codec.in_flight(), 2);
        // Correlation id 2 arrives first: out of order.
        let mut rx = sized(b"\x00\x00\x00\x02\x00");
        assert!(matches!(
            codec.decode(&mut rx),
            Err(CodecError::UnexpectedCorrelationId { expected: Some(1), found: 2 })
        ));
        let mut idle = ClientCodec::new();
        let mut rx = sized(b"\x00\x00\x00\x09");
        assert!(matches!(idle.decode(&mut rx), Err(CodecError::UnexpectedCorrelationId { expected: None, found: 9 })));
    }

    #[test]
    fn client_codec_does_not_wait_for_acks_zero() {
        let mut codec = ClientCodec::new();
        let mut tx = BytesMut::new();
        let header =
            RequestHeader { request_api_key: 0, request_api_version: 9, correlation_id: 1, ..Default::default() };
        let body = ProduceRequest { acks: 0, ..Default::default() };
        codec.encode(RequestFrame { header: header.clone(), body: body.into() }, &mut tx).unwrap();
        assert_eq!(codec.in_flight(), 0);
        let body = ProduceRequest { acks: -1, ..Default::default() };
        codec.encode(RequestFrame { header, body: body.into() }, &mut tx).unwrap();
        assert_eq!(codec.in_flight(), 1);
    }
}
