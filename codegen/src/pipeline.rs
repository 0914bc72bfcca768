//! The pipeline of a run, step by step: schema text ─load, lower▶ model
//! ─check▶ registry ─plan, emit▶ tokens ─write▶ formatted files
//! ([`generate_with`]), and the whole message set a facts file names
//! compiled into one directory with its fingerprint ([`regenerate`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use proc_macro2::TokenStream;

use crate::diag::Diagnostics;
use crate::emit::index::Index;
use crate::emit::{self, EmitContext};
use crate::facts::Facts;
use crate::model::{MessageSpec, SpecType};
use crate::sources::{locate, lower_sources};
use crate::{
    check, fingerprint, internal, naming, write, Builder, Error, Generated, GeneratedFile, MessageSummary, Options,
};

/// Compiles schemas given as `(file name, text)` pairs into Rust source.
/// `runtime` is the path of the runtime crate in generated code
/// (`::kwire`, or `crate` inside kwire itself).
///
/// # Errors
/// [`Error::Schema`] with every problem found, each naming its file and
/// JSON path; [`Error::RuntimePath`] when `runtime` is not a Rust path.
pub fn generate(sources: &[(String, String)], runtime: &str) -> Result<Generated, Error> {
    generate_with(sources, runtime, Options::default())
}

/// As [`generate`], with the `options` given.
///
/// # Errors
/// As [`generate`], and [`Error::UnknownApiKeys`] when
/// [`Options::api_keys`] names an api key that no request schema has.
pub fn generate_with(sources: &[(String, String)], runtime: &str, options: Options) -> Result<Generated, Error> {
    let mut cx = emit_context(runtime, &options)?;

    // Load and model: each schema parsed and lowered, then checked; every
    // problem of every schema is reported at once.
    let mut diags = Diagnostics::default();
    let specs = lower_sources(sources, &mut diags);
    let checked: Vec<_> = specs.iter().map(|s| check::check(s, &mut diags)).collect();
    locate(&mut diags, sources);
    diags.into_result()?;

    // Plan the set: which api keys are compiled, behind which feature, and
    // which fields are redacted.
    check_api_keys(&options, &specs)?;
    cx.api_features = api_features(&options, &specs);
    // A removed api (`validVersions: none`) is in no table and no dispatch.
    cx.partial = !cx.api_features.is_empty() || specs.iter().any(|s| !s.is_removed() && !options.compiles(s));
    cx.sensitive = emit::redact::resolve(&options.sensitive_fields, &checked).map_err(Error::SensitiveFields)?;
    cx.peeked = emit::peek::resolve(&options.peeked_fields, &checked).map_err(Error::PeekedFields)?;
    cx.error_responses = emit::error_response::resolve(&options.forwardable, &options.error_responses, &checked, |c| {
        options.compiles(c.spec)
    })
    .map_err(Error::ErrorResponses)?;
    let responses: BTreeMap<i16, String> = specs
        .iter()
        .filter(|s| s.spec_type == SpecType::Response && options.compiles(s) && !s.is_removed())
        .filter_map(|s| Some((s.api_key?, s.name.clone())))
        .collect();

    // Emit and write: a file per message, the api-key table, the index.
    let mut out = Generated::default();
    let mut index = Index::default();
    // Removed messages (`"validVersions": "none"`) are checked, not emitted.
    for c in checked.iter().filter(|c| options.compiles(c.spec) && !c.spec.is_removed()) {
        let spec = c.spec;
        let module = naming::module_name(&spec.name);
        let tokens = emit::emit_message(c, &cx, &responses);
        let text = write::format_file(tokens, &spec.file).map_err(Error::Internal)?;
        out.files.push(GeneratedFile { name: format!("{module}.rs"), text });
        index.message(spec, &cx);
        out.messages.push(summary(c));
    }
    if specs.iter().any(|s| s.spec_type == SpecType::Request && !s.is_removed()) {
        let (tokens, dispatch) = api_keys_file(&specs, &options, &cx);
        let text = write::format_file(tokens, "the request schemas").map_err(Error::Internal)?;
        out.files.push(GeneratedFile { name: "api_keys.rs".into(), text });
        index.api_keys(dispatch, &cx);
    }
    let text = write::format_file(index.into_tokens(), "the schema directory").map_err(Error::Internal)?;
    out.files.push(GeneratedFile { name: "mod.rs".into(), text });
    Ok(out)
}

/// What every emitter is told of the options; the plan of the set
/// (features, redaction) is filled in once the schemas are checked.
fn emit_context(runtime: &str, options: &Options) -> Result<EmitContext, Error> {
    let runtime = naming::runtime_path(runtime)
        .map_err(|e| Error::RuntimePath { path: runtime.to_owned(), reason: e.to_string() })?;
    Ok(EmitContext {
        runtime,
        samples: options.samples || options.gates.samples.is_some(),
        views: options.views || options.gates.views.is_some(),
        json: options.json || options.gates.json.is_some(),
        entities: options.entities || options.gates.entities.is_some(),
        partial: false,
        sensitive: Default::default(),
        peeked: Default::default(),
        forwardable: options.forwardable.clone(),
        cluster_action: options.cluster_action.clone(),
        error_responses: Default::default(),
        gates: options.gates.clone(),
        api_features: BTreeMap::new(),
    })
}

/// [`Error::UnknownApiKeys`] for the api keys of [`Options::api_keys`]
/// that no request schema of `specs` has.
fn check_api_keys(options: &Options, specs: &[MessageSpec]) -> Result<(), Error> {
    if let Some(keys) = &options.api_keys {
        let mut unknown: Vec<i16> = keys
            .iter()
            .copied()
            .filter(|k| {
                !specs.iter().any(|s| s.spec_type == SpecType::Request && s.api_key == Some(*k) && !s.is_removed())
            })
            .collect();
        if !unknown.is_empty() {
            unknown.sort_unstable();
            unknown.dedup();
            return Err(Error::UnknownApiKeys(unknown));
        }
    }
    Ok(())
}

/// The cargo feature of each api key in a gated api group.
fn api_features(options: &Options, specs: &[MessageSpec]) -> BTreeMap<i16, String> {
    // The api key of each api name, from the request schemas.
    let api_key_of = |name: &str| {
        specs.iter().find_map(|s| {
            let api = s.name.strip_suffix("Request")?;
            (s.spec_type == SpecType::Request && api == name).then_some(s.api_key).flatten()
        })
    };
    // An api the options name that these schemas lack is passed over, as a
    // sensitive field of a message not among them is: a few schemas may be
    // compiled with the facts of the whole set. `regenerate`, which compiles
    // the set the facts belong to, refuses such a name.
    let mut features = BTreeMap::new();
    for group in &options.api_groups {
        let Some(feature) = &group.feature else { continue };
        for key in group.apis.iter().filter_map(|name| api_key_of(name)) {
            features.insert(key, feature.clone());
        }
    }
    features
}

/// The tokens of the api-key table's file, and whether it holds the
/// dispatch enums: it does when at least one api key is compiled (with
/// none, `Builder::api_keys([])`, the table alone).
fn api_keys_file(specs: &[MessageSpec], options: &Options, cx: &EmitContext) -> (TokenStream, bool) {
    let refs: Vec<&MessageSpec> = specs.iter().filter(|s| !s.is_removed()).collect();
    let compiled: Vec<&MessageSpec> = specs.iter().filter(|s| options.compiles(s) && !s.is_removed()).collect();
    let compiled_key = |key: i16| compiled.iter().any(|s| s.api_key == Some(key) && s.spec_type == SpecType::Request);
    let mut tokens = emit::api::emit_api_table(&refs, &compiled_key, cx);
    let dispatch = compiled.iter().any(|s| s.spec_type == SpecType::Request);
    if dispatch {
        tokens.extend(emit::api::emit_dispatch(&compiled, cx));
    }
    let mut file = emit::imports(cx, &tokens);
    file.extend(tokens);
    (file, dispatch)
}

/// What was generated for one checked message.
fn summary(c: &check::Checked) -> MessageSummary {
    let spec = c.spec;
    MessageSummary {
        file: spec.file.clone(),
        name: spec.name.clone(),
        api_key: spec.api_key,
        versions: spec.valid_versions.to_string(),
        flexible_versions: spec.flexible_versions.to_string(),
        structs: c.structs.len(),
        fields: c.structs.iter().map(|s| s.fields.len()).sum(),
    }
}

/// The name of the file, in the output directory of [`regenerate`], that
/// holds the [`fingerprint`](fn@crate::fingerprint) of the sources it was generated from.
pub const FINGERPRINT_FILE: &str = "FINGERPRINT";

/// Compiles everything a facts file names, with `options` (the facts' own
/// taken on top): its `schemas` into `out`, and each internal-record family
/// into `out/internal/MODULE/` with its dispatch enums (`records.rs`); then
/// writes the [`fingerprint`](fn@crate::fingerprint) of the facts file and those directories to
/// `out/FINGERPRINT` ([`FINGERPRINT_FILE`]).
///
/// # Errors
/// As [`Builder::compile`]; [`Error::Facts`] when the facts name no schemas.
pub fn regenerate(facts_file: &Path, options: &Options, runtime: &str, out: &Path) -> Result<(), Error> {
    let facts = Facts::read(facts_file)?;
    let schemas = facts
        .schemas_dir()
        .ok_or_else(|| Error::Facts { path: facts_file.to_owned(), message: "schemas: missing".into() })?;
    let builder = |input: &Path, out: &Path| {
        let mut b = Builder::new();
        b.set_options(options.clone());
        b.input_dir(input).out_dir(out).runtime_path(runtime).facts(&facts).rerun_if_changed(false);
        b
    };
    let generated = builder(&schemas, out).compile()?;
    let requests: BTreeSet<&str> = generated
        .messages
        .iter()
        .filter_map(|m| m.name.strip_suffix("Request").filter(|_| m.api_key.is_some()))
        .collect();
    let mut unknown: Vec<String> = facts
        .api_groups
        .iter()
        .flat_map(|g| g.apis.iter())
        .chain(&facts.forwardable)
        .chain(&facts.cluster_action)
        .filter(|name| !requests.contains(name.as_str()))
        .cloned()
        .collect();
    if !unknown.is_empty() {
        unknown.sort();
        unknown.dedup();
        return Err(Error::UnknownApis(unknown));
    }
    let mut dirs = vec![schemas];
    if let Some(internal) = facts.internal_schemas_dir() {
        for family in &facts.families {
            let input = internal.join(&family.dir);
            let family_out = out.join("internal").join(&family.module);
            let family_builder = builder(&input, &family_out);
            family_builder.compile_keeping(&["records.rs"])?;
            internal::write_records(family, &family_builder, &family_out)?;
        }
        dirs.push(internal);
    }
    let print = fingerprint(&facts.dir, facts_file, &dirs).map_err(|(path, source)| Error::Io { path, source })?;
    let path = out.join(FINGERPRINT_FILE);
    write::write_if_changed(&path, &format!("{print}\n")).map_err(|source| Error::Io { path, source })?;
    Ok(())
}
