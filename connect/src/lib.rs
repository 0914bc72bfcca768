//! kwire-connect: Kafka Connect on top of [`kwire`]: internal
//! request signing (KIP-507) and the worker group protocol.
//!
//! Connect workers in a distributed cluster forward some REST requests to
//! each other (for example task configurations sent to the leader). KIP-507
//! signs these requests with an HMAC under a session key that the leader
//! generates, stores in the config topic and rotates.
//!
//! - [`signing`]: the MAC algorithms, the two request headers, signing and
//!   constant-time verification;
//! - [`session_key`]: the session key record (`session-key` in the config
//!   topic) as JSON, and when to rotate it;
//! - [`config`]: the `inter.worker.*` worker settings with their defaults;
//! - [`protocol`]: the worker group protocol (`default`, `compatible`,
//!   `sessioned`): worker metadata and assignment blobs, protocol choice;
//! - [`messages`]: the worker metadata and assignment bodies, generated
//!   from this crate's schemas by kwire-codegen.
//!
//! ```
//! use kwire_connect::{verify, InterWorkerConfig, SessionKey, SignatureAlgorithm};
//!
//! let config = InterWorkerConfig::default();
//! let key = SessionKey::new(vec![0x5a; config.key_size_bytes()], config.key_generation_algorithm, 0)?;
//!
//! // Follower signs...
//! let body = br#"[{"tasks.max":"1"}]"#;
//! let headers = config.signature_algorithm.sign_headers(key.key(), body);
//!
//! // ...leader verifies with its current key.
//! let current = Some(&key);
//! verify(
//!     body,
//!     Some(&headers.authorization),
//!     Some(&headers.signature_algorithm),
//!     current.map(SessionKey::key),
//!     &config.verification_algorithms,
//! )?;
//! assert_eq!(headers.signature_algorithm, SignatureAlgorithm::HmacSHA256.jca_name());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod config;
pub mod messages;
pub mod protocol;
pub mod session_key;
pub mod signing;

pub use config::{ConfigError, InterWorkerConfig};
pub use protocol::{choose_protocol, ConnectProtocol, ConnectProtocolError};
pub use session_key::{rotation_needed, SessionKey, SessionKeyError};
pub use signing::{verify, SignatureAlgorithm, SignatureError, SignatureHeaders, UnknownAlgorithm};
