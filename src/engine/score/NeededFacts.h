#pragma once

#include "Fact.h"

#include <QList>

namespace wl {

struct Message;

// For each request of a recorded session, the facts established before it that the agent's answer
// to it used (issue 21): a fact is used when its key (or, for an instruction, one of its terms)
// appears in the assistant's text or in the arguments of one of its tool calls. In a recorded
// session this is what the agent needed at that moment.
namespace NeededFacts {

// The answer to request r: the assistant messages from requestEnds[r] up to the next request's
// end (or the next user message). Returns, per request, fact indexes in ascending order.
QList<QList<int>> compute(const QList<Message> &history, const QList<Fact> &facts, const QList<qsizetype> &requestEnds);

// The history indexes of the messages that answer request r.
QList<qsizetype> answerMessages(const QList<Message> &history, const QList<qsizetype> &requestEnds, qsizetype r);

} // namespace NeededFacts

} // namespace wl
