#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace wl {

// Where an imported session came from (schema 3, table session_sources). Written once by the
// importer; sessions Waterline ran itself have none. `details` is the importer's JSON (see
// replay/ImportMetadata.h): the source agent's own compactions, structural issues kept as they
// were, skipped records, tool schemas. The store keeps it as opaque JSON.
struct SessionSource
{
    QString format;          // importer id: "claude-code", "codex", ... ("waterline" is never stored)
    QString sourcePath;      // the file it was read from
    QDateTime importedAt;
    QJsonObject details;

    friend bool operator==(const SessionSource &, const SessionSource &) = default;
};

} // namespace wl
