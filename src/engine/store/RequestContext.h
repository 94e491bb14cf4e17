#pragma once

#include <QJsonArray>
#include <QString>

namespace wl {

// What one request sent besides its messages (schema 7): the system prompt and the tool schemas
// exactly as the client wrote them (the proxy records them; Waterline's own runs keep theirs on
// the session).
struct RequestContext
{
    QString systemPrompt;
    QJsonArray toolSchemas;

    friend bool operator==(const RequestContext &, const RequestContext &) = default;
};

} // namespace wl
