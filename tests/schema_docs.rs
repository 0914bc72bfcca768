//! Every schema in `schemas/` is documented: the file opens with a `//`
//! comment line, and every field, recursively through `fields` and
//! `commonStructs`, has a non-empty `about` text. This test fails with the
//! file and the field path (e.g. `TopicData.PartitionData.Records`, or
//! `commonStructs.Endpoint.Host`) of each gap.

use std::path::Path;

use serde_json::Value;

/// Collects, under `path`, each field of `fields` whose `about` is missing,
/// not a string, or blank; recurses into nested `fields`.
fn check_fields(fields: &Value, path: &str, problems: &mut Vec<String>) {
    let Some(fields) = fields.as_array() else {
        problems.push(format!("{}: `fields` is not an array", if path.is_empty() { "<root>" } else { path }));
        return;
    };
    for (index, field) in fields.iter().enumerate() {
        let name = field.get("name").and_then(Value::as_str).map_or_else(|| format!("#{index}"), str::to_string);
        let here = if path.is_empty() { name } else { format!("{path}.{name}") };
        match field.get("about") {
            None => problems.push(format!("{here}: no `about`")),
            Some(Value::String(text)) if text.trim().is_empty() => problems.push(format!("{here}: empty `about`")),
            Some(Value::String(_)) => {}
            Some(other) => problems.push(format!("{here}: `about` is not a string: {other}")),
        }
        if let Some(nested) = field.get("fields") {
            check_fields(nested, &here, problems);
        }
    }
}

/// The problems of one schema file's text, each as "field path: what".
fn check_schema(text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let first = text.strip_prefix('\u{feff}').unwrap_or(text).lines().next().unwrap_or("");
    if !first.trim_start().starts_with("//") {
        problems.push("first line is not a `//` comment".to_string());
    }
    let schema = match kwire_codegen::parse_schema(text) {
        Ok(schema) => schema,
        Err(e) => {
            problems.push(format!("does not parse: {e}"));
            return problems;
        }
    };
    if let Some(fields) = schema.get("fields") {
        check_fields(fields, "", &mut problems);
    }
    if let Some(structs) = schema.get("commonStructs") {
        match structs.as_array() {
            Some(structs) => {
                for (index, common) in structs.iter().enumerate() {
                    let name =
                        common.get("name").and_then(Value::as_str).map_or_else(|| format!("#{index}"), str::to_string);
                    let here = format!("commonStructs.{name}");
                    match common.get("fields") {
                        Some(fields) => check_fields(fields, &here, &mut problems),
                        None => problems.push(format!("{here}: no `fields`")),
                    }
                }
            }
            None => problems.push("`commonStructs` is not an array".to_string()),
        }
    }
    problems
}

#[test]
fn every_schema_and_field_is_documented() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("schemas/ is readable")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    entries.sort();
    assert!(!entries.is_empty(), "no schema files in {}", dir.display());
    let mut problems = Vec::new();
    for path in &entries {
        let file = path.file_name().expect("file name").to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{file}: {e}"));
        problems.extend(check_schema(&text).into_iter().map(|p| format!("schemas/{file}: {p}")));
    }
    assert!(
        problems.is_empty(),
        "{} documentation gap(s) in {} schema files:\n  {}",
        problems.len(),
        entries.len(),
        problems.join("\n  ")
    );
}

#[test]
fn the_check_finds_gaps() {
    let text = r#"// kwire schema: a test.
{
  "type": "data",
  "name": "Probe",
  "validVersions": "0",
  "flexibleVersions": "none",
  "fields": [
    { "name": "Documented", "type": "int32", "versions": "0+", "about": "a // not a comment" },
    { "name": "Outer", "type": "[]Inner", "versions": "0+", "about": "Outer.", "fields": [
      { "name": "Blank", "type": "int8", "versions": "0+", "about": " " },
      { "name": "Missing", "type": "int8", "versions": "0+" }
    ]}
  ],
  "commonStructs": [
    { "name": "Shared", "versions": "0+", "fields": [
      { "name": "Empty", "type": "string", "versions": "0+", "about": "" }
    ]}
  ]
}
"#;
    assert_eq!(
        check_schema(text),
        ["Outer.Blank: empty `about`", "Outer.Missing: no `about`", "commonStructs.Shared.Empty: empty `about`"]
    );
    let undocumented = text.replacen("// kwire schema: a test.\n", "", 1);
    assert_eq!(check_schema(&undocumented)[0], "first line is not a `//` comment");
}
