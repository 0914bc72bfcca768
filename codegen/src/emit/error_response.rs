//! The error response of each forwardable api: what a forwarding broker
//! answers a client for everything its request asked, when the envelope
//! failed (KIP-590), derived from the request's and the response's schemas
//! (`RequestBody::error_response` in the dispatch).
//!
//! The rule the schemas give: the response's top-level `ErrorCode` holds
//! the error where it has one (every other field its default, throttle
//! time 0); each response collection of structs whose items carry an
//! `ErrorCode` (themselves or nested) mirrors the request's collection of
//! the same name, or else every collection the request has at that level
//! (chained: a field of some versions and its successor of later ones both
//! feed it): one item per request item, with the request item's fields of
//! the same name and type copied, and its own mirrored collections. A
//! collection of numbers or strings fills the first field of each item.
//! A response collection whose fields are all fields of the request's
//! collection of the same name (a key, such as an entity) is echoed whole.
//! A field of some versions only is set only at those versions.
//!
//! Where an api departs from that, its [`ErrorResponseFacts`] say how; the
//! compiler knows no api by name.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::cond::Cond;
use super::field::FieldView;
use super::StructView;
use crate::check::{Checked, StructDef};
use crate::facts::ErrorResponseFacts;
use crate::model::{FieldType, SpecType};
use crate::naming;

/// The answer of each forwardable api, by the dispatch's variant name: an
/// expression of the response body's type, reading the request as `m`
/// and `version`, `error_code` and `message` (`Option<&str>`).
pub type Answers = BTreeMap<String, TokenStream>;

/// The answers of the `forwardable` apis among `checked` (both request
/// and response compiled), shaped by `deviations`; `compiled` says which
/// messages are emitted.
///
/// # Errors
/// One problem per deviation naming a field the api's messages lack, a
/// value its field's type cannot hold, or a distinct key that is not one
/// string.
pub fn resolve(
    forwardable: &[String],
    deviations: &BTreeMap<String, ErrorResponseFacts>,
    checked: &[Checked<'_>],
    compiled: impl Fn(&Checked<'_>) -> bool,
) -> Result<Answers, Vec<String>> {
    let find = |name: String, ty: SpecType| {
        checked.iter().find(|c| c.spec.name == name && c.spec.spec_type == ty && compiled(c) && !c.spec.is_removed())
    };
    let mut answers = Answers::new();
    let mut problems = Vec::new();
    let plain = ErrorResponseFacts::default();
    for api in forwardable {
        let (Some(request), Some(response)) =
            (find(format!("{api}Request"), SpecType::Request), find(format!("{api}Response"), SpecType::Response))
        else {
            continue;
        };
        let facts = deviations.get(api).unwrap_or(&plain);
        let with_error = response.structs_holding(|f| f.name == "ErrorCode");
        let answer = Answer { facts, request, response, with_error, problems: Vec::new() };
        match answer.body() {
            Ok(body) => {
                let variant = naming::type_ident(api);
                answers.insert(variant.to_string(), quote!(ResponseBody::#variant(#body)));
            }
            Err(mut p) => problems.append(&mut p),
        }
    }
    for api in deviations.keys().filter(|api| !forwardable.contains(api)) {
        problems.push(format!("{api} is not forwardable"));
    }
    if problems.is_empty() {
        Ok(answers)
    } else {
        Err(problems)
    }
}

/// One api's answer being built.
struct Answer<'a, 'c> {
    facts: &'a ErrorResponseFacts,
    request: &'a Checked<'c>,
    response: &'a Checked<'c>,
    /// The response's structs whose items carry an `ErrorCode`, themselves
    /// or nested.
    with_error: BTreeSet<&'c str>,
    problems: Vec<String>,
}

/// Where the fields of an item being built come from.
enum Source<'s> {
    /// A request struct, bound to the named variable.
    Item(&'s StructView<'s>, proc_macro2::Ident),
    /// One value (a number or string of a request collection, or a distinct
    /// key), bound to the named variable, for the named field (the first
    /// field when the name is empty).
    Value(&'s str, proc_macro2::Ident),
}

impl<'a, 'c> Answer<'a, 'c> {
    /// The response body: its top level, with its collections.
    fn body(mut self) -> Result<TokenStream, Vec<String>> {
        let (request, response) = (self.request, self.response);
        // Every checked message has its body first.
        let (Some(req_top), Some(resp_top)) = (request.structs.first(), response.structs.first()) else {
            return Err(vec![format!("{}: no message body", request.spec.name)]);
        };
        self.check_names(resp_top);
        let req = view(req_top, request);
        let m = format_ident!("m");
        let distinct = (self.facts.distinct && !self.facts.top_level_only).then(|| self.distinct(&req, &m)).flatten();
        let body = self.item(resp_top, &Source::Item(&req, m), 0, distinct);
        if self.problems.is_empty() {
            Ok(body)
        } else {
            Err(self.problems)
        }
    }

    /// Every field a deviation names is one the messages have.
    fn check_names(&mut self, resp: &StructDef<'_>) {
        let api = self.request.spec.name.trim_end_matches("Request").to_owned();
        for (name, value) in &self.facts.values {
            match resp.fields.iter().find(|f| &f.name == name) {
                None => self.problems.push(format!("{api}: values.{name}: no such field of the response")),
                Some(f) if literal(&f.ty, value).is_none() => {
                    self.problems.push(format!("{api}: values.{name}: not a value of type {}", f.ty))
                }
                Some(_) => {}
            }
        }
        let has = |c: &Checked<'_>, name: &str| c.structs.iter().any(|s| s.fields.iter().any(|f| f.name == name));
        for (from, to) in &self.facts.renamed {
            if !has(self.request, from) {
                self.problems.push(format!("{api}: renamed.{from}: no such field of the request"));
            }
            if !has(self.response, to) {
                self.problems.push(format!("{api}: renamed.{from}: no field {to} in the response"));
            }
        }
    }

    /// The struct `def` of the response as a literal, its fields from
    /// `source`, at nesting `depth`; `given` is the expression of its one
    /// collection when a deviation built it.
    fn item(
        &mut self,
        def: &StructDef<'_>,
        source: &Source<'_>,
        depth: usize,
        mut given: Option<(String, TokenStream)>,
    ) -> TokenStream {
        let view = view(def, self.response);
        let top = depth == 0;
        let mut fields = Vec::new();
        for (i, f) in view.fields.iter().enumerate() {
            let name = f.field.name.as_str();
            let value = if name == "ErrorCode" && f.field.ty == FieldType::Int16 {
                Some(quote!(error_code))
            } else if name == "ErrorMessage" && f.field.ty == FieldType::String {
                // The error's message where the facts say the api writes
                // it, else null (its default may be the empty string).
                match (self.facts.message, f.option) {
                    (true, true) => Some(quote!(message.map(Into::into))),
                    (true, false) => Some(quote!(message.map(Into::into).unwrap_or_default())),
                    (false, true) => Some(quote!(None)),
                    (false, false) => None,
                }
            } else if let Some(text) = self.facts.values.get(name).filter(|_| top) {
                literal(&f.field.ty, text).map(|lit| if f.option { quote!(Some(#lit)) } else { lit })
            } else if given.as_ref().is_some_and(|(n, _)| n == name) {
                given.take().map(|(_, e)| e)
            } else {
                self.copied(f, i, source, depth)
            };
            let Some(value) = value else { continue };
            let ident = &f.ident;
            let value = match Cond::new(f.field.versions, def.versions) {
                Cond::Always => value,
                Cond::Never => continue,
                Cond::When(e, _) => quote!(if #e { #value } else { Default::default() }),
            };
            if *ident == value.to_string() {
                fields.push(quote!(#ident,));
            } else {
                fields.push(quote!(#ident: #value,));
            }
        }
        let ty = self.path(def);
        quote!(#ty { #(#fields)* ..Default::default() })
    }

    /// The value of the response field `f` (the `i`th of its struct) taken
    /// from `source`: a copied field, or a mirrored collection.
    fn copied(&mut self, f: &FieldView<'_>, i: usize, source: &Source<'_>, depth: usize) -> Option<TokenStream> {
        match source {
            Source::Value(field, x) => (field == &f.field.name || (field.is_empty() && i == 0)).then(|| {
                let value =
                    if super::field::fixed_type(&f.field.ty).is_some() { quote!(*#x) } else { quote!(#x.clone()) };
                if f.option {
                    quote!(Some(#value))
                } else {
                    value
                }
            }),
            Source::Item(req, x) => {
                if let FieldType::Array(inner) = &f.field.ty {
                    if matches!(**inner, FieldType::Struct(_)) && !self.facts.top_level_only {
                        return self.collection(f, req, x, depth);
                    }
                }
                // Fields of the top level are the error's and the facts'.
                if depth == 0 {
                    return None;
                }
                // A key: a field of the same name and type that the response
                // has at every version the request has it (a field of later
                // versions is an outcome, not the echo of what was asked).
                let from = req.fields.iter().find(|r| {
                    r.field.ty == f.field.ty
                        && self.request_name(&r.field.name) == f.field.name
                        && f.present.contains_range(r.present)
                })?;
                let ident = &from.ident;
                let value = quote!(#x.#ident);
                let fixed = super::field::fixed_type(&f.field.ty).is_some() && !from.option;
                Some(match (from.option, f.option) {
                    (false, true) if fixed => quote!(Some(#value)),
                    (false, true) => quote!(Some(#value.clone())),
                    (true, false) => quote!(#value.clone().unwrap_or_default()),
                    _ if fixed => value,
                    _ => quote!(#value.clone()),
                })
            }
        }
    }

    /// The name a request field has in the response.
    fn request_name<'n>(&'n self, name: &'n str) -> &'n str {
        self.facts.renamed.get(name).map_or(name, String::as_str)
    }

    /// The response collection `f` mirroring the collections of the request
    /// struct `req` (bound to `x`), or `None` when none mirrors it.
    fn collection(
        &mut self,
        f: &FieldView<'_>,
        req: &StructView<'_>,
        x: &proc_macro2::Ident,
        depth: usize,
    ) -> Option<TokenStream> {
        let element = self.held(f, self.response)?;
        let same: Vec<&FieldView<'_>> =
            req.fields.iter().filter(|r| r.field.name == f.field.name && is_array(&r.field.ty)).collect();
        let key = same.first().and_then(|r| self.held(r, self.request)).is_some_and(|held| {
            element.fields.iter().all(|e| held.fields.iter().any(|h| h.name == e.name && h.ty == e.ty))
        });
        if !(self.facts.echo || key || self.carries_error(element)) {
            return None;
        }
        let sources: Vec<&FieldView<'_>> =
            if same.is_empty() { req.fields.iter().filter(|r| is_array(&r.field.ty)).collect() } else { same };
        if sources.is_empty() {
            return None;
        }
        let y = format_ident!("x{depth}");
        let iters: Vec<TokenStream> = sources
            .iter()
            .map(|r| {
                let ident = &r.ident;
                let iter = if r.option { quote!(#x.#ident.iter().flatten()) } else { quote!(#x.#ident.iter()) };
                let item = match self.held(r, self.request) {
                    Some(held) => {
                        let held = view(held, self.request);
                        self.item(element, &Source::Item(&held, y.clone()), depth + 1, None)
                    }
                    None => self.item(element, &Source::Value("", y.clone()), depth + 1, None),
                };
                quote!(#iter.map(|#y| #item))
            })
            .collect();
        let (first, rest) = iters.split_first()?;
        let collected = quote!(#first #(.chain(#rest))* .collect());
        Some(if f.option { quote!(Some(#collected)) } else { collected })
    }

    /// The top-level collection built of the distinct values of its one
    /// string key (renamed from a field of every request collection), in
    /// the order of their UTF-16 code units, as `(field name, expression)`.
    fn distinct(&mut self, req: &StructView<'_>, m: &proc_macro2::Ident) -> Option<(String, TokenStream)> {
        let api = self.request.spec.name.trim_end_matches("Request").to_owned();
        let resp = view(self.response.structs.first()?, self.response);
        let Some(f) = resp.fields.iter().find(|f| is_array(&f.field.ty) && self.held(f, self.response).is_some())
        else {
            self.problems.push(format!("{api}: distinct: the response has no collection"));
            return None;
        };
        let element = self.held(f, self.response)?;
        let mut keys = Vec::new();
        let mut key_name = None;
        for r in req.fields.iter().filter(|r| is_array(&r.field.ty)) {
            let held = self.held(r, self.request)?;
            let Some(k) = held.fields.iter().zip(&held.rust_fields).find(|(k, _)| {
                k.ty == FieldType::String && element.fields.iter().any(|e| e.name == self.request_name(&k.name))
            }) else {
                self.problems.push(format!("{api}: distinct: {} has no string key of the response", r.field.name));
                return None;
            };
            key_name = Some(self.request_name(&k.0.name).to_owned());
            let (coll, key) = (&r.ident, naming::ident(k.1));
            keys.push(quote!(#m.#coll.iter().map(|x| &x.#key)));
        }
        let key_name = key_name?;
        let k = format_ident!("k");
        let item = self.item(element, &Source::Value(&key_name, k.clone()), 1, None);
        let (first, rest) = keys.split_first()?;
        Some((
            f.field.name.clone(),
            quote!({
                let mut keys: Vec<_> = #first #(.chain(#rest))* .collect();
                keys.sort_unstable_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
                keys.dedup();
                keys.into_iter().map(|#k| #item).collect()
            }),
        ))
    }

    /// Whether items of `def` carry an `ErrorCode`, themselves or nested.
    fn carries_error(&self, def: &StructDef<'_>) -> bool {
        self.with_error.contains(def.name)
    }

    /// The struct of message `c` that the field `f` (of `c`) holds.
    fn held<'s>(&self, f: &FieldView<'_>, c: &'s Checked<'c>) -> Option<&'s StructDef<'c>> {
        let held = f.held.as_deref()?;
        c.structs.iter().find(|s| s.rust_name == held)
    }

    /// The path of a response struct from the dispatch's file.
    fn path(&self, def: &StructDef<'_>) -> TokenStream {
        let module = format_ident!("{}", naming::module_name(&self.response.spec.name));
        let ty = format_ident!("{}", def.rust_name);
        quote!(super::#module::#ty)
    }
}

/// The field views of `def`, a struct of `c`.
fn view<'s>(def: &'s StructDef<'s>, c: &Checked<'_>) -> StructView<'s> {
    StructView::new(def, c.spec.flexible_versions)
}

fn is_array(ty: &FieldType) -> bool {
    matches!(ty, FieldType::Array(_))
}

/// `text` as a value of `ty`: a number literal or a string.
fn literal(ty: &FieldType, text: &str) -> Option<TokenStream> {
    match ty {
        FieldType::String => Some(quote!(#text.into())),
        FieldType::Int8 | FieldType::Int16 | FieldType::Int32 | FieldType::Int64 => {
            let n: i64 = text.parse().ok()?;
            let lit = proc_macro2::Literal::i64_unsuffixed(n.abs());
            Some(if n < 0 { quote!(-#lit) } else { quote!(#lit) })
        }
        _ => None,
    }
}
