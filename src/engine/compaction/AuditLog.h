#pragma once

#include "CompactionRecord.h"

#include <QStringList>

namespace wl {

// The JSONL audit: one record per line, file 0600, folder 0700.
namespace AuditLog {

bool append(const QString &path, const CompactionRecord &record, QString *error = nullptr);

struct ReadResult
{
    QList<CompactionRecord> records;   // in file order
    int skipped = 0;                   // damaged lines
    QStringList problems;              // "line N: <what>", one per skipped line
};

// A missing file reads as no records; damaged lines are skipped and reported.
ReadResult read(const QString &path);

} // namespace AuditLog
} // namespace wl
