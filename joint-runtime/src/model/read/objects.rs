//! Objects: ground, bodies, connectors and superelements (joints go through `joints`).

use serde_json::Value;

use super::coordinate_vector::read_exudyn_coordinate_vector;
use super::forces::{read_coordinate_vector, read_force};
use super::frames::{IDENTITY3, f64_aliased, same_matrix, same_vector, split_ht, vec_aliased};
use super::joints::read_joint;
use super::kinematic_tree::read_kinematic_tree;
use super::super_element::read_ffrf;
use super::{Dict, List, object_type, open_item_with};
use crate::error::Result;
use crate::items::beam::Beam2D;
use crate::items::joints::JointRegistry;
use crate::items::{NodeIndex, Object};

/// An object of a registered type (joints, force elements, coordinate-vector joints) or of a
/// connector family, each read by its own reader; `None` for the other built-in objects.
fn read_registered(
    index: usize,
    value: &Value,
    registry: &JointRegistry,
) -> Option<Result<Object>> {
    let t = object_type(value)?;
    if let Some(jt) = registry.find(t) {
        return Some(read_joint(index, value, jt));
    }
    if let Some(definition) = registry.find_force(t) {
        return Some(read_force(index, value, definition));
    }
    if let Some(definition) = registry.find_coordinate_vector(t) {
        return Some(read_coordinate_vector(index, value, definition));
    }
    let family = crate::items::connectors::connector_type(t)?;
    Some(super::connectors::read_connector(index, value, family))
}

pub(crate) fn read_object(index: usize, value: &Value, registry: &JointRegistry) -> Result<Object> {
    if let Some(object) = read_registered(index, value, registry) {
        return object;
    }
    let (t, mut d) = open_item_with(List::Objects, index, value, Some(registry))?;
    let name = d.name()?;
    let object = match t {
        "Ground" => read_ground(&mut d, name)?,
        "MassPoint" => Object::MassPoint {
            name,
            mass: f64_aliased(&mut d, "mass", "physicsMass")?,
            node: NodeIndex(d.index("nodeNumber")?),
        },
        "MassPoint2D" => Object::MassPoint2D {
            name,
            mass: f64_aliased(&mut d, "mass", "physicsMass")?,
            node: NodeIndex(d.index("nodeNumber")?),
        },
        "RigidBody2D" => Object::RigidBody2D {
            name,
            mass: f64_aliased(&mut d, "mass", "physicsMass")?,
            inertia: f64_aliased(&mut d, "inertia", "physicsInertia")?,
            center_of_mass: vec_aliased::<2>(&mut d, "centerOfMass", "physicsCenterOfMass")?,
            node: NodeIndex(d.index("nodeNumber")?),
        },
        "BeamGeometricallyExact2D" => {
            let [n0, n1] = d.indices::<2>("nodeNumbers")?;
            let mut f = |key, old| f64_aliased(&mut d, key, old);
            let beam = Beam2D {
                length: f("length", "physicsLength")?,
                mass_per_length: f("massPerLength", "physicsMassPerLength")?,
                cross_section_inertia: f("crossSectionInertia", "physicsCrossSectionInertia")?,
                bending_stiffness: f("bendingStiffness", "physicsBendingStiffness")?,
                axial_stiffness: f("axialStiffness", "physicsAxialStiffness")?,
                shear_stiffness: f("shearStiffness", "physicsShearStiffness")?,
                bending_damping: f("bendingDamping", "physicsBendingDamping")?,
                axial_damping: f("axialDamping", "physicsAxialDamping")?,
                shear_damping: f("shearDamping", "physicsShearDamping")?,
                reference_curvature: f("referenceCurvature", "physicsReferenceCurvature")?,
                include_reference_rotations: d.bool_or("includeReferenceRotations", false)?,
            };
            Object::BeamGeometricallyExact2D {
                name,
                nodes: [NodeIndex(n0), NodeIndex(n1)],
                beam,
            }
        }
        "Mass1D" => Object::Mass1D {
            name,
            mass: f64_aliased(&mut d, "mass", "physicsMass")?,
            node: NodeIndex(d.index("nodeNumber")?),
            reference_position: d.vec_or("referencePosition", [0.0; 3])?,
            reference_rotation: d
                .opt_matrix::<3, 3>("referenceRotation")?
                .unwrap_or(IDENTITY3),
        },
        "RotationalMass1D" => Object::RotationalMass1D {
            name,
            inertia: f64_aliased(&mut d, "inertia", "physicsInertia")?,
            node: NodeIndex(d.index("nodeNumber")?),
            reference_position: d.vec_or("referencePosition", [0.0; 3])?,
            reference_rotation: d
                .opt_matrix::<3, 3>("referenceRotation")?
                .unwrap_or(IDENTITY3),
        },
        "RigidBody" => {
            let mass = f64_aliased(&mut d, "mass", "physicsMass")?;
            let inertia = vec_aliased::<6>(&mut d, "inertia", "physicsInertia")?;
            let center_of_mass = vec_aliased::<3>(&mut d, "centerOfMass", "physicsCenterOfMass")?;
            let node = NodeIndex(d.index("nodeNumber")?);
            Object::RigidBody {
                name,
                mass,
                inertia,
                center_of_mass,
                node,
            }
        }
        "ConnectorCoordinateVector" => read_exudyn_coordinate_vector(&mut d, name)?,
        "GenericODE2" => {
            let nodes = d.opt_index_list("nodeNumbers")?.unwrap_or_default();
            for key in [
                "forceUserFunction",
                "massMatrixUserFunction",
                "jacobianUserFunction",
            ] {
                d.no_user_function(key)?;
            }
            // derived and scratch keys
            d.ignore(&[
                "coordinateIndexPerNode",
                "tempCoordinates",
                "tempCoordinates_t",
                "tempCoordinates_tt",
            ]);
            Object::GenericODE2 {
                name,
                nodes: nodes.into_iter().map(NodeIndex).collect(),
                mass_matrix: d.opt_matrix_container("massMatrix")?.unwrap_or_default(),
                stiffness_matrix: d
                    .opt_matrix_container("stiffnessMatrix")?
                    .unwrap_or_default(),
                damping_matrix: d.opt_matrix_container("dampingMatrix")?.unwrap_or_default(),
                force_vector: d.opt_dvec("forceVector")?.unwrap_or_default(),
            }
        }
        "GenericODE1" => {
            let nodes = d.opt_index_list("nodeNumbers")?.unwrap_or_default();
            d.no_user_function("rhsUserFunction")?;
            // derived and scratch keys
            d.ignore(&[
                "coordinateIndexPerNode",
                "tempCoordinates",
                "tempCoordinates_t",
            ]);
            Object::GenericODE1 {
                name,
                nodes: nodes.into_iter().map(NodeIndex).collect(),
                system_matrix: d
                    .opt_dmatrix("systemMatrix")?
                    .unwrap_or_else(|| nalgebra::DMatrix::zeros(0, 0)),
                rhs_vector: d.opt_dvec("rhsVector")?.unwrap_or_default(),
            }
        }
        "FFRFreducedOrder" => read_ffrf(&mut d, name)?,
        "KinematicTree" => read_kinematic_tree(&mut d, name)?,
        _ => unreachable!("object type table"),
    };
    d.finish()?;
    Ok(object)
}

/// ObjectGround: its reference position and rotation, given apart or as `referenceHT` (which
/// must then agree with them).
fn read_ground(d: &mut Dict, name: String) -> Result<Object> {
    let position = d.opt_vec::<3>("referencePosition")?;
    let rotation = d.opt_matrix::<3, 3>("referenceRotation")?;
    let (reference_position, reference_rotation) = match d.opt_matrix::<4, 4>("referenceHT")? {
        None => (position.unwrap_or([0.0; 3]), rotation.unwrap_or(IDENTITY3)),
        Some(ht) => {
            let (r, p) = split_ht(d, "referenceHT", &ht)?;
            let position = position.unwrap_or(p);
            let rotation = rotation.unwrap_or(r);
            if !same_vector(&position, &p) || !same_matrix(&rotation, &r) {
                return Err(d.err(
                    "referenceHT",
                    format!(
                        "must agree with referencePosition {position:?} and referenceRotation {rotation:?}, found {ht:?}"
                    ),
                ));
            }
            (position, rotation)
        }
    };
    Ok(Object::Ground {
        name,
        reference_position,
        reference_rotation,
    })
}
