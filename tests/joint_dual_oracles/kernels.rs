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

/// A pairing's kernels (joint parameters bound) and the oracle of its joint: an unrolled
/// pairing's own, or the joint's marker-level kernels composed with the two kinds'
/// kinematics (`joint::runtime::composed`), which give the second-order terms of both.
pub(super) struct Pairing {
    pub(super) name: String,
    pub(super) kinds: [MarkerKind; 2],
    pub(super) rows: usize,
    pub(super) oracle: JointOracle,
    pub(super) position: Residual,
    pub(super) velocity: Residual,
    pub(super) jacobian: Blocks,
    /// −(∂(C q̇)/∂q)·q̇, one entry per row.
    pub(super) convective: Residual,
    pub(super) reaction_q: ReactionQ,
    pub(super) position_jacobian: Blocks,
    pub(super) reaction_forces: ReactionForces,
    pub(super) residual_and_reaction_forces: ResidualAndReactionForces,
}

fn a(s: Side<'_>) -> MarkerArgs<'_> {
    MarkerArgs {
        parameters: s.0,
        coordinates: s.1,
        velocities: s.2,
    }
}

/// The joint's kernels composed for kinds `kinds`.
fn composed_pairing(
    definition: &'static JointDefinition,
    oracle: JointOracle,
    p: &[f64],
    kinds: [MarkerKind; 2],
) -> Pairing {
    use joint::runtime::composed::{self, KindArgs};
    fn kind_args<'s>(kinds: [MarkerKind; 2], s0: Side<'s>, s1: Side<'s>) -> [KindArgs<'s>; 2] {
        [
            KindArgs {
                kind: kinds[0],
                args: a(s0),
            },
            KindArgs {
                kind: kinds[1],
                args: a(s1),
            },
        ]
    }
    let (p0, p1, p2, p3, p4) = (p.to_vec(), p.to_vec(), p.to_vec(), p.to_vec(), p.to_vec());
    let (p5, p6, p7) = (p.to_vec(), p.to_vec(), p.to_vec());
    let d = definition;
    Pairing {
        name: format!(
            "{}::composed({} – {})",
            definition.module,
            kinds[0].name(),
            kinds[1].name()
        ),
        kinds,
        rows: definition.rows(),
        oracle,
        position: Box::new(move |s0, s1, o| {
            composed::position_residual(d, &p0, kind_args(kinds, s0, s1), o)
                .expect("composed position")
        }),
        velocity: Box::new(move |s0, s1, o| {
            composed::velocity_residual(d, &p1, kind_args(kinds, s0, s1), o)
                .expect("composed velocity")
        }),
        jacobian: Box::new(move |s0, s1, j0, j1| {
            composed::jacobian(d, &p2, kind_args(kinds, s0, s1), j0, j1).expect("composed jacobian")
        }),
        convective: Box::new(move |s0, s1, o| {
            composed::convective(d, &p3, kind_args(kinds, s0, s1), o).expect("composed convective")
        }),
        reaction_q: Box::new(move |l, s0, s1, b| {
            composed::reaction_q(d, &p4, l, kind_args(kinds, s0, s1), b)
                .expect("composed reaction_q")
        }),
        position_jacobian: Box::new(move |s0, s1, j0, j1| {
            composed::position_jacobian(d, &p5, kind_args(kinds, s0, s1), j0, j1)
                .expect("composed position_jacobian")
        }),
        reaction_forces: Box::new(move |l, s0, s1, f0, f1| {
            composed::reaction_forces(d, &p6, l, kind_args(kinds, s0, s1), f0, f1)
                .expect("composed reaction_forces")
        }),
        residual_and_reaction_forces: Box::new(move |l, s0, s1, o, f0, f1| {
            composed::position_residual(d, &p7, kind_args(kinds, s0, s1), o)
                .expect("composed position");
            composed::reaction_forces(d, &p7, l, kind_args(kinds, s0, s1), f0, f1)
                .expect("composed reaction_forces")
        }),
    }
}

/// For every ordered pair of the test's kinds the joint takes (but two without coordinates):
/// the composed kernels, and the unrolled pairing where the joint has one (its second-order
/// terms the composed ones: pairings have none of their own).
pub(super) fn pairings(
    definition: &'static JointDefinition,
    oracle: JointOracle,
    p: Vec<f64>,
) -> Vec<Pairing> {
    assert_eq!(
        definition.rows(),
        oracle.rows(),
        "{}: rows",
        definition.name
    );
    let takes = |i: usize, k: MarkerKind| k.provides(definition.markers[i].capability);
    let mut out = Vec::new();
    for k0 in KINDS {
        for k1 in KINDS {
            if !takes(0, k0) || !takes(1, k1) || k0.coordinate_count() + k1.coordinate_count() == 0
            {
                continue;
            }
            let composed = composed_pairing(definition, oracle.clone(), &p, [k0, k1]);
            let Some(k) = definition.pairing(k0, k1) else {
                out.push(composed);
                continue;
            };
            let (p0, p1, p2) = (p.clone(), p.clone(), p.clone());
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
                    (k.jacobian)(&p2, a(s0), a(s1), j0, j1)
                        .expect("jacobian rejected correct slices")
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
                ..composed_pairing(definition, oracle.clone(), &p, [k0, k1])
            });
            out.push(composed);
        }
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
