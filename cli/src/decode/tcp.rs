//! One direction of a TCP connection put back in order: segments arrive
//! with their sequence numbers, and the bytes come out once, in order.
//!
//! A segment whose bytes were all delivered already (a retransmission) is
//! dropped; one that overlaps what was delivered is cut; one that starts
//! past the next expected byte (out of order) waits until the bytes before
//! it arrive. Waiting segments hold at most [`MAX_PENDING`] bytes: past
//! that, or at the end of the capture, the missing bytes are a gap (a
//! segment the capture never saw), which [`Reassembler`] reports and skips.

use std::collections::BTreeMap;

/// Bytes of out-of-order segments held while an earlier segment is missing.
pub const MAX_PENDING: usize = 16 << 20;

/// Bytes the capture never saw, skipped at stream offset `at`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gap {
    /// Stream offset of the first missing byte.
    pub at: u64,
    /// Number of missing bytes.
    pub missing: u64,
}

/// The receiving end of one direction of a TCP connection.
#[derive(Debug, Default)]
pub struct Reassembler {
    /// Sequence number of the next byte expected; `None` before the first
    /// segment.
    next_seq: Option<u32>,
    /// Bytes delivered so far: the stream offset of the next byte.
    offset: u64,
    /// Segments past `offset`, by stream offset.
    pending: BTreeMap<u64, Vec<u8>>,
    pending_bytes: usize,
    /// Segments dropped as retransmissions of delivered bytes.
    pub retransmitted: u64,
    /// Segments that arrived before a segment preceding them.
    pub out_of_order: u64,
}

impl Reassembler {
    /// Stream offset of the next byte to deliver.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Takes one segment: `seq` its sequence number, `syn` whether it is a
    /// SYN (which takes one sequence number before the data). Delivered
    /// bytes are appended to `out`; a gap, when waiting segments grew past
    /// [`MAX_PENDING`], is returned after the bytes after it are delivered.
    pub fn push(&mut self, seq: u32, syn: bool, payload: &[u8], out: &mut Vec<u8>) -> Option<Gap> {
        let data_seq = if syn { seq.wrapping_add(1) } else { seq };
        let next = match self.next_seq {
            Some(next) => next,
            None if syn || !payload.is_empty() => {
                self.next_seq = Some(data_seq);
                data_seq
            }
            None => return None,
        };
        if payload.is_empty() {
            return None;
        }
        // Sequence numbers wrap at 2^32: the distance from the next
        // expected byte is read as a signed 32-bit number.
        let distance = i64::from(data_seq.wrapping_sub(next) as i32);
        let start = self.offset as i64 + distance;
        let end = start + payload.len() as i64;
        if end <= self.offset as i64 {
            self.retransmitted += 1;
            return None;
        }
        if start > self.offset as i64 {
            self.out_of_order += 1;
            let start = start as u64;
            let longer = self.pending.get(&start).is_none_or(|held| held.len() < payload.len());
            if longer {
                let old = self.pending.insert(start, payload.to_vec()).map_or(0, |held| held.len());
                self.pending_bytes = self.pending_bytes + payload.len() - old;
            }
            if self.pending_bytes > MAX_PENDING {
                return self.skip_gap(out);
            }
            return None;
        }
        let skip = (self.offset as i64 - start) as usize;
        self.deliver(&payload[skip..], out);
        self.drain(out);
        None
    }

    /// At the end of the capture: the gap before segments still waiting,
    /// if any, after which they are delivered.
    pub fn finish(&mut self, out: &mut Vec<u8>) -> Option<Gap> {
        if self.pending.is_empty() {
            None
        } else {
            self.skip_gap(out)
        }
    }

    fn deliver(&mut self, bytes: &[u8], out: &mut Vec<u8>) {
        out.extend_from_slice(bytes);
        self.offset += bytes.len() as u64;
        if let Some(next) = self.next_seq.as_mut() {
            // Wraps as the sequence space does; a stream is not limited to 4 GiB.
            *next = next.wrapping_add(bytes.len() as u32);
        }
    }

    /// Delivers waiting segments that now start at or before `offset`.
    fn drain(&mut self, out: &mut Vec<u8>) {
        while let Some(entry) = self.pending.first_entry() {
            let start = *entry.key();
            if start > self.offset {
                break;
            }
            let held = entry.remove();
            self.pending_bytes -= held.len();
            let skip = (self.offset - start) as usize;
            if skip < held.len() {
                self.deliver(&held[skip..], out);
            }
        }
    }

    /// Jumps over the bytes missing before the first waiting segment.
    fn skip_gap(&mut self, out: &mut Vec<u8>) -> Option<Gap> {
        let start = *self.pending.keys().next()?;
        let gap = Gap { at: self.offset, missing: start - self.offset };
        if let Some(next) = self.next_seq.as_mut() {
            *next = next.wrapping_add(gap.missing as u32);
        }
        self.offset = start;
        self.drain(out);
        Some(gap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_order_retransmitted_and_out_of_order_segments_come_out_once_in_order() {
        let mut r = Reassembler::default();
        let mut out = Vec::new();
        assert_eq!(r.push(99, true, b"", &mut out), None); // SYN at 99: data from 100
        r.push(100, false, b"abc", &mut out);
        r.push(106, false, b"ghi", &mut out); // ahead: waits
        assert_eq!(out, b"abc");
        r.push(100, false, b"abc", &mut out); // retransmitted
        r.push(102, false, b"cdef", &mut out); // overlaps: cut
        assert_eq!(out, b"abcdefghi");
        assert_eq!((r.retransmitted, r.out_of_order, r.offset()), (1, 1, 9));
    }

    #[test]
    fn sequence_numbers_wrap() {
        let mut r = Reassembler::default();
        let mut out = Vec::new();
        r.push(u32::MAX - 1, false, b"ab", &mut out);
        r.push(1, false, b"d", &mut out);
        r.push(0, false, b"c", &mut out);
        assert_eq!(out, b"abcd");
    }

    #[test]
    fn a_missing_segment_is_a_gap_at_the_end() {
        let mut r = Reassembler::default();
        let mut out = Vec::new();
        r.push(10, false, b"ab", &mut out);
        r.push(15, false, b"fg", &mut out);
        assert_eq!(r.finish(&mut out), Some(Gap { at: 2, missing: 3 }));
        assert_eq!(out, b"abfg");
        assert_eq!(r.offset(), 7);
    }
}
