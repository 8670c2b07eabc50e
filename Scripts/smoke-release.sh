#!/usr/bin/env bash
# Checks what Scripts/release.sh made, as a user without Swift would use it: the tarball's binary
# with the Swift toolchain hidden (a private mount namespace with an empty directory over it), and
# the .deb installed with dpkg: `man opsview` renders, bash completes `opsview pl<TAB>`.
# Needs root (unshare, dpkg -i), tmux, man-db, bash-completion.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "smoke: FAILED: $*" >&2; exit 1; }

tarball="$(ls dist/opsview-*-linux-*.tar.gz 2>/dev/null | head -1)"
deb="$(ls dist/opsview_*.deb 2>/dev/null | head -1)"
[ -n "$tarball" ] && [ -n "$deb" ] || fail "run Scripts/release.sh first"
toolchain="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")"

work="$(mktemp -d)"
trap 'rm -rf "$work"; tmux -L opsview-smoke kill-server 2>/dev/null || true' EXIT
tar -C "$work" -xzf "$tarball"
bin="$(ls -d "$work"/opsview-*/bin)/opsview"
grep -q '^MIT License$' "$work"/opsview-*/LICENSE || fail "the tarball has no LICENSE"

# Everything below runs where the toolchain directory is empty: no Swift library can be found.
cat >"$work/hidden.sh" <<HIDDEN
set -euo pipefail
mount -t tmpfs none "$toolchain"
[ ! -e "$toolchain/bin/swift" ] || { echo "toolchain still visible"; exit 1; }
cd "$work"
"$bin" --version
"$bin" list | grep -q '^tour'
"$bin" trace tour | grep -q 'upload .*ready → executing'
"$bin" export tour --format dot | grep -q 'digraph'
"$bin" check tour | grep -q 'claims hold'
tmux -L opsview-smoke new -d -s smoke -x 100 -y 30 "$bin play tour --paused; echo exit: \\\$?; sleep 30"
for _ in \$(seq 1 100); do
  tmux -L opsview-smoke capture-pane -p -t smoke | grep -q 'Operations' && break
  sleep 0.1
done
tmux -L opsview-smoke capture-pane -p -t smoke | grep -q 'Operations' || { echo "no board"; exit 1; }
tmux -L opsview-smoke send-keys -t smoke q
for _ in \$(seq 1 100); do
  tmux -L opsview-smoke capture-pane -p -t smoke | grep -q 'exit: 0' && break
  sleep 0.1
done
tmux -L opsview-smoke capture-pane -p -t smoke | grep -q 'exit: 0' || { echo "q did not quit"; exit 1; }
HIDDEN
unshare -m bash "$work/hidden.sh" || fail "the tarball's binary without the toolchain"
echo "smoke: the tarball's binary runs the board, trace, export and check without the toolchain" >&2

# The .deb, installed.
dpkg -i "$deb" >/dev/null || fail "dpkg -i"
trap 'dpkg -r opsview >/dev/null 2>&1 || true; rm -rf "$work"; tmux -L opsview-smoke kill-server 2>/dev/null || true' EXIT
[ "$(command -v opsview)" = /usr/bin/opsview ] || fail "opsview is not /usr/bin/opsview"
grep -q '^License: Expat$' /usr/share/doc/opsview/copyright || fail "the .deb has no copyright file"
page="$(MANPAGER=cat MANWIDTH=80 man opsview 2>/dev/null)" || fail "man opsview"
grep -q 'A usage error, or no usable terminal' <<<"$page" || fail "man opsview: no EXIT STATUS"
grep -Eq 'opsview \[subcommand\]' <<<"$page" || fail "man opsview: the subcommand is not optional"
completed="$(bash -c 'source /usr/share/bash-completion/completions/opsview
  COMP_WORDS=(opsview pl); COMP_CWORD=1; COMP_LINE="opsview pl"; COMP_POINT=${#COMP_LINE}
  _opsview opsview pl opsview >/dev/null 2>&1; echo "${COMPREPLY[*]}"')"
[[ " $completed " == *" play "* ]] || fail "bash completion of 'opsview pl' gave '$completed'"
echo "smoke: the .deb installs; man opsview renders its exit statuses; bash completes 'opsview pl' to 'play'" >&2
