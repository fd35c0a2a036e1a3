//! Snapshot tests of the expansion, and checks of the generated structure.

use crate::expand_joint;
use quote::quote;

fn spherical_definition() -> proc_macro2::TokenStream {
    quote! {
        /// Exudyn's ObjectJointSpherical, unrolled for every pair of kinds.
        pub joint Spherical {
            marker m0: Position(..);
            marker m1: Position(..);
            axes [x = 1, y = 1, z = 1];
            second_order;
            position = m1.position - m0.position;
            velocity = m1.velocity - m0.velocity;
        }
    }
}

fn pretty(tokens: proc_macro2::TokenStream) -> String {
    let file: syn::File = syn::parse2(tokens).expect("expansion parses as a file");
    prettyplease::unparse(&file)
}

/// The pretty-printed module of one pairing (with its doc comment), cut out of the expansion.
fn pairing_text(module: &str) -> String {
    module_text(&pretty(expand_joint(spherical_definition())), module)
}

/// The pretty-printed module `module` (with its doc comment), cut out of `text`.
fn module_text(text: &str, module: &str) -> String {
    item_text(text, &format!("pub mod {module} {{"), false)
}

/// The item whose first line starts with `open` (with its doc comment, and with `attributes`
/// its attributes), cut out of pretty-printed `text`: up to the closing brace at its
/// indentation.
fn item_text(text: &str, open: &str, attributes: bool) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with(open))
        .unwrap_or_else(|| panic!("`{open}` missing"));
    let mut first = at;
    let leading = |l: &str| l.starts_with("///") || (attributes && l.starts_with("#["));
    while first > 0 && leading(lines[first - 1].trim_start()) {
        first -= 1;
    }
    let indent = lines[at].len() - lines[at].trim_start().len();
    let close = format!("{}}}", " ".repeat(indent));
    let last = (at..lines.len())
        .find(|&i| lines[i] == close)
        .expect("the item's end");
    lines[first..=last].join("\n")
}

#[test]
fn snapshot_body_position_ground_to_body_position_ep() {
    insta::assert_snapshot!(pairing_text("ground_point_to_rigid_ep_point"));
}

#[test]
fn snapshot_node_position_point_to_body_rigid_rxyz() {
    insta::assert_snapshot!(pairing_text("node_point_to_rigid_rxyz_point"));
}

#[test]
fn snapshot_node_rigid_ep_to_body_position_ep() {
    insta::assert_snapshot!(pairing_text("node_ep_to_rigid_ep_point"));
}

/// Both markers on Euler-parameter bodies: the chain's pairing, and the one the kernel benchmark
/// times.
#[test]
fn snapshot_rigid_ep_point_to_rigid_ep_point() {
    insta::assert_snapshot!(pairing_text("rigid_ep_point_to_rigid_ep_point"));
}

#[test]
fn every_pairing_except_ground_ground_is_generated() {
    let text = pretty(expand_joint(spherical_definition()));
    let count = text
        .lines()
        .filter(|l| l.trim_start().starts_with("pub mod ") && l.contains("_to_"))
        .count();
    // the 11 kinds with a position (the coordinate kinds have none)
    assert_eq!(count, 11 * 11 - 1);
    assert_eq!(
        text.matches("pub fn position_residual<S: ::joint_core::Scalar>(")
            .count(),
        11 * 11 - 1 + 1,
        "the pairings' kernels and the marker-level kernel, generic over the scalar"
    );
    assert!(!text.contains("ground_point_to_ground_point"));
}

/// A definition without lists of kinds is the default form: its marker-level kernels and no
/// pairing, whatever the number of kinds.
#[test]
fn the_default_form_has_no_pairing() {
    let text = pretty(expand_joint(quote! {
        pub joint Pin {
            marker m0: Position;
            marker m1: Position;
            axes [x, y, z];
            position = m1.position - m0.position;
        }
    }));
    assert!(!text.contains("_to_"), "no pairing module");
    assert!(text.contains("pub static PAIRINGS: [&::joint_core::Pairing; 0] = [];"));
    assert_eq!(
        text.matches("pub fn position_residual<S: ::joint_core::Scalar>(")
            .count(),
        1
    );
    assert!(text.contains("second_order: ::core::option::Option::None"));
}

/// The check that the velocity level is linear in the markers' velocities looks at the markers'
/// velocity variables only: a parameter whose name starts with `v` or `w` is a parameter.
#[test]
fn parameters_named_like_velocities_are_parameters() {
    let text = expand_joint(quote! {
        pub joint Wide {
            marker m0: Position;
            marker m1: Position;
            param width: scalar;
            param velocity_offset: vector;
            param weights: vector;
            axes [x];
            position = [width * dot(weights, m1.position - m0.position - velocity_offset)];
        }
    })
    .to_string();
    assert!(!text.contains("compile_error"), "{text}");
}

#[test]
fn expansion_is_deterministic() {
    let a = expand_joint(spherical_definition()).to_string();
    let b = expand_joint(spherical_definition()).to_string();
    assert_eq!(a, b);
}

#[test]
fn generated_code_has_no_multiplication_by_literal_zero_or_one() {
    let text = pretty(expand_joint(spherical_definition()));
    // f64 code writes constants as literals, the pairings' generic code as `S::c(…)`
    let mut bad = Vec::new();
    for one in ["1.0", "S::c(1.0)"] {
        bad.extend([format!("* {one}"), format!("{one} *")]);
    }
    for zero in ["0.0", "S::c(0.0)"] {
        bad.extend([
            format!("* {zero}"),
            format!("{zero} *"),
            format!("+ {zero}"),
            format!("- {zero}"),
        ]);
    }
    for bad in bad {
        assert!(!text.contains(&bad), "found `{bad}` in the expansion");
    }
    assert!(
        text.contains("S::c("),
        "the pairings' constants are generic"
    );
}

#[test]
fn snapshot_marker_level_kernel() {
    insta::assert_snapshot!(pairing_text("marker_level"));
}

/// A rigid joint's default form with its second-order terms: the marker-level kernels a
/// runtime composes with any markers' kinematics.
#[test]
fn snapshot_marker_level_rigid_second_order() {
    let text = pretty(expand_joint(quote! {
        /// An axis of m0 through m1's point, and parallel to the same axis of m1.
        pub joint AxisAlong {
            marker m0: Rigid;
            marker m1: Rigid;
            param axis: vector;
            axes [a, b];
            second_order;
            let t = m0.rotation * axis;
            position = [dot(t, m1.position - m0.position), dot(t, m1.rotation * axis) - 1.0];
        }
    }));
    insta::assert_snapshot!(module_text(&text, "marker_level"));
}

/// `parameter_derivatives;`: ∂g/∂p by the joint's parameters (scalar, vector and matrix, in
/// their flat layout) and by the markers' own (the ground point's position, the body point's
/// local position), per pairing and at marker level; typed functions only, after the others.
#[test]
fn snapshot_parameter_derivatives() {
    let text = pretty(expand_joint(quote! {
        /// m1's point at `offset` from m0's point in a frame `frame`, scaled by `scale`.
        pub joint Placed {
            marker m0: Position(GroundPoint);
            marker m1: Position(RigidEpPoint);
            param offset: vector;
            param scale: scalar;
            param frame: matrix;
            axes [x, y, z];
            parameter_derivatives;
            position = m1.position - m0.position - scale * (frame * offset);
        }
    }));
    assert!(!text.contains("compile_error"), "{text}");
    let pairing = module_text(&text, "ground_point_to_rigid_ep_point");
    let marker_level = module_text(&text, "marker_level");
    let functions = [
        function_text(&pairing, "parameter_jacobian"),
        function_text(&pairing, "marker_parameter_jacobian"),
        function_text(&marker_level, "parameter_jacobian"),
    ];
    // the runtime's kernels come first and have no parameter derivative in them
    let residual = function_text(&pairing, "position_residual");
    assert!(pairing.find(&residual) < pairing.find(&functions[0]));
    insta::assert_snapshot!(functions.join("\n\n"));
}

/// The function `name` (with its doc comment) cut out of a pretty-printed module.
fn function_text(text: &str, name: &str) -> String {
    item_text(text, &format!("pub fn {name}<"), true)
}

/// A joint that remembers: a screw whose turn is a state, continuous over any number of turns
/// (`angle(y, x)` within π of the last converged value, a `round` that differentiates to 0).
#[test]
fn snapshot_screw_with_a_state() {
    let text = pretty(expand_joint(quote! {
        /// m1 turns about m0's z axis and advances `lead` along it per radian.
        pub joint Screw {
            marker m0: Rigid;
            marker m1: Rigid;
            param lead: scalar;
            axes [x, y, tilt_x, tilt_y, advance];
            let d = m1.position - m0.position;
            let x0 = col(m0.rotation, 0);
            let y0 = col(m0.rotation, 1);
            let z0 = col(m0.rotation, 2);
            state turn = angle(dot(y0, col(m1.rotation, 0)), dot(x0, col(m1.rotation, 0)));
            position = [
                dot(x0, d),
                dot(y0, d),
                dot(z0, col(m1.rotation, 0)),
                dot(z0, col(m1.rotation, 1)),
                dot(z0, d) - lead * turn,
            ];
        }
    }));
    assert!(!text.contains("compile_error"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn snapshot_super_element_kernels() {
    let text = pretty(crate::codegen::kinematics::expand());
    insta::assert_snapshot!(module_text(&text, "super_element"));
}

#[test]
fn snapshot_kinematic_tree_kernels() {
    let text = pretty(crate::codegen::kinematics::expand());
    insta::assert_snapshot!(module_text(&text, "kinematic_tree"));
}

#[test]
fn snapshot_rigid_body_terms() {
    let text = pretty(crate::codegen::kinematics::expand());
    insta::assert_snapshot!(module_text(&text, "rigid_body_terms"));
}

/// The joints the runtime defines, read from joint-kernels/src/lib.rs itself (so the
/// snapshots are of exactly what ships): `(name, definition tokens)` of every `joint!` there.
fn built_in_joints() -> Vec<(String, proc_macro2::TokenStream)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../joint-kernels/src/lib.rs");
    let text = std::fs::read_to_string(path).expect("joint-kernels/src/lib.rs");
    definitions_of_file(&text, crate::definition::parse::DefinitionKind::Joint)
}

/// The force elements the runtime defines, read from joint-kernels/src/lib.rs.
fn built_in_forces() -> Vec<(String, proc_macro2::TokenStream)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../joint-kernels/src/lib.rs");
    let text = std::fs::read_to_string(path).expect("joint-kernels/src/lib.rs");
    definitions_of_file(&text, crate::definition::parse::DefinitionKind::Force)
}

/// `(name, tokens of its joint! input)` of every joint defined in a Rust source text.
fn joints_of_file(text: &str) -> Vec<(String, proc_macro2::TokenStream)> {
    definitions_of_file(text, crate::definition::parse::DefinitionKind::Joint)
}

/// The coordinate-vector joints the runtime defines (markers declared `Coordinates`).
fn built_in_coordinate_vector_joints() -> Vec<(String, proc_macro2::TokenStream)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../joint-kernels/src/lib.rs");
    let text = std::fs::read_to_string(path).expect("joint-kernels/src/lib.rs");
    let file = syn::parse_file(&text).expect("the file parses");
    let mut out = Vec::new();
    for item in &file.items {
        if let syn::Item::Macro(m) = item
            && m.mac
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == "joint")
        {
            let parsed: crate::definition::parse::JointFile =
                syn::parse2(m.mac.tokens.clone()).expect("a joint! input parses");
            for j in &parsed.joints {
                if crate::definition::coordinate_vector::is_coordinate_vector(j) {
                    out.push((j.name.to_string(), m.mac.tokens.clone()));
                }
            }
        }
    }
    out
}

/// `(name, tokens of its joint! input)` of every definition of `kind` in a Rust source text
/// (coordinate-vector joints are listed by `built_in_coordinate_vector_joints`).
fn definitions_of_file(
    text: &str,
    kind: crate::definition::parse::DefinitionKind,
) -> Vec<(String, proc_macro2::TokenStream)> {
    let file = syn::parse_file(text).expect("the file parses");
    file.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Macro(m)
                if m.mac
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "joint") =>
            {
                let parsed: crate::definition::parse::JointFile =
                    syn::parse2(m.mac.tokens.clone()).expect("a joint! input parses");
                Some(
                    parsed
                        .joints
                        .iter()
                        .filter(|j| {
                            j.kind == kind
                                && !crate::definition::coordinate_vector::is_coordinate_vector(j)
                        })
                        .map(|j| (j.name.to_string(), m.mac.tokens.clone()))
                        .collect::<Vec<_>>(),
                )
            }
            _ => None,
        })
        .flatten()
        .collect()
}

/// The checked model of joint `name` in a `joint!` input.
fn model_of(tokens: proc_macro2::TokenStream, name: &str) -> crate::definition::model::JointModel {
    let file: crate::definition::parse::JointFile = syn::parse2(tokens).unwrap();
    let mut errors = crate::definition::errors::Errors::new();
    let joint = file
        .joints
        .into_iter()
        .find(|j| j.name == name)
        .expect("joint in its input");
    let model = crate::definition::model::JointModel::from_input(
        joint,
        &file.functions,
        file.core_path,
        &mut errors,
    )
    .expect("a checked model");
    assert!(errors.is_empty());
    model
}

#[test]
fn built_in_joints_are_the_runtimes() {
    let names: Vec<String> = built_in_joints().into_iter().map(|(n, _)| n).collect();
    assert_eq!(
        names,
        [
            "Spherical",
            "Distance",
            "RevoluteZ",
            "PrismaticX",
            "GenericFixed",
            "GenericRows",
            "Revolute2D",
            "Prismatic2D",
            "CoordinateConstraint",
            "CoordinateVelocityConstraint",
            "RollingDisc"
        ]
    );
}

/// One pairing of every built-in joint: a BodyRigid/BodyPosition marker on ground and one on
/// a rigid body with Euler parameters (the pairing every position joint has), on a planar rigid
/// body for the planar joints; for the coordinate constraint a ground node's coordinate and a
/// node coordinate.
#[test]
fn snapshot_built_in_joint_kernels() {
    for (name, tokens) in built_in_joints() {
        let text = pretty(expand_joint(tokens));
        let text = module_text(&text, &crate::codegen::joint::module_name(&name));
        let pairing = if name.ends_with("2D") {
            // the planar joints on a planar rigid body
            "ground_point_to_rigid_2d_point"
        } else if text.contains("pub mod ground_point_to_rigid_ep_point {") {
            "ground_point_to_rigid_ep_point"
        } else {
            "ground_coordinate_to_node_coordinate"
        };
        insta::assert_snapshot!(
            format!("built_in_{}", crate::codegen::joint::module_name(&name)),
            module_text(&text, pairing)
        );
    }
}

/// The built-in force elements' marker-level kernels: the force and its derivatives.
#[test]
fn snapshot_built_in_force_kernels() {
    let forces = built_in_forces();
    let names: Vec<&str> = forces.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "SpringDamper",
            "CartesianSpringDamper",
            "CoordinateSpringDamper",
            "LinearSpringDamper",
            "RigidBodySpringDamper",
            "Gravity"
        ]
    );
    for (name, tokens) in forces {
        let text = pretty(expand_joint(tokens));
        let module = crate::codegen::joint::module_name(&name);
        insta::assert_snapshot!(
            format!("built_in_force_{module}"),
            module_text(&text, &module)
        );
    }
}

/// The built-in coordinate-vector joints' kernels: loops over the run-time rows and coordinates
/// (read: Exudyn's order of operations, the elementwise square's derivatives `x + x` and 2).
#[test]
fn snapshot_built_in_coordinate_vector_kernels() {
    let joints = built_in_coordinate_vector_joints();
    let names: Vec<&str> = joints.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "CoordinateVectorConstraint",
            "CoordinateVectorVelocityConstraint"
        ]
    );
    for (name, tokens) in joints {
        let text = pretty(expand_joint(tokens));
        let module = crate::codegen::joint::module_name(&name);
        insta::assert_snapshot!(format!("built_in_{module}"), module_text(&text, &module));
    }
}

/// The operation counts of every pairing of every built-in joint, at three stages (see
/// `PairingStats`): before simplification as trees, after simplification as trees, and as
/// emitted with common subexpressions shared; with the factors between them. Every pairing must
/// get smaller at every stage.
#[test]
fn operation_count_report() {
    use std::fmt::Write;
    let mut report = [
        "Operations (+ · / − sqrt sin cos; literals and inputs free) of everything a pairing's",
        "kernels compute: both residuals, the Jacobian, ∂g/∂q and C_qᵀλ, for the pairings each",
        "built-in joint unrolls.",
        "",
        "* before: every output as an independent expression tree, as the definition, the marker",
        "  kinematics and the rules of differentiation build it, with no constant folding or",
        "  algebraic simplification (0·x, 1·x, x + 0, −(−x), 2·3 … all kept);",
        "* simplified: the same outputs as independent trees, as the simplifying graph builds them",
        "  (constants folded, neutral and absorbing elements dropped, negations gathered);",
        "* emitted: after simplification and common-subexpression elimination, the operations in",
        "  the generated code (each shared subexpression once per kernel function).",
        "",
        "Factors: simplification = before / simplified, sharing = simplified / emitted,",
        "both = before / emitted.",
    ]
    .join("\n");
    report.push('\n');
    let ratio = |a: u128, b: u128| a as f64 / b.max(1) as f64;
    for (name, tokens) in built_in_joints() {
        let model = model_of(tokens, &name);
        let mut errors = crate::definition::errors::Errors::new();
        let stats = crate::codegen::joint::operation_counts(&model, &mut errors);
        assert!(errors.is_empty());
        let _ = writeln!(report, "\n{name}\n");
        let _ = writeln!(
            report,
            "| pairing | before | simplified | emitted | simplification | sharing | both |"
        );
        let _ = writeln!(report, "|---|---:|---:|---:|---:|---:|---:|");
        let (mut before, mut trees, mut emitted) = (0u128, 0u128, 0u128);
        for s in &stats {
            let b = s
                .unsimplified_tree_operations
                .expect("every generated pairing lowers unsimplified too");
            let (t, e) = (s.tree_operations, s.emitted_operations as u128);
            let pairing = format!("{} – {}", s.kinds[0].name(), s.kinds[1].name());
            assert!(
                b >= t && t >= e,
                "{name} {pairing}: before {b} ≥ simplified {t} ≥ emitted {e} does not hold"
            );
            before += b;
            trees += t;
            emitted += e;
            let _ = writeln!(
                report,
                "| {pairing} | {b} | {t} | {e} | {:.1} | {:.1} | {:.1} |",
                ratio(b, t),
                ratio(t, e),
                ratio(b, e)
            );
        }
        let _ = writeln!(
            report,
            "| all {} pairings | {before} | {trees} | {emitted} | {:.1} | {:.1} | {:.1} |",
            stats.len(),
            ratio(before, trees),
            ratio(trees, emitted),
            ratio(before, emitted)
        );
    }
    insta::assert_snapshot!(report);
}

/// The velocity level the compiler derives from the position level is, node for node, the one
/// written by hand in the built-in joints' Exudyn form: the same graph nodes, so the same code
/// and the same bits.
#[test]
fn derived_velocity_is_the_hand_written_one() {
    use crate::definition::lower::{RateRule, derived_velocity, parameter_values, residuals};
    use crate::kinematics::MarkerKind;
    let mut checked = 0;
    for (name, tokens) in hand_written_velocity_levels() {
        let model = model_of(tokens, &name);
        // every pair of kinds the markers take (the fixture's definitions list none)
        let takes = |i: usize, k: MarkerKind| k.provides(model.markers[i].capability);
        for k0 in MarkerKind::ALL.into_iter().filter(|&k| takes(0, k)) {
            for k1 in MarkerKind::ALL.into_iter().filter(|&k| takes(1, k)) {
                if k0.coordinate_count() + k1.coordinate_count() == 0 {
                    continue;
                }
                let mut g = crate::symbolic::Graph::new();
                let kin = [k0.build(&mut g, "m0_"), k1.build(&mut g, "m1_")];
                let mut errors = crate::definition::errors::Errors::new();
                let (_, written) = residuals(&mut g, &model, &kin, &mut errors).expect("lowers");
                let params = parameter_values(&mut g, &model);
                let derived = derived_velocity(&mut g, &model, &kin, params, RateRule::Local)
                    .expect("derives");
                assert_eq!(written, derived, "{name} {k0:?} {k1:?}");
                checked += 1;
            }
        }
    }
    // Spherical and Distance on the 11 position kinds, the rigid joints on the 7 rigid ones
    assert_eq!(checked, 120 + 120 + 48 + 48 + 48);
}

/// The built-in joints as they were written before the compiler derived velocity levels: each
/// with its hand-written Exudyn velocity level.
fn hand_written_velocity_levels() -> Vec<(String, proc_macro2::TokenStream)> {
    joints_of_file(include_str!(
        "../tests/fixtures/hand_written_velocity_levels.rs"
    ))
}

/// The compiler's limit on a coordinate-vector joint's parameters is the runtime's (joint-core's),
/// which passes their views from the stack.
#[test]
fn coordinate_vector_parameter_limit_is_joint_cores() {
    assert_eq!(
        crate::definition::coordinate_vector::MAX_PARAMETERS,
        joint_core::MAX_DYN_PARAMETERS
    );
}
