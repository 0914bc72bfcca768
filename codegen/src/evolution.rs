//! Schema evolution: what an edit of a schema set does to the bytes of each
//! version, found by comparing the wire layout of two sets version by
//! version.
//!
//! The layout of a message at version `v` is what a peer at `v` writes and
//! reads: whether `v` is flexible (compact lengths and a tagged-field
//! section), the fields present at `v` in order, each with its wire type,
//! whether it may be null, whether it travels as a tagged field and under
//! which tag, its default where that decides what is written (tagged fields
//! equal to their default are left out), and nested structs likewise.
//! Names, about texts and the keys with no wire effect (`mapKey`,
//! `entityType`, `ignorable`, `zeroCopy`) are not part of it.
//!
//! Each [`Finding`] names the file, the JSON path, the [`Versions`] affected and
//! its [`Rule`]; [`Rule::is_breaking`] tells which ones break peers that
//! already run the old schema. Messages are matched by name, and requests
//! and responses that were renamed by their api key.
//!
//! ```
//! use kwire_codegen::evolution::Rule;
//! let old = r#"{ "type": "data", "name": "Point", "validVersions": "0", "flexibleVersions": "0+",
//!   "fields": [ { "name": "X", "type": "int32", "versions": "0+", "about": "x" } ] }"#;
//! let new = r#"{ "type": "data", "name": "Point", "validVersions": "0-1", "flexibleVersions": "0+",
//!   "fields": [ { "name": "X", "type": "int64", "versions": "0+", "about": "x" } ] }"#;
//! let report = kwire_codegen::evolution::compare_sources(
//!     &[("Point.json".into(), old.into())],
//!     &[("Point.json".into(), new.into())],
//! ).unwrap();
//! assert!(report.is_breaking());
//! let rules: Vec<Rule> = report.findings.iter().map(|f| f.rule).collect();
//! assert_eq!(rules, [Rule::VersionsAdded, Rule::LayoutChanged]);
//! assert_eq!(
//!     report.findings[1].to_string(),
//!     "Point.json:2: fields[0] (X): v0: layout-changed: type int32 became int64"
//! );
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::diag::JsonPath;
use crate::model::{DefaultValue, Field, FieldType, MessageSpec, SpecType};
pub use crate::versions::{ParseVersionsError, Versions};

/// What kind of change a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// A version both sets have is written differently: a field added,
    /// removed, retyped or reordered; nullability, flexibility, a tag or the
    /// default of a tagged field changed; a tagged field removed; a nested
    /// struct changed. Breaking.
    LayoutChanged,
    /// Versions the old set has and the new one lacks. Breaking: peers that
    /// send them are refused.
    VersionsRemoved,
    /// A message the old set has and the new one lacks. Breaking.
    MessageRemoved,
    /// A change confined to a version the old set marks unstable
    /// (`latestVersionUnstable`). Not breaking: nobody may rely on it.
    UnstableChanged,
    /// Versions the new set adds. Not breaking.
    VersionsAdded,
    /// A message the new set adds. Not breaking.
    MessageAdded,
    /// A tagged field added to a version both sets have. Not breaking: old
    /// readers skip tags they do not know.
    TaggedFieldAdded,
    /// A change that touches no byte: a field, struct or message renamed, a
    /// type renamed within one wire encoding (`bytes`, `records`), the
    /// default of a field that is not tagged. Not breaking.
    NoWireEffect,
    /// About texts changed, counted per message. Not breaking.
    Documentation,
}

impl Rule {
    /// True for the rules that break peers running the old schema.
    pub fn is_breaking(self) -> bool {
        matches!(self, Rule::LayoutChanged | Rule::VersionsRemoved | Rule::MessageRemoved)
    }

    /// The rule's name as printed, e.g. `layout-changed`.
    pub fn name(self) -> &'static str {
        match self {
            Rule::LayoutChanged => "layout-changed",
            Rule::VersionsRemoved => "versions-removed",
            Rule::MessageRemoved => "message-removed",
            Rule::UnstableChanged => "unstable-changed",
            Rule::VersionsAdded => "versions-added",
            Rule::MessageAdded => "message-added",
            Rule::TaggedFieldAdded => "tagged-field-added",
            Rule::NoWireEffect => "no-wire-effect",
            Rule::Documentation => "documentation",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One change between the old and the new schema set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The message, by its name in the new set (the old one when removed).
    pub message: String,
    /// The schema file the path is in: the new set's, or the old set's for
    /// what the new set no longer has.
    pub file: String,
    /// Where in that file.
    pub path: JsonPath,
    /// True when `file` and `path` are in the old set (what the new set no
    /// longer has), false when they are in the new set.
    pub in_old: bool,
    /// The 1-based line where the path starts, when it could be found.
    pub line: Option<usize>,
    /// The versions affected (message versions).
    pub versions: Versions,
    /// What kind of change.
    pub rule: Rule,
    /// What changed, e.g. `type int32 became int64`.
    pub detail: String,
}

impl fmt::Display for Finding {
    /// `file:line: path: vN: rule: detail` (`vA-B` for a range; without
    /// `:line` when it is unknown).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        write!(f, ": {}: v{}: {}: {}", self.path, self.versions, self.rule, self.detail)
    }
}

/// Every finding of a comparison, by file and path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// The findings, sorted by file, path and versions.
    pub findings: Vec<Finding>,
}

impl Report {
    /// True when any finding breaks peers running the old schema.
    pub fn is_breaking(&self) -> bool {
        self.findings.iter().any(|f| f.rule.is_breaking())
    }

    /// How many findings each rule has, in rule order.
    pub fn counts(&self) -> BTreeMap<Rule, usize> {
        let mut counts = BTreeMap::new();
        for f in &self.findings {
            *counts.entry(f.rule).or_insert(0) += 1;
        }
        counts
    }
}

impl fmt::Display for Report {
    /// One finding a line, then `breaking: N findings (rule: n, ...)` or
    /// `compatible: ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for finding in &self.findings {
            writeln!(f, "{finding}")?;
        }
        let counts: Vec<String> = self.counts().iter().map(|(rule, n)| format!("{rule}: {n}")).collect();
        write!(
            f,
            "{}: {} finding(s){}",
            if self.is_breaking() { "breaking" } else { "compatible" },
            self.findings.len(),
            if counts.is_empty() { String::new() } else { format!(" ({})", counts.join(", ")) }
        )
    }
}

/// Compares two schema sets already loaded and checked.
pub(crate) fn compare(old: &[MessageSpec], new: &[MessageSpec]) -> Report {
    let mut raw = Vec::new();
    let mut matched = vec![false; new.len()];
    for o in old {
        let found = new.iter().position(|n| n.name == o.name).or_else(|| {
            // A request or response renamed: the same api key.
            matches!(o.spec_type, SpecType::Request | SpecType::Response)
                .then(|| new.iter().position(|n| n.spec_type == o.spec_type && n.api_key == o.api_key))
                .flatten()
        });
        match found {
            Some(i) if !matched[i] => {
                matched[i] = true;
                compare_message(o, &new[i], unstable_latest(old, o), new, &mut raw);
            }
            _ if o.valid_versions.is_empty() => {}
            _ => raw.push(Raw::old(o, &JsonPath::root(), all(o), Rule::MessageRemoved, "message removed".into())),
        }
    }
    for (n, _) in new.iter().zip(&matched).filter(|(n, m)| !**m && !n.valid_versions.is_empty()) {
        raw.push(Raw::new(n, &JsonPath::root(), all(n), Rule::MessageAdded, "message added".into()));
    }
    Report { findings: merge(raw) }
}

/// Whether a message's latest version is unstable: its own
/// `latestVersionUnstable`, or for a response that of its request.
fn unstable_latest(set: &[MessageSpec], spec: &MessageSpec) -> bool {
    spec.latest_version_unstable
        || (spec.spec_type == SpecType::Response
            && set.iter().any(|r| {
                r.spec_type == SpecType::Request
                    && r.api_key == spec.api_key
                    && r.latest_version_unstable
                    && r.valid_versions.hi == spec.valid_versions.hi
            }))
}

/// Every version of a message, as a list.
fn all(spec: &MessageSpec) -> Vec<i16> {
    versions(spec.valid_versions)
}

fn versions(range: Versions) -> Vec<i16> {
    if range.is_empty() {
        Vec::new()
    } else {
        (range.lo..=range.hi).collect()
    }
}

/// A finding before its versions are merged into ranges.
struct Raw {
    in_old: bool,
    message: String,
    file: String,
    path: JsonPath,
    versions: Vec<i16>,
    rule: Rule,
    detail: String,
}

impl Raw {
    fn new(spec: &MessageSpec, path: &JsonPath, versions: Vec<i16>, rule: Rule, detail: String) -> Raw {
        let (message, file, path) = (spec.name.clone(), spec.file.clone(), path.clone());
        Raw { in_old: false, message, file, path, versions, rule, detail }
    }

    fn old(spec: &MessageSpec, path: &JsonPath, versions: Vec<i16>, rule: Rule, detail: String) -> Raw {
        Raw { in_old: true, ..Raw::new(spec, path, versions, rule, detail) }
    }
}

/// One finding per (file, path, rule, detail) and run of consecutive versions.
fn merge(raw: Vec<Raw>) -> Vec<Finding> {
    type Key = (bool, String, JsonPath, Rule, String);
    let mut by_key: BTreeMap<Key, (String, Vec<i16>)> = BTreeMap::new();
    for r in raw {
        let key = (r.in_old, r.file, r.path, r.rule, r.detail);
        by_key.entry(key).or_insert_with(|| (r.message, Vec::new())).1.extend(r.versions);
    }
    let mut out = Vec::new();
    for ((in_old, file, path, rule, detail), (message, mut vs)) in by_key {
        vs.sort_unstable();
        vs.dedup();
        let mut i = 0;
        while i < vs.len() {
            let mut j = i;
            while j + 1 < vs.len() && vs[j + 1] == vs[j] + 1 {
                j += 1;
            }
            out.push(Finding {
                message: message.clone(),
                file: file.clone(),
                path: path.clone(),
                in_old,
                line: None,
                versions: Versions::new(vs[i], vs[j]),
                rule,
                detail: detail.clone(),
            });
            i = j + 1;
        }
    }
    out.sort_by(|a, b| (&a.file, &a.path, a.versions.lo, a.rule).cmp(&(&b.file, &b.path, b.versions.lo, b.rule)));
    out
}

/// The version a message writes on the wire for each schema version: the
/// schema version itself, except for a coordinator record key of one
/// version, which is written under its record type (`apiKey`). Kafka 4.1
/// turned the `data` keys of its coordinator records (`"validVersions":
/// "8"`) into `coordinator-key` schemas (`"apiKey": 8`, `"validVersions":
/// "0"`): the same bytes.
fn wire_versions(spec: &MessageSpec) -> Vec<(i16, i16)> {
    match (spec.spec_type, spec.api_key) {
        (SpecType::CoordinatorKey, Some(key)) if spec.valid_versions.lo == spec.valid_versions.hi => {
            all(spec).into_iter().map(|v| (key, v)).collect()
        }
        _ => all(spec).into_iter().map(|v| (v, v)).collect(),
    }
}

fn compare_message(o: &MessageSpec, n: &MessageSpec, old_unstable: bool, new_set: &[MessageSpec], raw: &mut Vec<Raw>) {
    let root = JsonPath::root();
    if o.name != n.name {
        raw.push(Raw::new(n, &root.key("name"), all(n), Rule::NoWireEffect, format!("renamed from {}", o.name)));
    }
    let (ow, nw) = (wire_versions(o), wire_versions(n));
    let unstable = |v: i16| old_unstable && v == o.valid_versions.hi;
    let in_new = |w: i16| nw.iter().find(|(x, _)| *x == w).map(|(_, v)| *v);
    let mut removed: Vec<(i16, i16)> = ow.iter().copied().filter(|(w, _)| in_new(*w).is_none()).collect();
    // A key version that became a coordinator key of its own (Kafka 4.1's
    // LegacyOffsetCommitKey, api key 0, was OffsetCommitKey v0): moved, not
    // removed, when it is written the same.
    removed.retain(|&(w, ov)| {
        let Some(moved) = moved_key(o, w, ov, new_set) else { return true };
        let detail = format!("version {w} moved to {}", moved.name);
        raw.push(Raw::new(moved, &root.key("apiKey"), vec![w], Rule::NoWireEffect, detail));
        false
    });
    let (gone_unstable, gone): (Vec<_>, Vec<_>) = removed.into_iter().partition(|&(_, v)| unstable(v));
    let wires = |list: Vec<(i16, i16)>| list.into_iter().map(|(w, _)| w).collect::<Vec<i16>>();
    if !gone.is_empty() {
        raw.push(Raw::old(
            o,
            &root.key("validVersions"),
            wires(gone),
            Rule::VersionsRemoved,
            "versions removed".into(),
        ));
    }
    if !gone_unstable.is_empty() {
        let detail = "unstable version removed".into();
        raw.push(Raw::old(o, &root.key("validVersions"), wires(gone_unstable), Rule::UnstableChanged, detail));
    }
    let added: Vec<(i16, i16)> = nw.iter().copied().filter(|(w, _)| !ow.iter().any(|(x, _)| x == w)).collect();
    if !added.is_empty() {
        let detail = if n.latest_version_unstable && added.iter().any(|(_, v)| *v == n.valid_versions.hi) {
            "versions added (the latest unstable)"
        } else {
            "versions added"
        };
        raw.push(Raw::new(n, &root.key("validVersions"), wires(added), Rule::VersionsAdded, detail.into()));
    }
    let mut docs = 0usize;
    count_about(&o.fields, &n.fields, &mut docs);
    if docs > 0 {
        let detail = format!("about texts of {docs} field(s) changed");
        raw.push(Raw::new(n, &root, wires(nw.clone()), Rule::Documentation, detail));
    }
    for (w, ov) in ow.iter().copied() {
        let Some(nv) = in_new(w) else { continue };
        let mut found = Vec::new();
        let (of, nf) = (o.flexible_versions.contains(ov), n.flexible_versions.contains(nv));
        if of != nf {
            let detail = format!("flexible {} became {}", yes(of), yes(nf));
            found.push((false, root.key("flexibleVersions"), Rule::LayoutChanged, detail));
        }
        let (os, ns) = (Side { spec: o, v: ov }, Side { spec: n, v: nv });
        compare_structs(&os, &o.fields, &ns, &n.fields, &mut found);
        for (in_old, path, mut rule, detail) in found {
            if unstable(ov) && rule.is_breaking() {
                rule = Rule::UnstableChanged;
            }
            let spec = if in_old { o } else { n };
            raw.push(Raw { in_old, ..Raw::new(spec, &path, vec![w], rule, detail) });
        }
    }
}

/// The coordinator key of `new_set` written as record type `w` with the
/// layout `o` has at version `ov`, if any.
fn moved_key<'a>(o: &MessageSpec, w: i16, ov: i16, new_set: &'a [MessageSpec]) -> Option<&'a MessageSpec> {
    if !matches!(o.spec_type, SpecType::Data | SpecType::CoordinatorKey) {
        return None;
    }
    new_set.iter().find(|m| {
        m.name != o.name
            && wire_versions(m).iter().any(|&(mw, mv)| {
                if mw != w || m.spec_type != SpecType::CoordinatorKey {
                    return false;
                }
                let mut found = Vec::new();
                let (os, ms) = (Side { spec: o, v: ov }, Side { spec: m, v: mv });
                if o.flexible_versions.contains(ov) != m.flexible_versions.contains(mv) {
                    return false;
                }
                compare_structs(&os, &o.fields, &ms, &m.fields, &mut found);
                !found.iter().any(|(_, _, rule, _)| rule.is_breaking())
            })
    })
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// Counts same-named fields whose about texts differ, recursively.
fn count_about(old: &[Field], new: &[Field], n: &mut usize) {
    for o in old {
        if let Some(m) = new.iter().find(|m| m.name == o.name) {
            if m.about.trim() != o.about.trim() {
                *n += 1;
            }
            count_about(&o.fields, &m.fields, n);
        }
    }
}

/// One message at one version.
struct Side<'a> {
    spec: &'a MessageSpec,
    v: i16,
}

impl<'a> Side<'a> {
    /// The fields present at this version, in file order.
    fn present<'f>(&self, fields: &'f [Field]) -> Vec<&'f Field> {
        fields.iter().filter(|f| f.versions.contains(self.v)).collect()
    }

    fn tag(&self, f: &Field) -> Option<u32> {
        f.tagged_versions.contains(self.v).then_some(f.tag).flatten()
    }

    fn nullable(&self, f: &Field) -> bool {
        f.nullable_versions.contains(self.v)
    }

    /// Compact encoding of this field's length at this version.
    fn compact(&self, f: &Field) -> bool {
        match &f.flexible_versions {
            Some(flex) => flex.contains(self.v),
            None => self.spec.flexible_versions.contains(self.v),
        }
    }

    /// The name and fields of the struct a field holds (inline or common).
    fn struct_fields(&self, f: &'a Field) -> Option<(&'a str, &'a [Field])> {
        let name = f.ty.struct_name()?;
        if !f.fields.is_empty() {
            return Some((name, &f.fields));
        }
        self.spec.common_structs.iter().find(|c| c.name == name).map(|c| (name, c.fields.as_slice()))
    }
}

/// The wire encoding of a type: `records`, `ApiMessage` and `Header` are
/// written as `bytes`; structs by shape, not by name.
fn wire_type(ty: &FieldType) -> String {
    match ty {
        FieldType::Records | FieldType::ApiMessage | FieldType::Header => "bytes".into(),
        FieldType::Array(inner) => format!("[]{}", wire_type(inner)),
        FieldType::Struct(_) => "struct".into(),
        other => other.to_string(),
    }
}

/// The value a default stands for, so that `"0"` and no default compare equal.
fn effective_default(f: &Field) -> String {
    match (&f.default, &f.ty) {
        (DefaultValue::Natural, FieldType::Bool) => "false".into(),
        (
            DefaultValue::Natural,
            FieldType::Int8
            | FieldType::Int16
            | FieldType::Uint16
            | FieldType::Int32
            | FieldType::Uint32
            | FieldType::Int64,
        ) => "0".into(),
        (DefaultValue::Natural, FieldType::Float64) => "0".into(),
        (DefaultValue::Natural, FieldType::String) => "\"\"".into(),
        (DefaultValue::Natural, FieldType::Uuid) | (DefaultValue::Uuid(0), _) => "zero uuid".into(),
        (DefaultValue::Natural, _) => "empty".into(),
        (DefaultValue::Null, _) => "null".into(),
        (DefaultValue::Bool(b), _) => b.to_string(),
        (DefaultValue::Int(i), _) => i.to_string(),
        (DefaultValue::Float(x), _) if *x == 0.0 => "0".into(),
        (DefaultValue::Float(x), _) if x.is_nan() => "NaN".into(),
        (DefaultValue::Float(x), _) => x.to_string(),
        (DefaultValue::Str(s), _) => format!("{s:?}"),
        (DefaultValue::Uuid(u), _) => format!("{u:032x}"),
    }
}

/// Findings at one version: (in the old set, path, rule, detail).
type Found = Vec<(bool, JsonPath, Rule, String)>;

/// The (old, new) struct pairs met so far at one version. A struct's
/// findings name paths inside the struct, the same whichever field reached
/// it, so each pair is compared once per version: a struct holding an array
/// of itself (directly or through others) ends, and structs shared by
/// several fields at each level cost their number, not the number of routes
/// to them.
type Visited<'a> = BTreeSet<(&'a str, &'a str)>;

/// The (old, new) field lists of struct pairs met but not yet compared.
type Pending<'a> = Vec<(&'a [Field], &'a [Field])>;

/// Compares the top-level fields `old` and `new` at one version, then the
/// structs they hold at any depth, each pair once. The structs wait in a
/// list rather than on the call stack, so that the stack does not grow
/// with the nesting depth (a chain of thousands of common structs).
fn compare_structs<'a>(os: &Side<'a>, old: &'a [Field], ns: &Side<'a>, new: &'a [Field], out: &mut Found) {
    let (mut seen, mut pending): (Visited<'a>, Pending<'a>) = (BTreeSet::new(), vec![(old, new)]);
    while let Some((old, new)) = pending.pop() {
        compare_fields(os, old, ns, new, &mut seen, &mut pending, out);
    }
}

/// Compares the fields of one struct at one version; the structs they hold
/// that were not met before go to `pending`.
fn compare_fields<'a>(
    os: &Side<'a>,
    old: &'a [Field],
    ns: &Side<'a>,
    new: &'a [Field],
    seen: &mut Visited<'a>,
    pending: &mut Pending<'a>,
    out: &mut Found,
) {
    let (old, new) = (os.present(old), ns.present(new));
    // Untagged fields, in order.
    let ou: Vec<&Field> = old.iter().copied().filter(|f| os.tag(f).is_none()).collect();
    let nu: Vec<&Field> = new.iter().copied().filter(|f| ns.tag(f).is_none()).collect();
    let same_shape = ou.len() == nu.len() && ou.iter().zip(&nu).all(|(o, n)| wire_type(&o.ty) == wire_type(&n.ty));
    let same_names = ou.len() == nu.len() && ou.iter().zip(&nu).all(|(o, n)| o.name == n.name);
    if same_names || same_shape {
        for (o, n) in ou.iter().zip(&nu) {
            compare_field(os, o, ns, n, seen, pending, out);
        }
    } else {
        for o in &ou {
            match nu.iter().find(|n| n.name == o.name) {
                Some(n) => compare_field(os, o, ns, n, seen, pending, out),
                None => out.push((true, o.path.clone(), Rule::LayoutChanged, format!("field {} removed", o.name))),
            }
        }
        for n in &nu {
            if !ou.iter().any(|o| o.name == n.name) {
                out.push((false, n.path.clone(), Rule::LayoutChanged, format!("field {} added", n.name)));
            }
        }
        let common_old: Vec<&str> =
            ou.iter().filter(|o| nu.iter().any(|n| n.name == o.name)).map(|f| f.name.as_str()).collect();
        let common_new: Vec<&str> =
            nu.iter().filter(|n| ou.iter().any(|o| o.name == n.name)).map(|f| f.name.as_str()).collect();
        if common_old != common_new {
            let path = nu.first().map_or_else(JsonPath::root, |f| f.path.clone());
            out.push((false, path, Rule::LayoutChanged, format!("fields reordered: {}", common_new.join(", "))));
        }
    }
    // Tagged fields, by tag.
    for o in old.iter().filter(|f| os.tag(f).is_some()) {
        let tag = os.tag(o);
        match new.iter().find(|n| ns.tag(n) == tag) {
            Some(n) => compare_field(os, o, ns, n, seen, pending, out),
            None => {
                let detail = format!("tagged field {} (tag {}) removed", o.name, tag.unwrap_or_default());
                out.push((true, o.path.clone(), Rule::LayoutChanged, detail));
            }
        }
    }
    for n in new.iter().filter(|f| ns.tag(f).is_some()) {
        let tag = ns.tag(n);
        if !old.iter().any(|o| os.tag(o) == tag) {
            let detail = format!("tagged field {} (tag {}) added", n.name, tag.unwrap_or_default());
            out.push((false, n.path.clone(), Rule::TaggedFieldAdded, detail));
        }
    }
}

/// Compares one field present at this version in both sets.
fn compare_field<'a>(
    os: &Side<'a>,
    o: &'a Field,
    ns: &Side<'a>,
    n: &'a Field,
    seen: &mut Visited<'a>,
    pending: &mut Pending<'a>,
    out: &mut Found,
) {
    let path = &n.path;
    let mut push = |rule, detail: String| out.push((false, path.clone(), rule, detail));
    if o.name != n.name {
        push(Rule::NoWireEffect, format!("field {} renamed {}", o.name, n.name));
    }
    let (ow, nw) = (wire_type(&o.ty), wire_type(&n.ty));
    if ow != nw {
        push(Rule::LayoutChanged, format!("type {} became {}", o.ty, n.ty));
        return;
    }
    if o.ty != n.ty {
        push(Rule::NoWireEffect, format!("type {} renamed {}", o.ty, n.ty));
    }
    if os.nullable(o) != ns.nullable(n) {
        push(Rule::LayoutChanged, format!("nullable {} became {}", yes(os.nullable(o)), yes(ns.nullable(n))));
    }
    if os.compact(o) != ns.compact(n) && !o.ty.is_number_or_bool() && o.ty != FieldType::Uuid {
        let detail = format!("compact length {} became {}", yes(os.compact(o)), yes(ns.compact(n)));
        push(Rule::LayoutChanged, detail);
    }
    let (od, nd) = (effective_default(o), effective_default(n));
    if od != nd {
        // A tagged field equal to its default is not written.
        let rule = if ns.tag(n).is_some() { Rule::LayoutChanged } else { Rule::NoWireEffect };
        push(rule, format!("default {od} became {nd}"));
    }
    if let (Some((oname, of)), Some((nname, nf))) = (os.struct_fields(o), ns.struct_fields(n)) {
        if seen.insert((oname, nname)) {
            pending.push((of, nf));
        }
    }
}

/// Loads, checks and compares two sets of schema sources (file name, text),
/// read as [`crate::diff`] reads them;
/// the findings carry their lines and come in file and line order.
///
/// # Errors
/// [`crate::Error::Schema`] when either set has an invalid schema.
pub fn compare_sources(old: &[(String, String)], new: &[(String, String)]) -> Result<Report, crate::Error> {
    let mut report = compare(&crate::sources::load_historical(old)?, &crate::sources::load_historical(new)?);
    locate(&mut report, old, new);
    Ok(report)
}

/// Gives each finding its line in its source, and puts the findings in file
/// and line order.
pub(crate) fn locate(report: &mut Report, old: &[(String, String)], new: &[(String, String)]) {
    for f in &mut report.findings {
        f.line = crate::sources::line_of(if f.in_old { old } else { new }, &f.file, &f.path);
    }
    report.findings.sort_by(|a, b| {
        (&a.file, a.line, &a.path, a.versions.lo, a.rule).cmp(&(&b.file, b.line, &b.path, b.versions.lo, b.rule))
    });
}
