//! Why a codec could not read or write a frame.

use std::io;

use crate::error::{DecodeError, EncodeError, UnexpectedBody};
use crate::messages::ResponseBody;

#[cfg(doc)]
use super::Call;

/// Why a codec could not read or write a frame.
///
/// ```
/// use kwire::codec::CodecError;
/// let err = CodecError::FrameTooLarge { size: 200, max: 100 };
/// assert_eq!(err.to_string(), "frame of 200 bytes is over the limit of 100");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CodecError {
    /// The size prefix is negative.
    #[error("frame size {0} is negative")]
    NegativeSize(i32),
    /// The size prefix (or a frame to write) is over the codec's maximum.
    #[error("frame of {size} bytes is over the limit of {max}")]
    FrameTooLarge {
        /// The announced (or attempted) frame size.
        size: usize,
        /// The limit in force.
        max: usize,
    },
    /// The stream ended inside a frame.
    #[error("stream ended inside a frame: {received} of {expected} bytes received")]
    Truncated {
        /// Bytes the frame needed (size prefix included while it was not read yet).
        expected: usize,
        /// Bytes that had arrived.
        received: usize,
    },
    /// A request frame shorter than the 8 bytes every request header starts
    /// with (api key, api version, correlation id).
    #[error("request frame of {0} bytes is shorter than the 8 bytes of api key, version and correlation id")]
    ShortRequest(usize),
    /// A frame that did not decode as the expected message.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// A message that could not be encoded.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// A response whose correlation id is not the oldest request in flight
    /// (Kafka answers in order on a connection), or a response with no
    /// request in flight (`expected` is `None`).
    #[error("response with correlation id {found}, expected {expected:?}")]
    UnexpectedCorrelationId {
        /// The correlation id of the oldest request in flight, if any.
        expected: Option<i32>,
        /// The correlation id the response carries.
        found: i32,
    },
    /// A response body of another api key than the typed request's
    /// ([`Call::response_from`]), given back whole.
    #[error(transparent)]
    UnexpectedBody(Box<UnexpectedBody<ResponseBody>>),
    /// An I/O error of the underlying stream.
    #[error("i/o: {0}")]
    Io(#[from] io::Error),
}

impl From<UnexpectedBody<ResponseBody>> for CodecError {
    /// [`CodecError::UnexpectedBody`].
    fn from(e: UnexpectedBody<ResponseBody>) -> Self {
        Self::UnexpectedBody(Box::new(e))
    }
}
