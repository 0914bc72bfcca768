//! Zero-copy check: FetchResponse v12 decode time with 16 partitions of
//! 1 KiB and of 1 MiB of records each, for kwire and kafka-protocol.
//! Both crates hand out `records` as `Bytes` slices of the input, so the
//! time should not grow with the payload (1024 times more bytes, about the
//! same time). Before measuring, the bench checks that every decoded
//! `records` field points into the input buffer.

mod common;

use std::hint::black_box;

use common::{fetch_response, Case, Fetch};
use criterion::{BenchmarkId, Criterion};
use kafka_protocol::protocol::Decodable;
use kwire::message::Message;
use kwire::Bytes;

fn inside(part: &Bytes, whole: &Bytes) -> bool {
    let (p, w) = (part.as_ptr() as usize, whole.as_ptr() as usize);
    p >= w && p + part.len() <= w + whole.len()
}

fn check_zero_copy(case: &Fetch) {
    let wire = kwire::messages::FetchResponse::decode_exact(case.bytes.clone(), case.version).unwrap();
    for p in &wire.responses[0].partitions {
        assert!(inside(p.records.as_ref().unwrap(), &case.bytes), "kwire copied records");
    }
    let kp = kafka_protocol::messages::FetchResponse::decode(&mut case.bytes.clone(), case.version).unwrap();
    for p in &kp.responses[0].partitions {
        assert!(inside(p.records.as_ref().unwrap(), &case.bytes), "kafka-protocol copied records");
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let mut g = c.benchmark_group("FetchResponse v12 decode zero-copy");
    for (label, size) in [("1 KiB", 1024), ("1 MiB", 1024 * 1024)] {
        let case: Fetch = Case::new("FetchResponse", fetch_response(16, size), 12);
        check_zero_copy(&case);
        g.bench_with_input(BenchmarkId::new("kwire", label), &case, |b, case| {
            b.iter(|| {
                let mut bytes = black_box(case.bytes.clone());
                kwire::messages::FetchResponse::decode(&mut bytes, case.version).unwrap()
            })
        });
        g.bench_with_input(BenchmarkId::new("kafka-protocol", label), &case, |b, case| {
            b.iter(|| {
                let mut bytes = black_box(case.bytes.clone());
                kafka_protocol::messages::FetchResponse::decode(&mut bytes, case.version).unwrap()
            })
        });
    }
    g.finish();
    c.final_summary();
}
