//! The table of supported apis in docs/apis.md is rendered from the api-key
//! table; this test fails when they differ. `KWIRE_BLESS=1 cargo test --test
//! apis_table` rewrites the table.

use kwire::api::{Listener, API_INFO};
use kwire::message::VersionRange;

const START: &str = "<!-- apis:start -->";
const END: &str = "<!-- apis:end -->";

fn range(r: VersionRange) -> String {
    r.to_string()
}

fn render() -> String {
    let mut out =
        String::from("| api key | name | versions | flexible | deprecated | listeners |\n|---:|---|---|---|---|---|\n");
    for info in API_INFO {
        let listeners: Vec<&str> = info
            .listeners
            .iter()
            .map(|l| match l {
                Listener::ZkBroker => "zkBroker",
                Listener::Broker => "broker",
                Listener::Controller => "controller",
                other => panic!("listener {other:?} has no name in the docs/apis.md table yet: add it here"),
            })
            .collect();
        let unstable = if info.latest_version_unstable { " (latest unstable)" } else { "" };
        out.push_str(&format!(
            "| {} | {} | {}{unstable} | {} | {} | {} |\n",
            info.api_key.code(),
            info.name,
            range(info.valid_versions),
            range(info.flexible_versions),
            range(info.deprecated_versions),
            listeners.join(", ")
        ));
    }
    out
}

#[test]
fn docs_list_every_api_and_version() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/apis.md");
    let readme = std::fs::read_to_string(&path).expect("docs/apis.md");
    let (Some(start), Some(end)) = (readme.find(START), readme.find(END)) else {
        panic!("docs/apis.md lacks the {START} … {END} markers");
    };
    let table = render();
    let current = &readme[start + START.len()..end];
    if current.trim() != table.trim() {
        if kwire_testkit::bless() {
            let updated = format!("{}{START}\n{table}{}", &readme[..start], &readme[end..]);
            std::fs::write(&path, updated).expect("docs/apis.md written");
            return;
        }
        panic!("docs/apis.md's api table is stale; refresh it with:\n    KWIRE_BLESS=1 cargo test --test apis_table\n\nexpected:\n{table}");
    }
}
