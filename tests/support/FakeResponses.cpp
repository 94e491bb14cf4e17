#include "FakeResponses.h"

#include "FakeLlmServer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace wl::test::FakeResponses {

namespace {

QStringList pieces(const QString &text, int size)
{
    QStringList out;
    for (qsizetype i = 0; i < text.size(); i += size)
        out << text.mid(i, size);
    return out;
}

QJsonObject usage(const FakeReply &r)
{
    return QJsonObject{
        {u"input_tokens"_s, r.inputTokens},
        {u"input_tokens_details"_s, QJsonObject{{u"cached_tokens"_s, r.cacheReadTokens}}},
        {u"output_tokens"_s, r.outputTokens},
        {u"output_tokens_details"_s, QJsonObject{{u"reasoning_tokens"_s, 0}}},
        {u"total_tokens"_s, r.inputTokens + r.outputTokens},
    };
}

// The output items of the reply, complete (as output_item.done and response.completed carry them).
QJsonArray outputItems(const FakeReply &r)
{
    QJsonArray items;
    if (!r.thinking.isEmpty())
        items.append(QJsonObject{{u"id"_s, u"rs_fake_0"_s}, {u"type"_s, u"reasoning"_s},
                                 {u"summary"_s, QJsonArray{QJsonObject{{u"type"_s, u"summary_text"_s}, {u"text"_s, r.thinking}}}}});
    if (!r.text.isEmpty())
        items.append(QJsonObject{{u"id"_s, u"msg_fake_%1"_s.arg(items.size())}, {u"type"_s, u"message"_s},
                                 {u"status"_s, u"completed"_s}, {u"role"_s, u"assistant"_s},
                                 {u"content"_s, QJsonArray{QJsonObject{{u"type"_s, u"output_text"_s}, {u"annotations"_s, QJsonArray{}},
                                                                       {u"logprobs"_s, QJsonArray{}}, {u"text"_s, r.text}}}}});
    for (const FakeToolCall &call : r.toolCalls)
        items.append(QJsonObject{{u"id"_s, u"fc_fake_%1"_s.arg(items.size())}, {u"type"_s, u"function_call"_s},
                                 {u"status"_s, u"completed"_s}, {u"arguments"_s, call.arguments},
                                 {u"call_id"_s, call.id}, {u"name"_s, call.name}});
    return items;
}

QJsonObject responseObject(const FakeReply &r, const QString &model, bool completed)
{
    QJsonObject o{{u"id"_s, u"resp_fake"_s}, {u"object"_s, u"response"_s}, {u"created_at"_s, 1700000000},
                  {u"status"_s, completed ? u"completed"_s : u"in_progress"_s}, {u"error"_s, QJsonValue::Null},
                  {u"incomplete_details"_s, QJsonValue::Null}, {u"model"_s, model},
                  {u"output"_s, completed ? outputItems(r) : QJsonArray{}}, {u"parallel_tool_calls"_s, true},
                  {u"store"_s, false}, {u"tool_choice"_s, u"auto"_s}, {u"usage"_s, QJsonValue::Null}};
    if (completed && r.sendUsage)
        o.insert(u"usage", usage(r));
    return o;
}

// Numbers the events as the API does and frames them with their `event:` line.
class Stream
{
public:
    void add(const QString &type, QJsonObject payload)
    {
        payload.insert(u"type", type);
        payload.insert(u"sequence_number", m_sequence++);
        m_events << "event: " + type.toUtf8() + "\ndata: " + QJsonDocument(payload).toJson(QJsonDocument::Compact) + "\n\n";
    }
    QList<QByteArray> events() const { return m_events; }

private:
    QList<QByteArray> m_events;
    int m_sequence = 0;
};

} // namespace

QList<QByteArray> render(const FakeReply &r, const QString &model)
{
    Stream stream;
    stream.add(u"response.created"_s, {{u"response"_s, responseObject(r, model, false)}});
    stream.add(u"response.in_progress"_s, {{u"response"_s, responseObject(r, model, false)}});
    const QJsonArray items = outputItems(r);
    for (qsizetype index = 0; index < items.size(); ++index) {
        const QJsonObject done = items.at(index).toObject();
        const QString type = done.value(u"type").toString();
        const QString id = done.value(u"id").toString();
        const QJsonObject at{{u"item_id"_s, id}, {u"output_index"_s, index}};
        auto with = [&at](std::initializer_list<std::pair<QString, QJsonValue>> fields) {
            QJsonObject o = at;
            for (const auto &[key, value] : fields)
                o.insert(key, value);
            return o;
        };
        QJsonObject added = done;
        added.insert(u"status", u"in_progress"_s);
        if (type == u"reasoning") {
            added.insert(u"summary", QJsonArray{});
            added.remove(u"status");
            stream.add(u"response.output_item.added"_s, {{u"item"_s, added}, {u"output_index"_s, index}});
            const QJsonObject part{{u"type"_s, u"summary_text"_s}, {u"text"_s, u""_s}};
            stream.add(u"response.reasoning_summary_part.added"_s, with({{u"summary_index"_s, 0}, {u"part"_s, part}}));
            for (const QString &p : pieces(r.thinking, r.chunkChars))
                stream.add(u"response.reasoning_summary_text.delta"_s, with({{u"summary_index"_s, 0}, {u"delta"_s, p}}));
            stream.add(u"response.reasoning_summary_text.done"_s, with({{u"summary_index"_s, 0}, {u"text"_s, r.thinking}}));
            stream.add(u"response.reasoning_summary_part.done"_s,
                       with({{u"summary_index"_s, 0}, {u"part"_s, QJsonObject{{u"type"_s, u"summary_text"_s}, {u"text"_s, r.thinking}}}}));
        } else if (type == u"message") {
            added.insert(u"content", QJsonArray{});
            stream.add(u"response.output_item.added"_s, {{u"item"_s, added}, {u"output_index"_s, index}});
            const QJsonObject part{{u"type"_s, u"output_text"_s}, {u"annotations"_s, QJsonArray{}}, {u"logprobs"_s, QJsonArray{}}, {u"text"_s, u""_s}};
            stream.add(u"response.content_part.added"_s, with({{u"content_index"_s, 0}, {u"part"_s, part}}));
            for (const QString &p : pieces(r.text, r.chunkChars))
                stream.add(u"response.output_text.delta"_s,
                           with({{u"content_index"_s, 0}, {u"delta"_s, p}, {u"logprobs"_s, QJsonArray{}}}));
            stream.add(u"response.output_text.done"_s,
                       with({{u"content_index"_s, 0}, {u"text"_s, r.text}, {u"logprobs"_s, QJsonArray{}}}));
            QJsonObject donePart = part;
            donePart.insert(u"text", r.text);
            stream.add(u"response.content_part.done"_s, with({{u"content_index"_s, 0}, {u"part"_s, donePart}}));
        } else {
            const QString arguments = done.value(u"arguments").toString();
            added.insert(u"arguments", u""_s);
            stream.add(u"response.output_item.added"_s, {{u"item"_s, added}, {u"output_index"_s, index}});
            for (const QString &p : pieces(arguments, r.chunkChars))
                stream.add(u"response.function_call_arguments.delta"_s, with({{u"delta"_s, p}}));
            stream.add(u"response.function_call_arguments.done"_s, with({{u"arguments"_s, arguments}}));
        }
        stream.add(u"response.output_item.done"_s, {{u"item"_s, done}, {u"output_index"_s, index}});
    }
    stream.add(u"response.completed"_s, {{u"response"_s, responseObject(r, model, true)}});
    return stream.events();
}

QByteArray whole(const FakeReply &r, const QString &model)
{
    return QJsonDocument(responseObject(r, model, true)).toJson(QJsonDocument::Compact);
}

QList<QByteArray> failure(const QString &errorType, int sequenceNumber)
{
    const QJsonObject error{{u"type"_s, errorType}, {u"code"_s, errorType}, {u"message"_s, u"The fake upstream failed"_s},
                            {u"param"_s, QJsonValue::Null}};
    auto frame = [](const QString &type, const QJsonObject &payload) {
        return "event: " + type.toUtf8() + "\ndata: " + QJsonDocument(payload).toJson(QJsonDocument::Compact) + "\n\n";
    };
    return {frame(u"error"_s, {{u"type"_s, u"error"_s}, {u"sequence_number"_s, sequenceNumber}, {u"error"_s, error}}),
            frame(u"response.failed"_s, {{u"type"_s, u"response.failed"_s}, {u"sequence_number"_s, sequenceNumber + 1},
                                         {u"response"_s, QJsonObject{{u"id"_s, u"resp_fake"_s}, {u"object"_s, u"response"_s},
                                                                     {u"status"_s, u"failed"_s}, {u"error"_s, error}}}})};
}

} // namespace wl::test::FakeResponses
