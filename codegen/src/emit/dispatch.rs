//! A dispatch enum: one variant per message of a set (a request or response
//! body per api key, a record per record type), whose methods pick the
//! variant's message by a selector (the api key, the record type) and hand
//! it the call.
//!
//! Every family of dispatch enums (the message set's `RequestBody` and
//! `ResponseBody`, their borrowed views, each internal-record family's
//! enums) is described by one [`Dispatch`], and every method by one row of
//! [`Dispatch::rows`]: its signature and the arm it takes for each variant.
//! A method added there is emitted for every family that can have it (an
//! owned enum, the `json` or `samples` extra compiled, inherent methods or
//! a trait's).

use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// One variant of a dispatch enum.
pub struct Variant {
    /// The variant, named after its message.
    pub ident: Ident,
    /// The message's type, as the enum's file names it.
    pub ty: TokenStream,
    /// The selector value that picks the variant, both pattern and
    /// expression: `ApiKey::Produce`, `3`.
    pub selector: TokenStream,
    /// `#[cfg(…)]` of the variant, or nothing.
    pub cfg: TokenStream,
    /// The variant's doc line.
    pub doc: String,
}

/// Whether a `match` on the selector needs a `_` arm.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Coverage {
    /// A variant for every selector value of an enum selector: no `_` arm.
    Covers,
    /// An enum selector that some values lack a variant for, or may (a
    /// variant behind a feature): `_`, allowed to be unreachable.
    Partial,
    /// A number as selector: `_` for every number without a variant.
    Open,
}

/// The form of the enum's messages.
pub enum Form {
    /// Owned messages.
    Owned,
    /// Borrowed views (`XRef<'a>`) of the owned enum named here.
    View(Ident),
}

/// A dispatch enum and what shapes its methods.
pub struct Dispatch<'a> {
    /// The enum.
    pub name: Ident,
    /// Its variants, in selector order.
    pub variants: &'a [Variant],
    /// The runtime's path in generated code.
    pub rt: &'a TokenStream,
    /// The selector parameter's name (`api_key`, `record_type`) and type
    /// (`ApiKey`, `i16`); the method that gives a value's selector has the
    /// parameter's name.
    pub selector: (Ident, TokenStream),
    /// The selector's number on the wire, as an expression: `api_key.code()`.
    pub selector_code: TokenStream,
    /// Whether a `match` on the selector needs a `_` arm.
    pub coverage: Coverage,
    /// The error of a decode for a selector without variant (`r` the reader).
    pub unknown_decode: TokenStream,
    /// The form of the messages.
    pub form: Form,
    /// Inherent methods (`pub`, documented by [`Dispatch::docs`], with the
    /// convenience wrappers and the in-place decode) or a trait impl's (the
    /// trait documents them).
    pub inherent: bool,
    /// The `json` extra: `None` when not compiled, else the cargo feature
    /// it is compiled behind, if any.
    pub json: Option<Option<String>>,
    /// The `samples` extra, as [`Dispatch::json`].
    pub samples: Option<Option<String>>,
    /// The doc attributes of each inherent method, by row name.
    pub docs: &'a dyn Fn(&str) -> TokenStream,
    /// For a request enum, the response enum and the error response of each
    /// variant that has one ([`super::error_response`]): the method
    /// `error_response`.
    pub error_responses: Option<(Ident, &'a super::error_response::Answers)>,
}

/// How a method's `match` reaches the variant.
enum On {
    /// `match self`, the message bound to `m`.
    Value,
    /// `match self`, the message unused.
    Kind,
    /// `match` on the selector parameter.
    Selector,
    /// `match (&mut *self, selector)`, the message bound to `m`.
    ValueAndSelector,
}

/// The body of a method.
enum Body<'a> {
    /// A `match` with an arm per variant and an optional last arm.
    Match { on: On, arm: Box<dyn Fn(&Variant) -> TokenStream + 'a>, last: Option<TokenStream> },
    /// The same for every family: a wrapper around another method.
    Fixed(TokenStream),
}

/// One method of a dispatch enum.
struct Row<'a> {
    /// The row's name, the key of its docs.
    name: &'static str,
    /// Whether the enum has the method.
    applies: bool,
    /// The cargo feature the method is compiled behind.
    feature: Option<&'a str>,
    /// Attributes after the docs (`#[inline]`).
    attrs: TokenStream,
    /// The signature after `fn`.
    signature: TokenStream,
    /// The body.
    body: Body<'a>,
}

/// A row whose body is a `match` with `arm` per variant and `last` after.
fn row<'a>(
    name: &'static str,
    applies: bool,
    signature: TokenStream,
    on: On,
    arm: Box<dyn Fn(&Variant) -> TokenStream + 'a>,
    last: Option<TokenStream>,
) -> Row<'a> {
    Row { name, applies, feature: None, attrs: TokenStream::new(), signature, body: Body::Match { on, arm, last } }
}

impl Dispatch<'_> {
    /// The `_` arm giving `expr`, as [`Dispatch::coverage`] needs it.
    fn fallback(&self, expr: TokenStream) -> Option<TokenStream> {
        match self.coverage {
            Coverage::Covers => None,
            Coverage::Partial => Some(quote!(#[allow(unreachable_patterns)] _ => #expr,)),
            Coverage::Open => Some(quote!(_ => #expr,)),
        }
    }

    /// Every method a dispatch enum may have, in the order emitted.
    fn rows(&self) -> Vec<Row<'_>> {
        let rt = self.rt;
        let (sel, sel_ty) = &self.selector;
        let code = &self.selector_code;
        let owned = matches!(self.form, Form::Owned);
        let json = self.json.as_ref().filter(|_| owned).map(|f| f.as_deref());
        let samples = self.samples.as_ref().filter(|_| owned).map(|f| f.as_deref());
        let unknown_decode = self.fallback(self.unknown_decode.clone());
        let mut rows = vec![
            row("key", true, quote!(#sel(&self) -> #sel_ty), On::Kind, Box::new(|v| v.selector.clone()), None),
            Row {
                name: "encode",
                applies: owned && self.inherent,
                feature: None,
                attrs: TokenStream::new(),
                signature: quote!(encode(&self, buf: &mut #rt::BytesMut, version: i16) -> Result<(), kwire::error::EncodeError>),
                body: Body::Fixed(quote!(
                    enc::all_or_nothing(buf, |buf| self.encode_to(&mut kwire::primitives::Writer::new(buf), version))
                )),
            },
            row(
                "encode_to",
                owned,
                quote!(encode_to(&self, w: &mut kwire::primitives::Writer<'_>, version: i16) -> Result<(), kwire::error::EncodeError>),
                On::Value,
                Box::new(|_| quote!(kwire::message::Message::encode_to(m, w, version))),
                None,
            ),
            Row {
                attrs: quote!(#[inline]),
                ..row(
                    "encoded_size",
                    owned,
                    quote!(encoded_size(&self, version: i16) -> usize),
                    On::Value,
                    Box::new(|_| quote!(kwire::message::Message::encoded_size(m, version))),
                    None,
                )
            },
            // Each arm a `match`, not `.map(Self::Variant)`: no `Result::map`
            // to compile for each message.
            match &self.form {
                Form::Owned => row(
                    "decode_from",
                    true,
                    quote!(decode_from(#sel: #sel_ty, r: &mut kwire::primitives::Reader, version: i16) -> Result<Self, kwire::error::DecodeError>),
                    On::Selector,
                    Box::new(
                        |Variant { ident: v, ty, .. }| quote!(match <#ty as kwire::message::Message>::decode_from(r, version) { Ok(m) => Ok(Self::#v(m)), Err(e) => Err(e) }),
                    ),
                    unknown_decode.clone(),
                ),
                Form::View(_) => row(
                    "decode_from",
                    true,
                    quote!(decode_from(#sel: #sel_ty, r: &mut kwire::primitives::Reader<&'a [u8]>, version: i16) -> Result<Self, kwire::error::DecodeError>),
                    On::Selector,
                    Box::new(
                        |Variant { ident: v, ty, .. }| quote!(match <#ty as kwire::message::MessageView<'a>>::decode_from(r, version) { Ok(m) => Ok(Self::#v(m)), Err(e) => Err(e) }),
                    ),
                    unknown_decode.clone(),
                ),
            },
            Row {
                attrs: quote!(#[inline]),
                ..row(
                    "decode_into_from",
                    owned && self.inherent,
                    quote!(decode_into_from(&mut self, #sel: #sel_ty, r: &mut kwire::primitives::Reader, version: i16) -> Result<(), kwire::error::DecodeError>),
                    On::ValueAndSelector,
                    Box::new(|_| quote!(kwire::message::Message::decode_into_from(m, r, version))),
                    // A body of another selector is replaced; with one
                    // variant that covers every selector there is no other.
                    (self.variants.len() > 1 || self.coverage != Coverage::Covers).then(|| {
                        quote! {
                            #[allow(unreachable_patterns)]
                            _ => {
                                *self = Self::decode_from(#sel, r, version)?;
                                Ok(())
                            }
                        }
                    }),
                )
            },
            Row {
                feature: samples.flatten(),
                ..row(
                    "sample",
                    samples.is_some(),
                    quote!(sample(#sel: #sel_ty, g: &mut #rt::sample::SampleGen, version: i16) -> Option<Self>),
                    On::Selector,
                    Box::new(
                        move |Variant { ident: v, ty, .. }| quote!(Some(Self::#v(<#ty as #rt::sample::Sample>::sample(g, version)))),
                    ),
                    self.fallback(quote!(None)),
                )
            },
            Row {
                name: "to_json",
                applies: json.is_some() && self.inherent,
                feature: json.flatten(),
                attrs: TokenStream::new(),
                signature: quote!(to_json(&self, version: i16) -> Result<#rt::json::Value, #rt::json::JsonError>),
                body: Body::Fixed(quote!(self.to_json_with(version, #rt::json::JsonOptions::default()))),
            },
            Row {
                feature: json.flatten(),
                ..row(
                    "to_json_with",
                    json.is_some(),
                    quote!(to_json_with(&self, version: i16, options: #rt::json::JsonOptions) -> Result<#rt::json::Value, #rt::json::JsonError>),
                    On::Value,
                    Box::new(move |_| quote!(#rt::json::ToJson::to_json_with(m, version, options))),
                    None,
                )
            },
            Row {
                feature: json.flatten(),
                ..row(
                    "write_json",
                    json.is_some(),
                    quote!(write_json(&self, w: &mut #rt::json::JsonWriter<'_>, version: i16) -> Result<(), #rt::json::JsonError>),
                    On::Value,
                    Box::new(move |_| quote!(#rt::json::ToJson::write_json(m, w, version))),
                    None,
                )
            },
            Row {
                feature: json.flatten(),
                ..row(
                    "from_json",
                    json.is_some(),
                    quote!(from_json(#sel: #sel_ty, json: &#rt::json::Value, version: i16) -> Result<Self, #rt::json::JsonError>),
                    On::Selector,
                    Box::new(
                        move |Variant { ident: v, ty, .. }| quote!(<#ty as #rt::json::FromJson>::from_json(json, version).map(Self::#v)),
                    ),
                    self.fallback(
                        quote!(Err(#rt::json::JsonError::new(#rt::json::JsonErrorKind::UnknownApiKey(#code), version))),
                    ),
                )
            },
        ];
        if let Some((response, answers)) = &self.error_responses {
            rows.push(Row {
                // The request of an api without error response is not read.
                attrs: quote!(#[allow(unused_variables)]),
                ..row(
                    "error_response",
                    owned && self.inherent,
                    quote!(error_response(&self, version: i16, error_code: i16, message: Option<&str>) -> Option<#response>),
                    On::Value,
                    Box::new(move |Variant { ident: v, .. }| match answers.get(&v.to_string()) {
                        Some(answer) => quote!(Some(#answer)),
                        None => quote!(None),
                    }),
                    self.fallback(quote!(None)),
                )
            });
        }
        // The response bodies' error codes (see `super::error_codes`).
        rows.push(row(
            "visit_error_codes",
            owned && self.inherent && self.name == "ResponseBody",
            quote!(visit_error_codes(&self, version: i16, f: &mut impl FnMut(i16))),
            On::Value,
            Box::new(|_| quote!(m.visit_error_codes(version, f))),
            None,
        ));
        if let Form::View(owned) = &self.form {
            rows.push(Row {
                attrs: quote!(#[inline]),
                ..row(
                    "into_owned",
                    true,
                    quote!(into_owned(self) -> #owned),
                    On::Value,
                    Box::new(
                        move |Variant { ident: v, .. }| quote!(#owned::#v(kwire::primitives::IntoOwned::into_owned(m))),
                    ),
                    None,
                )
            });
        }
        rows
    }

    /// The enum's methods, every row that applies: for an `impl` block of
    /// the enum (inherent) or of the trait.
    pub fn methods(&self) -> TokenStream {
        let sel = &self.selector.0;
        let vis = self.inherent.then(|| quote!(pub));
        let mut out = TokenStream::new();
        for row in self.rows().into_iter().filter(|r| r.applies) {
            let gate = super::cfg_attr(row.feature);
            let docs = if self.inherent { (self.docs)(row.name) } else { TokenStream::new() };
            let (attrs, signature) = (&row.attrs, &row.signature);
            let body = match &row.body {
                Body::Fixed(body) => body.clone(),
                Body::Match { on, arm, last } => {
                    let arms = self.variants.iter().map(|variant| {
                        let Variant { ident: v, selector, cfg, .. } = variant;
                        let expr = arm(variant);
                        match on {
                            On::Value => quote!(#cfg Self::#v(m) => #expr,),
                            On::Kind => quote!(#cfg Self::#v(_) => #expr,),
                            On::Selector => quote!(#cfg #selector => #expr,),
                            On::ValueAndSelector => quote!(#cfg (Self::#v(m), #selector) => #expr,),
                        }
                    });
                    let scrutinee = match on {
                        On::Value | On::Kind => quote!(self),
                        On::Selector => quote!(#sel),
                        On::ValueAndSelector => quote!((&mut *self, #sel)),
                    };
                    quote!(match #scrutinee { #(#arms)* #last })
                }
            };
            out.extend(quote! {
                #gate
                #docs
                #attrs
                #vis fn #signature {
                    #body
                }
            });
        }
        out
    }

    /// The enum's declaration, headed by `docs`: a variant per message,
    /// non-exhaustive (releases add messages).
    pub fn declaration(&self, docs: TokenStream) -> TokenStream {
        let name = &self.name;
        let lifetime = matches!(self.form, Form::View(_)).then(|| quote!(<'a>));
        let variants = self.variants.iter().map(|Variant { ident, ty, cfg, doc, .. }| {
            let doc = format!(" {doc}");
            quote!(#cfg #[doc = #doc] #ident(#ty),)
        });
        quote! {
            #docs
            #[derive(Debug, Clone, PartialEq)]
            #[non_exhaustive]
            pub enum #name #lifetime {
                #(#variants)*
            }
        }
    }

    /// `From` each variant's message into the enum.
    pub fn impl_from(&self, variant: &Variant) -> TokenStream {
        let name = &self.name;
        let Variant { ident: v, ty, cfg, .. } = variant;
        quote! {
            #cfg
            impl From<#ty> for #name {
                fn from(m: #ty) -> Self {
                    Self::#v(m)
                }
            }
        }
    }
}
