//! Every message at every valid version, with random values shaped to the
//! version: decode(encode(m)) == m, the bytes are exactly `encoded_size`,
//! and every byte is consumed. Needs the `sample` feature.
#![cfg(feature = "sample")]

use kafka_wire::api::API_INFO;
use kafka_wire::message::Message;
use kafka_wire::messages::{DefaultPrincipalData, RequestBody, RequestHeader, ResponseBody, ResponseHeader};
use kafka_wire::primitives::Reader;
use kafka_wire::sample::{Sample, SampleGen};
use kafka_wire::BytesMut;
use proptest::prelude::*;

/// Seeds per (message, version); proptest shrinks a failing seed.
const CASES: u32 = 64;

fn round_trip<M: Message + Sample>(seed: u64) -> Result<(), TestCaseError> {
    for version in M::VERSIONS.min..=M::VERSIONS.max {
        let value = M::sample(&mut SampleGen::new(seed ^ version as u64), version);
        let bytes = value.to_bytes(version).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(bytes.len(), value.encoded_size(version), "{} v{}", M::NAME, version);
        let chunks = value.encode_vectored(version).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(chunks.concat(), bytes.to_vec(), "{} v{} vectored", M::NAME, version);
        let back = M::decode_exact(bytes, version).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back, &value, "{} v{}", M::NAME, version);
    }
    Ok(())
}

/// `decode_into` a value that already holds another message (another
/// sample, often at another version) gives exactly what `decode` gives:
/// every reused string, array and struct is overwritten, every field absent
/// at the version reset, every tagged field not sent back to its default.
fn decode_into_reused<M: Message + Sample>(seed: u64) -> Result<(), TestCaseError> {
    let versions = M::VERSIONS.min..=M::VERSIONS.max;
    let span = (M::VERSIONS.max - M::VERSIONS.min + 1) as u64;
    let mut value = M::default();
    for version in versions {
        let earlier = M::VERSIONS.min + ((seed >> 3) % span) as i16;
        let previous = M::sample(&mut SampleGen::new(seed.rotate_left(17) ^ version as u64), earlier);
        let mut bytes = previous.to_bytes(earlier).map_err(|e| TestCaseError::fail(e.to_string()))?;
        value.decode_into(&mut bytes, earlier).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&value, &previous, "{} v{} (first decode)", M::NAME, earlier);
        let next = M::sample(&mut SampleGen::new(seed ^ version as u64), version);
        let mut bytes = next.to_bytes(version).map_err(|e| TestCaseError::fail(e.to_string()))?;
        value.decode_into(&mut bytes, version).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(bytes.len(), 0);
        prop_assert_eq!(&value, &next, "{} v{} decoded into a v{} value", M::NAME, version, earlier);
    }
    Ok(())
}

/// Runs `decode_into_reused` for each listed message type.
macro_rules! reuse_each {
    ($seed:expr; $($m:ident),* $(,)?) => {
        $(decode_into_reused::<kafka_wire::messages::$m>($seed)?;)*
    };
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn decode_into_overwrites_everything(seed in any::<u64>()) {
        reuse_each!(seed;
            RequestHeader, ResponseHeader, MetadataRequest, MetadataResponse, ProduceRequest, ProduceResponse,
            FetchRequest, FetchResponse, ApiVersionsRequest, ApiVersionsResponse, CreateTopicsRequest,
            CreateTopicsResponse, JoinGroupRequest, JoinGroupResponse, DescribeConfigsResponse,
            OffsetCommitRequest, UpdateMetadataRequest, LeaderAndIsrRequest, ConsumerGroupHeartbeatResponse,
            DescribeClusterResponse, EnvelopeRequest, AlterConfigsRequest, AlterClientQuotasRequest,
            BrokerRegistrationRequest, FindCoordinatorResponse, DescribeGroupsResponse,
        );
    }

    #[test]
    fn headers_and_data(seed in any::<u64>()) {
        round_trip::<RequestHeader>(seed)?;
        round_trip::<ResponseHeader>(seed)?;
        round_trip::<DefaultPrincipalData>(seed)?;
    }

    #[test]
    fn every_request_and_response(seed in any::<u64>()) {
        for info in API_INFO {
            for version in info.valid_versions.min..=info.valid_versions.max {
                let mut g = SampleGen::new(seed ^ ((info.api_key as u64) << 16) ^ version as u64);
                let request = RequestBody::sample(info.api_key, &mut g, version).expect("every api key has a request");
                check_request(&request, version)?;
                let response = ResponseBody::sample(info.api_key, &mut g, version).expect("every api key has a response");
                check_response(&response, version)?;
            }
        }
    }
}

fn check_request(body: &RequestBody, version: i16) -> Result<(), TestCaseError> {
    let mut buf = BytesMut::new();
    body.encode(&mut buf, version).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(buf.len(), body.encoded_size(version));
    let mut r = Reader::new(buf.freeze());
    let back = RequestBody::decode(body.api_key(), &mut r, version).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(r.remaining(), 0);
    prop_assert_eq!(&back, body);
    Ok(())
}

fn check_response(body: &ResponseBody, version: i16) -> Result<(), TestCaseError> {
    let mut buf = BytesMut::new();
    body.encode(&mut buf, version).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(buf.len(), body.encoded_size(version));
    let mut r = Reader::new(buf.freeze());
    let back = ResponseBody::decode(body.api_key(), &mut r, version).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(r.remaining(), 0);
    prop_assert_eq!(&back, body);
    Ok(())
}

/// The sampler must reach the interesting shapes, or the round trip proves little.
#[test]
fn samples_cover_nulls_unknown_tags_and_absent_fields() {
    let (mut null_topics, mut unknown, mut some_topics) = (false, false, false);
    for seed in 0..200 {
        let m = kafka_wire::messages::MetadataRequest::sample(&mut SampleGen::new(seed), 12);
        null_topics |= m.topics.is_none();
        some_topics |= m.topics.as_ref().is_some_and(|t| !t.is_empty());
        unknown |= !m.unknown_tagged_fields.is_empty();
        // At v0 topics is not nullable, and there is no tagged section.
        let m0 = kafka_wire::messages::MetadataRequest::sample(&mut SampleGen::new(seed), 0);
        assert!(m0.topics.is_some() && m0.unknown_tagged_fields.is_empty());
        assert!(m0.allow_auto_topic_creation, "v0 lacks the field: it keeps its default true");
    }
    assert!(null_topics && unknown && some_topics);
}

/// Hostile input, bounded for CI: every prefix of a valid encoding is an
/// error (never a wrong value), and mutated encodings and random bytes give
/// a value or a typed error, never a panic.
mod hostile {
    use super::*;

    fn encodings(seed: u64) -> Vec<(i16, i16, kafka_wire::Bytes)> {
        let mut out = Vec::new();
        for info in API_INFO {
            for version in info.valid_versions.min..=info.valid_versions.max {
                let mut g = SampleGen::new(seed ^ ((info.api_key as u64) << 16) ^ version as u64);
                let body = RequestBody::sample(info.api_key, &mut g, version).expect("request");
                let mut buf = BytesMut::new();
                body.encode(&mut buf, version).expect("encodes");
                out.push((info.api_key, version, buf.freeze()));
            }
        }
        out
    }

    #[test]
    fn every_truncation_is_an_error() {
        for (api_key, version, bytes) in encodings(11) {
            for cut in 0..bytes.len() {
                let mut r = Reader::new(bytes.slice(..cut));
                let decoded = RequestBody::decode(api_key, &mut r, version).and_then(|b| r.finish().map(|()| b));
                assert!(decoded.is_err(), "api {api_key} v{version}: a {cut}-byte prefix of {} decoded", bytes.len());
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn mutated_encodings_never_panic(seed in any::<u64>(), flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..4)) {
            for (api_key, version, bytes) in encodings(seed) {
                let mut mutated = bytes.to_vec();
                if mutated.is_empty() {
                    continue;
                }
                for &(at, byte) in &flips {
                    let i = at % mutated.len();
                    mutated[i] = byte;
                }
                let mut r = Reader::new(mutated.into());
                let _ = RequestBody::decode(api_key, &mut r, version);
                // The unmutated request read as that api's response: input of another shape.
                let mut r = Reader::new(bytes.clone());
                let _ = ResponseBody::decode(api_key, &mut r, version);
            }
        }

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let bytes = kafka_wire::Bytes::from(bytes);
            for info in API_INFO {
                for version in info.valid_versions.min..=info.valid_versions.max {
                    let _ = RequestBody::decode(info.api_key, &mut Reader::new(bytes.clone()), version);
                    let _ = ResponseBody::decode(info.api_key, &mut Reader::new(bytes.clone()), version);
                }
            }
            let _ = kafka_wire::frame::decode_request(bytes.clone());
            let _ = kafka_wire::frame::decode_request_frame(bytes);
        }
    }
}
