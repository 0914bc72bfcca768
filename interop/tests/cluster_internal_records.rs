//! Kafka's internal records on real data: what Apache Kafka 4.4.0, started
//! by `interop/scripts/kafka-cluster.sh`, writes to its own logs and internal topics,
//! read by kwire and written back byte for byte.
//!
//! - `metadata_log_and_snapshots_read_and_write_back`: every record of the
//!   controller's `__cluster_metadata` segments (`*.log`) and snapshots
//!   (`*.checkpoint`, read from disk), and of the broker's copy. A segment
//!   Kafka is appending to may end in a batch it has only partly written:
//!   [`LogEntries`] stops before such a partial batch (as Kafka's own readers
//!   do), so only complete batches are checked; the test prints how many
//!   files ended that way.
//! - `coordinator_topics_read_and_write_back`: every record of
//!   `__consumer_offsets` and `__transaction_state`, fetched through the
//!   broker's PLAINTEXT listener with kwire's Fetch
//!   (`interop/tests/common/fetch.rs`, `read_uncommitted`), after Kafka's Java clients
//!   (`interop/conformance/java/cluster/InternalTopicsDriver.java`) committed offsets
//!   in a classic and a consumer (KIP-848) group and a transactional
//!   producer committed one transaction and aborted another.
//! - `share_group_state_reads_and_writes_back`: every record of
//!   `__share_group_state` after a KafkaShareConsumer (KIP-932; Kafka 4.4
//!   finalizes `share.version` 2 by default) acknowledged the topic's records.
//! - Each of those sends, for every (family, record type, version) it saw, up
//!   to [`PER_VERSION`] real records to Kafka's own classes (the oracle of
//!   `tests/internal_records.rs`, `interop/scripts/kafka-oracle.sh 4.4.0`): Kafka
//!   reads the bytes and writes them again, and its JSON converter gives the
//!   JSON kwire gives; metadata records also go through Kafka's
//!   metadata log serde whole (frame included). Control records (leader
//!   change, snapshot header and footer, transaction markers) are not
//!   internal-record schemas and are checked byte for byte only.
//!
//! What Kafka 4.4.0 writes there, as seen here: a transaction's states are
//! Empty, Ongoing, PrepareCommit, CompleteCommit, Ongoing, PrepareAbort,
//! CompleteAbort, the epoch going up at each Prepare state (transactions v2,
//! KIP-890); a classic group is written empty (protocol type "") when
//! created, then with its member, then empty again when the member leaves; a
//! consumer or share group's member records end in tombstones when it
//! leaves; a share-partition's state starts as a ShareSnapshot with start
//! offset -1 and no state batches, and acknowledging records 0-2 writes a
//! ShareUpdate with start offset still 0, one state batch 0-2 in delivery
//! state 2 (acknowledged) and a delivery complete count of 3.
//!
//! Names (topic, groups, transactional id) are unique per run, so the tests
//! run against a cluster other tests use, however long it has run. Without a
//! running cluster each test prints `skipped: ...` and passes; under CI
//! (`CI` set) it fails instead, as it does without the oracle.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use common::cluster::{unique, Cluster};
use common::conn::Conn;
use common::oracle::{check_rdecode, hex_word, Oracle};
use kwire::internal::group_coordinator::{
    CoordinatorRecordKey as GroupKey, CoordinatorRecordValue as GroupValue, GroupCoordinatorRecord,
};
use kwire::internal::log::{Entry, LogEntries, LogEntry, LogRecord, MetadataLogRecord, Snapshot};
use kwire::internal::metadata::MetadataRecord;
use kwire::internal::share_coordinator::{
    CoordinatorRecordKey as ShareKey, CoordinatorRecordValue as ShareValue, ShareCoordinatorRecord,
};
use kwire::internal::transaction_coordinator::{
    CoordinatorRecordKey as TxnKey, CoordinatorRecordValue as TxnValue, TransactionCoordinatorRecord,
};
use kwire::internal::{CoordinatorRecord, RecordData};
use kwire::json::{JsonOptions, Value as Json};
use kwire::primitives::{Uuid, Writer};

/// Real records sent to the oracle per (family, kind, record type, version).
const PER_VERSION: usize = 8;

/// Kafka's transaction states, as `TransactionLogValue.TransactionStatus`
/// holds them (Kafka's `TransactionState` ids).
const COMPLETE_COMMIT: i8 = 4;
const COMPLETE_ABORT: i8 = 5;

fn say(text: &str) {
    // The harness captures `eprintln!`; the tables are for the run's log.
    let _ = writeln!(std::io::stderr(), "{text}");
}

// ---- the clients' work, done once per test run ----

/// What `InternalTopicsDriver run` did.
struct Scenario {
    topic: String,
    topic_id: Uuid,
    classic_group: String,
    consumer_group: String,
    share_group: String,
    txn_id: String,
    /// (group, partition, offset) committed.
    committed: Vec<(String, i32, i64)>,
}

static SCENARIO: OnceLock<Scenario> = OnceLock::new();

fn scenario(cluster: &Cluster) -> &'static Scenario {
    SCENARIO.get_or_init(|| {
        let topic = unique("internal-records");
        let classic_group = unique("classic-group");
        let consumer_group = unique("consumer-group");
        let share_group = unique("share-group");
        let txn_id = unique("txn");
        let out = cluster.java(
            "InternalTopicsDriver",
            &["run", cluster.broker(), &topic, &classic_group, &consumer_group, &share_group, &txn_id],
        );
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        let mut committed = Vec::new();
        let mut outcomes = Vec::new();
        let mut acknowledged = None;
        for line in stdout.lines() {
            let w: Vec<&str> = line.split(' ').collect();
            match w[..] {
                ["committed", g, p, o] => committed.push((g.to_string(), p.parse().unwrap(), o.parse().unwrap())),
                ["transaction", t, outcome] if t == txn_id => outcomes.push(outcome.to_string()),
                ["acknowledged", g, n] if g == share_group => acknowledged = Some(n.parse::<usize>().unwrap()),
                _ => {}
            }
        }
        assert_eq!(committed.len(), 4, "two groups, two partitions each:\n{stdout}");
        assert!(committed.iter().all(|(_, _, o)| *o == 3), "3 records per partition:\n{stdout}");
        assert_eq!(outcomes, ["committed", "aborted"], "{stdout}");
        assert_eq!(acknowledged, Some(6), "{stdout}");
        let mut client = Conn::connect(cluster.broker(), "kwire-internal-records");
        let (topic_id, partitions) = client.partitions(&topic);
        assert_eq!(partitions, [0, 1]);
        Scenario { topic, topic_id, classic_group, consumer_group, share_group, txn_id, committed }
    })
}

// ---- every record written back, and what goes to the oracle ----

/// One real record's struct, for the oracle.
struct Sample {
    bytes: Bytes,
    json: Json,
    /// The whole framed metadata log record (for `mframe`).
    framed: Option<Bytes>,
    /// kwire reading a JSON form and writing it at the version.
    from_json: fn(i16, &Json, i16) -> Result<Vec<u8>, String>,
}

fn from_json_of<T: RecordData>(record_type: i16, json: &Json, version: i16) -> Result<Vec<u8>, String> {
    let value = T::from_json(record_type, json, version).map_err(|e| e.to_string())?;
    let mut buf = BytesMut::new();
    value.encode_to(&mut Writer::new(&mut buf), version).map_err(|e| e.to_string())?;
    Ok(buf.to_vec())
}

/// (family, kind, record type, version) as the oracle names them.
type SampleKey = (&'static str, &'static str, i16, i16);

/// What a test saw: record counts by family and type, and samples.
#[derive(Default)]
struct Seen {
    counts: BTreeMap<String, usize>,
    samples: BTreeMap<SampleKey, (String, Vec<Sample>)>,
}

impl Seen {
    fn count(&mut self, what: String) {
        *self.counts.entry(what).or_default() += 1;
    }

    /// Keeps the struct of `message` at `version`: its last bytes of `part`
    /// (the real bytes, after the framing or version prefix).
    fn sample<T: RecordData>(
        &mut self,
        family: &'static str,
        kind: &'static str,
        message: &T,
        version: i16,
        part: &Bytes,
        framed: bool,
    ) {
        let len = message.encoded_size(version);
        let bytes = part.slice(part.len() - len..);
        let name = message.info().map(|t| t.name).unwrap_or("?").to_string();
        let (_, list) =
            self.samples.entry((family, kind, message.record_type(), version)).or_insert((name, Vec::new()));
        if list.len() >= PER_VERSION || list.iter().any(|s| s.bytes == bytes) {
            return;
        }
        let json = message.to_json_with(version, JsonOptions::unredacted()).expect("to_json");
        list.push(Sample { bytes, json, framed: framed.then(|| part.clone()), from_json: from_json_of::<T> });
    }

    fn merge(&mut self, other: Seen) {
        for (k, v) in other.counts {
            *self.counts.entry(k).or_default() += v;
        }
        for (k, (name, list)) in other.samples {
            let (_, mine) = self.samples.entry(k).or_insert((name, Vec::new()));
            for s in list {
                if mine.len() < PER_VERSION && !mine.iter().any(|m| m.bytes == s.bytes) {
                    mine.push(s);
                }
            }
        }
    }

    fn print(&self, title: &str) {
        let mut text = format!("{title}: records by family and type\n");
        for (what, n) in &self.counts {
            text.push_str(&format!("  {n:>6}  {what}\n"));
        }
        text.push_str("  (family, kind, record type, version) seen:\n");
        for ((family, kind, id, version), (name, list)) in &self.samples {
            text.push_str(&format!("    {family} {kind} {id} {name} v{version}: {} sent to Kafka\n", list.len()));
        }
        say(&text);
    }
}

/// Checks that an entry's typed form writes back its key and value exactly,
/// and counts it (control records by their type).
fn written_back<R: LogRecord + std::fmt::Debug>(entry: &LogEntry<R>, place: &str, seen: &mut Seen, family: &str) {
    let (key, value) =
        entry.to_key_value().unwrap_or_else(|e| panic!("{place}: offset {}: encoding back fails: {e}", entry.offset));
    assert_eq!(key, entry.record.key, "{place}: offset {}: key written back differs ({:?})", entry.offset, entry.entry);
    assert_eq!(
        value, entry.record.value,
        "{place}: offset {}: value written back differs ({:?})",
        entry.offset, entry.entry
    );
    if let Entry::Control(c) = &entry.entry {
        seen.count(format!("{family} control {}", c.value.type_name()));
    }
}

/// `source`: "log" or "snapshot", for the counts.
fn metadata_entry(entry: &LogEntry<MetadataLogRecord>, source: &str, place: &str, seen: &mut Seen) {
    written_back(entry, place, seen, &format!("metadata {source}"));
    if let Entry::Data(record) = &entry.entry {
        let name = record.message.info().expect("a known type").name;
        seen.count(format!("metadata {source} {name} v{}", record.version));
        let value = entry.record.value.as_ref().expect("a value");
        seen.sample("metadata", "record", &record.message, record.version, value, true);
    }
}

fn coordinator_entry<K: RecordData, V: RecordData>(
    entry: &LogEntry<CoordinatorRecord<K, V>>,
    family: &'static str,
    place: &str,
    seen: &mut Seen,
) {
    written_back(entry, place, seen, family);
    if let Entry::Data(record) = &entry.entry {
        let key_name = record.key.info().expect("a known type").name;
        let key = entry.record.key.as_ref().expect("a key");
        seen.sample(family, "key", &record.key, 0, key, false);
        match &record.value {
            None => seen.count(format!("{family} {key_name} tombstone")),
            Some(v) => {
                seen.count(format!("{family} {key_name} / {} v{}", v.message.info().expect("known").name, v.version));
                let value = entry.record.value.as_ref().expect("a value");
                seen.sample(family, "value", &v.message, v.version, value, false);
            }
        }
    }
}

/// Kafka's own classes on every sample: Kafka reads the bytes and writes the
/// same bytes, with the same size and nothing left over; its JSON is
/// kwire's; Kafka and kwire both read that JSON back to the same
/// bytes; metadata records whole through Kafka's metadata log serde.
fn kafka_agrees(seen: &Seen, what: &str) {
    let Some(launcher) = common::kafka_oracle("4.4.0") else { return };
    let mut questions = Vec::new();
    let mut places = Vec::new();
    for ((family, kind, id, version), (name, list)) in &seen.samples {
        for (i, s) in list.iter().enumerate() {
            questions.push(format!("rdecode {family} {kind} {id} {version} {}", hex_word(&s.bytes)));
            places.push((format!("{family} {kind} {name} ({id}) v{version} #{i}"), s));
        }
    }
    let mut oracle = Oracle::start(&launcher);
    let answers = oracle.ask_all(&questions);
    let mut failures = Vec::new();
    let mut again = Vec::new();
    for (((place, s), answer), question) in places.iter().zip(&answers).zip(&questions) {
        let ours = hex_word(&s.bytes);
        let theirs = match check_rdecode(answer, &s.bytes, &s.json) {
            Ok(theirs) => theirs,
            Err(e) => {
                failures.push(format!("{place}: {e}"));
                continue;
            }
        };
        let (_, rest) = question.split_once(' ').expect("words");
        let mut w = rest.splitn(5, ' ');
        let (family, kind, id, version) = (w.next().unwrap(), w.next().unwrap(), w.next().unwrap(), w.next().unwrap());
        let ours_from_json =
            (s.from_json)(id.parse().unwrap(), &theirs, version.parse().unwrap()).map(|b| hex_word(&b));
        if ours_from_json.as_deref() != Ok(ours.as_str()) {
            failures.push(format!(
                "{place}: kwire reads Kafka's JSON {theirs} as {ours_from_json:?}, the real bytes are {ours}"
            ));
        }
        again.push((place.clone(), format!("rencode {family} {kind} {id} {version} {theirs}"), format!("ok {ours} ")));
        if let Some(framed) = &s.framed {
            again.push((
                place.clone(),
                format!("mframe {}", hex_word(framed)),
                format!("ok {id} {version} {}", hex_word(framed)),
            ));
        }
    }
    let answers = oracle.ask_all(&again.iter().map(|(_, q, _)| q.clone()).collect::<Vec<_>>());
    for ((place, question, expected), answer) in again.iter().zip(&answers) {
        let agrees =
            if question.starts_with("rencode") { answer.starts_with(expected.as_str()) } else { answer == expected };
        if !agrees {
            failures
                .push(format!("{place}: {} -> {answer} (expected {expected}…)", &question[..question.len().min(200)]));
        }
    }
    assert!(
        failures.is_empty(),
        "{what}: {} of {} Kafka checks fail:\n{}",
        failures.len(),
        questions.len() + again.len(),
        failures.join("\n")
    );
    say(&format!(
        "{what}: Kafka 4.4.0 agrees on {} real records of {} (family, kind, type, version)",
        questions.len(),
        seen.samples.len()
    ));
}

// ---- the metadata log ----

/// Files of `dir` ending in `suffix`, by name (Kafka zero-pads offsets).
fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(suffix)))
            .collect(),
        Err(_) => Vec::new(),
    };
    out.sort();
    out
}

/// A file's bytes, `None` when Kafka deleted it since it was listed
/// (retention, or a snapshot superseded).
fn read(path: &Path) -> Option<Bytes> {
    match std::fs::read(path) {
        Ok(b) => Some(Bytes::from(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => panic!("{}: {e}", path.display()),
    }
}

/// What one metadata log directory held.
#[derive(Default)]
struct MetadataDir {
    seen: Seen,
    segments: usize,
    segment_records: usize,
    partial_tails: usize,
    snapshots: usize,
    /// The records of the newest snapshot read.
    latest_snapshot: Vec<MetadataRecord>,
    latest_snapshot_name: String,
    /// The data records of the segments.
    segment_data: Vec<MetadataRecord>,
}

fn read_metadata_dir(dir: &Path) -> MetadataDir {
    let mut out = MetadataDir::default();
    for path in files(dir, ".log") {
        let Some(bytes) = read(&path) else { continue };
        let place = path.display().to_string();
        let mut entries = LogEntries::<MetadataLogRecord>::new(bytes);
        for entry in &mut entries {
            let entry = entry.unwrap_or_else(|e| panic!("{place}: {e}"));
            metadata_entry(&entry, "log", &place, &mut out.seen);
            out.segment_records += 1;
            if let Entry::Data(r) = entry.entry {
                out.segment_data.push(r.message);
            }
        }
        if entries.batches().partial_batch().is_some() {
            out.partial_tails += 1;
        }
        out.segments += 1;
    }
    for path in files(dir, ".checkpoint") {
        let Some(bytes) = read(&path) else { continue };
        let place = path.display().to_string();
        let snapshot = Snapshot::<MetadataLogRecord>::decode(bytes).unwrap_or_else(|e| panic!("{place}: {e}"));
        let mut data = Vec::new();
        for entry in &snapshot.entries {
            metadata_entry(entry, "snapshot", &place, &mut out.seen);
            if let Entry::Data(r) = &entry.entry {
                data.push(r.message.clone());
            }
        }
        assert!(!data.is_empty(), "{place}: a snapshot without records");
        out.snapshots += 1;
        out.latest_snapshot = data;
        out.latest_snapshot_name = path.file_name().unwrap().to_string_lossy().into_owned();
    }
    out
}

fn has_topic(records: &[MetadataRecord], topic: &str, topic_id: Uuid) -> bool {
    records.iter().any(|r| matches!(r, MetadataRecord::TopicRecord(t) if t.name == topic && t.topic_id == topic_id))
}

fn partitions_of(records: &[MetadataRecord], topic_id: Uuid) -> BTreeSet<i32> {
    records
        .iter()
        .filter_map(|r| match r {
            MetadataRecord::PartitionRecord(p) if p.topic_id == topic_id => Some(p.partition_id),
            _ => None,
        })
        .collect()
}

fn feature_levels(records: &[MetadataRecord]) -> BTreeMap<String, i16> {
    records
        .iter()
        .filter_map(|r| match r {
            MetadataRecord::FeatureLevelRecord(f) => Some((f.name.to_string(), f.feature_level)),
            _ => None,
        })
        .collect()
}

#[test]
fn metadata_log_and_snapshots_read_and_write_back() {
    let Some(cluster) = Cluster::find("the metadata log of a real cluster") else { return };
    let s = scenario(&cluster);
    let data = PathBuf::from(cluster.var("KAFKA_CLUSTER_DATA"));
    let controller_dir = data.join("controller/__cluster_metadata-0");

    // Snapshots come every 5 s when records were added (the cluster's
    // metadata.log.max.snapshot.interval.ms): wait for one holding the topic.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let latest = files(&controller_dir, ".checkpoint").into_iter().rev().find_map(|p| read(&p));
        let records: Vec<MetadataRecord> = latest
            .and_then(|bytes| Snapshot::<MetadataLogRecord>::decode(bytes).ok())
            .map(|snapshot| {
                snapshot
                    .entries
                    .into_iter()
                    .filter_map(|e| match e.entry {
                        Entry::Data(r) => Some(r.message),
                        Entry::Control(_) => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        if has_topic(&records, &s.topic, s.topic_id) || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_secs(1));
    }
    let controller = read_metadata_dir(&controller_dir);
    let place = controller_dir.display();
    assert!(controller.segments > 0 && controller.segment_records > 0, "{place}: no segment records");
    assert!(controller.snapshots > 0, "{place}: no snapshot within 60 s");
    say(&format!(
        "{place}: {} segments ({} records, {} ending in a partial batch, not read), {} snapshots, the latest {} ({} records)",
        controller.segments,
        controller.segment_records,
        controller.partial_tails,
        controller.snapshots,
        controller.latest_snapshot_name,
        controller.latest_snapshot.len()
    ));

    // The topic the driver created, in the log and in the newest snapshot.
    assert!(
        has_topic(&controller.segment_data, &s.topic, s.topic_id),
        "no TopicRecord {} in {place}'s segments",
        s.topic
    );
    assert_eq!(
        partitions_of(&controller.segment_data, s.topic_id),
        BTreeSet::from([0, 1]),
        "PartitionRecords of {}",
        s.topic
    );
    assert!(
        has_topic(&controller.latest_snapshot, &s.topic, s.topic_id),
        "{place}: the latest snapshot {} has no TopicRecord {} after 60 s",
        controller.latest_snapshot_name,
        s.topic
    );
    assert_eq!(partitions_of(&controller.latest_snapshot, s.topic_id), BTreeSet::from([0, 1]));
    // The broker (node 2) registered; the features the cluster runs with.
    let snapshot = &controller.latest_snapshot;
    assert!(snapshot.iter().any(|r| matches!(r, MetadataRecord::RegisterBrokerRecord(b) if b.broker_id == 2)));
    let features = feature_levels(snapshot);
    for feature in ["metadata.version", "transaction.version", "group.version", "share.version"] {
        assert!(features.get(feature).is_some_and(|l| *l > 0), "{feature} in {features:?}");
    }
    say(&format!("features finalized in the snapshot: {features:?}"));

    // The broker's copy: what it fetched from the controller (it may have
    // started from a snapshot, its first segments deleted).
    let mut seen = controller.seen;
    let broker_dir = data.join("broker/__cluster_metadata-0");
    if broker_dir.is_dir() {
        let broker = read_metadata_dir(&broker_dir);
        assert!(broker.segment_records + broker.latest_snapshot.len() > 0, "{}: no records", broker_dir.display());
        say(&format!(
            "{}: {} segments ({} records, {} ending in a partial batch), {} snapshots",
            broker_dir.display(),
            broker.segments,
            broker.segment_records,
            broker.partial_tails,
            broker.snapshots
        ));
        seen.merge(broker.seen);
    }
    for needed in ["TopicRecord", "PartitionRecord", "RegisterBrokerRecord", "FeatureLevelRecord"] {
        for source in ["log", "snapshot"] {
            assert!(
                seen.counts.keys().any(|k| k.starts_with(&format!("metadata {source} {needed} "))),
                "no {needed} in a {source}"
            );
        }
    }
    seen.print("__cluster_metadata");
    kafka_agrees(&seen, "__cluster_metadata");
}

// ---- the coordinators' topics, fetched ----

/// Every record of every partition of `topic`, fetched and read as `R`,
/// each checked to write back; the typed records.
fn fetch_topic<K: RecordData, V: RecordData>(
    client: &mut Conn,
    topic: &str,
    family: &'static str,
    seen: &mut Seen,
) -> Vec<CoordinatorRecord<K, V>> {
    let (topic_id, partitions) = client.partitions(topic);
    let mut out = Vec::new();
    for partition in partitions {
        let fetched = client.fetch_all(topic, topic_id, partition);
        let place = format!("{topic}-{partition}");
        if fetched.start_offset > 0 {
            say(&format!("{place}: log start offset {} (earlier records deleted)", fetched.start_offset));
        }
        let mut entries = LogEntries::<CoordinatorRecord<K, V>>::new(fetched.records);
        for entry in &mut entries {
            let entry = entry.unwrap_or_else(|e| panic!("{place}: {e}"));
            coordinator_entry(&entry, family, &place, seen);
            if let Entry::Data(r) = entry.entry {
                out.push(r);
            }
        }
        assert!(entries.batches().partial_batch().is_none(), "{place}: complete batches only were kept");
    }
    out
}

/// Reads with `read` every 500 ms until `done` says the records are all
/// there, or for 30 s (the assertions after say what is missing): what the
/// last reading saw, and its records.
fn read_until<T>(
    client: &mut Conn,
    mut read: impl FnMut(&mut Conn, &mut Seen) -> T,
    done: impl Fn(&T) -> bool,
) -> (Seen, T) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let mut seen = Seen::default();
        let records = read(client, &mut seen);
        if done(&records) || Instant::now() > deadline {
            return (seen, records);
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}

#[test]
fn coordinator_topics_read_and_write_back() {
    let Some(cluster) = Cluster::find("__consumer_offsets and __transaction_state of a real cluster") else { return };
    let s = scenario(&cluster);
    let mut client = Conn::connect(cluster.broker(), "kwire-internal-records");
    // The offsets are written before commitSync returns; the transaction's
    // completion after its markers, a moment after commitTransaction and
    // abortTransaction return: read again until both are there.
    let (seen, (offsets, txns)) = read_until(
        &mut client,
        |client, seen| {
            let offsets: Vec<GroupCoordinatorRecord> = fetch_topic(client, "__consumer_offsets", "group", seen);
            let txns: Vec<TransactionCoordinatorRecord> =
                fetch_topic(client, "__transaction_state", "transaction", seen);
            (offsets, txns)
        },
        |(_, txns)| {
            let statuses: BTreeSet<i8> = txns
                .iter()
                .filter(|r| matches!(&r.key, TxnKey::TransactionLogKey(k) if k.transactional_id == s.txn_id))
                .filter_map(|r| match r.value.as_ref().map(|v| &v.message) {
                    Some(TxnValue::TransactionLogValue(v)) => Some(v.transaction_status),
                    _ => None,
                })
                .collect();
            statuses.contains(&COMPLETE_COMMIT) && statuses.contains(&COMPLETE_ABORT)
        },
    );

    // The committed offsets, as the groups committed them.
    for (group, partition, offset) in &s.committed {
        let values: Vec<_> = offsets
            .iter()
            .filter(|r| {
                matches!(&r.key, GroupKey::OffsetCommitKey(k) if k.group == *group && k.topic == s.topic && k.partition == *partition)
            })
            .collect();
        let last = values.last().unwrap_or_else(|| panic!("no OffsetCommit record of {group} {}-{partition}", s.topic));
        match last.value.as_ref().map(|v| &v.message) {
            Some(GroupValue::OffsetCommitValue(v)) => {
                assert_eq!(v.offset, *offset, "{group} {}-{partition}", s.topic);
                assert_eq!(v.metadata, format!("kwire {group}"));
            }
            other => panic!("{group}: an OffsetCommit key with {other:?}"),
        }
    }
    // The classic group's metadata (its protocol type "consumer"); the
    // consumer group's and the share group's records (KIP-848, KIP-932).
    let classic: Vec<_> = offsets
        .iter()
        .filter_map(|r| match (&r.key, r.value.as_ref().map(|v| &v.message)) {
            (GroupKey::GroupMetadataKey(k), Some(GroupValue::GroupMetadataValue(v))) if k.group == s.classic_group => {
                Some(v)
            }
            _ => None,
        })
        .collect();
    // Kafka 4.4 writes the group empty when it is created (protocol type
    // ""), with its member after the join (protocol type "consumer",
    // assignor "range"), and empty again when the member leaves.
    assert!(
        classic.iter().any(|v| v.protocol_type == "consumer"
            && v.generation >= 1
            && v.members.len() == 1
            && v.leader.as_deref() == Some(&*v.members[0].member_id)),
        "no GroupMetadata of {} with its member: {classic:?}",
        s.classic_group
    );
    assert!(offsets
        .iter()
        .any(|r| matches!(&r.key, GroupKey::ConsumerGroupMetadataKey(k) if k.group_id == s.consumer_group)));
    assert!(offsets
        .iter()
        .any(|r| matches!(&r.key, GroupKey::ConsumerGroupMemberMetadataKey(k) if k.group_id == s.consumer_group)));
    assert!(offsets
        .iter()
        .any(|r| matches!(&r.key, GroupKey::ShareGroupMetadataKey(k) if k.group_id == s.share_group)));
    assert!(offsets
        .iter()
        .any(|r| matches!(&r.key, GroupKey::ShareGroupStatePartitionMetadataKey(k) if k.group_id == s.share_group)));

    // The transaction's states, in the order Kafka wrote them.
    let states: Vec<(i8, i64, i16)> = txns
        .iter()
        .filter(|r| matches!(&r.key, TxnKey::TransactionLogKey(k) if k.transactional_id == s.txn_id))
        .filter_map(|r| match r.value.as_ref().map(|v| &v.message) {
            Some(TxnValue::TransactionLogValue(v)) => Some((v.transaction_status, v.producer_id, v.producer_epoch)),
            _ => None,
        })
        .collect();
    say(&format!("{}: (status, producer id, epoch) {states:?}", s.txn_id));
    // Empty (InitProducerId), Ongoing, PrepareCommit, CompleteCommit,
    // Ongoing, PrepareAbort, CompleteAbort; with transactions v2 (KIP-890,
    // transaction.version 2 here) the epoch goes up at each Prepare state.
    let mut statuses: Vec<i8> = states.iter().map(|t| t.0).collect();
    statuses.dedup();
    assert_eq!(statuses, [0, 1, 2, COMPLETE_COMMIT, 1, 3, COMPLETE_ABORT], "{states:?}");
    assert!(states.iter().all(|t| t.1 == states[0].1 && t.1 >= 0), "one producer id: {states:?}");
    assert!(states.windows(2).all(|w| w[0].2 <= w[1].2), "epochs only go up: {states:?}");

    seen.print("__consumer_offsets and __transaction_state");
    kafka_agrees(&seen, "__consumer_offsets and __transaction_state");
}

#[test]
fn share_group_state_reads_and_writes_back() {
    let Some(cluster) = Cluster::find("__share_group_state of a real cluster") else { return };
    let s = scenario(&cluster);
    let mut client = Conn::connect(cluster.broker(), "kwire-internal-records");
    // The share coordinator writes the state as the acknowledgements come:
    // read until every record of both partitions is done with.
    let (seen, records) = read_until(
        &mut client,
        |client, seen| -> Vec<ShareCoordinatorRecord> { fetch_topic(client, "__share_group_state", "share", seen) },
        |records| (0..2).all(|p| share_acknowledged(records, s, p)),
    );
    let ours: Vec<_> = records
        .iter()
        .filter(|r| share_key(r).is_some_and(|(g, t, _)| g == s.share_group && t == s.topic_id))
        .collect();
    assert!(
        ours.iter().any(|r| matches!(r.key, ShareKey::ShareSnapshotKey(_))),
        "no ShareSnapshot of {}: {ours:?}",
        s.share_group
    );
    for p in 0..2 {
        assert!(
            share_acknowledged(&records, s, p),
            "{} {}-{p}: offsets 0-2 not acknowledged: {ours:?}",
            s.share_group,
            s.topic
        );
    }
    seen.print("__share_group_state");
    kafka_agrees(&seen, "__share_group_state");
}

/// Group, topic id and partition of a share state record.
fn share_key(r: &ShareCoordinatorRecord) -> Option<(&str, Uuid, i32)> {
    match &r.key {
        ShareKey::ShareSnapshotKey(k) => Some((&*k.group_id, k.topic_id, k.partition)),
        ShareKey::ShareUpdateKey(k) => Some((&*k.group_id, k.topic_id, k.partition)),
        _ => None,
    }
}

/// Whether a state record of the share group's `partition` says its three
/// records (offsets 0 to 2) were acknowledged: a start offset past them, or,
/// as Kafka 4.4 writes it, a ShareUpdate with a delivery complete count of 3
/// and a state batch 0-2 in delivery state 2 (acknowledged), delivered once.
fn share_acknowledged(records: &[ShareCoordinatorRecord], s: &Scenario, partition: i32) -> bool {
    let acknowledged = |start: i64, batches: Vec<(i64, i64, i8, i16)>| {
        start >= 3
            || batches.iter().any(|&(first, last, state, count)| first <= 0 && last >= 2 && state == 2 && count == 1)
    };
    records
        .iter()
        .filter(|r| share_key(r).is_some_and(|(g, t, p)| g == s.share_group && t == s.topic_id && p == partition))
        .any(|r| match r.value.as_ref().map(|v| &v.message) {
            Some(ShareValue::ShareSnapshotValue(v)) => acknowledged(
                v.start_offset,
                v.state_batches
                    .iter()
                    .map(|b| (b.first_offset, b.last_offset, b.delivery_state, b.delivery_count))
                    .collect(),
            ),
            Some(ShareValue::ShareUpdateValue(v)) => {
                v.delivery_complete_count == 3
                    && acknowledged(
                        v.start_offset,
                        v.state_batches
                            .iter()
                            .map(|b| (b.first_offset, b.last_offset, b.delivery_state, b.delivery_count))
                            .collect(),
                    )
            }
            _ => false,
        })
}
