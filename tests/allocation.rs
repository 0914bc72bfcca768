//! A hostile element count never buys an allocation larger than the input:
//! the first reservation of an array is bounded by the bytes left, and the
//! vector grows only with elements that really decode.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use kwire::message::Message;
use kwire::messages::{CreateTopicsRequest, MetadataRequest, MetadataResponse, ResponseHeader};
use kwire::Bytes;

/// The system allocator, recording the largest single allocation made by
/// a thread while it is armed (not those of the test harness's other threads).
struct Largest;

thread_local! {
    static ARMED: Cell<bool> = const { Cell::new(false) };
}
static LARGEST: AtomicUsize = AtomicUsize::new(0);

fn armed() -> bool {
    ARMED.try_with(Cell::get).unwrap_or(false)
}

unsafe impl GlobalAlloc for Largest {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if armed() {
            LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        }
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if armed() {
            LARGEST.fetch_max(new_size, Ordering::Relaxed);
        }
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Largest = Largest;

/// One measurement at a time: the tests of this file run on parallel threads.
static MEASURING: Mutex<()> = Mutex::new(());

/// What `f` returns, and the largest single allocation made while it ran.
fn largest_allocation<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let _one_at_a_time = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    LARGEST.store(0, Ordering::Relaxed);
    ARMED.set(true);
    let out = f();
    ARMED.set(false);
    (out, LARGEST.load(Ordering::Relaxed))
}

/// Bytes from hex written with spaces.
fn hex(s: &str) -> Bytes {
    Bytes::from(::hex::decode(s.replace(' ', "")).expect("hex"))
}

#[test]
fn a_count_of_large_structs_reserves_no_more_than_the_input() {
    // MetadataResponse v0: a brokers count of 200, then 200 bytes that end
    // the first broker early (its host string is null, refused at v0).
    let mut input = vec![0, 0, 0, 200];
    input.extend([0xff; 200]);
    let input = Bytes::from(input);
    let element = std::mem::size_of::<kwire::messages::metadata_response::MetadataResponseBroker>();
    assert!(200 * element > 4 * input.len(), "the count alone would reserve {} bytes", 200 * element);

    let (result, largest) = largest_allocation(|| MetadataResponse::decode_exact(input.clone(), 0));

    let error = result.expect_err("the first broker's host is null");
    assert!(error.to_string().contains("brokers[0].host"), "{error}");
    assert!(largest <= input.len(), "largest allocation {largest} bytes for {} bytes of input", input.len());
}

/// `input` decodes as `M` at `version` to an error whose text is `error`,
/// by `decode` and by `decode_into` a default value, and neither makes an
/// allocation larger than `limit` bytes.
#[track_caller]
fn refused_within<M: Message>(version: i16, input: Bytes, limit: usize, error: &str) {
    let (result, largest) = largest_allocation(|| M::decode_exact(input.clone(), version));
    assert_eq!(result.expect_err("hostile input").to_string(), error);
    assert!(largest <= limit, "{error}: largest allocation {largest} bytes for {} bytes of input", input.len());
    let (result, largest) = largest_allocation(|| M::default().decode_into(&mut input.clone(), version));
    assert_eq!(result.expect_err("hostile input").to_string(), error);
    assert!(largest <= limit, "decode_into: largest allocation {largest} bytes for {} bytes of input", input.len());
}

/// As [`refused_within`], no allocation larger than the input.
#[track_caller]
fn refused_within_the_input<M: Message>(version: i16, input: Bytes, error: &str) {
    refused_within::<M>(version, input.clone(), input.len(), error);
}

#[test]
fn hostile_counts_of_nullable_compact_nested_and_tagged_entries_stay_within_the_input() {
    let ff = |n: usize| "ff".repeat(n);
    let zeros = |n: usize| "00".repeat(n);
    let element = std::mem::size_of::<kwire::messages::metadata_request::MetadataRequestTopic>();
    assert!(300 * element > 4 * 304, "a count of 300 alone would reserve {} bytes", 300 * element);
    // A nullable array (MetadataRequest v4 topics, classic): a count of 300
    // that the 300 bytes after it allow, and a first topic whose name is null.
    refused_within_the_input::<MetadataRequest>(
        4,
        hex(&format!("0000012c {} 01", ff(299))),
        "MetadataRequest v4: topics[0].name: null is not allowed at this version (offset 4)",
    );
    // The same in a flexible version (v9): compact count 300 (varint ad 02).
    refused_within_the_input::<MetadataRequest>(
        9,
        hex(&format!("ad02 {}", zeros(300))),
        "MetadataRequest v9: topics[0].name: null is not allowed at this version (offset 2)",
    );
    // Nested: 100 topics, whose first has 400 assignments, whose first has a
    // broker-id count of 2^31-1 (CreateTopicsRequest v0).
    refused_within_the_input::<CreateTopicsRequest>(
        0,
        hex(&format!("00000064 0001 74 ffffffff ffff 00000190 00000000 7fffffff {}", zeros(400))),
        "CreateTopicsRequest v0: topics[0].assignments[0].broker_ids: count 2147483647 but 400 bytes remain (offset 25)",
    );
    // Tagged-field entries: a count of 2^32-1, then one of 200 that the 400
    // bytes after it allow, whose second entry repeats the first tag.
    refused_within_the_input::<ResponseHeader>(
        1,
        hex(&format!("00000001 ffffffff0f {}", zeros(400))),
        "ResponseHeader v1: tagged_fields: count 4294967295 but 400 bytes remain (offset 9)",
    );
    refused_within_the_input::<ResponseHeader>(
        1,
        hex(&format!("00000001 c801 {}", zeros(400))),
        "ResponseHeader v1: tagged_fields: tag 0 follows tag 0; tags must ascend (offset 8)",
    );
}

#[test]
fn tagged_sizes_past_the_input_are_not_allocated() {
    // test-vectors.md V7 (a): SaslAuthenticateRequest v2 whose tag 1 claims
    // 32767 bytes with 3 left; (b): a tagged section (after a ResponseHeader
    // v1 correlation id) whose entry claims 2^31-1 bytes with none left.
    // The inputs are tiny: the bound is the error itself, far below the claims.
    refused_within::<kwire::messages::SaslAuthenticateRequest>(
        2,
        hex("05 74 65 73 74 01 01 FF FF 01 01 02 03"),
        256,
        "SaslAuthenticateRequest v2: tagged_fields<tag 1>: need 32767 bytes, have 3 (offset 10)",
    );
    refused_within::<ResponseHeader>(
        1,
        hex("00 00 00 01 01 01 FF FF FF FF 07"),
        256,
        "ResponseHeader v1: tagged_fields<tag 1>: need 2147483647 bytes, have 0 (offset 11)",
    );
}
