//! A transparent Kafka relay on kwire and tokio that decodes what it
//! passes: put it between a Kafka client and a broker (or, as
//! `scripts/kafka-cluster.sh` does with `KAFKA_CLUSTER_RELAY=1`, between a
//! KRaft broker and its controller) and it logs every frame, one JSON line
//! each, while the bytes go through unchanged.
//!
//! ```text
//! cargo run --features tokio --example envelope_relay -- \
//!     --listen 127.0.0.1:19096 --upstream 127.0.0.1:19094 --frames frames.jsonl
//! ```
//!
//! For each accepted connection it connects to `--upstream` and copies
//! bytes both ways as they arrive. Beside the copy it cuts the byte stream
//! into frames ([`FrameCodec`]), decodes requests by their own header and
//! responses by the request they answer (a [`Correlator`] per connection),
//! and writes one line per frame:
//!
//! ```json
//! {"conn":3,"dir":"request","api_key":58,"api_version":0,"correlation_id":17,"size":180,
//!  "decoded":true,"reencoded_same":true,
//!  "envelope":{"unwrapped":true,"principal_type":"User","principal_name":"ANONYMOUS",
//!              "token_authenticated":false,"client_address":"127.0.0.1",
//!              "inner_api_key":19,"inner_api_version":7,"inner_correlation_id":4,
//!              "inner_decoded":true,"inner_reencoded_same":true}}
//! ```
//!
//! - `decoded` is whether header and body decoded; `error` says why not
//!   (and `correlator_error` when a request could not even be recorded).
//! - `reencoded_same` is whether encoding the decoded header and body again
//!   gives the frame's bytes exactly.
//! - For an EnvelopeRequest (api key 58, KIP-590) `envelope` is what
//!   [`forward::unwrap_request`] read: the client's principal and address and
//!   the embedded request, whose re-encoding is compared with `RequestData`
//!   (`inner_reencoded_same`); or, when it refuses the envelope, `error` and
//!   the `refusal_error_code` a controller would answer with. For an
//!   EnvelopeResponse it is what [`forward::unwrap_response`] made of the
//!   controller's answer to that embedded request (`outcome`: `response`,
//!   `retry_on_new_controller` or `error_to_client`, with the envelope's
//!   `error_code`, and for a response `inner_reencoded_same` against
//!   `ResponseData`).
//! - A line with `dir` `"stream"` reports a byte stream that can no longer be
//!   cut into frames (a negative or oversized size): decoding stops for that
//!   direction of that connection, the bytes keep flowing.
//!
//! - For a JoinGroup or SyncGroup of a Kafka Connect group (protocol type
//!   `connect`; built with the `connect` feature) `connect` holds the
//!   Connect blobs decoded with kwire-connect's schemas: each offered
//!   protocol's worker metadata (JoinGroup request), each member's metadata
//!   (JoinGroup response, for the leader), each member's assignment
//!   (SyncGroup request, from the leader) and the member's own assignment
//!   (SyncGroup response). A metadata summary reads
//!   `{"decoded":true,"version":2,"url":...,"config_offset":...,
//!   "allocation":{...}|null,"reencoded_same":true}`, an assignment summary
//!   `{"decoded":true,"version":2,"error":0,"leader":...,"leader_url":...,
//!   "config_offset":...,"assignment_null":false,"connectors":1,"tasks":2,
//!   "revoked_connectors":0,"revoked_tasks":0,"delay":0,"reencoded_same":true}`;
//!   `reencoded_same` is whether encoding the decoded body again, at the
//!   decoded version, gives the blob exactly. An empty blob (the assignment
//!   of a failed SyncGroup) is `{"empty":true}`. Responses of JoinGroup
//!   before v7 and SyncGroup before v5 name no protocol type: the relay goes
//!   by the group's JoinGroup request seen earlier on the same connection.
//!
//! A bad frame never stops the relay: it is logged and passed on like any
//! other. The relay does not follow SASL: after a SaslHandshake v0 the
//! tokens travel without a request header and are logged as frames that do
//! not decode.

use std::collections::HashMap;
use std::fs::File;
use std::io::{LineWriter, Write};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use kwire::codec::{Correlated, Correlator, FrameCodec};
use kwire::frame::{self, RequestFrame, ResponseFrame};
use kwire::messages::{EnvelopeRequest, EnvelopeResponse, RequestBody, ResponseBody};
use kwire::{Bytes, BytesMut};
use kwire_broker::forward::{self, ForwardOutcome, ForwardedRequest};
use serde_json::{json, Map, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::Decoder;

const USAGE: &str = "\
kwire envelope relay: passes Kafka connections through unchanged and logs every frame.

usage: envelope_relay --listen HOST:PORT --upstream HOST:PORT [--frames FILE]

  --listen HOST:PORT    address to accept connections on
  --upstream HOST:PORT  the broker or controller to connect each of them to
  --frames FILE         where to write one JSON line per frame (default: stdout)
";

/// Command-line settings.
struct Args {
    listen: String,
    upstream: String,
    frames: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut listen = None;
    let mut upstream = None;
    let mut frames = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--listen" => listen = Some(value()?),
            "--upstream" => upstream = Some(value()?),
            "--frames" => frames = Some(value()?),
            "--help" | "-h" => return Err(String::new()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(Args {
        listen: listen.ok_or("--listen is required")?,
        upstream: upstream.ok_or("--upstream is required")?,
        frames,
    })
}

/// Where the JSON lines go; shared by every connection, one line at a time.
#[derive(Clone)]
struct FrameLog(Arc<Mutex<Box<dyn Write + Send>>>);

impl FrameLog {
    fn write(&self, line: Value) {
        // A poisoned lock only means another task panicked mid-line; keep logging.
        let mut out = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Err(e) = writeln!(out, "{line}") {
            eprintln!("envelope_relay: cannot write a frame line: {e}");
        }
    }
}

/// What the two directions of one connection share: the requests in flight
/// (to decode responses) and the client requests inside Envelopes, by the
/// envelope's correlation id (to unwrap the EnvelopeResponses).
#[derive(Default)]
struct Pending {
    correlator: Correlator,
    envelopes: HashMap<i32, ForwardedRequest>,
    /// JoinGroup and SyncGroup requests in flight: correlation id to group id.
    group_requests: HashMap<i32, kwire::ByteString>,
    /// Protocol type of each group, as its JoinGroup requests named it.
    group_types: HashMap<kwire::ByteString, kwire::ByteString>,
}

type Shared = Arc<Mutex<Pending>>;

fn lock(shared: &Shared) -> std::sync::MutexGuard<'_, Pending> {
    shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// Client to upstream.
    Request,
    /// Upstream to client.
    Response,
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("envelope_relay: {message}");
            }
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let out: Box<dyn Write + Send> = match &args.frames {
        Some(path) => match File::create(path) {
            Ok(file) => Box::new(LineWriter::new(file)),
            Err(e) => {
                eprintln!("envelope_relay: cannot create {path}: {e}");
                return ExitCode::FAILURE;
            }
        },
        None => Box::new(LineWriter::new(std::io::stdout())),
    };
    let log = FrameLog(Arc::new(Mutex::new(out)));
    let listener = match TcpListener::bind(&args.listen).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("envelope_relay: cannot listen on {}: {e}", args.listen);
            return ExitCode::FAILURE;
        }
    };
    let bound = listener.local_addr().map_or_else(|_| args.listen.clone(), |a| a.to_string());
    eprintln!("envelope_relay: listening on {bound}, relaying to {}", args.upstream);

    let mut next_conn = 0u64;
    loop {
        let (client, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                eprintln!("envelope_relay: accept failed: {e}");
                continue;
            }
        };
        next_conn += 1;
        let conn = next_conn;
        let upstream = args.upstream.clone();
        let log = log.clone();
        tokio::spawn(async move {
            let server = match TcpStream::connect(&upstream).await {
                Ok(server) => server,
                Err(e) => {
                    eprintln!("envelope_relay: conn {conn} from {peer}: cannot connect to {upstream}: {e}");
                    return;
                }
            };
            eprintln!("envelope_relay: conn {conn}: {peer} <-> {upstream}");
            let _ = client.set_nodelay(true);
            let _ = server.set_nodelay(true);
            let (client_rx, client_tx) = client.into_split();
            let (server_rx, server_tx) = server.into_split();
            let shared = Shared::default();
            let up = pump(conn, Direction::Request, client_rx, server_tx, shared.clone(), log.clone());
            let down = pump(conn, Direction::Response, server_rx, client_tx, shared, log);
            let (up, down) = tokio::join!(up, down);
            eprintln!("envelope_relay: conn {conn} closed (client side: {up}; upstream side: {down})");
        });
    }
}

/// Copies one direction of a connection, `from` to `to`, decoding the
/// frames as they complete. Returns how the copy ended.
///
/// Frames are recorded (requests in the correlator) *before* the bytes
/// that complete them are written on, so a response can never overtake the
/// record of its request.
async fn pump(
    conn: u64,
    dir: Direction,
    mut from: OwnedReadHalf,
    mut to: OwnedWriteHalf,
    shared: Shared,
    log: FrameLog,
) -> String {
    let mut codec = Some(FrameCodec::new());
    let mut pending = BytesMut::new();
    let mut chunk = vec![0u8; 64 * 1024];
    let ended = loop {
        let n = match from.read(&mut chunk).await {
            Ok(0) => break "end of stream".to_string(),
            Ok(n) => n,
            Err(e) => break format!("read error: {e}"),
        };
        if let Some(frames) = codec.as_mut() {
            pending.extend_from_slice(&chunk[..n]);
            loop {
                match frames.decode(&mut pending) {
                    Ok(Some(frame)) => log.write(describe(conn, dir, frame, &shared)),
                    Ok(None) => break,
                    Err(e) => {
                        // Out of step for good: stop decoding, keep copying.
                        log.write(json!({"conn": conn, "dir": "stream", "stream": dir.name(), "error": e.to_string()}));
                        codec = None;
                        pending = BytesMut::new();
                        break;
                    }
                }
            }
        }
        if let Err(e) = to.write_all(&chunk[..n]).await {
            break format!("write error: {e}");
        }
    };
    // Pass the end of stream on, so the other side sees the close.
    let _ = to.shutdown().await;
    ended
}

impl Direction {
    fn name(self) -> &'static str {
        match self {
            Direction::Request => "request",
            Direction::Response => "response",
        }
    }
}

/// One JSON line for one frame (without its size prefix).
fn describe(conn: u64, dir: Direction, frame: Bytes, shared: &Shared) -> Value {
    let mut line = Map::new();
    line.insert("conn".into(), conn.into());
    line.insert("dir".into(), dir.name().into());
    line.insert("size".into(), frame.len().into());
    match dir {
        Direction::Request => describe_request(&mut line, frame, shared),
        Direction::Response => describe_response(&mut line, frame, shared),
    }
    Value::Object(line)
}

fn describe_request(line: &mut Map<String, Value>, frame: Bytes, shared: &Shared) {
    // Record first: even a request that does not decode gets a response.
    let recorded = lock(shared).correlator.track_request(&frame);
    if let Err(e) = &recorded {
        line.insert("correlator_error".into(), e.to_string().into());
    }
    if let Ok(head) = frame::RequestHead::parse(&frame) {
        line.insert("api_key".into(), head.api_key.into());
        line.insert("api_version".into(), head.api_version.into());
        line.insert("correlation_id".into(), head.correlation_id.into());
    }
    let request = match frame::RequestFrame::decode(frame.clone()) {
        Ok(request) => request,
        Err(e) => {
            line.insert("decoded".into(), false.into());
            line.insert("error".into(), format!("request: {e}").into());
            return;
        }
    };
    line.insert("decoded".into(), true.into());
    line.insert("reencoded_same".into(), request_reencodes(&request, &frame).into());
    if let RequestBody::Envelope(envelope) = &request.body {
        let summary = unwrap_envelope_request(envelope, request.header.correlation_id, shared);
        line.insert("envelope".into(), summary);
    }
    if let Some(summary) = connect::request(&request.body, request.header.correlation_id, shared) {
        line.insert("connect".into(), summary);
    }
}

fn describe_response(line: &mut Map<String, Value>, frame: Bytes, shared: &Shared) {
    let answered: Correlated = match lock(shared).correlator.match_response(&frame) {
        Ok(answered) => answered,
        Err(e) => {
            if let Some(id) = frame.first_chunk::<4>() {
                line.insert("correlation_id".into(), i32::from_be_bytes(*id).into());
            }
            line.insert("decoded".into(), false.into());
            line.insert("error".into(), format!("response: no request to pair it with: {e}").into());
            return;
        }
    };
    line.insert("api_key".into(), answered.api_key.into());
    line.insert("api_version".into(), answered.api_version.into());
    line.insert("correlation_id".into(), answered.correlation_id.into());
    let response = match frame::ResponseFrame::decode(
        frame.clone(),
        kwire::api::ApiKey::try_from(answered.api_key).expect("a known api key"),
        answered.api_version,
    ) {
        Ok(response) => response,
        Err(e) => {
            line.insert("decoded".into(), false.into());
            line.insert("error".into(), format!("response: {e}").into());
            return;
        }
    };
    line.insert("decoded".into(), true.into());
    line.insert("reencoded_same".into(), response_reencodes(&response, &frame).into());
    if let ResponseBody::Envelope(envelope) = &response.body {
        let forwarded = lock(shared).envelopes.remove(&answered.correlation_id);
        let summary = match forwarded {
            Some(forwarded) => unwrap_envelope_response(envelope, &forwarded),
            None => {
                json!({"unwrapped": false, "error": "the envelope request was not unwrapped, so its answer cannot be read"})
            }
        };
        line.insert("envelope".into(), summary);
    }
    if let Some(summary) = connect::response(&response.body, answered.correlation_id, shared) {
        line.insert("connect".into(), summary);
    }
}

/// What [`forward::unwrap_request`] reads from an EnvelopeRequest; the
/// embedded request is kept to read the EnvelopeResponse with.
fn unwrap_envelope_request(envelope: &EnvelopeRequest, correlation_id: i32, shared: &Shared) -> Value {
    let inner = envelope.request_data.as_bytes();
    let mut summary = Map::new();
    if let Ok(head) = frame::RequestHead::parse(inner) {
        summary.insert("inner_api_key".into(), head.api_key.into());
        summary.insert("inner_api_version".into(), head.api_version.into());
    }
    match forward::unwrap_request(envelope) {
        Ok(unwrapped) => {
            summary.insert("unwrapped".into(), true.into());
            summary.insert("principal_type".into(), unwrapped.principal.r#type.to_string().into());
            summary.insert("principal_name".into(), unwrapped.principal.name.to_string().into());
            summary.insert("token_authenticated".into(), unwrapped.principal.token_authenticated.into());
            summary.insert("client_address".into(), unwrapped.client_address.to_string().into());
            summary.insert("inner_correlation_id".into(), unwrapped.header.correlation_id.into());
            summary.insert("inner_client_id".into(), unwrapped.header.client_id.as_deref().map(str::to_owned).into());
            summary.insert("inner_decoded".into(), true.into());
            let forwarded = ForwardedRequest { header: unwrapped.header, body: unwrapped.body };
            let same = request_reencodes(
                &RequestFrame { header: forwarded.header.clone(), body: forwarded.body.clone() },
                inner,
            );
            summary.insert("inner_reencoded_same".into(), same.into());
            lock(shared).envelopes.insert(correlation_id, forwarded);
        }
        Err(e) => {
            summary.insert("unwrapped".into(), false.into());
            summary.insert("error".into(), format!("unwrap_request: {e}").into());
            summary.insert("refusal_error_code".into(), e.error_code().code().into());
        }
    }
    Value::Object(summary)
}

/// What [`forward::unwrap_response`] makes of an EnvelopeResponse.
fn unwrap_envelope_response(envelope: &EnvelopeResponse, forwarded: &ForwardedRequest) -> Value {
    let mut summary = Map::new();
    summary.insert("inner_api_key".into(), forwarded.api_key().code().into());
    summary.insert("inner_api_version".into(), forwarded.api_version().into());
    summary.insert("error_code".into(), envelope.error_code.into());
    match forward::unwrap_response(envelope, forwarded) {
        Ok(ForwardOutcome::Response(header, body)) => {
            summary.insert("unwrapped".into(), true.into());
            summary.insert("outcome".into(), "response".into());
            summary.insert("inner_correlation_id".into(), header.correlation_id.into());
            summary.insert("inner_decoded".into(), true.into());
            let inner = ResponseFrame { header, body, version: forwarded.api_version() };
            let same = envelope.response_data.as_ref().is_some_and(|data| response_reencodes(&inner, data.as_bytes()));
            summary.insert("inner_reencoded_same".into(), same.into());
        }
        Ok(ForwardOutcome::RetryOnNewController) => {
            summary.insert("unwrapped".into(), true.into());
            summary.insert("outcome".into(), "retry_on_new_controller".into());
        }
        Ok(ForwardOutcome::ErrorToClient(_)) => {
            summary.insert("unwrapped".into(), true.into());
            summary.insert("outcome".into(), "error_to_client".into());
        }
        Err(e) => {
            summary.insert("unwrapped".into(), false.into());
            summary.insert("error".into(), format!("unwrap_response: {e}").into());
        }
    }
    Value::Object(summary)
}

/// Whether encoding a decoded request again gives `original` exactly.
fn request_reencodes(request: &RequestFrame, original: &[u8]) -> bool {
    let mut buf = BytesMut::with_capacity(original.len());
    frame::RequestFrame::encode_parts(&request.header, &request.body, &mut buf).is_ok() && buf[..] == *original
}

/// Whether encoding a decoded response again gives `original` exactly.
fn response_reencodes(response: &ResponseFrame, original: &[u8]) -> bool {
    let mut buf = BytesMut::with_capacity(original.len());
    frame::ResponseFrame::encode_parts(&response.header, &response.body, response.version, &mut buf).is_ok()
        && buf[..] == *original
}

/// The Connect group protocol blobs of JoinGroup and SyncGroup (KIP-415,
/// KIP-507), decoded with kwire-connect's schemas.
mod connect {
    use super::{lock, Shared};
    use kwire::messages::{RequestBody, ResponseBody};
    use kwire::Bytes;
    use kwire_connect::messages::ConnectAssignment;
    use kwire_connect::protocol::{
        assignment_to_bytes, decode_allocation, decode_assignment, decode_worker_metadata, worker_metadata_to_bytes,
    };
    use serde_json::{json, Map, Value};

    const CONNECT: &str = "connect";

    /// Remembers the group of a JoinGroup or SyncGroup request (and the
    /// protocol type a JoinGroup names); for a Connect group, the summary.
    pub(super) fn request(body: &RequestBody, correlation_id: i32, shared: &Shared) -> Option<Value> {
        match body {
            RequestBody::JoinGroup(join) => {
                {
                    let mut pending = lock(shared);
                    pending.group_requests.insert(correlation_id, join.group_id.clone());
                    pending.group_types.insert(join.group_id.clone(), join.protocol_type.clone());
                }
                if join.protocol_type != CONNECT {
                    return None;
                }
                let protocols: Vec<Value> =
                    join.protocols.iter().map(|p| json!({"name": p.name, "metadata": metadata(&p.metadata)})).collect();
                Some(json!({
                    "group_id": join.group_id,
                    "member_id": join.member_id,
                    "protocol_type": join.protocol_type,
                    "protocols": protocols,
                }))
            }
            RequestBody::SyncGroup(sync) => {
                let is_connect = {
                    let mut pending = lock(shared);
                    pending.group_requests.insert(correlation_id, sync.group_id.clone());
                    match &sync.protocol_type {
                        Some(t) => t == CONNECT,
                        None => pending.group_types.get(&sync.group_id).is_some_and(|t| t == CONNECT),
                    }
                };
                if !is_connect {
                    return None;
                }
                let assignments: Vec<Value> = sync
                    .assignments
                    .iter()
                    .map(|a| json!({"member_id": a.member_id, "assignment": assignment(&a.assignment)}))
                    .collect();
                Some(json!({
                    "group_id": sync.group_id,
                    "member_id": sync.member_id,
                    "generation_id": sync.generation_id,
                    "protocol_name": sync.protocol_name,
                    "assignments": assignments,
                }))
            }
            _ => None,
        }
    }

    /// For the answer to a Connect group's JoinGroup or SyncGroup, the summary.
    pub(super) fn response(body: &ResponseBody, correlation_id: i32, shared: &Shared) -> Option<Value> {
        let named = match body {
            ResponseBody::JoinGroup(join) => join.protocol_type.clone(),
            ResponseBody::SyncGroup(sync) => sync.protocol_type.clone(),
            _ => return None,
        };
        let group_id = {
            let mut pending = lock(shared);
            let group_id = pending.group_requests.remove(&correlation_id);
            let remembered = group_id.as_ref().and_then(|g| pending.group_types.get(g)).cloned();
            if named.or(remembered).as_deref() != Some(CONNECT) {
                return None;
            }
            group_id
        };
        match body {
            ResponseBody::JoinGroup(join) => {
                let members: Vec<Value> = join
                    .members
                    .iter()
                    .map(|m| json!({"member_id": m.member_id, "metadata": metadata(&m.metadata)}))
                    .collect();
                Some(json!({
                    "group_id": group_id,
                    "error_code": join.error_code,
                    "generation_id": join.generation_id,
                    "protocol_name": join.protocol_name,
                    "leader": join.leader,
                    "member_id": join.member_id,
                    "members": members,
                }))
            }
            ResponseBody::SyncGroup(sync) => Some(json!({
                "group_id": group_id,
                "error_code": sync.error_code,
                "protocol_name": sync.protocol_name,
                "assignment": assignment(&sync.assignment),
            })),
            _ => None,
        }
    }

    /// A worker metadata blob (JoinGroup), decoded, with its allocation.
    fn metadata(blob: &Bytes) -> Value {
        if blob.is_empty() {
            return json!({"empty": true});
        }
        match decode_worker_metadata(blob.clone()) {
            Ok(decoded) => {
                let same = worker_metadata_to_bytes(decoded.version, &decoded.body).is_ok_and(|b| b == *blob);
                let allocation = match decode_allocation(&decoded.body) {
                    Ok(Some(allocation)) => {
                        let raw = decoded.body.allocation.clone().unwrap_or_default();
                        summarize(allocation.version, &allocation.body, &raw)
                    }
                    Ok(None) => Value::Null,
                    Err(e) => json!({"decoded": false, "error": e.to_string()}),
                };
                json!({
                    "decoded": true,
                    "version": decoded.version,
                    "url": decoded.body.url,
                    "config_offset": decoded.body.config_offset,
                    "allocation": allocation,
                    "reencoded_same": same,
                })
            }
            Err(e) => json!({"decoded": false, "error": e.to_string()}),
        }
    }

    /// An assignment blob (SyncGroup), decoded.
    fn assignment(blob: &Bytes) -> Value {
        if blob.is_empty() {
            return json!({"empty": true});
        }
        match decode_assignment(blob.clone()) {
            Ok(decoded) => summarize(decoded.version, &decoded.body, blob),
            Err(e) => json!({"decoded": false, "error": e.to_string()}),
        }
    }

    fn summarize(version: i16, body: &ConnectAssignment, blob: &Bytes) -> Value {
        let count = |list: &Option<Vec<kwire_connect::messages::connect_assignment::ConnectorAssignment>>| {
            let list = list.as_deref().unwrap_or_default();
            (list.len(), list.iter().map(|c| c.tasks.len()).sum::<usize>())
        };
        let (connectors, tasks) = count(&body.assignment);
        let (revoked_connectors, revoked_tasks) = count(&body.revoked);
        let same = assignment_to_bytes(version, body).is_ok_and(|b| b == *blob);
        let mut summary = Map::new();
        summary.insert("decoded".into(), true.into());
        summary.insert("version".into(), version.into());
        summary.insert("error".into(), body.error.into());
        summary.insert("leader".into(), body.leader.to_string().into());
        summary.insert("leader_url".into(), body.leader_url.to_string().into());
        summary.insert("config_offset".into(), body.config_offset.into());
        summary.insert("assignment_null".into(), body.assignment.is_none().into());
        summary.insert("connectors".into(), connectors.into());
        summary.insert("tasks".into(), tasks.into());
        summary.insert("revoked_connectors".into(), revoked_connectors.into());
        summary.insert("revoked_tasks".into(), revoked_tasks.into());
        summary.insert("delay".into(), body.delay.into());
        summary.insert("reencoded_same".into(), same.into());
        Value::Object(summary)
    }
}
