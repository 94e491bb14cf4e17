#pragma once

#include "store/SessionInfo.h"
#include "store/SessionStore.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QTimer;

namespace wl {

struct Anchors;
class BackgroundRunner;
class ProgressTask;
class SessionLoader;
struct CompactionPolicy;
struct LoadedSession;

// Which session database is open and which session of it is shown, and every change to either:
// listing, opening (loaded off the GUI thread), refreshing after the agent stored something,
// importing a transcript, building the demo, creating, renaming, deleting and continuing sessions,
// storing a session's policy. No widgets: the window observes its signals and shows what they
// carry. Every store access runs on a worker thread (reads latest-only, writes queued in order),
// so a busy or slow database never blocks the window.
//
// Two databases: the user's (setStore), where everything new goes (imports, sessions, and the
// proxy and the agent, which the window points at databasePath()), and the demo's, built and
// opened beside it, listed on its own (demoListed) and read-only: a write to the demo session is
// refused. The first setStore moves what an older Waterline wrote into the demo's database into
// the user's (demoSessionsMoved) and removes imports that were killed part way
// (abandonedImportsRemoved).
class SessionLifecycle : public QObject
{
    Q_OBJECT
public:
    explicit SessionLifecycle(QObject *parent = nullptr);
    ~SessionLifecycle() override;

    // The user's database (not owned; it must outlive this object). Lists its sessions, and
    // the demo when it is built already.
    void setStore(SessionStore *store, const QString &databasePath);
    SessionStore *store() const { return m_store; }
    QString databasePath() const { return m_databasePath; }
    // The shown session is the demo's (read-only, in the demo's database).
    bool showsDemo() const;
    // The demo's database once built (empty before).
    QString demoDatabasePath() const { return m_demoPath; }

    // The session shown (empty until one is opened).
    const LoadedSession &session() const { return *m_session; }

    // Loads a session of the open database off the GUI thread: opened() or openFailed().
    void open(const QString &sessionId);
    // Opens the session used last (remembered between runs); false when there is none to try.
    // A remembered session that is gone shows no session (opened() with an empty one), no error.
    bool openLast();
    // Shows a session loaded elsewhere (tools, tests) as if it had been opened: opened().
    void show(const LoadedSession &session);
    // Shows no session (after its deletion, say): opened() with an empty session.
    void close();
    // Reloads the shown session a moment from now, once per burst of calls: refreshed().
    void scheduleRefresh();

    // Builds the bundled demo once (worker thread; demoProgress) in a database of its own, then
    // opens its session beside the user's database (which stays the one new work goes to);
    // demoFailed() says why not.
    void openDemo();
    bool isBuildingDemo() const;

    // Imports a transcript (or a Waterline export) into the open database (worker thread;
    // importProgress), then opens it; importFinished() in every case.
    void importTranscript(const QString &path);
    void cancelImport();
    bool isImporting() const;

    // The session list of the user's database: sessionsListed(). The newest request wins: a
    // list asked for before it is never delivered after it.
    void listSessions();

    // Writes, queued in order on a worker; each answers with its signal or writeFailed().
    // A created session is opened.
    void createSession(const SessionInfo &fields);
    void renameSession(const QString &id, const QString &title);
    void deleteSession(const QString &id);
    void continueSession(const QString &id, const SessionStore::Continuation &choice);
    // Stores `policy` as the shown session's own (the agent and later opens use it).
    void applyPolicy(const CompactionPolicy &policy);
    // Pins of the shown session (docs/COMPACTION.md section 12): stored within the session's pin
    // budget (PinBudget; a refusal says by how much through writeFailed), then the session is
    // shown again with them (refreshed()). Unpin is one write.
    void pin(const Pin &pin);
    void unpin(qint64 pinId);
    // A past checkpoint of the shown session edited as its next version, for the requests after its
    // last one (issue #22 item 8), and the undo of the newest edit: for sessions no agent has open
    // (imports, the demo). checkpointRevised() says the version now in force, then the session is
    // shown again with it (refreshed()).
    void reviseCheckpoint(qint64 checkpointId, const wl::Anchors &anchors, const QString &summary);
    void undoCheckpointRevision(qint64 checkpointId);
    bool isWriting() const;

    enum class Write { Create, Rename, Delete, Continue, Policy, Pin, Unpin, Revise, UndoRevision };
    Q_ENUM(Write)

Q_SIGNALS:
    // The user's database changed (setStore).
    void storeChanged(wl::SessionStore *store, const QString &databasePath);
    void sessionsListed(const QList<wl::SessionInfo> &sessions);
    // The demo's sessions (its own heading in the Sessions dock); empty while it is not built.
    void demoListed(const QList<wl::SessionInfo> &sessions);
    // Sessions an older Waterline had put in the demo's database, now in the user's; `error`
    // says why a database was left as it was (nothing of it is lost).
    void demoSessionsMoved(int count, const QString &error);
    // Imports killed part way in an earlier run, removed (they were never listed).
    void abandonedImportsRemoved(int count);
    void listFailed(const QString &error);
    void opening(const QString &sessionId);
    void opened(const wl::LoadedSession &session);
    void openFailed(const QString &sessionId, const QString &error);
    void refreshed(const wl::LoadedSession &session);
    void refreshFailed(const QString &error);
    void demoProgress(const QString &stage, int percent);
    void demoFinished();
    void demoFailed(const QString &error);
    void importProgress(const QString &path, int percent);
    // `sessionId` is the first imported (empty on failure or cancel); `count` how many the file held.
    void importFinished(const QString &path, const QString &sessionId, const QString &error, bool cancelled, int count);
    void sessionCreated(const QString &sessionId);
    void sessionRenamed(const QString &sessionId, const QString &title);
    void sessionDeleted(const QString &sessionId);
    void sessionContinued(const QString &sessionId);
    void policyApplied(const wl::CompactionPolicy &policy);
    void checkpointRevised(qint64 checkpointId, int version);
    void writeFailed(wl::SessionLifecycle::Write write, const QString &sessionId, const QString &error);

private:
    void startUp();
    void setDemo(std::shared_ptr<SessionStore> store, const QString &path, const QString &sessionId,
                 const QList<SessionInfo> &sessions);
    QString databaseOf(const QString &sessionId) const;
    bool refuseDemoWrite(Write kind, const QString &sessionId);
    void onLoaded(const LoadedSession &session);
    void onLoadFailed(const QString &sessionId, const QString &error);
    template<typename Work, typename Done>
    void write(Write kind, const QString &sessionId, Work work, Done done);
    // A change of a checkpoint's versions of the shown session; `change` answers the version then
    // in force. checkpointRevised() and a refresh follow.
    void writeVersion(Write kind, qint64 checkpointId, std::function<std::optional<int>(SessionStore &, QString &)> change);

    SessionStore *m_store = nullptr;               // the user's (not owned)
    QString m_databasePath;
    std::shared_ptr<SessionStore> m_demoStore;     // read-only to this class: only opened from
    // Demo databases opened before the current one: work queued earlier may still use them.
    std::vector<std::shared_ptr<SessionStore>> m_retired;
    QString m_demoPath;
    QString m_demoSessionId;
    QString m_loadingPath;                         // the database of the session being loaded
    QString m_shownPath;                           // ... of the one shown
    std::unique_ptr<LoadedSession> m_session;
    SessionLoader *m_loader;
    BackgroundRunner *m_lists;  // latest only
    BackgroundRunner *m_writes; // queued
    QTimer *m_refreshTimer;
    bool m_refreshing = false;
    QString m_openingLast;      // the remembered session being opened: its absence is no error
    ProgressTask *m_demoTask = nullptr;
    QList<ProgressTask *> m_imports; // running, one per file (children of this object)
};

} // namespace wl
