//! Gives the shared library the SONAME `libphutball.so.MAJOR` (on ELF
//! platforms), so a program linked against it records that name rather than
//! the path it was linked from, and the loader finds whichever installed copy
//! of that major version is on its search path (scripts/install-c.sh installs
//! `libphutball.so.MAJOR.MINOR.PATCH` with the two links to it).
use std::env;

fn main() {
    let major = env::var("CARGO_PKG_VERSION_MAJOR").expect("Cargo sets CARGO_PKG_VERSION_MAJOR");
    let family = env::var("CARGO_CFG_TARGET_FAMILY").unwrap_or_default();
    let vendor = env::var("CARGO_CFG_TARGET_VENDOR").unwrap_or_default();
    // Apple's linker names libraries with -install_name, not -soname.
    if family.split(',').any(|f| f == "unix") && vendor != "apple" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libphutball.so.{major}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
