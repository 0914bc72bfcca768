//! Encode at a version (`EncodeStruct::encode_fields`): the checks that a
//! field absent at the version holds its default, then the writes, with
//! the fields that can be written into reserved bytes gathered into
//! segments (one reservation, then writes that keep the buffer's pointer
//! and position in registers), the tagged section last.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::common::{by_tier, marked_where_nullable, run_bytes, tagged_flags};
use crate::emit::cond::Cond;
use crate::emit::field::FieldView;
use crate::emit::plan::{FieldPlan, Group, Run, StructPlan, TaggedField};
use crate::model::FieldType;

/// The body of `encode_fields`: the default checks, then every write.
pub(super) fn emit_encode(plan: &StructPlan<'_, '_>, rt: &TokenStream) -> TokenStream {
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
