//! Decode at a version (`Struct::decode_fields_into`, which the runtime's
//! owned `decode` and `decode_into` both run) and the reset in place
//! (`Struct::reset_fields`), for the owned struct and its borrowed view
//! alike: runs of fixed-width fields read with one bounds check, every
//! other field read where it is positional and reset elsewhere, then the
//! tagged section.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::common::{always_when_optimized, by_tier, codec_inline, run_bytes};
use super::param;
use crate::emit::cond::Cond;
use crate::emit::field::Form;
use crate::emit::plan::{FieldPlan, Group, Run, StructPlan};
use crate::emit::EmitContext;

/// `impl Struct for X` (or `impl<'a> Struct for XRef<'a>` with `&'a [u8]` input): the
/// decode at a version and the reset in place.
pub(super) fn emit_decode_impl(plan: &StructPlan<'_, '_>, cx: &EmitContext, form: Form) -> TokenStream {
    let rt = &cx.runtime;
    let view = plan.view;
    let decode = emit_decode(plan, rt, form);
    let resets = view.fields.iter().map(|f| f.reset(rt, form));
    let unknown = plan.section.as_ref().map(|_| clear_unknown());
    let (r, version) = (param(&decode, "r"), param(&decode, "version"));
    // A struct without nested structs (a topic config, an api version
    // range, a partition's records) is decoded inline in the loop over its
    // array, always when optimized: with a records length read in place,
    // the compiler would otherwise keep a call per partition.
    let inline = codec_inline(plan, always_when_optimized());
    let (generics, input_ty, ty) = match form {
        Form::Owned => (quote!(), quote!(#rt::Bytes), Form::Owned.type_path(&view.def.rust_name)),
        Form::Borrowed => (quote!(<'a>), quote!(&'a [u8]), Form::Borrowed.type_path(&view.def.rust_name)),
    };
    quote! {
        impl #generics enc::Struct for #ty {
            type Input = #input_ty;

            #inline
            fn decode_fields_into(&mut self, #r: &mut kwire::primitives::Reader<Self::Input>, #version: i16) -> Result<(), kwire::error::DecodeError> {
                #decode
            }

            #[inline]
            fn reset_fields(&mut self) {
                #(#resets)* #unknown
            }
        }
    }
}

/// Empties the struct's unknown tagged fields, in its decode and its reset
/// alike: the runtime's `tagged::clear` tests before it clears.
fn clear_unknown() -> TokenStream {
    quote!(enc::tagged::clear(&mut self.unknown_tagged_fields);)
}

/// The body of `decode_fields_into`: every group of fields read or reset
/// in order, then the tagged section.
fn emit_decode(plan: &StructPlan<'_, '_>, rt: &TokenStream, form: Form) -> TokenStream {
    let mut body = TokenStream::new();
    for group in &plan.groups {
        match group {
            Group::Run(run) if run.fields.len() > 1 => {
                let resets = |fields: &[FieldPlan<'_, '_>]| {
                    let resets = fields.iter().map(|f| f.view.reset(rt, form));
                    quote!(#(#resets)*)
                };
                body.extend(by_tier(run, |n| match n {
                    0 => resets(&run.fields),
                    _ => {
                        let (read, absent) = (read_run(run, n), resets(&run.fields[n..]));
                        quote!(#read #absent)
                    }
                }));
            }
            // A lone fixed-width field is read as any other field.
            _ => body.extend(group.fields().iter().map(|f| read_field(f, rt, form))),
        }
    }
    if let Some(section) = &plan.section {
        // Tagged fields were reset with the fields absent from this version.
        let arms = section
            .fields
            .iter()
            .map(|t| {
                let (ident, name) = (&t.view.ident, &t.view.name);
                let tag = Literal::u32_unsuffixed(t.tag);
                let guard = match &t.tagged {
                    Cond::When(e, _) => quote!(if #e),
                    _ => quote!(),
                };
                quote!(#tag #guard => self.#ident = enc::field::decode_tagged(r, version, #name)?,)
            })
            .collect::<Vec<_>>();
        let known = Literal::u32_unsuffixed(section.known);
        let read = if arms.is_empty() {
            quote!(enc::tagged::decode_unknown_section(r, #known, &mut self.unknown_tagged_fields)?;)
        } else {
            quote! {
                enc::tagged::decode_section(r, #known, &mut self.unknown_tagged_fields, |tag, r| {
                    match tag {
                        #(#arms)*
                        _ => return Ok(false),
                    }
                    Ok(true)
                })?;
            }
        };
        body.extend(clear_unknown());
        body.extend(section.present.guard(read));
    }
    quote! {
        #body
        Ok(())
    }
}

/// Reads one field where it is positional, and resets it elsewhere.
fn read_field(f: &FieldPlan<'_, '_>, rt: &TokenStream, form: Form) -> TokenStream {
    let v = f.view;
    let (ident, name, flexible) = (&v.ident, &v.name, &f.flexible);
    let read = if v.is_fixed_array() && form == Form::Owned {
        quote!(enc::field::decode_fixed_array_into(&mut self.#ident, r, #flexible, #name)?;)
    } else {
        quote!(enc::field::decode_into(&mut self.#ident, r, version, #flexible, #name)?;)
    };
    let read = match v.option {
        false => read,
        true => {
            let required = quote!(enc::field::decode_required_into(&mut self.#ident, r, version, #flexible, #name)?;);
            match &f.nullable {
                Cond::Always => read,
                Cond::Never => required,
                Cond::When(e, _) => quote!(if #e { #read } else { #required }),
            }
        }
    };
    let reset = v.reset(rt, form);
    match &f.positional {
        Cond::Always => read,
        Cond::Never => reset,
        Cond::When(e, _) => quote!(if #e { #read } else { #reset }),
    }
}

/// Reads the first `n` fields of a run with one bounds check, then takes
/// each value from its slice of the run.
fn read_run(run: &Run<'_, '_>, n: usize) -> TokenStream {
    let fields = &run.fields[..n];
    let (len, ranges) = run_bytes(run, n);
    let sizes = fields.iter().zip(&run.bytes).map(|(f, b)| {
        let (name, size) = (&f.view.name, Literal::usize_unsuffixed(b.len()));
        quote!((#name, #size))
    });
    let reads = fields.iter().zip(ranges).map(|(f, range)| {
        let ident = &f.view.ident;
        quote!(self.#ident = enc::Fixed::from_chunk(&run[#range]);)
    });
    quote! {
        let run: [u8; #len] = enc::field::read_run(r, &[#(#sizes),*])?;
        #(#reads)*
    }
}
