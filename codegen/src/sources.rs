//! Schema text on its way to the model, shared by the compiler and the
//! evolution checker: the files read ([`Sources`], with the ones that are
//! not UTF-8 located), each text parsed and lowered as the compiler reads
//! it or as the release that shipped it did ([`Reading`]), and each
//! diagnostic given the line of its JSON path.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::diag::{self, Diagnostics, JsonPath};
use crate::load::{self, LoadError};
use crate::model::MessageSpec;
use crate::{check, lines, lower, Error};

/// The schema files of a [`Builder`](crate::Builder)'s inputs, read.
#[derive(Default)]
pub(crate) struct Sources {
    /// File name (or path, where names collide) and text.
    pub(crate) texts: Vec<(String, String)>,
    /// The path each file name was read from.
    pub(crate) paths: BTreeMap<String, String>,
    /// The files that are not UTF-8.
    pub(crate) not_utf8: Diagnostics,
}

impl Sources {
    /// Reads `files`. A schema is named by its file
    /// name (generated docs say where each message comes from), or by its
    /// path where two inputs share a file name, so that diagnostics find the
    /// right file.
    ///
    /// # Errors
    /// [`Error::Io`] for a file that cannot be read.
    pub(crate) fn read(files: &[PathBuf]) -> Result<Sources, Error> {
        let mut sources = Sources::default();
        let file_name = |path: &Path| path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let mut uses: BTreeMap<String, usize> = BTreeMap::new();
        for path in files {
            *uses.entry(file_name(path)).or_default() += 1;
        }
        for path in files {
            let bytes = std::fs::read(path).map_err(|source| Error::Io { path: path.clone(), source })?;
            let name = file_name(path);
            let name = if uses.get(&name).is_some_and(|&n| n > 1) { path.display().to_string() } else { name };
            sources.paths.insert(name.clone(), path.display().to_string());
            match String::from_utf8(bytes) {
                Ok(text) => sources.texts.push((name, text)),
                Err(e) => {
                    sources.not_utf8.0.push(not_utf8_diagnostic(&name, e.as_bytes(), e.utf8_error().valid_up_to()));
                }
            }
        }
        Ok(sources)
    }

    /// `result`, failing also for the files that were not UTF-8, with every
    /// diagnostic naming its file by the path it was given as.
    pub(crate) fn check_utf8<T>(&self, result: Result<T, Error>) -> Result<T, Error> {
        let mut not_utf8 = self.not_utf8.clone();
        let result = match result {
            Ok(value) if not_utf8.is_empty() => Ok(value),
            Ok(_) => Err(Error::Schema(not_utf8)),
            Err(Error::Schema(mut diags)) => {
                diags.0.append(&mut not_utf8.0);
                diags.0.sort();
                Err(Error::Schema(diags))
            }
            Err(other) => Err(other),
        };
        result.map_err(|e| match e {
            Error::Schema(mut diags) => {
                for d in &mut diags.0 {
                    d.file = self.path(&d.file);
                }
                Error::Schema(diags)
            }
            other => other,
        })
    }

    /// The path a file name was read from.
    pub(crate) fn path(&self, name: &str) -> String {
        self.paths.get(name).cloned().unwrap_or_else(|| name.to_owned())
    }
}

/// A schema file that is not UTF-8: where its first bad byte is.
fn not_utf8_diagnostic(file: &str, bytes: &[u8], at: usize) -> diag::Diagnostic {
    // The bytes before `at` are valid UTF-8 (`at` is where validity ends).
    let before = bytes.get(..at).and_then(|b| std::str::from_utf8(b).ok()).unwrap_or_default();
    let (line, column) = load::line_col(before, before.len());
    diag::Diagnostic {
        file: file.to_owned(),
        path: diag::JsonPath::root(),
        message: format!("line {line}, column {column}: the file is not UTF-8"),
        line: Some(line),
    }
}

/// Parses and lowers every source, sorted by file name, and runs the checks
/// that span messages; per-message errors go to `diags`.
pub(crate) fn lower_sources(sources: &[(String, String)], diags: &mut Diagnostics) -> Vec<MessageSpec> {
    lower_sources_as(sources, Reading::Strict, diags)
}

/// How schema text is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// As the compiler reads schemas: one JSON value, `flexibleVersions`
    /// required (Kafka's generator of today).
    Strict,
    /// As the Kafka release that shipped a schema read it: text after the
    /// root object is ignored (Jackson's default, which let Kafka 2.8's
    /// DescribeProducersRequest.json ship with a stray `]}`), a missing
    /// `flexibleVersions` means `none` (as before Kafka required it), and an
    /// inline struct without `versions` takes its `taggedVersions` (Kafka
    /// 3.5's FetchRequest.json `ReplicaState`).
    Historical,
}

/// Gives every field that defines an inline struct and has `taggedVersions`
/// but no `versions` its tagged versions as versions, in the whole tree
/// (to [`lines::MAX_DEPTH`] levels).
fn tagged_structs_versioned(value: &mut serde_json::Value, depth: usize) {
    if depth > lines::MAX_DEPTH {
        return;
    }
    match value {
        serde_json::Value::Object(obj) => {
            if obj.contains_key("fields") && !obj.contains_key("versions") {
                if let Some(tagged) = obj.get("taggedVersions").cloned() {
                    obj.insert("versions".into(), tagged);
                }
            }
            for child in obj.values_mut() {
                tagged_structs_versioned(child, depth + 1);
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(|v| tagged_structs_versioned(v, depth + 1)),
        _ => {}
    }
}

fn lower_sources_as(sources: &[(String, String)], reading: Reading, diags: &mut Diagnostics) -> Vec<MessageSpec> {
    let mut sorted: Vec<&(String, String)> = sources.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let mut specs: Vec<MessageSpec> = Vec::new();
    for (file, text) in sorted {
        let parsed = match reading {
            Reading::Strict => load::parse(text),
            Reading::Historical => load::parse_first(text).map(|mut json| {
                if let Some(obj) = json.as_object_mut() {
                    obj.entry("flexibleVersions").or_insert_with(|| "none".into());
                }
                tagged_structs_versioned(&mut json, 0);
                json
            }),
        };
        match parsed {
            Ok(json) => specs.extend(lower::lower(file, &json, diags)),
            Err(e) => {
                let line = match &e {
                    load::LoadError::Syntax { line, .. } | load::LoadError::UnterminatedComment { line, .. } => *line,
                };
                diags.error(file, &JsonPath::root(), e.to_string());
                if let Some(d) = diags.0.last_mut() {
                    d.line = Some(line);
                }
            }
        }
    }
    check::check_api_pairs(&specs, diags);
    specs
}

/// The schemas of `sources` as the Kafka release that shipped them read
/// them ([`Reading::Historical`]), lowered and checked: what [`diff`](crate::diff) compares.
pub(crate) fn load_historical(sources: &[(String, String)]) -> Result<Vec<MessageSpec>, Error> {
    load_checked_as(sources, Reading::Historical)
}

pub(crate) fn load_checked_as(sources: &[(String, String)], reading: Reading) -> Result<Vec<MessageSpec>, Error> {
    let mut diags = Diagnostics::default();
    let specs = lower_sources_as(sources, reading, &mut diags);
    for spec in &specs {
        check::check(spec, &mut diags);
    }
    locate(&mut diags, sources);
    diags.into_result()?;
    Ok(specs)
}

/// The 1-based line where `path` (or its longest prefix found) starts in
/// `file`, one of `sources`.
pub(crate) fn line_of(sources: &[(String, String)], file: &str, path: &JsonPath) -> Option<usize> {
    let (_, text) = sources.iter().find(|(n, _)| n == file)?;
    let blank = load::blank_comments(text).ok()?;
    let mut parts = path.parts();
    if parts.is_empty() {
        // The root: the line of its opening brace.
        return blank.find('{').map(|at| load::line_col(&blank, at).0);
    }
    let map = lines::lines(&blank);
    while !parts.is_empty() {
        if let Some(&line) = map.get(&parts) {
            return Some(line);
        }
        parts.pop();
    }
    None
}

/// Fills in the line of each diagnostic: the line of the longest prefix of
/// its path found in its file (syntax errors already carry theirs).
pub(crate) fn locate(diags: &mut Diagnostics, sources: &[(String, String)]) {
    let mut cache: BTreeMap<&str, std::collections::HashMap<Vec<lines::Part>, usize>> = BTreeMap::new();
    for d in &mut diags.0 {
        if d.line.is_some() || d.path.parts().is_empty() {
            continue;
        }
        let Some((name, text)) = sources.iter().find(|(n, _)| *n == d.file) else { continue };
        let map = cache
            .entry(name)
            .or_insert_with(|| load::blank_comments(text).map(|t| lines::lines(&t)).unwrap_or_default());
        let mut parts = d.path.parts();
        while !parts.is_empty() {
            if let Some(&line) = map.get(&parts) {
                d.line = Some(line);
                break;
            }
            parts.pop();
        }
    }
}

/// Reads a schema file's text as the compiler does, without compiling it:
/// JSON with `//` and `/* */` comments (Kafka's schema files open with a
/// licence comment), a leading byte-order mark skipped, nothing after the
/// root value, duplicate keys keeping the last value as Kafka's parser does.
/// For tools that read a schema's own keys (`name`, `apiKey`,
/// `validVersions`, `about`, …).
///
/// ```
/// let json = kwire_codegen::parse_schema("// licence\n{\"name\": \"X\", \"apiKey\": 18}").unwrap();
/// assert_eq!(json["name"], "X");
/// assert_eq!(json["apiKey"], 18);
/// let err = kwire_codegen::parse_schema("{}\n{}").unwrap_err();
/// assert_eq!(err.to_string(), "line 2, column 1: trailing characters");
/// ```
///
/// # Errors
/// [`LoadError`] with the line and column of the first problem.
pub fn parse_schema(text: &str) -> Result<serde_json::Value, LoadError> {
    load::parse(text)
}
