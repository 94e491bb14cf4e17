#pragma once

#include "Anchors.h"

#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

namespace wl {

// What happened to one anchor item (a line of an anchor: a decision, a file, a next step) in one
// compaction. Absent: not there (before it was added, or after it was dropped).
enum class ItemFate { Absent, Added, Kept, Reworded, Dropped };
QString itemFateName(ItemFate fate); // "absent", "added", "kept", "reworded", "dropped"

// One compaction that wrote anchors, in time order: the anchors after its merge and the history
// messages its checkpoint stands for (ids; 0 when unknown).
struct LineageStep
{
    QString recordId;
    int requestIndex = 0;
    Anchors anchors;
    qint64 coversFromMessageId = 0;
    qint64 coversUpToMessageId = 0;
};

// One item followed through the compactions. `fates` and `texts` have one entry per step; `texts`
// holds the item's wording at that step (empty where it is Absent or Dropped).
struct LineageItem
{
    AnchorKind kind = AnchorKind::UserIntent;
    QList<ItemFate> fates;
    QStringList texts;
    int addedAt = -1;            // the step that added it
    int droppedAt = -1;          // the step that dropped it, -1 while it is still there
    qint64 sourceMessageId = 0;  // the history message it came from, 0 when not derivable

    // The last wording it had (the one it was dropped with, for a dropped item).
    QString latestText() const;
    int rewordCount() const;
    bool isDropped() const { return droppedAt >= 0; }

    friend bool operator==(const LineageItem &, const LineageItem &) = default;
};

// How items are cut and matched (the rules are the documentation; tests pin them):
//  - Items: the non-empty lines of an anchor value, with a leading list marker ("- ", "* ", "\u2022 ",
//    "1. ", "1) ") removed; lines that say nothing (isUnknownAnchorValue: N/A, none, "-") are not items.
//    At most kMaxItemsPerAnchor per anchor (a hostile summary cannot make the matching quadratic
//    in its size), each cut to kMaxItemChars.
//  - Tokens: runs of letters, digits, marks and "_", joined across "/", ".", "-" and "\" between two
//    such characters (so "src/api/server.go" and "spotter-gqc" are one token), case-folded; a path
//    also gives its last component ("server.go"). Each Han, Hiragana or Katakana character is a
//    token of its own (those scripts put no spaces between words). A short list of English filler
//    words (the, a, and, to, of...) is left out.
//  - Kept: same text once whitespace is collapsed and case folded.
//  - Reworded: not kept, and the token-set Jaccard similarity |A and B| / |A or B| is at least
//    kRewordSimilarity. Pairs are taken greedily, most similar first (earlier items on ties), each
//    old and new item in at most one pair. Any other new item is Added; any old one left is Dropped.
//    A dropped item that comes back later is a new item.
namespace lineage {
inline constexpr double kRewordSimilarity = 0.6;
inline constexpr qsizetype kMaxItemsPerAnchor = 200;
inline constexpr qsizetype kMaxItemChars = 2000;

QStringList splitItems(const QString &anchorValue);
QSet<QString> tokens(QStringView text);
double similarity(const QString &a, const QString &b);
// A token that names a file: "server.go", "CMakeLists.txt" (an extension of one to eight letters or
// digits, one a letter; not "1.5").
bool isFileName(const QString &token);
// A token with a path separator ("src/api").
bool isPath(const QString &token);
} // namespace lineage

// Follows every item of every anchor through `steps`. Items in the order they were first seen,
// anchor by anchor within a step.
QList<LineageItem> traceAnchorLineage(const QList<LineageStep> &steps);


} // namespace wl
