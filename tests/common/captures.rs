//! The real frames of the reference material's `captures/` (its
//! `index.tsv` names each file with its client, peer, direction, api key,
//! version and correlation id).
#![allow(dead_code)]

use kwire::Bytes;

/// One captured frame.
pub struct Capture {
    pub file: String,
    pub client: String,
    pub peer: String,
    pub request: bool,
    pub api_key: i16,
    pub api_version: i16,
    pub correlation_id: i32,
    pub bytes: Bytes,
}

/// Every capture, or `None` (skipped) without the reference material.
pub fn captures() -> Option<Vec<Capture>> {
    let dir = super::shared_dir("the frame captures")?.join("captures");
    let index = std::fs::read_to_string(dir.join("index.tsv")).expect("captures/index.tsv");
    let mut out = Vec::new();
    for line in index.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let hex_text = std::fs::read_to_string(dir.join(cols[0])).expect("capture file");
        out.push(Capture {
            file: cols[0].to_string(),
            client: cols[1].to_string(),
            peer: cols[2].to_string(),
            request: cols[3] == "req",
            api_key: cols[4].parse().expect("api key"),
            api_version: cols[6].parse().expect("api version"),
            correlation_id: cols[7].parse().expect("correlation id"),
            bytes: hex::decode(hex_text.trim()).expect("hex").into(),
        });
    }
    Some(out)
}
