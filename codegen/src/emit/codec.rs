//! `impl Wire` and `impl Decode` for each struct: encode, size and decode
//! at a version, one statement per field, each guarded only where the
//! versions need it.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::cond::Cond;
use super::field::{FieldView, Form};
use super::{EmitContext, StructView};
use crate::model::FieldType;
use crate::naming;
use crate::versions::Versions;

/// `impl Wire for X`, `impl Decode for X` and `impl Struct for X`.
pub fn emit_wire_impl(view: &StructView<'_>, cx: &EmitContext) -> TokenStream {
    let rt = &cx.runtime;
    let ident = naming::type_ident(view.def.name);
    let encode = emit_encode(view, rt);
    let size = emit_size(view, rt);
    let (buf, encode_version) = (param(&encode, "buf"), param(&encode, "version"));
    let size_version = param(&size, "version");
    let encode_inline = is_leaf(view).then(|| quote!(#[inline]));
    let decode = emit_decode_impl(view, cx, Form::Owned);
    quote! {
        impl enc::Wire for #ident {
            #encode_inline
            fn encode_value(&self, #buf: &mut #rt::primitives::Writer<'_>, #encode_version: i16, _flexible: bool) -> Result<(), #rt::error::EncodeError> {
                #encode
            }

            #[inline]
            fn value_size(&self, #size_version: i16, _flexible: bool) -> usize {
                #size
            }
        }

        #decode
    }
}

/// The borrowed view's impls: `Decode<&'a [u8]>`, `Struct`, `IntoOwned`
/// (field by field into the owned struct) and, for a message,
/// `MessageView`.
pub fn emit_view_impls(view: &StructView<'_>, cx: &EmitContext) -> TokenStream {
    let rt = &cx.runtime;
    let (owned, path) = (Form::Owned.type_path(view.def.name), Form::Borrowed.type_path(view.def.name));
    let decode = emit_decode_impl(view, cx, Form::Borrowed);
    let fields = view.fields.iter().map(|f| {
        let (ident, value) = (&f.ident, f.owned_value(rt));
        quote!(#ident: #value,)
    });
    let unknown = view
        .has_tagged_section()
        .then(|| quote!(unknown_tagged_fields: #rt::primitives::IntoOwned::into_owned(self.unknown_tagged_fields),));
    let message = view.def.is_message.then(|| quote!(impl<'a> #rt::message::MessageView<'a> for #path {}));
    quote! {
        #decode

        impl<'a> #rt::primitives::IntoOwned for #path {
            type Owned = #owned;

            #[inline]
            fn into_owned(self) -> #owned {
                #owned { #(#fields)* #unknown }
            }
        }

        #message
    }
}

/// `impl Decode for X` (or `impl<'a> Decode<&'a [u8]> for XRef<'a>`) and
/// `impl Struct` for it: the decode at a version and the reset in place.
fn emit_decode_impl(view: &StructView<'_>, cx: &EmitContext, form: Form) -> TokenStream {
    let rt = &cx.runtime;
    let decode = emit_decode(view, rt, form);
    let resets = view.fields.iter().map(|f| f.reset(rt, form));
    let unknown = view.has_tagged_section().then(|| quote!(self.unknown_tagged_fields.clear();));
    let (r, version) = (param(&decode, "r"), param(&decode, "version"));
    // A struct without nested structs (a topic config, an api version
    // range, a partition's records) is decoded inline in the loop over its
    // array: with a records length read in place, the compiler would
    // otherwise keep a call per partition.
    let inline = is_leaf(view).then(|| quote!(#[inline(always)]));
    let (generics, input, ty) = match form {
        Form::Owned => (quote!(), quote!(), Form::Owned.type_path(view.def.name)),
        Form::Borrowed => (quote!(<'a>), quote!(<&'a [u8]>), Form::Borrowed.type_path(view.def.name)),
    };
    quote! {
        impl #generics enc::Decode #input for #ty {
            #inline
            fn decode_value_into(&mut self, #r: &mut #rt::primitives::Reader #input, #version: i16, _flexible: bool) -> Result<(), #rt::error::DecodeError> {
                #decode
            }

            #[inline]
            fn reset_value(&mut self) {
                #(#resets)* #unknown
            }
        }

        impl #generics enc::Struct for #ty {}
    }
}

/// A struct without nested structs: encoded and decoded inline in the loop
/// over its array, a few writes or reads being less than the cost of a call.
fn is_leaf(view: &StructView<'_>) -> bool {
    view.fields.iter().all(|f| f.field.ty.struct_name().is_none())
}

/// The parameter `name`, with a leading underscore when `body` never names
/// it (a struct with nothing to read or write at any of its versions).
fn param(body: &TokenStream, name: &str) -> TokenStream {
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

fn emit_encode(view: &StructView<'_>, rt: &TokenStream) -> TokenStream {
    let within = view.def.versions;
    let mut body = TokenStream::new();
    // Checks that a field absent at this version holds its default come first:
    // they only read `self`, and leave the writes free to merge.
    for f in &view.fields {
        if !f.field.ignorable {
            let ident = &f.ident;
            let non_default = f.non_default(quote!(self.#ident), rt);
            if let Some(test) = Cond::new(f.present, within).and_not(non_default) {
                let name = &f.name;
                body.extend(quote! {
                    if #test {
                        return Err(enc::field::non_default(#name));
                    }
                });
            }
        }
    }
    // Fields that can be written into reserved bytes (see `Piece`) are
    // gathered into segments: one reservation, then writes that keep the
    // buffer's pointer and position in registers.
    let mut pending: Vec<Piece> = Vec::new();
    for group in groups(&view.fields, within) {
        if group[0].positional.intersect(within).is_empty() {
            continue; // tagged at every version: written with the section
        }
        if let Some(p) = piece(&group, within) {
            pending.push(p);
        } else if let Some(p) = count_piece(group[0], within) {
            // The count ends the segment; the elements follow it.
            pending.push(p);
            body.extend(segment(std::mem::take(&mut pending)));
        } else {
            body.extend(segment(std::mem::take(&mut pending)));
            body.extend(write_group(&group, within));
        }
    }
    if view.has_tagged_section() {
        let section_versions = view.flexible;
        let mut tagged: Vec<_> = view.fields.iter().filter(|f| !f.tagged.is_empty()).collect();
        // On the wire in ascending tag order, whatever the schema's field
        // order (Kafka 4.4's PartitionChangeRecord declares tag 8 before 6).
        tagged.sort_by_key(|f| f.field.tag);
        let known = Literal::u32_unsuffixed(view.known_tags);
        let flags = tagged_flags(&tagged, section_versions, rt);
        pending.push(section_piece(&tagged, flags, Cond::new(section_versions, within), known));
    }
    body.extend(segment(pending));
    quote!(#body Ok(()))
}

/// What a segment needs of one group of fields, or of the tagged section:
/// its writes through the segment `s`, the most bytes they take (a
/// constant plus an expression of the values), the code that follows the
/// segment, and its plain writes through `buf` for when it stands alone.
struct Piece {
    before: TokenStream,
    writes: TokenStream,
    most: usize,
    most_of_values: Option<TokenStream>,
    after: TokenStream,
    /// Plain writes to use when the piece is alone: fixed-width fields and
    /// the tagged section gain nothing from a segment of their own.
    alone: Option<TokenStream>,
}

/// The piece of a group that a segment can write: fixed-width fields,
/// strings, and arrays of fixed-width values.
fn piece(group: &[&FieldView<'_>], within: Versions) -> Option<Piece> {
    let f = group[0];
    if f.is_fixed() {
        let len = group.iter().filter_map(|f| f.fixed_size()).sum();
        return Some(Piece {
            before: TokenStream::new(),
            writes: by_tier(group, within, |n| fixed_run(&group[..n], Sink::Segment)),
            most: len,
            most_of_values: None,
            after: TokenStream::new(),
            alone: Some(by_tier(group, within, |n| fixed_run(&group[..n], Sink::Writer))),
        });
    }
    let (ident, name) = (&f.ident, &f.name);
    let narrowed = f.positional.intersect(within);
    let flexible = flexible_expr(f, narrowed);
    let (write, most_of_value) = match (&f.field.ty, f.option) {
        (FieldType::String, false) => {
            (quote!(enc::field::put_str(&mut s, &self.#ident, #flexible, #name)?;), quote!(self.#ident.len()))
        }
        (FieldType::String, true) => (
            quote!(enc::field::put_nullable_str(&mut s, self.#ident.as_deref(), #flexible, #name)?;),
            quote!(self.#ident.as_deref().map_or(0, str::len)),
        ),
        _ => {
            let most = match f.fixed_element_size()? {
                1 => quote!(self.#ident.len()),
                size => {
                    let size = Literal::usize_unsuffixed(size);
                    quote!(self.#ident.len() * #size)
                }
            };
            (quote!(enc::field::put_fixed_array(&mut s, &self.#ident, #flexible, #name)?;), most)
        }
    };
    let null_check = null_check(f, narrowed);
    Some(Piece {
        before: TokenStream::new(),
        writes: Cond::new(f.positional, within).guard(quote! {
            #null_check
            #write
        }),
        // A length or count prefix takes at most 5 bytes.
        most: 5,
        most_of_values: Some(most_of_value),
        after: TokenStream::new(),
        alone: None,
    })
}

/// The piece of a non-nullable array of structs or strings: its count in
/// the segment, its elements written after it.
fn count_piece(f: &FieldView<'_>, within: Versions) -> Option<Piece> {
    if f.option || !matches!(f.field.ty, FieldType::Array(_)) {
        return None;
    }
    let (ident, name) = (&f.ident, &f.name);
    let flexible = flexible_expr(f, f.positional.intersect(within));
    let cond = Cond::new(f.positional, within);
    Some(Piece {
        before: TokenStream::new(),
        writes: cond.guard(quote!(enc::field::put_count(&mut s, self.#ident.len(), #flexible, #name)?;)),
        most: 5,
        most_of_values: None,
        after: cond.guard(quote! {
            enc::field::encode_elements(&self.#ident, buf, version, #flexible, #name)?;
        }),
        alone: Some(write_group(&[f], within)),
    })
}

/// The tagged section: its usual `00` (no known field set, no unknown
/// field kept) in the segment, and after it the rare section with fields:
/// its count, the known fields that differ from their defaults (the
/// `write_…` flags of [`tagged_flags`]), then the unknown ones.
fn section_piece(tagged: &[&FieldView<'_>], flag_lets: Vec<TokenStream>, cond: Cond, known: Literal) -> Piece {
    let flags: Vec<_> = tagged.iter().map(|f| flag_ident(f)).collect();
    let (empty, some) = (
        quote!(#(!#flags &&)* self.unknown_tagged_fields.is_empty()),
        quote!(#(#flags ||)* !self.unknown_tagged_fields.is_empty()),
    );
    let section = if tagged.is_empty() {
        quote!(enc::tagged::encode_unknown_section(buf, &self.unknown_tagged_fields, #known)?;)
    } else {
        let writes = tagged.iter().map(|f| {
            let (ident, name, flag) = (&f.ident, &f.name, flag_ident(f));
            let tag = Literal::u32_unsuffixed(f.field.tag.unwrap_or_default());
            let null_check = null_check(f, f.tagged);
            quote! {
                if #flag {
                    #null_check
                    enc::tagged::encode_field(buf, #tag, &self.#ident, version, #name)?;
                }
            }
        });
        quote! {
            let mut count = self.unknown_tagged_fields.len();
            #(count += usize::from(#flags);)*
            enc::put_uvarint(buf, count as u32);
            #(#writes)*
            enc::tagged::encode_unknown(buf, &self.unknown_tagged_fields, #known)?;
        }
    };
    let (writes, after, alone) = match cond {
        Cond::When(e, _) => (
            quote!(if #e && #empty { s.put_u8(0)?; }),
            quote! {
                if #e {
                    if #some {
                        #section
                    }
                } else {
                    enc::tagged::check_none(&self.unknown_tagged_fields)?;
                }
            },
            quote! {
                if #e {
                    #(#flag_lets)*
                    #section
                } else {
                    enc::tagged::check_none(&self.unknown_tagged_fields)?;
                }
            },
        ),
        _ => (quote!(if #empty { s.put_u8(0)?; }), quote!(if #some { #section }), quote!(#(#flag_lets)* #section)),
    };
    // In a segment, the flags (which only read `self`) come before it.
    Piece { before: quote!(#(#flag_lets)*), writes, most: 1, most_of_values: None, after, alone: Some(alone) }
}

/// The code of a segment: one reservation of the pieces' most bytes, their
/// writes, `finish` to keep them, then what follows them.
fn segment(pieces: Vec<Piece>) -> TokenStream {
    match pieces.as_slice() {
        [] => return TokenStream::new(),
        [Piece { alone: Some(alone), .. }] => return alone.clone(),
        _ => {}
    }
    let most = Literal::usize_unsuffixed(pieces.iter().map(|p| p.most).sum());
    let values = pieces.iter().filter_map(|p| p.most_of_values.as_ref());
    let before = pieces.iter().map(|p| &p.before);
    let writes = pieces.iter().map(|p| &p.writes);
    let after = pieces.iter().map(|p| &p.after);
    quote! {
        #(#before)*
        let mut s = buf.segment(#most #(+ #values)*);
        #(#writes)*
        s.finish();
        #(#after)*
    }
}

/// Writes a group that no segment takes: a struct, an array of them, bytes,
/// records, or a nullable value other than a string.
fn write_group(group: &[&FieldView<'_>], within: Versions) -> TokenStream {
    let f = group[0];
    let (ident, name) = (&f.ident, &f.name);
    let narrowed = f.positional.intersect(within);
    let null_check = null_check(f, narrowed);
    let flexible = flexible_expr(f, narrowed);
    let write = marked_where_nullable(
        f,
        narrowed,
        quote!(enc::field::encode(&self.#ident, buf, version, #flexible, #name)?;),
        quote!(enc::field::encode_required(&self.#ident, buf, version, #flexible, #name)?;),
    );
    Cond::new(f.positional, within).guard(quote! {
        #null_check
        #write
    })
}

/// `nullable` (the `Option`'s own encoding or size) where the field is
/// nullable, `bare` (the value's) elsewhere within `narrowed`. Only a
/// struct's encoding differs (spec §4.5): its int8 presence marker exists
/// only at its nullable versions. A null string, bytes or array is a length
/// or count of -1 or 0, and a present one is the value's own encoding, so
/// for them `nullable` serves every version.
fn marked_where_nullable(
    f: &FieldView<'_>,
    narrowed: Versions,
    nullable: TokenStream,
    bare: TokenStream,
) -> TokenStream {
    if !f.option || !matches!(f.field.ty, FieldType::Struct(_)) {
        return nullable;
    }
    match Cond::new(f.field.nullable_versions, narrowed) {
        Cond::Always => nullable,
        Cond::Never => bare,
        Cond::When(e, _) => quote!(if #e { #nullable } else { #bare }),
    }
}

/// The fields in order, adjacent fixed-width fields gathered into one group
/// (a run: written with one capacity check, read with one bounds check)
/// while each is present at the versions of the one before it or fewer,
/// every other field a group of its own. So at any version the fields of a
/// run that are present are a prefix of it (see [`by_tier`]).
fn groups<'a, 'b>(fields: &'a [FieldView<'b>], within: Versions) -> Vec<Vec<&'a FieldView<'b>>> {
    let mut groups: Vec<Vec<&FieldView<'_>>> = Vec::new();
    for f in fields {
        let here = f.positional.intersect(within);
        match groups.last_mut() {
            Some(run)
                if f.is_fixed()
                    && run[0].is_fixed()
                    && !here.is_empty()
                    && run[run.len() - 1].positional.intersect(within).contains_range(here) =>
            {
                run.push(f)
            }
            _ => groups.push(vec![f]),
        }
    }
    groups
}

/// The code for a run at each version: `branch(n)` handles the first `n`
/// fields present (and `branch(0)` none), chosen by the versions of the
/// run's tiers (adjacent fields present at the same versions), most
/// fields first: `if version >= 5 { …5 fields… } else if version >= 4 { …4… }`.
/// A tier present at every version still possible ends the chain.
fn by_tier(run: &[&FieldView<'_>], within: Versions, branch: impl Fn(usize) -> TokenStream) -> TokenStream {
    // (versions of a tier, fields up to and including it)
    let mut tiers: Vec<(Versions, usize)> = Vec::new();
    for (i, f) in run.iter().enumerate() {
        let here = f.positional.intersect(within);
        match tiers.last_mut() {
            Some((versions, n)) if *versions == here => *n = i + 1,
            _ => tiers.push((here, i + 1)),
        }
    }
    let mut arms = Vec::new();
    let mut otherwise = branch(0);
    for &(versions, n) in tiers.iter().rev() {
        match Cond::new(versions, within) {
            Cond::Never => {}
            Cond::Always => {
                otherwise = branch(n);
                break;
            }
            Cond::When(test, _) => arms.push((test, branch(n))),
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

/// Where encoding code writes: the `Writer` `buf`, or the `Segment` `s`.
#[derive(Clone, Copy)]
enum Sink {
    Writer,
    Segment,
}

/// Writes adjacent fixed-width fields: one at a time when alone, else their
/// big-endian bytes gathered in an array and appended at once.
fn fixed_run(run: &[&FieldView<'_>], sink: Sink) -> TokenStream {
    match (run, sink) {
        ([], _) => return TokenStream::new(),
        ([f], Sink::Writer) => {
            let ident = &f.ident;
            return quote!(enc::Fixed::put(self.#ident, buf););
        }
        ([f], Sink::Segment) => {
            let ident = &f.ident;
            return quote!(s.put_fixed(self.#ident)?;);
        }
        _ => {}
    }
    let (len, slices) = run_layout(run);
    let writes = slices.into_iter().map(|(f, range)| {
        let ident = &f.ident;
        let bytes = match f.field.ty {
            FieldType::Bool => quote!([u8::from(self.#ident)]),
            FieldType::Uuid => quote!(self.#ident.0),
            _ => quote!(self.#ident.to_be_bytes()),
        };
        quote!(run[#range].copy_from_slice(&#bytes);)
    });
    let append = match sink {
        Sink::Writer => quote!(buf.extend_from_slice(&run);),
        Sink::Segment => quote!(s.put_slice(&run)?;),
    };
    quote! {
        let mut run = [0u8; #len];
        #(#writes)*
        #append
    }
}

/// The byte length of a run and each field's range in it (`start..end`).
fn run_layout<'a, 'b>(run: &[&'a FieldView<'b>]) -> (Literal, Vec<(&'a FieldView<'b>, TokenStream)>) {
    let mut at = 0;
    let mut slices = Vec::new();
    for &f in run {
        let size = f.fixed_size().unwrap_or_default();
        let (start, end) = (Literal::usize_unsuffixed(at), Literal::usize_unsuffixed(at + size));
        slices.push((f, quote!(#start..#end)));
        at += size;
    }
    (Literal::usize_unsuffixed(at), slices)
}

/// Reads a run of adjacent fixed-width fields with one bounds check, then
/// takes each value from its slice of the run.
fn read_run(run: &[&FieldView<'_>]) -> TokenStream {
    let (len, slices) = run_layout(run);
    let sizes = run.iter().map(|f| {
        let (name, size) = (&f.name, Literal::usize_unsuffixed(f.fixed_size().unwrap_or_default()));
        quote!((#name, #size))
    });
    let reads = slices.into_iter().map(|(f, range)| {
        let ident = &f.ident;
        quote!(self.#ident = enc::Fixed::from_chunk(&run[#range]);)
    });
    quote! {
        let run: [u8; #len] = enc::field::read_run(r, &[#(#sizes),*])?;
        #(#reads)*
    }
}

/// The `flexible` argument: whether strings, bytes and array prefixes are
/// compact. Fixed-width values and structs ignore it, so they get `false`.
fn flexible_expr(f: &FieldView<'_>, narrowed: Versions) -> TokenStream {
    match f.field.ty {
        FieldType::String
        | FieldType::Bytes
        | FieldType::Records
        | FieldType::ApiMessage
        | FieldType::Header
        | FieldType::Array(_) => Cond::new(f.flexible, narrowed).expr(),
        _ => quote!(false),
    }
}

/// Refuses `None` where the field is not nullable, within `narrowed`.
fn null_check(f: &FieldView<'_>, narrowed: Versions) -> TokenStream {
    if !f.option {
        return TokenStream::new();
    }
    let (ident, name) = (&f.ident, &f.name);
    Cond::new(f.field.nullable_versions, narrowed)
        .and_not(quote!(self.#ident.is_none()))
        .map(|test| {
            quote! {
                if #test {
                    return Err(enc::field::null_not_allowed(#name));
                }
            }
        })
        .unwrap_or_default()
}

/// `let write_x = <tagged here> && <not default>;` for each tagged field.
fn tagged_flags(tagged: &[&FieldView<'_>], section_versions: Versions, rt: &TokenStream) -> Vec<TokenStream> {
    tagged
        .iter()
        .map(|f| {
            let (ident, flag) = (&f.ident, flag_ident(f));
            let test = Cond::new(f.tagged, section_versions).and(f.non_default(quote!(self.#ident), rt));
            quote!(let #flag = #test;)
        })
        .collect()
}

fn flag_ident(f: &FieldView<'_>) -> proc_macro2::Ident {
    quote::format_ident!("write_{}", f.name)
}

fn emit_size(view: &StructView<'_>, rt: &TokenStream) -> TokenStream {
    let within = view.def.versions;
    let mut body = TokenStream::new();
    for f in &view.fields {
        let ident = &f.ident;
        let flexible = flexible_expr(f, f.positional.intersect(within));
        let add = match f.fixed_size() {
            Some(n) => {
                let n = Literal::usize_unsuffixed(n);
                quote!(size += #n;)
            }
            None => marked_where_nullable(
                f,
                f.positional.intersect(within),
                quote!(size += enc::Wire::value_size(&self.#ident, version, #flexible);),
                quote!(size += enc::field::size_required(&self.#ident, version, #flexible);),
            ),
        };
        body.extend(Cond::new(f.positional, within).guard(add));
    }
    if view.has_tagged_section() {
        let section_versions = view.flexible;
        let tagged: Vec<_> = view.fields.iter().filter(|f| !f.tagged.is_empty()).collect();
        let flags = tagged_flags(&tagged, section_versions, rt);
        let count_decl = if tagged.is_empty() {
            quote!(let count = self.unknown_tagged_fields.len();)
        } else {
            quote!(let mut count = self.unknown_tagged_fields.len();)
        };
        let counts = tagged.iter().map(|f| {
            let flag = flag_ident(f);
            quote!(count += usize::from(#flag);)
        });
        let sizes = tagged.iter().map(|f| {
            let (ident, flag) = (&f.ident, flag_ident(f));
            let tag = Literal::u32_unsuffixed(f.field.tag.unwrap_or_default());
            quote! {
                if #flag {
                    size += enc::tagged::field_size(#tag, &self.#ident, version);
                }
            }
        });
        let section = if tagged.is_empty() {
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
        body.extend(Cond::new(section_versions, within).guard(section));
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

fn emit_decode(view: &StructView<'_>, rt: &TokenStream, form: Form) -> TokenStream {
    let within = view.def.versions;
    let mut body = TokenStream::new();
    for group in groups(&view.fields, within) {
        if group.len() > 1 {
            let resets = |fields: &[&FieldView<'_>]| {
                let resets = fields.iter().map(|f| f.reset(rt, form));
                quote!(#(#resets)*)
            };
            body.extend(by_tier(&group, within, |n| match n {
                0 => resets(&group),
                _ => {
                    let (read, absent) = (read_run(&group[..n]), resets(&group[n..]));
                    quote!(#read #absent)
                }
            }));
            continue;
        }
        let f = group[0];
        let (ident, name) = (&f.ident, &f.name);
        let narrowed = f.positional.intersect(within);
        let flexible = flexible_expr(f, narrowed);
        let read = if f.is_fixed_array() && form == Form::Owned {
            quote!(enc::field::decode_fixed_array_into(&mut self.#ident, r, #flexible, #name)?;)
        } else {
            quote!(enc::field::decode_into(&mut self.#ident, r, version, #flexible, #name)?;)
        };
        let read = match f.option {
            false => read,
            true => {
                let required =
                    quote!(enc::field::decode_required_into(&mut self.#ident, r, version, #flexible, #name)?;);
                match Cond::new(f.field.nullable_versions, narrowed) {
                    Cond::Always => read,
                    Cond::Never => required,
                    Cond::When(e, _) => quote!(if #e { #read } else { #required }),
                }
            }
        };
        let reset = f.reset(rt, form);
        body.extend(match Cond::new(f.positional, within) {
            Cond::Always => read,
            Cond::Never => reset,
            Cond::When(e, _) => quote!(if #e { #read } else { #reset }),
        });
    }
    if view.has_tagged_section() {
        let section_versions = view.flexible;
        let tagged: Vec<_> = view.fields.iter().filter(|f| !f.tagged.is_empty()).collect();
        // Tagged fields were reset with the fields absent from this version.
        let arms = tagged
            .iter()
            .map(|f| {
                let (ident, name) = (&f.ident, &f.name);
                let tag = Literal::u32_unsuffixed(f.field.tag.unwrap_or_default());
                let guard = match Cond::new(f.tagged, section_versions) {
                    Cond::When(e, _) => quote!(if #e),
                    _ => quote!(),
                };
                quote!(#tag #guard => self.#ident = enc::field::decode_tagged(r, version, #name)?,)
            })
            .collect::<Vec<_>>();
        let known = Literal::u32_unsuffixed(view.known_tags);
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
        body.extend(quote!(self.unknown_tagged_fields.clear();));
        body.extend(Cond::new(section_versions, within).guard(read));
    }
    quote! {
        #body
        Ok(())
    }
}
