//! `kwire dump`: Kafka's internal logs and snapshots, printed line for line
//! as Kafka's `kafka.tools.DumpLogSegments` (`kafka-dump-log.sh`) prints them
//! with the decoder option of the file's family, or as one JSON object per
//! record (`--json`).
//!
//! What Kafka's tool prints, and so this one (Kafka 4.4):
//!
//! ```text
//! Dumping FILE
//! Log starting offset: N                         (a .log file; N from its name)
//! Snapshot end offset: O, epoch: E               (a .checkpoint file; KRaft bootstrap snapshot for bootstrap.checkpoint)
//! baseOffset: … lastOffset: … count: … baseSequence: … lastSequence: … producerId: … producerEpoch: …
//!   partitionLeaderEpoch: … isTransactional: … isControl: … deleteHorizonMs: OptionalLong.empty|OptionalLong[T]
//!   position: P CreateTime|LogAppendTime: T size: S magic: 2 compresscodec: none crc: C isvalid: true   (one line per batch)
//! | offset: … CreateTime: … keySize: … valueSize: … sequence: … headerKeys: [k,…] key: K payload: V   (one line per record)
//! Found N invalid bytes at the end of NAME        (a batch cut short at the end)
//! ```
//!
//! Control records print their value instead of key and payload
//! (` endTxnMarker: COMMIT coordinatorEpoch: 0`, ` LeaderChange: {…}`,
//! ` SnapshotHeader {…}`, ` SnapshotFooter {…}`, ` KRaftVersion {…}`,
//! ` KRaftVoters {…}`). Keys and payloads by family:
//!
//! | family | key | payload |
//! |---|---|---|
//! | metadata (`__cluster_metadata`, snapshots) | none | `{"type":"TOPIC_RECORD","version":0,"data":{…}}` |
//! | offsets, transactions, share (coordinator topics) | `{"type":"<record type>","data":{…}}` | `{"version":"<version>","data":{…}}`, `<DELETE>` for a tombstone |
//!
//! with, as Kafka's tool: a transaction's status by name (`Ongoing`), and a
//! classic group's member subscriptions and assignments decoded when its
//! protocol type is `consumer`.
//!
//! `--json` prints one object per record instead:
//! `{"file":…,"offset":…,"timestamp":…,"key":{…},"payload":{…}}` (key and
//! payload as above, parsed; a tombstone's payload is `"<DELETE>"`),
//! `{"file":…,"offset":…,"timestamp":…,"control":"LEADER_CHANGE","data":{…}}`
//! for a control record, and `"error"` in place of what did not decode.

use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use kwire::internal::group_coordinator::{CoordinatorRecordValue as GroupValue, GroupCoordinatorRecord};
use kwire::internal::log::{ControlRecord, ControlValue, LogRecord, MetadataLogRecord};
use kwire::internal::share_coordinator::ShareCoordinatorRecord;
use kwire::internal::transaction_coordinator::{CoordinatorRecordValue as TxnValue, TransactionCoordinatorRecord};
use kwire::internal::{CoordinatorRecord, RecordData, RecordDecodeError, RecordPart};
use kwire::json::{JsonOptions, ToJson, Value};
use kwire::message::Message;
use kwire::messages::{ConsumerProtocolAssignment, ConsumerProtocolSubscription};
use kwire::primitives::Reader;
use kwire::records::{
    increment_sequence, Batch, BatchHeader, Batches, DecodeOptions, Record, RecordBatch, TimestampType,
};
use kwire::Bytes;

/// The families of Kafka's internal logs, as `--family` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Family {
    /// `__cluster_metadata` and its snapshots (Kafka's `--cluster-metadata-decoder`).
    Metadata,
    /// `__consumer_offsets` (Kafka's `--offsets-decoder`).
    Offsets,
    /// `__transaction_state` (Kafka's `--transaction-log-decoder`).
    Transactions,
    /// `__share_group_state` (Kafka's `--share-group-state-decoder`).
    Share,
}

impl Family {
    /// The family of a topic's partition folder (`__consumer_offsets-3`), or
    /// of a snapshot file (`.checkpoint`: KRaft's metadata only).
    fn of(path: &Path) -> Option<Self> {
        if path.extension().is_some_and(|e| e == "checkpoint") {
            return Some(Self::Metadata);
        }
        let folder = path.parent()?.file_name()?.to_str()?;
        let topic = folder.rsplit_once('-').map_or(folder, |(topic, partition)| {
            if partition.bytes().all(|b| b.is_ascii_digit()) && !partition.is_empty() {
                topic
            } else {
                folder
            }
        });
        match topic {
            "__cluster_metadata" => Some(Self::Metadata),
            "__consumer_offsets" => Some(Self::Offsets),
            "__transaction_state" => Some(Self::Transactions),
            "__share_group_state" => Some(Self::Share),
            _ => None,
        }
    }
}

/// Arguments of `kwire dump`.
#[derive(clap::Args)]
#[command(after_help = "The family of each file is taken from its folder (__consumer_offsets-3/…; a .checkpoint \
is a metadata snapshot), or named with --family or Kafka's decoder options. Output is Kafka's DumpLogSegments' \
with that decoder, line for line.\n\
Exit status: 0 when every file and record was read, 1 when something was not (each failure named on standard error \
with file, byte position and offset), 2 for bad arguments.")]
pub struct Args {
    /// Log segments (NNN.log) and KRaft snapshots (NNN-EEE.checkpoint).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The family of every FILE, whatever its folder.
    #[arg(long, value_enum)]
    family: Option<Family>,
    /// As --family metadata (Kafka's option).
    #[arg(long, conflicts_with = "family")]
    cluster_metadata_decoder: bool,
    /// As --family offsets (Kafka's option).
    #[arg(long, conflicts_with = "family")]
    offsets_decoder: bool,
    /// As --family transactions (Kafka's option).
    #[arg(long, conflicts_with = "family")]
    transaction_log_decoder: bool,
    /// As --family share (Kafka's option).
    #[arg(long, conflicts_with = "family")]
    share_group_state_decoder: bool,
    /// Print each record's key and payload (the default, unless --deep-iteration is given alone).
    #[arg(long)]
    print_data_log: bool,
    /// Print each record's metadata but not its key and payload, as Kafka's option alone does.
    #[arg(long)]
    deep_iteration: bool,
    /// Leave out each record's offset, timestamp, sizes, sequence and header keys.
    #[arg(long)]
    skip_record_metadata: bool,
    /// One JSON object per record instead of Kafka's text.
    #[arg(long)]
    json: bool,
    /// Print SCRAM salts and salted passwords (base64, as Kafka's tool does) instead of `"<redacted N bytes>"`.
    #[arg(long)]
    show_secrets: bool,
}

impl Args {
    fn named_family(&self) -> Option<Family> {
        self.family.or(if self.cluster_metadata_decoder {
            Some(Family::Metadata)
        } else if self.offsets_decoder {
            Some(Family::Offsets)
        } else if self.transaction_log_decoder {
            Some(Family::Transactions)
        } else if self.share_group_state_decoder {
            Some(Family::Share)
        } else {
            None
        })
    }
}

/// How one run prints.
struct Printer {
    json: bool,
    skip_record_metadata: bool,
    options: JsonOptions,
    /// Failures so far, for the exit status.
    failures: usize,
}

/// Runs `kwire dump`.
pub fn run(args: Args) -> ExitCode {
    let named = args.named_family();
    let mut printer = Printer {
        json: args.json,
        skip_record_metadata: args.skip_record_metadata,
        options: if args.show_secrets { JsonOptions::unredacted() } else { JsonOptions::default() },
        failures: 0,
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for file in &args.files {
        let family = named.or_else(|| Family::of(file));
        // As Kafka's options: a decoder (here also --family) or
        // --print-data-log prints keys and payloads, --deep-iteration alone
        // only each record's metadata; with none of them, the family of
        // the folder is the decoder.
        let contents = args.print_data_log || named.is_some() || !args.deep_iteration;
        let deep = contents || args.deep_iteration;
        if contents && family.is_none() {
            eprintln!(
                "{}: cannot tell its family from its folder; name it with --family (metadata, offsets, transactions, share)",
                file.display()
            );
            printer.failures += 1;
            continue;
        }
        let result = match family {
            // Records without keys and payloads (--deep-iteration): any family reads them.
            None => printer.file::<MetadataLogRecord>(&mut out, file, deep, false),
            Some(Family::Metadata) => printer.file::<MetadataLogRecord>(&mut out, file, deep, contents),
            Some(Family::Offsets) => printer.file::<GroupCoordinatorRecord>(&mut out, file, deep, contents),
            Some(Family::Transactions) => printer.file::<TransactionCoordinatorRecord>(&mut out, file, deep, contents),
            Some(Family::Share) => printer.file::<ShareCoordinatorRecord>(&mut out, file, deep, contents),
        };
        if let Err(e) = result {
            // Standard output closed (a pipe into `head`): nothing more to print.
            if e.kind() == io::ErrorKind::BrokenPipe {
                return ExitCode::from(u8::from(printer.failures > 0));
            }
            eprintln!("{}: {e}", file.display());
            printer.failures += 1;
        }
    }
    if let Err(e) = out.flush() {
        if e.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("standard output: {e}");
            printer.failures += 1;
        }
    }
    ExitCode::from(u8::from(printer.failures > 0))
}

/// What the file's name says, as Kafka's tool prints it first.
fn name_line(file: &Path) -> Result<String, String> {
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    if name.ends_with(".log") {
        let start = name.split('.').next().unwrap_or_default();
        let start: i64 =
            start.parse().map_err(|_| format!("a log segment's name is its base offset (NNN.log), not {name}"))?;
        Ok(format!("Log starting offset: {start}"))
    } else if name.ends_with(".checkpoint") {
        if name == "bootstrap.checkpoint" {
            return Ok("KRaft bootstrap snapshot".into());
        }
        let id = name.trim_end_matches(".checkpoint");
        let parsed = id.split_once('-').and_then(|(o, e)| Some((o.parse::<i64>().ok()?, e.parse::<i32>().ok()?)));
        let (offset, epoch) = parsed
            .ok_or_else(|| format!("a snapshot's name is its end offset and epoch (OOO-EEE.checkpoint), not {name}"))?;
        Ok(format!("Snapshot end offset: {offset}, epoch: {epoch}"))
    } else {
        Err("only log segments (.log) and snapshots (.checkpoint) are read".into())
    }
}

/// The JSON of one record's key and payload, or its failure.
struct Parsed {
    key: Option<String>,
    payload: Option<String>,
    /// What did not decode, for standard error and the exit status.
    error: Option<String>,
}

/// How a family's records print, as Kafka's tool's parser of that family.
trait Dump: LogRecord {
    /// Kafka's key and payload text.
    fn parse(record: &Record, offset: i64, options: JsonOptions) -> Parsed;
}

impl Dump for MetadataLogRecord {
    fn parse(record: &Record, offset: i64, options: JsonOptions) -> Parsed {
        // The value alone, as Kafka's tool reads it (a key, which metadata
        // records never have, is not looked at).
        let framed = record.value.clone().ok_or_else(|| "value: null".to_string());
        let text = framed.and_then(|v| Self::decode_framed(v).map_err(|e| format!("value: {e}"))).and_then(|r| {
            let name = r.message.info().map_or("UNKNOWN", |t| t.type_name);
            let data = r.message.to_json_with(r.version, options).map_err(|e| e.to_string())?;
            let mut json = kwire::json::Map::new();
            json.insert("type".into(), name.into());
            json.insert("version".into(), r.version.into());
            json.insert("data".into(), data);
            Ok(Value::Object(json).to_string())
        });
        match text {
            Ok(payload) => Parsed { key: None, payload: Some(payload), error: None },
            Err(e) => Parsed { key: None, payload: Some(format!("Error at {offset}, skipping. {e}")), error: Some(e) },
        }
    }
}

/// A coordinator value's JSON as Kafka's tool has it for its family.
trait CoordinatorValueJson: RecordData {
    fn value_json(&self, version: i16, options: JsonOptions) -> Result<Value, String> {
        self.to_json_with(version, options).map_err(|e| e.to_string())
    }
}

impl CoordinatorValueJson for kwire::internal::share_coordinator::CoordinatorRecordValue {}

/// Kafka's names of a transaction's states (`TransactionState`), by id.
const TRANSACTION_STATES: [&str; 8] = [
    "Empty",
    "Ongoing",
    "PrepareCommit",
    "PrepareAbort",
    "CompleteCommit",
    "CompleteAbort",
    "Dead",
    "PrepareEpochFence",
];

impl CoordinatorValueJson for TxnValue {
    fn value_json(&self, version: i16, options: JsonOptions) -> Result<Value, String> {
        let mut json = self.to_json_with(version, options).map_err(|e| e.to_string())?;
        let TxnValue::TransactionLogValue(v) = self else { return Ok(json) };
        let status = usize::try_from(v.transaction_status)
            .ok()
            .and_then(|i| TRANSACTION_STATES.get(i))
            .map_or_else(|| v.transaction_status.to_string(), |s| (*s).to_string());
        if let Some(obj) = json.as_object_mut() {
            obj.insert("transactionStatus".into(), status.into());
        }
        Ok(json)
    }
}

impl CoordinatorValueJson for GroupValue {
    fn value_json(&self, version: i16, options: JsonOptions) -> Result<Value, String> {
        let mut json = self.to_json_with(version, options).map_err(|e| e.to_string())?;
        let GroupValue::GroupMetadataValue(v) = self else { return Ok(json) };
        if &*v.protocol_type != "consumer" {
            return Ok(json);
        }
        let Some(members) = json.get_mut("members").and_then(Value::as_array_mut) else { return Ok(json) };
        for (member, json) in v.members.iter().zip(members.iter_mut()) {
            let Some(json) = json.as_object_mut() else { continue };
            // As Kafka's tool: bytes that do not read as the embedded
            // protocol stay as they are (base64).
            if let Some(s) = embedded::<ConsumerProtocolSubscription>(&member.subscription, options) {
                json.insert("subscription".into(), s);
            }
            if let Some(a) = embedded::<ConsumerProtocolAssignment>(&member.assignment, options) {
                json.insert("assignment".into(), a);
            }
        }
        Ok(json)
    }
}

/// A consumer protocol struct (int16 version, then the struct at it) as
/// JSON at its version, `None` when the bytes do not read. Bytes after
/// the struct are passed over, as Kafka's reader does.
fn embedded<M: Message + ToJson>(bytes: &Bytes, options: JsonOptions) -> Option<Value> {
    let mut r = Reader::new(bytes.clone());
    let version = r.read_i16().ok()?;
    let message = M::decode_from(&mut r, version).ok()?;
    message.to_json_with(version, options).ok()
}

impl<K: RecordData, V: CoordinatorValueJson> Dump for CoordinatorRecord<K, V> {
    fn parse(record: &Record, offset: i64, options: JsonOptions) -> Parsed {
        let decoded = match Self::decode(record.key.clone(), record.value.clone()) {
            Ok(r) => r,
            Err(RecordDecodeError { part: RecordPart::Key, source }) if unknown_type(&source).is_some() => {
                let t = unknown_type(&source).unwrap_or_default();
                return Parsed {
                    key: Some(format!("Unknown record type {t} at offset {offset}, skipping.")),
                    payload: None,
                    error: Some(format!("key: {source}")),
                };
            }
            Err(e) => return failed(offset, e.to_string()),
        };
        let key = match decoded.key.to_json_with(Self::KEY_VERSION, options) {
            Ok(data) => {
                let mut json = kwire::json::Map::new();
                json.insert("type".into(), decoded.record_type().to_string().into());
                json.insert("data".into(), data);
                Value::Object(json).to_string()
            }
            Err(e) => return failed(offset, format!("key: {e}")),
        };
        let payload = match &decoded.value {
            None => "<DELETE>".to_string(),
            Some(v) => match v.message.value_json(v.version, options) {
                Ok(data) => {
                    let mut json = kwire::json::Map::new();
                    json.insert("version".into(), v.version.to_string().into());
                    json.insert("data".into(), data);
                    Value::Object(json).to_string()
                }
                Err(e) => return failed(offset, format!("value: {e}")),
            },
        };
        Parsed { key: Some(key), payload: Some(payload), error: None }
    }
}

/// A coordinator record that does not decode, as Kafka's tool prints it.
fn failed(offset: i64, e: String) -> Parsed {
    Parsed { key: Some(format!("Error at offset {offset}, skipping. {e}")), payload: None, error: Some(e) }
}

/// The record type of an unknown-record-type error.
fn unknown_type(e: &kwire::error::DecodeError) -> Option<i16> {
    match e.kind() {
        kwire::error::DecodeErrorKind::UnknownRecordType(t) => Some(*t),
        _ => None,
    }
}

/// Kafka's `OptionalLong` text of a batch's delete horizon.
fn delete_horizon(h: &BatchHeader) -> String {
    if h.attributes.has_delete_horizon() {
        format!("OptionalLong[{}]", h.base_timestamp)
    } else {
        "OptionalLong.empty".into()
    }
}

fn timestamp_type(h: &BatchHeader) -> &'static str {
    match h.attributes.timestamp_type() {
        TimestampType::CreateTime => "CreateTime",
        TimestampType::LogAppendTime => "LogAppendTime",
    }
}

/// A control record's value as Kafka's tool prints it after the record's metadata.
fn control_text(record: &Record) -> Result<String, String> {
    let key = record.key.as_deref().unwrap_or_default();
    if key.len() < 4 {
        return Err(format!("control record key of {} bytes, 4 needed", key.len()));
    }
    let control_type = i16::from_be_bytes([key[2], key[3]]);
    if !(0..=6).contains(&control_type) {
        return Ok(format!(" controlType: UNKNOWN({control_type})"));
    }
    let c = ControlRecord::decode(record.key.clone(), record.value.clone()).map_err(|e| e.to_string())?;
    let json = || c.value.to_json().map(|j| j.to_string()).map_err(|e| e.to_string());
    Ok(match &c.value {
        ControlValue::Abort(m) => format!(" endTxnMarker: ABORT coordinatorEpoch: {}", m.marker.coordinator_epoch),
        ControlValue::Commit(m) => format!(" endTxnMarker: COMMIT coordinatorEpoch: {}", m.marker.coordinator_epoch),
        ControlValue::LeaderChange(_) => format!(" LeaderChange: {}", json()?),
        ControlValue::SnapshotHeader(_) => format!(" SnapshotHeader {}", json()?),
        ControlValue::SnapshotFooter(_) => format!(" SnapshotFooter {}", json()?),
        ControlValue::KRaftVersion(_) => format!(" KRaftVersion {}", json()?),
        ControlValue::KRaftVoters(_) => format!(" KRaftVoters {}", json()?),
        _ => format!(" controlType: {}({control_type})", c.value.type_name()),
    })
}

/// `--json`: a control record's type and value, as
/// `{"control":"LEADER_CHANGE","data":{…}}` (`UNKNOWN` and no data for a
/// control type Kafka lacks).
fn control_json(record: &Record) -> Result<(String, Value), String> {
    let key = record.key.as_deref().unwrap_or_default();
    if key.len() >= 4 && !(0..=6).contains(&i16::from_be_bytes([key[2], key[3]])) {
        return Ok(("UNKNOWN".into(), Value::Null));
    }
    let c = ControlRecord::decode(record.key.clone(), record.value.clone()).map_err(|e| e.to_string())?;
    Ok((c.value.type_name().into(), c.value.to_json().map_err(|e| e.to_string())?))
}

/// The JSON value of Kafka's key or payload text (the text itself when it
/// is not JSON: `<DELETE>`, an error).
fn as_json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_string()))
}

impl Printer {
    /// Says a failure on standard error, after what standard output holds
    /// so far, and counts it.
    fn fail(&mut self, out: &mut impl Write, message: std::fmt::Arguments<'_>) -> io::Result<()> {
        out.flush()?;
        eprintln!("{message}");
        self.failures += 1;
        Ok(())
    }

    /// Prints one file. Errors are the output's; the file's own failures are
    /// said on standard error and counted.
    fn file<R: Dump>(&mut self, out: &mut impl Write, file: &Path, deep: bool, contents: bool) -> io::Result<()> {
        let shown = file.display();
        if !self.json {
            writeln!(out, "Dumping {shown}")?;
        }
        let first = match name_line(file) {
            Ok(line) => line,
            Err(e) => {
                return self.fail(out, format_args!("{shown}: {e}"));
            }
        };
        let bytes = match std::fs::read(file) {
            Ok(b) => Bytes::from(b),
            Err(e) => {
                return self.fail(out, format_args!("{shown}: {e}"));
            }
        };
        if !self.json {
            writeln!(out, "{first}")?;
        }
        let total = bytes.len();
        // Every batch is printed, a CRC that does not match included (as
        // `isvalid: false`); a segment file may hold up to 1 GiB of
        // batches, read one at a time: only the per-batch decompression
        // limit applies.
        let mut options = DecodeOptions::default();
        options.verify_crc = false;
        options.max_total_decompressed_size = usize::MAX;
        let mut batches = Batches::with_options(bytes, options);
        let mut position = 0usize;
        loop {
            let batch = match batches.next() {
                None => break,
                Some(Ok(Batch::V2(batch))) => batch,
                Some(Ok(Batch::Legacy(m))) => {
                    let (offset, magic) = (m.offset, m.magic);
                    return self.fail(
                        out,
                        format_args!(
                            "{shown}: position {position}: offset {offset}: a legacy message (magic {magic}); \
                             Kafka's internal logs hold record batches v2 only"
                        ),
                    );
                }
                Some(Err(e)) => {
                    return self.fail(out, format_args!("{shown}: position {position}: {e}"));
                }
            };
            self.batch::<R>(out, &shown, &batch, position, deep, contents, &options)?;
            position = batches.position();
        }
        if total > position && !self.json {
            let name = file.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
            writeln!(out, "Found {} invalid bytes at the end of {name}", total - position)?;
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn batch<R: Dump>(
        &mut self,
        out: &mut impl Write,
        shown: &impl std::fmt::Display,
        batch: &RecordBatch,
        position: usize,
        deep: bool,
        contents: bool,
        options: &DecodeOptions,
    ) -> io::Result<()> {
        let h = batch.header();
        let valid = batch.verify_crc().is_ok();
        let compression = h.attributes.compression().map_or("unknown", |c| c.name());
        if !self.json {
            writeln!(
                out,
                "baseOffset: {} lastOffset: {} count: {} baseSequence: {} lastSequence: {} producerId: {} producerEpoch: {} \
partitionLeaderEpoch: {} isTransactional: {} isControl: {} deleteHorizonMs: {} position: {position} {}: {} size: {} \
magic: {} compresscodec: {compression} crc: {} isvalid: {valid}",
                h.base_offset,
                h.last_offset(),
                h.record_count,
                h.base_sequence,
                h.last_sequence(),
                h.producer_id,
                h.producer_epoch,
                h.partition_leader_epoch,
                h.attributes.is_transactional(),
                h.attributes.is_control(),
                delete_horizon(h),
                timestamp_type(h),
                h.max_timestamp,
                h.batch_size(),
                h.magic,
                h.crc,
            )?;
        }
        if !deep {
            return Ok(());
        }
        let records = match batch.records(options) {
            Ok(records) => records,
            Err(e) => {
                return self
                    .fail(out, format_args!("{shown}: position {position}: batch at offset {}: {e}", h.base_offset));
            }
        };
        for record in records {
            let record = match record {
                Ok(record) => record,
                Err(e) => {
                    return self.fail(
                        out,
                        format_args!("{shown}: position {position}: batch at offset {}: {e}", h.base_offset),
                    );
                }
            };
            let offset = h.offset_of(&record);
            let mut errors = Vec::new();
            let control = if h.attributes.is_control() {
                Some(control_text(&record).unwrap_or_else(|e| {
                    errors.push(e.clone());
                    format!(" control record that does not decode: {e}")
                }))
            } else {
                None
            };
            let parsed = (contents && control.is_none()).then(|| R::parse(&record, offset, self.options));
            if let Some(e) = parsed.as_ref().and_then(|p| p.error.clone()) {
                errors.push(e);
            }
            if self.json {
                self.json_line(out, &shown.to_string(), h, &record, offset, control.as_deref(), parsed.as_ref())?;
            } else {
                let mut line = String::new();
                let mut prefix = "| ";
                if !self.skip_record_metadata {
                    let _ = write!(
                        line,
                        "| offset: {offset} {}: {} keySize: {} valueSize: {} sequence: {} headerKeys: [{}]",
                        timestamp_type(h),
                        h.timestamp_of(&record),
                        record.key.as_ref().map_or(-1, |k| k.len() as i64),
                        record.value.as_ref().map_or(-1, |v| v.len() as i64),
                        sequence(h, &record),
                        record.headers.iter().map(|x| String::from_utf8_lossy(&x.key)).collect::<Vec<_>>().join(","),
                    );
                    line.push_str(control.as_deref().unwrap_or_default());
                    prefix = " ";
                }
                if let Some(p) = &parsed {
                    if let Some(key) = &p.key {
                        let _ = write!(line, "{prefix}key: {key}");
                        prefix = " ";
                    }
                    if let Some(payload) = &p.payload {
                        let _ = write!(line, "{prefix}payload: {payload}");
                    }
                }
                writeln!(out, "{line}")?;
            }
            if !errors.is_empty() {
                out.flush()?;
                for e in errors {
                    eprintln!("{shown}: position {position}: offset {offset}: {e}");
                }
                self.failures += 1;
            }
        }
        Ok(())
    }

    /// `--json`: one object per record.
    #[allow(clippy::too_many_arguments)]
    fn json_line(
        &self,
        out: &mut impl Write,
        file: &str,
        h: &BatchHeader,
        record: &Record,
        offset: i64,
        control: Option<&str>,
        parsed: Option<&Parsed>,
    ) -> io::Result<()> {
        let mut json = kwire::json::Map::new();
        json.insert("file".into(), file.into());
        json.insert("offset".into(), offset.into());
        json.insert("timestamp".into(), h.timestamp_of(record).into());
        if control.is_some() {
            match control_json(record) {
                Ok((name, data)) => {
                    json.insert("control".into(), name.into());
                    json.insert("data".into(), data);
                }
                Err(e) => {
                    json.insert("error".into(), e.into());
                }
            }
        }
        if let Some(p) = parsed {
            if let Some(error) = &p.error {
                json.insert("error".into(), error.as_str().into());
            } else {
                if let Some(key) = &p.key {
                    json.insert("key".into(), as_json(key));
                }
                if let Some(payload) = &p.payload {
                    json.insert("payload".into(), as_json(payload));
                }
            }
        }
        writeln!(out, "{}", Value::Object(json))
    }
}

/// A record's sequence number: the batch's base sequence plus the
/// record's offset delta, wrapping as producers do; -1 without one.
fn sequence(h: &BatchHeader, record: &Record) -> i32 {
    if h.base_sequence < 0 {
        -1
    } else {
        increment_sequence(h.base_sequence, record.offset_delta)
    }
}
