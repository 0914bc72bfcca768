//! Kafka frames of one connection, requests paired with their responses.
//!
//! kwire's [`Correlator`] pairs each response with the oldest request in
//! flight (Kafka answers in order) and leaves out Produce with `acks = 0`,
//! which gets no response; [`ResponseFrame::decode`] reads an ApiVersions
//! answer at v0 when the broker answered with the v0 fallback body. Beside
//! it, [`Pairing`] keeps when each request was seen, for the latency.
//!
//! After a SaslHandshake v0 that succeeded, the client sends its SASL
//! tokens as bare size-prefixed bytes, not Kafka requests, and the broker
//! answers each the same way (Kafka's pre-KIP-152 flow). Those tokens are
//! passed over unread: only their length is told.
//!
//! Frames are decoded into values [`Kept`] per api key, shared by every
//! connection: once each has grown, decoding a frame allocates nothing
//! (strings share the frame's bytes), where a fresh decode per frame
//! allocated and freed every array and struct of the body.

use std::collections::VecDeque;
use std::time::{Duration, SystemTime};

use kwire::api::ApiKey;
use kwire::codec::{CodecError, Correlator};
use kwire::error::DecodeError;
use kwire::frame::{RequestFrame, RequestHead, ResponseFrame};
use kwire::messages::ResponseBody;
use kwire::Bytes;

/// What one frame was; a decoded frame is borrowed from [`Kept`].
pub enum Event<'k> {
    /// A request, decoded or not.
    Request {
        /// The request header's first fields.
        head: RequestHead,
        /// The request, or why it did not decode.
        decoded: Result<&'k RequestFrame, String>,
    },
    /// A response, paired with its request.
    Response {
        /// Correlation id.
        correlation_id: i32,
        /// The request's api key.
        api_key: i16,
        /// The request's version.
        api_version: i16,
        /// Time since the request was seen, when both have a time.
        latency: Option<Duration>,
        /// The response, or why it did not decode.
        decoded: Result<&'k ResponseFrame, String>,
    },
    /// A bare SASL token after SaslHandshake v0, `len` bytes, not read.
    SaslToken {
        /// Sent by the client (else by the broker).
        from_client: bool,
        /// Its length.
        len: usize,
    },
    /// A frame that could not be paired or whose head could not be read.
    Failed(String),
}

/// The Kafka state of one connection.
#[derive(Default)]
pub struct Pairing {
    correlator: Correlator,
    /// Correlation id and time of each request in flight, in order: the
    /// same requests as the correlator's.
    seen: VecDeque<(i32, Option<SystemTime>)>,
    /// After a successful SaslHandshake v0: client frames are bare tokens
    /// until one reads as a Kafka request.
    sasl_tokens: bool,
    /// Client tokens not answered yet.
    tokens_unanswered: usize,
}

impl Pairing {
    /// Whether a frame of unknown direction is a response: it carries the
    /// correlation id of the oldest request in flight, or answers a bare
    /// SASL token.
    pub fn is_response(&self, frame: &[u8]) -> bool {
        if self.tokens_unanswered > 0 {
            return true;
        }
        let id = frame.first_chunk::<4>().map(|b| i32::from_be_bytes(*b));
        matches!((self.seen.front(), id), (Some((expected, _)), Some(found)) if *expected == found)
    }

    /// A frame from the client, decoded into `kept`.
    pub fn request<'k>(&mut self, frame: Bytes, time: Option<SystemTime>, kept: &'k mut Kept) -> Event<'k> {
        let head = RequestHead::parse(&frame);
        // Decoded once: while bare tokens may come, to tell a token from a request.
        let mut early = None;
        if self.sasl_tokens {
            match head.as_ref().map(|head| kept.decode_request(head.api_key, frame.clone())) {
                Ok(Ok(())) => {
                    self.sasl_tokens = false;
                    early = Some(Ok(()));
                }
                _ => {
                    self.tokens_unanswered += 1;
                    return Event::SaslToken { from_client: true, len: frame.len() };
                }
            }
        }
        let head = match head {
            Ok(head) => head,
            Err(e) => return Event::Failed(format!("request: {e}")),
        };
        match self.correlator.track_request(&frame) {
            Ok(true) => self.seen.push_back((head.correlation_id, time)),
            Ok(false) => {}
            Err(e) => return Event::Failed(format!("request {}: {e}", Api(head.api_key, head.api_version))),
        }
        let decoded = early.unwrap_or_else(|| kept.decode_request(head.api_key, frame)).map_err(|e| e.to_string());
        let decoded = decoded.and_then(|()| kept.request(head.api_key).ok_or_else(|| NOT_KEPT.to_string()));
        Event::Request { head, decoded }
    }

    /// A frame from the broker, decoded into `kept`.
    pub fn response<'k>(&mut self, frame: Bytes, time: Option<SystemTime>, kept: &'k mut Kept) -> Event<'k> {
        if self.tokens_unanswered > 0 {
            self.tokens_unanswered -= 1;
            return Event::SaslToken { from_client: false, len: frame.len() };
        }
        let request = match self.correlator.match_response(&frame) {
            Ok(request) => request,
            Err(CodecError::UnexpectedCorrelationId { expected: None, found }) => {
                return Event::Failed(format!("response with correlation id {found} and no request in flight"))
            }
            Err(e) => return Event::Failed(format!("response: {e}")),
        };
        let asked = self.seen.pop_front().and_then(|(_, t)| t);
        let latency = match (asked, time) {
            (Some(asked), Some(time)) => Some(time.duration_since(asked).unwrap_or_default()),
            _ => None,
        };
        let decoded = match ApiKey::try_from(request.api_key) {
            Ok(key) => kept.decode_response(key, request.api_version, frame).map_err(|e| e.to_string()),
            Err(_) => Err(format!("api key {} is unknown", request.api_key)),
        };
        let decoded = decoded.and_then(|()| kept.response(request.api_key).ok_or_else(|| NOT_KEPT.to_string()));
        if let Ok(response) = &decoded {
            if let ResponseBody::SaslHandshake(body) = &response.body {
                self.sasl_tokens = request.api_version == 0 && body.error_code == 0;
            }
        }
        Event::Response {
            correlation_id: request.correlation_id,
            api_key: request.api_key,
            api_version: request.api_version,
            latency,
            decoded,
        }
    }

    /// Requests still waiting for a response.
    pub fn in_flight(&self) -> usize {
        self.correlator.in_flight()
    }
}

/// The error of a frame that decoded but was not kept: cannot happen, as
/// only frames of known api keys decode and each has its place.
const NOT_KEPT: &str = "decoded frame not kept";

/// The frames last decoded, one request and one response per api key,
/// decoded into again by the next frame of that api key (so that their
/// arrays and structs are reused), for every connection.
#[derive(Default)]
pub struct Kept {
    /// By api key.
    requests: Vec<Option<RequestFrame>>,
    /// By api key.
    responses: Vec<Option<ResponseFrame>>,
}

impl Kept {
    /// The place of `api_key`'s frames among `slots`, grown to hold it;
    /// `None` for an api key this build does not know (whose frames do
    /// not decode), so that their number stays that of the api table.
    fn slot<T>(slots: &mut Vec<Option<T>>, api_key: i16) -> Option<&mut Option<T>> {
        let index = usize::try_from(ApiKey::try_from(api_key).ok()?.code()).ok()?;
        if slots.len() <= index {
            slots.resize_with(index + 1, || None);
        }
        slots.get_mut(index)
    }

    /// Decodes a request frame of `api_key` (from its head) into its place.
    fn decode_request(&mut self, api_key: i16, frame: Bytes) -> Result<(), DecodeError> {
        match Self::slot(&mut self.requests, api_key) {
            Some(Some(kept)) => kept.decode_into(frame),
            Some(slot) => RequestFrame::decode(frame).map(|decoded| *slot = Some(decoded)),
            None => RequestFrame::decode(frame).map(drop),
        }
    }

    /// Decodes a response frame to a request of `api_key` at `api_version`
    /// into its place.
    fn decode_response(&mut self, api_key: ApiKey, api_version: i16, frame: Bytes) -> Result<(), DecodeError> {
        match Self::slot(&mut self.responses, api_key.code()) {
            Some(Some(kept)) => kept.decode_into(frame, api_key, api_version),
            Some(slot) => ResponseFrame::decode(frame, api_key, api_version).map(|decoded| *slot = Some(decoded)),
            None => ResponseFrame::decode(frame, api_key, api_version).map(drop),
        }
    }

    /// The request of `api_key` decoded last.
    fn request(&self, api_key: i16) -> Option<&RequestFrame> {
        self.requests.get(usize::try_from(api_key).ok()?)?.as_ref()
    }

    /// The response to a request of `api_key` decoded last.
    fn response(&self, api_key: i16) -> Option<&ResponseFrame> {
        self.responses.get(usize::try_from(api_key).ok()?)?.as_ref()
    }
}

/// An api key and version as the output names them: `Metadata v12`, or
/// `api key 99 v0` for a key this build does not know.
#[derive(Clone, Copy)]
pub struct Api(pub i16, pub i16);

impl std::fmt::Display for Api {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Api(api_key, api_version) = *self;
        match kwire::api::api_info(api_key) {
            Some(info) => write!(f, "{} v{api_version}", info.name),
            None => write!(f, "api key {api_key} v{api_version}"),
        }
    }
}

/// Kafka's name of an api key, or `api key N`.
pub fn api_name(api_key: i16) -> String {
    kwire::api::api_info(api_key).map_or_else(|| format!("api key {api_key}"), |info| info.name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kwire::messages::metadata_request::MetadataRequestTopic;
    use kwire::messages::{MetadataRequest, MetadataResponse, RequestHeader, ResponseHeader};
    use kwire::BytesMut;

    fn metadata(corr: i32, topics: &[&str]) -> Bytes {
        let header =
            RequestHeader { request_api_key: 3, request_api_version: 12, correlation_id: corr, ..Default::default() };
        let topics = topics.iter().map(|t| MetadataRequestTopic { name: Some((*t).into()), ..Default::default() });
        let body = MetadataRequest { topics: Some(topics.collect()), ..Default::default() };
        let mut buf = BytesMut::new();
        RequestFrame::encode_parts(&header, &body.into(), &mut buf).unwrap();
        buf.freeze()
    }

    /// Frames decoded into the kept ones equal fresh decodes, a frame that
    /// does not decode in between included, and a response is decoded at
    /// its request's api key and version.
    #[test]
    fn kept_frames_equal_fresh_decodes() {
        let mut pairing = Pairing::default();
        let mut kept = Kept::default();
        for (corr, topics) in [(1, &["a", "b", "c"][..]), (2, &[]), (3, &["d"])] {
            let frame = metadata(corr, topics);
            let Event::Request { decoded, .. } = pairing.request(frame.clone(), None, &mut kept) else { panic!() };
            assert_eq!(decoded.unwrap(), &RequestFrame::decode(frame).unwrap());
            let cut = metadata(corr + 10, topics).slice(..12);
            let Event::Request { decoded, .. } = pairing.request(cut, None, &mut kept) else { panic!() };
            assert!(decoded.unwrap_err().contains("MetadataRequest"));
        }
        let mut response = BytesMut::new();
        let body = MetadataResponse { cluster_id: Some("c".into()), ..Default::default() };
        ResponseFrame {
            header: ResponseHeader { correlation_id: 1, ..Default::default() },
            body: body.into(),
            version: 12,
        }
        .encode(&mut response)
        .unwrap();
        let response = response.freeze();
        let Event::Response { decoded, api_key, .. } = pairing.response(response.clone(), None, &mut kept) else {
            panic!()
        };
        assert_eq!((api_key, decoded.unwrap()), (3, &ResponseFrame::decode(response, ApiKey::Metadata, 12).unwrap()));
    }
}
