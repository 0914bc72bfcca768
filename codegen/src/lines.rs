//! Where each key and list element of a schema file starts, by line, so a
//! diagnostic's JSON path can also name a line. JSON has no positions once
//! parsed; this scanner reads the (comment-blanked) text once more and
//! records the line of every path it passes.

use std::collections::HashMap;

/// One step of a path: an object key or a list index.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Part {
    /// An object key.
    Key(String),
    /// A list index.
    Index(usize),
}

enum Frame {
    Object { key: Option<String> },
    Array { next: usize },
}

/// Paths deeper than this are not recorded: schemas nest a few levels, and
/// hostile input nested thousands deep must not cost quadratic time.
pub const MAX_DEPTH: usize = 64;

/// The 1-based line of every key and list element in `text` (JSON with its
/// comments already blanked), by path from the root, up to [`MAX_DEPTH`].
pub fn lines(text: &str) -> HashMap<Vec<Part>, usize> {
    let bytes = text.as_bytes();
    let mut out = HashMap::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut path: Vec<Part> = Vec::new();
    let (mut i, mut line) = (0, 1);
    // Called where a value starts: inside an array that is a new element.
    let value_starts = |stack: &mut Vec<Frame>, path: &mut Vec<Part>, out: &mut HashMap<Vec<Part>, usize>, line| {
        if let Some(Frame::Array { next }) = stack.last_mut() {
            path.push(Part::Index(*next));
            if path.len() <= MAX_DEPTH {
                out.entry(path.clone()).or_insert(line);
            }
            *next += 1;
        }
    };
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => line += 1,
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    } else if bytes[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
                let s = text.get(start..i.min(bytes.len())).unwrap_or_default().to_string();
                let next = bytes.get(i + 1..).unwrap_or_default().iter().find(|b| !b.is_ascii_whitespace());
                let is_key = matches!(stack.last(), Some(Frame::Object { key: None })) && next == Some(&b':');
                if is_key {
                    if let Some(Frame::Object { key }) = stack.last_mut() {
                        *key = Some(s.clone());
                    }
                    path.push(Part::Key(s));
                    if path.len() <= MAX_DEPTH {
                        out.entry(path.clone()).or_insert(line);
                    }
                } else {
                    value_starts(&mut stack, &mut path, &mut out, line);
                    end_value(&mut stack, &mut path);
                }
            }
            b'{' | b'[' => {
                value_starts(&mut stack, &mut path, &mut out, line);
                stack.push(if bytes[i] == b'{' { Frame::Object { key: None } } else { Frame::Array { next: 0 } });
            }
            b'}' | b']' => {
                stack.pop();
                end_value(&mut stack, &mut path);
            }
            b',' | b':' => {}
            b if !b.is_ascii_whitespace() => {
                // A number, true, false or null: one value.
                value_starts(&mut stack, &mut path, &mut out, line);
                while i + 1 < bytes.len() && !matches!(bytes[i + 1], b',' | b'}' | b']' | b'\n' | b' ' | b'\t' | b'\r')
                {
                    i += 1;
                }
                end_value(&mut stack, &mut path);
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// After a value: leave its key or index.
fn end_value(stack: &mut [Frame], path: &mut Vec<Part>) {
    match stack.last_mut() {
        Some(Frame::Object { key }) if key.is_some() => {
            *key = None;
            path.pop();
        }
        Some(Frame::Array { .. }) => {
            path.pop();
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_paths_get_their_lines() {
        let text = "{\n  \"name\": \"X\",\n  \"fields\": [\n    { \"name\": \"A\",\n      \"tag\": 0 },\n    { \"name\": \"B\", \"fields\": [\n      {\"name\": \"C\"}\n    ]}\n  ]\n}";
        let m = lines(text);
        let k = |s: &str| Part::Key(s.into());
        assert_eq!(m[&vec![k("name")]], 2);
        assert_eq!(m[&vec![k("fields"), Part::Index(0), k("tag")]], 5);
        assert_eq!(m[&vec![k("fields"), Part::Index(1)]], 6);
        assert_eq!(m[&vec![k("fields"), Part::Index(1), k("fields"), Part::Index(0), k("name")]], 7);
    }

    #[test]
    fn garbage_never_panics() {
        for text in ["", "{", "}", "]]]", "\"", "{\"a\"", "[1,2", "{\"a\":\"b", "\\"] {
            let _ = lines(text);
        }
    }

    #[test]
    fn list_elements_get_their_lines() {
        let text = "{\n \"fields\": [\n  {\"name\": \"A\"},\n  {\"name\": \"B\"}\n ]\n}";
        assert_eq!(lines(text)[&vec![Part::Key("fields".into()), Part::Index(1)]], 4);
    }
}
