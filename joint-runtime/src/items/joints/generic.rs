//! Exudyn's ObjectJointGeneric: its 6 equations chosen from the candidate rows of
//! `GenericRows` by `constrainedAxes`.

use super::joint_type::{Axes, ExtraKey, ExtraKeyKind, JointType, Narrow};
use super::object::JointObject;
use super::outputs::JointOutputs;
use super::rigid_frames;
use crate::items::MarkerIndex;
use crate::items::OutputVariable;
use crate::items::output_variable::put3;
use crate::kernels::{generic_fixed, generic_rows, revolute_z};

/// Exudyn's ObjectJointGeneric: `constrainedAxes` picks which of the three relative translations and three relative rotations of the joint frames are locked.
pub static JOINT_GENERIC: JointType = rigid_frames::rigid_joint(
    "JointGeneric",
    &["ObjectJointGeneric", "GenericJoint"],
    &generic_rows::DEFINITION,
    Axes::Select {
        count: 6,
        select: generic_joint_rows,
        // the narrowest first: the first that has every selected row evaluates the joint
        narrow: &[
            // free about z (or more): Δp, t_z0·t_x1, t_z0·t_y1, ObjectJointRevoluteZ's rows
            Narrow {
                definition: &revolute_z::DEFINITION,
                rows: &[0, 1, 2, 7, 6],
            },
            // every rotation locked: Δp, t_z0·t_y1, t_z0·t_x1, t_x0·t_y1
            Narrow {
                definition: &generic_fixed::DEFINITION,
                rows: &[0, 1, 2, 6, 7, 8],
            },
        ],
    },
    outputs,
    &[
        ExtraKey {
            key: "offsetUserFunction",
            kind: ExtraKeyKind::UserFunction,
        },
        ExtraKey {
            key: "offsetUserFunction_t",
            kind: ExtraKeyKind::UserFunction,
        },
        // only read by the offset user functions
        ExtraKey {
            key: "offsetUserFunctionParameters",
            kind: ExtraKeyKind::Unused { len: 6 },
        },
        ExtraKey {
            key: "alternativeConstraints",
            kind: ExtraKeyKind::False {
                message: "Exudyn's experimental alternative constraints are not supported; expected false",
            },
        },
    ],
);

fn outputs(ctx: &JointOutputs, var: OutputVariable, out: &mut Vec<f64>) -> Option<()> {
    let l = ctx.lambda;
    let t = ctx.topology;
    match var {
        // global rows when all translations are locked, else already local
        OutputVariable::ForceLocal => {
            if (0..3).all(|k| t.row_kernel(k) == Some(k)) {
                put3(out, rigid_frames::local(ctx, [l[0], l[1], l[2]]));
            } else {
                out.extend_from_slice(&l[..3]);
            }
        }
        OutputVariable::TorqueLocal => out.extend_from_slice(&l[3..6]),
        other => return rigid_frames::outputs(ctx, other, out),
    }
    Some(())
}

/// Exudyn's choice of equations for ObjectJointGeneric with `constrainedAxes` (true =
/// locked): for each of the 6 AE rows, the row of the `generic_rows` kernel that is its
/// equation, or `None` for a free row (`g = λ`).
///
/// Translations: all three locked → global rows `Δp_k` (kernel rows 0–2); otherwise each
/// locked one is local to J0, `t_k0·Δp` (rows 3–5). Rotations, by the number n of locked
/// ones: n = 3 → `t_z0·t_y1`, `t_z0·t_x1`, `t_x0·t_y1`; n = 2 → with the free axis f,
/// `t_f0·t_l1` for each locked axis l; n = 1 → with the free axes f1 < f2, `t_f1,0·t_f2,1`
/// in the locked axis' row (docs/joint-formulas.md §3.2).
pub fn generic_joint_rows(locked: &[bool]) -> Vec<Option<usize>> {
    // kernel rows of t_a0·t_b1, indexed [a][b]
    const PRODUCT: [[usize; 3]; 3] = [[usize::MAX, 8, 9], [10, usize::MAX, 11], [7, 6, usize::MAX]];
    let mut rows = vec![None; 6];
    let all_translations = locked[..3].iter().all(|&l| l);
    for k in 0..3 {
        if locked[k] {
            rows[k] = Some(if all_translations { k } else { 3 + k });
        }
    }
    let free: Vec<usize> = (0..3).filter(|&a| !locked[3 + a]).collect();
    match free.as_slice() {
        [] => {
            rows[3] = Some(PRODUCT[2][1]);
            rows[4] = Some(PRODUCT[2][0]);
            rows[5] = Some(PRODUCT[0][1]);
        }
        &[f] => {
            for l in (0..3).filter(|&l| l != f) {
                rows[3 + l] = Some(PRODUCT[f][l]);
            }
        }
        &[f1, f2] => {
            let l = 3 - f1 - f2;
            rows[3 + l] = Some(PRODUCT[f1][f2]);
        }
        _ => {}
    }
    rows
}

impl JointObject {
    /// `ObjectJointGeneric(markerNumbers=markers, constrainedAxes=axes, rotationMarker0=r0,
    /// rotationMarker1=r1)`.
    pub fn generic(
        markers: [MarkerIndex; 2],
        constrained_axes: [i64; 6],
        rotation_marker0: [[f64; 3]; 3],
        rotation_marker1: [[f64; 3]; 3],
    ) -> Self {
        rigid_frames::rigid_object(JOINT_GENERIC, markers, rotation_marker0, rotation_marker1)
            .with_constrained_axes(&constrained_axes)
    }
}

#[cfg(test)]
mod tests {
    use super::{JOINT_GENERIC, generic_joint_rows};
    use crate::items::joints::joint_type::Axes;
    use joint_core::{MarkerArgs, Pairing};

    /// Values in (−0.5, 0.5), different per slot and seed.
    fn values(n: usize, seed: usize) -> Vec<f64> {
        (0..n)
            .map(|i| ((i * 31 + seed * 7 + 3) as f64 * 0.618_033_988_749_895).fract() - 0.5)
            .collect()
    }

    /// Residuals, velocity residuals, Jacobian rows and C_qᵀλ of `p` (λ given per its rows).
    fn evaluate(p: &Pairing, lambda: &[f64]) -> [Vec<f64>; 6] {
        let joint = values(18, 1);
        let arrays = |m: usize| {
            [
                values(p.parameters[m], 10 + m),
                values(p.coordinates[m], 20 + m),
                values(p.coordinates[m], 30 + m),
            ]
        };
        let (a0, a1) = (arrays(0), arrays(1));
        fn args(a: &[Vec<f64>; 3]) -> MarkerArgs<'_> {
            let [parameters, coordinates, velocities] = a;
            MarkerArgs {
                parameters,
                coordinates,
                velocities,
            }
        }
        let (m0, m1) = (args(&a0), args(&a1));
        let rows = p.rows;
        let [n0, n1] = p.coordinates;
        let (mut g, mut v) = (vec![0.0; rows], vec![0.0; rows]);
        let (mut c0, mut c1) = (vec![0.0; rows * n0], vec![0.0; rows * n1]);
        let (mut f0, mut f1) = (vec![0.0; n0], vec![0.0; n1]);
        (p.position_residual)(&joint, m0, m1, &mut g).unwrap();
        (p.velocity_residual)(&joint, m0, m1, &mut v).unwrap();
        (p.jacobian)(&joint, m0, m1, &mut c0, &mut c1).unwrap();
        (p.reaction_forces)(&joint, lambda, m0, m1, &mut f0, &mut f1).unwrap();
        [g, v, c0, c1, f0, f1]
    }

    /// ObjectJointGeneric's narrower definitions compute the same rows as `GenericRows`', to the
    /// bit, in every pairing (so a joint evaluated with them keeps its arithmetic), and the same
    /// C_qᵀλ for λ on those rows up to rounding (the wide one sums zero rows besides, in another
    /// association).
    #[test]
    fn the_narrow_definitions_rows_are_generic_rows_own() {
        let Axes::Select { narrow, .. } = JOINT_GENERIC.axes else {
            panic!("ObjectJointGeneric selects its rows");
        };
        assert_eq!(narrow.len(), 2);
        let wide = JOINT_GENERIC.definition;
        for n in narrow {
            assert!(n.definition.pairings.len() >= 5, "{}", n.definition.name);
            for p in n.definition.pairings {
                let w = wide
                    .pairing(p.kinds[0], p.kinds[1])
                    .expect("the same pairings");
                let lambda = values(p.rows, 5);
                let mut wide_lambda = vec![0.0; w.rows];
                for (k, &r) in n.rows.iter().enumerate() {
                    wide_lambda[r] = lambda[k];
                }
                let [g, v, c0, c1, f0, f1] = evaluate(p, &lambda);
                let [wg, wv, wc0, wc1, wf0, wf1] = evaluate(w, &wide_lambda);
                let (cols0, cols1) = (p.coordinates[0], p.coordinates[1]);
                for (k, &r) in n.rows.iter().enumerate() {
                    let what = format!("{} row {k} ({})", p.name, n.definition.axes[k]);
                    assert_eq!(g[k].to_bits(), wg[r].to_bits(), "{what}: residual");
                    assert_eq!(v[k].to_bits(), wv[r].to_bits(), "{what}: velocity");
                    let row = |c: &[f64], k: usize, n: usize| c[k * n..(k + 1) * n].to_vec();
                    assert_eq!(row(&c0, k, cols0), row(&wc0, r, cols0), "{what}: C block 0");
                    assert_eq!(row(&c1, k, cols1), row(&wc1, r, cols1), "{what}: C block 1");
                }
                for (a, b) in f0.iter().chain(&f1).zip(wf0.iter().chain(&wf1)) {
                    assert!(
                        (a - b).abs() <= 1e-14 * (1.0 + b.abs()),
                        "{}: C_qᵀλ",
                        p.name
                    );
                }
                assert!(
                    g.iter().any(|x| x.abs() > 1e-3),
                    "the rows are not trivially zero"
                );
            }
        }
    }

    /// Kernel rows of `generic_rows`: 0–2 Δp, 3–5 t_k0·Δp, then t_a0·t_b1 for these (a, b).
    const PRODUCTS: [(usize, usize); 6] = [(2, 1), (2, 0), (0, 1), (0, 2), (1, 0), (1, 2)];

    /// The (a, b) of a rotation row, `None` for a free row.
    type Product = Option<(usize, usize)>;

    fn product(row: Option<usize>) -> Product {
        row.map(|r| PRODUCTS[r - 6])
    }

    /// Exudyn's rotation rows per pattern (docs/joint-formulas.md §3.2, confirmed there for all
    /// 64 patterns against pip Exudyn).
    #[test]
    fn generic_joint_rotation_rows_follow_exudyns_patterns() {
        let (x, y, z) = (0, 1, 2);
        let cases: [([bool; 3], [Product; 3]); 8] = [
            ([true; 3], [Some((z, y)), Some((z, x)), Some((x, y))]),
            ([false, true, true], [None, Some((x, y)), Some((x, z))]),
            ([true, false, true], [Some((y, x)), None, Some((y, z))]),
            ([true, true, false], [Some((z, x)), Some((z, y)), None]),
            ([true, false, false], [Some((y, z)), None, None]),
            ([false, true, false], [None, Some((x, z)), None]),
            ([false, false, true], [None, None, Some((x, y))]),
            ([false; 3], [None, None, None]),
        ];
        for (rotations, expected) in cases {
            let rows =
                generic_joint_rows(&[true, true, true, rotations[0], rotations[1], rotations[2]]);
            let got = [product(rows[3]), product(rows[4]), product(rows[5])];
            assert_eq!(got, expected, "rotations locked {rotations:?}");
        }
    }

    #[test]
    fn generic_joint_translation_rows_are_global_only_when_all_three_are_locked() {
        assert_eq!(
            generic_joint_rows(&[true; 6])[..3],
            [Some(0), Some(1), Some(2)]
        );
        assert_eq!(
            generic_joint_rows(&[true, false, true, true, true, true])[..3],
            [Some(3), None, Some(5)]
        );
        assert_eq!(generic_joint_rows(&[false; 6]), [None; 6]);
    }
}
