//! What a run returns: the generated files and a summary per message.

/// One generated Rust file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    /// File name, e.g. `create_topics_request.rs`, or `mod.rs` for the index.
    pub name: String,
    /// Formatted Rust source, starting with the `@generated` line.
    pub text: String,
}

/// What was generated for one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageSummary {
    /// The schema file.
    pub file: String,
    /// The message name.
    pub name: String,
    /// Its api key, for requests and responses.
    pub api_key: Option<i16>,
    /// Valid versions, e.g. `0-7`.
    pub versions: String,
    /// Flexible versions, e.g. `5+`.
    pub flexible_versions: String,
    /// Structs emitted (the body included).
    pub structs: usize,
    /// Fields across those structs.
    pub fields: usize,
}

/// The result of a run: files and a summary per message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Generated {
    /// Every file, the index `mod.rs` last.
    pub files: Vec<GeneratedFile>,
    /// One entry per schema, in file-name order.
    pub messages: Vec<MessageSummary>,
}
