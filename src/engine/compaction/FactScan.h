#pragma once

#include <QStringView>

#include <functional>

class QRegularExpression;

namespace wl {

// The regular expressions the extractive summariser reads facts with, and cheap hand-written scans
// that prove a text holds no match before PCRE is asked. Each scan is a necessary condition: where
// it says "maybe", the plain expression decides, so results are those of the expression alone.
namespace FactScan {

// A line saying something went wrong: "Error:", "FAILED", "exit code 2", "command not found"...
const QRegularExpression &failureExpression();
// A statement of choice: "I'll use", "instead of", "decided", "改用"...
const QRegularExpression &choiceExpression();
// A user instruction that constrains the work: "must", "never", "always", "don't", "不要", "必须"...
const QRegularExpression &constraintExpression();
// An assistant sentence saying what it does next: "Next, I will", "Now let me", "接下来"...
const QRegularExpression &intentionExpression();
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

// A match of fieldExpression(): its key (capture 1), and for a string its still escaped text
// (capture 2); [start, end) is the whole match.
struct Field
{
    QStringView key;
    QStringView value;
    bool isString = false; // false: an argv array, "[" follows the colon
    qsizetype start = 0;
    qsizetype end = 0;
};

// Calls `found` with each match of fieldExpression().globalMatchView(text), in order, read by
// hand (the expression itself only for text with a lone surrogate, which PCRE refuses).
void forEachField(QStringView text, const std::function<void(const Field &)> &found);

// False only when patchFileExpression() cannot match anywhere in `text`.
bool mayNamePatchedFile(QStringView text);
// False only when choiceExpression() cannot match anywhere in `text`.
bool mayHoldChoice(QStringView text);
// False only when planHeaderExpression() (resp. todoExpression()) cannot match the trimmed line.
bool mayBePlanHeader(QStringView line);
bool mayBeTodo(QStringView line);

} // namespace FactScan

} // namespace wl
