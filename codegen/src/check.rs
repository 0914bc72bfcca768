//! Cross-field rules (spec §6, "Gen" rows), one function each, and the
//! struct registry: every struct of a message with the versions its
//! parents allow.

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::{Diagnostics, JsonPath};
use crate::model::{Field, MessageSpec, SpecType};
use crate::naming;
use crate::versions::Versions;

/// A struct to emit: the message body, an inline struct or a common struct.
#[derive(Debug, Clone)]
pub struct StructDef<'a> {
    /// Kafka's name of the struct (the message name for the body).
    pub name: &'a str,
    /// Its fields.
    pub fields: &'a [Field],
    /// Versions in which it can appear (its parents' versions ∩ its own).
    pub versions: Versions,
    /// True for the message body.
    pub is_message: bool,
    /// Its Rust type name, distinct within the message
    /// ([`naming::distinct_type_names`]).
    pub rust_name: String,
    /// The Rust names of its fields, in order
    /// ([`naming::distinct_field_names`]).
    pub rust_fields: Vec<String>,
    /// For each field, the Rust type name of the struct it holds, if any.
    pub field_structs: Vec<Option<String>>,
}

impl<'a> StructDef<'a> {
    fn new(name: &'a str, fields: &'a [Field], versions: Versions, is_message: bool) -> Self {
        let rust_fields = naming::distinct_field_names(fields.iter().map(|f| f.name.as_str()));
        let (rust_name, field_structs) = (String::new(), Vec::new());
        StructDef { name, fields, versions, is_message, rust_name, rust_fields, field_structs }
    }
}

/// A message whose checks passed, with its structs in emission order.
#[derive(Debug, Clone)]
pub struct Checked<'a> {
    /// The schema.
    pub spec: &'a MessageSpec,
    /// The body first, then nested and common structs in file order.
    pub structs: Vec<StructDef<'a>>,
}

impl<'a> Checked<'a> {
    /// The names of the structs holding a field for which `holds` is true,
    /// directly or through a nested struct (to any depth): the structs a
    /// generated visitor over such fields descends into.
    pub fn structs_holding(&self, holds: impl Fn(&Field) -> bool) -> BTreeSet<&'a str> {
        let mut with: BTreeSet<&'a str> = BTreeSet::new();
        loop {
            let before = with.len();
            for s in &self.structs {
                if s.fields.iter().any(|f| holds(f) || f.ty.struct_name().is_some_and(|n| with.contains(n))) {
                    with.insert(s.name);
                }
            }
            if with.len() == before {
                return with;
            }
        }
    }
}

/// Runs every cross-field rule on one message and builds its registry.
pub fn check<'a>(spec: &'a MessageSpec, diags: &mut Diagnostics) -> Checked<'a> {
    let mut structs = vec![StructDef::new(&spec.name, &spec.fields, spec.valid_versions, true)];
    valid_versions_bounded(spec, diags);
    let commons = common_structs_unique(spec, diags);
    common_structs_acyclic(spec, diags);
    for c in &spec.common_structs {
        let versions = spec.valid_versions.intersect(c.versions);
        structs.push(StructDef::new(&c.name, &c.fields, versions, false));
    }
    let mut inline: BTreeMap<&str, JsonPath> = BTreeMap::new();
    let mut walk = Walk { spec, diags, commons: &commons, inline: &mut inline, structs: &mut structs, in_common: None };
    walk.fields(&spec.fields, spec.valid_versions, true);
    for c in &spec.common_structs {
        walk.in_common = Some(&c.name);
        walk.fields(&c.fields, spec.valid_versions.intersect(c.versions), false);
    }
    struct_names_distinct(spec, &structs, diags);
    name_structs(&mut structs);
    Checked { spec, structs }
}

/// §6 #34, #41: validVersions must be bounded, and non-empty unless
/// written `none`: Kafka keeps the schema of a removed api with
/// `"validVersions": "none"` (LeaderAndIsr, StopReplica, UpdateMetadata and
/// ControlledShutdown since 4.0). An inverted range such as `3-1`, empty
/// too, is refused as a typo.
fn valid_versions_bounded(spec: &MessageSpec, diags: &mut Diagnostics) {
    let path = JsonPath::root().key("validVersions");
    if spec.valid_versions.is_open() {
        diags.error(&spec.file, &path, format!("Message {} does not specify a maximum version.", spec.name));
    } else if spec.valid_versions.is_empty() && spec.valid_versions != Versions::NONE {
        diags.error(&spec.file, &path, format!("Message {} has no valid versions.", spec.name));
    } else if spec.valid_versions.hi > MAX_VALID_VERSION {
        diags.error(
            &spec.file,
            &path,
            format!(
                "Message {} declares versions up to {}; more than {MAX_VALID_VERSION} is refused as absurd",
                spec.name, spec.valid_versions.hi
            ),
        );
    }
}

/// Highest `validVersions` bound accepted. Kafka's busiest api has 18
/// versions; a bound in the thousands is a typo, and each version costs
/// generated branches and test time.
pub const MAX_VALID_VERSION: i16 = 1000;

/// Common structs may not contain themselves, directly or through other
/// common structs: the Rust type would have infinite size.
fn common_structs_acyclic(spec: &MessageSpec, diags: &mut Diagnostics) {
    fn uses<'a>(fields: &'a [Field], out: &mut Vec<&'a str>) {
        for f in fields {
            if let Some(name) = f.ty.struct_name() {
                // An array holds its elements behind a Vec: no infinite size.
                if !matches!(f.ty, crate::model::FieldType::Array(_)) {
                    out.push(name);
                }
            }
            uses(&f.fields, out);
        }
    }
    let edges: BTreeMap<&str, Vec<&str>> = spec
        .common_structs
        .iter()
        .map(|c| {
            let mut out = Vec::new();
            uses(&c.fields, &mut out);
            (c.name.as_str(), out)
        })
        .collect();
    for c in &spec.common_structs {
        let mut stack = vec![c.name.as_str()];
        let mut seen = std::collections::BTreeSet::new();
        while let Some(name) = stack.pop() {
            for &next in edges.get(name).map(Vec::as_slice).unwrap_or_default() {
                if next == c.name {
                    diags.error(
                        &spec.file,
                        &c.path,
                        format!(
                            "common struct {} contains itself (through {name}); a struct cannot hold itself",
                            c.name
                        ),
                    );
                    return;
                }
                if seen.insert(next) {
                    stack.push(next);
                }
            }
        }
    }
}

/// §6 #31: each common struct is declared once. Returns the names.
fn common_structs_unique<'a>(spec: &'a MessageSpec, diags: &mut Diagnostics) -> BTreeMap<&'a str, Versions> {
    let mut names = BTreeMap::new();
    for c in &spec.common_structs {
        if names.insert(c.name.as_str(), c.versions).is_some() {
            diags.error(&spec.file, &c.path, format!("Common struct {} was specified twice.", c.name));
        }
    }
    names
}

/// §6 #43: a nested struct does not take its message's name.
fn struct_names_distinct(spec: &MessageSpec, structs: &[StructDef<'_>], diags: &mut Diagnostics) {
    for s in structs.iter().filter(|s| !s.is_message && s.name == spec.name) {
        diags.error(&spec.file, &JsonPath::root(), format!("struct {} has the name of its message", s.name));
    }
}

/// Gives each struct its Rust type name, distinct within the message, and
/// each struct-typed field the Rust name of the struct it holds.
fn name_structs(structs: &mut [StructDef<'_>]) {
    let names = naming::distinct_type_names(structs.iter().map(|s| s.name));
    let by_kafka: BTreeMap<&str, &String> = structs.iter().map(|s| s.name).zip(&names).rev().collect();
    let field_structs: Vec<Vec<Option<String>>> = structs
        .iter()
        .map(|s| {
            s.fields
                .iter()
                .map(|f| {
                    f.ty.struct_name().map(|n| by_kafka.get(n).map_or_else(|| naming::type_name(n), |r| (*r).clone()))
                })
                .collect()
        })
        .collect();
    for ((s, name), fields) in structs.iter_mut().zip(names.iter()).zip(field_structs) {
        s.rust_name = name.clone();
        s.field_structs = fields;
    }
}

struct Walk<'a, 'b> {
    spec: &'a MessageSpec,
    diags: &'b mut Diagnostics,
    commons: &'b BTreeMap<&'a str, Versions>,
    inline: &'b mut BTreeMap<&'a str, JsonPath>,
    structs: &'b mut Vec<StructDef<'a>>,
    /// The common struct whose fields are being walked, if any.
    in_common: Option<&'a str>,
}

impl<'a> Walk<'a, '_> {
    fn err(&mut self, path: &JsonPath, message: String) {
        self.diags.error(&self.spec.file, path, message);
    }

    fn fields(&mut self, fields: &'a [Field], within: Versions, top_level: bool) {
        for f in fields {
            if top_level && f.map_key {
                self.err(&f.path.key("mapKey"), "Cannot set mapKey on top level fields.".into());
            }
            self.flexible_versions_fit(f);
            if let Some(name) = f.ty.struct_name() {
                self.struct_field(f, name, within);
            }
        }
    }

    /// §6 #36, #37: tagged versions lie inside the field's flexible
    /// versions, and an override inside the message's.
    fn flexible_versions_fit(&mut self, f: &Field) {
        let message = self.spec.flexible_versions;
        if let Some(over) = f.flexible_versions {
            if !message.contains_range(over) {
                self.err(
                    &f.path.key("flexibleVersions"),
                    format!(
                        "The flexible versions for field {} are {over}, which are not a subset of the flexible versions for the message as a whole, which are {message}",
                        f.name
                    ),
                );
            }
        }
        let flexible = f.flexible_versions.unwrap_or(message);
        if !flexible.contains_range(f.tagged_versions) {
            self.err(
                &f.path.key("taggedVersions"),
                format!(
                    "Field {} specifies tagged versions {} that are not a subset of the flexible versions {flexible}",
                    f.name, f.tagged_versions
                ),
            );
        }
    }

    /// §6 #32, #33, #41, #42 for a field of struct type.
    fn struct_field(&mut self, f: &'a Field, name: &'a str, within: Versions) {
        let present = f.versions.intersect(within);
        if let Some(&common) = self.commons.get(name) {
            if !f.fields.is_empty() {
                self.err(&f.path, format!("Can't re-specify the common struct {name} as an inline struct."));
            }
            if !common.contains_range(present) {
                self.err(
                    &f.path.key("versions"),
                    format!(
                        "field {} uses common struct {name} in versions {present}, but the struct only covers {common}",
                        f.name
                    ),
                );
            }
            return;
        }
        if let Some(common) = self.in_common {
            // Kafka's generator registers the inline structs of the message
            // body only: a struct defined inside a common struct is one it
            // cannot find.
            self.err(
                &f.path,
                format!(
                    "field {} of common struct {common} holds struct {name}, which is not a common struct; \
                     structs used inside a common struct must be declared in commonStructs",
                    f.name
                ),
            );
            return;
        }
        if let Some(first) = self.inline.get(name) {
            let message = format!("Struct {name} was specified twice (first at {first}).");
            self.err(&f.path, message);
            return;
        }
        self.inline.insert(name, f.path.clone());
        // In a removed message (no valid versions) every struct is absent
        // at every version: not the field's fault.
        if present.is_empty() && !self.spec.is_removed() {
            self.err(
                &f.path.key("versions"),
                format!("Version ranges {within} and {} have no versions in common.", f.versions),
            );
        }
        self.structs.push(StructDef::new(name, &f.fields, present, false));
        self.fields(&f.fields, present, false);
    }
}

/// Across schemas: each message name, and the module it becomes, is used once.
fn messages_distinct(specs: &[MessageSpec], diags: &mut Diagnostics) {
    let mut modules: BTreeMap<String, &MessageSpec> = BTreeMap::new();
    for spec in specs {
        if let Some(first) = modules.insert(naming::module_name(&spec.name), spec) {
            diags.error(
                &spec.file,
                &JsonPath::root().key("name"),
                format!("message {} has the same Rust module as {} in {}", spec.name, first.name, first.file),
            );
        }
    }
}

/// Across schemas: each metadata record has a record type (`apiKey`) and
/// claims it alone, as Kafka's generator of the record-type table requires.
fn metadata_keys_distinct(specs: &[MessageSpec], diags: &mut Diagnostics) {
    let mut keys: BTreeMap<i16, &MessageSpec> = BTreeMap::new();
    for spec in specs.iter().filter(|s| s.spec_type == SpecType::Metadata) {
        let Some(key) = spec.api_key else {
            // Kafka's table of record types is indexed by it.
            diags.error(&spec.file, &JsonPath::root(), format!("metadata record {} needs an apiKey", spec.name));
            continue;
        };
        if let Some(first) = keys.get(&key) {
            diags.error(
                &spec.file,
                &JsonPath::root().key("apiKey"),
                format!(
                    "metadata record {} has the api key {key} of metadata record {} in {}",
                    spec.name, first.name, first.file
                ),
            );
        } else {
            keys.insert(key, spec);
        }
    }
}

/// §6 #44-#47, across all schemas of a run: one request and one response
/// per api key, each named with its suffix, each with an api key.
pub fn check_api_pairs(specs: &[MessageSpec], diags: &mut Diagnostics) {
    messages_distinct(specs, diags);
    metadata_keys_distinct(specs, diags);
    let mut requests: BTreeMap<i16, &MessageSpec> = BTreeMap::new();
    let mut responses: BTreeMap<i16, &MessageSpec> = BTreeMap::new();
    for spec in specs {
        let (suffix, map) = match spec.spec_type {
            SpecType::Request => ("Request", &mut requests),
            SpecType::Response => ("Response", &mut responses),
            _ => continue,
        };
        let root = JsonPath::root();
        if !spec.name.ends_with(suffix) || spec.name.len() == suffix.len() {
            diags.error(
                &spec.file,
                &root.key("name"),
                format!("{} does not end with the expected suffix {suffix}", spec.name),
            );
        }
        let Some(key) = spec.api_key else {
            diags.error(&spec.file, &root, format!("a {} needs an apiKey", suffix.to_lowercase()));
            continue;
        };
        if let Some(other) = map.insert(key, spec) {
            diags.error(
                &spec.file,
                &root.key("apiKey"),
                format!("Found more than one {} with API key {key} (also {})", suffix.to_lowercase(), other.file),
            );
        }
    }
    for (key, spec) in &requests {
        if !responses.contains_key(key) {
            diags.error(
                &spec.file,
                &JsonPath::root().key("apiKey"),
                format!("failed to find response for API key {key}"),
            );
        }
    }
    for (key, spec) in &responses {
        if !requests.contains_key(key) {
            diags.error(
                &spec.file,
                &JsonPath::root().key("apiKey"),
                format!("failed to find request for API key {key}"),
            );
        }
    }
}
