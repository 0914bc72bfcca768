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

/// How a field's value enters the struct's JSON form: the one decision
/// the `Value` of `ToJson::to_json_with` and the text its `write_json`
/// streams (see [`super::json_write`]) both follow.
pub(crate) enum JsonValue {
    /// A `records` field: `""` whatever it holds (Kafka's
    /// `write(data, version)` leaves the records out).
    Records,
    /// A nullable `records` field: `null`, or as [`JsonValue::Records`].
    NullableRecords,
    /// A field that carries a secret: redacted unless the options say otherwise.
    Sensitive,
    /// Any other field: its type's own JSON form.
    Plain,
}

/// A field of a struct's JSON form, in schema order.
pub(crate) struct JsonField<'v, 'a> {
    /// The field.
    pub view: &'v FieldView<'a>,
    /// Its JSON key.
    pub key: String,
    /// How its value is written.
    pub value: JsonValue,
    /// When it is written: `None` always, else the test.
    test: Option<TokenStream>,
}

impl JsonField<'_, '_> {
    /// `write` under the field's test: present at the version, and for a
    /// field tagged at the version, differing from its default.
    pub fn guard(&self, write: TokenStream) -> TokenStream {
        match &self.test {
            None => write,
            Some(test) => quote!(if #test { #write }),
        }
    }
}

/// What both JSON writers of a struct share: the checks before writing
/// (a field the version lacks, not ignorable, must hold its default) and
/// the fields written.
pub(crate) struct JsonPlan<'v, 'a> {
    /// The `NonDefaultField` checks, each returning the error.
    pub checks: TokenStream,
    /// The fields, in schema order, each with its guard.
    pub fields: Vec<JsonField<'v, 'a>>,
}

impl<'v, 'a> JsonPlan<'v, 'a> {
    /// The JSON plan of `plan`.
    pub fn new(plan: &StructPlan<'v, 'a>, cx: &EmitContext) -> Self {
        let rt = &cx.runtime;
        let owner = plan.view.def.name;
        let mut checks = TokenStream::new();
        let mut fields = Vec::new();
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
            // Tagged fields are written only when they differ from their default.
            let test = if f.tagged.is_empty() {
                match present {
                    Cond::Always => None,
                    Cond::Never => continue,
                    Cond::When(e, _) => Some(e.clone()),
                }
            } else {
                let non_default = f.non_default(quote!(self.#ident), rt);
                let test = match Cond::new(f.tagged, f.present) {
                    Cond::Always => non_default,
                    Cond::Never => quote!(true),
                    Cond::When(_, untagged) => quote!((#untagged || #non_default)),
                };
                Some(present.and(test))
            };
            let value = match (&f.field.ty, f.option) {
                (FieldType::Records, false) => JsonValue::Records,
                (FieldType::Records, true) => JsonValue::NullableRecords,
                _ if f.sensitive => JsonValue::Sensitive,
                _ => JsonValue::Plain,
            };
            fields.push(JsonField { view: f, key, value, test });
        }
        JsonPlan { checks, fields }
    }

    /// Whether a field is written through its type's `ToJson` (and so
    /// with the options): records-only structs use none.
    pub fn uses_options(&self) -> bool {
        self.fields.iter().any(|f| !matches!(f.value, JsonValue::Records | JsonValue::NullableRecords))
    }
}

/// The `Value` of field `f` of `self` put into `out`, as [`JsonValue`] says.
fn value_to_json(f: &JsonField<'_, '_>, owner: &str) -> TokenStream {
    let (ident, key) = (&f.view.ident, &f.key);
    match f.value {
        JsonValue::Records => quote!(out.insert(#key.into(), enc::json::records(&self.#ident));),
        JsonValue::NullableRecords => quote!(out.insert(#key.into(), enc::json::nullable_records(&self.#ident));),
        JsonValue::Sensitive => {
            quote!(enc::json::put_sensitive(&mut out, &self.#ident, version, options, #owner, #key)?;)
        }
        JsonValue::Plain => quote!(enc::json::put(&mut out, &self.#ident, version, options, #owner, #key)?;),
    }
}

/// Both impls for one struct: `ToJson` (its `Value`, and the same text
/// streamed, from [`super::json_write`]) and `FromJson`.
pub fn emit_json_impls(plan: &StructPlan<'_, '_>, cx: &EmitContext) -> TokenStream {
    let rt = &cx.runtime;
    let view = plan.view;
    let ident = naming::ident(&view.def.rust_name);
    let owner = view.def.name;
    let json = JsonPlan::new(plan, cx);
    let checks = &json.checks;
    let mut writes = TokenStream::new();
    for f in &json.fields {
        writes.extend(f.guard(value_to_json(f, owner)));
    }
    let mut reads = TokenStream::new();
    for p in plan.fields() {
        let f = p.view;
        let key = json_key(&f.field.name);
        let ident = &f.ident;
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
    let options = if json.uses_options() { quote!(options) } else { quote!(_options) };
    let out_binding = if empty { quote!(let out) } else { quote!(let mut out) };
    let (object_binding, value_binding) =
        if empty { (quote!(let _object), quote!(let value)) } else { (quote!(let object), quote!(let mut value)) };
    let write_json = super::json_write::emit_write_json(&json, owner, empty, cx);
    quote! {
        impl #rt::json::ToJson for #ident {
            #[allow(unused_comparisons, clippy::nonminimal_bool)]
            fn to_json_with(&self, #to_version: i16, #options: #rt::json::JsonOptions) -> Result<#rt::json::Value, #rt::json::JsonError> {
                #checks
                #out_binding = #rt::json::Map::new();
                #writes
                Ok(#rt::json::Value::Object(out))
            }

            #write_json
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
