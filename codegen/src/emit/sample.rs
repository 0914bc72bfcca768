//! `impl Sample` for each struct (optional): random values that a version
//! can carry, so a property test can check decode(encode(m)) == m for every
//! message at every version.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::cond::Cond;
use super::plan::StructPlan;
use super::EmitContext;
use crate::naming;

/// `impl Sample for X`: fields present at the version get random values
/// (null only where nullable); the others keep their defaults.
pub fn emit_sample_impl(plan: &StructPlan<'_, '_>, cx: &EmitContext) -> TokenStream {
    let rt = &cx.runtime;
    let view = plan.view;
    let ident = naming::ident(&view.def.rust_name);
    let fields = plan.fields().map(|p| {
        let f = p.view;
        let name = &f.ident;
        let value = quote!(#rt::sample::Sample::sample(g, version));
        let value = if f.option {
            let nullable = Cond::new(f.field.nullable_versions, f.present);
            let test = nullable.and(quote!(g.one_in(4)));
            quote!(if #test { None } else { Some(#value) })
        } else {
            value
        };
        p.present.guard(quote!(value.#name = #value;))
    });
    let unknown = plan.section.as_ref().map(|section| {
        let known = Literal::u32_unsuffixed(section.known);
        section.present.guard(quote!(value.unknown_tagged_fields = g.unknown_tagged_fields(#known);))
    });
    let (g, version) = if view.fields.is_empty() && unknown.is_none() {
        (quote!(_g), quote!(_version))
    } else if view.fields.is_empty() && !matches!(plan.section.as_ref().map(|s| &s.present), Some(Cond::When(..))) {
        (quote!(g), quote!(_version))
    } else {
        (quote!(g), quote!(version))
    };
    let binding = if view.fields.is_empty() && unknown.is_none() { quote!(let value) } else { quote!(let mut value) };
    quote! {
        impl #rt::sample::Sample for #ident {
            #[allow(clippy::field_reassign_with_default)]
            fn sample(#g: &mut #rt::sample::SampleGen, #version: i16) -> Self {
                #binding = Self::default();
                #(#fields)*
                #unknown
                value
            }
        }
    }
}
