//! Decode and encode errors. Each error carries a kind and the place where
//! it happened: the message and version, the field path (with array
//! indices and tags), and for decoding the byte offset.
//!
//! Generated code adds one path segment per level on the way out, so a leaf
//! error such as "need 4 bytes, have 1" reads in full as
//! `MetadataResponse v12: topics[3].partitions[0].leader_id: need 4 bytes, have 1 (offset 87)`.
//!
//! # Buffers after an error
//!
//! The encoders that append a whole message, header, frame or batch to a
//! caller's buffer (a `BytesMut`, named `buf` or `dst`) append everything
//! or nothing. When one returns an error, the buffer has the length and
//! the bytes it had before the call: no partial message, size prefix or
//! frame stays behind, so a buffer that already holds other frames can
//! still be sent as it is. Only capacity reserved on the way may remain.
//!
//! This holds for [`Message::encode`], the dispatch enums' `encode`, the
//! [`frame`](crate::frame) encoders, [`RecordBatchBuilder::encode`], the
//! encoders of internal records (feature `internal-records`) and the tokio
//! codecs (feature `tokio`): each truncates the buffer back on error. It does
//! not hold for the building blocks they are made of: a failed
//! [`Encode::encode_value`] may leave part of a value in its writer's buffer.
//!
//! # Values decoded into after an error
//!
//! The decoders that reuse a value the caller keeps ([`Message::decode_into`],
//! the dispatch enums' `decode_into`, [`RequestFrame::decode_into`] and
//! [`ResponseFrame::decode_into`]) may have overwritten part of it when
//! they fail. The value is still valid: it can be dropped, inspected, or
//! decoded into again, and the next successful decode gives the same
//! result as a fresh one. What it holds after the error is unspecified:
//! some fields may come from the failed input, others from what it held
//! before.
//!
//! [`Message::encode`]: crate::message::Message::encode
//! [`RecordBatchBuilder::encode`]: crate::records::RecordBatchBuilder::encode
//! [`Message::decode_into`]: crate::message::Message::decode_into
//! [`RequestFrame::decode_into`]: crate::frame::RequestFrame::decode_into
//! [`ResponseFrame::decode_into`]: crate::frame::ResponseFrame::decode_into
//! [`Encode::encode_value`]: crate::encoding::Encode::encode_value

use std::fmt;

/// One step of a field path.
///
/// # Example
/// ```
/// use kwire::error::{DecodeError, DecodeErrorKind, PathSegment};
/// let err = DecodeError::new(DecodeErrorKind::InvalidUtf8, 9).in_field("name").at_index(2).in_field("topics");
/// assert_eq!(err.path(), [PathSegment::Field("topics"), PathSegment::Index(2), PathSegment::Field("name")]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathSegment {
    /// A field, by its Rust name.
    Field(&'static str),
    /// An array element, by index.
    Index(usize),
    /// An entry of a tagged-field section, by tag.
    Tag(u32),
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Place {
    message: Option<(&'static str, i16)>,
    /// Innermost segment first: segments are pushed on the way out.
    path: Vec<PathSegment>,
}

impl Place {
    fn fmt_prefix(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((name, version)) = self.message {
            write!(f, "{name} v{version}: ")?;
        }
        let mut first = true;
        for seg in self.path.iter().rev() {
            match seg {
                PathSegment::Field(name) => {
                    if !first {
                        f.write_str(".")?;
                    }
                    f.write_str(name)?;
                }
                PathSegment::Index(i) => write!(f, "[{i}]")?,
                PathSegment::Tag(t) => write!(f, "<tag {t}>")?,
            }
            first = false;
        }
        if !self.path.is_empty() {
            f.write_str(": ")?;
        }
        Ok(())
    }
}

/// The methods both error types share: their place (message, version, path).
macro_rules! place_methods {
    () => {
        /// The message name and version, when known.
        ///
        /// ```
        /// use kwire::error::{DecodeError, DecodeErrorKind};
        /// let err = DecodeError::new(DecodeErrorKind::VarintTooLong, 0);
        /// assert_eq!(err.message(), None);
        /// assert_eq!(err.in_message("ProduceRequest", 9).message(), Some(("ProduceRequest", 9)));
        /// ```
        pub fn message(&self) -> Option<(&'static str, i16)> {
            self.0.place.message
        }

        /// The field path, outermost first.
        ///
        /// ```
        /// use kwire::error::{EncodeError, EncodeErrorKind, PathSegment};
        /// let err = EncodeError::new(EncodeErrorKind::NullNotAllowed).in_field("name").at_index(0).in_field("topics");
        /// assert_eq!(err.path(), [PathSegment::Field("topics"), PathSegment::Index(0), PathSegment::Field("name")]);
        /// ```
        pub fn path(&self) -> Vec<PathSegment> {
            self.0.place.path.iter().rev().copied().collect()
        }

        /// Adds an enclosing field to the path.
        ///
        /// ```
        /// use kwire::error::{DecodeError, DecodeErrorKind};
        /// let err = DecodeError::new(DecodeErrorKind::InvalidUtf8, 3).in_field("client_id");
        /// assert_eq!(err.to_string(), "client_id: string is not valid UTF-8 (offset 3)");
        /// ```
        #[cold]
        #[must_use]
        pub fn in_field(mut self, name: &'static str) -> Self {
            self.0.place.path.push(PathSegment::Field(name));
            self
        }

        /// Adds an enclosing array index to the path.
        ///
        /// ```
        /// use kwire::error::{DecodeError, DecodeErrorKind};
        /// let err = DecodeError::new(DecodeErrorKind::InvalidUtf8, 7).in_field("name").at_index(1).in_field("topics");
        /// assert_eq!(err.to_string(), "topics[1].name: string is not valid UTF-8 (offset 7)");
        /// ```
        #[cold]
        #[must_use]
        pub fn at_index(mut self, index: usize) -> Self {
            self.0.place.path.push(PathSegment::Index(index));
            self
        }

        /// Names the message and version; the outermost context wins.
        ///
        /// ```
        /// use kwire::error::{EncodeError, EncodeErrorKind};
        /// let err = EncodeError::new(EncodeErrorKind::TooLong(40_000)).in_message("RequestHeader", 2).in_message("EnvelopeRequest", 0);
        /// assert_eq!(err.to_string(), "RequestHeader v2: length 40000 is too long");
        /// ```
        #[cold]
        #[must_use]
        pub fn in_message(mut self, name: &'static str, version: i16) -> Self {
            if self.0.place.message.is_none() {
                self.0.place.message = Some((name, version));
            }
            self
        }
    };
}

/// What went wrong while decoding.
///
/// # Example
/// ```
/// use kwire::error::DecodeErrorKind;
/// let kind = DecodeErrorKind::NotEnoughBytes { needed: 4, remaining: 1 };
/// assert_eq!(kind.to_string(), "need 4 bytes, have 1");
/// assert_eq!(DecodeErrorKind::ApiKeyNotCompiled(19).to_string(), "api key 19 is not compiled into this build");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The input ended early: `needed` bytes were required, `remaining` were left.
    NotEnoughBytes {
        /// Bytes the value needs.
        needed: usize,
        /// Bytes left in the input.
        remaining: usize,
    },
    /// An unsigned varint longer than 5 bytes (10 for a varlong).
    VarintTooLong,
    /// An array or record count that the remaining bytes cannot hold.
    CountTooLarge {
        /// The count read from the wire.
        count: u64,
        /// Bytes left in the input.
        remaining: usize,
    },
    /// An array of more elements than the reader's
    /// [`ReadLimits::max_array_length`](crate::primitives::ReadLimits::max_array_length)
    /// (Kafka 4.4's `MAX_ARRAY_LENGTH`, 1,000,000, by default).
    ArrayTooLong {
        /// The element count read from the wire.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A tagged-field section of more entries than the reader's
    /// [`ReadLimits::max_tagged_fields`](crate::primitives::ReadLimits::max_tagged_fields)
    /// (Kafka 4.4's `MAX_TAGGED_FIELD_COUNT`, 10,000, by default).
    TooManyTaggedFields {
        /// The entry count read from the wire.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A length prefix that is negative but not the null marker, or larger than allowed.
    InvalidLength(i64),
    /// Null in a field that is not nullable at this version.
    NullNotAllowed,
    /// A string that is not UTF-8, in a borrowed view (owned values read
    /// it lossily, as Kafka does).
    InvalidUtf8,
    /// A known tag appeared at a version where its field is not tagged.
    TagNotValid(u32),
    /// A tag above [`crate::tagged::MAX_TAG`] (2^31 - 2), which Kafka
    /// refuses: it holds tags as signed 32-bit numbers and keeps 2^31 - 1 as
    /// a marker.
    TagTooLarge(u32),
    /// Unknown tags of one tagged-field section not strictly ascending
    /// (known tags may come in any order, as Kafka reads them).
    TagsNotAscending {
        /// The previous tag.
        previous: u32,
        /// The tag that followed it.
        tag: u32,
    },
    /// A known tagged field whose value did not use exactly its declared size.
    TagSizeMismatch {
        /// Size declared on the wire, in bytes.
        declared: usize,
        /// Bytes the value used.
        used: usize,
    },
    /// A version outside the message's valid versions.
    UnsupportedVersion(i16),
    /// An api key that this crate does not know.
    UnknownApiKey(i16),
    /// A record type (the `apiKey` of a metadata or coordinator record
    /// schema) that the record family being read does not have.
    UnknownRecordType(i16),
    /// An api key of the api-key table whose request and response are not
    /// compiled into this build (kwire: enable the `admin` or
    /// `controller` feature; see the crate docs).
    ApiKeyNotCompiled(i16),
    /// Bytes left over after a value that should fill its input.
    TrailingBytes(usize),
    /// A value that decodes but breaks a rule of the protocol.
    Invalid(&'static str),
}

impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotEnoughBytes { needed, remaining } => {
                write!(f, "need {needed} bytes, have {remaining}")
            }
            Self::VarintTooLong => f.write_str("varint is too long"),
            Self::CountTooLarge { count, remaining } => {
                write!(f, "count {count} but {remaining} bytes remain")
            }
            Self::ArrayTooLong { count, max } => write!(f, "array of {count} elements, more than the limit of {max}"),
            Self::TooManyTaggedFields { count, max } => {
                write!(f, "{count} tagged fields, more than the limit of {max}")
            }
            Self::InvalidLength(len) => write!(f, "invalid length {len}"),
            Self::NullNotAllowed => f.write_str("null is not allowed at this version"),
            Self::InvalidUtf8 => f.write_str("string is not valid UTF-8"),
            Self::TagNotValid(tag) => write!(f, "tag {tag} is not valid at this version"),
            Self::TagTooLarge(tag) => write!(f, "tag {tag} is above the largest tag, {}", crate::tagged::MAX_TAG),
            Self::TagsNotAscending { previous, tag } => {
                write!(f, "tag {tag} follows tag {previous}; tags must ascend")
            }
            Self::TagSizeMismatch { declared, used } => {
                write!(f, "tagged field declared {declared} bytes but its value used {used}")
            }
            Self::UnsupportedVersion(v) => write!(f, "version {v} is not supported"),
            Self::UnknownApiKey(k) => write!(f, "unknown api key {k}"),
            Self::UnknownRecordType(t) => write!(f, "unknown record type {t}"),
            Self::ApiKeyNotCompiled(k) => write!(f, "api key {k} is not compiled into this build"),
            Self::TrailingBytes(n) => write!(f, "{n} bytes left over"),
            Self::Invalid(why) => f.write_str(why),
        }
    }
}

/// A decoding failure with its place: message, version, field path and byte
/// offset from the start of the input.
///
/// Boxed inside so that `Result<T, DecodeError>` stays one word bigger than `T`.
///
/// # Example
/// ```
/// use kwire::primitives::Reader;
/// let mut r = Reader::new(bytes::Bytes::from_static(&[0, 1]));
/// let err = r.read_i32().unwrap_err();
/// assert_eq!(err.to_string(), "need 4 bytes, have 2 (offset 0)");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct DecodeError(Box<DecodeInner>);

#[derive(Clone, PartialEq, Eq)]
struct DecodeInner {
    kind: DecodeErrorKind,
    offset: usize,
    place: Place,
}

impl DecodeError {
    /// An error of `kind` at byte `offset`.
    ///
    /// ```
    /// use kwire::error::{DecodeError, DecodeErrorKind};
    /// let err = DecodeError::new(DecodeErrorKind::TrailingBytes(2), 10);
    /// assert_eq!(err.to_string(), "2 bytes left over (offset 10)");
    /// ```
    #[cold]
    pub fn new(kind: DecodeErrorKind, offset: usize) -> Self {
        Self(Box::new(DecodeInner { kind, offset, place: Place::default() }))
    }

    /// What went wrong.
    ///
    /// ```
    /// use kwire::error::DecodeErrorKind;
    /// use kwire::message::Message;
    /// use kwire::messages::RequestHeader;
    /// let err = RequestHeader::decode_exact(kwire::Bytes::from_static(b"\x00\x12"), 0).unwrap_err();
    /// assert_eq!(*err.kind(), DecodeErrorKind::NotEnoughBytes { needed: 2, remaining: 0 });
    /// ```
    pub fn kind(&self) -> &DecodeErrorKind {
        &self.0.kind
    }

    /// Byte offset from the start of the input where the problem was found.
    ///
    /// ```
    /// use kwire::message::Message;
    /// use kwire::messages::RequestHeader;
    /// let err = RequestHeader::decode_exact(kwire::Bytes::from_static(b"\x00\x12\x00"), 0).unwrap_err();
    /// assert_eq!(err.offset(), 2); // the api version needs 2 bytes at offset 2
    /// ```
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// The same error found `by` bytes further into a larger input (the
    /// body after a frame's size prefix, for example).
    #[cold]
    #[must_use]
    pub(crate) fn shifted(mut self, by: usize) -> Self {
        self.0.offset += by;
        self
    }

    place_methods!();

    /// Adds an enclosing tagged-field entry to the path.
    ///
    /// ```
    /// use kwire::error::{DecodeError, DecodeErrorKind};
    /// let err = DecodeError::new(DecodeErrorKind::InvalidUtf8, 12).at_tag(1).in_field("tagged_fields");
    /// assert_eq!(err.to_string(), "tagged_fields<tag 1>: string is not valid UTF-8 (offset 12)");
    /// ```
    #[cold]
    #[must_use]
    pub fn at_tag(mut self, tag: u32) -> Self {
        self.0.place.path.push(PathSegment::Tag(tag));
        self
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.place.fmt_prefix(f)?;
        write!(f, "{} (offset {})", self.0.kind, self.0.offset)
    }
}

impl fmt::Debug for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DecodeError({self})")
    }
}

impl std::error::Error for DecodeError {}

/// What went wrong while encoding.
///
/// # Example
/// ```
/// use kwire::error::EncodeErrorKind;
/// assert_eq!(EncodeErrorKind::UnsupportedVersion(99).to_string(), "version 99 is not supported");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeErrorKind {
    /// A non-ignorable field holds a non-default value at a version that lacks it.
    NonDefaultField,
    /// Null in a field that is not nullable at this version.
    NullNotAllowed,
    /// A string longer than 32767 bytes, or a length beyond the prefix's range.
    TooLong(usize),
    /// A version outside the message's valid versions.
    UnsupportedVersion(i16),
    /// Unknown tagged fields set on a struct at a version that is not flexible.
    TaggedFieldsNotFlexible,
    /// An unknown tagged field whose tag is used twice or by a known field.
    DuplicateTag(u32),
    /// An unknown tagged field whose tag is above [`crate::tagged::MAX_TAG`]
    /// (2^31 - 2): Kafka could not read it.
    TagTooLarge(u32),
    /// A value the protocol cannot carry.
    Invalid(&'static str),
}

impl fmt::Display for EncodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonDefaultField => f.write_str("field is not in this version and holds a non-default value"),
            Self::NullNotAllowed => f.write_str("null is not allowed at this version"),
            Self::TooLong(n) => write!(f, "length {n} is too long"),
            Self::UnsupportedVersion(v) => write!(f, "version {v} is not supported"),
            Self::TaggedFieldsNotFlexible => f.write_str("tagged fields were set but this version is not flexible"),
            Self::DuplicateTag(t) => write!(f, "tag {t} is used twice"),
            Self::TagTooLarge(t) => write!(f, "tag {t} is above the largest tag, {}", crate::tagged::MAX_TAG),
            Self::Invalid(why) => f.write_str(why),
        }
    }
}

/// An encoding failure with its place: message, version and field path.
///
/// # Example
/// ```
/// use kwire::error::{EncodeError, EncodeErrorKind};
/// let err = EncodeError::new(EncodeErrorKind::NonDefaultField)
///     .in_field("validate_only")
///     .in_message("CreateTopicsRequest", 0);
/// assert_eq!(
///     err.to_string(),
///     "CreateTopicsRequest v0: validate_only: field is not in this version and holds a non-default value"
/// );
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct EncodeError(Box<EncodeInner>);

#[derive(Clone, PartialEq, Eq)]
struct EncodeInner {
    kind: EncodeErrorKind,
    place: Place,
}

impl EncodeError {
    /// An error of `kind`, place still unknown.
    ///
    /// ```
    /// use kwire::error::{EncodeError, EncodeErrorKind};
    /// assert_eq!(EncodeError::new(EncodeErrorKind::DuplicateTag(3)).to_string(), "tag 3 is used twice");
    /// ```
    #[cold]
    pub fn new(kind: EncodeErrorKind) -> Self {
        Self(Box::new(EncodeInner { kind, place: Place::default() }))
    }

    /// What went wrong.
    ///
    /// ```
    /// use kwire::error::EncodeErrorKind;
    /// use kwire::message::Message;
    /// use kwire::messages::RequestHeader;
    /// let err = RequestHeader::default().to_bytes(7).unwrap_err();
    /// assert_eq!(*err.kind(), EncodeErrorKind::UnsupportedVersion(7));
    /// ```
    pub fn kind(&self) -> &EncodeErrorKind {
        &self.0.kind
    }

    place_methods!();
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.place.fmt_prefix(f)?;
        write!(f, "{}", self.0.kind)
    }
}

impl fmt::Debug for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EncodeError({self})")
    }
}

impl std::error::Error for EncodeError {}

/// An api key that this message set does not have.
///
/// ```
/// use kwire::api::ApiKey;
/// assert_eq!(ApiKey::try_from(3), Ok(ApiKey::Metadata));
/// let err = ApiKey::try_from(-1).unwrap_err();
/// assert_eq!(err.to_string(), "unknown api key -1");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnknownApiKey(pub i16);

impl fmt::Display for UnknownApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown api key {}", self.0)
    }
}

impl std::error::Error for UnknownApiKey {}

/// A body of another api key than the one asked for: the error of the
/// generated `TryFrom<RequestBody>` and `TryFrom<ResponseBody>` impls of
/// each request and response type, which gives the body back unchanged.
///
/// ```
/// use kwire::messages::{ApiVersionsResponse, MetadataResponse, ResponseBody};
/// let body = ResponseBody::from(MetadataResponse::default());
/// let err = ApiVersionsResponse::try_from(body.clone()).unwrap_err();
/// assert_eq!((err.expected, err.found), (18, 3));
/// assert_eq!(err.to_string(), "expected a body of api key 18, got one of api key 3");
/// assert_eq!(err.body, body); // nothing lost
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct UnexpectedBody<B> {
    /// The api key of the type asked for.
    pub expected: i16,
    /// The api key of `body`.
    pub found: i16,
    /// The body, as it was.
    pub body: B,
}

impl<B> fmt::Display for UnexpectedBody<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected a body of api key {}, got one of api key {}", self.expected, self.found)
    }
}

impl<B: fmt::Debug> std::error::Error for UnexpectedBody<B> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_path_reads_outermost_first() {
        let err = DecodeError::new(DecodeErrorKind::CountTooLarge { count: 2147483647, remaining: 12 }, 4811)
            .in_field("partitions")
            .at_index(3)
            .in_field("topics")
            .in_message("MetadataResponse", 12)
            .in_message("Ignored", 1);
        assert_eq!(
            err.to_string(),
            "MetadataResponse v12: topics[3].partitions: count 2147483647 but 12 bytes remain (offset 4811)"
        );
        assert_eq!(
            err.path(),
            vec![PathSegment::Field("topics"), PathSegment::Index(3), PathSegment::Field("partitions")]
        );
    }

    /// The texts users match on; neither error has a source.
    #[test]
    fn unknown_api_key_and_unexpected_body_texts() {
        use std::error::Error as _;
        assert_eq!(UnknownApiKey(-1).to_string(), "unknown api key -1");
        assert_eq!(UnknownApiKey(i16::MAX).to_string(), "unknown api key 32767");
        assert!(UnknownApiKey(-1).source().is_none());
        let err = UnexpectedBody { expected: 18, found: 3, body: () };
        assert_eq!(err.to_string(), "expected a body of api key 18, got one of api key 3");
        assert!(err.source().is_none());
    }
}
