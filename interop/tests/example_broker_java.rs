//! Kafka's own Java clients (4.4.0: producer, classic consumer group,
//! AdminClient) against the example broker (examples/broker), through the
//! driver interop/conformance/java/cluster/ExampleBrokerClients.java.
//!
//! The expected lines are what the same driver prints against Apache Kafka
//! 4.4.0 (interop/scripts/kafka-cluster.sh), except where the example broker's
//! settings differ (its cluster id, and the broker configs it was started
//! with); the differences are noted beside them.
//!
//! Needs Kafka's jars and the compiled drivers: `bash interop/scripts/kafka-cluster.sh
//! fetch` puts them in `$KWIRE_RELEASES/4.4.0` (default `.cache/kafka`).
//! Without them the tests print `skipped: ...` and pass, unless `CI` is set.

mod common;

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use common::examples::Running;

const KAFKA: &str = "4.4.0";
const DRIVER: &str = "ExampleBrokerClients";

/// Kafka's jars and the compiled drivers, or `None` after `skipped: ...`.
struct Java {
    classpath: String,
}

fn java() -> Option<Java> {
    let root = kwire_testkit::workspace_root();
    let releases = common::releases_dir();
    let jars = releases.join(KAFKA).join("server-jars");
    let classes = releases.join(KAFKA).join("cluster-classes");
    let source = root.join("interop/conformance/java/cluster").join(format!("{DRIVER}.java"));
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let problem = if !jars.join(".complete").is_file() {
        Some(format!("Kafka {KAFKA}'s jars are not in {}", jars.display()))
    } else if !classes.join(format!("{DRIVER}.class")).is_file() {
        Some(format!("{DRIVER} is not compiled in {}", classes.display()))
    } else if modified(&source) > modified(&classes.join(".stamp")) {
        Some(format!("{} is newer than its classes in {}", source.display(), classes.display()))
    } else if Command::new("java").arg("-version").output().map(|o| !o.status.success()).unwrap_or(true) {
        Some("java does not run".to_string())
    } else {
        None
    };
    if let Some(problem) = problem {
        return common::skip(&format!(
            "skipped: Kafka's Java clients against the example broker: {problem} (run bash interop/scripts/setup.sh cluster)"
        ));
    }
    Some(Java { classpath: format!("{}:{}/*", classes.display(), jars.display()) })
}

impl Java {
    /// Runs the driver against `bootstrap` and returns its stdout lines;
    /// panics with everything it printed when it fails.
    fn run(&self, bootstrap: &str, args: &[&str], broker: &Running) -> Vec<String> {
        let out = Command::new("java")
            .arg("-XX:TieredStopAtLevel=1")
            .arg(format!("-Dlog4j2.configurationFile={}", log4j2().display()))
            .arg("-cp")
            .arg(&self.classpath)
            .arg(DRIVER)
            .arg(bootstrap)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("java runs");
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            out.status.success(),
            "{DRIVER} {args:?} failed ({}):\n--- stdout\n{stdout}\n--- stderr\n{}\n--- broker\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr),
            broker.log()
        );
        stdout.lines().map(str::to_string).collect()
    }
}

/// A log4j2 configuration for the clients: warnings and errors on stderr,
/// so that stdout holds only the driver's lines.
fn log4j2() -> PathBuf {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| {
        let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("example-broker-java-log4j2.properties");
        let text = "status = error
appender.err.type = Console
appender.err.name = err
appender.err.target = SYSTEM_ERR
appender.err.layout.type = PatternLayout
appender.err.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.err.ref = err
";
        std::fs::write(&path, text).expect("the log4j2 configuration is written");
        path
    })
    .clone()
}

/// Starts the example broker on a free port with `args` and waits until it
/// listens.
fn start_broker(args: &[&str]) -> Running {
    Running::start("broker", &[&["--port", "0"], args].concat(), common::examples::broker_port)
}

/// A TCP forwarder on 127.0.0.1: every connection is passed to the target
/// port, set once the broker runs; counts the connections it carried.
struct Forwarder {
    port: u16,
    target: Arc<OnceLock<u16>>,
    connections: Arc<AtomicUsize>,
}

impl Forwarder {
    fn start() -> Forwarder {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
        let port = listener.local_addr().expect("bound").port();
        let target = Arc::new(OnceLock::<u16>::new());
        let connections = Arc::new(AtomicUsize::new(0));
        let (t, n) = (Arc::clone(&target), Arc::clone(&connections));
        // Lives as long as the test process; the listener only accepts.
        std::thread::spawn(move || {
            for client in listener.incoming().map_while(Result::ok) {
                let Some(&target) = t.get() else { continue };
                let Ok(upstream) = TcpStream::connect(("127.0.0.1", target)) else { continue };
                n.fetch_add(1, Ordering::SeqCst);
                pipe(&client, &upstream);
                pipe(&upstream, &client);
            }
        });
        Forwarder { port, target, connections }
    }
}

/// Copies `from` to `to` on a thread until either side closes.
fn pipe(from: &TcpStream, to: &TcpStream) {
    let (Ok(mut from), Ok(mut to)) = (from.try_clone(), to.try_clone()) else { return };
    std::thread::spawn(move || {
        let mut buf = [0u8; 16 * 1024];
        loop {
            match from.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if to.write_all(&buf[..n]).is_err() {
                        break;
                    }
                }
            }
        }
        let _ = to.shutdown(Shutdown::Write);
        let _ = from.shutdown(Shutdown::Read);
    });
}

fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_string).collect()
}

/// Producer, consumer group and AdminClient on one topic, then committed
/// offsets and the cluster as Admin sees it.
#[test]
fn producer_consumer_group_and_admin() {
    let Some(java) = java() else { return };
    let broker = start_broker(&["--node-id", "2", "--no-auto-create-topics"]);
    let b = broker.addr();
    let port = broker.port;

    let topic = java.run(&b, &["topic", "t1", "2"], &broker);
    assert_eq!(
        topic,
        lines(&format!(
            "created t1
             listed true
             partition t1-0 leader 2 127.0.0.1:{port} replicas 1
             partition t1-1 leader 2 127.0.0.1:{port} replicas 1
             create again: TopicExistsException
             done topic"
        ))
    );

    assert_eq!(
        java.run(&b, &["produce", "t1", "0", "3"], &broker),
        lines("produced t1-0@0 k0\nproduced t1-0@1 k1\nproduced t1-0@2 k2\ndone produce")
    );
    // subscribe, poll, commitSync: every assigned partition's position is
    // committed, the empty one's too.
    assert_eq!(
        java.run(&b, &["consume", "t1", "g1", "3"], &broker),
        lines(
            "consumed t1-0@0 k0=v0 n=0
             consumed t1-0@1 k1=v1 n=1
             consumed t1-0@2 k2=v2 n=2
             assignment [t1-0, t1-1]
             committed t1-0 3
             committed t1-1 0
             done consume"
        )
    );
    assert_eq!(
        java.run(&b, &["produce", "t1", "3", "2"], &broker),
        lines("produced t1-0@3 k3\nproduced t1-0@4 k4\ndone produce")
    );
    // The group resumes from its committed offsets.
    assert_eq!(
        java.run(&b, &["consume", "t1", "g1", "2"], &broker),
        lines(
            "consumed t1-0@3 k3=v3 n=3
             consumed t1-0@4 k4=v4 n=4
             assignment [t1-0, t1-1]
             committed t1-0 5
             committed t1-1 0
             done consume"
        )
    );
    assert_eq!(
        java.run(&b, &["group-offsets", "g1"], &broker),
        lines("group-offset g1 t1-0 5\ngroup-offset g1 t1-1 0\ndone group-offsets")
    );
    // Kafka's cluster id is its own; the rest is the same.
    assert_eq!(
        java.run(&b, &["cluster"], &broker),
        lines(&format!(
            "cluster-id kwire-example
             controller 2 127.0.0.1:{port}
             node 2 127.0.0.1:{port}
             done cluster"
        ))
    );
    let log = broker.log();
    assert!(log.contains("group g1: committed t1-0 at offset 5"), "{log}");
    assert!(!log.contains("no handler"), "{log}");
}

/// Topic configs: describe, AlterConfigs, IncrementalAlterConfigs (SET,
/// DELETE, APPEND, SUBTRACT), validateOnly, refusals, broker configs.
#[test]
fn describe_and_alter_topic_configs() {
    let Some(java) = java() else { return };
    // As interop/scripts/kafka-cluster.sh starts Kafka's broker: node 2, one
    // partition by default, no auto-creation.
    let broker = start_broker(&["--node-id", "2", "--default-partitions", "1", "--no-auto-create-topics"]);
    let got = java.run(&broker.addr(), &["configs", "cfg"], &broker);

    let shown = |label: &str, overrides: &[(&str, &str, &str)]| -> Vec<String> {
        // name, default value, type, in the driver's order.
        let all = [
            ("cleanup.policy", "delete", "LIST"),
            ("retention.ms", "604800000", "LONG"),
            ("max.message.bytes", "1048588", "INT"),
            ("min.insync.replicas", "1", "INT"),
            ("segment.bytes", "1073741824", "INT"),
            ("compression.type", "producer", "STRING"),
            ("min.cleanable.dirty.ratio", "0.5", "DOUBLE"),
            ("preallocate", "false", "BOOLEAN"),
            ("leader.replication.throttled.replicas", "", "LIST"),
        ];
        all.iter()
            .map(|(name, default, kind)| {
                let (value, source) = match overrides.iter().find(|(n, _, _)| n == name) {
                    Some((_, value, source)) => (*value, *source),
                    // A freshly formatted KRaft cluster has min.insync.replicas=1
                    // as a cluster-wide dynamic default.
                    None if *name == "min.insync.replicas" => (*default, "DYNAMIC_DEFAULT_BROKER_CONFIG"),
                    None => (*default, "DEFAULT_CONFIG"),
                };
                format!(
                    "{label} {name}={value} source={source} default={} readOnly=false sensitive=false type={kind}",
                    source == "DEFAULT_CONFIG"
                )
            })
            .collect()
    };
    const TOPIC: &str = "DYNAMIC_TOPIC_CONFIG";
    let mut want =
        vec!["topic-config-names cleanup.policy,compression.gzip.level,compression.lz4.level,compression.type,\
         compression.zstd.level,delete.retention.ms,errors.deadletterqueue.group.enable,file.delete.delay.ms,\
         flush.messages,flush.ms,follower.replication.throttled.replicas,index.interval.bytes,\
         leader.replication.throttled.replicas,local.retention.bytes,local.retention.ms,max.compaction.lag.ms,\
         max.decompressed.message.bytes,max.message.bytes,message.timestamp.after.max.ms,\
         message.timestamp.before.max.ms,message.timestamp.type,min.cleanable.dirty.ratio,min.compaction.lag.ms,\
         min.insync.replicas,preallocate,remote.copy.lag.bytes,remote.copy.lag.ms,remote.log.copy.disable,\
         remote.log.delete.on.disable,remote.storage.enable,retention.bytes,retention.ms,segment.bytes,\
         segment.index.bytes,segment.jitter.ms,segment.ms,unclean.leader.election.enable"
            .to_string()];
    want.extend(shown("created", &[("retention.ms", "3600000", TOPIC)]));
    // AlterConfigs replaces the whole set: retention.ms is back to its default.
    want.push("alter NONE".into());
    want.extend(shown("after-alter", &[("cleanup.policy", "compact", TOPIC), ("max.message.bytes", "2000000", TOPIC)]));
    want.push("incremental ok".into());
    let after_incremental = [
        ("cleanup.policy", "compact,delete", TOPIC),
        ("retention.ms", "7200000", TOPIC),
        ("leader.replication.throttled.replicas", "0:1,1:1", TOPIC),
    ];
    want.extend(shown("after-incremental", &after_incremental));
    want.push("subtract ok".into());
    let after_subtract = [
        ("cleanup.policy", "delete", TOPIC),
        ("retention.ms", "7200000", TOPIC),
        ("leader.replication.throttled.replicas", "1:1", TOPIC),
    ];
    want.extend(shown("after-subtract", &after_subtract));
    // validateOnly: accepted, nothing changes.
    want.push("validate-only ok".into());
    want.push("alter-validate-only NONE".into());
    want.extend(shown("after-validate-only", &after_subtract));
    want.extend(lines(
        "unknown-name InvalidConfigurationException
         unknown-name-validate-only InvalidConfigurationException
         alter-unknown-name INVALID_CONFIG
         alter-unknown-topic UNKNOWN_TOPIC_OR_PARTITION
         bad-value InvalidConfigurationException
         append-to-long InvalidConfigurationException",
    ));
    want.extend(shown("after-refusals", &after_subtract));
    want.extend(lines(
        "unknown-topic UnknownTopicOrPartitionException
         describe-unknown-topic UnknownTopicOrPartitionException
         append-to-default ok
         second cleanup.policy=delete,compact source=DYNAMIC_TOPIC_CONFIG default=false readOnly=false sensitive=false type=LIST
         delete-unset ok
         delete-unknown-name ok
         set-null InvalidRequestException
         duplicate-name InvalidRequestException
         second retention.ms=604800000 source=DEFAULT_CONFIG default=true readOnly=false sensitive=false type=LONG
         count 37",
    ));
    // Kafka reports message.max.bytes as not read-only (it can be changed
    // dynamically there); this broker's configs cannot be altered.
    want.extend(lines(
        "broker node.id=2 source=STATIC_BROKER_CONFIG default=false readOnly=true sensitive=false type=INT
         broker log.retention.hours=168 source=DEFAULT_CONFIG default=true readOnly=true sensitive=false type=INT
         broker num.partitions=1 source=STATIC_BROKER_CONFIG default=false readOnly=true sensitive=false type=INT
         broker auto.create.topics.enable=false source=STATIC_BROKER_CONFIG default=false readOnly=true sensitive=false type=BOOLEAN
         broker message.max.bytes=1048588 source=DEFAULT_CONFIG default=true readOnly=true sensitive=false type=INT
         done configs",
    ));
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "line {} differs; all of it:\n{}", i + 1, got.join("\n"));
    }
    assert_eq!(got.len(), want.len(), "{}", got.join("\n"));
    // The alters travelled to the controller in Envelopes.
    let log = broker.log();
    assert!(log.contains("forward: IncrementalAlterConfigs v1"), "{log}");
    assert!(log.contains("forward: AlterConfigs v2"), "{log}");
    assert!(log.contains("controller: IncrementalAlterConfigs validated the configs of cfg"), "{log}");
}

/// With `--advertise`, Metadata, FindCoordinator and DescribeCluster name
/// the forwarder, and the clients do all their work through it.
#[test]
fn clients_follow_the_advertised_address() {
    let Some(java) = java() else { return };
    let forwarder = Forwarder::start();
    let advertised = format!("127.0.0.1:{}", forwarder.port);
    let broker = start_broker(&["--advertise", &advertised, "--no-auto-create-topics"]);
    forwarder.target.set(broker.port).expect("set once");
    // Bootstrap at the broker's own address.
    let b = broker.addr();
    let fp = forwarder.port;
    assert_eq!(
        java.run(&b, &["cluster"], &broker),
        lines(&format!("cluster-id kwire-example\ncontroller 1 {advertised}\nnode 1 {advertised}\ndone cluster"))
    );
    assert_eq!(
        java.run(&b, &["topic", "a1", "1"], &broker),
        lines(&format!(
            "created a1\nlisted true\npartition a1-0 leader 1 127.0.0.1:{fp} replicas 1\ncreate again: TopicExistsException\ndone topic"
        ))
    );
    let before = forwarder.connections.load(Ordering::SeqCst);
    assert_eq!(
        java.run(&b, &["produce", "a1", "0", "2"], &broker),
        lines("produced a1-0@0 k0\nproduced a1-0@1 k1\ndone produce")
    );
    assert_eq!(
        java.run(&b, &["consume", "a1", "ga", "2"], &broker),
        lines(
            "consumed a1-0@0 k0=v0 n=0\nconsumed a1-0@1 k1=v1 n=1\nassignment [a1-0]\ncommitted a1-0 2\ndone consume"
        )
    );
    // Producing, the group's coordinator and fetching went through the
    // forwarder, as the advertised address says.
    let after = forwarder.connections.load(Ordering::SeqCst);
    assert!(after >= before + 2, "the forwarder carried {before} then {after} connections:\n{}", broker.log());
    assert!(broker.log().contains(&format!("(advertised as {advertised})")), "{}", broker.log());
}
