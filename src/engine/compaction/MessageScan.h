#pragma once

#include "ToolKind.h"

#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace wl {

struct Message;

// What the extractive summariser reads in one message, each fact from the message alone. Only a
// bounded part of any text is scanned: its first 4 KB and its last 1 KB (where exit codes are
// printed), so the cost of a fact does not grow with the message.
namespace MessageScan {

constexpr qsizetype kScanHead = 4096; // characters of a message (or call arguments) looked at
constexpr qsizetype kScanTail = 1024; // plus its end

// The start of `text` that is scanned, at most kScanHead characters.
QStringView head(const QString &text);
// The end of `text` that head() did not cover, at most kScanTail characters.
QStringView tail(const QString &text);

// The options to match `text` with: PCRE2 validates the whole subject on every match call (so on
// every step of a global match) unless told not to; this checks once, and lets PCRE skip its check
// only for well-formed text.
QRegularExpression::MatchOptions checkedOnce(QStringView text);

// The line of `text` that says something went wrong, trimmed, or an empty view.
QStringView failureLine(QStringView text);

// What a tool result says about its call.
struct ResultFacts
{
    bool failed = false;
    QString errorLine; // one line, at most 140 characters; empty when it did not fail
};
// The facts of result `m` of a call of `kind`. Only shell output is searched for failure words
// (a file's text mentions "Error:" without anything having failed); of an edit's result only the
// first line counts. A result marked as an error has failed whatever it says.
ResultFacts resultOf(const Message &m, ToolKind kind);

// The sentence around [at, at + matchLength) of `text` (at most 240 characters each side), as one
// line of at most 200 characters.
QString sentenceAround(QStringView text, qsizetype at, qsizetype matchLength);
// At most two statements of choice ("I'll use", "instead of"...) in `text`, as sentences.
QStringList decisionsIn(QStringView text);
// At most two user instructions that constrain the work ("never touch X", "必须..."), as sentences;
// questions do not count.
QStringList constraintsIn(QStringView text);
// At most two sentences saying what the assistant does next ("Now let me run the tests."), the
// last ones of `text`.
QStringList intentionsIn(QStringView text);
// The plan lines of `text`: items under a plan heading, to-do items; at most kMaxPlanLines.
constexpr int kMaxPlanLines = 6;
QStringList planLinesIn(QStringView text);
// The plan lines of a message: its start, then its end (plans tend to close a message).
QStringList planLinesOf(const QString &content);

// A user message that is neither a tool result nor a checkpoint.
bool isUserRequest(const Message &m);
// User-role text that agents inject (reminders, notifications, interruptions, another tool's
// compaction summary): not something the user asked for.
bool isInjectedNoise(QStringView text);

} // namespace MessageScan

} // namespace wl
