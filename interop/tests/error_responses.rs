//! The forwarding broker's error responses (`kwire_broker::forward::
//! error_response`) against Kafka's own `getErrorResponse`: for random
//! requests of every forwardable api at every version both read, Kafka parses the
//! request's bytes, builds its error response for the same error (the
//! error's own exception, throttle time 0, as a forwarding broker answers
//! a failed envelope), and the two responses must be the same bytes, ours
//! given Kafka's own message for the error (which Kafka writes in some
//! responses and this crate does not carry).

mod common;

use common::oracle::{hex_word, Oracle};
use kwire::error_code::ErrorCode;
use kwire::messages::RequestBody;
use kwire::sample::SampleGen;
use kwire::BytesMut;
use kwire_broker::forward::{error_response_with_message, forwardable_apis};

#[test]
fn forwarding_error_responses_are_kafkas() {
    let Some(launcher) = common::kafka_oracle("4.4.0") else { return };
    let mut oracle = Oracle::start(&launcher);
    // The versions Kafka 4.4 still reads (KIP-896 dropped the oldest of
    // some apis), by api key: "ok KEY:MIN-MAX:..." per api.
    let kafka_versions: std::collections::BTreeMap<i16, (i16, i16)> = oracle
        .ask("versions")
        .split(' ')
        .skip(1)
        .filter_map(|word| {
            let mut parts = word.split(':');
            let key = parts.next()?.parse().ok()?;
            let (min, max) = parts.next()?.split_once('-')?;
            Some((key, (min.parse().ok()?, max.parse().ok()?)))
        })
        .collect();
    let mut g = SampleGen::new(38);
    let (mut questions, mut cases) = (Vec::new(), Vec::new());
    for info in forwardable_apis() {
        let (min, max) = kafka_versions[&info.api_key.code()];
        for version in info.valid_versions.min.max(min)..=info.valid_versions.max.min(max) {
            for code in [ErrorCode::NotController, ErrorCode::InvalidRequest, ErrorCode::UnknownServerError] {
                for _ in 0..6 {
                    let request = RequestBody::sample(info.api_key, &mut g, version).expect("sample");
                    let mut bytes = BytesMut::new();
                    request.encode(&mut bytes, version).expect("encodes");
                    questions.push(format!(
                        "errresp {} {version} 0 {} - {}",
                        info.api_key.code(),
                        code.code(),
                        hex_word(&bytes)
                    ));
                    cases.push((info.name, version, code, request));
                }
            }
        }
    }
    let answers = oracle.ask_all(&questions);
    let (mut agreed, mut refused) = (0, 0);
    let mut differ = Vec::new();
    let mut compared = std::collections::BTreeSet::new();
    for ((name, version, code, request), answer) in cases.iter().zip(&answers) {
        let words: Vec<&str> = answer.split(' ').collect();
        if words[0] != "ok" {
            // Kafka's request classes refuse some random requests (ACLs
            // with unknown enum values, say): nothing to compare.
            assert!(answer.to_lowercase().contains("unknown elements"), "{name} v{version}: Kafka answered {answer}");
            refused += 1;
            continue;
        }
        let own = (words[2] != "-").then(|| String::from_utf8(hex::decode(words[2]).expect("hex")).expect("UTF-8"));
        let ours = error_response_with_message(request, *version, *code, own.as_deref()).expect("forwardable");
        let mut bytes = BytesMut::new();
        ours.encode(&mut bytes, *version).expect("encodes");
        if hex_word(&bytes) == words[1] {
            agreed += 1;
            compared.insert((*name, *version));
        } else if differ.iter().all(|(n, v, _): &(&str, i16, String)| (n, v) != (name, version)) {
            differ.push((*name, *version, format!("{code:?}\n  kwire {}\n  kafka {}", hex_word(&bytes), words[1])));
        }
    }
    oracle.finish();
    println!("{agreed} agreed, {refused} refused by Kafka's request classes, {} api versions differ", differ.len());
    let lines: Vec<String> = differ.iter().map(|(n, v, d)| format!("{n} v{v} {d}")).collect();
    assert!(differ.is_empty(), "{}", lines.join("\n"));
    // Every version of every forwardable api was compared at least once.
    assert_eq!(compared.len(), questions.len() / 18, "api versions compared: {compared:?}");
}
