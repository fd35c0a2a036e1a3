//! `jointsim`: run Exudyn model files with the generated kernels (see the crate's library,
//! [`jointsim::main`]).

fn main() -> std::process::ExitCode {
    jointsim::main(joint_runtime::JointRegistry::exudyn())
}
