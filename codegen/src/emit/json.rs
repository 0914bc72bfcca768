//! `impl ToJson` and `impl FromJson` for each struct (optional): Kafka's
//! JSON form at a version, as its generated `XxxDataJsonConverter` classes
//! write and read it (the runtime's `json` module holds the rules for each
//! schema type).

use proc_macro2::TokenStream;
use quote::quote;

use super::cond::Cond;
use super::field::FieldView;
use super::plan::StructPlan;
use super::EmitContext;
use crate::model::FieldType;
use crate::naming;

/// Kafka's JSON key for a field: its name with the first letter lower-cased
/// (Kafka's `FieldSpec.camelCaseName()`).
pub fn json_key(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The JSON value of field `f` of `self`: the runtime's `ToJson`, except
/// `records`, which Kafka writes as `""`, and sensitive fields, redacted
/// unless the options say otherwise.
fn value_to_json(f: &FieldView<'_>, owner: &str, key: &str) -> TokenStream {
    let ident = &f.ident;
    match (&f.field.ty, f.option) {
        (FieldType::Records, false) => quote!(out.insert(#key.into(), enc::json::records(&self.#ident));),
        (FieldType::Records, true) => {
            quote!(out.insert(#key.into(), enc::json::nullable_records(&self.#ident));)
        }
        _ if f.sensitive => {
            quote!(enc::json::put_sensitive(&mut out, &self.#ident, version, options, #owner, #key)?;)
        }
        _ => quote!(enc::json::put(&mut out, &self.#ident, version, options, #owner, #key)?;),
    }
}

/// Both impls for one struct.
pub fn emit_json_impls(plan: &StructPlan<'_, '_>, cx: &EmitContext) -> TokenStream {
    let rt = &cx.runtime;
    let view = plan.view;
    let ident = naming::ident(&view.def.rust_name);
    let owner = view.def.name;
    let mut checks = TokenStream::new();
    let mut writes = TokenStream::new();
    let mut reads = TokenStream::new();
    for p in plan.fields() {
        let f = p.view;
        let key = json_key(&f.field.name);
        let ident = &f.ident;
        let present = &p.present;
        if !f.field.ignorable {
            let non_default = f.non_default(quote!(self.#ident), rt);
            if let Some(test) = present.and_not(non_default) {
                checks.extend(quote! {
                    if #test {
                        return Err(enc::json::non_default(#owner, #key, version));
                    }
                });
            }
        }
        let write = value_to_json(f, owner, &key);
        // Tagged fields are written only when they differ from their default.
        let write = if f.tagged.is_empty() {
            present.guard(write)
        } else {
            let non_default = f.non_default(quote!(self.#ident), rt);
            let test = match Cond::new(f.tagged, f.present) {
                Cond::Always => non_default,
                Cond::Never => quote!(true),
                Cond::When(_, untagged) => quote!((#untagged || #non_default)),
            };
            let test = present.and(test);
            quote!(if #test { #write })
        };
        writes.extend(write);
        let absent = match &p.positional {
            Cond::Never => quote!(),
            Cond::Always => quote!(else { return Err(enc::json::missing(#owner, #key, version)); }),
            Cond::When(test, _) => {
                quote!(else if #test { return Err(enc::json::missing(#owner, #key, version)); })
            }
        };
        reads.extend(quote! {
            if let Some(v) = object.get(#key) {
                value.#ident = enc::json::field(v, version, #owner, #key)?;
            } #absent
        });
    }
    let empty = view.fields.is_empty();
    let (to_version, from_version) =
        if empty { (quote!(_version), quote!(version)) } else { (quote!(version), quote!(version)) };
    // Records-only structs write no field through `put`, and use no options.
    let uses_options = view.fields.iter().any(|f| f.field.ty != FieldType::Records);
    let options = if uses_options { quote!(options) } else { quote!(_options) };
    let out_binding = if empty { quote!(let out) } else { quote!(let mut out) };
    let (object_binding, value_binding) =
        if empty { (quote!(let _object), quote!(let value)) } else { (quote!(let object), quote!(let mut value)) };
    quote! {
        impl #rt::json::ToJson for #ident {
            #[allow(unused_comparisons, clippy::nonminimal_bool)]
            fn to_json_with(&self, #to_version: i16, #options: #rt::json::JsonOptions) -> Result<#rt::json::Value, #rt::json::JsonError> {
                #checks
                #out_binding = #rt::json::Map::new();
                #writes
                Ok(#rt::json::Value::Object(out))
            }
        }

        impl #rt::json::FromJson for #ident {
            #[allow(clippy::field_reassign_with_default)]
            fn from_json(json: &#rt::json::Value, #from_version: i16) -> Result<Self, #rt::json::JsonError> {
                #object_binding = enc::json::object(json, #owner, version)?;
                #value_binding = Self::default();
                #reads
                Ok(value)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_as_kafka_writes_them() {
        assert_eq!(super::json_key("ThrottleTimeMs"), "throttleTimeMs");
        assert_eq!(super::json_key("KRaftVersion"), "kRaftVersion");
        assert_eq!(super::json_key("isKRaftController"), "isKRaftController");
    }
}
