//! Parameter overrides for `jointsim sweep`: an OVERRIDES file is a JSON array whose entries
//! map RFC 6901 JSON Pointers into the model file (`/objects/1/mass`) to new values.
//!
//! An override is applied to the model file's *text*: the value the pointer names is cut out and
//! the override's value is put in, exactly as it is written in the OVERRIDES file. Every other
//! byte of the model stays as it was, so the overridden model is the file one would get by
//! editing the model by hand, and `jointsim run` on that file gives the same result. (Going
//! through a parsed and re-serialized document could move numbers that do not round-trip.)
//!
//! A pointer must name a value that exists in the model (keys are never added), and the new
//! value must be of the same JSON kind as the old one (a number for a number, an array for an
//! array; arrays and dictionaries may replace each other, as Exudyn's matrix containers are
//! either). Whether the new value is valid is decided by the model reader, as for any model file.

use std::ops::Range;

use serde_json::Value;

/// The JSON kind of a value, from its first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `{…}`
    Object,
    /// `[…]`
    Array,
    /// `"…"`
    String,
    /// A number.
    Number,
    /// `true` or `false`.
    Bool,
    /// `null`.
    Null,
}

impl Kind {
    fn of(first: u8) -> Kind {
        match first {
            b'{' => Kind::Object,
            b'[' => Kind::Array,
            b'"' => Kind::String,
            b't' | b'f' => Kind::Bool,
            b'n' => Kind::Null,
            _ => Kind::Number,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Object => "a dictionary",
            Kind::Array => "an array",
            Kind::String => "a string",
            Kind::Number => "a number",
            Kind::Bool => "true or false",
            Kind::Null => "null",
        }
    }

    /// Whether a value of kind `new` may stand where one of kind `self` stood.
    fn accepts(self, new: Kind) -> bool {
        self == new
            || matches!(
                (self, new),
                (Kind::Array, Kind::Object) | (Kind::Object, Kind::Array)
            )
    }
}

// ----- a scanner over JSON text that serde_json has already accepted ----------------------

/// Positions in a JSON text. The text is parsed by serde_json first, so it is valid JSON; the
/// scanner still never indexes out of bounds and reports anything unexpected as an error.
struct Scan<'a> {
    b: &'a [u8],
}

const UNEXPECTED: &str = "unexpected end or character in the JSON text";

impl Scan<'_> {
    fn ws(&self, mut i: usize) -> usize {
        while matches!(self.b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            i += 1;
        }
        i
    }

    fn byte(&self, i: usize) -> Result<u8, String> {
        self.b.get(i).copied().ok_or_else(|| UNEXPECTED.to_owned())
    }

    /// The end (exclusive) of the string starting at `i` (at its `"`).
    fn string_end(&self, i: usize) -> Result<usize, String> {
        let mut j = i + 1;
        loop {
            match self.byte(j)? {
                b'"' => return Ok(j + 1),
                b'\\' => j += 2,
                _ => j += 1,
            }
        }
    }

    /// The end (exclusive) of the value starting at `i`.
    fn value_end(&self, i: usize) -> Result<usize, String> {
        match self.byte(i)? {
            b'"' => self.string_end(i),
            b'{' | b'[' => {
                let mut depth = 0usize;
                let mut j = i;
                loop {
                    match self.byte(j)? {
                        b'"' => {
                            j = self.string_end(j)?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                return Ok(j + 1);
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
            }
            _ => {
                let mut j = i;
                while let Some(c) = self.b.get(j) {
                    if matches!(c, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    j += 1;
                }
                if j == i {
                    return Err(UNEXPECTED.to_owned());
                }
                Ok(j)
            }
        }
    }

    /// The members of the dictionary starting at `i`: decoded key and value range, in order.
    fn members(&self, i: usize) -> Result<Vec<(String, Range<usize>)>, String> {
        let mut out = Vec::new();
        let mut j = self.ws(i + 1);
        if self.byte(j)? == b'}' {
            return Ok(out);
        }
        loop {
            if self.byte(j)? != b'"' {
                return Err(UNEXPECTED.to_owned());
            }
            let key_end = self.string_end(j)?;
            let raw = &self.b[j..key_end];
            let key = if raw.contains(&b'\\') {
                serde_json::from_slice::<String>(raw).map_err(|e| e.to_string())?
            } else {
                String::from_utf8_lossy(&raw[1..raw.len() - 1]).into_owned()
            };
            j = self.ws(key_end);
            if self.byte(j)? != b':' {
                return Err(UNEXPECTED.to_owned());
            }
            let start = self.ws(j + 1);
            let end = self.value_end(start)?;
            out.push((key, start..end));
            j = self.ws(end);
            match self.byte(j)? {
                b',' => j = self.ws(j + 1),
                b'}' => return Ok(out),
                _ => return Err(UNEXPECTED.to_owned()),
            }
        }
    }

    /// The element ranges of the array starting at `i`.
    fn elements(&self, i: usize) -> Result<Vec<Range<usize>>, String> {
        let mut out = Vec::new();
        let mut j = self.ws(i + 1);
        if self.byte(j)? == b']' {
            return Ok(out);
        }
        loop {
            let end = self.value_end(j)?;
            out.push(j..end);
            j = self.ws(end);
            match self.byte(j)? {
                b',' => j = self.ws(j + 1),
                b']' => return Ok(out),
                _ => return Err(UNEXPECTED.to_owned()),
            }
        }
    }
}

// ----- JSON Pointers -----------------------------------------------------------------------

/// A parsed RFC 6901 JSON Pointer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pointer {
    /// The pointer as written (`/objects/3/stiffness`).
    pub text: String,
    tokens: Vec<String>,
}

impl Pointer {
    /// Parse `text`, or say what is wrong with it.
    pub fn parse(text: &str) -> Result<Pointer, String> {
        if text.is_empty() {
            return Err(
                "the empty pointer names the whole model; an override replaces a value inside it"
                    .to_owned(),
            );
        }
        let Some(rest) = text.strip_prefix('/') else {
            return Err(format!(
                "`{text}` is not a JSON Pointer (RFC 6901): it must start with `/` (did you mean `/{text}`?)"
            ));
        };
        let mut tokens = Vec::new();
        for raw in rest.split('/') {
            let mut token = String::new();
            let mut chars = raw.chars();
            while let Some(c) = chars.next() {
                if c == '~' {
                    match chars.next() {
                        Some('0') => token.push('~'),
                        Some('1') => token.push('/'),
                        _ => {
                            return Err(format!(
                                "`{text}` is not a JSON Pointer (RFC 6901): `~` must be followed by 0 (for `~`) or 1 (for `/`)"
                            ));
                        }
                    }
                } else {
                    token.push(c);
                }
            }
            tokens.push(token);
        }
        Ok(Pointer {
            text: text.to_owned(),
            tokens,
        })
    }

    /// Whether one pointer is the other or inside it.
    fn overlaps(&self, other: &Pointer) -> bool {
        let n = self.tokens.len().min(other.tokens.len());
        self.tokens[..n] == other.tokens[..n]
    }
}

/// The pointer text of the first `n` tokens.
fn prefix_text(tokens: &[String]) -> String {
    if tokens.is_empty() {
        return "the top level".to_owned();
    }
    let mut s = String::new();
    for t in tokens {
        s.push('/');
        s.push_str(&t.replace('~', "~0").replace('/', "~1"));
    }
    s
}

fn is_index(token: &str) -> bool {
    token == "0"
        || (!token.is_empty()
            && !token.starts_with('0')
            && token.bytes().all(|c| c.is_ascii_digit()))
}

/// Edit distance, for "did you mean" hints.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

fn suggestion(key: &str, keys: &[String]) -> Option<String> {
    let lower = key.to_lowercase();
    keys.iter()
        .map(|k| {
            let kl = k.to_lowercase();
            // `physicsMass` for `mass`: one contains the other.
            let d = if kl.len() >= 3 && (lower.contains(&kl) || kl.contains(&lower)) {
                1
            } else {
                distance(key, k)
            };
            (d, k)
        })
        .filter(|(d, k)| *d <= (k.chars().count() / 3).max(2))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k.clone())
}

/// Where a pointer leads in the model text: the value's range and kind.
fn locate(scan: &Scan, root: usize, pointer: &Pointer) -> Result<(Range<usize>, Kind), String> {
    let mut at = root;
    let mut end = scan.value_end(root)?;
    for (depth, token) in pointer.tokens.iter().enumerate() {
        let parent = prefix_text(&pointer.tokens[..depth]);
        let kind = Kind::of(scan.byte(at)?);
        match kind {
            Kind::Object => {
                let members = scan.members(at)?;
                // As serde_json does, the last of duplicate keys counts.
                match members.iter().rev().find(|(k, _)| k == token) {
                    Some((_, r)) => {
                        at = r.start;
                        end = r.end;
                    }
                    None => {
                        let keys: Vec<String> = members.into_iter().map(|(k, _)| k).collect();
                        let hint = suggestion(token, &keys)
                            .map(|k| format!(" (did you mean `{k}`?)"))
                            .unwrap_or_default();
                        const SHOWN: usize = 12;
                        let mut list: Vec<String> =
                            keys.iter().take(SHOWN).map(|k| format!("`{k}`")).collect();
                        if keys.len() > SHOWN {
                            list.push(format!("… {} more", keys.len() - SHOWN));
                        }
                        let list = if keys.is_empty() {
                            "it is empty".to_owned()
                        } else {
                            format!("its keys: {}", list.join(", "))
                        };
                        return Err(format!(
                            "{parent} has no key `{token}`{hint}; {list}. \
                             Overrides replace values, they add no keys: write the key into the model file to sweep it"
                        ));
                    }
                }
            }
            Kind::Array => {
                let elements = scan.elements(at)?;
                if !is_index(token) {
                    let why = if token == "-" {
                        "`-` (past the end) would append, and overrides add nothing".to_owned()
                    } else {
                        format!("`{token}` is not an array index")
                    };
                    return Err(format!(
                        "{parent} is an array of {} and {why}",
                        elements.len()
                    ));
                }
                match token.parse::<usize>().ok().and_then(|k| elements.get(k)) {
                    Some(r) => {
                        at = r.start;
                        end = r.end;
                    }
                    None => {
                        return Err(format!(
                            "{parent} is an array of {} (indices 0 to {}), there is no element {token}",
                            elements.len(),
                            elements.len().saturating_sub(1)
                        ));
                    }
                }
            }
            other => {
                return Err(format!(
                    "{parent} is {}, it has no `{token}` inside",
                    other.name()
                ));
            }
        }
    }
    Ok((at..end, Kind::of(scan.byte(at)?)))
}

// ----- the overrides file ------------------------------------------------------------------

/// One path and new value of an override entry.
#[derive(Clone, Debug)]
pub struct Assignment {
    /// Where the value goes in the model file.
    pub pointer: Pointer,
    /// The value exactly as the OVERRIDES file writes it.
    pub raw: String,
    kind: Kind,
}

/// One entry of the OVERRIDES file.
#[derive(Clone, Debug, Default)]
pub struct Entry {
    /// The paths and values, applied in order.
    pub assignments: Vec<Assignment>,
}

impl Entry {
    /// `/objects/1/mass = 2.0, …` for messages (values shortened).
    pub fn describe(&self) -> String {
        if self.assignments.is_empty() {
            return "no changes".to_owned();
        }
        const SHOWN: usize = 3;
        let mut parts: Vec<String> = self
            .assignments
            .iter()
            .take(SHOWN)
            .map(|a| {
                let flat: String = a.raw.split_whitespace().collect::<Vec<_>>().join(" ");
                let value = if flat.chars().count() > 40 {
                    format!("{}…", flat.chars().take(39).collect::<String>())
                } else {
                    flat
                };
                format!("{} = {value}", a.pointer.text)
            })
            .collect();
        if self.assignments.len() > SHOWN {
            parts.push(format!("… {} more", self.assignments.len() - SHOWN));
        }
        parts.join(", ")
    }
}

/// Read the OVERRIDES file: a non-empty JSON array of dictionaries from JSON Pointers to values.
/// Checks the shape and each pointer's syntax, not whether the pointers exist in a model.
pub fn parse_overrides(text: &str) -> Result<Vec<Entry>, String> {
    let root: Value = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let Value::Array(items) = &root else {
        return Err(format!(
            "must be a JSON array of dictionaries (one per run, from JSON Pointers such as \
             \"/objects/1/mass\" to new values), found {}",
            kind_name(&root)
        ));
    };
    if items.is_empty() {
        return Err("the array is empty: there is nothing to run".to_owned());
    }
    let scan = Scan { b: text.as_bytes() };
    let start = scan.ws(0);
    let ranges = scan.elements(start)?;
    if ranges.len() != items.len() {
        return Err(UNEXPECTED.to_owned());
    }
    let mut entries = Vec::with_capacity(items.len());
    for (i, (item, range)) in items.iter().zip(ranges).enumerate() {
        if !item.is_object() {
            return Err(format!(
                "entry {i} must be a dictionary from JSON Pointers to values, found {}",
                kind_name(item)
            ));
        }
        let mut entry = Entry::default();
        for (key, r) in scan.members(range.start)? {
            let pointer = Pointer::parse(&key).map_err(|e| format!("entry {i}: {e}"))?;
            if let Some(a) = entry
                .assignments
                .iter()
                .find(|a| a.pointer.overlaps(&pointer))
            {
                let how = if a.pointer == pointer {
                    "is given twice".to_owned()
                } else {
                    format!("overlaps `{}` (one is inside the other)", a.pointer.text)
                };
                return Err(format!("entry {i}: `{}` {how}", pointer.text));
            }
            let raw = text[r.clone()].to_owned();
            let kind = Kind::of(scan.byte(r.start)?);
            entry.assignments.push(Assignment { pointer, raw, kind });
        }
        entries.push(entry);
    }
    Ok(entries)
}

fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Object(_) => Kind::Object.name(),
        Value::Array(_) => Kind::Array.name(),
        Value::String(_) => Kind::String.name(),
        Value::Number(_) => Kind::Number.name(),
        Value::Bool(_) => Kind::Bool.name(),
        Value::Null => Kind::Null.name(),
    }
}

// ----- applying entries to a model ---------------------------------------------------------

/// A model file's text, ready to have entries applied.
pub struct Base<'a> {
    text: &'a str,
    root: usize,
}

impl<'a> Base<'a> {
    /// `text` must be valid JSON (checked here with serde_json).
    pub fn new(text: &'a str) -> Result<Base<'a>, String> {
        serde_json::from_str::<serde::de::IgnoredAny>(text)
            .map_err(|e| format!("not valid JSON: {e}"))?;
        let scan = Scan { b: text.as_bytes() };
        Ok(Base {
            text,
            root: scan.ws(0),
        })
    }

    /// The model text with the entry's values put in. The error names the failing path.
    pub fn apply(&self, entry: &Entry) -> Result<String, String> {
        let scan = Scan {
            b: self.text.as_bytes(),
        };
        let mut edits: Vec<(Range<usize>, &str)> = Vec::with_capacity(entry.assignments.len());
        for a in &entry.assignments {
            let (range, kind) = locate(&scan, self.root, &a.pointer)
                .map_err(|e| format!("`{}` is not in the model: {e}", a.pointer.text))?;
            if !kind.accepts(a.kind) {
                return Err(format!(
                    "`{}`: the model has {} there, the override gives {} ({})",
                    a.pointer.text,
                    kind.name(),
                    a.kind.name(),
                    a.raw
                ));
            }
            edits.push((range, &a.raw));
        }
        edits.sort_by_key(|(r, _)| r.start);
        let mut out = String::with_capacity(self.text.len());
        let mut at = 0;
        for (range, raw) in edits {
            out.push_str(&self.text[at..range.start]);
            out.push_str(raw);
            at = range.end;
        }
        out.push_str(&self.text[at..]);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODEL: &str = r#"{"objects": [{"objectType": "Ground"},
        {"objectType": "MassPoint", "mass": 1.0e0, "nodeNumber": 0, "a~b/c": [1, [2, 3]]}],
        "simulationSettings": {"timeIntegration": {"endTime": 1}}}"#;

    fn apply(overrides: &str) -> Result<Vec<String>, String> {
        let base = Base::new(MODEL)?;
        parse_overrides(overrides)?
            .iter()
            .map(|e| base.apply(e))
            .collect()
    }

    #[test]
    fn replaces_exactly_the_named_values_and_keeps_every_other_byte() {
        let out = apply(
            r#"[{"/objects/1/mass": 2.50, "/simulationSettings/timeIntegration/endTime": 0.5},
                {"/objects/1/a~0b~1c/1/0": -7}, {}]"#,
        )
        .unwrap();
        assert_eq!(
            out[0],
            MODEL
                .replace("1.0e0", "2.50")
                .replace(r#""endTime": 1"#, r#""endTime": 0.5"#)
        );
        assert_eq!(out[1], MODEL.replace("[2, 3]", "[-7, 3]"));
        assert_eq!(out[2], MODEL);
        let v: Value = serde_json::from_str(&out[1]).unwrap();
        assert_eq!(v.pointer("/objects/1/a~0b~1c/1/0").unwrap(), -7);
    }

    #[test]
    fn missing_paths_name_the_closest_existing_parent() {
        let e = apply(r#"[{"/objects/1/physicsMass": 2}]"#).unwrap_err();
        assert!(
            e.contains("/objects/1 has no key `physicsMass` (did you mean `mass`?)"),
            "{e}"
        );
        let e = apply(r#"[{"/objects/2/mass": 2}]"#).unwrap_err();
        assert!(
            e.contains("/objects is an array of 2 (indices 0 to 1), there is no element 2"),
            "{e}"
        );
        let e = apply(r#"[{"/objects/1/mass/0": 2}]"#).unwrap_err();
        assert!(e.contains("/objects/1/mass is a number"), "{e}");
        let e = apply(r#"[{"/objects/-": {}}]"#).unwrap_err();
        assert!(e.contains("would append"), "{e}");
        let e = apply(r#"[{"/objects/01/mass": 2}]"#).unwrap_err();
        assert!(e.contains("`01` is not an array index"), "{e}");
        let e = apply(r#"[{"/solve": "static"}]"#).unwrap_err();
        assert!(e.contains("the top level has no key `solve`"), "{e}");
    }

    #[test]
    fn kinds_must_match() {
        let e = apply(r#"[{"/objects/1/mass": "2"}]"#).unwrap_err();
        assert!(
            e.contains("the model has a number there, the override gives a string"),
            "{e}"
        );
        assert!(apply(r#"[{"/objects/1/a~0b~1c": {"numberOfRows": 0}}]"#).is_ok());
    }

    #[test]
    fn malformed_files_and_pointers_are_errors() {
        for (text, part) in [
            ("{", "not valid JSON"),
            ("{}", "must be a JSON array"),
            ("[]", "empty"),
            ("[1]", "entry 0 must be a dictionary"),
            (
                r#"[{}, {"objects/1/mass": 1}]"#,
                "entry 1: `objects/1/mass` is not a JSON Pointer",
            ),
            (r#"[{"/a~2": 1}]"#, "`~` must be followed by 0"),
            (r#"[{"": 1}]"#, "whole model"),
            (r#"[{"/a": 1, "/a": 2}]"#, "`/a` is given twice"),
            (r#"[{"/a/b": 1, "/a": {}}]"#, "`/a` overlaps `/a/b`"),
        ] {
            let e = parse_overrides(text).unwrap_err();
            assert!(e.contains(part), "{text}: {e}");
        }
    }
}
