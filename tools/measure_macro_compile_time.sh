#!/usr/bin/env bash
# Compile time the joint-macros expansion adds: a scratch crate that holds only
# `marker_kinematics!()` and `joint!{Spherical}`, built with and without them (warm caches, so
# only that crate is rebuilt). Usage: tools/measure_macro_compile_time.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/src"
cat > "$dir/Cargo.toml" <<TOML
[package]
name = "macro-compile-time"
version = "0.1.0"
edition = "2024"
[dependencies]
joint-macros = { path = "$root/joint-macros" }
[features]
kernels = []
[workspace]
TOML
cat > "$dir/src/lib.rs" <<'RS'
#[cfg(feature = "kernels")]
joint_macros::marker_kinematics!();
#[cfg(feature = "kernels")]
joint_macros::joint! {
    pub joint Spherical {
        marker m0: Position;
        marker m1: Position;
        axes [x = 1, y = 1, z = 1];
        position = m1.position - m0.position;
        velocity = m1.velocity - m0.velocity;
    }
}
pub fn anchor() {}
RS
cd "$dir"
for profile in dev release; do
  for feat in "" "--features kernels"; do
    cargo build --profile "$profile" $feat -q 2>/dev/null   # warm up dependencies
    best=999
    for _ in 1 2 3; do
      touch src/lib.rs
      s=$(date +%s.%N); cargo build --profile "$profile" $feat -q; e=$(date +%s.%N)
      best=$(echo "$e - $s" | bc -l | awk -v b="$best" '{print ($1 < b) ? $1 : b}')
    done
    printf '%-8s %-20s %.2f s\n' "$profile" "${feat:-(no kernels)}" "$best"
  done
done
