#pragma once

#include <QJsonObject>
#include <QString>

#include <array>

namespace wl {

// The five structured anchors of a compaction summary (docs/COMPACTION.md section 5), in fixed order.
enum class AnchorKind { UserIntent = 0, ExecutionProgress, KeyDecision, TriedSolution, NextStep };
inline constexpr int kAnchorCount = 5;
inline constexpr std::array<AnchorKind, kAnchorCount> kAllAnchorKinds{
    AnchorKind::UserIntent, AnchorKind::ExecutionProgress, AnchorKind::KeyDecision,
    AnchorKind::TriedSolution, AnchorKind::NextStep};

QString anchorKey(AnchorKind kind);     // "user_intent", "execution_progress", "key_decision", "tried_solution", "next_step"
QString anchorHeader(AnchorKind kind);  // "User Intent", "Execution Progress", "Key Decisions", "Tried Solutions", "Next Steps"

// How one anchor changed in a merge: New (old was unknown, new is real),
// Updated (both real, text differs), Unchanged (same text), Kept (new was unknown, old kept).
enum class AnchorChange { New, Updated, Unchanged, Kept };
QString anchorChangeName(AnchorChange change);  // "new", "updated", "unchanged", "kept"
bool anchorChangeFromName(QStringView name, AnchorChange *change); // inverse of anchorChangeName

struct Anchors
{
    std::array<QString, kAnchorCount> values{QStringLiteral("N/A"), QStringLiteral("N/A"), QStringLiteral("N/A"),
                                             QStringLiteral("N/A"), QStringLiteral("N/A")};

    const QString &value(AnchorKind kind) const { return values[size_t(kind)]; }
    void setValue(AnchorKind kind, const QString &text) { values[size_t(kind)] = text; }

    QJsonObject toJson() const;                        // {"user_intent": "...", ...}
    static Anchors fromJson(const QJsonObject &object); // missing keys read as "N/A"

    friend bool operator==(const Anchors &, const Anchors &) = default;
};

struct AnchorMerge
{
    Anchors anchors;
    std::array<AnchorChange, kAnchorCount> changes{};
};

struct ParsedSummary
{
    Anchors anchors;
    QString summary;   // everything after "## Summary", trimmed
    bool structured = false; // true when at least one known "### " header or "## Summary" was found
};

// Empty, N/A, NA, n/a, none, unknown, "-" after trimming, a leading list marker and surrounding punctuation.
// A multi-line value is unknown when every one of its lines is.
bool isUnknownAnchorValue(const QString &value);

ParsedSummary parseAnchorsAndSummary(const QString &text);
// A new value replaces the old one unless it is unknown, or (User Intent only) a bare follow-up such
// as "continue" or "go ahead" while the old intent is known: then the old value is kept.
AnchorMerge mergeAnchors(const Anchors &old, const Anchors &incoming);

// "## Anchors\n### User Intent\n<value>\n..." (five sections, fixed order). A value line that
// starts with "##" is written with a leading backslash so it cannot be read back as a heading.
QString formatAnchors(const Anchors &anchors);
// The UTF-8 size of formatAnchors(anchors), without making it.
qint64 formattedAnchorsBytes(const Anchors &anchors);

} // namespace wl
