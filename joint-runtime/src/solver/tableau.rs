//! The Butcher tableaus of Exudyn's explicit integrators (ExplicitEuler, ExplicitMidpoint,
//! RK33, RK44, RK67, ODE23, DOPRI5), with their coefficients as Exudyn writes them.

use crate::settings::DynamicSolverType;

/// A Butcher tableau: `a` (strictly lower triangular, row-major), nodes `c`, weights `b`, the
/// embedded weights `b_hat` of an error-controlled pair and the order used in the step proposal.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Tableau {
    pub stages: usize,
    pub a: Vec<f64>,
    pub c: Vec<f64>,
    pub b: Vec<f64>,
    pub b_hat: Option<Vec<f64>>,
    /// Exudyn's `orderMethod`: p for fixed-step methods, the higher order of an embedded pair.
    pub order: f64,
}

impl Tableau {
    /// A tableau from the rows of its strictly lower triangle `a` (ragged), its nodes `c`,
    /// weights `b` and embedded weights `b_hat`.
    fn from_rows(
        rows: &[&[f64]],
        c: &[f64],
        b: &[f64],
        b_hat: Option<Vec<f64>>,
        order: f64,
    ) -> Tableau {
        let stages = c.len();
        let mut a = vec![0.0; stages * stages];
        for (i, row) in rows.iter().enumerate() {
            a[i * stages..i * stages + row.len()].copy_from_slice(row);
        }
        Tableau {
            stages,
            a,
            c: c.to_vec(),
            b: b.to_vec(),
            b_hat,
            order,
        }
    }

    /// Butcher's 7-stage, sixth-order method (RK67).
    fn rk67() -> Tableau {
        let s5 = 5f64.sqrt();
        let lo = 1. / 2. - 1. / 10. * s5;
        let hi = 1. / 2. + 1. / 10. * s5;
        Tableau::from_rows(
            &[
                &[],
                &[lo],
                &[-1. / 10. * s5, 1. / 2. + 1. / 5. * s5],
                &[
                    7. / 20. * s5 - 3. / 4.,
                    1. / 4. * s5 - 1. / 4.,
                    3. / 2. - 7. / 10. * s5,
                ],
                &[
                    1. / 12. - 1. / 60. * s5,
                    0.,
                    1. / 6.,
                    7. / 60. * s5 + 1. / 4.,
                ],
                &[
                    1. / 60. * s5 + 1. / 12.,
                    0.,
                    3. / 4. - 5. / 12. * s5,
                    1. / 6.,
                    -1. / 2. + 3. / 10. * s5,
                ],
                &[
                    1. / 6.,
                    0.,
                    -55. / 12. + 25. / 12. * s5,
                    -7. / 12. * s5 - 25. / 12.,
                    5. - 2. * s5,
                    5. / 2. + 1. / 2. * s5,
                ],
            ],
            &[0., lo, hi, lo, hi, lo, 1.],
            &[1. / 12., 0., 0., 0., 5. / 12., 5. / 12., 1. / 12.],
            None,
            6.0,
        )
    }

    /// The tableau Exudyn runs for an explicit `DynamicSolverType` (None for the implicit ones).
    pub(crate) fn of(t: DynamicSolverType) -> Option<Tableau> {
        let tableau = Tableau::from_rows;
        Some(match t {
            DynamicSolverType::GeneralizedAlpha | DynamicSolverType::TrapezoidalIndex2 => {
                return None;
            }
            DynamicSolverType::ExplicitEuler | DynamicSolverType::VelocityVerlet => {
                // velocity Verlet uses only the weight (Exudyn's order 2 concerns ODE2 components)
                let order = if t == DynamicSolverType::ExplicitEuler {
                    1.0
                } else {
                    2.0
                };
                tableau(&[&[0.0]], &[0.0], &[1.0], None, order)
            }
            DynamicSolverType::ExplicitMidpoint => {
                tableau(&[&[], &[0.5]], &[0.0, 0.5], &[0.0, 1.0], None, 2.0)
            }
            DynamicSolverType::RK33 => tableau(
                &[&[], &[1. / 3.], &[0.0, 2. / 3.]],
                &[0., 1. / 3., 2. / 3.],
                &[1. / 4., 0., 3. / 4.],
                None,
                3.0,
            ),
            DynamicSolverType::RK44 => tableau(
                &[&[], &[0.5], &[0.0, 0.5], &[0.0, 0.0, 1.0]],
                &[0., 0.5, 0.5, 1.],
                &[1. / 6., 1. / 3., 1. / 3., 1. / 6.],
                None,
                4.0,
            ),
            // Butcher (1964), "On Runge-Kutta processes of high order", J. Austral. Math. Soc. 4
            DynamicSolverType::RK67 => Tableau::rk67(),
            // Bogacki–Shampine 3(2); the embedded weights are b − δ with Exudyn's δ
            DynamicSolverType::ODE23 => {
                let b = [2. / 9., 1. / 3., 4. / 9., 0.];
                let delta = [-5. / 72., 1. / 12., 1. / 9., -1. / 8.];
                let b_hat = b.iter().zip(&delta).map(|(b, d)| b - d).collect();
                tableau(
                    &[
                        &[],
                        &[1. / 2.],
                        &[0., 3. / 4.],
                        &[2. / 9., 1. / 3., 4. / 9.],
                    ],
                    &[0., 1. / 2., 3. / 4., 1.],
                    &b,
                    Some(b_hat),
                    3.0,
                )
            }
            // Dormand–Prince 5(4), Hairer, Nørsett, Wanner I, p. 178
            DynamicSolverType::DOPRI5 => tableau(
                &[
                    &[],
                    &[1. / 5.],
                    &[3. / 40., 9. / 40.],
                    &[44. / 45., -56. / 15., 32. / 9.],
                    &[
                        19372. / 6561.,
                        -25360. / 2187.,
                        64448. / 6561.,
                        -212. / 729.,
                    ],
                    &[
                        9017. / 3168.,
                        -355. / 33.,
                        46732. / 5247.,
                        49. / 176.,
                        -5103. / 18656.,
                    ],
                    &[
                        35. / 384.,
                        0.,
                        500. / 1113.,
                        125. / 192.,
                        -2187. / 6784.,
                        11. / 84.,
                    ],
                ],
                &[0., 1. / 5., 3. / 10., 4. / 5., 8. / 9., 1., 1.],
                &[
                    35. / 384.,
                    0.,
                    500. / 1113.,
                    125. / 192.,
                    -2187. / 6784.,
                    11. / 84.,
                    0.,
                ],
                Some(vec![
                    5179. / 57600.,
                    0.,
                    7571. / 16695.,
                    393. / 640.,
                    -92097. / 339200.,
                    187. / 2100.,
                    1. / 40.,
                ]),
                5.0,
            ),
        })
    }

    pub(crate) fn a(&self, i: usize, j: usize) -> f64 {
        self.a[i * self.stages + j]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tableau is consistent (row sums of A equal c, weights sum to 1) and of its order
    /// on the conditions up to order 4 (Σbc^(k−1) = 1/k, Σ b a c = 1/6, …).
    #[test]
    fn tableaus_satisfy_their_order_conditions() {
        for t in DynamicSolverType::ALL {
            let Some(tab) = Tableau::of(t) else { continue };
            let s = tab.stages;
            for i in 0..s {
                let row: f64 = (0..i).map(|j| tab.a(i, j)).sum();
                assert!((row - tab.c[i]).abs() < 1e-14, "{t:?} row {i}");
                for j in i..s {
                    assert_eq!(tab.a(i, j), 0.0, "{t:?} is explicit");
                }
            }
            let order = match t {
                DynamicSolverType::ExplicitEuler | DynamicSolverType::VelocityVerlet => 1,
                DynamicSolverType::ExplicitMidpoint => 2,
                DynamicSolverType::RK33 | DynamicSolverType::ODE23 => 3,
                _ => 4, // checked up to 4 here; RK67's and DOPRI5's higher orders in the tests below
            };
            let weights = std::iter::once(&tab.b).chain(tab.b_hat.as_ref());
            for (w, b) in weights.enumerate() {
                let p = if w == 0 { order } else { order - 1 };
                let sum = |f: &dyn Fn(usize) -> f64| (0..s).map(|i| b[i] * f(i)).sum::<f64>();
                let ac = |i: usize| (0..s).map(|j| tab.a(i, j) * tab.c[j]).sum::<f64>();
                let mut conditions = vec![(sum(&|_| 1.0), 1.0)];
                if p >= 2 {
                    conditions.push((sum(&|i| tab.c[i]), 0.5));
                }
                if p >= 3 {
                    conditions.push((sum(&|i| tab.c[i] * tab.c[i]), 1.0 / 3.0));
                    conditions.push((sum(&ac), 1.0 / 6.0));
                }
                if p >= 4 {
                    conditions.push((sum(&|i| tab.c[i].powi(3)), 0.25));
                    conditions.push((sum(&|i| tab.c[i] * ac(i)), 1.0 / 8.0));
                    conditions.push((
                        sum(&|i| {
                            (0..s)
                                .map(|j| tab.a(i, j) * tab.c[j] * tab.c[j])
                                .sum::<f64>()
                        }),
                        1.0 / 12.0,
                    ));
                    conditions.push((
                        sum(&|i| (0..s).map(|j| tab.a(i, j) * ac(j)).sum::<f64>()),
                        1.0 / 24.0,
                    ));
                }
                for (k, (got, want)) in conditions.into_iter().enumerate() {
                    assert!(
                        (got - want).abs() < 1e-13,
                        "{t:?} weights {w} condition {k}: {got} vs {want}"
                    );
                }
            }
        }
    }
}
