//! The generated kernels behind one signature.

use super::*;

// ------------------------------------------------------------------------------------------------
// The generated kernels behind one signature.

/// One marker's slices: parameters, coordinates, velocities.
pub(super) type Side<'a> = (&'a [f64], &'a [f64], &'a [f64]);
pub(super) type Residual = Box<dyn Fn(Side, Side, &mut [f64])>;
pub(super) type Blocks = Box<dyn Fn(Side, Side, &mut [f64], &mut [f64])>;
pub(super) type ReactionQ = Box<dyn Fn(&[f64], Side, Side, &mut [f64])>;
pub(super) type ReactionForces = Box<dyn Fn(&[f64], Side, Side, &mut [f64], &mut [f64])>;
pub(super) type ResidualAndReactionForces =
    Box<dyn Fn(&[f64], Side, Side, &mut [f64], &mut [f64], &mut [f64])>;

/// A generated pairing (joint parameters bound) and the oracle of its joint.
pub(super) struct Pairing {
    pub(super) name: String,
    pub(super) kinds: [MarkerKind; 2],
    pub(super) rows: usize,
    pub(super) oracle: JointOracle,
    pub(super) position: Residual,
    pub(super) velocity: Residual,
    pub(super) jacobian: Blocks,
    pub(super) velocity_residual_q: Blocks,
    pub(super) reaction_q: ReactionQ,
    pub(super) position_jacobian: Blocks,
    pub(super) reaction_forces: ReactionForces,
    pub(super) residual_and_reaction_forces: ResidualAndReactionForces,
}

/// Every pairing of a joint, through its type-erased definition, with its parameters bound.
pub(super) fn pairings(
    definition: &'static JointDefinition,
    oracle: JointOracle,
    p: Vec<f64>,
) -> Vec<Pairing> {
    fn a(s: Side<'_>) -> MarkerArgs<'_> {
        MarkerArgs {
            parameters: s.0,
            coordinates: s.1,
            velocities: s.2,
        }
    }
    assert_eq!(
        definition.rows(),
        oracle.rows(),
        "{}: rows",
        definition.name
    );
    let mut out = Vec::new();
    for &k in definition.pairings {
        let so = k
            .second_order
            .expect("the built-in joints have second-order terms");
        let (p0, p1, p2, p3, p4) = (p.clone(), p.clone(), p.clone(), p.clone(), p.clone());
        let (p5, p6, p7) = (p.clone(), p.clone(), p.clone());
        out.push(Pairing {
            name: k.path(),
            kinds: k.kinds,
            rows: definition.rows(),
            oracle: oracle.clone(),
            position: Box::new(move |s0, s1, o| {
                (k.position_residual)(&p0, a(s0), a(s1), o)
                    .expect("position_residual rejected correct slices")
            }),
            velocity: Box::new(move |s0, s1, o| {
                (k.velocity_residual)(&p1, a(s0), a(s1), o)
                    .expect("velocity_residual rejected correct slices")
            }),
            jacobian: Box::new(move |s0, s1, j0, j1| {
                (k.jacobian)(&p2, a(s0), a(s1), j0, j1).expect("jacobian rejected correct slices")
            }),
            velocity_residual_q: Box::new(move |s0, s1, j0, j1| {
                (so.velocity_residual_q)(&p3, a(s0), a(s1), j0, j1)
                    .expect("velocity_residual_q rejected correct slices")
            }),
            reaction_q: Box::new(move |l, s0, s1, b| {
                (so.reaction_q)(&p4, l, a(s0), a(s1), b)
                    .expect("reaction_q rejected correct slices")
            }),
            position_jacobian: Box::new(move |s0, s1, j0, j1| {
                (k.position_jacobian)(&p5, a(s0), a(s1), j0, j1)
                    .expect("position_jacobian rejected correct slices")
            }),
            reaction_forces: Box::new(move |l, s0, s1, f0, f1| {
                (k.reaction_forces)(&p6, l, a(s0), a(s1), f0, f1)
                    .expect("reaction_forces rejected correct slices")
            }),
            residual_and_reaction_forces: Box::new(move |l, s0, s1, o, f0, f1| {
                (k.position_residual_and_reaction_forces)(&p7, l, a(s0), a(s1), o, f0, f1)
                    .expect("position_residual_and_reaction_forces rejected correct slices")
            }),
        });
    }
    out
}

/// Joint parameters of one case: distance d ∈ [0.5, 2.5), rotationMarker0/1.
pub(super) struct JointParameters {
    pub(super) distance: f64,
    pub(super) rotation_marker: [M3; 2],
}

pub(super) fn joint_parameters(r: &[f64]) -> JointParameters {
    use std::f64::consts::PI;
    JointParameters {
        distance: 1.5 + r[0],
        rotation_marker: [
            rotation_from([PI * r[1], PI * r[2], PI * r[3]]),
            rotation_from([PI * r[4], PI * r[5], PI * r[6]]),
        ],
    }
}

pub(super) fn all_pairings(jp: &JointParameters) -> Vec<Pairing> {
    let frame = |formula| JointOracle {
        formula,
        distance: 0.0,
        rotation_marker: jp.rotation_marker,
    };
    let [r0, r1] = jp.rotation_marker;
    let mut all = Vec::new();
    all.extend(pairings(
        &spherical::DEFINITION,
        JointOracle {
            // The spherical joint has no frames: identities, unused by its global rows.
            rotation_marker: [rotation_from([0.0; 3]); 2],
            ..frame(Formula::Rows(&SPHERICAL))
        },
        Vec::new(),
    ));
    all.extend(pairings(
        &distance::DEFINITION,
        JointOracle {
            distance: jp.distance,
            ..frame(Formula::Distance)
        },
        distance::Parameters {
            distance: jp.distance,
        }
        .to_values(),
    ));
    all.extend(pairings(
        &revolute_z::DEFINITION,
        frame(Formula::Rows(&REVOLUTE_Z)),
        revolute_z::Parameters {
            rotation_marker0: r0,
            rotation_marker1: r1,
        }
        .to_values(),
    ));
    all.extend(pairings(
        &prismatic_x::DEFINITION,
        frame(Formula::Rows(&PRISMATIC_X)),
        prismatic_x::Parameters {
            rotation_marker0: r0,
            rotation_marker1: r1,
        }
        .to_values(),
    ));
    all.extend(pairings(
        &revolute_2d::DEFINITION,
        frame(Formula::Rows(&REVOLUTE_2D)),
        Vec::new(),
    ));
    let column = |r: &M3, k: usize| [r[0][k], r[1][k], r[2][k]];
    all.extend(pairings(
        &prismatic_2d::DEFINITION,
        frame(Formula::Rows(&PRISMATIC_2D)),
        prismatic_2d::Parameters {
            axis_marker0: column(&r0, 0),
            normal_marker1: column(&r1, 1),
        }
        .to_values(),
    ));
    all.extend(pairings(
        &generic_rows::DEFINITION,
        frame(Formula::Rows(&GENERIC_ROWS)),
        generic_rows::Parameters {
            rotation_marker0: r0,
            rotation_marker1: r1,
        }
        .to_values(),
    ));
    all
}
