//! The layer test's reader: a crate's module tree from its `mod` declarations, the paths each
//! file names, resolved through re-exports to the file that defines them, and the layer table.

// Each test binary (layers, sizes) uses part of the reader.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One source file of the crate (test modules left out).
pub struct File {
    /// Relative to `src/`, with `/`.
    pub path: String,
    /// Its module path (`mod.rs` is its folder's module; `lib.rs` the empty path).
    pub module: Vec<String>,
    /// The text with comments, string and character literals and test modules blanked.
    code: String,
}

/// A crate's source files and what each names.
pub struct Crate {
    files: Vec<File>,
    by_module: BTreeMap<Vec<String>, usize>,
}

impl Crate {
    /// Reads the crate whose `lib.rs` is in `src`, following `mod` declarations.
    pub fn read(src: &str) -> Crate {
        let mut krate = Crate {
            files: Vec::new(),
            by_module: BTreeMap::new(),
        };
        krate.add(Path::new(src), PathBuf::from("lib.rs"), Vec::new());
        krate
    }

    fn add(&mut self, src: &Path, relative: PathBuf, module: Vec<String>) {
        let raw = std::fs::read_to_string(src.join(&relative))
            .unwrap_or_else(|e| panic!("{}: {e}", relative.display()));
        let (code, children) = without_tests(&blank_comments_and_literals(&raw));
        let path = relative.to_string_lossy().replace('\\', "/");
        self.by_module.insert(module.clone(), self.files.len());
        self.files.push(File {
            path,
            module: module.clone(),
            code,
        });
        let stem = relative.file_stem().unwrap().to_string_lossy().to_string();
        let dir = if stem == "lib" || stem == "mod" {
            relative.parent().unwrap().to_path_buf()
        } else {
            relative.with_extension("")
        };
        for child in children {
            let flat = dir.join(format!("{child}.rs"));
            let nested = dir.join(&child).join("mod.rs");
            let file = if src.join(&flat).exists() {
                flat
            } else {
                nested
            };
            let mut m = module.clone();
            m.push(child);
            self.add(src, file, m);
        }
    }

    /// Every file but `lib.rs` (the crate's face: its `pub use` lines hand names on).
    pub fn files(&self) -> impl Iterator<Item = &File> {
        self.files.iter().filter(|f| !f.module.is_empty())
    }

    /// (importing file, file that defines what it names, the path as written, made absolute)
    /// for every path into another file of the crate, but a module's paths to the files of its
    /// own submodules (its structure, not a dependency) and `lib.rs`'s.
    pub fn imports(&self) -> impl Iterator<Item = (&File, &File, String)> {
        self.files().flat_map(move |from| {
            named_paths(&from.code, &from.module, self)
                .into_iter()
                .filter_map(move |path| {
                    let to = &self.files[self.resolve(&path, 0)?];
                    let inside = to.module.starts_with(&from.module);
                    (!inside && !to.module.is_empty())
                        .then(|| (from, to, format!("crate::{}", path.join("::"))))
                })
        })
    }

    fn is_module(&self, module: &[String]) -> bool {
        self.by_module.contains_key(module)
    }

    /// The file that defines the item an absolute path names: through `pub use` lines, a glob's
    /// only where its module has the name; a name the file neither defines nor hands on (a
    /// variant, a method, a macro) is the file's own, but at the crate root (another crate's).
    fn resolve(&self, path: &[String], depth: usize) -> Option<usize> {
        self.resolve_in(path, depth, false)
    }

    fn resolve_in(&self, path: &[String], depth: usize, strict: bool) -> Option<usize> {
        if depth > 16 {
            return None;
        }
        let mut module: Vec<String> = Vec::new();
        for (i, segment) in path.iter().enumerate() {
            let mut deeper = module.clone();
            deeper.push(segment.clone());
            if self.is_module(&deeper) {
                module = deeper;
                continue;
            }
            let file = self.by_module[&module];
            if defines(&self.files[file].code, segment) {
                return Some(file);
            }
            for (target, glob) in self.reexports(file, segment) {
                let mut next = target;
                next.extend(path[i + 1..].iter().cloned());
                if let Some(found) = self.resolve_in(&next, depth + 1, strict || glob) {
                    return Some(found);
                }
            }
            return (!strict && !module.is_empty()).then_some(file);
        }
        Some(self.by_module[&module])
    }

    /// The absolute paths a module's `pub use` lines may hand `name` on from (true: through a
    /// glob).
    fn reexports(&self, file: usize, name: &str) -> Vec<(Vec<String>, bool)> {
        let f = &self.files[file];
        let mut found = Vec::new();
        for statement in use_statements(&f.code).filter(|s| s.public) {
            for (path, alias) in expand(&statement.tree) {
                let Some(abs) = absolute(&path, &f.module, self) else {
                    continue;
                };
                if alias.as_deref() == Some("*") {
                    let mut via = abs.clone();
                    via.push(name.to_string());
                    found.push((via, true));
                } else if alias.as_deref().unwrap_or(abs.last().map_or("", |s| s)) == name {
                    found.push((abs, false));
                }
            }
        }
        // Names handed on by name before globs.
        found.sort_by_key(|(_, glob)| *glob);
        found
    }
}

/// Whether the code defines an item of that name.
fn defines(code: &str, name: &str) -> bool {
    const KINDS: [&str; 9] = [
        "struct",
        "enum",
        "fn",
        "trait",
        "type",
        "const",
        "static",
        "union",
        "macro_rules!",
    ];
    let words: Vec<&str> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '!'))
        .collect();
    words
        .windows(2)
        .any(|w| w[1] == name && KINDS.contains(&w[0]))
}

/// A `use` statement's tree as text, and whether it re-exports (`pub`, `pub(…)`).
struct UseStatement {
    tree: String,
    public: bool,
}

fn use_statements(code: &str) -> impl Iterator<Item = UseStatement> + '_ {
    let bytes = code.as_bytes();
    word_positions(code, "use").filter_map(move |at| {
        let end = at + code[at..].find(';')?;
        let before = code[..at].trim_end();
        let public = before.ends_with("pub")
            || (before.ends_with(')') && {
                let open = before.rfind('(').unwrap_or(0);
                code[..open].trim_end().ends_with("pub")
            });
        let _ = bytes;
        Some(UseStatement {
            tree: code[at + 3..end].to_string(),
            public,
        })
    })
}

/// Positions of `word` standing alone (not inside a longer identifier).
fn word_positions<'a>(code: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let bytes = code.as_bytes();
    code.match_indices(word).map(|(i, _)| i).filter(move |&i| {
        (i == 0 || !ident(bytes[i - 1])) && bytes.get(i + word.len()).is_none_or(|&c| !ident(c))
    })
}

/// A use tree's leaves: each path's segments and its alias (`*` for a glob).
fn expand(tree: &str) -> Vec<(Vec<String>, Option<String>)> {
    let compact: String = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = Vec::new();
    leaves(&compact, &mut Vec::new(), &mut out);
    out
}

fn leaves(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, Option<String>)>) {
    let tree = tree.trim();
    if tree.is_empty() {
        return;
    }
    if let Some(open) = tree.find('{') {
        let head: Vec<String> = split_path(&tree[..open]);
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let n = prefix.len();
        prefix.extend(head);
        for part in split_top_level(inner) {
            leaves(part, prefix, out);
        }
        prefix.truncate(n);
        return;
    }
    let (path, alias) = match tree.split_once(" as ") {
        Some((p, a)) => (p, Some(a.trim().to_string())),
        None => (tree, None),
    };
    let mut full = prefix.clone();
    let mut alias = alias;
    for segment in split_path(path) {
        match segment.as_str() {
            "*" => alias = Some("*".into()),
            "self" if !full.is_empty() => {}
            _ => full.push(segment),
        }
    }
    out.push((full, alias));
}

fn split_path(text: &str) -> Vec<String> {
    text.split("::")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// A written path made absolute (segments after `crate`), or `None` for another crate's.
fn absolute(path: &[String], module: &[String], krate: &Crate) -> Option<Vec<String>> {
    let mut base: Vec<String> = module.to_vec();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &path[1..];
        }
        Some("self") => rest = &path[1..],
        Some("super") => {
            while rest.first().map(String::as_str) == Some("super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        Some(first) => {
            // A path relative to the module: only its own submodules count.
            let mut child = module.to_vec();
            child.push(first.to_string());
            if !krate.is_module(&child) {
                return None;
            }
        }
        None => return None,
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// Every absolute path a file names: its `use` trees' leaves and its inline
/// `crate::`/`super::`/`self::` paths.
fn named_paths(code: &str, module: &[String], krate: &Crate) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut inline = code.to_string();
    for statement in use_statements(code) {
        for (path, _) in expand(&statement.tree) {
            if matches!(
                path.first().map(String::as_str),
                Some("crate" | "super" | "self")
            ) {
                paths.extend(absolute(&path, module, krate));
            }
        }
    }
    // Blank the use statements, then read the inline paths.
    for at in word_positions(code, "use").collect::<Vec<_>>() {
        if let Some(len) = code[at..].find(';') {
            inline.replace_range(at..at + len, &" ".repeat(len));
        }
    }
    let bytes = inline.as_bytes();
    for start in ["crate", "super", "self"] {
        for at in word_positions(&inline, start) {
            let mut end = at;
            while end < bytes.len()
                && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_' || bytes[end] == b':')
            {
                end += 1;
            }
            let written = split_path(&inline[at..end]);
            if written.len() > 1 && (at < 2 || &inline[at - 2..at] != "::") {
                paths.extend(absolute(&written, module, krate));
            }
        }
    }
    paths
}

/// Comments, string literals and character literals replaced by spaces (newlines kept).
pub fn blank_comments_and_literals(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            loop {
                if i >= b.len() {
                    break;
                }
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident_before(&b, i) {
            let mut hashes = 0;
            let mut j = i + 1;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            while j < b.len()
                && !(b[j] == '"' && (0..hashes).all(|h| b.get(j + 1 + h) == Some(&'#')))
            {
                j += 1;
            }
            let end = (j + 1 + hashes).min(b.len());
            out.extend(b[i..end].iter().map(|&c| blank(c)));
            i = end;
        } else if c == '"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != '"' {
                j += if b[j] == '\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(b.len());
            out.extend(b[i..end].iter().map(|&c| blank(c)));
            i = end;
        } else if c == '\'' && (next == Some('\\') || b.get(i + 2) == Some(&'\'')) {
            let mut j = i + 1;
            while j < b.len() && b[j] != '\'' {
                j += if b[j] == '\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(b.len());
            out.extend(b[i..end].iter().map(|&c| blank(c)));
            i = end;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_before(b: &[char], i: usize) -> bool {
    i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_')
}

/// The code without its `#[cfg(test)]` modules (inline ones blanked), and the modules it declares
/// in files of their own (test modules left out).
fn without_tests(code: &str) -> (String, Vec<String>) {
    let mut code = code.to_string();
    while let Some(at) = code.find("#[cfg(test)]") {
        let after = at + "#[cfg(test)]".len();
        let rest = &code[after..];
        let end = match (rest.find(';'), rest.find('{')) {
            (Some(semi), Some(brace)) if brace < semi => after + matching_brace(rest, brace),
            (Some(semi), _) => after + semi + 1,
            (None, Some(brace)) => after + matching_brace(rest, brace),
            (None, None) => code.len(),
        };
        let blank: String = code[at..end]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        code.replace_range(at..end, &blank);
    }
    let mut children = Vec::new();
    for at in word_positions(&code, "mod") {
        let rest = &code[at + 3..];
        let name: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let after = rest.trim_start()[name.len()..].trim_start();
        if !name.is_empty() && after.starts_with(';') {
            children.push(name);
        }
    }
    (code, children)
}

fn matching_brace(text: &str, open: usize) -> usize {
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return open + i + 1;
                }
            }
            _ => {}
        }
    }
    text.len()
}

/// The layer table of ARCHITECTURE.md: a fenced block opened with "```text layers", one layer a
/// line from the top, `name: module module::submodule …`.
pub struct Layers {
    /// From the ground up: the layer's name and its module prefixes.
    layers: Vec<(String, Vec<Vec<String>>)>,
}

impl Layers {
    pub fn from_architecture(text: &str) -> Layers {
        let start = text
            .find("```text layers")
            .expect("a ```text layers block in ARCHITECTURE.md");
        let block = &text[start..];
        let block = &block[block.find('\n').unwrap() + 1..];
        let block = &block[..block.find("```").expect("the layers block closed")];
        let mut layers: Vec<(String, Vec<Vec<String>>)> = block
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|line| {
                let (name, modules) = line.split_once(':').expect("`layer: modules`");
                let modules = modules.split_whitespace().map(split_path).collect();
                (name.trim().to_string(), modules)
            })
            .collect();
        layers.reverse();
        Layers { layers }
    }

    /// The layer (counted from the ground) of the longest module prefix the table lists.
    pub fn of(&self, module: &[String]) -> Option<usize> {
        let mut best: Option<(usize, usize)> = None;
        for (rank, (_, prefixes)) in self.layers.iter().enumerate() {
            for prefix in prefixes {
                if module.starts_with(prefix) && best.is_none_or(|(len, _)| prefix.len() > len) {
                    best = Some((prefix.len(), rank));
                }
            }
        }
        best.map(|(_, rank)| rank)
    }

    pub fn name(&self, rank: usize) -> &str {
        &self.layers[rank].0
    }
}

/// The strongly connected components of more than one node (Tarjan), each sorted, in order.
pub fn circles(edges: &[(String, String)]) -> Vec<Vec<String>> {
    let mut graph: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (a, b) in edges {
        if a != b {
            graph.entry(a).or_default().insert(b);
            graph.entry(b).or_default();
        }
    }
    let nodes: Vec<&str> = graph.keys().copied().collect();
    let index_of: BTreeMap<&str, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let adjacency: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| graph[n].iter().map(|m| index_of[m]).collect())
        .collect();
    let mut found: Vec<Vec<String>> = tarjan(&adjacency)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            let mut names: Vec<String> = c.iter().map(|&i| nodes[i].to_string()).collect();
            names.sort();
            names
        })
        .collect();
    found.sort();
    found
}

fn tarjan(adjacency: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct State<'a> {
        adjacency: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        components: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for k in 0..s.adjacency[v].len() {
            let w = s.adjacency[v][k];
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(i) if s.on_stack[w] => s.low[v] = s.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            s.components.push(component);
        }
    }
    let n = adjacency.len();
    let mut s = State {
        adjacency,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        components: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.components
}
