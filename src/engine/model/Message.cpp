#include "Message.h"

namespace wl {

namespace {
qint64 utf8Bytes(const QString &s)
{
    // Count without allocating: surrogate pairs are 4 bytes, BMP by code point range.
    qint64 n = 0;
    const qsizetype len = s.size();
    const QChar *d = s.constData();
    for (qsizetype i = 0; i < len; ++i) {
        const char16_t c = d[i].unicode();
        if (c < 0x80)
            n += 1;
        else if (c < 0x800)
            n += 2;
        else if (QChar::isHighSurrogate(c) && i + 1 < len && QChar::isLowSurrogate(d[i + 1].unicode())) {
            n += 4;
            ++i;
        } else
            n += 3; // includes lone surrogates, which UTF-8 encoding replaces with U+FFFD (3 bytes)
    }
    return n;
}
} // namespace

QString roleName(Role role)
{
    switch (role) {
    case Role::System: return QStringLiteral("system");
    case Role::User: return QStringLiteral("user");
    case Role::Assistant: return QStringLiteral("assistant");
    case Role::Tool: return QStringLiteral("tool");
    }
    return QStringLiteral("user");
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
    qint64 n = utf8Bytes(content) + utf8Bytes(toolCallId);
    for (const ToolCall &call : toolCalls)
        n += utf8Bytes(call.id) + utf8Bytes(call.name) + utf8Bytes(call.arguments);
    return n;
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
