#!/usr/bin/env bash
# make fresh-check (not run by CI, nor by make test): the README's two set-up commands,
# verbatim, as root on a fresh Debian bookworm minbase with only the Swift toolchain.
#
# - a minbase root from mmdebstrap, from the host's own apt mirrors, kept as a tarball
#   (.build/fresh/minbase-bookworm.tar, rebuilt when older than FRESH_MAX_AGE days, default 7)
#   and extracted afresh on every run into .build/fresh/root;
# - the toolchain (the directory holding the swift on PATH, usually /opt/swift) bound in
#   read-only at the same path and put first on PATH;
# - a clone of the committed HEAD (uncommitted changes are not checked) in /usr/local/src/coolcal
#   (where root keeps sources; readable by the users the tests run coolcal as);
# - the host's network set-up: its resolv.conf and its local CA certificates
#   (/usr/local/share/ca-certificates, e.g. a TLS-intercepting proxy's, for pip's HTTPS to PyPI);
# - each command of README.md's Two commands (the lines starting `sh ./run demo`, `sh ./run test`)
#   run there in a chroot, in a mount and PID namespace of its own (nothing it mounts or
#   starts outlives it), with PATH, HOME and TERM only.
#
# Logs everything to .build/fresh-check.log and ends it with each command's exit status,
# duration and the Debian packages it installed (dpkg-query -W, before and after).
# Needs root (mmdebstrap, chroot, mounts) and the network (Debian's mirror, PyPI).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

[ "$(id -u)" = 0 ] || { echo "fresh-check: needs root (mmdebstrap, chroot, mounts): sudo make fresh-check" >&2; exit 77; }
suite=bookworm
dir=$top/.build/fresh
tarball=$dir/minbase-$suite.tar
root=$dir/root
log=$top/.build/fresh-check.log
max_age=${FRESH_MAX_AGE:-7}
mkdir -p "$dir"
: >"$log"
say() { printf '%s\n' "$*" | tee -a "$log"; }

# The README's commands, exactly as it prints them.
commands=()
for c in 'sh ./run demo' 'sh ./run test'; do
  grep -qE "^${c//./\\.}( +#.*)?\$" README.md || { echo "fresh-check: README.md has no line '$c' (its Two commands)" >&2; exit 1; }
  commands+=("$c")
done

swift=$(command -v swift) || { echo "fresh-check: no swift on PATH" >&2; exit 69; }
toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$swift")")")")
[ -x "$toolchain/usr/bin/swift" ] || { echo "fresh-check: cannot tell the toolchain's root from $swift" >&2; exit 69; }

if ! command -v mmdebstrap >/dev/null; then
  say "fresh-check: installing mmdebstrap (builds the minbase root)"
  apt-get install -y mmdebstrap 2>&1 | tee -a "$log" || { apt-get update && apt-get install -y mmdebstrap; }
fi

# The host's mirrors for the suite, its updates and security (what apt here is configured with);
# mmdebstrap's default (deb.debian.org) when the host has none for it.
mapfile -t mirrors < <(apt-get indextargets --format '$(SITE) $(RELEASE)' 'Identifier: Packages' 2>/dev/null |
  awk -v s=$suite '$2 == s || $2 == s "-updates" || $2 == s "-security" { print "deb " $1 " " $2 " main" }' | sort -u)
[ ${#mirrors[@]} -gt 0 ] || mirrors=("deb http://deb.debian.org/debian $suite main")

if [ -f "$tarball" ] && [ -z "$(find "$tarball" -mtime +"$max_age")" ]; then
  say "fresh-check: minbase tarball $tarball from $(date -u -r "$tarball" '+%F %R UTC') (cached)"
else
  say "fresh-check: building the $suite minbase tarball with mmdebstrap from: ${mirrors[*]}"
  mmdebstrap --mode=root --variant=minbase "$suite" "$tarball.tmp.tar" "${mirrors[@]}" 2>&1 | tee -a "$log"
  mv "$tarball.tmp.tar" "$tarball"
fi

# A fresh root from the tarball (never while anything is mounted in the last one).
if grep -qF " $root/" /proc/self/mounts; then
  echo "fresh-check: something is still mounted under $root; unmount it first" >&2; exit 1
fi
rm -rf "$root"
mkdir -p "$root"
tar -C "$root" -xf "$tarball"
cat /etc/resolv.conf >"$root/etc/resolv.conf"
# (update-ca-certificates adds them when the commands install ca-certificates)
cas=$(find /usr/local/share/ca-certificates -name '*.crt' 2>/dev/null | wc -l)
[ "$cas" = 0 ] || { cp -r /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
  say "fresh-check: the host's $cas local CA certificate(s) copied in (/usr/local/share/ca-certificates)"; }
mkdir -p "$root$toolchain"
src=/usr/local/src/coolcal
git clone -q --no-hardlinks "$top" "$root$src"
head=$(git -C "$root$src" log -1 --format='%h %s' | cut -c1-100)
say "fresh-check: coolcal $head; toolchain $toolchain ($("$swift" --version 2>/dev/null | head -1))"
[ -z "$(git status --porcelain --untracked-files=no)" ] || say "fresh-check: (the working tree has uncommitted changes: not checked)"

path=$toolchain/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# inside CMD: CMD (one shell line) in the root, in the clone, as root.
inside() {
  unshare --mount --pid --fork --propagation private bash -c '
    set -e; r=$1 tc=$2 path=$3 src=$4; shift 4
    # (the root a mount point of its own, as / is on a machine: unshare -m inside needs it)
    mount --bind "$r" "$r"
    mount --rbind /dev "$r/dev"
    mount -t proc proc "$r/proc"
    mount --rbind /sys "$r/sys"
    mount --bind "$tc" "$r$tc"; mount -o remount,bind,ro "$r$tc"
    exec chroot "$r" env -i PATH="$path" HOME=/root TERM=xterm-256color sh -c "cd $src && $1"
  ' sh "$root" "$toolchain" "$path" "$src" "$1"
}
packages() { chroot "$root" dpkg-query -W -f '${Package}\n' | sort; }

summary=() failed=0
for c in "${commands[@]}"; do
  say ""
  say "==== # $c"
  before=$(packages)
  start=$(date +%s)
  set +e
  inside "$c" 2>&1 | tee -a "$log"
  status=${PIPESTATUS[0]}
  set -e
  seconds=$(( $(date +%s) - start ))
  installed=$(comm -13 <(printf '%s\n' "$before") <(packages))
  count=$(printf '%s' "$installed" | grep -c . || true)
  line="# $c: exit $status after $((seconds / 60)) min $((seconds % 60)) s; $count packages installed"
  say "==== $line"
  summary+=("$line:" "$(printf '%s\n' "$installed" | paste -sd' ' | fold -s -w 100 | sed 's/^/    /')")
  [ "$status" = 0 ] || failed=1
done

say ""
say "==== fresh-check summary ($suite minbase, coolcal $head)"
for s in "${summary[@]}"; do say "$s"; done
if [ $failed = 0 ]; then say "fresh-check: passed"; else say "fresh-check: FAILED"; fi
exit $failed
