#pragma once

#include "ToolCall.h"

#include <QDateTime>
#include <QList>
#include <QString>

namespace wl {

enum class Role { System, User, Assistant, Tool };

QString roleName(Role role);
// Accepts the API spellings ("system", "user", "assistant", "tool"); false for anything else.
bool roleFromName(QStringView name, Role *role);

// One message of a conversation (docs/COMPACTION.md section 1). The content is kept as the
// text the model saw or wrote; store-side metadata rides along.
struct Message
{
    Role role = Role::User;
    QString content;
    QList<ToolCall> toolCalls;  // assistant only
    QString toolCallId;         // non-empty: this message is the result of that call
    bool isError = false;       // tool results only
    // Cached line count of a tool result's content (lineCount()); -1 means "not computed".
    // Sits in the padding after isError, so it costs no space.
    qint32 cachedLines = -1;

    // Store-side metadata.
    qint64 id = 0;              // row id, 0 while not stored
    QString sessionId;
    QDateTime createdAt;
    qint64 origin = 0;          // the request that produced it, 0 for none

    // Cached UTF-8 byte count used by the token estimate; -1 means "not computed".
    qint64 cachedBytes = -1;

    bool isToolResult() const { return !toolCallId.isEmpty(); }
    bool hasToolCalls() const { return !toolCalls.isEmpty(); }

    // UTF-8 bytes of content, call ids, names, arguments and tool_call_id (docs/COMPACTION.md section 2).
    qint64 byteCount() const { return cachedBytes >= 0 ? cachedBytes : computeBytes(); }
    qint64 computeBytes() const;
    // The content's lines, as offload placeholders give them.
    int contentLines() const;
    // Fills the caches read on every compaction: the byte count and, for a tool result (the only
    // kind that is ever offloaded), the line count. Whoever changes content afterwards resets both.
    void cacheBytes();

    // Content equality, ignoring store metadata and the caches.
    bool sameContent(const Message &other) const;

    static Message system(const QString &text);
    static Message user(const QString &text);
    static Message assistant(const QString &text, const QList<ToolCall> &calls = {});
    static Message toolResult(const QString &callId, const QString &text, bool isError = false);
};

} // namespace wl
