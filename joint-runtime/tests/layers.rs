//! The runtime's layers, enforced (rust-analyzer's tidy tests): every path into the crate that a
//! source file names — `use` trees and inline paths alike, `crate::`, `super::` and `self::` —
//! is resolved to the file that defines it, and
//!
//! - no file imports from a layer above its own (the layers are the table in ARCHITECTURE.md,
//!   "The runtime's layers", read by this test: the document is the data);
//! - no files import each other in a circle, and no modules (the folders and files directly
//!   under `src/`) do.
//!
//! Test code (`#[cfg(test)]` modules, inline or in their own files) is left out: an oracle test
//! may build a whole system from below. Comments, doc comments and string literals are left out
//! too, so an intra-doc link is not an import.

mod layers_support;

use layers_support::{Crate, Layers, circles};

fn runtime() -> Crate {
    Crate::read(concat!(env!("CARGO_MANIFEST_DIR"), "/src"))
}

fn layers() -> Layers {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../ARCHITECTURE.md"))
        .expect("ARCHITECTURE.md beside the workspace's manifest");
    Layers::from_architecture(&text)
}

#[test]
fn every_source_file_sits_in_a_layer() {
    let krate = runtime();
    let layers = layers();
    let lost: Vec<String> = krate
        .files()
        .filter(|f| layers.of(&f.module).is_none())
        .map(|f| f.module.join("::"))
        .collect();
    assert!(
        lost.is_empty(),
        "modules in no layer of ARCHITECTURE.md: {lost:?}"
    );
}

#[test]
fn no_import_goes_up_a_layer() {
    let krate = runtime();
    let layers = layers();
    let mut upward = Vec::new();
    for (from, to, path) in krate.imports() {
        let (Some(a), Some(b)) = (layers.of(&from.module), layers.of(&to.module)) else {
            continue;
        };
        if b > a {
            upward.push(format!(
                "{} (layer {}) names `{path}` in {} (layer {})",
                from.path,
                layers.name(a),
                to.path,
                layers.name(b)
            ));
        }
    }
    assert!(
        upward.is_empty(),
        "imports up a layer:\n{}",
        upward.join("\n")
    );
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let krate = runtime();
    let edges: Vec<(String, String, String)> = krate
        .imports()
        .map(|(a, b, p)| (a.path.clone(), b.path.clone(), p))
        .collect();
    let found = explained(&edges);
    assert!(found.is_empty(), "file circles:\n{found}");
}

#[test]
fn no_modules_import_each_other_in_a_circle() {
    let krate = runtime();
    let edges: Vec<(String, String, String)> = krate
        .imports()
        .map(|(a, b, p)| {
            (
                a.module[0].clone(),
                b.module[0].clone(),
                format!("{}: {p}", a.path),
            )
        })
        .collect();
    let found = explained(&edges);
    assert!(found.is_empty(), "module circles:\n{found}");
}

/// Each circle with the arrows inside it (one path named for each).
fn explained(edges: &[(String, String, String)]) -> String {
    let pairs: Vec<(String, String)> = edges
        .iter()
        .map(|(a, b, _)| (a.clone(), b.clone()))
        .collect();
    let mut text = String::new();
    for circle in circles(&pairs) {
        text += &format!("{circle:?}\n");
        let mut seen = std::collections::BTreeSet::new();
        for (a, b, why) in edges {
            if a != b && circle.contains(a) && circle.contains(b) && seen.insert((a, b)) {
                text += &format!("  {a} -> {b} ({why})\n");
            }
        }
    }
    text
}

/// The test's own reader: a planted upward import and a planted circle are found, a comment, a
/// string and a test module are not imports.
#[test]
fn the_reader_finds_planted_imports_and_ignores_comments_and_tests() {
    let dir = std::env::temp_dir().join(format!("layers-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("low")).unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write("lib.rs", "mod low;\npub mod high;\npub use high::Top;\n");
    write(
        "low/mod.rs",
        "mod leaf;\n/// [`crate::high::Top`]\npub struct Base(crate::Top);\n\
         #[cfg(test)]\nmod tests { use crate::high::Top; }\n",
    );
    write(
        "low/leaf.rs",
        "use super::super::high::{self, Top as T};\nconst S: &str = \"crate::high\";\n",
    );
    write("high.rs", "use crate::low::Base;\npub struct Top;\n");
    let krate = Crate::read(dir.to_str().unwrap());
    let mut edges: Vec<String> = krate
        .imports()
        .map(|(a, b, p)| format!("{} -> {} ({p})", a.path, b.path))
        .collect();
    edges.sort();
    edges.dedup();
    assert_eq!(
        edges,
        [
            "high.rs -> low/mod.rs (crate::low::Base)",
            "low/leaf.rs -> high.rs (crate::high)",
            "low/leaf.rs -> high.rs (crate::high::Top)",
            "low/mod.rs -> high.rs (crate::Top)",
        ]
    );
    let layers = Layers::from_architecture("```text layers\nhigh: high\nlow: low\n```\n");
    assert_eq!(layers.of(&["low".into(), "leaf".into()]), Some(0));
    assert_eq!(layers.of(&["high".into()]), Some(1));
    let pairs: Vec<(String, String)> = krate
        .imports()
        .map(|(a, b, _)| (a.path.clone(), b.path.clone()))
        .collect();
    assert_eq!(
        circles(&pairs),
        [vec!["high.rs".to_string(), "low/mod.rs".to_string()]]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
