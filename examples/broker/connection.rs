//! One client connection: frames in, one request at a time (as Kafka
//! does), the SASL gate, dispatch by api key, responses out in order.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use kwire::codec::{CodecError, FrameCodec, RawRequest, ServerCodec};
use kwire::frame::{RequestHead, ResponseFrame};
use kwire::messages::{DefaultPrincipalData, RequestBody, ResponseBody, ResponseHeader};
use kwire::ByteString;
use kwire::Bytes;
use tokio::net::TcpStream;
use tokio_util::codec::Framed;

use crate::controller::ForwardError;
use crate::groups::Client;
use crate::sasl::{Gate, Session};
use crate::state::{now_ms, Stats};
use crate::versions::API_VERSIONS;
use crate::{configs, metadata, partitions, Broker};

/// A connection with no request for this long is closed (Kafka's
/// `connections.max.idle.ms` default).
const IDLE_TIMEOUT: Duration = Duration::from_secs(600);

/// What a handler knows about the connection it serves.
pub struct Context {
    /// The broker.
    pub broker: Arc<Broker>,
    /// The client's address.
    pub peer: SocketAddr,
    /// This connection's number, for the log.
    pub connection: u64,
    /// The client id of the latest request.
    pub client_id: Option<ByteString>,
    /// The authenticated user, with SASL.
    pub user: Option<ByteString>,
}

impl Context {
    /// The client's principal: `User:<name>`, or `User:ANONYMOUS` without SASL.
    pub fn principal(&self) -> DefaultPrincipalData {
        DefaultPrincipalData {
            r#type: "User".into(),
            name: self.user.clone().unwrap_or_else(|| "ANONYMOUS".into()),
            ..Default::default()
        }
    }

    fn client(&self) -> &str {
        self.client_id.as_deref().unwrap_or("")
    }
}

/// What to do after a request.
enum Reply {
    /// Send this response.
    Send(ResponseFrame),
    /// Send this response, then close (failed authentication).
    SendAndClose(ResponseFrame),
    /// Send these bytes as a frame (the SASL answer after SaslHandshake v0).
    SendRaw(Bytes),
    /// Nothing to send (Produce with acks = 0).
    Nothing,
    /// Close without answering.
    Close,
}

/// Serves one connection until the client closes it, it misbehaves, its
/// session expires or it idles for [`IDLE_TIMEOUT`].
pub async fn serve(broker: Arc<Broker>, stream: TcpStream, peer: SocketAddr) {
    let connection = Stats::bump(&broker.cluster.stats.connections);
    let _ = stream.set_nodelay(true);
    // Until SASL authentication succeeds a frame may be at most 512 KiB (Kafka's
    // `sasl.server.max.receive.size`); without SASL every connection is
    // authenticated from the start, as on Kafka's PLAINTEXT listener.
    let mut codec = ServerCodec::with_frames(FrameCodec::with_max_frame_size(broker.config.max_frame_size));
    codec.set_authenticated(!broker.config.sasl());
    let mut framed = Framed::new(stream, codec);
    let mut session = broker.config.sasl().then(Session::new);
    let verbose = broker.config.verbose;
    let mut cx = Context { broker, peer, connection, client_id: None, user: None };
    if verbose {
        log!("connection {connection}: from {peer}");
    }
    loop {
        let request = match tokio::time::timeout(IDLE_TIMEOUT, framed.next()).await {
            Err(_) => {
                log!("connection {connection}: idle for {IDLE_TIMEOUT:?}; closing");
                break;
            }
            Ok(None) => break,
            Ok(Some(Err(CodecError::Io(e)))) if verbose || !quiet_close(&e) => {
                log!("connection {connection}: {e}; closing");
                break;
            }
            Ok(Some(Err(CodecError::Io(_)))) => break,
            Ok(Some(Err(e))) => {
                log!("connection {connection}: {e}; closing");
                break;
            }
            Ok(Some(Ok(request))) => request,
        };
        let reply = handle(&mut cx, &mut session, request).await;
        if cx.user.is_some() && !framed.codec().is_authenticated() {
            framed.codec_mut().set_authenticated(true);
        }
        match reply {
            Reply::Send(response) => match framed.send(response).await {
                Ok(()) => {}
                Err(CodecError::Io(e)) if !verbose && quiet_close(&e) => break,
                Err(e) => {
                    log!("connection {connection}: cannot send a response: {e}; closing");
                    break;
                }
            },
            Reply::SendRaw(bytes) => {
                if framed.send(bytes).await.is_err() {
                    break;
                }
            }
            Reply::SendAndClose(response) => {
                let _ = framed.send(response).await;
                break;
            }
            Reply::Nothing => {}
            Reply::Close => break,
        }
    }
    if verbose {
        log!("connection {connection}: closed");
    }
}

/// A client that went away: not worth a log line unless verbose.
fn quiet_close(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::{BrokenPipe, ConnectionAborted, ConnectionReset};
    matches!(e.kind(), BrokenPipe | ConnectionReset | ConnectionAborted)
}

fn respond(correlation_id: i32, body: impl Into<ResponseBody>, version: i16) -> ResponseFrame {
    ResponseFrame { header: ResponseHeader { correlation_id, ..Default::default() }, body: body.into(), version }
}

fn api_name(api_key: i16) -> &'static str {
    kwire::api::api_info(api_key).map_or("unknown api", |info| info.name)
}

async fn handle(cx: &mut Context, session: &mut Option<Session>, raw: RawRequest) -> Reply {
    let RequestHead { api_key, api_version: version, correlation_id } = raw.head();
    let broker = Arc::clone(&cx.broker);
    if let Some(session) = session.as_mut().filter(|s| s.expects_raw_token()) {
        // After SaslHandshake v0 the next frame is a bare SASL token.
        let config = &broker.config;
        return match session.authenticate_raw(raw.as_bytes(), &config.users, config.reauth_ms, now_ms()) {
            Ok(event) => {
                Stats::bump(&broker.cluster.stats.authentications);
                log!(
                    "sasl: authenticated User:{} on connection {} (client {:?}, SaslHandshake v0 and a bare token, session {} ms)",
                    event.user,
                    cx.connection,
                    cx.client(),
                    event.session_lifetime_ms
                );
                cx.user = Some(event.user);
                Reply::SendRaw(Bytes::new())
            }
            Err(reason) => {
                log!("sasl: authentication failed on connection {}: {reason}; closing", cx.connection);
                Reply::Close
            }
        };
    }
    let range = broker.versions.range(api_key);
    if api_key == API_VERSIONS && !range.is_some_and(|r| r.contains(version)) {
        // A newer ApiVersions than ours: a v0 body with UNSUPPORTED_VERSION
        // and our range, which every client can read and retry from.
        log!(
            "connection {}: ApiVersions v{version} is not served; answered v0 with UNSUPPORTED_VERSION (35)",
            cx.connection
        );
        return Reply::Send(respond(correlation_id, broker.versions.unsupported_response(), 0));
    }
    if !range.is_some_and(|r| r.contains(version)) {
        log!(
            "connection {}: {} (api key {api_key}) v{version} is not served; closing",
            cx.connection,
            api_name(api_key)
        );
        return Reply::Close;
    }
    // The SASL gate goes by the head alone: before authentication only
    // ApiVersions, SaslHandshake and SaslAuthenticate are decoded at all.
    if let Some(session) = session.as_ref() {
        let now = now_ms();
        match session.gate(api_key, now) {
            Gate::Allow => {}
            Gate::Close(reason) => {
                log!("connection {}: {} v{version}: {reason}; closing", cx.connection, api_name(api_key));
                return Reply::Close;
            }
            Gate::Expired => {
                let n = Stats::bump(&broker.cluster.stats.expired_sessions);
                log!(
                    "sasl: session of {} on connection {} (client {:?}) expired {} ms ago; closing it on {} (expired sessions: {n})",
                    session.user().unwrap_or("?"),
                    cx.connection,
                    cx.client(),
                    session.expired_for_ms(now),
                    api_name(api_key)
                );
                return Reply::Close;
            }
        }
    }
    // Bytes after the body are ignored, as Kafka does (librdkafka 2.16
    // sends three in its Metadata v12 for all topics).
    let frame = match raw.decode_lenient() {
        Ok((frame, trailing)) => {
            if trailing > 0 && broker.config.verbose {
                log!(
                    "connection {}: {trailing} bytes after a {} v{version} request, ignored",
                    cx.connection,
                    api_name(api_key)
                );
            }
            frame
        }
        Err(e) => {
            let bytes = raw.as_bytes();
            let shown: String = bytes.iter().take(256).map(|b| format!("{b:02x}")).collect();
            log!(
                "connection {}: malformed {} v{version} request: {e}; closing (request bytes: {shown}{})",
                cx.connection,
                api_name(api_key),
                if bytes.len() > 256 { "..." } else { "" }
            );
            return Reply::Close;
        }
    };
    cx.client_id = frame.header.client_id.clone();
    if broker.config.verbose {
        log!("connection {}: {} v{version} #{correlation_id} from {:?}", cx.connection, api_name(api_key), cx.client());
    }
    let reply = |body: ResponseBody| Reply::Send(respond(correlation_id, body, version));
    match frame.body {
        RequestBody::ApiVersions(request) => {
            let body = broker.versions.response(&request, version);
            if body.error_code != 0 {
                log!(
                    "connection {}: ApiVersions v{version} with client software {:?} {:?}: INVALID_REQUEST (42)",
                    cx.connection,
                    request.client_software_name,
                    request.client_software_version
                );
            }
            reply(body.into())
        }
        RequestBody::SaslHandshake(request) => {
            let Some(session) = session.as_mut() else { return Reply::Close };
            let (body, close) = session.handshake(&request, version);
            let frame = respond(correlation_id, body, version);
            if close {
                Reply::SendAndClose(frame)
            } else {
                Reply::Send(frame)
            }
        }
        RequestBody::SaslAuthenticate(request) => {
            let Some(session) = session.as_mut() else { return Reply::Close };
            let config = &broker.config;
            let (body, close, event) =
                session.authenticate(&request, version, &config.users, config.reauth_ms, now_ms());
            if let Some(event) = event {
                let stats = &broker.cluster.stats;
                Stats::bump(&stats.authentications);
                if event.reauthentication {
                    let n = Stats::bump(&stats.reauthentications);
                    log!(
                        "sasl: re-authenticated User:{} on connection {} (client {:?}, SaslAuthenticate v{version}, session {} ms; re-authentications: {n})",
                        event.user,
                        cx.connection,
                        cx.client(),
                        event.session_lifetime_ms
                    );
                } else {
                    log!(
                        "sasl: authenticated User:{} on connection {} (client {:?}, SaslAuthenticate v{version}, session {} ms)",
                        event.user,
                        cx.connection,
                        cx.client(),
                        event.session_lifetime_ms
                    );
                }
                cx.user = Some(event.user);
            } else {
                log!(
                    "sasl: authentication failed on connection {} (client {:?}): error {}",
                    cx.connection,
                    cx.client(),
                    body.error_code
                );
            }
            let frame = respond(correlation_id, body, version);
            if close {
                Reply::SendAndClose(frame)
            } else {
                Reply::Send(frame)
            }
        }
        RequestBody::Metadata(request) => reply(metadata::handle(cx, &request, version).await.into()),
        RequestBody::DescribeCluster(request) => reply(metadata::describe_cluster(cx, &request).into()),
        RequestBody::DescribeConfigs(request) => {
            reply(configs::describe(&broker.cluster, &broker.config, broker.port, &request, version).into())
        }
        body @ (RequestBody::CreateTopics(_)
        | RequestBody::DeleteTopics(_)
        | RequestBody::AlterConfigs(_)
        | RequestBody::IncrementalAlterConfigs(_)) => match forward(cx, raw.into_bytes(), &body, version).await {
            Some(answer) => reply(answer),
            None => Reply::Close,
        },
        RequestBody::Produce(request) => match partitions::produce(cx, &request).await {
            Some(body) => reply(body.into()),
            None => Reply::Nothing,
        },
        RequestBody::Fetch(request) => reply(partitions::fetch(cx, &request, version).await.into()),
        RequestBody::ListOffsets(request) => reply(partitions::list_offsets(cx, &request, version).await.into()),
        RequestBody::InitProducerId(request) => reply(partitions::init_producer_id(cx, &request).into()),
        RequestBody::FindCoordinator(request) => reply(broker.groups.find_coordinator(&request, version).into()),
        RequestBody::JoinGroup(request) => {
            let client = Client { client_id: cx.client(), host: format!("/{}", cx.peer.ip()).into() };
            reply(broker.groups.join(client, &request, version).await.into())
        }
        RequestBody::SyncGroup(request) => reply(broker.groups.sync(&request, version).await.into()),
        RequestBody::Heartbeat(request) => reply(broker.groups.heartbeat(&request).into()),
        RequestBody::LeaveGroup(request) => reply(broker.groups.leave(&request, version).into()),
        RequestBody::OffsetCommit(request) => reply(broker.groups.commit(&broker.cluster, &request).into()),
        RequestBody::OffsetFetch(request) => reply(broker.groups.fetch_offsets(&request, version).into()),
        RequestBody::DescribeGroups(request) => reply(broker.groups.describe(&request).into()),
        RequestBody::ListGroups(request) => reply(broker.groups.list(&request).into()),
        other => {
            log!("connection {}: no handler for {}; closing", cx.connection, other.api_key().info().name);
            Reply::Close
        }
    }
}

/// Sends an admin write to the controller in an Envelope (KIP-590) and
/// returns the client's answer; `None` when the client's connection is to
/// be closed instead (the controller refused the envelope's version, or not
/// even an error answer can be built).
async fn forward(cx: &Context, request: Bytes, body: &RequestBody, version: i16) -> Option<ResponseBody> {
    let broker = &cx.broker;
    let principal = cx.principal();
    let n = Stats::bump(&broker.cluster.stats.forwarded);
    log!(
        "forward: {} v{version} from {}:{} (client {:?}) to the controller in an Envelope (forwarded: {n})",
        body.api_key().info().name,
        principal.r#type,
        principal.name,
        cx.client()
    );
    match broker.controller.forward(request, &principal, cx.peer.ip()).await {
        Ok(answer) => Some(answer),
        Err(ForwardError::CloseConnection) => {
            log!("forward: the controller refused the envelope's version; closing the client's connection");
            None
        }
        Err(e) => {
            log!("forward: failed: {e}");
            kwire_broker::forward::error_response(body, version, e.error_code()).ok()
        }
    }
}
