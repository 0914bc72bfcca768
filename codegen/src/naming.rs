//! Rust names for Kafka names, through heck: fields in snake_case, structs
//! in UpperCamelCase, keywords escaped.

use heck::{ToSnakeCase, ToUpperCamelCase};
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

/// Type names that generated code uses unqualified; a struct of that name gets a suffix.
const PRELUDE_TYPES: &[&str] = &["Vec", "String", "Option", "Result", "Box", "Default", "Some", "None", "Ok", "Err"];

/// The snake_case text of a field name, e.g. `ThrottleTimeMs` → `throttle_time_ms`.
pub fn field_name(kafka: &str) -> String {
    kafka.to_snake_case()
}

/// The identifier of a field, escaped where it is a keyword.
pub fn field_ident(kafka: &str) -> Ident {
    ident(&field_name(kafka))
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

/// The identifier of a struct.
pub fn type_ident(kafka: &str) -> Ident {
    ident(&type_name(kafka))
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
        assert_eq!(field_ident("Type").to_string(), "r#type");
        assert_eq!(field_ident("Match").to_string(), "r#match");
        assert_eq!(field_ident("Self").to_string(), "self_");
        assert_eq!(field_ident("IsrIds").to_string(), "isr_ids");
        assert_eq!(type_ident("Vec").to_string(), "VecStruct");
        assert_eq!(module_name("AlterConfigsRequest"), "alter_configs_request");
        assert_eq!(field_name("ThrottleTimeMs"), "throttle_time_ms");
        assert_eq!(type_name("Result"), "ResultStruct");
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
