//! Why a codec could not read or write a frame.

use std::{fmt, io};

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
#[derive(Debug)]
#[non_exhaustive]
pub enum CodecError {
    /// The size prefix is negative.
    NegativeSize(i32),
    /// The size prefix (or a frame to write) is over the codec's maximum.
    FrameTooLarge {
        /// The announced (or attempted) frame size.
        size: usize,
        /// The limit in force.
        max: usize,
    },
    /// The stream ended inside a frame.
    Truncated {
        /// Bytes the frame needed (size prefix included while it was not read yet).
        expected: usize,
        /// Bytes that had arrived.
        received: usize,
    },
    /// A request frame shorter than the 8 bytes every request header starts
    /// with (api key, api version, correlation id).
    ShortRequest(usize),
    /// A frame that did not decode as the expected message.
    Decode(DecodeError),
    /// A message that could not be encoded.
    Encode(EncodeError),
    /// A response whose correlation id is not the oldest request in flight
    /// (Kafka answers in order on a connection), or a response with no
    /// request in flight (`expected` is `None`).
    UnexpectedCorrelationId {
        /// The correlation id of the oldest request in flight, if any.
        expected: Option<i32>,
        /// The correlation id the response carries.
        found: i32,
    },
    /// A response body of another api key than the typed request's
    /// ([`Call::response_from`]), given back whole.
    UnexpectedBody(Box<UnexpectedBody<ResponseBody>>),
    /// An I/O error of the underlying stream.
    Io(io::Error),
}

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NegativeSize(size) => write!(f, "frame size {size} is negative"),
            Self::FrameTooLarge { size, max } => {
                write!(f, "frame of {size} bytes is over the limit of {max}")
            }
            Self::Truncated { expected, received } => {
                write!(f, "stream ended inside a frame: {received} of {expected} bytes received")
            }
            Self::ShortRequest(len) => write!(
                f,
                "request frame of {len} bytes is shorter than the 8 bytes of api key, version and correlation id"
            ),
            Self::Decode(e) => fmt::Display::fmt(e, f),
            Self::Encode(e) => fmt::Display::fmt(e, f),
            Self::UnexpectedCorrelationId { expected, found } => {
                write!(f, "response with correlation id {found}, expected {expected:?}")
            }
            Self::UnexpectedBody(e) => fmt::Display::fmt(e, f),
            Self::Io(e) => write!(f, "i/o: {e}"),
        }
    }
}

impl std::error::Error for CodecError {
    /// The [`io::Error`] of [`CodecError::Io`]; the wrapped errors of
    /// `Decode`, `Encode` and `UnexpectedBody` are shown in place, so this
    /// is their own source (none).
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io(e) => Some(e),
            Self::Decode(e) => std::error::Error::source(e),
            Self::Encode(e) => std::error::Error::source(e),
            Self::UnexpectedBody(e) => std::error::Error::source(e),
            _ => None,
        }
    }
}

impl From<DecodeError> for CodecError {
    /// [`CodecError::Decode`].
    fn from(e: DecodeError) -> Self {
        Self::Decode(e)
    }
}

impl From<EncodeError> for CodecError {
    /// [`CodecError::Encode`].
    fn from(e: EncodeError) -> Self {
        Self::Encode(e)
    }
}

impl From<io::Error> for CodecError {
    /// [`CodecError::Io`].
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

impl From<UnexpectedBody<ResponseBody>> for CodecError {
    /// [`CodecError::UnexpectedBody`].
    fn from(e: UnexpectedBody<ResponseBody>) -> Self {
        Self::UnexpectedBody(Box::new(e))
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;
    use crate::error::{DecodeErrorKind, EncodeErrorKind};
    use crate::messages::{ApiVersionsResponse, MetadataResponse};

    /// The text of every variant, as users match on it, and its source.
    #[test]
    fn display_and_source_of_every_variant() {
        let decode = DecodeError::new(DecodeErrorKind::InvalidUtf8, 9).in_field("name");
        let unexpected = ApiVersionsResponse::try_from(ResponseBody::from(MetadataResponse::default())).unwrap_err();
        let cases: [(CodecError, &str, Option<&str>); 11] = [
            (CodecError::NegativeSize(-4), "frame size -4 is negative", None),
            (CodecError::FrameTooLarge { size: 200, max: 100 }, "frame of 200 bytes is over the limit of 100", None),
            (
                CodecError::Truncated { expected: 12, received: 5 },
                "stream ended inside a frame: 5 of 12 bytes received",
                None,
            ),
            (
                CodecError::ShortRequest(6),
                "request frame of 6 bytes is shorter than the 8 bytes of api key, version and correlation id",
                None,
            ),
            (CodecError::from(decode.clone()), &decode.to_string(), None),
            (CodecError::from(EncodeError::new(EncodeErrorKind::DuplicateTag(3))), "tag 3 is used twice", None),
            (
                CodecError::UnexpectedCorrelationId { expected: Some(7), found: 8 },
                "response with correlation id 8, expected Some(7)",
                None,
            ),
            (
                CodecError::UnexpectedCorrelationId { expected: None, found: 8 },
                "response with correlation id 8, expected None",
                None,
            ),
            (CodecError::from(unexpected), "expected a body of api key 18, got one of api key 3", None),
            (
                CodecError::from(io::Error::new(io::ErrorKind::UnexpectedEof, "early eof")),
                "i/o: early eof",
                Some("early eof"),
            ),
            (CodecError::from(io::Error::from(io::ErrorKind::BrokenPipe)), "i/o: broken pipe", Some("broken pipe")),
        ];
        for (err, text, source) in cases {
            assert_eq!(err.to_string(), text, "{err:?}");
            assert_eq!(err.source().map(ToString::to_string).as_deref(), source, "{err:?}");
        }
        assert_eq!(decode.to_string(), "name: string is not valid UTF-8 (offset 9)");
    }
}
