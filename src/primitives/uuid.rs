//! `uuid`: 16 bytes in RFC 4122 order (most significant half first).

use std::fmt;

use std::mem::MaybeUninit;

use bytes::BufMut;

use super::{Decode, Fixed, Input, Reader, Wire, Writer};
use crate::error::{DecodeError, EncodeError};

/// A 128-bit UUID as Kafka sends it: topic ids, client instance ids.
/// The all-zero value is the default ("no id").
///
/// # Example
/// ```
/// use kafka_wire::primitives::Uuid;
/// let id = Uuid::from_u128(0x0102030405060708090a0b0c0d0e0f10);
/// assert_eq!(id.to_string(), "01020304-0506-0708-090a-0b0c0d0e0f10");
/// assert!(Uuid::default().is_nil());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Uuid(pub [u8; 16]);

impl Uuid {
    /// The all-zero UUID.
    pub const NIL: Uuid = Uuid([0; 16]);

    /// From a 128-bit number, most significant byte first.
    pub const fn from_u128(value: u128) -> Self {
        Self(value.to_be_bytes())
    }

    /// As a 128-bit number.
    pub const fn as_u128(&self) -> u128 {
        u128::from_be_bytes(self.0)
    }

    /// True for the all-zero UUID.
    pub const fn is_nil(&self) -> bool {
        self.as_u128() == 0
    }
}

impl fmt::Display for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, b) in self.0.iter().enumerate() {
            if matches!(i, 4 | 6 | 8 | 10) {
                f.write_str("-")?;
            }
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Uuid({self})")
    }
}

impl Wire for Uuid {
    #[inline]
    fn encode_value(&self, buf: &mut Writer<'_>, _: i16, _: bool) -> Result<(), EncodeError> {
        buf.put_slice(&self.0);
        Ok(())
    }

    #[inline]
    fn value_size(&self, _: i16, _: bool) -> usize {
        16
    }
}

impl<B: Input> Decode<B> for Uuid {
    const MIN_SIZE: usize = 16;

    #[inline]
    fn decode_value(r: &mut Reader<B>, _: i16, _: bool) -> Result<Self, DecodeError> {
        r.read_array().map(Uuid)
    }

    #[inline]
    fn decode_value_into(&mut self, r: &mut Reader<B>, _: i16, _: bool) -> Result<(), DecodeError> {
        self.0 = r.read_array()?;
        Ok(())
    }
}

impl Fixed for Uuid {
    const SIZE: usize = 16;

    #[inline]
    fn from_chunk(chunk: &[u8]) -> Self {
        Uuid(chunk.first_chunk().copied().unwrap_or_default())
    }

    #[inline(always)]
    fn write(self, out: &mut [MaybeUninit<u8>]) {
        for (out, byte) in out.iter_mut().zip(self.0) {
            out.write(byte);
        }
    }

    #[inline]
    fn put(self, buf: &mut Writer<'_>) {
        buf.put_slice(&self.0);
    }
}
