//! The traits every generated message implements.

use std::fmt;

use bytes::{Bytes, BytesMut};

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::primitives::writer::all_or_nothing;
use crate::primitives::{Decode, Encode, Input, IntoOwned, Reader, Writer};

/// The shortest `bytes` or `records` value, in bytes (512), that
/// [`Message::encode_vectored`] hands out as a chunk sharing the message's
/// memory instead of copying it.
pub use crate::primitives::writer::SHARE_MIN;

/// An inclusive range of versions; empty when `min > max`.
///
/// # Example
/// ```
/// use kwire::message::VersionRange;
/// let r = VersionRange::new(2, 5);
/// assert!(r.contains(2) && r.contains(5) && !r.contains(6));
/// assert!(VersionRange::NONE.is_empty());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VersionRange {
    /// Lowest version.
    pub min: i16,
    /// Highest version.
    pub max: i16,
}

impl VersionRange {
    /// The empty range.
    ///
    /// ```
    /// use kwire::message::VersionRange;
    /// assert!(VersionRange::NONE.is_empty() && !VersionRange::NONE.contains(0));
    /// ```
    pub const NONE: VersionRange = VersionRange { min: 0, max: -1 };

    /// The versions `min..=max`.
    ///
    /// ```
    /// use kwire::message::VersionRange;
    /// assert_eq!(VersionRange::new(0, 7).to_string(), "0-7");
    /// assert_eq!(VersionRange::new(5, i16::MAX).to_string(), "5+");
    /// ```
    pub const fn new(min: i16, max: i16) -> Self {
        Self { min, max }
    }

    /// True when `version` is in the range.
    ///
    /// ```
    /// use kwire::message::VersionRange;
    /// let flexible = VersionRange::new(9, i16::MAX);
    /// assert!(flexible.contains(9) && flexible.contains(100) && !flexible.contains(8));
    /// ```
    pub const fn contains(&self, version: i16) -> bool {
        self.min <= version && version <= self.max
    }

    /// True when the range holds no version.
    ///
    /// ```
    /// use kwire::message::VersionRange;
    /// assert!(VersionRange::new(3, 2).is_empty() && !VersionRange::new(3, 3).is_empty());
    /// ```
    pub const fn is_empty(&self) -> bool {
        self.min > self.max
    }

    /// The versions in both ranges; [`VersionRange::NONE`] when they do
    /// not overlap (or either is empty), so that empty ranges compare equal.
    ///
    /// ```
    /// use kwire::message::VersionRange;
    /// let ours = VersionRange::new(0, 13);
    /// assert_eq!(ours.intersect(VersionRange::new(3, 11)), VersionRange::new(3, 11));
    /// assert_eq!(ours.intersect(VersionRange::new(9, i16::MAX)), VersionRange::new(9, 13));
    /// assert_eq!(ours.intersect(VersionRange::new(14, 20)), VersionRange::NONE);
    /// assert_eq!(VersionRange::NONE.intersect(ours), VersionRange::NONE);
    /// ```
    #[must_use]
    pub const fn intersect(self, other: VersionRange) -> VersionRange {
        let min = if self.min > other.min { self.min } else { other.min };
        let max = if self.max < other.max { self.max } else { other.max };
        if min > max {
            VersionRange::NONE
        } else {
            VersionRange { min, max }
        }
    }
}

impl fmt::Display for VersionRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.is_empty(), self.min == self.max, self.max == i16::MAX) {
            (true, _, _) => f.write_str("none"),
            (_, true, _) => write!(f, "{}", self.min),
            (_, _, true) => write!(f, "{}+", self.min),
            _ => write!(f, "{}-{}", self.min, self.max),
        }
    }
}

/// A top-level message of a schema: a request, response, header or data
/// record. Encoding and decoding check the version against
/// [`Message::VERSIONS`] and name the message in every error.
///
/// # Example
/// ```
/// use kwire::message::Message;
/// use kwire::messages::ResponseHeader;
/// let header = ResponseHeader { correlation_id: 7, ..Default::default() };
/// let mut buf = bytes::BytesMut::new();
/// header.encode(&mut buf, 1).unwrap();
/// assert_eq!(&buf[..], [0, 0, 0, 7, 0]);
/// let mut bytes = buf.freeze();
/// assert_eq!(ResponseHeader::decode(&mut bytes, 1).unwrap(), header);
/// ```
pub trait Message: Encode + Decode + Default + Clone + fmt::Debug + PartialEq {
    /// The schema's message name, e.g. `"CreateTopicsRequest"`.
    const NAME: &'static str;
    /// The versions this message has (the schema's `validVersions`).
    const VERSIONS: VersionRange;
    /// The versions that use compact encodings and tagged fields (the
    /// schema's `flexibleVersions`, within [`Message::VERSIONS`]).
    const FLEXIBLE_VERSIONS: VersionRange;

    /// Appends the message encoded at `version`.
    ///
    /// # Errors
    /// [`EncodeErrorKind::UnsupportedVersion`] outside [`Message::VERSIONS`];
    /// a non-default value in a non-ignorable field that `version` lacks;
    /// null where `version` does not allow it; a string over 32767 bytes.
    /// After an error `buf` holds what it held before.
    fn encode(&self, buf: &mut BytesMut, version: i16) -> Result<(), EncodeError> {
        all_or_nothing(buf, |buf| self.encode_to(&mut Writer::new(buf), version))
    }

    /// Writes the message encoded at `version` to a [`Writer`]: as
    /// [`Message::encode`], or vectored ([`Writer::vectored`]).
    ///
    /// # Errors
    /// As [`Message::encode`], except that what was written before the
    /// error stays in the writer (wrap the call in
    /// [`all_or_nothing`] to take it back).
    // Never inlined: a message's whole encoding is inlined here, and the
    // body enums' dispatch would otherwise have each one optimized again.
    #[inline(never)]
    fn encode_to(&self, w: &mut Writer<'_>, version: i16) -> Result<(), EncodeError> {
        if !Self::VERSIONS.contains(version) {
            return Err(EncodeError::new(EncodeErrorKind::UnsupportedVersion(version)).in_message(Self::NAME, version));
        }
        // `match` rather than `map_err`: fewer functions to compile for each message.
        match self.encode_value(w, version, false) {
            Ok(()) => Ok(()),
            Err(e) => Err(e.in_message(Self::NAME, version)),
        }
    }

    /// The message encoded at `version` as a list of chunks whose
    /// concatenation is the encoding, without copying large values:
    /// every `bytes` or `records` value of at least
    /// [`SHARE_MIN`] bytes is its own
    /// chunk, sharing memory with the message; the rest is copied into the
    /// chunks between them. For writing a Fetch response or a Produce request
    /// with `write_vectored`, or as a [`bytes::Buf`] chain, without
    /// touching the records.
    ///
    /// # Errors
    /// As [`Message::encode`].
    ///
    /// # Example
    /// ```
    /// use kwire::messages::produce_request::{PartitionProduceData, TopicProduceData};
    /// use kwire::messages::ProduceRequest;
    /// use kwire::message::Message;
    /// use kwire::Bytes;
    /// let records = Bytes::from(vec![0u8; 64 * 1024]);
    /// let request = ProduceRequest {
    ///     acks: -1,
    ///     timeout_ms: 30_000,
    ///     topic_data: vec![TopicProduceData {
    ///         name: "orders".into(),
    ///         partition_data: vec![PartitionProduceData { index: 0, records: Some(records.clone()), ..Default::default() }],
    ///         ..Default::default()
    ///     }],
    ///     ..Default::default()
    /// };
    /// let chunks = request.encode_vectored(9)?;
    /// assert_eq!(chunks.len(), 3); // what precedes the records, the records, the rest
    /// assert_eq!(chunks[1].as_ptr(), records.as_ptr()); // shared, not copied
    /// assert_eq!(chunks.concat(), request.to_bytes(9)?);
    /// # Ok::<(), kwire::error::EncodeError>(())
    /// ```
    fn encode_vectored(&self, version: i16) -> Result<Vec<Bytes>, EncodeError> {
        let (mut buf, mut chunks) = (BytesMut::new(), Vec::new());
        self.encode_to(&mut Writer::vectored(&mut buf, &mut chunks), version)?;
        if !buf.is_empty() {
            chunks.push(buf.freeze());
        }
        Ok(chunks)
    }

    /// Bytes that [`Message::encode`] writes at `version` when it succeeds.
    fn encoded_size(&self, version: i16) -> usize {
        self.value_size(version, false)
    }

    /// The message encoded at `version` as a new buffer.
    ///
    /// # Errors
    /// As [`Message::encode`].
    fn to_bytes(&self, version: i16) -> Result<Bytes, EncodeError> {
        let mut buf = BytesMut::with_capacity(self.encoded_size(version));
        self.encode(&mut buf, version)?;
        Ok(buf.freeze())
    }

    /// Reads a message at `version` from the front of `buf` and advances
    /// it. `bytes` and `records` fields share `buf`'s memory.
    ///
    /// # Errors
    /// [`DecodeErrorKind::UnsupportedVersion`] outside [`Message::VERSIONS`],
    /// or any decode error, with its field path and byte offset.
    fn decode(buf: &mut Bytes, version: i16) -> Result<Self, DecodeError> {
        Reader::lend(buf, |r| Self::decode_from(r, version))
    }

    /// Reads a message at `version` from the front of `buf` into `self`,
    /// reusing the arrays and nested structs `self` already holds (its
    /// strings become slices of `buf`): a broker or client that keeps one
    /// value per api key and decodes into it allocates nothing once the
    /// value has grown to its usual size.
    /// Fields absent at `version` are reset to their defaults, so the result
    /// equals what [`Message::decode`] returns.
    ///
    /// # Errors
    /// As [`Message::decode`]; `buf` is then left as it was, and `self`
    /// holds a valid but unspecified value.
    ///
    /// # Example
    /// ```
    /// use kwire::messages::ApiVersionsRequest;
    /// use kwire::message::Message;
    /// let sent = ApiVersionsRequest { client_software_name: "kw".into(), ..Default::default() };
    /// let mut value = ApiVersionsRequest::default();
    /// for _ in 0..3 {
    ///     let mut buf = sent.to_bytes(3)?;
    ///     value.decode_into(&mut buf, 3)?;
    ///     assert_eq!(value, sent);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn decode_into(&mut self, buf: &mut Bytes, version: i16) -> Result<(), DecodeError> {
        Reader::lend(buf, |r| self.decode_into_from(r, version))
    }

    /// [`Message::decode_into`] from a [`Reader`]: reads a message at
    /// `version` into `self`, reusing what it holds.
    ///
    /// # Errors
    /// As [`Message::decode_into`]; `self` then holds a valid but
    /// unspecified value.
    fn decode_into_from(&mut self, r: &mut Reader, version: i16) -> Result<(), DecodeError> {
        if !Self::VERSIONS.contains(version) {
            return Err(r.error(DecodeErrorKind::UnsupportedVersion(version)).in_message(Self::NAME, version));
        }
        match self.decode_value_into(r, version, false) {
            Ok(()) => Ok(()),
            Err(e) => Err(e.in_message(Self::NAME, version)),
        }
    }

    /// Reads a message at `version` from a [`Reader`].
    ///
    /// # Errors
    /// As [`Message::decode`].
    // Never inlined, as `encode_to`.
    #[inline(never)]
    fn decode_from(r: &mut Reader, version: i16) -> Result<Self, DecodeError> {
        decode_checked(r, version, Self::NAME, Self::VERSIONS)
    }

    /// Reads a message at `version` that must fill `buf` exactly.
    ///
    /// # Errors
    /// As [`Message::decode`], and [`DecodeErrorKind::TrailingBytes`] when
    /// bytes are left over.
    fn decode_exact(buf: Bytes, version: i16) -> Result<Self, DecodeError> {
        let mut r = Reader::new(buf);
        let value = Self::decode_from(&mut r, version)?;
        r.finish().map_err(|e| e.in_message(Self::NAME, version))?;
        Ok(value)
    }
}

/// A borrowed view of a message (feature `borrowed`): the generated
/// `…Ref<'a>` struct of each message, decoded from a `&'a [u8]` without
/// allocating for strings, bytes or arrays of fixed-width values (they
/// borrow the input), and turned into the owned message with
/// [`IntoOwned::into_owned`]. Views are for reading: a proxy that routes by
/// topic name, a broker that checks a request before decoding it in full.
///
/// # Example
/// ```
/// # #[cfg(feature = "borrowed")] {
/// use kwire::message::{Message, MessageView};
/// use kwire::messages::{ApiVersionsRequest, api_versions_request::ApiVersionsRequestRef};
/// use kwire::primitives::IntoOwned;
/// let sent = ApiVersionsRequest { client_software_name: "kw".into(), ..Default::default() };
/// let bytes = sent.to_bytes(3)?;
/// let view = ApiVersionsRequestRef::decode_exact(&bytes, 3)?;
/// assert_eq!(view.client_software_name, "kw"); // a &str into `bytes`
/// assert_eq!(view.into_owned(), sent);
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait MessageView<'a>: Decode<&'a [u8]> + IntoOwned<Owned: Message> {
    /// Reads a view of the message at `version` from the front of `buf`
    /// and advances it past the message.
    ///
    /// # Errors
    /// [`DecodeErrorKind::UnsupportedVersion`] outside the message's
    /// versions, or any decode error, with its field path and byte offset,
    /// as [`Message::decode`] gives for the same bytes; `buf` is then left
    /// as it was.
    fn decode(buf: &mut &'a [u8], version: i16) -> Result<Self, DecodeError> {
        let mut r = Reader::new(*buf);
        let value = Self::decode_from(&mut r, version)?;
        *buf = r.into_remaining();
        Ok(value)
    }

    /// Reads a view of the message at `version` from a [`Reader`] over a `&'a [u8]`.
    ///
    /// # Errors
    /// As [`MessageView::decode`].
    fn decode_from(r: &mut Reader<&'a [u8]>, version: i16) -> Result<Self, DecodeError> {
        decode_checked(r, version, Self::Owned::NAME, Self::Owned::VERSIONS)
    }

    /// Reads a view of the message at `version` that must fill `buf` exactly.
    ///
    /// # Errors
    /// As [`MessageView::decode`], and [`DecodeErrorKind::TrailingBytes`]
    /// when bytes are left over.
    fn decode_exact(buf: &'a [u8], version: i16) -> Result<Self, DecodeError> {
        let mut r = Reader::new(buf);
        let value = Self::decode_from(&mut r, version)?;
        r.finish().map_err(|e| e.in_message(Self::Owned::NAME, version))?;
        Ok(value)
    }
}

/// A message body at `version` from `r`: the version checked against
/// `versions`, and `name` on the path of any error.
#[inline]
fn decode_checked<B: Input, T: Decode<B>>(
    r: &mut Reader<B>,
    version: i16,
    name: &'static str,
    versions: VersionRange,
) -> Result<T, DecodeError> {
    if !versions.contains(version) {
        return Err(r.error(DecodeErrorKind::UnsupportedVersion(version)).in_message(name, version));
    }
    // `Decode::decode_value` written out, and `match` rather than
    // `map_err`: fewer functions to compile for each message.
    let mut value = T::default();
    match value.decode_value_into(r, version, false) {
        Ok(()) => Ok(value),
        Err(e) => Err(e.in_message(name, version)),
    }
}

/// A request or response: a message with an api key.
///
/// # Example
/// ```
/// use kwire::api::api_info;
/// use kwire::message::ApiMessage;
/// use kwire::messages::CreateTopicsResponse;
/// // The api's name, for any request or response type.
/// fn api_name<M: ApiMessage>() -> Option<&'static str> {
///     api_info(M::API_KEY).map(|info| info.name)
/// }
/// assert_eq!(api_name::<CreateTopicsResponse>(), Some("CreateTopics"));
/// ```
pub trait ApiMessage: Message {
    /// The api key, e.g. 19 for CreateTopics.
    const API_KEY: i16;
}

/// A request, paired with the response type that answers it.
///
/// # Example
/// ```
/// use kwire::message::{Message, Request};
/// fn answer_name<R: Request>() -> &'static str {
///     <R::Response as Message>::NAME
/// }
/// assert_eq!(answer_name::<kwire::messages::MetadataRequest>(), "MetadataResponse");
/// ```
pub trait Request: ApiMessage {
    /// The response to this request.
    type Response: ApiMessage;
}
