//! A blocking Kafka connection built on kwire's frames, for the tests
//! that talk to a real broker or controller (`interop/scripts/kafka-cluster.sh`):
//! one request at a time, a 4-byte size before each frame both ways.
//!
//! [`Conn::open`] only connects; [`Conn::connect`] also negotiates versions
//! with ApiVersions v3, for [`Conn::call`]. Only core api keys (ApiVersions,
//! SaslHandshake, SaslAuthenticate) are named here, so that it builds with
//! every feature set the tests are built with; interop/tests/common/fetch.rs adds
//! Metadata, ListOffsets and Fetch.
#![allow(dead_code)]

use std::io::{self, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use kwire::api::{negotiate, Negotiated};
use kwire::frame;
use kwire::message::Request;
use kwire::messages::{
    ApiVersionsRequest, RequestBody, RequestHeader, ResponseBody, SaslAuthenticateRequest, SaslAuthenticateResponse,
    SaslHandshakeRequest,
};
use kwire::{Bytes, BytesMut};

/// The largest response a test expects.
const MAX_RESPONSE: usize = 64 << 20;

/// A blocking connection to one broker or controller.
pub struct Conn {
    stream: TcpStream,
    /// The client id of every request's header.
    pub client_id: String,
    next_correlation_id: i32,
    negotiated: Negotiated,
}

/// The ApiVersions request [`Conn::connect`] sends (v3).
pub fn api_versions() -> ApiVersionsRequest {
    ApiVersionsRequest {
        client_software_name: "kwire-tests".into(),
        client_software_version: "0".into(),
        ..Default::default()
    }
}

/// SaslAuthenticate with a SASL/PLAIN token for `user` and `password`.
pub fn plain_authenticate(user: &str, password: &str) -> SaslAuthenticateRequest {
    SaslAuthenticateRequest { auth_bytes: Bytes::from(format!("\0{user}\0{password}")), ..Default::default() }
}

impl Conn {
    /// Connects to `addr` (30 s read and write timeouts, no delay); no
    /// request sent yet.
    pub fn open(addr: &str, client_id: &str) -> Conn {
        let stream = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect {addr}: {e}"));
        stream.set_read_timeout(Some(Duration::from_secs(30))).expect("read timeout");
        stream.set_write_timeout(Some(Duration::from_secs(30))).expect("write timeout");
        stream.set_nodelay(true).expect("nodelay");
        Conn { stream, client_id: client_id.to_string(), next_correlation_id: 1, negotiated: Negotiated::default() }
    }

    /// Connects to `addr` and negotiates versions with ApiVersions v3.
    pub fn connect(addr: &str, client_id: &str) -> Conn {
        let mut conn = Conn::open(addr, client_id);
        let versions = conn.call_at(api_versions(), 3);
        conn.negotiated = negotiate(&versions).unwrap_or_else(|e| panic!("ApiVersions: {e}"));
        conn
    }

    /// The highest version of `R` both sides speak (after [`Conn::connect`]).
    pub fn version<R: Request>(&self) -> i16 {
        kwire::api::ApiKey::try_from(R::API_KEY)
            .ok()
            .and_then(|key| self.negotiated.version(key))
            .unwrap_or_else(|| panic!("no common version of api key {}", R::API_KEY))
    }

    /// A fresh correlation id (1, 2, ...), for the next request.
    pub fn correlation_id(&mut self) -> i32 {
        let id = self.next_correlation_id;
        self.next_correlation_id += 1;
        id
    }

    /// Writes one frame (`frame` is header and body; the size goes before).
    pub fn send(&mut self, frame: &[u8]) -> io::Result<()> {
        let size = u32::try_from(frame.len()).expect("a frame under 4 GiB");
        let mut wire = Vec::with_capacity(4 + frame.len());
        wire.extend_from_slice(&size.to_be_bytes());
        wire.extend_from_slice(frame);
        self.stream.write_all(&wire)
    }

    /// Reads one frame (without its size); an error when the peer closes
    /// instead.
    pub fn receive(&mut self) -> io::Result<Bytes> {
        let mut size = [0u8; 4];
        self.stream.read_exact(&mut size)?;
        let size = u32::from_be_bytes(size) as usize;
        assert!(size < MAX_RESPONSE, "response of {size} bytes");
        let mut frame = vec![0u8; size];
        self.stream.read_exact(&mut frame)?;
        Ok(frame.into())
    }

    /// [`Conn::send`], then [`Conn::receive`].
    pub fn round_trip(&mut self, frame: &[u8]) -> io::Result<Bytes> {
        self.send(frame)?;
        self.receive()
    }

    /// The frame of `body` at `version` under a header with the next
    /// correlation id and this connection's client id.
    fn request_frame(&mut self, api_key: i16, version: i16, body: &RequestBody) -> (RequestHeader, BytesMut) {
        let header = RequestHeader {
            request_api_key: api_key,
            request_api_version: version,
            correlation_id: self.correlation_id(),
            client_id: Some(self.client_id.clone().into()),
            ..Default::default()
        };
        let mut buf = BytesMut::new();
        frame::RequestFrame::encode_parts(&header, body, &mut buf).expect("encode request");
        (header, buf)
    }

    /// Decodes the answer to `header`'s request: its correlation id must be
    /// the request's, its body a `R::Response`.
    fn response<R>(answer: Bytes, header: &RequestHeader) -> R::Response
    where
        R: Request,
        R::Response: TryFrom<ResponseBody>,
    {
        let response = frame::ResponseFrame::decode(
            answer,
            kwire::api::ApiKey::try_from(R::API_KEY).expect("a known api key"),
            header.request_api_version,
        )
        .expect("decode response");
        assert_eq!(response.header.correlation_id, header.correlation_id);
        R::Response::try_from(response.body).unwrap_or_else(|_| panic!("api key {}: another body", R::API_KEY))
    }

    /// Sends `request` at the highest common version; the response.
    pub fn call<R>(&mut self, request: R) -> R::Response
    where
        R: Request + Into<RequestBody>,
        R::Response: TryFrom<ResponseBody>,
    {
        let version = self.version::<R>();
        self.call_at(request, version)
    }

    /// Sends `request` at `version`; the response.
    pub fn call_at<R>(&mut self, request: R, version: i16) -> R::Response
    where
        R: Request + Into<RequestBody>,
        R::Response: TryFrom<ResponseBody>,
    {
        let (header, frame) = self.request_frame(R::API_KEY, version, &request.into());
        let answer =
            self.round_trip(&frame).unwrap_or_else(|e| panic!("api key {} v{version}: no response: {e}", R::API_KEY));
        Self::response::<R>(answer, &header)
    }

    /// Sends `request` at `version`: the response, or `None` when the peer
    /// closed the connection instead of answering (sending failed, or the
    /// answer's read met the end of the stream or a reset).
    ///
    /// # Panics
    /// When reading fails otherwise (a timeout: neither an answer nor a close).
    pub fn call_or_closed<R>(&mut self, request: R, version: i16) -> Option<R::Response>
    where
        R: Request + Into<RequestBody>,
        R::Response: TryFrom<ResponseBody>,
    {
        let (header, frame) = self.request_frame(R::API_KEY, version, &request.into());
        self.send(&frame).ok()?;
        match self.receive() {
            Ok(answer) => Some(Self::response::<R>(answer, &header)),
            Err(e) if matches!(e.kind(), ErrorKind::UnexpectedEof | ErrorKind::ConnectionReset) => None,
            Err(e) => panic!("api key {}: neither an answer nor a close: {e}", R::API_KEY),
        }
    }

    /// SASL/PLAIN: SaslHandshake v1, then SaslAuthenticate v2, both
    /// succeeding; the SaslAuthenticate response (the session lifetime).
    pub fn sasl_plain(&mut self, user: &str, password: &str) -> SaslAuthenticateResponse {
        let handshake = self.call_at(SaslHandshakeRequest { mechanism: "PLAIN".into() }, 1);
        assert_eq!(handshake.error_code, 0, "SaslHandshake: {handshake:?}");
        let auth = self.call_at(plain_authenticate(user, password), 2);
        assert_eq!(auth.error_code, 0, "SaslAuthenticate as {user}: {auth:?}");
        auth
    }
}
