//! Apache Kafka's own history through the schema compiler's evolution check
//! (`kwire_codegen::diff`): every consecutive pair of releases of
//! `releases.history` of `kafka-facts.json`, 2.4 to 4.4, in three schema sets per release:
//! the messages (requests, responses, headers), the storage records
//! (tiered storage's remote-log metadata, which Kafka compiles apart from
//! the metadata log: their api keys overlap), and the records (every other
//! family: metadata log, coordinators, raft, and the coordinator records of
//! the broker's own jar before they had jars of their own, so that a record
//! moving between jars is not a removal).
//!
//! What the test expects is what Kafka's history holds:
//! * the versions Kafka 4.0 removed (KIP-896) are reported as removals of
//!   the lowest versions of their messages, and the ZooKeeper-mode apis
//!   removed with ZooKeeper as removals of all their versions;
//! * changes to versions a release marked unstable are reported as
//!   `unstable-changed`, never as breaks;
//! * every other breaking finding is listed in [`BREAKS`], each a real
//!   break in Kafka's history with its reason; the list must match exactly.
//!
//! The releases come from `interop/scripts/kafka-release.sh` (`interop/scripts/setup.sh releases`);
//! without them the test says it was skipped, and under `CI` it fails.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use kwire_codegen::evolution::{Finding, Rule};

/// The breaking findings of one schema file between two releases.
struct Break {
    /// The older and the newer release.
    pair: (&'static str, &'static str),
    /// `messages` or `records`.
    set: &'static str,
    /// The schema file's name.
    file: &'static str,
    /// How many breaking findings it has: exactly.
    findings: usize,
    why: &'static str,
}

const KRAFT_EARLY: &str = "KIP-500/KIP-631: the KRaft metadata records of the 2.8 early access were made flexible \
    and reshaped in 3.0, with no upgrade path from 2.8's metadata log";
const KIP848_EARLY: &str = "KIP-848: the new consumer group's records before the protocol was released (early \
    access in 3.7, preview in 3.8, released in 4.0)";
const KIP932_EARLY: &str = "KIP-932: share group records of the early access (4.0) and preview (4.1) releases";

/// Every break in Kafka's history that is neither a KIP-896 removal, nor a
/// ZooKeeper-mode api removed with ZooKeeper, nor confined to an unstable
/// version: each a real break, in a feature not yet released as stable.
const BREAKS: &[Break] = &[
    Break {
        pair: ("2.7.2", "2.8.2"),
        set: "messages",
        file: "EndQuorumEpochRequest.json",
        findings: 1,
        why: "KIP-595: the Raft apis before KRaft's first (early access) release in 2.8 dropped ReplicaId from v0",
    },
    Break {
        pair: ("2.7.2", "2.8.2"),
        set: "messages",
        file: "LeaderChangeMessage.json",
        findings: 1,
        why: "KIP-595: the KRaft control record gained GrantingVoters in v0 before KRaft's first release",
    },
    Break {
        pair: ("2.8.2", "3.0.2"),
        set: "messages",
        file: "LeaderChangeMessage.json",
        findings: 1,
        why: "KIP-595: the KRaft control record of the 2.8 early access gained Version in v0",
    },
    Break { pair: ("2.8.2", "3.0.2"), set: "records", file: "ConfigRecord.json", findings: 5, why: KRAFT_EARLY },
    Break {
        pair: ("2.8.2", "3.0.2"),
        set: "records",
        file: "DelegationTokenRecord.json",
        findings: 4,
        why: KRAFT_EARLY,
    },
    Break { pair: ("2.8.2", "3.0.2"), set: "records", file: "FeatureLevelRecord.json", findings: 2, why: KRAFT_EARLY },
    Break { pair: ("2.8.2", "3.0.2"), set: "records", file: "FenceBrokerRecord.json", findings: 1, why: KRAFT_EARLY },
    Break { pair: ("2.8.2", "3.0.2"), set: "records", file: "PartitionRecord.json", findings: 7, why: KRAFT_EARLY },
    Break {
        pair: ("2.8.2", "3.0.2"),
        set: "records",
        file: "QuotaRecord.json",
        findings: 1,
        why: "KIP-631: replaced by ClientQuotaRecord in 3.0 (KRaft early access)",
    },
    Break {
        pair: ("2.8.2", "3.0.2"),
        set: "records",
        file: "RegisterBrokerRecord.json",
        findings: 8,
        why: KRAFT_EARLY,
    },
    Break { pair: ("2.8.2", "3.0.2"), set: "records", file: "RemoveTopicRecord.json", findings: 1, why: KRAFT_EARLY },
    Break { pair: ("2.8.2", "3.0.2"), set: "records", file: "TopicRecord.json", findings: 2, why: KRAFT_EARLY },
    Break { pair: ("2.8.2", "3.0.2"), set: "records", file: "UnfenceBrokerRecord.json", findings: 1, why: KRAFT_EARLY },
    Break {
        pair: ("2.8.2", "3.0.2"),
        set: "records",
        file: "UnregisterBrokerRecord.json",
        findings: 1,
        why: KRAFT_EARLY,
    },
    Break {
        pair: ("2.8.2", "3.0.2"),
        set: "records",
        file: "UserScramCredentialRecord.json",
        findings: 5,
        why: KRAFT_EARLY,
    },
    Break {
        pair: ("3.2.3", "3.3.2"),
        set: "records",
        file: "FeatureLevelRecord.json",
        findings: 3,
        why: "KIP-778: feature levels reworked before KRaft was declared production ready in 3.3",
    },
    Break {
        pair: ("3.2.3", "3.3.2"),
        set: "records",
        file: "RemoveFeatureLevelRecord.json",
        findings: 1,
        why: "KIP-778: a feature level of 0 replaces the record, which KRaft never wrote in a release",
    },
    Break {
        pair: ("3.4.1", "3.5.2"),
        set: "records",
        file: "AccessControlRecord.json",
        findings: 1,
        why: "never written: ACLs in KRaft use AccessControlEntryRecord since 3.2",
    },
    Break {
        pair: ("3.4.1", "3.5.2"),
        set: "records",
        file: "UserScramCredentialRecord.json",
        findings: 6,
        why: "KIP-900: SCRAM in KRaft (3.5) redefined the record, which KRaft had not written before",
    },
    Break {
        pair: ("3.5.2", "3.6.2"),
        set: "records",
        file: "ConsumerGroupCurrentMemberAssignmentValue.json",
        findings: 6,
        why: KIP848_EARLY,
    },
    Break {
        pair: ("3.5.2", "3.6.2"),
        set: "records",
        file: "ConsumerGroupMemberMetadataValue.json",
        findings: 3,
        why: KIP848_EARLY,
    },
    Break {
        pair: ("3.5.2", "3.6.2"),
        set: "records",
        file: "ConsumerGroupPartitionMetadataValue.json",
        findings: 2,
        why: KIP848_EARLY,
    },
    Break {
        pair: ("3.5.2", "3.6.2"),
        set: "records",
        file: "DelegationTokenRecord.json",
        findings: 1,
        why: "KIP-900: delegation tokens in KRaft (3.6); KRaft had not written the record before",
    },
    Break {
        pair: ("3.5.2", "3.6.2"),
        set: "storage",
        file: "RemoteLogSegmentMetadataRecord.json",
        findings: 1,
        why: "KIP-405/KIP-917: tiered storage before its early access (3.6) gained CustomMetadata in v0",
    },
    Break {
        pair: ("3.5.2", "3.6.2"),
        set: "storage",
        file: "RemoteLogSegmentMetadataSnapshotRecord.json",
        findings: 1,
        why: "KIP-405/KIP-917: tiered storage before its early access (3.6) gained CustomMetadata in v0",
    },
    Break {
        pair: ("3.5.2", "3.6.2"),
        set: "storage",
        file: "RemoteLogSegmentMetadataUpdateRecord.json",
        findings: 1,
        why: "KIP-405/KIP-917: tiered storage before its early access (3.6) gained CustomMetadata in v0",
    },
    Break {
        pair: ("3.7.2", "3.8.1"),
        set: "records",
        file: "ConsumerGroupCurrentMemberAssignmentValue.json",
        findings: 6,
        why: KIP848_EARLY,
    },
    Break {
        pair: ("3.7.2", "3.8.1"),
        set: "records",
        file: "ConsumerGroupMemberMetadataValue.json",
        findings: 1,
        why: KIP848_EARLY,
    },
    Break {
        pair: ("3.7.2", "3.8.1"),
        set: "records",
        file: "ConsumerGroupPartitionMetadataValue.json",
        findings: 1,
        why: KIP848_EARLY,
    },
    Break {
        pair: ("3.7.2", "3.8.1"),
        set: "records",
        file: "ConsumerGroupTargetAssignmentMemberValue.json",
        findings: 3,
        why: KIP848_EARLY,
    },
    Break {
        pair: ("3.9.2", "4.0.2"),
        set: "records",
        file: "ShareGroupPartitionMetadataValue.json",
        findings: 3,
        why: KIP932_EARLY,
    },
    Break {
        pair: ("4.0.2", "4.1.2"),
        set: "records",
        file: "ShareGroupMetadataValue.json",
        findings: 1,
        why: KIP932_EARLY,
    },
    Break {
        pair: ("4.0.2", "4.1.2"),
        set: "records",
        file: "ShareGroupPartitionMetadataKey.json",
        findings: 1,
        why: KIP932_EARLY,
    },
    Break {
        pair: ("4.0.2", "4.1.2"),
        set: "records",
        file: "ShareGroupPartitionMetadataValue.json",
        findings: 1,
        why: KIP932_EARLY,
    },
    Break {
        pair: ("4.0.2", "4.1.2"),
        set: "records",
        file: "ShareGroupStatePartitionMetadataValue.json",
        findings: 1,
        why: KIP932_EARLY,
    },
    Break { pair: ("4.0.2", "4.1.2"), set: "records", file: "ShareSnapshotValue.json", findings: 3, why: KIP932_EARLY },
    Break { pair: ("4.0.2", "4.1.2"), set: "records", file: "ShareUpdateValue.json", findings: 1, why: KIP932_EARLY },
];

/// The ZooKeeper-mode apis Kafka 4.0 removed with ZooKeeper (KIP-500): their
/// schemas stay, with no versions.
const ZOOKEEPER_APIS: &[&str] = &[
    "LeaderAndIsrRequest.json",
    "LeaderAndIsrResponse.json",
    "StopReplicaRequest.json",
    "StopReplicaResponse.json",
    "UpdateMetadataRequest.json",
    "UpdateMetadataResponse.json",
    "ControlledShutdownRequest.json",
    "ControlledShutdownResponse.json",
];

fn file_name(f: &Finding) -> String {
    Path::new(&f.file).file_name().and_then(|n| n.to_str()).unwrap_or(&f.file).to_string()
}

fn show(f: &Finding) -> String {
    format!("{}: {}: v{}: {}: {}", file_name(f), f.path, f.versions, f.rule, f.detail)
}

/// A release's records of one set (`records` or `storage`), in one folder.
fn records_dir(release: &str, set: &str, root: &Path, scratch: &Path) -> PathBuf {
    let dir = scratch.join(release);
    std::fs::create_dir_all(&dir).unwrap();
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    let mut families: Vec<PathBuf> = std::fs::read_dir(root).unwrap().map(|e| e.unwrap().path()).collect();
    families.sort();
    let in_set = |f: &Path| match set {
        "storage" => f.ends_with("storage"),
        _ => !f.ends_with("messages") && !f.ends_with("storage"),
    };
    for family in families.iter().filter(|f| f.is_dir() && in_set(f)) {
        for entry in std::fs::read_dir(family).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            // A record in two jars of one release (moving between them) must say the same.
            if let Some(before) = seen.get(&name) {
                assert_eq!(before, &text, "{release}: {name} differs between two families");
                continue;
            }
            std::fs::write(dir.join(&name), &text).unwrap();
            seen.insert(name, text);
        }
    }
    dir
}

/// True for a KIP-896 removal: the lowest versions of a message of 3.9
/// removed in 4.0, the rest kept.
fn kip896(pair: (&str, &str), f: &Finding) -> bool {
    pair.0.starts_with("3.9.") && pair.1.starts_with("4.0.") && f.rule == Rule::VersionsRemoved && f.versions.lo == 0
}

#[test]
fn kafkas_history_holds_no_silent_break() {
    let list = common::releases("history");
    let Some(first) = common::release_schemas(&list[0], "messages") else { return };
    let root = first.parent().unwrap().parent().unwrap().parent().unwrap().to_path_buf();
    let scratch = std::env::temp_dir().join(format!("kwire-history-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let mut unexpected = Vec::new();
    let mut seen = vec![0usize; BREAKS.len()];
    let mut table = vec![format!(
        "{:<16} {:<8} {:>6} {:>7} {:>8} {:>8} {:>6}  other findings",
        "releases", "set", "kip896", "zk-apis", "unstable", "listed", "new"
    )];
    for pair in list.windows(2) {
        let (a, b) = (pair[0].as_str(), pair[1].as_str());
        for set in ["messages", "records", "storage"] {
            let (old, new) = if set == "messages" {
                (root.join(a).join("schemas/messages"), root.join(b).join("schemas/messages"))
            } else {
                (
                    records_dir(a, set, &root.join(a).join("schemas"), &scratch.join("old")),
                    records_dir(b, set, &root.join(b).join("schemas"), &scratch.join("new")),
                )
            };
            let report = kwire_codegen::diff(&old, &new).unwrap_or_else(|e| panic!("{a} -> {b} {set}: {e:?}"));
            let (mut removed896, mut zk, mut unstable, mut listed) = (0, 0, 0, 0);
            for f in &report.findings {
                if f.rule == Rule::UnstableChanged {
                    unstable += 1;
                } else if !f.rule.is_breaking() {
                    continue;
                } else if f.rule == Rule::VersionsRemoved
                    && ZOOKEEPER_APIS.contains(&file_name(f).as_str())
                    && b.starts_with("4.0.")
                {
                    zk += 1;
                } else if kip896((a, b), f) {
                    removed896 += 1;
                } else if let Some(i) =
                    BREAKS.iter().position(|x| x.pair == (a, b) && x.set == set && x.file == file_name(f))
                {
                    seen[i] += 1;
                    listed += 1;
                } else {
                    unexpected.push(format!("{a} -> {b} {set}: {}", show(f)));
                }
            }
            let others: Vec<String> = report
                .counts()
                .iter()
                .filter(|(r, _)| !r.is_breaking() && **r != Rule::UnstableChanged)
                .map(|(r, n)| format!("{r} {n}"))
                .collect();
            table.push(format!(
                "{:<16} {set:<8} {removed896:>6} {zk:>7} {unstable:>8} {listed:>8} {:>6}  {}",
                format!("{a} -> {b}"),
                unexpected.len(),
                others.join(", ")
            ));
            let _ = std::fs::remove_dir_all(&scratch);
        }
    }
    println!("{}", table.join("\n"));
    let stale: Vec<String> = BREAKS
        .iter()
        .zip(&seen)
        .filter(|(x, n)| x.findings != **n)
        .map(|(x, n)| {
            format!("{:?} {} {}: {} breaking findings, {} listed ({})", x.pair, x.set, x.file, n, x.findings, x.why)
        })
        .collect();
    assert!(unexpected.is_empty(), "breaks in Kafka's history not listed in BREAKS:\n{}", unexpected.join("\n"));
    assert!(stale.is_empty(), "BREAKS entries that do not hold:\n{}", stale.join("\n"));
}
