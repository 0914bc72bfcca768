//! Model to tokens. Each emitter reads the checked model and cannot fail:
//! every impossible case was refused by [`crate::check`].
//!
//! Per struct the flow is: checked struct ─▶ [`StructView`] (its fields'
//! Rust names, types and version sets) ─▶ [`plan::StructPlan`] (where each
//! field goes on the wire at which versions) ─▶ tokens. The declarations
//! read the view; encode, size, decode and the other per-version emitters
//! read the plan. The wire impls are in [`codec`], one module per verb
//! (encode, size, decode, the borrowed views); the files of a message set
//! beside its messages are the api-key table ([`api`]) and the index
//! ([`index`]).

pub mod api;
pub mod codec;
pub mod cond;
pub mod dispatch;
pub mod entity;
pub mod error_codes;
pub mod error_response;
pub mod field;
pub mod index;
pub mod json;
pub mod json_write;
pub mod peek;
mod plan;
pub mod redact;
pub mod sample;
pub mod structs;

use proc_macro2::TokenStream;
use quote::quote;

use crate::check::{Checked, StructDef};
use crate::versions::Versions;
use field::FieldView;

/// What every emitter needs to know besides the model.
pub struct EmitContext {
    /// Path of the runtime crate in generated code: `crate` or `::kwire`.
    pub runtime: TokenStream,
    /// Whether to emit `Sample` impls (random values for property tests).
    pub samples: bool,
    /// Whether to emit borrowed views (`XRef<'a>`) beside the owned structs.
    pub views: bool,
    /// Whether to emit `ToJson` and `FromJson` impls (Kafka's JSON form).
    pub json: bool,
    /// Whether to emit `Entities` impls (the entity accessors).
    pub entities: bool,
    /// Whether only some api keys of the table are compiled: the dispatch's
    /// matches on an `ApiKey` then need an arm for the others
    /// (`ApiKeyNotCompiled`).
    pub partial: bool,
    /// The fields that carry secrets, as (message name, field name), Kafka's
    /// names: their `Debug` and JSON form are redacted.
    pub sensitive: std::collections::BTreeSet<(String, String)>,
    /// The peeked fields, as (message name, field name), Kafka's names
    /// ([`crate::Options::peeked_fields`]).
    pub peeked: std::collections::BTreeSet<(String, String)>,
    /// The forwardable apis, by api name (`ApiInfo::forwardable`).
    pub forwardable: Vec<String>,
    /// The cluster-action apis, by api name (`ApiInfo::cluster_action`).
    pub cluster_action: Vec<String>,
    /// The error response of each forwardable api, by dispatch variant
    /// ([`error_response::resolve`]).
    pub error_responses: error_response::Answers,
    /// The cargo feature each extra is compiled behind (`views`, `json`,
    /// `samples`, `entities` then emitted, each item gated).
    pub gates: crate::Gates,
    /// The cargo feature the messages of each api key are compiled behind,
    /// for the api keys of a gated group.
    pub api_features: std::collections::BTreeMap<i16, String>,
}

impl EmitContext {
    /// `#[cfg(feature = "…")]` for the api key's group, or nothing.
    pub fn api_cfg(&self, api_key: i16) -> TokenStream {
        cfg_attr(self.api_features.get(&api_key).map(String::as_str))
    }
}

/// `#[cfg(feature = "…")]`, or nothing for `None`.
pub fn cfg_attr(feature: Option<&str>) -> TokenStream {
    match feature {
        Some(f) => quote!(#[cfg(feature = #f)]),
        None => TokenStream::new(),
    }
}

/// Every item of `tokens` (items, or the fns of an impl block) behind
/// `#[cfg(feature = "…")]`; unchanged for `None`. An item ends at a `;` or
/// at a `{…}` block not followed by `;` (which then ends it).
pub fn gate(tokens: TokenStream, feature: Option<&str>) -> TokenStream {
    use proc_macro2::{Delimiter, TokenTree};
    let Some(_) = feature else { return tokens };
    let attr = cfg_attr(feature);
    let mut out = TokenStream::new();
    let mut item: Vec<TokenTree> = Vec::new();
    let mut trees = tokens.into_iter().peekable();
    while let Some(tree) = trees.next() {
        let ends = match &tree {
            TokenTree::Punct(p) => p.as_char() == ';',
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
                !matches!(trees.peek(), Some(TokenTree::Punct(p)) if p.as_char() == ';')
            }
            _ => false,
        };
        item.push(tree);
        if ends {
            out.extend(attr.clone());
            out.extend(item.drain(..));
        }
    }
    if !item.is_empty() {
        out.extend(attr);
        out.extend(item);
    }
    out
}

/// One struct with the views of its fields.
pub struct StructView<'a> {
    /// The struct.
    pub def: &'a StructDef<'a>,
    /// Its fields.
    pub fields: Vec<FieldView<'a>>,
    /// Versions of the struct that end with a tagged-field section.
    pub flexible: Versions,
}

impl<'a> StructView<'a> {
    /// The view of `def` in a message whose flexible versions are `message_flexible`.
    pub fn new(def: &'a StructDef<'a>, message_flexible: Versions) -> Self {
        let fields = def
            .fields
            .iter()
            .zip(&def.rust_fields)
            .zip(&def.field_structs)
            .map(|((f, name), held)| FieldView::new(f, name, held.as_deref(), def.versions, message_flexible))
            .collect();
        StructView { def, fields, flexible: message_flexible.intersect(def.versions) }
    }

    /// True when some version of the struct has a tagged-field section.
    pub fn has_tagged_section(&self) -> bool {
        !self.flexible.is_empty()
    }
}

/// The items of one message's module: its structs and their trait impls.
pub fn emit_message(
    checked: &Checked<'_>,
    cx: &EmitContext,
    responses: &std::collections::BTreeMap<i16, String>,
) -> TokenStream {
    let spec = checked.spec;
    let mut out = TokenStream::new();
    let entity_structs = entity::entity_structs(checked);
    let error_code_structs = error_codes::error_code_structs(checked);
    for def in &checked.structs {
        let mut view = StructView::new(def, spec.flexible_versions);
        for f in &mut view.fields {
            f.sensitive = cx.sensitive.contains(&(spec.name.clone(), f.field.name.clone()));
        }
        let plan = plan::StructPlan::new(&view);
        out.extend(structs::emit_struct(&view, spec, cx, field::Form::Owned));
        out.extend(codec::emit_wire_impl(&plan, cx));
        if cx.entities {
            out.extend(gate(entity::emit_entities_impl(&plan, spec, &entity_structs), cx.gates.entities.as_deref()));
        }
        out.extend(error_codes::emit_error_codes(&plan, spec, &error_code_structs));
        if cx.views {
            out.extend(gate(codec::views::emit_view(&plan, spec, cx), cx.gates.views.as_deref()));
        }
        if cx.samples {
            out.extend(gate(sample::emit_sample_impl(&plan, cx), cx.gates.samples.as_deref()));
        }
        if cx.json {
            out.extend(gate(json::emit_json_impls(&plan, cx), cx.gates.json.as_deref()));
        }
    }
    out.extend(api::emit_message_impls(spec, responses));
    out.extend(peek::emit_peeks(checked, cx));
    let mut file = imports(cx, &out);
    file.extend(out);
    file
}

/// The imports of a generated file, each only when its body uses it:
/// `enc`, the runtime's hidden `encoding` module (the helpers generated code
/// calls: `enc::field::put_str`, `enc::Encode`, ...); `kwire`, the runtime
/// crate under the name its users know, the prefix of every public type
/// generated code names (`kwire::message::Message`, `kwire::error::DecodeError`),
/// so that no schema struct can clash with an import; and `ByteString`, the
/// type of string fields.
pub fn imports(cx: &EmitContext, body: &TokenStream) -> TokenStream {
    runtime_imports(&cx.runtime, body)
}

/// [`imports`] for the runtime at path `rt`.
pub fn runtime_imports(rt: &TokenStream, body: &TokenStream) -> TokenStream {
    let mut out = TokenStream::new();
    if starts_path(body, "enc") {
        out.extend(quote!(use #rt::encoding as enc;));
    }
    if starts_path(body, "kwire") {
        out.extend(quote!(use #rt as kwire;));
    }
    if codec::uses_ident(body, "ByteString") {
        out.extend(quote!(use #rt::ByteString;));
    }
    out
}

/// Whether a path in `tokens` begins with the segment `name` (`name::…`,
/// not `…::name::…`).
fn starts_path(tokens: &TokenStream, name: &str) -> bool {
    let tokens: Vec<proc_macro2::TokenTree> = tokens.clone().into_iter().collect();
    tokens.iter().enumerate().any(|(i, t)| match t {
        proc_macro2::TokenTree::Group(g) => starts_path(&g.stream(), name),
        proc_macro2::TokenTree::Ident(ident) => {
            let colon = |t: Option<&proc_macro2::TokenTree>| {
                matches!(t, Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == ':')
            };
            ident == name && colon(tokens.get(i + 1)) && !(i > 0 && colon(tokens.get(i - 1)))
        }
        _ => false,
    })
}

/// The (message, field) pairs that `Message.Field` entries of the facts
/// name (Kafka's names), each accepted by `accept` (given the entry, the
/// message, the field and the message's checked schema; `Err` says why
/// not), or one problem per entry that is not `Message.Field` or that
/// `accept` refuses. Entries whose message is not among `checked` are
/// skipped: a build without that message has nothing to mark.
pub(crate) fn resolve_fields(
    entries: &[impl AsRef<str>],
    checked: &[Checked<'_>],
    accept: impl Fn(&str, &str, &str, &Checked<'_>) -> Result<(), String>,
) -> Result<std::collections::BTreeSet<(String, String)>, Vec<String>> {
    let mut out = std::collections::BTreeSet::new();
    let mut problems = Vec::new();
    for entry in entries {
        let entry = entry.as_ref();
        let Some((message, field)) = entry.split_once('.').filter(|(m, f)| !m.is_empty() && !f.is_empty()) else {
            problems.push(format!("{entry:?} is not `Message.Field`"));
            continue;
        };
        let Some(c) = checked.iter().find(|c| c.spec.name == message) else { continue };
        match accept(entry, message, field, c) {
            Ok(()) => {
                out.insert((message.to_owned(), field.to_owned()));
            }
            Err(problem) => problems.push(problem),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// `#[doc = "..."]` attributes for doc lines.
pub fn doc_attrs(lines: &[String]) -> TokenStream {
    let attrs = lines.iter().map(|l| quote!(#[doc = #l]));
    quote!(#(#attrs)*)
}
