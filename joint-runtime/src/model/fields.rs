//! Strict access to one JSON dictionary (an item or a settings section): every key that is read
//! is remembered, and `finish` rejects whatever was not read. Errors name the item (or the
//! settings path) and the key.

use serde_json::{Map, Value};

use crate::error::{Error, ItemRef, Result};

/// Whose dictionary this is: an item, or a section of the simulation settings.
#[derive(Clone, Debug)]
pub(crate) enum Owner {
    Item(ItemRef),
    /// Dotted path of the section, empty for the top level (`timeIntegration.newton`).
    Settings(String),
    /// Dotted path of a section of `visualizationSettings` (`general`).
    Visualization(String),
}

impl Owner {
    pub(crate) fn error(&self, key: &str, message: impl Into<String>) -> Error {
        match self {
            Owner::Item(item) => Error::item(item.clone(), key, message),
            Owner::Settings(path) => Error::setting(&join(path, key), message),
            Owner::Visualization(path) => Error::Model {
                message: format!(
                    "visualizationSettings `{}`: {}",
                    join(path, key),
                    message.into()
                ),
            },
        }
    }

    fn what(&self) -> String {
        match self {
            Owner::Item(item) => format!("a {}", item.type_name),
            Owner::Settings(path) if path.is_empty() => "simulationSettings".to_owned(),
            Owner::Settings(path) => format!("simulationSettings.{path}"),
            Owner::Visualization(path) => format!("visualizationSettings.{path}"),
        }
    }
}

/// Whether `a` is `b` misspelt: equal but for case, or at most two edits apart (one for short
/// keys), by Levenshtein's distance.
pub(crate) fn near_miss(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (
        a.to_lowercase().chars().collect(),
        b.to_lowercase().chars().collect(),
    );
    let limit = if b.len() <= 4 { 1 } else { 2 };
    if a.len().abs_diff(b.len()) > limit {
        return false;
    }
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut row = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            row[j + 1] = substitution.min(previous[j + 1] + 1).min(row[j] + 1);
        }
        previous = row;
    }
    previous[b.len()] <= limit
}

pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// A short description of a JSON value for error messages.
pub(crate) fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("{b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => {
            let short: String = s.chars().take(40).collect();
            if short.len() < s.len() {
                format!("the string \"{short}…\"")
            } else {
                format!("the string \"{s}\"")
            }
        }
        Value::Array(a) => format!("an array of length {}", a.len()),
        Value::Object(_) => "a dictionary".to_owned(),
    }
}

pub(crate) struct Dict<'a> {
    pub(crate) owner: Owner,
    map: &'a Map<String, Value>,
    /// Keys that have been asked for (whether present or not), in order.
    known: Vec<&'static str>,
    /// Accept all remaining keys in `finish` (output-only sections).
    accept_rest: bool,
    /// Accept keys starting with `V` (visualization) in `finish`.
    accept_visualization: bool,
}

impl<'a> Dict<'a> {
    pub(crate) fn new(owner: Owner, map: &'a Map<String, Value>) -> Self {
        Dict {
            owner,
            map,
            known: Vec::new(),
            accept_rest: false,
            accept_visualization: false,
        }
    }

    pub(crate) fn err(&self, key: &str, message: impl Into<String>) -> Error {
        self.owner.error(key, message)
    }

    /// The error for a required `key` the item does not have: `message`, and the key the item
    /// has in its place if one is spelt almost so (`normall` for `normal`).
    pub(crate) fn missing(&self, key: &str, message: impl Into<String>) -> Error {
        let mut message = message.into();
        let near = self
            .map
            .keys()
            .filter(|k| !self.known.contains(&k.as_str()))
            .find(|k| near_miss(k, key));
        if let Some(k) = near {
            message.push_str(&format!("; the item has `{k}`: a misspelling of `{key}`?"));
        }
        self.owner.error(key, message)
    }

    /// The raw value of `key`, if present; marks the key as known.
    pub(crate) fn get(&mut self, key: &'static str) -> Option<&'a Value> {
        if !self.known.contains(&key) {
            self.known.push(key);
        }
        self.map.get(key)
    }

    /// Mark keys as accepted with any value.
    pub(crate) fn ignore(&mut self, keys: &[&'static str]) {
        for &k in keys {
            self.get(k);
        }
    }

    pub(crate) fn accept_visualization(&mut self) {
        self.accept_visualization = true;
    }

    pub(crate) fn accept_rest(&mut self) {
        self.accept_rest = true;
    }

    /// Reject every key that was not read.
    pub(crate) fn finish(self) -> Result<()> {
        if self.accept_rest {
            return Ok(());
        }
        for key in self.map.keys() {
            if self.known.contains(&key.as_str()) {
                continue;
            }
            if self.accept_visualization && key.starts_with('V') {
                continue;
            }
            let mut expected: Vec<&str> = self.known.clone();
            if self.accept_visualization {
                expected.push("V… (visualization)");
            }
            return Err(self.err(
                key,
                format!(
                    "unknown key for {} (known keys: {})",
                    self.owner.what(),
                    expected.join(", ")
                ),
            ));
        }
        Ok(())
    }

    // ----- typed access -------------------------------------------------------------------

    pub(crate) fn opt_f64(&mut self, key: &'static str) -> Result<Option<f64>> {
        self.get(key).map(|v| self.to_f64(key, v)).transpose()
    }

    pub(crate) fn f64_or(&mut self, key: &'static str, default: f64) -> Result<f64> {
        Ok(self.opt_f64(key)?.unwrap_or(default))
    }

    pub(crate) fn set_f64(&mut self, key: &'static str, target: &mut f64) -> Result<()> {
        if let Some(v) = self.opt_f64(key)? {
            *target = v;
        }
        Ok(())
    }

    pub(crate) fn opt_bool(&mut self, key: &'static str) -> Result<Option<bool>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(self.err(
                key,
                format!("expected true or false, found {}", describe(other)),
            )),
        }
    }

    pub(crate) fn bool_or(&mut self, key: &'static str, default: bool) -> Result<bool> {
        Ok(self.opt_bool(key)?.unwrap_or(default))
    }

    pub(crate) fn set_bool(&mut self, key: &'static str, target: &mut bool) -> Result<()> {
        if let Some(v) = self.opt_bool(key)? {
            *target = v;
        }
        Ok(())
    }

    /// A count: a non-negative integer; an integral float (`1000.0`) is accepted, as Exudyn's
    /// dictionaries write some counts that way.
    pub(crate) fn set_count(&mut self, key: &'static str, target: &mut usize) -> Result<()> {
        let Some(v) = self.get(key) else {
            return Ok(());
        };
        let found = || describe(v);
        let n = match v {
            Value::Number(n) => n,
            _ => {
                return Err(self.err(
                    key,
                    format!("expected a non-negative integer, found {}", found()),
                ));
            }
        };
        *target = if let Some(u) = n.as_u64() {
            usize::try_from(u).map_err(|_| self.err(key, format!("{u} is too large")))?
        } else {
            let f = n.as_f64().unwrap_or(f64::NAN);
            if f < 0.0 {
                return Err(self.err(
                    key,
                    format!("expected a non-negative integer, found {}", found()),
                ));
            }
            if f.fract() != 0.0 || !f.is_finite() {
                return Err(self.err(
                    key,
                    format!("expected an integer, found {} (not integral)", found()),
                ));
            }
            if f > 9_007_199_254_740_992.0 {
                return Err(self.err(key, format!("{f} is too large")));
            }
            f as usize
        };
        Ok(())
    }

    pub(crate) fn opt_str(&mut self, key: &'static str) -> Result<Option<&'a str>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(other) => {
                Err(self.err(key, format!("expected a string, found {}", describe(other))))
            }
        }
    }

    pub(crate) fn name(&mut self) -> Result<String> {
        Ok(self.opt_str("name")?.unwrap_or("").to_owned())
    }

    /// An item number: a non-negative JSON integer.
    pub(crate) fn opt_index(&mut self, key: &'static str) -> Result<Option<usize>> {
        self.get(key)
            .map(|v| self.to_index(key, v, None))
            .transpose()
    }

    pub(crate) fn index(&mut self, key: &'static str) -> Result<usize> {
        self.opt_index(key)?
            .ok_or_else(|| self.missing(key, "missing (an item number is required)"))
    }

    /// An array of exactly N item numbers.
    pub(crate) fn indices<const N: usize>(&mut self, key: &'static str) -> Result<[usize; N]> {
        let Some(v) = self.get(key) else {
            return Err(self.missing(
                key,
                format!("missing (an array of {N} item numbers is required)"),
            ));
        };
        let a = self.array(key, v, N, "item numbers")?;
        let mut out = [0; N];
        for (i, e) in a.iter().enumerate() {
            out[i] = self.to_index(key, e, Some(i))?;
        }
        Ok(out)
    }

    /// An array of exactly `n` integers (any sign), or `None` if the key is missing.
    pub(crate) fn opt_ints(&mut self, key: &'static str, n: usize) -> Result<Option<Vec<i64>>> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        let a = self.array(key, v, n, "integers")?;
        a.iter()
            .enumerate()
            .map(|(i, e)| {
                e.as_i64().ok_or_else(|| {
                    self.err(
                        key,
                        format!("element {i}: expected an integer, found {}", describe(e)),
                    )
                })
            })
            .collect::<Result<Vec<i64>>>()
            .map(Some)
    }

    /// A vector of exactly N numbers.
    pub(crate) fn opt_vec<const N: usize>(
        &mut self,
        key: &'static str,
    ) -> Result<Option<[f64; N]>> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        Ok(Some(self.vector(key, v, None)?))
    }

    pub(crate) fn vec_or<const N: usize>(
        &mut self,
        key: &'static str,
        default: [f64; N],
    ) -> Result<[f64; N]> {
        Ok(self.opt_vec(key)?.unwrap_or(default))
    }

    /// A matrix of R rows of C numbers (array of row arrays).
    pub(crate) fn opt_matrix<const R: usize, const C: usize>(
        &mut self,
        key: &'static str,
    ) -> Result<Option<[[f64; C]; R]>> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        let rows = self.array(key, v, R, &format!("rows (a {R}×{C} matrix)"))?;
        let mut out = [[0.0; C]; R];
        for (r, row) in rows.iter().enumerate() {
            out[r] = self.vector(key, row, Some(r))?;
        }
        Ok(Some(out))
    }

    /// An array of any length whose elements `element` reads (their index, their value);
    /// `what` names the elements in the error for a value that is not an array.
    fn opt_list<T>(
        &mut self,
        key: &'static str,
        what: &str,
        element: impl Fn(&Self, usize, &Value) -> Result<T>,
    ) -> Result<Option<Vec<T>>> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        let a = v.as_array().ok_or_else(|| {
            self.err(
                key,
                format!("expected an array of {what}, found {}", describe(v)),
            )
        })?;
        let out: Result<Vec<T>> = a
            .iter()
            .enumerate()
            .map(|(i, e)| element(self, i, e))
            .collect();
        out.map(Some)
    }

    /// A vector of any length.
    pub(crate) fn opt_dvec(&mut self, key: &'static str) -> Result<Option<Vec<f64>>> {
        self.opt_list(key, "numbers", |d, i, e| {
            match e {
                Value::Number(n) => n.as_f64().filter(|f| f.is_finite()),
                _ => None,
            }
            .ok_or_else(|| {
                d.err(
                    key,
                    format!(
                        "element {i}: expected a finite number, found {}",
                        describe(e)
                    ),
                )
            })
        })
    }

    /// A list of item numbers of any length.
    pub(crate) fn opt_index_list(&mut self, key: &'static str) -> Result<Option<Vec<usize>>> {
        self.opt_list(key, "item numbers", |d, i, e| d.to_index(key, e, Some(i)))
    }

    /// A dense matrix of any size: an array of equally long row arrays (`[]` is 0 × 0).
    pub(crate) fn opt_dmatrix(
        &mut self,
        key: &'static str,
    ) -> Result<Option<nalgebra::DMatrix<f64>>> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        Ok(Some(self.dense_rows(key, v)?))
    }

    fn dense_rows(&self, key: &str, v: &Value) -> Result<nalgebra::DMatrix<f64>> {
        let rows = v.as_array().ok_or_else(|| {
            self.err(
                key,
                format!("expected a matrix (array of rows), found {}", describe(v)),
            )
        })?;
        if rows.is_empty() {
            return Ok(nalgebra::DMatrix::zeros(0, 0));
        }
        let mut data: Vec<Vec<f64>> = Vec::with_capacity(rows.len());
        for (r, row) in rows.iter().enumerate() {
            let a = row.as_array().ok_or_else(|| {
                self.err(
                    key,
                    format!(
                        "row {r}: expected an array of numbers, found {}",
                        describe(row)
                    ),
                )
            })?;
            let mut out = Vec::with_capacity(a.len());
            for (c, e) in a.iter().enumerate() {
                out.push(
                    match e {
                        Value::Number(n) => n.as_f64().filter(|f| f.is_finite()),
                        _ => None,
                    }
                    .ok_or_else(|| {
                        self.err(
                            key,
                            format!(
                                "row {r}, column {c}: expected a finite number, found {}",
                                describe(e)
                            ),
                        )
                    })?,
                );
            }
            if let Some(first) = data.first()
                && out.len() != first.len()
            {
                return Err(self.err(
                    key,
                    format!(
                        "row {r} has {} entries, row 0 has {}",
                        out.len(),
                        first.len()
                    ),
                ));
            }
            data.push(out);
        }
        let (nr, nc) = (data.len(), data[0].len());
        Ok(nalgebra::DMatrix::from_fn(nr, nc, |r, c| data[r][c]))
    }

    /// An Exudyn MatrixContainer: dense rows, `{numberOfRows, numberOfColumns, triplets}`, or
    /// `[]` (absent).
    pub(crate) fn opt_matrix_container(
        &mut self,
        key: &'static str,
    ) -> Result<Option<crate::items::MatrixContainer>> {
        use crate::items::MatrixContainer;
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        if let Value::Object(map) = v {
            let count = |k: &str| -> Result<usize> {
                match map.get(k) {
                    Some(Value::Number(n)) => n
                        .as_u64()
                        .and_then(|u| usize::try_from(u).ok())
                        .ok_or_else(|| {
                            self.err(
                                key,
                                format!("`{k}` must be a non-negative integer, found {n}"),
                            )
                        }),
                    Some(other) => Err(self.err(
                        key,
                        format!(
                            "`{k}` must be a non-negative integer, found {}",
                            describe(other)
                        ),
                    )),
                    None => Err(self.err(key, format!("a sparse matrix needs `{k}`"))),
                }
            };
            if let Some(extra) = map
                .keys()
                .find(|k| !["numberOfRows", "numberOfColumns", "triplets"].contains(&k.as_str()))
            {
                return Err(self.err(key, format!("unknown key `{extra}` in a sparse matrix (expected numberOfRows, numberOfColumns, triplets)")));
            }
            let rows = count("numberOfRows")?;
            let columns = count("numberOfColumns")?;
            let t = map
                .get("triplets")
                .ok_or_else(|| self.err(key, "a sparse matrix needs `triplets`"))?;
            let list = t.as_array().ok_or_else(|| {
                self.err(
                    key,
                    format!(
                        "`triplets` must be an array of [row, column, value], found {}",
                        describe(t)
                    ),
                )
            })?;
            let mut triplets = Vec::with_capacity(list.len());
            for (i, e) in list.iter().enumerate() {
                let bad = || {
                    self.err(key, format!("triplet {i}: expected [row, column, value] with row < {rows}, column < {columns}, found {e}"))
                };
                let a = e.as_array().filter(|a| a.len() == 3).ok_or_else(bad)?;
                let index = |x: &Value| -> Option<usize> {
                    x.as_u64()
                        .and_then(|u| usize::try_from(u).ok())
                        .or_else(|| {
                            x.as_f64()
                                .filter(|f| f.fract() == 0.0 && *f >= 0.0)
                                .map(|f| f as usize)
                        })
                };
                let (r, c) = (index(&a[0]).ok_or_else(bad)?, index(&a[1]).ok_or_else(bad)?);
                let value = a[2].as_f64().filter(|f| f.is_finite()).ok_or_else(bad)?;
                if r >= rows || c >= columns {
                    return Err(bad());
                }
                triplets.push((r, c, value));
            }
            return Ok(Some(MatrixContainer::Sparse {
                rows,
                columns,
                triplets,
            }));
        }
        let m = self.dense_rows(key, v)?;
        Ok(Some(if m.is_empty() {
            MatrixContainer::Empty
        } else {
            MatrixContainer::Dense(m)
        }))
    }

    /// A user function key: only `0` (not set) is supported.
    pub(crate) fn no_user_function(&mut self, key: &'static str) -> Result<()> {
        match self.get(key) {
            None => Ok(()),
            Some(Value::Number(n)) if n.as_f64() == Some(0.0) => Ok(()),
            Some(other) => Err(self.err(
                key,
                format!(
                    "user functions are not supported (expected 0 = not set, found {})",
                    describe(other)
                ),
            )),
        }
    }

    /// A sub-dictionary.
    pub(crate) fn opt_section(&mut self, key: &'static str) -> Result<Option<Dict<'a>>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Object(map)) => {
                let owner = match &self.owner {
                    Owner::Settings(path) => Owner::Settings(join(path, key)),
                    Owner::Visualization(path) => Owner::Visualization(join(path, key)),
                    Owner::Item(item) => Owner::Item(item.clone()),
                };
                Ok(Some(Dict::new(owner, map)))
            }
            Some(other) => Err(self.err(
                key,
                format!("expected a dictionary, found {}", describe(other)),
            )),
        }
    }

    /// A key that changes results and that is not implemented: accepted only with Exudyn's
    /// default value.
    pub(crate) fn only_default(&mut self, key: &'static str, default: Value) -> Result<()> {
        let Some(v) = self.get(key) else {
            return Ok(());
        };
        let same = match (v, &default) {
            (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
            (a, b) => a == b,
        };
        if same {
            Ok(())
        } else {
            Err(self.err(
                key,
                format!(
                    "only Exudyn's default {default} is supported (found {}); this setting changes the results and is not implemented",
                    describe(v)
                ),
            ))
        }
    }

    // ----- conversions --------------------------------------------------------------------

    fn to_f64(&self, key: &str, v: &Value) -> Result<f64> {
        match v {
            Value::Number(n) => n
                .as_f64()
                .filter(|f| f.is_finite())
                .ok_or_else(|| self.err(key, format!("expected a finite number, found {n}"))),
            other => Err(self.err(key, format!("expected a number, found {}", describe(other)))),
        }
    }

    fn to_index(&self, key: &str, v: &Value, element: Option<usize>) -> Result<usize> {
        let at = element.map_or(String::new(), |i| format!("element {i}: "));
        let bad = |what: &str| {
            self.err(
                key,
                format!("{at}expected a non-negative integer item number, found {what}"),
            )
        };
        match v {
            Value::Number(n) => match n.as_u64() {
                Some(u) => usize::try_from(u).map_err(|_| bad(&describe(v))),
                None => Err(bad(&describe(v))),
            },
            other => Err(bad(&describe(other))),
        }
    }

    fn array(&self, key: &str, v: &'a Value, n: usize, what: &str) -> Result<&'a Vec<Value>> {
        match v {
            Value::Array(a) if a.len() == n => Ok(a),
            other => Err(self.err(
                key,
                format!("expected an array of {n} {what}, found {}", describe(other)),
            )),
        }
    }

    fn vector<const N: usize>(
        &self,
        key: &str,
        v: &'a Value,
        row: Option<usize>,
    ) -> Result<[f64; N]> {
        let at = row.map_or(String::new(), |r| format!("row {r}: "));
        let a = match v {
            Value::Array(a) if a.len() == N => a,
            other => {
                return Err(self.err(
                    key,
                    format!(
                        "{at}expected an array of {N} numbers, found {}",
                        describe(other)
                    ),
                ));
            }
        };
        let mut out = [0.0; N];
        for (i, e) in a.iter().enumerate() {
            out[i] = match e {
                Value::Number(n) => n.as_f64().filter(|f| f.is_finite()),
                _ => None,
            }
            .ok_or_else(|| {
                self.err(
                    key,
                    format!("{at}element {i}: expected a number, found {}", describe(e)),
                )
            })?;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::near_miss;

    /// A misspelt key is found, an unrelated one is not.
    #[test]
    fn near_misses_are_misspellings() {
        assert!(near_miss("normall", "normal"));
        assert!(near_miss("markerNumber", "markerNumbers"));
        assert!(near_miss("MarkerNumbers", "markerNumbers"));
        assert!(near_miss("nromal", "normal"));
        assert!(!near_miss("offset", "normal"));
        assert!(!near_miss("mass", "name"));
        assert!(!near_miss("VdrawSize", "distance"));
    }
}
