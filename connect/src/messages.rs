//! The bodies of the Connect group protocol, generated from this crate's
//! `schemas/` by kwire-codegen: [`ConnectWorkerMetadata`], the
//! metadata each worker joins the group with, and [`ConnectAssignment`],
//! what the leader hands each worker in SyncGroup (KIP-415, KIP-507).
//!
//! Data schemas, not api messages: Connect writes these bytes itself, after
//! an `int16` protocol header that [`crate::protocol`] reads and writes.
//! Each type has kwire's [`Message`](kwire::message::Message)
//! codec (`encode`, `encoded_size`, `decode` at a body version, 0 or 1).

include!(concat!(env!("OUT_DIR"), "/mod.rs"));
