#pragma once

#include "Anchors.h"
#include "CompactionStrategy.h"
#include "OffloadStore.h"
#include "Tier.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace wl {

// The numbers that chose a tier.
struct TierReason
{
    double ratio = 0;
    qint64 estimateTokens = 0;    // messages of the view
    qint64 toolSchemaTokens = 0;
    qint64 reservedOutput = 0;
    qint64 contextWindow = 0;
    double warn = 0, soft = 0, full = 0, emergency = 0;
    bool forced = false;          // "/compact force"

    QJsonObject toJson() const;
    static TierReason fromJson(const QJsonObject &object);
    friend bool operator==(const TierReason &, const TierReason &) = default;
};

// Which step of the fallback chain produced a summary.
enum class SummarizerStep { None, Configured, MainModel, Extractive };
QString summarizerStepName(SummarizerStep step); // "none", "configured", "main_model", "extractive"
bool summarizerStepFromName(QStringView name, SummarizerStep *step);

// One preflight's outcome (docs/COMPACTION.md section 8). JSON keys are the spec's field names.
struct CompactionRecord
{
    QString id;                 // UUID without braces
    QString sessionId;
    int requestIndex = 0;
    QDateTime timestamp;        // ISO 8601 with offset in JSON
    Tier tier = Tier::None;
    // The policy's strategy when the check ran; a record written before strategies existed reads as Summarise.
    CompactionStrategy strategy = CompactionStrategy::Summarise;
    TierReason reason;
    qint64 tokensBefore = 0;
    qint64 tokensAfter = 0;
    int msgsBefore = 0;
    int msgsAfter = 0;
    Anchors anchors;
    std::array<AnchorChange, kAnchorCount> anchorChanges{};
    QList<OffloadEntry> offloaded;
    int summarized = 0;         // messages replaced by the summary
    int preservedTail = 0;
    QString summaryText;
    SummarizerStep summarizerStep = SummarizerStep::None;
    QString summarizerModel;    // model name, when an LLM produced the summary
    double compressionRatio = 1; // tokensAfter / tokensBefore
    qint64 durationMs = 0;
    QString error;              // omitted from JSON when empty
    bool changed = false;

    // How many anchors this compaction set (new or updated), not counting those it kept.
    int changedAnchorCount() const;

    QJsonObject toJson() const;
    // Tolerant: unknown keys ignored; returns false (and names the field) when a required key is wrong.
    // Required: id (non-empty), session_id, timestamp (ISO 8601), tier (a known name), tokens_before,
    // tokens_after, msgs_before, msgs_after. Any other field may be missing (default value), but not
    // present with the wrong type.
    static bool fromJson(const QJsonObject &object, CompactionRecord *record, QString *error = nullptr);

    friend bool operator==(const CompactionRecord &, const CompactionRecord &) = default;
};

} // namespace wl
