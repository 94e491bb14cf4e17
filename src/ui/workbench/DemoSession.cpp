#include "DemoSession.h"

#include "Paths.h"
#include "replay/CompactionBackfill.h"
#include "replay/SessionImporter.h"
#include "store/SessionStore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
// Bump when the transcript, the policy or the replay changes: the demo is rebuilt.
constexpr auto kDemoVersion = "3"; // 2: gate 1 replayed, overhead 0 kept with the session; 3: fuller extractive anchors

} // namespace

QString DemoSession::defaultFolder()
{
    return Paths::dataDir() + u"/demo"_s;
}

QString DemoSession::transcriptResource()
{
    return u":/demo/demo-transcript.jsonl"_s;
}

QString DemoSession::sourceNote()
{
    return QCoreApplication::translate("DemoSession", "The demo session replays a real Claude Code session from marot/spotter "
                                                      "(test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl, MIT licence).");
}

CompactionPolicy DemoSession::policy()
{
    CompactionPolicy p;
    // Small enough that this transcript climbs through every tier; chosen with `waterline-cli simulate`.
    p.contextWindow = 30000;
    // Large results arrive whole (gate 1 would offload them as they come): they are what pushes
    // a request straight to Full or Emergency in this transcript.
    p.offloadAtToolTime = 1'000'000;
    return p;
}

DemoSession::Result DemoSession::ensure(const QString &folder, const std::function<void(const QString &, int)> &progress,
                                        const std::atomic_bool *cancel)
{
    Result result;
    const QDir dir(folder);
    result.databasePath = dir.filePath(u"demo.db"_s);
    const QString stampPath = dir.filePath(u"demo-version"_s);
    const QString workspace = dir.filePath(u"workspace"_s);
    auto report = [&](const QString &stage, int percent) {
        if (progress)
            progress(stage, percent);
    };

    // Reuse a finished demo of this version.
    QFile stamp(stampPath);
    if (stamp.open(QIODevice::ReadOnly)) {
        const QList<QByteArray> lines = stamp.readAll().split('\n');
        if (lines.size() >= 2 && lines.at(0) == kDemoVersion && QFile::exists(result.databasePath)) {
            SessionStore store;
            if (store.open(result.databasePath, &result.error) && store.session(QString::fromUtf8(lines.at(1)))) {
                result.ok = true;
                result.sessionId = QString::fromUtf8(lines.at(1));
                return result;
            }
        }
        stamp.close();
    }

    // Build it afresh: nothing of an older or broken demo is kept.
    report(QCoreApplication::translate("DemoSession", "Preparing the demo session"), 0);
    QFile::remove(stampPath);
    for (const QString &name : {u"demo.db"_s, u"demo.db-wal"_s, u"demo.db-shm"_s})
        QFile::remove(dir.filePath(name));
    QDir(workspace).removeRecursively();
    if (!QDir().mkpath(workspace)) {
        result.error = QCoreApplication::translate("DemoSession", "Could not create the folder %1.").arg(workspace);
        return result;
    }
    const QString transcript = dir.filePath(u"demo-transcript.jsonl"_s);
    QFile::remove(transcript);
    if (!QFile::copy(transcriptResource(), transcript)) {
        result.error = QCoreApplication::translate("DemoSession", "Could not unpack the demo transcript to %1.").arg(transcript);
        return result;
    }

    SessionStore store;
    if (!store.open(result.databasePath, &result.error))
        return result;
    SessionImporter::Options importOptions;
    importOptions.workspace = workspace;
    importOptions.title = QCoreApplication::translate("DemoSession", "Demo: a Claude Code session, replayed");
    importOptions.cancel = cancel;
    importOptions.progress = [&](qint64 done, qint64 total) { report(QCoreApplication::translate("DemoSession", "Importing the demo transcript"), total > 0 ? int(40 * done / total) : 0); };
    const SessionImporter::Result imported = SessionImporter::importFile(store, transcript, importOptions);
    if (!imported.ok) {
        result.error = imported.error;
        return result;
    }

    CompactionBackfill::Options replayOptions;
    replayOptions.policy = policy();
    // Claude Code's own system prompt and tools (about 37,000 tokens by the reported input) exceed
    // the demo's small window: the demo leaves them out, and says so to every replay of it.
    replayOptions.overheadTokens = 0;
    replayOptions.workspace = workspace;
    replayOptions.auditPath = dir.filePath(u"compaction_records.jsonl"_s);
    QFile::remove(replayOptions.auditPath);
    replayOptions.cancel = cancel;
    replayOptions.progress = [&](int done, int total) { report(QCoreApplication::translate("DemoSession", "Replaying it with Waterline's compaction"), 40 + (total > 0 ? 60 * done / total : 0)); };
    const CompactionBackfill::Result replayed = CompactionBackfill::run(store, imported.sessionId, replayOptions);
    if (!replayed.ok) {
        QString ignored;
        store.deleteSession(imported.sessionId, &ignored);
        result.error = replayed.error;
        return result;
    }
    QString ignored;
    store.setSessionPolicy(imported.sessionId, policy().toJson(), &ignored);

    QSaveFile out(stampPath);
    if (out.open(QIODevice::WriteOnly)) {
        out.write(QByteArray(kDemoVersion) + '\n' + imported.sessionId.toUtf8() + '\n');
        out.commit();
    }
    report(QCoreApplication::translate("DemoSession", "Demo session ready"), 100);
    result.ok = true;
    result.built = true;
    result.sessionId = imported.sessionId;
    return result;
}

} // namespace wl
