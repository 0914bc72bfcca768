//! One field as the emitters see it: its Rust name and type, its default,
//! and the version sets that decide where it goes on the wire.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use crate::model::{DefaultValue, Field, FieldType};
use crate::naming;
use crate::versions::Versions;

/// Which Rust types a struct is emitted with: the owned message's, or
/// those of its borrowed view (`XRef<'a>`: strings, bytes and arrays of
/// fixed-width values borrow the input).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Form {
    /// `String`, `Bytes`, `Vec<T>`, `X`.
    Owned,
    /// `&'a str`, `&'a [u8]`, `FixedArray<'a, T>` or `Vec<T>`, `XRef<'a>`.
    Borrowed,
}

impl Form {
    /// The Rust name of the struct whose owned type is named `rust`: `X`,
    /// or `XRef` for its view.
    pub fn type_ident(self, rust: &str) -> Ident {
        let ident = naming::ident(rust);
        match self {
            Form::Owned => ident,
            Form::Borrowed => format_ident!("{ident}Ref"),
        }
    }

    /// The type of the struct whose owned type is named `rust`: `X`, or `XRef<'a>`.
    pub fn type_path(self, rust: &str) -> TokenStream {
        let ident = self.type_ident(rust);
        match self {
            Form::Owned => quote!(#ident),
            Form::Borrowed => quote!(#ident<'a>),
        }
    }
}

/// A field inside one struct, with its derived version sets (spec §2.3).
pub struct FieldView<'a> {
    /// The schema field.
    pub field: &'a Field,
    /// Its Rust identifier.
    pub ident: Ident,
    /// The Rust type name of the struct it holds, for a field of struct type.
    pub held: Option<String>,
    /// Its Rust name as text, for error paths.
    pub name: String,
    /// Versions of the struct in which the field exists.
    pub present: Versions,
    /// Versions in which it travels in the tagged-field section.
    pub tagged: Versions,
    /// Versions in which it is a positional field.
    pub positional: Versions,
    /// Versions in which its string, bytes or array value is compact.
    pub flexible: Versions,
    /// Whether its Rust type is an `Option`.
    pub option: bool,
    /// Whether it carries a secret: `Debug` and the JSON form show its
    /// length only ([`crate::Options::sensitive_fields`]).
    pub sensitive: bool,
}

impl<'a> FieldView<'a> {
    /// The view of `field`, named `name` in Rust and holding the struct
    /// named `held` in Rust if any, inside a struct that exists in `within`,
    /// in a message whose flexible versions are `message_flexible`.
    pub fn new(field: &'a Field, name: &str, held: Option<&str>, within: Versions, message_flexible: Versions) -> Self {
        let present = field.versions.intersect(within);
        let tagged = field.tagged_versions.intersect(present);
        let positional = present.subtract(tagged).unwrap_or(present);
        let option = !field.nullable_versions.intersect(present).is_empty()
            || (field.default == DefaultValue::Null && field.ty != FieldType::Records);
        FieldView {
            field,
            ident: naming::ident(name),
            held: held.map(str::to_owned),
            name: name.to_owned(),
            present,
            tagged,
            positional,
            flexible: field.flexible_versions.unwrap_or(message_flexible),
            option,
            sensitive: false,
        }
    }

    /// The Rust type of the field.
    pub fn rust_type(&self, rt: &TokenStream, form: Form) -> TokenStream {
        let base = self.base_type(&self.field.ty, rt, form);
        if self.option {
            quote!(Option<#base>)
        } else {
            base
        }
    }

    /// True for fixed-width types (`bool`, the integers, `float64`,
    /// `uuid`): one size at every version, and an encode that cannot fail.
    pub fn is_fixed(&self) -> bool {
        !self.option && is_fixed(&self.field.ty)
    }

    /// True for a non-nullable array of fixed-width values (`[]int32`
    /// replica lists and the like), which has a faster path than other arrays.
    pub fn is_fixed_array(&self) -> bool {
        !self.option && matches!(&self.field.ty, FieldType::Array(elem) if is_fixed(elem))
    }

    /// The encoded size of a fixed-width field, in bytes.
    pub fn fixed_size(&self) -> Option<usize> {
        if self.option {
            return None;
        }
        fixed_width(&self.field.ty)
    }

    /// The encoded size of one element of a non-nullable array of
    /// fixed-width values, in bytes.
    pub fn fixed_element_size(&self) -> Option<usize> {
        match &self.field.ty {
            FieldType::Array(elem) if !self.option => fixed_width(elem),
            _ => None,
        }
    }

    /// True when the field's view type borrows the input.
    pub fn borrows(&self) -> bool {
        !is_fixed(&self.field.ty)
    }

    /// The owned value of the view's field `self.x` (what `IntoOwned::into_owned` makes of it).
    pub fn owned_value(&self) -> TokenStream {
        let ident = &self.ident;
        if self.is_fixed() {
            return quote!(self.#ident);
        }
        let owned = quote!(kwire::primitives::IntoOwned::into_owned(self.#ident));
        match (&self.field.ty, self.option) {
            (FieldType::ApiMessage | FieldType::Header, false) => quote!(From::from(#owned)),
            (FieldType::ApiMessage | FieldType::Header, true) => quote!(#owned.map(From::from)),
            _ => owned,
        }
    }

    /// True when the field's default equals the Rust type's own `Default`.
    pub fn default_is_natural(&self) -> bool {
        match &self.field.default {
            DefaultValue::Natural => !self.option || self.field.ty == FieldType::Records,
            DefaultValue::Null => self.option,
            DefaultValue::Bool(b) => !*b && !self.option,
            DefaultValue::Int(i) => *i == 0 && !self.option,
            DefaultValue::Float(f) => *f == 0.0 && f.is_sign_positive() && !self.option,
            DefaultValue::Str(s) => s.is_empty() && !self.option,
            DefaultValue::Uuid(u) => *u == 0 && !self.option,
        }
    }

    /// An expression of the field's default value.
    pub fn default_expr(&self, rt: &TokenStream, form: Form) -> TokenStream {
        if self.option && matches!(self.field.default, DefaultValue::Null) {
            return quote!(None);
        }
        let value = self.value_default(rt, form);
        if self.option {
            quote!(Some(#value))
        } else {
            value
        }
    }

    /// A statement that sets the field of `self` to its default in place:
    /// arrays with an empty default cleared (keeping their capacity),
    /// structs reset field by field, other fields (strings too) assigned.
    pub fn reset(&self, rt: &TokenStream, form: Form) -> TokenStream {
        let ident = &self.ident;
        if !self.option && self.default_is_natural() {
            match (&self.field.ty, form) {
                (FieldType::Array(_), _) if !(form == Form::Borrowed && self.is_fixed_array()) => {
                    return quote!(self.#ident.clear();)
                }
                (FieldType::Struct(_), _) => return quote!(enc::Decode::reset_value(&mut self.#ident);),
                _ => {}
            }
        }
        let default = self.default_expr(rt, form);
        quote!(self.#ident = #default;)
    }

    /// The default as a value of the type without `Option`.
    fn value_default(&self, rt: &TokenStream, form: Form) -> TokenStream {
        match &self.field.default {
            DefaultValue::Natural | DefaultValue::Null => natural(&self.field.ty, self.held(), rt, form),
            DefaultValue::Bool(b) => quote!(#b),
            DefaultValue::Int(i) => int_literal(*i),
            DefaultValue::Float(f) => float_literal(*f),
            DefaultValue::Str(s) if form == Form::Borrowed => quote!(#s),
            DefaultValue::Str(s) if s.is_empty() => quote!(ByteString::new()),
            DefaultValue::Str(s) => quote!(ByteString::from_static(#s)),
            DefaultValue::Uuid(u) => {
                let lit = Literal::u128_unsuffixed(*u);
                quote!(kwire::primitives::Uuid::from_u128(#lit))
            }
        }
    }

    /// A boolean expression: the value at `access` differs from the default
    /// (spec §5.2). `access` is a place (`self.x`) of the field's type.
    pub fn non_default(&self, access: TokenStream, rt: &TokenStream) -> TokenStream {
        if !self.option {
            return self.differs(access, false, rt);
        }
        if matches!(self.field.default, DefaultValue::Null) {
            return quote!(#access.is_some());
        }
        let inner = self.differs(quote!(v), true, rt);
        quote!(#access.as_ref().is_none_or(|v| #inner))
    }

    /// `value != default` for a non-null value; `by_ref` when `value` is a reference.
    fn differs(&self, value: TokenStream, by_ref: bool, rt: &TokenStream) -> TokenStream {
        let ty = &self.field.ty;
        let deref = if by_ref { quote!(*) } else { quote!() };
        match (&self.field.default, ty) {
            (
                _,
                FieldType::Bytes | FieldType::Records | FieldType::ApiMessage | FieldType::Header | FieldType::Array(_),
            ) => {
                quote!(!#value.is_empty())
            }
            (DefaultValue::Natural | DefaultValue::Null, FieldType::String) => {
                quote!(!#value.is_empty())
            }
            (DefaultValue::Str(s), FieldType::String) => quote!(#value != #s),
            (DefaultValue::Natural | DefaultValue::Null, FieldType::Uuid) => {
                quote!(!#value.is_nil())
            }
            (DefaultValue::Natural | DefaultValue::Bool(false), FieldType::Bool) => quote!(#deref #value),
            (DefaultValue::Bool(true), FieldType::Bool) => quote!(!#deref #value),
            (_, FieldType::Struct(_)) => {
                let t = self.base_type(ty, rt, Form::Owned);
                if by_ref {
                    quote!(*#value != #t::default())
                } else {
                    quote!(#value != #t::default())
                }
            }
            _ => {
                let d = self.value_default(rt, Form::Owned);
                quote!(#deref #value != #d)
            }
        }
    }

    /// The Rust type name of the struct the field holds (for a field of
    /// struct type; its Kafka name through heck otherwise, never used).
    fn held(&self) -> &str {
        self.held.as_deref().unwrap_or_default()
    }

    /// The Rust type of a schema type of this field, in `form`.
    fn base_type(&self, ty: &FieldType, rt: &TokenStream, form: Form) -> TokenStream {
        base_type(ty, self.held(), rt, form)
    }

    /// Doc lines: the `about` text, then where the field is on the wire.
    pub fn doc(&self) -> Vec<String> {
        let f = self.field;
        let mut docs = about_lines(&f.about);
        let mut facts = vec![format!("Versions {}", f.versions)];
        if !f.nullable_versions.is_empty() {
            facts.push(format!("nullable {}", f.nullable_versions));
        }
        if let Some(tag) = f.tag {
            facts.push(format!("tag {tag} from {}", f.tagged_versions));
        }
        if f.ignorable {
            facts.push("ignorable".into());
        }
        match &f.default {
            DefaultValue::Natural => {}
            DefaultValue::Null => facts.push("default null".into()),
            DefaultValue::Bool(b) => facts.push(format!("default {b}")),
            DefaultValue::Int(i) => facts.push(format!("default {i}")),
            DefaultValue::Float(x) => facts.push(format!("default {x}")),
            DefaultValue::Str(s) => facts.push(format!("default {s:?}")),
            DefaultValue::Uuid(u) => facts.push(format!("default {u:032x}")),
        }
        if !docs.is_empty() {
            docs.push(String::new());
        }
        docs.push(format!(" {}.", facts.join("; ")));
        if self.sensitive {
            docs.push(String::new());
            docs.push(
                " Sensitive: `Debug` shows `<redacted N bytes>` (`None` when null), and so does the JSON form unless `JsonOptions::unredacted`."
                    .into(),
            );
        }
        docs
    }
}

/// The Rust type of a schema type, in `form`; `held` is the Rust type name
/// of the struct it names, if it names one.
fn base_type(ty: &FieldType, held: &str, rt: &TokenStream, form: Form) -> TokenStream {
    if form == Form::Borrowed {
        match ty {
            FieldType::String => return quote!(&'a str),
            FieldType::Bytes | FieldType::Records | FieldType::ApiMessage | FieldType::Header => {
                return quote!(&'a [u8])
            }
            FieldType::Array(inner) if is_fixed(inner) => {
                let inner = base_type(inner, held, rt, Form::Owned);
                return quote!(kwire::primitives::FixedArray<'a, #inner>);
            }
            FieldType::Struct(_) => return form.type_path(held),
            _ => {}
        }
    }
    match ty {
        FieldType::Bool => quote!(bool),
        FieldType::Int8 => quote!(i8),
        FieldType::Int16 => quote!(i16),
        FieldType::Uint16 => quote!(u16),
        FieldType::Int32 => quote!(i32),
        FieldType::Uint32 => quote!(u32),
        FieldType::Int64 => quote!(i64),
        FieldType::Float64 => quote!(f64),
        FieldType::String => quote!(ByteString),
        FieldType::Bytes | FieldType::Records => quote!(#rt::Bytes),
        FieldType::Uuid => quote!(kwire::primitives::Uuid),
        FieldType::ApiMessage => quote!(#rt::embedded::EmbeddedMessage),
        FieldType::Header => quote!(#rt::embedded::EmbeddedHeader),
        FieldType::Array(inner) => {
            let inner = base_type(inner, held, rt, form);
            quote!(Vec<#inner>)
        }
        FieldType::Struct(_) => {
            let ident = naming::ident(held);
            quote!(#ident)
        }
    }
}

/// The natural default of a schema type (`held` as for [`base_type`]).
fn natural(ty: &FieldType, held: &str, rt: &TokenStream, form: Form) -> TokenStream {
    match ty {
        FieldType::Bool => quote!(false),
        FieldType::Float64 => quote!(0.0),
        t if t.is_number_or_bool() => quote!(0),
        FieldType::Uuid => quote!(kwire::primitives::Uuid::NIL),
        FieldType::String if form == Form::Borrowed => quote!(""),
        _ if form == Form::Borrowed => quote!(Default::default()),
        FieldType::String => quote!(ByteString::new()),
        FieldType::Bytes | FieldType::Records => quote!(#rt::Bytes::new()),
        FieldType::Array(_) => quote!(Vec::new()),
        other => {
            let t = base_type(other, held, rt, form);
            quote!(#t::default())
        }
    }
}

fn int_literal(i: i64) -> TokenStream {
    if i == i64::MIN {
        return quote!(i64::MIN);
    }
    let lit = Literal::i64_unsuffixed(i.abs());
    if i < 0 {
        quote!(-#lit)
    } else {
        quote!(#lit)
    }
}

fn float_literal(f: f64) -> TokenStream {
    if f.is_nan() {
        quote!(f64::NAN)
    } else if f.is_infinite() && f > 0.0 {
        quote!(f64::INFINITY)
    } else if f.is_infinite() {
        quote!(f64::NEG_INFINITY)
    } else {
        let lit = Literal::f64_unsuffixed(f.abs());
        if f.is_sign_negative() {
            quote!(-#lit)
        } else {
            quote!(#lit)
        }
    }
}

/// Doc lines from an `about` text: whitespace folded, and the characters
/// rustdoc would read as markup escaped.
pub fn about_lines(about: &str) -> Vec<String> {
    let text = about.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        return Vec::new();
    }
    let escaped = text.replace('[', "\\[").replace(']', "\\]").replace('<', "&lt;").replace('>', "&gt;");
    vec![format!(" {escaped}")]
}

/// Fixed-width schema types: one size at every version.
fn is_fixed(ty: &FieldType) -> bool {
    fixed_width(ty).is_some()
}

/// The encoded size of a fixed-width schema type, in bytes.
fn fixed_width(ty: &FieldType) -> Option<usize> {
    match ty {
        FieldType::Bool | FieldType::Int8 => Some(1),
        FieldType::Int16 | FieldType::Uint16 => Some(2),
        FieldType::Int32 | FieldType::Uint32 => Some(4),
        FieldType::Int64 | FieldType::Float64 => Some(8),
        FieldType::Uuid => Some(16),
        _ => None,
    }
}
