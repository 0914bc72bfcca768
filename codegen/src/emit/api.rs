//! The api-level items: `Message`, `ApiMessage` and `Request` impls of each
//! top-level struct, and the api-key table of the whole message set.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::dispatch::{self, Coverage, Dispatch, Variant};
use super::field::Form;
use super::EmitContext;
use crate::model::{Field, FieldType, Listener, MessageSpec, SpecType};
use crate::naming;
use crate::versions::Versions;

/// True when a decoded request of `spec` may share the memory of its
/// input, as Kafka's `ApiKeys` decides `requiresDelayedAllocation` from the
/// request schemas: some valid version has, at any depth and outside the
/// tagged-field section, a `bytes` field (`ApiMessage` and `Header` are
/// bytes on the wire) or a `records` field in a classic version (Kafka's
/// schema walk counts `RECORDS`, not `COMPACT_RECORDS`, and does not look
/// into tagged fields).
fn shares_input(spec: &MessageSpec) -> bool {
    // Each common struct is walked once per range of versions it is read
    // in, so a struct holding arrays of itself costs one visit, not one per
    // path; the structs to walk wait in a list, not on the call stack, so
    // that deep nesting does not grow the stack.
    let mut seen: Vec<(&str, Versions)> = Vec::new();
    let mut pending: Vec<(&[Field], Versions)> = vec![(&spec.fields, spec.valid_versions)];
    while let Some((fields, within)) = pending.pop() {
        for f in fields {
            let present = f.versions.intersect(within);
            // `None`: the tagged versions lie inside, leaving untagged ones on both sides.
            let untagged = present.subtract(f.tagged_versions).unwrap_or(present);
            if untagged.is_empty() {
                continue;
            }
            let element = match &f.ty {
                FieldType::Array(inner) => inner.as_ref(),
                ty => ty,
            };
            match element {
                FieldType::Bytes | FieldType::ApiMessage | FieldType::Header => return true,
                FieldType::Records
                    if untagged.subtract(spec.flexible_versions).is_none_or(|classic| !classic.is_empty()) =>
                {
                    return true
                }
                FieldType::Struct(_) if !f.fields.is_empty() => pending.push((&f.fields, untagged)),
                FieldType::Struct(name) if !seen.iter().any(|(n, v)| n == name && *v == untagged) => {
                    seen.push((name, untagged));
                    let common = spec.common_structs.iter().filter(|c| &c.name == name);
                    pending.extend(common.map(|c| (&c.fields[..], untagged)));
                }
                _ => {}
            }
        }
    }
    false
}

/// `kwire::message::VersionRange` of `v`: `NONE` when empty.
pub(crate) fn range(v: Versions) -> TokenStream {
    if v.is_empty() {
        quote!(kwire::message::VersionRange::NONE)
    } else {
        let (lo, hi) = (proc_macro2::Literal::i16_unsuffixed(v.lo), proc_macro2::Literal::i16_unsuffixed(v.hi));
        quote!(kwire::message::VersionRange::new(#lo, #hi))
    }
}

/// `impl Message` for the body, plus `ApiMessage` and `Request` where they apply.
pub fn emit_message_impls(spec: &MessageSpec, responses: &BTreeMap<i16, String>) -> TokenStream {
    let ident = naming::type_ident(&spec.name);
    let name = &spec.name;
    let valid = range(spec.valid_versions);
    let flexible = range(spec.flexible_versions.intersect(spec.valid_versions));
    let mut out = quote! {
        impl kwire::message::Message for #ident {
            const NAME: &'static str = #name;
            const VERSIONS: kwire::message::VersionRange = #valid;
            const FLEXIBLE_VERSIONS: kwire::message::VersionRange = #flexible;
        }
    };
    let Some(key) = spec.api_key.filter(|_| matches!(spec.spec_type, SpecType::Request | SpecType::Response)) else {
        return out;
    };
    let key = proc_macro2::Literal::i16_unsuffixed(key);
    out.extend(quote! {
        impl kwire::message::ApiMessage for #ident {
            const API_KEY: i16 = #key;
        }
    });
    if spec.spec_type == SpecType::Request {
        if let Some(response) = spec.api_key.and_then(|k| responses.get(&k)) {
            let module = format_ident!("{}", naming::module_name(response));
            let response = naming::type_ident(response);
            out.extend(quote! {
                impl kwire::message::Request for #ident {
                    type Response = super::#module::#response;
                }
            });
        }
    }
    out
}

/// The `ApiKey` enum: one variant per api key with its name, versions,
/// listeners and header versions, from the request schemas (spec §8.1),
/// and the flags of Kafka's `ApiKeys` table (the forwardable and
/// cluster-action apis of `cx`, and [`shares_input`]).
/// `compiled` says which api keys have their request and response
/// compiled (`ApiInfo::compiled` in the runtime).
pub fn emit_api_table(specs: &[&MessageSpec], compiled: &dyn Fn(i16) -> bool, cx: &EmitContext) -> TokenStream {
    let mut requests: Vec<&MessageSpec> =
        specs.iter().copied().filter(|s| s.spec_type == SpecType::Request && s.api_key.is_some()).collect();
    requests.sort_by_key(|s| s.api_key);
    let responses: BTreeMap<i16, &MessageSpec> =
        specs.iter().filter(|s| s.spec_type == SpecType::Response).filter_map(|s| s.api_key.map(|k| (k, *s))).collect();
    let variants = requests.iter().map(|s| {
        let base = api_name(&s.name, "Request");
        let ident = naming::type_ident(base);
        let key = s.api_key.unwrap_or_default();
        let doc = format!(" {base} (api key {key}): versions {}, flexible {}.", s.valid_versions, s.flexible_versions);
        quote!(#[doc = #doc] #ident = #key,)
    });
    let infos = requests.iter().map(|s| {
        let base = api_name(&s.name, "Request");
        let ident = naming::type_ident(base);
        let valid = range(s.valid_versions);
        // As the schemas give them, open-ended: the header version of a
        // newer client's request (`3+`, version 5) is still 2 (spec §7.2).
        let flexible = range(s.flexible_versions);
        let response_flexible =
            responses.get(&s.api_key.unwrap_or_default()).map_or(flexible.clone(), |r| range(r.flexible_versions));
        let deprecated = range(s.deprecated_versions);
        let unstable = s.latest_version_unstable;
        let is_compiled =
            match (compiled(s.api_key.unwrap_or_default()), cx.api_features.get(&s.api_key.unwrap_or_default())) {
                (true, Some(feature)) => quote!(cfg!(feature = #feature)),
                (compiled, _) => quote!(#compiled),
            };
        let request_name = &s.name;
        let response_name =
            responses.get(&s.api_key.unwrap_or_default()).map_or_else(|| format!("{base}Response"), |r| r.name.clone());
        let mut listeners = s.listeners.clone();
        listeners.sort();
        listeners.dedup();
        let listeners = listeners.iter().map(|l| match l {
            Listener::ZkBroker => quote!(kwire::api::Listener::ZkBroker),
            Listener::Broker => quote!(kwire::api::Listener::Broker),
            Listener::Controller => quote!(kwire::api::Listener::Controller),
        });
        let forwardable = cx.forwardable.iter().any(|a| a == base);
        let cluster_action = cx.cluster_action.iter().any(|a| a == base);
        let delayed_allocation = forwardable || shares_input(s);
        quote! {
            kwire::api::ApiInfo {
                api_key: ApiKey::#ident,
                name: #base,
                request_name: #request_name,
                response_name: #response_name,
                valid_versions: #valid,
                flexible_versions: #flexible,
                response_flexible_versions: #response_flexible,
                deprecated_versions: #deprecated,
                latest_version_unstable: #unstable,
                listeners: &[#(#listeners),*],
                compiled: #is_compiled,
                forwardable: #forwardable,
                cluster_action: #cluster_action,
                requires_delayed_allocation: #delayed_allocation,
            },
        }
    });
    let idents: Vec<_> = requests.iter().map(|s| naming::type_ident(api_name(&s.name, "Request"))).collect();
    let info_arms = idents.iter().enumerate().map(|(i, ident)| quote!(ApiKey::#ident => &API_INFO[#i],));
    let try_arms = requests.iter().zip(&idents).map(|(s, ident)| {
        let key = proc_macro2::Literal::i16_unsuffixed(s.api_key.unwrap_or_default());
        quote!(#key => Ok(ApiKey::#ident),)
    });
    let arms = requests.iter().enumerate().map(|(i, s)| {
        let key = proc_macro2::Literal::i16_unsuffixed(s.api_key.unwrap_or_default());
        quote!(#key => Some(&API_INFO[#i]),)
    });
    quote! {
        /// Every api key of this message set, numbered as on the wire.
        ///
        /// Non-exhaustive: Kafka releases add api keys, so a `match` needs a
        /// `_` arm (or use [`ApiKey::info`] and the api key's number).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(i16)]
        #[non_exhaustive]
        pub enum ApiKey {
            #(#variants)*
        }

        /// Facts about each api key, in api-key order.
        pub static API_INFO: &[kwire::api::ApiInfo<ApiKey>] = &[
            #(#infos)*
        ];

        /// The facts about api key `code` (a number read from the wire, which
        /// may be one this message set lacks), if this message set has it.
        pub fn api_info(code: i16) -> Option<&'static kwire::api::ApiInfo<ApiKey>> {
            match code {
                #(#arms)*
                _ => None,
            }
        }

        impl ApiKey {
            /// Every api key, in order.
            pub const ALL: &'static [ApiKey] = &[#(ApiKey::#idents),*];

            /// The api key's number on the wire.
            pub const fn code(self) -> i16 {
                self as i16
            }

            /// The facts about this api key: name, versions, listeners, header versions.
            pub fn info(self) -> &'static kwire::api::ApiInfo<ApiKey> {
                match self {
                    #(#info_arms)*
                }
            }
        }

        impl From<ApiKey> for i16 {
            /// The api key's number on the wire, as [`ApiKey::code`].
            fn from(key: ApiKey) -> i16 {
                key.code()
            }
        }

        impl TryFrom<i16> for ApiKey {
            type Error = kwire::error::UnknownApiKey;

            fn try_from(code: i16) -> Result<Self, Self::Error> {
                match code {
                    #(#try_arms)*
                    _ => Err(kwire::error::UnknownApiKey(code)),
                }
            }
        }
    }
}

/// `RequestBody` and `ResponseBody`: one variant per api key, with
/// encode, size and decode chosen by api key at run time.
pub fn emit_dispatch(specs: &[&MessageSpec], cx: &EmitContext) -> TokenStream {
    // The `ApiKey` variant of each api key: named after its request, as in
    // the table.
    let api_keys: ApiKeyIdents = specs
        .iter()
        .filter(|s| s.spec_type == SpecType::Request)
        .filter_map(|s| Some((s.api_key?, naming::type_ident(api_name(&s.name, "Request")))))
        .collect();
    let mut out = TokenStream::new();
    for (spec_type, enum_name, what) in
        [(SpecType::Request, "RequestBody", "request"), (SpecType::Response, "ResponseBody", "response")]
    {
        // A body whose api key the table lacks (a response whose request is
        // removed) has no `ApiKey` to give, and so no place in the dispatch.
        let mut bodies: Vec<&MessageSpec> = specs
            .iter()
            .copied()
            .filter(|s| s.spec_type == spec_type && s.api_key.is_some_and(|k| api_keys.contains_key(&k)))
            .collect();
        bodies.sort_by_key(|s| s.api_key);
        out.extend(emit_body_enum(&bodies, &api_keys, &format_ident!("{enum_name}"), what, cx));
        if cx.entities {
            let variants: Vec<_> = body_entries(&bodies, &api_keys, what, Form::Owned, cx)
                .into_iter()
                .zip(&bodies)
                .map(|(entry, spec)| (entry.variant, entry.cfg, super::entity::spec_has_entities(spec)))
                .collect();
            let entities = super::entity::emit_dispatch_entities(&variants, &format_ident!("{enum_name}"));
            out.extend(super::gate(entities, cx.gates.entities.as_deref()));
        }
    }
    out
}

fn emit_body_enum(
    bodies: &[&MessageSpec],
    api_keys: &ApiKeyIdents,
    name: &proc_macro2::Ident,
    what: &str,
    cx: &EmitContext,
) -> TokenStream {
    let rt = &cx.runtime;
    let entries = body_entries(bodies, api_keys, what, Form::Owned, cx);
    let variants = variants(&entries);
    let link = |path: &str| format!("{}::{path}", runtime_path(rt));
    let covers = covers_table(&entries, api_keys, cx);
    let encode_errors = format!(" As [`Message::encode`]({}).", link("message::Message::encode"));
    let encode_to_doc =
        format!(" Writes the body encoded at `version` to a [`Writer`]({}),", link("primitives::Writer"));
    let decode_errors = if covers {
        String::from(" The body's own decode error.")
    } else {
        format!(
            " [`DecodeErrorKind::ApiKeyNotCompiled`]({}) for an api key whose messages were not compiled, or the body's own decode error.",
            link("error::DecodeErrorKind::ApiKeyNotCompiled")
        )
    };
    let docs = |row: &str| match row {
        "key" => quote! {
            /// The api key of the body.
        },
        "encode" => quote! {
            /// Appends the body encoded at `version`.
            ///
            /// # Errors
            #[doc = #encode_errors]
            /// After an error `buf` holds what it held before.
        },
        "encode_to" => quote! {
            #[doc = #encode_to_doc]
            /// which may share large `bytes` and `records` values instead of copying them.
            ///
            /// # Errors
            #[doc = #encode_errors]
            /// What was written before the error stays in the writer.
        },
        "encoded_size" => quote! {
            /// Bytes that [`Self::encode`] writes at `version`.
        },
        "decode_from" => quote! {
            /// Reads the body of `api_key` at `version` from a [`Reader`](kwire::primitives::Reader).
            ///
            /// # Errors
            #[doc = #decode_errors]
        },
        "decode_into_from" => quote! {
            /// Reads the body of `api_key` at `version` into `self`: in place,
            /// reusing the arrays and structs it holds, when `self` is
            /// a body of that api key (a connection's requests mostly are);
            /// otherwise `self` is replaced by a body decoded afresh. The
            /// result equals what [`Self::decode_from`] returns.
            ///
            /// # Errors
            /// As [`Self::decode_from`]; `self` then holds a valid but unspecified body.
        },
        "sample" => quote! {
            /// A random body for `api_key` at `version`, for property tests;
            /// `None` for an api key whose messages were not compiled.
        },
        "to_json" => quote! {
            /// Kafka's JSON form of the body at `version` (see the runtime's
            /// `json` module), sensitive fields redacted.
            ///
            /// # Errors
            /// As the body's `ToJson::to_json`.
        },
        "to_json_with" => quote! {
            /// Kafka's JSON form of the body at `version`, written as `options` say.
            ///
            /// # Errors
            /// As the body's `ToJson::to_json_with`.
        },
        "error_response" => quote! {
            /// The response that reports `error_code` (an `ErrorCode` on the
            /// wire) for everything this request asked, as a forwarding broker
            /// answers a client when the envelope failed (KIP-590): the
            /// top-level `ErrorCode` where the response has one, throttle time 0,
            /// and per item of each collection the request names (topics,
            /// partitions, resources…) the item's key with the error code.
            /// `message` fills the `ErrorMessage` fields of the apis whose
            /// answer carries the error's own text; every other field holds
            /// its default. Derived from the request's and the response's
            /// schemas at `version` and the facts of the message set.
            ///
            /// `None` for a request of an api that is not forwardable.
        },
        "visit_error_codes" => quote! {
            /// Calls `f` with the value of every error-code field of the body at
            /// `version`: each `int16` field named `ErrorCode` or ending in
            /// `ErrorCode` (Kafka's schemas), nested structs and arrays included,
            /// in schema order; 0 is NONE (see the runtime's `error_code` module).
        },
        "write_json" => quote! {
            /// Appends to `w` the text of the body's JSON form at `version`
            /// (what [`Self::to_json_with`] gives with `w`'s options, as
            /// `Value::to_string` writes it), without building the `Value`.
            ///
            /// # Errors
            /// As the body's `ToJson::write_json`.
        },
        "from_json" => quote! {
            /// Reads the body of `api_key` at `version` from Kafka's JSON form.
            ///
            /// # Errors
            /// `JsonErrorKind::UnknownApiKey` for an api key whose messages were
            /// not compiled, or the body's own error.
        },
        _ => TokenStream::new(),
    };
    let dispatch = body_dispatch(name, &variants, covers, dispatch::Form::Owned, &docs, cx);
    let take = |v: &proc_macro2::Ident| format_ident!("take_{}", naming::field_name(&v.to_string()));
    // The moves out of the body, in the body's own impl: a `TryFrom` is
    // compiled with its message type, and a match that moves out of a body
    // there would need the drop code of every message of the set beside it.
    let takes = entries.iter().map(|BodyEntry { variant: v, ty, key, cfg, .. }| {
        let take = take(v);
        quote! {
            #cfg
            // The error gives the body back, as `TryFrom`'s does.
            #[allow(unreachable_patterns, clippy::result_large_err)]
            fn #take(self) -> Result<#ty, kwire::error::UnexpectedBody<Self>> {
                match self {
                    Self::#v(m) => Ok(m),
                    body => Err(kwire::error::UnexpectedBody { expected: #key, found: body.api_key().code(), body }),
                }
            }
        }
    });
    let froms = entries.iter().zip(&variants).map(|(BodyEntry { variant: v, ty, key, cfg, .. }, variant)| {
        let take = take(v);
        let try_doc = format!(
            " The body of api key {key}, or [`UnexpectedBody`]({}) giving back a body of another api key.",
            link("error::UnexpectedBody")
        );
        let from = dispatch.impl_from(variant);
        quote! {
            #from

            #cfg
            #[doc = #try_doc]
            impl TryFrom<#name> for #ty {
                type Error = kwire::error::UnexpectedBody<#name>;

                fn try_from(body: #name) -> Result<Self, Self::Error> {
                    body.#take()
                }
            }
        }
    });
    let doc = format!(" A {what} body of any api key in this message set.");
    let non_exhaustive_doc = format!(
        " Non-exhaustive: Kafka releases and the crate's features (`admin`, `controller`) add api keys, so a `match` needs a `_` arm; `TryFrom<{name}>` on each {what} type takes out one api key's body."
    );
    let views = cx.views.then(|| {
        let entries = body_entries(bodies, api_keys, what, Form::Borrowed, cx);
        super::gate(emit_view_enum(&entries, covers, name, what, cx), cx.gates.views.as_deref())
    });
    let default = entries.iter().find(|e| e.cfg.is_empty()).map(|BodyEntry { variant: v, ty, key, .. }| {
        let doc = format!(
            " An empty body of api key {key}, the lowest: a placeholder to decode into ([`{name}::decode_into_from`])."
        );
        quote! {
            impl Default for #name {
                #[doc = #doc]
                fn default() -> Self {
                    Self::#v(<#ty>::default())
                }
            }
        }
    });
    let declaration = dispatch.declaration(quote! {
        #[doc = #doc]
        ///
        #[doc = #non_exhaustive_doc]
    });
    let methods = dispatch.methods();
    quote! {
        #declaration

        #default

        impl #name {
            #methods

            #(#takes)*
        }

        #(#froms)*

        #views
    }
}

/// The dispatch of a body enum over `variants`, selected by `ApiKey`.
fn body_dispatch<'a>(
    name: &proc_macro2::Ident,
    variants: &'a [Variant],
    covers: bool,
    form: dispatch::Form,
    docs: &'a dyn Fn(&str) -> TokenStream,
    cx: &'a EmitContext,
) -> Dispatch<'a> {
    let name = match &form {
        dispatch::Form::Owned => name.clone(),
        dispatch::Form::View(_) => format_ident!("{name}Ref"),
    };
    let extra = |on: bool, gate: &Option<String>| on.then(|| gate.clone());
    let requests = name == "RequestBody" && !cx.error_responses.is_empty();
    Dispatch {
        name,
        variants,
        rt: &cx.runtime,
        selector: (format_ident!("api_key"), quote!(ApiKey)),
        selector_code: quote!(api_key.code()),
        coverage: if covers { Coverage::Covers } else { Coverage::Partial },
        unknown_decode: quote!(Err(r.error(kwire::error::DecodeErrorKind::ApiKeyNotCompiled(api_key.code())))),
        form,
        inherent: true,
        json: extra(cx.json, &cx.gates.json),
        samples: extra(cx.samples, &cx.gates.samples),
        docs,
        error_responses: requests.then(|| (format_ident!("ResponseBody"), &cx.error_responses)),
    }
}

/// The `ApiKey` variant of each api key of the table.
type ApiKeyIdents = BTreeMap<i16, proc_macro2::Ident>;

/// One body of a dispatch enum.
struct BodyEntry {
    /// The enum's variant.
    variant: proc_macro2::Ident,
    /// The body's type in its form: `super::module::X`, or `super::module::XRef<'a>`.
    ty: TokenStream,
    /// The api key's number.
    key: proc_macro2::Literal,
    /// The api key's `ApiKey` variant.
    api_key: proc_macro2::Ident,
    /// `#[cfg(…)]` of the api key's group, or nothing.
    cfg: TokenStream,
}

/// Each body's entry, its type in `form`. Every body's api key is in `api_keys`.
fn body_entries(
    bodies: &[&MessageSpec],
    api_keys: &ApiKeyIdents,
    what: &str,
    form: Form,
    cx: &EmitContext,
) -> Vec<BodyEntry> {
    let suffix = if what == "request" { "Request" } else { "Response" };
    bodies
        .iter()
        .map(|s| {
            let variant = naming::type_ident(api_name(&s.name, suffix));
            let module = format_ident!("{}", naming::module_name(&s.name));
            let ty = form.type_path(&naming::type_name(&s.name));
            let number = s.api_key.unwrap_or_default();
            let key = proc_macro2::Literal::i16_unsuffixed(number);
            let api_key = api_keys.get(&number).cloned().unwrap_or_else(|| variant.clone());
            BodyEntry { variant, ty: quote!(super::#module::#ty), key, api_key, cfg: cx.api_cfg(number) }
        })
        .collect()
}

/// The enum's variant of each body, its api key as doc.
fn variants(entries: &[BodyEntry]) -> Vec<Variant> {
    entries
        .iter()
        .map(|BodyEntry { variant, ty, key, api_key, cfg }| Variant {
            ident: variant.clone(),
            ty: ty.clone(),
            selector: quote!(ApiKey::#api_key),
            cfg: cfg.clone(),
            doc: format!("Api key {key}."),
        })
        .collect()
}

/// `RequestBodyRef<'a>` or `ResponseBodyRef<'a>`: the borrowed view of a
/// body of any api key, decoded by api key at run time.
fn emit_view_enum(
    entries: &[BodyEntry],
    covers_table: bool,
    owned: &proc_macro2::Ident,
    what: &str,
    cx: &EmitContext,
) -> TokenStream {
    let variants = variants(entries);
    let doc = format!(" The borrowed view of a {what} body of any api key: see [`{owned}`].");
    let owned_doc = format!(" The owned [`{owned}`], allocating what the view borrowed.");
    let decode_errors = format!(" As [`{owned}::decode_from`].");
    let docs = |row: &str| match row {
        "key" => quote! {
            /// The api key of the body.
        },
        "decode_from" => quote! {
            /// Reads the view of the body of `api_key` at `version`.
            ///
            /// # Errors
            #[doc = #decode_errors]
        },
        "into_owned" => quote!(#[doc = #owned_doc]),
        _ => TokenStream::new(),
    };
    let dispatch = body_dispatch(owned, &variants, covers_table, dispatch::Form::View(owned.clone()), &docs, cx);
    let name = &dispatch.name;
    let declaration = dispatch.declaration(quote! {
        #[doc = #doc]
        ///
        /// Non-exhaustive, as the owned enum: a `match` needs a `_` arm.
    });
    let methods = dispatch.methods();
    quote! {
        #declaration

        impl<'a> #name<'a> {
            #methods
        }
    }
}

/// True when the dispatch has a body for every api key of the table, so
/// that a `match api_key` over its bodies is exhaustive without a `_` arm
/// (which would then be unreachable). `api_keys` are the compiled ones.
fn covers_table(entries: &[BodyEntry], api_keys: &ApiKeyIdents, cx: &EmitContext) -> bool {
    !cx.partial && entries.len() == api_keys.len()
}

/// The api's name: the message name without its one `Request` or
/// `Response` suffix (`FooRequestRequest` → `FooRequest`).
fn api_name<'a>(message: &'a str, suffix: &str) -> &'a str {
    message.strip_suffix(suffix).unwrap_or(message)
}

/// The runtime's path as text for doc links: `crate` or `kwire`.
fn runtime_path(rt: &TokenStream) -> String {
    rt.to_string().replace(' ', "").trim_start_matches("::").to_owned()
}
