//! Importing a release's internal-record families (`kwire-codegen
//! import`): each family's schemas copied from the release into the
//! facts' internal schemas directory with every comment and `about` text
//! left out, each record given the one-sentence description the facts
//! hold for it (`internal_records.families[].records`) as a leading
//! comment, and every other key and value kept in the release's order.
//!
//! Kafka's schema language has no `about` for a whole schema; ours is a
//! `//` comment line, which the compiler skips. What remains is Kafka's
//! wire description alone, so that a file compares with the release's,
//! about texts and comments aside.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::diag::{Diagnostics, JsonPath};
use crate::{Builder, Error, Facts};

/// One family's file as imported: where it goes and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Imported {
    /// The family's directory under the internal schemas, e.g. `metadata`.
    pub family: String,
    /// The schema's file name, e.g. `TopicRecord.json`.
    pub file: String,
    /// The file's text.
    pub text: String,
}

/// The schema of a family, from the release's file text: comments and
/// `about` texts left out, `about` (our description) as the leading
/// comment.
///
/// # Errors
/// [`Error::Schema`] naming `file` and the line when the text is not a
/// schema file's JSON.
pub(crate) fn import_schema(file: &str, text: &str, about: &str) -> Result<String, Error> {
    let json = crate::load::parse(text).map_err(|e| schema_error(file, e.to_string()))?;
    Ok(format!("// {about}\n{}\n", layout(&without_about(&json), 0)))
}

/// The files of every family of `facts`, imported from `release_schemas`
/// (a release's `schemas/` directory, one subdirectory per family).
///
/// # Errors
/// [`Error::Io`] for a directory or file that cannot be read,
/// [`Error::Schema`] for a file that is not JSON, [`Error::Facts`] naming
/// every schema that has no description in the facts.
pub(crate) fn import_families(
    facts: &Facts,
    facts_file: &Path,
    release_schemas: &Path,
) -> Result<Vec<Imported>, Error> {
    let mut out = Vec::new();
    let mut missing = Vec::new();
    for family in &facts.families {
        for path in json_files(&release_schemas.join(&family.dir))? {
            let text = std::fs::read_to_string(&path).map_err(|source| Error::Io { path: path.clone(), source })?;
            let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let shown = path.display().to_string();
            let json = crate::load::parse(&text).map_err(|e| schema_error(&shown, e.to_string()))?;
            let name = json.get("name").and_then(Value::as_str).unwrap_or_default();
            match family.records.get(name) {
                Some(about) => {
                    let text = import_schema(&shown, &text, about)?;
                    out.push(Imported { family: family.dir.clone(), file, text });
                }
                None => missing.push(format!("{}/{file}", family.dir)),
            }
        }
    }
    if !missing.is_empty() {
        let message = format!(
            "internal_records.families[].records: no description for {} (give each a sentence of our own)",
            missing.join(", ")
        );
        return Err(Error::Facts { path: facts_file.to_owned(), message });
    }
    Ok(out)
}

/// Writes the imported files into `internal_dir/FAMILY/`, after removing
/// every `*.json` there (a record the release no longer has goes).
///
/// # Errors
/// [`Error::Io`] naming the directory or file that could not be written.
pub(crate) fn write_families(internal_dir: &Path, families: &[String], files: &[Imported]) -> Result<(), Error> {
    for family in families {
        let dir = internal_dir.join(family);
        std::fs::create_dir_all(&dir).map_err(|source| Error::Io { path: dir.clone(), source })?;
        for old in Builder::new().input_dir(&dir).schema_files()? {
            std::fs::remove_file(&old).map_err(|source| Error::Io { path: old.clone(), source })?;
        }
    }
    for f in files {
        let path: PathBuf = internal_dir.join(&f.family).join(&f.file);
        std::fs::write(&path, &f.text).map_err(|source| Error::Io { path, source })?;
    }
    Ok(())
}

/// The `*.json` files of a directory, sorted.
///
/// # Errors
/// [`Error::Io`] naming the directory when it is not one or cannot be listed.
pub(crate) fn json_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    if !dir.is_dir() {
        let source = std::io::Error::new(std::io::ErrorKind::NotFound, "not a directory");
        return Err(Error::Io { path: dir.to_owned(), source });
    }
    Builder::new().input_dir(dir).schema_files()
}

/// A schema error about a whole file.
pub(crate) fn schema_error(file: &str, message: String) -> Error {
    let mut diags = Diagnostics::default();
    diags.error(file, &JsonPath::root(), message);
    Error::Schema(diags)
}

/// `value` without any `about` key, at any depth.
fn without_about(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter().filter(|(k, _)| *k != "about").map(|(k, v)| (k.clone(), without_about(v))).collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_about).collect()),
        other => other.clone(),
    }
}

/// JSON in the layout of Kafka's schema files: the root object and every
/// object holding `fields` one key a line, a list of objects one object a
/// line (nested field lists indented by two spaces a level), anything else
/// on one line ([`inline`]).
pub(crate) fn layout(value: &Value, indent: usize) -> String {
    let pad = "  ".repeat(indent);
    match value {
        Value::Object(map) if indent == 0 || map.contains_key("fields") => {
            let items: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{pad}  {}: {}", inline(&Value::String(k.clone())), layout(v, indent + 1)))
                .collect();
            format!("{{\n{}\n{pad}}}", items.join(",\n"))
        }
        Value::Array(items) if items.iter().any(Value::is_object) => {
            let items: Vec<String> = items.iter().map(|v| format!("{pad}  {}", layout(v, indent + 1))).collect();
            format!("[\n{}\n{pad}]", items.join(",\n"))
        }
        other => inline(other),
    }
}

/// JSON on one line, items separated by `, ` and keys from values by `: `
/// (the spacing of Kafka's schema files); strings keep every character but
/// quotes, backslashes and control characters, which are escaped.
pub(crate) fn inline(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let items: Vec<String> =
                map.iter().map(|(k, v)| format!("{}: {}", inline(&Value::String(k.clone())), inline(v))).collect();
            format!("{{{}}}", items.join(", "))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(inline).collect::<Vec<_>>().join(", ")),
        // A string, number, bool or null alone is written the one way JSON has.
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_family_schema_keeps_its_wire_keys_in_order_without_prose() {
        let release = r#"// Licensed to the Apache Software Foundation.
{
  "apiKey": 2,
  "type": "metadata",
  "name": "TopicRecord",
  // Version 0 is the first.
  "validVersions": "0",
  "flexibleVersions": "0+",
  "fields": [
    { "name": "Name", "type": "string", "versions": "0+", "entityType": "topicName",
      "about": "The topic name." },
    { "name": "Parts", "type": "[]Part", "versions": "0+", "about": "Parts.", "fields": [
      { "name": "Id", "type": "int32", "versions": "0+", "about": "Id \"quoted\" é." }
    ]},
    { "name": "Tags", "type": "[]string", "versions": "0+", "default": "x/*y*/", "about": "// no comment" }
  ]
}
"#;
        let text = import_schema("TopicRecord.json", release, "A topic, created.").unwrap();
        let expected = r#"// A topic, created.
{
  "apiKey": 2,
  "type": "metadata",
  "name": "TopicRecord",
  "validVersions": "0",
  "flexibleVersions": "0+",
  "fields": [
    {"name": "Name", "type": "string", "versions": "0+", "entityType": "topicName"},
    {
      "name": "Parts",
      "type": "[]Part",
      "versions": "0+",
      "fields": [
        {"name": "Id", "type": "int32", "versions": "0+"}
      ]
    },
    {"name": "Tags", "type": "[]string", "versions": "0+", "default": "x/*y*/"}
  ]
}
"#;
        assert_eq!(text, expected);
    }

    #[test]
    fn inline_escapes_as_json_and_spaces_items() {
        let value: Value = serde_json::from_str(r#"{"a": [1, true, null, "q\"\\\n\u0001é"], "b": {}}"#).unwrap();
        assert_eq!(inline(&value), r#"{"a": [1, true, null, "q\"\\\n\u0001é"], "b": {}}"#);
    }

    #[test]
    fn a_file_that_is_not_json_is_named() {
        let err = import_schema("X.json", "{ \"a\": }", "X.").unwrap_err();
        assert!(err.to_string().starts_with("X.json: (root): line 1"), "{err}");
    }
}
