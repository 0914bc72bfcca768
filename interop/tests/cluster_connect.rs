//! KIP-507 against a real Apache Kafka Connect distributed worker
//! (`connect-runtime` of the release `interop/scripts/kafka-cluster.sh` runs, 4.4.0):
//! kwire reads the session key Kafka's leader wrote into the config
//! topic, signs internal requests that the worker accepts or refuses, sees
//! the key rotate, and joins the worker's group with the Connect group
//! protocol (`sessioned`).
//!
//! The last test runs two workers of one group behind the relay of
//! `interop/scripts/kafka-cluster.sh` (`KAFKA_CLUSTER_RELAY=1`, which logs every
//! frame between the workers and the broker) and checks the JoinGroup and
//! SyncGroup blobs Kafka's workers exchanged, as the relay decoded them with
//! kwire's Connect schemas.
//!
//! Each test starts its own worker (`ConnectDistributed`, from the cluster's
//! classpath) on a free REST port with a unique group id and unique storage
//! topics, so that it can share a long-running cluster; the worker is killed
//! when the test ends. Skipped outside CI when no cluster runs.
//!
//! What the 4.4.0 worker does, as checked here:
//! - the session key is the config-topic record with key `session-key`, its
//!   value `{"key":<base64>,"algorithm":<JCA name>,"creation-timestamp":<ms>}`;
//! - the signed internal endpoint is `POST /connectors/{connector}/tasks`
//!   (body: a JSON list of task configurations), headers
//!   `X-Connect-Authorization` (base64 of the HMAC of the raw body) and
//!   `X-Connect-Request-Signature-Algorithm`;
//! - a good signature passes on to the request itself (404 for an unknown
//!   connector), a wrong key, a stale key or a changed body get 403, a request
//!   without the signature headers or with an algorithm the worker does not
//!   verify gets 400, and so does one whose algorithm name differs from a
//!   permitted one in letter case only (`hmacsha256`);
//! - a session-key record with an empty key is not taken (`SecretKeySpec`
//!   throws, which also ends the thread reading the config topic): the
//!   worker keeps its key, and a MAC made with the empty key is refused (403).

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::cluster::{unique, Cluster};
use common::conn::Conn;
use kwire::messages::join_group_request::JoinGroupRequestProtocol;
use kwire::messages::leave_group_request::MemberIdentity;
use kwire::messages::{DescribeGroupsRequest, JoinGroupRequest, LeaveGroupRequest, SyncGroupRequest};
use kwire::records::{DecodeOptions, RecordBatchBuilder};
use kwire_connect::messages::ConnectWorkerMetadata;
use kwire_connect::protocol::{
    decode_allocation, decode_assignment, decode_worker_metadata, worker_metadata_to_bytes, ConnectProtocol,
};
use kwire_connect::session_key::SESSION_KEY_RECORD_KEY;
use kwire_connect::signing::{AUTHORIZATION_HEADER, SIGNATURE_ALGORITHM_HEADER};
use kwire_connect::{verify, InterWorkerConfig, SessionKey, SessionKeyError, SignatureAlgorithm, SignatureError};

/// One worker at a time: each is a JVM, and the machines are small.
static ONE_WORKER: Mutex<()> = Mutex::new(());

/// Kafka's answers, as Connect 4.4.0 words them.
const INVALID_SIGNATURE: &str = "Internal request contained invalid signature.";
const MISSING_SIGNATURE: &str = "Internal request missing required signature";
/// What Java's `SecretKeySpec` throws for an empty key, in the worker's log.
const EMPTY_KEY_REFUSED: &str = "java.lang.IllegalArgumentException: Empty key";

fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).expect("clock").as_millis() as i64
}

/// A free TCP port on 127.0.0.1 (bound to port 0, then released).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0").local_addr().expect("local addr").port()
}

/// A running `ConnectDistributed` worker; killed (and its directory removed)
/// on drop, its log printed first when the test is failing.
struct Worker {
    child: Child,
    dir: PathBuf,
    port: u16,
    group: String,
    config_topic: String,
    settings: BTreeMap<String, String>,
}

impl Worker {
    /// Starts a worker against `cluster` with the common settings plus
    /// `extra` (which may override them), in a group of its own.
    fn start(cluster: &Cluster, name: &str, extra: &[(&str, &str)]) -> Worker {
        Worker::start_in(cluster, name, &unique(&format!("kw-{name}")), cluster.broker(), extra)
    }

    /// Starts a worker of group `group` (whose storage topics are named
    /// after it) bootstrapping at `bootstrap`.
    fn start_in(cluster: &Cluster, name: &str, group: &str, bootstrap: &str, extra: &[(&str, &str)]) -> Worker {
        let dir = std::env::temp_dir().join(unique(&format!("kwire-{name}")));
        fs::create_dir_all(&dir).expect("worker dir");
        let port = free_port();
        let group = group.to_string();
        let config_topic = format!("{group}-configs");
        let mut settings = BTreeMap::new();
        let mut set = |k: &str, v: &str| {
            settings.insert(k.to_string(), v.to_string());
        };
        set("bootstrap.servers", bootstrap);
        set("group.id", &group);
        set("config.storage.topic", &config_topic);
        set("offset.storage.topic", &format!("{group}-offsets"));
        set("status.storage.topic", &format!("{group}-status"));
        set("config.storage.replication.factor", "1");
        set("offset.storage.replication.factor", "1");
        set("status.storage.replication.factor", "1");
        set("offset.storage.partitions", "1");
        set("status.storage.partitions", "1");
        set("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        set("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        set("listeners", &format!("http://127.0.0.1:{port}"));
        set("rest.advertised.host.name", "127.0.0.1");
        set("rest.advertised.port", &port.to_string());
        set("connect.protocol", "sessioned");
        // No plugin scanning of the (large) cluster classpath.
        set("plugin.discovery", "service_load");
        for (k, v) in extra {
            set(k, v);
        }
        let properties: String = settings.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
        let properties_path = dir.join("worker.properties");
        fs::write(&properties_path, properties).expect("worker.properties");
        let log4j = dir.join("log4j2.properties");
        fs::write(
            &log4j,
            "status = error\n\
             appender.out.type = Console\n\
             appender.out.name = out\n\
             appender.out.layout.type = PatternLayout\n\
             appender.out.layout.pattern = [%d] %p %m (%c)%n\n\
             rootLogger.level = INFO\n\
             rootLogger.appenderRef.out.ref = out\n\
             logger.clients.name = org.apache.kafka.clients\n\
             logger.clients.level = WARN\n\
             logger.config.name = org.apache.kafka.common.config.AbstractConfig\n\
             logger.config.level = WARN\n",
        )
        .expect("log4j2.properties");
        let log = fs::File::create(dir.join("worker.log")).expect("worker.log");
        let child = Command::new("java")
            .arg("-Xmx384m")
            .arg(format!("-Dlog4j2.configurationFile={}", log4j.display()))
            .arg("-cp")
            .arg(cluster.var("KAFKA_CLUSTER_CLASSPATH"))
            .arg("org.apache.kafka.connect.cli.ConnectDistributed")
            .arg(&properties_path)
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("log"))
            .stderr(log)
            .spawn()
            .expect("java runs");
        Worker { child, dir, port, group, config_topic, settings }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    /// Panics when the worker's JVM has exited.
    fn assert_running(&mut self) {
        if let Some(status) = self.child.try_wait().expect("try_wait") {
            panic!("the worker on port {} exited ({status})", self.port);
        }
    }

    /// The worker's `inter.worker.*` settings as kwire reads them.
    fn inter_worker_config(&self) -> InterWorkerConfig {
        InterWorkerConfig::from_settings(|k: &str| self.settings.get(k).cloned()).expect("valid inter.worker settings")
    }

    /// Waits (up to 180 s) for `GET /` to answer 200; its JSON.
    fn wait_rest(&mut self) -> serde_json::Value {
        let deadline = Instant::now() + Duration::from_secs(180);
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                panic!("the worker exited ({status}) before its REST API answered");
            }
            if let Ok((200, body)) = http(self.port, "GET", "/", &[], b"") {
                return serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET / is not JSON ({e}): {body}"));
            }
            assert!(Instant::now() < deadline, "the worker's REST API did not answer within 180 s");
            std::thread::sleep(Duration::from_millis(500));
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if std::thread::panicking() {
            let log = fs::read_to_string(self.dir.join("worker.log")).unwrap_or_default();
            let tail: Vec<&str> = log.lines().rev().take(150).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            let _ = writeln!(std::io::stderr(), "--- worker log (last 150 lines) ---\n{}", tail.join("\n"));
        }
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// One HTTP/1.1 request to 127.0.0.1:`port` (`Connection: close`): the
/// status code and the body (de-chunked).
fn http(port: u16, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> std::io::Result<(u16, String)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(60)))?;
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nAccept: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    if !body.is_empty() {
        request.push_str("Content-Type: application/json\r\n");
    }
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    let mut wire = request.into_bytes();
    wire.extend_from_slice(body);
    stream.write_all(&wire)?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response)?;
    let text = String::from_utf8_lossy(&response).into_owned();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("not an HTTP response: {head:?}")))?;
    let chunked = head.lines().any(|l| {
        let l = l.to_ascii_lowercase();
        l.starts_with("transfer-encoding:") && l.contains("chunked")
    });
    let body = if chunked { dechunk(rest) } else { rest.to_string() };
    Ok((status, body))
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16).unwrap_or(0);
        if size == 0 || after.len() < size {
            break;
        }
        out.push_str(&after[..size]);
        rest = after[size..].trim_start_matches("\r\n");
    }
    out
}

/// The answer to `POST /connectors/{connector}/tasks` with `body` and
/// `headers`: the status and the error message (`message` of the JSON body,
/// or the raw body).
fn post_tasks(worker: &Worker, connector: &str, body: &[u8], headers: &[(&str, &str)]) -> (u16, String) {
    let (status, text) = http(worker.port, "POST", &format!("/connectors/{connector}/tasks"), headers, body)
        .unwrap_or_else(|e| panic!("POST /connectors/{connector}/tasks: {e}"));
    let message = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("message").and_then(|m| m.as_str()).map(str::to_string))
        .unwrap_or(text);
    (status, message)
}

/// Every session-key record of the worker's config topic so far, in order:
/// the key and the record's timestamp; each value also checked to be the
/// JSON kwire writes for that key (`SessionKey::to_json`).
fn session_keys(conn: &mut Conn, topic: &str) -> Vec<SessionKey> {
    let (topic_id, partitions) = conn.partitions(topic);
    assert_eq!(partitions, vec![0], "the config topic has one partition");
    let fetched = conn.fetch_all(topic, topic_id, 0);
    let mut keys = Vec::new();
    for batch in &fetched.batches {
        for record in batch.records(&DecodeOptions::default()).expect("config topic records") {
            let record = record.expect("config topic record");
            if record.key.as_deref() != Some(SESSION_KEY_RECORD_KEY.as_bytes()) {
                continue;
            }
            let value = record.value.clone().expect("a session key record has a value");
            let key = SessionKey::from_json_slice(&value)
                .unwrap_or_else(|e| panic!("session key {:?}: {e}", String::from_utf8_lossy(&value)));
            assert_eq!(key.to_json().as_bytes(), &value[..], "kwire writes Kafka's session key JSON byte for byte");
            keys.push(key);
        }
    }
    keys
}

/// Waits (up to `secs`) for the config topic to hold more than `seen`
/// session keys; all of them.
fn wait_keys(conn: &mut Conn, topic: &str, seen: usize, secs: u64) -> Vec<SessionKey> {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let keys = session_keys(conn, topic);
        if keys.len() > seen {
            return keys;
        }
        assert!(Instant::now() < deadline, "no session key after #{seen} in {topic} within {secs} s");
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// `POST /connectors/{connector}/tasks` with `body`, signed by kwire
/// with `algorithm` under the newest session key of the config topic: the
/// answer and the key used. The leader reads its new keys back from the topic
/// a moment after they are written, so a 403 under a key the topic just
/// gained is retried (a few times) with the then newest key; a key within
/// 1.5 s of its rotation is waited out.
fn post_signed_current(
    worker: &Worker,
    conn: &mut Conn,
    connector: &str,
    body: &[u8],
    algorithm: SignatureAlgorithm,
) -> ((u16, String), SessionKey) {
    let ttl = worker.inter_worker_config().key_ttl_ms;
    let mut attempts = 0;
    loop {
        attempts += 1;
        let keys = session_keys(conn, &worker.config_topic);
        let key = keys.last().cloned().expect("a session key");
        if key.rotation_due_at_ms(ttl) - now_ms() < 1_500 {
            std::thread::sleep(Duration::from_millis(500));
            continue;
        }
        let headers = algorithm.sign_headers(key.key(), body);
        let answer = post_tasks(worker, connector, body, &headers.pairs());
        if answer.0 == 403 && attempts < 6 {
            std::thread::sleep(Duration::from_millis(500));
            continue;
        }
        return (answer, key);
    }
}

/// What kwire's `verify` says of a request the worker answered, with
/// the worker's key and verification algorithms.
fn kwire_verdict(
    config: &InterWorkerConfig,
    key: &SessionKey,
    body: &[u8],
    headers: &[(&str, &str)],
) -> Result<(), SignatureError> {
    let header = |name: &str| headers.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
    verify(
        body,
        header(AUTHORIZATION_HEADER),
        header(SIGNATURE_ALGORITHM_HEADER),
        Some(key.key()),
        &config.verification_algorithms,
    )
}

/// Starts a worker with `extra` settings and waits for its REST API and its
/// first session key; the worker, a broker connection, the first key.
fn started(cluster: &Cluster, name: &str, extra: &[(&str, &str)]) -> (Worker, Conn, SessionKey) {
    let before = now_ms();
    let mut worker = Worker::start(cluster, name, extra);
    let root = worker.wait_rest();
    assert_eq!(root["version"], serde_json::json!(cluster.var("KAFKA_CLUSTER_VERSION")), "GET /: {root}");
    let mut conn = Conn::connect(cluster.broker(), "kwire-cluster-connect");
    let keys = wait_keys(&mut conn, &worker.config_topic, 0, 120);
    let first = keys[0].clone();
    let config = worker.inter_worker_config();
    assert_eq!(first.algorithm(), config.key_generation_algorithm, "{first:?}");
    assert_eq!(first.key().len(), config.key_size_bytes(), "{first:?}");
    let created = first.creation_timestamp_ms();
    assert!(created >= before - 1_000 && created <= now_ms() + 1_000, "creation timestamp {created} not in this run");
    (worker, conn, first)
}

#[test]
fn sessioned_worker_hmac_sha256_signatures_and_rotation() {
    let Some(cluster) = Cluster::find("KIP-507 against a real Connect worker") else { return };
    let _one = ONE_WORKER.lock().unwrap_or_else(|e| e.into_inner());
    // Connect allows any TTL from 0 to i32::MAX ms: 6 s shows a rotation.
    const TTL_MS: u64 = 6_000;
    let ttl = TTL_MS.to_string();
    let (worker, mut conn, first) = started(&cluster, "connect-sha256", &[("inter.worker.key.ttl.ms", &ttl)]);
    let config = worker.inter_worker_config();
    assert_eq!(config.key_ttl_ms, TTL_MS);
    assert_eq!((first.algorithm(), first.key().len()), (SignatureAlgorithm::HmacSHA256, 32));

    let connector = unique("kw-no-such-connector");
    let body = br#"[{"kwire":"kip-507","tasks.max":"1"}]"#;
    let not_found = format!("Connector {connector} not found");

    // Signed by kwire under the current key: past the signature check,
    // on to the request itself (an unknown connector).
    let ((status, message), key) =
        post_signed_current(&worker, &mut conn, &connector, body, SignatureAlgorithm::HmacSHA256);
    assert_eq!((status, message.as_str()), (404, not_found.as_str()), "a good signature");
    let headers = SignatureAlgorithm::HmacSHA256.sign_headers(key.key(), body);
    assert_eq!(kwire_verdict(&config, &key, body, &headers.pairs()), Ok(()));

    // The same under a wrong key: 403.
    let mut wrong = key.key().to_vec();
    wrong[0] ^= 1;
    let headers = SignatureAlgorithm::HmacSHA256.sign_headers(&wrong, body);
    assert_eq!(post_tasks(&worker, &connector, body, &headers.pairs()), (403, INVALID_SIGNATURE.to_string()));
    assert_eq!(kwire_verdict(&config, &key, body, &headers.pairs()), Err(SignatureError::BadSignature));

    // A body other than the one signed: 403.
    let headers = SignatureAlgorithm::HmacSHA256.sign_headers(key.key(), body);
    let tampered = br#"[{"kwire":"kip-508","tasks.max":"1"}]"#;
    assert_eq!(post_tasks(&worker, &connector, tampered, &headers.pairs()), (403, INVALID_SIGNATURE.to_string()));
    assert_eq!(kwire_verdict(&config, &key, tampered, &headers.pairs()), Err(SignatureError::BadSignature));

    // No signature headers at all: 400.
    assert_eq!(post_tasks(&worker, &connector, body, &[]), (400, MISSING_SIGNATURE.to_string()));
    assert_eq!(kwire_verdict(&config, &key, body, &[]), Err(SignatureError::MissingHeader(AUTHORIZATION_HEADER)));

    // An algorithm the worker does not verify with (HmacSHA512; only
    // HmacSHA256 is permitted by default): 400, whatever the MAC.
    let headers = SignatureAlgorithm::HmacSHA512.sign_headers(key.key(), body);
    let (status, message) = post_tasks(&worker, &connector, body, &headers.pairs());
    assert_eq!(status, 400, "{message}");
    assert!(message.contains("does not support the 'HmacSHA512' key signing algorithm"), "{message}");
    assert!(matches!(
        kwire_verdict(&config, &key, body, &headers.pairs()),
        Err(SignatureError::AlgorithmNotPermitted { algorithm, .. }) if algorithm == "HmacSHA512"
    ));

    // The right MAC under the right key, but the algorithm spelled
    // `hmacsha256`: the worker compares the name as a string, 400.
    let headers = SignatureAlgorithm::HmacSHA256.sign_headers(key.key(), body);
    let lower = [(AUTHORIZATION_HEADER, headers.authorization.as_str()), (SIGNATURE_ALGORITHM_HEADER, "hmacsha256")];
    let (status, message) = post_tasks(&worker, &connector, body, &lower);
    assert_eq!(status, 400, "{message}");
    assert!(message.contains("does not support the 'hmacsha256' key signing algorithm"), "{message}");
    assert_eq!(
        kwire_verdict(&config, &key, body, &lower),
        Err(SignatureError::AlgorithmNotPermitted {
            algorithm: "hmacsha256".into(),
            permitted: vec![SignatureAlgorithm::HmacSHA256]
        })
    );

    // Rotation: the leader writes a new key once the TTL has passed.
    let seen = session_keys(&mut conn, &worker.config_topic).len();
    let keys = wait_keys(&mut conn, &worker.config_topic, seen, 60);
    for pair in keys.windows(2) {
        let (old, new) = (&pair[0], &pair[1]);
        assert_ne!(old.key(), new.key(), "a rotation makes new key bytes");
        assert!(!old.is_current(new));
        assert_eq!(new.algorithm(), SignatureAlgorithm::HmacSHA256);
        assert_eq!(new.key().len(), 32);
        assert!(
            old.needs_rotation(new.creation_timestamp_ms(), TTL_MS),
            "rotated at {} before {} + {TTL_MS}",
            new.creation_timestamp_ms(),
            old.creation_timestamp_ms()
        );
        // Not much later either: the leader rotates on time (10 s slack).
        assert!(new.creation_timestamp_ms() < old.rotation_due_at_ms(TTL_MS) + 10_000, "{old:?} -> {new:?}");
    }

    // The first key is now stale: refused, once the worker has read its
    // successor (a moment after the topic holds it).
    let stale = SignatureAlgorithm::HmacSHA256.sign_headers(first.key(), body);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let answer = post_tasks(&worker, &connector, body, &stale.pairs());
        if answer.0 == 403 {
            assert_eq!(answer.1, INVALID_SIGNATURE);
            break;
        }
        assert!(Instant::now() < deadline, "a stale key still accepted: {answer:?}");
        std::thread::sleep(Duration::from_millis(300));
    }
    // ... and the newest one accepted.
    let ((status, message), newest) =
        post_signed_current(&worker, &mut conn, &connector, body, SignatureAlgorithm::HmacSHA256);
    assert_eq!((status, message.as_str()), (404, not_found.as_str()), "the rotated key");
    assert!(newest.creation_timestamp_ms() > first.creation_timestamp_ms());
    assert!(!first.is_current(&newest));
}

#[test]
fn sessioned_worker_hmac_sha512() {
    let Some(cluster) = Cluster::find("KIP-507 against a real Connect worker") else { return };
    let _one = ONE_WORKER.lock().unwrap_or_else(|e| e.into_inner());
    let (worker, mut conn, first) = started(
        &cluster,
        "connect-sha512",
        &[
            ("inter.worker.key.generation.algorithm", "HmacSHA512"),
            ("inter.worker.signature.algorithm", "HmacSHA512"),
            ("inter.worker.verification.algorithms", "HmacSHA512"),
        ],
    );
    let config = worker.inter_worker_config();
    // Java's KeyGenerator makes HmacSHA512 keys of 512 bits by default.
    assert_eq!((first.algorithm(), first.key().len()), (SignatureAlgorithm::HmacSHA512, 64));
    assert_eq!(config.verification_algorithms, vec![SignatureAlgorithm::HmacSHA512]);

    let connector = unique("kw-no-such-connector");
    let body = br#"[{"kwire":"kip-507-sha512"}]"#;
    let ((status, message), key) =
        post_signed_current(&worker, &mut conn, &connector, body, SignatureAlgorithm::HmacSHA512);
    assert_eq!((status, message), (404, format!("Connector {connector} not found")), "a good HmacSHA512 signature");

    // HmacSHA256 under the right key is not permitted here: 400.
    let headers = SignatureAlgorithm::HmacSHA256.sign_headers(key.key(), body);
    let (status, message) = post_tasks(&worker, &connector, body, &headers.pairs());
    assert_eq!(status, 400, "{message}");
    assert!(message.contains("does not support the 'HmacSHA256' key signing algorithm"), "{message}");
    assert!(matches!(
        kwire_verdict(&config, &key, body, &headers.pairs()),
        Err(SignatureError::AlgorithmNotPermitted { algorithm, .. }) if algorithm == "HmacSHA256"
    ));

    // A wrong HmacSHA512 signature: 403.
    let headers = SignatureAlgorithm::HmacSHA512.sign_headers(b"not the session key", body);
    assert_eq!(post_tasks(&worker, &connector, body, &headers.pairs()), (403, INVALID_SIGNATURE.to_string()));
}

/// Writes a session-key record whose value is `value` into the config topic
/// `topic` (one partition), as the leader writes its keys.
fn write_session_key_record(conn: &mut Conn, topic: &str, value: &str) {
    let (topic_id, _) = conn.partitions(topic);
    let mut builder = RecordBatchBuilder::new(0);
    builder.append(now_ms(), Some(SESSION_KEY_RECORD_KEY.into()), Some(value.to_string().into()), Vec::new());
    let records = builder.to_bytes().expect("a batch");
    let (code, _) = conn.produce(topic, topic_id, 0, records);
    assert_eq!(code, 0, "producing the session key record");
}

/// A session key with no bytes, written into the config topic as the
/// leader writes its keys: Java's `SecretKeySpec` refuses an empty key, so
/// the worker does not take it (and stops reading its config topic: the
/// exception ends that thread). The key it had still signs (404), and the
/// MAC made with the empty key (what an HMAC library allowing it computes:
/// the MAC under one zero byte, keys being zero-padded) gets 403. kwire
/// refuses the record (`SessionKeyError::EmptyKey`), its `verify` takes an
/// empty key for none, and under the worker's key finds the MAC bad.
#[test]
fn empty_session_key_not_taken_by_the_worker() {
    let Some(cluster) = Cluster::find("KIP-507 against a real Connect worker") else { return };
    let _one = ONE_WORKER.lock().unwrap_or_else(|e| e.into_inner());
    let (worker, mut conn, _) = started(&cluster, "connect-empty-key", &[]);
    let config = worker.inter_worker_config();
    let connector = unique("kw-no-such-connector");
    let not_found = format!("Connector {connector} not found");
    let body = br#"[{"kwire":"kip-507-empty-key"}]"#;
    let ((status, message), key) =
        post_signed_current(&worker, &mut conn, &connector, body, SignatureAlgorithm::HmacSHA256);
    assert_eq!((status, message.as_str()), (404, not_found.as_str()), "the worker's own key");

    let empty = format!(r#"{{"key":"","algorithm":"HmacSHA256","creation-timestamp":{}}}"#, now_ms());
    assert!(matches!(SessionKey::from_json(&empty), Err(SessionKeyError::EmptyKey)), "kwire refuses {empty}");
    write_session_key_record(&mut conn, &worker.config_topic, &empty);
    // The worker reads the record and refuses the key: SecretKeySpec's
    // IllegalArgumentException, which also ends the thread that reads the
    // config topic (Connect 4.4.0 logs "Unexpected exception in Thread
    // [KafkaBasedLog Work Thread - <config topic>]").
    let mut worker = worker;
    let deadline = Instant::now() + Duration::from_secs(30);
    while !fs::read_to_string(worker.dir.join("worker.log")).unwrap_or_default().contains(EMPTY_KEY_REFUSED) {
        worker.assert_running();
        assert!(Instant::now() < deadline, "the worker did not refuse the empty key within 30 s");
        std::thread::sleep(Duration::from_millis(200));
    }
    let worker = worker;

    let empty_key_mac = SignatureAlgorithm::HmacSHA256.sign_headers(&[0], body);
    assert_eq!(post_tasks(&worker, &connector, body, &empty_key_mac.pairs()), (403, INVALID_SIGNATURE.to_string()));
    let verdict = |key: &[u8]| {
        let authorization = Some(empty_key_mac.authorization.as_str());
        verify(body, authorization, Some("HmacSHA256"), Some(key), &config.verification_algorithms)
    };
    assert_eq!(verdict(key.key()), Err(SignatureError::BadSignature));
    assert_eq!(verdict(b""), Err(SignatureError::NoSessionKey));
    assert_eq!(SignatureAlgorithm::HmacSHA256.sign(b"", body), Vec::<u8>::new(), "kwire signs nothing with it");

    // The worker kept its key.
    let signed = SignatureAlgorithm::HmacSHA256.sign_headers(key.key(), body);
    assert_eq!(post_tasks(&worker, &connector, body, &signed.pairs()), (404, not_found));
}

#[test]
fn connect_group_protocol_with_a_real_leader() {
    let Some(cluster) = Cluster::find("the Connect group protocol against a real worker") else { return };
    let _one = ONE_WORKER.lock().unwrap_or_else(|e| e.into_inner());
    let (worker, mut reader, _first) = started(&cluster, "connect-group", &[]);
    let mut conn = Conn::connect(cluster.broker(), "kwire-connect-member");
    // The config topic so far: the session key (the default TTL, an hour,
    // rotates nothing during the test).
    let (config_topic_id, _) = reader.partitions(&worker.config_topic);
    let config_end = reader.fetch_all(&worker.config_topic, config_topic_id, 0).high_watermark;

    let url = "http://127.0.0.1:1/kwire/";
    let protocols: Vec<JoinGroupRequestProtocol> = ConnectProtocol::PREFERENCE
        .into_iter()
        .map(|p| JoinGroupRequestProtocol {
            name: p.name().into(),
            metadata: worker_metadata_to_bytes(
                p.version(),
                &ConnectWorkerMetadata { url: url.into(), config_offset: -1, ..Default::default() },
            )
            .expect("worker metadata"),
            ..Default::default()
        })
        .collect();
    let join = |conn: &mut Conn, member_id: &str| {
        conn.call(JoinGroupRequest {
            group_id: worker.group.clone().into(),
            session_timeout_ms: 10_000,
            rebalance_timeout_ms: 60_000,
            member_id: member_id.into(),
            protocol_type: "connect".into(),
            protocols: protocols.clone(),
            ..Default::default()
        })
    };
    let mut joined = join(&mut conn, "");
    if joined.error_code == 79 {
        // MEMBER_ID_REQUIRED: again with the id the coordinator gave.
        let member_id = joined.member_id.clone();
        joined = join(&mut conn, &member_id);
    }
    assert_eq!(joined.error_code, 0, "JoinGroup: {joined:?}");
    assert_eq!(joined.protocol_name.as_deref(), Some("sessioned"), "{joined:?}");
    assert_ne!(joined.leader, joined.member_id, "the worker, first in the group, leads");
    let synced = conn.call(SyncGroupRequest {
        group_id: worker.group.clone().into(),
        generation_id: joined.generation_id,
        member_id: joined.member_id.clone(),
        protocol_type: Some("connect".into()),
        protocol_name: Some("sessioned".into()),
        ..Default::default()
    });
    assert_eq!(synced.error_code, 0, "SyncGroup: {synced:?}");
    let assignment = decode_assignment(synced.assignment.clone()).expect("the leader's assignment decodes");
    assert_eq!(assignment.version, ConnectProtocol::Sessioned.version(), "{assignment:?}");
    let body = &assignment.body;
    assert_eq!(body.error, 0, "{assignment:?}");
    assert_eq!(body.leader, joined.leader, "{assignment:?}");
    assert_eq!(body.leader_url, worker.url(), "{assignment:?}");
    // Connect's config offset: the offset after the last config record read.
    assert!(config_end >= 1, "the session key at least");
    assert_eq!(body.config_offset, config_end, "{assignment:?}");
    // Nothing for a member that has not caught up with the config topic.
    assert!(body.assignment.as_ref().is_none_or(|a| a.is_empty()), "{assignment:?}");

    // Kafka's own blobs, as the coordinator keeps them: the worker's
    // sessioned metadata (with its current allocation) and its assignment.
    let described =
        conn.call(DescribeGroupsRequest { groups: vec![worker.group.clone().into()], ..Default::default() });
    let group = &described.groups[0];
    assert_eq!((group.error_code, &*group.protocol_type), (0, "connect"), "{group:?}");
    assert_eq!(group.protocol_data, "sessioned", "{group:?}");
    let leader = group.members.iter().find(|m| m.member_id == joined.leader).expect("the worker is described");
    let metadata = decode_worker_metadata(leader.member_metadata.clone()).expect("the worker's metadata decodes");
    assert_eq!(metadata.version, ConnectProtocol::Sessioned.version(), "{metadata:?}");
    assert_eq!(metadata.body.url, worker.url(), "{metadata:?}");
    assert_eq!(metadata.body.config_offset, config_end, "{metadata:?}");
    // Its allocation: a complete assignment blob (what it held when joining).
    let allocation = decode_allocation(&metadata.body).expect("the allocation decodes");
    let allocation = allocation.expect("sessioned metadata carries an allocation");
    assert_eq!(allocation.version, ConnectProtocol::Sessioned.version(), "{allocation:?}");
    let own = decode_assignment(leader.member_assignment.clone()).expect("the worker's assignment decodes");
    assert_eq!(own.version, ConnectProtocol::Sessioned.version(), "{own:?}");
    assert_eq!((&*own.body.leader, &*own.body.leader_url), (&*joined.leader, worker.url().as_str()));
    assert_eq!(own.body.config_offset, config_end, "{own:?}");
    let ours = group.members.iter().find(|m| m.member_id == joined.member_id).expect("our member is described");
    assert_eq!(ours.member_assignment, synced.assignment, "the coordinator keeps the assignment we were sent");

    let left = conn.call(LeaveGroupRequest {
        group_id: worker.group.clone().into(),
        members: vec![MemberIdentity { member_id: joined.member_id.clone(), ..Default::default() }],
        ..Default::default()
    });
    assert_eq!(left.error_code, 0, "LeaveGroup: {left:?}");
    assert!(left.members.iter().all(|m| m.error_code == 0), "LeaveGroup: {left:?}");
}

/// Every relayed frame line of `path` so far whose `connect` summary is of
/// group `group`: (the line, its `connect` object).
fn connect_frames(path: &str, group: &str) -> Vec<serde_json::Value> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["connect"]["group_id"].as_str() == Some(group))
        .collect()
}

/// Every JSON object under `value` that has a `decoded` key: the decoded
/// Connect blobs (and undecodable ones) of a relay summary.
fn blob_summaries<'a>(value: &'a serde_json::Value, out: &mut Vec<&'a serde_json::Value>) {
    match value {
        serde_json::Value::Object(map) => {
            if map.contains_key("decoded") {
                out.push(value);
            }
            map.values().for_each(|v| blob_summaries(v, out));
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| blob_summaries(v, out)),
        _ => {}
    }
}

/// What the leader's JoinGroup response (both members) and its SyncGroup
/// request (both assignments) said, once the relay has logged both.
struct Rebalance {
    join_requests: Vec<serde_json::Value>,
    leader_join: serde_json::Value,
    leader_sync: serde_json::Value,
    sync_responses: Vec<serde_json::Value>,
    all: Vec<serde_json::Value>,
}

fn find_rebalance(frames: Vec<serde_json::Value>) -> Option<Rebalance> {
    let of = |key: i64, dir: &str| -> Vec<serde_json::Value> {
        frames.iter().filter(|f| f["api_key"] == key && f["dir"] == dir).cloned().collect()
    };
    let leader_join = of(11, "response")
        .into_iter()
        .rev()
        .find(|f| f["connect"]["members"].as_array().is_some_and(|m| m.len() == 2))?;
    let generation = leader_join["connect"]["generation_id"].clone();
    let leader = leader_join["connect"]["leader"].clone();
    let leader_sync = of(14, "request").into_iter().find(|f| {
        f["connect"]["member_id"] == leader
            && f["connect"]["generation_id"] == generation
            && f["connect"]["assignments"].as_array().is_some_and(|a| a.len() == 2)
    })?;
    let sync_responses: Vec<serde_json::Value> = of(14, "response")
        .into_iter()
        .filter(|f| f["connect"]["assignment"]["leader"] == leader && f["connect"]["error_code"] == 0)
        .collect();
    if sync_responses.len() < 2 {
        return None;
    }
    Some(Rebalance { join_requests: of(11, "request"), leader_join, leader_sync, sync_responses, all: frames })
}

#[test]
fn two_sessioned_workers_through_the_relay() {
    let Some(cluster) = Cluster::find("two Connect workers behind kwire's relay") else { return };
    let relayed = cluster.var("KAFKA_CLUSTER_BROKER_RELAYED").to_string();
    let frames_path = cluster.var("KAFKA_CLUSTER_RELAYED_FRAMES").to_string();
    if relayed.is_empty() || frames_path.is_empty() {
        common::skip::<()>(
            "skipped: two Connect workers behind kwire's relay need the cluster started with \
             KAFKA_CLUSTER_RELAY=1 (no KAFKA_CLUSTER_BROKER_RELAYED in its env)",
        );
        return;
    }
    let _one = ONE_WORKER.lock().unwrap_or_else(|e| e.into_inner());
    let group = unique("kw-connect-pair");
    let mut first = Worker::start_in(&cluster, "connect-pair-a", &group, &relayed, &[]);
    let mut second = Worker::start_in(&cluster, "connect-pair-b", &group, &relayed, &[]);
    let urls: std::collections::BTreeSet<String> = [first.url(), second.url()].into();

    // Both in the group: the coordinator describes two members, stable.
    let mut conn = Conn::connect(cluster.broker(), "kwire-connect-pair");
    let deadline = Instant::now() + Duration::from_secs(180);
    loop {
        first.assert_running();
        second.assert_running();
        let described = conn.call(DescribeGroupsRequest { groups: vec![group.clone().into()], ..Default::default() });
        let g = &described.groups[0];
        if g.error_code == 0 && g.group_state == "Stable" && g.members.len() == 2 {
            assert_eq!((&*g.protocol_type, &*g.protocol_data), ("connect", "sessioned"), "{g:?}");
            break;
        }
        assert!(Instant::now() < deadline, "the two workers were not in a stable group within 180 s: {g:?}");
        std::thread::sleep(Duration::from_millis(500));
    }
    // And both serving (a worker answers GET /connectors once it has joined).
    for worker in [&first, &second] {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            match http(worker.port, "GET", "/connectors", &[], b"") {
                Ok((200, body)) => {
                    assert_eq!(body.trim(), "[]", "GET /connectors on {}", worker.url());
                    break;
                }
                other => assert!(Instant::now() < deadline, "GET /connectors on {}: {other:?}", worker.url()),
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    }

    // The relay writes a frame's line before passing it on: by now the
    // rebalance that made the group stable is in the file.
    let deadline = Instant::now() + Duration::from_secs(20);
    let rebalance = loop {
        if let Some(found) = find_rebalance(connect_frames(&frames_path, &group)) {
            break found;
        }
        assert!(Instant::now() < deadline, "no complete two-member rebalance of {group} in {frames_path}");
        std::thread::sleep(Duration::from_millis(500));
    };

    // JoinGroup requests from both workers: sessioned first, version-2
    // metadata with the worker's REST url.
    let mut requested = std::collections::BTreeSet::new();
    for frame in &rebalance.join_requests {
        let connect = &frame["connect"];
        assert_eq!(connect["protocol_type"], "connect", "{frame}");
        let protocols = connect["protocols"].as_array().expect("protocols");
        assert_eq!(protocols[0]["name"], "sessioned", "{frame}");
        let metadata = &protocols[0]["metadata"];
        assert_eq!((metadata["decoded"].as_bool(), metadata["version"].as_i64()), (Some(true), Some(2)), "{frame}");
        requested.insert(metadata["url"].as_str().expect("url").to_string());
    }
    assert_eq!(requested, urls, "JoinGroup requests came from both workers");

    // The leader's JoinGroup response: both members' sessioned metadata.
    let join = &rebalance.leader_join["connect"];
    assert_eq!((join["error_code"].as_i64(), join["protocol_name"].as_str()), (Some(0), Some("sessioned")), "{join}");
    assert_eq!(join["leader"], join["member_id"], "the response listing the members goes to the leader: {join}");
    let members = join["members"].as_array().expect("members");
    let mut member_urls = std::collections::BTreeSet::new();
    let mut url_of = BTreeMap::new();
    for member in members {
        let metadata = &member["metadata"];
        assert_eq!((metadata["decoded"].as_bool(), metadata["version"].as_i64()), (Some(true), Some(2)), "{member}");
        let url = metadata["url"].as_str().expect("url").to_string();
        url_of.insert(member["member_id"].as_str().expect("member id").to_string(), url.clone());
        member_urls.insert(url);
    }
    assert_eq!(member_urls, urls, "the leader sees both workers: {join}");
    let leader_id = join["leader"].as_str().expect("leader").to_string();
    let leader_url = url_of[&leader_id].clone();

    // The leader's SyncGroup request: a version-2 assignment for each member,
    // naming the leader and its url.
    let sync = &rebalance.leader_sync["connect"];
    assert_eq!(sync["protocol_name"], "sessioned", "{sync}");
    let assignments = sync["assignments"].as_array().expect("assignments");
    let assigned: std::collections::BTreeSet<String> =
        assignments.iter().map(|a| a["member_id"].as_str().expect("member id").to_string()).collect();
    let member_ids: std::collections::BTreeSet<String> = url_of.keys().cloned().collect();
    assert_eq!(assigned, member_ids, "{sync}");
    for entry in assignments {
        let a = &entry["assignment"];
        assert_eq!(
            (a["decoded"].as_bool(), a["version"].as_i64(), a["error"].as_i64()),
            (Some(true), Some(2), Some(0)),
            "{a}"
        );
        assert_eq!(
            (a["leader"].as_str(), a["leader_url"].as_str()),
            (Some(leader_id.as_str()), Some(leader_url.as_str())),
            "{a}"
        );
        assert_eq!(a["connectors"], 0, "no connectors in this group: {a}");
    }
    // ... and each member received one.
    for frame in &rebalance.sync_responses {
        let a = &frame["connect"]["assignment"];
        assert_eq!((a["decoded"].as_bool(), a["version"].as_i64()), (Some(true), Some(2)), "{frame}");
        assert_eq!(a["leader_url"].as_str(), Some(leader_url.as_str()), "{frame}");
    }

    // Every frame of the group decoded and re-encoded to its bytes, and so
    // did every Connect blob in it (allocations included).
    let mut blobs = Vec::new();
    for frame in &rebalance.all {
        assert_eq!(
            (frame["decoded"].as_bool(), frame["reencoded_same"].as_bool()),
            (Some(true), Some(true)),
            "{frame}"
        );
        blob_summaries(&frame["connect"], &mut blobs);
    }
    // At least: a metadata per JoinGroup request, two per leader response,
    // two assignments in the leader's SyncGroup, one per SyncGroup response.
    assert!(blobs.len() >= rebalance.join_requests.len() + 2 + 2 + 2, "{} blobs", blobs.len());
    for blob in blobs {
        assert_eq!((blob["decoded"].as_bool(), blob["reencoded_same"].as_bool()), (Some(true), Some(true)), "{blob}");
    }
}
