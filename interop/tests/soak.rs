//! A hostile-client soak of `examples/broker` and `examples/envelope_relay`
//! (in front of the broker), on loopback only.
//!
//! The broker runs with SASL/PLAIN, the relay without `--plaintext`, so the
//! limits before authentication hold on both. While two well-behaved clients
//! (one straight to the broker, one through the relay) send a request every
//! 100 ms, hostile clients, each bounded in count and time, send: random
//! bytes, a 2 GB size prefix, frames cut short; slowloris frames and hundreds
//! of idle connections; large frames before authentication (a 99 MiB frame,
//! a 40 MB Metadata v9, a 500 KiB one of empty topic names); and, after
//! authenticating, pipelined floods, a CreateTopics of 2,000 topics × 10,000
//! partitions and one of 50,000 topics, and a Produce of one batch of many
//! records followed by ListOffsets lookups by timestamp.
//!
//! It fails when the well-behaved clients' p99 or maximum latency, or the
//! peak resident memory (`VmHWM` of `/proc/PID/status`) of the broker or
//! the relay, crosses a fixed bound, or when a hostile connection that Kafka
//! would close is not closed.

mod common;

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use common::conn::Conn;
use common::examples::{broker_port, Running};
use kwire::frame::RequestFrame;
use kwire::messages::create_topics_request::CreatableTopic;
use kwire::messages::list_offsets_request::{ListOffsetsPartition, ListOffsetsTopic};
use kwire::messages::metadata_request::MetadataRequestTopic;
use kwire::messages::produce_request::{PartitionProduceData, TopicProduceData};
use kwire::messages::{
    ApiVersionsRequest, CreateTopicsRequest, ListOffsetsRequest, MetadataRequest, ProduceRequest, RequestBody,
    RequestHeader, SaslHandshakeRequest,
};
use kwire::records::RecordBatchBuilder;
use kwire::{Bytes, BytesMut};

/// The well-behaved clients' latency bounds: 99th percentile and maximum.
const MAX_P99: Duration = Duration::from_millis(1_000);
const MAX_LATENCY: Duration = Duration::from_millis(3_000);
/// Peak resident memory bounds (`VmHWM`), in KiB.
const MAX_BROKER_KIB: u64 = 256 << 10;
const MAX_RELAY_KIB: u64 = 128 << 10;
/// How long a hostile connection that must be closed may stay open.
const CLOSE_WITHIN: Duration = Duration::from_secs(10);

const USER: &str = "alice";
const PASSWORD: &str = "s3cret";
const TOPIC: &str = "soak";

/// `VmRSS` and `VmHWM` of a process, in KiB.
fn memory_kib(process: &Running) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{}/status", process.pid())).expect("/proc/PID/status");
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|kib| kib.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("{name} in /proc/PID/status"))
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// The port of the relay's `envelope_relay: listening on 127.0.0.1:PORT, ...` line.
fn relay_port(line: &str) -> Option<u16> {
    let address = line.strip_prefix("envelope_relay: listening on ")?.split(',').next()?;
    address.rsplit(':').next()?.parse().ok()
}

/// A xorshift generator: the same bytes every run.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

fn connect(addr: &str) -> TcpStream {
    let stream = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect {addr}: {e}"));
    stream.set_read_timeout(Some(CLOSE_WITHIN)).expect("read timeout");
    stream.set_write_timeout(Some(Duration::from_secs(5))).expect("write timeout");
    stream
}

/// Whether the peer closes `stream` within [`CLOSE_WITHIN`]: the end of the
/// stream or a reset, not a timeout. Whatever it answers first is skipped.
fn closed(mut stream: TcpStream) -> bool {
    let started = Instant::now();
    let mut buf = [0u8; 4096];
    while started.elapsed() < CLOSE_WITHIN {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e) if matches!(e.kind(), ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted) => return true,
            Err(_) => return false,
        }
    }
    false
}

/// Writes as much of `bytes` as the peer takes; errors (the peer closed)
/// end it.
fn write_some(stream: &mut TcpStream, bytes: &[u8]) {
    let _ = stream.write_all(bytes);
}

/// A request frame, size prefix included.
fn request(api_key: i16, version: i16, correlation_id: i32, body: RequestBody) -> Vec<u8> {
    let header = RequestHeader {
        request_api_key: api_key,
        request_api_version: version,
        correlation_id,
        client_id: Some("soak-hostile".into()),
        ..Default::default()
    };
    let mut out = BytesMut::new();
    RequestFrame::encode_parts(&header, &body, &mut out).expect("encodes");
    let mut framed = (out.len() as u32).to_be_bytes().to_vec();
    framed.extend_from_slice(&out);
    framed
}

/// Reads one frame off `stream`, or panics.
fn read_frame(stream: &mut TcpStream) -> Vec<u8> {
    let mut size = [0u8; 4];
    stream.read_exact(&mut size).expect("a response");
    let mut frame = vec![0u8; u32::from_be_bytes(size) as usize];
    stream.read_exact(&mut frame).expect("a response");
    frame
}

/// A raw connection that has authenticated with SaslHandshake v1 and
/// SaslAuthenticate v2 (both answers' error codes checked).
fn authenticated_stream(addr: &str) -> TcpStream {
    let mut stream = connect(addr);
    let handshake = SaslHandshakeRequest { mechanism: "PLAIN".into() };
    write_some(&mut stream, &request(17, 1, 1, handshake.into()));
    assert_eq!(&read_frame(&mut stream)[4..6], [0, 0], "SaslHandshake");
    write_some(&mut stream, &request(36, 2, 2, common::conn::plain_authenticate(USER, PASSWORD).into()));
    assert_eq!(&read_frame(&mut stream)[5..7], [0, 0], "SaslAuthenticate");
    stream
}

/// An authenticated connection for the hostile clients that authenticate.
fn authenticated(addr: &str) -> Conn {
    let mut conn = Conn::connect(addr, "soak-hostile");
    conn.sasl_plain(USER, PASSWORD);
    conn
}

/// Before authentication: bytes of no frame, a 2 GB size prefix, frames cut
/// short, large frames. Returns the hostile connections that stayed open
/// although Kafka would have closed them.
fn unauthenticated_attacks(addr: &str) -> Vec<String> {
    let mut open = Vec::new();
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    // Random bytes.
    for _ in 0..20 {
        let mut stream = connect(addr);
        write_some(&mut stream, &random.bytes(8 << 10));
        let _ = stream.shutdown(Shutdown::Write);
    }
    // A 2 GB size prefix.
    for _ in 0..5 {
        let mut stream = connect(addr);
        write_some(&mut stream, b"\x7f\xff\xff\xff\x00\x12\x00\x03");
        if !closed(stream) {
            open.push(format!("{addr}: a 2 GB size prefix"));
        }
    }
    // A frame cut short: 100 bytes announced, 50 sent, then the end of the stream.
    for _ in 0..5 {
        let mut stream = connect(addr);
        let mut frame = vec![0, 0, 0, 100, 0, 18, 0, 3, 0, 0, 0, 1];
        frame.resize(54, 0);
        write_some(&mut stream, &frame);
        let _ = stream.shutdown(Shutdown::Write);
        if !closed(stream) {
            open.push(format!("{addr}: a frame cut short"));
        }
    }
    // A 99 MiB frame, of which up to 40 MiB is sent: closed at the size prefix.
    let handles: Vec<_> = (0..10)
        .map(|_| {
            let addr = addr.to_string();
            thread::spawn(move || {
                let mut stream = connect(&addr);
                write_some(&mut stream, &(99u32 << 20).to_be_bytes());
                let zeros = vec![0u8; 1 << 20];
                for _ in 0..40 {
                    if stream.write_all(&zeros).is_err() {
                        break;
                    }
                }
                closed(stream).then_some(()).ok_or(format!("{addr}: a 99 MiB frame before authentication"))
            })
        })
        .collect();
    open.extend(handles.into_iter().filter_map(|h| h.join().expect("no panic").err()));
    // Metadata v9 of 40 MB: 20 M empty topic names, closed at the size prefix.
    let mut stream = connect(addr);
    write_some(&mut stream, &metadata_v9_of_empty_names(20_000_000));
    if !closed(stream) {
        open.push(format!("{addr}: a 40 MB Metadata v9 before authentication"));
    }
    // Metadata v9 of 500 KiB (250,000 empty topic names): within the limit, but
    // Metadata is not read before authentication.
    let topics = vec![MetadataRequestTopic::default(); 250_000];
    let body = MetadataRequest { topics: Some(topics), ..Default::default() };
    let frame = request(3, 9, 1, body.into());
    assert!(frame.len() < 512 << 10, "{}", frame.len());
    let mut stream = connect(addr);
    write_some(&mut stream, &frame);
    if !closed(stream) {
        open.push(format!("{addr}: a Metadata request before authentication"));
    }
    open
}

/// A Metadata v9 request frame (size prefix included) asking for `n` topics
/// with empty names, written byte by byte: 2 bytes a topic.
fn metadata_v9_of_empty_names(n: u32) -> Vec<u8> {
    // Header v2: api key 3, version 9, correlation id 1, null client id, no tagged fields.
    let mut frame = b"\x00\x03\x00\x09\x00\x00\x00\x01\xff\xff\x00".to_vec();
    // Topics: a compact array (unsigned varint of n + 1) of name "" and no tagged fields.
    let mut length = n + 1;
    while length >= 0x80 {
        frame.push((length as u8 & 0x7f) | 0x80);
        length >>= 7;
    }
    frame.push(length as u8);
    frame.reserve(2 * n as usize + 4);
    for _ in 0..n {
        frame.extend_from_slice(&[1, 0]);
    }
    // AllowAutoTopicCreation, IncludeClusterAuthorizedOperations,
    // IncludeTopicAuthorizedOperations, no tagged fields.
    frame.extend_from_slice(&[0, 0, 0, 0]);
    let mut framed = (frame.len() as u32).to_be_bytes().to_vec();
    framed.extend_from_slice(&frame);
    framed
}

/// Slow and idle connections, held until `stop`: a byte of a 400 KiB frame
/// every 100 ms on `slow` connections, and `idle` connections that send
/// nothing.
fn hold_connections(addr: &str, slow: usize, idle: usize, stop: Arc<AtomicBool>) -> thread::JoinHandle<()> {
    let addr = addr.to_string();
    thread::spawn(move || {
        let idle: Vec<TcpStream> = (0..idle).map(|_| connect(&addr)).collect();
        let mut slow: Vec<TcpStream> = (0..slow)
            .map(|_| {
                let mut stream = connect(&addr);
                write_some(&mut stream, &(400u32 << 10).to_be_bytes());
                stream
            })
            .collect();
        while !stop.load(Ordering::Relaxed) {
            for stream in &mut slow {
                write_some(stream, &[0]);
            }
            thread::sleep(Duration::from_millis(100));
        }
        drop(idle);
    })
}

/// After authenticating: pipelined floods, oversized CreateTopics, a Produce
/// of many records and ListOffsets lookups by timestamp. Returns what went
/// wrong.
fn authenticated_attacks(addr: &str, topic: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    // Pipelined floods: 2,000 Metadata requests for every topic, none of their
    // answers read, then the connection dropped.
    for _ in 0..2 {
        let mut stream = authenticated_stream(addr);
        let metadata = request(3, 12, 7, MetadataRequest { topics: None, ..Default::default() }.into());
        write_some(&mut stream, &metadata.repeat(2_000));
    }
    // 2,000 topics × 10,000 partitions: refused whole, as Kafka's controller does.
    let mut conn = authenticated(addr);
    let answer = conn.call_at(create_topics((0..2_000).map(|i| format!("{topic}-wide-{i}")), 10_000), 7);
    if let Some(t) = answer.topics.iter().find(|t| t.error_code != 44) {
        wrong.push(format!("{addr}: CreateTopics of 20 M partitions: topic {} got error {}", t.name, t.error_code));
    }
    // 50,000 topics of no partitions: each refused, the names checked in linear time.
    let answer = conn.call_at(create_topics((0..50_000).map(|i| format!("{topic}-many-{i}")), 0), 7);
    if answer.topics.len() != 50_000 || answer.topics.iter().any(|t| t.error_code != 37) {
        wrong.push(format!("{addr}: CreateTopics of 50,000 topics of no partitions not refused one by one"));
    }
    // One Produce of a batch of 10,000 records (compressed when gzip is built
    // in) whose header claims the largest timestamp there is, then ListOffsets
    // by timestamp, again and again.
    let mut batch = RecordBatchBuilder::new(0);
    batch.compression(kwire::records::Compression::Gzip);
    for i in 0..10_000 {
        batch.append(1_000 + i, None, Some(Bytes::from(vec![b'x'; 1024])), vec![]);
    }
    batch.max_timestamp(i64::MAX);
    let records = batch.to_bytes().expect("a batch");
    let produce = ProduceRequest {
        acks: -1,
        timeout_ms: 30_000,
        topic_data: vec![TopicProduceData {
            name: topic.into(),
            partition_data: vec![PartitionProduceData { index: 0, records: Some(records), ..Default::default() }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let answer = conn.call_at(produce, 9);
    let code = answer.responses[0].partition_responses[0].error_code;
    if code != 0 {
        wrong.push(format!("{addr}: Produce of 10,000 records: error {code}"));
    }
    for i in 0..40 {
        let timestamp = if i % 2 == 0 { 5_000 } else { 1 << 40 };
        let answer = conn.call_at(list_offsets(topic, timestamp), 7);
        let offset = answer.topics[0].partitions[0].offset;
        if i % 2 == 0 && offset < 0 {
            wrong.push(format!("{addr}: ListOffsets for timestamp 5000 found no offset"));
        }
    }
    wrong
}

/// CreateTopics of `names`, each with `partitions` partitions.
fn create_topics(names: impl IntoIterator<Item = String>, partitions: i32) -> CreateTopicsRequest {
    let topics = names
        .into_iter()
        .map(|name| CreatableTopic {
            name: name.into(),
            num_partitions: partitions,
            replication_factor: -1,
            ..Default::default()
        })
        .collect();
    CreateTopicsRequest { topics, timeout_ms: 30_000, ..Default::default() }
}

fn list_offsets(topic: &str, timestamp: i64) -> ListOffsetsRequest {
    ListOffsetsRequest {
        replica_id: -1,
        topics: vec![ListOffsetsTopic {
            name: topic.into(),
            partitions: vec![ListOffsetsPartition { partition_index: 0, timestamp, ..Default::default() }],
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// A well-behaved client: authenticates, then sends Metadata and ListOffsets
/// in turn, one every 100 ms, until `stop`; the latency of each. A request
/// that gets no answer (the client's 30 s timeout) counts with the time it
/// waited and ends the client.
fn well_behaved(addr: &str, stop: Arc<AtomicBool>) -> thread::JoinHandle<Vec<Duration>> {
    let addr = addr.to_string();
    thread::spawn(move || {
        let mut conn = Conn::connect(&addr, "soak-well-behaved");
        conn.sasl_plain(USER, PASSWORD);
        let mut latencies = Vec::new();
        let mut i = 0u32;
        while !stop.load(Ordering::Relaxed) {
            let started = Instant::now();
            let answered = catch_unwind(AssertUnwindSafe(|| {
                if i.is_multiple_of(2) {
                    let topics = vec![MetadataRequestTopic { name: Some(TOPIC.into()), ..Default::default() }];
                    let answer = conn.call_at(MetadataRequest { topics: Some(topics), ..Default::default() }, 12);
                    assert_eq!(answer.topics[0].error_code, 0, "Metadata for {TOPIC}");
                } else {
                    conn.call_at(list_offsets(TOPIC, -1), 7);
                }
            }));
            let took = started.elapsed();
            latencies.push(took);
            if answered.is_err() {
                break;
            }
            i += 1;
            thread::sleep(Duration::from_millis(100).saturating_sub(took));
        }
        latencies
    })
}

/// What a thread that panicked said.
fn panic_message(panic: Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

#[test]
fn hostile_clients_neither_stall_nor_bloat_the_broker_and_the_relay() {
    let credentials = format!("{USER}:{PASSWORD}");
    let broker = Running::start("broker", &["--port", "0", "--sasl-plain", &credentials], broker_port);
    let frames = Path::new(env!("CARGO_TARGET_TMPDIR")).join("soak-relay-frames.jsonl");
    let frames = frames.to_str().expect("a UTF-8 path");
    let upstream = broker.addr();
    let relay_args = ["--listen", "127.0.0.1:0", "--upstream", &upstream, "--frames", frames];
    let relay = Running::start("envelope_relay", &relay_args, relay_port);
    let started = Instant::now();
    let (broker_at_start, _) = memory_kib(&broker);
    let (relay_at_start, _) = memory_kib(&relay);

    // The topic the well-behaved clients ask about.
    let mut conn = authenticated(&broker.addr());
    let created = conn.call_at(create_topics([TOPIC.to_string()], 1), 7);
    assert_eq!(created.topics[0].error_code, 0, "{created:?}");
    drop(conn);

    let stop = Arc::new(AtomicBool::new(false));
    let clients = [well_behaved(&broker.addr(), Arc::clone(&stop)), well_behaved(&relay.addr(), Arc::clone(&stop))];
    thread::sleep(Duration::from_millis(500));
    let held = [
        hold_connections(&broker.addr(), 10, 150, Arc::clone(&stop)),
        hold_connections(&relay.addr(), 10, 150, Arc::clone(&stop)),
    ];
    let attacks: Vec<_> = [broker.addr(), relay.addr()]
        .into_iter()
        .map(|addr| {
            thread::spawn(move || {
                let mut wrong = unauthenticated_attacks(&addr);
                wrong.extend(authenticated_attacks(&addr, TOPIC));
                wrong
            })
        })
        .collect();
    let wrong: Vec<String> = attacks
        .into_iter()
        .flat_map(|h| h.join().unwrap_or_else(|panic| vec![format!("an attack failed: {}", panic_message(panic))]))
        .collect();
    // The well-behaved clients go on a second after the last attack.
    thread::sleep(Duration::from_secs(1));
    let (broker_rss, _) = memory_kib(&broker);
    let (relay_rss, _) = memory_kib(&relay);
    stop.store(true, Ordering::Relaxed);
    for handle in held {
        handle.join().expect("held connections");
    }
    let mut latencies: Vec<Duration> =
        clients.into_iter().flat_map(|h| h.join().expect("the well-behaved clients ran")).collect();
    let (_, broker_peak) = memory_kib(&broker);
    let (_, relay_peak) = memory_kib(&relay);
    latencies.sort();
    let p99 = latencies[latencies.len() * 99 / 100];
    let max = *latencies.last().expect("requests were sent");
    eprintln!(
        "soak: {:?}; {} well-behaved requests, p99 {p99:?}, max {max:?}; broker {broker_at_start} KiB at start, \
         {broker_rss} KiB at the end, {broker_peak} KiB peak; relay {relay_at_start} KiB at start, {relay_rss} KiB \
         at the end, {relay_peak} KiB peak",
        started.elapsed(),
        latencies.len()
    );
    let mut failures = wrong;
    if p99 > MAX_P99 {
        failures.push(format!("well-behaved p99 latency {p99:?} over {MAX_P99:?}"));
    }
    if max > MAX_LATENCY {
        failures.push(format!("well-behaved maximum latency {max:?} over {MAX_LATENCY:?}"));
    }
    if broker_peak > MAX_BROKER_KIB {
        failures.push(format!("broker peak memory {broker_peak} KiB over {MAX_BROKER_KIB} KiB"));
    }
    if relay_peak > MAX_RELAY_KIB {
        failures.push(format!("relay peak memory {relay_peak} KiB over {MAX_RELAY_KIB} KiB"));
    }
    let tail =
        |log: String| log.lines().rev().take(40).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join("\n");
    assert!(
        failures.is_empty(),
        "{}\n--- broker log (end)\n{}\n--- relay log (end)\n{}",
        failures.join("\n"),
        tail(broker.log()),
        tail(relay.log())
    );
}

#[test]
fn the_metadata_v9_of_empty_names_decodes() {
    // The hand-written frame of the soak is the request it claims to be.
    let frame = metadata_v9_of_empty_names(1000);
    let request = RequestFrame::decode(Bytes::from(frame[4..].to_vec())).expect("decodes");
    let RequestBody::Metadata(metadata) = request.body else { panic!("a Metadata request") };
    assert_eq!((request.header.request_api_version, metadata.topics.map(|t| t.len())), (9, Some(1000)));
}

/// What a CreateTopics answered for each topic: error code and message.
fn outcomes(conn: &mut Conn, request: CreateTopicsRequest) -> Vec<(i16, Option<String>)> {
    let answer = conn.call_at(request, 7);
    answer.topics.into_iter().map(|t| (t.error_code, t.error_message.map(|m| m.to_string()))).collect()
}

/// The example broker limits the work of one CreateTopics as Kafka 4.4.0's
/// controller does (10,000 metadata records): over 10,000 partitions in all,
/// or over 10,000 records (a topic and each of its partitions one), every
/// topic gets POLICY_VIOLATION with Kafka's message; exactly 10,000 records
/// are taken. All validate-only, so nothing is created in the shared cluster.
#[test]
fn the_work_of_one_create_topics_is_limited_as_kafka_limits_it() {
    let Some(cluster) = common::cluster::Cluster::find("the CreateTopics limits against Kafka") else {
        return;
    };
    let broker = Running::start("broker", &["--port", "0"], broker_port);
    let suffix = common::cluster::suffix();
    let requests = || {
        let names =
            |case: &str, n: u32| (0..n).map(|i| format!("kw-soak-limit-{suffix}-{case}-{i}")).collect::<Vec<_>>();
        // 2 topics and 9,998 partitions: 10,000 records.
        let at_limit = create_topics(names("at", 2), 4_999);
        // 2 topics and 10,000 partitions: 10,002 records.
        let over_records = create_topics(names("records", 2), 5_000);
        // 10,001 partitions, the last topic's one the default (1 on both brokers).
        let mut over_partitions = create_topics(names("partitions", 3), 4_000);
        over_partitions.topics[0].num_partitions = 6_000;
        over_partitions.topics[2].num_partitions = -1;
        [at_limit, over_records, over_partitions].map(|mut request| {
            request.validate_only = true;
            request
        })
    };
    let mut kafka = Conn::connect(cluster.broker(), "kw-soak");
    let mut example = Conn::connect(&broker.addr(), "kw-soak");
    let from_kafka: Vec<_> = requests().into_iter().map(|request| outcomes(&mut kafka, request)).collect();
    let from_example: Vec<_> = requests().into_iter().map(|request| outcomes(&mut example, request)).collect();
    assert_eq!(from_example, from_kafka);
    let refused = |message: &str| vec![(44, Some(message.to_string())); 2];
    assert_eq!(from_kafka[0], [(0, None), (0, None)]);
    assert_eq!(from_kafka[1], refused("Unable to perform excessively large batch operation."));
    assert_eq!(from_kafka[2][..2], refused("Excessively large number of partitions per request."));
}

/// An ApiVersions v3 request frame (size prefix included) of exactly `size`
/// bytes after the prefix, padded with an unknown tagged field (which Kafka
/// skips).
fn api_versions_of(size: usize) -> Vec<u8> {
    let with_padding = |length: usize| {
        let body = ApiVersionsRequest {
            client_software_name: "kw-soak".into(),
            client_software_version: "1".into(),
            unknown_tagged_fields: vec![kwire::tagged::RawTaggedField::new(100, Bytes::from(vec![0u8; length]))],
            ..Default::default()
        };
        request(18, 3, 1, body.into())
    };
    let guess = with_padding(size - 100);
    let frame = with_padding(size - 100 + size - (guess.len() - 4));
    assert_eq!(frame.len() - 4, size);
    frame
}

/// Before authentication a frame of 512 KiB is read, and a larger size
/// prefix closes the connection, on Kafka 4.4.0's SASL listener
/// (`sasl.server.max.receive.size`) as on the example broker with SASL.
#[test]
fn the_frame_limit_before_authentication_is_kafkas() {
    let Some(cluster) = common::cluster::Cluster::find("the frame limit before authentication") else {
        return;
    };
    let credentials = format!("{USER}:{PASSWORD}");
    let broker = Running::start("broker", &["--port", "0", "--sasl-plain", &credentials], broker_port);
    for addr in [cluster.var("KAFKA_CLUSTER_BROKER_SASL").to_string(), broker.addr()] {
        let mut stream = connect(&addr);
        write_some(&mut stream, &api_versions_of(512 << 10));
        let answer = read_frame(&mut stream);
        assert_eq!((&answer[..4], &answer[4..6]), (&[0, 0, 0, 1][..], &[0, 0][..]), "{addr}: ApiVersions of 512 KiB");
        let mut stream = connect(&addr);
        write_some(&mut stream, &api_versions_of((512 << 10) + 1)[..64]);
        assert!(closed(stream), "{addr}: a frame of 512 KiB + 1 before authentication");
    }
}
