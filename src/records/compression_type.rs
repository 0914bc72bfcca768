//! [`Compression`]: the codec that attributes bits 0-2 of a record batch or
//! of a legacy wrapper message name (Kafka's `CompressionType`). The codecs
//! themselves and [`RecordError`], which names a codec through this type,
//! both build on it.
//!
//! [`RecordError`]: super::RecordError

use std::fmt;

/// A compression codec: attributes bits 0-2 of a record batch.
///
/// Non-exhaustive: ids 5 to 7 are free for codecs a Kafka release may add
/// (zstd came with KIP-110), so a `match` needs a `_` arm.
///
/// # Example
/// ```
/// use kwire::records::Compression;
/// assert_eq!(Compression::from_id(2), Some(Compression::Snappy));
/// assert_eq!(Compression::Zstd.id(), 4);
/// assert_eq!(Compression::from_id(5), None);
/// assert_eq!(Compression::Gzip.to_string(), "gzip");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Compression {
    /// 0: records stored as they are.
    #[default]
    None,
    /// 1: gzip (RFC 1952).
    Gzip,
    /// 2: snappy, xerial-framed or raw.
    Snappy,
    /// 3: LZ4 frame format.
    Lz4,
    /// 4: Zstandard (KIP-110), record format v2 only.
    Zstd,
}

impl Compression {
    /// Every codec, in id order.
    pub const ALL: [Compression; 5] = [Self::None, Self::Gzip, Self::Snappy, Self::Lz4, Self::Zstd];

    /// The codec for attributes bits 0-2; `None` for 5, 6 and 7.
    pub const fn from_id(id: u8) -> Option<Self> {
        match id {
            0 => Some(Self::None),
            1 => Some(Self::Gzip),
            2 => Some(Self::Snappy),
            3 => Some(Self::Lz4),
            4 => Some(Self::Zstd),
            _ => None,
        }
    }

    /// The id written in attributes bits 0-2.
    pub const fn id(self) -> u8 {
        self as u8
    }

    /// The codec's name, also the name of its cargo feature: `none`, `gzip`,
    /// `snappy`, `lz4`, `zstd`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Gzip => "gzip",
            Self::Snappy => "snappy",
            Self::Lz4 => "lz4",
            Self::Zstd => "zstd",
        }
    }

    /// Whether this build can compress and decompress the codec (its cargo
    /// feature is on). Always true for [`Compression::None`].
    ///
    /// ```
    /// assert!(kwire::records::Compression::None.is_available());
    /// ```
    pub const fn is_available(self) -> bool {
        match self {
            Self::None => true,
            Self::Gzip => cfg!(feature = "gzip"),
            Self::Snappy => cfg!(feature = "snappy"),
            Self::Lz4 => cfg!(feature = "lz4"),
            Self::Zstd => cfg!(feature = "zstd"),
        }
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
