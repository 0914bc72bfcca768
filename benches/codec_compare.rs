//! kwire against kafka-protocol 0.18 on the same messages, in the same
//! run: one criterion group per (message, operation) with both crates as
//! its functions. See docs/performance.md for the results and
//! `scripts/bench-compare.sh` for the table.
//!
//! - **encode**: append the message at its version to a `BytesMut` that is
//!   cleared and reused (its capacity already fits the message), so the
//!   figure is the codec's work alone, not the allocator's growth policy.
//! - **encoded_size**: the message's size at its version without encoding
//!   it, kwire's [`Message::encoded_size`] against kafka-protocol's
//!   `compute_size`.
//! - **decode**: read the message from a `Bytes` holding exactly its
//!   encoding; the decoded value is dropped inside the timed loop, so
//!   freeing what decode allocated counts too.
//! - **vectored encode** (kwire only, function `kwire
//!   encode_vectored`): [`Message::encode_vectored`], the encoding as
//!   chunks with large `records` shared instead of copied, ready for
//!   `write_vectored`; compared against kafka-protocol's copying encode.
//! - **decode into a reused value** (kwire only, function
//!   `kwire decode_into`): [`Message::decode_into`] into one value kept
//!   across iterations, the way a broker or client keeps one value per api
//!   key; kafka-protocol has no counterpart, so its row compares against
//!   kafka-protocol's `decode`.
//! - **decode into a borrowed view** (kwire with the `borrowed`
//!   feature, function `kwire decode_view`): the message's `…Ref<'a>`
//!   view read with `MessageView::decode_exact` from the input's `&[u8]`
//!   (strings, bytes and fixed-width arrays borrow it) and dropped inside
//!   the timed loop; compared against kafka-protocol's `decode`.
//!
//! `cargo bench --bench codec_compare -- 'MetadataResponse'` runs one message.
//!
//! Profiling: with `KWIRE_PROFILE=<message>:<op>:<crate>[:<iterations>]`
//! (message one of metadata, produce, fetch, api_versions, create_topics,
//! header; op encode, encoded_size, decode, or (kwire only) encode_vectored, decode_into
//! or decode_view; crate kwire or kafka-protocol) the binary
//! builds the fixtures, then runs only that operation inside the function
//! `profiled_section`, for `valgrind --tool=callgrind
//! --toggle-collect='*profiled_section*'` (commands in docs/performance.md).

mod common;

use std::hint::black_box;

use common::Case;
use criterion::{Criterion, Throughput};
use kafka_protocol::protocol::{Decodable, Encodable};
use kwire::message::Message;
use kwire::BytesMut;

fn encode_wire<W: Message, K>(case: &Case<W, K>, buf: &mut BytesMut) -> usize {
    buf.clear();
    black_box(&case.wire).encode(buf, case.version).unwrap();
    buf.len()
}

fn encode_kp<W, K: Encodable>(case: &Case<W, K>, buf: &mut BytesMut) -> usize {
    buf.clear();
    black_box(&case.kp).encode(buf, case.version).unwrap();
    buf.len()
}

fn size_wire<W: Message, K>(case: &Case<W, K>) -> usize {
    black_box(&case.wire).encoded_size(case.version)
}

fn size_kp<W, K: Encodable>(case: &Case<W, K>) -> usize {
    black_box(&case.kp).compute_size(case.version).unwrap()
}

fn encode_vectored_wire<W: Message, K>(case: &Case<W, K>) -> Vec<kwire::Bytes> {
    black_box(&case.wire).encode_vectored(case.version).unwrap()
}

fn decode_wire<W: Message, K>(case: &Case<W, K>) -> W {
    let mut bytes = black_box(case.bytes.clone());
    W::decode(&mut bytes, case.version).unwrap()
}

fn decode_into_wire<W: Message, K>(case: &Case<W, K>, value: &mut W) {
    let mut bytes = black_box(case.bytes.clone());
    value.decode_into(&mut bytes, case.version).unwrap();
}

/// Decodes a view of the message from the bytes at the version, and drops it.
type ViewDecode = fn(&[u8], i16);

/// The [`ViewDecode`] of a message's view type, or `None` without the
/// `borrowed` feature.
macro_rules! view {
    ($view:path) => {{
        #[cfg(feature = "borrowed")]
        let decode: Option<ViewDecode> = Some(|bytes, version| {
            use kwire::message::MessageView;
            black_box(<$view>::decode_exact(bytes, version).unwrap());
        });
        #[cfg(not(feature = "borrowed"))]
        let decode: Option<ViewDecode> = None;
        decode
    }};
}

fn decode_view_wire<W, K>(case: &Case<W, K>, decode: ViewDecode) {
    decode(black_box(&case.bytes[..]), case.version)
}

fn decode_kp<W, K: Decodable>(case: &Case<W, K>) -> K {
    let mut bytes = black_box(case.bytes.clone());
    K::decode(&mut bytes, case.version).unwrap()
}

fn compare<W: Message, K: Encodable + Decodable>(c: &mut Criterion, case: &Case<W, K>, view: Option<ViewDecode>) {
    let len = case.bytes.len();
    let mut buf = BytesMut::with_capacity(len);

    let mut g = c.benchmark_group(format!("{} encode", case.name));
    g.throughput(Throughput::Bytes(len as u64));
    g.bench_function("kwire", |b| b.iter(|| encode_wire(case, &mut buf)));
    g.bench_function("kafka-protocol", |b| b.iter(|| encode_kp(case, &mut buf)));
    g.bench_function("kwire encode_vectored", |b| b.iter(|| encode_vectored_wire(case)));
    g.finish();

    let mut g = c.benchmark_group(format!("{} encoded_size", case.name));
    g.bench_function("kwire", |b| b.iter(|| size_wire(case)));
    g.bench_function("kafka-protocol", |b| b.iter(|| size_kp(case)));
    g.finish();

    let mut g = c.benchmark_group(format!("{} decode", case.name));
    g.throughput(Throughput::Bytes(len as u64));
    g.bench_function("kwire", |b| b.iter(|| decode_wire(case)));
    g.bench_function("kafka-protocol", |b| b.iter(|| decode_kp(case)));
    let mut value = W::default();
    g.bench_function("kwire decode_into", |b| b.iter(|| decode_into_wire(case, &mut value)));
    if let Some(view) = view {
        g.bench_function("kwire decode_view", |b| b.iter(|| decode_view_wire(case, view)));
    }
    g.finish();
}

/// The one section callgrind counts (`--toggle-collect='*profiled_section*'`).
#[inline(never)]
fn profiled_section<R>(iterations: usize, mut f: impl FnMut() -> R) {
    for _ in 0..iterations {
        black_box(f());
    }
}

fn profile_case<W: Message, K: Encodable + Decodable>(
    (case, view): (Case<W, K>, Option<ViewDecode>),
    op: &str,
    krate: &str,
    n: usize,
) {
    let case = &case;
    let mut buf = BytesMut::with_capacity(case.bytes.len());
    // One untimed round first, so the buffer and allocator are warm.
    match (op, krate) {
        ("encode", "kwire") => {
            encode_wire(case, &mut buf);
            profiled_section(n, || encode_wire(case, &mut buf))
        }
        ("encode", "kafka-protocol") => {
            encode_kp(case, &mut buf);
            profiled_section(n, || encode_kp(case, &mut buf))
        }
        ("encoded_size", "kwire") => {
            size_wire(case);
            profiled_section(n, || size_wire(case))
        }
        ("encoded_size", "kafka-protocol") => {
            size_kp(case);
            profiled_section(n, || size_kp(case))
        }
        ("decode", "kwire") => {
            drop(decode_wire(case));
            profiled_section(n, || decode_wire(case))
        }
        ("encode_vectored", "kwire") => {
            drop(encode_vectored_wire(case));
            profiled_section(n, || encode_vectored_wire(case))
        }
        ("decode_into", "kwire") => {
            let mut value = W::default();
            decode_into_wire(case, &mut value);
            profiled_section(n, || decode_into_wire(case, &mut value))
        }
        ("decode_view", "kwire") => {
            let view = view.expect("decode_view needs the borrowed feature");
            decode_view_wire(case, view);
            profiled_section(n, || decode_view_wire(case, view))
        }
        ("decode", "kafka-protocol") => {
            drop(decode_kp(case));
            profiled_section(n, || decode_kp(case))
        }
        _ => panic!("op is encode, encoded_size, decode, or (kwire only) encode_vectored, decode_into or decode_view; crate is kwire or kafka-protocol"),
    }
    eprintln!("{}: {op} with {krate}, {n} time(s), {} bytes", case.name, case.bytes.len());
}

fn profile(spec: &str) {
    let parts: Vec<&str> = spec.split(':').collect();
    let (message, op, krate) = match parts[..] {
        [m, o, k] | [m, o, k, _] => (m, o, k),
        _ => panic!("KWIRE_PROFILE=<message>:<encode|encoded_size|decode>:<kwire|kafka-protocol>[:<iterations>]"),
    };
    let n = parts.get(3).map_or(1, |n| n.parse().expect("iterations"));
    match message {
        "metadata" => profile_case(metadata(), op, krate, n),
        "produce" => profile_case(produce(), op, krate, n),
        "fetch" => profile_case(fetch(), op, krate, n),
        "api_versions" => profile_case(api_versions(), op, krate, n),
        "create_topics" => profile_case(create_topics(), op, krate, n),
        "header" => profile_case(header(), op, krate, n),
        other => panic!("unknown message {other}"),
    }
}

fn main() {
    if let Ok(spec) = std::env::var("KWIRE_PROFILE") {
        profile(&spec);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    let (case, view) = metadata();
    compare(&mut c, &case, view);
    let (case, view) = produce();
    compare(&mut c, &case, view);
    let (case, view) = fetch();
    compare(&mut c, &case, view);
    let (case, view) = api_versions();
    compare(&mut c, &case, view);
    let (case, view) = create_topics();
    compare(&mut c, &case, view);
    let (case, view) = header();
    compare(&mut c, &case, view);
    c.final_summary();
}

/// Each case with its view's decode.
macro_rules! cases {
    ($($name:ident => $view:path;)*) => {
        $(
            fn $name() -> (Case<impl Message, impl Encodable + Decodable>, Option<ViewDecode>) {
                (common::$name(), view!($view))
            }
        )*
    };
}

cases! {
    metadata => kwire::messages::metadata_response::MetadataResponseRef;
    produce => kwire::messages::produce_request::ProduceRequestRef;
    fetch => kwire::messages::fetch_response::FetchResponseRef;
    api_versions => kwire::messages::api_versions_response::ApiVersionsResponseRef;
    create_topics => kwire::messages::create_topics_request::CreateTopicsRequestRef;
    header => kwire::messages::request_header::RequestHeaderRef;
}
