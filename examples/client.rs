//! An example Kafka client on kwire and tokio: it negotiates versions
//! with ApiVersions (falling back when the broker answers a newer
//! ApiVersions with UNSUPPORTED_VERSION), optionally authenticates with
//! SASL/PLAIN, creates a topic, produces one record batch of three records
//! (compressed with `--compression`) and fetches them back, decompressing
//! them and checking each batch's codec. With `--fetch-only TOPIC` it only
//! fetches: records another client wrote, checked the same way. With
//! `--produce-fetch-for SECONDS` it keeps producing and fetching on one
//! connection for that long, re-authenticating (KIP-368: SaslHandshake and
//! SaslAuthenticate again, on the same connection) when
//! [`kwire_broker::reauth::reauthenticate_after`] says, within 85-95% of each
//! session lifetime the broker sent in SaslAuthenticate v1+.
//!
//! ```text
//! cargo run -p kwire-examples --example client -- --bootstrap 127.0.0.1:9092
//! cargo run -p kwire-examples --example client -- --bootstrap 127.0.0.1:9092 --sasl-plain alice:alice-secret
//! cargo run -p kwire-examples --example client -- --bootstrap 127.0.0.1:9092 --compression zstd
//! cargo run -p kwire-examples --example client -- --bootstrap 127.0.0.1:9092 --fetch-only demo --expect 3 --compression lz4
//! cargo run -p kwire-examples --example client -- --bootstrap 127.0.0.1:9093 --sasl-plain admin:admin-secret --produce-fetch-for 20
//! ```
//!
//! It prints one line per step and exits non-zero on the first failure.
//! Every network wait is bounded (`--timeout-secs`, default 20).

use std::collections::HashMap;
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::{SinkExt, StreamExt};
use kwire::api::{negotiate, ApiKey, ApiVersionsRefused, Negotiated};
use kwire::codec::{Call, ClientCodec, CodecError};
use kwire::error_code::ErrorCode;
use kwire::message::VersionRange;
use kwire::messages::create_topics_request::CreatableTopic;
use kwire::messages::fetch_request::{FetchPartition, FetchTopic};
use kwire::messages::metadata_request::MetadataRequestTopic;
use kwire::messages::metadata_response::MetadataResponseBroker;
use kwire::messages::produce_request::{PartitionProduceData, TopicProduceData};
use kwire::messages::{
    ApiVersionsRequest, CreateTopicsRequest, FetchRequest, MetadataRequest, MetadataResponse, ProduceRequest,
    SaslAuthenticateRequest, SaslHandshakeRequest,
};
use kwire::primitives::Uuid;
use kwire::records::{Batch, Batches, Compression, DecodeOptions, Header, RecordBatchBuilder, XERIAL_HEADER};
use kwire::Bytes;
use kwire_broker::reauth::{reauthenticate_after, StdJitter};
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_util::codec::Framed;

const USAGE: &str = "\
kwire example client: ApiVersions, (SASL/PLAIN,) CreateTopics, Produce, Fetch.

usage: client [--bootstrap HOST:PORT] [--topic NAME] [--sasl-plain USER:PASS] [--timeout-secs N]
              [--compression CODEC] [--pad N] [--fetch-only TOPIC [--expect N]]
              [--produce-fetch-for SECONDS]

  --bootstrap HOST:PORT   a broker (default 127.0.0.1:9092)
  --topic NAME            topic to create (default: kwire-example-<random>)
  --sasl-plain USER:PASS  authenticate with SASL/PLAIN
  --timeout-secs N        bound on each wait: connect, response, topic ready, fetch (default 20)
  --compression CODEC     none, gzip, snappy, lz4 or zstd (default none): the codec of the batch
                          produced, and the codec every fetched batch must have
  --pad N                 record i is key k<i>, value hello-<i> then N dots, header h=v (default 0)
  --fetch-only TOPIC      create and produce nothing: fetch TOPIC partition 0 from offset 0 and
                          check its records (written by another client) as above
  --expect N              how many records --fetch-only expects (default 3)
  --produce-fetch-for S   after creating the topic, produce and fetch back three records at a time
                          for S seconds on one connection; with --sasl-plain, re-authenticate
                          on that connection (SaslHandshake + SaslAuthenticate) when KIP-368's
                          window (85-95% of the session lifetime) opens. Ends with a summary line
                          `produce-fetch: rounds R, connections C, reauthentications N, ...`
";

/// The lowest Produce and Fetch versions that carry record batches v2.
const MIN_PRODUCE: i16 = 3;
const MIN_FETCH: i16 = 4;

/// What went wrong.
#[derive(Debug, thiserror::Error)]
enum ClientError {
    #[error("{0}")]
    Usage(String),
    #[error("cannot connect to {addr}: {source}")]
    Connect { addr: String, source: std::io::Error },
    #[error("{0}")]
    Codec(#[from] CodecError),
    #[error("the broker closed the connection")]
    Closed,
    #[error("no answer within {0:?}")]
    Timeout(Duration),
    #[error("unexpected answer to {0}")]
    Unexpected(&'static str),
    #[error("{what}: error {code} ({name})")]
    Kafka { what: String, code: i16, name: &'static str },
    #[error("no version of {api} from v{floor} that both sides support")]
    NoCommonVersion { api: &'static str, floor: i16 },
    #[error("{0}")]
    Check(String),
}

fn kafka_error(what: impl Into<String>, code: i16) -> ClientError {
    ClientError::Kafka { what: what.into(), code, name: ErrorCode::from_code(code).name() }
}

struct Args {
    bootstrap: String,
    topic: Option<String>,
    sasl: Option<(String, String)>,
    timeout: Duration,
    compression: Compression,
    pad: usize,
    fetch_only: Option<String>,
    expect: usize,
    produce_fetch_for: Option<Duration>,
}

/// Record `i` as produced here and expected back: key, value, header h=v.
fn expected_record(i: usize, pad: usize) -> (String, String, String) {
    (format!("k{i}"), format!("hello-{i}{}", ".".repeat(pad)), "h=v".to_string())
}

fn parse_args() -> Result<Option<Args>, ClientError> {
    let mut args = Args {
        bootstrap: "127.0.0.1:9092".into(),
        topic: None,
        sasl: None,
        timeout: Duration::from_secs(20),
        compression: Compression::None,
        pad: 0,
        fetch_only: None,
        expect: 3,
        produce_fetch_for: None,
    };
    let number = |option: &str, v: String| -> Result<usize, ClientError> {
        v.parse().map_err(|_| ClientError::Usage(format!("bad {option} {v:?}")))
    };
    let mut it = std::env::args().skip(1);
    while let Some(option) = it.next() {
        let mut value = || it.next().ok_or_else(|| ClientError::Usage(format!("{option} needs a value")));
        match option.as_str() {
            "-h" | "--help" => return Ok(None),
            "--bootstrap" => args.bootstrap = value()?,
            "--topic" => args.topic = Some(value()?),
            "--sasl-plain" => {
                let v = value()?;
                let (user, password) =
                    v.split_once(':').ok_or_else(|| ClientError::Usage("--sasl-plain takes USER:PASS".into()))?;
                args.sasl = Some((user.to_string(), password.to_string()));
            }
            "--timeout-secs" => {
                let v = value()?;
                let secs: u64 = v.parse().map_err(|_| ClientError::Usage(format!("bad --timeout-secs {v:?}")))?;
                args.timeout = Duration::from_secs(secs);
            }
            "--compression" => {
                let v = value()?;
                args.compression = Compression::ALL.into_iter().find(|c| c.name() == v).ok_or_else(|| {
                    ClientError::Usage(format!("unknown --compression {v:?} (none, gzip, snappy, lz4, zstd)"))
                })?;
                if !args.compression.is_available() {
                    return Err(ClientError::Usage(format!("this build has no {v} (cargo feature {v})")));
                }
            }
            "--pad" => args.pad = number("--pad", value()?)?,
            "--fetch-only" => args.fetch_only = Some(value()?),
            "--expect" => args.expect = number("--expect", value()?)?,
            "--produce-fetch-for" => {
                let secs = number("--produce-fetch-for", value()?)?;
                args.produce_fetch_for = Some(Duration::from_secs(secs as u64));
            }
            _ => return Err(ClientError::Usage(format!("unknown option {option:?} (see --help)"))),
        }
    }
    Ok(Some(args))
}

/// One connection to one broker, with the versions negotiated on it.
struct Connection {
    addr: String,
    framed: Framed<TcpStream, ClientCodec>,
    next_correlation_id: i32,
    /// The versions both sides support, per api key.
    negotiated: Negotiated,
    timeout: Duration,
    /// The SASL/PLAIN credentials, kept to re-authenticate.
    sasl: Option<(String, String)>,
    /// When to re-authenticate (KIP-368), if the session expires.
    reauthenticate_at: Option<Instant>,
    /// Re-authentications done on this connection.
    reauthentications: usize,
    /// Every session lifetime the broker sent, ms (first authentication first).
    session_lifetimes: Vec<i64>,
    jitter: StdJitter,
}

impl Connection {
    /// Connects (retrying while the port refuses, up to `timeout`),
    /// negotiates versions and authenticates if asked.
    async fn open(addr: &str, timeout: Duration, sasl: Option<&(String, String)>) -> Result<Self, ClientError> {
        let deadline = Instant::now() + timeout;
        let stream = loop {
            match tokio::time::timeout_at(deadline, TcpStream::connect(addr)).await {
                Ok(Ok(stream)) => break stream,
                Ok(Err(e)) if Instant::now() + Duration::from_millis(200) < deadline => {
                    let _ = e;
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Ok(Err(source)) => return Err(ClientError::Connect { addr: addr.to_string(), source }),
                Err(_) => return Err(ClientError::Timeout(timeout)),
            }
        };
        let _ = stream.set_nodelay(true);
        let mut conn = Connection {
            addr: addr.to_string(),
            framed: Framed::new(stream, ClientCodec::new()),
            next_correlation_id: 1,
            negotiated: Negotiated::default(),
            timeout,
            sasl: sasl.cloned(),
            reauthenticate_at: None,
            reauthentications: 0,
            session_lifetimes: Vec::new(),
            jitter: StdJitter::new(),
        };
        conn.negotiate().await?;
        if conn.sasl.is_some() {
            conn.authenticate().await?;
        }
        Ok(conn)
    }

    /// Sends one request at `version` and waits for its typed answer,
    /// re-authenticating first when the session is due for it (KIP-368).
    async fn send<R: Call>(&mut self, request: R, version: i16) -> Result<R::Response, ClientError> {
        if self.reauthenticate_at.is_some_and(|at| Instant::now() >= at) {
            let started = Instant::now();
            self.authenticate().await?;
            self.reauthentications += 1;
            println!(
                "  re-authenticated (#{}) on the same connection in {} ms",
                self.reauthentications,
                started.elapsed().as_millis()
            );
        }
        self.send_now(request, version).await
    }

    /// Sends one request at `version` and waits for its typed answer.
    async fn send_now<R: Call>(&mut self, request: R, version: i16) -> Result<R::Response, ClientError> {
        let frame = request.into_frame(version, self.next_correlation_id, Some("kwire-example".into()));
        self.next_correlation_id = self.next_correlation_id.wrapping_add(1);
        self.framed.send(frame).await?;
        match tokio::time::timeout(self.timeout, self.framed.next()).await {
            Err(_) => Err(ClientError::Timeout(self.timeout)),
            Ok(None) => Err(ClientError::Closed),
            Ok(Some(response)) => Ok(R::response_from(response?)?),
        }
    }

    /// ApiVersions at our highest version; on UNSUPPORTED_VERSION (a v0
    /// body listing the broker's ApiVersions range), again at the highest
    /// version both have.
    async fn negotiate(&mut self) -> Result<(), ClientError> {
        let ours = ApiKey::ApiVersions.info().valid_versions.max;
        let request = ApiVersionsRequest::with_default_client_software;
        let mut version = ours;
        let mut body = self.send_now(request(), version).await?;
        if let Err(ApiVersionsRefused { retry_version: Some(retry), .. }) = negotiate(&body) {
            // UNSUPPORTED_VERSION, listing the broker's ApiVersions versions (KIP-511).
            version = retry;
            println!("  ApiVersions v{ours}: broker answered UNSUPPORTED_VERSION; retrying at v{version}");
            body = self.send_now(request(), version).await?;
        }
        self.negotiated = negotiate(&body).map_err(|e| kafka_error("ApiVersions", e.error_code))?;
        println!("  ApiVersions v{version}: broker at {} lists {} apis", self.addr, body.api_keys.len());
        Ok(())
    }

    /// The highest version of `api_key` both sides support, at least `floor`.
    fn version(&self, api_key: ApiKey, floor: i16) -> Result<i16, ClientError> {
        let info = api_key.info();
        let common = self.negotiated.range(api_key).map(|r| r.intersect(VersionRange::new(floor, i16::MAX)));
        match common {
            Some(range) if !range.is_empty() => Ok(range.max),
            _ => Err(ClientError::NoCommonVersion { api: info.name, floor }),
        }
    }

    /// SaslHandshake (PLAIN) then SaslAuthenticate, with the credentials
    /// given at [`Connection::open`]: the first authentication, and each
    /// KIP-368 re-authentication on the same connection (no ApiVersions
    /// before it: on an expired session Kafka's broker would close the
    /// connection). Sets when to re-authenticate next.
    async fn authenticate(&mut self) -> Result<(), ClientError> {
        let Some((user, password)) = self.sasl.clone() else { return Ok(()) };
        let version = self.version(ApiKey::SaslHandshake, 1)?;
        let body = self.send_now(SaslHandshakeRequest { mechanism: "PLAIN".into() }, version).await?;
        if body.error_code != 0 {
            return Err(kafka_error(format!("SaslHandshake (broker offers {:?})", body.mechanisms), body.error_code));
        }
        let version = self.version(ApiKey::SaslAuthenticate, 0)?;
        let message = Bytes::from(format!("\0{user}\0{password}"));
        let body =
            self.send_now(SaslAuthenticateRequest { auth_bytes: message, ..Default::default() }, version).await?;
        if body.error_code != 0 {
            let what = format!("SaslAuthenticate: {}", body.error_message.unwrap_or_default());
            return Err(kafka_error(what, body.error_code));
        }
        let lifetime = body.session_lifetime_ms;
        self.session_lifetimes.push(lifetime);
        // The helper: None below SaslAuthenticate v1 or without a lifetime.
        let after = reauthenticate_after(version, lifetime, &mut self.jitter);
        self.reauthenticate_at = after.map(|after| Instant::now() + after);
        let next = after.map_or_else(|| "never".to_string(), |after| format!("after {} ms", after.as_millis()));
        println!(
            "  SASL/PLAIN v{version}: authenticated as {user}, session lifetime {lifetime} ms, re-authenticate {next}"
        );
        Ok(())
    }

    /// Metadata for `topic` (or every topic), without creating anything.
    async fn metadata(&mut self, topic: Option<&str>) -> Result<(MetadataResponse, i16), ClientError> {
        let version = self.version(ApiKey::Metadata, 0)?;
        let topics = match topic {
            Some(name) => Some(vec![MetadataRequestTopic { name: Some(name.into()), ..Default::default() }]),
            // v0 has no null: an empty list means all topics.
            None if version == 0 => Some(Vec::new()),
            None => None,
        };
        // Not ignorable before v4, where it must keep its default (true).
        let request = MetadataRequest { topics, allow_auto_topic_creation: version < 4, ..Default::default() };
        Ok((self.send(request, version).await?, version))
    }
}

fn address(broker: &MetadataResponseBroker) -> String {
    format!("{}:{}", broker.host, broker.port)
}

/// The connections of one run, one per broker address.
struct Client {
    args: Args,
    connections: HashMap<String, Connection>,
}

impl Client {
    async fn connection(&mut self, addr: &str) -> Result<&mut Connection, ClientError> {
        if !self.connections.contains_key(addr) {
            println!("connect {addr}");
            let conn = Connection::open(addr, self.args.timeout, self.args.sasl.as_ref()).await?;
            self.connections.insert(addr.to_string(), conn);
        }
        self.connections.get_mut(addr).ok_or(ClientError::Closed)
    }

    /// The address of node `node_id`, from a Metadata response.
    fn node(metadata: &MetadataResponse, node_id: i32) -> Option<String> {
        metadata.brokers.iter().find(|b| b.node_id == node_id).map(address)
    }

    async fn run(&mut self) -> Result<(), ClientError> {
        let bootstrap = self.args.bootstrap.clone();
        let (metadata, version) = self.connection(&bootstrap).await?.metadata(None).await?;
        let brokers: Vec<String> = metadata.brokers.iter().map(|b| format!("{}@{}", b.node_id, address(b))).collect();
        println!(
            "metadata v{version}: cluster {:?}, brokers {brokers:?}, controller {}, {} topics",
            metadata.cluster_id.as_deref().unwrap_or("?"),
            metadata.controller_id,
            metadata.topics.len()
        );

        if let Some(topic) = self.args.fetch_only.clone() {
            let (leader, topic_id) = self.wait_for_leader(&bootstrap, &topic).await?;
            return self.fetch(&leader, &topic, topic_id, 0, self.args.expect).await;
        }

        // CreateTopics goes to the controller (brokers forward it anyway).
        let topic = self.args.topic.clone().unwrap_or_else(|| format!("kwire-example-{:08x}", random_u32()));
        let controller = Self::node(&metadata, metadata.controller_id).unwrap_or_else(|| bootstrap.clone());
        let conn = self.connection(&controller).await?;
        let version = conn.version(ApiKey::CreateTopics, 0)?;
        let request = CreateTopicsRequest {
            topics: vec![CreatableTopic {
                name: topic.clone().into(),
                num_partitions: 1,
                replication_factor: 1,
                ..Default::default()
            }],
            timeout_ms: 10_000,
            ..Default::default()
        };
        let body = conn.send(request, version).await?;
        let result = body.topics.first().ok_or(ClientError::Unexpected("CreateTopics"))?;
        if result.error_code != 0 {
            return Err(kafka_error(
                format!("CreateTopics {topic}: {}", result.error_message.clone().unwrap_or_default()),
                result.error_code,
            ));
        }
        println!("create topic v{version}: {topic} (1 partition) on {controller}");

        let (leader, topic_id) = self.wait_for_leader(&bootstrap, &topic).await?;
        if let Some(duration) = self.args.produce_fetch_for {
            return self.produce_fetch_for(&leader, &topic, topic_id, duration).await;
        }
        let produced_offset = self.produce(&leader, &topic, topic_id).await?;
        self.fetch(&leader, &topic, topic_id, produced_offset, 3).await
    }

    /// `--produce-fetch-for`: rounds of Produce then Fetch of three records
    /// on the leader's connection until `duration` has passed, every answer
    /// checked; [`Connection::send`] re-authenticates when due. Fails if a
    /// second connection had to be opened.
    async fn produce_fetch_for(
        &mut self,
        leader: &str,
        topic: &str,
        topic_id: Uuid,
        duration: Duration,
    ) -> Result<(), ClientError> {
        let started = Instant::now();
        let mut rounds = 0usize;
        while started.elapsed() < duration {
            let offset = self.produce(leader, topic, topic_id).await?;
            self.fetch(leader, topic, topic_id, offset, 3).await?;
            rounds += 1;
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        let conn = self.connection(leader).await?;
        let (reauthentications, lifetimes) = (conn.reauthentications, conn.session_lifetimes.clone());
        let connections = self.connections.len();
        println!(
            "produce-fetch: rounds {rounds}, connections {connections}, reauthentications {reauthentications}, \
             seconds {}, session lifetimes ms {lifetimes:?}",
            started.elapsed().as_secs()
        );
        if connections != 1 {
            return Err(ClientError::Check(format!("{connections} connections were opened, expected one")));
        }
        Ok(())
    }

    /// Waits until partition 0 of `topic` has a leader: its address and the
    /// topic id.
    async fn wait_for_leader(&mut self, bootstrap: &str, topic: &str) -> Result<(String, Uuid), ClientError> {
        let deadline = Instant::now() + self.args.timeout;
        let (leader, topic_id) = loop {
            let (metadata, _) = self.connection(bootstrap).await?.metadata(Some(topic)).await?;
            let ready = metadata.topics.first().filter(|t| t.error_code == 0).and_then(|t| {
                let p =
                    t.partitions.iter().find(|p| p.partition_index == 0 && p.error_code == 0 && p.leader_id >= 0)?;
                Some((Self::node(&metadata, p.leader_id)?, t.topic_id))
            });
            if let Some(ready) = ready {
                break ready;
            }
            if Instant::now() >= deadline {
                return Err(ClientError::Check(format!("{topic} has no leader after {:?}", self.args.timeout)));
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        println!("metadata: {topic} partition 0 led by {leader}, topic id {topic_id}");
        Ok((leader, topic_id))
    }

    async fn produce(&mut self, leader: &str, topic: &str, topic_id: Uuid) -> Result<i64, ClientError> {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64);
        let compression = self.args.compression;
        let mut batch = RecordBatchBuilder::new(0);
        batch.compression(compression);
        for i in 0..3 {
            let (key, value, _) = expected_record(i, self.args.pad);
            let headers = vec![Header::new("h", Some(Bytes::from_static(b"v")))];
            batch.append(now + i as i64, Some(key.into()), Some(value.into()), headers);
        }
        let records = batch.to_bytes().map_err(|e| ClientError::Check(format!("cannot build the batch: {e}")))?;
        let size = records.len();
        let deadline = Instant::now() + self.args.timeout;
        let conn = self.connection(leader).await?;
        let mut version = conn.version(ApiKey::Produce, MIN_PRODUCE)?;
        if topic_id.is_nil() && version >= 13 {
            // Produce v13+ names topics by id (KIP-516), as Fetch v13+ does.
            version = 12;
        }
        let request = ProduceRequest {
            transactional_id: None,
            acks: -1,
            timeout_ms: 10_000,
            topic_data: vec![TopicProduceData {
                name: topic.into(), // v0-12
                topic_id,           // v13+
                partition_data: vec![PartitionProduceData { index: 0, records: Some(records), ..Default::default() }],
                ..Default::default()
            }],
            ..Default::default()
        };
        let partition = loop {
            let body = conn.send(request.clone(), version).await?;
            let partition = body
                .responses
                .into_iter()
                .next()
                .and_then(|t| t.partition_responses.into_iter().next())
                .ok_or(ClientError::Unexpected("Produce"))?;
            // A partition just created may not be led yet where Metadata says.
            if retriable(partition.error_code) && Instant::now() < deadline {
                println!("  Produce: error {} (retriable); retrying", partition.error_code);
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
            break partition;
        };
        if partition.error_code != 0 {
            return Err(kafka_error("Produce", partition.error_code));
        }
        println!(
            "produce v{version}: 3 records (header h=v) in one batch ({compression}, {size} bytes) at offset {}",
            partition.base_offset
        );
        Ok(partition.base_offset)
    }

    /// Fetches `expect` records of partition 0 from offset `from`,
    /// decompressing each batch, and checks them against
    /// [`expected_record`] and each batch's codec against `--compression`.
    async fn fetch(
        &mut self,
        leader: &str,
        topic: &str,
        topic_id: Uuid,
        from: i64,
        expect: usize,
    ) -> Result<(), ClientError> {
        let timeout = self.args.timeout;
        let codec = self.args.compression;
        let pad = self.args.pad;
        let conn = self.connection(leader).await?;
        let mut version = conn.version(ApiKey::Fetch, MIN_FETCH)?;
        if topic_id.is_nil() && version >= 13 {
            // Fetch v13+ names topics by id; without one (a broker that
            // does not give ids), fall back to v12 as Kafka's client does.
            version = 12;
        }
        let deadline = Instant::now() + timeout;
        let mut got: Vec<(i64, String, String, String)> = Vec::new();
        let mut offset = from;
        while got.len() < expect {
            if Instant::now() >= deadline {
                return Err(ClientError::Check(format!("fetched {} of {expect} records in {timeout:?}", got.len())));
            }
            let request = FetchRequest {
                max_wait_ms: 500,
                min_bytes: 1,
                topics: vec![FetchTopic {
                    topic: topic.into(), // v0-12
                    topic_id,            // v13+
                    partitions: vec![FetchPartition {
                        partition: 0,
                        fetch_offset: offset,
                        partition_max_bytes: 1 << 20,
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
                ..Default::default()
            };
            let body = conn.send(request, version).await?;
            if body.error_code != 0 {
                return Err(kafka_error("Fetch", body.error_code));
            }
            let partition =
                body.responses.first().and_then(|t| t.partitions.first()).ok_or(ClientError::Unexpected("Fetch"))?;
            if retriable(partition.error_code) {
                // Until the deadline above, as for Produce.
                println!("  Fetch: error {} (retriable); retrying", partition.error_code);
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
            if partition.error_code != 0 {
                return Err(kafka_error("Fetch", partition.error_code));
            }
            for batch in Batches::new(partition.records.clone().unwrap_or_default()) {
                let batch = batch.map_err(|e| ClientError::Check(format!("bad record batch: {e}")))?;
                let Batch::V2(batch) = batch else { return Err(ClientError::Check("legacy message set".into())) };
                let header = *batch.header();
                if header.last_offset() < offset {
                    continue;
                }
                let id = header.attributes.compression_id();
                let name = header.attributes.compression().map_or("unknown", Compression::name);
                // Snappy comes xerial-framed (Kafka's Java client) or as one raw block.
                let framing = match header.attributes.compression() {
                    Some(Compression::Snappy) if batch.records_bytes().starts_with(&XERIAL_HEADER[..8]) => {
                        ", xerial framing"
                    }
                    Some(Compression::Snappy) => ", raw snappy block",
                    _ => "",
                };
                println!(
                    "  batch at offset {}: {} records, codec {id} ({name}{framing}), {} bytes",
                    header.base_offset,
                    header.record_count,
                    batch.as_bytes().len()
                );
                if header.attributes.compression() != Some(codec) {
                    return Err(ClientError::Check(format!(
                        "batch at offset {} is compressed with codec {id} ({name}), expected {} ({codec})",
                        header.base_offset,
                        codec.id()
                    )));
                }
                let records = batch
                    .records(&DecodeOptions::default())
                    .map_err(|e| ClientError::Check(format!("bad records: {e}")))?;
                for record in records {
                    let record = record.map_err(|e| ClientError::Check(format!("bad record: {e}")))?;
                    let at = header.offset_of(&record);
                    if at < offset {
                        continue;
                    }
                    let text = |b: Option<Bytes>| String::from_utf8_lossy(&b.unwrap_or_default()).into_owned();
                    let headers: Vec<String> = record
                        .headers
                        .iter()
                        .map(|h| format!("{}={}", String::from_utf8_lossy(&h.key), text(h.value.clone())))
                        .collect();
                    got.push((at, text(record.key), text(record.value), headers.join(",")));
                    offset = at + 1;
                }
            }
        }
        if got.len() > expect {
            return Err(ClientError::Check(format!("fetched {} records, expected {expect}: {got:?}", got.len())));
        }
        for (i, (at, key, value, headers)) in got.iter().enumerate() {
            let (k, v, h) = expected_record(i, pad);
            let expected = (from + i as i64, k, v, h);
            if (*at, key.clone(), value.clone(), headers.clone()) != expected {
                return Err(ClientError::Check(format!("record {i}: got {:?}, expected {expected:?}", got[i])));
            }
        }
        let shown: Vec<_> = got
            .iter()
            .map(|(at, key, value, headers)| {
                let value = match value.char_indices().nth(16) {
                    Some((cut, _)) => format!("{}..({} bytes)", &value[..cut], value.len()),
                    None => value.clone(),
                };
                (*at, key.clone(), value, headers.clone())
            })
            .collect();
        println!("fetch v{version}: {} records, every batch {codec}: {shown:?}", got.len());
        Ok(())
    }
}

/// Partition errors of a topic that is still being set up (its leadership
/// not yet known everywhere): worth a retry. UNKNOWN_TOPIC_OR_PARTITION (3),
/// LEADER_NOT_AVAILABLE (5), NOT_LEADER_OR_FOLLOWER (6), UNKNOWN_TOPIC_ID (100).
fn retriable(code: i16) -> bool {
    matches!(code, 3 | 5 | 6 | 100)
}

fn random_u32() -> u32 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64));
    h.finish() as u32
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(Some(args)) => args,
        Ok(None) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("client: {e}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("client: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut client = Client { args, connections: HashMap::new() };
    match runtime.block_on(client.run()) {
        Ok(()) => {
            println!("OK");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("FAIL: {e}");
            ExitCode::FAILURE
        }
    }
}
