#!/usr/bin/env bash
# make install-test: `make install` and `make deb` checked in DESTDIRs, never system-wide.
# Needs the release build (make release) and the debug build (make build); run from the
# repository's top. Each check says what it proves; the last line counts them.
# Hiding /opt/swift needs a mount namespace: `unshare -m` as root (CI), else `unshare -rm`.
set -uo pipefail
top=$(pwd)
debug=$top/.build/debug/coolcal
release=$top/.build/release/coolcal
release_http=$top/.build/release/coolcal-http
tmp=$(mktemp -d "${TMPDIR:-/tmp}/coolcal-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

ok() { passed=$((passed + 1)); echo "ok - $1"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/    /'; }
# check NAME COMMAND...: passes when the command succeeds.
check() { local name=$1; shift; local out; if out=$("$@" 2>&1); then ok "$name"; else not_ok "$name" "$out"; fi; }
# same NAME EXPECTED ACTUAL
same() { if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "$(diff <(printf '%s\n' "$2") <(printf '%s\n' "$3"))"; fi; }

for b in "$debug" "$release" "$release_http"; do [ -x "$b" ] || { echo "missing $b (make build release)"; exit 2; }; done
if [ "$(id -u)" = 0 ]; then ns=(unshare -m); else ns=(unshare -rm); fi
# The toolchain's root: /opt/swift here and in CI (swift is /opt/swift/usr/bin/swift).
swiftlib=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")
[ -d "$swiftlib/usr/lib/swift" ] || swiftlib=/opt/swift
# hidden CMD...: runs CMD with /opt/swift covered by an empty tmpfs.
hidden() { "${ns[@]}" sh -c 'mount -t tmpfs none "$0" && exec "$@"' "$swiftlib" "$@"; }

# 1. The install tree for PREFIX=/usr: exactly these files, with these modes.
d=$tmp/usr-tree
make --no-print-directory -s install DESTDIR="$d" PREFIX=/usr >"$tmp/install.log" 2>&1 \
  || { not_ok "make install DESTDIR PREFIX=/usr exits 0" "$(cat "$tmp/install.log")"; }
same "make install PREFIX=/usr installs exactly the binary, its HTTP helper, man page, three completions, units and crontab" \
"755 usr/bin/coolcal
644 usr/lib/systemd/user/coolcal-merge.service
644 usr/lib/systemd/user/coolcal-merge.timer
755 usr/libexec/coolcal/coolcal-http
644 usr/share/bash-completion/completions/coolcal
644 usr/share/doc/coolcal/examples/crontab
644 usr/share/fish/vendor_completions.d/coolcal.fish
644 usr/share/man/man1/coolcal.1
644 usr/share/zsh/vendor-completions/_coolcal" \
"$(cd "$d" && find . -type f -printf '%m %P\n' | LC_ALL=C sort -k2)"
strip --remove-section=.comment --remove-section=.note --strip-unneeded -o "$tmp/stripped" "$release"
check "the installed binary is the release build stripped, byte for byte (install copies and strips, builds nothing)" cmp "$tmp/stripped" "$d/usr/bin/coolcal"
same "the installed binary has no symbol table" "" "$(readelf -S "$d/usr/bin/coolcal" | grep -F .symtab)"
strip --remove-section=.comment --remove-section=.note --strip-unneeded -o "$tmp/stripped-http" "$release_http"
check "the installed HTTP helper is the release build's coolcal-http stripped, byte for byte" cmp "$tmp/stripped-http" "$d/usr/libexec/coolcal/coolcal-http"
# Why the helper exists: coolcal starts without libcurl and what it loads (TLS, Kerberos, LDAP…).
same "the installed coolcal loads no libcurl, GnuTLS nor OpenSSL; its helper loads libcurl" "|libcurl.so.4" \
  "$(ldd "$d/usr/bin/coolcal" | grep -oE 'lib(curl|gnutls|ssl|crypto)\.so[.0-9]*' | paste -sd,)|$(readelf -d "$d/usr/libexec/coolcal/coolcal-http" | grep -oE 'libcurl\.so[.0-9]*')"
check "the man page is man/coolcal.1" cmp man/coolcal.1 "$d/usr/share/man/man1/coolcal.1"
check "the bash completion is what 'coolcal completions bash' prints" cmp <("$debug" completions bash) "$d/usr/share/bash-completion/completions/coolcal"
same "the zsh completion starts with #compdef (zsh autoloads it from fpath)" "#compdef coolcal" "$(head -1 "$d/usr/share/zsh/vendor-completions/_coolcal")"
check "the fish completion is what 'coolcal completions fish' prints" cmp <("$debug" completions fish) "$d/usr/share/fish/vendor_completions.d/coolcal.fish"
same "the service runs /usr/bin/coolcal merge -q" "ExecStart=/usr/bin/coolcal merge -q" \
  "$(grep '^ExecStart=' "$d/usr/lib/systemd/user/coolcal-merge.service")"
same "the crontab example names /usr/bin/coolcal" "*/5 * * * * /usr/bin/coolcal merge -q --me me@example.com --spool \$HOME/.local/share/coolcal/spool \$HOME/calendars/work.ics" \
  "$(grep -v '^#' "$d/usr/share/doc/coolcal/examples/crontab")"
# systemd-analyze verify (make deps-test installs systemd) runs `man coolcal(1)` for the units'
# Documentation=: with MANPATH at the DESTDIR's man pages it finds the installed one.
if command -v systemd-analyze >/dev/null; then
  # (a copy whose ExecStart is the DESTDIR's binary: verify checks that it is executable)
  u=$tmp/units; mkdir -p "$u" "$tmp/run" "$tmp/no-man"; chmod 700 "$tmp/run"
  sed "s|^ExecStart=/usr/bin/|ExecStart=$d/usr/bin/|" "$d/usr/lib/systemd/user/coolcal-merge.service" >"$u/coolcal-merge.service"
  cp "$d/usr/lib/systemd/user/coolcal-merge.timer" "$u/"
  check "systemd-analyze verify accepts the user unit and its timer, Documentation=man:coolcal(1) found in the install" \
    env XDG_RUNTIME_DIR="$tmp/run" MANPATH="$d/usr/share/man" systemd-analyze verify --user "$u/coolcal-merge.service" "$u/coolcal-merge.timer"
  # (the man check is real: with no coolcal(1) on MANPATH verify fails, man's exit code 16)
  out=$(env XDG_RUNTIME_DIR="$tmp/run" MANPATH="$tmp/no-man" systemd-analyze verify --user "$u/coolcal-merge.service" 2>&1); rc=$?
  if [ $rc -ne 0 ] && [[ $out == *"man coolcal(1)"*"code 16"* ]]; then ok "systemd-analyze verify fails when man cannot find coolcal(1) (the check above is real)"
  else not_ok "systemd-analyze verify fails when man cannot find coolcal(1) (the check above is real)" "exit $rc: $out"; fi
else
  not_ok "systemd-analyze is installed (package systemd: make deps-test)"
fi

# 2. PREFIX=/usr/local (the default): zsh's site-functions, paths under /usr/local.
l=$tmp/local-tree
make --no-print-directory -s install DESTDIR="$l" >/dev/null 2>&1
check "PREFIX defaults to /usr/local, zsh completion in site-functions" test -f "$l/usr/local/share/zsh/site-functions/_coolcal"
check "no zsh vendor-completions under /usr/local" test ! -e "$l/usr/local/share/zsh/vendor-completions"
same "the /usr/local service runs /usr/local/bin/coolcal" "ExecStart=/usr/local/bin/coolcal merge -q" \
  "$(grep '^ExecStart=' "$l/usr/local/lib/systemd/user/coolcal-merge.service")"
make --no-print-directory -s uninstall DESTDIR="$l" >/dev/null 2>&1
same "make uninstall removes every file it installed" "" "$(find "$l" -type f)"

r=$tmp/refused-tree
if make --no-print-directory -s install DESTDIR="$r" RELEASE="$debug" >/dev/null 2>&1; then
  not_ok "make install refuses a binary that needs the toolchain's libswiftCore.so (a plain build)"
else
  same "make install refuses a binary that needs the toolchain's libswiftCore.so, installing nothing" "" "$(find "$r" -type f 2>/dev/null)"
fi

# 3. The binary needs nothing of the toolchain.
same "the release binary loads no Swift library and has no RUNPATH" "" \
  "$(readelf -d "$release" | grep -E 'NEEDED.*(swift|Foundation|dispatch|BlocksRuntime)|RUNPATH|RPATH')"
out=$(hidden "$debug" --version 2>&1); rc=$?
if [ $rc -ne 0 ] && [[ $out == *libswift*"cannot open shared object file"* ]]; then ok "with /opt/swift hidden the debug build fails to start (the hiding works)"
else not_ok "with /opt/swift hidden the debug build fails to start (the hiding works)" "exit $rc: $out"; fi
# Same output, error output and exit status as the debug build, on samples/.
compare() {
  local name=$1; shift
  local h1=$tmp/home-debug h2=$tmp/home-installed
  rm -rf "$h1" "$h2"; mkdir -p "$h1" "$h2"
  local e1 e2 o1 o2 r1 r2
  o1=$(env -i PATH=/usr/bin:/bin HOME="$h1" TZ=America/Los_Angeles "$debug" "$@" 2>"$tmp/e1"); r1=$?
  o2=$(hidden env -i PATH=/usr/bin:/bin HOME="$h2" TZ=America/Los_Angeles "$d/usr/bin/coolcal" "$@" 2>"$tmp/e2"); r2=$?
  e1=$(cat "$tmp/e1"); e2=$(cat "$tmp/e2")
  if [ "$o1" = "$o2" ] && [ "$e1" = "$e2" ] && [ $r1 = $r2 ] && [ -n "$o1$e1" ]; then ok "installed binary without /opt/swift = debug build: $name (exit $r1)"
  else not_ok "installed binary without /opt/swift = debug build: $name" "debug exit $r1, installed exit $r2
$(diff <(printf '%s\n%s\n' "$o1" "$e1") <(printf '%s\n%s\n' "$o2" "$e2"))"; fi
}
cals=(samples/work.ics samples/family.ics samples/vdir)
compare "conflicts" conflicts --me me@example.com samples/invite.json "${cals[@]}"
compare "conflicts --json" conflicts --json --me me@example.com samples/invite.json "${cals[@]}"
compare "conflicts of an iTIP invitation" conflicts --me me@example.com samples/invite.ics "${cals[@]}"
compare "conflicts --suggest" conflicts --suggest 3 --hours 09:00-17:00 samples/invite.json "${cals[@]}"
compare "events --json" events --json --from 2022-08-20T00:00:00Z --to 2022-08-24T00:00:00Z "${cals[@]}"
compare "accept --dry-run of an iTIP invitation" accept -n --me me@example.com samples/invite.ics samples/work.ics
compare "an error (missing file, 66)" conflicts samples/invite.json samples/no-such.ics
compare "--version" --version
# A CalDAV read goes through the helper: the installed coolcal finds it in ../libexec/coolcal,
# and it runs without /opt/swift (port 1 on 127.0.0.1: refused, with the same words).
compare "a CalDAV calendar through the HTTP helper (connection refused)" conflicts samples/invite.json http://127.0.0.1:1/alice/cal/

# 4. The crontab line of the README, run as cron runs it: PATH=/usr/bin:/bin, HOME only,
#    the installed path in place of /usr/local/bin/coolcal, /opt/swift hidden.
line=$(grep -m1 -E '^\*/5 \* \* \* \* /usr/local/bin/coolcal merge -q ' README.md)
if [ -z "$line" ]; then not_ok "README has a crontab line for /usr/local/bin/coolcal merge -q"
else
  ok "README has a crontab line for /usr/local/bin/coolcal merge -q"
  cmd=$(printf '%s\n' "$line" | cut -d' ' -f6- | sed "s|/usr/local/bin/coolcal|$l/usr/local/bin/coolcal|")
  make --no-print-directory -s install DESTDIR="$l" >/dev/null 2>&1
  home=$tmp/cron-home; spool=$home/.local/share/coolcal/spool
  mkdir -p "$home/calendars" "$spool"; cp samples/work.ics "$home/calendars/work.ics"
  # cron's environment, and a zone (cron passes the system's; pinned here so the local times
  # below read the same on every machine); ICU's narrow and thin spaces read as spaces.
  cron() {
    hidden env -i PATH=/usr/bin:/bin HOME="$home" TZ=UTC sh -c "$cmd" >"$tmp/out.raw" 2>"$tmp/err"; echo $? >"$tmp/rc"
    sed 's/\xe2\x80\xaf/ /g; s/\xe2\x80\x89/ /g' "$tmp/out.raw" >"$tmp/out"
  }
  cron
  same "cron line, empty spool: exit 0, nothing on stdout or stderr (cron mails nothing)" "0||" \
    "$(cat "$tmp/rc")|$(cat "$tmp/out")|$(cat "$tmp/err")"
  cp samples/invite.json "$spool/0001.json"; cp samples/invite-free.json "$spool/0002.json"
  printf '{"title": "Lunch"}\n' >"$spool/0003.json"
  cron
  same "cron line, busy + free + broken invitation: exit 0, only the busy and the failed one on stdout" \
"0
busy      0001.json  Family Reunion  Aug 20, 2022, 4:00 PM  (2 conflicts: On-call handover (moved) Aug 20, 2022, 5:30 PM, Team offsite planning Aug 20, 2022, 8:30 PM; not accepted)
failed    0003.json
times in UTC" "$(cat "$tmp/rc" "$tmp/out")"
  same "cron line: the reason of the failed one on stderr" "coolcal: warning: $spool/0003.json: missing \"start\"" "$(cat "$tmp/err")"
  check "cron line: the free invitation was written into the calendar" grep -q '^X-COOLCAL-INVITE-ID:13' "$home/calendars/work.ics"
  check "cron line: the state is under HOME, ~/.local/share/coolcal (no XDG variable set)" test -f "$home/.local/share/coolcal/state.db"
  cron
  same "cron line, run again: exit 0, nothing printed (all answered)" "0||" "$(cat "$tmp/rc")|$(cat "$tmp/out")|$(cat "$tmp/err")"
  # The unit's ExecStart (no operands): the spool and calendar from the config file.
  mkdir -p "$home/.config/coolcal"
  printf 'me = me@example.com\nspool = ~/.local/share/coolcal/spool\ncalendar = ~/calendars/work.ics\n' >"$home/.config/coolcal/config"
  cp samples/invite.json "$spool/0004.json"
  cmd="$l/usr/local/bin/coolcal merge -q"; cron
  same "ExecStart 'coolcal merge -q' takes me, spool and calendar from the config" \
"0
busy      0004.json  Family Reunion  Aug 20, 2022, 4:00 PM  (2 conflicts: On-call handover (moved) Aug 20, 2022, 5:30 PM, Team offsite planning Aug 20, 2022, 8:30 PM; not accepted)
times in UTC" "$(cat "$tmp/rc" "$tmp/out")"
fi

# 5. make deb: the package's contents and fields.
make --no-print-directory -s deb >"$tmp/deb.log" 2>&1; rc=$?
deb=$(tail -1 "$tmp/deb.log")
if [ $rc -eq 0 ] && [[ $deb == /*.deb ]] && [ -f "$deb" ]; then ok "make deb exits 0 and prints the .deb's path last"
else not_ok "make deb exits 0 and prints the .deb's path last" "exit $rc: $(tail -20 "$tmp/deb.log")"; deb=; fi
if [ -n "$deb" ]; then
  version=$("$debug" --version | sed 's/^coolcal //')
  same "Package and Version (the program's own)" "coolcal $version" "$(dpkg-deb -f "$deb" Package Version | cut -d' ' -f2 | paste -sd' ')"
  depends=$(dpkg-deb -f "$deb" Depends)
  for lib in libc6 libical3 libsqlite3-0 libgmime-3.0-0 libglib2.0-0 libcurl4 libxml2 tzdata; do
    if [[ ", $depends," == *", $lib "* || ", $depends," == *", $lib,"* ]]; then ok "Depends names $lib"
    else not_ok "Depends names $lib" "$depends"; fi
  done
  listing=$(dpkg-deb -c "$deb")
  for f in ./usr/bin/coolcal ./usr/libexec/coolcal/coolcal-http ./usr/share/man/man1/coolcal.1.gz ./usr/share/doc/coolcal/copyright \
           ./usr/share/doc/coolcal/changelog.gz ./usr/share/zsh/vendor-completions/_coolcal \
           ./usr/share/bash-completion/completions/coolcal ./usr/share/fish/vendor_completions.d/coolcal.fish \
           ./usr/lib/systemd/user/coolcal-merge.service ./usr/lib/systemd/user/coolcal-merge.timer \
           ./usr/share/doc/coolcal/examples/crontab; do
    if grep -q " $f\$" <<<"$listing"; then ok "the package holds $f"; else not_ok "the package holds $f"; fi
  done
  same "every file in the package is root's" "" "$(awk '$2 != "root/root"' <<<"$listing")"
  same "no uncompressed man page in the package" "" "$(grep ' ./usr/share/man/man1/coolcal.1$' <<<"$listing")"
  x=$tmp/deb-x; dpkg-deb -x "$deb" "$x"
  same "the packaged (stripped) binary runs without /opt/swift" "coolcal $version" "$(hidden "$x/usr/bin/coolcal" --version 2>&1)"
  # make deb already fails on an E: line; what this adds is that lintian ran at all
  # (without it make deb only warns and writes no lintian.txt).
  lint=$(dirname "$deb")/lintian.txt
  same "lintian ran on the package and reports no errors" "ran" "$([ -f "$lint" ] && ! grep -q '^E: ' "$lint" && echo ran)"
fi

# What the note reports: size, and start-up as the median of 10 runs of --version.
median() {
  local b=$1 i s e
  for i in 1 2 3 4 5 6 7 8 9 10; do s=$(date +%s%N); "$b" --version >/dev/null; e=$(date +%s%N); echo $(((e - s) / 1000)); done \
    | sort -n | sed -n '5,6p' | { read -r x; read -r y; echo $(((x + y) / 2)); }
}
echo "measure: installed binary $(stat -c %s "$d/usr/bin/coolcal") bytes, --version median $(median "$d/usr/bin/coolcal") us"
[ -n "${x:-}" ] && echo "measure: packaged (stripped) binary $(stat -c %s "$x/usr/bin/coolcal") bytes, --version median $(median "$x/usr/bin/coolcal") us"
echo "measure: debug binary $(stat -c %s "$debug") bytes, --version median $(median "$debug") us"

echo "install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
