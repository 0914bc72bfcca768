//! The `admin` and `controller` features: the api keys each compiles
//! (`api_groups` of `kafka-facts.json`), the api-key table that lists every api key
//! whatever is compiled, and the error for a body that is not compiled.
//! CI runs this file with every feature and with none.

/// The api keys of each group of `kafka-facts.json`, by the table's names.
mod api_groups {
    use std::sync::LazyLock;

    fn group(name: &str) -> Vec<i16> {
        let facts: serde_json::Value =
            serde_json::from_str(include_str!("../kafka-facts.json")).expect("kafka-facts.json is JSON");
        let apis = facts["api_groups"][name]["apis"].as_array().expect("the group lists apis");
        apis.iter()
            .map(|api| {
                let api = api.as_str().expect("an api name");
                let info = kwire::messages::API_INFO.iter().find(|i| i.name == api);
                info.unwrap_or_else(|| panic!("{api} is not in the table")).api_key.code()
            })
            .collect()
    }

    pub static CORE: LazyLock<Vec<i16>> = LazyLock::new(|| group("core"));
    pub static ADMIN: LazyLock<Vec<i16>> = LazyLock::new(|| group("admin"));
    pub static CONTROLLER: LazyLock<Vec<i16>> = LazyLock::new(|| group("controller"));
}

use std::collections::BTreeSet;

use kwire::error::DecodeErrorKind;
use kwire::messages::{RequestBody, RequestHeader, ResponseBody, API_INFO};
use kwire::primitives::Reader;

fn compiled(api_key: i16) -> bool {
    api_groups::CORE.contains(&api_key)
        || (cfg!(feature = "admin") && api_groups::ADMIN.contains(&api_key))
        || (cfg!(feature = "controller") && api_groups::CONTROLLER.contains(&api_key))
}

#[test]
fn the_groups_split_the_api_keys_of_the_table() {
    let table: BTreeSet<i16> = API_INFO.iter().map(|i| i.api_key.code()).collect();
    let groups = [&*api_groups::CORE, &*api_groups::ADMIN, &*api_groups::CONTROLLER];
    let listed: Vec<i16> = groups.iter().flat_map(|g| g.iter().copied()).collect();
    let distinct: BTreeSet<i16> = listed.iter().copied().collect();
    assert_eq!(listed.len(), distinct.len(), "an api key is in two groups");
    assert_eq!(distinct, table, "every api key of the table in exactly one group");
    // The controller group is the api keys no broker listener serves, Envelope excepted.
    for info in API_INFO {
        let broker = info.listeners.contains(&kwire::api::Listener::Broker);
        let controller_only = !broker && info.name != "Envelope";
        assert_eq!(api_groups::CONTROLLER.contains(&info.api_key.code()), controller_only, "{}", info.name);
    }
}

#[test]
fn bodies_decode_for_compiled_api_keys_only_and_the_table_stays_whole() {
    assert_eq!(API_INFO.len(), 95);
    let mut not_compiled = 0;
    for info in API_INFO {
        assert_eq!(info.compiled, compiled(info.api_key.code()), "{}", info.name);
        let v = info.valid_versions.min;
        let empty = || Reader::new(kwire::Bytes::new());
        let results = [
            RequestBody::decode_from(info.api_key, &mut empty(), v).err().map(|e| e.kind().clone()),
            ResponseBody::decode_from(info.api_key, &mut empty(), v).err().map(|e| e.kind().clone()),
        ];
        for kind in results {
            if compiled(info.api_key.code()) {
                assert_ne!(kind, Some(DecodeErrorKind::ApiKeyNotCompiled(info.api_key.code())), "{}", info.name);
            } else {
                assert_eq!(kind, Some(DecodeErrorKind::ApiKeyNotCompiled(info.api_key.code())), "{}", info.name);
                not_compiled += 1;
            }
        }
    }
    let expected = 2 * API_INFO.iter().filter(|i| !compiled(i.api_key.code())).count();
    assert_eq!(not_compiled, expected);
    if cfg!(all(feature = "admin", feature = "controller")) {
        assert_eq!(not_compiled, 0);
    }
    // An api key outside the table is unknown, compiled groups or not.
    let head = kwire::Bytes::from_static(&[0x03, 0xe7, 0, 0, 0, 0, 0, 1]); // api key 999, v0, correlation id 1
    let err = kwire::frame::RequestFrame::decode(head).unwrap_err();
    assert_eq!(*err.kind(), DecodeErrorKind::UnknownApiKey(999));
}

/// A CreateTopics v7 request frame (flexible: header v2): decoded whole with
/// `admin`; without it the header still decodes by the api-key table, and
/// the body fails with `ApiKeyNotCompiled`.
#[test]
fn a_frame_of_an_api_key_not_compiled_keeps_its_header() -> Result<(), kwire::error::DecodeError> {
    let frame: &[u8] = &[
        0, 19, 0, 7, 0, 0, 0, 42, // api key 19, version 7, correlation id 42
        0, 1, b'c', // client id "c" (a classic nullable string in every header version)
        0,    // header tagged fields
        1,    // topics: compact array of 0
        0, 0, 0x75, 0x30, // timeout_ms 30000
        0,    // validate_only false
        0,    // body tagged fields
    ];
    let info = kwire::api::api_info(19).expect("CreateTopics is in the table");
    assert_eq!(info.request_header_version(7), 2);
    let mut r = Reader::new(kwire::Bytes::from_static(frame));
    let header = <RequestHeader as kwire::message::Message>::decode_from(&mut r, 2)?;
    assert_eq!((header.request_api_key, header.correlation_id), (19, 42));
    match kwire::frame::RequestFrame::decode(kwire::Bytes::from_static(frame)) {
        Ok(decoded) => {
            assert!(compiled(19));
            assert_eq!(decoded.header, header);
            assert_eq!(decoded.body.api_key(), kwire::api::ApiKey::CreateTopics);
        }
        Err(e) => {
            assert!(!compiled(19));
            assert_eq!(*e.kind(), DecodeErrorKind::ApiKeyNotCompiled(19));
            assert!(e.to_string().contains("api key 19 is not compiled into this build"), "{e}");
        }
    }
    Ok(())
}
