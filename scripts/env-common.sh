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

# Marks a folder as a build root made by scripts/setup: only such a folder (or an empty one) is
# ever deleted by wl_remove_root.
WL_ROOT_MARK=.waterline-root

# Deletes the build root $1 and nothing outside it. It refuses a folder that is not a build root,
# and refuses while anything is mounted at or below the root in this mount namespace: a bind mount
# of a home (as scripts/in-env makes in its own namespace) lies on the same file system, so rm's
# --one-file-system alone would empty it. rm never follows symbolic links out of the root.
wl_remove_root() {
    local root mounts
    [ -e "$1" ] || [ -L "$1" ] || return 0
    root=$(cd "$1" 2>/dev/null && pwd -P) || { echo "waterline: cannot enter $1" >&2; return 1; }
    if [ "$root" = / ]; then echo "waterline: refusing to delete /" >&2; return 1; fi
    if ! [ -e "$root/$WL_ROOT_MARK" ] && ! [ -e "$root/.waterline-bootstrapped" ] \
        && [ -n "$(ls -A "$root")" ]; then
        echo "waterline: refusing to delete $root: it is not a build root made by scripts/setup" >&2
        return 1
    fi
    # Mount points are field 5 of mountinfo, with space, tab, newline and backslash octal-escaped.
    mounts=$(awk -v r="$root" '{
        p = $5; gsub(/\\040/, " ", p); gsub(/\\011/, "\t", p); gsub(/\\012/, "\n", p); gsub(/\\134/, "\\", p)
        if (p == r || index(p, r "/") == 1) print p
    }' /proc/self/mountinfo)
    if [ -n "$mounts" ]; then
        printf 'waterline: refusing to delete %s: still mounted below it:\n%s\n' "$root" "$mounts" >&2
        return 1
    fi
    rm -rf --one-file-system -- "$root"
}
