//! The wire impls of each struct, one module per verb, each reading the
//! struct's plan ([`super::plan::StructPlan`]): [`encode`] and [`size`]
//! make `impl EncodeStruct` (the runtime's blanket impls make it `Encode`),
//! [`decode`] `impl Struct` (decode into a value, reset in place; `Decode`
//! by the blanket impls) for the owned struct and its borrowed view, and
//! [`views`] the view's other impls. Each verb is one statement per field,
//! guarded only where the versions need it; what more than one verb emits
//! alike is in [`common`].

mod common;
mod decode;
mod encode;
mod size;
pub mod views;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::field::Form;
use super::plan::StructPlan;
use super::EmitContext;
use crate::naming;

/// `impl EncodeStruct for X` and `impl Struct for X` (the runtime's blanket
/// impls make them `Encode` and `Decode`).
pub fn emit_wire_impl(plan: &StructPlan<'_, '_>, cx: &EmitContext) -> TokenStream {
    let rt = &cx.runtime;
    let ident = naming::ident(&plan.view.def.rust_name);
    let encode = encode::emit_encode(plan, rt);
    let size = size::emit_size(plan, rt);
    let (buf, encode_version) = (param(&encode, "buf"), param(&encode, "version"));
    let size_version = param(&size, "version");
    let encode_inline = common::codec_inline(plan, quote!(#[inline]));
    let decode = decode::emit_decode_impl(plan, cx, Form::Owned);
    quote! {
        impl enc::EncodeStruct for #ident {
            #encode_inline
            fn encode_fields(&self, #buf: &mut kwire::primitives::Writer<'_>, #encode_version: i16) -> Result<(), kwire::error::EncodeError> {
                #encode
            }

            #[inline]
            fn fields_size(&self, #size_version: i16) -> usize {
                #size
            }
        }

        #decode
    }
}

/// The parameter `name`, with a leading underscore when `body` never names
/// it (a struct with nothing to read or write at any of its versions).
pub(super) fn param(body: &TokenStream, name: &str) -> TokenStream {
    let ident = if uses_ident(body, name) { format_ident!("{name}") } else { format_ident!("_{name}") };
    quote!(#ident)
}

/// True when `tokens` mention the identifier `name` anywhere.
/// A field access (`self.version`) is not a use of the name.
pub fn uses_ident(tokens: &TokenStream, name: &str) -> bool {
    let mut after_dot = false;
    tokens.clone().into_iter().any(|t| {
        let used = match &t {
            proc_macro2::TokenTree::Ident(i) => !after_dot && i == name,
            proc_macro2::TokenTree::Group(g) => uses_ident(&g.stream(), name),
            _ => false,
        };
        after_dot = matches!(&t, proc_macro2::TokenTree::Punct(p) if p.as_char() == '.');
        used
    })
}
