//! The borrowed view of each struct (`XRef<'a>`, decoded from a `&'a [u8]`
//! with strings, bytes and arrays of fixed-width values borrowing it): its
//! declaration ([`crate::emit::structs`] in the borrowed form), its decode
//! ([`super::decode`] in the borrowed form), `IntoOwned` (field by field
//! into the owned struct) and, for a message, `MessageView`.

use proc_macro2::TokenStream;
use quote::quote;

use super::decode::emit_decode_impl;
use crate::emit::field::Form;
use crate::emit::plan::StructPlan;
use crate::emit::{structs, EmitContext};
use crate::model::MessageSpec;

/// The borrowed view of the struct of `plan`, one of `spec`'s: its
/// declaration and impls.
pub fn emit_view(plan: &StructPlan<'_, '_>, spec: &MessageSpec, cx: &EmitContext) -> TokenStream {
    let mut view = structs::emit_struct(plan.view, spec, cx, Form::Borrowed);
    view.extend(emit_view_impls(plan, cx));
    view
}

/// The borrowed view's impls: `Struct` (from `&'a [u8]`), `IntoOwned`
/// (field by field into the owned struct) and, for a message,
/// `MessageView`.
fn emit_view_impls(plan: &StructPlan<'_, '_>, cx: &EmitContext) -> TokenStream {
    let view = plan.view;
    let (owned, path) = (Form::Owned.type_path(&view.def.rust_name), Form::Borrowed.type_path(&view.def.rust_name));
    let decode = emit_decode_impl(plan, cx, Form::Borrowed);
    let fields = view.fields.iter().map(|f| {
        let (ident, value) = (&f.ident, f.owned_value());
        quote!(#ident: #value,)
    });
    let unknown = plan
        .section
        .as_ref()
        .map(|_| quote!(unknown_tagged_fields: kwire::primitives::IntoOwned::into_owned(self.unknown_tagged_fields),));
    let message = view.def.is_message.then(|| quote!(impl<'a> kwire::message::MessageView<'a> for #path {}));
    quote! {
        #decode

        impl<'a> kwire::primitives::IntoOwned for #path {
            type Owned = #owned;

            #[inline]
            fn into_owned(self) -> #owned {
                #owned { #(#fields)* #unknown }
            }
        }

        #message
    }
}
