//! Prototypes of the strategies that docs/performance.md recommends, each
//! measured against kafka-wire's current code on the same input (section
//! "Recommendations"). Not a criterion bench: each variant is timed as the
//! best of 7 batches, and can be run alone under callgrind.
//!
//! ```sh
//! cargo bench --bench strategies                    # every variant, µs per call
//! B=$(ls -t $CARGO_TARGET_DIR/release/deps/strategies-* | grep -v '\.d$' | head -1)
//! valgrind --tool=callgrind --toggle-collect='*section*' $B s0   # instructions of one call
//! valgrind --tool=callgrind --toggle-collect='*section*' $B h0 1000   # of 1,000 calls
//! ```
//!
//! Variants: s* strings (2,100 compact strings as in the CreateTopicsRequest
//! fixture), a* int32 arrays (32,000 arrays of 3, as the replica and ISR
//! lists of the MetadataResponse fixture), e* encoding 16,000
//! MetadataResponse v12 partitions, z0 their `value_size`, p* decoding 100
//! ProduceRequest v9 partitions of 64 KiB records, h* encoding the request
//! header v2 of the comparison (h2 is kafka-protocol's encode, h1 and h3
//! the least a checked and an unchecked encode can do). Variant 0 of each
//! family is kafka-wire today.
#![allow(dead_code)] // the prototypes' outputs are only kept alive, never read

use std::hint::black_box;
use std::time::Instant;

use bytes::{BufMut, Bytes, BytesMut};

use kafka_wire::message::Message;
use kafka_wire::messages::metadata_response::MetadataResponsePartition;
use kafka_wire::messages::request_header::RequestHeader;
use kafka_wire::primitives::{Decode, Reader, Wire};

const STRS: usize = 2100; // CreateTopicsRequest v7 fixture: 100 names + 1000 config names + 1000 values
const ARRAYS: usize = 32_000; // MetadataResponse v12 fixture: 16,000 partitions x (replicas, isr)

fn strings_input() -> Bytes {
    let words = [
        "cleanup.policy",
        "compact,delete",
        "retention.ms",
        "604800000",
        "orders.events.topic-00042",
        "zstd",
        "2",
        "false",
    ];
    let mut b = BytesMut::new();
    for i in 0..STRS {
        let w = words[i % words.len()];
        b.put_u8(w.len() as u8 + 1);
        b.put_slice(w.as_bytes());
    }
    b.freeze()
}

fn arrays_input() -> Bytes {
    let mut b = BytesMut::new();
    for i in 0..ARRAYS as i32 {
        b.put_u8(4);
        for k in 0..3 {
            b.put_i32((i + k) % 6);
        }
    }
    b.freeze()
}

#[inline]
fn uvarint(buf: &[u8], pos: &mut usize) -> u32 {
    let mut v = 0u32;
    let mut shift = 0;
    loop {
        let b = buf[*pos];
        *pos += 1;
        v |= ((b & 0x7f) as u32) << shift;
        if b & 0x80 == 0 {
            return v;
        }
        shift += 7;
    }
}

#[inline]
fn is_ascii_fast(s: &[u8]) -> bool {
    let mut chunks = s.chunks_exact(8);
    let mut acc = 0u64;
    for c in &mut chunks {
        acc |= u64::from_ne_bytes(c.try_into().unwrap());
    }
    let mut tail = 0u8;
    for &b in chunks.remainder() {
        tail |= b;
    }
    acc & 0x8080_8080_8080_8080 == 0 && tail & 0x80 == 0
}

// ---- strings -----------------------------------------------------------------

/// s0: kafka-wire today: Reader over Bytes, String::decode_value (split_to + from_utf8 + to_owned).
fn s0(input: &Bytes) -> usize {
    let mut r = Reader::new(input.clone());
    let mut out = Vec::with_capacity(STRS);
    for _ in 0..STRS {
        out.push(String::decode_value(&mut r, 7, true).unwrap());
    }
    out.len()
}

/// s1: String from a slice, no Bytes refcount traffic (read_str without read_bytes).
fn s1(input: &Bytes) -> usize {
    let buf = &input[..];
    let mut pos = 0;
    let mut out: Vec<String> = Vec::with_capacity(STRS);
    for _ in 0..STRS {
        let len = uvarint(buf, &mut pos) as usize - 1;
        let s = std::str::from_utf8(&buf[pos..pos + len]).unwrap();
        pos += len;
        out.push(s.to_owned());
    }
    out.len()
}

/// s2: kafka-protocol's way: a Bytes slice of the input, validated (StrBytes).
fn s2(input: &Bytes) -> usize {
    let buf = &input[..];
    let mut pos = 0;
    let mut out: Vec<Bytes> = Vec::with_capacity(STRS);
    for _ in 0..STRS {
        let len = uvarint(buf, &mut pos) as usize - 1;
        std::str::from_utf8(&buf[pos..pos + len]).unwrap();
        out.push(input.slice(pos..pos + len));
        pos += len;
    }
    out.len()
}

/// s3: s2 with an ASCII fast path before full UTF-8 validation.
fn s3(input: &Bytes) -> usize {
    let buf = &input[..];
    let mut pos = 0;
    let mut out: Vec<Bytes> = Vec::with_capacity(STRS);
    for _ in 0..STRS {
        let len = uvarint(buf, &mut pos) as usize - 1;
        let s = &buf[pos..pos + len];
        if !is_ascii_fast(s) {
            std::str::from_utf8(s).unwrap();
        }
        out.push(input.slice(pos..pos + len));
        pos += len;
    }
    out.len()
}

/// s4: borrowed &str (a decode that borrows the input: no allocation, no refcount).
fn s4(input: &Bytes) -> usize {
    let buf = &input[..];
    let mut pos = 0;
    let mut out: Vec<&str> = Vec::with_capacity(STRS);
    for _ in 0..STRS {
        let len = uvarint(buf, &mut pos) as usize - 1;
        let s = &buf[pos..pos + len];
        // SAFETY: ASCII is valid UTF-8.
        let s = if is_ascii_fast(s) {
            unsafe { std::str::from_utf8_unchecked(s) }
        } else {
            std::str::from_utf8(s).unwrap()
        };
        out.push(s);
        pos += len;
    }
    black_box(&out);
    out.len()
}

// ---- int32 arrays ------------------------------------------------------------

/// a0: kafka-wire today: Vec<i32>::decode_value, one Reader call per element.
fn a0(input: &Bytes) -> usize {
    let mut r = Reader::new(input.clone());
    let mut out = Vec::with_capacity(ARRAYS);
    for _ in 0..ARRAYS {
        out.push(Vec::<i32>::decode_value(&mut r, 12, true).unwrap());
    }
    out.len()
}

/// a1: one bounds check per array, elements from chunks_exact (still a Vec).
fn a1(input: &Bytes) -> usize {
    let buf = &input[..];
    let mut pos = 0;
    let mut out: Vec<Vec<i32>> = Vec::with_capacity(ARRAYS);
    for _ in 0..ARRAYS {
        let n = uvarint(buf, &mut pos) as usize - 1;
        let bytes = &buf[pos..pos + 4 * n];
        pos += 4 * n;
        out.push(bytes.chunks_exact(4).map(|c| i32::from_be_bytes(c.try_into().unwrap())).collect());
    }
    out.len()
}

/// Inline storage for up to 4 elements (SmallVec<[i32; 4]>-like).
enum Small {
    Inline(u8, [i32; 4]),
    Heap(Vec<i32>),
}

/// a2: a1 into inline storage: no allocation for <= 4 replicas.
fn a2(input: &Bytes) -> usize {
    let buf = &input[..];
    let mut pos = 0;
    let mut out: Vec<Small> = Vec::with_capacity(ARRAYS);
    for _ in 0..ARRAYS {
        let n = uvarint(buf, &mut pos) as usize - 1;
        let bytes = &buf[pos..pos + 4 * n];
        pos += 4 * n;
        let it = bytes.chunks_exact(4).map(|c| i32::from_be_bytes(c.try_into().unwrap()));
        out.push(if n <= 4 {
            let mut a = [0; 4];
            for (d, v) in a.iter_mut().zip(it) {
                *d = v;
            }
            Small::Inline(n as u8, a)
        } else {
            Small::Heap(it.collect())
        });
    }
    black_box(&out);
    out.len()
}

/// a3: zero-copy view: the array's bytes as a Bytes slice (refcount), read on access.
fn a3(input: &Bytes) -> usize {
    let buf = &input[..];
    let mut pos = 0;
    let mut out: Vec<Bytes> = Vec::with_capacity(ARRAYS);
    for _ in 0..ARRAYS {
        let n = uvarint(buf, &mut pos) as usize - 1;
        out.push(input.slice(pos..pos + 4 * n));
        pos += 4 * n;
    }
    out.len()
}

// ---- encode ------------------------------------------------------------------

fn partitions() -> Vec<MetadataResponsePartition> {
    (0..16_000)
        .map(|p| {
            let l = p % 6;
            let rep = vec![l, (l + 1) % 6, (l + 2) % 6];
            MetadataResponsePartition {
                partition_index: p,
                leader_id: l,
                leader_epoch: 7,
                isr_nodes: rep.clone(),
                replica_nodes: rep,
                ..Default::default()
            }
        })
        .collect()
}

/// e0: kafka-wire today: generated encode_value per partition into a reused BytesMut.
fn e0(ps: &[MetadataResponsePartition], buf: &mut BytesMut) -> usize {
    buf.clear();
    for p in ps {
        p.encode_value(&mut kafka_wire::primitives::Writer::new(buf), 12, true).unwrap();
    }
    buf.len()
}

/// e1: the same bytes written with BytesMut put_* and inlined length prefixes, no error plumbing.
fn e1(ps: &[MetadataResponsePartition], buf: &mut BytesMut) -> usize {
    buf.clear();
    for p in ps {
        buf.put_i16(p.error_code);
        buf.put_i32(p.partition_index);
        buf.put_i32(p.leader_id);
        buf.put_i32(p.leader_epoch);
        for a in [&p.replica_nodes, &p.isr_nodes, &p.offline_replicas] {
            buf.put_u8(a.len() as u8 + 1); // < 127 elements: one varint byte
            for &x in a.iter() {
                buf.put_i32(x);
            }
        }
        buf.put_u8(0);
    }
    buf.len()
}

/// Writes `bytes` at `*pos` of `dst` without a capacity check.
///
/// # Safety
/// `dst + *pos .. + bytes.len()` must be reserved, writable memory.
#[inline(always)]
unsafe fn put_raw(dst: *mut u8, pos: &mut usize, bytes: &[u8]) {
    std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst.add(*pos), bytes.len());
    *pos += bytes.len();
}

/// # Safety
/// As [`put_raw`], for the partition's whole encoding.
#[inline(always)]
unsafe fn partition_raw(p: &MetadataResponsePartition, dst: *mut u8, pos: &mut usize) {
    let mut fixed = [0u8; 14];
    fixed[0..2].copy_from_slice(&p.error_code.to_be_bytes());
    fixed[2..6].copy_from_slice(&p.partition_index.to_be_bytes());
    fixed[6..10].copy_from_slice(&p.leader_id.to_be_bytes());
    fixed[10..14].copy_from_slice(&p.leader_epoch.to_be_bytes());
    put_raw(dst, pos, &fixed);
    for a in [&p.replica_nodes, &p.isr_nodes, &p.offline_replicas] {
        put_raw(dst, pos, &[a.len() as u8 + 1]);
        for &x in a.iter() {
            put_raw(dst, pos, &x.to_be_bytes());
        }
    }
    put_raw(dst, pos, &[0]);
}

/// e2: one reserve per struct (its upper bound), then unchecked writes, fixed-width run as one 14-byte write.
fn e2(ps: &[MetadataResponsePartition], buf: &mut BytesMut) -> usize {
    buf.clear();
    for p in ps {
        let max = 14 + 3 * 5 + 4 * (p.replica_nodes.len() + p.isr_nodes.len() + p.offline_replicas.len()) + 1;
        buf.reserve(max);
        let mut pos = 0;
        // SAFETY: `max` bytes of spare capacity were reserved just above and
        // the partition's encoding is at most `max` bytes; set_len covers
        // only the bytes written.
        unsafe {
            partition_raw(p, buf.spare_capacity_mut().as_mut_ptr().cast(), &mut pos);
            buf.set_len(buf.len() + pos);
        }
    }
    buf.len()
}

/// e3: size pass first, one reserve for the message, then unchecked writes.
fn e3(ps: &[MetadataResponsePartition], buf: &mut BytesMut) -> usize {
    buf.clear();
    let size: usize = ps.iter().map(|p| p.value_size(12, true)).sum();
    buf.reserve(size);
    let dst: *mut u8 = buf.spare_capacity_mut().as_mut_ptr().cast();
    let mut pos = 0;
    for p in ps {
        // SAFETY: `size` bytes, the exact total, were reserved above.
        unsafe { partition_raw(p, dst, &mut pos) };
    }
    assert_eq!(pos, size);
    // SAFETY: all `size` bytes were written.
    unsafe { buf.set_len(size) };
    buf.len()
}

/// z0: encoded_size of all partitions (what to_bytes adds before encoding).
fn z0(ps: &[MetadataResponsePartition]) -> usize {
    ps.iter().map(|p| p.value_size(12, true)).sum()
}

// ---- produce partitions decode -----------------------------------------------
use kafka_wire::messages::produce_request::PartitionProduceData;

fn produce_parts_input() -> Bytes {
    let parts: Vec<PartitionProduceData> = (0..100)
        .map(|p| PartitionProduceData { index: p, records: Some(Bytes::from(vec![7u8; 65536])), ..Default::default() })
        .collect();
    let mut b = BytesMut::new();
    parts.encode_value(&mut kafka_wire::primitives::Writer::new(&mut b), 9, true).unwrap();
    b.freeze()
}

/// p0: kafka-wire today: Vec<PartitionProduceData>::decode_value at v9.
fn p0(input: &Bytes) -> usize {
    let mut r = Reader::new(input.clone());
    Vec::<PartitionProduceData>::decode_value(&mut r, 9, true).unwrap().len()
}

/// p1: slice cursor (one bounds check per read, no Bytes::advance), records as
/// input.slice(), empty tagged section read inline (count byte 0).
fn p1(input: &Bytes) -> usize {
    let buf = &input[..];
    let mut pos = 0;
    let n = uvarint(buf, &mut pos) as usize - 1;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let index = i32::from_be_bytes(buf[pos..pos + 4].try_into().unwrap());
        pos += 4;
        let len = uvarint(buf, &mut pos) as usize;
        let records = if len == 0 {
            None
        } else {
            let l = len - 1;
            let b = input.slice(pos..pos + l);
            pos += l;
            Some(b)
        };
        let mut unknown_tagged_fields = Vec::new();
        if buf[pos] == 0 {
            pos += 1;
        } else {
            let mut r = Reader::new(input.slice(pos..));
            kafka_wire::tagged::decode_section(&mut r, 0, &mut unknown_tagged_fields, |_, _| Ok(false)).unwrap();
            pos = input.len() - r.remaining();
        }
        out.push(PartitionProduceData { index, records, unknown_tagged_fields });
    }
    out.len()
}

fn header() -> RequestHeader {
    RequestHeader {
        request_api_key: 1,
        request_api_version: 12,
        correlation_id: 42,
        client_id: Some("consumer-orders-service-1".into()),
        ..Default::default()
    }
}

/// The request header v2 as kafka-wire encodes it (`Message::encode`).
fn h0(h: &RequestHeader, buf: &mut BytesMut) -> usize {
    buf.clear();
    black_box(h).encode(buf, 2).unwrap();
    buf.len()
}

/// The header's fixed fields and client id length as one run of 10 bytes,
/// and the client id; `None` when the client id is too long.
#[inline(always)]
fn header_parts(h: &RequestHeader) -> Option<([u8; 10], &[u8])> {
    let id = h.client_id.as_deref().map(str::as_bytes);
    let len = id.map_or(Ok(-1), |id| i16::try_from(id.len())).ok()?;
    let mut run = [0u8; 10];
    run[0..2].copy_from_slice(&h.request_api_key.to_be_bytes());
    run[2..4].copy_from_slice(&h.request_api_version.to_be_bytes());
    run[4..8].copy_from_slice(&h.correlation_id.to_be_bytes());
    run[8..10].copy_from_slice(&len.to_be_bytes());
    Some((run, id.unwrap_or_default()))
}

/// The least a safe encode of this header can do: one reservation, the
/// fixed fields and the client id's length in one copy, the client id,
/// the empty tagged section; only the client id's length is checked.
fn h1(h: &RequestHeader, buf: &mut BytesMut) -> usize {
    buf.clear();
    let Some((run, id)) = header_parts(black_box(h)) else {
        return 0;
    };
    buf.reserve(11 + id.len());
    buf.put_slice(&run);
    buf.put_slice(id);
    buf.put_u8(0);
    buf.len()
}

/// `h1` with the writes unchecked after the one reservation: the floor of
/// any encode of this header into a `BytesMut`.
fn h3(h: &RequestHeader, buf: &mut BytesMut) -> usize {
    buf.clear();
    let Some((run, id)) = header_parts(black_box(h)) else {
        return 0;
    };
    let n = 11 + id.len();
    buf.reserve(n);
    let dst = buf.spare_capacity_mut().as_mut_ptr().cast::<u8>();
    // SAFETY: `reserve(n)` left at least n bytes of spare capacity, all
    // written below before `set_len` exposes them.
    unsafe {
        std::ptr::copy_nonoverlapping(run.as_ptr(), dst, 10);
        std::ptr::copy_nonoverlapping(id.as_ptr(), dst.add(10), id.len());
        *dst.add(n - 1) = 0;
        buf.set_len(buf.len() + n);
    }
    buf.len()
}

/// The same header as kafka-protocol 0.18 encodes it.
fn h2(h: &kafka_protocol::messages::RequestHeader, buf: &mut BytesMut) -> usize {
    use kafka_protocol::protocol::Encodable;
    buf.clear();
    black_box(h).encode(buf, 2).unwrap();
    buf.len()
}

#[inline(never)]
fn section<R>(n: usize, mut f: impl FnMut() -> R) {
    for _ in 0..n {
        black_box(f());
    }
}

const VARIANTS: [&str; 20] = [
    "s0", "s1", "s2", "s3", "s4", "a0", "a1", "a2", "a3", "e0", "e1", "e2", "e3", "z0", "p0", "p1", "h0", "h1", "h2",
    "h3",
];

fn main() {
    // cargo bench passes --bench; a bare variant name runs that variant once (for callgrind).
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let strs = strings_input();
    let arrs = arrays_input();
    let ps = partitions();
    let pp = produce_parts_input();
    let mut buf = BytesMut::with_capacity(1 << 20);
    for f in [e1, e2, e3] {
        e0(&ps, &mut buf);
        let want = buf.clone();
        f(&ps, &mut buf);
        assert_eq!(want, buf, "prototype encodes the same bytes");
    }
    assert_eq!(z0(&ps), buf.len());
    let hdr = header();
    let kp_hdr = kafka_protocol::messages::RequestHeader::default()
        .with_request_api_key(hdr.request_api_key)
        .with_request_api_version(hdr.request_api_version)
        .with_correlation_id(hdr.correlation_id)
        .with_client_id(hdr.client_id.clone().map(Into::into));
    let mut hbuf = BytesMut::with_capacity(64);
    h0(&hdr, &mut hbuf);
    let want = hbuf.clone();
    for f in [h1, h3] {
        f(&hdr, &mut hbuf);
        assert_eq!(want, hbuf, "header prototype encodes the same bytes");
    }
    h2(&kp_hdr, &mut hbuf);
    assert_eq!(want, hbuf, "kafka-protocol encodes the same header bytes");
    // An optional second argument repeats the one variant that many times.
    let calls = args.get(1).map_or(1, |n| n.parse().expect("a number of calls"));
    let (single, names): (bool, Vec<&str>) = match args.first() {
        Some(v) => (true, vec![VARIANTS.iter().copied().find(|k| k == v).expect("unknown variant")]),
        None => (false, VARIANTS.to_vec()),
    };
    for which in names {
        let mut run: Box<dyn FnMut() -> usize + '_> = match which {
            "s0" => Box::new(|| s0(&strs)),
            "s1" => Box::new(|| s1(&strs)),
            "s2" => Box::new(|| s2(&strs)),
            "s3" => Box::new(|| s3(&strs)),
            "s4" => Box::new(|| s4(&strs)),
            "a0" => Box::new(|| a0(&arrs)),
            "a1" => Box::new(|| a1(&arrs)),
            "a2" => Box::new(|| a2(&arrs)),
            "a3" => Box::new(|| a3(&arrs)),
            "e0" => Box::new(|| e0(&ps, &mut buf)),
            "e1" => Box::new(|| e1(&ps, &mut buf)),
            "e2" => Box::new(|| e2(&ps, &mut buf)),
            "e3" => Box::new(|| e3(&ps, &mut buf)),
            "z0" => Box::new(|| z0(&ps)),
            "p0" => Box::new(|| p0(&pp)),
            "p1" => Box::new(|| p1(&pp)),
            "h0" => Box::new(|| h0(&hdr, &mut hbuf)),
            "h1" => Box::new(|| h1(&hdr, &mut hbuf)),
            "h2" => Box::new(|| h2(&kp_hdr, &mut hbuf)),
            "h3" => Box::new(|| h3(&hdr, &mut hbuf)),
            _ => unreachable!(),
        };
        run(); // warm-up
        if single {
            section(calls, &mut run);
            continue;
        }
        // About 0.2 s per batch, best of 7 batches.
        let t = Instant::now();
        run();
        let iters = (0.2 / t.elapsed().as_secs_f64().max(1e-9)).clamp(1.0, 1e6) as usize;
        let mut best = f64::MAX;
        for _ in 0..7 {
            let t = Instant::now();
            section(iters, &mut run);
            best = best.min(t.elapsed().as_nanos() as f64 / iters as f64);
        }
        println!("{which}: {:>9.1} µs per call (best of 7 batches of {iters})", best / 1e3);
    }
}
