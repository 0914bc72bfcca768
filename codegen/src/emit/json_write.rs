//! `ToJson::write_json` for each struct (with `ToJson`, optional): the
//! text of Kafka's JSON form streamed into the runtime's `JsonWriter`,
//! field by field, with no `Value` built. It follows the same
//! [`JsonPlan`] as the struct's `to_json_with`, so the two cannot differ:
//! the same checks first, the same fields under the same guards, each
//! value written by the runtime's helper of its [`JsonValue`] kind.

use proc_macro2::TokenStream;
use quote::quote;

use super::json::{JsonField, JsonPlan, JsonValue};
use super::EmitContext;

/// The field's key as it appears in the text: the JSON string, then `:`.
fn key_text(key: &str) -> String {
    // A `String` always serializes.
    let quoted = serde_json::to_string(key).unwrap_or_default();
    format!("{quoted}:")
}

/// The write of field `f` of `self` into `out`, the struct's object.
fn write_field(f: &JsonField<'_, '_>) -> TokenStream {
    let (ident, key) = (&f.view.ident, &f.key);
    let text = key_text(key);
    match f.value {
        JsonValue::Records => quote!(out.records(#text, &self.#ident);),
        JsonValue::NullableRecords => quote!(out.nullable_records(#text, &self.#ident);),
        JsonValue::Sensitive => quote!(out.sensitive(#key, #text, &self.#ident, version)?;),
        JsonValue::Plain => quote!(out.field(#key, #text, &self.#ident, version)?;),
    }
}

/// `fn write_json` of `ToJson` for the struct `owner` (`empty` when it has
/// no field).
pub(crate) fn emit_write_json(json: &JsonPlan<'_, '_>, owner: &str, empty: bool, cx: &EmitContext) -> TokenStream {
    let rt = &cx.runtime;
    let checks = &json.checks;
    let mut writes = TokenStream::new();
    for f in &json.fields {
        writes.extend(f.guard(write_field(f)));
    }
    let version = if empty { quote!(_version) } else { quote!(version) };
    let out_binding = if json.fields.is_empty() { quote!(let out) } else { quote!(let mut out) };
    quote! {
        #[allow(unused_comparisons, clippy::nonminimal_bool)]
        fn write_json(&self, w: &mut #rt::json::JsonWriter<'_>, #version: i16) -> Result<(), #rt::json::JsonError> {
            #checks
            #out_binding = enc::json::Object::begin(w, #owner);
            #writes
            out.end();
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_as_the_text_holds_them() {
        assert_eq!(super::key_text("throttleTimeMs"), r#""throttleTimeMs":"#);
    }
}
