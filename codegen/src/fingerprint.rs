//! The fingerprint of a message set's sources: its facts file and every
//! file under its schema directories, so that a build can tell whether
//! committed output was generated from them without compiling anything.
//!
//! FNV-1a (64 bits) over each file in path order: its path relative to the
//! facts file's directory (`/`-separated), a zero byte, its length as 8
//! little-endian bytes, its bytes. Written as `fnv1a64:` and 16 hex digits.

use std::path::{Path, PathBuf};

/// The fingerprint of `facts` (a file) and every file under `dirs`, paths
/// taken relative to `root`.
///
/// # Errors
/// The I/O error of a file or directory that cannot be read, with its path.
pub fn fingerprint(root: &Path, facts: &Path, dirs: &[PathBuf]) -> Result<String, (PathBuf, std::io::Error)> {
    let mut files = vec![facts.to_path_buf()];
    for dir in dirs {
        walk(dir, &mut files)?;
    }
    let mut named: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(root).unwrap_or(&f);
            let name: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            (name.join("/"), f)
        })
        .collect();
    named.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for (name, path) in &named {
        let bytes = std::fs::read(path).map_err(|e| (path.clone(), e))?;
        feed(name.as_bytes());
        feed(&[0]);
        feed(&(bytes.len() as u64).to_le_bytes());
        feed(&bytes);
    }
    Ok(format!("fnv1a64:{hash:016x}"))
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), (PathBuf, std::io::Error)> {
    let entries = std::fs::read_dir(dir).map_err(|e| (dir.to_path_buf(), e))?;
    for entry in entries {
        let path = entry.map_err(|e| (dir.to_path_buf(), e))?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}
