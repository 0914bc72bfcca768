//! Writes fuzz seeds from encoded round-trip values when `FUZZ_SEEDS_DIR`
//! is set (scripts/fuzz.sh does): for every api key and version, a sampled
//! request frame and a sampled response in the shape the `response` target
//! reads (api index, version, then header and body); internal records; and
//! (feature `json`) the seeds of the `json`, `views`, `envelope` and
//! `evolution` targets, from samples, the shared captures and the schemas.
//! Without the variable it checks that the seeds it would write are read
//! by their targets as meant.

mod common;

use kwire::api::API_INFO;
use kwire::frame;
use kwire::messages::{RequestBody, RequestHeader, ResponseBody, ResponseHeader};
use kwire::sample::SampleGen;
use kwire::BytesMut;

fn seeds() -> Vec<(String, Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    for (index, info) in API_INFO.iter().enumerate() {
        for version in info.valid_versions.min..=info.valid_versions.max {
            let mut g = SampleGen::new(((info.api_key.code() as u64) << 16) ^ version as u64);
            let header = RequestHeader {
                request_api_key: info.api_key.code(),
                request_api_version: version,
                correlation_id: 7,
                ..Default::default()
            };
            let (Some(request), Some(response)) = (
                RequestBody::sample(info.api_key, &mut g, version),
                ResponseBody::sample(info.api_key, &mut g, version),
            ) else {
                continue;
            };
            let mut req = BytesMut::new();
            frame::RequestFrame::encode_parts(&header, &request, &mut req).expect("sampled requests encode");
            let mut resp = BytesMut::from(&[index as u8, (version - info.valid_versions.min) as u8][..]);
            let rh = ResponseHeader { correlation_id: 7, ..Default::default() };
            frame::ResponseFrame::encode_parts(&rh, &response, version, &mut resp).expect("sampled responses encode");
            out.push((format!("{}-v{version}", info.name), req.to_vec(), resp.to_vec()));
        }
    }
    out
}

#[test]
fn write_or_check_seeds() {
    let seeds = seeds();
    assert!(seeds.len() > 300, "every api key and version gives a seed");
    let Some(dir) = std::env::var_os("FUZZ_SEEDS_DIR") else {
        for (name, req, _) in &seeds {
            frame::RequestFrame::decode(req.clone().into()).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    for (sub, pick) in [("request_frame", 1), ("response", 2)] {
        std::fs::create_dir_all(dir.join(sub)).expect("seed dir");
        for seed in &seeds {
            let bytes = if pick == 1 { &seed.1 } else { &seed.2 };
            std::fs::write(dir.join(sub).join(format!("sample-{}", seed.0)), bytes).expect("seed written");
        }
    }
}

/// Seeds of the `internal_records` target, in its layout (first byte: what
/// the rest is; see fuzz/fuzz_targets/internal_records.rs): every metadata
/// and remote-log-metadata record type and version framed, every
/// coordinator record type with each value version and as a tombstone, a
/// log of data and control batches, and a snapshot.
fn internal_seeds() -> Vec<(String, Vec<u8>)> {
    use kwire::internal::{
        group_coordinator, metadata::MetadataRecord, share_coordinator, storage, transaction_coordinator,
        ApiMessageAndVersion, CoordinatorRecord, RecordData,
    };
    use kwire::message::Message;
    use kwire::messages::{SnapshotFooterRecord, SnapshotHeaderRecord};
    use kwire::records::{ControlRecordKey, ControlRecordType, EndTxnMarker, RecordBatchBuilder};

    fn framed<T: RecordData>(family: &str, out: &mut Vec<(String, Vec<u8>)>) -> Vec<Vec<u8>> {
        let mut values = Vec::new();
        for t in T::RECORD_TYPES {
            for version in t.versions.min..=t.versions.max {
                let mut g = SampleGen::new(((t.id as u64) << 16) ^ version as u64);
                let message = T::sample(t.id, &mut g, version).expect("the family's record types sample");
                let bytes =
                    ApiMessageAndVersion { version, message }.to_bytes_framed().expect("sampled records encode");
                out.push((format!("{family}-{}-v{version}", t.name), [&[0u8][..], &bytes].concat()));
                values.push(bytes.to_vec());
            }
        }
        values
    }
    fn coordinator<K: RecordData, V: RecordData>(family: &str, out: &mut Vec<(String, Vec<u8>)>) {
        for t in K::RECORD_TYPES {
            let Some(value_type) = V::record_type_info(t.id) else { continue };
            let mut g = SampleGen::new(t.id as u64);
            let key = K::sample(t.id, &mut g, 0).expect("keys sample");
            let mut records =
                vec![(CoordinatorRecord::<K, V> { key: key.clone(), value: None }, "tombstone".to_string())];
            for version in value_type.versions.min..=value_type.versions.max {
                let message = V::sample(t.id, &mut g, version).expect("values sample");
                let value = Some(ApiMessageAndVersion { version, message });
                records.push((CoordinatorRecord { key: key.clone(), value }, format!("v{version}")));
            }
            for (record, what) in records {
                let key = record.key_bytes().expect("sampled keys encode");
                let Ok(key_len) = u8::try_from(key.len()) else { continue };
                let value = record.value_bytes().expect("sampled values encode");
                let selector = if value.is_none() { 0x81 } else { 0x01 };
                let seed = [&[selector, key_len][..], &key, value.as_deref().unwrap_or_default()].concat();
                out.push((format!("{family}-{}-{what}", t.name), seed));
            }
        }
    }
    fn control(base_offset: i64, t: ControlRecordType, value: kwire::Bytes) -> Vec<u8> {
        let mut b = RecordBatchBuilder::new(base_offset);
        b.control(true);
        b.append(1_700_000_000_000, Some(ControlRecordKey::new(t).to_bytes()), Some(value), vec![]);
        b.to_bytes().expect("builds").to_vec()
    }

    let mut out = Vec::new();
    let values = framed::<MetadataRecord>("metadata", &mut out);
    framed::<storage::RemoteLogMetadataRecord>("remote-log-metadata", &mut out);
    coordinator::<group_coordinator::CoordinatorRecordKey, group_coordinator::CoordinatorRecordValue>(
        "offsets", &mut out,
    );
    coordinator::<share_coordinator::CoordinatorRecordKey, share_coordinator::CoordinatorRecordValue>(
        "share", &mut out,
    );
    coordinator::<transaction_coordinator::CoordinatorRecordKey, transaction_coordinator::CoordinatorRecordValue>(
        "transactions",
        &mut out,
    );
    let mut data = RecordBatchBuilder::new(1);
    for v in values.iter().take(8) {
        data.append(1_700_000_000_001, None, Some(v.clone().into()), vec![]);
    }
    let data = data.to_bytes().expect("builds").to_vec();
    let commit = control(9, ControlRecordType::Commit, EndTxnMarker::new(1).to_bytes());
    out.push(("log".into(), [&[2u8][..], &data, &commit].concat()));
    let header =
        control(0, ControlRecordType::SnapshotHeader, SnapshotHeaderRecord::default().to_bytes(0).expect("encodes"));
    let footer =
        control(10, ControlRecordType::SnapshotFooter, SnapshotFooterRecord::default().to_bytes(0).expect("encodes"));
    out.push(("snapshot".into(), [&[3u8][..], &header, &data, &footer].concat()));
    out
}

#[test]
fn write_or_check_internal_seeds() {
    use kwire::internal::log::{LogEntries, LogRecord, MetadataLogRecord, Snapshot};
    use kwire::internal::{group_coordinator, share_coordinator, transaction_coordinator};
    use kwire::Bytes;

    let seeds = internal_seeds();
    assert!(seeds.len() > 90, "every record type and version gives a seed: {}", seeds.len());
    assert!(seeds.iter().any(|(n, s)| n.starts_with("offsets") && s[0] == 0x81), "tombstones among them");
    let Some(dir) = std::env::var_os("FUZZ_SEEDS_DIR") else {
        // Each seed reads as the target reads it.
        for (name, seed) in &seeds {
            let (selector, rest) = seed.split_first().expect("a selector");
            let rest = Bytes::copy_from_slice(rest);
            match selector % 4 {
                0 if name.starts_with("metadata") => {
                    MetadataLogRecord::decode_framed(rest).unwrap_or_else(|e| panic!("{name}: {e}"));
                }
                0 => {
                    kwire::internal::ApiMessageAndVersion::<kwire::internal::storage::RemoteLogMetadataRecord>::decode_framed(rest)
                        .unwrap_or_else(|e| panic!("{name}: {e}"));
                }
                1 => {
                    let key_len = rest[0] as usize;
                    let key = rest.slice(1..1 + key_len);
                    let value = (selector & 0x80 == 0).then(|| rest.slice(1 + key_len..));
                    let ok = if name.starts_with("offsets") {
                        group_coordinator::GroupCoordinatorRecord::decode(Some(key), value).map(|_| ())
                    } else if name.starts_with("share") {
                        share_coordinator::ShareCoordinatorRecord::decode(Some(key), value).map(|_| ())
                    } else {
                        transaction_coordinator::TransactionCoordinatorRecord::decode(Some(key), value).map(|_| ())
                    };
                    ok.unwrap_or_else(|e| panic!("{name}: {e}"));
                }
                2 => {
                    let entries = LogEntries::<MetadataLogRecord>::new(rest)
                        .collect::<Result<Vec<_>, _>>()
                        .unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert_eq!(entries.len(), 9, "{name}");
                }
                _ => {
                    let snapshot =
                        Snapshot::<MetadataLogRecord>::decode(rest).unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert_eq!(snapshot.entries.len(), 10, "{name}");
                }
            }
        }
        return;
    };
    let dir = std::path::PathBuf::from(dir).join("internal_records");
    std::fs::create_dir_all(&dir).expect("seed dir");
    for (name, seed) in &seeds {
        std::fs::write(dir.join(format!("sample-{name}")), seed).expect("seed written");
    }
}

/// Seeds of the targets of Kafka's JSON form, borrowed views, envelopes and
/// the evolution check.
mod json_views_envelope_evolution {
    use super::*;
    use kwire::message::Message;

    /// Writes `seeds` into `$FUZZ_SEEDS_DIR/<target>/`, named `sample-<name>`.
    fn write_seeds(dir: &std::path::Path, target: &str, seeds: &[(String, Vec<u8>)]) {
        let dir = dir.join(target);
        std::fs::create_dir_all(&dir).expect("seed dir");
        for (name, seed) in seeds {
            std::fs::write(dir.join(format!("sample-{name}")), seed).expect("seed written");
        }
    }

    /// The api's index in the api-key table and the version's offset from the
    /// api's lowest: how the `json`, `views` and `response` targets choose them.
    fn choice(api_key: kwire::api::ApiKey, version: i16) -> [u8; 2] {
        let index = API_INFO.iter().position(|i| i.api_key == api_key).expect("in the table");
        [index as u8, (version - API_INFO[index].valid_versions.min) as u8]
    }

    /// A sampled exchange: name, api key, version, request frame, response
    /// frame (frames without the 4-byte size).
    type Sampled = (String, kwire::api::ApiKey, i16, Vec<u8>, Vec<u8>);

    /// A request and a response sampled at every api key and version.
    fn sampled_frames() -> Vec<Sampled> {
        seeds()
            .into_iter()
            .map(|(name, request, response)| {
                let head = frame::RequestHead::parse(&request).expect("a sampled frame has a head");
                let api_key = kwire::api::ApiKey::try_from(head.api_key).expect("known");
                (name, api_key, head.api_version, request, response[2..].to_vec())
            })
            .collect()
    }

    /// A captured frame, without its 4-byte size.
    struct Captured {
        name: String,
        api_key: kwire::api::ApiKey,
        version: i16,
        request: bool,
        correlation_id: i32,
        /// Client and peer.
        session: String,
        bytes: Vec<u8>,
    }

    /// The captured frames whose api key is in this build.
    fn captured_frames() -> Vec<Captured> {
        let Some(captures) = common::captures::captures() else { return Vec::new() };
        captures
            .into_iter()
            .filter_map(|c| {
                let api_key = kwire::api::ApiKey::try_from(c.api_key).ok()?;
                let name = std::path::Path::new(&c.file).file_stem()?.to_string_lossy().into_owned();
                let session = format!("{}-{}", c.client, c.peer);
                Some(Captured {
                    name,
                    api_key,
                    version: c.api_version,
                    request: c.request,
                    correlation_id: c.correlation_id,
                    session,
                    bytes: c.bytes[4..].to_vec(),
                })
            })
            .collect()
    }

    /// Seeds of the `json` target: selector (0 request, 1 response), api
    /// index, version offset, then Kafka's JSON form (unredacted) of a sampled
    /// or captured body.
    fn json_seeds() -> Vec<(String, Vec<u8>)> {
        use kwire::json::JsonOptions;
        let mut out = Vec::new();
        let mut push = |name: String, api_key, version, request: bool, json: kwire::json::Value| {
            let [index, offset] = choice(api_key, version);
            out.push((name, [&[u8::from(!request), index, offset][..], json.to_string().as_bytes()].concat()));
        };
        for info in API_INFO {
            for version in info.valid_versions.min..=info.valid_versions.max {
                let mut g = SampleGen::new(((info.api_key.code() as u64) << 16) ^ version as u64 ^ 0x150);
                let options = JsonOptions::unredacted();
                if let Some(Ok(json)) =
                    RequestBody::sample(info.api_key, &mut g, version).map(|b| b.to_json_with(version, options))
                {
                    push(format!("{}-v{version}-request", info.name), info.api_key, version, true, json);
                }
                if let Some(Ok(json)) =
                    ResponseBody::sample(info.api_key, &mut g, version).map(|b| b.to_json_with(version, options))
                {
                    push(format!("{}-v{version}-response", info.name), info.api_key, version, false, json);
                }
            }
        }
        for Captured { name, api_key, version, request, bytes, .. } in captured_frames() {
            let options = JsonOptions::unredacted();
            let json = if request {
                frame::RequestFrame::decode(bytes.into()).map(|f| f.body.to_json_with(version, options))
            } else {
                frame::ResponseFrame::decode(bytes.into(), api_key, version)
                    .map(|f| f.body.to_json_with(version, options))
            };
            if let Ok(Ok(json)) = json {
                push(format!("capture-{name}"), api_key, version, request, json);
            }
        }
        out
    }

    /// Seeds of the `views` target: mode (0 request frame, 1 response frame,
    /// 2 request body, 3 response body), api index, version offset, bytes.
    fn views_seeds() -> Vec<(String, Vec<u8>)> {
        let mut out = Vec::new();
        for (name, api_key, version, request, response) in sampled_frames() {
            let [index, offset] = choice(api_key, version);
            let info = api_key.info();
            let header = frame::RequestFrame::decode(request.clone().into()).expect("decodes").header;
            let request_body = &request[header.encoded_size(info.request_header_version(version))..];
            let response_header = kwire::messages::ResponseHeader { correlation_id: 7, ..Default::default() };
            let response_body = &response[response_header.encoded_size(info.response_header_version(version))..];
            out.push((format!("{name}-request-frame"), [&[0, index, offset][..], &request].concat()));
            out.push((format!("{name}-response-frame"), [&[1, index, offset][..], &response].concat()));
            out.push((format!("{name}-request"), [&[2, index, offset][..], request_body].concat()));
            out.push((format!("{name}-response"), [&[3, index, offset][..], response_body].concat()));
        }
        for Captured { name, api_key, version, request, bytes, .. } in captured_frames() {
            let [index, offset] = choice(api_key, version);
            out.push((format!("capture-{name}"), [&[u8::from(!request), index, offset][..], &bytes].concat()));
        }
        out
    }

    /// Seeds of the `envelope` target (its layout: see
    /// fuzz/fuzz_targets/envelope.rs): every forwardable request sampled at
    /// every version and the captured ones, wrapped as the controller receives
    /// them; each with the controller's answer as the broker receives it (a
    /// sampled or captured response, NOT_CONTROLLER, CLUSTER_AUTHORIZATION_FAILED,
    /// INVALID_REQUEST, null data); and principals, addresses and embedded
    /// requests alone.
    fn envelope_seeds() -> Vec<(String, Vec<u8>)> {
        use kwire::messages::DefaultPrincipalData;
        use kwire_broker::forward::{principal_to_bytes, wrap_request};
        use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

        let principal = DefaultPrincipalData { r#type: "User".into(), name: "alice".into(), ..Default::default() };
        let principal_bytes = principal_to_bytes(&principal).expect("encodes").to_vec();
        let mut out = Vec::new();
        let mut exchanges: Vec<(String, Vec<u8>, Option<Vec<u8>>)> = Vec::new();
        for (name, api_key, _, request, response) in sampled_frames() {
            if api_key.info().forwardable {
                // The sampled response answers correlation id 7, as the request asks.
                exchanges.push((name, request, Some(response)));
            }
        }
        let captured = captured_frames();
        for q in captured.iter().filter(|c| c.request && c.api_key.info().forwardable) {
            let answers = |c: &&Captured| {
                !c.request && c.api_key == q.api_key && c.correlation_id == q.correlation_id && c.session == q.session
            };
            let response = captured.iter().find(answers).map(|c| c.bytes.clone());
            exchanges.push((format!("capture-{}", q.name), q.bytes.clone(), response));
        }
        for (i, (name, request, response)) in exchanges.iter().enumerate() {
            let address: &[u8] = if i % 2 == 0 { &[10, 0, 0, 7] } else { &Ipv6Addr::LOCALHOST.octets() };
            let controller =
                [&[0, principal_bytes.len() as u8][..], &principal_bytes, &[address.len() as u8], address, request]
                    .concat();
            out.push((format!("{name}-controller"), controller));
            let len = (request.len() as u16).to_be_bytes();
            let broker = |code: i16, data: Option<&[u8]>| {
                let selector = if data.is_some() { 1 } else { 0x81 };
                [&[selector][..], &len, request, &code.to_be_bytes(), data.unwrap_or_default()].concat()
            };
            if let Some(response) = response {
                out.push((format!("{name}-broker"), broker(0, Some(response))));
            }
            out.push((format!("{name}-broker-not-controller"), broker(41, None)));
            out.push((format!("{name}-broker-cluster-authorization-failed"), broker(31, None)));
            out.push((format!("{name}-broker-invalid-request"), broker(42, None)));
            out.push((format!("{name}-broker-no-data"), broker(0, None)));
            if i == 0 {
                let wrapped =
                    wrap_request(request.clone().into(), &principal, IpAddr::V4(Ipv4Addr::LOCALHOST), 1, None)
                        .expect("a sampled forwardable request wraps");
                out.push(("embedded-request".into(), [&[2u8][..], wrapped.envelope.request_data.as_bytes()].concat()));
            }
        }
        out.push(("embedded-principal".into(), [&[2u8][..], &principal_bytes].concat()));
        out.push(("embedded-ipv6".into(), [&[2u8][..], &Ipv6Addr::LOCALHOST.octets()].concat()));
        // RequestHeader v2: api key 19, version 7, correlation id 1, client id "c", no tags.
        out.push(("embedded-header-v2".into(), vec![0x22, 0, 19, 0, 7, 0, 0, 0, 1, 0, 1, b'c', 0]));
        out
    }

    /// A seed of the `evolution` target: the old set, two NULs, the new set
    /// (or one set, compared with itself); within a set, the files'
    /// texts separated by a NUL.
    fn evolution_seed(old: &[String], new: Option<&[String]>) -> Vec<u8> {
        match new {
            Some(new) => [old.join("\0"), new.join("\0")].join("\0\0").into_bytes(),
            None => old.join("\0").into_bytes(),
        }
    }

    /// A data schema `name`, valid versions `versions`, flexible from 1, with
    /// `fields` and `common` structs (JSON text of each list's items).
    fn data_schema(name: &str, versions: &str, fields: &str, common: &str) -> String {
        format!(
            r#"{{ "type": "data", "name": "{name}", "validVersions": "{versions}", "flexibleVersions": "1+",
      "fields": [ {fields} ],
      "commonStructs": [ {common} ] }}"#
        )
    }

    /// Schemas whose structs refer to themselves or share their levels: a
    /// struct holding an array of itself (directly, through another struct, as
    /// a tagged field); and `depth` levels each holding two of the next (so a
    /// walk that does not share what it has seen visits 2^depth structs).
    fn recursive_schemas(depth: usize) -> Vec<(String, String)> {
        let node = r#"{ "name": "Node", "versions": "0+", "fields": [
          { "name": "Id", "type": "int32", "versions": "0+" },
          { "name": "Children", "type": "[]Node", "versions": "0+" } ] }"#;
        let a = r#"{ "name": "A", "versions": "0+", "fields": [ { "name": "Bs", "type": "[]B", "versions": "0+" } ] },
          { "name": "B", "versions": "0+", "fields": [ { "name": "As", "type": "[]A", "versions": "0+" },
            { "name": "Payload", "type": "bytes", "versions": "1+" } ] }"#;
        let tagged = r#"{ "name": "Tree", "versions": "0+", "fields": [
          { "name": "Kids", "type": "[]Tree", "versions": "1+", "taggedVersions": "1+", "tag": 0 } ] }"#;
        let levels: Vec<String> = (0..depth)
            .map(|i| {
                let next = if i + 1 == depth { "int32".to_string() } else { format!("Level{}", i + 1) };
                format!(
                    r#"{{ "name": "Level{i}", "versions": "0+", "fields": [
          {{ "name": "Left", "type": "{next}", "versions": "0+" }}, {{ "name": "Right", "type": "{next}", "versions": "0+" }} ] }}"#
                )
            })
            .collect();
        vec![
            (
                "self".into(),
                data_schema("Tree", "0-2", r#"{ "name": "Root", "type": "[]Node", "versions": "0+" }"#, node),
            ),
            ("mutual".into(), data_schema("Pair", "0-2", r#"{ "name": "Root", "type": "A", "versions": "0+" }"#, a)),
            (
                "tagged-self".into(),
                data_schema("Forest", "0-2", r#"{ "name": "Root", "type": "Tree", "versions": "0+" }"#, tagged),
            ),
            (
                "shared".into(),
                data_schema(
                    "Shared",
                    "0-1",
                    r#"{ "name": "Root", "type": "Level0", "versions": "0+" }"#,
                    &levels.join(",\n      "),
                ),
            ),
        ]
    }

    /// Seeds of the `evolution` target: every schema of `schemas/` compared
    /// with itself and with Kafka's own copy in the reference material (where
    /// they differ), the recursive and shared schemas of [`recursive_schemas`]
    /// alone and against an edit (a version added, a field added to a version
    /// already there).
    fn evolution_seeds() -> Vec<(String, Vec<u8>)> {
        let root = kwire_testkit::workspace_root();
        let kafka = common::shared_dir("fuzz seeds of the evolution target").map(|d| d.join("kafka-messages"));
        let mut out = Vec::new();
        let mut names: Vec<String> = std::fs::read_dir(root.join("schemas"))
            .expect("schemas/")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".json") && !n.ends_with("Response.json"))
            .collect();
        names.sort();
        for name in names {
            // A request comes with its response: the compiler needs both.
            let mut files = vec![name.clone()];
            if let Some(api) = name.strip_suffix("Request.json") {
                files.push(format!("{api}Response.json"));
            }
            let read = |dir: &std::path::Path| -> Option<Vec<String>> {
                files.iter().map(|f| std::fs::read_to_string(dir.join(f)).ok()).collect()
            };
            let stem = name.trim_end_matches(".json");
            let ours = read(&root.join("schemas")).expect("a request's response is in schemas/");
            out.push((format!("{stem}-self"), evolution_seed(&ours, None)));
            if let Some(theirs) = kafka.as_deref().and_then(read) {
                if theirs != ours {
                    out.push((format!("{stem}-kafka"), evolution_seed(&theirs, Some(&ours))));
                }
            }
        }
        for (name, text) in recursive_schemas(24) {
            out.push((format!("{name}-self"), evolution_seed(std::slice::from_ref(&text), None)));
            let versions_added = text
                .replace(r#""validVersions": "0-2""#, r#""validVersions": "0-3""#)
                .replace(r#""validVersions": "0-1""#, r#""validVersions": "0-2""#);
            assert_ne!(versions_added, text);
            out.push((
                format!("{name}-versions-added"),
                evolution_seed(std::slice::from_ref(&text), Some(&[versions_added][..])),
            ));
            let field_added = text.replacen(
                r#""fields": [ "#,
                r#""fields": [ { "name": "Added", "type": "int8", "versions": "1+" }, "#,
                1,
            );
            assert_ne!(field_added, text);
            out.push((
                format!("{name}-field-added"),
                evolution_seed(std::slice::from_ref(&text), Some(&[field_added][..])),
            ));
        }
        out
    }

    /// Seeds of the `json`, `views`, `envelope` and `evolution` targets,
    /// written to `$FUZZ_SEEDS_DIR/<target>/`; without it, each seed is checked
    /// to be what its target reads: canonical JSON that reads and writes back to
    /// itself, bytes that decode, envelopes that unwrap, schemas that compare.
    #[test]
    fn write_or_check_seeds_of_json_views_envelope_evolution() {
        use kwire::json::{JsonOptions, Value};
        use kwire::primitives::Reader;
        use kwire_broker::forward::{unwrap_request, unwrap_response, wrap_request, ForwardOutcome};

        let sets = [
            ("json", json_seeds()),
            ("views", views_seeds()),
            ("envelope", envelope_seeds()),
            ("evolution", evolution_seeds()),
        ];
        for (target, seeds) in &sets {
            assert!(seeds.len() > 100, "{target}: {} seeds", seeds.len());
        }
        if let Some(dir) = std::env::var_os("FUZZ_SEEDS_DIR") {
            for (target, seeds) in &sets {
                write_seeds(std::path::Path::new(&dir), target, seeds);
            }
            return;
        }
        let pick = |index: u8, offset: u8| {
            let info = &API_INFO[index as usize];
            (info.api_key, info.valid_versions.min + offset as i16)
        };
        for (name, seed) in &sets[0].1 {
            let (api_key, version) = pick(seed[1], seed[2]);
            let json: Value = serde_json::from_slice(&seed[3..]).unwrap_or_else(|e| panic!("{name}: {e}"));
            let written = if seed[0] == 0 {
                RequestBody::from_json(api_key, &json, version)
                    .and_then(|b| b.to_json_with(version, JsonOptions::unredacted()))
            } else {
                ResponseBody::from_json(api_key, &json, version)
                    .and_then(|b| b.to_json_with(version, JsonOptions::unredacted()))
            };
            assert_eq!(written.unwrap_or_else(|e| panic!("{name}: {e}")), json, "{name}: the seed is canonical");
        }
        for (name, seed) in &sets[1].1 {
            let (api_key, version) = pick(seed[1], seed[2]);
            let bytes = kwire::Bytes::copy_from_slice(&seed[3..]);
            let read = match seed[0] {
                0 => frame::RequestFrame::decode(bytes).map(|_| ()),
                1 => frame::ResponseFrame::decode(bytes, api_key, version).map(|_| ()),
                mode => {
                    let mut r = Reader::new(bytes);
                    let body = match mode {
                        2 => RequestBody::decode_from(api_key, &mut r, version).map(|_| ()),
                        _ => ResponseBody::decode_from(api_key, &mut r, version).map(|_| ()),
                    };
                    body.and_then(|()| r.finish())
                }
            };
            read.unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        let (mut unwrapped, mut answered) = (0, 0);
        for (name, seed) in &sets[2].1 {
            match seed[0] {
                0 => {
                    let (plen, rest) = (seed[1] as usize, &seed[2..]);
                    let (principal, rest) = rest.split_at(plen);
                    let (alen, rest) = (rest[0] as usize, &rest[1..]);
                    let (address, request) = rest.split_at(alen);
                    let envelope = kwire::messages::EnvelopeRequest {
                        request_data: kwire::Bytes::copy_from_slice(request).into(),
                        request_principal: Some(kwire::Bytes::copy_from_slice(principal)),
                        client_host_address: kwire::Bytes::copy_from_slice(address),
                        ..Default::default()
                    };
                    let u = unwrap_request(&envelope).unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert_eq!((&*u.principal.name, u.trailing_bytes), ("alice", 0), "{name}");
                    unwrapped += 1;
                }
                1 if name.ends_with("-broker") => {
                    let len = u16::from_be_bytes([seed[1], seed[2]]) as usize;
                    let (request, rest) = seed[3..].split_at(len);
                    let principal = kwire::messages::DefaultPrincipalData::default();
                    let address = std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);
                    let wrapped = wrap_request(kwire::Bytes::copy_from_slice(request), &principal, address, 1, None)
                        .unwrap_or_else(|e| panic!("{name}: {e}"));
                    let response = kwire::messages::EnvelopeResponse {
                        error_code: i16::from_be_bytes([rest[0], rest[1]]),
                        response_data: Some(kwire::Bytes::copy_from_slice(&rest[2..]).into()),
                        ..Default::default()
                    };
                    let outcome =
                        unwrap_response(&response, &wrapped.forwarded).unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert!(matches!(outcome, ForwardOutcome::Response(..)), "{name}: {outcome:?}");
                    answered += 1;
                }
                _ => {}
            }
        }
        // Every forwardable api at every version, and the captured ones.
        assert!(unwrapped > 60 && answered == unwrapped, "{unwrapped} requests unwrapped, {answered} answers");
        // The recursive and shared schemas are left to the fuzz target: the
        // comparison is what it checks. Each other pair compares.
        for (name, seed) in &sets[3].1 {
            if recursive_schemas(1).iter().any(|(r, _)| name.starts_with(&format!("{r}-"))) {
                continue;
            }
            let text = String::from_utf8_lossy(seed);
            let (old, new) = text.split_once("\0\0").unwrap_or((&text, &text));
            let set = |prefix: &str, set: &str| -> Vec<(String, String)> {
                set.split('\0').enumerate().map(|(i, t)| (format!("{prefix}{i}.json"), t.to_string())).collect()
            };
            let report = kwire_codegen::evolution::compare_sources(&set("Old", old), &set("New", new))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            if old == new {
                assert_eq!(report.findings, vec![], "{name}");
            }
        }
    }
}
