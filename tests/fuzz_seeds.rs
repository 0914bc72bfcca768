//! Writes fuzz seeds from encoded round-trip values when `FUZZ_SEEDS_DIR`
//! is set (scripts/fuzz.sh does): for every api key and version, a sampled
//! request frame and a sampled response in the shape the `response` target
//! reads (api index, version, then header and body). Without the variable
//! it checks that the seeds it would write decode back.
#![cfg(feature = "sample")]

use kafka_wire::api::API_INFO;
use kafka_wire::frame;
use kafka_wire::messages::{RequestBody, RequestHeader, ResponseBody, ResponseHeader};
use kafka_wire::sample::SampleGen;
use kafka_wire::BytesMut;

fn seeds() -> Vec<(String, Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    for (index, info) in API_INFO.iter().enumerate() {
        for version in info.valid_versions.min..=info.valid_versions.max {
            let mut g = SampleGen::new(((info.api_key as u64) << 16) ^ version as u64);
            let header = RequestHeader {
                request_api_key: info.api_key,
                request_api_version: version,
                correlation_id: 7,
                ..Default::default()
            };
            let (Some(request), Some(response)) = (
                RequestBody::sample(info.api_key, &mut g, version),
                ResponseBody::sample(info.api_key, &mut g, version),
            ) else {
                continue;
            };
            let mut req = BytesMut::new();
            frame::encode_request(&header, &request, &mut req).expect("sampled requests encode");
            let mut resp = BytesMut::from(&[index as u8, (version - info.valid_versions.min) as u8][..]);
            let rh = ResponseHeader { correlation_id: 7, ..Default::default() };
            frame::encode_response(&rh, &response, version, &mut resp).expect("sampled responses encode");
            out.push((format!("{}-v{version}", info.name), req.to_vec(), resp.to_vec()));
        }
    }
    out
}

#[test]
fn write_or_check_seeds() {
    let seeds = seeds();
    assert!(seeds.len() > 300, "every api key and version gives a seed");
    let Some(dir) = std::env::var_os("FUZZ_SEEDS_DIR") else {
        for (name, req, _) in &seeds {
            frame::decode_request(req.clone().into()).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    for (sub, pick) in [("request_frame", 1), ("response", 2)] {
        std::fs::create_dir_all(dir.join(sub)).expect("seed dir");
        for seed in &seeds {
            let bytes = if pick == 1 { &seed.1 } else { &seed.2 };
            std::fs::write(dir.join(sub).join(format!("sample-{}", seed.0)), bytes).expect("seed written");
        }
    }
}
