//! The field types of borrowed views (feature `borrowed`), which decode
//! from a `&'a [u8]` without allocating for strings, bytes or arrays of
//! fixed-width values, and [`IntoOwned`], which turns a view into the
//! owned message.
//!
//! | schema type | owned type | view type |
//! |---|---|---|
//! | `string` | [`ByteString`](crate::ByteString) | `&'a str` |
//! | `bytes`, `records` | [`Bytes`] | `&'a [u8]` |
//! | `[]int32` and other fixed-width arrays | `Vec<i32>` | [`FixedArray<'a, i32>`] |
//! | `[]string`, `[]S` | `Vec<ByteString>`, `Vec<S>` | `Vec<&'a str>`, `Vec<SRef<'a>>` |

use std::fmt;
use std::marker::PhantomData;

use bytes::Bytes;

use super::bytes::read_len;
use super::nullable::decode_non_null;
use super::{Decode, DecodeNullable, Fixed, Reader, Uuid};
use crate::error::DecodeError;
use crate::tagged::RawTaggedField;

/// An array of fixed-width values (`[]int32`, `[]int64`, `[]uuid`, ...)
/// borrowed from the input: its bytes, read one value at a time. Decoding
/// checks the count against the input and allocates nothing.
///
/// Wire shape: the array's count (int32, or uvarint count+1 when compact),
/// then `len() * T::SIZE` bytes of big-endian values.
///
/// # Example
/// ```
/// use kwire::encoding::Decode;
/// use kwire::primitives::{FixedArray, Reader};
/// let input: &[u8] = &[3, 0, 0, 0, 1, 0, 0, 0, 2]; // compact [1, 2]
/// let replicas = FixedArray::<i32>::decode_value(&mut Reader::new(input), 0, true)?;
/// assert_eq!(replicas.len(), 2);
/// assert_eq!(replicas.get(1), Some(2));
/// assert_eq!(replicas.iter().collect::<Vec<_>>(), [1, 2]);
/// # Ok::<(), kwire::error::DecodeError>(())
/// ```
pub struct FixedArray<'a, T> {
    /// The values' bytes: a whole number of `T::SIZE`-byte values.
    bytes: &'a [u8],
    values: PhantomData<T>,
}

impl<'a, T: Fixed> FixedArray<'a, T> {
    /// The array over `bytes`, which holds whole values (a partial last
    /// value is left out).
    ///
    /// # Example
    /// ```
    /// use kwire::primitives::FixedArray;
    /// let ids = FixedArray::<i16>::new(&[0, 1, 0, 2, 9]); // the odd byte is left out
    /// assert_eq!((ids.len(), ids.as_bytes().len()), (2, 4));
    /// ```
    pub fn new(bytes: &'a [u8]) -> Self {
        let whole = bytes.len() - bytes.len() % T::SIZE;
        FixedArray { bytes: bytes.get(..whole).unwrap_or_default(), values: PhantomData }
    }

    /// Count of values.
    ///
    /// # Example
    /// ```
    /// use kwire::primitives::FixedArray;
    /// assert_eq!(FixedArray::<i64>::new(&[0; 16]).len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.bytes.len() / T::SIZE
    }

    /// True when the array holds no value.
    ///
    /// # Example
    /// ```
    /// use kwire::primitives::FixedArray;
    /// assert!(FixedArray::<i32>::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The value at `index`, or `None` past the end.
    ///
    /// # Example
    /// ```
    /// use kwire::primitives::FixedArray;
    /// let epochs = FixedArray::<i32>::new(&[0, 0, 0, 5]);
    /// assert_eq!((epochs.get(0), epochs.get(1)), (Some(5), None));
    /// ```
    pub fn get(&self, index: usize) -> Option<T> {
        let start = index.checked_mul(T::SIZE)?;
        self.bytes.get(start..start.checked_add(T::SIZE)?).map(T::from_chunk)
    }

    /// The values, in order.
    ///
    /// # Example
    /// ```
    /// use kwire::primitives::FixedArray;
    /// let flags = FixedArray::<bool>::new(&[1, 0]);
    /// assert_eq!(flags.iter().collect::<Vec<_>>(), [true, false]);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = T> + 'a {
        self.bytes.chunks_exact(T::SIZE).map(T::from_chunk)
    }

    /// The values' encoded bytes, without the count: big-endian,
    /// [`Fixed::SIZE`] bytes each.
    ///
    /// # Example
    /// ```
    /// use kwire::primitives::FixedArray;
    /// assert_eq!(FixedArray::<u16>::new(&[1, 2]).as_bytes(), [1, 2]);
    /// ```
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The values in a new vector.
    ///
    /// # Example
    /// ```
    /// use kwire::primitives::FixedArray;
    /// assert_eq!(FixedArray::<i32>::new(&[0, 0, 1, 0]).to_vec(), [256]);
    /// ```
    pub fn to_vec(&self) -> Vec<T> {
        self.iter().collect()
    }
}

impl<T> Clone for FixedArray<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for FixedArray<'_, T> {}

impl<T> Default for FixedArray<'_, T> {
    fn default() -> Self {
        FixedArray { bytes: &[], values: PhantomData }
    }
}

impl<T> PartialEq for FixedArray<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}

impl<T: Fixed + fmt::Debug> fmt::Debug for FixedArray<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, T: Fixed> Decode<&'a [u8]> for FixedArray<'a, T> {
    #[inline]
    fn decode_value_into(&mut self, r: &mut Reader<&'a [u8]>, version: i16, flexible: bool) -> Result<(), DecodeError> {
        *self = decode_non_null(r, version, flexible)?;
        Ok(())
    }
}

impl<'a, T: Fixed> DecodeNullable<&'a [u8]> for FixedArray<'a, T> {
    #[inline]
    fn decode_option(r: &mut Reader<&'a [u8]>, _: i16, flexible: bool) -> Result<Option<Self>, DecodeError> {
        let Some(count) = read_len(r, flexible)? else {
            return Ok(None);
        };
        r.check_array(count, T::SIZE)?;
        let bytes = r.read_bytes(count * T::SIZE)?;
        Ok(Some(FixedArray { bytes, values: PhantomData }))
    }
}

/// The owned value a borrowed view's field (or the whole view) stands for:
/// strings and bytes copied, [`FixedArray`]s read into vectors, nested
/// views turned into their owned structs.
///
/// # Example
/// ```
/// use kwire::primitives::IntoOwned;
/// assert_eq!("rk".into_owned(), kwire::ByteString::from("rk"));
/// assert_eq!(Some(&b"ab"[..]).into_owned(), Some(bytes::Bytes::from_static(b"ab")));
/// ```
pub trait IntoOwned {
    /// The owned type.
    type Owned;

    /// The owned value, allocating what the view borrowed.
    fn into_owned(self) -> Self::Owned;
}

macro_rules! owned_as_is {
    ($($ty:ty),*) => {$(
        impl IntoOwned for $ty {
            type Owned = $ty;

            #[inline]
            fn into_owned(self) -> $ty {
                self
            }
        }
    )*};
}

owned_as_is!(bool, i8, i16, u16, i32, u32, i64, f64, Uuid);

impl IntoOwned for &str {
    type Owned = crate::ByteString;

    fn into_owned(self) -> crate::ByteString {
        crate::ByteString::from(self)
    }
}

impl IntoOwned for &[u8] {
    type Owned = Bytes;

    fn into_owned(self) -> Bytes {
        Bytes::copy_from_slice(self)
    }
}

impl<T: Fixed> IntoOwned for FixedArray<'_, T> {
    type Owned = Vec<T>;

    fn into_owned(self) -> Vec<T> {
        self.to_vec()
    }
}

impl<T: IntoOwned> IntoOwned for Option<T> {
    type Owned = Option<T::Owned>;

    fn into_owned(self) -> Self::Owned {
        self.map(T::into_owned)
    }
}

impl<T: IntoOwned> IntoOwned for Vec<T> {
    type Owned = Vec<T::Owned>;

    fn into_owned(self) -> Self::Owned {
        self.into_iter().map(T::into_owned).collect()
    }
}

impl IntoOwned for RawTaggedField<&[u8]> {
    type Owned = RawTaggedField;

    fn into_owned(self) -> RawTaggedField {
        RawTaggedField::new(self.tag, self.data.into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::DecodeErrorKind;

    #[test]
    fn fixed_arrays_read_their_values_and_check_the_count() -> Result<(), DecodeError> {
        let classic: &[u8] = &[0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe];
        let mut r = Reader::new(classic);
        let offsets = FixedArray::<i64>::decode_value(&mut r, 0, false)?;
        assert_eq!(offsets.to_vec(), [7, -2]);
        assert_eq!(offsets.get(2), None);
        assert_eq!((offsets.get(usize::MAX / 8), offsets.get(usize::MAX)), (None, None));
        assert_eq!(r.remaining(), 0);
        assert_eq!(format!("{offsets:?}"), "[7, -2]");

        // A count of three int64s with sixteen bytes left fails before reading.
        let mut three = classic.to_vec();
        three[3] = 3;
        let e = FixedArray::<i64>::decode_value(&mut Reader::new(&three[..]), 0, false).unwrap_err();
        assert!(matches!(e.kind(), DecodeErrorKind::CountTooLarge { count: 3, remaining: 16 }), "{e}");
        assert_eq!(e.offset(), 4);
        Ok(())
    }

    #[test]
    fn a_null_fixed_array_is_none_only_where_null_is_allowed() -> Result<(), DecodeError> {
        let null: &[u8] = &[0];
        assert_eq!(Option::<FixedArray<'_, i32>>::decode_value(&mut Reader::new(null), 0, true)?, None);
        let e = FixedArray::<i32>::decode_value(&mut Reader::new(null), 0, true).unwrap_err();
        assert!(matches!(e.kind(), DecodeErrorKind::NullNotAllowed));
        Ok(())
    }
}
