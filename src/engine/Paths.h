#pragma once

#include <QString>

namespace wl::Paths {

// Every location Waterline writes to, in one place (see the README, "Where data is kept").
QString dataDir();                                   // QStandardPaths::AppDataLocation
QString defaultDatabasePath();                       // <data dir>/sessions.db
QString auditDir();                                  // <data dir>/compaction_records
QString auditFile(const QString &sessionId);         // <data dir>/compaction_records/<session>.jsonl
QString offloadRelativeDir(const QString &sessionId); // .waterline/tool_results/<session>
QString offloadDir(const QString &workspace, const QString &sessionId);
QString proxyOffloadRoot();                          // <data dir>/proxy: compact mode's offloads, by absolute path

// Session ids come from our own store, but are checked before use in a path.
bool isSafePathComponent(const QString &component);

} // namespace wl::Paths
