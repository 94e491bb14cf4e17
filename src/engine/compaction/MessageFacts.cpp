#include "MessageFacts.h"

namespace wl {

namespace {

// Two strings that share their data: the same text, checked without reading it.
bool sameData(const QString &a, const QString &b)
{
    return a.size() == b.size() && a.constData() == b.constData();
}

} // namespace

MessageFacts::MessageFacts(const Message &m)
    : content(m.content)
    , role(m.role)
    , isError(m.isError)
{
    for (const ToolCall &call : m.toolCalls) {
        arguments << call.arguments;
        names << call.name;
        argumentsValid << call.argumentsValid;
    }
}

bool MessageFacts::isFactsOf(const Message &m) const
{
    if (role != m.role || isError != m.isError || !sameData(content, m.content) || arguments.size() != m.toolCalls.size())
        return false;
    for (qsizetype k = 0; k < arguments.size(); ++k) {
        const ToolCall &call = m.toolCalls.at(k);
        if (!sameData(arguments.at(k), call.arguments) || names.at(k) != call.name || argumentsValid.at(k) != call.argumentsValid)
            return false;
    }
    return true;
}

bool MessageFacts::isEqualTo(const Message &m) const
{
    if (role != m.role || isError != m.isError || content != m.content || arguments.size() != m.toolCalls.size())
        return false;
    for (qsizetype k = 0; k < arguments.size(); ++k) {
        const ToolCall &call = m.toolCalls.at(k);
        if (arguments.at(k) != call.arguments || names.at(k) != call.name || argumentsValid.at(k) != call.argumentsValid)
            return false;
    }
    return true;
}

} // namespace wl
