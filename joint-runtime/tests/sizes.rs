//! The workspace's hand-written sources stay small (rust-analyzer's tidy tests): no Rust file
//! over 800 lines and no function over 150, tests included. Generated code (`generated/`,
//! snapshots), vendored files and build output are exempt.
//!
//! Two lists hold what is not there yet, and may only shrink: a file or function in them
//! that has come within the limit, or grown past its recorded length, fails the test, so the
//! lists say exactly what is left.

mod layers_support;

use std::path::{Path, PathBuf};

use layers_support::blank_comments_and_literals;

const FILE_LINES: usize = 800;
const FUNCTION_LINES: usize = 150;

/// Files over the limit: (path from the workspace root, its lines today, why).
const LONG_FILES: &[(&str, usize, &str)] = &[];

/// Functions over the limit: (file, function, its lines today).
const LONG_FUNCTIONS: &[(&str, &str, usize)] = &[];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Every hand-written `.rs` file of the workspace, relative to its root, sorted.
fn sources() -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                let skipped = ["target", "node_modules", "generated", "vendor", "snapshots"];
                if !name.starts_with('.') && !skipped.contains(&name.as_str()) {
                    walk(root, &path, out);
                }
            } else if name.ends_with(".rs") {
                let relative = path.strip_prefix(root).unwrap();
                out.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let root = workspace();
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    out.sort();
    out
}

/// (name, first line, lines) of every function with a body in `code` (comments and literals
/// blanked), nested ones included.
fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let bytes = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    for (at, _) in code.match_indices("fn") {
        let before_ok = at == 0 || !ident(bytes[at - 1]);
        let after = &code[at + 2..];
        let name: String = after
            .trim_start()
            .chars()
            .take_while(|&c| c.is_alphanumeric() || c == '_')
            .collect();
        if !before_ok || !after.starts_with(char::is_whitespace) || name.is_empty() {
            continue;
        }
        // the body opens at the first `{` outside parentheses and angle brackets, unless a
        // `;` comes first (a declaration without a body)
        let (mut depth, mut open) = (0i32, None);
        for (i, c) in after.char_indices() {
            match c {
                '(' | '<' | '[' => depth += 1,
                ')' | '>' | ']' => depth -= 1,
                ';' if depth <= 0 => break,
                '{' if depth <= 0 => {
                    open = Some(at + 2 + i);
                    break;
                }
                _ => {}
            }
        }
        let Some(open) = open else { continue };
        let mut level = 0;
        let mut close = code.len();
        for (i, c) in code[open..].char_indices() {
            match c {
                '{' => level += 1,
                '}' => {
                    level -= 1;
                    if level == 0 {
                        close = open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let first = code[..at].matches('\n').count() + 1;
        let last = code[..close].matches('\n').count() + 1;
        out.push((name, first, last - first + 1));
    }
    out
}

#[test]
fn no_source_file_is_over_800_lines() {
    let root = workspace();
    let mut problems = Vec::new();
    for path in sources() {
        let lines = std::fs::read_to_string(root.join(&path))
            .unwrap()
            .lines()
            .count();
        match LONG_FILES.iter().find(|(p, _, _)| *p == path) {
            Some((_, recorded, _)) if lines <= FILE_LINES => {
                problems.push(format!(
                    "{path}: {lines} lines, within the limit: take it off the list (was {recorded})"
                ));
            }
            Some((_, recorded, _)) if lines > *recorded => {
                problems.push(format!(
                    "{path}: {lines} lines, grown past its recorded {recorded}"
                ));
            }
            Some(_) => {}
            None if lines > FILE_LINES => {
                problems.push(format!("{path}: {lines} lines (limit {FILE_LINES})"))
            }
            None => {}
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn no_function_is_over_150_lines() {
    let root = workspace();
    let mut problems = Vec::new();
    let mut seen = Vec::new();
    for path in sources() {
        let code = blank_comments_and_literals(&std::fs::read_to_string(root.join(&path)).unwrap());
        for (name, line, lines) in functions(&code) {
            let recorded = LONG_FUNCTIONS
                .iter()
                .find(|(p, f, _)| *p == path && *f == name);
            match recorded {
                Some(&(_, _, max)) => {
                    seen.push((path.clone(), name.clone()));
                    if lines <= FUNCTION_LINES {
                        problems.push(format!("{path}:{line} `{name}`: {lines} lines, within the limit: take it off the list"));
                    } else if lines > max {
                        problems.push(format!(
                            "{path}:{line} `{name}`: {lines} lines, grown past its recorded {max}"
                        ));
                    }
                }
                None if lines > FUNCTION_LINES => {
                    problems.push(format!("(\"{path}\", \"{name}\", {lines}), // line {line}"));
                }
                None => {}
            }
        }
    }
    for (path, name, _) in LONG_FUNCTIONS {
        if !seen.iter().any(|(p, f)| p == path && f == name) {
            problems.push(format!(
                "{path} `{name}`: no longer there: take it off the list"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "functions over {FUNCTION_LINES} lines:\n{}",
        problems.join("\n")
    );
}

/// The reader's function lengths: a body's lines from `fn` to its closing brace, a declaration
/// without a body skipped, a function pointer type no function.
#[test]
fn functions_are_measured_from_fn_to_the_closing_brace() {
    let code = "trait T { fn declared(&self) -> u8; }\n\
                fn outer(f: fn(u8) -> u8) -> Vec<u8> {\n    let x = [1];\n    fn inner() {}\n    vec![]\n}\n";
    let found = functions(code);
    assert_eq!(
        found,
        [("outer".to_string(), 2, 5), ("inner".to_string(), 4, 1)]
    );
}
