//! Borrowed views (feature `borrowed`) against the owned messages, on every
//! request and response body and frame at every version with random
//! values, and on every truncation of them: the view turns into exactly the value the owned
//! decode gives, and fails exactly where and how the owned decode fails.
#![cfg(all(feature = "borrowed", feature = "sample"))]

use kwire::api::{ApiKey, API_INFO};
use kwire::error::{DecodeError, DecodeErrorKind};
use kwire::message::{Message, MessageView};
use kwire::messages::request_header::RequestHeaderRef;
use kwire::messages::{RequestBody, RequestBodyRef, RequestHeader, ResponseBody, ResponseBodyRef};
use kwire::primitives::{FixedArray, IntoOwned, Reader};
use kwire::sample::{Sample, SampleGen};
use kwire::{Bytes, BytesMut};
use proptest::prelude::*;

/// Every request and response body at every version, encoded from a sample.
fn encodings(seed: u64) -> Vec<(ApiKey, i16, bool, Bytes)> {
    let mut out = Vec::new();
    for info in API_INFO {
        for version in info.valid_versions.min..=info.valid_versions.max {
            let mut g = SampleGen::new(seed ^ ((info.api_key.code() as u64) << 16) ^ version as u64);
            let mut buf = BytesMut::new();
            if let Some(body) = RequestBody::sample(info.api_key, &mut g, version) {
                if body.encode(&mut buf, version).is_ok() {
                    out.push((info.api_key, version, true, buf.split().freeze()));
                }
            }
            if let Some(body) = ResponseBody::sample(info.api_key, &mut g, version) {
                if body.encode(&mut buf, version).is_ok() {
                    out.push((info.api_key, version, false, buf.split().freeze()));
                }
            }
        }
    }
    out
}

/// The owned decode of `bytes` (and how much it read), as `Debug` text of
/// the body or the error.
fn owned(api_key: ApiKey, version: i16, request: bool, bytes: &Bytes) -> (Result<String, DecodeError>, usize) {
    let mut r = Reader::new(bytes.clone());
    let body = match request {
        true => RequestBody::decode_from(api_key, &mut r, version).map(|b| format!("{b:?}")),
        false => ResponseBody::decode_from(api_key, &mut r, version).map(|b| format!("{b:?}")),
    };
    (body, r.offset())
}

/// The view's decode of the same bytes, turned into the owned body.
fn viewed(api_key: ApiKey, version: i16, request: bool, bytes: &[u8]) -> (Result<String, DecodeError>, usize) {
    let mut r = Reader::new(bytes);
    let body = match request {
        true => RequestBodyRef::decode_from(api_key, &mut r, version).map(|b| format!("{:?}", b.into_owned())),
        false => ResponseBodyRef::decode_from(api_key, &mut r, version).map(|b| format!("{:?}", b.into_owned())),
    };
    (body, r.offset())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn views_decode_what_owned_values_decode(seed in any::<u64>()) {
        for (api_key, version, request, bytes) in encodings(seed) {
            let (want, read) = owned(api_key, version, request, &bytes);
            let want = want.map_err(|e| TestCaseError::fail(format!("api {api_key:?} v{version}: {e}")))?;
            prop_assert_eq!(read, bytes.len());
            let (got, read) = viewed(api_key, version, request, &bytes);
            prop_assert_eq!(got.ok(), Some(want), "api {:?} v{} request {}", api_key, version, request);
            prop_assert_eq!(read, bytes.len());
        }
    }
}

#[test]
fn views_fail_where_and_as_owned_values_fail() {
    let (mut checked, mut invalid_utf8) = (0, 0);
    for (api_key, version, request, bytes) in encodings(7) {
        // Every prefix, and each encoding with one byte set to 0xff.
        for cut in 0..bytes.len() {
            let prefix = bytes.slice(..cut);
            let (want, _) = owned(api_key, version, request, &prefix);
            let (got, _) = viewed(api_key, version, request, &prefix);
            assert_eq!(
                got.map_err(|e| e.to_string()),
                want.map_err(|e| e.to_string()),
                "api {api_key:?} v{version}, {cut} bytes"
            );
            let mut mutated = bytes.to_vec();
            mutated[cut] = 0xff;
            let mutated = Bytes::from(mutated);
            let (want, want_read) = owned(api_key, version, request, &mutated);
            let (got, got_read) = viewed(api_key, version, request, &mutated);
            checked += 2;
            // A string byte set to 0xff is not UTF-8 (or a length set to
            // 0xff takes in bytes that are not): the owned value reads it
            // lossily, as Kafka does (U+FFFD), and goes on, to the end or to
            // a later error; a view refuses it there.
            if let Err(e) = &got {
                if *e.kind() == DecodeErrorKind::InvalidUtf8 {
                    match &want {
                        Ok(value) => assert!(format!("{value:?}").contains('\u{fffd}'), "byte {cut}: {value:?}"),
                        Err(later) => assert!(later.offset() > e.offset(), "byte {cut}: {later} after {e}"),
                    }
                    invalid_utf8 += 1;
                    continue;
                }
            }
            assert_eq!(
                got.map_err(|e| e.to_string()),
                want.map_err(|e| e.to_string()),
                "api {api_key:?} v{version}, byte {cut}"
            );
            assert_eq!(got_read, want_read);
        }
    }
    assert!(checked > 10_000, "{checked}");
    assert!(invalid_utf8 > 100, "{invalid_utf8} strings made invalid UTF-8");
}

#[test]
fn a_header_view_borrows_its_client_id() -> Result<(), Box<dyn std::error::Error>> {
    // RequestHeader v2: api key 1 (Fetch), version 12, correlation id 7,
    // client id "kw", no tagged fields.
    let input: &[u8] = &[0, 1, 0, 12, 0, 0, 0, 7, 0, 2, b'k', b'w', 0];
    let header = RequestHeaderRef::decode_exact(input, 2)?;
    assert_eq!((header.request_api_key, header.request_api_version, header.correlation_id), (1, 12, 7));
    let client_id = header.client_id.ok_or("client id")?;
    assert_eq!(client_id, "kw");
    assert!(std::ptr::eq(client_id.as_ptr(), input[10..].as_ptr()), "the client id points into the input");
    let owned: RequestHeader = header.into_owned();
    assert_eq!(owned.to_bytes(2)?, input);

    // `decode` reads from the front and advances past the header.
    let mut rest = &[input, b"body"].concat()[..];
    let mut front = rest;
    RequestHeaderRef::decode(&mut front, 2)?;
    assert_eq!(front, b"body");
    rest = &rest[..3];
    let e = RequestHeaderRef::decode_exact(rest, 2).unwrap_err();
    assert_eq!(e.to_string(), RequestHeader::decode_exact(Bytes::copy_from_slice(rest), 2).unwrap_err().to_string());
    Ok(())
}

#[test]
fn views_read_repeated_and_unordered_known_tags_as_owned_values_do() -> Result<(), Box<dyn std::error::Error>> {
    use kwire::messages::api_versions_response::ApiVersionsResponseRef;
    use kwire::messages::ApiVersionsResponse;
    // ApiVersionsResponse v3: tag 1 (FinalizedFeaturesEpoch, int64) twice,
    // the last value winning; tag 2 (FinalizedFeatures, empty) before tag 1;
    // unknown tag 9 before known tag 1.
    for (hex_input, epoch) in [
        ("0000 01 00000000 02 01 08 0000000000000005 01 08 0000000000000007", 7),
        ("0000 01 00000000 02 02 01 01 01 08 0000000000000005", 5),
        ("0000 01 00000000 02 09 01 aa 01 08 0000000000000005", 5),
    ] {
        let input = hex::decode(hex_input.replace(' ', ""))?;
        let view = ApiVersionsResponseRef::decode_exact(&input, 3)?;
        assert_eq!(view.finalized_features_epoch, epoch, "{hex_input}");
        let owned = ApiVersionsResponse::decode_exact(Bytes::from(input.clone()), 3)?;
        assert_eq!(view.into_owned(), owned, "{hex_input}");
    }
    Ok(())
}

#[test]
fn views_keep_the_reading_limits_of_owned_values() -> Result<(), Box<dyn std::error::Error>> {
    use kwire::error::DecodeErrorKind;
    use kwire::messages::get_telemetry_subscriptions_response::GetTelemetrySubscriptionsResponseRef;
    use kwire::messages::GetTelemetrySubscriptionsResponse;
    use kwire::primitives::ReadLimits;
    // A compact []int8 of 1,000,001 elements, one more than Kafka 4.4 reads.
    let sent =
        GetTelemetrySubscriptionsResponse { accepted_compression_types: vec![1; 1_000_001], ..Default::default() };
    let bytes = sent.to_bytes(0)?;
    let err = GetTelemetrySubscriptionsResponseRef::decode_exact(&bytes, 0).expect_err("over the limit");
    assert_eq!(err.kind(), &DecodeErrorKind::ArrayTooLong { count: 1_000_001, max: 1_000_000 });
    let mut r = Reader::new(&bytes[..]).with_limits(ReadLimits::NONE);
    let view = GetTelemetrySubscriptionsResponseRef::decode_from(&mut r, 0)?;
    assert_eq!(view.into_owned(), sent);
    Ok(())
}

#[test]
fn fixed_width_arrays_are_read_in_place() -> Result<(), Box<dyn std::error::Error>> {
    use kwire::messages::metadata_response::MetadataResponseRef;
    use kwire::messages::MetadataResponse;
    let mut g = SampleGen::new(3);
    let sent = (0..64)
        .map(|_| MetadataResponse::sample(&mut g, 12))
        .find(|m| m.topics.iter().any(|t| t.partitions.iter().any(|p| p.replica_nodes.len() > 1)))
        .ok_or("a sample with a replica list")?;
    let bytes = sent.to_bytes(12)?;
    let view = MetadataResponseRef::decode_exact(&bytes, 12)?;
    let range = bytes.as_ptr_range();
    for (topic, sent_topic) in view.topics.iter().zip(&sent.topics) {
        assert!(range.contains(&topic.name.unwrap_or_default().as_ptr()) || topic.name.is_none_or(str::is_empty));
        for (partition, sent_partition) in topic.partitions.iter().zip(&sent_topic.partitions) {
            let replicas: FixedArray<'_, i32> = partition.replica_nodes;
            assert_eq!(replicas.to_vec(), sent_partition.replica_nodes);
            if !replicas.is_empty() {
                assert!(range.contains(&replicas.as_bytes().as_ptr()));
            }
        }
    }
    assert_eq!(view.into_owned(), sent);
    Ok(())
}

/// Whole request and response frames (header and body) of every api key
/// and version: the frame views turn into what `decode_request` and
/// `decode_response` give, leniently too (3 stray bytes after the body),
/// and fail as they fail on every truncation.
#[test]
fn frame_views_decode_what_owned_frames_decode() -> Result<(), Box<dyn std::error::Error>> {
    use kwire::frame;
    use kwire::messages::ResponseHeader;
    let mut frames = 0;
    for info in API_INFO {
        for version in info.valid_versions.min..=info.valid_versions.max {
            let mut g = SampleGen::new(((info.api_key.code() as u64) << 16) ^ version as u64);
            let header_version = info.request_header_version(version);
            let mut header = RequestHeader::sample(&mut g, header_version);
            (header.request_api_key, header.request_api_version) = (info.api_key.code(), version);
            let body = RequestBody::sample(info.api_key, &mut g, version).ok_or("request sample")?;
            let mut buf = BytesMut::new();
            frame::RequestFrame::encode_parts(&header, &body, &mut buf)?;
            let bytes = buf.split().freeze();
            assert_eq!(
                frame::RequestFrameRef::decode(&bytes)?.into_owned(),
                frame::RequestFrame::decode(bytes.clone())?
            );

            let response_header = ResponseHeader::sample(&mut g, info.response_header_version(version));
            let response = ResponseBody::sample(info.api_key, &mut g, version).ok_or("response sample")?;
            frame::ResponseFrame::encode_parts(&response_header, &response, version, &mut buf)?;
            let response_bytes = buf.split().freeze();
            let view = frame::ResponseFrameRef::decode(&response_bytes, info.api_key, version)?;
            assert_eq!(view.into_owned(), frame::ResponseFrame::decode(response_bytes.clone(), info.api_key, version)?);

            // Lenient: the same frames with 3 stray bytes after the body.
            let padded = [&bytes[..], &[0xab, 0xcd, 0xef]].concat();
            let (view, trailing) = frame::RequestFrameRef::decode_lenient(&padded)?;
            let owned = frame::RequestFrame::decode_lenient(padded.clone().into())?;
            assert_eq!((view.into_owned(), trailing), owned);
            assert_eq!(owned, (frame::RequestFrame::decode(bytes.clone())?, 3));
            let padded = [&response_bytes[..], &[0xab, 0xcd, 0xef]].concat();
            let (view, trailing) = frame::ResponseFrameRef::decode_lenient(&padded, info.api_key, version)?;
            let owned = frame::ResponseFrame::decode_lenient(padded.clone().into(), info.api_key, version)?;
            assert_eq!((view.into_owned(), trailing), owned);
            assert_eq!(owned.1, 3);

            for cut in 0..bytes.len() {
                let want = frame::RequestFrame::decode(bytes.slice(..cut)).map(|_| ()).map_err(|e| e.to_string());
                let got = frame::RequestFrameRef::decode(&bytes[..cut]).map(|_| ()).map_err(|e| e.to_string());
                assert_eq!(got, want, "api {} v{version}, {cut} bytes", info.api_key.code());
            }
            for cut in 0..response_bytes.len() {
                let prefix = response_bytes.slice(..cut);
                let want = frame::ResponseFrame::decode(prefix.clone(), info.api_key, version).map(|f| f.version);
                let got = frame::ResponseFrameRef::decode(&prefix, info.api_key, version).map(|f| f.version);
                assert_eq!(got.map_err(|e| e.to_string()), want.map_err(|e| e.to_string()));
            }
            frames += 2;
        }
    }
    assert!(frames > 500, "{frames}");
    Ok(())
}

/// An ApiVersions response at v0 read as the v3 the request asked for:
/// both decoders fall back to v0 and say so.
#[test]
fn an_api_versions_response_falls_back_to_v0_in_views_too() -> Result<(), Box<dyn std::error::Error>> {
    use kwire::frame;
    use kwire::messages::api_versions_response::ApiVersion;
    use kwire::messages::{ApiVersionsResponse, ResponseHeader};
    let body = ApiVersionsResponse {
        error_code: 35, // UNSUPPORTED_VERSION
        api_keys: vec![ApiVersion { api_key: 18, min_version: 0, max_version: 2, ..Default::default() }],
        ..Default::default()
    };
    let bytes = [ResponseHeader { correlation_id: 4, ..Default::default() }.to_bytes(0)?, body.to_bytes(0)?].concat();
    let view = frame::ResponseFrameRef::decode(&bytes, kwire::api::ApiKey::ApiVersions, 3)?;
    assert_eq!((view.version, view.header.correlation_id), (0, 4));
    let owned = frame::ResponseFrame::decode(Bytes::copy_from_slice(&bytes), kwire::api::ApiKey::ApiVersions, 3)?;
    assert_eq!(owned.version, 0);
    assert_eq!(view.into_owned(), owned);
    Ok(())
}
