//! Typed symbolic values of the expression language, and their time derivatives.
//!
//! The velocity level is derived from the position level in forward mode: every value carries
//! its rate d/dt along the markers' motion, built by the usual rules (sum, product, quotient and
//! chain rule) from the marker kinds' own kinematics, ṗ = v and Ȧ = A·skew(ω̄). The rules are
//! written in the form one derives by hand (`d(a·b) = ȧ·b + a·ḃ`, `d|a| = a·ȧ/|a|`, the turning
//! of a frame axis `A·(ω̄ × R e_k)`), so a derived velocity level is the very expression a careful
//! author writes, node for node (`tests::derived_velocity_is_the_hand_written_one`).

use crate::symbolic::vector::{self, Mat3, Vec3};
use crate::symbolic::{Graph, Id};

/// A typed symbolic value.
#[derive(Clone, Debug)]
pub enum Value {
    Scalar(Id),
    Vector(Vec3),
    Matrix(Mat3),
    /// A list of scalar rows written as `[a, b, …]`.
    Rows(Vec<Id>),
}

impl Value {
    pub fn type_name(&self) -> String {
        match self {
            Value::Scalar(_) => "a scalar".into(),
            Value::Vector(_) => "a 3-vector".into(),
            Value::Matrix(_) => "a 3×3 matrix".into(),
            Value::Rows(r) => format!("a list of {} rows", r.len()),
        }
    }

    /// The residual rows this value stands for.
    pub fn rows(&self) -> Option<Vec<Id>> {
        match self {
            Value::Scalar(s) => Some(vec![*s]),
            Value::Vector(v) => Some(v.to_vec()),
            Value::Rows(r) => Some(r.clone()),
            Value::Matrix(_) => None,
        }
    }
}

/// The time derivative of a [`Value`] (of the same shape), or zero.
#[derive(Clone, Debug)]
pub enum Rate {
    /// Constant in time (literals, parameters, ground quantities…): no nodes are built for it.
    Zero,
    Scalar(Id),
    Vector(Vec3),
    Matrix(MatrixRate),
    Rows(Vec<Id>),
}

/// The rate of a matrix.
#[derive(Clone, Debug)]
pub enum MatrixRate {
    Full(Mat3),
    /// `L·skew(ω)·R` (transposed if `transposed`; `None`: identity): a turning rotation matrix
    /// times matrices on either side, kept factored so that a column of it is `L·(ω × R e_k)`,
    /// as one derives a frame axis by hand. A rotation matrix A turning with its local angular
    /// velocity ω̄ is `A·skew(ω̄)` (L = A); with its global one ω, `skew(ω)·A` (R = A).
    Turning {
        left: Option<Mat3>,
        omega: Vec3,
        right: Option<Mat3>,
        transposed: bool,
    },
}

/// A value with its rate.
#[derive(Clone, Debug)]
pub struct Dual {
    pub value: Value,
    pub rate: Rate,
}

impl Dual {
    /// A list of three rows as the 3-vector it writes (its rate likewise); other values as
    /// they are.
    pub fn into_vector(self) -> Self {
        let as3 = |r: &[Id]| [r[0], r[1], r[2]];
        match (self.value, self.rate) {
            (Value::Rows(v), rate) if v.len() == 3 => Dual {
                value: Value::Vector(as3(&v)),
                rate: match rate {
                    Rate::Rows(r) if r.len() == 3 => Rate::Vector(as3(&r)),
                    other => other,
                },
            },
            (value, rate) => Dual { value, rate },
        }
    }

    pub fn constant(value: Value) -> Self {
        Dual {
            value,
            rate: Rate::Zero,
        }
    }
}

fn unit(g: &mut Graph, k: usize) -> Vec3 {
    let (z, o) = (g.zero(), g.one());
    std::array::from_fn(|i| if i == k { o } else { z })
}

/// Column `k` of `m`.
pub fn column(m: &Mat3, k: usize) -> Vec3 {
    [m[0][k], m[1][k], m[2][k]]
}

/// `m·v`, or `v` for the identity.
fn times(g: &mut Graph, m: &Option<Mat3>, v: Vec3) -> Vec3 {
    match m {
        Some(m) => vector::mat_vec(g, m, v),
        None => v,
    }
}

impl MatrixRate {
    /// The rate as a plain matrix.
    pub fn materialize(&self, g: &mut Graph) -> Mat3 {
        match self {
            MatrixRate::Full(m) => *m,
            MatrixRate::Turning {
                left,
                omega,
                right,
                transposed,
            } => {
                // column by column: L·(ω × R e_j)
                let cols: [Vec3; 3] = std::array::from_fn(|j| {
                    let r = match right {
                        Some(r) => column(r, j),
                        None => unit(g, j),
                    };
                    let w = vector::cross(g, *omega, r);
                    times(g, left, w)
                });
                let m = vector::transpose(&cols);
                if *transposed {
                    vector::transpose(&m)
                } else {
                    m
                }
            }
        }
    }

    /// Column `k` of the rate.
    pub fn column(&self, g: &mut Graph, k: usize) -> Vec3 {
        match self {
            MatrixRate::Turning {
                left,
                omega,
                right,
                transposed: false,
            } => {
                let r = match right {
                    Some(r) => column(r, k),
                    None => unit(g, k),
                };
                let w = vector::cross(g, *omega, r);
                times(g, left, w)
            }
            _ => {
                let m = self.materialize(g);
                column(&m, k)
            }
        }
    }

    /// Row `k` of the rate.
    pub fn row(&self, g: &mut Graph, k: usize) -> Vec3 {
        match self {
            MatrixRate::Turning {
                left,
                omega,
                right,
                transposed: true,
            } => MatrixRate::Turning {
                left: *left,
                omega: *omega,
                right: *right,
                transposed: false,
            }
            .column(g, k),
            _ => self.materialize(g)[k],
        }
    }

    pub fn transpose(self) -> Self {
        match self {
            MatrixRate::Full(m) => MatrixRate::Full(vector::transpose(&m)),
            MatrixRate::Turning {
                left,
                omega,
                right,
                transposed,
            } => MatrixRate::Turning {
                left,
                omega,
                right,
                transposed: !transposed,
            },
        }
    }

    /// (rate)·v
    pub fn times_vector(&self, g: &mut Graph, v: Vec3) -> Vec3 {
        match self {
            MatrixRate::Turning {
                left,
                omega,
                right,
                transposed: false,
            } => {
                let rv = times(g, right, v);
                let w = vector::cross(g, *omega, rv);
                times(g, left, w)
            }
            _ => {
                let m = self.materialize(g);
                vector::mat_vec(g, &m, v)
            }
        }
    }

    /// (rate)·N
    pub fn times_matrix(&self, g: &mut Graph, n: &Mat3) -> MatrixRate {
        match self {
            MatrixRate::Turning {
                left,
                omega,
                right,
                transposed: false,
            } => MatrixRate::Turning {
                left: *left,
                omega: *omega,
                right: Some(match right {
                    Some(r) => vector::mat_mat(g, r, n),
                    None => *n,
                }),
                transposed: false,
            },
            _ => {
                let m = self.materialize(g);
                MatrixRate::Full(vector::mat_mat(g, &m, n))
            }
        }
    }

    /// M·(rate)
    pub fn left_times(&self, g: &mut Graph, m: &Mat3) -> MatrixRate {
        match self {
            MatrixRate::Turning {
                left,
                omega,
                right,
                transposed: false,
            } => MatrixRate::Turning {
                left: Some(match left {
                    Some(l) => vector::mat_mat(g, m, l),
                    None => *m,
                }),
                omega: *omega,
                right: *right,
                transposed: false,
            },
            _ => {
                let r = self.materialize(g);
                MatrixRate::Full(vector::mat_mat(g, m, &r))
            }
        }
    }
}

/// Rate algebra: each function takes the operands (values and rates) and returns the rate of
/// the result. `Rate::Zero` operands build no nodes.
pub mod rates {
    use super::*;

    fn scalar(r: &Rate) -> Option<Id> {
        match r {
            Rate::Scalar(s) => Some(*s),
            _ => None,
        }
    }

    fn vec(r: &Rate) -> Option<Vec3> {
        match r {
            Rate::Vector(v) => Some(*v),
            _ => None,
        }
    }

    fn matrix(g: &mut Graph, r: &Rate) -> Option<Mat3> {
        match r {
            Rate::Matrix(m) => Some(m.materialize(g)),
            _ => None,
        }
    }

    /// A rate of the shape of `value` as plain nodes (zeros for `Rate::Zero`).
    fn explicit_rows(g: &mut Graph, value: &Value, r: &Rate) -> Vec<Id> {
        let n = match value {
            Value::Scalar(_) => 1,
            Value::Vector(_) => 3,
            Value::Matrix(_) => 9,
            Value::Rows(v) => v.len(),
        };
        match r {
            Rate::Zero => vec![g.zero(); n],
            Rate::Scalar(s) => vec![*s],
            Rate::Vector(v) => v.to_vec(),
            Rate::Rows(v) => v.clone(),
            Rate::Matrix(m) => m.materialize(g).into_iter().flatten().collect(),
        }
    }

    /// d(a ± b)
    pub fn add(g: &mut Graph, a: &Value, ra: Rate, rb: Rate, subtract: bool) -> Rate {
        match (ra, rb) {
            (Rate::Zero, Rate::Zero) => Rate::Zero,
            (ra, Rate::Zero) => ra,
            (Rate::Zero, rb) => {
                if subtract {
                    neg(g, rb)
                } else {
                    rb
                }
            }
            (ra, rb) => {
                let x = explicit_rows(g, a, &ra);
                let y = explicit_rows(g, a, &rb);
                let s: Vec<Id> = x
                    .iter()
                    .zip(&y)
                    .map(|(&p, &q)| if subtract { g.sub(p, q) } else { g.add(p, q) })
                    .collect();
                shaped(a, s)
            }
        }
    }

    /// d(if a > b { x } else { y }): the taken branch's rate (`value` is x's, of y's shape).
    pub fn select(
        g: &mut Graph,
        (a, b, strict): (Id, Id, bool),
        value: &Value,
        rx: Rate,
        ry: Rate,
    ) -> Rate {
        if matches!((&rx, &ry), (Rate::Zero, Rate::Zero)) {
            return Rate::Zero;
        }
        let x = explicit_rows(g, value, &rx);
        let y = explicit_rows(g, value, &ry);
        let s: Vec<Id> = x
            .iter()
            .zip(&y)
            .map(|(&p, &q)| g.select(a, b, strict, p, q))
            .collect();
        shaped(value, s)
    }

    /// Rebuild a rate of `value`'s shape from plain nodes.
    fn shaped(value: &Value, s: Vec<Id>) -> Rate {
        match value {
            Value::Scalar(_) => Rate::Scalar(s[0]),
            Value::Vector(_) => Rate::Vector([s[0], s[1], s[2]]),
            Value::Matrix(_) => Rate::Matrix(MatrixRate::Full([
                [s[0], s[1], s[2]],
                [s[3], s[4], s[5]],
                [s[6], s[7], s[8]],
            ])),
            Value::Rows(_) => Rate::Rows(s),
        }
    }

    pub fn neg(g: &mut Graph, r: Rate) -> Rate {
        match r {
            Rate::Zero => Rate::Zero,
            Rate::Scalar(s) => Rate::Scalar(g.neg(s)),
            Rate::Vector(v) => Rate::Vector(vector::neg(g, v)),
            Rate::Rows(v) => Rate::Rows(v.into_iter().map(|x| g.neg(x)).collect()),
            Rate::Matrix(m) => {
                let m = m.materialize(g);
                Rate::Matrix(MatrixRate::Full(vector::mat_neg(g, &m)))
            }
        }
    }

    /// d(a·b): ȧ·b + a·ḃ, for every product the language has.
    pub fn mul(g: &mut Graph, a: &Value, ra: &Rate, b: &Value, rb: &Rate) -> Rate {
        let left = product(g, ra, b, true, a);
        let right = product(g, rb, a, false, b);
        match (left, right) {
            (None, None) => Rate::Zero,
            (Some(l), None) => l,
            (None, Some(r)) => r,
            (Some(l), Some(r)) => {
                let shape = result_shape(a, b);
                add(g, &shape, l, r, false)
            }
        }
    }

    /// A value of the shape of `a·b` (only its shape is read).
    fn result_shape(a: &Value, b: &Value) -> Value {
        match (a, b) {
            (Value::Scalar(s), Value::Scalar(_)) => Value::Scalar(*s),
            (Value::Matrix(m), Value::Matrix(_)) => Value::Matrix(*m),
            (Value::Matrix(_), Value::Vector(v)) | (Value::Vector(v), Value::Scalar(_)) => {
                Value::Vector(*v)
            }
            (Value::Scalar(_), Value::Vector(v)) => Value::Vector(*v),
            (Value::Scalar(_), Value::Matrix(m)) | (Value::Matrix(m), Value::Scalar(_)) => {
                Value::Matrix(*m)
            }
            (other, _) => other.clone(),
        }
    }

    /// One term of the product rule: `r·other` (rate on the left operand, `rate_is_left`) or
    /// `other·r` (rate on the right operand), with `own` the value whose rate `r` is.
    fn product(
        g: &mut Graph,
        r: &Rate,
        other: &Value,
        rate_is_left: bool,
        own: &Value,
    ) -> Option<Rate> {
        if matches!(r, Rate::Zero) {
            return None;
        }
        Some(match (own, other) {
            // scalar · scalar
            (Value::Scalar(_), Value::Scalar(o)) => {
                let s = scalar(r)?;
                Rate::Scalar(if rate_is_left {
                    g.mul(s, *o)
                } else {
                    g.mul(*o, s)
                })
            }
            // ṡ·v, ṡ·M
            (Value::Scalar(_), Value::Vector(v)) => Rate::Vector(vector::scale(g, scalar(r)?, *v)),
            (Value::Scalar(_), Value::Matrix(m)) => {
                Rate::Matrix(MatrixRate::Full(vector::mat_scale(g, scalar(r)?, m)))
            }
            // s·v̇, v̇·s
            (Value::Vector(_), Value::Scalar(s)) => Rate::Vector(vector::scale(g, *s, vec(r)?)),
            // s·Ṁ
            (Value::Matrix(_), Value::Scalar(s)) => {
                let m = matrix(g, r)?;
                Rate::Matrix(MatrixRate::Full(vector::mat_scale(g, *s, &m)))
            }
            // Ṁ·v (rate on the left) / M·v̇ (rate on the right)
            (Value::Matrix(_), Value::Vector(v)) if rate_is_left => {
                let Rate::Matrix(m) = r else { return None };
                Rate::Vector(m.times_vector(g, *v))
            }
            (Value::Vector(_), Value::Matrix(m)) if !rate_is_left => {
                Rate::Vector(vector::mat_vec(g, m, vec(r)?))
            }
            // Ṁ·N / M·Ṅ
            (Value::Matrix(_), Value::Matrix(n)) => {
                let Rate::Matrix(m) = r else { return None };
                Rate::Matrix(if rate_is_left {
                    m.times_matrix(g, n)
                } else {
                    m.left_times(g, n)
                })
            }
            _ => return None,
        })
    }

    /// d(a/b) for a scalar b: ȧ/b − a·ḃ/b² (the rule of `symbolic::diff`).
    pub fn div(g: &mut Graph, a: &Value, ra: &Rate, b: Id, rb: &Rate) -> Rate {
        let quotient = |g: &mut Graph, x: Id, dx: Option<Id>| -> Option<Id> {
            let t1 = dx.map(|d| g.div(d, b));
            let t2 = match rb {
                Rate::Scalar(db) => {
                    let xdb = g.mul(x, *db);
                    let bb = g.mul(b, b);
                    Some(g.div(xdb, bb))
                }
                _ => None,
            };
            match (t1, t2) {
                (None, None) => None,
                (Some(t), None) => Some(t),
                (None, Some(t)) => Some(g.neg(t)),
                (Some(p), Some(q)) => Some(g.sub(p, q)),
            }
        };
        match a {
            Value::Scalar(x) => match quotient(g, *x, scalar(ra)) {
                Some(s) => Rate::Scalar(s),
                None => Rate::Zero,
            },
            Value::Vector(v) => {
                let dv = vec(ra);
                let parts: Vec<Option<Id>> = (0..3)
                    .map(|i| quotient(g, v[i], dv.map(|d| d[i])))
                    .collect();
                if parts.iter().all(Option::is_none) {
                    return Rate::Zero;
                }
                let z = g.zero();
                Rate::Vector(std::array::from_fn(|i| parts[i].unwrap_or(z)))
            }
            _ => Rate::Zero,
        }
    }

    /// d(a·b) = ȧ·b + a·ḃ for vectors.
    pub fn dot(g: &mut Graph, a: Vec3, ra: &Rate, b: Vec3, rb: &Rate) -> Rate {
        let l = vec(ra).map(|da| vector::dot(g, da, b));
        let r = vec(rb).map(|db| vector::dot(g, a, db));
        match (l, r) {
            (None, None) => Rate::Zero,
            (Some(x), None) | (None, Some(x)) => Rate::Scalar(x),
            (Some(x), Some(y)) => Rate::Scalar(g.add(x, y)),
        }
    }

    /// d(a × b) = ȧ × b + a × ḃ
    pub fn cross(g: &mut Graph, a: Vec3, ra: &Rate, b: Vec3, rb: &Rate) -> Rate {
        let l = vec(ra).map(|da| vector::cross(g, da, b));
        let r = vec(rb).map(|db| vector::cross(g, a, db));
        match (l, r) {
            (None, None) => Rate::Zero,
            (Some(x), None) | (None, Some(x)) => Rate::Vector(x),
            (Some(x), Some(y)) => Rate::Vector(vector::add(g, x, y)),
        }
    }

    /// d|a| = a·ȧ/|a|, with `norm` the node of |a|.
    pub fn norm(g: &mut Graph, a: Vec3, ra: &Rate, norm: Id) -> Rate {
        match vec(ra) {
            None => Rate::Zero,
            Some(da) => {
                let d = vector::dot(g, a, da);
                Rate::Scalar(g.div(d, norm))
            }
        }
    }

    /// d√x = ẋ/(2√x), d sin x = cos x·ẋ, d cos x = −sin x·ẋ, with `value` the function's node.
    pub fn function(g: &mut Graph, name: &str, x: Id, rx: &Rate, value: Id) -> Rate {
        let Some(dx) = scalar(rx) else {
            return Rate::Zero;
        };
        Rate::Scalar(match name {
            "sqrt" => {
                let two = g.constant(2.0);
                let den = g.mul(two, value);
                g.div(dx, den)
            }
            "sin" => {
                let c = g.cos(x);
                g.mul(c, dx)
            }
            _ => {
                let s = g.sin(x);
                let p = g.mul(s, dx);
                g.neg(p)
            }
        })
    }

    /// d atan2(y, x) = (x·ẏ − y·ẋ)/(x² + y²).
    pub fn atan2(g: &mut Graph, y: Id, ry: &Rate, x: Id, rx: &Rate) -> Rate {
        let (dy, dx) = (scalar(ry), scalar(rx));
        if dy.is_none() && dx.is_none() {
            return Rate::Zero;
        }
        let mut terms = Vec::new();
        if let Some(dy) = dy {
            terms.push(g.mul(x, dy));
        }
        if let Some(dx) = dx {
            let t = g.mul(y, dx);
            terms.push(g.neg(t));
        }
        let num = g.sum(&terms);
        let xx = g.mul(x, x);
        let yy = g.mul(y, y);
        let r2 = g.add(xx, yy);
        Rate::Scalar(g.div(num, r2))
    }

    pub fn transpose(r: Rate) -> Rate {
        match r {
            Rate::Matrix(m) => Rate::Matrix(m.transpose()),
            other => other,
        }
    }

    /// The rate of `value[k]`.
    pub fn index(g: &mut Graph, r: &Rate, k: usize) -> Rate {
        match r {
            Rate::Zero => Rate::Zero,
            Rate::Vector(v) => Rate::Scalar(v[k]),
            Rate::Rows(v) => Rate::Scalar(v[k]),
            Rate::Matrix(m) => Rate::Vector(m.row(g, k)),
            Rate::Scalar(_) => Rate::Zero,
        }
    }

    /// The rate of `col(value, k)`.
    pub fn column(g: &mut Graph, r: &Rate, k: usize) -> Rate {
        match r {
            Rate::Matrix(m) => Rate::Vector(m.column(g, k)),
            _ => Rate::Zero,
        }
    }

    /// The rate of `[a, b, …]`, from the rows' rates.
    pub fn rows(g: &mut Graph, rates: &[Rate]) -> Rate {
        if rates.iter().all(|r| matches!(r, Rate::Zero)) {
            return Rate::Zero;
        }
        Rate::Rows(
            rates
                .iter()
                .map(|r| match r {
                    Rate::Scalar(s) => *s,
                    _ => g.zero(),
                })
                .collect(),
        )
    }

    /// The rate as residual rows (zeros for `Rate::Zero`).
    pub fn residual_rows(g: &mut Graph, value: &Value, r: &Rate) -> Vec<Id> {
        explicit_rows(g, value, r)
    }
}
