//! The fast start's extrapolation of ä and λ on uniform steps (`StepProblem::fast_start`).
//!
//! The start of a step is the predictor moved to ä and λ extrapolated from the values the last
//! steps converged to; Newton's first residual is about the error of that extrapolation, and
//! the residual test (`fast_newton::TOLERANCE_FACTOR`) needs it 100–1000 times smaller again.
//! So the start decides how many iterations a step takes.
//!
//! Two things shape these sequences. Their smooth part needs a polynomial of degree 3 or 4: the
//! quadratic's error is the third difference, which on chain N = 100 and on
//! perf3DRigidBodies is 5–13 times the fourth. And ä and λ carry a component that alternates
//! from step to step: on the one-body chain the fourth differences of all eleven unknowns
//! alternate in sign with a ratio of −0.99 between steps and are as large as the third
//! differences (docs/performance.md has the measurements). An extrapolation that is exact for
//! polynomials multiplies such a component by 2^(degree+1) − 1 instead of predicting it. Both
//! are covered by extrapolations that are exact for a polynomial of degree d plus c·(−1)ⁿ: on
//! uniform steps, sequences annihilated by (E − 1)^(d+1)·(E + 1) (E the shift), which gives
//! x_{n+1} as a fixed combination of the last d + 3 values ([`CANDIDATES`]).
//!
//! Which fits best differs between models and between ä and λ (the chains' λ take degree 3 or
//! 4 with the alternating term; perf3DRigidBodies' ä degree 4 without), so each is chosen by
//! measurement: every [`EVALUATE_EVERY`] steps, all candidates predict the value the step
//! converged to, and the one closest (max norm over the unknowns) serves until the next
//! evaluation. Off uniform steps (at the start, after a change of step size) the caller
//! extrapolates with its variable-step formulas.

/// The extrapolations chosen from: x_{n+1} = Σⱼ cⱼ·x_{n−j}, the coefficients of z^{m−1−j} in
/// z^m − P(z) for the annihilating polynomial P (`candidates_annihilate_their_sequences`).
pub(super) const CANDIDATES: [&[f64]; 7] = [
    // polynomials of degree 1, 2, 3, 4: (z − 1)^(d+1)
    &[2.0, -1.0],
    &[3.0, -3.0, 1.0],
    &[4.0, -6.0, 4.0, -1.0],
    &[5.0, -10.0, 10.0, -5.0, 1.0],
    // degree 2, 3, 4 plus c·(−1)ⁿ: (z − 1)^(d+1)·(z + 1)
    &[2.0, 0.0, -2.0, 1.0],
    &[3.0, -2.0, -2.0, 3.0, -1.0],
    &[4.0, -5.0, 0.0, 5.0, -4.0, 1.0],
];

/// How many values the longest candidate reads.
const DEPTH: usize = 6;

/// Steps between two evaluations of all candidates. The choice is stable over many steps (on
/// the benchmarks, evaluated at every step, one candidate served 51–87 % of the steps of each
/// model and group, and the iterations were at most 4 % fewer), and an evaluation costs seven
/// extrapolations.
pub(super) const EVALUATE_EVERY: usize = 16;

/// The last values of one group of unknowns (ä, or λ) and the extrapolation chosen for it.
#[derive(Clone, Debug)]
pub(super) struct Extrapolation {
    n: usize,
    /// The last [`DEPTH`] values, one plane of `n` per value; plane `head` is the newest.
    history: Vec<f64>,
    head: usize,
    /// Per plane, the size of the step that led to its value.
    step_sizes: [f64; DEPTH],
    /// How many planes hold values.
    filled: usize,
    chosen: Option<usize>,
    pushes_since_evaluation: usize,
}

impl Extrapolation {
    pub(super) fn new(n: usize) -> Self {
        Extrapolation {
            n,
            history: vec![0.0; DEPTH * n],
            head: 0,
            step_sizes: [0.0; DEPTH],
            filled: 0,
            chosen: None,
            pushes_since_evaluation: 0,
        }
    }

    /// The plane of the value `age` steps back (0: the newest).
    fn plane(&self, age: usize) -> &[f64] {
        let p = (self.head + age) % DEPTH;
        &self.history[p * self.n..(p + 1) * self.n]
    }

    /// Whether the candidate of `len` values extrapolates by a step of size `h` on uniform
    /// steps: its values are held and were `h` apart.
    fn applies(&self, len: usize, h: f64) -> bool {
        self.filled >= len
            && (0..len - 1).all(|age| self.step_sizes[(self.head + age) % DEPTH] == h)
    }

    /// Extrapolation `k` by a step of size `h` (which must apply) into `out`.
    fn extrapolate(&self, k: usize, out: &mut [f64]) {
        let c = CANDIDATES[k];
        out.copy_from_slice(self.plane(0));
        for x in out.iter_mut() {
            *x *= c[0];
        }
        for (age, &cj) in c.iter().enumerate().skip(1) {
            if cj != 0.0 {
                for (x, y) in out.iter_mut().zip(self.plane(age)) {
                    *x += cj * y;
                }
            }
        }
    }

    /// Record `x`, the value a step of size `h` converged to; every [`EVALUATE_EVERY`] steps
    /// (and while none is chosen) first let every candidate predict it and choose the closest.
    /// `scratch` holds at least `n` values.
    pub(super) fn push(&mut self, x: &[f64], h: f64, scratch: &mut [f64]) {
        let due = self.chosen.is_none() || self.pushes_since_evaluation + 1 >= EVALUATE_EVERY;
        if due && self.applies(DEPTH, h) {
            let scratch = &mut scratch[..self.n];
            let mut best = (f64::INFINITY, None);
            for k in 0..CANDIDATES.len() {
                self.extrapolate(k, scratch);
                let error = scratch
                    .iter()
                    .zip(x)
                    .fold(0.0, |m: f64, (p, x)| m.max((p - x).abs()));
                if error < best.0 {
                    best = (error, Some(k));
                }
            }
            if best.1.is_some() {
                self.chosen = best.1;
            }
            self.pushes_since_evaluation = 0;
        } else {
            self.pushes_since_evaluation += 1;
        }
        self.head = (self.head + DEPTH - 1) % DEPTH;
        let p = self.head;
        self.history[p * self.n..(p + 1) * self.n].copy_from_slice(x);
        self.step_sizes[p] = h;
        self.filled = (self.filled + 1).min(DEPTH);
    }

    /// x_{n+1} after a step of size `h` into `out`, by the chosen extrapolation; false (and
    /// `out` untouched) if none is chosen yet or the last steps were not of size `h`.
    pub(super) fn predict(&self, h: f64, out: &mut [f64]) -> bool {
        match self.chosen {
            Some(k) if self.applies(CANDIDATES[k].len(), h) => {
                self.extrapolate(k, out);
                true
            }
            _ => false,
        }
    }

    /// Which candidate serves (tests and traces).
    #[cfg(test)]
    pub(super) fn chosen(&self) -> Option<usize> {
        self.chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each candidate is exact for its sequences: a polynomial of its degree, plus c·(−1)ⁿ for
    /// the alternating ones; and not exact for one degree more (the degree is not higher).
    #[test]
    fn candidates_annihilate_their_sequences() {
        let kinds = [
            (1, false),
            (2, false),
            (3, false),
            (4, false),
            (2, true),
            (3, true),
            (4, true),
        ];
        for (k, &(degree, alternating)) in kinds.iter().enumerate() {
            let c = CANDIDATES[k];
            assert_eq!(
                c.len(),
                degree + 1 + usize::from(alternating),
                "candidate {k}"
            );
            let sequence = |n: i32, extra: i32| {
                let t = f64::from(n);
                let poly: f64 = (0..=degree as i32 + extra)
                    .map(|p| (0.3 + 0.1 * f64::from(p)) * t.powi(p))
                    .sum();
                let alt = if alternating {
                    0.7 * f64::from((-1i32).pow(n.unsigned_abs()))
                } else {
                    0.0
                };
                poly + alt
            };
            for extra in [0, 1] {
                // x_{n+1} from x_n, x_{n−1}, … with n = 10
                let predicted: f64 = c
                    .iter()
                    .enumerate()
                    .map(|(j, cj)| cj * sequence(10 - j as i32, extra))
                    .sum();
                let error = (predicted - sequence(11, extra)).abs();
                if extra == 0 {
                    assert!(
                        error < 1e-9 * sequence(11, 0).abs(),
                        "candidate {k}: {error}"
                    );
                } else {
                    assert!(error > 1e-3, "candidate {k} is exact one degree higher too");
                }
            }
        }
    }

    /// On a sequence with an alternating part, the evaluation chooses an alternating
    /// candidate, and its prediction is exact; a changed step size stops it.
    #[test]
    fn chooses_the_candidate_that_fits_and_stops_off_uniform_steps() {
        let h = 1e-3;
        let x = |n: usize| {
            let t = n as f64 * h;
            [
                1.0 + 2.0 * t - 5.0 * t * t,
                1e-4 * if n.is_multiple_of(2) { 1.0 } else { -1.0 } + t * t * t,
            ]
        };
        let mut e = Extrapolation::new(2);
        let mut scratch = [0.0; 2];
        let mut out = [0.0; 2];
        for n in 0..DEPTH {
            assert!(!e.predict(h, &mut out), "no choice before {DEPTH} values");
            e.push(&x(n), h, &mut scratch);
        }
        e.push(&x(DEPTH), h, &mut scratch);
        let k = e
            .chosen()
            .expect("a candidate is chosen once the history is full");
        assert!(
            k == 5 || k == 6,
            "an alternating candidate of degree 3 or 4: {k}"
        );
        assert!(e.predict(h, &mut out));
        let expected = x(DEPTH + 1);
        for i in 0..2 {
            assert!(
                (out[i] - expected[i]).abs() < 1e-12,
                "{i}: {} against {}",
                out[i],
                expected[i]
            );
        }
        assert!(
            !e.predict(0.5 * h, &mut out),
            "another step size: the caller's formulas"
        );
        e.push(&x(DEPTH + 1), 0.5 * h, &mut scratch);
        assert!(
            !e.predict(h, &mut out),
            "a value from a step of another size"
        );
    }
}
