//! Rust names for Kafka names, through heck: fields in snake_case, structs
//! in UpperCamelCase, constants in SHOUTY_SNAKE_CASE, keywords escaped.
//!
//! Kafka's names are case-sensitive where Rust's cased forms are not:
//! Kafka's generator accepts fields `myURL` and `myUrl` in one struct, and
//! structs `TopicID` and `TopicId` in one message, which heck turns into one
//! Rust name each. Such names are told apart by a numeric suffix, given in
//! schema order: the first keeps its plain name, each later one takes the
//! smallest suffix from 2 up that is still free. Fields take `_2`, `_3`, …
//! (`my_url`, `my_url_2`), and `unknown_tagged_fields`, the field generated
//! code keeps unknown tags in, counts as taken. Structs take `2`, `3`, …
//! (`TopicId`, `TopicId2`), in the order the compiler emits them: the
//! message body, the common structs, then the inline structs in file order.
//! A struct's name also stays clear of the names of the borrowed views
//! (`TopicRef` for `Topic`), with views asked for or not, so that a schema
//! gets the same names either way: a struct `TopicRef` after a struct
//! `Topic` becomes `TopicRef2`.

use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};
use proc_macro2::{Ident, Spacing, Span, TokenStream, TokenTree};

/// Rust keywords that a raw identifier (`r#type`) can stand for.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn", "else", "enum",
    "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro", "match", "mod", "move",
    "mut", "override", "priv", "pub", "ref", "return", "static", "struct", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Names a raw identifier cannot stand for.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// Type names that generated code uses unqualified; a struct of that name
/// gets a suffix. `Self` is among them: as an identifier it would become
/// `Self_`, whose view `Self_Ref` is not in UpperCamelCase.
const PRELUDE_TYPES: &[&str] =
    &["Vec", "String", "Option", "Result", "Box", "Default", "Some", "None", "Ok", "Err", "Self"];

/// The snake_case text of a field name, e.g. `ThrottleTimeMs` → `throttle_time_ms`.
pub fn field_name(kafka: &str) -> String {
    kafka.to_snake_case()
}

/// The UpperCamelCase name of a struct, e.g. `CreatableTopic`.
pub fn type_name(kafka: &str) -> String {
    let name = kafka.to_upper_camel_case();
    if PRELUDE_TYPES.contains(&name.as_str()) {
        format!("{name}Struct")
    } else {
        name
    }
}

/// The SHOUTY_SNAKE_CASE name of a constant, e.g. `ZK_MIGRATION_STATE_RECORD`
/// for `ZkMigrationStateRecord`, as Kafka names its generated enum constants.
pub fn constant_name(kafka: &str) -> String {
    kafka.to_shouty_snake_case()
}

/// The identifier of a struct.
pub fn type_ident(kafka: &str) -> Ident {
    ident(&type_name(kafka))
}

/// The Rust field names of a struct's fields, from their Kafka names in
/// schema order, made distinct by suffixes `_2`, `_3`, … (see the module
/// documentation).
pub fn distinct_field_names<'k>(kafka: impl IntoIterator<Item = &'k str>) -> Vec<String> {
    let taken = vec![UNKNOWN_TAGGED_FIELDS.to_string()];
    distinct(kafka.into_iter().map(field_name), "_", taken, |taken, c| taken.iter().any(|t| t == c))
}

/// The Rust field that holds the tagged fields a schema does not define.
pub const UNKNOWN_TAGGED_FIELDS: &str = "unknown_tagged_fields";

/// The Rust type names of a message's structs, from their Kafka names in
/// emission order, made distinct from each other and from each other's
/// borrowed views (`XRef`) by suffixes `2`, `3`, … (see the module
/// documentation).
pub fn distinct_type_names<'k>(kafka: impl IntoIterator<Item = &'k str>) -> Vec<String> {
    distinct(kafka.into_iter().map(type_name), "", Vec::new(), |taken, c| {
        taken.iter().any(|t| t == c || format!("{t}Ref") == c || format!("{c}Ref") == *t)
    })
}

/// Each plain name in order, or the first of `{plain}{sep}2`,
/// `{plain}{sep}3`, … that does not clash with the names before it (and
/// `taken`).
fn distinct(
    plains: impl Iterator<Item = String>,
    sep: &str,
    mut taken: Vec<String>,
    clashes: impl Fn(&[String], &str) -> bool,
) -> Vec<String> {
    plains
        .map(|plain| {
            let name = (1..)
                .map(|n| if n == 1 { plain.clone() } else { format!("{plain}{sep}{n}") })
                .find(|c| !clashes(&taken, c))
                .unwrap_or(plain);
            taken.push(name.clone());
            name
        })
        .collect()
}

/// The module (and file stem) of a schema's message, e.g. `create_topics_request`.
pub fn module_name(message: &str) -> String {
    let name = message.to_snake_case();
    if KEYWORDS.contains(&name.as_str()) || NOT_RAW.contains(&name.as_str()) {
        format!("{name}_")
    } else {
        name
    }
}

/// An identifier, raw where it is a keyword, suffixed with `_` where raw is impossible.
pub fn ident(name: &str) -> Ident {
    if NOT_RAW.contains(&name) {
        Ident::new(&format!("{name}_"), Span::call_site())
    } else if KEYWORDS.contains(&name) {
        Ident::new_raw(name, Span::call_site())
    } else {
        Ident::new(name, Span::call_site())
    }
}

/// The tokens of a path such as `crate`, `::kwire` or `my::runtime`:
/// an optional leading `::`, then identifiers joined by `::`.
///
/// # Errors
/// What is wrong with the text, when it is not such a path.
pub fn runtime_path(text: &str) -> Result<TokenStream, String> {
    let tokens: TokenStream = text.parse().map_err(|e| format!("{e}"))?;
    let mut trees = tokens.clone().into_iter().peekable();
    // `::` is two `:` puncts, the first joint.
    let is_colon = |t: Option<&TokenTree>| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == ':');
    let is_sep =
        |t: Option<&TokenTree>| is_colon(t) && matches!(t, Some(TokenTree::Punct(p)) if p.spacing() == Spacing::Joint);
    if is_sep(trees.peek()) {
        trees.next();
        if !is_colon(trees.next().as_ref()) {
            return Err("expected `::`".into());
        }
    }
    loop {
        match trees.next() {
            Some(TokenTree::Ident(i)) if KEYWORDS.contains(&i.to_string().as_str()) || i == "_" => {
                return Err(format!("`{i}` is a keyword"));
            }
            Some(TokenTree::Ident(_)) => {}
            Some(other) => return Err(format!("expected an identifier, found `{other}`")),
            None => return Err("expected an identifier".into()),
        }
        match trees.next() {
            None => return Ok(tokens),
            ref sep if is_sep(sep.as_ref()) => {
                if !is_colon(trees.next().as_ref()) {
                    return Err("expected `::`".into());
                }
            }
            Some(other) => return Err(format!("expected `::`, found `{other}`")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        let field_ident = |kafka: &str| ident(&field_name(kafka)).to_string();
        assert_eq!(field_ident("Type"), "r#type");
        assert_eq!(field_ident("Match"), "r#match");
        assert_eq!(field_ident("Self"), "self_");
        assert_eq!(field_ident("IsrIds"), "isr_ids");
        assert_eq!(type_ident("Vec").to_string(), "VecStruct");
        assert_eq!(module_name("AlterConfigsRequest"), "alter_configs_request");
        assert_eq!(field_name("ThrottleTimeMs"), "throttle_time_ms");
        assert_eq!(type_name("Result"), "ResultStruct");
        assert_eq!(type_name("Self"), "SelfStruct");
    }

    #[test]
    fn distinct_names() {
        assert_eq!(
            distinct_field_names(["myURL", "myUrl", "MyUrl2", "MyUrl"]),
            ["my_url", "my_url_2", "my_url2", "my_url_3"]
        );
        assert_eq!(distinct_field_names(["UnknownTaggedFields", "Type"]), ["unknown_tagged_fields_2", "type"]);
        assert_eq!(
            distinct_type_names(["M", "TopicID", "TopicId", "TopicId2"]),
            ["M", "TopicId", "TopicId2", "TopicId22"]
        );
        assert_eq!(distinct_type_names(["Topic", "TopicRef"]), ["Topic", "TopicRef2"]);
        assert_eq!(distinct_type_names(["TopicRef", "Topic"]), ["TopicRef", "Topic2"]);
        assert_eq!(distinct_type_names(["Vec", "VecStruct"]), ["VecStruct", "VecStruct2"]);
    }

    #[test]
    fn runtime_paths() {
        for ok in ["crate", "::kwire", "a::b", ":: a :: r#b", "self::x", "super::super::y"] {
            assert!(runtime_path(ok).is_ok(), "{ok}");
        }
        assert_eq!(runtime_path(":: kwire").unwrap().to_string(), ":: kwire");
        for bad in ["", "::", "not a path", "1crate", "crate::", "a:::b", "::::a", "a:b", "fn", "a::<T>", "a.b", "(a)"]
        {
            assert!(runtime_path(bad).is_err(), "{bad}");
        }
    }
}
