//! The encoded size at a version (`EncodeStruct::fields_size`): constants
//! for fixed-width fields, each other value's own size, and the tagged
//! section's, each guarded by the versions the field is written at.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::common::{marked_where_nullable, tagged_flags};
use crate::emit::plan::StructPlan;

/// The body of `fields_size`: `0`, or the sum of the sizes of the fields
/// written at the version.
pub(super) fn emit_size(plan: &StructPlan<'_, '_>, rt: &TokenStream) -> TokenStream {
    let mut body = TokenStream::new();
    for f in plan.fields() {
        let (ident, flexible) = (&f.view.ident, &f.flexible);
        let add = match f.view.fixed_size() {
            Some(n) => {
                let n = Literal::usize_unsuffixed(n);
                quote!(size += #n;)
            }
            None => marked_where_nullable(
                f,
                quote!(size += enc::Encode::value_size(&self.#ident, version, #flexible);),
                quote!(size += enc::field::size_required(&self.#ident, version, #flexible);),
            ),
        };
        body.extend(f.positional.guard(add));
    }
    if let Some(section) = &plan.section {
        let tagged: Vec<_> = section.fields.iter().collect();
        let flags = tagged_flags(&tagged, rt);
        let count_decl = if tagged.is_empty() {
            quote!(let count = self.unknown_tagged_fields.len();)
        } else {
            quote!(let mut count = self.unknown_tagged_fields.len();)
        };
        let counts = tagged.iter().map(|t| {
            let flag = &t.flag;
            quote!(count += usize::from(#flag);)
        });
        let sizes = tagged.iter().map(|t| {
            let (ident, flag) = (&t.view.ident, &t.flag);
            let tag = Literal::u32_unsuffixed(t.tag);
            quote! {
                if #flag {
                    size += enc::tagged::field_size(#tag, &self.#ident, version);
                }
            }
        });
        let section_size = if tagged.is_empty() {
            quote!(size += enc::tagged::unknown_section_size(&self.unknown_tagged_fields);)
        } else {
            quote! {
                #(#flags)*
                #count_decl
                #(#counts)*
                size += enc::uvarint_len(count as u32) + enc::tagged::unknown_size(&self.unknown_tagged_fields);
                #(#sizes)*
            }
        };
        body.extend(section.present.guard(section_size));
    }
    if body.is_empty() {
        return quote!(0);
    }
    quote! {
        let mut size = 0;
        #body
        size
    }
}
