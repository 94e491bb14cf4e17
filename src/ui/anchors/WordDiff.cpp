#include "WordDiff.h"

#include <QStringList>

#include <vector>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// Words and the whitespace runs between them, so the diff keeps the layout.
QStringList tokens(const QString &text)
{
    QStringList out;
    qsizetype start = 0;
    for (qsizetype i = 1; i <= text.size(); ++i) {
        if (i == text.size() || text.at(i).isSpace() != text.at(start).isSpace()) {
            out.append(text.mid(start, i - start));
            start = i;
        }
    }
    return out;
}

void push(QList<DiffSegment> &out, DiffSegment::Kind kind, const QString &text)
{
    if (!out.isEmpty() && out.last().kind == kind)
        out.last().text += text;
    else
        out.append({kind, text});
}

// Past this many token pairs the quadratic table costs more than the diff is worth.
constexpr qsizetype kMaxCells = 4'000'000;

} // namespace

QList<DiffSegment> wordDiff(const QString &before, const QString &after)
{
    const QStringList a = tokens(before);
    const QStringList b = tokens(after);
    QList<DiffSegment> out;

    // Common prefix and suffix first: most anchor updates change a little.
    qsizetype prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a.at(prefix) == b.at(prefix))
        ++prefix;
    qsizetype suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix
           && a.at(a.size() - 1 - suffix) == b.at(b.size() - 1 - suffix))
        ++suffix;
    for (qsizetype i = 0; i < prefix; ++i)
        push(out, DiffSegment::Equal, a.at(i));

    const qsizetype n = a.size() - prefix - suffix;
    const qsizetype m = b.size() - prefix - suffix;
    if (n * m > kMaxCells) {
        for (qsizetype i = 0; i < n; ++i)
            push(out, DiffSegment::Removed, a.at(prefix + i));
        for (qsizetype j = 0; j < m; ++j)
            push(out, DiffSegment::Inserted, b.at(prefix + j));
    } else {
        // lcs[i][j]: length of the LCS of a[i..] and b[j..] (middle part only).
        std::vector<int> lcs(size_t((n + 1) * (m + 1)), 0);
        auto at = [&](qsizetype i, qsizetype j) -> int & { return lcs[size_t(i * (m + 1) + j)]; };
        for (qsizetype i = n - 1; i >= 0; --i)
            for (qsizetype j = m - 1; j >= 0; --j)
                at(i, j) = a.at(prefix + i) == b.at(prefix + j) ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
        qsizetype i = 0, j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a.at(prefix + i) == b.at(prefix + j)) {
                push(out, DiffSegment::Equal, a.at(prefix + i));
                ++i, ++j;
            } else if (j < m && (i == n || at(i, j + 1) >= at(i + 1, j))) {
                push(out, DiffSegment::Inserted, b.at(prefix + j));
                ++j;
            } else {
                push(out, DiffSegment::Removed, a.at(prefix + i));
                ++i;
            }
        }
    }
    for (qsizetype i = a.size() - suffix; i < a.size(); ++i)
        push(out, DiffSegment::Equal, a.at(i));
    return out;
}

QString diffToHtml(const QList<DiffSegment> &segments)
{
    QString html = u"<div style=\"white-space: pre-wrap;\">"_s;
    for (const DiffSegment &s : segments) {
        const QString text = s.text.toHtmlEscaped();
        switch (s.kind) {
        case DiffSegment::Equal: html += text; break;
        case DiffSegment::Removed: html += u"<s style=\"background-color:#fed7d7;color:#742a2a;\">"_s + text + u"</s>"_s; break;
        case DiffSegment::Inserted: html += u"<span style=\"background-color:#c6f6d5;color:#22543d;\">"_s + text + u"</span>"_s; break;
        }
    }
    return html + u"</div>"_s;
}

} // namespace wl
