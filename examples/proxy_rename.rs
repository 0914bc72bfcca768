//! A multi-tenant proxy's core transform, with the entity accessors
//! (`kwire::entity`): every topic name in a request gets the tenant's
//! prefix on the way to the broker, and loses it in the response on the way
//! back, whatever the api key, with no match over api keys.
//!
//! ```text
//! cargo run -p kwire-examples --example proxy_rename
//! ```
//!
//! The frames here are built in place of a socket; a real proxy runs the same
//! two functions on each frame it reads (with `codec::Correlator` to know the
//! api key and version of each response).

use kwire::entity::{Entities, EntityType, EntityValueMut};
use kwire::frame::{self, RequestFrame};
use kwire::messages::metadata_request::MetadataRequestTopic;
use kwire::messages::metadata_response::MetadataResponseTopic;
use kwire::messages::{MetadataRequest, MetadataResponse, RequestHeader, ResponseBody, ResponseHeader};
use kwire::{Bytes, BytesMut};

const TENANT: &str = "tenant-a.";

/// Client → broker: decode, prefix every topic name, encode again.
fn to_broker(frame: Bytes) -> Result<BytesMut, Box<dyn std::error::Error>> {
    let RequestFrame { header, mut body } = frame::RequestFrame::decode(frame)?;
    body.rewrite_entities(header.request_api_version, &mut |e| {
        if let (EntityType::TopicName, EntityValueMut::Str(name)) = (e.entity_type, e.value) {
            *name = format!("{TENANT}{name}").into();
        }
    });
    let mut out = BytesMut::new();
    frame::RequestFrame::encode_parts(&header, &body, &mut out)?;
    Ok(out)
}

/// Broker → client: the same on the response, the prefix taken off.
fn to_client(frame: Bytes, api_key: i16, version: i16) -> Result<BytesMut, Box<dyn std::error::Error>> {
    let mut response = frame::ResponseFrame::decode(frame, kwire::api::ApiKey::try_from(api_key)?, version)?;
    response.body.rewrite_entities(response.version, &mut |e| {
        if let (EntityType::TopicName, EntityValueMut::Str(name)) = (e.entity_type, e.value) {
            if let Some(bare) = name.strip_prefix(TENANT) {
                *name = bare.to_owned().into();
            }
        }
    });
    let mut out = BytesMut::new();
    frame::ResponseFrame::encode_parts(&response.header, &response.body, response.version, &mut out)?;
    Ok(out)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let version = 12;
    // What a client sends: Metadata for topic "orders".
    let header =
        RequestHeader { request_api_key: 3, request_api_version: version, correlation_id: 7, ..Default::default() };
    let request = MetadataRequest {
        topics: Some(vec![MetadataRequestTopic { name: Some("orders".into()), ..Default::default() }]),
        ..Default::default()
    };
    let mut client_frame = BytesMut::new();
    frame::RequestFrame::encode_parts(&header, &request.into(), &mut client_frame)?;

    let upstream = frame::RequestFrame::decode(to_broker(client_frame.freeze())?.freeze())?;
    println!("the broker sees: {:?}", upstream.body);

    // What the broker answers, in the tenant's namespace.
    let answer: ResponseBody = MetadataResponse {
        topics: vec![MetadataResponseTopic { name: Some(format!("{TENANT}orders").into()), ..Default::default() }],
        ..Default::default()
    }
    .into();
    let mut broker_frame = BytesMut::new();
    frame::ResponseFrame::encode_parts(
        &ResponseHeader { correlation_id: 7, ..Default::default() },
        &answer,
        version,
        &mut broker_frame,
    )?;

    let back = frame::ResponseFrame::decode(
        to_client(broker_frame.freeze(), 3, version)?.freeze(),
        kwire::api::ApiKey::Metadata,
        version,
    )?;
    println!("the client sees: {:?}", back.body);
    let ResponseBody::Metadata(metadata) = back.body else { return Err("not a Metadata response".into()) };
    assert_eq!(metadata.topics[0].name.as_deref(), Some("orders"));
    Ok(())
}
