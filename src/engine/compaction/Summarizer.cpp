#include "Summarizer.h"

#include "Anchors.h"
#include "Checkpoint.h"
#include "model/Message.h"

#include <algorithm>
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

namespace {

// The role label of a message that is not a tool result.
QStringView roleLabel(Role role)
{
    switch (role) {
    case Role::System: return u"system";
    case Role::User: return u"user";
    case Role::Assistant: return u"assistant";
    case Role::Tool: return u"tool";
    }
    return u"user";
}

// Counts the UTF-16 units a piece of writing code writes, so the text is allocated once.
class LengthCounter
{
public:
    void put(QStringView piece) { m_length += piece.size(); }
    void put(char16_t) { ++m_length; }
    qsizetype length() const { return m_length; }

private:
    qsizetype m_length = 0;
};

// Copies pieces into a string sized exactly by a LengthCounter pass; no zero-filling, no growth.
class ExactWriter
{
public:
    explicit ExactWriter(qsizetype length)
        : m_text(length, Qt::Uninitialized)
        , m_out(reinterpret_cast<char16_t *>(m_text.data()))
    {
    }
    void put(QStringView piece)
    {
        m_out = std::copy_n(piece.utf16(), piece.size(), m_out);
    }
    void put(char16_t unit) { *m_out++ = unit; }
    QString take()
    {
        Q_ASSERT(m_out == reinterpret_cast<const char16_t *>(m_text.constData()) + m_text.size());
        return std::move(m_text);
    }

private:
    QString m_text;
    char16_t *m_out;
};

template<typename Sink>
void writeConversation(Sink &out, const QList<const Message *> &messages)
{
    for (const Message *message : messages) {
        const Message &m = *message;
        if (m.isToolResult()) {
            out.put(u"[tool_result ");
            out.put(m.toolCallId);
        } else {
            out.put(u'[');
            out.put(roleLabel(m.role));
        }
        out.put(u"]: ");
        out.put(m.content);
        out.put(u'\n');
        for (const ToolCall &call : m.toolCalls) {
            out.put(u"[tool_call ");
            out.put(call.name);
            out.put(u'(');
            out.put(call.id);
            out.put(u")]: ");
            out.put(call.arguments);
            out.put(u'\n');
        }
    }
}

constexpr QStringView kFirstIntro = u"Compact the conversation below. Answer with exactly this structure:\n\n";
constexpr QStringView kMergeIntro =
    u"An earlier part of this conversation was already compacted into the result below.\n\n"
    "<previous-compaction>\n";
constexpr QStringView kMergeSummary = u"\n## Summary\n";
constexpr QStringView kMergeOutro =
    u"\n</previous-compaction>\n\n"
    "Merge it with the newer conversation that follows: keep what is still true, update what "
    "changed, and answer with the same structure:\n\n";
constexpr QStringView kShape =
    u"## Anchors\n"
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
    "offloaded file references exactly>\n";
constexpr QStringView kConversationOpen = u"\nWrite N/A under a header when there is nothing to say.\n\n<conversation>\n";
constexpr QStringView kConversationClose = u"</conversation>\n";

template<typename Sink>
void writeUserPrompt(Sink &out, const QList<const Message *> &messages, const Checkpoint *previous,
                     const QString &anchors)
{
    if (previous) {
        out.put(kMergeIntro);
        out.put(anchors);
        out.put(kMergeSummary);
        out.put(previous->summary);
        out.put(kMergeOutro);
    } else {
        out.put(kFirstIntro);
    }
    out.put(kShape);
    out.put(kConversationOpen);
    writeConversation(out, messages);
    out.put(kConversationClose);
}

} // namespace

// The prompt of a Full compaction holds the whole head (megabytes): it is measured first and
// then copied once into a string of exactly that size.
QString Summarizer::renderConversation(const QList<const Message *> &messages)
{
    LengthCounter length;
    writeConversation(length, messages);
    ExactWriter out(length.length());
    writeConversation(out, messages);
    return out.take();
}

QString Summarizer::userPrompt(const QList<const Message *> &messages, const Checkpoint *previous)
{
    const QString anchors = previous ? formatAnchors(previous->anchors) : QString();
    LengthCounter length;
    writeUserPrompt(length, messages, previous, anchors);
    ExactWriter out(length.length());
    writeUserPrompt(out, messages, previous, anchors);
    return out.take();
}

} // namespace wl
