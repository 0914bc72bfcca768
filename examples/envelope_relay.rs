//! A transparent Kafka relay on kwire and tokio that decodes what it
//! passes: put it between a Kafka client and a broker (or, as
//! `interop/scripts/kafka-cluster.sh` does with `KAFKA_CLUSTER_RELAY=1`, between a
//! KRaft broker and its controller) and it logs every frame, one JSON line
//! each, while the bytes go through unchanged.
//!
//! ```text
//! cargo run -p kwire-examples --example envelope_relay -- \
//!     --listen 127.0.0.1:19096 --upstream 127.0.0.1:19094 --frames frames.jsonl
//! ```
//!
//! For each accepted connection it connects to `--upstream` and copies
//! bytes both ways. It cuts each byte stream into frames ([`FrameCodec`])
//! and passes each frame on whole once it is complete (a stream that can no
//! longer be cut is copied as it arrives); it decodes requests by their own
//! header and responses by the request they answer (a [`Correlator`] per
//! connection), and writes one line per frame:
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
//!   `retry_on_new_controller`, `error_to_client` or `close_connection`,
//!   with the envelope's `error_code`; for a response `inner_reencoded_same`
//!   against `ResponseData`; for `error_to_client` the `client_response`
//!   kwire-broker would send the client, header and body in hex).
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
//! With `--inject-envelope-errors` the relay answers some Envelopes itself,
//! to show how the broker before it reacts to a failed envelope: an
//! Envelope whose embedded request is a CreateTopics naming first a topic
//! `kwire-relay-envelope-error-<CODE>-<anything>` (CODE an error code of 0
//! or more) is not passed on; the relay answers it with an EnvelopeResponse
//! carrying CODE and no response data, logged like any response with
//! `"injected":true`. CODE 0 stands for a successful envelope whose
//! response data is no response: it carries the three bytes `ff ff ff`,
//! too short for a response header. Each topic name is answered so only once (the relay
//! remembers the last 4096): a broker that forwards the same request again
//! (after NOT_CONTROLLER, 41) reaches the controller the second time. The
//! broker sends one request at a time to its controller, so the answer
//! cannot overtake another.
//!
//! A bad frame never stops the relay: it is logged and passed on like any
//! other.
//!
//! Before a client has authenticated, the relay holds it to request frames
//! of 512 KiB ([`DEFAULT_MAX_UNAUTHENTICATED_FRAME_SIZE`], Kafka's
//! `sasl.server.max.receive.size`) and reads only the head of its requests
//! ([`RawRequest`]), save for ApiVersions, SaslHandshake and
//! SaslAuthenticate, the requests Kafka reads before authentication. A
//! connection counts as authenticated once a SaslAuthenticate response with
//! error code 0 passes, or from the start with `--plaintext` (the upstream
//! listener authenticates nobody, as Kafka's PLAINTEXT listener); then frames
//! of up to 100 MiB are read whole. A larger frame ends the cutting of that
//! direction (a `"stream"` line): its bytes are copied as they arrive.
//! After a SaslHandshake v0 the tokens travel without a request header and
//! are logged as frames that do not decode; such a connection stays
//! unauthenticated for the relay.

use std::collections::HashMap;
use std::fs::File;
use std::io::{LineWriter, Write};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use kwire::api::ApiKey;
use kwire::codec::{
    Correlated, Correlator, FrameCodec, RawRequest, DEFAULT_MAX_FRAME_SIZE, DEFAULT_MAX_UNAUTHENTICATED_FRAME_SIZE,
};
use kwire::frame::{self, RequestFrame, ResponseFrame};
use kwire::messages::{EnvelopeRequest, EnvelopeResponse, RequestBody, ResponseBody, ResponseHeader};
use kwire::{Bytes, BytesMut};
use kwire_broker::forward::{self, ForwardOutcome, ForwardedRequest};
use serde_json::{json, Map, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::Decoder;

const USAGE: &str = "\
kwire envelope relay: passes Kafka connections through unchanged and logs every frame.

usage: envelope_relay --listen HOST:PORT --upstream HOST:PORT [--frames FILE] [--plaintext]
                      [--inject-envelope-errors]

  --listen HOST:PORT          address to accept connections on
  --upstream HOST:PORT        the broker or controller to connect each of them to
  --frames FILE               where to write one JSON line per frame (default: stdout)
  --plaintext                 the upstream listener does not authenticate: every
                              connection counts as authenticated from the start
  --inject-envelope-errors    answer the Envelope of a CreateTopics for a topic
                              kwire-relay-envelope-error-<CODE>-... with error CODE, once
                              (CODE 0: error 0 and response data that is no response)
";

/// Command-line settings.
struct Args {
    listen: String,
    upstream: String,
    frames: Option<String>,
    plaintext: bool,
    inject_envelope_errors: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut listen = None;
    let mut upstream = None;
    let mut frames = None;
    let mut inject_envelope_errors = false;
    let mut plaintext = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--listen" => listen = Some(value()?),
            "--upstream" => upstream = Some(value()?),
            "--frames" => frames = Some(value()?),
            "--inject-envelope-errors" => inject_envelope_errors = true,
            "--plaintext" => plaintext = true,
            "--help" | "-h" => return Err(String::new()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(Args {
        listen: listen.ok_or("--listen is required")?,
        upstream: upstream.ok_or("--upstream is required")?,
        frames,
        plaintext,
        inject_envelope_errors,
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
    /// Which Envelopes to answer with an error (`--inject-envelope-errors`).
    injector: Injector,
    /// Whether the client has authenticated (a SaslAuthenticate response
    /// with error code 0 went by, or `--plaintext`).
    authenticated: bool,
}

type Shared = Arc<Mutex<Pending>>;

/// The prefix of the topic names whose CreateTopics Envelope the relay
/// answers with an error (`--inject-envelope-errors`).
const INJECT_PREFIX: &str = "kwire-relay-envelope-error-";

/// How many answered topic names the relay remembers.
const INJECT_MEMORY: usize = 4096;

/// `--inject-envelope-errors`: the topic names already answered with an
/// error, shared by every connection (a broker retries on a new one).
#[derive(Clone, Default)]
struct Injector(Option<Arc<Mutex<Vec<String>>>>);

impl Injector {
    /// The error to answer the Envelope of `forwarded` with, if it asks for
    /// one that has not been given yet.
    fn error_for(&self, forwarded: &ForwardedRequest) -> Option<i16> {
        let answered = self.0.as_ref()?;
        let RequestBody::CreateTopics(create) = &forwarded.body else { return None };
        let name = create.topics.first()?.name.to_string();
        let (code, _) = name.strip_prefix(INJECT_PREFIX)?.split_once('-')?;
        let code: i16 = code.parse().ok().filter(|code| *code >= 0)?;
        let mut answered = answered.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if answered.contains(&name) {
            return None;
        }
        if answered.len() == INJECT_MEMORY {
            answered.remove(0);
        }
        answered.push(name);
        Some(code)
    }
}

/// A write half, shared when the relay answers on it too.
type Writer = Arc<tokio::sync::Mutex<OwnedWriteHalf>>;

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
    let injector = Injector(args.inject_envelope_errors.then(Arc::default));
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
        let injector = injector.clone();
        let authenticated = args.plaintext;
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
            let client_tx: Writer = Arc::new(tokio::sync::Mutex::new(client_tx));
            let server_tx: Writer = Arc::new(tokio::sync::Mutex::new(server_tx));
            let shared = Shared::new(Mutex::new(Pending { injector, authenticated, ..Pending::default() }));
            let up = Pump { conn, dir: Direction::Request, to: server_tx, back: Some(client_tx.clone()) };
            let down = Pump { conn, dir: Direction::Response, to: client_tx, back: None };
            let up = up.run(client_rx, shared.clone(), log.clone());
            let down = down.run(server_rx, shared, log);
            let (up, down) = tokio::join!(up, down);
            eprintln!("envelope_relay: conn {conn} closed (client side: {up}; upstream side: {down})");
        });
    }
}

/// One direction of a connection: where its frames go (`to`), and for the
/// requests the client side's writer (`back`), on which injected answers go.
struct Pump {
    conn: u64,
    dir: Direction,
    to: Writer,
    back: Option<Writer>,
}

impl Pump {
    /// Copies `from` to `to`, decoding the frames as they complete. Returns
    /// how the copy ended.
    ///
    /// Frames are logged (requests recorded in the correlator) *before* they
    /// are written on, so a response can never overtake the record of its
    /// request. While the stream can be cut into frames they are written
    /// whole, so that an injected answer never lands inside another frame.
    async fn run(self, mut from: OwnedReadHalf, shared: Shared, log: FrameLog) -> String {
        let mut codec = Some(FrameCodec::new());
        let mut pending = BytesMut::new();
        let mut chunk = vec![0u8; 16 * 1024];
        let ended = loop {
            let n = match from.read(&mut chunk).await {
                Ok(0) => break "end of stream".to_string(),
                Ok(n) => n,
                Err(e) => break format!("read error: {e}"),
            };
            let mut out = BytesMut::new();
            let mut answers = Vec::new();
            match codec.as_mut() {
                None => out.extend_from_slice(&chunk[..n]),
                Some(frames) => {
                    pending.extend_from_slice(&chunk[..n]);
                    loop {
                        if self.dir == Direction::Request {
                            frames.set_max_frame_size(request_limit(&shared));
                        }
                        match frames.decode(&mut pending) {
                            Ok(Some(frame)) => {
                                let (line, injected) = describe(self.conn, self.dir, frame.clone(), &shared);
                                log.write(line);
                                match injected.and_then(|(id, code)| self.answer(id, code, &shared, &log)) {
                                    Some(answer) => answers.push(answer),
                                    None => put_frame(&mut out, &frame),
                                }
                            }
                            Ok(None) => break,
                            Err(e) => {
                                // Out of step for good: stop decoding, keep copying.
                                let (conn, stream, error) = (self.conn, self.dir.name(), e.to_string());
                                log.write(json!({"conn": conn, "dir": "stream", "stream": stream, "error": error}));
                                codec = None;
                                out.extend_from_slice(&pending.split());
                                break;
                            }
                        }
                    }
                }
            }
            if !out.is_empty() {
                if let Err(e) = self.to.lock().await.write_all(&out).await {
                    break format!("write error: {e}");
                }
            }
            if let Some(back) = &self.back {
                for answer in answers {
                    if let Err(e) = back.lock().await.write_all(&answer).await {
                        eprintln!("envelope_relay: conn {}: cannot write an injected answer: {e}", self.conn);
                    }
                }
            }
        };
        // Pass the end of stream on, so the other side sees the close.
        let _ = self.to.lock().await.shutdown().await;
        ended
    }

    /// The frame (size prefix included) answering the Envelope with
    /// correlation id `correlation_id` with error `code` and no response
    /// data (for code 0, three bytes that are no response), logged as a
    /// response; `None` when the relay has no side to answer on or the
    /// answer does not encode, and the Envelope goes on.
    fn answer(&self, correlation_id: i32, code: i16, shared: &Shared, log: &FrameLog) -> Option<Bytes> {
        self.back.as_ref()?;
        let header = ResponseHeader { correlation_id, ..Default::default() };
        let response_data = (code == 0).then(|| Bytes::from_static(b"\xff\xff\xff").into());
        let body = ResponseBody::Envelope(EnvelopeResponse { response_data, error_code: code, ..Default::default() });
        let mut frame = BytesMut::new();
        frame::ResponseFrame::encode_parts(&header, &body, forward::ENVELOPE_VERSION, &mut frame).ok()?;
        let frame = frame.freeze();
        let mut line = describe(self.conn, Direction::Response, frame.clone(), shared).0;
        if let Value::Object(fields) = &mut line {
            fields.insert("injected".into(), true.into());
        }
        log.write(line);
        let mut out = BytesMut::new();
        put_frame(&mut out, &frame);
        Some(out.freeze())
    }
}

/// The largest request frame the relay reads whole now: 512 KiB until the
/// client has authenticated, as Kafka's `sasl.server.max.receive.size`, then
/// 100 MiB, as its `socket.request.max.bytes`.
fn request_limit(shared: &Shared) -> usize {
    if lock(shared).authenticated {
        DEFAULT_MAX_FRAME_SIZE
    } else {
        DEFAULT_MAX_UNAUTHENTICATED_FRAME_SIZE
    }
}

/// The requests Kafka reads before a client has authenticated.
fn read_before_authentication(api_key: i16) -> bool {
    matches!(ApiKey::try_from(api_key), Ok(ApiKey::ApiVersions | ApiKey::SaslHandshake | ApiKey::SaslAuthenticate))
}

/// Appends `frame` with its int32 size prefix (a frame the codec cut is
/// below its maximum size, so the size fits).
fn put_frame(out: &mut BytesMut, frame: &[u8]) {
    let size = i32::try_from(frame.len()).unwrap_or(i32::MAX);
    out.extend_from_slice(&size.to_be_bytes());
    out.extend_from_slice(frame);
}

impl Direction {
    fn name(self) -> &'static str {
        match self {
            Direction::Request => "request",
            Direction::Response => "response",
        }
    }
}

/// One JSON line for one frame (without its size prefix), and for an
/// Envelope to answer with an error (`--inject-envelope-errors`) its
/// correlation id and the error code.
fn describe(conn: u64, dir: Direction, frame: Bytes, shared: &Shared) -> (Value, Option<(i32, i16)>) {
    let mut line = Map::new();
    line.insert("conn".into(), conn.into());
    line.insert("dir".into(), dir.name().into());
    line.insert("size".into(), frame.len().into());
    let injected = match dir {
        Direction::Request => describe_request(&mut line, frame, shared),
        Direction::Response => {
            describe_response(&mut line, frame, shared);
            None
        }
    };
    (Value::Object(line), injected)
}

fn describe_request(line: &mut Map<String, Value>, frame: Bytes, shared: &Shared) -> Option<(i32, i16)> {
    // Record first: even a request that does not decode gets a response.
    let authenticated = {
        let mut pending = lock(shared);
        if let Err(e) = pending.correlator.track_request(&frame) {
            line.insert("correlator_error".into(), e.to_string().into());
        }
        pending.authenticated
    };
    // The head first; the body only when it is to be read.
    let raw = match RawRequest::parse(frame.clone()) {
        Ok(raw) => raw,
        Err(e) => {
            line.insert("decoded".into(), false.into());
            line.insert("error".into(), format!("request: {e}").into());
            return None;
        }
    };
    let head = raw.head();
    line.insert("api_key".into(), head.api_key.into());
    line.insert("api_version".into(), head.api_version.into());
    line.insert("correlation_id".into(), head.correlation_id.into());
    if !authenticated && !read_before_authentication(head.api_key) {
        line.insert("decoded".into(), false.into());
        line.insert("error".into(), "request before authentication: body not read".into());
        return None;
    }
    let request = match raw.decode() {
        Ok(request) => request,
        Err(e) => {
            line.insert("decoded".into(), false.into());
            line.insert("error".into(), format!("request: {e}").into());
            return None;
        }
    };
    line.insert("decoded".into(), true.into());
    line.insert("reencoded_same".into(), request_reencodes(&request, &frame).into());
    let mut injected = None;
    if let RequestBody::Envelope(envelope) = &request.body {
        let (summary, code) = unwrap_envelope_request(envelope, request.header.correlation_id, shared);
        line.insert("envelope".into(), summary);
        injected = code.map(|code| (request.header.correlation_id, code));
    }
    if let Some(summary) = connect::request(&request.body, request.header.correlation_id, shared) {
        line.insert("connect".into(), summary);
    }
    injected
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
    if let ResponseBody::SaslAuthenticate(answer) = &response.body {
        if answer.error_code == 0 {
            lock(shared).authenticated = true;
        }
    }
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
/// embedded request is kept to read the EnvelopeResponse with. With the
/// error code to answer the Envelope with, when the relay answers it.
fn unwrap_envelope_request(envelope: &EnvelopeRequest, correlation_id: i32, shared: &Shared) -> (Value, Option<i16>) {
    let inner = envelope.request_data.as_bytes();
    let mut summary = Map::new();
    let mut injected = None;
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
            let mut pending = lock(shared);
            injected = pending.injector.error_for(&forwarded);
            pending.envelopes.insert(correlation_id, forwarded);
        }
        Err(e) => {
            summary.insert("unwrapped".into(), false.into());
            summary.insert("error".into(), format!("unwrap_request: {e}").into());
            summary.insert("refusal_error_code".into(), e.error_code().code().into());
        }
    }
    (Value::Object(summary), injected)
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
        Ok(ForwardOutcome::ErrorToClient(body)) => {
            summary.insert("unwrapped".into(), true.into());
            summary.insert("outcome".into(), "error_to_client".into());
            client_response(&mut summary, forwarded, &body);
        }
        Ok(ForwardOutcome::UnreadableResponse { error_response, reason }) => {
            summary.insert("unwrapped".into(), true.into());
            summary.insert("outcome".into(), "unreadable_response".into());
            summary.insert("error".into(), format!("unwrap_response: {reason}").into());
            client_response(&mut summary, forwarded, &error_response);
        }
        Ok(ForwardOutcome::CloseConnection) => {
            summary.insert("unwrapped".into(), true.into());
            summary.insert("outcome".into(), "close_connection".into());
        }
        Err(e) => {
            summary.insert("unwrapped".into(), false.into());
            summary.insert("error".into(), format!("unwrap_response: {e}").into());
        }
    }
    Value::Object(summary)
}

/// What kwire-broker would send the client in place of the controller's
/// answer, at the client's version: `client_response`, in hex.
fn client_response(summary: &mut Map<String, Value>, forwarded: &ForwardedRequest, body: &ResponseBody) {
    let header = ResponseHeader { correlation_id: forwarded.correlation_id(), ..Default::default() };
    let mut buf = BytesMut::new();
    match frame::ResponseFrame::encode_parts(&header, body, forwarded.api_version(), &mut buf) {
        Ok(()) => summary.insert("client_response".into(), hex::encode(&buf).into()),
        Err(e) => summary.insert("client_response_error".into(), e.to_string().into()),
    };
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
