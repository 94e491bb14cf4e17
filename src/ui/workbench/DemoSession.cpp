#include "DemoSession.h"

#include "Paths.h"
#include "UiLogging.h"
#include "compaction/OffloadStore.h"
#include "replay/CompactionBackfill.h"
#include "replay/SessionImporter.h"
#include "store/SessionStore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMutex>
#include <QSaveFile>
#include <QTemporaryDir>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
// Bump when the transcript, the policy or the replay changes: the demo is rebuilt, in a database
// file of that version's name.
constexpr auto kDemoVersion = "4"; // 2: gate 1 replayed, overhead 0 kept with the session; 3: fuller extractive anchors;
                                   // 4: a database of its own per version, read-only to the window
constexpr auto kTranscriptName = "demo-transcript.jsonl";

QString databaseName()
{
    return u"demo-v%1.db"_s.arg(QLatin1StringView(kDemoVersion));
}

// Every demo database of the folder: the versioned ones and demo.db, where Waterline up to
// demo version 3 kept the demo (and, by mistake, what the user did after opening it).
QStringList databaseFiles(const QDir &dir)
{
    QStringList files;
    for (const QString &name : dir.entryList({u"demo.db"_s, u"demo-v*.db"_s}, QDir::Files, QDir::Name))
        files.append(dir.filePath(name));
    return files;
}

// The demo's own session: imported from the demo transcript (wherever the folder is now).
bool isDemosOwn(SessionStore &store, const QString &sessionId)
{
    const std::optional<SessionSource> source = store.sessionSource(sessionId);
    return source && QFileInfo(source->sourcePath).fileName() == QLatin1StringView(kTranscriptName);
}

// True when the file can be read and holds no session but the demo's: only then may it go.
bool holdsOnlyTheDemo(const QString &path, QString *why)
{
    SessionStore store;
    if (!store.open(path, why))
        return false;
    const QList<SessionInfo> sessions = store.listSessions(why);
    if (!why->isEmpty())
        return false;
    const qsizetype others = std::count_if(sessions.cbegin(), sessions.cend(),
                                           [&store](const SessionInfo &s) { return !isDemosOwn(store, s.id); });
    if (others > 0) {
        *why = QCoreApplication::translate("DemoSession", "it holds %n session(s) that are not the demo's", nullptr, int(others));
        return false;
    }
    return true;
}

// The file in the way of a new build that still holds more than the demo: renamed (never
// deleted), and only once moveUserSessions has copied what it holds into the user's store.
bool setAside(const QString &path, QString *why)
{
    if (!QFileInfo::exists(path + u".moved"_s))
        return false; // `why` says what it holds
    const QString aside = path + u".kept-"_s + QString::number(QDateTime::currentMSecsSinceEpoch());
    for (const QString &suffix : {u""_s, u"-wal"_s, u"-shm"_s}) {
        if (QFileInfo::exists(path + suffix) && !QFile::rename(path + suffix, aside + suffix)) {
            *why = QCoreApplication::translate("DemoSession", "it cannot be renamed to %1").arg(aside + suffix);
            return false;
        }
    }
    QFile::rename(path + u".moved"_s, aside + u".moved"_s);
    return true;
}

// One session of an old demo database into the user's store, all of it.
bool moveOne(SessionStore &demo, SessionStore &user, const SessionInfo &info, QString *why)
{
    QTemporaryDir scratch;
    if (!scratch.isValid()) {
        *why = scratch.errorString();
        return false;
    }
    const QString exported = scratch.filePath(u"session.jsonl"_s);
    if (!demo.exportSession(info.id, exported, why))
        return false;
    SessionInfo fields = info;
    // An import kept its offloaded results beside the demo's database: they move beside the user's.
    const QString demoImports = QFileInfo(demo.path()).absoluteDir().filePath(u"imported"_s);
    const bool besideDemo = QDir::cleanPath(info.workspace) == QDir::cleanPath(demoImports);
    if (besideDemo) {
        fields.workspace = user.importFolder(why);
        if (fields.workspace.isEmpty())
            return false;
    }
    if (!user.adoptSession(exported, fields, why))
        return false;
    if (const std::optional<SessionSource> source = demo.sessionSource(info.id); source && !user.setSessionSource(info.id, *source, why))
        return false;
    for (int index = 0; index < info.requestCount; ++index) {
        const std::optional<RequestContext> context = demo.requestContext(info.id, index);
        if (context && !user.setRequestContext(info.id, index, *context, why))
            return false;
    }
    QString folderError;
    if (besideDemo && !OffloadStore::moveSessionFolder(demoImports, fields.workspace, info.id, &folderError))
        qCWarning(lcUi) << "the offloaded results of" << info.id << "stay in" << demoImports << ":" << folderError;
    return true;
}

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

DemoSession::Moved DemoSession::moveUserSessions(const QString &folder, SessionStore &userStore)
{
    // The window's start and its demo build may both ask: one at a time, and each database once.
    static QMutex running;
    const QMutexLocker lock(&running);
    Moved moved;
    auto fail = [&moved](const QString &path, const QString &why) {
        if (moved.error.isEmpty())
            moved.error = QCoreApplication::translate("DemoSession", "%1 was left as it is: %2").arg(QDir::toNativeSeparators(path), why);
    };
    for (const QString &path : databaseFiles(QDir(folder))) {
        const QString note = path + u".moved"_s;
        if (QFileInfo::exists(note))
            continue;
        SessionStore demo;
        QString why;
        if (!demo.open(path, &why)) {
            fail(path, why);
            continue;
        }
        const QList<SessionInfo> sessions = demo.listSessions(&why);
        if (!why.isEmpty()) {
            fail(path, why);
            continue;
        }
        bool all = true;
        for (const SessionInfo &info : sessions) {
            if (isDemosOwn(demo, info.id))
                continue;
            QString absent;
            if (userStore.session(info.id, &absent))
                continue; // moved before (a start that ended before its note was written)
            if (!moveOne(demo, userStore, info, &why)) {
                all = false;
                fail(path, why);
                continue;
            }
            qCInfo(lcUi) << "moved session" << info.id << "from" << path << "into" << userStore.path();
            ++moved.count;
        }
        if (!all)
            continue;
        QSaveFile out(note);
        if (out.open(QIODevice::WriteOnly)) {
            out.write("Its sessions that were not the demo's are in " + userStore.path().toUtf8() + '\n');
            out.commit();
        }
    }
    return moved;
}

DemoSession::Result DemoSession::find(const QString &folder)
{
    Result result;
    const QDir dir(folder);
    result.databasePath = dir.filePath(databaseName());
    QFile stamp(dir.filePath(u"demo-version"_s));
    if (!stamp.open(QIODevice::ReadOnly))
        return result;
    const QList<QByteArray> lines = stamp.readAll().split('\n');
    if (lines.size() < 2 || lines.at(0) != kDemoVersion || !QFile::exists(result.databasePath))
        return result;
    SessionStore store;
    if (!store.open(result.databasePath, &result.error))
        return result;
    const std::optional<SessionInfo> info = store.session(QString::fromUtf8(lines.at(1)), &result.error);
    if (!info || info->importing)
        return result;
    result.ok = true;
    result.error.clear();
    result.sessionId = info->id;
    return result;
}

DemoSession::Result DemoSession::ensure(const QString &folder, const std::function<void(const QString &, int)> &progress,
                                        const std::atomic_bool *cancel)
{
    // Reuse a finished demo of this version.
    Result result = find(folder);
    if (result.ok)
        return result;
    result.error.clear();
    const QDir dir(folder);
    const QString stampPath = dir.filePath(u"demo-version"_s);
    const QString workspace = dir.filePath(u"workspace"_s);
    auto report = [&](const QString &stage, int percent) {
        if (progress)
            progress(stage, percent);
    };

    // Build it afresh. An older or broken demo database goes only when it holds nothing but the
    // demo: one with anything else is left as it is (moveUserSessions copies what it holds).
    report(QCoreApplication::translate("DemoSession", "Preparing the demo session"), 0);
    QDir().mkpath(folder);
    for (const QString &path : databaseFiles(dir)) {
        QString why;
        if (!holdsOnlyTheDemo(path, &why)) {
            qCInfo(lcUi).noquote() << "kept" << path << ":" << why;
            if (path == result.databasePath && !setAside(path, &why)) {
                result.error = QCoreApplication::translate("DemoSession", "The demo cannot be built: %1 was left as it is (%2).")
                                   .arg(QDir::toNativeSeparators(path), why);
                return result;
            }
            continue;
        }
        for (const QString &file : QStringList{path, path + u"-wal"_s, path + u"-shm"_s, path + u".moved"_s})
            QFile::remove(file);
    }
    QFile::remove(stampPath);
    QDir(workspace).removeRecursively();
    if (!QDir().mkpath(workspace)) {
        result.error = QCoreApplication::translate("DemoSession", "Could not create the folder %1.").arg(workspace);
        return result;
    }
    const QString transcript = dir.filePath(QLatin1StringView(kTranscriptName));
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
