//! `[]T`: int32 count (classic) or uvarint count+1 (compact), then the
//! elements in their own encoding. The count is checked against the bytes
//! left before any allocation.
//!
//! ```text
//! classic [1, 2] of int32: 00 00 00 02 00 00 00 01 00 00 00 02
//! compact [1, 2] of int32: 03 00 00 00 01 00 00 00 02
//! ```

use super::bytes::{len_size, put_len, read_len};
use super::{Nullable, Reader, Wire, Writer};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};

/// Elements reserved up front at most; more grow as they decode.
const MAX_PREALLOC: usize = 1024;

impl<T: Wire> Wire for Vec<T> {
    #[inline]
    fn encode_value(&self, buf: &mut Writer<'_>, version: i16, flexible: bool) -> Result<(), EncodeError> {
        put_len(buf, self.len(), flexible)?;
        for (i, item) in self.iter().enumerate() {
            item.encode_value(buf, version, flexible).map_err(|e| e.at_index(i))?;
        }
        Ok(())
    }

    #[inline]
    fn value_size(&self, version: i16, flexible: bool) -> usize {
        len_size(self.len(), flexible) + self.iter().map(|item| item.value_size(version, flexible)).sum::<usize>()
    }

    #[inline]
    fn decode_value(r: &mut Reader, version: i16, flexible: bool) -> Result<Self, DecodeError> {
        let offset = r.offset();
        Self::decode_option(r, version, flexible)?
            .ok_or_else(|| DecodeError::new(DecodeErrorKind::NullNotAllowed, offset))
    }

    #[inline]
    fn decode_value_into(&mut self, r: &mut Reader, version: i16, flexible: bool) -> Result<(), DecodeError> {
        let offset = r.offset();
        match read_len(r, flexible)? {
            Some(count) => decode_items_into(self, count, r, version, flexible),
            None => Err(DecodeError::new(DecodeErrorKind::NullNotAllowed, offset)),
        }
    }
}

/// Reads `count` elements into `items`: the elements already there are
/// decoded in place (keeping their allocations), the rest pushed.
#[inline]
fn decode_items_into<T: Wire>(
    items: &mut Vec<T>,
    count: usize,
    r: &mut Reader,
    version: i16,
    flexible: bool,
) -> Result<(), DecodeError> {
    r.check_count(count, T::MIN_SIZE)?;
    items.truncate(count);
    for (i, item) in items.iter_mut().enumerate() {
        item.decode_value_into(r, version, flexible).map_err(|e| e.at_index(i))?;
    }
    items.reserve((count - items.len()).min(MAX_PREALLOC));
    for i in items.len()..count {
        items.push(T::decode_value(r, version, flexible).map_err(|e| e.at_index(i))?);
    }
    Ok(())
}

impl<T: Wire> Nullable for Vec<T> {
    fn decode_option(r: &mut Reader, version: i16, flexible: bool) -> Result<Option<Self>, DecodeError> {
        let Some(count) = read_len(r, flexible)? else {
            return Ok(None);
        };
        let mut items = Vec::new();
        decode_items_into(&mut items, count, r, version, flexible)?;
        Ok(Some(items))
    }

    fn decode_option_into(
        place: &mut Option<Self>,
        r: &mut Reader,
        version: i16,
        flexible: bool,
    ) -> Result<(), DecodeError> {
        let Some(count) = read_len(r, flexible)? else {
            *place = None;
            return Ok(());
        };
        decode_items_into(place.get_or_insert_with(Vec::new), count, r, version, flexible)
    }
}
