//! Fixed-width values.

use super::{Decode, Encode, Uuid, Writer};

/// A fixed-width value (`bool`, the integers, `float64`, `uuid`): it has
/// one size at every version and cannot fail to encode.
///
/// # Example
/// ```
/// use kwire::encoding::Fixed;
/// use kwire::primitives::Writer;
/// let mut buf = bytes::BytesMut::new();
/// 7i32.put(&mut Writer::new(&mut buf));
/// assert_eq!(&buf[..], [0, 0, 0, 7]);
/// ```
pub trait Fixed: Encode + Decode + Copy + 'static + sealed::Sealed {
    /// The encoded size, in bytes.
    const SIZE: usize;

    /// Appends the value's big-endian bytes.
    fn put(self, buf: &mut Writer<'_>);

    /// Writes the value's big-endian bytes to `out`, which is
    /// [`Fixed::SIZE`] bytes long: every byte of it is written.
    fn write(self, out: &mut [std::mem::MaybeUninit<u8>]);

    /// The value from its encoding; `chunk` is [`Fixed::SIZE`] bytes long
    /// (anything shorter reads as zero bytes, never a panic).
    fn from_chunk(chunk: &[u8]) -> Self;
}

/// Copies `bytes` to the start of `out`, as many as fit (callers give
/// `out` room for all of them). A plain copy, where a loop zipping the two
/// would compile its iterator types for each length in every codegen unit
/// that writes a fixed-width value.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn write_bytes(out: &mut [std::mem::MaybeUninit<u8>], bytes: &[u8]) {
    let n = bytes.len().min(out.len());
    // SAFETY: both are valid for `n` bytes, and `out`, borrowed mutably,
    // cannot overlap `bytes`.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), out.as_mut_ptr().cast::<u8>(), n) }
}

mod sealed {
    /// Keeps [`super::Fixed`] to this crate's fixed-width types.
    pub trait Sealed {}
    impl Sealed for bool {}
    impl Sealed for i8 {}
    impl Sealed for i16 {}
    impl Sealed for u16 {}
    impl Sealed for i32 {}
    impl Sealed for u32 {}
    impl Sealed for i64 {}
    impl Sealed for f64 {}
    impl Sealed for super::Uuid {}
}
