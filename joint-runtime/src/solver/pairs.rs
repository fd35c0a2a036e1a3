//! The embedded Runge–Kutta pair of the accurate mode: Dormand–Prince 8(5,3) (DOP853, 13
//! stages, the last, at c = 1 with the weights b as its row, also the next step's first: 12
//! evaluations a step; Hairer, Nørsett, Wanner I, II.10, with the coefficients of Hairer's
//! `dop853.f` as SciPy's `dop853_coefficients` has them), whose error estimate combines a fifth-
//! and a third-order one.
//!
//! Measured on the chains of 1, 10 and 100 bodies (evaluations to reach an error of 1e-3 and
//! 1e-6 m, docs/performance.md), it took as few or fewer evaluations than Dormand–Prince 5(4)
//! and Bogacki–Shampine 3(2) at every tolerance from 1e-2 to 1e-10, so it is the only one.

/// How the pair estimates the local error from its stage derivatives k_j: e5 = h·Σ E5_j·k_j,
/// e3 = h·Σ E3_j·k_j and err = ‖e5‖² / √((‖e5‖² + 0.01·‖e3‖²)·n) over the scaled entries.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ErrorEstimate {
    pub e5: Vec<f64>,
    pub e3: Vec<f64>,
}

/// An embedded pair: its tableau (`a` row-major, s × s, strictly lower triangular), the
/// estimate and the exponent of the step-size proposal, 1/(q + 1) for an estimate of order q.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Pair {
    pub name: &'static str,
    pub stages: usize,
    pub a: Vec<f64>,
    pub c: Vec<f64>,
    pub estimate: ErrorEstimate,
    pub exponent: f64,
}

impl Pair {
    /// Dormand–Prince 8(5,3).
    pub(crate) fn dop853() -> Pair {
        const A: [&[(usize, f64)]; 13] = [
            &[],
            &[(0, 0.05260015195876773)],
            &[(0, 0.0197250569845379), (1, 0.0591751709536137)],
            &[(0, 0.02958758547680685), (2, 0.08876275643042054)],
            &[
                (0, 0.2413651341592667),
                (2, -0.8845494793282861),
                (3, 0.924834003261792),
            ],
            &[
                (0, 0.037037037037037035),
                (3, 0.17082860872947386),
                (4, 0.12546768756682242),
            ],
            &[
                (0, 0.037109375),
                (3, 0.17025221101954405),
                (4, 0.06021653898045596),
                (5, -0.017578125),
            ],
            &[
                (0, 0.03709200011850479),
                (3, 0.17038392571223998),
                (4, 0.10726203044637328),
                (5, -0.015319437748624402),
                (6, 0.008273789163814023),
            ],
            &[
                (0, 0.6241109587160757),
                (3, -3.3608926294469414),
                (4, -0.868219346841726),
                (5, 27.59209969944671),
                (6, 20.154067550477894),
                (7, -43.48988418106996),
            ],
            &[
                (0, 0.47766253643826434),
                (3, -2.4881146199716677),
                (4, -0.590290826836843),
                (5, 21.230051448181193),
                (6, 15.279233632882423),
                (7, -33.28821096898486),
                (8, -0.020331201708508627),
            ],
            &[
                (0, -0.9371424300859873),
                (3, 5.186372428844064),
                (4, 1.0914373489967295),
                (5, -8.149787010746927),
                (6, -18.52006565999696),
                (7, 22.739487099350505),
                (8, 2.4936055526796523),
                (9, -3.0467644718982196),
            ],
            &[
                (0, 2.273310147516538),
                (3, -10.53449546673725),
                (4, -2.0008720582248625),
                (5, -17.9589318631188),
                (6, 27.94888452941996),
                (7, -2.8589982771350235),
                (8, -8.87285693353063),
                (9, 12.360567175794303),
                (10, 0.6433927460157636),
            ],
            &[
                (0, 0.054293734116568765),
                (5, 4.450312892752409),
                (6, 1.8915178993145003),
                (7, -5.801203960010585),
                (8, 0.3111643669578199),
                (9, -0.1521609496625161),
                (10, 0.20136540080403034),
                (11, 0.04471061572777259),
            ],
        ];
        let s = A.len();
        let mut a = vec![0.0; s * s];
        for (i, row) in A.iter().enumerate() {
            for &(j, x) in *row {
                a[i * s + j] = x;
            }
        }
        Pair {
            name: "DOP853",
            stages: s,
            a,
            c: vec![
                0.0,
                0.05260015195876773,
                0.0789002279381516,
                0.1183503419072274,
                0.2816496580927726,
                0.3333333333333333,
                0.25,
                0.3076923076923077,
                0.6512820512820513,
                0.6,
                0.8571428571428571,
                1.0,
                1.0,
            ],
            estimate: ErrorEstimate {
                e5: vec![
                    0.01312004499419488,
                    0.0,
                    0.0,
                    0.0,
                    0.0,
                    -1.2251564463762044,
                    -0.4957589496572502,
                    1.6643771824549864,
                    -0.35032884874997366,
                    0.3341791187130175,
                    0.08192320648511571,
                    -0.022355307863886294,
                    0.0,
                ],
                e3: vec![
                    -0.18980075407240762,
                    0.0,
                    0.0,
                    0.0,
                    0.0,
                    4.450312892752409,
                    1.8915178993145003,
                    -5.801203960010585,
                    -0.4226823213237919,
                    -0.1521609496625161,
                    0.20136540080403034,
                    0.02265179219836082,
                    0.0,
                ],
            },
            exponent: 1.0 / 8.0,
        }
    }

    /// a_ij.
    #[cfg(test)]
    pub(crate) fn a(&self, i: usize, j: usize) -> f64 {
        self.a[i * self.stages + j]
    }

    /// The weights b: the last stage's row.
    #[cfg(test)]
    pub(crate) fn b(&self) -> &[f64] {
        let s = self.stages;
        &self.a[(s - 1) * s..s * s]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Σ_i b_i·φ_i for φ = c^(k−1) (the "bushy" trees) and Σ_ij b_i·a_ij·c_j^(k−1): equal to
    /// 1/k and 1/(k(k+1)) up to the pair's order; row sums of A equal c; the error weights sum
    /// to 0 (both solutions consistent). A mistyped coefficient breaks one of them.
    fn check(pair: &Pair, order: i32) {
        let s = pair.stages;
        let b = pair.b();
        for i in 0..s {
            let row: f64 = (0..i).map(|j| pair.a(i, j)).sum();
            assert!((row - pair.c[i]).abs() < 1e-14, "{} row {i}", pair.name);
        }
        for k in 1..=order {
            let bushy: f64 = (0..s).map(|i| b[i] * pair.c[i].powi(k - 1)).sum();
            assert!(
                (bushy - 1.0 / k as f64).abs() < 1e-13,
                "{} Σbc^{}",
                pair.name,
                k - 1
            );
            if k < order {
                let tall: f64 = (0..s)
                    .map(|i| {
                        b[i] * (0..i)
                            .map(|j| pair.a(i, j) * pair.c[j].powi(k - 1))
                            .sum::<f64>()
                    })
                    .sum();
                let expected = 1.0 / (k * (k + 1)) as f64;
                assert!(
                    (tall - expected).abs() < 1e-13,
                    "{} Σbac^{}",
                    pair.name,
                    k - 1
                );
            }
        }
        let e = &pair.estimate;
        let sums = [e.e5.iter().sum::<f64>(), e.e3.iter().sum::<f64>()];
        for sum in sums {
            assert!(
                sum.abs() < 1e-13,
                "{} error weights sum to {sum}",
                pair.name
            );
        }
    }

    #[test]
    fn pairs_satisfy_their_order_conditions() {
        check(&Pair::dop853(), 8);
    }

    /// Not an order 9 method: the conditions fail there, so the check can fail.
    #[test]
    fn the_check_sees_order_nine_fail() {
        let p = Pair::dop853();
        let b = p.b();
        let bushy: f64 = (0..p.stages).map(|i| b[i] * p.c[i].powi(8)).sum();
        assert!((bushy - 1.0 / 9.0).abs() > 1e-8);
    }
}
