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

use std::collections::VecDeque;
use std::time::{Duration, SystemTime};

use kwire::api::ApiKey;
use kwire::codec::{CodecError, Correlator};
use kwire::frame::{RequestFrame, RequestHead, ResponseFrame};
use kwire::messages::ResponseBody;
use kwire::Bytes;

/// What one frame was.
pub enum Event {
    /// A request, decoded or not.
    Request {
        /// The request header's first fields.
        head: RequestHead,
        /// The request, or why it did not decode.
        decoded: Result<Box<RequestFrame>, String>,
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
        decoded: Result<Box<ResponseFrame>, String>,
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

    /// A frame from the client.
    pub fn request(&mut self, frame: Bytes, time: Option<SystemTime>) -> Event {
        // Decoded once: while bare tokens may come, to tell a token from a request.
        let mut early = None;
        if self.sasl_tokens {
            match RequestFrame::decode(frame.clone()) {
                Ok(request) => {
                    self.sasl_tokens = false;
                    early = Some(request);
                }
                Err(_) => {
                    self.tokens_unanswered += 1;
                    return Event::SaslToken { from_client: true, len: frame.len() };
                }
            }
        }
        let head = match RequestHead::parse(&frame) {
            Ok(head) => head,
            Err(e) => return Event::Failed(format!("request: {e}")),
        };
        match self.correlator.track_request(&frame) {
            Ok(true) => self.seen.push_back((head.correlation_id, time)),
            Ok(false) => {}
            Err(e) => return Event::Failed(format!("request {}: {e}", Api(head.api_key, head.api_version))),
        }
        let decoded = match early {
            Some(request) => Ok(Box::new(request)),
            None => RequestFrame::decode(frame).map(Box::new).map_err(|e| e.to_string()),
        };
        Event::Request { head, decoded }
    }

    /// A frame from the broker.
    pub fn response(&mut self, frame: Bytes, time: Option<SystemTime>) -> Event {
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
            Ok(key) => ResponseFrame::decode(frame, key, request.api_version).map(Box::new).map_err(|e| e.to_string()),
            Err(_) => Err(format!("api key {} is unknown", request.api_key)),
        };
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
