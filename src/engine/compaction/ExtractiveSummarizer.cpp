#include "ExtractiveSummarizer.h"

#include "CallFacts.h"
#include "Checkpoint.h"
#include "FactsLookup.h"
#include "MessageScan.h"
#include "ShownList.h"
#include "TextCut.h"
#include "TextSink.h"
#include "model/Message.h"

#include <QHash>
#include <QVarLengthArray>

#include <algorithm>
#include <deque>
#include <vector>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

using MessageScan::isInjectedNoise;
using MessageScan::isUserRequest;
using TextCut::appendUnique;
using TextCut::bulletBlock;
using TextCut::cut;
using TextCut::cutInPlace;
using TextCut::listWithMore;
using TextCut::oneLine;
using TextCut::oneLineView;

constexpr qsizetype kIntentChars = 400;
constexpr qsizetype kLaterChars = 160;
constexpr qsizetype kShortUserMessage = 400; // longer later messages are new tasks, not corrections
constexpr int kMaxLater = 3;
constexpr int kMaxDecisions = 5;
constexpr int kMaxTried = 4;
constexpr int kMaxNextLines = MessageScan::kMaxPlanLines;
constexpr int kMaxCreatedFiles = 8;
constexpr int kMaxEditedFiles = 10;
constexpr int kMaxReadFiles = 6;
constexpr qsizetype kMaxFilesLine = 360; // the rest of the anchor is for the commands
constexpr int kMaxIntentionLooks = 3;    // assistant messages with text searched for "Now let me..."
constexpr int kMaxProgressCommands = 6;

struct Action
{
    int callIndex = 0;   // message holding the call
    int resultIndex = -1;
    const CallFacts *call = nullptr; // in the facts, which outlive the extraction
    QStringView callId;             // the call's id, in the message
    bool failed = false;
    QStringView errorLine;          // in the facts, as the call

    QString describe(const QString &root) const
    {
        auto shown = [&root](const QString &path) { return !root.isEmpty() && path.startsWith(root) ? path.sliced(root.size()) : path; };
        switch (call->kind) {
        case ToolKind::Shell:
            if (!call->command.isEmpty())
                return u"ran \""_s + call->commandLine(80) + u'"';
            break;
        case ToolKind::Edit:
            if (!call->paths.isEmpty())
            {
                QStringList paths;
                for (const QString &path : call->paths)
                    paths << shown(path);
                return u"edited "_s + listWithMore(paths, 3);
            }
            break;
        case ToolKind::Read:
            if (!call->paths.isEmpty())
                return u"read "_s + shown(call->paths.first());
            break;
        case ToolKind::Plan:
        case ToolKind::Other:
            break;
        }
        return u"called "_s + oneLine(call->name, 60);
    }
};

void appendNumber(QString &out, qint64 n)
{
    text::TextAppender appender(out);
    text::putNumber(appender, n);
}

// oneLineView() of (a part of) a path of `call`: the whitespace check, the longest part of
// isOneLineAlready(), was made once for the call's paths.
QStringView pathLineView(const CallFacts &call, QStringView path, qsizetype max, std::deque<QString> *keep)
{
    if (call.pathsHaveNoSpace && path.size() <= max && !path.isEmpty() && path.front() != u'#' && path.front() != u'>')
        return path; // isOneLineAlready(path, max)
    return oneLineView(path, max, keep);
}

const QString kFailedSuffix = u" (failed)"_s;

class Extraction
{
public:
    Extraction(const QList<const Message *> &messages, const ExtractiveFacts *facts, const Anchors *previous,
               const QList<qint64> *positions)
        : m_messages(messages)
        , m_facts(messages, facts)
        , m_positions(positions && positions->size() == messages.size() ? positions : nullptr)
    {
        if (previous) {
            m_previous.anchors = *previous;
            m_hasPrevious = true;
        }
    }

    ParsedSummary run()
    {
        collect();
        findRoot();
        ParsedSummary out;
        out.structured = true;
        out.anchors.setValue(AnchorKind::UserIntent, intent());
        out.anchors.setValue(AnchorKind::ExecutionProgress, progress());
        out.anchors.setValue(AnchorKind::KeyDecision, decisions());
        out.anchors.setValue(AnchorKind::TriedSolution, tried());
        out.anchors.setValue(AnchorKind::NextStep, nextSteps());
        if (m_hasPrevious) {
            // Decisions and failed attempts of the previous checkpoint still hold: they lead the new ones.
            unite(out.anchors, AnchorKind::KeyDecision);
            unite(out.anchors, AnchorKind::TriedSolution);
            // What the new messages cannot say, the previous checkpoint still knows.
            for (AnchorKind kind : kAllAnchorKinds) {
                if (kind != AnchorKind::UserIntent && isUnknownAnchorValue(out.anchors.value(kind)))
                    out.anchors.setValue(kind, cut(m_previous.anchors.value(kind), ExtractiveSummarizer::kMaxAnchorChars));
            }
        }
        for (AnchorKind kind : kAllAnchorKinds) {
            QString value = out.anchors.value(kind).trimmed();
            if (value.isEmpty())
                value = u"N/A"_s;
            else
                cutInPlace(value, ExtractiveSummarizer::kMaxAnchorChars);
            out.anchors.setValue(kind, value);
        }
        out.summary = summary();
        return out;
    }

private:
    // The previous checkpoint's items of `kind` followed by the new ones (each once, at its newest
    // place), the oldest dropped when they do not fit.
    void unite(Anchors &anchors, AnchorKind kind) const
    {
        const QString &old = m_previous.anchors.value(kind);
        const QString &incoming = anchors.value(kind);
        if (isUnknownAnchorValue(old) || isUnknownAnchorValue(incoming))
            return;
        QStringList items;
        for (const QString &text : {old, incoming}) {
            for (QStringView line : QStringView(text).tokenize(u'\n')) {
                const QString item = line.trimmed().toString();
                if (item.isEmpty() || isUnknownAnchorValue(item))
                    continue;
                items.removeAll(item);
                items << item;
            }
        }
        anchors.setValue(kind, bulletBlock(items, ExtractiveSummarizer::kMaxAnchorChars));
    }

    void appendLabel(QString &out, int index) const
    {
        if (m_positions) {
            appendNumber(out, m_positions->at(index));
            return;
        }
        const qint64 id = m_messages.at(index)->id;
        appendNumber(out, id != 0 ? id : qint64(index) + 1);
    }

    void appendRange(QString &out, int first, int last) const
    {
        out += first == last ? u"Message "_s : u"Messages "_s;
        appendLabel(out, first);
        if (first != last) {
            out += u'-';
            appendLabel(out, last);
        }
    }

    // The newest action calling `callId`, or -1. Results usually follow their call closely: the
    // recent actions are searched first, older ones through an index built when first needed.
    qsizetype actionForCall(QStringView callId)
    {
        if (callId.isEmpty())
            return -1;
        constexpr qsizetype kRecent = 16;
        const qsizetype count = qsizetype(m_actions.size());
        const qsizetype stop = std::max<qsizetype>(0, count - kRecent);
        for (qsizetype a = count - 1; a >= stop; --a) {
            if (m_actions.at(size_t(a)).callId == callId)
                return a;
        }
        for (; m_indexedActions < stop; ++m_indexedActions) {
            const QStringView id = m_actions.at(size_t(m_indexedActions)).callId;
            if (!id.isEmpty())
                m_olderActions.insert(id, m_indexedActions); // a later call with the same id wins
        }
        return m_olderActions.value(callId, -1);
    }

    void collect()
    {
        m_isRequest.assign(size_t(m_messages.size()), false);
        m_firstActionOf.assign(size_t(m_messages.size()), -1);
        m_actions.reserve(m_messages.size() / 2 + 1);
        m_userRequests.reserve(m_messages.size());
        m_assistants.reserve(m_messages.size());
        for (int i = 0; i < m_messages.size(); ++i) {
            const Message &m = *m_messages.at(i);
            if (m.role == Role::User && !m.isToolResult() && isCheckpointText(m.content)) {
                m_previous = parseCheckpointText(m.content);
                m_hasPrevious = true;
                continue;
            }
            if (isUserRequest(m) && !isInjectedNoise(MessageScan::head(m.content))) {
                m_userRequests << i;
                m_isRequest[size_t(i)] = true;
                continue;
            }
            if (m.role == Role::Assistant) {
                m_assistants << i;
                if (!m.hasToolCalls())
                    continue;
                m_firstActionOf[size_t(i)] = qsizetype(m_actions.size());
                const QList<CallFacts> &calls = m_facts.calls(i);
                for (qsizetype k = 0; k < m.toolCalls.size(); ++k) {
                    Action &action = m_actions.emplace_back();
                    action.callIndex = i;
                    action.call = &calls.at(k);
                    action.callId = m.toolCalls.at(k).id;
                }
                continue;
            }
            if (m.isToolResult()) {
                const qsizetype found = actionForCall(m.toolCallId);
                if (found < 0)
                    continue; // its call was compacted away earlier
                Action &action = m_actions[size_t(found)];
                if (action.resultIndex >= 0)
                    continue; // duplicate result
                action.resultIndex = i;
                const MessageScan::ResultFacts &result = m_facts.result(i, action.call->kind);
                action.failed = result.failed;
                action.errorLine = result.errorLine;
            }
        }
    }

    // The folder every edited file lies in, when all their paths are absolute and share one at least
    // two levels deep: lists then show paths under it relative to it, and the summary names it once.
    void findRoot()
    {
        QString common;
        bool first = true;
        for (const Action &action : m_actions) {
            if (action.call->kind != ToolKind::Edit)
                continue;
            for (const QString &path : action.call->paths) {
                if (!path.startsWith(u'/'))
                    return;
                if (first) {
                    common = path.left(path.lastIndexOf(u'/') + 1);
                    first = false;
                    continue;
                }
                qsizetype n = 0;
                const qsizetype limit = std::min(common.size(), path.size());
                while (n < limit && common[n] == path[n])
                    ++n;
                common = common.left(common.left(n).lastIndexOf(u'/') + 1);
            }
        }
        if (first)
            return;
        // Files read in the same project widen the root to it (a read elsewhere, a log in /tmp, does not).
        for (const Action &action : m_actions) {
            if (action.call->kind != ToolKind::Read || action.failed)
                continue;
            for (const QString &path : action.call->paths) {
                if (!path.startsWith(u'/') || path.startsWith(common))
                    continue;
                qsizetype n = 0;
                const qsizetype limit = std::min(common.size(), path.size());
                while (n < limit && common[n] == path[n])
                    ++n;
                const QString wider = common.left(common.left(n).lastIndexOf(u'/') + 1);
                if (wider.count(u'/') >= 4)
                    common = wider;
            }
        }
        if (common.count(u'/') >= 3)
            m_root = common;
    }

    // The path relative to the common root (a view: callers copy only what they keep).
    QStringView shown(const QString &path) const
    {
        return !m_root.isEmpty() && path.startsWith(m_root) ? QStringView(path).sliced(m_root.size()) : QStringView(path);
    }

    QString intent()
    {
        QStringList later;
        int firstLater = 0;
        QString first;
        if (m_hasPrevious && !isUnknownAnchorValue(m_previous.anchors.value(AnchorKind::UserIntent))) {
            first = cut(m_previous.anchors.value(AnchorKind::UserIntent), kIntentChars);
        } else if (!m_userRequests.isEmpty()) {
            first = m_facts.headLine(m_userRequests.first(), kIntentChars);
            firstLater = 1;
        }
        // The latest kMaxLater distinct head lines (each at its first appearance), oldest first.
        QVarLengthArray<QString, 16> heads;
        for (int k = firstLater; k < m_userRequests.size(); ++k) {
            const int index = m_userRequests.at(k);
            if (m_messages.at(index)->content.size() <= kShortUserMessage || firstLater == 0)
                heads.append(m_facts.headLine(index, kLaterChars));
        }
        QVarLengthArray<qsizetype, kMaxLater> kept;
        for (qsizetype k = heads.size() - 1; k >= 0 && kept.size() < kMaxLater; --k) {
            if (std::find(heads.cbegin(), heads.cbegin() + k, heads[k]) == heads.cbegin() + k)
                kept.insert(kept.cbegin(), k);
        }
        for (qsizetype k : kept)
            later << u"Later: "_s + heads[k];
        if (first.isEmpty() && later.isEmpty())
            return {};
        QStringList parts;
        if (!first.isEmpty())
            parts << first;
        parts << later;
        return parts.join(u'\n');
    }

    QString progress() const
    {
        std::deque<QString> keep;
        // Each command once, at its latest successful run, in the order of those runs: found newest first.
        QVarLengthArray<QStringView, 16> commands;
        for (auto action = m_actions.crbegin(); action != m_actions.crend(); ++action) {
            if (!action->failed && action->call->kind == ToolKind::Shell && action->resultIndex >= 0 && !action->call->command.isEmpty()) {
                const QStringView command = action->call->commandLines[2];
                if (std::find(commands.cbegin(), commands.cend(), command) == commands.cend())
                    commands.append(command);
            }
        }
        // The artifact trail: each file once, by the most it had done to it (read < edited < created),
        // in the order first touched.
        enum class Touch { Read, Edited, Created };
        QList<std::pair<QStringView, Touch>> touched;
        QHash<QStringView, qsizetype> touchedAt;
        auto touch = [&touched, &touchedAt](QStringView path, Touch how) {
            const auto found = touchedAt.constFind(path);
            if (found == touchedAt.cend()) {
                touchedAt.insert(path, touched.size());
                touched.append({path, how});
                return;
            }
            Touch &done = touched[*found].second;
            if (how != Touch::Read && done == Touch::Read)
                done = Touch::Edited; // written after it was read: it existed
        };
        for (const Action &action : m_actions) {
            const CallFacts &call = *action.call;
            if (action.failed || (call.kind != ToolKind::Edit && call.kind != ToolKind::Read))
                continue;
            const Touch how = call.kind == ToolKind::Read ? Touch::Read : writesWholeFiles(call.name) ? Touch::Created : Touch::Edited;
            for (const QString &path : call.paths)
                touch(pathLineView(call, shown(path), 120, &keep), how);
        }
        QStringList lines;
        if (!touched.isEmpty()) {
            ShownList created, edited, read;
            for (const auto &[path, how] : std::as_const(touched))
                (how == Touch::Created ? created : how == Touch::Edited ? edited : read).append(path);
            QString line;
            line.reserve(512);
            line += u"- Files"_s;
            if (!m_root.isEmpty())
                line += u" (in "_s + oneLine(m_root, 120) + u')';
            line += u": "_s;
            const qsizetype start = line.size();
            auto part = [&line, start](QStringView verb, const ShownList &list, int max) {
                if (list.isEmpty())
                    return;
                if (line.size() > start)
                    line += u"; "_s;
                line += verb;
                list.appendTo(line, max);
            };
            part(u"created ", created, kMaxCreatedFiles);
            part(u"edited ", edited, kMaxEditedFiles);
            part(u"read ", read, kMaxReadFiles);
            cutInPlace(line, kMaxFilesLine);
            lines << line;
        }
        if (!commands.isEmpty()) {
            const qsizetype recent = std::min<qsizetype>(commands.size(), kMaxProgressCommands);
            QString line;
            line.reserve(512);
            line += u"- Commands that succeeded: "_s;
            for (qsizetype k = recent - 1; k >= 0; --k) {
                line += u'"';
                line += commands[k];
                line += u'"';
                if (k > 0)
                    line += u", "_s;
            }
            if (commands.size() > recent) {
                line += u" (and "_s;
                appendNumber(line, commands.size() - recent);
                line += u" earlier)"_s;
            }
            const qsizetype room = ExtractiveSummarizer::kMaxAnchorChars - (lines.isEmpty() ? 0 : lines.first().size() + 1);
            cutInPlace(line, room);
            lines << line;
        }
        return bulletBlock(lines, ExtractiveSummarizer::kMaxAnchorChars);
    }

    QString decisions()
    {
        // The most recent statements of choice and instructions of the user, oldest first.
        QStringList found;
        qsizetype u = m_userRequests.size() - 1;
        qsizetype a = m_assistants.size() - 1;
        while ((u >= 0 || a >= 0) && found.size() < kMaxDecisions) {
            const bool byUser = u >= 0 && (a < 0 || m_userRequests.at(u) > m_assistants.at(a));
            const int index = byUser ? m_userRequests.at(u--) : m_assistants.at(a--);
            const QStringList &sentences = m_facts.decisions(index);
            for (qsizetype j = sentences.size() - 1; j >= 0 && found.size() < kMaxDecisions; --j) {
                QString item = byUser ? u"User: "_s + sentences.at(j) : sentences.at(j);
                if (!found.contains(item))
                    found.prepend(std::move(item));
            }
        }
        return bulletBlock(found, ExtractiveSummarizer::kMaxAnchorChars);
    }

    // What the agent did after a failure: the next assistant message's first sentence or call.
    QString followUp(int afterIndex)
    {
        for (int i = afterIndex + 1; i < m_messages.size(); ++i) {
            const Message &m = *m_messages.at(i);
            if (isUserRequest(m))
                return u"the user wrote: "_s + m_facts.headLine(i, 80);
            if (m.role != Role::Assistant)
                continue;
            if (!MessageScan::head(m.content).trimmed().isEmpty())
                return m_facts.firstSentence(i);
            const QList<const Action *> actions = actionsOf(i);
            if (!actions.isEmpty())
                return actions.first()->describe(m_root);
        }
        return {};
    }

    // The next attempt at what failed action `a` tried: a later run of a command that starts with the
    // same two words, or a later edit of one of the same files. Null when there was none.
    const Action *retryOf(qsizetype a) const
    {
        const Action &failed = m_actions.at(size_t(a));
        const ToolKind kind = failed.call->kind;
        if (kind != ToolKind::Shell && kind != ToolKind::Edit)
            return nullptr;
        auto program = [](const QString &command) {
            const QStringList words = command.simplified().split(u' ');
            return words.mid(0, 2).join(u' ');
        };
        const QString tried = kind == ToolKind::Shell ? program(failed.call->command) : QString();
        for (qsizetype b = a + 1; b < qsizetype(m_actions.size()); ++b) {
            const Action &next = m_actions.at(size_t(b));
            if (next.call->kind != kind)
                continue;
            if (kind == ToolKind::Shell && !tried.isEmpty() && program(next.call->command) == tried)
                return &next;
            if (kind == ToolKind::Edit
                && std::any_of(next.call->paths.cbegin(), next.call->paths.cend(),
                               [&failed](const QString &path) { return failed.call->paths.contains(path); }))
                return &next;
        }
        return nullptr;
    }

    QString tried()
    {
        QStringList items; // the most recent failures, oldest first
        for (qsizetype a = qsizetype(m_actions.size()) - 1; a >= 0 && items.size() < kMaxTried; --a) {
            const Action &action = m_actions.at(size_t(a));
            if (!action.failed)
                continue;
            QString item = action.describe(m_root) + u" failed"_s;
            if (!action.errorLine.isEmpty())
                item += u": "_s + cut(action.errorLine, 90);
            const Action *retry = retryOf(a);
            const QString again = retry ? retry->describe(m_root) : QString();
            const QString next = followUp(action.resultIndex);
            if (!next.isEmpty() && next != again) // the retry itself is said once, with its outcome
                item += u" \u2192 next: "_s + cut(next, 110);
            if (retry) {
                item += u" \u2192 then "_s + again;
                item += retry->resultIndex < 0 ? u": no result yet"_s : retry->failed ? u": failed"_s : u": passed"_s;
            }
            cutInPlace(item, 300);
            items.prepend(std::move(item));
        }
        return bulletBlock(items, ExtractiveSummarizer::kMaxAnchorChars);
    }

    QString nextSteps()
    {
        const int lastRequest = m_userRequests.isEmpty() ? -1 : m_userRequests.last();
        for (qsizetype k = m_assistants.size() - 1; k >= 0; --k) {
            const int index = m_assistants.at(k);
            if (index < lastRequest)
                break; // a plan made before the user's latest word is stale
            // Plans tend to close a message: look at its end as well as its start.
            QStringList lines = m_facts.plans(index);
            for (const Action *action : actionsOf(index)) {
                if (action->call->kind == ToolKind::Plan) {
                    for (const QString &step : action->call->pendingSteps)
                        appendUnique(&lines, u"- "_s + step);
                }
            }
            if (!lines.isEmpty())
                return bulletBlock(lines.first(std::min<qsizetype>(lines.size(), kMaxNextLines)), ExtractiveSummarizer::kMaxAnchorChars);
        }
        // No plan: what the latest assistant text says it does next ("Now let me run the tests.").
        int looked = 0;
        for (qsizetype k = m_assistants.size() - 1; k >= 0 && looked < kMaxIntentionLooks; --k) {
            const int index = m_assistants.at(k);
            if (index < lastRequest)
                break;
            if (MessageScan::head(m_messages.at(index)->content).trimmed().isEmpty())
                continue;
            ++looked;
            const QStringList &said = m_facts.intentions(index);
            if (!said.isEmpty())
                return bulletBlock(said, ExtractiveSummarizer::kMaxAnchorChars);
        }
        return {};
    }

    // One line per user turn: "Messages 12-40: user asked "..."; edited a, b; ran "make" (failed)".
    QString turnLine(int first, int last, qsizetype actionBegin, qsizetype actionEnd)
    {
        std::deque<QString> keep;
        ShownList edited, reads, ran, other;
        for (qsizetype a = actionBegin; a < actionEnd; ++a) {
            const Action &action = m_actions.at(size_t(a));
            const CallFacts &call = *action.call;
            const QStringView failed = action.failed ? QStringView(kFailedSuffix) : QStringView();
            switch (call.kind) {
            case ToolKind::Edit:
                for (const QString &path : call.paths)
                    edited.append(pathLineView(call, shown(path), 100, &keep), failed);
                if (call.paths.isEmpty())
                    other.append(call.name);
                break;
            case ToolKind::Read:
                for (const QString &path : call.paths)
                    reads.append(pathLineView(call, shown(path), 100, &keep));
                break;
            case ToolKind::Shell:
                if (!call.command.isEmpty()) {
                    // Shown quoted: the closing quote goes before the suffix.
                    ran.append(call.commandLines[0], action.failed ? u"\" (failed)" : u"\"");
                    break;
                }
                other.append(call.name);
                break;
            case ToolKind::Plan:
            case ToolKind::Other:
                other.append(oneLineView(call.name, 40, &keep), failed);
                break;
            }
        }

        QString line;
        line.reserve(400);
        appendRange(line, first, last);
        line += u": "_s;
        const qsizetype start = line.size();
        auto separate = [&line, start] {
            if (line.size() > start)
                line += u"; "_s;
        };
        if (m_isRequest.at(size_t(first))) {
            line += u"user asked \""_s;
            line += m_facts.headLine(first, 80);
            line += u'"';
        }
        auto part = [&](QStringView verb, const ShownList &items, int max, QStringView prefix = {}) {
            if (items.isEmpty())
                return;
            separate();
            line += verb;
            items.appendTo(line, max, prefix);
        };
        part(u"edited ", edited, 5);
        part(u"ran ", ran, 4, u"\""); // each closing quote is in the item's suffix
        part(u"read ", reads, 4);
        part(u"called ", other, 4);
        if (line.size() == start) {
            for (int i = first; i <= last; ++i) {
                if (m_messages.at(i)->role == Role::Assistant && !MessageScan::head(m_messages.at(i)->content).trimmed().isEmpty()) {
                    line += u"assistant: "_s;
                    line += m_facts.firstSentence(i);
                    break;
                }
            }
        }
        if (line.size() == start)
            line += u"no actions"_s;
        cutInPlace(line, 400);
        return line;
    }

    QString summary()
    {
        QStringList head;
        if (m_hasPrevious && !m_previous.summary.isEmpty())
            head << u"Earlier: "_s + oneLine(m_previous.summary, 600);
        if (!m_root.isEmpty())
            head << u"File paths are relative to "_s + oneLine(m_root, 200);

        // Turns start at each user request; tool activity belongs to the turn its call is in.
        QList<std::pair<int, int>> turns;
        int start = -1;
        for (int i = 0; i < m_messages.size(); ++i) {
            const Message &m = *m_messages.at(i);
            if (m.role == Role::System || (m.role == Role::User && isCheckpointText(m.content)))
                continue;
            if (start < 0) {
                start = i;
            } else if (m_isRequest.at(size_t(i))) {
                turns << std::pair{start, i - 1};
                start = i;
            }
        }
        if (start >= 0) {
            int last = int(m_messages.size()) - 1;
            turns << std::pair{start, last};
        }

        QStringList lines;
        lines.reserve(turns.size());
        size_t actionAt = 0;
        for (const auto &[first, last] : std::as_const(turns)) {
            while (actionAt < m_actions.size() && m_actions.at(actionAt).callIndex < first)
                ++actionAt;
            size_t actionEnd = actionAt;
            while (actionEnd < m_actions.size() && m_actions.at(actionEnd).callIndex <= last)
                ++actionEnd;
            lines << turnLine(first, last, qsizetype(actionAt), qsizetype(actionEnd));
            actionAt = actionEnd;
        }

        // Keep the first turn and as many recent ones as fit; say what was left out.
        const qsizetype budget = ExtractiveSummarizer::kMaxSummaryChars;
        auto total = [](const QStringList &list) {
            qsizetype n = 0;
            for (const QString &s : list)
                n += s.size() + 1;
            return n;
        };
        if (total(head) + total(lines) > budget && lines.size() > 2) {
            QStringList tail;
            qsizetype used = total(head) + lines.first().size() + 1 + 80;
            for (qsizetype k = lines.size() - 1; k >= 1; --k) {
                if (used + lines.at(k).size() + 1 > budget)
                    break;
                used += lines.at(k).size() + 1;
                tail.prepend(lines.at(k));
            }
            const qsizetype omitted = lines.size() - 1 - tail.size();
            if (omitted > 0) {
                QStringList kept{lines.first()};
                kept << u"(%1 more turns left out)"_s.arg(omitted);
                kept << tail;
                lines = kept;
            }
        }
        head << lines;
        QString text = head.join(u'\n');
        cutInPlace(text, budget);
        return text;
    }

    // The actions called by message `index` (contiguous in m_actions).
    QList<const Action *> actionsOf(int index) const
    {
        QList<const Action *> out;
        for (qsizetype a = m_firstActionOf.at(size_t(index)); a >= 0 && a < qsizetype(m_actions.size()) && m_actions.at(size_t(a)).callIndex == index; ++a)
            out << &m_actions.at(size_t(a));
        return out;
    }

    const QList<const Message *> &m_messages;
    FactsLookup m_facts;
    const QList<qint64> *m_positions = nullptr; // each message's position in its session, when known
    std::vector<bool> m_isRequest;        // by message index
    std::vector<qsizetype> m_firstActionOf; // by message index, -1 for none
    QList<int> m_userRequests;
    QList<int> m_assistants;
    std::vector<Action> m_actions; // in call order
    qsizetype m_indexedActions = 0; // actions before this one are in m_olderActions
    QHash<QStringView, qsizetype> m_olderActions;
    QString m_root;          // common folder of the touched files, empty for none
    ParsedSummary m_previous;
    bool m_hasPrevious = false;
};


} // namespace

namespace {
QList<const Message *> pointersTo(const QList<Message> &messages)
{
    QList<const Message *> out;
    out.reserve(messages.size());
    for (const Message &m : messages)
        out.append(&m);
    return out;
}
} // namespace

ParsedSummary ExtractiveSummarizer::summarize(const QList<Message> &messages)
{
    return summarize(pointersTo(messages), nullptr);
}

ParsedSummary ExtractiveSummarizer::summarize(const QList<Message> &messages, const ExtractiveFacts *facts)
{
    return summarize(pointersTo(messages), facts);
}

ParsedSummary ExtractiveSummarizer::summarize(const QList<const Message *> &messages, const ExtractiveFacts *facts,
                                             const Anchors *previous, const QList<qint64> *positions)
{
    return Extraction(messages, facts, previous, positions).run();
}

QString ExtractiveSummarizer::toText(const ParsedSummary &summary)
{
    return formatAnchors(summary.anchors) + u"\n## Summary\n"_s + summary.summary.trimmed() + u'\n';
}

} // namespace wl
