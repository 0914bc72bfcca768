//! Helpers shared by the interop tests: those of the library's own tests
//! (its `tests/common/`: the reference directory, releases, the oracle,
//! captures), and a real cluster, a blocking connection, partition fetches
//! and the examples as processes.
#![allow(dead_code, unused_imports)]

#[path = "../../../tests/common/mod.rs"]
mod library;
pub use library::*;

pub mod cluster;
pub mod conn;
pub mod examples;
pub mod fetch;
