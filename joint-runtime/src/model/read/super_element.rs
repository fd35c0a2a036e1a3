//! ObjectFFRFreducedOrder's data: modes, mass and stiffness matrices, mesh positions and the
//! output mode basis.

use serde_json::Value;

use super::frames::{f64_aliased, vec_aliased};
use crate::error::Result;
use crate::items::OutputVariable;
use crate::items::{NodeIndex, Object};
use crate::model::fields::Dict;

pub(super) fn read_ffrf(d: &mut Dict, name: String) -> Result<Object> {
    let [n0, n1] = d.indices::<2>("nodeNumbers")?;
    for key in ["forceUserFunction", "massMatrixUserFunction"] {
        d.no_user_function(key)?;
    }
    // derived keys
    d.ignore(&[
        "objectIsInitialized",
        "centerOfMassTilde",
        "tempUserFunctionForce",
    ]);
    let matrix = |d: &mut Dict, key: &'static str| -> Result<nalgebra::DMatrix<f64>> {
        Ok(d.opt_dmatrix(key)?
            .unwrap_or_else(|| nalgebra::DMatrix::zeros(0, 0)))
    };
    // `inertia`: Exudyn 1.13.6 emits a 3×3 matrix; a 6-vector is accepted too.
    let inertia = match d.get("inertia").or(d.get("physicsInertia")) {
        None => [0.0; 6],
        Some(Value::Array(a)) if a.len() == 6 => vec_aliased::<6>(d, "inertia", "physicsInertia")?,
        Some(_) => {
            let m = match d.opt_matrix::<3, 3>("physicsInertia")? {
                Some(m) => m,
                None => d.opt_matrix::<3, 3>("inertia")?.unwrap_or([[0.0; 3]; 3]),
            };
            [m[0][0], m[1][1], m[2][2], m[1][2], m[0][2], m[0][1]]
        }
    };
    let parameters = crate::items::FfrfParameters {
        mass_matrix_reduced: d
            .opt_matrix_container("massMatrixReduced")?
            .unwrap_or_default(),
        stiffness_matrix_reduced: d
            .opt_matrix_container("stiffnessMatrixReduced")?
            .unwrap_or_default(),
        damping_matrix_reduced: d
            .opt_matrix_container("dampingMatrixReduced")?
            .unwrap_or_default(),
        mode_basis: matrix(d, "modeBasis")?,
        reference_positions: d.opt_dvec("referencePositions")?.unwrap_or_default(),
        m_psi_tilde_psi: matrix(d, "mPsiTildePsi")?,
        m_psi_tilde_psi_tilde: matrix(d, "mPsiTildePsiTilde")?,
        m_phit_t_psi: matrix(d, "mPhitTPsi")?,
        m_phit_t_psi_tilde: matrix(d, "mPhitTPsiTilde")?,
        m_xref_tilde_psi: matrix(d, "mXRefTildePsi")?,
        m_xref_tilde_psi_tilde: matrix(d, "mXRefTildePsiTilde")?,
        mass: f64_aliased(d, "mass", "physicsMass")?,
        inertia,
        center_of_mass: vec_aliased::<3>(d, "centerOfMass", "physicsCenterOfMass")?,
        compute_ffrf_terms: d.bool_or("computeFFRFterms", true)?,
        output_variable_mode_basis: matrix(d, "outputVariableModeBasis")?,
        output_variable_type_mode_basis: match d.opt_str("outputVariableTypeModeBasis")? {
            None => None,
            Some(s) => match s.strip_prefix("OutputVariableType.").unwrap_or(s) {
                "_None" => None,
                "StressLocal" => Some(OutputVariable::StressLocal),
                "StrainLocal" => Some(OutputVariable::StrainLocal),
                other => {
                    return Err(d.err(
                        "outputVariableTypeModeBasis",
                        format!(
                            "expected `_None`, `StressLocal` or `StrainLocal`, found `{other}`"
                        ),
                    ));
                }
            },
        },
    };
    Ok(Object::FFRFreducedOrder {
        name,
        nodes: [NodeIndex(n0), NodeIndex(n1)],
        parameters: Box::new(parameters),
    })
}
