#pragma once

#include <QStringList>

namespace wl::cli {

// `waterline-cli export SESSION --db PATH [--out FILE]`: the session as Waterline JSONL
// (store/SessionExport.h), to FILE or to standard output.
int runExport(const QStringList &arguments);

} // namespace wl::cli
