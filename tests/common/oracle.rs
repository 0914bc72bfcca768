//! The client side of Kafka's oracle (`interop/conformance/java/Oracle.java`, built
//! by `interop/scripts/kafka-oracle.sh`): one JVM per release, fed questions through
//! a pipe, one line each, and answering one line each.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// One JVM running `Oracle` for one release.
pub struct Oracle {
    child: Child,
    stdin: Option<BufWriter<ChildStdin>>,
    stdout: BufReader<ChildStdout>,
    stderr: Option<std::thread::JoinHandle<String>>,
    /// Time spent waiting for answers.
    pub waiting: Duration,
}

impl Oracle {
    pub fn start(launcher: &Path) -> Self {
        let mut child = Command::new(launcher)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", launcher.display()));
        let stdin = BufWriter::with_capacity(1 << 16, child.stdin.take().expect("piped"));
        let stdout = BufReader::with_capacity(1 << 16, child.stdout.take().expect("piped"));
        // Kept for the panic message if the JVM dies (slf4j's warning
        // about a missing binding lands here too).
        let mut err = child.stderr.take().expect("piped");
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = err.read_to_string(&mut text);
            text
        });
        Oracle { child, stdin: Some(stdin), stdout, stderr: Some(stderr), waiting: Duration::ZERO }
    }

    /// Sends every question and returns the answers in order. A thread
    /// writes while this one reads, so neither pipe fills up.
    pub fn ask_all(&mut self, questions: &[String]) -> Vec<String> {
        let started = Instant::now();
        let stdin = self.stdin.as_mut().expect("open until drop");
        let stdout = &mut self.stdout;
        let answers = std::thread::scope(|s| {
            let writer = s.spawn(move || -> std::io::Result<()> {
                for q in questions {
                    debug_assert!(!q.contains('\n'));
                    stdin.write_all(q.as_bytes())?;
                    stdin.write_all(b"\n")?;
                }
                stdin.flush()
            });
            let mut answers = Vec::with_capacity(questions.len());
            let mut line = String::new();
            for _ in questions {
                line.clear();
                match stdout.read_line(&mut line) {
                    Ok(n) if n > 0 => answers.push(line.trim_end_matches('\n').to_string()),
                    _ => break,
                }
            }
            let written = writer.join().expect("writer thread");
            (answers, written)
        });
        let (answers, written) = answers;
        self.waiting += started.elapsed();
        if answers.len() != questions.len() || written.is_err() {
            let stderr = self.finish();
            panic!(
                "the oracle stopped after {} of {} answers ({written:?}); its stderr:\n{stderr}",
                answers.len(),
                questions.len()
            );
        }
        answers
    }

    pub fn ask(&mut self, question: &str) -> String {
        self.ask_all(&[question.to_string()]).remove(0)
    }

    /// Closes stdin, waits for the JVM and returns its stderr.
    pub fn finish(&mut self) -> String {
        self.stdin.take();
        let _ = self.child.wait();
        self.stderr.take().map(|h| h.join().unwrap_or_default()).unwrap_or_default()
    }
}

impl Drop for Oracle {
    fn drop(&mut self) {
        self.stdin.take();
        if self.child.try_wait().ok().flatten().is_none() {
            // It ends on end of input; give it a moment, then end it.
            let deadline = Instant::now() + Duration::from_secs(5);
            while Instant::now() < deadline {
                if self.child.try_wait().ok().flatten().is_some() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// `-` stands for no bytes on the oracle's line.
pub fn hex_word(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        "-".into()
    } else {
        hex::encode(bytes)
    }
}

/// Checks the oracle's answer to `rdecode FAMILY KIND TYPE VERSION HEX`
/// about `bytes`, whose JSON form kwire writes as `json`: Kafka must
/// read them, write the same bytes again (the same size, nothing left over)
/// and write the same JSON. Kafka's JSON, or what went wrong.
pub fn check_rdecode(answer: &str, bytes: &[u8], json: &serde_json::Value) -> Result<serde_json::Value, String> {
    let ours = hex_word(bytes);
    let Some(rest) = answer.strip_prefix("ok ") else {
        return Err(format!("Kafka refuses {ours}: {answer}"));
    };
    let words: Vec<&str> = rest.splitn(4, ' ').collect();
    let word = |i: usize| words.get(i).copied().unwrap_or("?");
    if word(0) != ours || word(1) != bytes.len().to_string() || word(2) != "0" {
        return Err(format!("Kafka wrote {} (size {}, left {}), the bytes are {ours}", word(0), word(1), word(2)));
    }
    let json_text = answer.split_once(" json ").map(|(_, j)| j).unwrap_or_default();
    let theirs: serde_json::Value =
        serde_json::from_str(json_text).map_err(|e| format!("no JSON from Kafka ({e}): {answer}"))?;
    if theirs != *json {
        return Err(format!("JSON differs:\n  Kafka {theirs}\n  ours  {json}"));
    }
    Ok(theirs)
}
