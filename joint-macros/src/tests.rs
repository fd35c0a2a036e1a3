//! Snapshot tests of the expansion, and checks of the generated structure.

use crate::expand_joint;
use quote::quote;

fn spherical_definition() -> proc_macro2::TokenStream {
    quote! {
        /// Exudyn's ObjectJointSpherical.
        pub joint Spherical {
            marker m0: Position;
            marker m1: Position;
            axes [x = 1, y = 1, z = 1];
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
    let lines: Vec<&str> = text.lines().collect();
    let open = format!("pub mod {module} {{");
    let at = lines
        .iter()
        .position(|l| l.trim_start() == open)
        .unwrap_or_else(|| panic!("pairing {module} missing"));
    let mut first = at;
    while first > 0 && lines[first - 1].trim_start().starts_with("///") {
        first -= 1;
    }
    let indent = lines[at].len() - lines[at].trim_start().len();
    let close = format!("{}}}", " ".repeat(indent));
    let last = (at..lines.len())
        .find(|&i| lines[i] == close)
        .expect("module end");
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

#[test]
fn every_pairing_except_ground_ground_is_generated() {
    let text = pretty(expand_joint(spherical_definition()));
    let count = text
        .lines()
        .filter(|l| l.trim_start().starts_with("pub mod ") && l.contains("_to_"))
        .count();
    assert_eq!(count, 7 * 7 - 1);
    assert_eq!(
        text.matches("pub fn position_residual(").count(),
        7 * 7 - 1 + 1,
        "pairings plus the marker-level kernel"
    );
    assert!(!text.contains("ground_point_to_ground_point"));
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
    for bad in ["* 1.0", "1.0 *", "* 0.0", "0.0 *", "+ 0.0", "- 0.0"] {
        assert!(!text.contains(bad), "found `{bad}` in the expansion");
    }
}

#[test]
fn snapshot_marker_level_kernel() {
    insta::assert_snapshot!(pairing_text("marker_level"));
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
