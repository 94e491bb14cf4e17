#pragma once

#include <QString>
#include <QStringList>

#include <optional>

class QCommandLineParser;

namespace wl {
class SessionStore;
}

namespace wl::cli {

// `waterline-cli simulate --input FILE_OR_SESSION [--db PATH] [--format F] [policy options]
//  [--summary extractive|size:TOKENS] [--dump-views DIR] [--json]`: what-if replay (issue 5).
int runSimulate(const QStringList &arguments);

// Shared by import/export/simulate: opens an existing session database (never creates one).
// On failure prints the message and returns the exit code in `exitCode`.
bool openExistingStore(SessionStore &store, const QString &path, int *exitCode);

// "--window N": a positive whole number of tokens, else a usage message naming the option.
std::optional<qint64> parseWindow(const QString &option, const QString &value, QString *error);

} // namespace wl::cli
