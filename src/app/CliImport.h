#pragma once

#include <QStringList>

namespace wl::cli {

// `waterline-cli import FILE [--format F] --db PATH [--workspace DIR] [--title T] [--replay]
//  [--window N]`: reads a transcript into a new stored session and prints its id.
int runImport(const QStringList &arguments);

} // namespace wl::cli
