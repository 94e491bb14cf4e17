#pragma once

#include <QJsonObject>
#include <QString>

namespace wl {

// A tool offered to the model: name, description and a JSON Schema for its input.
struct ToolSpec
{
    QString name;
    QString description;
    QJsonObject inputSchema;

    // UTF-8 bytes of name + description + compact JSON of the schema (docs/COMPACTION.md section 2).
    qint64 byteCount() const;

    friend bool operator==(const ToolSpec &, const ToolSpec &) = default;
};

} // namespace wl
