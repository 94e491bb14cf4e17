#include "SessionLifecycle.h"

#include "DemoSession.h"
#include "LoadedSession.h"
#include "ProgressTask.h"
#include "SessionLoader.h"
#include "UiLogging.h"

#include "BackgroundRunner.h"
#include "compaction/CompactionPass.h"
#include "compaction/CompactionPolicy.h"
#include "replay/SessionImporter.h"
#include "store/PinBudget.h"

#include <QJsonObject>
#include <QSettings>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr auto kLastSessionKey = "Session/last";
constexpr auto kLastWasDemoKey = "Session/lastWasDemo";
} // namespace

SessionLifecycle::SessionLifecycle(QObject *parent)
    : QObject(parent)
    , m_session(std::make_unique<LoadedSession>())
    , m_loader(new SessionLoader(this))
    , m_lists(new BackgroundRunner(BackgroundRunner::Policy::LatestOnly, this))
    , m_writes(new BackgroundRunner(BackgroundRunner::Policy::Queue, this))
    , m_refreshTimer(new QTimer(this))
{
    qRegisterMetaType<wl::SessionInfo>();
    qRegisterMetaType<QList<wl::SessionInfo>>();
    // The docks follow what the agent stores a moment after it stored it: one reload per burst.
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(300);
    connect(m_refreshTimer, &QTimer::timeout, this, [this] {
        if (m_session->isEmpty() || m_databasePath.isEmpty())
            return;
        m_refreshing = true;
        m_loader->load(m_shownPath.isEmpty() ? m_databasePath : m_shownPath, m_session->info.id);
    });
    connect(m_loader, &SessionLoader::loaded, this, &SessionLifecycle::onLoaded);
    connect(m_loader, &SessionLoader::failed, this, &SessionLifecycle::onLoadFailed);
}

SessionLifecycle::~SessionLifecycle()
{
    // Work still running may use the stores below: cancel it and wait for it first (each of these
    // waits in its destructor), then the stores go.
    delete m_demoTask;
    qDeleteAll(m_imports);
    delete m_loader;
    delete m_lists;
    delete m_writes;
}

void SessionLifecycle::setStore(SessionStore *store, const QString &databasePath)
{
    m_store = store;
    m_databasePath = databasePath;
    m_lists->cancel(); // a list of the other database no longer applies
    Q_EMIT storeChanged(store, databasePath);
    listSessions();
    startUp();
}

namespace {
// What a start puts right before anything else is written, and the demo when it is built.
struct StartUp
{
    int removedImports = 0;
    DemoSession::Moved moved;
    DemoSession::Result demo;
    std::shared_ptr<SessionStore> demoStore;
    QList<SessionInfo> demoSessions;
};

// Opens the demo's database on this worker and lists it; empty when it cannot be opened.
std::shared_ptr<SessionStore> openDemoStore(const QString &path, QList<SessionInfo> *sessions, QString *error)
{
    auto store = std::make_shared<SessionStore>();
    if (!store->open(path, error))
        return {};
    *sessions = store->listSessions(error);
    store->releaseThreadConnection(); // pool threads outlive the job
    return store;
}
} // namespace

void SessionLifecycle::startUp()
{
    SessionStore *store = m_store;
    if (!store || !store->isOpen())
        return;
    // On the write queue, so it runs before any write asked for after it.
    const QString folder = DemoSession::defaultFolder();
    m_writes->run([store, folder](QString &error) {
        StartUp found;
        found.removedImports = store->removeAbandonedImports(&error).value_or(0);
        found.moved = DemoSession::moveUserSessions(folder, *store);
        found.demo = DemoSession::find(folder);
        QString demoError;
        if (found.demo.ok)
            found.demoStore = openDemoStore(found.demo.databasePath, &found.demoSessions, &demoError);
        store->releaseThreadConnection();
        return found;
    }, [this](StartUp found, const QString &error) {
        if (!error.isEmpty())
            qCWarning(lcUi).noquote() << "unfinished imports were not removed:" << error;
        if (found.removedImports > 0)
            Q_EMIT abandonedImportsRemoved(found.removedImports);
        if (found.moved.count > 0 || !found.moved.error.isEmpty()) {
            Q_EMIT demoSessionsMoved(found.moved.count, found.moved.error);
            listSessions();
        }
        if (found.demoStore && !m_demoStore)
            setDemo(std::move(found.demoStore), found.demo.databasePath, found.demo.sessionId, found.demoSessions);
    });
}

void SessionLifecycle::setDemo(std::shared_ptr<SessionStore> store, const QString &path, const QString &sessionId,
                               const QList<SessionInfo> &sessions)
{
    if (m_demoStore)
        m_retired.push_back(std::move(m_demoStore));
    m_demoStore = std::move(store);
    m_demoPath = path;
    m_demoSessionId = sessionId;
    Q_EMIT demoListed(sessions);
}

QString SessionLifecycle::databaseOf(const QString &sessionId) const
{
    return !m_demoSessionId.isEmpty() && sessionId == m_demoSessionId ? m_demoPath : m_databasePath;
}

bool SessionLifecycle::showsDemo() const
{
    return !m_session->isEmpty() && !m_demoPath.isEmpty() && m_shownPath == m_demoPath;
}

void SessionLifecycle::open(const QString &sessionId)
{
    m_openingLast.clear();
    m_refreshing = false;
    m_refreshTimer->stop();
    Q_EMIT opening(sessionId);
    m_loadingPath = databaseOf(sessionId);
    m_loader->load(m_loadingPath, sessionId);
}

bool SessionLifecycle::openLast()
{
    QSettings settings;
    if (settings.value(QLatin1StringView(kLastWasDemoKey)).toBool()) {
        openDemo(); // reused when built: a moment
        return true;
    }
    const QString last = settings.value(QLatin1StringView(kLastSessionKey)).toString();
    if (last.isEmpty() || m_databasePath.isEmpty() || !m_store || !m_store->isOpen())
        return false;
    open(last);
    m_openingLast = last;
    return true;
}

void SessionLifecycle::show(const LoadedSession &session)
{
    m_refreshing = false;
    m_openingLast.clear();
    m_refreshTimer->stop();
    m_loadingPath = databaseOf(session.info.id);
    onLoaded(session);
}

void SessionLifecycle::close()
{
    m_refreshing = false;
    m_refreshTimer->stop();
    m_shownPath.clear();
    *m_session = LoadedSession();
    Q_EMIT opened(*m_session);
}

void SessionLifecycle::scheduleRefresh()
{
    m_refreshTimer->start();
}

void SessionLifecycle::onLoaded(const LoadedSession &session)
{
    if (m_refreshing && session.info.id == m_session->info.id) {
        m_refreshing = false;
        *m_session = session;
        Q_EMIT refreshed(session);
        return;
    }
    m_refreshing = false;
    m_openingLast.clear();
    *m_session = session;
    m_shownPath = session.isEmpty() ? QString() : m_loadingPath;
    if (!session.isEmpty()) {
        QSettings settings;
        settings.setValue(QLatin1StringView(kLastSessionKey), session.info.id);
        settings.setValue(QLatin1StringView(kLastWasDemoKey), showsDemo());
    }
    Q_EMIT opened(session);
}

void SessionLifecycle::onLoadFailed(const QString &sessionId, const QString &error)
{
    if (m_refreshing) {
        m_refreshing = false;
        Q_EMIT refreshFailed(error);
        return;
    }
    if (!m_openingLast.isEmpty() && sessionId == m_openingLast) {
        // The session used last was deleted meanwhile (or lives in another database): start empty.
        qCInfo(lcUi).noquote() << "the session used last is not in" << m_databasePath << ":" << error;
        close();
        return;
    }
    Q_EMIT openFailed(sessionId, error);
}

void SessionLifecycle::openDemo()
{
    if (m_demoTask)
        return; // being built
    // Built once (import and replay, a few seconds) in a database of its own; the store is opened
    // on the worker too, so the window never waits for a migration. What an older Waterline put
    // in the demo's database moves to the user's first, before any demo file is replaced.
    const QString folder = DemoSession::defaultFolder();
    const QString userPath = m_databasePath;
    struct Built
    {
        DemoSession::Moved moved;
        DemoSession::Result demo;
        std::shared_ptr<SessionStore> store;
        QList<SessionInfo> sessions;
    };
    auto built = std::make_shared<Built>();
    m_demoTask = new ProgressTask([folder, userPath, built](const ProgressTask::Report &report, const std::atomic_bool &cancel) {
        if (!userPath.isEmpty()) {
            SessionStore user;
            QString error;
            if (user.open(userPath, &error))
                built->moved = DemoSession::moveUserSessions(folder, user);
            else
                built->moved.error = error;
        }
        built->demo = DemoSession::ensure(folder, report, &cancel);
        if (!built->demo.ok)
            return built->demo.error;
        QString error;
        built->store = openDemoStore(built->demo.databasePath, &built->sessions, &error);
        return built->store ? QString() : error;
    }, this);
    m_demoTask->setObjectName(u"DemoTask"_s);
    connect(m_demoTask, &ProgressTask::progress, this, &SessionLifecycle::demoProgress);
    connect(m_demoTask, &ProgressTask::finished, this, [this, built](const QString &error, bool cancelled) {
        m_demoTask->deleteLater();
        m_demoTask = nullptr;
        if (built->moved.count > 0 || !built->moved.error.isEmpty()) {
            Q_EMIT demoSessionsMoved(built->moved.count, built->moved.error);
            listSessions();
        }
        if (cancelled || !error.isEmpty() || !built->store) {
            Q_EMIT demoFailed(error.isEmpty() ? tr("The demo was cancelled.") : error);
            return;
        }
        setDemo(std::move(built->store), built->demo.databasePath, built->demo.sessionId, built->sessions);
        Q_EMIT demoFinished();
        open(built->demo.sessionId);
    });
    m_demoTask->start();
}

bool SessionLifecycle::isBuildingDemo() const
{
    return m_demoTask;
}

void SessionLifecycle::importTranscript(const QString &path)
{
    if (m_databasePath.isEmpty()) {
        Q_EMIT importFinished(path, QString(), tr("No session database is open."), false, 0);
        return;
    }
    auto sessionId = std::make_shared<QString>();
    auto sessionCount = std::make_shared<qsizetype>(0);
    const QString databasePath = m_databasePath;
    auto *task = new ProgressTask([path, databasePath, sessionId, sessionCount](const ProgressTask::Report &report, const std::atomic_bool &cancel) {
        SessionStore store;
        QString error;
        if (!store.open(databasePath, &error))
            return error;
        SessionImporter::Options options;
        options.runIndex = SessionImporter::Options::allRuns; // a file of several sessions gives several
        options.cancel = &cancel;
        options.progress = [&report, path](qint64 done, qint64 total) {
            report(path, total > 0 ? int(100 * done / total) : 0);
        };
        const SessionImporter::Result result = SessionImporter::importFile(store, path, options);
        if (!result.ok)
            return result.cancelled ? QString() : result.error;
        *sessionId = result.sessionId;
        *sessionCount = result.sessionIds.size();
        return QString();
    }, this);
    m_imports.append(task);
    connect(task, &ProgressTask::progress, this, &SessionLifecycle::importProgress);
    connect(task, &ProgressTask::finished, this, [this, task, path, sessionId, sessionCount](const QString &error, bool cancelled) {
        m_imports.removeOne(task);
        task->deleteLater();
        if (cancelled || !error.isEmpty()) {
            Q_EMIT importFinished(path, QString(), error, cancelled, 0);
            return;
        }
        listSessions();
        open(*sessionId);
        Q_EMIT importFinished(path, *sessionId, QString(), false, int(*sessionCount));
    });
    task->start();
}

void SessionLifecycle::cancelImport()
{
    for (ProgressTask *task : std::as_const(m_imports))
        task->cancel();
}

bool SessionLifecycle::isImporting() const
{
    return !m_imports.isEmpty();
}

void SessionLifecycle::listSessions()
{
    // The newest list wins: one asked for earlier (still running, or waiting) may have read the
    // store before the change this one follows, so its answer is dropped, never shown after.
    m_lists->cancel();
    SessionStore *store = m_store;
    if (!store || !store->isOpen()) {
        Q_EMIT sessionsListed({});
        return;
    }
    m_lists->run([store](QString &error) {
        QList<SessionInfo> sessions = store->listSessions(&error);
        store->releaseThreadConnection(); // pool threads outlive the job
        return sessions;
    }, [this](const QList<SessionInfo> &sessions, const QString &error) {
        if (!error.isEmpty())
            Q_EMIT listFailed(error);
        Q_EMIT sessionsListed(sessions);
    });
}

template<typename Work, typename Done>
void SessionLifecycle::write(Write kind, const QString &sessionId, Work work, Done done)
{
    if (refuseDemoWrite(kind, sessionId))
        return;
    SessionStore *store = m_store;
    if (!store || !store->isOpen()) {
        Q_EMIT writeFailed(kind, sessionId, tr("No session database is open."));
        return;
    }
    m_writes->run([store, work = std::move(work)](QString &error) mutable {
        const bool ok = work(*store, error);
        store->releaseThreadConnection(); // pool threads outlive the job
        return ok;
    }, [this, kind, sessionId, done = std::move(done)](bool ok, const QString &error) mutable {
        if (!ok) {
            Q_EMIT writeFailed(kind, sessionId, error);
            return;
        }
        done();
    });
}

bool SessionLifecycle::refuseDemoWrite(Write kind, const QString &sessionId)
{
    if (m_demoSessionId.isEmpty() || sessionId != m_demoSessionId)
        return false;
    // Nothing the user makes goes into the demo's database, which a newer demo replaces.
    Q_EMIT writeFailed(kind, sessionId, tr("The demo session is read-only: it is rebuilt with each new version of the demo, "
                                           "so nothing is stored in it."));
    return true;
}

void SessionLifecycle::createSession(const SessionInfo &fields)
{
    auto created = std::make_shared<QString>();
    write(Write::Create, QString(), [fields, created](SessionStore &store, QString &error) {
        const std::optional<SessionInfo> info = store.createSession(fields, &error);
        if (info)
            *created = info->id;
        return info.has_value();
    }, [this, created] {
        listSessions();
        Q_EMIT sessionCreated(*created);
        open(*created);
    });
}

void SessionLifecycle::renameSession(const QString &id, const QString &title)
{
    write(Write::Rename, id, [id, title](SessionStore &store, QString &error) {
        return store.renameSession(id, title, &error);
    }, [this, id, title] {
        if (m_session->info.id == id)
            m_session->info.title = title;
        listSessions();
        Q_EMIT sessionRenamed(id, title);
    });
}

void SessionLifecycle::deleteSession(const QString &id)
{
    write(Write::Delete, id, [id](SessionStore &store, QString &error) {
        return store.deleteSession(id, &error);
    }, [this, id] {
        listSessions();
        Q_EMIT sessionDeleted(id);
        if (m_session->info.id == id)
            close();
    });
}

void SessionLifecycle::continueSession(const QString &id, const SessionStore::Continuation &choice)
{
    write(Write::Continue, id, [id, choice](SessionStore &store, QString &error) {
        return store.continueSession(id, choice, &error);
    }, [this, id] {
        listSessions();
        Q_EMIT sessionContinued(id);
        open(id);
    });
}

void SessionLifecycle::applyPolicy(const CompactionPolicy &policy)
{
    const QString id = m_session->info.id;
    const QJsonObject json = policy.toJson();
    auto applied = [this, id, policy, json] {
        if (m_session->info.id == id) {
            m_session->policy = policy;
            m_session->info.policy = json;
        }
        Q_EMIT policyApplied(policy);
    };
    if (id.isEmpty() || id == m_demoSessionId) {
        applied(); // the demo's policy changes for this run only: its database is read-only
        return;
    }
    write(Write::Policy, id, [id, json](SessionStore &store, QString &error) {
        return store.setSessionPolicy(id, json, &error);
    }, applied);
}

void SessionLifecycle::pin(const Pin &pin)
{
    const QString id = m_session->info.id;
    if (id.isEmpty())
        return;
    write(Write::Pin, id, [id, pin](SessionStore &store, QString &error) {
        const std::optional<SessionInfo> info = store.session(id, &error);
        return info && store.addPin(id, pin, PinBudget::forSession(*info), &error).has_value();
    }, [this] { scheduleRefresh(); });
}

void SessionLifecycle::unpin(qint64 pinId)
{
    const QString id = m_session->info.id;
    if (id.isEmpty())
        return;
    write(Write::Unpin, id, [pinId](SessionStore &store, QString &error) {
        return store.removePin(pinId, &error);
    }, [this] { scheduleRefresh(); });
}

void SessionLifecycle::reviseCheckpoint(qint64 checkpointId, const Anchors &anchors, const QString &summary)
{
    const QString id = m_session->info.id;
    const auto it = std::find_if(m_session->overlays.checkpoints.cbegin(), m_session->overlays.checkpoints.cend(),
                                 [checkpointId](const Checkpoint &cp) { return cp.id == checkpointId; });
    if (id.isEmpty() || it == m_session->overlays.checkpoints.cend()) {
        Q_EMIT writeFailed(Write::Revise, id, tr("The shown session has no checkpoint %1.").arg(checkpointId));
        return;
    }
    // The requests that follow: from the one after the session's last.
    const int next = m_session->requests.isEmpty() ? 0 : m_session->requests.constLast().index + 1;
    const CheckpointVersion version = CompactionPass::revision(*it, m_session->overlays.offloads, anchors, summary, next);
    writeVersion(Write::Revise, checkpointId, [checkpointId, version](SessionStore &store, QString &error) {
        return store.addCheckpointVersion(checkpointId, version, &error);
    });
}

void SessionLifecycle::undoCheckpointRevision(qint64 checkpointId)
{
    writeVersion(Write::UndoRevision, checkpointId, [checkpointId](SessionStore &store, QString &error) {
        return store.undoCheckpointVersion(checkpointId, &error);
    });
}

void SessionLifecycle::writeVersion(Write kind, qint64 checkpointId,
                                    std::function<std::optional<int>(SessionStore &, QString &)> change)
{
    const QString id = m_session->info.id;
    if (id.isEmpty())
        return;
    auto number = std::make_shared<int>(0); // the version in force after the change
    write(kind, id, [change = std::move(change), number](SessionStore &store, QString &error) {
        const std::optional<int> now = change(store, error);
        *number = now.value_or(0);
        return now.has_value();
    }, [this, checkpointId, number] {
        Q_EMIT checkpointRevised(checkpointId, *number);
        scheduleRefresh();
    });
}

bool SessionLifecycle::isWriting() const
{
    return m_writes->isBusy();
}

} // namespace wl
