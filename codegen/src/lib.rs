//! kafka-wire-codegen: compiles Kafka's JSON message schemas into Rust.

pub mod load;
