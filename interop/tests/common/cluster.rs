//! The real Apache Kafka cluster of `interop/scripts/kafka-cluster.sh`, as the tests
//! find it: the `env` file the script writes into its state directory
//! (`$KAFKA_CLUSTER_DIR`, default `.cache/cluster`).

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{SystemTime, UNIX_EPOCH};

/// A suffix unique to this call: the time in ns (hex) and the process id.
/// Names made with it let tests share a cluster, however long it has run.
#[allow(dead_code)]
pub fn suffix() -> String {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).expect("clock").as_nanos();
    format!("{nanos:x}-{}", std::process::id())
}

/// `prefix`, a dash and a [`suffix`].
#[allow(dead_code)]
pub fn unique(prefix: &str) -> String {
    format!("{prefix}-{}", suffix())
}

/// A running cluster: its addresses and the classpath of Kafka's jars plus
/// the compiled drivers of `interop/conformance/java/cluster/`.
#[allow(dead_code)]
pub struct Cluster {
    vars: HashMap<String, String>,
    /// The state directory (configs, data, logs).
    pub dir: PathBuf,
}

#[allow(dead_code)]
impl Cluster {
    /// The cluster, or `None` after printing `skipped: ...` when none was
    /// started.
    ///
    /// # Panics
    /// Instead of skipping, when `CI` is set to a non-empty value.
    pub fn find(what: &str) -> Option<Cluster> {
        let dir = super::env_dir("KAFKA_CLUSTER_DIR", ".cache/cluster");
        let env = dir.join("env");
        let running = std::fs::read_to_string(dir.join("pids")).is_ok_and(|p| !p.trim().is_empty());
        match std::fs::read_to_string(&env) {
            Ok(text) if running => {
                let vars = text
                    .lines()
                    .filter_map(|l| l.split_once('='))
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect();
                Some(Cluster { vars, dir })
            }
            _ => super::skip(&format!(
                "skipped: {what} needs a running Kafka cluster in {dir} (run KAFKA_CLUSTER_DIR={dir} bash interop/scripts/setup.sh cluster)",
                dir = dir.display()
            )),
        }
    }

    /// A value of the `env` file (`KAFKA_CLUSTER_BROKER`, ...); empty when
    /// absent.
    pub fn var(&self, name: &str) -> &str {
        self.vars.get(name).map(String::as_str).unwrap_or("")
    }

    /// The broker's PLAINTEXT address.
    pub fn broker(&self) -> &str {
        self.var("KAFKA_CLUSTER_BROKER")
    }

    /// Runs `java -cp <Kafka's jars and the drivers> CLASS ARGS...` and
    /// returns its output; panics with the output when it fails.
    pub fn java(&self, class: &str, args: &[&str]) -> Output {
        let out = Command::new("java")
            .arg(format!("-Dlog4j2.configurationFile={}", self.var("KAFKA_CLUSTER_LOG4J")))
            .arg("-cp")
            .arg(self.var("KAFKA_CLUSTER_CLASSPATH"))
            .arg(class)
            .args(args)
            .output()
            .expect("java runs");
        assert!(
            out.status.success(),
            "java {class} {args:?} failed ({}):\n{}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }
}
