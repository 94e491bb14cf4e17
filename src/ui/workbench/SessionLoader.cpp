#include "SessionLoader.h"

#include "BackgroundRunner.h"
#include "model/MessageCodec.h"
#include "score/RecordedRequests.h"
#include "store/SessionStore.h"

#include <QJsonArray>

#include <QCoreApplication>

namespace wl {

SessionLoader::SessionLoader(QObject *parent)
    : QObject(parent)
    , m_runner(new BackgroundRunner(BackgroundRunner::Policy::LatestOnly, this))
{
    qRegisterMetaType<wl::LoadedSession>();
}

SessionLoader::~SessionLoader() = default;

bool SessionLoader::loadNow(const QString &databasePath, const QString &sessionId, LoadedSession *out, QString *error)
{
    SessionStore store;
    if (!store.open(databasePath, error))
        return false;
    const std::optional<SessionInfo> info = store.session(sessionId, error);
    if (!info) {
        if (error && error->isEmpty())
            *error = QCoreApplication::translate("SessionLoader", "There is no session %1 in %2.").arg(sessionId, databasePath);
        return false;
    }
    if (info->importing) {
        // Its import is still running, or was killed part way: never shown as if it were complete.
        if (error)
            *error = QCoreApplication::translate("SessionLoader", "The import of session %1 has not finished.").arg(sessionId);
        return false;
    }
    LoadedSession s;
    s.info = *info;
    QList<Message> history = store.history(sessionId, error);
    s.requests = store.requests(sessionId, error);
    s.records = store.records(sessionId, error);
    s.overlays = store.overlays(sessionId, error);
    s.anchorHistory = store.anchorHistory(sessionId, error);
    s.source = store.sessionSource(sessionId, error);
    // The prompt, the history each request saw and the schemas: the replay's rules, so the docks
    // and the what-if show what `waterline-cli simulate` computes.
    s.replay = ReplayInput::fromStored(s.info, std::move(history), s.requests, s.overlays, s.source);
    s.replay.noteRecords(s.records);
    s.systemPrompt = s.replay.systemPrompt;
    s.history = s.replay.history;
    s.tools = s.replay.tools;
    s.anchorLineage = s.traceLineage();
    s.policy = RecordedRequests::policyOf(s.info, s.replay); // its own, else as `simulate` starts from
    s.compositions = s.recordedCompositions();
    *out = std::move(s);
    return true;
}

void SessionLoader::load(const QString &databasePath, const QString &sessionId)
{
    m_runner->cancel(); // a load still running is superseded
    m_runner->run([databasePath, sessionId](QString &error) {
        std::optional<LoadedSession> session(std::in_place);
        if (!loadNow(databasePath, sessionId, &*session, &error))
            session.reset();
        return session;
    }, [this, sessionId](const std::optional<LoadedSession> &session, const QString &error) {
        if (session)
            Q_EMIT loaded(*session);
        else
            Q_EMIT failed(sessionId, error);
    });
}

} // namespace wl
