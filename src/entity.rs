//! Entity accessors, for proxies: every field a schema marks with an
//! `entityType` (topic names, broker ids, group ids, transactional ids,
//! producer ids), visited or rewritten in any request or response without
//! a match over api keys.
//!
//! Generated code implements [`Entities`] for every request and response
//! (and for [`RequestBody`](crate::messages::RequestBody) and
//! [`ResponseBody`](crate::messages::ResponseBody), which delegate to the
//! body), and for every nested struct that holds such a field, directly or
//! further down; the other structs have no impl, and the messages without
//! any such field keep the trait's empty default methods.
//!
//! Which fields are visited: those present at the `version` given (the
//! version the message is encoded or decoded at), in nested structs and
//! arrays too, whatever their value (an empty string and a `-1` broker id
//! included), except null ones. Fields absent at the version are skipped:
//! they are not on the wire, and a value written there could not be encoded.
//! The order is the schema's: fields in declaration order, depth first.
//!
//! # Example
//! ```
//! use kwire::entity::{Entities, EntityType, EntityValue, EntityValueMut};
//! use kwire::messages::{metadata_request::MetadataRequestTopic, MetadataRequest, RequestBody};
//!
//! let mut body = RequestBody::Metadata(MetadataRequest {
//!     topics: Some(vec![MetadataRequestTopic { name: Some("orders".into()), ..Default::default() }]),
//!     ..Default::default()
//! });
//! // A tenant prefix on every topic name, whatever the api key.
//! body.rewrite_entities(12, &mut |e| {
//!     if let (EntityType::TopicName, EntityValueMut::Str(name)) = (e.entity_type, e.value) {
//!         *name = format!("tenant-{name}").into();
//!     }
//! });
//! let mut seen = Vec::new();
//! body.visit_entities(12, &mut |e| seen.push((e.entity_type, e.field, e.value.to_string())));
//! assert_eq!(seen, [(EntityType::TopicName, "Name", "tenant-orders".to_string())]);
//! ```

use std::fmt;

/// What a field names (the schema's `entityType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum EntityType {
    /// `topicName`: a topic's name (string).
    TopicName,
    /// `brokerId`: a broker's (or controller's) node id (int32).
    BrokerId,
    /// `groupId`: a consumer, share or streams group id (string).
    GroupId,
    /// `transactionalId`: a producer's transactional id (string).
    TransactionalId,
    /// `producerId`: a producer id (int64).
    ProducerId,
}

impl EntityType {
    /// The schema's name for it, e.g. `topicName`.
    pub fn schema_name(self) -> &'static str {
        match self {
            EntityType::TopicName => "topicName",
            EntityType::BrokerId => "brokerId",
            EntityType::GroupId => "groupId",
            EntityType::TransactionalId => "transactionalId",
            EntityType::ProducerId => "producerId",
        }
    }
}

impl fmt::Display for EntityType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.schema_name())
    }
}

/// An entity field's value, read: a string, `int32` or `int64` as the
/// field's type is (an element, for arrays).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EntityValue<'a> {
    /// A `string` field (topic names, group and transactional ids).
    Str(&'a str),
    /// An `int32` field (broker ids).
    Int32(i32),
    /// An `int64` field (producer ids).
    Int64(i64),
}

impl fmt::Display for EntityValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntityValue::Str(s) => f.write_str(s),
            EntityValue::Int32(n) => write!(f, "{n}"),
            EntityValue::Int64(n) => write!(f, "{n}"),
        }
    }
}

/// An entity field's value, to rewrite in place.
#[derive(Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EntityValueMut<'a> {
    /// A `string` field (topic names, group and transactional ids). A
    /// [`ByteString`](crate::ByteString) is immutable: assign a new one
    /// (`*name = format!("tenant-{name}").into()`).
    Str(&'a mut crate::ByteString),
    /// An `int32` field (broker ids).
    Int32(&'a mut i32),
    /// An `int64` field (producer ids).
    Int64(&'a mut i64),
}

/// One entity field (or array element) met by [`Entities::visit_entities`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct EntityRef<'a> {
    /// What it names.
    pub entity_type: EntityType,
    /// The field's name in the schema, e.g. `Name` or `NodeId`.
    pub field: &'static str,
    /// Its value.
    pub value: EntityValue<'a>,
}

/// One entity field (or array element) met by [`Entities::rewrite_entities`].
#[derive(Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct EntityMut<'a> {
    /// What it names.
    pub entity_type: EntityType,
    /// The field's name in the schema, e.g. `Name` or `NodeId`.
    pub field: &'static str,
    /// Its value, to change in place.
    pub value: EntityValueMut<'a>,
}

/// The callback of [`Entities::visit_entities`].
pub type Visit<'a> = dyn FnMut(EntityRef<'_>) + 'a;

/// The callback of [`Entities::rewrite_entities`].
pub type Rewrite<'a> = dyn FnMut(EntityMut<'_>) + 'a;

/// Visits and rewrites the entity fields of a message (see the module docs
/// for which fields). The default methods do nothing: the impl of a
/// message without entity fields.
pub trait Entities {
    /// Calls `f` on every entity field present at `version`.
    fn visit_entities(&self, version: i16, f: &mut Visit<'_>) {
        let _ = (version, f);
    }

    /// Calls `f` on every entity field present at `version`, which may change it.
    fn rewrite_entities(&mut self, version: i16, f: &mut Rewrite<'_>) {
        let _ = (version, f);
    }
}

impl<T: Entities> Entities for Vec<T> {
    fn visit_entities(&self, version: i16, f: &mut Visit<'_>) {
        for item in self {
            item.visit_entities(version, f);
        }
    }

    fn rewrite_entities(&mut self, version: i16, f: &mut Rewrite<'_>) {
        for item in self {
            item.rewrite_entities(version, f);
        }
    }
}

impl<T: Entities> Entities for Option<T> {
    fn visit_entities(&self, version: i16, f: &mut Visit<'_>) {
        if let Some(item) = self {
            item.visit_entities(version, f);
        }
    }

    fn rewrite_entities(&mut self, version: i16, f: &mut Rewrite<'_>) {
        if let Some(item) = self {
            item.rewrite_entities(version, f);
        }
    }
}

/// Helpers the generated code calls (through the crate's hidden `encoding`
/// module), one pair per entity type.
pub(crate) mod support {
    use super::*;

    /// The Rust types of entity fields: [`ByteString`](crate::ByteString), `i32`, `i64`, and arrays and
    /// nullable forms of them. Generated code calls it through [`topic_name`],
    /// [`topic_name_mut`] and the like.
    pub trait EntityField {
        /// Calls `f` on the value (each element, for arrays; nothing for null).
        fn visit_as(&self, entity_type: EntityType, field: &'static str, f: &mut Visit<'_>);
        /// Calls `f` on the value to rewrite it (each element, for arrays; nothing for null).
        fn rewrite_as(&mut self, entity_type: EntityType, field: &'static str, f: &mut Rewrite<'_>);
    }

    impl EntityField for crate::ByteString {
        fn visit_as(&self, entity_type: EntityType, field: &'static str, f: &mut Visit<'_>) {
            f(EntityRef { entity_type, field, value: EntityValue::Str(self) });
        }

        fn rewrite_as(&mut self, entity_type: EntityType, field: &'static str, f: &mut Rewrite<'_>) {
            f(EntityMut { entity_type, field, value: EntityValueMut::Str(self) });
        }
    }

    impl EntityField for i32 {
        fn visit_as(&self, entity_type: EntityType, field: &'static str, f: &mut Visit<'_>) {
            f(EntityRef { entity_type, field, value: EntityValue::Int32(*self) });
        }

        fn rewrite_as(&mut self, entity_type: EntityType, field: &'static str, f: &mut Rewrite<'_>) {
            f(EntityMut { entity_type, field, value: EntityValueMut::Int32(self) });
        }
    }

    impl EntityField for i64 {
        fn visit_as(&self, entity_type: EntityType, field: &'static str, f: &mut Visit<'_>) {
            f(EntityRef { entity_type, field, value: EntityValue::Int64(*self) });
        }

        fn rewrite_as(&mut self, entity_type: EntityType, field: &'static str, f: &mut Rewrite<'_>) {
            f(EntityMut { entity_type, field, value: EntityValueMut::Int64(self) });
        }
    }

    impl<T: EntityField> EntityField for Vec<T> {
        fn visit_as(&self, entity_type: EntityType, field: &'static str, f: &mut Visit<'_>) {
            for item in self {
                item.visit_as(entity_type, field, f);
            }
        }

        fn rewrite_as(&mut self, entity_type: EntityType, field: &'static str, f: &mut Rewrite<'_>) {
            for item in self {
                item.rewrite_as(entity_type, field, f);
            }
        }
    }

    impl<T: EntityField> EntityField for Option<T> {
        fn visit_as(&self, entity_type: EntityType, field: &'static str, f: &mut Visit<'_>) {
            if let Some(item) = self {
                item.visit_as(entity_type, field, f);
            }
        }

        fn rewrite_as(&mut self, entity_type: EntityType, field: &'static str, f: &mut Rewrite<'_>) {
            if let Some(item) = self {
                item.rewrite_as(entity_type, field, f);
            }
        }
    }

    macro_rules! helpers {
        ($($visit:ident, $rewrite:ident => $variant:ident;)*) => {$(
            #[doc = concat!("Calls `f` on `value`, a field of entity type [`EntityType::", stringify!($variant), "`] (generated code's shorthand).")]
            #[inline]
            pub fn $visit<T: EntityField + ?Sized>(value: &T, field: &'static str, f: &mut Visit<'_>) {
                value.visit_as(EntityType::$variant, field, f);
            }

            #[doc = concat!("Calls `f` on `value`, a field of entity type [`EntityType::", stringify!($variant), "`], to rewrite it (generated code's shorthand).")]
            #[inline]
            pub fn $rewrite<T: EntityField + ?Sized>(value: &mut T, field: &'static str, f: &mut Rewrite<'_>) {
                value.rewrite_as(EntityType::$variant, field, f);
            }
        )*};
    }

    helpers! {
        topic_name, topic_name_mut => TopicName;
        broker_id, broker_id_mut => BrokerId;
        group_id, group_id_mut => GroupId;
        transactional_id, transactional_id_mut => TransactionalId;
        producer_id, producer_id_mut => ProducerId;
    }
}

#[cfg(test)]
mod tests {
    use super::support::*;
    use super::*;

    #[test]
    fn arrays_and_nulls() {
        let mut ids: Option<Vec<i32>> = Some(vec![1, 2]);
        let mut seen = Vec::new();
        broker_id(&ids, "Replicas", &mut |e| seen.push((e.entity_type, e.field, e.value.to_string())));
        let replica = |n: &str| (EntityType::BrokerId, "Replicas", n.to_string());
        assert_eq!(seen, [replica("1"), replica("2")]);
        broker_id_mut(&mut ids, "Replicas", &mut |e| {
            if let EntityValueMut::Int32(n) = e.value {
                *n += 100;
            }
        });
        assert_eq!(ids, Some(vec![101, 102]));
        let null: Option<crate::ByteString> = None;
        let mut calls = 0;
        group_id(&null, "GroupId", &mut |_| calls += 1);
        assert_eq!(calls, 0);
        assert_eq!(EntityType::TransactionalId.to_string(), "transactionalId");
        assert_eq!(EntityValue::Int64(-7).to_string(), "-7");
    }
}
