//! The index of a message set, the `mod.rs` that a crate `include!`s: one
//! module per compiled message, `include!`ing its file and re-exporting its
//! type, and the api-key table's module with the names it exports. Each
//! entry carries its api group's `#[cfg(feature = …)]`, if any.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::EmitContext;
use crate::model::{MessageSpec, SpecType};
use crate::naming;

/// The index's tokens, an entry at a time.
#[derive(Default)]
pub struct Index {
    tokens: TokenStream,
}

impl Index {
    /// The entry of one message: its module, from `module.rs`, and its
    /// type re-exported.
    pub fn message(&mut self, spec: &MessageSpec, cx: &EmitContext) {
        let module = naming::module_name(&spec.name);
        let (module, file_name, ty) =
            (format_ident!("{module}"), format!("{module}.rs"), naming::type_ident(&spec.name));
        let doc = format!(" {}: generated from {}.", spec.name, spec.file);
        let cfg = match (spec.spec_type, spec.api_key) {
            (SpecType::Request | SpecType::Response, Some(key)) => cx.api_cfg(key),
            _ => quote!(),
        };
        self.tokens.extend(quote! {
            #cfg
            #[doc = #doc]
            pub mod #module { include!(#file_name); }
            #cfg
            pub use #module::#ty;
        });
    }

    /// The entry of the api-key table (`api_keys.rs`): the table, and the
    /// dispatch enums when `dispatch` (the borrowed ones with the views).
    pub fn api_keys(&mut self, dispatch: bool, cx: &EmitContext) {
        let bodies = dispatch.then(|| {
            quote!(
                pub use api_keys::{RequestBody, ResponseBody};
            )
        });
        let views = (dispatch && cx.views).then(|| {
            super::gate(
                quote!(
                    pub use api_keys::{RequestBodyRef, ResponseBodyRef};
                ),
                cx.gates.views.as_deref(),
            )
        });
        self.tokens.extend(quote! {
            /// The api-key table of this message set.
            pub mod api_keys { include!("api_keys.rs"); }
            pub use api_keys::{api_info, ApiKey, API_INFO};
            #bodies
            #views
        });
    }

    /// The whole index.
    pub fn into_tokens(self) -> TokenStream {
        self.tokens
    }
}
