#pragma once

#include <QRegularExpression>
#include <QString>

// Shell-style path patterns for glob and grep: `*` and `?` stay within one folder,
// `**` crosses folders (`**/` also matches no folder at all), `[abc]`, `[!a-z]`
// and `{cpp,h}` work as in bash.
namespace wl::GlobPattern {

// An anchored expression that matches whole relative paths with '/' separators.
QRegularExpression toRegularExpression(const QString &pattern, bool caseInsensitive = false);

} // namespace wl::GlobPattern
