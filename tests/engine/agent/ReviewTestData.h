#pragma once

// What the review tests share (tst_summaryreview, tst_reviewdraft): a small window with review on,
// prompts of a chosen size, and a summariser answer that says which call wrote it.
#include "compaction/CompactionPolicy.h"

#include <QString>

namespace wl::test::review {

using namespace Qt::StringLiterals;

inline constexpr qint64 kWindow = 2000; // tokens

// The five anchors and a summary, each marked with `mark` (DRAFT, TOPUP, ...).
inline QString summaryAnswer(const QString &mark, const QString &progress = u"wrote parts"_s)
{
    return u"## Anchors\n### User Intent\n%1-INTENT fill the log\n### Execution Progress\n- %2\n"
           "### Key Decisions\n- N/A\n### Tried Solutions\n- N/A\n### Next Steps\n- %1-NEXT keep writing\n"
           "## Summary\n%1-SUMMARY the parts so far were written."_s.arg(mark, progress);
}

inline CompactionPolicy reviewPolicy()
{
    CompactionPolicy p;
    p.contextWindow = kWindow;
    p.tailMessages = 2;
    p.countToolSchemas = false;
    p.summaryTimeoutMs = 5000;
    p.reviewSummaries = true;
    return p;
}

// A prompt of `bytes` ASCII bytes that is unique per `n`.
inline QString filler(int n, qint64 bytes)
{
    QString s = u"PROMPT-%1 "_s.arg(n);
    while (s.size() < bytes)
        s += u"lorem ipsum "_s;
    return s.left(bytes);
}

} // namespace wl::test::review
