//! `impl EncodeStruct` and `impl Struct` for each struct: encode, size and decode
//! at a version, one statement per field, each guarded only where the
//! versions need it.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::cond::Cond;
use super::field::{FieldView, Form};
use super::plan::{FieldPlan, Group, Run, StructPlan, TaggedField};
use super::EmitContext;
use crate::model::FieldType;
use crate::naming;

/// `impl EncodeStruct for X` and `impl Struct for X` (the runtime's blanket
/// impls make them `Encode` and `Decode`).
pub fn emit_wire_impl(plan: &StructPlan<'_, '_>, cx: &EmitContext) -> TokenStream {
    let rt = &cx.runtime;
    let ident = naming::ident(&plan.view.def.rust_name);
    let encode = emit_encode(plan, rt);
    let size = emit_size(plan, rt);
    let (buf, encode_version) = (param(&encode, "buf"), param(&encode, "version"));
    let size_version = param(&size, "version");
    let encode_inline = plan.leaf.then(|| quote!(#[inline]));
    let decode = emit_decode_impl(plan, cx, Form::Owned);
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

/// The borrowed view's impls: `Struct` (from `&'a [u8]`), `IntoOwned`
/// (field by field into the owned struct) and, for a message,
/// `MessageView`.
pub fn emit_view_impls(plan: &StructPlan<'_, '_>, cx: &EmitContext) -> TokenStream {
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

/// `impl Struct for X` (or `impl<'a> Struct for XRef<'a>` with `&'a [u8]` input): the
/// decode at a version and the reset in place.
fn emit_decode_impl(plan: &StructPlan<'_, '_>, cx: &EmitContext, form: Form) -> TokenStream {
    let rt = &cx.runtime;
    let view = plan.view;
    let decode = emit_decode(plan, rt, form);
    let resets = view.fields.iter().map(|f| f.reset(rt, form));
    let unknown = plan.section.as_ref().map(|_| clear_unknown());
    let (r, version) = (param(&decode, "r"), param(&decode, "version"));
    // A struct without nested structs (a topic config, an api version
    // range, a partition's records) is decoded inline in the loop over its
    // array: with a records length read in place, the compiler would
    // otherwise keep a call per partition.
    let inline = plan.leaf.then(|| quote!(#[inline(always)]));
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

fn emit_encode(plan: &StructPlan<'_, '_>, rt: &TokenStream) -> TokenStream {
    let mut body = TokenStream::new();
    // Checks that a field absent at this version holds its default come first:
    // they only read `self`, and leave the writes free to merge.
    for f in plan.fields() {
        let v = f.view;
        if !v.field.ignorable {
            let ident = &v.ident;
            let non_default = v.non_default(quote!(self.#ident), rt);
            if let Some(test) = f.present.and_not(non_default) {
                let name = &v.name;
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
    for group in &plan.groups {
        if group.fields().first().is_none_or(|f| f.view.positional.is_empty()) {
            continue; // tagged at every version: written with the section
        }
        match group {
            Group::Run(run) => pending.push(run_piece(run)),
            Group::Single(f) => {
                if let Some(p) = piece(f) {
                    pending.push(p);
                } else if let Some(p) = count_piece(f) {
                    // The count ends the segment; the elements follow it.
                    pending.push(p);
                    body.extend(segment(std::mem::take(&mut pending)));
                } else {
                    body.extend(segment(std::mem::take(&mut pending)));
                    body.extend(write_field(f));
                }
            }
        }
    }
    if let Some(section) = &plan.section {
        let tagged: Vec<_> = section.on_the_wire().collect();
        let known = Literal::u32_unsuffixed(section.known);
        let flags = tagged_flags(&tagged, rt);
        pending.push(section_piece(&tagged, flags, &section.present, known));
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

/// The piece of a run of fixed-width fields.
fn run_piece(run: &Run<'_, '_>) -> Piece {
    Piece {
        before: TokenStream::new(),
        writes: by_tier(run, |n| fixed_run(run, n, Sink::Segment)),
        most: run.len(),
        most_of_values: None,
        after: TokenStream::new(),
        alone: Some(by_tier(run, |n| fixed_run(run, n, Sink::Writer))),
    }
}

/// The piece of a field other than a fixed-width one that a segment can
/// write: a string, or an array of fixed-width values.
fn piece(f: &FieldPlan<'_, '_>) -> Option<Piece> {
    let v = f.view;
    let (ident, name, flexible) = (&v.ident, &v.name, &f.flexible);
    // A string is read once, before the segment: its length sizes the
    // segment and its bytes are written into it.
    let text = format_ident!("{}_text", ident.to_string().trim_start_matches("r#"));
    let mut before = TokenStream::new();
    let (write, most_of_value) = match (&v.field.ty, v.option) {
        (FieldType::String, false) => {
            before = quote!(let #text: &str = &self.#ident;);
            (quote!(enc::field::put_str(&mut s, #text, #flexible, #name)?;), quote!(#text.len()))
        }
        (FieldType::String, true) => {
            before = quote!(let #text = self.#ident.as_deref(););
            (quote!(enc::field::put_nullable_str(&mut s, #text, #flexible, #name)?;), quote!(#text.map_or(0, str::len)))
        }
        _ => {
            let most = match v.fixed_element_size()? {
                1 => quote!(self.#ident.len()),
                size => {
                    let size = Literal::usize_unsuffixed(size);
                    quote!(self.#ident.len() * #size)
                }
            };
            (quote!(enc::field::put_fixed_array(&mut s, &self.#ident, #flexible, #name)?;), most)
        }
    };
    let null_check = null_check(v, &f.nullable);
    Some(Piece {
        before,
        writes: f.positional.guard(quote! {
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
fn count_piece(f: &FieldPlan<'_, '_>) -> Option<Piece> {
    let v = f.view;
    if v.option || !matches!(v.field.ty, FieldType::Array(_)) {
        return None;
    }
    let (ident, name, flexible) = (&v.ident, &v.name, &f.flexible);
    Some(Piece {
        before: TokenStream::new(),
        writes: f.positional.guard(quote!(enc::field::put_count(&mut s, self.#ident.len(), #flexible, #name)?;)),
        most: 5,
        most_of_values: None,
        after: f.positional.guard(quote! {
            enc::field::encode_elements(&self.#ident, buf, version, #flexible, #name)?;
        }),
        alone: Some(write_field(f)),
    })
}

/// The tagged section: its usual `00` (no known field set, no unknown
/// field kept) in the segment, and after it the rare section with fields:
/// its count, the known fields that differ from their defaults (the
/// `write_…` flags of [`tagged_flags`]), then the unknown ones.
fn section_piece(tagged: &[&TaggedField<'_, '_>], flag_lets: Vec<TokenStream>, cond: &Cond, known: Literal) -> Piece {
    let flags: Vec<_> = tagged.iter().map(|t| &t.flag).collect();
    let (empty, some) = (
        quote!(#(!#flags &&)* self.unknown_tagged_fields.is_empty()),
        quote!(#(#flags ||)* !self.unknown_tagged_fields.is_empty()),
    );
    let section = if tagged.is_empty() {
        quote!(enc::tagged::encode_unknown_section(buf, &self.unknown_tagged_fields, #known)?;)
    } else {
        let writes = tagged.iter().map(|t| {
            let (ident, name, flag) = (&t.view.ident, &t.view.name, &t.flag);
            let tag = Literal::u32_unsuffixed(t.tag);
            let null_check = null_check(t.view, &t.nullable);
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

/// Writes a field that no segment takes: a struct, an array of them, bytes,
/// records, or a nullable value other than a string.
fn write_field(f: &FieldPlan<'_, '_>) -> TokenStream {
    let v = f.view;
    let (ident, name, flexible) = (&v.ident, &v.name, &f.flexible);
    let null_check = null_check(v, &f.nullable);
    let write = marked_where_nullable(
        f,
        quote!(enc::field::encode(&self.#ident, buf, version, #flexible, #name)?;),
        quote!(enc::field::encode_required(&self.#ident, buf, version, #flexible, #name)?;),
    );
    f.positional.guard(quote! {
        #null_check
        #write
    })
}

/// `nullable` (the `Option`'s own encoding or size) where the field is
/// nullable, `bare` (the value's) elsewhere within its positional versions.
/// Only a struct's encoding differs (spec §4.5): its int8 presence marker
/// exists only at its nullable versions. A null string, bytes or array is a
/// length or count of -1 or 0, and a present one is the value's own
/// encoding, so for them `nullable` serves every version.
fn marked_where_nullable(f: &FieldPlan<'_, '_>, nullable: TokenStream, bare: TokenStream) -> TokenStream {
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
fn by_tier(run: &Run<'_, '_>, branch: impl Fn(usize) -> TokenStream) -> TokenStream {
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

/// Where encoding code writes: the `Writer` `buf`, or the `Segment` `s`.
#[derive(Clone, Copy)]
enum Sink {
    Writer,
    Segment,
}

/// Writes the first `n` fields of a run: one at a time when alone, else
/// their big-endian bytes gathered in an array and appended at once.
fn fixed_run(run: &Run<'_, '_>, n: usize, sink: Sink) -> TokenStream {
    let fields = &run.fields[..n];
    match (fields, sink) {
        ([], _) => return TokenStream::new(),
        ([f], Sink::Writer) => {
            let ident = &f.view.ident;
            return quote!(enc::Fixed::put(self.#ident, buf););
        }
        ([f], Sink::Segment) => {
            let ident = &f.view.ident;
            return quote!(s.put_fixed(self.#ident)?;);
        }
        _ => {}
    }
    let (len, ranges) = run_bytes(run, n);
    let writes = fields.iter().zip(ranges).map(|(f, range)| {
        let ident = &f.view.ident;
        let bytes = match f.view.field.ty {
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

/// The byte length of the first `n` fields of a run, and each one's range
/// in it (`start..end`).
fn run_bytes(run: &Run<'_, '_>, n: usize) -> (Literal, Vec<TokenStream>) {
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

/// Refuses `None` where the field is not nullable: `nullable` tests its
/// nullable versions within those where it is written.
fn null_check(f: &FieldView<'_>, nullable: &Cond) -> TokenStream {
    if !f.option {
        return TokenStream::new();
    }
    let (ident, name) = (&f.ident, &f.name);
    nullable
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
fn tagged_flags(tagged: &[&TaggedField<'_, '_>], rt: &TokenStream) -> Vec<TokenStream> {
    tagged
        .iter()
        .map(|t| {
            let (ident, flag) = (&t.view.ident, &t.flag);
            let test = t.tagged.and(t.view.non_default(quote!(self.#ident), rt));
            quote!(let #flag = #test;)
        })
        .collect()
}

fn emit_size(plan: &StructPlan<'_, '_>, rt: &TokenStream) -> TokenStream {
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
