#pragma once

#include <QtGlobal>

#include <functional>

class QRegularExpression;
class QRegularExpressionMatch;
class QStringView;

namespace wl {

// The regular expressions the extractive summariser reads facts with, and cheap hand-written scans
// that prove a text holds no match before PCRE is asked. Each scan is a necessary condition: where
// it says "maybe", the plain expression decides, so results are those of the expression alone.
namespace FactScan {

// A line saying something went wrong: "Error:", "FAILED", "exit code 2", "command not found"...
const QRegularExpression &failureExpression();
// A statement of choice: "I'll use", "instead of", "decided", "改用"...
const QRegularExpression &choiceExpression();
// A line that heads a plan ("Next steps:") and one that is a plan item ("- [ ] x", "1. x", "TODO").
const QRegularExpression &planHeaderExpression();
const QRegularExpression &todoExpression();
// A string field of tool-call arguments naming a path or a command, or the start of an argv array.
const QRegularExpression &fieldExpression();
// A file named in a patch: "*** Update File: x", "+++ b/x".
const QRegularExpression &patchFileExpression();

// The first match of failureExpression() in `text`, as failureExpression().matchView(text) finds
// it: [start, end), or start -1 for none. PCRE only runs where a match can start.
struct Span
{
    qsizetype start = -1;
    qsizetype end = -1;
};
Span firstFailure(QStringView text);

// The first position at or after `from` where a match of failureExpression() can start, -1 for
// none; `*resume` gets where to look next if no match starts there.
qsizetype nextFailureCandidate(QStringView text, qsizetype from, qsizetype *resume);

// Calls `found` with each match of fieldExpression() in `text`, in order: the matches of
// fieldExpression().globalMatchView(text), searched for from each quoted key on.
void forEachField(QStringView text, const std::function<void(const QRegularExpressionMatch &)> &found);

// False only when patchFileExpression() cannot match anywhere in `text`.
bool mayNamePatchedFile(QStringView text);
// False only when choiceExpression() cannot match anywhere in `text`.
bool mayHoldChoice(QStringView text);
// False only when planHeaderExpression() (resp. todoExpression()) cannot match the trimmed line.
bool mayBePlanHeader(QStringView line);
bool mayBeTodo(QStringView line);

} // namespace FactScan

} // namespace wl
