//! A hostile element count never buys an allocation larger than the input:
//! the first reservation of an array is bounded by the bytes left, and the
//! vector grows only with elements that really decode.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use kafka_wire::message::Message;
use kafka_wire::messages::MetadataResponse;
use kafka_wire::Bytes;

/// The system allocator, recording the largest single allocation while armed.
struct Largest;

static ARMED: AtomicBool = AtomicBool::new(false);
static LARGEST: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Largest {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if ARMED.load(Ordering::Relaxed) {
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
        if ARMED.load(Ordering::Relaxed) {
            LARGEST.fetch_max(new_size, Ordering::Relaxed);
        }
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Largest = Largest;

#[test]
fn a_count_of_large_structs_reserves_no_more_than_the_input() {
    // MetadataResponse v0: a brokers count of 200, then 200 bytes that end
    // the first broker early (its host string is null, refused at v0).
    let mut input = vec![0, 0, 0, 200];
    input.extend([0xff; 200]);
    let input = Bytes::from(input);
    let element = std::mem::size_of::<kafka_wire::messages::metadata_response::MetadataResponseBroker>();
    assert!(200 * element > 4 * input.len(), "the count alone would reserve {} bytes", 200 * element);

    LARGEST.store(0, Ordering::Relaxed);
    ARMED.store(true, Ordering::Relaxed);
    let result = MetadataResponse::decode_exact(input.clone(), 0);
    ARMED.store(false, Ordering::Relaxed);

    let error = result.expect_err("the first broker's host is null");
    assert!(error.to_string().contains("brokers[0].host"), "{error}");
    let largest = LARGEST.load(Ordering::Relaxed);
    assert!(largest <= input.len(), "largest allocation {largest} bytes for {} bytes of input", input.len());
}
