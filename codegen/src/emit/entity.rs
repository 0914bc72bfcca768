//! `impl Entities` (the runtime's `entity` module): for every struct that
//! holds a field with an `entityType` (topic names, broker ids, group ids,
//! transactional ids, producer ids), directly or in a nested struct,
//! `visit_entities` and `rewrite_entities` over those fields, each guarded
//! by the versions the field is present in. Requests and responses without
//! such a field get an empty impl (the trait's no-op defaults), nested
//! structs without one nothing; the dispatch enums delegate to the body.

use std::collections::BTreeSet;

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::cond::Cond;
use super::plan::StructPlan;
use crate::check::Checked;
use crate::model::{EntityType, Field, MessageSpec, SpecType};
use crate::naming;

/// The structs of a message that hold an entity field, directly or through
/// a nested struct (to any depth).
pub fn entity_structs<'a>(checked: &Checked<'a>) -> BTreeSet<&'a str> {
    checked.structs_holding(|f| f.entity_type != EntityType::Unknown)
}

/// True when some field of the message, at any depth, has an entity type.
pub fn spec_has_entities(spec: &MessageSpec) -> bool {
    fn any(fields: &[Field]) -> bool {
        fields.iter().any(|f| f.entity_type != EntityType::Unknown || any(&f.fields))
    }
    any(&spec.fields) || spec.common_structs.iter().any(|c| any(&c.fields))
}

/// The runtime's helpers for an entity type: visit and rewrite.
fn entity_helpers(entity: EntityType) -> Option<(Ident, Ident)> {
    let name = match entity {
        EntityType::Unknown => return None,
        EntityType::TopicName => "topic_name",
        EntityType::BrokerId => "broker_id",
        EntityType::GroupId => "group_id",
        EntityType::TransactionalId => "transactional_id",
        EntityType::ProducerId => "producer_id",
    };
    Some((format_ident!("{name}"), format_ident!("{name}_mut")))
}

/// The impl for one struct: with bodies when it is in `with`, empty for a
/// request or response body without entities, nothing otherwise.
pub fn emit_entities_impl(plan: &StructPlan<'_, '_>, spec: &MessageSpec, with: &BTreeSet<&str>) -> TokenStream {
    let view = plan.view;
    let ident = naming::ident(&view.def.rust_name);
    if !with.contains(view.def.name) {
        let api = matches!(spec.spec_type, SpecType::Request | SpecType::Response);
        return if view.def.is_message && api {
            quote!(impl kwire::entity::Entities for #ident {})
        } else {
            TokenStream::new()
        };
    }
    let mut visits = TokenStream::new();
    let mut rewrites = TokenStream::new();
    // Whether the bodies read `version` (a guard, or a nested struct).
    let mut versioned = false;
    for f in plan.fields() {
        let (field, present) = (&f.view.ident, &f.present);
        if let Some((visit, rewrite)) = entity_helpers(f.view.field.entity_type) {
            versioned |= matches!(present, Cond::When(..));
            let name = &f.view.field.name;
            visits.extend(present.guard(quote!(enc::#visit(&self.#field, #name, f);)));
            rewrites.extend(present.guard(quote!(enc::#rewrite(&mut self.#field, #name, f);)));
        } else if f.view.field.ty.struct_name().is_some_and(|n| with.contains(n)) {
            versioned = true;
            visits.extend(present.guard(quote!(kwire::entity::Entities::visit_entities(&self.#field, version, f);)));
            rewrites.extend(
                present.guard(quote!(kwire::entity::Entities::rewrite_entities(&mut self.#field, version, f);)),
            );
        }
    }
    let version = if versioned { quote!(version) } else { quote!(_version) };
    quote! {
        impl kwire::entity::Entities for #ident {
            fn visit_entities(&self, #version: i16, f: &mut kwire::entity::Visit<'_>) {
                #visits
            }

            fn rewrite_entities(&mut self, #version: i16, f: &mut kwire::entity::Rewrite<'_>) {
                #rewrites
            }
        }
    }
}

/// `impl Entities` for a dispatch enum: the bodies with entity fields
/// delegate, the others do nothing.
pub fn emit_dispatch_entities(variants: &[(Ident, TokenStream, bool)], name: &Ident) -> TokenStream {
    let with: Vec<&Ident> = variants.iter().filter(|(_, _, e)| *e).map(|(v, _, _)| v).collect();
    let cfgs: Vec<&TokenStream> = variants.iter().filter(|(_, _, e)| *e).map(|(_, c, _)| c).collect();
    if with.is_empty() {
        return quote! {
            /// No body here has entity fields: the trait's no-op methods.
            impl kwire::entity::Entities for #name {}
        };
    }
    let rest = (with.len() < variants.len()).then(|| quote!(#[allow(unreachable_patterns)] _ => {}));
    quote! {
        /// Delegates to the body (see the runtime's `entity` module).
        impl kwire::entity::Entities for #name {
            fn visit_entities(&self, version: i16, f: &mut kwire::entity::Visit<'_>) {
                match self {
                    #(#cfgs Self::#with(m) => kwire::entity::Entities::visit_entities(m, version, f),)*
                    #rest
                }
            }

            fn rewrite_entities(&mut self, version: i16, f: &mut kwire::entity::Rewrite<'_>) {
                match self {
                    #(#cfgs Self::#with(m) => kwire::entity::Entities::rewrite_entities(m, version, f),)*
                    #rest
                }
            }
        }
    }
}
