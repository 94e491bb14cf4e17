#include "tools/UnifiedDiff.h"

#include <QCoreApplication>
#include <QList>
#include <QStringView>

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace wl::UnifiedDiff {

namespace {

// Lines keep their terminator; the last one may have none.
QList<QStringView> splitLines(const QString &text)
{
    QList<QStringView> lines;
    qsizetype start = 0;
    while (start < text.size()) {
        const qsizetype newline = text.indexOf(u'\n', start);
        const qsizetype end = newline < 0 ? text.size() : newline + 1;
        lines.append(QStringView(text).mid(start, end - start));
        start = end;
    }
    return lines;
}

enum class Op { Equal, Delete, Insert };
struct Edit
{
    Op op;
    qsizetype oldIndex;
    qsizetype newIndex;
};

// Myers' O((N+M)D) greedy algorithm on the lines between the common prefix and suffix.
// Returns false when the edit distance exceeds `limit`.
bool myers(const QList<QStringView> &a, qsizetype aBegin, qsizetype aEnd, const QList<QStringView> &b,
           qsizetype bBegin, qsizetype bEnd, int limit, std::vector<Edit> &script)
{
    const qsizetype n = aEnd - aBegin;
    const qsizetype m = bEnd - bBegin;
    const qsizetype maxD = std::min<qsizetype>(n + m, limit);
    const qsizetype offset = maxD + 1;
    std::vector<qsizetype> v(size_t(2 * offset + 1), 0);
    std::vector<std::vector<qsizetype>> trace;  // v[-d..d] after each step d
    bool found = false;
    for (qsizetype d = 0; d <= maxD && !found; ++d) {
        for (qsizetype k = -d; k <= d; k += 2) {
            qsizetype x;
            if (k == -d || (k != d && v[size_t(offset + k - 1)] < v[size_t(offset + k + 1)]))
                x = v[size_t(offset + k + 1)];
            else
                x = v[size_t(offset + k - 1)] + 1;
            qsizetype y = x - k;
            while (x < n && y < m && a[aBegin + x] == b[bBegin + y]) {
                ++x;
                ++y;
            }
            v[size_t(offset + k)] = x;
            if (x >= n && y >= m)
                found = true;
        }
        trace.emplace_back(v.begin() + (offset - d), v.begin() + (offset + d + 1));
    }
    if (!found)
        return false;

    // Walk back through the trace.
    std::vector<Edit> reversed;
    qsizetype x = n;
    qsizetype y = m;
    for (qsizetype d = qsizetype(trace.size()) - 1; d > 0; --d) {
        const std::vector<qsizetype> &previous = trace[size_t(d - 1)];
        auto at = [&](qsizetype k) { return previous[size_t(k + (d - 1))]; };
        const qsizetype k = x - y;
        const bool down = (k == -d || (k != d && at(k - 1) < at(k + 1)));
        const qsizetype previousK = down ? k + 1 : k - 1;
        const qsizetype previousX = at(previousK);
        const qsizetype previousY = previousX - previousK;
        while (x > previousX && y > previousY) {
            --x;
            --y;
            reversed.push_back({Op::Equal, aBegin + x, bBegin + y});
        }
        if (down) {
            --y;
            reversed.push_back({Op::Insert, aBegin + x, bBegin + y});
        } else {
            --x;
            reversed.push_back({Op::Delete, aBegin + x, bBegin + y});
        }
    }
    while (x > 0 && y > 0) {
        --x;
        --y;
        reversed.push_back({Op::Equal, aBegin + x, bBegin + y});
    }
    script.insert(script.end(), reversed.rbegin(), reversed.rend());
    return true;
}

void appendLine(QString &out, QChar marker, QStringView line)
{
    out += marker;
    out += line;
    if (!line.endsWith(u'\n'))
        out += u"\n\\ No newline at end of file\n"_s;
}

QString range(qsizetype start, qsizetype count)
{
    // Unified format: a hunk with no lines names the line before it.
    if (count == 0)
        return QString::number(start) + u",0"_s;
    if (count == 1)
        return QString::number(start + 1);
    return QString::number(start + 1) + u',' + QString::number(count);
}

} // namespace

QString diff(const QString &oldText, const QString &newText, const QString &oldLabel, const QString &newLabel,
             const Options &options)
{
    if (oldText == newText)
        return {};
    const QList<QStringView> a = splitLines(oldText);
    const QList<QStringView> b = splitLines(newText);

    qsizetype prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
        ++prefix;
    qsizetype suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix
           && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;

    std::vector<Edit> script;
    script.reserve(size_t(a.size() + b.size()));
    for (qsizetype i = 0; i < prefix; ++i)
        script.push_back({Op::Equal, i, i});
    if (!myers(a, prefix, a.size() - suffix, b, prefix, b.size() - suffix, options.maxEditDistance, script)) {
        for (qsizetype i = prefix; i < a.size() - suffix; ++i)
            script.push_back({Op::Delete, i, prefix});
        for (qsizetype j = prefix; j < b.size() - suffix; ++j)
            script.push_back({Op::Insert, a.size() - suffix, j});
    }
    for (qsizetype i = 0; i < suffix; ++i)
        script.push_back({Op::Equal, a.size() - suffix + i, b.size() - suffix + i});

    QString out = u"--- "_s + oldLabel + u"\n+++ "_s + newLabel + u'\n';
    const qsizetype total = qsizetype(script.size());
    qsizetype i = 0;
    while (i < total) {
        while (i < total && script[size_t(i)].op == Op::Equal)
            ++i;
        if (i >= total)
            break;
        // A hunk: from `context` lines before this change to `context` lines after the
        // last change that is no more than 2 * context equal lines further on.
        const qsizetype hunkStart = std::max<qsizetype>(0, i - options.context);
        qsizetype end = i;
        qsizetype lastChange = i;
        while (end < total) {
            if (script[size_t(end)].op != Op::Equal) {
                lastChange = end;
            } else if (end - lastChange > 2 * options.context) {
                break;
            }
            ++end;
        }
        const qsizetype hunkEnd = std::min<qsizetype>(total, lastChange + 1 + options.context);
        qsizetype oldCount = 0;
        qsizetype newCount = 0;
        for (qsizetype j = hunkStart; j < hunkEnd; ++j) {
            if (script[size_t(j)].op != Op::Insert)
                ++oldCount;
            if (script[size_t(j)].op != Op::Delete)
                ++newCount;
        }
        const Edit &first = script[size_t(hunkStart)];
        out += u"@@ -"_s + range(first.oldIndex, oldCount) + u" +"_s + range(first.newIndex, newCount) + u" @@\n"_s;
        for (qsizetype j = hunkStart; j < hunkEnd; ++j) {
            const Edit &edit = script[size_t(j)];
            switch (edit.op) {
            case Op::Equal:
                appendLine(out, u' ', a[edit.oldIndex]);
                break;
            case Op::Delete:
                appendLine(out, u'-', a[edit.oldIndex]);
                break;
            case Op::Insert:
                appendLine(out, u'+', b[edit.newIndex]);
                break;
            }
        }
        if (out.size() > options.maxBytes) {
            out.truncate(options.maxBytes);
            out += u'\n' + u"[diff cut at %1 characters]"_s.arg(options.maxBytes) + u'\n';
            return out;
        }
        i = hunkEnd;
    }
    return out;
}

} // namespace wl::UnifiedDiff
