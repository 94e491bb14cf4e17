#include "ProxyCompactor.h"

#include "LoggingCategories.h"
#include "Paths.h"
#include "PrivateFiles.h"
#include "compaction/CompactionPass.h"
#include "compaction/ContextView.h"
#include "compaction/SummaryChain.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QUuid>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

QJsonObject argumentsObject(const ToolCall &call)
{
    return QJsonDocument::fromJson(call.arguments.toUtf8()).object();
}

// Anthropic Messages: results go as tool_result blocks of a user message, first in it; turns of
// the same role are merged (the API would merge them too). The client's own system turns (Claude
// Code sends its environment as one) stay system turns; the view's system prompt is not among
// `messages`.
QJsonArray anthropicMessages(const QList<Message> &messages)
{
    QJsonArray out;
    auto append = [&out](const QString &role, const QJsonObject &block) {
        if (!out.isEmpty() && out.last().toObject().value(u"role").toString() == role) {
            QJsonObject last = out.last().toObject();
            QJsonArray content = last.value(u"content").toArray();
            content.append(block);
            last.insert(u"content"_s, content);
            out.replace(out.size() - 1, last);
        } else {
            out.append(QJsonObject{{u"role"_s, role}, {u"content"_s, QJsonArray{block}}});
        }
    };
    for (const Message &m : messages) {
        switch (m.role) {
        case Role::System:
        case Role::User:
            if (!m.content.isEmpty())
                append(m.role == Role::System ? u"system"_s : u"user"_s, QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, m.content}});
            break;
        case Role::Tool: {
            QJsonObject block{{u"type"_s, u"tool_result"_s}, {u"tool_use_id"_s, m.toolCallId}, {u"content"_s, m.content}};
            if (m.isError)
                block.insert(u"is_error"_s, true);
            append(u"user"_s, block);
            break;
        }
        case Role::Assistant:
            if (!m.content.isEmpty())
                append(u"assistant"_s, QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, m.content}});
            for (const ToolCall &call : m.toolCalls)
                append(u"assistant"_s, QJsonObject{{u"type"_s, u"tool_use"_s}, {u"id"_s, call.id}, {u"name"_s, call.name},
                                                   {u"input"_s, argumentsObject(call)}});
            break;
        }
    }
    return out;
}

QJsonArray chatMessages(const QJsonArray &leadingSystem, const QList<Message> &messages)
{
    QJsonArray out = leadingSystem;
    for (const Message &m : messages) {
        switch (m.role) {
        case Role::System:
            out.append(QJsonObject{{u"role"_s, u"system"_s}, {u"content"_s, m.content}});
            break;
        case Role::User:
            out.append(QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, m.content}});
            break;
        case Role::Tool:
            out.append(QJsonObject{{u"role"_s, u"tool"_s}, {u"tool_call_id"_s, m.toolCallId}, {u"content"_s, m.content}});
            break;
        case Role::Assistant: {
            QJsonObject o{{u"role"_s, u"assistant"_s}, {u"content"_s, m.content.isEmpty() && m.hasToolCalls() ? QJsonValue() : QJsonValue(m.content)}};
            QJsonArray calls;
            for (const ToolCall &call : m.toolCalls)
                calls.append(QJsonObject{{u"id"_s, call.id}, {u"type"_s, u"function"_s},
                                         {u"function"_s, QJsonObject{{u"name"_s, call.name}, {u"arguments"_s, call.arguments}}}});
            if (!calls.isEmpty())
                o.insert(u"tool_calls"_s, calls);
            out.append(o);
            break;
        }
        }
    }
    return out;
}

// Responses input items. Calls the client made as custom tool calls (free-text input) go back as
// such; reasoning items are left out (they are optional context, and encrypted).
QJsonArray responsesInput(const QJsonArray &leadingSystem, const QList<Message> &messages, const QSet<QString> &customCalls)
{
    QJsonArray out = leadingSystem;
    auto message = [](const QString &role, const QString &partType, const QString &text) {
        return QJsonObject{{u"type"_s, u"message"_s}, {u"role"_s, role},
                           {u"content"_s, QJsonArray{QJsonObject{{u"type"_s, partType}, {u"text"_s, text}}}}};
    };
    for (const Message &m : messages) {
        switch (m.role) {
        case Role::System:
            out.append(message(u"developer"_s, u"input_text"_s, m.content));
            break;
        case Role::User:
            out.append(message(u"user"_s, u"input_text"_s, m.content));
            break;
        case Role::Tool:
            out.append(QJsonObject{{u"type"_s, customCalls.contains(m.toolCallId) ? u"custom_tool_call_output"_s : u"function_call_output"_s},
                                   {u"call_id"_s, m.toolCallId}, {u"output"_s, m.content}});
            break;
        case Role::Assistant:
            if (!m.content.isEmpty())
                out.append(message(u"assistant"_s, u"output_text"_s, m.content));
            for (const ToolCall &call : m.toolCalls) {
                if (customCalls.contains(call.id))
                    out.append(QJsonObject{{u"type"_s, u"custom_tool_call"_s}, {u"call_id"_s, call.id}, {u"name"_s, call.name},
                                           {u"input"_s, call.arguments}});
                else
                    out.append(QJsonObject{{u"type"_s, u"function_call"_s}, {u"call_id"_s, call.id}, {u"name"_s, call.name},
                                           {u"arguments"_s, call.arguments}});
            }
            break;
        }
    }
    return out;
}

// A thinking or redacted_thinking block in some turn of an Anthropic conversation.
bool hasThinkingBlocks(const QJsonArray &messages)
{
    for (const QJsonValue &message : messages) {
        for (const QJsonValue &block : message.toObject().value(u"content").toArray()) {
            const QString type = block.toObject().value(u"type").toString();
            if (type == u"thinking" || type == u"redacted_thinking")
                return true;
        }
    }
    return false;
}

// The leading system and developer messages of a message list or input (the request's system
// prompt, as parseRequest read it), kept as the client sent them.
QJsonArray leadingSystemOf(const QJsonValue &list)
{
    QJsonArray leading;
    for (const QJsonValue &m : list.toArray()) {
        const QJsonObject o = m.toObject();
        const QString role = o.value(u"role").toString();
        if ((role != u"system" && role != u"developer") || o.value(u"type").toString(u"message"_s) != u"message")
            break;
        leading.append(m);
    }
    return leading;
}

// A name for the conversation's offload folder that stays the same for all its requests.
QString offloadSessionFor(const WireRequest &request)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(request.conversationHint.toUtf8());
    hash.addData(QByteArrayView("\n"));
    hash.addData(request.systemPrompt.toUtf8());
    hash.addData(request.messages.isEmpty() ? QByteArray() : request.messages.first().content.toUtf8());
    return u"proxy-"_s + QString::fromLatin1(hash.result().toHex().left(16));
}

// `text` with every `relative` that is not already the tail of `absolute` made `absolute`.
QString withAbsolutePaths(const QString &text, const QString &relative, const QString &absolute)
{
    const QString root = absolute.left(absolute.size() - relative.size());
    QString out;
    out.reserve(text.size() + 8 * root.size());
    qsizetype from = 0;
    for (qsizetype at = text.indexOf(relative); at >= 0; at = text.indexOf(relative, at + relative.size())) {
        out += QStringView(text).sliced(from, at - from);
        if (!out.endsWith(root))
            out += root;
        out += relative;
        from = at + relative.size();
    }
    out += QStringView(text).sliced(from);
    return out;
}

} // namespace

ProxyCompactor::ProxyCompactor(const CompactionPolicy &policy, const QString &offloadRoot)
    : m_policy(policy)
    , m_offloadRoot(QDir(offloadRoot).absolutePath())
{
}

ProxyServer::RequestRewriter ProxyCompactor::rewriter(std::shared_ptr<ProxyCompactor> compactor)
{
    return [compactor](const QByteArray &method, const QByteArray &path, const QByteArray &body) {
        ProxyServer::Rewrite rewrite;
        const WireProtocol protocol = WireConversation::protocolFor(method, path);
        if (protocol == WireProtocol::None)
            return rewrite;
        const Outcome outcome = compactor->compact(protocol, body);
        rewrite.details = QJsonObject{{u"tier"_s, tierName(outcome.tier)},
                                      {u"tokens_before"_s, outcome.tokensBefore},
                                      {u"tokens_after"_s, outcome.tokensAfter},
                                      {u"messages_before"_s, outcome.messagesBefore},
                                      {u"messages_after"_s, outcome.messagesAfter},
                                      {u"offloaded"_s, outcome.offloaded}};
        if (outcome.kind == Outcome::Kind::Unchanged) {
            rewrite.note = outcome.stateNote; // nothing else to say about a request that needed nothing
            return rewrite;
        }
        switch (outcome.kind) {
        case Outcome::Kind::Compacted:
            rewrite.changed = true;
            rewrite.body = outcome.body;
            rewrite.compaction = outcome.compaction;
            rewrite.note = QCoreApplication::translate("ProxyCompactor", "compacted (%1): %2 to %3 tokens, %4 to %5 messages, %6 results offloaded")
                               .arg(tierName(outcome.tier)).arg(outcome.tokensBefore).arg(outcome.tokensAfter)
                               .arg(outcome.messagesBefore).arg(outcome.messagesAfter).arg(outcome.offloaded);
            break;
        case Outcome::Kind::Refused:
            rewrite.note = QCoreApplication::translate("ProxyCompactor", "forwarded unchanged: %1").arg(outcome.reason);
            break;
        case Outcome::Kind::Unchanged:
            break;
        }
        if (!outcome.stateNote.isEmpty())
            rewrite.note += u"; "_s + outcome.stateNote;
        return rewrite;
    };
}

bool ProxyCompactor::pairsValid(const QList<Message> &messages, QString *why)
{
    const auto fail = [why](const QString &text) {
        if (why)
            *why = text;
        return false;
    };
    QSet<QString> open;      // calls of the last assistant message not answered yet
    bool inResults = false;  // right after an assistant message with calls
    for (const Message &m : messages) {
        if (m.role == Role::Tool) {
            if (!inResults || !open.remove(m.toolCallId))
                return fail(QCoreApplication::translate("ProxyCompactor", "the result of call %1 does not follow its call").arg(m.toolCallId.left(60)));
            continue;
        }
        if (!open.isEmpty())
            return fail(QCoreApplication::translate("ProxyCompactor", "call %1 has no result before the next message").arg(open.begin()->left(60)));
        inResults = false;
        if (m.role == Role::Assistant && m.hasToolCalls()) {
            for (const ToolCall &call : m.toolCalls) {
                if (open.contains(call.id))
                    return fail(QCoreApplication::translate("ProxyCompactor", "call id %1 appears twice in one message").arg(call.id.left(60)));
                open.insert(call.id);
            }
            inResults = true;
        }
    }
    if (!open.isEmpty())
        return fail(QCoreApplication::translate("ProxyCompactor", "call %1 has no result").arg(open.begin()->left(60)));
    return true;
}

ProxyCompactor::Conversation *ProxyCompactor::find(const WireRequest &request, Continuity *continuity)
{
    *continuity = Continuity::New;
    Conversation *best = nullptr;
    qsizetype bestCommon = 0;
    for (const auto &c : m_conversations) {
        if (c->protocol != request.protocol)
            continue;
        const qsizetype n = std::min(c->known.size(), request.messages.size());
        qsizetype common = 0;
        while (common < n && WireConversation::sameTurn(c->known[common], request.messages[common]))
            ++common;
        if (common > bestCommon) {
            best = c.get();
            bestCommon = common;
        }
    }
    if (best) {
        if (bestCommon == best->known.size())
            *continuity = Continuity::Continues;
        else if (bestCommon == request.messages.size())
            *continuity = Continuity::Inside;
        else
            *continuity = Continuity::Diverged;
        return best;
    }
    // Nothing in common: the client may have replaced its history by its own summary. As the
    // recorder tells it: the same session named, the same system prompt, fewer messages.
    if (request.conversationHint.isEmpty())
        return nullptr;
    for (auto it = m_conversations.rbegin(); it != m_conversations.rend(); ++it) {
        Conversation *c = it->get();
        if (c->protocol == request.protocol && c->hint == request.conversationHint && c->systemPrompt == request.systemPrompt
            && request.messages.size() < c->known.size()) {
            *continuity = Continuity::Diverged;
            return c;
        }
    }
    return nullptr;
}

void ProxyCompactor::forget(const Conversation *conversation)
{
    std::erase_if(m_conversations, [conversation](const std::unique_ptr<Conversation> &c) { return c.get() == conversation; });
}

ProxyCompactor::Outcome ProxyCompactor::compact(WireProtocol protocol, const QByteArray &body)
{
    const QMutexLocker lock(&m_mutex);
    return compactLocked(protocol, body);
}

void ProxyCompactor::setPolicy(const CompactionPolicy &policy)
{
    const QMutexLocker lock(&m_mutex);
    m_policy = policy;
}

CompactionPolicy ProxyCompactor::policy() const
{
    const QMutexLocker lock(&m_mutex);
    return m_policy;
}

ProxyCompactor::Outcome ProxyCompactor::compactLocked(WireProtocol protocol, const QByteArray &body)
{
    QElapsedTimer clock;
    clock.start();
    Outcome out;
    out.body = body;
    Conversation *state = nullptr;
    const auto refuse = [&out, &state, this](const QString &reason) {
        // What was kept of the conversation may be what could not be sent: start it over.
        if (state)
            forget(state);
        out.kind = Outcome::Kind::Refused;
        out.reason = reason;
        return out;
    };
    if (protocol == WireProtocol::None)
        return out;
    QString error;
    const std::optional<WireRequest> request = WireConversation::parseRequest(protocol, body, &error);
    if (!request)
        return refuse(error);
    const QJsonObject object = QJsonDocument::fromJson(body).object();
    if (request->chained)
        return refuse(QCoreApplication::translate("ProxyCompactor", "the request continues a stored response (previous_response_id): the provider holds the history"));
    if (protocol == WireProtocol::OpenAiResponses && !object.value(u"input").isArray())
        return out; // a single text: nothing to compact
    if (protocol == WireProtocol::AnthropicMessages) {
        // Signed thinking blocks do not survive the round trip through Message. Thinking on
        // with none in the conversation (a provider that returned none) loses nothing.
        const QString thinking = object.value(u"thinking").toObject().value(u"type").toString();
        if (!thinking.isEmpty() && thinking != u"disabled" && hasThinkingBlocks(object.value(u"messages").toArray()))
            return refuse(QCoreApplication::translate("ProxyCompactor", "extended thinking is on: its signed thinking blocks cannot be written back"));
    }

    // The conversation's overlays apply when the request goes on from its last one; a request
    // inside it is compacted on its own (its overlays may cover messages it does not hold).
    Continuity continuity = Continuity::New;
    Conversation *found = find(*request, &continuity);
    if (continuity == Continuity::Diverged) {
        if (!found->overlays.checkpoints.isEmpty() || !found->overlays.offloads.isEmpty())
            out.stateNote = QCoreApplication::translate("ProxyCompactor", "the client's history no longer begins with what Waterline compacted before (it compacted or edited it itself): those compactions were dropped and the request was compacted afresh");
        forget(found);
        found = nullptr;
    }
    if (continuity != Continuity::Inside) {
        if (!found) {
            auto fresh = std::make_unique<Conversation>();
            fresh->protocol = request->protocol;
            fresh->hint = request->conversationHint;
            fresh->systemPrompt = request->systemPrompt;
            m_conversations.push_back(std::move(fresh));
            found = m_conversations.back().get();
            if (m_conversations.size() > kMaxConversations) {
                const auto oldest = std::min_element(m_conversations.cbegin(), m_conversations.cend() - 1,
                                                     [](const auto &a, const auto &b) { return a->lastUse < b->lastUse; });
                m_conversations.erase(oldest);
            }
        }
        state = found;
        state->lastUse = ++m_uses;
    }

    QList<Message> history = request->messages;
    for (qsizetype i = 0; i < history.size(); ++i) {
        history[i].id = i + 1;
        history[i].cacheBytes();
    }
    const qint64 schemaBytes = QJsonDocument(request->tools).toJson(QJsonDocument::Compact).size();
    const Offloader offloader = Offloader::disk(m_offloadRoot, offloadSessionFor(*request));
    // What the client sent, measured as the preflight measures a view.
    {
        ContextOverlays none;
        ContextView plain = ContextView::build(request->systemPrompt, history, none);
        out.tokensBefore = CompactionPass(request->systemPrompt, history, history.size(), m_policy, schemaBytes, offloader, none, plain)
                               .estimate().totalTokens();
    }
    out.tokensAfter = out.tokensBefore;
    out.messagesBefore = int(history.size());
    out.messagesAfter = out.messagesBefore;
    if (state)
        state->known = request->messages;

    ContextOverlays overlays = state ? state->overlays : ContextOverlays();
    const bool inherited = !overlays.checkpoints.isEmpty() || !overlays.offloads.isEmpty();
    ContextView view = ContextView::build(request->systemPrompt, history, overlays);
    CompactionPass pass(request->systemPrompt, history, history.size(), m_policy, schemaBytes, offloader, overlays, view);
    CompactionRecord record;
    out.tier = m_policy.isValid() ? pass.decide(false, &record.reason) : Tier::None;
    if (out.tier == Tier::None && !inherited)
        return out;
    // A history that does not pair its calls and results is the client's to mend: it goes as sent.
    QString why;
    if (!pairsValid(request->messages, &why))
        return refuse(QCoreApplication::translate("ProxyCompactor", "the client's history does not pair tool calls with their results: %1").arg(why));

    record.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    record.tier = out.tier;
    record.strategy = m_policy.strategy;
    record.tokensBefore = view.tokens();
    record.msgsBefore = view.size();
    if (out.tier != Tier::None) {
        // The folder the offloads go to, private to the user (tool output can hold anything).
        if (!PrivateFiles::ensureFolder(m_offloadRoot, &error))
            return refuse(error);
        record.preservedTail = view.size() - pass.split().tailStart;
    }
    QList<Message> made;
    auto summarise = [&](Tier tier) {
        if (const auto job = pass.prepareSummary(tier, record.id)) {
            QList<qint64> positions;
            const QList<const Message *> messages = pass.summaryMessages(*job, &made, &positions);
            const ParsedSummary summary = SummaryChain::extractive(messages, job->previous ? &*job->previous : nullptr,
                                                                   nullptr, &positions);
            if (pass.applySummary(*job, summary, tier, record.id)) {
                record.summarized = job->count();
                record.summaryText = summary.summary;
            }
            record.summarizerStep = SummarizerStep::Extractive;
        }
    };
    if (out.tier == Tier::Warn) {
        pass.warnOffload(record.id);
    } else if (out.tier != Tier::None) {
        summarise(out.tier);
        if (out.tier == Tier::Emergency)
            pass.emergencyOffload(record.id);
    }
    if (!pass.offloadErrors.isEmpty())
        return refuse(pass.offloadErrors.join(u"; "_s));
    if (!inherited && pass.offloaded.isEmpty() && pass.newCheckpoints.isEmpty())
        return out; // the tier asked for nothing that could be done: the request is as it was

    // Placeholders and the checkpoint's references name the file where the client can read it:
    // an absolute path, and no tool name of Waterline's own agent. The overlays keep that text, so
    // the recorded view and the next requests show what went upstream.
    const QString relativeDir = Paths::offloadRelativeDir(offloadSessionFor(*request));
    const QString absoluteDir = QDir(m_offloadRoot).filePath(relativeDir);
    const auto forClient = [&](const QString &text) {
        if (!text.contains(relativeDir))
            return text;
        QString shown = withAbsolutePaths(text, relativeDir, absoluteDir);
        shown.replace(u"read it with read_file(path, offset, limit)"_s, u"read it with your file reading tool"_s);
        return shown;
    };
    auto compaction = std::make_shared<ProxyCompaction>();
    compaction->policy = m_policy.toJson();
    for (Checkpoint &cp : overlays.checkpoints) {
        if (cp.recordId != record.id)
            continue;
        cp.text = forClient(cp.text);
        cp.textBytes = cp.text.toUtf8().size();
        compaction->checkpoints.append(cp);
    }
    for (OffloadOverlay &o : overlays.offloads) {
        if (o.recordId != record.id)
            continue;
        o.placeholder = forClient(o.placeholder);
        o.referenceBytes = -1;
        // Stored with the file's absolute path: the session's folder is not where compact mode
        // writes (the Offloads dock opens the file by it).
        OffloadOverlay stored = o;
        stored.entry.relativePath = QDir(m_offloadRoot).filePath(o.entry.relativePath);
        compaction->offloads.append(stored);
    }
    view = ContextView::build(request->systemPrompt, history, overlays);

    QList<Message> compacted = view.messages(history, overlays);
    compacted.removeIf([](const Message &m) { return m.role == Role::System && m.id == 0 && !m.isToolResult(); });
    if (!pairsValid(compacted, &why))
        return refuse(QCoreApplication::translate("ProxyCompactor", "the compacted view would not pair tool calls with their results: %1").arg(why));

    QJsonObject rewritten = object;
    if (protocol == WireProtocol::AnthropicMessages) {
        rewritten.insert(u"messages"_s, anthropicMessages(compacted));
    } else if (protocol == WireProtocol::OpenAiChat) {
        rewritten.insert(u"messages"_s, chatMessages(leadingSystemOf(object.value(u"messages")), compacted));
    } else {
        QSet<QString> customCalls;
        for (const QJsonValue &item : object.value(u"input").toArray())
            if (item.toObject().value(u"type").toString() == u"custom_tool_call")
                customCalls.insert(item.toObject().value(u"call_id").toString());
        rewritten.insert(u"input"_s, responsesInput(leadingSystemOf(object.value(u"input")), compacted, customCalls));
    }
    out.body = QJsonDocument(rewritten).toJson(QJsonDocument::Compact);
    out.kind = Outcome::Kind::Compacted;
    out.tokensAfter = pass.estimate().totalTokens();
    out.messagesAfter = int(compacted.size());
    out.offloaded = int(pass.offloaded.size());

    compaction->requestMessages = history.size();
    compaction->viewOpensWithCheckpoint = view.hasCheckpoint();
    compaction->stateNote = out.stateNote;
    if (!compaction->checkpoints.isEmpty() || !compaction->offloads.isEmpty()) {
        record.timestamp = QDateTime::currentDateTime();
        record.timestamp = record.timestamp.toOffsetFromUtc(record.timestamp.offsetFromUtc());
        record.offloaded = pass.offloaded;
        record.tokensAfter = view.tokens();
        record.msgsAfter = view.size();
        record.compressionRatio = record.tokensBefore > 0 ? double(record.tokensAfter) / double(record.tokensBefore) : 1.0;
        if (!compaction->checkpoints.isEmpty()) {
            record.anchors = pass.anchorMerge.anchors;
            record.anchorChanges = pass.anchorMerge.changes;
        } else {
            if (!overlays.checkpoints.isEmpty())
                record.anchors = overlays.checkpoints.constLast().anchors;
            record.anchorChanges.fill(AnchorChange::Unchanged);
        }
        record.changed = true;
        record.durationMs = clock.elapsed();
        compaction->record = record;
    }
    out.compaction = std::move(compaction);
    if (state)
        state->overlays = std::move(overlays);
    qCInfo(lcProxy) << "compacted a request from" << out.tokensBefore << "to" << out.tokensAfter << "tokens";
    return out;
}

} // namespace wl
