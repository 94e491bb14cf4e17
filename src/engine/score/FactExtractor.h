#pragma once

#include "Fact.h"

#include <QList>
#include <QSet>
#include <QString>
#include <QStringView>

namespace wl {

struct Message;

// Reads the facts of a session's history, deterministically and without a model (issue 21):
//   - instructions: sentences of user messages with an imperative or constraint word (English and
//     Chinese: must, never, don't, always, please, make sure, 不要, 必须, 请, 务必, 别, 一定 ...),
//     and short user messages whole;
//   - artifacts: every path a read, write or edit call names, with the operation;
//   - outcomes: each command run with its exit status, and the error lines of failed results;
//   - identifiers: names, numbers, hashes, URLs, paths and quoted strings that first appear in a
//     tool result or a user message and appear again in a later message.
// One fact per key, at the message it first appears in.
namespace FactExtractor {

QList<Fact> extract(const QList<Message> &history);

// The identifier-shaped tokens of `text` (what the identifier facts and instruction terms are
// made of, and what a use is matched by). `withShortForms`: each path also gives the paths it ends
// with ("b/c.go" and "c.go" of "a/b/c.go"), as a text naming it names them too.
QStringList tokens(QStringView text, bool withShortForms = false);

// The sentences of a user message that are instructions (see above).
QStringList instructions(const QString &text);

// The text of a message that facts and uses are read from: content, plus the arguments of its calls.
QString searchableText(const Message &message);

} // namespace FactExtractor

} // namespace wl
