//! Typed requests and their typed responses over the client codec.

use super::CodecError;
use crate::error::UnexpectedBody;
use crate::frame::{RequestFrame, ResponseFrame};
use crate::message::Request;
use crate::messages::{RequestBody, RequestHeader, ResponseBody};

#[cfg(doc)]
use super::ClientCodec;

/// A request of this crate's message set that a client can send typed:
/// every generated request type `R` (with its response type
/// `R::Response`, [`Request`]), blanket-implemented.
///
/// [`Call::into_frame`] builds the [`RequestFrame`] to send (header
/// `RequestApiKey` = `R::API_KEY`), and [`Call::response_from`] takes
/// `R::Response` out of the [`ResponseFrame`] that a [`ClientCodec`]
/// decoded for it, so a client needs no `match` over [`ResponseBody`].
///
/// # Example
/// ```
/// use kwire::codec::{Call, ClientCodec, ServerCodec};
/// use kwire::frame::ResponseFrame;
/// use kwire::messages::{MetadataRequest, MetadataResponse, ResponseHeader};
/// use kwire::BytesMut;
/// use tokio_util::codec::{Decoder, Encoder};
///
/// let (mut client, mut server, mut wire) = (ClientCodec::new(), ServerCodec::new(), BytesMut::new());
/// client.encode(MetadataRequest::default().into_frame(12, 1, Some("me".into())), &mut wire)?;
///
/// let request = server.decode(&mut wire)?.unwrap();
/// let head = request.head();
/// assert_eq!((head.api_key, head.api_version, head.correlation_id), (3, 12, 1));
/// let answer = MetadataResponse { controller_id: 1, ..Default::default() };
/// let header = ResponseHeader { correlation_id: 1, ..Default::default() };
/// server.encode(ResponseFrame { header, body: answer.clone().into(), version: 12 }, &mut wire)?;
///
/// let frame = client.decode(&mut wire)?.unwrap();
/// let response: MetadataResponse = MetadataRequest::response_from(frame)?;
/// assert_eq!(response, answer);
/// # Ok::<(), kwire::codec::CodecError>(())
/// ```
pub trait Call:
    Request<Response: TryFrom<ResponseBody, Error = UnexpectedBody<ResponseBody>>> + Into<RequestBody>
{
    /// The request frame that sends `self` at `api_version` with
    /// `correlation_id` and `client_id` (request header fields
    /// `RequestApiVersion`, `CorrelationId`, `ClientId`; the header's
    /// tagged fields left empty). The header version follows from api key
    /// and version when it is encoded.
    ///
    /// ```
    /// use kwire::codec::Call;
    /// use kwire::messages::{ApiVersionsRequest, RequestBody};
    /// let frame = ApiVersionsRequest::with_default_client_software().into_frame(3, 7, None);
    /// assert_eq!((frame.header.request_api_key, frame.header.request_api_version, frame.header.correlation_id), (18, 3, 7));
    /// assert!(matches!(frame.body, RequestBody::ApiVersions(_)));
    /// ```
    fn into_frame(self, api_version: i16, correlation_id: i32, client_id: Option<crate::ByteString>) -> RequestFrame {
        let header = RequestHeader {
            request_api_key: Self::API_KEY,
            request_api_version: api_version,
            correlation_id,
            client_id,
            ..Default::default()
        };
        RequestFrame { header, body: self.into() }
    }

    /// The typed response in `frame`, converted from its body (the version it was
    /// decoded at is `frame.version`).
    ///
    /// # Errors
    /// [`CodecError::UnexpectedBody`], holding the body, when the body is
    /// of another api key (a frame that answers another request).
    ///
    /// ```
    /// use kwire::codec::{Call, CodecError};
    /// use kwire::frame::ResponseFrame;
    /// use kwire::messages::{ApiVersionsRequest, MetadataResponse, ResponseHeader};
    /// let frame = ResponseFrame { header: ResponseHeader::default(), body: MetadataResponse::default().into(), version: 12 };
    /// let Err(CodecError::UnexpectedBody(err)) = ApiVersionsRequest::response_from(frame) else { unreachable!() };
    /// assert_eq!((err.expected, err.found), (18, 3));
    /// ```
    fn response_from(frame: ResponseFrame) -> Result<Self::Response, CodecError> {
        Ok(Self::Response::try_from(frame.body)?)
    }
}

impl<R> Call for R where
    R: Request<Response: TryFrom<ResponseBody, Error = UnexpectedBody<ResponseBody>>> + Into<RequestBody>
{
}
