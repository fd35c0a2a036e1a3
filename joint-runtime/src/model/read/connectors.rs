//! Objects of the connector families (`items/connectors/`): each family reads its own keys
//! through [`ItemKeys`], which the strict dictionary reader implements here.

use serde_json::Value;

use crate::error::{Error, ItemRef, Result};
use crate::items::Object;
use crate::items::connectors::{ConnectorType, ItemKeys};
use crate::model::fields::{Dict, Owner};

impl ItemKeys for Dict<'_> {
    fn name(&mut self) -> Result<String> {
        Dict::name(self)
    }

    fn f64_or(&mut self, key: &'static str, default: f64) -> Result<f64> {
        Dict::f64_or(self, key, default)
    }

    fn opt_f64(&mut self, key: &'static str) -> Result<Option<f64>> {
        Dict::opt_f64(self, key)
    }

    fn bool_or(&mut self, key: &'static str, default: bool) -> Result<bool> {
        Dict::bool_or(self, key, default)
    }

    fn two_indices(&mut self, key: &'static str) -> Result<[usize; 2]> {
        self.indices::<2>(key)
    }

    fn vec2(&mut self, key: &'static str, default: [f64; 2]) -> Result<[f64; 2]> {
        Ok(self.opt_vec::<2>(key)?.unwrap_or(default))
    }

    fn vec3(&mut self, key: &'static str, default: [f64; 3]) -> Result<[f64; 3]> {
        self.vec_or(key, default)
    }

    fn vec6(&mut self, key: &'static str, default: [f64; 6]) -> Result<[f64; 6]> {
        self.vec_or(key, default)
    }

    fn opt_bool(&mut self, key: &'static str) -> Result<Option<bool>> {
        Dict::opt_bool(self, key)
    }

    fn matrix6_or_zero(&mut self, key: &'static str) -> Result<[[f64; 6]; 6]> {
        Ok(self.opt_matrix::<6, 6>(key)?.unwrap_or([[0.0; 6]; 6]))
    }

    fn matrix3_or_identity(&mut self, key: &'static str) -> Result<nalgebra::Matrix3<f64>> {
        Ok(match self.opt_matrix::<3, 3>(key)? {
            Some(m) => nalgebra::Matrix3::from_row_slice(m.as_flattened()),
            None => nalgebra::Matrix3::identity(),
        })
    }

    /// Exudyn writes an unset item number as −1.
    fn opt_index(&mut self, key: &'static str) -> Result<Option<usize>> {
        if self.get(key).and_then(Value::as_i64) == Some(-1) {
            return Ok(None);
        }
        Dict::opt_index(self, key)
    }

    fn no_user_function(&mut self, key: &'static str) -> Result<()> {
        Dict::no_user_function(self, key)
    }

    fn error(&self, key: &str, message: String) -> Error {
        self.err(key, message)
    }
}

/// Object `index`, of the connector family `t`.
pub(super) fn read_connector(index: usize, value: &Value, t: &ConnectorType) -> Result<Object> {
    let map = value
        .as_object()
        .expect("an object dictionary: its type was read");
    let item = ItemRef {
        list: "objects",
        index,
        type_name: t.name.to_owned(),
    };
    let mut d = Dict::new(Owner::Item(item), map);
    d.get("objectType");
    d.accept_visualization();
    let connector = (t.read)(&mut d)?;
    d.finish()?;
    Ok(Object::Connector(connector))
}
