//! Reading a leading field of an encoded message without decoding it.
//!
//! A codec that must know one field of a frame before (or instead of)
//! decoding it — whether a request expects an answer, say — should not pay
//! for a full decode per frame, nor keep a hand parser of the fields in
//! front of it. For each `Message.Field` of [`crate::Options::peeked_fields`]
//! the message gets `peek_<field>(body, version)`, which skips the fields
//! before it, as its schema lays them out at that version, and reads it;
//! and every header whose fields can all be skipped gets `peek_len(frame,
//! version)`, its encoded length, so that a frame's body can be found
//! without decoding the header either. Both read a borrowed slice, allocate
//! nothing, and name the field and the message on error.
//!
//! Only fixed-width, string and bytes fields can be skipped without reading
//! into them; a peeked field must be fixed-width, positional at every
//! version of its message, and have only skippable fields before it
//! ([`resolve`] refuses anything else).

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::cond::Cond;
use super::field::{fixed_type, FieldView};
use super::{EmitContext, StructView};
use crate::check::Checked;
use crate::model::{FieldType, SpecType};
use crate::naming;

/// The peeked field of each message the entries name (`Message.Field`,
/// Kafka's names), or one problem per entry that cannot be peeked. Entries
/// whose message is not among `checked` are skipped.
pub fn resolve(
    entries: &[impl AsRef<str>],
    checked: &[Checked<'_>],
) -> Result<BTreeSet<(String, String)>, Vec<String>> {
    super::resolve_fields(entries, checked, |entry, message, field, c| {
        let fields = &c.spec.fields;
        let Some(at) = fields.iter().position(|f| f.name == field) else {
            return Err(format!("{message} has no top-level field {field}"));
        };
        let target = &fields[at];
        if fixed_type(&target.ty).is_none() {
            Err(format!("{entry} is {}; only fixed-width fields can be peeked", target.ty))
        } else if !c.spec.valid_versions.subtract(target.versions).is_some_and(|rest| rest.is_empty())
            || !target.tagged_versions.is_empty()
        {
            Err(format!("{entry} is not a positional field at every version of {message}"))
        } else if let Some(before) = fields[..at].iter().find(|f| !skippable(&f.ty) && f.tagged_versions != f.versions)
        {
            Err(format!("{entry} follows {}, a {} that cannot be skipped", before.name, before.ty))
        } else {
            Ok(())
        }
    })
}

/// True for the types a peek can step over without reading into them.
fn skippable(ty: &FieldType) -> bool {
    fixed_type(ty).is_some() || matches!(ty, FieldType::String | FieldType::Bytes | FieldType::Records)
}

/// The statement that steps over `f` where it is positional.
fn skip(f: &FieldView<'_>, within: crate::versions::Versions) -> TokenStream {
    let name = &f.name;
    let flexible = Cond::new(f.flexible, within).expr();
    let step = match &f.field.ty {
        FieldType::String => quote!(enc::peek::skip_str(&mut r, #flexible, #name)),
        FieldType::Bytes | FieldType::Records => quote!(enc::peek::skip_bytes(&mut r, #flexible, #name)),
        ty => {
            let ty = fixed_type(ty).unwrap_or_default();
            quote!(enc::peek::skip_fixed::<#ty>(&mut r, #name))
        }
    };
    Cond::new(f.positional, within).guard(quote!(#step.map_err(|e| e.in_message(MESSAGE, version))?;))
}

/// The `peek_*` function of the message of `checked` if it has a peeked
/// field, and `peek_len` if it is a header whose fields can all be skipped.
pub fn emit_peeks(checked: &Checked<'_>, cx: &EmitContext) -> TokenStream {
    let spec = checked.spec;
    let Some(def) = checked.structs.iter().find(|d| d.is_message) else { return TokenStream::new() };
    let view = StructView::new(def, spec.flexible_versions);
    let within = spec.valid_versions;
    let ty = naming::type_ident(&spec.name);
    let message = &spec.name;
    let mut fns = TokenStream::new();
    for (at, target) in view.fields.iter().enumerate() {
        if !cx.peeked.contains(&(message.clone(), target.field.name.clone())) {
            continue;
        }
        let peeked = &target.field.name;
        let skips = view.fields[..at].iter().filter(|f| !f.positional.is_empty()).map(|f| skip(f, within));
        let read_ty = fixed_type(&target.field.ty).unwrap_or_default();
        let (name, method) = (&target.name, format_ident!("peek_{}", target.name));
        let before: Vec<String> = view.fields[..at].iter().map(|f| format!("`{}`", f.field.name)).collect();
        let doc = format!(
            " The `{peeked}` of an encoded {message} body (no header) at `version`, read without decoding \
             the rest: only the fields before it{} are stepped over, and nothing is allocated.",
            if before.is_empty() { String::new() } else { format!(" ({})", before.join(", ")) }
        );
        let errors = format!(
            " A [`DecodeError`](kwire::error::DecodeError) naming {message}, `version` and the field whose bytes \
             run out or are malformed, at its offset in `body`."
        );
        fns.extend(quote! {
            #[doc = #doc]
            ///
            /// # Errors
            #[doc = #errors]
            #[inline]
            pub fn #method(body: &[u8], version: i16) -> Result<#read_ty, kwire::error::DecodeError> {
                const MESSAGE: &str = #message;
                let mut r = kwire::primitives::Reader::new(body);
                #(#skips)*
                enc::peek::read_fixed::<#read_ty>(&mut r, #name).map_err(|e| e.in_message(MESSAGE, version))
            }
        });
    }
    let all_skippable = view.fields.iter().all(|f| f.positional.is_empty() || skippable(&f.field.ty));
    if spec.spec_type == SpecType::Header && all_skippable {
        let skips = view.fields.iter().filter(|f| !f.positional.is_empty()).map(|f| skip(f, within));
        let section = Cond::new(view.flexible, within)
            .guard(quote!(enc::peek::skip_tagged_section(&mut r).map_err(|e| e.in_message(MESSAGE, version))?;));
        let doc = format!(
            " The length in bytes of the {message} at the start of `frame`, encoded at `version`: where \
             the body starts. Its fields are stepped over, not decoded, and nothing is allocated."
        );
        let errors = format!(
            " A [`DecodeError`](kwire::error::DecodeError) naming {message}, `version` and the field whose bytes \
             run out, at its offset in `frame`."
        );
        fns.extend(quote! {
            #[doc = #doc]
            ///
            /// # Errors
            #[doc = #errors]
            #[inline]
            pub fn peek_len(frame: &[u8], version: i16) -> Result<usize, kwire::error::DecodeError> {
                const MESSAGE: &str = #message;
                let mut r = kwire::primitives::Reader::new(frame);
                #(#skips)*
                #section
                Ok(r.offset())
            }
        });
    }
    if fns.is_empty() {
        return fns;
    }
    quote!(impl #ty { #fns })
}
