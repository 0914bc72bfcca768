//! The response direction: the controller wraps its answer in an
//! EnvelopeResponse (or refuses with an error envelope, `error_envelope`);
//! the forwarding broker reads it and decides.

use bytes::BytesMut;

use kwire::embedded::EmbeddedMessage;
use kwire::error::{DecodeError, EncodeError};
use kwire::error_code::ErrorCode;
use kwire::frame::ResponseFrame;
use kwire::messages::{EnvelopeResponse, ResponseBody, ResponseHeader};

use super::error_response::{error_response, NotForwardable};
use super::request::ForwardedRequest;

/// Wraps the controller's answer to a forwarded request: `header` and
/// `body` encoded at `api_version` (the embedded request's version; the
/// header version from [`kwire::api::ApiInfo::response_header_version`])
/// become `ResponseData`; `ErrorCode` is 0.
///
/// # Errors
/// A header or body that `api_version` cannot carry.
///
/// ```
/// use kwire_broker::forward::wrap_response;
/// use kwire::messages::{ResponseHeader, UnregisterBrokerResponse};
/// let header = ResponseHeader { correlation_id: 1, ..Default::default() };
/// let body = UnregisterBrokerResponse { error_message: None, ..Default::default() };
/// let envelope = wrap_response(&header, &body.into(), 0)?;
/// // Response header v1 (correlation id, no tags), then throttle 0, error 0, null message, no tags.
/// assert_eq!(envelope.response_data.unwrap().as_bytes().as_ref(), b"\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00");
/// assert_eq!(envelope.error_code, 0);
/// # Ok::<(), kwire::error::EncodeError>(())
/// ```
pub fn wrap_response(
    header: &ResponseHeader,
    body: &ResponseBody,
    api_version: i16,
) -> Result<EnvelopeResponse, EncodeError> {
    let mut buf = BytesMut::new();
    ResponseFrame::encode_parts(header, body, api_version, &mut buf)?;
    Ok(EnvelopeResponse {
        response_data: Some(EmbeddedMessage(buf.freeze())),
        error_code: ErrorCode::None.code(),
        ..Default::default()
    })
}

/// What the forwarding broker does with the controller's answer
/// ([`unwrap_response`]), as Kafka's forwarding broker decides.
///
/// ```
/// use kwire::error_code::ErrorCode;
/// use kwire_broker::forward::{envelope_error, unwrap_response, ForwardOutcome, ForwardedRequest};
/// use kwire::messages::{RequestHeader, UnregisterBrokerRequest};
/// let header = RequestHeader { request_api_key: 64, correlation_id: 1, ..Default::default() };
/// let forwarded = ForwardedRequest { header, body: UnregisterBrokerRequest::default().into() };
/// let outcome = unwrap_response(&envelope_error(ErrorCode::UnsupportedVersion), &forwarded)?;
/// assert_eq!(outcome, ForwardOutcome::CloseConnection);
/// # Ok::<(), kwire_broker::forward::NotForwardable>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum ForwardOutcome {
    /// The controller answered: send this header and body to the client (at
    /// the client's request version). The header's correlation id is the
    /// client's.
    Response(ResponseHeader, ResponseBody),
    /// NOT_CONTROLLER (41): find the new active controller and forward the
    /// same request to it.
    RetryOnNewController,
    /// The envelope failed with any other error: answer the client with this
    /// body, the client's own response type carrying UNKNOWN_SERVER_ERROR
    /// (-1) where Kafka's answer carries it ([`super::error_response`]). The
    /// envelope's own error is not for the client, which would not expect
    /// it.
    ErrorToClient(ResponseBody),
    /// The envelope succeeded (`ErrorCode` 0) but its `ResponseData` is no
    /// answer to the forwarded request: null, not a response of the
    /// forwarded api key and version, or one for another correlation id.
    /// Kafka's forwarding broker then answers the client as for an envelope
    /// error: send `error_response`, the client's own response type
    /// carrying UNKNOWN_SERVER_ERROR (-1) on every item it named. `reason`
    /// says what was wrong with the data, for the broker's log (Kafka logs
    /// it as an error).
    UnreadableResponse {
        /// The answer for the client.
        error_response: ResponseBody,
        /// What was wrong with `ResponseData`.
        reason: ResponseError,
    },
    /// The envelope failed with UNSUPPORTED_VERSION (35): send the client no
    /// answer and close its connection, so that it reconnects and asks for
    /// the api versions again (the controller may have changed since it
    /// last asked).
    CloseConnection,
}

/// Why the `ResponseData` of a successful EnvelopeResponse is no answer to
/// the forwarded request ([`ForwardOutcome::UnreadableResponse`]).
///
/// ```
/// use kwire_broker::forward::ResponseError;
/// let err = ResponseError::CorrelationIdMismatch { expected: 3, found: 4 };
/// assert_eq!(err.to_string(), "the embedded response answers correlation id 4, not the forwarded 3");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResponseError {
    /// `ErrorCode` is 0 but `ResponseData` is null.
    MissingResponseData,
    /// The embedded response header or body does not decode at the
    /// forwarded request's api key and version. Bytes after the body are
    /// not an error: Kafka's forwarding broker leaves them unread.
    Malformed(DecodeError),
    /// The embedded response answers another request.
    CorrelationIdMismatch {
        /// The forwarded request's correlation id.
        expected: i32,
        /// The embedded response header's correlation id.
        found: i32,
    },
}

impl std::fmt::Display for ResponseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::MissingResponseData => f.write_str("the envelope response has neither an error nor response data"),
            Self::Malformed(e) => write!(f, "the embedded response is malformed: {e}"),
            Self::CorrelationIdMismatch { expected, found } => {
                write!(f, "the embedded response answers correlation id {found}, not the forwarded {expected}")
            }
        }
    }
}

impl std::error::Error for ResponseError {
    /// The [`DecodeError`] of [`ResponseError::Malformed`].
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Malformed(e) => Some(e),
            Self::MissingResponseData | Self::CorrelationIdMismatch { .. } => None,
        }
    }
}

/// Reads the controller's EnvelopeResponse to `forwarded` (the request
/// [`super::wrap_request`] wrapped) and decides what to do, as Kafka's
/// forwarding broker (`ForwardingManager`) does:
///
/// - `ErrorCode` NOT_CONTROLLER (41): [`ForwardOutcome::RetryOnNewController`];
/// - UNSUPPORTED_VERSION (35): [`ForwardOutcome::CloseConnection`];
/// - any other non-zero code: [`ForwardOutcome::ErrorToClient`] with
///   UNKNOWN_SERVER_ERROR (-1), whatever the envelope's code was;
/// - 0: the embedded response, decoded at the forwarded api key and version
///   (bytes after the body left unread, as Kafka leaves them), its
///   correlation id checked: [`ForwardOutcome::Response`]; when the data is
///   null, does not decode or answers another correlation id,
///   [`ForwardOutcome::UnreadableResponse`] with UNKNOWN_SERVER_ERROR (-1)
///   for the client and the [`ResponseError`].
///
/// # Errors
/// [`NotForwardable`] when `forwarded` holds an api that is not
/// forwardable, for which no error response can be built.
///
/// ```
/// use kwire::error_code::ErrorCode;
/// use kwire_broker::forward::{envelope_error, unwrap_response, ForwardOutcome, ForwardedRequest, ResponseError};
/// use kwire::messages::{EnvelopeResponse, RequestHeader, ResponseBody, UnregisterBrokerRequest};
/// let header = RequestHeader { request_api_key: 64, correlation_id: 1, ..Default::default() };
/// let forwarded = ForwardedRequest { header, body: UnregisterBrokerRequest::default().into() };
/// let outcome = unwrap_response(&envelope_error(ErrorCode::NotController), &forwarded)?;
/// assert_eq!(outcome, ForwardOutcome::RetryOnNewController);
/// let outcome = unwrap_response(&envelope_error(ErrorCode::PrincipalDeserializationFailure), &forwarded)?;
/// let ForwardOutcome::ErrorToClient(ResponseBody::UnregisterBroker(answer)) = outcome else { unreachable!() };
/// assert_eq!(answer.error_code, -1);
/// // Error 0 and no response data: the client gets UNKNOWN_SERVER_ERROR too.
/// let outcome = unwrap_response(&EnvelopeResponse::default(), &forwarded)?;
/// let ForwardOutcome::UnreadableResponse { error_response: ResponseBody::UnregisterBroker(answer), reason } = outcome
/// else {
///     unreachable!()
/// };
/// assert_eq!((answer.error_code, reason), (-1, ResponseError::MissingResponseData));
/// # Ok::<(), kwire_broker::forward::NotForwardable>(())
/// ```
pub fn unwrap_response(
    response: &EnvelopeResponse,
    forwarded: &ForwardedRequest,
) -> Result<ForwardOutcome, NotForwardable> {
    let version = forwarded.api_version();
    match ErrorCode::from_code(response.error_code) {
        ErrorCode::None => {}
        ErrorCode::NotController => return Ok(ForwardOutcome::RetryOnNewController),
        ErrorCode::UnsupportedVersion => return Ok(ForwardOutcome::CloseConnection),
        _ => {
            let body = error_response(&forwarded.body, version, ErrorCode::UnknownServerError)?;
            return Ok(ForwardOutcome::ErrorToClient(body));
        }
    }
    match read_answer(response, forwarded) {
        Ok(answer) => Ok(ForwardOutcome::Response(answer.header, answer.body)),
        Err(reason) => Ok(ForwardOutcome::UnreadableResponse {
            error_response: error_response(&forwarded.body, version, ErrorCode::UnknownServerError)?,
            reason,
        }),
    }
}

/// The embedded response of a successful envelope, read as Kafka's
/// forwarding broker reads it: header and body at the forwarded api key
/// and version, bytes after the body left unread, the correlation id the
/// forwarded one.
fn read_answer(response: &EnvelopeResponse, forwarded: &ForwardedRequest) -> Result<ResponseFrame, ResponseError> {
    let data = response.response_data.as_ref().ok_or(ResponseError::MissingResponseData)?;
    let (answer, _unread) =
        ResponseFrame::decode_lenient(data.as_bytes().clone(), forwarded.api_key(), forwarded.api_version())
            .map_err(ResponseError::Malformed)?;
    if answer.header.correlation_id != forwarded.correlation_id() {
        return Err(ResponseError::CorrelationIdMismatch {
            expected: forwarded.correlation_id(),
            found: answer.header.correlation_id,
        });
    }
    Ok(answer)
}
