# Shared by scripts/setup and scripts/in-env. Sourced, not run.
WL_STAMP_NAME=.waterline-packages.stamp
WL_SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WL_TOP=$(cd "$WL_SCRIPTS/.." && pwd)
WL_MODE_FILE=/var/lib/waterline/host-mode

wl_root_dir() { printf '%s\n' "${WATERLINE_ENV_ROOT:-/var/cache/waterline/debian13-root}"; }

# The package names, one per word, without comments.
wl_package_list() { sed -e 's/#.*//' "$WL_SCRIPTS/packages-debian13.txt" | tr -s ' \n' ' '; }

# Changes whenever the package list or the suite changes.
wl_package_stamp() {
    { wl_package_list; echo "${WATERLINE_ENV_SUITE:-trixie}"; } | sha256sum | cut -c1-16
}

# "native" when this host installs the packages itself, else "root".
wl_host_mode() {
    if [ -f "$WL_MODE_FILE" ] && [ "$(cat "$WL_MODE_FILE")" = native ]; then echo native; else echo root; fi
}
wl_set_native() {
    local d; d=$(dirname "$WL_MODE_FILE")
    if [ "$(id -u)" = 0 ]; then mkdir -p "$d" && echo native >"$WL_MODE_FILE";
    else sudo mkdir -p "$d" && echo native | sudo tee "$WL_MODE_FILE" >/dev/null; fi
}

# The first Debian (not security) mirror named in the host's apt sources.
wl_host_mirror() {
    local files=() f uri
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && files+=("$f")
    done
    [ ${#files[@]} -gt 0 ] || return 1
    # One-line format: deb [opts] URI suite comps; deb822: URIs: a b c
    uri=$(awk '
        /^[[:space:]]*#/ { next }
        /^[[:space:]]*deb[[:space:]]/ {
            for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break }
            next
        }
        /^URIs:/ { for (i = 2; i <= NF; i++) print $i }
    ' "${files[@]}" | grep -v -e security -e 'debian-ports' | grep -E '/debian/?$' | head -n 1)
    [ -n "$uri" ] || return 1
    printf '%s\n' "${uri%/}"
}
