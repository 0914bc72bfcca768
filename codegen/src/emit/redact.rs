//! Fields that carry secrets ([`crate::Options::sensitive_fields`]): which
//! they are, and the `Debug` impl of a struct that has one, which shows
//! their length through the runtime's `redact::Redacted` instead of
//! their content. Structs without one keep `#[derive(Debug)]`.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::quote;

use super::field::Form;
use super::{EmitContext, StructView};
use crate::check::Checked;
use crate::model::FieldType;

/// The (message, field) pairs the entries name, Kafka's names, or one
/// problem per entry that is not `Message.Field`, names a field the message
/// lacks, or names a field that is neither string nor bytes. Entries whose
/// message is not among `checked` are skipped.
pub fn resolve(
    entries: &[impl AsRef<str>],
    checked: &[Checked<'_>],
) -> Result<BTreeSet<(String, String)>, Vec<String>> {
    super::resolve_fields(entries, checked, |entry, message, field, c| {
        let types: Vec<&FieldType> =
            c.structs.iter().flat_map(|s| s.fields.iter()).filter(|f| f.name == field).map(|f| &f.ty).collect();
        if types.is_empty() {
            Err(format!("{message} has no field {field}"))
        } else if let Some(other) = types.iter().find(|t| !matches!(t, FieldType::String | FieldType::Bytes)) {
            Err(format!("{entry} is {other}; only string and bytes fields can be sensitive"))
        } else {
            Ok(())
        }
    })
}

/// True when `view` has a sensitive field: it then gets [`emit_debug`]
/// instead of `#[derive(Debug)]`.
pub fn has_sensitive(view: &StructView<'_>) -> bool {
    view.fields.iter().any(|f| f.sensitive)
}

/// `impl Debug` for a struct with sensitive fields (or its view): every
/// field as the derive would show it, the sensitive ones redacted.
pub fn emit_debug(view: &StructView<'_>, cx: &EmitContext, form: Form) -> TokenStream {
    let rt = &cx.runtime;
    let ident = form.type_ident(&view.def.rust_name);
    let name = ident.to_string();
    let generics = match form {
        Form::Owned => quote!(),
        Form::Borrowed => quote!(<'_>),
    };
    let fields = view.fields.iter().map(|f| {
        let (ident, text) = (&f.ident, f.ident.to_string());
        let text = text.strip_prefix("r#").unwrap_or(&text).to_owned();
        if f.sensitive {
            quote!(.field(#text, &#rt::redact::Redacted(&self.#ident)))
        } else {
            quote!(.field(#text, &self.#ident))
        }
    });
    let unknown =
        view.has_tagged_section().then(|| quote!(.field("unknown_tagged_fields", &self.unknown_tagged_fields)));
    // Views that borrow nothing else carry a marker field (see `emit_struct`).
    let marker = (form == Form::Borrowed && !view.has_tagged_section() && !view.fields.iter().any(|f| f.borrows()))
        .then(|| quote!(.field("input", &self.input)));
    quote! {
        impl ::core::fmt::Debug for #ident #generics {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct(#name) #(#fields)* #unknown #marker .finish()
            }
        }
    }
}
