//! Struct declarations and their `Default` impls.

use proc_macro2::TokenStream;
use quote::quote;

use super::{doc_attrs, field::about_lines, EmitContext, StructView};
use crate::model::MessageSpec;
use crate::naming;

/// `pub struct X { ... }` with docs, derives and a `Default` that honours
/// the schema's defaults.
pub fn emit_struct(view: &StructView<'_>, spec: &MessageSpec, cx: &EmitContext) -> TokenStream {
    let rt = &cx.runtime;
    let ident = naming::type_ident(view.def.name);
    let mut docs = if view.def.is_message { about_lines(&message_about(spec)) } else { Vec::new() };
    if !docs.is_empty() {
        docs.push(String::new());
    }
    docs.push(format!(" Versions {}; flexible {}.", view.def.versions, view.flexible));
    let docs = doc_attrs(&docs);
    let fields = view.fields.iter().map(|f| {
        let doc = doc_attrs(&f.doc());
        let (name, ty) = (&f.ident, f.rust_type(rt));
        quote!(#doc pub #name: #ty,)
    });
    let unknown = view.has_tagged_section().then(|| {
        quote! {
            /// Tagged fields this schema does not define, kept as read and written back in tag order.
            pub unknown_tagged_fields: Vec<#rt::tagged::RawTaggedField>,
        }
    });
    let natural = view.fields.iter().all(|f| f.default_is_natural());
    let derive_default = natural.then(|| quote!(Default,));
    let default_impl = (!natural).then(|| {
        let inits = view.fields.iter().map(|f| {
            let (name, value) = (&f.ident, f.default_expr(rt));
            quote!(#name: #value,)
        });
        let unknown_init = view.has_tagged_section().then(|| quote!(unknown_tagged_fields: Vec::new(),));
        quote! {
            impl Default for #ident {
                fn default() -> Self {
                    Self { #(#inits)* #unknown_init }
                }
            }
        }
    });
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq, #derive_default)]
        pub struct #ident {
            #(#fields)*
            #unknown
        }
        #default_impl
    }
}

fn message_about(spec: &MessageSpec) -> String {
    let kind = match spec.spec_type {
        crate::model::SpecType::Request => "request",
        crate::model::SpecType::Response => "response",
        crate::model::SpecType::Header => "header",
        crate::model::SpecType::Data => "data record",
        crate::model::SpecType::Metadata => "metadata record",
    };
    match spec.api_key {
        Some(key) => format!("The {} {kind} (api key {key}), from {}.", spec.name, spec.file),
        None => format!("The {} {kind}, from {}.", spec.name, spec.file),
    }
}
