//! The api-level items: `Message`, `ApiMessage` and `Request` impls of each
//! top-level struct, and the api-key table of the whole message set.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::EmitContext;
use crate::model::{Listener, MessageSpec, SpecType};
use crate::naming;
use crate::versions::Versions;

fn range(v: Versions, rt: &TokenStream) -> TokenStream {
    if v.is_empty() {
        quote!(#rt::message::VersionRange::NONE)
    } else {
        let (lo, hi) = (
            proc_macro2::Literal::i16_unsuffixed(v.lo),
            proc_macro2::Literal::i16_unsuffixed(v.hi),
        );
        quote!(#rt::message::VersionRange::new(#lo, #hi))
    }
}

/// `impl Message` for the body, plus `ApiMessage` and `Request` where they apply.
pub fn emit_message_impls(
    spec: &MessageSpec,
    cx: &EmitContext,
    responses: &BTreeMap<i16, String>,
) -> TokenStream {
    let rt = &cx.runtime;
    let ident = naming::type_ident(&spec.name);
    let name = &spec.name;
    let valid = range(spec.valid_versions, rt);
    let flexible = range(spec.flexible_versions.intersect(spec.valid_versions), rt);
    let mut out = quote! {
        impl #rt::message::Message for #ident {
            const NAME: &'static str = #name;
            const VERSIONS: #rt::message::VersionRange = #valid;
            const FLEXIBLE_VERSIONS: #rt::message::VersionRange = #flexible;
        }
    };
    let Some(key) = spec
        .api_key
        .filter(|_| matches!(spec.spec_type, SpecType::Request | SpecType::Response))
    else {
        return out;
    };
    out.extend(quote! {
        impl #rt::message::ApiMessage for #ident {
            const API_KEY: i16 = #key;
        }
    });
    if spec.spec_type == SpecType::Request {
        if let Some(response) = responses.get(&key) {
            let module = format_ident!("{}", naming::module_name(response));
            let response = naming::type_ident(response);
            out.extend(quote! {
                impl #rt::message::Request for #ident {
                    type Response = super::#module::#response;
                }
            });
        }
    }
    out
}

/// The `ApiKey` enum: one variant per api key with its name, versions,
/// listeners and header versions, from the request schemas (spec §8.1).
pub fn emit_api_table(specs: &[&MessageSpec], cx: &EmitContext) -> TokenStream {
    let rt = &cx.runtime;
    let mut requests: Vec<&MessageSpec> = specs
        .iter()
        .copied()
        .filter(|s| s.spec_type == SpecType::Request && s.api_key.is_some())
        .collect();
    requests.sort_by_key(|s| s.api_key);
    let responses: BTreeMap<i16, &MessageSpec> = specs
        .iter()
        .filter(|s| s.spec_type == SpecType::Response)
        .filter_map(|s| s.api_key.map(|k| (k, *s)))
        .collect();
    let variants = requests.iter().map(|s| {
        let base = s.name.trim_end_matches("Request");
        let ident = naming::type_ident(base);
        let key = s.api_key.unwrap_or_default();
        let doc = format!(
            " {base} (api key {key}): versions {}, flexible {}.",
            s.valid_versions, s.flexible_versions
        );
        quote!(#[doc = #doc] #ident = #key,)
    });
    let infos = requests.iter().map(|s| {
        let base = s.name.trim_end_matches("Request");
        let ident = naming::type_ident(base);
        let valid = range(s.valid_versions, rt);
        let flexible = range(s.flexible_versions.intersect(s.valid_versions), rt);
        let response_flexible = responses
            .get(&s.api_key.unwrap_or_default())
            .map_or(flexible.clone(), |r| {
                range(r.flexible_versions.intersect(r.valid_versions), rt)
            });
        let deprecated = range(s.deprecated_versions, rt);
        let unstable = s.latest_version_unstable;
        let mut listeners = s.listeners.clone();
        listeners.sort();
        listeners.dedup();
        let listeners = listeners.iter().map(|l| match l {
            Listener::ZkBroker => quote!(#rt::api::Listener::ZkBroker),
            Listener::Broker => quote!(#rt::api::Listener::Broker),
            Listener::Controller => quote!(#rt::api::Listener::Controller),
        });
        quote! {
            #rt::api::ApiInfo {
                api_key: ApiKey::#ident,
                name: #base,
                valid_versions: #valid,
                flexible_versions: #flexible,
                response_flexible_versions: #response_flexible,
                deprecated_versions: #deprecated,
                latest_version_unstable: #unstable,
                listeners: &[#(#listeners),*],
            },
        }
    });
    let arms = requests.iter().enumerate().map(|(i, s)| {
        let key = s.api_key.unwrap_or_default();
        quote!(#key => Some(&API_INFO[#i]),)
    });
    quote! {
        /// Every api key of this message set, numbered as on the wire.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(i16)]
        pub enum ApiKey {
            #(#variants)*
        }

        /// Facts about each api key, in api-key order.
        pub static API_INFO: &[#rt::api::ApiInfo] = &[
            #(#infos)*
        ];

        /// The facts about api key `code`, if this message set has it.
        pub fn api_info(code: i16) -> Option<&'static #rt::api::ApiInfo> {
            match code {
                #(#arms)*
                _ => None,
            }
        }
    }
}
