//! Wire primitives: the encodings of every schema type.
//!
//! | schema type | Rust type | classic encoding | flexible (compact) encoding |
//! |---|---|---|---|
//! | `bool`, `int8` … `float64` | `bool`, `i8` … `f64` | fixed width, big-endian | same |
//! | `uuid` | [`Uuid`] | 16 bytes | same |
//! | `string` | [`ByteString`](crate::ByteString) | int16 length, UTF-8 | uvarint length+1 |
//! | `bytes`, `records` | [`Bytes`](crate::Bytes) | int32 length | uvarint length+1 |
//! | `[]T` | `Vec<T>` | int32 count | uvarint count+1 |
//! | nullable | `Option<T>` | length/count −1, struct marker `ff` | uvarint 0 |
//!
//! Generated code calls these through the traits `Encode` and `Decode` of
//! the hidden `encoding` module; decoding shares memory with the input for
//! `bytes`, `records` and `string`. A string whose bytes are not UTF-8 is
//! read as Kafka reads it (`Readable.readString`, Java's UTF-8 charset):
//! each invalid sequence becomes U+FFFD, in a copy of its own. The borrowed
//! views of the `borrowed` feature decode `string` to `&'a str`, `bytes`
//! and `records` to `&'a [u8]` and arrays of fixed-width values to
//! [`FixedArray`], all pointing into the input; [`IntoOwned`] turns them
//! into the owned types. A view cannot hold such a copy: it refuses a
//! string that is not UTF-8 (`DecodeErrorKind::InvalidUtf8`).

pub(crate) mod array;
mod borrowed;
pub(crate) mod bytes;
pub(crate) mod codec;
pub(crate) mod fixed;
pub(crate) mod nullable;
mod number;
mod reader;
pub(crate) mod string;
pub(crate) mod structs;
mod uuid;
pub(crate) mod varint;
pub(crate) mod writer;

pub use self::borrowed::{FixedArray, IntoOwned};
pub(crate) use self::codec::{Decode, Encode};
pub(crate) use self::fixed::Fixed;
pub(crate) use self::nullable::{DecodeNullable, Nullable};
pub use self::reader::{Input, ReadLimits, Reader};
pub(crate) use self::structs::Struct;
pub use self::uuid::{ParseUuidError, Uuid};
pub use self::writer::Writer;
