#include "AnthropicClient.h"

#include "JsonBodyWriter.h"
#include "StreamAssembler.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkRequest>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
struct Turn
{
    QString role; // "user" | "assistant"
    QJsonArray blocks;
};

QJsonObject textBlock(const QString &text)
{
    return QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, text}};
}

QJsonObject toolInput(const QString &arguments)
{
    if (arguments.trimmed().isEmpty())
        return {};
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(arguments.toUtf8(), &parseError);
    if (parseError.error == QJsonParseError::NoError && doc.isObject())
        return doc.object();
    return QJsonObject{{u"_raw_arguments"_s, arguments}};
}

Turn turnFor(const Message &m)
{
    Turn turn;
    switch (m.role) {
    case Role::System:
        break;
    case Role::User:
        turn.role = u"user"_s;
        if (!m.content.isEmpty())
            turn.blocks.append(textBlock(m.content));
        break;
    case Role::Assistant:
        turn.role = u"assistant"_s;
        if (!m.content.isEmpty())
            turn.blocks.append(textBlock(m.content));
        for (const ToolCall &call : m.toolCalls) {
            turn.blocks.append(QJsonObject{
                {u"type"_s, u"tool_use"_s},
                {u"id"_s, call.id},
                {u"name"_s, call.name},
                {u"input"_s, toolInput(call.arguments)},
            });
        }
        break;
    case Role::Tool: {
        turn.role = u"user"_s;
        QJsonObject block{{u"type"_s, u"tool_result"_s}, {u"tool_use_id"_s, m.toolCallId}};
        if (!m.content.isEmpty())
            block.insert(u"content", m.content);
        if (m.isError)
            block.insert(u"is_error", true);
        turn.blocks.append(block);
        break;
    }
    }
    return turn;
}

void appendMerged(QList<Turn> &turns, const Turn &turn)
{
    if (turn.blocks.isEmpty())
        return;
    if (turns.isEmpty() || turns.last().role != turn.role) {
        turns.append(turn);
        return;
    }
    QJsonArray &blocks = turns.last().blocks;
    for (const QJsonValue &block : turn.blocks)
        blocks.append(block);
    if (turn.role != u"user")
        return;
    // tool_result blocks must lead a user message; keep each group's order.
    QJsonArray results, others;
    for (const QJsonValue &block : std::as_const(blocks))
        (block.toObject().value(u"type").toString() == u"tool_result" ? results : others).append(block);
    for (const QJsonValue &block : std::as_const(others))
        results.append(block);
    blocks = results;
}

const QJsonObject kEphemeral{{u"type"_s, u"ephemeral"_s}};

// The same turns for requestBody(), as references into the request instead of JSON objects.
struct BodyBlock
{
    enum class Kind : quint8 { Text, ToolUse, ToolResult };
    Kind kind = Kind::Text;
    bool cache = false;
    const Message *message = nullptr; // Text (null: the "[Conversation start]" text), ToolResult
    const ToolCall *call = nullptr;   // ToolUse
};

struct BodyTurn
{
    bool user = true;
    QList<BodyBlock> blocks;
};

// turnFor() and appendMerged() over references.
QList<BodyTurn> bodyTurns(const ChatRequest &request)
{
    QList<BodyTurn> turns;
    for (const Message &m : request.messages) {
        BodyTurn turn;
        switch (m.role) {
        case Role::System:
            continue;
        case Role::User:
            if (!m.content.isEmpty())
                turn.blocks.append({BodyBlock::Kind::Text, false, &m, nullptr});
            break;
        case Role::Assistant:
            turn.user = false;
            if (!m.content.isEmpty())
                turn.blocks.append({BodyBlock::Kind::Text, false, &m, nullptr});
            for (const ToolCall &call : m.toolCalls)
                turn.blocks.append({BodyBlock::Kind::ToolUse, false, nullptr, &call});
            break;
        case Role::Tool:
            turn.blocks.append({BodyBlock::Kind::ToolResult, false, &m, nullptr});
            break;
        }
        if (turn.blocks.isEmpty())
            continue;
        if (turns.isEmpty() || turns.last().user != turn.user)
            turns.append(std::move(turn));
        else
            turns.last().blocks.append(turn.blocks);
    }
    // tool_result blocks lead a user message; each group keeps its order.
    for (BodyTurn &turn : turns) {
        if (turn.user && turn.blocks.size() > 1)
            std::stable_partition(turn.blocks.begin(), turn.blocks.end(),
                                  [](const BodyBlock &b) { return b.kind == BodyBlock::Kind::ToolResult; });
    }
    if (!turns.isEmpty() && !turns.first().user)
        turns.prepend(BodyTurn{true, {BodyBlock{}}});
    if (request.promptCaching && !turns.isEmpty())
        turns.last().blocks.last().cache = true;
    return turns;
}

constexpr QByteArrayView kCacheControl = "\"cache_control\":{\"type\":\"ephemeral\"},";

void writeBlock(JsonBodyWriter &out, const BodyBlock &block)
{
    out.raw('{');
    if (block.cache)
        out.raw(kCacheControl);
    switch (block.kind) {
    case BodyBlock::Kind::Text:
        out.raw("\"text\":");
        out.string(block.message ? QStringView(block.message->content) : QStringView(u"[Conversation start]"));
        out.raw(",\"type\":\"text\"}");
        break;
    case BodyBlock::Kind::ToolUse:
        out.raw("\"id\":");
        out.string(block.call->id);
        out.raw(",\"input\":");
        out.value(toolInput(block.call->arguments));
        out.raw(",\"name\":");
        out.string(block.call->name);
        out.raw(",\"type\":\"tool_use\"}");
        break;
    case BodyBlock::Kind::ToolResult:
        if (!block.message->content.isEmpty()) {
            out.raw("\"content\":");
            out.string(block.message->content);
            out.raw(',');
        }
        if (block.message->isError)
            out.raw("\"is_error\":true,");
        out.raw("\"tool_use_id\":");
        out.string(block.message->toolCallId);
        out.raw(",\"type\":\"tool_result\"}");
        break;
    }
}
} // namespace

QString AnthropicClient::protocolName() const
{
    return u"anthropic"_s;
}

QUrl AnthropicClient::apiUrl(const QUrl &base, QStringView path)
{
    QString basePath = base.path();
    while (basePath.endsWith(u'/'))
        basePath.chop(1);
    return joinUrl(base, basePath.endsWith(u"/v1") ? path : QString(u"/v1"_s + path));
}

QUrl AnthropicClient::endpoint() const
{
    return apiUrl(baseUrl(), u"/messages");
}

QJsonObject AnthropicClient::requestJson(const ChatRequest &request)
{
    QStringList system;
    QList<Turn> turns;
    for (const Message &m : request.messages) {
        if (m.role == Role::System) {
            if (!m.content.isEmpty())
                system << m.content;
            continue;
        }
        appendMerged(turns, turnFor(m));
    }
    if (!turns.isEmpty() && turns.first().role == u"assistant")
        turns.prepend(Turn{u"user"_s, QJsonArray{textBlock(u"[Conversation start]"_s)}});

    if (request.promptCaching && !turns.isEmpty()) {
        QJsonArray &blocks = turns.last().blocks;
        QJsonObject last = blocks.last().toObject();
        last.insert(u"cache_control", kEphemeral);
        blocks.replace(blocks.size() - 1, last);
    }

    QJsonArray messages;
    for (const Turn &turn : std::as_const(turns))
        messages.append(QJsonObject{{u"role"_s, turn.role}, {u"content"_s, turn.blocks}});

    QJsonObject body{
        {u"model"_s, request.model},
        {u"max_tokens"_s, request.maxOutputTokens > 0 ? request.maxOutputTokens : 4096},
        {u"messages"_s, messages},
        {u"stream"_s, true},
    };
    if (!system.isEmpty()) {
        const QString text = system.join(u"\n\n"_s);
        if (request.promptCaching) {
            QJsonObject block = textBlock(text);
            block.insert(u"cache_control", kEphemeral);
            body.insert(u"system", QJsonArray{block});
        } else {
            body.insert(u"system", text);
        }
    }
    if (request.temperature)
        body.insert(u"temperature", *request.temperature);
    if (!request.tools.isEmpty()) {
        QJsonArray tools;
        for (const ToolSpec &spec : request.tools) {
            QJsonObject schema = spec.inputSchema;
            if (schema.isEmpty())
                schema = QJsonObject{{u"type"_s, u"object"_s}, {u"properties"_s, QJsonObject{}}};
            QJsonObject tool{{u"name"_s, spec.name}, {u"input_schema"_s, schema}};
            if (!spec.description.isEmpty())
                tool.insert(u"description", spec.description);
            tools.append(tool);
        }
        if (request.promptCaching) {
            QJsonObject last = tools.last().toObject();
            last.insert(u"cache_control", kEphemeral);
            tools.replace(tools.size() - 1, last);
        }
        body.insert(u"tools", tools);
    }
    return body;
}

QByteArray AnthropicClient::requestBody(const ChatRequest &request) const
{
    // requestJson() through QJsonDocument, written without building it (tst_summaryrequest).
    JsonBodyWriter out(bodySizeHint(request));
    out.raw("{\"max_tokens\":");
    out.number(request.maxOutputTokens > 0 ? request.maxOutputTokens : 4096);
    out.raw(",\"messages\":[");
    const QList<BodyTurn> turns = bodyTurns(request);
    for (qsizetype t = 0; t < turns.size(); ++t) {
        out.raw(t ? QByteArrayView(",{\"content\":[") : QByteArrayView("{\"content\":["));
        const QList<BodyBlock> &blocks = turns[t].blocks;
        for (qsizetype b = 0; b < blocks.size(); ++b) {
            if (b)
                out.raw(',');
            writeBlock(out, blocks[b]);
        }
        out.raw(turns[t].user ? QByteArrayView("],\"role\":\"user\"}") : QByteArrayView("],\"role\":\"assistant\"}"));
    }
    out.raw("],\"model\":");
    out.string(request.model);
    out.raw(",\"stream\":true");

    QStringList system;
    for (const Message &m : request.messages) {
        if (m.role == Role::System && !m.content.isEmpty())
            system << m.content;
    }
    if (!system.isEmpty()) {
        // One system message (the summariser's case) is written from where it is.
        const QString joined = system.size() == 1 ? system.first() : system.join(u"\n\n"_s);
        if (request.promptCaching) {
            out.raw(",\"system\":[{");
            out.raw(kCacheControl);
            out.raw("\"text\":");
            out.string(joined);
            out.raw(",\"type\":\"text\"}]");
        } else {
            out.raw(",\"system\":");
            out.string(joined);
        }
    }
    if (request.temperature) {
        out.raw(",\"temperature\":");
        out.value(QJsonValue(*request.temperature));
    }
    if (!request.tools.isEmpty()) {
        out.raw(",\"tools\":[");
        for (qsizetype i = 0; i < request.tools.size(); ++i) {
            const ToolSpec &spec = request.tools[i];
            out.raw(i ? QByteArrayView(",{") : QByteArrayView("{"));
            if (request.promptCaching && i == request.tools.size() - 1)
                out.raw(kCacheControl);
            if (!spec.description.isEmpty()) {
                out.raw("\"description\":");
                out.string(spec.description);
                out.raw(',');
            }
            out.raw("\"input_schema\":");
            QJsonObject schema = spec.inputSchema;
            if (schema.isEmpty())
                schema = QJsonObject{{u"type"_s, u"object"_s}, {u"properties"_s, QJsonObject{}}};
            out.value(schema);
            out.raw(",\"name\":");
            out.string(spec.name);
            out.raw('}');
        }
        out.raw(']');
    }
    out.raw('}');
    return out.take();
}

void AnthropicClient::addHeaders(QNetworkRequest &request) const
{
    if (hasApiKey())
        request.setRawHeader(QByteArrayLiteral("x-api-key"), apiKey().toUtf8());
    request.setRawHeader(QByteArrayLiteral("anthropic-version"), QByteArray(kApiVersion.data(), kApiVersion.size()));
}

std::unique_ptr<StreamAssembler> AnthropicClient::createAssembler() const
{
    return std::make_unique<AnthropicStreamAssembler>();
}

} // namespace wl
