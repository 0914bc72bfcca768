//! What generated code calls, and nothing users need: the per-field encode,
//! size and decode helpers that put the field's name on an error, the
//! tagged-field section, reserved segments of the output buffer, varints
//! and the traits every schema type implements.
//!
//! Hidden from the documentation and outside the crate's stable surface:
//! kwire-codegen emits calls to these paths (`kwire::encoding::…`,
//! or `crate::encoding::…` inside this crate), and they change with it.
//! Users encode and decode through [`crate::message::Message`] and the
//! frame types.

pub mod field;
pub mod peek;
mod segment;
pub mod tagged;

#[cfg(feature = "entities")]
pub use crate::entity::support::{
    broker_id, broker_id_mut, group_id, group_id_mut, producer_id, producer_id_mut, topic_name, topic_name_mut,
    transactional_id, transactional_id_mut, EntityField,
};
pub use crate::primitives::codec::{Decode, Encode};
pub use crate::primitives::fixed::Fixed;
pub use crate::primitives::nullable::{DecodeNullable, Nullable};
pub use crate::primitives::structs::{EncodeStruct, Struct};
pub use crate::primitives::varint::{put_uvarint, put_varint, put_varlong, uvarint_len};
pub use crate::primitives::writer::all_or_nothing;
pub use segment::Segment;

/// Kafka's JSON form: the helpers of generated `ToJson` and `FromJson` impls.
#[cfg(feature = "json")]
pub mod json {
    pub use crate::json::support::{
        field, missing, non_default, nullable_records, object, put, put_sensitive, records, Object,
    };
}
