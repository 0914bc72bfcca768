//! The tagged-field section of a struct (KIP-482), read and written for
//! generated code: known fields by tag, unknown ones kept as
//! [`RawTaggedField`]s and written back in tag order.

use bytes::BufMut;

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::primitives::varint::{put_uvarint, uvarint_len};
use crate::primitives::{Encode, Input, Reader, Writer};
use crate::tagged::{RawTaggedField, MAX_TAG};

/// Appends one known tagged field: tag, size, value.
///
/// # Errors
/// The value's own [`EncodeError`], with `name` on its path.
#[inline]
pub fn encode_field<T: Encode>(
    buf: &mut Writer<'_>,
    tag: u32,
    value: &T,
    version: i16,
    name: &'static str,
) -> Result<(), EncodeError> {
    put_uvarint(buf, tag);
    put_uvarint(buf, value.tagged_size(version) as u32);
    value.encode_tagged(buf, version).map_err(|e| e.in_field(name))
}

/// Bytes that [`encode_field`] writes.
#[inline]
pub fn field_size<T: Encode>(tag: u32, value: &T, version: i16) -> usize {
    let size = value.tagged_size(version);
    uvarint_len(tag) + uvarint_len(size as u32) + size
}

/// Writes a whole tagged-field section of a struct that defines no tagged
/// fields of its own: the byte `00` when `fields` is empty, else the count
/// and the fields, in tag order.
#[inline]
pub fn encode_unknown_section(
    buf: &mut Writer<'_>,
    fields: &[RawTaggedField],
    known_tags: u32,
) -> Result<(), EncodeError> {
    if fields.is_empty() {
        buf.put_u8(0);
        return Ok(());
    }
    encode_unknown_with_count(buf, fields, known_tags)
}

#[cold]
fn encode_unknown_with_count(
    buf: &mut Writer<'_>,
    fields: &[RawTaggedField],
    known_tags: u32,
) -> Result<(), EncodeError> {
    put_uvarint(buf, fields.len() as u32);
    encode_unknown_fields(buf, fields, known_tags)
}

/// Bytes of the section [`encode_unknown_section`] writes.
#[inline]
pub fn unknown_section_size(fields: &[RawTaggedField]) -> usize {
    uvarint_len(fields.len() as u32) + unknown_size(fields)
}

/// Appends the unknown fields in ascending tag order. Their tags must be
/// distinct and not below `known_tags` (the count of tags the schema
/// defines for this struct).
///
/// # Errors
/// [`EncodeErrorKind::DuplicateTag`] for a repeated or known tag.
#[inline]
pub fn encode_unknown(buf: &mut Writer<'_>, fields: &[RawTaggedField], known_tags: u32) -> Result<(), EncodeError> {
    if fields.is_empty() {
        return Ok(());
    }
    encode_unknown_fields(buf, fields, known_tags)
}

fn encode_unknown_fields(buf: &mut Writer<'_>, fields: &[RawTaggedField], known_tags: u32) -> Result<(), EncodeError> {
    if let Some(f) = fields.iter().find(|f| f.tag > MAX_TAG) {
        return Err(EncodeError::new(EncodeErrorKind::TagTooLarge(f.tag)));
    }
    let put = |buf: &mut Writer<'_>, f: &RawTaggedField| {
        put_uvarint(buf, f.tag);
        put_uvarint(buf, f.data.len() as u32);
        buf.put_slice(&f.data);
    };
    if fields.windows(2).all(|w| w[0].tag < w[1].tag) {
        if let Some(first) = fields.first().filter(|f| f.tag < known_tags) {
            return Err(EncodeError::new(EncodeErrorKind::DuplicateTag(first.tag)));
        }
        fields.iter().for_each(|f| put(buf, f));
        return Ok(());
    }
    let mut sorted: Vec<&RawTaggedField> = fields.iter().collect();
    sorted.sort_by_key(|f| f.tag);
    for (i, f) in sorted.iter().enumerate() {
        if f.tag < known_tags || (i > 0 && sorted[i - 1].tag == f.tag) {
            return Err(EncodeError::new(EncodeErrorKind::DuplicateTag(f.tag)));
        }
    }
    sorted.into_iter().for_each(|f| put(buf, f));
    Ok(())
}

/// Bytes that [`encode_unknown`] writes.
#[inline]
pub fn unknown_size(fields: &[RawTaggedField]) -> usize {
    fields.iter().map(|f| uvarint_len(f.tag) + uvarint_len(f.data.len() as u32) + f.data.len()).sum()
}

/// Fails when unknown tagged fields are set at a version that has no
/// tagged-field section.
///
/// # Errors
/// [`EncodeErrorKind::TaggedFieldsNotFlexible`].
#[inline]
pub fn check_none(fields: &[RawTaggedField]) -> Result<(), EncodeError> {
    if fields.is_empty() {
        Ok(())
    } else {
        Err(EncodeError::new(EncodeErrorKind::TaggedFieldsNotFlexible))
    }
}

/// Empties the unknown tagged fields a decode is about to refill, testing
/// first: they are nearly always empty already, and the test is cheaper
/// than `Vec::clear`'s drop loop over no elements.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn clear<B: Input>(unknown: &mut Vec<RawTaggedField<B>>) {
    if !unknown.is_empty() {
        unknown.clear();
    }
}

/// Reads a tagged-field section. For each tag below `known_tags`, `known`
/// decodes the value from a reader holding exactly its declared bytes and
/// returns `false` when the tag is not valid at this version; other tags are
/// kept in `unknown`.
///
/// Known tags are read as Kafka reads them: in any order, and a tag that
/// comes again replaces the value read before (the last one wins); the
/// encoder writes them back once each, ascending.
///
/// # Errors
/// Short input, unknown tags not strictly ascending among themselves, a
/// known tag not valid at this version, or a known value that does not use
/// exactly its declared size.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn decode_section<B: Input>(
    r: &mut Reader<B>,
    known_tags: u32,
    unknown: &mut Vec<RawTaggedField<B>>,
    known: impl FnMut(u32, &mut Reader<B>) -> Result<bool, DecodeError>,
) -> Result<(), DecodeError> {
    // Nearly every section is empty: its count is the single byte 0.
    if r.peek_u8() == Some(0) {
        return r.skip(1);
    }
    decode_known_entries(r, known_tags, unknown, known)
}

/// [`decode_section`] of a section with entries, out of line: the known-tag
/// reader's captures are put in memory (for the one shared
/// [`decode_entries`]) only when there are entries to read.
#[inline(never)]
fn decode_known_entries<B: Input>(
    r: &mut Reader<B>,
    known_tags: u32,
    unknown: &mut Vec<RawTaggedField<B>>,
    mut known: impl FnMut(u32, &mut Reader<B>) -> Result<bool, DecodeError>,
) -> Result<(), DecodeError> {
    decode_entries(r, known_tags, unknown, &mut known)
}

/// Reads a tagged-field section of a struct that defines no tagged field
/// at this version: every entry at or above `known_tags` is kept in
/// `unknown`, any other is an error. Generic only over the input, so
/// compiled once for owned decoding.
///
/// # Errors
/// As [`decode_section`].
#[inline]
pub fn decode_unknown_section<B: Input>(
    r: &mut Reader<B>,
    known_tags: u32,
    unknown: &mut Vec<RawTaggedField<B>>,
) -> Result<(), DecodeError> {
    // One instance of the generic reader, shared by every such struct.
    decode_section(r, known_tags, unknown, |_, _| Ok(false))
}

/// Decodes the value of a known tag from a reader holding exactly its
/// bytes; `false` when the tag is not valid at this version.
type KnownTags<'a, B> = dyn FnMut(u32, &mut Reader<B>) -> Result<bool, DecodeError> + 'a;

/// The path segment of a tagged-field section in errors.
const SECTION: &str = "tagged_fields";

/// The entries of a non-empty section. Generic only over the input (the
/// known-tag reader is a trait object), so it is compiled once per input
/// rather than once per struct.
fn decode_entries<B: Input>(
    r: &mut Reader<B>,
    known_tags: u32,
    unknown: &mut Vec<RawTaggedField<B>>,
    known: &mut KnownTags<'_, B>,
) -> Result<(), DecodeError> {
    // Errors of the section itself (not of a known value, which name their
    // field) are placed at `tagged_fields`.
    let section = |e: DecodeError| e.in_field(SECTION);
    let count = r.read_uvarint().map_err(section)? as usize;
    // Each entry takes at least two bytes (tag and size).
    r.check_tagged_fields(count).map_err(section)?;
    // Unknown entries of this section are those past `first`.
    let first = unknown.len();
    for _ in 0..count {
        let offset = r.offset();
        let tag = r.read_uvarint().map_err(section)?;
        if tag > MAX_TAG {
            return Err(section(DecodeError::new(DecodeErrorKind::TagTooLarge(tag), offset)));
        }
        let entry = |e: DecodeError| section(e.at_tag(tag));
        let size = r.read_uvarint().map_err(entry)? as usize;
        let mut value = r.sub_reader(size).map_err(entry)?;
        if tag >= known_tags {
            // Kept fields are written back as they came, so they must
            // ascend among themselves (Kafka keeps them in the order read
            // and refuses to write them otherwise).
            if let Some(previous) = unknown.get(first..).and_then(<[_]>::last).map(|f| f.tag) {
                if previous >= tag {
                    let kind = DecodeErrorKind::TagsNotAscending { previous, tag };
                    return Err(section(DecodeError::new(kind, offset)));
                }
            }
            unknown.push(RawTaggedField { tag, data: value.into_remaining() });
        } else if !known(tag, &mut value)? {
            return Err(section(DecodeError::new(DecodeErrorKind::TagNotValid(tag), offset)));
        } else if value.remaining() != 0 {
            let used = size - value.remaining();
            return Err(entry(DecodeError::new(DecodeErrorKind::TagSizeMismatch { declared: size, used }, offset)));
        }
    }
    Ok(())
}
