//! Checks shared by the tests.

use super::*;

// ------------------------------------------------------------------------------------------
// Checks.

#[derive(Default)]
pub(super) struct Checker {
    pub(super) checks: usize,
    pub(super) failures: Vec<String>,
}

impl Checker {
    pub(super) fn value(&mut self, ctx: &str, entry: &str, got: f64, expected: f64, tol: f64) {
        self.checks += 1;
        let err = (got - expected).abs() / expected.abs().max(1.0);
        if err.is_nan() || err > tol {
            self.failures.push(format!(
                "{ctx}: {entry} = {got:.15e}, expected {expected:.15e} (scaled error {err:.2e} > {tol:.0e})"
            ));
        }
    }

    pub(super) fn vec(&mut self, ctx: &str, entry: &str, got: V, expected: V, tol: f64) {
        for k in 0..3 {
            self.value(ctx, &format!("{entry}[{k}]"), got[k], expected[k], tol);
        }
    }

    pub(super) fn mat(&mut self, ctx: &str, entry: &str, got: &M, expected: &M, tol: f64) {
        for r in 0..3 {
            for c in 0..3 {
                self.value(
                    ctx,
                    &format!("{entry}[({r},{c})]"),
                    got[r][c],
                    expected[r][c],
                    tol,
                );
            }
        }
    }

    /// A documented approximation must be visible at these states (|gap| > `min`), so that
    /// the exact-relation checks elsewhere are known to discriminate.
    pub(super) fn visible_gap(&mut self, ctx: &str, entry: &str, gap: f64, min: f64) {
        self.checks += 1;
        if gap.is_nan() || gap <= min {
            self.failures.push(format!(
                "{ctx}: {entry} = {gap:e}; the spec documents a mismatch here, expected > {min:e}"
            ));
        }
    }

    pub(super) fn finish(self, test: &str) {
        assert!(self.checks > 0, "{test}: nothing was checked");
        if !self.failures.is_empty() {
            let shown: Vec<&str> = self.failures.iter().take(40).map(String::as_str).collect();
            panic!(
                "{test}: {} of {} checks failed (first {}):\n{}",
                self.failures.len(),
                self.checks,
                shown.len(),
                shown.join("\n")
            );
        }
    }
}

/// One marker at one random state.
pub(super) struct Ctx<'a> {
    /// "FILE marker I (WHAT), state S"
    pub(super) label: String,
    pub(super) spec: &'a Spec,
    pub(super) marker: &'a ResolvedMarker,
    pub(super) reference: &'a [f64],
    pub(super) qt: Vec<f64>,
    pub(super) v: Vec<f64>,
}

impl Ctx<'_> {
    pub(super) fn n(&self) -> usize {
        self.marker.columns.len()
    }

    pub(super) fn state<'s>(&'s self, qt: &'s [f64], v: &'s [f64]) -> MarkerState<'s> {
        MarkerState::new(self.marker, qt, v)
    }

    pub(super) fn spec_kinematics(&self) -> Kinematics {
        kinematics(self.spec, self.reference, &self.qt, &self.v)
    }

    /// q̇ restricted to the marker's columns.
    pub(super) fn qdot(&self) -> Vec<f64> {
        self.marker.columns.iter().map(|&g| self.v[g]).collect()
    }

    /// `x` with `h·d` (column space) added in the marker's columns.
    pub(super) fn shifted(&self, x: &[f64], d: &[f64], h: f64) -> Vec<f64> {
        let mut y = x.to_vec();
        for (c, &g) in self.marker.columns.iter().enumerate() {
            y[g] += h * d[c];
        }
        y
    }

    pub(super) fn position_jacobian(&self, qt: &[f64]) -> Vec<f64> {
        let mut j = vec![f64::NAN; 3 * self.n()];
        self.state(qt, &self.v).position_jacobian(&mut j);
        j
    }

    pub(super) fn rotation_jacobian(&self) -> Vec<f64> {
        let mut j = vec![f64::NAN; 3 * self.n()];
        self.state(&self.qt, &self.v).rotation_jacobian(&mut j);
        j
    }

    /// Where column c sits: a frame translation, a frame Euler parameter, or a mesh coordinate.
    pub(super) fn column_kind(&self, c: usize) -> ColumnKind {
        let g = self.marker.columns[c];
        match self.spec.frame {
            Some(f) if (f..f + 3).contains(&g) => ColumnKind::Translation,
            Some(f) if (f + 3..f + 7).contains(&g) => ColumnKind::EulerParameter,
            _ => ColumnKind::Mesh,
        }
    }

    /// Directions in column space for column-wise checks: a unit vector per translation or mesh
    /// column, and for the Euler parameters the three tangent directions G_loc[k,:]/2 (⊥ θ).
    pub(super) fn directions(&self) -> Vec<(String, ColumnKind, Vec<f64>)> {
        let n = self.n();
        let mut out = Vec::new();
        for c in 0..n {
            let kind = self.column_kind(c);
            if kind != ColumnKind::EulerParameter {
                let mut d = vec![0.0; n];
                d[c] = 1.0;
                let g = self.marker.columns[c];
                out.push((format!("column {c} (q[{g}])"), kind, d));
            }
        }
        if let Some(f) = self.spec.frame {
            let e = [
                self.qt[f + 3],
                self.qt[f + 4],
                self.qt[f + 5],
                self.qt[f + 6],
            ];
            let g = ep_g_local(e);
            for (k, row) in g.iter().enumerate() {
                let mut d = vec![0.0; n];
                for (c, x) in d.iter_mut().enumerate() {
                    let gc = self.marker.columns[c];
                    if (f + 3..f + 7).contains(&gc) {
                        *x = 0.5 * row[gc - f - 3];
                    }
                }
                out.push((
                    format!("θ tangent direction G_loc[{k},:]/2"),
                    ColumnKind::EulerParameter,
                    d,
                ));
            }
        }
        out
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum ColumnKind {
    Translation,
    EulerParameter,
    Mesh,
}

/// Run `check` for every superelement marker of every model at every random state.
pub(super) fn for_each_marker_state(test: &str, mut check: impl FnMut(&mut Checker, &Ctx)) {
    let mut ck = Checker::default();
    for case in cases() {
        for s in 0..STATES {
            let (qt, v) = random_state(&case.sim, seed_of(&case.file, s));
            for spec in &case.specs {
                let marker = &case.sim.topology.markers[spec.marker];
                if let Some(f) = spec.frame {
                    let expected: Vec<usize> = (f..f + 7).collect();
                    assert_eq!(
                        marker.columns[..7],
                        expected[..],
                        "{}: marker {}: the first 7 columns must be the frame's",
                        case.file,
                        spec.marker
                    );
                }
                let ctx = Ctx {
                    label: format!(
                        "{} marker {} ({}), state {s}",
                        case.file, spec.marker, spec.what
                    ),
                    spec,
                    marker,
                    reference: &case.sim.topology.reference,
                    qt: qt.clone(),
                    v: v.clone(),
                };
                check(&mut ck, &ctx);
            }
        }
    }
    ck.finish(test);
}
