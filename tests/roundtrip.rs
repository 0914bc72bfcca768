//! Every message at every valid version, with random values shaped to the
//! version: decode(encode(m)) == m, the bytes are exactly `encoded_size`,
//! and every byte is consumed. Needs the `sample` feature.
#![cfg(feature = "sample")]

use kwire::api::API_INFO;
use kwire::message::Message;
use kwire::messages::{DefaultPrincipalData, RequestBody, RequestHeader, ResponseBody, ResponseHeader};
use kwire::primitives::Reader;
use kwire::sample::{Sample, SampleGen};
use kwire::BytesMut;
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
        $(decode_into_reused::<kwire::messages::$m>($seed)?;)*
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
                let mut g = SampleGen::new(seed ^ ((info.api_key.code() as u64) << 16) ^ version as u64);
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
    let back =
        RequestBody::decode_from(body.api_key(), &mut r, version).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(r.remaining(), 0);
    prop_assert_eq!(&back, body);
    Ok(())
}

fn check_response(body: &ResponseBody, version: i16) -> Result<(), TestCaseError> {
    let mut buf = BytesMut::new();
    body.encode(&mut buf, version).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(buf.len(), body.encoded_size(version));
    let mut r = Reader::new(buf.freeze());
    let back =
        ResponseBody::decode_from(body.api_key(), &mut r, version).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(r.remaining(), 0);
    prop_assert_eq!(&back, body);
    Ok(())
}

/// The sampler must reach the interesting shapes, or the round trip proves little.
#[test]
fn samples_cover_nulls_unknown_tags_and_absent_fields() {
    let (mut null_topics, mut unknown, mut some_topics) = (false, false, false);
    for seed in 0..200 {
        let m = kwire::messages::MetadataRequest::sample(&mut SampleGen::new(seed), 12);
        null_topics |= m.topics.is_none();
        some_topics |= m.topics.as_ref().is_some_and(|t| !t.is_empty());
        unknown |= !m.unknown_tagged_fields.is_empty();
        // At v0 topics is not nullable, and there is no tagged section.
        let m0 = kwire::messages::MetadataRequest::sample(&mut SampleGen::new(seed), 0);
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

    fn encodings(seed: u64) -> Vec<(kwire::api::ApiKey, i16, kwire::Bytes)> {
        let mut out = Vec::new();
        for info in API_INFO {
            for version in info.valid_versions.min..=info.valid_versions.max {
                let mut g = SampleGen::new(seed ^ ((info.api_key.code() as u64) << 16) ^ version as u64);
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
                let decoded = RequestBody::decode_from(api_key, &mut r, version).and_then(|b| r.finish().map(|()| b));
                assert!(decoded.is_err(), "api {api_key:?} v{version}: a {cut}-byte prefix of {} decoded", bytes.len());
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
                let _ = RequestBody::decode_from(api_key, &mut r, version);
                // The unmutated request read as that api's response: input of another shape.
                let mut r = Reader::new(bytes.clone());
                let _ = ResponseBody::decode_from(api_key, &mut r, version);
            }
        }

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let bytes = kwire::Bytes::from(bytes);
            for info in API_INFO {
                for version in info.valid_versions.min..=info.valid_versions.max {
                    let _ = RequestBody::decode_from(info.api_key, &mut Reader::new(bytes.clone()), version);
                    let _ = ResponseBody::decode_from(info.api_key, &mut Reader::new(bytes.clone()), version);
                }
            }
            let _ = kwire::frame::RequestFrame::decode(bytes.clone());
            let _ = kwire::frame::RequestFrame::decode_sized(bytes);
        }
    }
}

/// `decode_into` a value whose arrays hold more, fewer or no elements than
/// the input (and nullable arrays that are null, empty or full) gives what
/// `decode` gives, at every version; the empty array clears what was there.
mod arrays_decoded_into {
    use kwire::error::DecodeErrorKind;
    use kwire::message::Message;
    use kwire::messages::metadata_request::MetadataRequestTopic;
    use kwire::messages::metadata_response::{MetadataResponsePartition, MetadataResponseTopic};
    use kwire::messages::{MetadataRequest, MetadataResponse};
    use kwire::Bytes;

    fn topic(name: &str, partitions: i32) -> MetadataResponseTopic {
        MetadataResponseTopic {
            name: Some(name.into()),
            is_internal: partitions == 2,
            partitions: (0..partitions)
                .map(|i| MetadataResponsePartition {
                    partition_index: i,
                    leader_id: 10 + i,
                    replica_nodes: (0..i).collect(),
                    isr_nodes: vec![i; 2],
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    fn shapes() -> Vec<MetadataResponse> {
        let response = |topics| MetadataResponse { controller_id: 3, topics, ..Default::default() };
        vec![
            response(vec![]),
            response(vec![topic("a", 0)]),
            response(vec![topic("a", 3), topic("bb", 1)]),
            response(vec![topic("ccc", 2), topic("", 0), topic("d", 4), topic("e", 1), topic("f", 0)]),
        ]
    }

    #[test]
    fn metadata_response_every_shape_into_every_shape() {
        for version in MetadataResponse::VERSIONS.min..=MetadataResponse::VERSIONS.max {
            let encoded: Vec<Bytes> = shapes().iter().map(|m| m.to_bytes(version).unwrap()).collect();
            for (i, from) in encoded.iter().enumerate() {
                for (j, to) in encoded.iter().enumerate() {
                    let mut value = MetadataResponse::decode_exact(from.clone(), version).unwrap();
                    let mut rest = to.clone();
                    value.decode_into(&mut rest, version).unwrap();
                    assert!(rest.is_empty());
                    let fresh = MetadataResponse::decode_exact(to.clone(), version).unwrap();
                    assert_eq!(value, fresh, "v{version}: shape {j} decoded into shape {i}");
                    // v0 lacks ControllerId and IsInternal; from v1 on every field of the shapes travels.
                    if version >= 1 {
                        assert_eq!(value, shapes()[j], "v{version}: shape {j}");
                    }
                }
            }
        }
    }

    #[test]
    fn nullable_array_null_empty_and_full_into_each_other() {
        let topic = |name: &str| MetadataRequestTopic { name: Some(name.into()), ..Default::default() };
        let shapes = [None, Some(vec![]), Some(vec![topic("a")]), Some(vec![topic("b"), topic("c"), topic("d")])];
        for version in 1..=MetadataRequest::VERSIONS.max {
            for from in &shapes {
                for to in &shapes {
                    let from = MetadataRequest { topics: from.clone(), ..Default::default() };
                    let to = MetadataRequest { topics: to.clone(), ..Default::default() };
                    let mut value = from.clone();
                    value.decode_into(&mut to.to_bytes(version).unwrap(), version).unwrap();
                    assert_eq!(value.topics, to.topics, "v{version}: {:?} into {:?}", to.topics, from.topics);
                }
            }
        }
    }

    #[test]
    fn null_where_an_array_is_not_nullable() {
        // MetadataResponse v12 topics (compact null 00), v0 brokers (classic
        // null ffffffff, and any other negative count), and a partition's
        // replica nodes (an array of int32): refused whatever the value held.
        let cases: [(i16, &str, &str, usize); 4] = [
            (12, "00000000 01 00 ffffffff 00 00", "topics", 10),
            (0, "ffffffff 00000000", "brokers", 0),
            (0, "fffffffe 00000000", "brokers", 0),
            (12, "00000000 01 00 ffffffff 02 0000 02 74 00000000000000000000000000000000 00 02 0000 00000000 00000000 ffffffff 00 01 01 00 80000000 00 00", "topics[0].partitions[0].replica_nodes", 47),
        ];
        for (version, bytes, path, offset) in cases {
            let bytes = Bytes::from(hex::decode(bytes.replace(' ', "")).unwrap());
            for mut value in shapes() {
                let err = value.decode_into(&mut bytes.clone(), version).unwrap_err();
                assert_eq!(err.kind(), &DecodeErrorKind::NullNotAllowed, "{err}");
                assert_eq!(err.offset(), offset, "{err}");
                assert_eq!(
                    err.to_string(),
                    format!(
                        "MetadataResponse v{version}: {path}: null is not allowed at this version (offset {offset})"
                    )
                );
                assert_eq!(MetadataResponse::decode_exact(bytes.clone(), version).unwrap_err(), err);
            }
        }
    }

    #[test]
    fn hostile_counts_are_refused_before_any_element() {
        // Compact and classic counts far past the input, into a value that has
        // topics: CountTooLarge at the offset after the count.
        let cases: [(i16, &str, u64, usize, usize); 2] = [
            (12, "00000000 01 00 ffffffff ffffffff0f 00", 4294967294, 1, 15),
            (0, "00000000 7fffffff 00", 2147483647, 1, 8),
        ];
        for (version, bytes, count, remaining, offset) in cases {
            let bytes = Bytes::from(hex::decode(bytes.replace(' ', "")).unwrap());
            let mut value = shapes().pop().unwrap();
            let err = value.decode_into(&mut bytes.clone(), version).unwrap_err();
            assert_eq!(err.kind(), &DecodeErrorKind::CountTooLarge { count, remaining }, "{err}");
            assert_eq!(err.offset(), offset, "{err}");
            assert_eq!(MetadataResponse::decode_exact(bytes, version).unwrap_err(), err);
        }
        // A count of 3 topics passes the 1-byte-each check on the 3 bytes left;
        // the first topic's name is then short.
        let bytes = Bytes::from(hex::decode("00000000 01 00 ffffffff 04 0000 02".replace(' ', "")).unwrap());
        let mut value = shapes().pop().unwrap();
        let err = value.decode_into(&mut bytes.clone(), 12).unwrap_err();
        assert_eq!(err.to_string(), "MetadataResponse v12: topics[0].name: need 1 bytes, have 0 (offset 14)");
        assert_eq!(MetadataResponse::decode_exact(bytes, 12).unwrap_err(), err);
    }
}

/// Api key, version, request frame and response frame.
type Frames = Vec<(i16, i16, kwire::Bytes, kwire::Bytes)>;

/// Request and response frames of every api key and version, from samples.
fn sample_frames(seed: u64) -> Result<Frames, Box<dyn std::error::Error>> {
    use kwire::frame;
    let mut out = Vec::new();
    for info in API_INFO {
        for version in info.valid_versions.min..=info.valid_versions.max {
            let mut g = SampleGen::new(seed ^ ((info.api_key.code() as u64) << 16) ^ version as u64);
            let mut header = RequestHeader::sample(&mut g, info.request_header_version(version));
            (header.request_api_key, header.request_api_version) = (info.api_key.code(), version);
            let body = RequestBody::sample(info.api_key, &mut g, version).ok_or("request sample")?;
            let mut buf = BytesMut::new();
            frame::RequestFrame::encode_parts(&header, &body, &mut buf)?;
            let request = buf.split().freeze();
            let response_header = ResponseHeader::sample(&mut g, info.response_header_version(version));
            let response = ResponseBody::sample(info.api_key, &mut g, version).ok_or("response sample")?;
            frame::ResponseFrame::encode_parts(&response_header, &response, version, &mut buf)?;
            out.push((info.api_key.code(), version, request, buf.split().freeze()));
        }
    }
    Ok(out)
}

/// `RequestFrame::decode_into` and `ResponseFrame::decode_into` into one kept
/// frame, across api keys (the body replaced) and within one (the body
/// decoded in place over another sample at another version), give what
/// the fresh decoders give, and fail as they fail on every truncation.
#[test]
fn frames_decoded_into_a_kept_frame_equal_fresh_ones() -> Result<(), Box<dyn std::error::Error>> {
    use kwire::frame::{self, RequestFrame, ResponseFrame};
    let (first, second) = (sample_frames(1)?, sample_frames(2)?);
    // A kept request frame starts as the first frame decoded fresh.
    let mut request = RequestFrame::decode(second[0].2.clone())?;
    let mut response = ResponseFrame::default();
    let mut checked = 0;
    // Each frame decoded over the other seed's frame of the previous entry
    // (mostly the same api key at the version before: in place; at a new api
    // key: replaced) and over the other seed's frame of the same api key and
    // version (in place, other values).
    for (i, (api_key, version, request_bytes, response_bytes)) in first.iter().enumerate() {
        for earlier in [&second[i.saturating_sub(1)], &second[i]] {
            request.decode_into(earlier.2.clone())?;
            response.decode_into(
                earlier.3.clone(),
                kwire::api::ApiKey::try_from(earlier.0).expect("a known api key"),
                earlier.1,
            )?;
            request.decode_into(request_bytes.clone())?;
            assert_eq!(request, frame::RequestFrame::decode(request_bytes.clone())?, "api {api_key} v{version}");
            response.decode_into(
                response_bytes.clone(),
                kwire::api::ApiKey::try_from(*api_key).expect("a known api key"),
                *version,
            )?;
            let fresh = frame::ResponseFrame::decode(
                response_bytes.clone(),
                kwire::api::ApiKey::try_from(*api_key).expect("a known api key"),
                *version,
            )?;
            assert_eq!(response, fresh, "api {api_key} v{version}");
        }
        for cut in 0..request_bytes.len() {
            let want = frame::RequestFrame::decode(request_bytes.slice(..cut)).map(|_| ()).map_err(|e| e.to_string());
            let got = request.decode_into(request_bytes.slice(..cut)).map_err(|e| e.to_string());
            assert_eq!(got, want, "api {api_key} v{version}, request cut at {cut}");
        }
        for cut in 0..response_bytes.len() {
            let prefix = response_bytes.slice(..cut);
            let want = frame::ResponseFrame::decode(
                prefix.clone(),
                kwire::api::ApiKey::try_from(*api_key).expect("a known api key"),
                *version,
            )
            .map(|_| ())
            .map_err(|e| e.to_string());
            let got = response
                .decode_into(prefix, kwire::api::ApiKey::try_from(*api_key).expect("a known api key"), *version)
                .map_err(|e| e.to_string());
            assert_eq!(got, want, "api {api_key} v{version}, response cut at {cut}");
        }
        checked += 1;
    }
    assert!(checked > 250, "{checked}");
    Ok(())
}
