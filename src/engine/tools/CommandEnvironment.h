#pragma once

#include <QProcessEnvironment>
#include <QStringList>

namespace wl {

// The environment a command of the bash tool gets: an allow-list, not a deny-list. Only the
// variables a shell and a build need (PATH, HOME, LANG, LC_*, USER, SHELL, TZ, toolchain homes,
// ...) and the names the user added in the settings pass; tokens, keys, cloud credentials, the
// SSH agent and D-Bus sockets, provider base URLs and everything else stay behind, since whatever
// a command prints enters the history and may be sent to the model.
namespace CommandEnvironment {

// The built-in allow-list: exact names, and prefixes ending in '*'.
QStringList allowedNames();

bool isAllowed(const QString &name, const QStringList &extraNames);

// `source` filtered by the allow-list plus `extraNames` (exact names), with the settings that
// keep a command non-interactive (PAGER=cat, GIT_PAGER=cat, TERM=dumb).
QProcessEnvironment build(const QProcessEnvironment &source, const QStringList &extraNames);

} // namespace CommandEnvironment

} // namespace wl
