//! Prints the records of one of Kafka's internal logs as JSON lines, as
//! `kafka-dump-log` does with its metadata and offsets decoders:
//!
//! ```text
//! cargo run -p kwire-examples --example dump_log -- [--metadata|--offsets|--transactions|--share|--remote-log-metadata] FILE
//! ```
//!
//! FILE is a log segment (`00000000000000000000.log`) or a KRaft snapshot
//! (`….checkpoint`) of `__cluster_metadata` (`--metadata`, the default),
//! or a segment of `__consumer_offsets` (`--offsets`),
//! `__transaction_state` (`--transactions`), `__share_group_state`
//! (`--share`) or `__remote_log_metadata` (`--remote-log-metadata`). One
//! line per record, the record's struct in Kafka's JSON form:
//!
//! ```text
//! {"offset":0,"control":"SNAPSHOT_HEADER","data":{"version":0,"lastContainedLogTimestamp":…}}
//! {"offset":1,"type":"TOPIC_RECORD","version":0,"data":{"name":"orders","topicId":"…"}}
//! {"offset":7,"key":{"type":"OFFSET_COMMIT","data":{…}},"value":{"version":4,"data":{…}}}
//! ```
//!
//! A tombstone's value is `null`. The first error ends the dump with a
//! message naming the record's offset, key or value, and field. A batch
//! cut short at the end of the file is not read, and said so on stderr.

use std::process::ExitCode;

use kwire::internal::log::{Entry, LogEntries, LogEntry, LogRecord};
use kwire::internal::{
    group_coordinator, share_coordinator, storage, transaction_coordinator, ApiMessageAndVersion, CoordinatorRecord,
    RecordData,
};
use kwire::json::Value;
use kwire::records::{DecodeOptions, PartialBatch};
use kwire::Bytes;
use serde_json::json;

/// How one family's records print.
trait Dump: LogRecord {
    fn dump(&self) -> Result<Value, String>;
}

impl<T: RecordData> Dump for ApiMessageAndVersion<T> {
    fn dump(&self) -> Result<Value, String> {
        let name = self.message.info().map(|t| t.type_name).unwrap_or("UNKNOWN");
        let data = self.message.to_json(self.version).map_err(|e| e.to_string())?;
        Ok(json!({ "type": name, "version": self.version, "data": data }))
    }
}

impl<K: RecordData, V: RecordData> Dump for CoordinatorRecord<K, V> {
    fn dump(&self) -> Result<Value, String> {
        let key_type = self.key.info().map(|t| t.type_name).unwrap_or("UNKNOWN");
        let key = self.key.to_json(0).map_err(|e| e.to_string())?;
        let value = match &self.value {
            None => Value::Null,
            Some(v) => {
                json!({ "version": v.version, "data": v.message.to_json(v.version).map_err(|e| e.to_string())? })
            }
        };
        Ok(json!({ "key": { "type": key_type, "data": key }, "value": value }))
    }
}

fn line<R: Dump>(entry: &LogEntry<R>) -> Result<Value, String> {
    let mut out = match &entry.entry {
        Entry::Control(c) => {
            json!({ "control": c.value.type_name(), "data": c.value.to_json().map_err(|e| e.to_string())? })
        }
        Entry::Data(r) => r.dump()?,
    };
    if let Some(obj) = out.as_object_mut() {
        let mut with_offset = serde_json::Map::new();
        with_offset.insert("offset".into(), entry.offset.into());
        with_offset.append(obj);
        out = Value::Object(with_offset);
    }
    Ok(out)
}

/// What a dump read: the records printed, and the batch cut short at the
/// end of the file that was not read (kafka-dump-log's "invalid bytes at
/// the end").
struct Dumped {
    count: usize,
    partial: Option<PartialBatch>,
}

fn dump<R: Dump>(bytes: Bytes) -> Result<Dumped, String> {
    let mut count = 0;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    // A segment file is local and may hold up to 1 GiB of batches, read one
    // at a time: only the per-batch decompression limit applies.
    let mut options = DecodeOptions::default();
    options.max_total_decompressed_size = usize::MAX;
    let mut entries = LogEntries::<R>::with_options(bytes, options);
    for entry in entries.by_ref() {
        let entry = entry.map_err(|e| e.to_string())?;
        let json = line(&entry).map_err(|e| format!("record at offset {}: {e}", entry.offset))?;
        std::io::Write::write_fmt(&mut out, format_args!("{json}\n")).map_err(|e| e.to_string())?;
        count += 1;
    }
    std::io::Write::flush(&mut out).map_err(|e| e.to_string())?;
    Ok(Dumped { count, partial: entries.batches().partial_batch().copied() })
}

const USAGE: &str =
    "usage: dump_log [--metadata|--offsets|--transactions|--share|--remote-log-metadata] FILE (.log or .checkpoint)";

fn main() -> ExitCode {
    let mut family = "--metadata".to_string();
    let mut file = None;
    for arg in std::env::args().skip(1) {
        if arg.starts_with("--") {
            family = arg;
        } else {
            file = Some(arg);
        }
    }
    let Some(file) = file else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let bytes = match std::fs::read(&file) {
        Ok(b) => Bytes::from(b),
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = match family.as_str() {
        "--metadata" => dump::<kwire::internal::log::MetadataLogRecord>(bytes),
        "--offsets" => dump::<group_coordinator::GroupCoordinatorRecord>(bytes),
        "--transactions" => dump::<transaction_coordinator::TransactionCoordinatorRecord>(bytes),
        "--share" => dump::<share_coordinator::ShareCoordinatorRecord>(bytes),
        "--remote-log-metadata" => dump::<ApiMessageAndVersion<storage::RemoteLogMetadataRecord>>(bytes),
        other => {
            eprintln!("unknown option {other}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(Dumped { count, partial }) => {
            // A batch cut short at the end (a segment being written, or a
            // truncated copy) is not read: said, not passed over in silence.
            if let Some(p) = partial {
                eprintln!(
                    "{file}: {} bytes at the end (from byte {}) are a partial batch of {} bytes, not read",
                    p.available, p.position, p.needed
                );
                if p.position == 0 {
                    // Not one whole batch: a segment whose first batch is
                    // still being written, or not a log segment at all.
                    eprintln!("{file}: no whole record batch in it; is it a log segment or snapshot?");
                }
            }
            eprintln!("{file}: {count} records");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{file}: {e}");
            ExitCode::FAILURE
        }
    }
}
