//! Shared helpers of the integration tests: where the PGN data lives.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The shared PGN data directory (`../shared/data/pgn` from the project
/// root). Fails the test with a plain message when it is absent: these
/// tests must never pass without their data.
pub fn data_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/pgn");
    assert!(
        dir.is_dir(),
        "../shared is missing: the PGN test data was expected at {} (the shared data directory next to the project root). \
         These tests need it and fail without it.",
        dir.display()
    );
    dir
}

/// Every `.pgn` file under the data directory, as paths relative to it with
/// `/` separators, sorted (the order make_reference.py uses).
pub fn pgn_files() -> Vec<String> {
    let root = data_dir();
    let mut out = Vec::new();
    let mut todo = vec![root.clone()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).expect("read data directory") {
            let path = entry.expect("read data directory entry").path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "pgn") {
                let rel = path.strip_prefix(&root).expect("inside the data directory");
                let parts: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.push(parts.join("/"));
            }
        }
    }
    out.sort();
    assert!(!out.is_empty(), "no .pgn files under {}", root.display());
    out
}

/// Opens a data file for the reader.
pub fn open(rel: &str) -> std::io::BufReader<std::fs::File> {
    let path = data_dir().join(rel);
    let f = std::fs::File::open(&path).unwrap_or_else(|e| panic!("open {}: {e}", path.display()));
    std::io::BufReader::new(f)
}
