//! `schemas/` against each Apache Kafka release of `releases.equivalence` of `kafka-facts.json`,
//! inside that release's version window: for every message and version the
//! release has, our schema at that version must be the release's, field by
//! field (names, types, nullability, tags, tagged versions, defaults,
//! flexibility, nested structs). The comparison is
//! `kwire_codegen::diff(release, schemas/)`, the schema compiler's own
//! evolution check.
//!
//! What may differ:
//! * versions and messages the release lacks (`versions-added`,
//!   `message-added`): the union of releases, and the older versions Kafka
//!   removed (KIP-896) that kwire keeps;
//! * about texts (ours are our own);
//! * a version the release marks unstable (`unstable-changed`): it takes its
//!   shape from the newest release that has it;
//! * the listed differences of [`ALLOWED`], each with its reason. Each must
//!   be found in at least one release, so that the list cannot go stale.
//!
//! The releases' schemas come from `interop/scripts/kafka-release.sh VERSION`, which
//! extracts them into `.cache/kafka/VERSION/schemas` (or
//! `$KWIRE_RELEASES/VERSION/schemas`). Without them the test says it was
//! skipped, and under `CI` it fails.

mod common;

use std::path::{Path, PathBuf};

use kwire_codegen::evolution::{Finding, Report, Rule};

/// One accepted difference between `schemas/` and a release.
struct Allowed {
    /// The finding's file name in `schemas/`.
    file: &'static str,
    /// The finding's JSON path.
    path: &'static str,
    rule: Rule,
    /// The finding's detail.
    detail: &'static str,
    why: &'static str,
}

/// Every accepted difference, and nothing else.
const ALLOWED: &[Allowed] = &[
    Allowed {
        file: "RequestHeader.json",
        path: "fields[4] (InitialPrincipalName)",
        rule: Rule::TaggedFieldAdded,
        detail: "tagged field InitialPrincipalName (tag 0) added",
        why: "KIP-590: principal of the client a forwarding broker acts for",
    },
    Allowed {
        file: "RequestHeader.json",
        path: "fields[5] (InitialClientId)",
        rule: Rule::TaggedFieldAdded,
        detail: "tagged field InitialClientId (tag 1) added",
        why: "KIP-590: client id of the client a forwarding broker acts for",
    },
    Allowed {
        file: "EnvelopeRequest.json",
        path: "fields[0] (RequestData)",
        rule: Rule::NoWireEffect,
        detail: "type bytes renamed ApiMessage",
        why: "KIP-590: the forwarded request is typed as an embedded message (same bytes)",
    },
    Allowed {
        file: "EnvelopeResponse.json",
        path: "fields[0] (ResponseData)",
        rule: Rule::NoWireEffect,
        detail: "type bytes renamed ApiMessage",
        why: "KIP-590: the forwarded response is typed as an embedded message (same bytes)",
    },
    Allowed {
        file: "ListConfigResourcesRequest.json",
        path: "name",
        rule: Rule::NoWireEffect,
        detail: "renamed from ListClientMetricsResourcesRequest",
        why: "api key 74 was renamed in Kafka 4.1 (KIP-1142), v0 unchanged on the wire",
    },
    Allowed {
        file: "ListConfigResourcesResponse.json",
        path: "name",
        rule: Rule::NoWireEffect,
        detail: "renamed from ListClientMetricsResourcesResponse",
        why: "api key 74 was renamed in Kafka 4.1 (KIP-1142), v0 unchanged on the wire",
    },
    Allowed {
        file: "ListConfigResourcesResponse.json",
        path: "fields[2] (ConfigResources)",
        rule: Rule::NoWireEffect,
        detail: "field ClientMetricsResources renamed ConfigResources",
        why: "renamed with api key 74 in Kafka 4.1 (KIP-1142)",
    },
    Allowed {
        file: "ListConfigResourcesResponse.json",
        path: "fields[2] (ConfigResources)",
        rule: Rule::NoWireEffect,
        detail: "type []ClientMetricsResource renamed []ConfigResource",
        why: "renamed with api key 74 in Kafka 4.1 (KIP-1142)",
    },
    Allowed {
        file: "ListConfigResourcesResponse.json",
        path: "fields[2] (ConfigResources).fields[0] (ResourceName)",
        rule: Rule::NoWireEffect,
        detail: "field Name renamed ResourceName",
        why: "renamed with api key 74 in Kafka 4.1 (KIP-1142)",
    },
    Allowed {
        file: "TxnOffsetCommitRequest.json",
        path: "fields[4] (GenerationIdOrMemberEpoch)",
        rule: Rule::NoWireEffect,
        detail: "field GenerationId renamed GenerationIdOrMemberEpoch",
        why: "Kafka 4.4 renamed the field (KIP-848 groups send a member epoch there); same bytes",
    },
    Allowed {
        file: "VoteRequest.json",
        path: "fields[2] (Topics).fields[1] (Partitions).fields[1] (ReplicaEpoch)",
        rule: Rule::NoWireEffect,
        detail: "field CandidateEpoch renamed ReplicaEpoch",
        why: "Kafka 4.0 renamed the Vote fields for pre-vote (KIP-996); same bytes",
    },
    Allowed {
        file: "VoteRequest.json",
        path: "fields[2] (Topics).fields[1] (Partitions).fields[2] (ReplicaId)",
        rule: Rule::NoWireEffect,
        detail: "field CandidateId renamed ReplicaId",
        why: "Kafka 4.0 renamed the Vote fields for pre-vote (KIP-996); same bytes",
    },
    Allowed {
        file: "VoteRequest.json",
        path: "fields[2] (Topics).fields[1] (Partitions).fields[3] (ReplicaDirectoryId)",
        rule: Rule::NoWireEffect,
        detail: "field CandidateDirectoryId renamed ReplicaDirectoryId",
        why: "Kafka 4.0 renamed the Vote fields for pre-vote (KIP-996); same bytes",
    },
    Allowed {
        file: "StreamsGroupHeartbeatResponse.json",
        path: "fields[6] (AcceptableRecoveryLagLegacy)",
        rule: Rule::NoWireEffect,
        detail: "field AcceptableRecoveryLag renamed AcceptableRecoveryLagLegacy",
        why: "Kafka 4.4 renamed the field when the assignment configuration moved (KIP-1071); same bytes",
    },
    Allowed {
        file: "StreamsGroupHeartbeatResponse.json",
        path: "fields[9] (Status)",
        rule: Rule::NoWireEffect,
        detail: "default null became empty",
        why: "Kafka 4.2 dropped the null default of a field that is not nullable; no byte changes",
    },
];

/// Rules that never fail the comparison (see the module docs).
fn always_allowed(rule: Rule) -> bool {
    matches!(rule, Rule::VersionsAdded | Rule::MessageAdded | Rule::Documentation | Rule::UnstableChanged)
}

fn file_name(f: &Finding) -> &str {
    Path::new(&f.file).file_name().and_then(|n| n.to_str()).unwrap_or(&f.file)
}

fn allowance(f: &Finding) -> Option<usize> {
    ALLOWED.iter().position(|a| {
        a.file == file_name(f) && a.path == f.path.to_string() && a.rule == f.rule && a.detail == f.detail
    })
}

/// The findings that fail the comparison, and which allowances were used.
fn failures(report: &Report, used: &mut [bool]) -> Vec<String> {
    let mut out = Vec::new();
    for f in &report.findings {
        if always_allowed(f.rule) {
            continue;
        }
        match allowance(f) {
            Some(i) => used[i] = true,
            None => out.push(f.to_string()),
        }
    }
    out
}

fn ours() -> PathBuf {
    kwire_testkit::workspace_root().join("schemas")
}

#[test]
fn schemas_match_every_release_inside_its_versions() {
    let mut used = vec![false; ALLOWED.len()];
    let mut all_failures = Vec::new();
    let mut table = vec![format!(
        "{:<8} {:>8} {:>8} {:>8} {:>8}  findings by rule",
        "release", "messages", "versions", "ours+", "failed"
    )];
    for release in common::releases("equivalence") {
        let release = release.as_str();
        let Some(dir) = common::release_schemas(release, "messages") else { return };
        let report = kwire_codegen::diff(&dir, ours()).unwrap_or_else(|e| panic!("{release}: {e:?}"));
        let failed = failures(&report, &mut used);
        let (messages, versions) = window(&dir);
        let added =
            report.findings.iter().filter(|f| f.rule == Rule::VersionsAdded || f.rule == Rule::MessageAdded).count();
        let counts: Vec<String> = report.counts().iter().map(|(r, n)| format!("{r} {n}")).collect();
        table.push(format!(
            "{release:<8} {messages:>8} {versions:>8} {added:>8} {:>8}  {}",
            failed.len(),
            counts.join(", ")
        ));
        all_failures.extend(failed.into_iter().map(|f| format!("{release}: {f}")));
    }
    println!("{}", table.join("\n"));
    let unused: Vec<String> = ALLOWED
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|(a, _)| format!("{}: {}: {} ({})", a.file, a.path, a.detail, a.why))
        .collect();
    assert!(all_failures.is_empty(), "schemas/ differs from Kafka's releases:\n{}", all_failures.join("\n"));
    assert!(unused.is_empty(), "allowed differences found in no release:\n{}", unused.join("\n"));
}

/// How many messages and (message, version) pairs a release's schema folder has.
fn window(dir: &Path) -> (usize, usize) {
    let mut builder = kwire_codegen::Builder::new();
    builder.input_dir(dir).rerun_if_changed(false);
    let generated = builder.generate().expect("a release's schemas compile");
    let versions = generated
        .messages
        .iter()
        .map(|m| match m.versions.split_once('-') {
            Some((lo, hi)) => hi.parse::<usize>().unwrap() - lo.parse::<usize>().unwrap() + 1,
            None if m.versions == "none" => 0,
            None => 1,
        })
        .sum();
    (generated.messages.len(), versions)
}

// ---------------------------------------------------------------------------
// The comparison catches what it must: our schemas edited, compared with
// themselves as the "release".
// ---------------------------------------------------------------------------

/// The failures of comparing `schemas/` (as the release) with `schemas/`
/// after `edit` on one file's text, each as `file: path: versions: rule:
/// detail` with the file's name alone and no line.
fn failures_after_edit(file: &str, edit: impl FnOnce(String) -> String) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("kwire-equivalence-{}-{file}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(ours()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(dir.join(&name), text).unwrap();
    }
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = edit(text.clone());
    assert_ne!(edited, text, "the edit changed nothing");
    std::fs::write(&path, edited).unwrap();
    let mut report = kwire_codegen::diff(ours(), &dir).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    for f in &mut report.findings {
        f.file = file_name(f).to_string();
        f.line = None;
    }
    let mut used = vec![false; ALLOWED.len()];
    failures(&report, &mut used)
}

#[test]
fn schemas_compared_with_themselves_have_no_finding() {
    let report = kwire_codegen::diff(ours(), ours()).unwrap();
    assert_eq!(report.findings, vec![], "{report}");
}

#[test]
fn a_changed_nullability_fails_naming_file_path_and_versions() {
    let failed = failures_after_edit("ProduceRequest.json", |t| {
        t.replacen(
            r#""name": "Records", "type": "records", "versions": "0+", "nullableVersions": "0+""#,
            r#""name": "Records", "type": "records", "versions": "0+", "nullableVersions": "5+""#,
            1,
        )
    });
    assert_eq!(
        failed,
        ["ProduceRequest.json: fields[3] (TopicData).fields[2] (PartitionData).fields[1] (Records): v0-4: \
         layout-changed: nullable yes became no"]
    );
}

#[test]
fn removing_a_kip590_header_field_is_allowed_only_as_listed() {
    // Our header compared with one whose tag 1 field is renamed: a name change is not allowed.
    let failed =
        failures_after_edit("RequestHeader.json", |t| t.replacen("\"InitialClientId\"", "\"InitialClient\"", 1));
    assert_eq!(failed, ["RequestHeader.json: fields[5] (InitialClient): v2: no-wire-effect: field InitialClientId renamed InitialClient"]);
}

#[test]
fn a_removed_version_fails() {
    let failed = failures_after_edit("MetadataRequest.json", |t| {
        t.replacen(r#""validVersions": "0-13""#, r#""validVersions": "0-12""#, 1)
    });
    assert_eq!(failed, ["MetadataRequest.json: validVersions: v13: versions-removed: versions removed"]);
}

#[test]
fn a_changed_default_or_nullability_of_a_tagged_field_fails() {
    let failed = failures_after_edit("ApiVersionsResponse.json", |t| {
        t.replacen(r#""tag": 1, "default": "-1""#, r#""tag": 1, "default": "-2""#, 1)
    });
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert!(failed[0].ends_with("(FinalizedFeaturesEpoch): v3-5: layout-changed: default -1 became -2"), "{failed:?}");
    let failed = failures_after_edit("ProduceResponse.json", |t| {
        t.replacen(r#""name": "NodeEndpoints", "type": "[]NodeEndpoint", "versions": "10+", "taggedVersions": "10+", "tag": 0,"#,
                   r#""name": "NodeEndpoints", "type": "[]NodeEndpoint", "versions": "10+", "taggedVersions": "10+", "tag": 0, "nullableVersions": "10+", "default": "null","#, 1)
    });
    assert_eq!(
        failed,
        [
            "ProduceResponse.json: fields[2] (NodeEndpoints): v10-13: layout-changed: default empty became null",
            "ProduceResponse.json: fields[2] (NodeEndpoints): v10-13: layout-changed: nullable no became yes",
        ]
    );
}

#[test]
fn the_allow_list_names_files_of_schemas() {
    for a in ALLOWED {
        assert!(ours().join(a.file).is_file(), "{} is not in schemas/", a.file);
    }
}
