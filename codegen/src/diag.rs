//! Diagnostics: every schema error with the file, the JSON path and the
//! fact, e.g. `RequestHeader.json: fields[5] (InitialClientId): tag 0 is
//! already used by InitialPrincipalName`.

use std::fmt;

/// A location inside a schema file, e.g. `fields[2] (Topics).fields[0] (Name).versions`
/// (its `Display`; `(root)` for the root object). Paths order as their
/// places in the file do.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct JsonPath(Vec<Step>);

/// One step of a path: a key, optionally an index into the list under it
/// (ordered by number, so paths sort in document order) and the name of
/// that element.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Step {
    key: String,
    index: Option<usize>,
    name: Option<String>,
}

impl JsonPath {
    /// The path as key and index parts, as [`crate::lines`] records them.
    pub(crate) fn parts(&self) -> Vec<crate::lines::Part> {
        let mut parts = Vec::new();
        for step in &self.0 {
            parts.push(crate::lines::Part::Key(step.key.clone()));
            if let Some(i) = step.index {
                parts.push(crate::lines::Part::Index(i));
            }
        }
        parts
    }

    /// The root object.
    pub(crate) fn root() -> Self {
        Self(Vec::new())
    }

    /// A key of the object at this path.
    #[must_use]
    pub(crate) fn key(&self, key: &str) -> Self {
        let mut p = self.clone();
        p.0.push(Step { key: key.to_string(), index: None, name: None });
        p
    }

    /// Element `i` of the list under `key`, named by `name` where known.
    #[must_use]
    pub(crate) fn index(&self, key: &str, i: usize, name: Option<&str>) -> Self {
        let mut p = self.clone();
        p.0.push(Step { key: key.to_string(), index: Some(i), name: name.map(str::to_string) });
        p
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("(root)");
        }
        for (i, step) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            f.write_str(&step.key)?;
            if let Some(index) = step.index {
                write!(f, "[{index}]")?;
            }
            if let Some(name) = &step.name {
                write!(f, " ({name})")?;
            }
        }
        Ok(())
    }
}

/// One schema error.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    /// The schema file's name, e.g. `RequestHeader.json`.
    pub file: String,
    /// Where in the file.
    pub path: JsonPath,
    /// What is wrong.
    pub message: String,
    /// The 1-based line where the path starts, when it could be found.
    pub line: Option<usize>,
}

impl Diagnostic {
    /// The diagnostic as `file:line: path: message`, the form editors jump to
    /// (without `:line` when the line is unknown).
    pub fn located(&self) -> String {
        match self.line {
            Some(line) => format!("{}:{line}: {}: {}", self.file, self.path, self.message),
            None => self.to_string(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.file, self.path, self.message)
    }
}

/// Every diagnostic of a run, sorted by file and path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Records an error at `path` in `file`.
    pub(crate) fn error(&mut self, file: &str, path: &JsonPath, message: impl Into<String>) {
        self.0.push(Diagnostic { file: file.to_string(), path: path.clone(), message: message.into(), line: None });
    }

    /// True when nothing was recorded.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `Ok(())` when empty, else the sorted diagnostics as an error.
    ///
    /// # Errors
    /// [`crate::Error::Schema`] holding every diagnostic.
    pub(crate) fn into_result(mut self) -> Result<(), crate::Error> {
        if self.0.is_empty() {
            return Ok(());
        }
        self.0.sort();
        self.0.dedup();
        Err(crate::Error::Schema(self))
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_print_keys_indexes_and_names() {
        let p = JsonPath::root().index("fields", 2, Some("Topics")).key("versions");
        assert_eq!(p.to_string(), "fields[2] (Topics).versions");
        assert_eq!(JsonPath::root().to_string(), "(root)");
    }
}
