//! What a run emits besides each struct and its codec: [`Options`], and
//! the cargo features the extras are compiled behind ([`Gates`]).

use crate::facts::ApiGroup;
use crate::model::{MessageSpec, SpecType};

/// One api key of `--api-keys`, spaces around it allowed ("0, 18").
#[cfg(feature = "cli")]
fn api_key_arg(text: &str) -> Result<i16, String> {
    text.trim().parse().map_err(|_| format!("{text:?} is not an api key (0 to 32767)"))
}

/// What [`generate_with`](crate::generate_with) emits besides each struct and its codec.
///
/// # Example
/// ```
/// let options = kwire_codegen::Options { views: true, ..Default::default() };
/// assert!(!options.samples);
/// ```
///
/// The Builder's setters, the command line's flags and [`generate_with`](crate::generate_with)
/// all set this one type. With the feature `cli` it is also a
/// `clap::Args`, so that another tool's command line can take the
/// compiler's options (`--samples`, `--views`, `--json`, `--entities`, `--api-keys`,
/// `--sensitive-fields`; the rest come from [`Facts`](crate::Facts)) by flattening it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct Options {
    /// `Sample` impls: random values shaped to a version, for property
    /// tests (needs the runtime's `sample` feature).
    #[cfg_attr(feature = "cli", arg(long))]
    pub samples: bool,
    /// Borrowed views: beside each struct `X`, a `XRef<'a>` that decodes
    /// from a `&'a [u8]` with strings, bytes and arrays of fixed-width
    /// values borrowing it, and turns into `X` with `IntoOwned`.
    #[cfg_attr(feature = "cli", arg(long))]
    pub views: bool,
    /// Kafka's JSON form: `ToJson` and `FromJson` impls for each struct,
    /// and `to_json`/`from_json` on the dispatch enums, as Kafka's
    /// generated JSON converters write and read it (needs the runtime's
    /// `json` feature).
    #[cfg_attr(feature = "cli", arg(long))]
    pub json: bool,
    /// Entity accessors: `Entities` impls (`visit_entities`,
    /// `rewrite_entities`) for each request and response and each struct
    /// holding a field with an `entityType` (topic names, broker ids, group
    /// ids, transactional ids, producer ids), and on the dispatch enums
    /// (needs the runtime's `entities` feature).
    #[cfg_attr(feature = "cli", arg(long))]
    pub entities: bool,
    /// The api keys whose request and response are compiled; `None` (the
    /// default) for all. Every schema is still read and checked, and the
    /// api-key table (`ApiKey`, `API_INFO`) still lists every api key, so
    /// that frames of any api key can be framed and routed; the dispatch
    /// enums hold the compiled ones, and decoding the body of an api key in
    /// the table but not compiled fails with the runtime's
    /// `DecodeErrorKind::ApiKeyNotCompiled`. Schemas that are neither
    /// requests nor responses (headers, records, embedded data) are always
    /// compiled.
    #[cfg_attr(feature = "cli", arg(long, value_delimiter = ',', value_name = "K,K...", value_parser = api_key_arg))]
    pub api_keys: Option<Vec<i16>>,
    /// The fields that carry secrets, as `Message.Field` (Kafka's names;
    /// every field of that name in the message's structs); none by default
    /// ([`Facts::sensitive_fields`](crate::Facts::sensitive_fields) lists a message set's).
    /// The generated `Debug` shows such a field as `<redacted N bytes>`
    /// (`None` when null), and the JSON form writes it the same way unless
    /// the runtime's `JsonOptions::unredacted` asks otherwise. Only string
    /// and bytes fields can be sensitive. An entry naming a message that is
    /// not among the inputs is skipped (a message set's list names them
    /// all); one naming a field the message lacks, or a field of another type,
    /// fails the run with [`Error::SensitiveFields`](crate::Error::SensitiveFields).
    #[cfg_attr(feature = "cli", arg(long, value_delimiter = ',', value_name = "M.F,M.F..."))]
    pub sensitive_fields: Vec<String>,
    /// The fields that get a `peek_<field>(body, version)` function on
    /// their message, as `Message.Field` (Kafka's names): a fixed-width,
    /// top-level field read from an encoded body by stepping over the
    /// fields before it, without decoding. None by
    /// default ([`Facts::peeked_fields`](crate::Facts::peeked_fields)); an entry naming a message not
    /// among the inputs is skipped, one that cannot be peeked fails the run
    /// with [`Error::PeekedFields`](crate::Error::PeekedFields).
    #[cfg_attr(feature = "cli", arg(skip))]
    pub peeked_fields: Vec<String>,
    /// The apis a broker forwards to the controller inside an Envelope
    /// (KIP-590), by api name (the request's name without `Request`):
    /// `ApiInfo::forwardable` in the api-key table, and each implies
    /// `requires_delayed_allocation`. None by default ([`Facts::forwardable`](crate::Facts::forwardable)).
    #[cfg_attr(feature = "cli", arg(skip))]
    pub forwardable: Vec<String>,
    /// Where the error response of a forwardable api departs from the one
    /// its schemas give, by api name: the generated
    /// `RequestBody::error_response` answers every forwardable api by its
    /// schemas and these. None by default
    /// ([`Facts::error_responses`](crate::Facts::error_responses)); an
    /// entry naming a field its messages lack fails the run with
    /// [`Error::ErrorResponses`](crate::Error::ErrorResponses).
    #[cfg_attr(feature = "cli", arg(skip))]
    pub error_responses: std::collections::BTreeMap<String, crate::ErrorResponseFacts>,
    /// The apis authorized by cluster action, sent only between brokers and
    /// controllers, by api name: `ApiInfo::cluster_action` in the api-key
    /// table. None by default ([`Facts::cluster_action`](crate::Facts::cluster_action)).
    #[cfg_attr(feature = "cli", arg(skip))]
    pub cluster_action: Vec<String>,
    /// The api groups whose messages are compiled behind a cargo feature
    /// (`#[cfg(feature = …)]` on their modules, dispatch variants and arms,
    /// `ApiInfo::compiled` as `cfg!(feature = …)`), so that one output
    /// serves every feature set; groups without a feature are always
    /// compiled. An api these schemas lack is passed over ([`regenerate`](crate::regenerate) refuses it).
    #[cfg_attr(feature = "cli", arg(skip))]
    pub api_groups: Vec<ApiGroup>,
    /// The cargo features the extras are compiled behind.
    #[cfg_attr(feature = "cli", arg(skip))]
    pub gates: Gates,
}

/// The cargo feature of the generated crate that each extra is compiled
/// behind: with one set, the extra is emitted (whatever [`Options::views`],
/// [`Options::json`], [`Options::samples`] or [`Options::entities`] say) and each of its items
/// carries `#[cfg(feature = "…")]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Gates {
    /// The feature of the borrowed views.
    pub views: Option<String>,
    /// The feature of Kafka's JSON form.
    pub json: Option<String>,
    /// The feature of the `Sample` impls.
    pub samples: Option<String>,
    /// The feature of the `Entities` impls.
    pub entities: Option<String>,
}

impl Options {
    /// True when `spec` is to be compiled: not a request or response, or
    /// one of the api keys asked for.
    pub(crate) fn compiles(&self, spec: &MessageSpec) -> bool {
        match (&self.api_keys, spec.spec_type, spec.api_key) {
            (Some(keys), SpecType::Request | SpecType::Response, Some(key)) => keys.contains(&key),
            _ => true,
        }
    }
}
