#pragma once

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace wl {

// One row of the sessions table. Profiles are stored without secrets: the store drops
// key-like fields ("api_key", "apiKey", "secret", "password", "token", "authorization")
// before writing, whatever the caller passes.
struct SessionInfo
{
    QString id;                     // UUID without braces, assigned by createSession
    QString title;
    QString workspace;              // absolute folder the agent works in
    QDateTime createdAt;
    QDateTime updatedAt;            // last change of the session's own fields (rename, policy, profiles)
    QDateTime lastActivityAt;       // time of its newest message, else createdAt (read only)
    QJsonObject policy;             // CompactionPolicy::toJson()
    QString providerName;           // profile name the session runs on
    QJsonObject providerProfile;    // the profile's JSON, no secrets
    QJsonObject summarizerProfile;  // the summariser's profile JSON, no secrets
    QString approvalPolicy;         // e.g. "ask", "auto-edit", "auto"
    QString systemPrompt;           // what an agent run of this session sends first
    QJsonArray toolSchemas;         // the tools an agent run offers (OpenAI tool JSON, schema 5); empty when unknown
    bool readOnly = false;          // imported and not continued yet: nothing runs on it (schema 6)
    qint64 messageCount = 0;        // read only, from an index: cheap to list
    qint64 requestCount = 0;        // read only: highest request index + 1
    // Read only: where a read-only session came from (its session source's format: an importer
    // id, "proxy" for an agent's traffic recorded through the proxy); empty for the agent's own.
    QString sourceFormat;
    // An import is still writing the session (schema 10): set by the importer when it creates the
    // session, cleared by SessionStore::finishImport once every part is stored. listSessions()
    // leaves such sessions out, and the window never opens one: it is never shown as complete.
    bool importing = false;

    bool isRecordedTraffic() const { return sourceFormat == u"proxy"; }
};

} // namespace wl
