#pragma once

// Builders for the store tests: a step with every kind of row, every field set.
#include "store/StepAppend.h"
#include "store/SessionStore.h"

#include <QDateTime>
#include <QString>
#include <QTimeZone>

namespace wl::test {

inline QDateTime fixedTime(int second)
{
    return QDateTime(QDate(2026, 3, 14), QTime(15, 9, 26, 535), QTimeZone::UTC).addSecs(second);
}

inline CompactionRecord sampleRecord(const QString &id, int requestIndex)
{
    CompactionRecord r;
    r.id = id;
    r.requestIndex = requestIndex;
    r.timestamp = fixedTime(requestIndex);
    r.tier = Tier::Soft;
    r.reason.ratio = 0.72;
    r.reason.estimateTokens = 92000;
    r.reason.toolSchemaTokens = 1200;
    r.reason.reservedOutput = 0;
    r.reason.contextWindow = 128000;
    r.reason.warn = 0.6;
    r.reason.soft = 0.7;
    r.reason.full = 0.8;
    r.reason.emergency = 0.95;
    r.tokensBefore = 93200;
    r.tokensAfter = 41000;
    r.msgsBefore = 120;
    r.msgsAfter = 14;
    r.anchors.setValue(AnchorKind::UserIntent, QStringLiteral("Port the parser to C++ — 解析器"));
    r.anchors.setValue(AnchorKind::NextStep, QStringLiteral("Run the tests"));
    r.anchorChanges = {AnchorChange::New, AnchorChange::Kept, AnchorChange::Unchanged, AnchorChange::Kept,
                       AnchorChange::Updated};
    r.summarized = 106;
    r.preservedTail = 6;
    r.summaryText = QStringLiteral("Summary with ünïcödé and a newline\nsecond line");
    r.summarizerStep = SummarizerStep::Configured;
    r.summarizerModel = QStringLiteral("qwen2.5-coder:7b");
    r.compressionRatio = 41000.0 / 93200.0;
    r.durationMs = 1834;
    r.changed = true;
    return r;
}

} // namespace wl::test
