//! Exudyn's frame keys: homogeneous transformations (`referenceHT`, `localHT`) that must
//! agree with the primary position and rotation keys, and keys with older aliases.

use crate::error::Result;
use crate::model::fields::Dict;

/// Tolerance for derived keys (`referenceHT`, `localHT`) that must agree with the primary ones.
pub(super) const DERIVED_TOLERANCE: f64 = 1e-12;

pub(super) const IDENTITY3: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

/// A 1.13 key with its deprecated 1.11 spelling: the deprecated one wins if both are given.
pub(super) fn f64_aliased(d: &mut Dict, key: &'static str, old: &'static str) -> Result<f64> {
    let new = d.opt_f64(key)?;
    let old = d.opt_f64(old)?;
    Ok(old.or(new).unwrap_or(0.0))
}

pub(super) fn vec_aliased<const N: usize>(
    d: &mut Dict,
    key: &'static str,
    old: &'static str,
) -> Result<[f64; N]> {
    let new = d.opt_vec::<N>(key)?;
    let old = d.opt_vec::<N>(old)?;
    Ok(old.or(new).unwrap_or([0.0; N]))
}

pub(super) fn agrees(a: f64, b: f64) -> bool {
    (a - b).abs() <= DERIVED_TOLERANCE * a.abs().max(b.abs()).max(1.0)
}

/// Check a 4×4 homogeneous transformation: bottom row [0,0,0,1]; returns (R, p).
pub(super) fn split_ht(
    d: &Dict,
    key: &str,
    ht: &[[f64; 4]; 4],
) -> Result<([[f64; 3]; 3], [f64; 3])> {
    let bottom = [0.0, 0.0, 0.0, 1.0];
    if !(0..4).all(|c| agrees(ht[3][c], bottom[c])) {
        return Err(d.err(
            key,
            format!(
                "the last row of a homogeneous transformation must be [0, 0, 0, 1], found {:?}",
                ht[3]
            ),
        ));
    }
    let mut r = [[0.0; 3]; 3];
    let mut p = [0.0; 3];
    for i in 0..3 {
        r[i].copy_from_slice(&ht[i][..3]);
        p[i] = ht[i][3];
    }
    Ok((r, p))
}

pub(super) fn same_matrix(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> bool {
    (0..3).all(|i| (0..3).all(|j| agrees(a[i][j], b[i][j])))
}

pub(super) fn same_vector(a: &[f64; 3], b: &[f64; 3]) -> bool {
    (0..3).all(|i| agrees(a[i], b[i]))
}

/// `localHT` of a rigid marker whose frame may turn (BodyRigid, NodeRigid): its translation
/// must equal `local_position` (when that is given; otherwise it defines it). Returns the
/// translation and the rotation.
pub(super) fn local_ht_frame(
    d: &mut Dict,
    local_position: Option<[f64; 3]>,
    position_key: &str,
) -> Result<([f64; 3], [[f64; 3]; 3])> {
    let Some(ht) = d.opt_matrix::<4, 4>("localHT")? else {
        return Ok((local_position.unwrap_or([0.0; 3]), IDENTITY3));
    };
    let (r, p) = split_ht(d, "localHT", &ht)?;
    match local_position {
        Some(lp) if !same_vector(&lp, &p) => Err(d.err(
            "localHT",
            format!("its translation {p:?} must equal {position_key} {lp:?}"),
        )),
        _ => Ok((p, r)),
    }
}

/// `localHT` of a marker whose frame rotation is not supported yet (KinematicTreeRigid,
/// SuperElementRigid): as [`local_ht_frame`], with only the identity rotation.
pub(super) fn local_ht(
    d: &mut Dict,
    local_position: Option<[f64; 3]>,
    position_key: &str,
) -> Result<[f64; 3]> {
    let (p, r) = local_ht_frame(d, local_position, position_key)?;
    if !same_matrix(&r, &IDENTITY3) {
        return Err(d.err(
            "localHT",
            format!(
                "only the identity rotation is supported in this marker's localHT, found {r:?}"
            ),
        ));
    }
    Ok(p)
}
