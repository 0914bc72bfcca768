//! JSON to model: reads each key with Kafka's scalar coercions, refuses
//! unknown keys, and runs every check that concerns one object at a time
//! (spec §6, "Parse" rows, and the `default` rules of §5.1).

use serde_json::{Map, Value};

use crate::diag::{Diagnostics, JsonPath};
use crate::model::{CommonStruct, DefaultValue, EntityType, Field, FieldType, Listener, MessageSpec, SpecType};
use crate::versions::Versions;

const TOP_KEYS: &[&str] = &[
    "apiKey",
    "type",
    "listeners",
    "name",
    "validVersions",
    "flexibleVersions",
    "deprecatedVersions",
    "latestVersionUnstable",
    "fields",
    "commonStructs",
];
const FIELD_KEYS: &[&str] = &[
    "name",
    "type",
    "versions",
    "nullableVersions",
    "taggedVersions",
    "tag",
    "ignorable",
    "default",
    "mapKey",
    "entityType",
    "zeroCopy",
    "flexibleVersions",
    "about",
    "fields",
];
const STRUCT_KEYS: &[&str] = &["name", "versions", "deprecatedVersions", "fields"];

/// Reads one schema's JSON into the model, recording every problem found in
/// `diags`. Returns `None` when the result would be unusable.
pub fn lower(file: &str, root: &Value, diags: &mut Diagnostics) -> Option<MessageSpec> {
    let mut cx = Lower { file, diags };
    cx.message(root)
}

struct Lower<'a> {
    file: &'a str,
    diags: &'a mut Diagnostics,
}

impl Lower<'_> {
    fn err(&mut self, path: &JsonPath, message: impl Into<String>) {
        self.diags.error(self.file, path, message);
    }

    fn object<'v>(&mut self, value: &'v Value, path: &JsonPath, allowed: &[&str]) -> Option<&'v Map<String, Value>> {
        let Some(obj) = value.as_object() else {
            self.err(path, "expected an object");
            return None;
        };
        for key in obj.keys() {
            if !allowed.contains(&key.as_str()) {
                self.err(&path.key(key), format!("unknown key \"{key}\""));
            }
        }
        Some(obj)
    }

    /// A string-valued key: numbers and booleans give their text; null is absent.
    fn string(&mut self, obj: &Map<String, Value>, key: &str, path: &JsonPath) -> Option<String> {
        match obj.get(key)? {
            Value::Null => None,
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => {
                self.err(&path.key(key), "expected a string");
                None
            }
        }
    }

    /// An integer key: numeric strings are accepted and fractions truncated.
    fn int(&mut self, obj: &Map<String, Value>, key: &str, path: &JsonPath, min: i64, max: i64) -> Option<i64> {
        let value = match obj.get(key)? {
            Value::Null => return None,
            Value::Number(n) => n.as_i64().or_else(|| n.as_f64().filter(|f| f.is_finite()).map(|f| f.trunc() as i64)),
            Value::String(s) => s.trim().parse::<i64>().ok(),
            _ => None,
        };
        match value {
            Some(v) if (min..=max).contains(&v) => Some(v),
            Some(v) => {
                self.err(&path.key(key), format!("{v} is out of range {min} to {max}"));
                None
            }
            None => {
                self.err(&path.key(key), "expected an integer");
                None
            }
        }
    }

    /// A boolean key: also the strings true/false in any of Kafka's spellings.
    fn boolean(&mut self, obj: &Map<String, Value>, key: &str, path: &JsonPath) -> bool {
        match obj.get(key) {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(Value::String(s)) if matches!(s.as_str(), "true" | "True" | "TRUE") => true,
            Some(Value::String(s)) if matches!(s.as_str(), "false" | "False" | "FALSE") => false,
            Some(_) => {
                self.err(&path.key(key), "expected true or false");
                false
            }
        }
    }

    /// A list key: a single value counts as a one-element list.
    fn list<'v>(&mut self, obj: &'v Map<String, Value>, key: &str) -> Vec<&'v Value> {
        match obj.get(key) {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items.iter().collect(),
            Some(single) => vec![single],
        }
    }

    /// A version key; `None` when absent or empty.
    fn versions(&mut self, obj: &Map<String, Value>, key: &str, path: &JsonPath) -> Option<Versions> {
        let text = self.string(obj, key, path)?;
        if text.trim().is_empty() {
            return None;
        }
        match text.parse() {
            Ok(v) => Some(v),
            Err(e) => {
                self.err(&path.key(key), e.to_string());
                None
            }
        }
    }

    fn message(&mut self, root: &Value) -> Option<MessageSpec> {
        let path = JsonPath::root();
        let obj = self.object(root, &path, TOP_KEYS)?;
        let name = self.string(obj, "name", &path);
        match &name {
            None => self.err(&path, "missing \"name\""),
            Some(n) if !is_identifier(n) => {
                self.err(
                    &path.key("name"),
                    format!("message name \"{n}\" must be a letter followed by letters and digits"),
                );
            }
            Some(_) => {}
        }
        let spec_type = match self.string(obj, "type", &path).as_deref() {
            Some("request") => Some(SpecType::Request),
            Some("response") => Some(SpecType::Response),
            Some("header") => Some(SpecType::Header),
            Some("data") => Some(SpecType::Data),
            Some("metadata") => Some(SpecType::Metadata),
            Some("coordinator-key") => Some(SpecType::CoordinatorKey),
            Some("coordinator-value") => Some(SpecType::CoordinatorValue),
            Some(other) => {
                self.err(
                    &path.key("type"),
                    format!(
                        "unknown type \"{other}\"; expected request, response, header, data, metadata, coordinator-key or coordinator-value"
                    ),
                );
                None
            }
            None => {
                self.err(&path, "missing \"type\"");
                None
            }
        };
        let api_key = self.int(obj, "apiKey", &path, i16::MIN.into(), i16::MAX.into()).map(|k| k as i16);
        let display = name.clone().unwrap_or_else(|| "unnamed".into());
        let valid_versions = self.versions(obj, "validVersions", &path);
        if valid_versions.is_none()
            && !obj
                .get("validVersions")
                .is_some_and(|v| v.is_string() && v.as_str().is_some_and(|s| !s.trim().is_empty()))
        {
            self.err(&path.key("validVersions"), format!("You must specify the version of the {display} structure."));
        }
        // A message without valid versions (a removed api, kept so that its
        // api key is not reused) needs no flexibleVersions, as in Kafka.
        let no_versions = valid_versions.is_some_and(Versions::is_empty);
        let flexible_versions = match obj.get("flexibleVersions") {
            None | Some(Value::Null) if no_versions => Versions::NONE,
            None | Some(Value::Null) => {
                self.err(
                    &path.key("flexibleVersions"),
                    "You must specify a value for flexibleVersions. Please use 0+ for all new messages.",
                );
                Versions::NONE
            }
            Some(_) => self.versions(obj, "flexibleVersions", &path).unwrap_or(Versions::NONE),
        };
        if !flexible_versions.is_empty() && !flexible_versions.is_open() {
            self.err(
                &path.key("flexibleVersions"),
                format!("flexibleVersions {flexible_versions} is not open-ended: it must be none, or N+"),
            );
        }
        let deprecated_versions = self.versions(obj, "deprecatedVersions", &path).unwrap_or(Versions::NONE);
        let mut listeners = Vec::new();
        for (i, item) in self.list(obj, "listeners").into_iter().enumerate() {
            match item.as_str() {
                Some("zkBroker") => listeners.push(Listener::ZkBroker),
                Some("broker") => listeners.push(Listener::Broker),
                Some("controller") => listeners.push(Listener::Controller),
                _ => self.err(
                    &path.index("listeners", i, None),
                    format!("unknown listener {item}; expected zkBroker, broker or controller"),
                ),
            }
        }
        let is_request = spec_type == Some(SpecType::Request);
        if !listeners.is_empty() && spec_type.is_some() && !is_request {
            self.err(&path.key("listeners"), "listeners are only valid for messages with type request");
        }
        let latest_version_unstable = self.boolean(obj, "latestVersionUnstable", &path);
        if latest_version_unstable && spec_type.is_some() && !is_request {
            self.err(
                &path.key("latestVersionUnstable"),
                "latestVersionUnstable is only valid for messages with type request",
            );
        }
        let mut common_structs = Vec::new();
        for (i, item) in self.list(obj, "commonStructs").into_iter().enumerate() {
            let name = item.get("name").and_then(Value::as_str);
            let spath = path.index("commonStructs", i, name);
            if let Some(s) = self.common_struct(item, &spath) {
                common_structs.push(s);
            }
        }
        let fields = self.fields(obj, &path, &display);
        Some(MessageSpec {
            file: self.file.to_string(),
            name: name?,
            spec_type: spec_type?,
            api_key,
            valid_versions: valid_versions?,
            flexible_versions,
            deprecated_versions,
            listeners,
            latest_version_unstable,
            fields,
            common_structs,
        })
    }

    fn common_struct(&mut self, value: &Value, path: &JsonPath) -> Option<CommonStruct> {
        let obj = self.object(value, path, STRUCT_KEYS)?;
        let Some(name) = self.string(obj, "name", path) else {
            self.err(path, "missing \"name\"");
            return None;
        };
        if !is_identifier(&name) {
            self.err(
                &path.key("name"),
                format!("struct name \"{name}\" must be a letter followed by letters and digits"),
            );
        } else if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
            self.err(
                &path.key("name"),
                format!("Can't process structure {name}: the first letter of structure names must be capitalized."),
            );
        }
        let versions = self.versions(obj, "versions", path);
        if versions.is_none() {
            self.err(&path.key("versions"), format!("You must specify the version of the {name} structure."));
        }
        self.versions(obj, "deprecatedVersions", path);
        let fields = self.fields(obj, path, &name);
        Some(CommonStruct { name, versions: versions?, fields, path: path.clone() })
    }

    /// The `fields` list of an object, with the checks that span one struct:
    /// unique names, unique and contiguous tags.
    fn fields(&mut self, obj: &Map<String, Value>, path: &JsonPath, struct_name: &str) -> Vec<Field> {
        let mut fields: Vec<Field> = Vec::new();
        let mut tagged: Vec<(u32, JsonPath)> = Vec::new();
        for (i, item) in self.list(obj, "fields").into_iter().enumerate() {
            let name = item.get("name").and_then(Value::as_str);
            let fpath = path.index("fields", i, name);
            let Some(field) = self.field(item, &fpath) else {
                continue;
            };
            if fields.iter().any(|f| f.name == field.name) {
                self.err(
                    &fpath,
                    format!(
                        "In {struct_name}, field {0} has a duplicate name {0}. All field names must be unique.",
                        field.name
                    ),
                );
            }
            if let Some(tag) = field.tag {
                if let Some(other) = fields.iter().find(|f| f.tag == Some(tag)) {
                    let message = format!("tag {tag} is already used by {}", other.name);
                    self.err(&fpath, message);
                }
                tagged.push((tag, fpath.clone()));
            }
            fields.push(field);
        }
        // Reported at the field with the lowest tag above the first gap.
        tagged.sort_by_key(|(tag, _)| *tag);
        tagged.dedup_by_key(|(tag, _)| *tag);
        if let Some((missing, (_, at))) = tagged.iter().enumerate().find(|(i, (t, _))| *i as u32 != *t) {
            self.err(
                at,
                format!("In {struct_name}, the tag IDs are not contiguous. Make use of tag {missing} before using any higher tag IDs."),
            );
        }
        fields
    }

    fn field(&mut self, value: &Value, path: &JsonPath) -> Option<Field> {
        let obj = self.object(value, path, FIELD_KEYS)?;
        let name = self.string(obj, "name", path);
        let Some(name) = name else {
            self.err(path, "missing \"name\"");
            return None;
        };
        if !is_identifier(&name) {
            self.err(&path.key("name"), format!("Invalid field name {name}"));
        }
        let ty_text = self.string(obj, "type", path);
        let Some(ty_text) = ty_text else {
            self.err(path, "missing \"type\"");
            return None;
        };
        let ty = match parse_type(ty_text.trim()) {
            Ok(ty) => ty,
            Err(message) => {
                self.err(&path.key("type"), message);
                return None;
            }
        };
        let tagged_versions = self.versions(obj, "taggedVersions", path).unwrap_or(Versions::NONE);
        let explicit_versions = self.versions(obj, "versions", path);
        let versions_given = self.string(obj, "versions", path).is_some_and(|t| !t.trim().is_empty());
        let versions = match explicit_versions {
            Some(v) => v,
            None if !tagged_versions.is_empty() => tagged_versions,
            // A malformed string was already reported where it was parsed.
            None if versions_given => Versions::NONE,
            None => {
                self.err(&path.key("versions"), format!("You must specify the version of the {name} structure."));
                Versions::NONE
            }
        };
        let nullable_versions = self.versions(obj, "nullableVersions", path).unwrap_or(Versions::NONE);
        if !nullable_versions.is_empty() && !ty.can_be_null() {
            self.err(&path.key("nullableVersions"), format!("Type {ty} cannot be nullable."));
        }
        let tag = self.int(obj, "tag", path, i64::from(i32::MIN), i64::from(i32::MAX));
        let tag = match tag {
            Some(t) if t < 0 => {
                self.err(&path.key("tag"), format!("Field {name} specifies a tag of {t}. Tags cannot be negative."));
                None
            }
            Some(t) if t > MAX_TAG => {
                self.err(&path.key("tag"), format!("Field {name} specifies tag {t}; tags above {MAX_TAG} are refused"));
                None
            }
            Some(t) => Some(t as u32),
            None => None,
        };
        // A tag that was given but refused was reported already: not "no tag".
        let tag_given = obj.get("tag").is_some_and(|t| !t.is_null());
        match (tag.or(tag_given.then_some(0)), tagged_versions.is_empty()) {
            (Some(_), true) => self.err(
                &path.key("tag"),
                format!("Field {name} has a tag but no taggedVersions. If a tag is specified, taggedVersions must be specified as well."),
            ),
            (None, false) => self.err(
                &path.key("taggedVersions"),
                format!("Field {name} has taggedVersions but no tag. Please specify a tag, or remove the taggedVersions."),
            ),
            _ => {}
        }
        if !tagged_versions.is_empty() {
            if !tagged_versions.is_open() {
                self.err(
                    &path.key("taggedVersions"),
                    format!("Field {name} specifies taggedVersions {tagged_versions}, which is not open-ended: it must be none, or N+"),
                );
            }
            if versions.intersect(tagged_versions) != tagged_versions {
                self.err(
                    &path.key("taggedVersions"),
                    format!("Field {name} specifies taggedVersions {tagged_versions}, which is not a subset of its versions {versions}"),
                );
            }
            let both = nullable_versions.intersect(tagged_versions);
            if !both.is_empty() && both != tagged_versions {
                self.err(
                    &path.key("nullableVersions"),
                    format!("Field {name} is nullable in only some of its tagged versions. Either all tagged versions must be nullable, or none must be."),
                );
            }
            if ty == FieldType::Records {
                self.err(path, format!("Field {name} of type records cannot be a tagged field."));
            }
        }
        let ignorable = self.boolean(obj, "ignorable", path);
        let map_key = self.boolean(obj, "mapKey", path);
        if map_key && tag.is_some() {
            self.err(&path.key("mapKey"), "Tagged fields cannot be used as keys.");
        }
        let zero_copy = self.boolean(obj, "zeroCopy", path);
        if zero_copy && ty != FieldType::Bytes {
            self.err(
                &path.key("zeroCopy"),
                format!("Invalid zeroCopy value for {name}. Only fields of type bytes can use zeroCopy flag."),
            );
        }
        let entity_type = self.entity_type(obj, path, &name, &ty);
        let flexible_versions = self.versions(obj, "flexibleVersions", path);
        if flexible_versions.is_some() && !matches!(ty, FieldType::String | FieldType::Bytes) {
            self.err(
                &path.key("flexibleVersions"),
                format!("Invalid flexibleVersions override for {name}. Only fields of type string or bytes can specify a flexibleVersions override."),
            );
        }
        if matches!(&ty, FieldType::Array(inner) if **inner == FieldType::Records) {
            self.err(&path.key("type"), "arrays of records are not supported");
        }
        let about = self.string(obj, "about", path).unwrap_or_default();
        let has_fields = obj.get("fields").is_some_and(|f| !f.is_null());
        let fields = if has_fields {
            match &ty {
                FieldType::Struct(_) => {
                    if explicit_versions.is_none() {
                        self.err(
                            &path.key("versions"),
                            format!("You must specify the version of the {name} structure."),
                        );
                    }
                    self.fields(obj, path, &name)
                }
                FieldType::Array(inner) if matches!(**inner, FieldType::Struct(_)) => {
                    if explicit_versions.is_none() {
                        self.err(
                            &path.key("versions"),
                            format!("You must specify the version of the {name} structure."),
                        );
                    }
                    self.fields(obj, path, &name)
                }
                // Kafka accepts and ignores fields on an array of a primitive type.
                FieldType::Array(_) => Vec::new(),
                _ => {
                    self.err(&path.key("fields"), format!("Non-array or Struct field {name} cannot have fields"));
                    Vec::new()
                }
            }
        } else {
            Vec::new()
        };
        let default_text = self.string(obj, "default", path);
        let default = match parse_default(default_text.as_deref(), &ty, &name) {
            Ok(d) => d,
            Err(message) => {
                self.err(&path.key("default"), message);
                DefaultValue::Natural
            }
        };
        if default == DefaultValue::Null && ty != FieldType::Records && !nullable_versions.contains_range(versions) {
            self.err(
                &path.key("default"),
                format!(
                    "null cannot be the default for field {name}, because not all versions of this field are nullable."
                ),
            );
        }
        Some(Field {
            name,
            ty,
            versions,
            nullable_versions,
            tagged_versions,
            tag,
            ignorable,
            default,
            map_key,
            entity_type,
            flexible_versions,
            about,
            fields,
            path: path.clone(),
        })
    }

    fn entity_type(&mut self, obj: &Map<String, Value>, path: &JsonPath, name: &str, ty: &FieldType) -> EntityType {
        let Some(text) = self.string(obj, "entityType", path) else {
            return EntityType::Unknown;
        };
        let (entity, wants) = match text.as_str() {
            "unknown" => return EntityType::Unknown,
            "transactionalId" => (EntityType::TransactionalId, FieldType::String),
            "producerId" => (EntityType::ProducerId, FieldType::Int64),
            "groupId" => (EntityType::GroupId, FieldType::String),
            "topicName" => (EntityType::TopicName, FieldType::String),
            "brokerId" => (EntityType::BrokerId, FieldType::Int32),
            other => {
                self.err(&path.key("entityType"), format!("unknown entityType \"{other}\""));
                return EntityType::Unknown;
            }
        };
        let element = match ty {
            FieldType::Array(inner) => inner.as_ref(),
            other => other,
        };
        if *element != wants {
            self.err(
                &path.key("entityType"),
                format!("Field {name} has entity type {text}, but field type {ty}, which does not match."),
            );
        }
        entity
    }
}

/// Highest tag accepted. Tags of one struct must be `0..n`, so a larger tag
/// could only be valid after as many fields; Kafka's largest is 9.
pub const MAX_TAG: i64 = 65_535;

/// True for `[A-Za-z][A-Za-z0-9]*`, the names Kafka allows for fields.
fn is_identifier(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic()) && name.chars().all(|c| c.is_ascii_alphanumeric())
}

/// Parses a type string (spec §3.1).
///
/// # Errors
/// A message naming the type that could not be parsed.
pub fn parse_type(text: &str) -> Result<FieldType, String> {
    // Trimmed at every level as Java trims (characters up to U+0020), as
    // Kafka's parser does: `[] int32` is `[]int32`.
    let text = text.trim_matches(|c: char| c <= ' ');
    Ok(match text {
        "bool" => FieldType::Bool,
        "int8" => FieldType::Int8,
        "int16" => FieldType::Int16,
        "uint16" => FieldType::Uint16,
        "int32" => FieldType::Int32,
        "uint32" => FieldType::Uint32,
        "int64" => FieldType::Int64,
        "float64" => FieldType::Float64,
        "string" => FieldType::String,
        "bytes" => FieldType::Bytes,
        "uuid" => FieldType::Uuid,
        "records" => FieldType::Records,
        "ApiMessage" => FieldType::ApiMessage,
        "Header" => FieldType::Header,
        _ => {
            if let Some(inner) = text.strip_prefix("[]") {
                if inner.is_empty() {
                    return Err(format!("Can't parse array type {text}. No element type found."));
                }
                let element = parse_type(inner)?;
                if matches!(element, FieldType::Array(_)) {
                    return Err(format!(
                        "Can't parse array type {text}: can't have an array of arrays; use an array of structs containing an array instead."
                    ));
                }
                return Ok(FieldType::Array(Box::new(element)));
            }
            if text.starts_with(|c: char| c.is_ascii_uppercase()) && text.chars().all(|c| c.is_ascii_alphanumeric()) {
                FieldType::Struct(text.to_string())
            } else {
                return Err(format!("Can't parse type {text}"));
            }
        }
    })
}

/// Parses a `default` for a field type (spec §5.1). Absent or empty text is
/// the natural default; `"null"` is null.
///
/// # Errors
/// A message in the style of Kafka's generator.
pub fn parse_default(text: Option<&str>, ty: &FieldType, name: &str) -> Result<DefaultValue, String> {
    let text = match text {
        None | Some("") => return Ok(DefaultValue::Natural),
        Some(t) => t,
    };
    let invalid = || format!("Invalid default for {ty} field {name}: {text}");
    let int = |min: i64, max: i64| -> Result<DefaultValue, String> {
        let parsed = match text.strip_prefix("0x") {
            Some(hex) if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
                i64::from_str_radix(hex, 16).ok()
            }
            Some(_) => None,
            None => {
                let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    None
                } else if digits.len() > 1 && digits.starts_with('0') {
                    // Kafka's Java output would read a leading zero as octal; refuse it.
                    None
                } else {
                    text.parse::<i64>().ok()
                }
            }
        };
        match parsed {
            Some(v) if (min..=max).contains(&v) => Ok(DefaultValue::Int(v)),
            Some(_) => Err(format!("Invalid default for {ty} field {name}: {text} is out of range.")),
            None => Err(invalid()),
        }
    };
    match ty {
        FieldType::Bool => match text.to_ascii_lowercase().as_str() {
            "true" => Ok(DefaultValue::Bool(true)),
            "false" => Ok(DefaultValue::Bool(false)),
            _ => Err(invalid()),
        },
        FieldType::Int8 => int(i8::MIN.into(), i8::MAX.into()),
        FieldType::Int16 => int(i16::MIN.into(), i16::MAX.into()),
        FieldType::Uint16 => int(0, u16::MAX.into()),
        FieldType::Int32 => int(i32::MIN.into(), i32::MAX.into()),
        FieldType::Uint32 => int(0, u32::MAX.into()),
        FieldType::Int64 => int(i64::MIN, i64::MAX),
        // As Java's parser: surrounding whitespace allowed, and a sign
        // before NaN too.
        FieldType::Float64 => match text.trim_matches(|c: char| c <= ' ') {
            "NaN" | "+NaN" | "-NaN" => Ok(DefaultValue::Float(f64::NAN)),
            "Infinity" | "+Infinity" => Ok(DefaultValue::Float(f64::INFINITY)),
            "-Infinity" => Ok(DefaultValue::Float(f64::NEG_INFINITY)),
            // A number too large for a double is infinite, as Java reads it
            // (`1e400`); Rust's own spellings of infinity (`inf`) are not numbers there.
            number => {
                // As Java's parser: a `d`/`f` suffix allowed.
                let number = number.strip_suffix(['d', 'D', 'f', 'F']).unwrap_or(number);
                if let Some(hex) = parse_hex_float(number) {
                    return Ok(DefaultValue::Float(hex));
                }
                number
                    .parse::<f64>()
                    .ok()
                    .filter(|f| f.is_finite() || number.bytes().all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b)))
                    .map(DefaultValue::Float)
                    .ok_or_else(invalid)
            }
        },
        FieldType::String => Ok(if text == "null" { DefaultValue::Null } else { DefaultValue::Str(text.to_string()) }),
        FieldType::Uuid => parse_uuid_default(text).map(DefaultValue::Uuid).ok_or_else(invalid),
        FieldType::Records => Ok(DefaultValue::Null),
        FieldType::Bytes | FieldType::ApiMessage | FieldType::Header => match text {
            "null" => Ok(DefaultValue::Null),
            _ => Err(format!("Invalid default for {ty} field {name}. The only valid default for a bytes field is empty or null.")),
        },
        FieldType::Struct(_) => match text {
            "null" => Ok(DefaultValue::Null),
            _ => Err(format!(
                "Invalid default for struct field {name}. The only valid default for a struct field is the empty struct or null."
            )),
        },
        FieldType::Array(_) => match text {
            "null" => Ok(DefaultValue::Null),
            _ => Err(format!(
                "Invalid default for array field {name}. The only valid default for an array field is the empty array or null."
            )),
        },
    }
}

/// Base64url (no padding) text of exactly 16 bytes, as Kafka writes uuids.
fn parse_uuid_default(text: &str) -> Option<u128> {
    let text = text.trim_end_matches('=');
    if text.len() != 22 {
        return None;
    }
    let mut bits: u128 = 0;
    let mut count = 0u32;
    let mut out: Vec<u8> = Vec::with_capacity(17);
    let mut acc: u32 = 0;
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' => 62,
            b'_' => 63,
            _ => return None,
        } as u32;
        acc = (acc << 6) | v;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((acc >> count) as u8);
            acc &= (1 << count) - 1;
        }
    }
    if out.len() != 16 {
        return None;
    }
    for b in out {
        bits = (bits << 8) | u128::from(b);
    }
    Some(bits)
}

/// A hexadecimal floating-point number as Java's `Double.parseDouble`
/// reads it (what Kafka's generated code does with a float64 default): an
/// optional sign, `0x` or `0X`, hex digits with an optional point, then a
/// binary exponent `p` or `P` with an optional sign and decimal digits,
/// mandatory. `0x1p3` is 8.0, `-0x1.8p1` is -3.0. The value is rounded to
/// the nearest double, ties to even; too large is infinite, too small zero.
/// `None` when the text is not in that form.
fn parse_hex_float(text: &str) -> Option<f64> {
    let (negative, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let rest = rest.strip_prefix("0x").or_else(|| rest.strip_prefix("0X"))?;
    let (mantissa, exponent) = rest.split_once(['p', 'P'])?;
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if (whole.is_empty() && fraction.is_empty())
        || !whole.bytes().chain(fraction.bytes()).all(|b| b.is_ascii_hexdigit())
    {
        return None;
    }
    let (exponent_negative, digits) = match exponent.as_bytes().first() {
        Some(b'-') => (true, &exponent[1..]),
        Some(b'+') => (false, &exponent[1..]),
        _ => (false, exponent),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Far past the range of a double either way, even after the shifts of
    // the longest text (4 per hex digit): saturate.
    const FAR: i64 = 1 << 56;
    let magnitude = digits.bytes().fold(0i64, |e, d| (e * 10 + i64::from(d - b'0')).min(FAR));
    let mut exponent = if exponent_negative { -magnitude } else { magnitude };
    // The significand's leading 124 bits, exactly; `inexact` when a
    // nonzero digit beyond them was dropped.
    let (mut significand, mut inexact) = (0u128, false);
    let digits = whole.bytes().map(|d| (d, false)).chain(fraction.bytes().map(|d| (d, true)));
    for (digit, in_fraction) in digits {
        let value = u128::from(char::from(digit).to_digit(16).unwrap_or(0));
        if significand >> 124 == 0 {
            significand = significand << 4 | value;
            if in_fraction {
                exponent -= 4;
            }
        } else {
            inexact |= value != 0;
            if !in_fraction {
                exponent += 4;
            }
        }
    }
    let magnitude = scale_binary(significand, inexact, exponent);
    Some(if negative { -magnitude } else { magnitude })
}

/// `significand · 2^exponent` rounded to the nearest double (ties to
/// even); `inexact` says the significand was cut short of nonzero bits.
fn scale_binary(significand: u128, inexact: bool, exponent: i64) -> f64 {
    if significand == 0 {
        return 0.0;
    }
    let bits = i64::from(128 - significand.leading_zeros());
    let top = exponent + bits - 1;
    if top > 1023 {
        return f64::INFINITY;
    }
    if top < -1075 {
        return 0.0;
    }
    // The weight of the last bit kept: 53 bits for a normal number, the
    // smallest subnormal's for one below 2^-1022.
    let quantum = (top - 52).max(-1074);
    let drop = quantum - exponent;
    let kept = if drop <= 0 {
        // At most 53 bits once shifted: exact.
        significand << (-drop)
    } else if drop >= 128 {
        // Only for a 128-bit significand just below the smallest
        // subnormal: one quantum when above half of it, else zero.
        u128::from(inexact || significand << 1 != 0)
    } else {
        let kept = significand >> drop;
        let rest = significand & ((1u128 << drop) - 1);
        let half = 1u128 << (drop - 1);
        let up = rest > half || (rest == half && (inexact || kept & 1 == 1));
        kept + u128::from(up)
    };
    // `kept` < 2^54 and `quantum` in -1074..=971: both factors and the
    // product are exact doubles, or the product overflows to infinity.
    #[allow(clippy::cast_precision_loss)]
    let kept = kept as f64;
    kept * power_of_two(quantum)
}

/// 2^k as a double, for k in -1074..=1023.
fn power_of_two(k: i64) -> f64 {
    if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (k + 1074))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_parse_as_kafka_writes_them() {
        let d = |t: &str, ty: FieldType| parse_default(Some(t), &ty, "F");
        assert_eq!(d("0x7fffffff", FieldType::Int32), Ok(DefaultValue::Int(2147483647)));
        assert_eq!(d("-2147483648", FieldType::Int32), Ok(DefaultValue::Int(-2147483648)));
        assert!(d("0x80000000", FieldType::Int32).is_err());
        assert!(d("128", FieldType::Int8).is_err());
        assert!(d("010", FieldType::Int32).is_err());
        assert!(d("5L", FieldType::Int32).is_err());
        assert_eq!(d("0xcafcacafcacafca", FieldType::Int64), Ok(DefaultValue::Int(0xcafcacafcacafca)));
        assert_eq!(d("TRUE", FieldType::Bool), Ok(DefaultValue::Bool(true)));
        assert!(d("1", FieldType::Bool).is_err());
        assert_eq!(d("null", FieldType::String), Ok(DefaultValue::Null));
        assert_eq!(d("12.34", FieldType::Float64), Ok(DefaultValue::Float(12.34)));
        assert_eq!(d("1e400", FieldType::Float64), Ok(DefaultValue::Float(f64::INFINITY)));
        assert_eq!(d("-1e400", FieldType::Float64), Ok(DefaultValue::Float(f64::NEG_INFINITY)));
        assert_eq!(d("Infinity", FieldType::Float64), Ok(DefaultValue::Float(f64::INFINITY)));
        assert!(d("inf", FieldType::Float64).is_err());
        assert!(d("infinity", FieldType::Float64).is_err());
        assert_eq!(d(" 1.5 ", FieldType::Float64), Ok(DefaultValue::Float(1.5)));
        assert_eq!(d("2.5d", FieldType::Float64), Ok(DefaultValue::Float(2.5)));
        assert_eq!(d("1e400f", FieldType::Float64), Ok(DefaultValue::Float(f64::INFINITY)));
        assert!(d("1.5dd", FieldType::Float64).is_err());
        // Hexadecimal, as Java's Double.parseDouble reads it.
        assert_eq!(d("0x1p3", FieldType::Float64), Ok(DefaultValue::Float(8.0)));
        assert_eq!(d("-0X1.8P1", FieldType::Float64), Ok(DefaultValue::Float(-3.0)));
        assert_eq!(d(" 0x.8p0d ", FieldType::Float64), Ok(DefaultValue::Float(0.5)));
        assert_eq!(d("0x1.fp-3", FieldType::Float64), Ok(DefaultValue::Float(31.0 / 128.0)));
        assert_eq!(d("0x0p0", FieldType::Float64), Ok(DefaultValue::Float(0.0)));
        assert_eq!(d("0x1p-1074", FieldType::Float64), Ok(DefaultValue::Float(f64::from_bits(1))));
        assert_eq!(d("0x1p-1075", FieldType::Float64), Ok(DefaultValue::Float(0.0)));
        assert_eq!(d("0x1.8p-1074", FieldType::Float64), Ok(DefaultValue::Float(f64::from_bits(2))));
        assert_eq!(d("0x1.fffffffffffffp1023", FieldType::Float64), Ok(DefaultValue::Float(f64::MAX)));
        assert_eq!(d("0x1.fffffffffffff8p1023", FieldType::Float64), Ok(DefaultValue::Float(f64::INFINITY)));
        assert_eq!(d("0x1p99999999999", FieldType::Float64), Ok(DefaultValue::Float(f64::INFINITY)));
        // Ties to even: 1 + 2^-53 is halfway between 1 and its successor.
        assert_eq!(d("0x1.00000000000008p0", FieldType::Float64), Ok(DefaultValue::Float(1.0)));
        assert_eq!(
            d("0x1.000000000000080000000000000000000001p0", FieldType::Float64),
            Ok(DefaultValue::Float(1.0 + f64::EPSILON))
        );
        for bad in ["0x1", "0xp3", "0x1p", "0x1.p+", "0xgp1", "0x1p1.5", "1p3", "0x 1p3"] {
            assert!(d(bad, FieldType::Float64).is_err(), "{bad}");
        }
    }

    /// Float64 defaults against what Java 17's `Double.parseDouble` gives
    /// for the same text (the values below are Java's).
    #[test]
    fn float_defaults_as_java_reads_them() {
        let bits = |t: &str| match parse_default(Some(t), &FieldType::Float64, "F") {
            Ok(DefaultValue::Float(f)) => Ok(f.to_bits()),
            other => Err(format!("{other:?}")),
        };
        // Java: NaN, with or without a sign or surrounding whitespace; no suffix.
        for nan in ["NaN", "-NaN", "+NaN", " NaN ", "\t-NaN"] {
            assert_eq!(bits(nan), Ok(0x7ff8_0000_0000_0000), "{nan:?}");
        }
        assert_eq!(bits(" -Infinity "), Ok(0xfff0_0000_0000_0000));
        for bad in ["NaNd", "Infinityd", "nan", "-nan", "+inf", "INFINITY", "0x", "0x1p3dd", "0x1d"] {
            assert!(bits(bad).is_err(), "{bad}");
        }
        assert_eq!(bits("-0x0p0"), Ok(0x8000_0000_0000_0000));
        assert_eq!(bits("-0x0p99999999999"), Ok(0x8000_0000_0000_0000));
        assert_eq!(bits("0X1P+3D"), Ok(0x4020_0000_0000_0000));
        assert_eq!(bits("0x0.fffffffffffff8p-1022"), Ok(0x0010_0000_0000_0000));
        // Hex digits far more than a double holds: the exponent is still
        // the digits' weight plus the written one (Java: Infinity, 0.0,
        // 2^96, 1.0, 2^1000).
        let zeros = "0".repeat(300_000);
        assert_eq!(bits(&format!("0x0.{zeros}1p99999999999")), Ok(f64::INFINITY.to_bits()));
        assert_eq!(bits(&format!("0x1{zeros}p-99999999999")), Ok(0));
        assert_eq!(bits(&format!("0x0.{zeros}1p1200100")), Ok(7.922816251426434E28f64.to_bits()));
        assert_eq!(bits(&format!("0x1{zeros}p-1200000")), Ok(1f64.to_bits()));
        assert_eq!(bits(&format!("0x1{zeros}p-1199000")), Ok(1.0715086071862673E301f64.to_bits()));
    }

    #[test]
    fn other_defaults_parse_as_kafka_writes_them() {
        let d = |t: &str, ty: FieldType| parse_default(Some(t), &ty, "F");
        assert_eq!(d("33000", FieldType::Uint16), Ok(DefaultValue::Int(33000)));
        assert!(d("65536", FieldType::Uint16).is_err());
        assert!(d("x", FieldType::Bytes).is_err());
        assert!(d("x", FieldType::Array(Box::new(FieldType::Int32))).is_err());
        // H3KKO4NTRPaCWtEmm3vW7A is the test uuid of Kafka's SimpleExampleMessage.
        assert_eq!(
            d("H3KKO4NTRPaCWtEmm3vW7A", FieldType::Uuid),
            Ok(DefaultValue::Uuid(0x1f728a3b_8353_44f6_825a_d1269b7bd6ec))
        );
    }

    #[test]
    fn type_grammar() {
        assert_eq!(parse_type("[]int32"), Ok(FieldType::Array(Box::new(FieldType::Int32))));
        assert_eq!(parse_type("Int8"), Ok(FieldType::Struct("Int8".into())));
        assert!(parse_type("[]").is_err());
        assert!(parse_type("[][]int8").is_err());
        assert!(parse_type("int").is_err());
        assert_eq!(parse_type(" [] int32 "), Ok(FieldType::Array(Box::new(FieldType::Int32))));
        assert_eq!(parse_type("[] Foo"), Ok(FieldType::Array(Box::new(FieldType::Struct("Foo".into())))));
        assert!(parse_type("[] ").is_err());
        assert!(parse_type("int 32").is_err());
        assert!(parse_type("[] []int8").is_err(), "an array of arrays, spaced");
        assert!(parse_type("[]\u{a0}int8").is_err(), "no-break space is not whitespace to Java's trim");
        assert_eq!(parse_type("\u{1}int8\t"), Ok(FieldType::Int8), "control characters are");
    }
}
