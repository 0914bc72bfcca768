//! Schema text to JSON: Kafka's schema files are JSON with `//` and `/* */`
//! comments. Comments are blanked to spaces (newlines kept) so that
//! `serde_json` reports the original line and column of any syntax error.

use serde_json::Value;

/// Why a schema file could not be read as JSON ([`parse_schema`](crate::parse_schema)).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// A `/*` comment that is never closed.
    #[error("line {line}, column {column}: unterminated /* comment")]
    UnterminatedComment {
        /// 1-based line of the opening `/*`.
        line: usize,
        /// 1-based column of the opening `/*`.
        column: usize,
    },
    /// Malformed JSON, or content after the root value.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line reported by the JSON parser.
        line: usize,
        /// 1-based column reported by the JSON parser.
        column: usize,
        /// The parser's description.
        message: String,
    },
}

/// Replaces every `//` and `/* */` comment outside string literals by
/// spaces, keeping newlines, so byte offsets, lines and columns are unchanged.
///
/// # Errors
/// [`LoadError::UnterminatedComment`] when a block comment never ends.
pub fn blank_comments(text: &str) -> Result<String, LoadError> {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let (mut i, mut in_string) = (0, false);
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match (b, bytes.get(i + 1)) {
            (b'"', _) => in_string = true,
            (b'/', Some(b'/')) => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
                continue;
            }
            (b'/', Some(b'*')) => {
                let start = i;
                let end = text[i + 2..].find("*/").map(|e| i + 2 + e + 2);
                let Some(end) = end else {
                    let (line, column) = line_col(text, start);
                    return Err(LoadError::UnterminatedComment { line, column });
                };
                for slot in &mut out[start..end] {
                    if *slot != b'\n' {
                        *slot = b' ';
                    }
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    // Only ASCII bytes outside strings were replaced by ASCII spaces, and a
    // comment's multi-byte characters were replaced whole, so the result is
    // still UTF-8; fall back to a lossy copy rather than panic.
    Ok(String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// Parses schema text (JSON with comments) into a JSON value. Trailing
/// content after the root value is refused; duplicate keys keep the last
/// value, as Kafka's own parser does.
///
/// # Errors
/// [`LoadError`] with the line and column of the first problem.
pub fn parse(text: &str) -> Result<Value, LoadError> {
    // A UTF-8 byte-order mark is not part of the JSON (Jackson skips it too).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let clean = blank_comments(text)?;
    serde_json::from_str::<Value>(&clean).map_err(|e| LoadError::Syntax {
        line: e.line(),
        // serde_json says column 0 for an error before the first character
        // of a line (an empty file); columns are 1-based everywhere else.
        column: e.column().max(1),
        message: strip_position(&e.to_string()),
    })
}

/// As [`parse`], but reads only the first JSON value and ignores what follows
/// it, as Jackson does by default (and so Kafka's generator): used to read
/// the schemas of old Kafka releases, one of which shipped with a stray
/// closing bracket after its root object.
///
/// # Errors
/// [`LoadError`] with the line and column of the first problem within the
/// first value.
pub fn parse_first(text: &str) -> Result<Value, LoadError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let clean = blank_comments(text)?;
    let mut values = serde_json::Deserializer::from_str(&clean).into_iter::<Value>();
    match values.next() {
        Some(Ok(value)) => Ok(value),
        Some(Err(e)) => Err(LoadError::Syntax {
            line: e.line(),
            column: e.column().max(1),
            message: strip_position(&e.to_string()),
        }),
        None => parse(text),
    }
}

fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message.to_string(),
    }
}

pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = offset - before.rfind('\n').map_or(0, |n| n + 1) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_order_mark_is_skipped() {
        assert_eq!(parse("\u{feff}// licence\n{\"name\": \"X\"}").unwrap()["name"], "X");
        assert!(parse("{\"name\": \"X\"}\u{feff}").is_err(), "only at the start");
    }

    #[test]
    fn comments_inside_strings_are_kept() {
        let v = parse(r#"{"about": "a // b /* c */"}"#).unwrap();
        assert_eq!(v["about"], "a // b /* c */");
    }

    #[test]
    fn escaped_quote_does_not_end_string() {
        let v = parse(r#"{"about": "say \"// hi\""} // tail"#).unwrap();
        assert_eq!(v["about"], "say \"// hi\"");
    }

    #[test]
    fn syntax_error_keeps_original_line() {
        let err = parse("// one\n/* two\n three */\n{ \"a\": , }").unwrap_err();
        assert!(matches!(err, LoadError::Syntax { line: 4, .. }), "{err}");
    }

    #[test]
    fn trailing_tokens_refused() {
        let err = parse("{}\n{}").unwrap_err();
        assert_eq!(err.to_string(), "line 2, column 1: trailing characters");
        assert!(parse("").unwrap_err().to_string().starts_with("line 1, column 1: EOF while parsing"));
    }

    #[test]
    fn unterminated_block_comment() {
        assert_eq!(parse("{}\n  /* open").unwrap_err(), LoadError::UnterminatedComment { line: 2, column: 3 });
    }

    #[test]
    fn duplicate_keys_keep_last() {
        assert_eq!(parse(r#"{"a": 1, "a": 2}"#).unwrap()["a"], 2);
    }

    #[test]
    fn comments_become_spaces() {
        let text = "{ // note\n \"a\": /* x */ 1 }";
        assert_eq!(blank_comments(text).unwrap(), "{        \n \"a\":         1 }");
        assert_eq!(parse("// licence\n{\"name\": \"X\"}").unwrap()["name"], "X");
        assert!(parse("{} {}").is_err());
    }

    #[test]
    fn parse_first_ignores_what_follows_the_root() {
        assert_eq!(parse_first("{\"name\": \"X\"}\n]}").unwrap()["name"], "X");
    }
}
