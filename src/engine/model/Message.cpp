#include "Message.h"

#include "Utf8.h"

using namespace Qt::StringLiterals;

namespace wl {

QString roleName(Role role)
{
    switch (role) {
    case Role::System: return u"system"_s;
    case Role::User: return u"user"_s;
    case Role::Assistant: return u"assistant"_s;
    case Role::Tool: return u"tool"_s;
    }
    return u"user"_s;
}

bool roleFromName(QStringView name, Role *role)
{
    static constexpr struct { QStringView name; Role role; } table[] = {
        {u"system", Role::System}, {u"user", Role::User},
        {u"assistant", Role::Assistant}, {u"tool", Role::Tool},
    };
    for (const auto &entry : table) {
        if (name == entry.name) {
            *role = entry.role;
            return true;
        }
    }
    return false;
}

qint64 Message::computeBytes() const
{
    qint64 n = utf8ByteCount(content) + utf8ByteCount(toolCallId);
    for (const ToolCall &call : toolCalls)
        n += utf8ByteCount(call.id) + utf8ByteCount(call.name) + utf8ByteCount(call.arguments);
    return n;
}

int Message::contentLines() const
{
    return cachedLines >= 0 ? cachedLines : lineCount(content);
}

void Message::cacheBytes()
{
    cachedBytes = computeBytes();
    cachedLines = isToolResult() ? lineCount(content) : -1;
}

bool Message::sameContent(const Message &other) const
{
    return role == other.role && content == other.content && toolCalls == other.toolCalls
        && toolCallId == other.toolCallId && isError == other.isError;
}

Message Message::system(const QString &text)
{
    Message m;
    m.role = Role::System;
    m.content = text;
    return m;
}

Message Message::user(const QString &text)
{
    Message m;
    m.role = Role::User;
    m.content = text;
    return m;
}

Message Message::assistant(const QString &text, const QList<ToolCall> &calls)
{
    Message m;
    m.role = Role::Assistant;
    m.content = text;
    m.toolCalls = calls;
    return m;
}

Message Message::toolResult(const QString &callId, const QString &text, bool isError)
{
    Message m;
    m.role = Role::Tool;
    m.toolCallId = callId;
    m.content = text;
    m.isError = isError;
    return m;
}

} // namespace wl
