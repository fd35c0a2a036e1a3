//! `jointsim`: run Exudyn model files with the generated kernels (see [`joint_runtime::cli`]).

fn main() -> std::process::ExitCode {
    joint_runtime::cli::main(joint_runtime::JointRegistry::exudyn())
}
