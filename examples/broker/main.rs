//! An example Kafka broker on kwire and tokio: one node, topics in
//! memory, enough of the protocol for real clients (kcat/librdkafka,
//! confluent-kafka, kafka-python, kafkajs) to create topics, produce,
//! consume with consumer groups and commit, describe and alter topic
//! configs, with or without SASL/PLAIN and KIP-368 re-authentication.
//! Kafka's Java producer, consumer (classic group protocol) and AdminClient
//! work against it (interop/tests/example_broker_java.rs).
//!
//! ```text
//! cargo run -p kwire-examples --example broker -- --port 19092
//! kcat -L -b 127.0.0.1:19092
//! ```
//!
//! | module | concern |
//! |---|---|
//! | `config` | command line |
//! | `connection` | one connection: frames ([`kwire::codec::ServerCodec`]), SASL gate, dispatch |
//! | `versions` | the apis served and ApiVersions (with the v0 UNSUPPORTED_VERSION answer) |
//! | `sasl` | SASL/PLAIN and KIP-368 session lifetimes ([`kwire::reauth`]) |
//! | `metadata` | Metadata, topic auto-creation, DescribeCluster (the advertised address: `--advertise`) |
//! | `controller` | CreateTopics, DeleteTopics, AlterConfigs, IncrementalAlterConfigs, forwarded in Envelopes ([`kwire::forward`]) |
//! | `configs` | topic configs (kept per topic, checked, described) and broker configs (described) |
//! | `partitions` | Produce, Fetch, ListOffsets, InitProducerId ([`kwire::records`]) |
//! | `groups` | the group coordinator and committed offsets |
//! | `state` | topics and partition logs in memory |
//!
//! Not implemented: transactions, fetch sessions (every answer is a full
//! one), replication, retention, ACLs, compaction, the KIP-848 consumer
//! group protocol.

use std::process::ExitCode;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use tokio::net::TcpListener;

/// Writes one line to stderr, stamped with the seconds since start.
macro_rules! log {
    ($($arg:tt)*) => {
        eprintln!("[{:9.3}] {}", crate::uptime().as_secs_f64(), format_args!($($arg)*))
    };
}

mod config;
mod configs;
mod connection;
mod controller;
mod groups;
mod metadata;
mod partitions;
mod sasl;
mod state;
mod versions;

use config::{Config, ConfigError};
use controller::Controller;
use groups::Coordinator;
use state::Cluster;
use versions::Versions;

/// Everything a connection needs.
pub struct Broker {
    /// The settings.
    pub config: Arc<Config>,
    /// The port actually listened on.
    pub port: u16,
    /// Topics and logs.
    pub cluster: Arc<Cluster>,
    /// The way to the controller.
    pub controller: Controller,
    /// The group coordinator.
    pub groups: Arc<Coordinator>,
    /// The apis and versions advertised.
    pub versions: Versions,
}

static START: OnceLock<Instant> = OnceLock::new();

/// Time since the broker started.
fn uptime() -> Duration {
    START.get_or_init(Instant::now).elapsed()
}

fn main() -> ExitCode {
    uptime();
    let config = match Config::parse(std::env::args().skip(1), std::env::var("KWIRE_BROKER_PORT").ok()) {
        Ok(config) => config,
        Err(ConfigError::Help) => {
            print!("{}", config::USAGE);
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("broker: {e}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("broker: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(run(config));
    runtime.shutdown_timeout(Duration::from_secs(1));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("broker: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(config: Config) -> std::io::Result<()> {
    let listener = TcpListener::bind((config.host, config.port)).await?;
    let port = listener.local_addr()?.port();
    let config = Arc::new(config);
    let cluster = Arc::new(Cluster::new());
    let controller = controller::spawn(Arc::clone(&cluster), Arc::clone(&config));
    let (advertised_host, advertised_port) = config.advertised(port);
    let groups =
        Arc::new(Coordinator::new(config.group_initial_delay, config.node_id, advertised_host.into(), advertised_port));
    let versions = Versions::new(&config);
    let broker = Arc::new(Broker {
        config: Arc::clone(&config),
        port,
        cluster: Arc::clone(&cluster),
        controller,
        groups,
        versions,
    });

    // Drops group members whose sessions time out; stopped below.
    let reaper = {
        let groups = Arc::clone(&broker.groups);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(1));
            loop {
                tick.tick().await;
                groups.expire_members();
            }
        })
    };

    log!(
        "listening on {}:{port}{}: node {}, {}, reauth {} ms, auto-create {}",
        config.host,
        match &config.advertise {
            Some((host, port)) => format!(" (advertised as {host}:{port})"),
            None => String::new(),
        },
        config.node_id,
        if config.sasl() { format!("SASL/PLAIN ({} users)", config.users.len()) } else { "no authentication".into() },
        config.reauth_ms,
        if config.auto_create_topics { "on" } else { "off" }
    );
    let stop = stop_signal(config.max_runtime);
    tokio::pin!(stop);
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    tokio::spawn(connection::serve(Arc::clone(&broker), stream, peer));
                }
                Err(e) => {
                    log!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
            reason = &mut stop => {
                log!("stopping ({reason}): {}", cluster.stats.summary());
                break;
            }
        }
    }
    reaper.abort();
    Ok(())
}

/// Resolves on SIGINT, SIGTERM or after `max_runtime`, with the reason.
async fn stop_signal(max_runtime: Option<Duration>) -> &'static str {
    let deadline = async {
        match max_runtime {
            Some(limit) => tokio::time::sleep(limit).await,
            None => std::future::pending().await,
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = tokio::signal::ctrl_c() => "SIGINT",
        _ = terminate => "SIGTERM",
        _ = deadline => "--max-runtime-secs reached",
    }
}
