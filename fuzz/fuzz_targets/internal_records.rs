//! Any bytes as Kafka's internal records (feature `internal-records`): a
//! value or a typed error, never a panic; what decodes encodes, and decodes
//! again to the same bytes. The first byte chooses what the rest is:
//!
//! ```text
//! byte0 % 4 == 0  a metadata log record's value (frame version, type, version, record)
//! byte0 % 4 == 1  a coordinator record: key length (1 byte), key, value (null when byte0 & 0x80)
//! byte0 % 4 == 2  a log segment of each family, CRCs unchecked, 1 MiB decompression limit
//! byte0 % 4 == 3  a metadata snapshot (.checkpoint), and a control record split as for 1
//! ```
#![no_main]

use kwire::internal::log::{ControlRecord, LogEntries, LogRecord, MetadataLogRecord, Snapshot};
use kwire::internal::{
    group_coordinator as group, share_coordinator as share, storage, transaction_coordinator as txn,
    ApiMessageAndVersion, CoordinatorRecord, RecordData,
};
use kwire::records::DecodeOptions;
use kwire::Bytes;
use libfuzzer_sys::fuzz_target;

fn framed<T: RecordData>(bytes: &Bytes) {
    if let Ok(r) = ApiMessageAndVersion::<T>::decode_framed(bytes.clone()) {
        let once = r.to_bytes_framed().expect("what decodes encodes");
        assert_eq!(once.len(), r.encoded_size_framed());
        let again = ApiMessageAndVersion::<T>::decode_framed(once.clone()).expect("our own encoding decodes");
        assert_eq!(again.to_bytes_framed().expect("encodes"), once);
    }
}

fn coordinator<K: RecordData, V: RecordData>(key: &Bytes, value: &Option<Bytes>) {
    if let Ok(r) = CoordinatorRecord::<K, V>::decode(Some(key.clone()), value.clone()) {
        let (k, v) = r.to_key_value().expect("what decodes encodes");
        let again = CoordinatorRecord::<K, V>::decode(k.clone(), v.clone()).expect("our own encoding decodes");
        assert_eq!(again.to_key_value().expect("encodes"), (k, v));
    }
}

fn log<R: LogRecord>(bytes: &Bytes, options: DecodeOptions) {
    for entry in LogEntries::<R>::with_options(bytes.clone(), options).take(4096) {
        match entry {
            Ok(e) => {
                let _ = e.to_key_value().expect("what decodes encodes");
            }
            Err(_) => break,
        }
    }
}

/// Key length, key, value (null when `null`).
fn split(rest: &[u8], null: bool) -> (Bytes, Option<Bytes>) {
    let Some((&len, rest)) = rest.split_first() else { return (Bytes::new(), None) };
    let (key, value) = rest.split_at((len as usize).min(rest.len()));
    (Bytes::copy_from_slice(key), (!null).then(|| Bytes::copy_from_slice(value)))
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    match selector % 4 {
        0 => {
            let bytes = Bytes::copy_from_slice(rest);
            framed::<kwire::internal::metadata::MetadataRecord>(&bytes);
            framed::<storage::RemoteLogMetadataRecord>(&bytes);
        }
        1 => {
            let (key, value) = split(rest, selector & 0x80 != 0);
            coordinator::<group::CoordinatorRecordKey, group::CoordinatorRecordValue>(&key, &value);
            coordinator::<share::CoordinatorRecordKey, share::CoordinatorRecordValue>(&key, &value);
            coordinator::<txn::CoordinatorRecordKey, txn::CoordinatorRecordValue>(&key, &value);
        }
        2 => {
            let mut options = DecodeOptions::default();
            options.max_decompressed_size = 1 << 20;
            options.verify_crc = false;
            let bytes = Bytes::copy_from_slice(rest);
            log::<MetadataLogRecord>(&bytes, options);
            log::<group::GroupCoordinatorRecord>(&bytes, options);
            log::<share::ShareCoordinatorRecord>(&bytes, options);
            log::<txn::TransactionCoordinatorRecord>(&bytes, options);
        }
        _ => {
            let _ = Snapshot::<MetadataLogRecord>::decode(Bytes::copy_from_slice(rest));
            let (key, value) = split(rest, selector & 0x80 != 0);
            if let Ok(c) = ControlRecord::decode(Some(key), value) {
                let value = c.value_bytes().expect("what decodes encodes");
                let again = ControlRecord::decode(Some(c.key_bytes()), Some(value)).expect("our own encoding decodes");
                assert_eq!(again.value_bytes().expect("encodes"), c.value_bytes().expect("encodes"));
            }
        }
    }
});
