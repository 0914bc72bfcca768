//! Struct declarations and their `Default` impls.

use proc_macro2::TokenStream;
use quote::quote;

use super::field::{about_lines, Form};
use super::{doc_attrs, EmitContext, StructView};
use crate::model::MessageSpec;
use crate::naming;

/// `pub struct X { ... }` (or its view `pub struct XRef<'a> { ... }`) with
/// docs, derives and a `Default` that honours the schema's defaults.
pub fn emit_struct(view: &StructView<'_>, spec: &MessageSpec, cx: &EmitContext, form: Form) -> TokenStream {
    let rt = &cx.runtime;
    let (ident, path) = (form.type_ident(&view.def.rust_name), form.type_path(&view.def.rust_name));
    let mut docs = match form {
        Form::Owned if view.def.is_message => about_lines(&message_about(spec)),
        Form::Owned => Vec::new(),
        Form::Borrowed => vec![format!(
            " A borrowed view of [`{}`]: strings, bytes and arrays of fixed-width values borrow the input.",
            naming::ident(&view.def.rust_name)
        )],
    };
    if !docs.is_empty() {
        docs.push(String::new());
    }
    docs.push(format!(" Versions {}; flexible {}.", view.def.versions, view.flexible));
    let docs = doc_attrs(&docs);
    let fields = view.fields.iter().map(|f| {
        let doc = doc_attrs(&f.doc());
        let (name, ty) = (&f.ident, f.rust_type(rt, form));
        quote!(#doc pub #name: #ty,)
    });
    let raw = match form {
        Form::Owned => quote!(kwire::tagged::RawTaggedField),
        Form::Borrowed => quote!(kwire::tagged::RawTaggedField<&'a [u8]>),
    };
    let unknown = view.has_tagged_section().then(|| {
        quote! {
            /// Tagged fields this schema does not define, kept as read and written back in tag order.
            pub unknown_tagged_fields: Vec<#raw>,
        }
    });
    // A view with nothing borrowed still has the input's lifetime.
    let marker = (form == Form::Borrowed && !view.has_tagged_section() && !view.fields.iter().any(|f| f.borrows()))
        .then(|| {
            quote! {
                /// The input's lifetime: this view borrows nothing else from it.
                pub input: ::core::marker::PhantomData<&'a [u8]>,
            }
        });
    let (generics, marker_init) = match form {
        Form::Owned => (quote!(), None),
        Form::Borrowed => (quote!(<'a>), marker.as_ref().map(|_| quote!(input: ::core::marker::PhantomData,))),
    };
    // With a field that carries a secret, a `Debug` that redacts it.
    let sensitive = super::redact::has_sensitive(view);
    let derive_debug = (!sensitive).then(|| quote!(Debug,));
    let debug_impl = sensitive.then(|| super::redact::emit_debug(view, cx, form));
    let natural = view.fields.iter().all(|f| f.default_is_natural());
    let derive_default = natural.then(|| quote!(Default,));
    let default_impl = (!natural).then(|| {
        let inits = view.fields.iter().map(|f| {
            let (name, value) = (&f.ident, f.default_expr(rt, form));
            quote!(#name: #value,)
        });
        let unknown_init = view.has_tagged_section().then(|| quote!(unknown_tagged_fields: Vec::new(),));
        quote! {
            impl #generics Default for #path {
                fn default() -> Self {
                    Self { #(#inits)* #unknown_init #marker_init }
                }
            }
        }
    });
    quote! {
        #docs
        #[derive(#derive_debug Clone, PartialEq, #derive_default)]
        pub struct #ident #generics {
            #(#fields)*
            #unknown
            #marker
        }
        #default_impl
        #debug_impl
    }
}

fn message_about(spec: &MessageSpec) -> String {
    let kind = match spec.spec_type {
        crate::model::SpecType::Request => "request",
        crate::model::SpecType::Response => "response",
        crate::model::SpecType::Header => "header",
        crate::model::SpecType::Data => "data record",
        crate::model::SpecType::Metadata => "metadata record",
        crate::model::SpecType::CoordinatorKey => "coordinator record key",
        crate::model::SpecType::CoordinatorValue => "coordinator record value",
    };
    match spec.api_key {
        Some(key) => format!("The {} {kind} (api key {key}), from {}.", spec.name, spec.file),
        None => format!("The {} {kind}, from {}.", spec.name, spec.file),
    }
}
