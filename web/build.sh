#!/usr/bin/env bash
# Build collidoscope for the browser: a folder of static files with index.html at its top.
#
#   web/build.sh [OUT_DIR]        (default: target/web)
#   cd target/web && python3 -m http.server 8000 --bind 127.0.0.1
#
# Installs what it needs the first time (as root, with apt-get): Debian's rustc-web, which
# builds the standard library for wasm32-unknown-unknown (rustup has no such target here),
# and lld; and the wasm-bindgen command of the version web/Cargo.lock holds. (Debian's
# wasm-opt, binaryen 108, is not used: its output failed to start in Chromium, and
# wasm-bindgen without the name section came out smaller than wasm-opt -Oz's: 2.22 MB gzip
# to 2.34 MB.)
# A second run does only what changed. At the end it prints what a browser downloads (the wasm
# goes compressed, pkg/collidoscope_web_bg.wasm.gz, which the page unpacks), and fails past 3 MB.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
out="${1:-$root/target/web}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
# The wasm build's own target folder, apart from the desktop build's.
wasm_target="${COLLIDOSCOPE_WASM_TARGET:-$root/target/wasm}"
largest_gzip=$((3 * 1000 * 1000))

# 1. Debian's toolchain for the web (rustc >= 1.95 with the standard library's source).
need=()
for package in rustc-web cargo-web rust-web-src lld-22; do
    dpkg -s "$package" >/dev/null 2>&1 || need+=("$package")
done
if [ ${#need[@]} -gt 0 ]; then
    echo "== installing ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
# rustup's proxies stay out of the way: /usr/bin's cargo and rustc are Debian's.
web_env=(env PATH=/usr/bin:/bin RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
    CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}" CARGO_TARGET_DIR="$wasm_target")

# 2. The wasm-bindgen command, of the crate's version.
version=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/[^0-9.]/, ""); print; exit}' "$here/Cargo.lock")
bindgen="$root/target/tools/bin/wasm-bindgen"
if ! [ -x "$bindgen" ] || [ "$("$bindgen" --version | awk '{print $2}')" != "$version" ]; then
    echo "== installing wasm-bindgen $version"
    registry="${CARGO_HOME:-$HOME/.cargo}/registry/src"
    source_dir=$(ls -d "$registry"/*/wasm-bindgen-cli-"$version" 2>/dev/null | head -1 || true)
    if [ -z "$source_dir" ]; then
        # Fetched through a throwaway crate that names it (its own install asks for a
        # webpki-roots the registry no longer serves, so the lock file is mended below).
        fetcher=$(mktemp -d)
        mkdir -p "$fetcher/src"
        printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nwasm-bindgen-cli = "=%s"\n' "$version" >"$fetcher/Cargo.toml"
        touch "$fetcher/src/lib.rs"
        (cd "$fetcher" && cargo fetch -q && cargo vendor -q vendor >/dev/null)
        source_dir="$fetcher/vendor/wasm-bindgen-cli"
    fi
    build=$(mktemp -d)
    cp -r "$source_dir/." "$build"
    (
        cd "$build"
        cargo update -q -p webpki-roots --precise 1.0.10 2>/dev/null || true
        cargo install -q --path . --locked --root "$root/target/tools"
    )
    # The build and the fetch are throwaway (about 440 MB): not left in the temporary folder.
    rm -rf "$build" "${fetcher:-}"
fi

# 3. The app, for wasm32.
echo "== cargo build --release --target wasm32-unknown-unknown (web/)"
(cd "$here" && "${web_env[@]}" /usr/bin/cargo build -q --release --locked \
    --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort)
wasm="$wasm_target/wasm32-unknown-unknown/release/collidoscope_web.wasm"

# 4. Its JavaScript glue, only when the build changed.
mkdir -p "$out/pkg"
stamp="$out/pkg/.built-from"
built=$(stat -c %Y "$wasm")
if ! [ -f "$stamp" ] || [ "$(cat "$stamp")" != "$built" ] || ! [ -f "$out/pkg/collidoscope_web_bg.wasm" ]; then
    echo "== wasm-bindgen"
    "$bindgen" --target web --no-typescript --remove-name-section --remove-producers-section \
        --out-dir "$out/pkg" "$wasm"
    echo "$built" >"$stamp"
fi
# The wasm compressed beside it: the page fetches this one and unpacks it itself
# (DecompressionStream), so a server that compresses nothing (python3 -m http.server) still
# sends about a third; the plain one stays for browsers without DecompressionStream.
packed="$out/pkg/collidoscope_web_bg.wasm.gz"
if ! [ -f "$packed" ] || [ "$packed" -ot "$out/pkg/collidoscope_web_bg.wasm" ]; then
    gzip -9 -n -c "$out/pkg/collidoscope_web_bg.wasm" >"$packed.part"
    mv "$packed.part" "$packed"
fi
cp "$here/index.html" "$out/index.html"

# 5. The size a browser downloads from any static server: the page, the glue and the
# compressed wasm.
raw=$(stat -c %s "$out/pkg/collidoscope_web_bg.wasm")
sent=$(($(stat -c %s "$packed") + $(stat -c %s "$out/pkg/collidoscope_web.js") + $(stat -c %s "$out/index.html")))
echo "built $out: wasm $((raw / 1024)) KiB; a browser downloads $((sent / 1024)) KiB (at most $((largest_gzip / 1024)) KiB)"
if [ "$sent" -gt "$largest_gzip" ]; then
    echo "web/build.sh: the page downloads $sent bytes, past the 3 MB it may be" >&2
    exit 1
fi
