#!/usr/bin/env bash
# Builds the C library (crates/phutball-capi) in release mode and installs it
# under PREFIX the way C and C++ users expect:
#   PREFIX/lib/libphutball.so.MAJOR.MINOR.PATCH   the shared library (SONAME libphutball.so.MAJOR)
#   PREFIX/lib/libphutball.so.MAJOR, libphutball.so   links to it
#   PREFIX/lib/libphutball.a                        the static library
#   PREFIX/include/phutball.h                       the header
#   PREFIX/lib/pkgconfig/phutball.pc                pkg-config (Libs.private: what the static library needs)
#   PREFIX/lib/cmake/phutball/                      find_package(phutball CONFIG): phutball::phutball
# The .pc and CMake files find the prefix from their own place, so the
# installed tree can be moved. Templates: crates/phutball-capi/install/.
# ELF platforms (Linux, the BSDs) only: macOS names libraries differently.
# Usage: scripts/install-c.sh PREFIX   (for example /usr/local or "$HOME/.local")
set -euo pipefail

if [ $# -ne 1 ] || [ -z "$1" ]; then
    echo "usage: scripts/install-c.sh PREFIX   (for example /usr/local or \"\$HOME/.local\")" >&2
    exit 2
fi
mkdir -p "$1"
prefix="$(cd "$1" && pwd)" # before the cd below: PREFIX may be relative
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
templates=crates/phutball-capi/install
lib_dir="${CARGO_TARGET_DIR:-$root/target}/release"

# The crate's version, as Cargo has it ("path+file:///...#phutball-capi@0.1.0").
package_id="$(cargo pkgid -p phutball-capi)"
version="${package_id##*[#@]}"
IFS=. read -r major minor patch <<<"${version%%[-+]*}"
[ -n "$patch" ] || { echo "install-c.sh: cannot read the version from '$package_id'" >&2; exit 1; }

# One build of both libraries; rustc also reports the system libraries the
# static one needs (a note Cargo repeats when nothing needs rebuilding).
# Cargo's progress ("Compiling ...") goes to stderr, so it shows; its
# messages on stdout are read here. scripts/heartbeat.py (when there is a
# Python) prints a line whenever the build has said nothing for 20 s.
echo "install-c.sh: building libphutball $version with Rust (cargo rustc --release -p phutball-capi:" \
    "the core, solver, engine and C ABI crates, thin LTO; about 30 s from cold on 2 cores, under a second when built)"
heartbeat=()
if command -v python3 >/dev/null; then
    heartbeat=(python3 "$root/scripts/heartbeat.py" --label "install-c.sh: cargo" --)
fi
build_output="$("${heartbeat[@]}" cargo rustc --release -p phutball-capi --lib --message-format=json \
    -- --print native-static-libs)"
libs_private="$(grep -o '"message":"native-static-libs: [^"]*"' <<<"$build_output" | head -n 1 |
    sed -e 's/^"message":"native-static-libs: //' -e 's/"$//')"
[ -n "$libs_private" ] || { echo "install-c.sh: rustc did not report native-static-libs" >&2; exit 1; }
link_libraries="$(for flag in $libs_private; do printf '%s;' "${flag#-l}"; done)"
pointer_bits="$(rustc --print cfg | sed -n 's/^target_pointer_width="\([0-9]*\)"$/\1/p')"

echo "install-c.sh: installing into $prefix"
mkdir -p "$prefix/lib/pkgconfig" "$prefix/lib/cmake/phutball" "$prefix/include"
soname="libphutball.so.$major"
install -m 755 "$lib_dir/libphutball.so" "$prefix/lib/libphutball.so.$version"
ln -sfn "libphutball.so.$version" "$prefix/lib/$soname"
ln -sfn "$soname" "$prefix/lib/libphutball.so"
install -m 644 "$lib_dir/libphutball.a" "$prefix/lib/libphutball.a"
install -m 644 include/phutball.h "$prefix/include/phutball.h"
# fill TEMPLATE DESTINATION: the template with its @NAME@s replaced.
fill() {
    sed -e "s|@VERSION@|$version|g" -e "s|@MAJOR@|$major|g" -e "s|@MINOR@|$minor|g" \
        -e "s|@LIBS_PRIVATE@|$libs_private|g" -e "s|@LINK_LIBRARIES@|${link_libraries%;}|g" \
        -e "s|@POINTER_SIZE@|$((pointer_bits / 8))|g" "$templates/$1" >"$2"
    chmod 644 "$2"
}
fill phutball.pc.in "$prefix/lib/pkgconfig/phutball.pc"
fill phutballConfig.cmake.in "$prefix/lib/cmake/phutball/phutballConfig.cmake"
fill phutballConfigVersion.cmake.in "$prefix/lib/cmake/phutball/phutballConfigVersion.cmake"
echo "install-c.sh: installed libphutball $version ($soname); pkg-config: PKG_CONFIG_PATH=$prefix/lib/pkgconfig, CMake: CMAKE_PREFIX_PATH=$prefix"
