//! The examples (examples/) as executables for the tests that run them,
//! built by a nested `cargo build` with the features the test itself was
//! built with: `cargo test` has normally built them already, so nothing is
//! compiled, and with every feature on (as in CI) `--all-features` keeps
//! cargo's fingerprint.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Every feature of the crate, and whether this test was built with it.
fn features() -> [(&'static str, bool); 13] {
    [
        ("admin", cfg!(feature = "admin")),
        ("controller", cfg!(feature = "controller")),
        ("gzip", cfg!(feature = "gzip")),
        ("snappy", cfg!(feature = "snappy")),
        ("lz4", cfg!(feature = "lz4")),
        ("zstd", cfg!(feature = "zstd")),
        ("sample", cfg!(feature = "sample")),
        ("borrowed", cfg!(feature = "borrowed")),
        ("json", cfg!(feature = "json")),
        ("serde", cfg!(feature = "serde")),
        ("uuid", cfg!(feature = "uuid")),
        ("tokio", cfg!(feature = "tokio")),
        ("internal-records", cfg!(feature = "internal-records")),
    ]
}

/// The executable of the example `name`, built once per test run.
///
/// # Panics
/// With cargo's messages when the build fails (the test was built without
/// a feature the example requires, say), or when cargo names no executable.
pub fn example(name: &str) -> PathBuf {
    static BUILT: Mutex<BTreeMap<String, PathBuf>> = Mutex::new(BTreeMap::new());
    // Held while building: one nested cargo at a time.
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(path) = built.get(name) {
        return path.clone();
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command.current_dir(env!("CARGO_MANIFEST_DIR")).args([
        "build",
        "--example",
        name,
        "--message-format=json-render-diagnostics",
    ]);
    let features = features();
    if features.iter().all(|(_, on)| *on) {
        command.arg("--all-features");
    } else {
        let on: Vec<&str> = features.iter().filter(|(_, on)| *on).map(|(feature, _)| *feature).collect();
        command.arg("--no-default-features").arg("--features").arg(on.join(","));
    }
    let out = command.output().expect("cargo runs");
    assert!(out.status.success(), "building examples/{name} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let path = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| {
            m["reason"] == "compiler-artifact" && m["target"]["name"] == name && m["target"]["kind"][0] == "example"
        })
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| panic!("cargo names no executable of examples/{name}"));
    built.insert(name.to_string(), path.clone());
    path
}

/// An example running as a process of its own, killed by pid when dropped;
/// its stderr is kept (the first 16 MiB).
pub struct Running {
    child: Child,
    /// The port it listens on.
    pub port: u16,
    log: Arc<Mutex<String>>,
}

impl Running {
    /// Starts the example `name` with `args` and waits (30 s at most) for
    /// the stderr line from which `port_of` reads the port it listens on.
    ///
    /// # Panics
    /// When it does not start, or says no port in time.
    pub fn start(name: &str, args: &[&str], port_of: fn(&str) -> Option<u16>) -> Running {
        let mut child = Command::new(example(name))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("examples/{name} starts: {e}"));
        let log = Arc::new(Mutex::new(String::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        let stderr = child.stderr.take().expect("piped stderr");
        let sink = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(port) = port_of(&line) {
                    let _ = tx.send(port);
                }
                let mut log = sink.lock().unwrap_or_else(|e| e.into_inner());
                if log.len() < 16 << 20 {
                    log.push_str(&line);
                    log.push('\n');
                }
            }
        });
        let mut running = Running { child, port: 0, log };
        match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(port) => running.port = port,
            Err(_) => panic!("examples/{name} did not start listening:\n{}", running.log()),
        }
        running
    }

    /// `127.0.0.1:PORT`.
    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// What it wrote to stderr so far.
    pub fn log(&self) -> String {
        self.log.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The port of the example broker's `listening on 127.0.0.1:PORT...` line.
pub fn broker_port(line: &str) -> Option<u16> {
    let rest = &line[line.find("listening on ")? + "listening on ".len()..];
    rest.split([' ', ':']).nth(1)?.parse().ok()
}
