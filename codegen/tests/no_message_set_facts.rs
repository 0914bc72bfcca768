//! The compiler knows no message set of its own: the facts of Kafka's
//! (`kafka-facts.json` beside the workspace's schemas) reach it through
//! `Facts` and `Options`, and none of them is written in its source.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_compilers_source_names_no_api_or_sensitive_field() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let facts = kwire_codegen::Facts::read(root.join("../kafka-facts.json")).expect("kafka-facts.json");
    let mut names: Vec<String> = facts.api_groups.iter().flat_map(|g| g.apis.iter().cloned()).collect();
    names.extend(facts.forwardable.iter().cloned());
    names.extend(facts.cluster_action.iter().cloned());
    names.extend(facts.sensitive_fields.iter().cloned());
    names.extend(facts.families.iter().flat_map(|f| f.framed.iter().cloned()));
    // The apis whose error response departs from their schemas', and the
    // fields and words (not numbers) they depart by.
    for (api, deviation) in &facts.error_responses {
        names.push(api.clone());
        for (field, value) in &deviation.values {
            names.push(field.clone());
            names.extend(value.parse::<i64>().is_err().then(|| value.clone()));
        }
    }
    assert!(names.len() > 100, "the facts list Kafka's apis");
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable source");
        for name in &names {
            if text.contains(&format!("\"{name}\"")) {
                found.push(format!("{}: \"{name}\"", file.strip_prefix(root).unwrap_or(file).display()));
            }
        }
    }
    found.sort();
    found.dedup();
    assert!(found.is_empty(), "the compiler's source names facts of a message set:\n{}", found.join("\n"));
}
