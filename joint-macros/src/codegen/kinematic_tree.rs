//! Kinematic-tree kernels (ObjectKinematicTree, MarkerKinematicTreeRigid): the symbolic child
//! frame of each joint type, unrolled, and the loops over a run-time tree — all link frames
//! root to leaves, and a marker's Jacobian columns along the path from its link to the base.

use proc_macro2::TokenStream;
use quote::quote;

use super::util::{ident, lit, used_variables};
use crate::kinematics::tree_joint::{
    OFFSET, PARENT_ANGULAR_VELOCITY, PARENT_POSITION, PARENT_ROTATION, PARENT_VELOCITY,
    TRANSFORMATION, TreeJoint, child_frame,
};
use crate::symbolic::Graph;
use crate::symbolic::emit::emit;

fn child_function(joint: TreeJoint) -> TokenStream {
    let mut g = Graph::new();
    let f = child_frame(&mut g, joint);
    let outputs: Vec<_> = f
        .rotation
        .iter()
        .flatten()
        .chain(&f.position)
        .chain(&f.angular_velocity)
        .chain(&f.velocity)
        .copied()
        .collect();
    let used = used_variables(&g, &outputs);
    let mut binds = Vec::new();
    let mut bind = |names: &[&str], access: &dyn Fn(usize) -> TokenStream| {
        for (i, n) in names.iter().enumerate() {
            if used.contains(*n) {
                let v = ident(n);
                let a = access(i);
                binds.push(quote!(let #v = #a;));
            }
        }
    };
    bind(&PARENT_ROTATION, &|i| {
        let (r, c) = (lit(i / 3), lit(i % 3));
        quote!(parent.rotation[#r][#c])
    });
    bind(&PARENT_POSITION, &|i| {
        let i = lit(i);
        quote!(parent.position[#i])
    });
    bind(&PARENT_ANGULAR_VELOCITY, &|i| {
        let i = lit(i);
        quote!(parent.angular_velocity[#i])
    });
    bind(&PARENT_VELOCITY, &|i| {
        let i = lit(i);
        quote!(parent.velocity[#i])
    });
    bind(&TRANSFORMATION, &|i| {
        let (r, c) = (lit(i / 3), lit(i % 3));
        quote!(transformation[#r][#c])
    });
    bind(&OFFSET, &|i| {
        let i = lit(i);
        quote!(offset[#i])
    });
    let q = if used.contains("q") {
        quote!(q)
    } else {
        quote!(_q)
    };
    let q_t = if used.contains("q_t") {
        quote!(q_t)
    } else {
        quote!(_q_t)
    };
    let block = emit(&g, &outputs, "t");
    let lets = &block.lets;
    let o = &block.outputs;
    let (r0, r1, r2) = (&o[0..3], &o[3..6], &o[6..9]);
    let (p, w, v) = (&o[9..12], &o[12..15], &o[15..18]);
    let name = ident(joint.snake_name());
    let doc = format!(
        " The child frame of a {} joint ({} operations).",
        joint.snake_name().replace('_', " "),
        block.operations
    );
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn #name(parent: &LinkFrame, transformation: &[[f64; 3]; 3], offset: &[f64; 3], #q: f64, #q_t: f64) -> LinkFrame {
            #(#binds)*
            #(#lets)*
            LinkFrame {
                rotation: [[#(#r0),*], [#(#r1),*], [#(#r2),*]],
                position: [#(#p),*],
                angular_velocity: [#(#w),*],
                velocity: [#(#v),*],
            }
        }
    }
}

/// The `kinematic_tree` module inside `marker_kinematics`.
pub fn expand() -> TokenStream {
    let functions: Vec<TokenStream> = TreeJoint::ALL.iter().map(|&j| child_function(j)).collect();
    let arms: Vec<TokenStream> = TreeJoint::ALL
        .iter()
        .map(|&j| {
            let n = lit(j as usize);
            let f = ident(j.snake_name());
            quote!(#n => #f(&parent, &transformations[i], &offsets[i], q[i], q_t[i]),)
        })
        .collect();
    quote! {
        /// Kinematic trees: link frames and marker Jacobians over a run-time tree. Joint types
        /// are Exudyn's numbers: RevoluteX/Y/Z = 1/2/3, PrismaticX/Y/Z = 4/5/6.
        pub mod kinematic_tree {
            /// A link's frame: rotation (link to global, row-major), origin, angular velocity
            /// and origin velocity, all global.
            #[derive(Clone, Copy, Debug, Default, PartialEq)]
            pub struct LinkFrame {
                /// The link frame's rotation matrix (global ← link), row-major.
                pub rotation: [[f64; 3]; 3],
                /// The link frame's origin, global.
                pub position: [f64; 3],
                /// Its angular velocity, global.
                pub angular_velocity: [f64; 3],
                /// Its origin's velocity, global.
                pub velocity: [f64; 3],
            }

            impl LinkFrame {
                /// The base frame: no rotation, at `base_offset`, at rest.
                pub fn base(base_offset: &[f64; 3]) -> Self {
                    LinkFrame {
                        rotation: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
                        position: *base_offset,
                        angular_velocity: [0.0; 3],
                        velocity: [0.0; 3],
                    }
                }
            }

            #(#functions)*

            /// Every link's frame, root to leaves (`parents[i] < i`, −1 for the base), from the
            /// joints' total coordinates `q` and their rates `q_t`.
            #[allow(clippy::too_many_arguments)]
            pub fn link_frames(
                joint_types: &[u8],
                parents: &[isize],
                transformations: &[[[f64; 3]; 3]],
                offsets: &[[f64; 3]],
                base_offset: &[f64; 3],
                q: &[f64],
                q_t: &[f64],
                frames: &mut [LinkFrame],
            ) -> ::core::option::Option<()> {
                let n = joint_types.len();
                if parents.len() != n || transformations.len() != n || offsets.len() != n
                    || q.len() != n || q_t.len() != n || frames.len() != n
                {
                    return ::core::option::Option::None;
                }
                for i in 0..n {
                    let parent = match parents[i] {
                        -1 => LinkFrame::base(base_offset),
                        p if p >= 0 && (p as usize) < i => frames[p as usize],
                        _ => return ::core::option::Option::None,
                    };
                    frames[i] = match joint_types[i] {
                        #(#arms)*
                        _ => return ::core::option::Option::None,
                    };
                }
                ::core::option::Option::Some(())
            }

            /// Jacobian columns of the global point `point` fixed to link `link`, for each joint
            /// on the path to the base (link, parent, …, root — the order of the returned
            /// columns): revolute j: J_r = a_j, J_p = a_j × (point − p_j); prismatic j: J_r = 0,
            /// J_p = a_j, with a_j = R_j e_k. Writes `path[k]` (the joint of column k) and the
            /// column-major 3-vectors `position[k]`, `rotation[k]`; returns the path length.
            #[allow(clippy::too_many_arguments)]
            pub fn point_jacobian(
                joint_types: &[u8],
                parents: &[isize],
                frames: &[LinkFrame],
                link: usize,
                point: &[f64; 3],
                path: &mut [usize],
                position: &mut [[f64; 3]],
                rotation: &mut [[f64; 3]],
            ) -> ::core::option::Option<usize> {
                let mut j = link;
                let mut k = 0;
                loop {
                    if j >= frames.len() || k >= path.len() || k >= position.len() || k >= rotation.len() {
                        return ::core::option::Option::None;
                    }
                    let t = *joint_types.get(j)?;
                    let axis_index = ((t as usize).checked_sub(1)? % 3) as usize;
                    let r = &frames[j].rotation;
                    let a = [r[0][axis_index], r[1][axis_index], r[2][axis_index]];
                    path[k] = j;
                    if (1..=3).contains(&t) {
                        let p = &frames[j].position;
                        let d = [point[0] - p[0], point[1] - p[1], point[2] - p[2]];
                        position[k] = [a[1] * d[2] - a[2] * d[1], a[2] * d[0] - a[0] * d[2], a[0] * d[1] - a[1] * d[0]];
                        rotation[k] = a;
                    } else if (4..=6).contains(&t) {
                        position[k] = a;
                        rotation[k] = [0.0; 3];
                    } else {
                        return ::core::option::Option::None;
                    }
                    k += 1;
                    match *parents.get(j)? {
                        -1 => return ::core::option::Option::Some(k),
                        p if p >= 0 && (p as usize) < j => j = p as usize,
                        _ => return ::core::option::Option::None,
                    }
                }
            }
        }
    }
}
