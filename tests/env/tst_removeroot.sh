#!/usr/bin/env bash
# A refresh of the build root deletes the root's own files and nothing outside it
# (scripts/env-common.sh: wl_remove_root, which scripts/setup uses). A throw-away root stands in
# for the real one: it holds links out to a "home" with a session database, and, in a mount
# namespace of the test's own, that home bound below it as scripts/in-env binds it.
#   tst_removeroot.sh SOURCE_DIR
set -uo pipefail
src=${1:?usage: tst_removeroot.sh SOURCE_DIR}
. "$src/scripts/env-common.sh"

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "PASS: $*"; }

t=$(mktemp -d)
cleanup() { rm -rf --one-file-system -- "$t"; }
trap cleanup EXIT

# The user's data, outside the root.
home=$t/home
mkdir -p "$home/.local/share/Waterline/waterline" "$home/project"
echo "the session" >"$home/.local/share/Waterline/waterline/sessions.db"
echo "the user's file" >"$home/project/notes.txt"
data_intact() {
    [ "$(cat "$home/.local/share/Waterline/waterline/sessions.db" 2>/dev/null)" = "the session" ] \
        && [ "$(cat "$home/project/notes.txt" 2>/dev/null)" = "the user's file" ]
}

make_root() {
    rm -rf --one-file-system -- "$t/root"
    mkdir -p "$t/root/usr/bin" "$t/root/etc" "$t/root$home" "$t/root/root/.local/share"
    touch "$t/root/$WL_ROOT_MARK" "$t/root/usr/bin/tool" "$t/root/etc/passwd"
    # Links out of the root: to the home, to a file in it, and a link the old HOME=/root kept.
    ln -s "$home" "$t/root/home-link"
    ln -s "$home/project/notes.txt" "$t/root/etc/notes-link"
    ln -s "$home/.local/share/Waterline" "$t/root/root/.local/share/Waterline"
}

# Runs bash code in a private mount namespace (as root, or as root of a user namespace of ours).
in_mount_ns() {
    if [ "$(id -u)" = 0 ]; then
        unshare --mount --propagation private -- bash -c "$1" in-ns "$src" "$t" "$home"
    else
        unshare --user --map-root-user --mount --propagation private -- bash -c "$1" in-ns "$src" "$t" "$home"
    fi
}

# 1. The home bound below the root (what in-env does): refused, nothing deleted anywhere.
make_root
out=$(in_mount_ns '
    . "$1/scripts/env-common.sh"; t=$2; home=$3
    mount --bind "$home" "$t/root$home" || exit 99
    wl_remove_root "$t/root"' 2>&1)
rc=$?
if [ "$rc" = 99 ]; then
    fail "could not bind-mount in a private mount namespace: $out"
elif [ "$rc" = 0 ]; then
    fail "a root with a home mounted below it was deleted"
elif ! grep -q "still mounted below it" <<<"$out"; then
    fail "refused for the wrong reason: $out"
else
    pass "a root with a home mounted below it is refused"
fi
data_intact || fail "the home's data is gone after the refused removal"
[ -f "$t/root/usr/bin/tool" ] || fail "the refused removal deleted files of the root"

# 2. Nothing mounted: the root goes, every link's target stays.
make_root
if wl_remove_root "$t/root"; then pass "a root with nothing mounted is deleted"; else fail "wl_remove_root failed"; fi
[ ! -e "$t/root" ] || fail "the root is still there"
data_intact && pass "links out of the root are removed, their targets kept" \
    || fail "deleting the root deleted data outside it"

# 3. A folder that is not a build root (no mark, not empty): refused, untouched.
if wl_remove_root "$home" 2>/dev/null; then fail "a folder without the root's mark was deleted"; else pass "a folder that is not a root is refused"; fi
data_intact || fail "the refused folder lost data"

# 4. The root given as a link to it: the root's files go, the link's own folder stays.
make_root
ln -s "$t/root" "$t/root-link"
wl_remove_root "$t/root-link" || fail "a root named through a link was not deleted"
[ ! -e "$t/root/usr/bin/tool" ] || fail "the root's files are still there"
data_intact || fail "deleting a root through a link deleted data outside it"

# 5. An empty folder (a bootstrap that never started) may go; a missing one is not an error.
mkdir "$t/empty"
wl_remove_root "$t/empty" && [ ! -e "$t/empty" ] && pass "an empty folder is deleted" || fail "an empty folder stayed"
wl_remove_root "$t/missing" && pass "a missing root is not an error" || fail "a missing root is an error"

if [ "$failures" -gt 0 ]; then
    echo "$failures failure(s)" >&2
    exit 1
fi
echo "all passed"
