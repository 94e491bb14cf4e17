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
        m_loader->load(m_databasePath, m_session->info.id);
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
    if (m_demoStore)
        m_retired.push_back(std::move(m_demoStore));
    switchStore(store, databasePath, false);
}

void SessionLifecycle::switchStore(SessionStore *store, const QString &databasePath, bool demo)
{
    m_store = store;
    m_databasePath = databasePath;
    m_isDemo = demo;
    m_lists->cancel(); // a list of the other database no longer applies
    Q_EMIT storeChanged(store, databasePath);
    listSessions();
}

void SessionLifecycle::open(const QString &sessionId)
{
    m_openingLast.clear();
    m_refreshing = false;
    m_refreshTimer->stop();
    Q_EMIT opening(sessionId);
    m_loader->load(m_databasePath, sessionId);
}

bool SessionLifecycle::openLast()
{
    const QString last = QSettings().value(QLatin1StringView(kLastSessionKey)).toString();
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
    onLoaded(session);
}

void SessionLifecycle::close()
{
    m_refreshing = false;
    m_refreshTimer->stop();
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
    if (!session.isEmpty())
        QSettings().setValue(QLatin1StringView(kLastSessionKey), session.info.id);
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
    // on the worker too, so the window never waits for a migration.
    const QString folder = DemoSession::defaultFolder();
    auto built = std::make_shared<DemoSession::Result>();
    auto store = std::make_shared<std::unique_ptr<SessionStore>>();
    m_demoTask = new ProgressTask([folder, built, store](const ProgressTask::Report &report, const std::atomic_bool &cancel) {
        *built = DemoSession::ensure(folder, report, &cancel);
        if (!built->ok)
            return built->error;
        auto opened = std::make_unique<SessionStore>();
        QString error;
        if (!opened->open(built->databasePath, &error))
            return error;
        opened->releaseThreadConnection();
        *store = std::move(opened);
        return QString();
    }, this);
    m_demoTask->setObjectName(u"DemoTask"_s);
    connect(m_demoTask, &ProgressTask::progress, this, &SessionLifecycle::demoProgress);
    connect(m_demoTask, &ProgressTask::finished, this, [this, built, store](const QString &error, bool cancelled) {
        m_demoTask->deleteLater();
        m_demoTask = nullptr;
        if (cancelled || !error.isEmpty() || !*store) {
            Q_EMIT demoFailed(error.isEmpty() ? tr("The demo was cancelled.") : error);
            return;
        }
        if (m_demoStore)
            m_retired.push_back(std::move(m_demoStore));
        m_demoStore = std::move(*store);
        switchStore(m_demoStore.get(), built->databasePath, true);
        Q_EMIT demoFinished();
        open(built->sessionId);
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
    SessionStore *store = m_store;
    if (!store || !store->isOpen()) {
        m_lists->cancel();
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
    if (id.isEmpty()) {
        applied();
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
