//! The error EnvelopeResponses a controller answers with when it refuses an
//! envelope: no response data, only an error code. The request side builds
//! one for each refusal of [`unwrap_request`] ([`UnwrapError::envelope_response`]);
//! a sender that fails the CLUSTER_ACTION check gets
//! [`cluster_authorization_failed`].
//!
//! [`unwrap_request`]: super::unwrap_request
//! [`UnwrapError::envelope_response`]: super::UnwrapError::envelope_response

use kwire::error_code::ErrorCode;
use kwire::messages::EnvelopeResponse;

/// An error EnvelopeResponse: no response data, `code` as the envelope's
/// `ErrorCode`.
///
/// ```
/// use kwire::error_code::ErrorCode;
/// let envelope = kwire_broker::forward::envelope_error(ErrorCode::NotController);
/// assert_eq!((envelope.response_data, envelope.error_code), (None, 41));
/// ```
pub fn envelope_error(code: ErrorCode) -> EnvelopeResponse {
    EnvelopeResponse { response_data: None, error_code: code.code(), ..Default::default() }
}

/// The controller's answer when the envelope's sender fails the
/// CLUSTER_ACTION check on the cluster resource: an error EnvelopeResponse
/// with CLUSTER_AUTHORIZATION_FAILED (31).
///
/// ```
/// assert_eq!(kwire_broker::forward::cluster_authorization_failed().error_code, 31);
/// ```
pub fn cluster_authorization_failed() -> EnvelopeResponse {
    envelope_error(ErrorCode::ClusterAuthorizationFailed)
}
