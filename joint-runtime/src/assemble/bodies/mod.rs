//! The bodies, in object order: mass points, rigid bodies, beams, GenericODE2, kinematic trees
//! and FFRF objects on their nodes, with their data checked (a node carries at most one body).
//! One function per object type; the bodies on GenericODE2 nodes in `generic_nodes.rs`.

mod generic_nodes;

use super::checks::{check_mass, claim_node, finite, node_of_type};
use super::{BodyTopology, Rotation, rigid_inertia};
use crate::error::{Error, ItemRef, Result};
use crate::items::beam::Beam2D;
use crate::items::{Node, NodeIndex, Object};
use crate::system::MultibodySystem;

/// Every body's topology and, per object, the index of its body (`None`: not a body).
pub(super) fn bodies(
    mbs: &MultibodySystem,
    node_ode2: &[usize],
) -> Result<(Vec<BodyTopology>, Vec<Option<usize>>)> {
    let mut pass = BodyPass {
        mbs,
        node_ode2,
        node_body: vec![None; mbs.nodes.len()],
    };
    // object index → index into `bodies`
    let mut object_body: Vec<Option<usize>> = vec![None; mbs.objects.len()];
    let mut bodies = Vec::new();
    for (i, object) in mbs.objects.iter().enumerate() {
        if let Some(body) = pass.body(i, object)? {
            object_body[i] = Some(bodies.len());
            bodies.push(body);
        }
    }
    Ok((bodies, object_body))
}

/// What the bodies read, and which body claimed each node.
struct BodyPass<'a> {
    mbs: &'a MultibodySystem,
    node_ode2: &'a [usize],
    /// Per node, the object whose body it carries.
    node_body: Vec<Option<usize>>,
}

impl BodyPass<'_> {
    /// Object `i`'s body, checked (`None`: not a body, or a body without coordinates).
    fn body(&mut self, i: usize, object: &Object) -> Result<Option<BodyTopology>> {
        let item = self.mbs.object_ref(i);
        let body = match object {
            Object::Ground {
                reference_position,
                reference_rotation,
                ..
            } => {
                finite(&item, "referencePosition", reference_position)?;
                let rotation = reference_rotation.as_flattened();
                finite(&item, "referenceRotation", rotation)?;
                return Ok(None);
            }
            Object::MassPoint { mass, node, .. } => {
                return self.mass_point(i, &item, *node, *mass);
            }
            Object::MassPoint2D { mass, node, .. } => {
                node_of_type(
                    self.mbs,
                    &item,
                    "nodeNumber",
                    *node,
                    |n| matches!(n, Node::Point2D { .. }),
                    "ObjectMassPoint2D needs a NodePoint2D",
                )?;
                check_mass(&item, "mass", *mass)?;
                self.claim(&item, *node, i)?;
                BodyTopology::MassPoint2D {
                    ode2: self.node_ode2[node.0],
                    mass: *mass,
                }
            }
            Object::Mass1D { .. } | Object::RotationalMass1D { .. } => {
                self.mass_1d(i, &item, object)?
            }
            Object::BeamGeometricallyExact2D { nodes, beam, .. } => {
                self.beam_2d(&item, nodes, beam)?
            }
            Object::RigidBody2D {
                mass,
                inertia,
                center_of_mass,
                node,
                ..
            } => {
                node_of_type(
                    self.mbs,
                    &item,
                    "nodeNumber",
                    *node,
                    |n| matches!(n, Node::RigidBody2D { .. }),
                    "ObjectRigidBody2D needs a NodeRigidBody2D",
                )?;
                check_mass(&item, "mass", *mass)?;
                check_mass(&item, "inertia", *inertia)?;
                finite(&item, "centerOfMass", center_of_mass)?;
                self.claim(&item, *node, i)?;
                BodyTopology::Rigid2D {
                    ode2: self.node_ode2[node.0],
                    mass: *mass,
                    inertia: *inertia,
                    center_of_mass: *center_of_mass,
                }
            }
            Object::RigidBody { .. } => self.rigid_body(i, &item, object)?,
            Object::GenericODE2 { .. } => self.generic_ode2(i, &item, object)?,
            Object::KinematicTree {
                node, parameters, ..
            } => self.kinematic_tree(i, &item, *node, parameters)?,
            Object::FFRFreducedOrder {
                nodes, parameters, ..
            } => self.ffrf(i, &item, nodes, parameters)?,
            _ => return Ok(None),
        };
        Ok(Some(body))
    }

    /// Node `node` carries object `object`'s body (and no other).
    fn claim(&mut self, item: &ItemRef, node: NodeIndex, object: usize) -> Result<()> {
        claim_node(&mut self.node_body, item, node.0, object)
    }

    /// A MassPoint on a node with a position (on a NodePointGround: no body).
    fn mass_point(
        &mut self,
        i: usize,
        item: &ItemRef,
        node: NodeIndex,
        mass: f64,
    ) -> Result<Option<BodyTopology>> {
        let n = self.mbs.node_checked(item, "nodeNumber", node)?;
        if !n.has_position() {
            return Err(Error::item(
                item.clone(),
                "nodeNumber",
                format!(
                    "node {} is a {}, which has no position",
                    node.0,
                    n.type_name()
                ),
            ));
        }
        check_mass(item, "mass", mass)?;
        if matches!(n, Node::PointGround { .. }) {
            // Exudyn accepts it: a mass point that cannot move (no coordinates, no equations)
            return Ok(None);
        }
        self.claim(item, node, i)?;
        Ok(Some(BodyTopology::MassPoint {
            ode2: self.node_ode2[node.0],
            mass,
        }))
    }

    /// A Mass1D or RotationalMass1D on a Node1D.
    fn mass_1d(&mut self, i: usize, item: &ItemRef, object: &Object) -> Result<BodyTopology> {
        let (Object::Mass1D {
            mass,
            node,
            reference_position,
            reference_rotation,
            ..
        }
        | Object::RotationalMass1D {
            inertia: mass,
            node,
            reference_position,
            reference_rotation,
            ..
        }) = object
        else {
            unreachable!("called for 1D masses")
        };
        let key = if matches!(object, Object::Mass1D { .. }) {
            "mass"
        } else {
            "inertia"
        };
        node_of_type(
            self.mbs,
            item,
            "nodeNumber",
            *node,
            |n| matches!(n, Node::Node1D { .. }),
            &format!("Object{} needs a Node1D", object.type_name()),
        )?;
        check_mass(item, key, *mass)?;
        finite(item, "referencePosition", reference_position)?;
        finite(item, "referenceRotation", reference_rotation.as_flattened())?;
        self.claim(item, *node, i)?;
        Ok(BodyTopology::Mass1D {
            ode2: self.node_ode2[node.0],
            mass: *mass,
        })
    }

    /// A BeamGeometricallyExact2D between two NodeRigidBody2D (beams share their nodes, with
    /// other beams, not with bodies: no claim).
    fn beam_2d(
        &self,
        item: &ItemRef,
        nodes: &[NodeIndex; 2],
        beam: &Beam2D,
    ) -> Result<BodyTopology> {
        let mut columns = [0; 6];
        for (k, n) in nodes.iter().enumerate() {
            node_of_type(
                self.mbs,
                item,
                "nodeNumbers",
                *n,
                |n| matches!(n, Node::RigidBody2D { .. }),
                "ObjectBeamGeometricallyExact2D needs NodeRigidBody2D nodes",
            )?;
            for c in 0..3 {
                columns[3 * k + c] = self.node_ode2[n.0] + c;
            }
        }
        if nodes[0] == nodes[1] {
            return Err(Error::item(
                item.clone(),
                "nodeNumbers",
                format!("node {} is given twice", nodes[0].0),
            ));
        }
        for (key, value) in beam.values() {
            finite(item, key, &[value])?;
        }
        if beam.length <= 0.0 {
            return Err(Error::item(
                item.clone(),
                "physicsLength",
                format!("the length must be > 0, found {}", beam.length),
            ));
        }
        check_mass(item, "physicsMassPerLength", beam.mass_per_length)?;
        check_mass(
            item,
            "physicsCrossSectionInertia",
            beam.cross_section_inertia,
        )?;
        Ok(BodyTopology::Beam2D {
            columns,
            beam: *beam,
        })
    }

    /// A RigidBody on a 3-D rigid-body node, its rotation parametrization by the node's type.
    fn rigid_body(&mut self, i: usize, item: &ItemRef, object: &Object) -> Result<BodyTopology> {
        let Object::RigidBody {
            mass,
            inertia,
            center_of_mass,
            node,
            ..
        } = object
        else {
            unreachable!("called for rigid bodies")
        };
        let n = self.mbs.node_checked(item, "nodeNumber", *node)?;
        let rotation = match n {
            Node::RigidBodyEP { .. } => Rotation::EulerParameters,
            Node::RigidBodyRxyz { .. } => Rotation::TaitBryanXyz,
            Node::RigidBodyRotVecLG { .. } => Rotation::RotationVectorLieGroup,
            other => {
                return Err(Error::item(
                    item.clone(),
                    "nodeNumber",
                    format!(
                        "node {} is a {}; ObjectRigidBody needs a rigid-body node (RigidBodyEP, RigidBodyRxyz or RigidBodyRotVecLG)",
                        node.0,
                        other.type_name()
                    ),
                ));
            }
        };
        check_mass(item, "mass", *mass)?;
        finite(item, "inertia", inertia)?;
        finite(item, "centerOfMass", center_of_mass)?;
        self.claim(item, *node, i)?;
        let start = self.node_ode2[node.0];
        Ok(BodyTopology::Rigid {
            ode2: start..start + n.ode2_size(),
            rotation,
            mass: *mass,
            inertia: rigid_inertia(inertia),
            center_of_mass: *center_of_mass,
        })
    }
}
