#pragma once

#include "CallFacts.h"
#include "MessageScan.h"
#include "model/Message.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace wl {

// The facts of one message, each computed the first time it is asked for (FactsLookup does), and
// what is needed to tell whether a message is the one they were taken from.
struct MessageFacts
{
    // The message they were taken from (its text is kept, so its data cannot be reused for another).
    QString content;
    QStringList arguments;
    QStringList names;
    QList<bool> argumentsValid;
    Role role = Role::User;
    bool isError = false;

    std::optional<QList<CallFacts>> calls;
    std::array<std::optional<MessageScan::ResultFacts>, 3> results; // by ToolKind::Shell, Edit, anything else
    std::optional<QStringList> decisions;
    std::optional<QStringList> plans;
    std::optional<QStringList> intentions;
    std::optional<QString> firstSentence;
    QHash<qsizetype, QString> headLines; // by length

    // Other versions of the message seen under the same id: the offload placeholders views show
    // in its place (made afresh by every what-if replay, so recognised by value, not by data).
    // Held by pointer so that an entry never moves once handed out.
    std::vector<std::unique_ptr<MessageFacts>> variants;

    explicit MessageFacts(const Message &m);

    // `m` is the message the facts were taken from: the same text, checked without reading it.
    bool isFactsOf(const Message &m) const;
    // The same text read character by character: for small variants only (see ExtractiveFacts).
    bool isEqualTo(const Message &m) const;
};

} // namespace wl
