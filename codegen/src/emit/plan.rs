//! The plan of one struct: where each of its fields goes on the wire at
//! which versions, worked out once from its [`StructView`] and then read by
//! every emitter that writes code per version (encode, size, decode owned
//! and borrowed, the JSON form, samples, entity visits).
//!
//! Fields are gathered into [`Group`]s: runs of fixed-width fields, with
//! their tiers and the bytes of each field in the run, and single fields.
//! The tagged-field section, where the struct has one, is a
//! [`TaggedSection`]. Every version test is a [`Cond`] within the struct's
//! versions (or the section's), so it is already as narrow as it can be.

use std::ops::Range;

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::cond::Cond;
use super::field::FieldView;
use super::StructView;
use crate::model::FieldType;
use crate::versions::Versions;

/// One struct's plan: its fields in groups, and its tagged section.
pub(crate) struct StructPlan<'v, 'a> {
    /// The struct and its fields.
    pub(crate) view: &'v StructView<'a>,
    /// Every field, in schema order, each in one group.
    pub(crate) groups: Vec<Group<'v, 'a>>,
    /// The tagged-field section, when some version of the struct has one.
    pub(crate) section: Option<TaggedSection<'v, 'a>>,
    /// True when no field holds a nested struct (a topic config, an api
    /// version range, a partition's records): such a struct is encoded and
    /// decoded inline in the loop over its array.
    pub(crate) leaf: bool,
}

/// Adjacent fields written and read together.
pub(crate) enum Group<'v, 'a> {
    /// Fixed-width fields, one or more.
    Run(Run<'v, 'a>),
    /// A field of any other type: a string, bytes, an array, a struct, or
    /// a nullable value.
    Single(FieldPlan<'v, 'a>),
}

/// Adjacent fixed-width fields, each present at the versions of the one
/// before it or fewer: written with one capacity check and read with one
/// bounds check. At any version the fields present are a prefix of the
/// run, the prefix its [`Tier`]s name.
pub(crate) struct Run<'v, 'a> {
    /// Its fields, in order.
    pub(crate) fields: Vec<FieldPlan<'v, 'a>>,
    /// Each field's bytes in the run (`start..end`), in the same order.
    pub(crate) bytes: Vec<Range<usize>>,
    /// Adjacent fields present at the same versions, in field order.
    pub(crate) tiers: Vec<Tier>,
}

/// Fields of a run present at the same versions.
pub(crate) struct Tier {
    /// `version` in the tier's versions, within the struct's.
    pub(crate) cond: Cond,
    /// How many fields of the run are present there: those up to and
    /// including the tier's.
    pub(crate) count: usize,
}

/// One field's version tests and arguments.
pub(crate) struct FieldPlan<'v, 'a> {
    /// The field.
    pub(crate) view: &'v FieldView<'a>,
    /// `version` in the versions where the field exists, within the struct's.
    pub(crate) present: Cond,
    /// `version` in the versions where it is positional, within the struct's.
    pub(crate) positional: Cond,
    /// `version` in its nullable versions, within its positional ones.
    pub(crate) nullable: Cond,
    /// The `flexible` argument of its positional reads and writes: whether
    /// strings, bytes and array prefixes are compact. Fixed-width values and
    /// structs ignore it, so they get `false`.
    pub(crate) flexible: TokenStream,
}

/// The tagged-field section: where it is, which tags it knows, and the
/// fields it carries.
pub(crate) struct TaggedSection<'v, 'a> {
    /// `version` in the section's versions (the struct's flexible ones),
    /// within the struct's.
    pub(crate) present: Cond,
    /// Count of tags the struct defines (`0..known`); higher tags are kept
    /// as unknown tagged fields.
    pub(crate) known: u32,
    /// The fields tagged at some version, in schema order.
    pub(crate) fields: Vec<TaggedField<'v, 'a>>,
    /// Their order on the wire, ascending tag: indexes into `fields`.
    wire_order: Vec<usize>,
}

/// A field of the tagged section.
pub(crate) struct TaggedField<'v, 'a> {
    /// The field.
    pub(crate) view: &'v FieldView<'a>,
    /// Its tag.
    pub(crate) tag: u32,
    /// `version` in its tagged versions, within the section's.
    pub(crate) tagged: Cond,
    /// `version` in its nullable versions, within its tagged ones.
    pub(crate) nullable: Cond,
    /// The flag that says it is written: `write_` and its name.
    pub(crate) flag: Ident,
}

impl<'v, 'a> StructPlan<'v, 'a> {
    /// The plan of `view`.
    pub(crate) fn new(view: &'v StructView<'a>) -> Self {
        let within = view.def.versions;
        let section = view.has_tagged_section().then(|| TaggedSection::new(view));
        let leaf = view.fields.iter().all(|f| f.field.ty.struct_name().is_none());
        StructPlan { view, groups: groups(&view.fields, within), section, leaf }
    }

    /// Every field, in schema order.
    pub(crate) fn fields(&self) -> impl Iterator<Item = &FieldPlan<'v, 'a>> {
        self.groups.iter().flat_map(Group::fields)
    }
}

impl<'v, 'a> Group<'v, 'a> {
    /// Its fields, in order.
    pub(crate) fn fields(&self) -> &[FieldPlan<'v, 'a>] {
        match self {
            Group::Run(run) => &run.fields,
            Group::Single(f) => std::slice::from_ref(f),
        }
    }
}

impl<'v, 'a> Run<'v, 'a> {
    /// The byte length of the run.
    pub(crate) fn len(&self) -> usize {
        self.bytes.last().map_or(0, |b| b.end)
    }

    /// Appends a fixed-width field: its bytes follow the run's, and it
    /// joins the last tier when present at the same versions.
    fn push(&mut self, field: FieldPlan<'v, 'a>) {
        let at = self.len();
        self.bytes.push(at..at + field.view.fixed_size().unwrap_or_default());
        let versions = field.view.positional;
        let count = self.fields.len() + 1;
        match (self.tiers.last_mut(), self.fields.last()) {
            (Some(tier), Some(last)) if last.view.positional == versions => tier.count = count,
            _ => self.tiers.push(Tier { cond: field.positional.clone(), count }),
        }
        self.fields.push(field);
    }
}

impl<'v, 'a> FieldPlan<'v, 'a> {
    fn new(view: &'v FieldView<'a>, within: Versions) -> Self {
        // A field view's version sets already lie within the struct's.
        FieldPlan {
            view,
            present: Cond::new(view.present, within),
            positional: Cond::new(view.positional, within),
            nullable: Cond::new(view.field.nullable_versions, view.positional),
            flexible: flexible_expr(view),
        }
    }
}

impl<'v, 'a> TaggedSection<'v, 'a> {
    fn new(view: &'v StructView<'a>) -> Self {
        let section_versions = view.flexible;
        let fields: Vec<_> = view
            .fields
            .iter()
            .filter(|f| !f.tagged.is_empty())
            .map(|f| TaggedField {
                view: f,
                tag: f.field.tag.unwrap_or_default(),
                tagged: Cond::new(f.tagged, section_versions),
                nullable: Cond::new(f.field.nullable_versions, f.tagged),
                flag: format_ident!("write_{}", f.name),
            })
            .collect();
        // On the wire in ascending tag order, whatever the schema's field
        // order (Kafka 4.4's PartitionChangeRecord declares tag 8 before 6).
        let mut wire_order: Vec<usize> = (0..fields.len()).collect();
        wire_order.sort_by_key(|&i| fields.get(i).map(|f| f.view.field.tag));
        let known = view.def.fields.iter().filter_map(|f| f.tag).map(|t| t + 1).max().unwrap_or(0);
        TaggedSection { present: Cond::new(section_versions, view.def.versions), known, fields, wire_order }
    }

    /// The tagged fields in the order they are written: ascending tag.
    pub(crate) fn on_the_wire(&self) -> impl Iterator<Item = &TaggedField<'v, 'a>> {
        self.wire_order.iter().filter_map(|&i| self.fields.get(i))
    }
}

/// The fields in order, adjacent fixed-width fields gathered into one run
/// while each is present at the versions of the one before it or fewer,
/// every other field a group of its own.
fn groups<'v, 'a>(fields: &'v [FieldView<'a>], within: Versions) -> Vec<Group<'v, 'a>> {
    let mut groups: Vec<Group<'v, 'a>> = Vec::new();
    for f in fields {
        let field = FieldPlan::new(f, within);
        if let Some(Group::Run(run)) = groups.last_mut() {
            let joins = run.fields.last().is_some_and(|last| {
                f.is_fixed() && !f.positional.is_empty() && last.view.positional.contains_range(f.positional)
            });
            if joins {
                run.push(field);
                continue;
            }
        }
        groups.push(if f.is_fixed() {
            let mut run = Run { fields: Vec::new(), bytes: Vec::new(), tiers: Vec::new() };
            run.push(field);
            Group::Run(run)
        } else {
            Group::Single(field)
        });
    }
    groups
}

/// The `flexible` argument of a field's positional reads and writes.
fn flexible_expr(f: &FieldView<'_>) -> TokenStream {
    match f.field.ty {
        FieldType::String
        | FieldType::Bytes
        | FieldType::Records
        | FieldType::ApiMessage
        | FieldType::Header
        | FieldType::Array(_) => Cond::new(f.flexible, f.positional).expr(),
        _ => quote!(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Diagnostics;

    const SCHEMA: &str = r#"{
      "type": "data", "name": "P", "validVersions": "0-3", "flexibleVersions": "2+",
      "fields": [
        { "name": "A", "type": "int32", "versions": "0+" },
        { "name": "B", "type": "int64", "versions": "1+" },
        { "name": "C", "type": "int16", "versions": "1+" },
        { "name": "D", "type": "int8", "versions": "0+" },
        { "name": "S", "type": "string", "versions": "0+" },
        { "name": "T1", "type": "int32", "versions": "2+", "taggedVersions": "2+", "tag": 1 },
        { "name": "T0", "type": "string", "versions": "2+", "taggedVersions": "2+", "tag": 0 }
      ]
    }"#;

    fn names(fields: &[FieldPlan<'_, '_>]) -> Vec<String> {
        fields.iter().map(|f| f.view.field.name.clone()).collect()
    }

    fn text(c: &Cond) -> String {
        c.expr().to_string()
    }

    #[test]
    fn runs_tiers_and_the_tagged_section() {
        let mut diags = Diagnostics::default();
        let json = crate::load::parse(SCHEMA).unwrap();
        let spec = crate::lower::lower("P.json", &json, &mut diags).unwrap();
        let checked = crate::check::check(&spec, &mut diags);
        assert!(diags.0.is_empty(), "{diags:?}");
        let view = StructView::new(&checked.structs[0], spec.flexible_versions);
        let plan = StructPlan::new(&view);

        let [Group::Run(abc), Group::Run(d), Group::Single(s), Group::Run(t1), Group::Single(t0)] =
            plan.groups.as_slice()
        else {
            panic!("groups: {}", plan.groups.len());
        };
        // D is present at a version where C is not: it starts a run.
        assert_eq!(names(&abc.fields), ["A", "B", "C"]);
        assert_eq!(abc.bytes, [0..4, 4..12, 12..14]);
        assert_eq!(abc.len(), 14);
        let tiers: Vec<_> = abc.tiers.iter().map(|t| (text(&t.cond), t.count)).collect();
        assert_eq!(tiers, [("true".to_owned(), 1), ("version >= 1".to_owned(), 3)]);
        assert_eq!(names(&d.fields), ["D"]);
        assert_eq!(text(&s.positional), "true");
        assert_eq!(s.flexible.to_string(), "version >= 2");
        // Tagged at every version: a group of its own, never positional.
        assert_eq!(names(&t1.fields), ["T1"]);
        assert!(matches!(t1.fields[0].positional, Cond::Never));
        assert_eq!(text(&t0.present), "version >= 2");
        assert_eq!(plan.fields().count(), 7);
        assert!(plan.leaf);

        let section = plan.section.as_ref().unwrap();
        assert_eq!(text(&section.present), "version >= 2");
        assert_eq!(section.known, 2);
        // Declared tag 1 first, written tag 0 first.
        let wire: Vec<_> = section.on_the_wire().map(|t| (t.tag, t.flag.to_string())).collect();
        assert_eq!(wire, [(0, "write_t0".to_owned()), (1, "write_t1".to_owned())]);
        assert!(matches!(section.fields[0].tagged, Cond::Always));
    }
}
