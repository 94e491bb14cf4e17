#include "Summarizer.h"

#include "Anchors.h"
#include "Checkpoint.h"
#include "model/Message.h"

#include <atomic>

using namespace Qt::StringLiterals;

namespace wl {

Summarizer::Summarizer(QObject *parent)
    : QObject(parent)
{
}

Summarizer::~Summarizer() = default;

quint64 Summarizer::nextRequestId()
{
    static std::atomic<quint64> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

QString Summarizer::systemInstruction()
{
    return u"You are a context compaction engine for a long-running software agent. "
           "You read a conversation between a user, an assistant and its tools, and you write the "
           "structured result that replaces it in the assistant's context, so that the work can go on "
           "from your result alone. Output only the structured result: no preamble, no closing remarks."_s;
}

QString Summarizer::renderConversation(const QList<const Message *> &messages)
{
    QString out;
    qsizetype size = 0;
    for (const Message *m : messages)
        size += m->content.size() + 24;
    out.reserve(size);
    for (const Message *message : messages) {
        const Message &m = *message;
        if (m.isToolResult())
            out += u"[tool_result "_s + m.toolCallId + u"]: "_s + m.content + u'\n';
        else
            out += u'[' + roleName(m.role) + u"]: "_s + m.content + u'\n';
        for (const ToolCall &call : m.toolCalls)
            out += u"[tool_call "_s + call.name + u'(' + call.id + u")]: "_s + call.arguments + u'\n';
    }
    return out;
}

static QString shapeText()
{
    return u"## Anchors\n"
           "### User Intent\n"
           "<what the user asked for, including later corrections>\n"
           "### Execution Progress\n"
           "<what has been done: files written or edited, commands that succeeded>\n"
           "### Key Decisions\n"
           "<choices made and why>\n"
           "### Tried Solutions\n"
           "<what failed and what followed, so it is not tried again>\n"
           "### Next Steps\n"
           "<what remains to be done>\n"
           "## Summary\n"
           "<a concise prose summary: files, commands, results, open questions; keep paths and "
           "offloaded file references exactly>\n"_s;
}

QString Summarizer::userPrompt(const QList<const Message *> &messages, const Checkpoint *previous)
{
    QString out;
    if (previous) {
        out += u"An earlier part of this conversation was already compacted into the result below.\n\n"
               "<previous-compaction>\n"_s
            + formatAnchors(previous->anchors) + u"\n## Summary\n"_s + previous->summary
            + u"\n</previous-compaction>\n\n"
              "Merge it with the newer conversation that follows: keep what is still true, update what "
              "changed, and answer with the same structure:\n\n"_s;
    } else {
        out += u"Compact the conversation below. Answer with exactly this structure:\n\n"_s;
    }
    out += shapeText();
    out += u"\nWrite N/A under a header when there is nothing to say.\n\n<conversation>\n"_s;
    out += renderConversation(messages);
    out += u"</conversation>\n"_s;
    return out;
}

} // namespace wl
