//! Pairing the responses of a connection with the requests they answer.

use std::collections::VecDeque;

use super::raw_request::parse_head;
use super::CodecError;
use crate::api::ApiKey;
use crate::error::DecodeError;
use crate::messages::{ProduceRequest, RequestHeader};

#[cfg(doc)]
use super::{FrameCodec, RawRequest};
#[cfg(doc)]
use crate::frame::ResponseFrame;

/// The request a response answers: what a [`Correlator`] gives for a
/// response frame.
///
/// ```
/// use kwire::codec::Correlated;
/// let answered = Correlated { correlation_id: 7, api_key: 3, api_version: 12 };
/// assert_eq!(kwire::api::api_info(answered.api_key).unwrap().response_header_version(answered.api_version), 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Correlated {
    /// The correlation id that request and response carry.
    pub correlation_id: i32,
    /// The request's api key: the response's body is of this api key.
    pub api_key: i16,
    /// The request's api version: the response's body is of this version
    /// (save for the ApiVersions fallback of [`ResponseFrame::decode`]),
    /// and its header version follows from api key and version
    /// ([`ApiInfo::response_header_version`](crate::api::ApiInfo::response_header_version)).
    pub api_version: i16,
}

/// Pairs the responses on one connection with the requests they answer.
///
/// A response frame carries only its correlation id (response header
/// `CorrelationId`, the first 4 bytes), not its api key or version, which
/// its header and body layout depend on. A proxy or client that relays raw
/// frames hands each request frame to [`Correlator::track_request`] as it is
/// sent, and each response frame to [`Correlator::match_response`] as it
/// arrives, which tells the api key and version to decode it at.
///
/// Kafka answers the requests of a connection in the order they came, so
/// every response must carry the correlation id of the oldest request in
/// flight. A Produce request with `Acks` = 0 gets no response at all (the
/// ProduceRequest schema's `Acks`: "0 none (no response is sent)"), so it
/// is not recorded. Header fields as
/// spec §7.1 (request header) and §7.2 (response header `CorrelationId`). Everything is read from the first bytes of each frame:
/// nothing is decoded or copied.
///
/// Frames are without their 4-byte size prefix, as [`FrameCodec`] gives
/// them (a [`RawRequest`]'s [`RawRequest::as_bytes`]).
///
/// # Example
/// ```
/// use kwire::codec::{CodecError, Correlated, Correlator};
/// use kwire::frame::RequestFrame;
/// use kwire::messages::{MetadataRequest, ProduceRequest, RequestBody, RequestHeader};
/// use kwire::BytesMut;
///
/// // Frames as a proxy sees them: Metadata v12 (correlation id 1), then a
/// // fire-and-forget Produce v9 (acks 0, correlation id 2).
/// let request = |api_key, api_version, correlation_id, body: RequestBody| {
///     let header = RequestHeader { request_api_key: api_key, request_api_version: api_version, correlation_id, ..Default::default() };
///     let mut buf = BytesMut::new();
///     RequestFrame { header, body }.encode(&mut buf).map(|()| buf)
/// };
/// let metadata = request(3, 12, 1, MetadataRequest::default().into())?;
/// let produce = request(0, 9, 2, ProduceRequest { acks: 0, ..Default::default() }.into())?;
///
/// let mut correlator = Correlator::new();
/// assert!(correlator.track_request(&metadata)?);
/// assert!(!correlator.track_request(&produce)?); // no response will come
/// assert_eq!(correlator.in_flight(), 1);
///
/// // The broker's answer: correlation id 1, then header and body.
/// let answered = correlator.match_response(b"\x00\x00\x00\x01\x00...")?;
/// assert_eq!(answered, Correlated { correlation_id: 1, api_key: 3, api_version: 12 });
/// assert!(matches!(
///     correlator.match_response(b"\x00\x00\x00\x02\x00"),
///     Err(CodecError::UnexpectedCorrelationId { expected: None, found: 2 })
/// ));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Correlator {
    in_flight: VecDeque<Correlated>,
}

impl Correlator {
    /// A correlator with no request in flight.
    ///
    /// ```
    /// assert_eq!(kwire::codec::Correlator::new().in_flight(), 0);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a request frame as sent (without its size prefix): its api
    /// key, api version and correlation id (request header `RequestApiKey`,
    /// `RequestApiVersion`, `CorrelationId`). Returns whether a response
    /// is expected: `false`, and nothing recorded, for a Produce (api key
    /// 0) with `Acks` = 0. Any api key and version is recorded, known or
    /// not; only a Produce frame is read past its first 8 bytes, up to its
    /// `Acks`.
    ///
    /// # Errors
    /// [`CodecError::ShortRequest`] under 8 bytes; [`CodecError::Decode`]
    /// for a Produce frame that ends, or whose client id or transactional
    /// id is malformed, before its `Acks`. Nothing is recorded then.
    ///
    /// ```
    /// use kwire::codec::{CodecError, Correlator};
    /// let mut correlator = Correlator::new();
    /// // Metadata v0 (header v1), correlation id 9, null client id, no topics.
    /// assert!(correlator.track_request(b"\x00\x03\x00\x00\x00\x00\x00\x09\xff\xff\x00\x00\x00\x00")?);
    /// assert!(matches!(correlator.track_request(b"\x00\x03"), Err(CodecError::ShortRequest(2))));
    /// assert_eq!(correlator.in_flight(), 1);
    /// # Ok::<(), CodecError>(())
    /// ```
    pub fn track_request(&mut self, frame: &[u8]) -> Result<bool, CodecError> {
        let head = parse_head(frame)?;
        if head.api_key == ApiKey::Produce.code() && produce_acks(frame, head.api_version)? == 0 {
            return Ok(false);
        }
        self.push(Correlated {
            correlation_id: head.correlation_id,
            api_key: head.api_key,
            api_version: head.api_version,
        });
        Ok(true)
    }

    /// The request that a response frame (without its size prefix)
    /// answers, taken off the requests in flight.
    ///
    /// # Errors
    /// [`CodecError::Truncated`] under the 4 bytes of the correlation id;
    /// [`CodecError::UnexpectedCorrelationId`] when the response's
    /// correlation id is not the oldest request's, or no request is in
    /// flight (`expected: None`). Nothing is taken off then.
    ///
    /// ```
    /// use kwire::codec::{CodecError, Correlator};
    /// let mut correlator = Correlator::new();
    /// correlator.track_request(b"\x00\x12\x00\x03\x00\x00\x00\x05\xff\xff\x00\x00\x00\x00")?; // ApiVersions v3
    /// let err = correlator.match_response(b"\x00\x00\x00\x06\x00").unwrap_err();
    /// assert!(matches!(err, CodecError::UnexpectedCorrelationId { expected: Some(5), found: 6 }));
    /// assert_eq!(correlator.match_response(b"\x00\x00\x00\x05\x00")?.api_key, 18);
    /// # Ok::<(), CodecError>(())
    /// ```
    pub fn match_response(&mut self, frame: &[u8]) -> Result<Correlated, CodecError> {
        let Some(id) = frame.first_chunk::<4>() else {
            return Err(CodecError::Truncated { expected: 4, received: frame.len() });
        };
        let found = i32::from_be_bytes(*id);
        match self.in_flight.front().copied() {
            Some(request) if request.correlation_id == found => {
                self.in_flight.pop_front();
                Ok(request)
            }
            expected => {
                Err(CodecError::UnexpectedCorrelationId { expected: expected.map(|r| r.correlation_id), found })
            }
        }
    }

    /// Requests recorded and not yet answered.
    ///
    /// ```
    /// assert_eq!(kwire::codec::Correlator::default().in_flight(), 0);
    /// ```
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Records a request known to expect a response.
    pub(super) fn push(&mut self, request: Correlated) {
        self.in_flight.push_back(request);
    }
}

/// The `Acks` of a Produce request frame at `api_version`: the generated
/// peeks step over the request header and the fields before `Acks`,
/// without decoding anything. An error's offset is in the frame.
fn produce_acks(frame: &[u8], api_version: i16) -> Result<i16, DecodeError> {
    let header_version = ApiKey::Produce.info().request_header_version(api_version);
    let body = RequestHeader::peek_len(frame, header_version)?;
    ProduceRequest::peek_acks(frame.get(body..).unwrap_or_default(), api_version).map_err(|e| e.shifted(body))
}
