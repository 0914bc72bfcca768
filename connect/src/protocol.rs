//! The Kafka Connect worker group protocol: the bytes Connect workers put in
//! JoinGroup metadata and SyncGroup assignments (KIP-415 incremental
//! cooperative rebalancing; KIP-507 adds the `sessioned` protocol).
//!
//! Every blob is classic (non-flexible) encoding: an `int16` protocol
//! version header, then a body whose layout is the header version clipped
//! to 1:
//!
//! ```text
//! blob := version: int16 | body at min(version, 1)
//! ```
//!
//! | protocol ([`ConnectProtocol`]) | JoinGroup name | header version | body layout |
//! |---|---|---:|---:|
//! | [`ConnectProtocol::Eager`] | `default` | 0 | 0 |
//! | [`ConnectProtocol::Compatible`] | `compatible` | 1 | 1 |
//! | [`ConnectProtocol::Sessioned`] | `sessioned` | 2 | 1 |
//!
//! Readers accept any version ≥ 0 and read the version-1 layout above 1.
//! The body layouts are the schemas `ConnectWorkerMetadata.json` and
//! `ConnectAssignment.json` of this crate (data schemas, versions 0-1), so
//! the bodies are [`ConnectWorkerMetadata`] and [`ConnectAssignment`]. The
//! worker metadata's `allocation` (version 1) holds the worker's current
//! assignment as a complete assignment blob; [`decode_allocation`] reads it.
//!
//! ```
//! use kwire_connect::protocol::{decode_worker_metadata, worker_metadata_to_bytes, ConnectProtocol};
//! use kwire_connect::messages::ConnectWorkerMetadata;
//!
//! let metadata = ConnectWorkerMetadata { url: "http://w1:8083/".into(), config_offset: 12, ..Default::default() };
//! let blob = worker_metadata_to_bytes(ConnectProtocol::Sessioned.version(), &metadata)?;
//! assert_eq!(&blob[..2], [0, 2]); // the header: version 2
//! let decoded = decode_worker_metadata(blob)?;
//! assert_eq!((decoded.version, decoded.body), (2, metadata));
//! # Ok::<(), kwire_connect::protocol::ConnectProtocolError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use bytes::{BufMut, Bytes, BytesMut};

use kwire::error::{DecodeError, EncodeError};
use kwire::message::Message;
use kwire::primitives::Reader;

use crate::messages::{ConnectAssignment, ConnectWorkerMetadata};

/// A Connect worker group protocol, as offered in JoinGroup
/// (`ProtocolType` `connect`), most preferred last in declaration order.
///
/// Source: KIP-415 (`compatible`), KIP-507 (`sessioned`).
///
/// Non-exhaustive: Kafka releases have added protocols (those two), so a
/// `match` needs a `_` arm.
///
/// ```
/// use kwire_connect::protocol::ConnectProtocol;
///
/// assert_eq!(ConnectProtocol::Eager.name(), "default");
/// assert_eq!("sessioned".parse::<ConnectProtocol>(), Ok(ConnectProtocol::Sessioned));
/// assert_eq!(ConnectProtocol::Compatible.version(), 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ConnectProtocol {
    /// `default`: eager rebalancing, header version 0, body layout 0.
    Eager,
    /// `compatible`: incremental cooperative rebalancing (KIP-415), header
    /// version 1, body layout 1.
    Compatible,
    /// `sessioned`: as `compatible`, with signed internal requests
    /// (KIP-507); header version 2, body layout 1. Offered only when
    /// request verification is enabled.
    Sessioned,
}

impl ConnectProtocol {
    /// Every protocol, most preferred first: `sessioned`, `compatible`,
    /// `default`.
    pub const PREFERENCE: [ConnectProtocol; 3] =
        [ConnectProtocol::Sessioned, ConnectProtocol::Compatible, ConnectProtocol::Eager];

    /// The protocol's name in JoinGroup: `default`, `compatible` or
    /// `sessioned`.
    ///
    /// ```
    /// use kwire_connect::protocol::ConnectProtocol;
    /// assert_eq!(ConnectProtocol::Compatible.name(), "compatible");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            ConnectProtocol::Eager => "default",
            ConnectProtocol::Compatible => "compatible",
            ConnectProtocol::Sessioned => "sessioned",
        }
    }

    /// The protocol named `name` (exact, lower case), if any.
    ///
    /// ```
    /// use kwire_connect::protocol::ConnectProtocol;
    /// assert_eq!(ConnectProtocol::from_name("default"), Some(ConnectProtocol::Eager));
    /// assert_eq!(ConnectProtocol::from_name("eager"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Self> {
        Self::PREFERENCE.into_iter().find(|p| p.name() == name)
    }

    /// The version its blobs carry in their `int16` header: 0, 1 or 2.
    ///
    /// ```
    /// use kwire_connect::protocol::ConnectProtocol;
    /// assert_eq!(ConnectProtocol::Sessioned.version(), 2);
    /// ```
    pub const fn version(self) -> i16 {
        match self {
            ConnectProtocol::Eager => 0,
            ConnectProtocol::Compatible => 1,
            ConnectProtocol::Sessioned => 2,
        }
    }

    /// The protocol whose header version is `version`, for 0, 1 and 2.
    ///
    /// ```
    /// use kwire_connect::protocol::ConnectProtocol;
    /// assert_eq!(ConnectProtocol::from_version(1), Some(ConnectProtocol::Compatible));
    /// assert_eq!(ConnectProtocol::from_version(3), None);
    /// ```
    pub const fn from_version(version: i16) -> Option<Self> {
        match version {
            0 => Some(ConnectProtocol::Eager),
            1 => Some(ConnectProtocol::Compatible),
            2 => Some(ConnectProtocol::Sessioned),
            _ => None,
        }
    }
}

impl fmt::Display for ConnectProtocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not `default`, `compatible` or `sessioned`.
///
/// ```
/// use kwire_connect::protocol::{ConnectProtocol, UnknownProtocol};
/// assert_eq!("range".parse::<ConnectProtocol>(), Err(UnknownProtocol("range".into())));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown Connect protocol {0:?}; known: default, compatible, sessioned")]
pub struct UnknownProtocol(pub String);

impl FromStr for ConnectProtocol {
    type Err = UnknownProtocol;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::from_name(s).ok_or_else(|| UnknownProtocol(s.to_string()))
    }
}

/// The body layout (schema version) of a blob whose header says
/// `version`: `min(version, 1)`, or `None` for a negative version.
///
/// ```
/// use kwire_connect::protocol::body_version;
/// assert_eq!([0, 1, 2, 7].map(body_version), [Some(0), Some(1), Some(1), Some(1)]);
/// assert_eq!(body_version(-1), None);
/// ```
pub const fn body_version(version: i16) -> Option<i16> {
    if version < 0 {
        None
    } else if version > 1 {
        Some(1)
    } else {
        Some(version)
    }
}

/// The highest header version whose layout this crate knows in full (2,
/// `sessioned`). Blobs of higher versions may carry fields appended after
/// the version-1 body; decoding ignores those bytes.
pub const HIGHEST_KNOWN_VERSION: i16 = 2;

/// A decoded blob: the version from its header and the body read at
/// [`body_version`] of it.
///
/// ```
/// use kwire_connect::protocol::{decode_assignment, Versioned};
/// let blob = kwire::Bytes::from_static(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
/// let Versioned { version, body } = decode_assignment(blob)?;
/// assert_eq!((version, body.assignment), (0, Some(vec![])));
/// # Ok::<(), kwire_connect::protocol::ConnectProtocolError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Versioned<T> {
    /// The header version (≥ 0), e.g. 2 for `sessioned`.
    pub version: i16,
    /// The body.
    pub body: T,
}

/// Why a Connect blob could not be encoded or decoded. `what` names the
/// blob: `"worker metadata"`, `"assignment"` or `"allocation"` (the
/// assignment inside worker metadata).
///
/// ```
/// use kwire_connect::protocol::{decode_assignment, ConnectProtocolError};
/// let err = decode_assignment(kwire::Bytes::from_static(&[0xff, 0xfe])).unwrap_err();
/// assert_eq!(err, ConnectProtocolError::NegativeVersion { what: "assignment", version: -2 });
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConnectProtocolError {
    /// A negative protocol version, in a header read or asked to be written.
    #[error("Connect {what}: protocol version {version} is negative")]
    NegativeVersion {
        /// The blob.
        what: &'static str,
        /// The version.
        version: i16,
    },
    /// The body cannot be written at the layout `version` calls for (for
    /// example a null assignment, or a non-zero delay, at version 0).
    #[error("Connect {what} version {version}: {source}")]
    Encode {
        /// The blob.
        what: &'static str,
        /// The header version asked for.
        version: i16,
        /// What the encoder reported.
        #[source]
        source: EncodeError,
    },
    /// Malformed bytes: a short header (`version` is `None`), a malformed
    /// body, or bytes left over after a body of a known version
    /// ([`DecodeErrorKind::TrailingBytes`](kwire::error::DecodeErrorKind::TrailingBytes)).
    #[error("Connect {what}{}: {source}", version.map(|v| format!(" version {v}")).unwrap_or_default())]
    Decode {
        /// The blob.
        what: &'static str,
        /// The header version, when the header was read.
        version: Option<i16>,
        /// What the decoder reported; its offset counts from the start of the blob.
        #[source]
        source: DecodeError,
    },
}

const METADATA: &str = "worker metadata";
const ASSIGNMENT: &str = "assignment";
const ALLOCATION: &str = "allocation";

fn encode_blob<M: Message>(what: &'static str, version: i16, body: &M) -> Result<Bytes, ConnectProtocolError> {
    let layout = body_version(version).ok_or(ConnectProtocolError::NegativeVersion { what, version })?;
    let mut buf = BytesMut::with_capacity(2 + body.encoded_size(layout));
    buf.put_i16(version);
    body.encode(&mut buf, layout).map_err(|source| ConnectProtocolError::Encode { what, version, source })?;
    Ok(buf.freeze())
}

fn decode_blob<M: Message>(what: &'static str, blob: Bytes) -> Result<Versioned<M>, ConnectProtocolError> {
    let mut r = Reader::new(blob);
    let version = r.read_i16().map_err(|source| ConnectProtocolError::Decode { what, version: None, source })?;
    let layout = body_version(version).ok_or(ConnectProtocolError::NegativeVersion { what, version })?;
    let decode_error = |source| ConnectProtocolError::Decode { what, version: Some(version), source };
    let body = M::decode_from(&mut r, layout).map_err(decode_error)?;
    if version <= HIGHEST_KNOWN_VERSION {
        r.finish().map_err(decode_error)?;
    }
    Ok(Versioned { version, body })
}

/// Worker metadata (JoinGroup member metadata) as a new `Bytes`: `version` as the
/// `int16` header, then `metadata` at layout `min(version, 1)`.
///
/// Layout 0: `url: string`, `config-offset: int64`. Layout 1 adds
/// `allocation: nullable bytes`.
///
/// # Errors
/// [`ConnectProtocolError::NegativeVersion`] for `version < 0`;
/// [`ConnectProtocolError::Encode`] when `metadata` holds what layout 0
/// cannot carry (an allocation) or a string over 32767 bytes.
///
/// ```
/// use kwire_connect::protocol::worker_metadata_to_bytes;
/// use kwire_connect::messages::ConnectWorkerMetadata;
/// let metadata = ConnectWorkerMetadata { url: "u".into(), config_offset: 1, allocation: None };
/// let blob = worker_metadata_to_bytes(1, &metadata)?;
/// assert_eq!(&blob[..], [0, 1, 0, 1, b'u', 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff]);
/// # Ok::<(), kwire_connect::protocol::ConnectProtocolError>(())
/// ```
pub fn worker_metadata_to_bytes(version: i16, metadata: &ConnectWorkerMetadata) -> Result<Bytes, ConnectProtocolError> {
    encode_blob(METADATA, version, metadata)
}

/// Decodes worker metadata: the `int16` header, then the body at layout
/// `min(version, 1)`. The allocation stays raw; see [`decode_allocation`].
///
/// # Errors
/// [`ConnectProtocolError::NegativeVersion`] for a negative header;
/// [`ConnectProtocolError::Decode`] for a short or malformed blob, or bytes
/// left over at a version ≤ [`HIGHEST_KNOWN_VERSION`] (above it they are
/// ignored, as fields a newer worker appended).
///
/// ```
/// use kwire_connect::protocol::decode_worker_metadata;
/// let blob = kwire::Bytes::from_static(&[0, 0, 0, 1, b'u', 0, 0, 0, 0, 0, 0, 0, 9]);
/// let decoded = decode_worker_metadata(blob)?;
/// assert_eq!((decoded.version, &*decoded.body.url, decoded.body.config_offset), (0, "u", 9));
/// # Ok::<(), kwire_connect::protocol::ConnectProtocolError>(())
/// ```
pub fn decode_worker_metadata(blob: Bytes) -> Result<Versioned<ConnectWorkerMetadata>, ConnectProtocolError> {
    decode_blob(METADATA, blob)
}

/// An assignment (SyncGroup member assignment) as a new `Bytes`: `version` as the
/// `int16` header, then `assignment` at layout `min(version, 1)`.
///
/// Layout 0: `error: int16`, `leader: string`, `leader-url: string`,
/// `config-offset: int64`, `assignment: [connector, tasks: [int32]]`.
/// Layout 1 makes `assignment` nullable and adds `revoked` (nullable, same
/// shape) and `delay: int32` (milliseconds).
///
/// # Errors
/// [`ConnectProtocolError::NegativeVersion`] for `version < 0`;
/// [`ConnectProtocolError::Encode`] when `assignment` holds what layout 0
/// cannot carry (null assignment, revocations, a delay) or a string over
/// 32767 bytes.
///
/// ```
/// use kwire_connect::protocol::assignment_to_bytes;
/// use kwire_connect::messages::ConnectAssignment;
/// let blob = assignment_to_bytes(2, &ConnectAssignment { assignment: None, revoked: None, ..Default::default() })?;
/// assert_eq!(blob.len(), 2 + 2 + 2 + 2 + 8 + 4 + 4 + 4);
/// # Ok::<(), kwire_connect::protocol::ConnectProtocolError>(())
/// ```
pub fn assignment_to_bytes(version: i16, assignment: &ConnectAssignment) -> Result<Bytes, ConnectProtocolError> {
    encode_blob(ASSIGNMENT, version, assignment)
}

/// Decodes an assignment: the `int16` header, then the body at layout
/// `min(version, 1)`.
///
/// # Errors
/// As [`decode_worker_metadata`].
///
/// ```
/// use kwire_connect::protocol::decode_assignment;
/// // Version 3, read with the version-1 layout; the trailing 0xaa is a field from the future.
/// let blob = kwire::Bytes::from_static(&[
///     0, 3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 5, 0xaa,
/// ]);
/// let decoded = decode_assignment(blob)?;
/// assert_eq!((decoded.version, decoded.body.error, decoded.body.delay), (3, 1, 5));
/// # Ok::<(), kwire_connect::protocol::ConnectProtocolError>(())
/// ```
pub fn decode_assignment(blob: Bytes) -> Result<Versioned<ConnectAssignment>, ConnectProtocolError> {
    decode_blob(ASSIGNMENT, blob)
}

/// Decodes the worker's current assignment held in `metadata.allocation`
/// (an assignment blob of its own, header and body); `None` when the
/// allocation is null.
///
/// # Errors
/// As [`decode_assignment`], with `what` = `"allocation"`.
///
/// ```
/// use kwire_connect::protocol::{decode_allocation, assignment_to_bytes};
/// use kwire_connect::messages::{ConnectAssignment, ConnectWorkerMetadata};
/// let current = ConnectAssignment { leader: "w1".into(), ..Default::default() };
/// let metadata = ConnectWorkerMetadata { allocation: Some(assignment_to_bytes(1, &current)?), ..Default::default() };
/// assert_eq!(decode_allocation(&metadata)?.map(|a| a.body), Some(current));
/// assert_eq!(decode_allocation(&ConnectWorkerMetadata::default())?, None);
/// # Ok::<(), kwire_connect::protocol::ConnectProtocolError>(())
/// ```
pub fn decode_allocation(
    metadata: &ConnectWorkerMetadata,
) -> Result<Option<Versioned<ConnectAssignment>>, ConnectProtocolError> {
    metadata.allocation.as_ref().map(|blob| decode_blob(ALLOCATION, blob.clone())).transpose()
}

/// Chooses the group's protocol from the names each member offers: the
/// most preferred protocol (`sessioned` > `compatible` > `default`) that
/// every member offers. `sessioned` is eligible only when
/// `verification_enabled` (internal request verification, KIP-507). Names
/// that are not Connect protocols are ignored.
///
/// Returns `None` when there are no members or they have no eligible
/// protocol in common.
///
/// ```
/// use kwire_connect::protocol::{choose_protocol, ConnectProtocol};
/// let members = [vec!["sessioned", "compatible", "default"], vec!["compatible", "default"]];
/// assert_eq!(choose_protocol(&members, true), Some(ConnectProtocol::Compatible));
/// assert_eq!(choose_protocol(&[vec!["sessioned", "compatible"]], false), Some(ConnectProtocol::Compatible));
/// ```
pub fn choose_protocol<M, N, S>(members: M, verification_enabled: bool) -> Option<ConnectProtocol>
where
    M: IntoIterator<Item = N>,
    N: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut common: Vec<ConnectProtocol> = ConnectProtocol::PREFERENCE
        .into_iter()
        .filter(|p| verification_enabled || *p != ConnectProtocol::Sessioned)
        .collect();
    let mut any_member = false;
    for offered in members {
        any_member = true;
        let offered: Vec<ConnectProtocol> =
            offered.into_iter().filter_map(|name| ConnectProtocol::from_name(name.as_ref())).collect();
        common.retain(|p| offered.contains(p));
    }
    if any_member {
        common.first().copied()
    } else {
        None
    }
}
