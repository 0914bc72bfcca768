//! The facts about a message set that its schemas do not carry, read from
//! one JSON file beside them (kwire keeps Apache Kafka's in
//! `kafka-facts.json`): the releases it follows, the groups its api keys
//! are compiled in, the columns of the api-key table that are kept by hand,
//! the fields that carry secrets, and the families of internal records.
//!
//! The compiler knows no message set of its own: every name here comes
//! from the file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::{Error, Gates};

/// The facts file, read ([`Facts::read`]).
///
/// The file is one JSON object; every key but `release` may be left out:
///
/// ```json
/// {
///   "release": "4.4.0",
///   "releases": { "history": ["4.3.1", "4.4.0"] },
///   "schemas": "schemas",
///   "api_groups": { "core": { "feature": null, "apis": ["Ping"] },
///                   "admin": { "feature": "admin", "apis": ["MakeThing"] } },
///   "features": { "views": "borrowed", "json": "json", "samples": "sample", "entities": "entities" },
///   "forwardable": ["MakeThing"],
///   "error_responses": { "MakeThing": { "message": true } },
///   "cluster_action": ["Halt"],
///   "sensitive_fields": ["LoginRequest.Password"],
///   "peeked_fields": ["LoginRequest.Mode"],
///   "internal_records": { "schemas": "schemas-internal", "families": [
///     { "dir": "log", "module": "log", "framed": "LogRecord",
///       "coordinator": false, "about": "…", "records": { "ThingRecord": "…" } } ] }
/// }
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Facts {
    /// The directory of the file: the paths it gives are relative to it.
    pub dir: PathBuf,
    /// The release whose schemas the message set holds, e.g. `4.4.0`.
    pub release: String,
    /// Named lists of releases (which releases each check runs against).
    pub releases: BTreeMap<String, Vec<String>>,
    /// The directory of the message schemas, relative to [`Facts::dir`].
    pub schemas: Option<String>,
    /// The api groups, in the file's order: together they hold every api.
    pub api_groups: Vec<ApiGroup>,
    /// The apis a broker forwards to the controller (KIP-590), by api name
    /// (`ApiInfo::forwardable` in the generated table).
    pub forwardable: Vec<String>,
    /// Where the error response of a forwardable api departs from the one
    /// its schemas give, by api name
    /// ([`Options::error_responses`](crate::Options::error_responses)).
    pub error_responses: BTreeMap<String, ErrorResponseFacts>,
    /// The apis authorized by cluster action, sent only between brokers and
    /// controllers, by api name (`ApiInfo::cluster_action`).
    pub cluster_action: Vec<String>,
    /// The fields that carry secrets, each `Message.Field`
    /// ([`Options::sensitive_fields`](crate::Options::sensitive_fields)).
    pub sensitive_fields: Vec<String>,
    /// The fields read from a frame without decoding it, each
    /// `Message.Field` ([`Options::peeked_fields`](crate::Options::peeked_fields)).
    pub peeked_fields: Vec<String>,
    /// The directory of the internal-record families, relative to [`Facts::dir`].
    pub internal_schemas: Option<String>,
    /// The families of internal records, each a directory of schemas.
    pub families: Vec<Family>,
    /// The cargo features of the generated crate the extras are compiled
    /// behind (`features`: `views`, `json`, `samples`, `entities`).
    pub gates: Gates,
}

/// A group of apis compiled together, behind one cargo feature of the
/// generated crate or always.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ApiGroup {
    /// The group's name, e.g. `core`.
    pub name: String,
    /// The cargo feature that compiles its messages (`#[cfg(feature = …)]`
    /// in the generated code); `None` for always.
    pub feature: Option<String>,
    /// Its apis, by name (the request's name without `Request`).
    pub apis: Vec<String>,
}

/// How the error response of one forwardable api departs from the one its
/// schemas give (`RequestBody::error_response` in the generated dispatch):
/// the key `error_responses.API` of the facts file, each key optional.
///
/// ```json
/// { "top_level_only": false, "echo": false, "message": true,
///   "renamed": { "ThingName": "Thing" }, "distinct": false,
///   "values": { "Owner": "nobody", "CreatedMs": -1 } }
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ErrorResponseFacts {
    /// Only the response's top-level fields are answered: its collections
    /// stay empty (`top_level_only`).
    pub top_level_only: bool,
    /// Every collection of structs that a request collection mirrors is
    /// answered, not only those whose items carry an error code (`echo`).
    pub echo: bool,
    /// Every `ErrorMessage` field holds the error's own message (`message`).
    pub message: bool,
    /// Request fields copied into response fields of another name, request
    /// name to response name (`renamed`).
    pub renamed: BTreeMap<String, String>,
    /// The answered items of the top-level collection are the distinct
    /// values of their one string key, in the order of their UTF-16 code
    /// units (`distinct`).
    pub distinct: bool,
    /// Fixed values of top-level response fields, by field name: a number
    /// or a string, as the JSON text gives it (`values`).
    pub values: BTreeMap<String, String>,
}

/// One family of internal records: a directory of schemas compiled into
/// one module, with a dispatch enum over its record types.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Family {
    /// Its directory under the internal schemas, as the release names it.
    pub dir: String,
    /// The Rust module it compiles into.
    pub module: String,
    /// The dispatch enum over its `metadata` schemas, records framed as
    /// the metadata log frames them, when it has any.
    pub framed: Option<String>,
    /// Whether its records are coordinator keys and values.
    pub coordinator: bool,
    /// What the family holds, one sentence.
    pub about: String,
    /// One sentence per schema, by message name: the leading comment of
    /// each schema file (schemas of a family have no `about` of their own).
    pub records: BTreeMap<String, String>,
}

impl Facts {
    /// Reads the facts file at `path`.
    ///
    /// # Errors
    /// [`Error::Io`] when it cannot be read; [`Error::Facts`] naming the key
    /// that is missing or of the wrong type.
    pub fn read(path: impl AsRef<Path>) -> Result<Facts, Error> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io { path: path.to_owned(), source })?;
        let mut facts = Facts::parse(&text).map_err(|message| Error::Facts { path: path.to_owned(), message })?;
        facts.dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Ok(facts)
    }

    /// Reads facts from JSON text (paths then relative to the current directory).
    ///
    /// # Errors
    /// What is wrong, and where, as text.
    pub fn parse(text: &str) -> Result<Facts, String> {
        let json = crate::load::parse(text).map_err(|e| e.to_string())?;
        let root = json.as_object().ok_or("the facts are not a JSON object")?;
        let mut facts = Facts { release: string(root.get("release"), "release")?, ..Facts::default() };
        if let Some(releases) = root.get("releases") {
            let releases = releases.as_object().ok_or("releases: not an object")?;
            for (name, list) in releases {
                facts.releases.insert(name.clone(), strings(Some(list), &format!("releases.{name}"))?);
            }
        }
        facts.schemas = optional_string(root.get("schemas"), "schemas")?;
        if let Some(groups) = root.get("api_groups") {
            let groups = groups.as_object().ok_or("api_groups: not an object")?;
            for (name, group) in groups {
                let at = format!("api_groups.{name}");
                facts.api_groups.push(ApiGroup {
                    name: name.clone(),
                    feature: optional_string(group.get("feature"), &format!("{at}.feature"))?,
                    apis: strings(group.get("apis"), &format!("{at}.apis"))?,
                });
            }
        }
        if let Some(features) = root.get("features") {
            facts.gates = Gates {
                views: optional_string(features.get("views"), "features.views")?,
                json: optional_string(features.get("json"), "features.json")?,
                samples: optional_string(features.get("samples"), "features.samples")?,
                entities: optional_string(features.get("entities"), "features.entities")?,
            };
        }
        facts.forwardable = strings_or_none(root.get("forwardable"), "forwardable")?;
        if let Some(answers) = root.get("error_responses") {
            let answers = answers.as_object().ok_or("error_responses: not an object")?;
            for (api, answer) in answers {
                facts.error_responses.insert(api.clone(), error_response(answer, &format!("error_responses.{api}"))?);
            }
        }
        facts.cluster_action = strings_or_none(root.get("cluster_action"), "cluster_action")?;
        facts.sensitive_fields = strings_or_none(root.get("sensitive_fields"), "sensitive_fields")?;
        facts.peeked_fields = strings_or_none(root.get("peeked_fields"), "peeked_fields")?;
        if let Some(internal) = root.get("internal_records") {
            facts.internal_schemas = optional_string(internal.get("schemas"), "internal_records.schemas")?;
            let families = match internal.get("families") {
                Some(Value::Array(items)) => items.as_slice(),
                None => &[],
                Some(_) => return Err("internal_records.families: not an array".into()),
            };
            for (i, family) in families.iter().enumerate() {
                let at = format!("internal_records.families[{i}]");
                let mut records = BTreeMap::new();
                if let Some(list) = family.get("records") {
                    let list = list.as_object().ok_or(format!("{at}.records: not an object"))?;
                    for (name, about) in list {
                        records.insert(name.clone(), string(Some(about), &format!("{at}.records.{name}"))?);
                    }
                }
                facts.families.push(Family {
                    dir: string(family.get("dir"), &format!("{at}.dir"))?,
                    module: string(family.get("module"), &format!("{at}.module"))?,
                    framed: optional_string(family.get("framed"), &format!("{at}.framed"))?,
                    coordinator: match family.get("coordinator") {
                        None => false,
                        Some(v) => v.as_bool().ok_or(format!("{at}.coordinator: not true or false"))?,
                    },
                    about: optional_string(family.get("about"), &format!("{at}.about"))?.unwrap_or_default(),
                    records,
                });
            }
        }
        Ok(facts)
    }

    /// The directory of the message schemas, when the facts name one.
    pub fn schemas_dir(&self) -> Option<PathBuf> {
        self.schemas.as_ref().map(|s| self.dir.join(s))
    }

    /// The directory of the internal-record families, when the facts name one.
    pub fn internal_schemas_dir(&self) -> Option<PathBuf> {
        self.internal_schemas.as_ref().map(|s| self.dir.join(s))
    }

    /// The list of releases named `name` (`None` when the facts have no such list).
    pub fn release_list(&self, name: &str) -> Option<&[String]> {
        self.releases.get(name).map(Vec::as_slice)
    }
}

fn error_response(value: &Value, at: &str) -> Result<ErrorResponseFacts, String> {
    let object = value.as_object().ok_or(format!("{at}: not an object"))?;
    let flag = |key: &str| match object.get(key) {
        None => Ok(false),
        Some(v) => v.as_bool().ok_or(format!("{at}.{key}: not true or false")),
    };
    let map = |key: &str| -> Result<BTreeMap<String, String>, String> {
        let Some(entries) = object.get(key) else { return Ok(BTreeMap::new()) };
        let entries = entries.as_object().ok_or(format!("{at}.{key}: not an object"))?;
        entries
            .iter()
            .map(|(name, v)| match v {
                Value::String(s) => Ok((name.clone(), s.clone())),
                Value::Number(n) => Ok((name.clone(), n.to_string())),
                _ => Err(format!("{at}.{key}.{name}: not a string or number")),
            })
            .collect()
    };
    if let Some(key) = object.keys().find(|k| !ERROR_RESPONSE_KEYS.contains(&k.as_str())) {
        return Err(format!("{at}.{key}: not one of {}", ERROR_RESPONSE_KEYS.join(", ")));
    }
    Ok(ErrorResponseFacts {
        top_level_only: flag("top_level_only")?,
        echo: flag("echo")?,
        message: flag("message")?,
        renamed: map("renamed")?,
        distinct: flag("distinct")?,
        values: map("values")?,
    })
}

/// The keys of one api's `error_responses` entry.
const ERROR_RESPONSE_KEYS: [&str; 6] = ["top_level_only", "echo", "message", "renamed", "distinct", "values"];

fn string(value: Option<&Value>, at: &str) -> Result<String, String> {
    match value {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(format!("{at}: not a string")),
        None => Err(format!("{at}: missing")),
    }
}

fn optional_string(value: Option<&Value>, at: &str) -> Result<Option<String>, String> {
    match value {
        None | Some(Value::Null) => Ok(None),
        value => string(value, at).map(Some),
    }
}

fn strings(value: Option<&Value>, at: &str) -> Result<Vec<String>, String> {
    match value {
        Some(Value::Array(items)) => {
            items.iter().enumerate().map(|(i, v)| string(Some(v), &format!("{at}[{i}]"))).collect()
        }
        Some(_) => Err(format!("{at}: not an array")),
        None => Err(format!("{at}: missing")),
    }
}

fn strings_or_none(value: Option<&Value>, at: &str) -> Result<Vec<String>, String> {
    match value {
        None => Ok(Vec::new()),
        value => strings(value, at),
    }
}
