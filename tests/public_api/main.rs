//! The public surface of the user-facing crates, listed from their sources (syn; rustdoc's
//! JSON needs a nightly toolchain) and compared with the checked-in listing beside this file,
//! so that a change to the surface shows in review. `UPDATE_PUBLIC_API=1 cargo test --release
//! -p joint-tests --test public_api` rewrites the listings.
//!
//! Listed: every `pub` item of a module reachable through `pub mod` from the crate root (its
//! signature: a function's, a struct's public fields, an enum's variants, a trait's items), the
//! root's and modules' `pub use` re-exports, and the `pub` methods and trait implementations
//! of the public types wherever their `impl` blocks are (a `pub fn` in an `impl` of a private
//! module is public too). Test modules and `#[doc(hidden)]` items are left out; joint-kernels
//! (generated) and joint-macros (its macros are joint-core's re-exports) are not listed.

mod listing;

use std::path::Path;

fn check(krate: &str, src: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let text = listing::list(krate, &root.join(src));
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("public_api")
        .join(format!("{krate}.txt"));
    if std::env::var_os("UPDATE_PUBLIC_API").is_some() {
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    if old != text {
        let (old_lines, new_lines): (Vec<&str>, Vec<&str>) =
            (old.lines().collect(), text.lines().collect());
        let removed: Vec<&&str> = old_lines
            .iter()
            .filter(|l| !new_lines.contains(l))
            .collect();
        let added: Vec<&&str> = new_lines
            .iter()
            .filter(|l| !old_lines.contains(l))
            .collect();
        panic!(
            "the public surface of {krate} changed (UPDATE_PUBLIC_API=1 to accept):\n\
             removed:\n  {}\nadded:\n  {}",
            removed
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join("\n  "),
            added
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join("\n  ")
        );
    }
}

#[test]
fn joint_core_surface() {
    check("joint_core", "joint-core/src/lib.rs");
}

#[test]
fn joint_runtime_surface() {
    check("joint_runtime", "joint-runtime/src/lib.rs");
}

#[test]
fn jointsim_surface() {
    check("jointsim", "jointsim/src/lib.rs");
}

#[test]
fn joint_surface() {
    check("joint", "src/lib.rs");
}

/// The lister itself: a private module's `pub` item is not listed, its `pub fn` in an `impl`
/// of a public type is; a test module is not.
#[test]
fn the_listing_follows_visibility() {
    let dir = std::env::temp_dir().join(format!("public-api-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("lib.rs"),
        "pub mod open { pub struct Body { pub mass: f64, hidden: u8 } }\n\
         mod closed { pub struct Inner; impl crate::open::Body { pub fn weight(&self) -> f64 { 0.0 } fn no(&self) {} } }\n\
         #[cfg(test)] mod tests { pub fn t() {} }\n\
         pub use open::Body as Mass;\n",
    )
    .unwrap();
    let text = listing::list("k", &dir.join("lib.rs"));
    assert_eq!(
        text,
        "k: pub use open::Body as Mass;\n\
         k::open: pub struct Body { pub mass: f64, .. }\n\
         impl Body: pub fn weight(&self) -> f64\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
