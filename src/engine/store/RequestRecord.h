#pragma once

#include "compaction/Tier.h"
#include "model/ViewIds.h"

#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

namespace wl {

// One LLM call of a session: what the view held, what we estimated, what the provider reported.
struct RequestRecord
{
    qint64 id = 0;                    // row id, 0 while not stored
    QString sessionId;
    int index = -1;                   // 0-based per session; -1: the store assigns the next one
    ViewIds viewMessageIds;           // history messages in the view, ids ascending, as runs
    qint64 viewCheckpointId = 0;      // checkpoint whose text opened the view, 0 for none
    qint64 estimateTokens = 0;        // the view's messages by the rule (bytes / 4), before an import's calibration (ReplayInput::tokenScale)
    qint64 toolSchemaTokens = 0;
    std::optional<qint64> toolSchemaBytes;  // UTF-8 bytes of the tool schemas sent (schema 5), absent when not recorded
    std::optional<qint64> inputTokens;      // provider usage, absent when not reported
    std::optional<qint64> outputTokens;
    std::optional<qint64> cacheReadTokens;
    std::optional<qint64> cacheWriteTokens;
    Tier tier = Tier::None;           // tier preflight chose for this request
    QString model;
    QDateTime startedAt;
    QDateTime finishedAt;
    QString error;                    // empty when the call succeeded

    friend bool operator==(const RequestRecord &, const RequestRecord &) = default;
};

} // namespace wl
