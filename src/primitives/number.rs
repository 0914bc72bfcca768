//! Fixed-width values: `bool`, `int8`, `int16`, `uint16`, `int32`,
//! `uint32`, `int64`, `float64`, all big-endian.

use std::mem::MaybeUninit;

use bytes::BufMut;

use super::{Decode, Encode, Fixed, Input, Reader, Writer};
use crate::error::{DecodeError, EncodeError};

macro_rules! fixed {
    ($($ty:ty = $size:expr, $put:ident, $read:ident;)*) => {$(
        impl Encode for $ty {
            #[inline]
            fn encode_value(&self, buf: &mut Writer<'_>, _: i16, _: bool) -> Result<(), EncodeError> {
                buf.$put(*self);
                Ok(())
            }

            #[inline]
            fn value_size(&self, _: i16, _: bool) -> usize {
                $size
            }

        }

        impl<B: Input> Decode<B> for $ty {
            const MIN_SIZE: usize = $size;

            #[inline]
            fn decode_value(r: &mut Reader<B>, _: i16, _: bool) -> Result<Self, DecodeError> {
                r.$read()
            }

            #[inline]
            fn decode_value_into(&mut self, r: &mut Reader<B>, _: i16, _: bool) -> Result<(), DecodeError> {
                *self = r.$read()?;
                Ok(())
            }
        }

        impl Fixed for $ty {
            const SIZE: usize = $size;

            #[inline]
            fn put(self, buf: &mut Writer<'_>) {
                buf.$put(self);
            }

            #[inline]
            fn from_chunk(chunk: &[u8]) -> Self {
                <$ty>::from_be_bytes(chunk.first_chunk().copied().unwrap_or_default())
            }

            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn write(self, out: &mut [MaybeUninit<u8>]) {
                super::fixed::write_bytes(out, &self.to_be_bytes());
            }
        }
    )*};
}

fixed! {
    i8 = 1, put_i8, read_i8;
    i16 = 2, put_i16, read_i16;
    u16 = 2, put_u16, read_u16;
    i32 = 4, put_i32, read_i32;
    u32 = 4, put_u32, read_u32;
    i64 = 8, put_i64, read_i64;
    f64 = 8, put_f64, read_f64;
}

impl Encode for bool {
    #[inline]
    fn encode_value(&self, buf: &mut Writer<'_>, _: i16, _: bool) -> Result<(), EncodeError> {
        buf.put_u8(u8::from(*self));
        Ok(())
    }

    #[inline]
    fn value_size(&self, _: i16, _: bool) -> usize {
        1
    }
}

impl<B: Input> Decode<B> for bool {
    #[inline]
    fn decode_value(r: &mut Reader<B>, _: i16, _: bool) -> Result<Self, DecodeError> {
        r.read_bool()
    }

    #[inline]
    fn decode_value_into(&mut self, r: &mut Reader<B>, _: i16, _: bool) -> Result<(), DecodeError> {
        *self = r.read_bool()?;
        Ok(())
    }
}

impl Fixed for bool {
    const SIZE: usize = 1;

    #[inline]
    fn put(self, buf: &mut Writer<'_>) {
        buf.put_u8(u8::from(self));
    }

    #[inline]
    fn from_chunk(chunk: &[u8]) -> Self {
        chunk.first().is_some_and(|&b| b != 0)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn write(self, out: &mut [MaybeUninit<u8>]) {
        if let Some(out) = out.first_mut() {
            out.write(u8::from(self));
        }
    }
}
