//! Superelement marker kernels: weighted sums over a run-time list of mesh nodes (or modes),
//! emitted as loops around the symbolic kinematics of the kinds involved — `node_point` for a
//! GenericODE2 mesh node, `rigid_ep_point` for the floating frame of an FFRF object. Jacobians
//! are written per block over the marker's own columns, never as 3 × (all coordinates).

use proc_macro2::TokenStream;
use quote::quote;

/// The `super_element` module inside `marker_kinematics`.
pub fn expand() -> TokenStream {
    quote! {
        /// Superelement markers (MarkerSuperElementPosition / MarkerSuperElementRigid): weighted
        /// sums over run-time lists of mesh nodes, each node mapped by a generated kind.
        /// Every function returns `None` if the slices do not fit together.
        pub mod super_element {
            /// Σ_i w_i·p_i over GenericODE2 mesh nodes, p_i = `node_point::position` of the
            /// node whose 3 coordinates start at `node_starts[i]` in `coordinates`.
            pub fn weighted_node_position(
                weights: &[f64],
                node_starts: &[usize],
                coordinates: &[f64],
            ) -> ::core::option::Option<[f64; 3]> {
                if weights.len() != node_starts.len() {
                    return ::core::option::Option::None;
                }
                let mut sum = [0.0; 3];
                for (w, &s) in weights.iter().zip(node_starts) {
                    let p = super::node_point::position(coordinates.get(s..s.checked_add(3)?)?.try_into().ok()?);
                    for k in 0..3 {
                        sum[k] += w * p[k];
                    }
                }
                ::core::option::Option::Some(sum)
            }

            /// Σ_i w_i·v_i over GenericODE2 mesh nodes (`node_point::velocity`).
            pub fn weighted_node_velocity(
                weights: &[f64],
                node_starts: &[usize],
                coordinates: &[f64],
                velocities: &[f64],
            ) -> ::core::option::Option<[f64; 3]> {
                if weights.len() != node_starts.len() {
                    return ::core::option::Option::None;
                }
                let mut sum = [0.0; 3];
                for (w, &s) in weights.iter().zip(node_starts) {
                    let v = super::node_point::velocity(
                        coordinates.get(s..s.checked_add(3)?)?.try_into().ok()?,
                        velocities.get(s..s.checked_add(3)?)?.try_into().ok()?,
                    );
                    for k in 0..3 {
                        sum[k] += w * v[k];
                    }
                }
                ::core::option::Option::Some(sum)
            }

            /// The position Jacobian over the marked nodes' columns: block k (columns 3k…3k+2)
            /// is `block_weights[k]`·∂v/∂q̇ of node k (`node_point::position_jacobian`); `out`
            /// is row-major 3 × 3·blocks.
            pub fn weighted_node_position_jacobian(
                block_weights: &[f64],
                block_starts: &[usize],
                coordinates: &[f64],
                out: &mut [f64],
            ) -> ::core::option::Option<()> {
                let n = 3 * block_weights.len();
                if block_starts.len() != block_weights.len() || out.len() != 3 * n {
                    return ::core::option::Option::None;
                }
                for (k, (w, &s)) in block_weights.iter().zip(block_starts).enumerate() {
                    let j = super::node_point::position_jacobian(coordinates.get(s..s.checked_add(3)?)?.try_into().ok()?);
                    for r in 0..3 {
                        for c in 0..3 {
                            out[r * n + 3 * k + c] = w * j[r][c];
                        }
                    }
                }
                ::core::option::Option::Some(())
            }

            /// FFRF: the weighted local point b = Σ_i w_i (x_ref,i + Ψ_i ζ)
            /// = `weighted_reference` + W_Ψ·ζ, with W_Ψ = Σ_i w_i Ψ_i row-major 3 × modes.
            pub fn modal_local_point(
                weighted_reference: &[f64; 3],
                weighted_modes: &[f64],
                zeta: &[f64],
            ) -> ::core::option::Option<[f64; 3]> {
                let m = zeta.len();
                if weighted_modes.len() != 3 * m {
                    return ::core::option::Option::None;
                }
                let mut b = *weighted_reference;
                for r in 0..3 {
                    for c in 0..m {
                        b[r] += weighted_modes[r * m + c] * zeta[c];
                    }
                }
                ::core::option::Option::Some(b)
            }

            /// FFRF: the weighted local velocity W_Ψ·ζ̇.
            pub fn modal_local_velocity(
                weighted_modes: &[f64],
                zeta_t: &[f64],
            ) -> ::core::option::Option<[f64; 3]> {
                modal_local_point(&[0.0; 3], weighted_modes, zeta_t)
            }

            /// FFRF: the position Jacobian over [frame (7) | modes], row-major 3 × (7 + modes):
            /// `rigid_ep_point::position_jacobian` at the local point b, then A·W_Ψ with
            /// A = `rigid_ep_point::rotation`.
            pub fn frame_modal_position_jacobian(
                local_point: &[f64; 3],
                frame: &[f64; 7],
                weighted_modes: &[f64],
                out: &mut [f64],
            ) -> ::core::option::Option<()> {
                if weighted_modes.len() % 3 != 0 {
                    return ::core::option::Option::None;
                }
                let m = weighted_modes.len() / 3;
                let n = 7 + m;
                if out.len() != 3 * n {
                    return ::core::option::Option::None;
                }
                let j = super::rigid_ep_point::position_jacobian(local_point, frame);
                let a = super::rigid_ep_point::rotation(local_point, frame);
                for r in 0..3 {
                    out[r * n..r * n + 7].copy_from_slice(&j[r]);
                    for c in 0..m {
                        let mut x = 0.0;
                        for k in 0..3 {
                            x += a[r][k] * weighted_modes[k * m + c];
                        }
                        out[r * n + 7 + c] = x;
                    }
                }
                ::core::option::Option::Some(())
            }
        }
    }
}
