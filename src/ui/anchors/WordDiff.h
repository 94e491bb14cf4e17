#pragma once

#include <QList>
#include <QString>

namespace wl {

// A word-level diff: the old and new text cut into words and the spaces
// between them, aligned by their longest common subsequence.
struct DiffSegment
{
    enum Kind { Equal, Removed, Inserted };
    Kind kind = Equal;
    QString text;
    friend bool operator==(const DiffSegment &, const DiffSegment &) = default;
};

QList<DiffSegment> wordDiff(const QString &before, const QString &after);

// The diff as HTML: removed words struck through, inserted words highlighted.
QString diffToHtml(const QList<DiffSegment> &segments);

} // namespace wl
