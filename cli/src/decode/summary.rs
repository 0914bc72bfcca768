//! The closing table of `kwire decode`: frames per api and version, how
//! many responses carried an error code and how many frames did not
//! decode, and latency percentiles; then the totals.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

use super::pair::api_name;

/// Counts for one api key and version.
#[derive(Default)]
struct Row {
    requests: u64,
    responses: u64,
    errors: u64,
    failed: u64,
    /// Latencies in microseconds.
    latencies: Vec<u64>,
}

/// What the run saw.
#[derive(Default)]
pub struct Summary {
    rows: BTreeMap<(i16, i16), Row>,
    /// Connections with Kafka traffic.
    pub connections: u64,
    /// Bare SASL tokens passed over.
    pub sasl_tokens: u64,
    /// Problem lines printed.
    pub problems: u64,
    /// TCP segments dropped as retransmissions.
    pub retransmitted: u64,
    /// TCP segments that arrived out of order.
    pub out_of_order: u64,
    /// Requests left without a response at the end.
    pub unanswered: u64,
    /// Bytes of connections caught mid-stream passed over before their
    /// first frame.
    pub skipped: u64,
}

impl Summary {
    /// A request of `api_key` at `version`; `failed` when it did not decode.
    pub fn request(&mut self, api_key: i16, version: i16, failed: bool) {
        let row = self.rows.entry((api_key, version)).or_default();
        row.requests += 1;
        row.failed += u64::from(failed);
    }

    /// A response to a request of `api_key` at `version`.
    pub fn response(&mut self, api_key: i16, version: i16, latency: Option<Duration>, error: bool, failed: bool) {
        let row = self.rows.entry((api_key, version)).or_default();
        row.responses += 1;
        row.errors += u64::from(error);
        row.failed += u64::from(failed);
        if let Some(latency) = latency {
            row.latencies.push(u64::try_from(latency.as_micros()).unwrap_or(u64::MAX));
        }
    }

    /// Whether anything failed: a problem line or a frame that did not decode.
    pub fn failed(&self) -> bool {
        self.problems > 0 || self.rows.values().any(|r| r.failed > 0)
    }

    /// The table, one line per api and version, then the totals.
    pub fn table(&mut self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<28} {:>3} {:>9} {:>9} {:>6} {:>6} {:>10} {:>10} {:>10}",
            "api", "ver", "requests", "responses", "errors", "failed", "p50 ms", "p99 ms", "max ms"
        );
        let (mut requests, mut responses) = (0, 0);
        for ((api_key, version), row) in &mut self.rows {
            row.latencies.sort_unstable();
            let p = |q: u64| percentile(&row.latencies, q);
            let _ = writeln!(
                out,
                "{:<28} {:>3} {:>9} {:>9} {:>6} {:>6} {:>10} {:>10} {:>10}",
                api_name(*api_key),
                version,
                row.requests,
                row.responses,
                row.errors,
                row.failed,
                p(50),
                p(99),
                p(100)
            );
            requests += row.requests;
            responses += row.responses;
        }
        let _ = writeln!(
            out,
            "{} connections, {requests} requests, {responses} responses, {} unanswered, {} SASL tokens passed over, {} problems; TCP: {} retransmitted and {} out-of-order segments, {} bytes before the first frame of connections caught mid-stream",
            self.connections, self.unanswered, self.sasl_tokens, self.problems, self.retransmitted, self.out_of_order, self.skipped
        );
        out
    }
}

/// The nearest-rank `q`th percentile of sorted microseconds, in
/// milliseconds, `-` when there are none.
fn percentile(sorted: &[u64], q: u64) -> String {
    if sorted.is_empty() {
        return "-".into();
    }
    let rank = (q * sorted.len() as u64).div_ceil(100).max(1) as usize;
    let us = sorted[rank.min(sorted.len()) - 1];
    format!("{}.{:03}", us / 1000, us % 1000)
}

#[cfg(test)]
mod tests {
    use super::percentile;

    #[test]
    fn nearest_rank_percentiles() {
        let sorted: Vec<u64> = (1..=100).map(|i| i * 1000).collect();
        assert_eq!(
            (percentile(&sorted, 50), percentile(&sorted, 99), percentile(&sorted, 100)),
            ("50.000".into(), "99.000".into(), "100.000".into())
        );
        assert_eq!(percentile(&[1500], 50), "1.500");
        assert_eq!(percentile(&[], 50), "-");
    }
}
