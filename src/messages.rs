//! Every message of `schemas/`, generated at build time by
//! kwire-codegen: one module per schema, its message type re-exported
//! here. The same code is committed under `generated/` for review.

include!(concat!(env!("KWIRE_GENERATED"), "/mod.rs"));
