//! The validated model of a schema: typed, nothing left to reparse.
//! Built by [`crate::lower`], checked by [`crate::check`], read by the emitters.

use crate::diag::JsonPath;
use crate::versions::Versions;

/// What a schema describes (the top-level `type` key).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecType {
    /// A request body.
    Request,
    /// A response body.
    Response,
    /// A request or response header.
    Header,
    /// A data structure outside the api (e.g. DefaultPrincipalData).
    Data,
    /// A metadata log record.
    Metadata,
    /// The key of a coordinator log record (`coordinator-key`): a record of
    /// the group, share or transaction coordinator's internal topic, whose
    /// `apiKey` is the record type.
    CoordinatorKey,
    /// The value of a coordinator log record (`coordinator-value`), paired
    /// with the [`SpecType::CoordinatorKey`] of the same `apiKey`.
    CoordinatorValue,
}

/// Where a request may be sent (the `listeners` key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Listener {
    /// A ZooKeeper-mode broker.
    ZkBroker,
    /// A KRaft broker.
    Broker,
    /// A KRaft controller.
    Controller,
}

/// Kinds of entity a field names (`entityType`); no wire effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntityType {
    /// Not said.
    Unknown,
    /// A transactional id (string).
    TransactionalId,
    /// A producer id (int64).
    ProducerId,
    /// A group id (string).
    GroupId,
    /// A topic name (string).
    TopicName,
    /// A broker id (int32).
    BrokerId,
}

/// A field's type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldType {
    /// `bool`
    Bool,
    /// `int8`
    Int8,
    /// `int16`
    Int16,
    /// `uint16`
    Uint16,
    /// `int32`
    Int32,
    /// `uint32`
    Uint32,
    /// `int64`
    Int64,
    /// `float64`
    Float64,
    /// `string`
    String,
    /// `bytes`
    Bytes,
    /// `uuid`
    Uuid,
    /// `records`: a record-batch set, carried as bytes.
    Records,
    /// `ApiMessage` (KIP-590): an embedded request or response with its
    /// header, carried as bytes.
    ApiMessage,
    /// `Header` (KIP-590): an embedded request header, carried as bytes.
    Header,
    /// `[]T`
    Array(Box<FieldType>),
    /// A struct, by name.
    Struct(String),
}

impl FieldType {
    /// True for types whose value can be null on the wire.
    pub fn can_be_null(&self) -> bool {
        matches!(
            self,
            Self::String
                | Self::Bytes
                | Self::Records
                | Self::ApiMessage
                | Self::Header
                | Self::Array(_)
                | Self::Struct(_)
        )
    }

    /// True for fixed-width numbers and bool.
    pub fn is_number_or_bool(&self) -> bool {
        matches!(
            self,
            Self::Bool
                | Self::Int8
                | Self::Int16
                | Self::Uint16
                | Self::Int32
                | Self::Uint32
                | Self::Int64
                | Self::Float64
        )
    }

    /// The struct this type names, directly or as array element.
    pub fn struct_name(&self) -> Option<&str> {
        match self {
            Self::Struct(name) => Some(name),
            Self::Array(inner) => inner.struct_name(),
            _ => None,
        }
    }
}

impl std::fmt::Display for FieldType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = match self {
            Self::Bool => "bool",
            Self::Int8 => "int8",
            Self::Int16 => "int16",
            Self::Uint16 => "uint16",
            Self::Int32 => "int32",
            Self::Uint32 => "uint32",
            Self::Int64 => "int64",
            Self::Float64 => "float64",
            Self::String => "string",
            Self::Bytes => "bytes",
            Self::Uuid => "uuid",
            Self::Records => "records",
            Self::ApiMessage => "ApiMessage",
            Self::Header => "Header",
            Self::Array(inner) => return write!(f, "[]{inner}"),
            Self::Struct(name) => name,
        };
        f.write_str(s)
    }
}

/// A field's default, parsed for its type.
#[derive(Debug, Clone, PartialEq)]
pub enum DefaultValue {
    /// The type's natural default (0, false, "", empty, zero uuid, default struct).
    Natural,
    /// Null.
    Null,
    /// A boolean.
    Bool(bool),
    /// An integer, within the field type's range.
    Int(i64),
    /// A float64, as Rust source text (`12.34`, `f64::NAN`).
    Float(f64),
    /// A string.
    Str(String),
    /// A uuid.
    Uuid(u128),
}

/// One field of a struct.
#[derive(Debug, Clone)]
pub struct Field {
    /// Kafka's name, e.g. `ThrottleTimeMs`.
    pub name: String,
    /// The field's type.
    pub ty: FieldType,
    /// Versions in which it exists (`versions`, or `taggedVersions` when absent).
    pub versions: Versions,
    /// Versions in which it may be null.
    pub nullable_versions: Versions,
    /// Versions in which it travels in the tagged-field section.
    pub tagged_versions: Versions,
    /// The tag, for tagged fields.
    pub tag: Option<u32>,
    /// Whether a non-default value may be dropped at a version that lacks the field.
    pub ignorable: bool,
    /// The default value.
    pub default: DefaultValue,
    /// The `mapKey` flag (no wire effect).
    pub map_key: bool,
    /// The `entityType` (no wire effect).
    pub entity_type: EntityType,
    /// A per-field `flexibleVersions` override (strings and bytes only).
    pub flexible_versions: Option<Versions>,
    /// Documentation.
    pub about: String,
    /// Fields of an inline struct defined by this field.
    pub fields: Vec<Field>,
    /// Where the field is in its file.
    pub path: JsonPath,
}

/// A struct declared in `commonStructs`.
#[derive(Debug, Clone)]
pub struct CommonStruct {
    /// Its name.
    pub name: String,
    /// Versions it covers.
    pub versions: Versions,
    /// Its fields.
    pub fields: Vec<Field>,
    /// Where it is in its file.
    pub path: JsonPath,
}

/// One schema file: a message and its structs.
#[derive(Debug, Clone)]
pub struct MessageSpec {
    /// The schema file's name, e.g. `CreateTopicsRequest.json`.
    pub file: String,
    /// The message name, e.g. `CreateTopicsRequest`.
    pub name: String,
    /// What it describes.
    pub spec_type: SpecType,
    /// The api key of requests and responses (and the record type of
    /// metadata and coordinator records).
    pub api_key: Option<i16>,
    /// Versions this schema defines; empty (`validVersions: "none"`) for a
    /// removed message, see [`MessageSpec::is_removed`].
    pub valid_versions: Versions,
    /// Versions with compact encodings and tagged fields.
    pub flexible_versions: Versions,
    /// Versions deprecated (api table only).
    pub deprecated_versions: Versions,
    /// Where a request may be sent.
    pub listeners: Vec<Listener>,
    /// Whether the highest valid version is still unstable.
    pub latest_version_unstable: bool,
    /// The body.
    pub fields: Vec<Field>,
    /// Structs shared by several fields.
    pub common_structs: Vec<CommonStruct>,
}

impl MessageSpec {
    /// True when the schema has no valid versions (`"validVersions":
    /// "none"`): Kafka keeps the schema of a removed api this way, so that
    /// its api key is not reused. Such a schema is read and checked, but no
    /// Rust is emitted for it.
    pub fn is_removed(&self) -> bool {
        self.valid_versions.is_empty()
    }
}
