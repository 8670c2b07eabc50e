#!/usr/bin/env bash
# Builds opsview as one file that needs no Swift toolchain (the Swift standard library and
# Foundation linked in statically), and packages it for Linux in dist/:
#   opsview-VERSION-linux-ARCH.tar.gz  bin/opsview, the man page, bash/zsh/fish completions, LICENSE
#   opsview_VERSION_ARCH.deb           the same in /usr, dependencies from dpkg-shlibdeps
# Needs: a Swift toolchain, binutils (strip), dpkg-dev (dpkg-deb, dpkg-shlibdeps).
# Scripts/smoke-release.sh checks the results as a user would, with the toolchain hidden.
set -euo pipefail
cd "$(dirname "$0")/.."

version="$(sed -n 's/^ *version: "\(.*\)",$/\1/p' Sources/opsview/Opsview.swift | head -1)"
arch="$(dpkg --print-architecture)"
[ -n "$version" ] || { echo "release: no version found in Sources/opsview/Opsview.swift" >&2; exit 1; }

echo "release: building opsview $version for linux-$arch (static Swift runtime)" >&2
swift build -c release --product opsview --static-swift-stdlib
binary="$(swift build -c release --product opsview --static-swift-stdlib --show-bin-path)/opsview"

# The man page, from the command's own help, by swift-argument-parser's generate-manual tool.
swift build -c release --product generate-manual >/dev/null 2>&1 \
  || swift build -c release --target generate-manual >/dev/null
manuals="$(mktemp -d)"
"$(swift build -c release --show-bin-path)/generate-manual" "$binary" --date 2026-01-01 \
  --output-directory "$manuals" >/dev/null
manual="$manuals/opsview.1"
[ -s "$manual" ] || { echo "release: the man page was not generated" >&2; exit 1; }
# What the generator cannot know: the subcommand is optional (play is the default), and what each
# exit status means.
sed -i -e 's/^\.Ar subcommand$/.Op Ar subcommand/' -e '/^\.Ex -std$/{
r /dev/stdin
d
}' "$manual" <<'EXIT'
.Bl -tag -width 3n
.It 0
Success.
.It 1
A scenario, recording or validation error; every problem is printed with its file, line and column.
.It 2
A usage error, or no usable terminal for the board.
.El
EXIT
grep -q '^\.It 2$' "$manual" || { echo "release: the man page has no exit statuses" >&2; exit 1; }

rm -rf dist
name="opsview-$version-linux-$arch"
stage="dist/$name"
mkdir -p "$stage/bin" "$stage/share/man/man1" "$stage/share/bash-completion/completions" \
  "$stage/share/zsh/site-functions" "$stage/share/fish/vendor_completions.d"
install -m 0755 "$binary" "$stage/bin/opsview"
strip "$stage/bin/opsview"
gzip -9n -c "$manual" >"$stage/share/man/man1/opsview.1.gz"
"$stage/bin/opsview" --generate-completion-script bash >"$stage/share/bash-completion/completions/opsview"
"$stage/bin/opsview" --generate-completion-script zsh >"$stage/share/zsh/site-functions/_opsview"
"$stage/bin/opsview" --generate-completion-script fish >"$stage/share/fish/vendor_completions.d/opsview.fish"
cp README.md LICENSE "$stage/"
tar -C dist --owner=0 --group=0 -czf "dist/$name.tar.gz" "$name"

# The .deb: the same files under /usr; the shared libraries it needs, as Debian names them.
deb="dist/deb"
mkdir -p "$deb/DEBIAN" "$deb/usr/bin" "$deb/usr/share/man/man1" \
  "$deb/usr/share/bash-completion/completions" "$deb/usr/share/zsh/vendor-completions" \
  "$deb/usr/share/fish/vendor_completions.d" "$deb/usr/share/doc/opsview"
cp "$stage/bin/opsview" "$deb/usr/bin/opsview"
cp "$stage/share/man/man1/opsview.1.gz" "$deb/usr/share/man/man1/"
cp "$stage/share/bash-completion/completions/opsview" "$deb/usr/share/bash-completion/completions/"
cp "$stage/share/zsh/site-functions/_opsview" "$deb/usr/share/zsh/vendor-completions/"
cp "$stage/share/fish/vendor_completions.d/opsview.fish" "$deb/usr/share/fish/vendor_completions.d/"
gzip -9n -c README.md >"$deb/usr/share/doc/opsview/README.md.gz"
# Debian policy 12.5: the licence, verbatim, in the machine-readable copyright format.
{
  printf 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n'
  printf 'Upstream-Name: opsview\n\nFiles: *\nCopyright: %s\nLicense: Expat\n' \
    "$(sed -n 's/^Copyright (c) //p' LICENSE)"
  sed -n '/^Permission is hereby granted/,$p' LICENSE | sed -e 's/^$/./' -e 's/^/ /'
} >"$deb/usr/share/doc/opsview/copyright"
# dpkg-shlibdeps reads debian/control of a source tree: a minimal one in a scratch directory.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch" "$manuals"' EXIT
mkdir -p "$scratch/debian"
printf 'Source: opsview\n\nPackage: opsview\nArchitecture: any\n' >"$scratch/debian/control"
depends="$(cd "$scratch" && dpkg-shlibdeps -O "$OLDPWD/$deb/usr/bin/opsview" 2>/dev/null \
  | sed -n 's/^shlibs:Depends=//p')"
[ -n "$depends" ] || { echo "release: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
size="$(du -sk "$deb/usr" | cut -f1)"
cat >"$deb/DEBIAN/control" <<CONTROL
Package: opsview
Version: $version
Architecture: $arch
Maintainer: opsview developers <opsview@localhost>
Installed-Size: $size
Depends: $depends
Section: devel
Priority: optional
Description: watch the lifecycle of Operations on a live terminal board
 opsview plays scenarios of Foundation's OperationQueue (and ProcedureKit's conditions,
 exclusivity, groups and timeouts) on an ncurses board, with teaching moments, a quiz,
 a presenter layout, exports, and a probe to watch your own program.
CONTROL
dpkg-deb --root-owner-group --build "$deb" "dist/opsview_${version}_${arch}.deb" >/dev/null
rm -rf "$deb"
ls -l dist/*.tar.gz dist/*.deb >&2
