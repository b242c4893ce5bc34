# Sourced by build_quick_m3u8.sh and build_m3u8_rs.sh: the offline cargo set-up both peers share.

# rust_peer_project DIR NAME EDITION DEPENDENCY_LINE: a release-only cargo project in DIR whose
# crates.io dependencies come from Debian's librust-*-dev packages (a directory source), offline.
rust_peer_project() {
  local dir=$1 name=$2 edition=$3 dependency=$4
  mkdir -p "$dir/src" "$dir/.cargo"
  cat > "$dir/.cargo/config.toml" <<'TOML'
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
[net]
offline = true
TOML
  cat > "$dir/Cargo.toml" <<TOML
[package]
name = "$name"
version = "0.1.0"
edition = "$edition"
[dependencies]
$dependency
[profile.release]
lto = true
codegen-units = 1
TOML
}
