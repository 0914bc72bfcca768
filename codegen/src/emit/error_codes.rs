//! `visit_error_codes` on responses: a method calling a closure with the
//! value of every error-code field present at a version, the nested
//! structs' and arrays' included, in schema order.
//!
//! An error-code field is an `int16` field whose name is `ErrorCode` or
//! ends in `ErrorCode`. Kafka's response schemas use `ErrorCode` for all
//! but three such fields: AddPartitionsToTxn's `PartitionErrorCode` (a
//! partition's outcome, the only error codes of versions 0-3),
//! ShareFetch's `AcknowledgeErrorCode` (the outcome of a partition's
//! acknowledgements) and CreateTopics' tagged `TopicConfigErrorCode` (why
//! a created topic's configs are missing); each holds one of Kafka's error
//! codes, as `ErrorCode` does, so the rule takes them all. A response
//! whose schema has no such field gets an empty method; nested structs
//! without one, at any depth, get none and are not visited. Requests have
//! no method.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::quote;

use super::cond::Cond;
use super::plan::StructPlan;
use crate::check::Checked;
use crate::model::{Field, FieldType, MessageSpec, SpecType};
use crate::naming;

/// Whether `field` holds an error code: `int16`, named `ErrorCode` or
/// `…ErrorCode`.
pub fn is_error_code(field: &Field) -> bool {
    field.ty == FieldType::Int16 && field.name.ends_with("ErrorCode")
}

/// The structs of a response that hold an error-code field, directly or
/// through a nested struct (to any depth); empty for other messages.
pub fn error_code_structs<'a>(checked: &Checked<'a>) -> BTreeSet<&'a str> {
    if checked.spec.spec_type != SpecType::Response {
        return BTreeSet::new();
    }
    checked.structs_holding(is_error_code)
}

/// `visit_error_codes` for one struct of a response: the body always
/// (public), a nested struct when it is in `with` (crate-visible, called
/// by its parent's); nothing otherwise.
pub fn emit_error_codes(plan: &StructPlan<'_, '_>, spec: &MessageSpec, with: &BTreeSet<&str>) -> TokenStream {
    let view = plan.view;
    let message = view.def.is_message && spec.spec_type == SpecType::Response;
    if !message && !with.contains(view.def.name) {
        return TokenStream::new();
    }
    let mut visits = TokenStream::new();
    // Whether the body reads `version` (a guard, or a nested struct).
    let mut versioned = false;
    for f in plan.fields() {
        let field = &f.view.ident;
        let visit = if is_error_code(f.view.field) && !f.view.option {
            quote!(f(self.#field);)
        } else if f.view.field.ty.struct_name().is_some_and(|n| with.contains(n)) {
            versioned = true;
            nested(&f.view.field.ty, quote!(&self.#field), f.view.option)
        } else {
            continue;
        };
        versioned |= matches!(f.present, Cond::When(..));
        visits.extend(f.present.guard(visit));
    }
    let ident = naming::ident(&view.def.rust_name);
    let (vis, doc) = if message {
        let doc = format!(
            " Calls `f` with the value of every error-code field of the {} at `version`: each `int16` field named `ErrorCode` or ending in `ErrorCode`, in its nested structs and arrays too, in schema order (0 is NONE). Reads only the fields present at `version`.",
            spec.name
        );
        (quote!(pub), doc)
    } else {
        (
            quote!(pub(crate)),
            String::from(" The error codes of this struct at `version`, as the response's `visit_error_codes`."),
        )
    };
    let version = if versioned { quote!(version) } else { quote!(_version) };
    let f = if visits.is_empty() { quote!(_f) } else { quote!(f) };
    quote! {
        impl #ident {
            #[doc = #doc]
            #vis fn visit_error_codes(&self, #version: i16, #f: &mut impl FnMut(i16)) {
                #visits
            }
        }
    }
}

/// The visit of the struct or structs a field of type `ty` holds: `value`
/// is a reference to it, an `Option` of it when `option`.
fn nested(ty: &FieldType, value: TokenStream, option: bool) -> TokenStream {
    if option {
        let inner = nested(ty, quote!(v), false);
        return quote!(if let Some(v) = #value { #inner });
    }
    match ty {
        FieldType::Array(inner) => {
            let each = nested(inner, quote!(v), false);
            quote!(for v in #value { #each })
        }
        _ => quote!(#value.visit_error_codes(version, f);),
    }
}
