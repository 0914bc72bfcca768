//! The dispatch enums over the record types of a family of internal
//! records ([`Family`]): `records.rs`, included beside the family's
//! `mod.rs`. The family's schemas are read, lowered and checked as every
//! schema is; each enum is a [`Dispatch`] whose methods implement the
//! runtime's `RecordData`, selected by record type (the schema's `apiKey`).

use std::path::Path;

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::emit::api::range;
use crate::emit::dispatch::{Coverage, Dispatch, Form, Variant};
use crate::facts::Family;
use crate::model::{MessageSpec, SpecType};
use crate::sources::{load_checked_as, Reading};
use crate::{naming, write, Builder, Error};

/// Writes `records.rs` of `family` into `out`: the dispatch enums over the
/// schemas `builder` compiles (the family's directory), with its options
/// and runtime path.
///
/// # Errors
/// As [`Builder::compile`]: the schemas' diagnostics, [`Error::Io`] when
/// reading or writing fails.
pub(crate) fn write_records(family: &Family, builder: &Builder, out: &Path) -> Result<(), Error> {
    let sources = builder.read_sources()?;
    let specs = sources.check_utf8(load_checked_as(&sources.texts, Reading::Strict))?;
    let runtime = naming::runtime_path(builder.runtime())
        .map_err(|reason| Error::RuntimePath { path: builder.runtime().to_owned(), reason })?;
    let text = write::format_file(
        records_tokens(family, &specs, builder.options(), &runtime),
        &format!("the {} family", family.dir),
    )
    .map_err(Error::Internal)?;
    let path = out.join("records.rs");
    write::write_if_changed(&path, &text).map_err(|source| Error::Io { path, source })?;
    Ok(())
}

/// The items of `records.rs`: the family's framed enum (`framed`, over its
/// `metadata` schemas) and its coordinator key and value enums, those it has.
fn records_tokens(family: &Family, specs: &[MessageSpec], options: &crate::Options, rt: &TokenStream) -> TokenStream {
    let mut enums: Vec<(String, String, SpecType, &str, &str)> = Vec::new();
    if let Some(name) = &family.framed {
        let doc = format!(
            "A record of the `{}` family, by record type: the struct of each `metadata` schema, chosen by its `apiKey`. In the log each is framed as Kafka's metadata records are ([`ApiMessageAndVersion`](kwire::internal::ApiMessageAndVersion)).",
            family.dir
        );
        enums.push((name.clone(), doc, SpecType::Metadata, "", "metadata record"));
    }
    if family.coordinator {
        let key_doc = format!(
            "The key of a `{}` record, by record type (the key's int16 prefix, the schema's `apiKey`).",
            family.dir
        );
        let value_doc = format!("The value of a `{}` record, by record type (that of its key).", family.dir);
        enums.push(("CoordinatorRecordKey".into(), key_doc, SpecType::CoordinatorKey, "Key", "coordinator key"));
        enums.push((
            "CoordinatorRecordValue".into(),
            value_doc,
            SpecType::CoordinatorValue,
            "Value",
            "coordinator value",
        ));
    }
    if enums.is_empty() {
        return TokenStream::new();
    }
    let mut items = TokenStream::new();
    for (name, doc, spec_type, suffix, kind) in enums {
        items.extend(record_enum(&name, &doc, &pick(specs, spec_type), suffix, kind, options, rt));
    }
    let mut out = crate::emit::runtime_imports(rt, &items);
    out.extend(items);
    out
}

/// The schemas of one `type` with a record type, by record type.
fn pick(specs: &[MessageSpec], spec_type: SpecType) -> Vec<&MessageSpec> {
    let mut picked: Vec<&MessageSpec> =
        specs.iter().filter(|s| s.spec_type == spec_type && s.api_key.is_some() && !s.is_removed()).collect();
    picked.sort_by_key(|s| s.api_key);
    picked
}

/// The name of Kafka's record-type enum constant of a schema: its name
/// without `suffix` (a key and its value share one), e.g. `OFFSET_COMMIT`.
fn type_name(spec: &MessageSpec, suffix: &str) -> String {
    naming::constant_name(spec.name.strip_suffix(suffix).unwrap_or(&spec.name))
}

/// One dispatch enum over `specs` (by record type) and its `RecordData` impl.
fn record_enum(
    name: &str,
    doc: &str,
    specs: &[&MessageSpec],
    suffix: &str,
    kind: &str,
    options: &crate::Options,
    rt: &TokenStream,
) -> TokenStream {
    let variants: Vec<Variant> = specs
        .iter()
        .map(|s| {
            let ident = naming::type_ident(&s.name);
            let key = s.api_key.unwrap_or_default();
            Variant {
                doc: format!(
                    "Record type {key} (`{}`): [`{ident}`], versions {}.",
                    type_name(s, suffix),
                    s.valid_versions
                ),
                ty: quote!(#ident),
                ident,
                selector: {
                    let key = Literal::i16_unsuffixed(key);
                    quote!(#key)
                },
                cfg: TokenStream::new(),
            }
        })
        .collect();
    let extra = |on: bool, gate: &Option<String>| (on || gate.is_some()).then(|| gate.clone());
    let dispatch = Dispatch {
        name: format_ident!("{name}"),
        variants: &variants,
        rt,
        selector: (format_ident!("record_type"), quote!(i16)),
        selector_code: quote!(record_type),
        coverage: Coverage::Open,
        unknown_decode: quote!(Err(r.error(kwire::error::DecodeErrorKind::UnknownRecordType(record_type)))),
        form: Form::Owned,
        inherent: false,
        json: extra(options.json, &options.gates.json),
        samples: extra(options.samples, &options.gates.samples),
        docs: &|_| TokenStream::new(),
        error_responses: None,
    };
    let record_types = specs.iter().map(|s| {
        let (id, name, type_name) =
            (Literal::i16_unsuffixed(s.api_key.unwrap_or_default()), &s.name, type_name(s, suffix));
        let versions = range(s.valid_versions);
        quote!(kwire::internal::RecordType { id: #id, name: #name, type_name: #type_name, versions: #versions },)
    });
    let doc = format!(" {doc}");
    let declaration = dispatch.declaration(quote!(#[doc = #doc]));
    let froms = variants.iter().map(|v| dispatch.impl_from(v));
    let methods = dispatch.methods();
    let ident = &dispatch.name;
    quote! {
        #declaration

        #(#froms)*

        impl kwire::internal::RecordData for #ident {
            const KIND: &'static str = #kind;
            const RECORD_TYPES: &'static [kwire::internal::RecordType] = &[
                #(#record_types)*
            ];

            #methods
        }
    }
}
