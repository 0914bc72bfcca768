//! Merging Kafka releases' message schemas into a schema set
//! (`kwire-codegen merge`).
//!
//! The result covers every version any release has, and every version the
//! schema set already has: version `v` takes its wire shape from the newest
//! release that has `v` (so an unstable version of an older release takes
//! the shape it was finally given), and a version no release has any more
//! (removed by KIP-896 in Kafka 4.0, or dropped with the ZooKeeper-mode
//! api keys) keeps the shape the schema set gives it. Requests and
//! responses are matched by api key, so a renamed message (api key 74,
//! `ListClientMetricsResources`, is `ListConfigResources` from Kafka 4.0)
//! is one message under its newest name; other schemas by name.
//!
//! Kept from the schema set: the `about` texts and the comments of the
//! fields it already has, the message's leading and version comments, its
//! listeners (the release's are added after them), its
//! `deprecatedVersions`, and the fields that are its own, written as they
//! are: a field typed as an embedded message (`ApiMessage`, `Header`:
//! KIP-590's envelope, where Kafka has `bytes`), and a tagged field that no
//! release has at its place (KIP-590's request-header fields). A field or
//! message that is new gets `"about": ""`, for a text to be written.
//!
//! A message whose wire shape does not change is left as it is, byte for
//! byte: the merged set and the old one are compared with the evolution
//! checker ([`crate::evolution`]), and only a message with a finding other
//! than about texts, or whose latest version became stable or unstable,
//! is written.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::evolution::{Rule, Versions};
use crate::import::{inline, json_files, schema_error};
use crate::Error;

/// What a merge did to one schema file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Change {
    /// A message no file had: its file and versions.
    Added { file: String, versions: String },
    /// A message whose file was rewritten: its file, old and new versions.
    Updated { file: String, old: String, new: String },
    /// A message renamed by the newest release: the old and new file.
    Renamed { old: String, new: String },
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Change::Added { file, versions } => write!(f, "added {file}: versions {versions}"),
            Change::Updated { file, old, new } => write!(f, "updated {file}: versions {old} -> {new}"),
            Change::Renamed { old, new } => write!(f, "renamed {old} -> {new}"),
        }
    }
}

/// What a merge found: the files changed, in the order written, and the
/// conflicts (a wire key of a field that differs between versions), one
/// line each.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Merged {
    pub changes: Vec<Change>,
    pub conflicts: Vec<String>,
}

/// One schema file of the schema set, read.
struct Ours {
    file: String,
    spec: Map<String, Value>,
    text: String,
}

/// A message as merged, before it is compared with the schema set.
struct Candidate {
    /// Its name, the newest release's.
    name: String,
    /// The schema set's file of it, if any.
    mine: Option<usize>,
    text: String,
    versions: String,
    unstable: bool,
}

/// Merges the message schemas of `releases` (each a directory of
/// `*.json`, oldest release first) into the schema set `schemas`, writing
/// the files that change.
///
/// # Errors
/// [`Error::Io`] for what cannot be read or written; [`Error::Schema`] for
/// a file that is not JSON, versions that do not form a range, or a merged
/// set the compiler refuses (naming the file and what is wrong).
pub(crate) fn merge(schemas: &Path, releases: &[PathBuf]) -> Result<Merged, Error> {
    let mut rel: Vec<Vec<(String, Map<String, Value>)>> = Vec::new();
    for dir in releases {
        let mut specs: Vec<(String, Map<String, Value>)> = Vec::new();
        for path in json_files(dir)? {
            let (spec, _) = read(&path)?;
            let name = str_of(&spec, "name");
            match specs.iter_mut().find(|(n, _)| *n == name) {
                Some(slot) => slot.1 = spec,
                None => specs.push((name, spec)),
            }
        }
        rel.push(specs);
    }
    let mut ours: Vec<Ours> = Vec::new();
    for path in json_files(schemas)? {
        let (spec, text) = read(&path)?;
        let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        match ours.iter().position(|o| str_of(&o.spec, "name") == str_of(&spec, "name")) {
            Some(i) => ours[i] = Ours { file, spec, text },
            None => ours.push(Ours { file, spec, text }),
        }
    }
    // Every message, by key, with the names the releases give it in turn.
    let mut groups: BTreeMap<String, (Key, Vec<String>)> = BTreeMap::new();
    for specs in &rel {
        for (name, spec) in specs {
            let k = key(spec);
            groups.entry(k.sort_text()).or_insert_with(|| (k, Vec::new())).1.push(name.clone());
        }
    }
    let mut merged = Merged::default();
    let mut candidates = Vec::new();
    for (k, names) in groups.values() {
        let Some(newest_name) = names.last() else { continue };
        let mine = ours.iter().position(|o| key(&o.spec) == *k);
        let file = format!("{newest_name}.json");
        let candidate = merge_message(k, newest_name, &rel, mine.map(|i| &ours[i]), &mut merged.conflicts)
            .map_err(|message| schema_error(&file, message))?;
        if let Some((text, versions, unstable)) = candidate {
            candidates.push(Candidate { name: newest_name.clone(), mine, text, versions, unstable });
        }
    }
    let changed = changed(&ours, &candidates)?;
    for c in candidates.iter().filter(|c| changed.contains(&c.name)) {
        let file = format!("{}.json", c.name);
        if let Some(i) = c.mine {
            if ours[i].file != file {
                let path = schemas.join(&ours[i].file);
                std::fs::remove_file(&path).map_err(|source| Error::Io { path, source })?;
                merged.changes.push(Change::Renamed { old: ours[i].file.clone(), new: file.clone() });
            }
        }
        let path = schemas.join(&file);
        std::fs::write(&path, &c.text).map_err(|source| Error::Io { path, source })?;
        merged.changes.push(match c.mine {
            Some(i) => Change::Updated {
                file,
                old: ours[i].spec.get("validVersions").map(text_of).unwrap_or_default(),
                new: c.versions.clone(),
            },
            None => Change::Added { file, versions: c.versions.clone() },
        });
    }
    Ok(merged)
}

/// The names of the candidates to write: new messages, renamed ones, and
/// those whose wire shape differs from the schema set's by the evolution
/// checker (any finding but about texts) or whose latest version's
/// stability changed.
fn changed(ours: &[Ours], candidates: &[Candidate]) -> Result<BTreeSet<String>, Error> {
    let old: Vec<(String, String)> = ours.iter().map(|o| (o.file.clone(), o.text.clone())).collect();
    let mut new: Vec<(String, String)> = ours
        .iter()
        .enumerate()
        .filter(|(i, _)| !candidates.iter().any(|c| c.mine == Some(*i)))
        .map(|(_, o)| (o.file.clone(), o.text.clone()))
        .collect();
    new.extend(candidates.iter().map(|c| (format!("{}.json", c.name), c.text.clone())));
    let old_specs = crate::sources::load_historical(&old)?;
    let new_specs = crate::sources::load_historical(&new)?;
    let report = crate::evolution::compare(&old_specs, &new_specs);
    let mut out = BTreeSet::new();
    for c in candidates {
        let Some(i) = c.mine else {
            out.insert(c.name.clone());
            continue;
        };
        let was_unstable = ours[i].spec.get("latestVersionUnstable").is_some_and(truthy);
        let wire = report.findings.iter().any(|f| f.message == c.name && f.rule != Rule::Documentation);
        if wire || str_of(&ours[i].spec, "name") != c.name || was_unstable != c.unstable {
            out.insert(c.name.clone());
        }
    }
    Ok(out)
}

/// How messages are matched across releases: requests and responses by
/// api key, other schemas by name.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Key {
    Api(String, Value),
    Name(String),
}

impl Key {
    /// The order messages are merged and reported in.
    fn sort_text(&self) -> String {
        match self {
            Key::Api(ty, api) => format!("('{ty}', {api})"),
            Key::Name(name) => format!("('name', '{name}')"),
        }
    }
}

fn key(spec: &Map<String, Value>) -> Key {
    let ty = str_of(spec, "type");
    if ty == "request" || ty == "response" {
        Key::Api(ty, spec.get("apiKey").cloned().unwrap_or(Value::Null))
    } else {
        Key::Name(str_of(spec, "name"))
    }
}

/// A message's source at one version: the release's (by index) or the
/// schema set's.
type Sources<'a> = BTreeMap<i16, (Option<usize>, &'a Map<String, Value>)>;

/// The merged text of one message, its versions and whether its latest
/// version is unstable; `None` when no source has a version of it.
fn merge_message(
    k: &Key,
    newest_name: &str,
    rel: &[Vec<(String, Map<String, Value>)>],
    mine: Option<&Ours>,
    log: &mut Vec<String>,
) -> Result<Option<(String, String, bool)>, String> {
    let mut src: Sources = BTreeMap::new();
    for (ri, specs) in rel.iter().enumerate() {
        let Some((_, spec)) = specs.iter().find(|(_, s)| key(s) == *k) else { continue };
        for v in each(range(spec.get("validVersions"), None)?) {
            src.insert(v, (Some(ri), spec));
        }
    }
    if let Some(o) = mine {
        for v in each(range(o.spec.get("validVersions"), None)?) {
            src.entry(v).or_insert((None, &o.spec));
        }
    }
    let (Some((&lo, _)), Some((&top, &(_, newest)))) = (src.first_key_value(), src.last_key_value()) else {
        return Ok(None);
    };
    let mut flex = BTreeSet::new();
    for (_, s) in src.values() {
        if let Some(v) = first(range(s.get("flexibleVersions"), None)?) {
            flex.insert(v);
        }
    }
    if flex.len() > 1 {
        log.push(format!("{newest_name}: flexibleVersions differ across releases: {flex:?}"));
    }
    let released: BTreeSet<i16> = src.iter().filter(|(_, (ri, _))| ri.is_some()).map(|(v, _)| *v).collect();
    let comments = mine.map(|o| comments_by_field(&o.text)).unwrap_or_default();
    let merger = Merger { released: &released, comments: &comments, top };
    let per_version: BTreeMap<i16, &[Value]> = src.iter().map(|(v, (_, s))| (*v, list(s, "fields"))).collect();
    let ours_fields = mine.map(|o| list(&o.spec, "fields"));
    let fields = merger.fields(&per_version, ours_fields, newest_name, log)?;
    let mut common_names: Vec<String> = Vec::new();
    for (_, s) in src.values().rev() {
        for cs in list(s, "commonStructs") {
            let name = cs.get("name").map(text_of).unwrap_or_default();
            if !common_names.contains(&name) {
                common_names.push(name);
            }
        }
    }
    let mut commons = Vec::new();
    for name in &common_names {
        let pv: BTreeMap<i16, &[Value]> =
            src.iter().filter_map(|(v, (_, s))| common(s, name).map(|c| (*v, list(c, "fields")))).collect();
        let ocs = mine.and_then(|o| common(&o.spec, name));
        let Some((_, (_, newest_src))) = pv.keys().last().and_then(|v| src.get_key_value(v)) else { continue };
        let newest_cs = common(newest_src, name);
        let merged_fields =
            merger.fields(&pv, ocs.map(|c| list(c, "fields")), &format!("{newest_name}.{name}"), log)?;
        let mut versions = newest_cs.and_then(|c| c.get("versions")).map(text_of).unwrap_or_else(|| "0+".into());
        if let Some(ocs) = ocs {
            let (theirs, mine) =
                (range(Some(&Value::String(versions.clone())), None)?, range(ocs.get("versions"), None)?);
            if !same(theirs, mine) {
                let low = |r: Versions| if r.is_empty() { 0 } else { r.lo };
                versions = format!("{}+", low(mine).min(low(theirs)));
            }
        }
        commons.push((name.clone(), versions, merged_fields));
    }
    let mut spec = Map::new();
    for k in ["apiKey", "type"] {
        if let Some(v) = newest.get(k) {
            spec.insert(k.into(), v.clone());
        }
    }
    let theirs: Vec<Value> = list(newest, "listeners").to_vec();
    let mut listeners: Vec<Value> = mine.map(|o| list(&o.spec, "listeners").to_vec()).unwrap_or_default();
    for l in theirs {
        if !listeners.contains(&l) {
            listeners.push(l);
        }
    }
    if !listeners.is_empty() || newest.contains_key("listeners") {
        spec.insert("listeners".into(), Value::Array(listeners));
    }
    spec.insert("name".into(), Value::String(newest_name.into()));
    let versions = if top > lo {
        let all: BTreeSet<i16> = src.keys().copied().collect();
        contiguous(&all, top, newest_name)?;
        format!("{lo}-{top}")
    } else {
        top.to_string()
    };
    spec.insert("validVersions".into(), Value::String(versions.clone()));
    if let Some(d) = mine.and_then(|o| o.spec.get("deprecatedVersions")).filter(|d| truthy(d)) {
        spec.insert("deprecatedVersions".into(), d.clone());
    }
    let flexible = match newest.get("flexibleVersions").filter(|v| !v.is_null()) {
        Some(v) => v.clone(),
        None => mine.and_then(|o| o.spec.get("flexibleVersions")).cloned().unwrap_or_else(|| "none".into()),
    };
    spec.insert("flexibleVersions".into(), flexible);
    let unstable = newest.get("latestVersionUnstable").is_some_and(truthy);
    if unstable {
        spec.insert("latestVersionUnstable".into(), Value::Bool(true));
    }
    let (mut before, inner) = mine.map(|o| header_comments(&o.text)).unwrap_or_default();
    if before.is_empty() {
        before = vec![format!("// kwire schema: {newest_name}.")];
    }
    Ok(Some((render(&spec, &fields, &commons, &before, &inner), versions, unstable)))
}

/// What merging fields needs besides the fields: the versions taken from a
/// release, the schema set's comments by field name, the latest version.
struct Merger<'a> {
    released: &'a BTreeSet<i16>,
    comments: &'a BTreeMap<String, Vec<String>>,
    top: i16,
}

/// A merged field, as it is written.
struct Field {
    /// Every key but `about` and `fields`, in order.
    keys: Map<String, Value>,
    about: Value,
    comments: Vec<String>,
    fields: Option<Vec<Field>>,
}

impl Merger<'_> {
    /// Merges the field lists each version has (`per_version`) at one place
    /// (`at`, for messages), with the schema set's list there (`ours`).
    fn fields(
        &self,
        per_version: &BTreeMap<i16, &[Value]>,
        ours: Option<&[Value]>,
        at: &str,
        log: &mut Vec<String>,
    ) -> Result<Vec<Field>, String> {
        let ours: Vec<&Map<String, Value>> = ours.unwrap_or_default().iter().filter_map(Value::as_object).collect();
        let ours_by_name = |name: &str| ours.iter().copied().find(|f| str_of(f, "name") == name);
        let released_names: BTreeSet<String> = per_version
            .iter()
            .filter(|(v, _)| self.released.contains(v))
            .flat_map(|(_, fields)| fields.iter().filter_map(Value::as_object).map(|f| str_of(f, "name")))
            .collect();
        let own = |f: &Map<String, Value>| {
            let ty = str_of(f, "type");
            let ty = ty.strip_prefix("[]").unwrap_or(&ty);
            ty == "ApiMessage"
                || ty == "Header"
                || (f.contains_key("taggedVersions") && !released_names.contains(&str_of(f, "name")))
        };
        // Field order: the newest version's, each older field after the
        // field it follows there.
        let mut order: Vec<String> = Vec::new();
        for (v, fields) in per_version.iter().rev() {
            let mut prev: Option<String> = None;
            for f in fields.iter().filter_map(Value::as_object) {
                if !field_versions(f)?.contains(*v) {
                    continue;
                }
                let name = str_of(f, "name");
                if !order.contains(&name) {
                    let at = prev.as_ref().and_then(|p| order.iter().position(|n| n == p)).map_or(0, |i| i + 1);
                    order.insert(at, name.clone());
                }
                prev = Some(name);
            }
        }
        // Our own fields keep their place after the field they follow.
        let mut prev: Option<String> = None;
        for f in &ours {
            let name = str_of(f, "name");
            if !order.contains(&name) && own(f) {
                let at = prev.as_ref().and_then(|p| order.iter().position(|n| n == p)).map_or(0, |i| i + 1);
                order.insert(at, name.clone());
            }
            if order.contains(&name) {
                prev = Some(name);
            }
        }
        let mut merged = Vec::new();
        for name in &order {
            let mine = ours_by_name(name);
            if let Some(f) = mine.filter(|f| own(f)) {
                merged.push(self.verbatim(f));
                continue;
            }
            let (mut present, mut nullable, mut tagged) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
            let mut attrs: BTreeMap<&str, (Option<Value>, i16)> = BTreeMap::new();
            let mut newest = None;
            let mut sub: BTreeMap<i16, &[Value]> = BTreeMap::new();
            for (v, fields) in per_version {
                let Some(f) = fields.iter().filter_map(Value::as_object).find(|f| str_of(f, "name") == *name) else {
                    continue;
                };
                if !field_versions(f)?.contains(*v) {
                    continue;
                }
                present.insert(*v);
                if range(f.get("nullableVersions"), None)?.contains(*v) {
                    nullable.insert(*v);
                }
                if range(f.get("taggedVersions"), None)?.contains(*v) {
                    tagged.insert(*v);
                }
                for k in ["type", "tag", "default", "flexibleVersions"] {
                    let value = if k == "default" { default_text(f).map(Value::String) } else { f.get(k).cloned() };
                    match attrs.get(k) {
                        Some((first, at_v)) if *first != value => {
                            let show = |x: &Option<Value>| x.as_ref().map_or("none".into(), inline);
                            log.push(format!(
                                "{at}.{name}: {k} {} at v{at_v} but {} at v{v}",
                                show(first),
                                show(&value)
                            ));
                        }
                        Some(_) => {}
                        None => {
                            attrs.insert(k, (value, *v));
                        }
                    }
                }
                newest = Some(f);
                if let Some(Value::Array(list)) = f.get("fields") {
                    sub.insert(*v, list.as_slice());
                }
            }
            let Some(newest) = newest else { continue };
            let mut keys = keys_of(newest);
            keys.insert("versions".into(), Value::String(version_text(&present, self.top, at, name)?));
            if nullable.is_empty() {
                keys.shift_remove("nullableVersions");
            } else {
                let outside: BTreeSet<i16> = present.difference(&nullable).copied().collect();
                keys.insert("nullableVersions".into(), cover(&nullable, &outside, self.top, at, name)?);
            }
            if tagged.is_empty() {
                keys.shift_remove("taggedVersions");
            } else {
                let outside: BTreeSet<i16> = present.difference(&tagged).copied().collect();
                keys.insert("taggedVersions".into(), cover(&tagged, &outside, self.top, at, name)?);
            }
            let fields = if sub.is_empty() {
                None
            } else {
                let ours_sub = mine.map(|m| list(m, "fields"));
                Some(self.fields(&sub, ours_sub, &format!("{at}.{name}"), log)?)
            };
            merged.push(Field {
                keys,
                about: mine.and_then(|m| m.get("about")).cloned().unwrap_or_else(|| "".into()),
                comments: mine.and_then(|_| self.comments.get(name)).cloned().unwrap_or_default(),
                fields,
            });
        }
        Ok(merged)
    }

    /// A field of the schema set as it is, comments and all.
    fn verbatim(&self, f: &Map<String, Value>) -> Field {
        let name = str_of(f, "name");
        Field {
            keys: keys_of(f),
            about: f.get("about").cloned().unwrap_or_else(|| "".into()),
            comments: self.comments.get(&name).cloned().unwrap_or_default(),
            fields: f
                .get("fields")
                .map(|_| list(f, "fields").iter().filter_map(Value::as_object).map(|sub| self.verbatim(sub)).collect()),
        }
    }
}

/// A field's keys but `about` and `fields`, in order.
fn keys_of(f: &Map<String, Value>) -> Map<String, Value> {
    f.iter().filter(|(k, _)| *k != "fields" && *k != "about").map(|(k, v)| (k.clone(), v.clone())).collect()
}

/// The versions a field is present at: `versions`, or its `taggedVersions`
/// when it has none.
fn field_versions(f: &Map<String, Value>) -> Result<Versions, String> {
    range(f.get("versions"), f.get("taggedVersions"))
}

/// A version range of the schema language (`none`, `3`, `1-4`, `2+`; an
/// absent or empty one is none), or `default` where `value` is absent.
fn range(value: Option<&Value>, default: Option<&Value>) -> Result<Versions, String> {
    let text = match value.filter(|v| !v.is_null()).or(default.filter(|v| !v.is_null())) {
        None => return Ok(Versions { lo: 0, hi: -1 }),
        Some(v) => text_of(v),
    };
    if text.trim().is_empty() {
        return Ok(Versions { lo: 0, hi: -1 });
    }
    text.parse::<Versions>().map_err(|e| e.to_string())
}

/// Every version of a closed range (an open one has none to list).
fn each(r: Versions) -> Vec<i16> {
    if r.is_empty() || r.is_open() {
        Vec::new()
    } else {
        (r.lo..=r.hi).collect()
    }
}

fn first(r: Versions) -> Option<i16> {
    (!r.is_empty()).then_some(r.lo)
}

/// Two ranges with the same versions (every empty range the same).
fn same(a: Versions, b: Versions) -> bool {
    (a.is_empty() && b.is_empty()) || a == b
}

fn contiguous(vs: &BTreeSet<i16>, top: i16, at: &str) -> Result<(), String> {
    let (Some(&lo), Some(&hi)) = (vs.iter().find(|v| **v <= top), vs.iter().rev().find(|v| **v <= top)) else {
        return Ok(());
    };
    let count = vs.iter().filter(|v| **v <= top).count();
    if i32::from(hi) - i32::from(lo) + 1 != count as i32 {
        return Err(format!("{at}: versions {vs:?} are not one range"));
    }
    Ok(())
}

/// The shortest version text for `vs` (within 0..=top): `N+` when it
/// reaches `top`.
fn version_text(vs: &BTreeSet<i16>, top: i16, at: &str, name: &str) -> Result<String, String> {
    let mut inside = vs.iter().copied().filter(|v| *v <= top);
    let Some(lo) = inside.next() else { return Ok("none".into()) };
    let hi = inside.next_back().unwrap_or(lo);
    contiguous(vs, top, &format!("{at}.{name}"))?;
    Ok(if hi == top {
        format!("{lo}+")
    } else if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}-{hi}")
    })
}

/// One range holding every version of `inside` and none of `outside`,
/// open where nothing outside stops it.
fn cover(inside: &BTreeSet<i16>, outside: &BTreeSet<i16>, top: i16, at: &str, name: &str) -> Result<Value, String> {
    let mut within = inside.iter().copied().filter(|v| *v <= top);
    let Some(lo) = within.next() else { return Ok(Value::Null) };
    let hi = within.next_back().unwrap_or(lo);
    if outside.iter().any(|v| (lo..=hi).contains(v)) {
        return Err(format!("{at}.{name}: versions {inside:?} cannot be one range without {outside:?}"));
    }
    Ok(Value::String(if !outside.iter().any(|v| *v > hi && *v <= top) {
        format!("{lo}+")
    } else if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}-{hi}")
    }))
}

/// A field's default as text, `true`/`false` for a JSON bool.
fn default_text(f: &Map<String, Value>) -> Option<String> {
    f.get("default").filter(|d| !d.is_null()).map(text_of)
}

/// A JSON value as text: a string's own characters, anything else as JSON.
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::String(s) => !s.is_empty(),
        Value::Number(n) => n.as_f64().is_some_and(|x| x != 0.0),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// The common struct of a schema named `name`.
fn common<'a>(spec: &'a Map<String, Value>, name: &str) -> Option<&'a Map<String, Value>> {
    list(spec, "commonStructs")
        .iter()
        .filter_map(Value::as_object)
        .find(|c| c.get("name").map(text_of).as_deref() == Some(name))
}

fn str_of(spec: &Map<String, Value>, key: &str) -> String {
    spec.get(key).and_then(Value::as_str).unwrap_or_default().to_owned()
}

fn list<'a>(spec: &'a Map<String, Value>, key: &str) -> &'a [Value] {
    match spec.get(key) {
        Some(Value::Array(items)) => items,
        _ => &[],
    }
}

/// The comment lines right before each field, by the field's name (the
/// first field of that name in the file).
fn comments_by_field(text: &str) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let mut pending: Vec<String> = Vec::new();
    for line in text.split('\n') {
        let s = line.trim();
        if s.starts_with("//") {
            pending.push(s.to_owned());
            continue;
        }
        if let Some(name) = field_name_opening(s) {
            if !pending.is_empty() {
                out.entry(name).or_insert_with(|| pending.clone());
            }
        }
        if !s.is_empty() {
            pending.clear();
        }
    }
    out
}

/// The name of a field whose object opens the line: `{ "name": "X"`.
fn field_name_opening(line: &str) -> Option<String> {
    let rest = line.strip_prefix('{')?.trim_start().strip_prefix("\"name\":")?.trim_start().strip_prefix('"')?;
    let end = rest.find('"').filter(|&e| e > 0)?;
    Some(rest[..end].to_owned())
}

/// The comment lines before a schema's opening brace (blank lines left
/// out), and those right before its `validVersions`, trimmed.
fn header_comments(text: &str) -> (Vec<String>, Vec<String>) {
    let before: Vec<String> = match text.find('{') {
        Some(at) if at > 0 => {
            text[..at].trim_end_matches('\n').split('\n').filter(|l| !l.trim().is_empty()).map(str::to_owned).collect()
        }
        _ => Vec::new(),
    };
    let lines: Vec<&str> = text.split('\n').collect();
    let mut inner = Vec::new();
    if let Some(i) = lines.iter().position(|l| l.contains("\"validVersions\"")) {
        let mut j = i;
        while j > 0 && lines[j - 1].trim().starts_with("//") {
            j -= 1;
        }
        inner = lines[j..i].iter().map(|l| l.trim().to_owned()).collect();
    }
    (before, inner)
}

/// The keys of a field in the order they are written; the others follow
/// in their own order, then `about` and `fields`.
const FIELD_KEY_ORDER: [&str; 12] = [
    "name",
    "type",
    "versions",
    "nullableVersions",
    "taggedVersions",
    "tag",
    "default",
    "ignorable",
    "mapKey",
    "entityType",
    "flexibleVersions",
    "zeroCopy",
];

fn write_fields(fields: &[Field], indent: usize, out: &mut Vec<String>) {
    let pad = " ".repeat(indent);
    for (i, f) in fields.iter().enumerate() {
        for c in &f.comments {
            out.push(format!("{pad}{c}"));
        }
        let keys = FIELD_KEY_ORDER
            .iter()
            .filter_map(|k| f.keys.get_key_value(*k))
            .chain(f.keys.iter().filter(|(k, _)| !FIELD_KEY_ORDER.contains(&k.as_str()) && !k.starts_with('_')));
        let head: Vec<String> =
            keys.map(|(k, v)| format!("{}: {}", inline(&Value::String(k.clone())), inline(v))).collect();
        let comma = if i + 1 == fields.len() { "" } else { "," };
        out.push(format!("{pad}{{ {},", head.join(", ")));
        match &f.fields {
            Some(sub) => {
                out.push(format!("{pad}  \"about\": {}, \"fields\": [", inline(&f.about)));
                write_fields(sub, indent + 2, out);
                out.push(format!("{pad}]}}{comma}"));
            }
            None => out.push(format!("{pad}  \"about\": {} }}{comma}", inline(&f.about))),
        }
    }
}

/// A merged schema's text, in the layout of kwire's schema files.
fn render(
    spec: &Map<String, Value>,
    fields: &[Field],
    commons: &[(String, String, Vec<Field>)],
    before: &[String],
    inner: &[String],
) -> String {
    let mut out: Vec<String> = before.to_vec();
    out.push("{".into());
    let key_line = |k: &str, v: &Value| format!("  {}: {},", inline(&Value::String(k.into())), inline(v));
    for k in ["apiKey", "type", "listeners", "name"] {
        if let Some(v) = spec.get(k) {
            out.push(key_line(k, v));
        }
    }
    out.extend(inner.iter().map(|c| format!("  {c}")));
    for k in ["validVersions", "deprecatedVersions", "flexibleVersions", "latestVersionUnstable"] {
        if let Some(v) = spec.get(k) {
            out.push(key_line(k, v));
        }
    }
    out.push("  \"fields\": [".into());
    write_fields(fields, 4, &mut out);
    out.push(format!("  ]{}", if commons.is_empty() { "" } else { "," }));
    if !commons.is_empty() {
        out.push("  \"commonStructs\": [".into());
        for (i, (name, versions, fields)) in commons.iter().enumerate() {
            let (name, versions) = (inline(&Value::String(name.clone())), inline(&Value::String(versions.clone())));
            out.push(format!("    {{ \"name\": {name}, \"versions\": {versions}, \"fields\": ["));
            write_fields(fields, 6, &mut out);
            out.push(format!("    ]}}{}", if i + 1 < commons.len() { "," } else { "" }));
        }
        out.push("  ]".into());
    }
    out.push("}".into());
    out.join("\n") + "\n"
}

/// A schema file's JSON object and text, read as the release that shipped
/// it read it (what follows the root object ignored).
fn read(path: &Path) -> Result<(Map<String, Value>, String), Error> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io { path: path.to_owned(), source })?;
    let shown = path.display().to_string();
    match crate::load::parse_first(&text) {
        Ok(Value::Object(spec)) => Ok((spec, text)),
        Ok(_) => Err(schema_error(&shown, "not a JSON object".into())),
        Err(e) => Err(schema_error(&shown, e.to_string())),
    }
}
