//! What more than one verb emits alike: the version tiers of a run of
//! fixed-width fields and its bytes (encode, decode), the marker of a
//! nullable struct and the flags of the tagged fields written (encode,
//! size), the inline hint of a struct's codec (encode, decode).

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::emit::cond::Cond;
use crate::emit::plan::{FieldPlan, Run, StructPlan, TaggedField};
use crate::model::FieldType;

/// The inline hint of a struct's `encode_fields` or `decode_fields_into`:
/// `leaf` for a struct without nested structs, inlined into the loop over
/// its array; `#[inline(never)]` for any other, one function that its
/// array loop and its parent call, optimized once rather than again in
/// every caller it would be inlined into, at the cost of a call per element.
pub(super) fn codec_inline(plan: &StructPlan<'_, '_>, leaf: TokenStream) -> TokenStream {
    match plan.leaf {
        true => leaf,
        false => quote!(#[inline(never)]),
    }
}

/// `nullable` (the `Option`'s own encoding or size) where the field is
/// nullable, `bare` (the value's) elsewhere within its positional versions.
/// Only a struct's encoding differs (spec §4.5): its int8 presence marker
/// exists only at its nullable versions. A null string, bytes or array is a
/// length or count of -1 or 0, and a present one is the value's own
/// encoding, so for them `nullable` serves every version.
pub(super) fn marked_where_nullable(f: &FieldPlan<'_, '_>, nullable: TokenStream, bare: TokenStream) -> TokenStream {
    if !f.view.option || !matches!(f.view.field.ty, FieldType::Struct(_)) {
        return nullable;
    }
    match &f.nullable {
        Cond::Always => nullable,
        Cond::Never => bare,
        Cond::When(e, _) => quote!(if #e { #nullable } else { #bare }),
    }
}

/// The code for a run at each version: `branch(n)` handles the first `n`
/// fields present (and `branch(0)` none), chosen by the run's tiers, most
/// fields first: `if version >= 5 { …5 fields… } else if version >= 4 { …4… }`.
/// A tier present at every version still possible ends the chain.
pub(super) fn by_tier(run: &Run<'_, '_>, branch: impl Fn(usize) -> TokenStream) -> TokenStream {
    let mut arms = Vec::new();
    let mut otherwise = branch(0);
    for tier in run.tiers.iter().rev() {
        match &tier.cond {
            Cond::Never => {}
            Cond::Always => {
                otherwise = branch(tier.count);
                break;
            }
            Cond::When(test, _) => arms.push((test, branch(tier.count))),
        }
    }
    // Built from the last arm outwards, so that the tokens read `else if`.
    let mut chain: Option<TokenStream> = None;
    for (test, body) in arms.into_iter().rev() {
        chain = Some(match chain {
            Some(rest) => quote!(if #test { #body } else #rest),
            None if otherwise.is_empty() => quote!(if #test { #body }),
            None => quote!(if #test { #body } else { #otherwise }),
        });
    }
    chain.unwrap_or(otherwise)
}

/// The byte length of the first `n` fields of a run, and each one's range
/// in it (`start..end`).
pub(super) fn run_bytes(run: &Run<'_, '_>, n: usize) -> (Literal, Vec<TokenStream>) {
    let bytes = &run.bytes[..n];
    let ranges = bytes
        .iter()
        .map(|b| {
            let (start, end) = (Literal::usize_unsuffixed(b.start), Literal::usize_unsuffixed(b.end));
            quote!(#start..#end)
        })
        .collect();
    (Literal::usize_unsuffixed(bytes.last().map_or(0, |b| b.end)), ranges)
}

/// `#[inline(always)]` where the crate is optimized, `#[inline]` in a debug
/// build (`debug_assertions`, the proxy Rust offers for opt-level 0): there
/// the always-inliner is the only inliner that runs, and it would copy the
/// body into every caller, unoptimized, for code that is not meant to be
/// fast. The runtime's hot helpers carry the same pair.
pub(super) fn always_when_optimized() -> TokenStream {
    quote!(
        #[cfg_attr(not(debug_assertions), inline(always))]
        #[cfg_attr(debug_assertions, inline)]
    )
}

/// `let write_x = <tagged here> && <not default>;` for each tagged field.
pub(super) fn tagged_flags(tagged: &[&TaggedField<'_, '_>], rt: &TokenStream) -> Vec<TokenStream> {
    tagged
        .iter()
        .map(|t| {
            let (ident, flag) = (&t.view.ident, &t.flag);
            let test = t.tagged.and(t.view.non_default(quote!(self.#ident), rt));
            quote!(let #flag = #test;)
        })
        .collect()
}
