#!/usr/bin/env bash
# make deb: turns the PREFIX=/usr install tree in DIR/debian/coolcal into DIR/coolcal_VERSION_ARCH.deb
# with dpkg-deb, then runs lintian on it (an error fails the build). Prints the path last.
set -euo pipefail
dir=$1
root=$dir/debian/coolcal
here=$(cd "$(dirname "$0")" && pwd)
bin=$root/usr/bin/coolcal

# The version is the program's own (HelpText.version); the changelog must have it on top.
version=$("$bin" --version | sed -n 's/^coolcal //p')
logged=$(sed -n '1s/^coolcal (\([^)]*\)).*/\1/p' "$here/changelog")
if [ -z "$version" ] || [ "$version" != "$logged" ]; then
  echo "make deb: coolcal --version says '$version' but packaging/changelog's top entry is '$logged'" >&2
  exit 1
fi
arch=$(dpkg --print-architecture)

# What Debian's tools would do: strip, gzip the man page and the changelog, ship the copyright.
helper=$root/usr/libexec/coolcal/coolcal-http
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$bin" "$helper"
gzip -9nf "$root/usr/share/man/man1/coolcal.1"
install -m 644 "$here/copyright" "$root/usr/share/doc/coolcal/copyright"
gzip -9nc "$here/changelog" > "$root/usr/share/doc/coolcal/changelog.gz"
chmod 644 "$root/usr/share/doc/coolcal/changelog.gz"

# Depends: what the two programs link (coolcal-http libcurl), as dpkg-shlibdeps finds it (it wants a debian/control).
# --warnings=1: not the notes on libraries pkg-config links but nothing uses (libicalss,
# libicalvcal, libgio), whose packages are needed all the same.
printf 'Source: coolcal\n\nPackage: coolcal\nArchitecture: any\n' > "$dir/debian/control"
shlibs=$(cd "$dir" && dpkg-shlibdeps -O --warnings=1 -e debian/coolcal/usr/bin/coolcal -e debian/coolcal/usr/libexec/coolcal/coolcal-http | sed -n 's/^shlibs:Depends=//p')
[ -n "$shlibs" ] || { echo "make deb: dpkg-shlibdeps found no libraries" >&2; exit 1; }

mkdir -p "$root/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: coolcal
Version: $version
Architecture: $arch
Maintainer: coolcal maintainers <coolcal@example.org>
Installed-Size: $size
Depends: $shlibs, tzdata
Section: utils
Priority: optional
Description: check whether an invitation fits your calendars
 coolcal takes an invitation (a push payload, an iCalendar METHOD:REQUEST
 or a whole e-mail carrying one), reads your calendars (.ics files, vdir
 directories, CalDAV collections) through libical and tells every busy
 event in the invitation's buffered window. It accepts, declines and
 answers invitations, writing calendars safely, and its merge command
 answers a spool of invitations from cron or a systemd user timer.
CONTROL
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

deb=$dir/coolcal_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
if command -v lintian >/dev/null; then
  # Errors and warnings, and the informational tags too (the note lists them).
  lintian --tag-display-limit 0 --display-info "$deb" > "$dir/lintian.txt" 2>&1 || true
  cat "$dir/lintian.txt"
  if grep -q '^E: ' "$dir/lintian.txt"; then echo "make deb: lintian reports errors" >&2; exit 1; fi
else
  echo "make deb: lintian is not installed (make deps installs it); not checked" >&2
fi
echo "$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")"
