#include "FakeLlmServer.h"

#include "FakeResponses.h"
#include "TestSupport.h"
#include "llm/Redaction.h"

#include <QFile>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace wl::test {

// ---- RecordedRequest -------------------------------------------------------

QByteArray RecordedRequest::header(QByteArrayView name) const
{
    for (const auto &[n, v] : headers) {
        if (name.compare(n, Qt::CaseInsensitive) == 0)
            return v;
    }
    return {};
}

bool RecordedRequest::hasHeader(QByteArrayView name) const
{
    for (const auto &[n, v] : headers) {
        if (name.compare(n, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

QJsonObject RecordedRequest::json() const
{
    return QJsonDocument::fromJson(body).object();
}

QString RecordedRequest::protocol() const
{
    const QByteArray p = path.left(path.indexOf('?') < 0 ? path.size() : path.indexOf('?'));
    if (p.endsWith("/chat/completions"))
        return u"openai-chat"_s;
    if (p.endsWith("/v1/messages"))
        return u"anthropic"_s;
    if (p.endsWith("/responses"))
        return u"openai-responses"_s;
    if (p.endsWith("/models"))
        return u"models"_s;
    return u"other"_s;
}

namespace {
// The text of a Responses API input message: a string, or its input_text / output_text parts.
QString responsesText(const QJsonObject &item)
{
    const QJsonValue content = item.value(u"content");
    if (content.isString())
        return content.toString();
    QStringList parts;
    for (const QJsonValue &part : content.toArray())
        parts << part.toObject().value(u"text").toString();
    return parts.join(u'\n');
}
} // namespace

QString RecordedRequest::systemPrompt() const
{
    const QJsonObject o = json();
    if (protocol() == u"openai-responses") {
        QStringList parts;
        if (o.value(u"instructions").isString())
            parts << o.value(u"instructions").toString();
        for (const QJsonValue &item : o.value(u"input").toArray()) {
            const QString role = item.toObject().value(u"role").toString();
            if (role == u"system" || role == u"developer")
                parts << responsesText(item.toObject());
        }
        return parts.join(u"\n\n"_s);
    }
    if (protocol() == u"anthropic") {
        const QJsonValue system = o.value(u"system");
        if (system.isString())
            return system.toString();
        QStringList parts;
        for (const QJsonValue &block : system.toArray())
            parts << block.toObject().value(u"text").toString();
        return parts.join(u"\n\n"_s);
    }
    QStringList parts;
    for (const QJsonValue &m : o.value(u"messages").toArray()) {
        if (m.toObject().value(u"role").toString() == u"system")
            parts << m.toObject().value(u"content").toString();
    }
    return parts.join(u"\n\n"_s);
}

QString RecordedRequest::lastUserText() const
{
    if (protocol() == u"openai-responses") {
        const QJsonValue input = json().value(u"input");
        if (input.isString())
            return input.toString();
        const QJsonArray items = input.toArray();
        for (qsizetype i = items.size() - 1; i >= 0; --i) {
            if (items.at(i).toObject().value(u"role").toString() == u"user")
                return responsesText(items.at(i).toObject());
        }
        return {};
    }
    const QJsonArray messages = json().value(u"messages").toArray();
    for (qsizetype i = messages.size() - 1; i >= 0; --i) {
        const QJsonObject m = messages.at(i).toObject();
        if (m.value(u"role").toString() != u"user")
            continue;
        const QJsonValue content = m.value(u"content");
        if (content.isString())
            return content.toString();
        QStringList parts;
        for (const QJsonValue &block : content.toArray()) {
            if (block.toObject().value(u"type").toString() == u"text")
                parts << block.toObject().value(u"text").toString();
        }
        return parts.join(u'\n');
    }
    return {};
}

bool RecordedRequest::isSummarizerCall() const
{
    return systemPrompt().contains(u"context compaction engine", Qt::CaseInsensitive);
}

QString RecordedRequest::dump() const
{
    QString out = QString::fromLatin1(method) + u' ' + QString::fromLatin1(path) + u'\n';
    for (const auto &[n, v] : headers)
        out += QString::fromLatin1(n) + u": "_s + QString::fromLatin1(v) + u'\n';
    out += u'\n' + QString::fromUtf8(body);
    return out;
}

// ---- FakeReply --------------------------------------------------------------

FakeReply FakeReply::withText(const QString &text)
{
    FakeReply r;
    r.text = text;
    return r;
}

FakeReply FakeReply::withToolCalls(const QList<FakeToolCall> &calls, const QString &text)
{
    FakeReply r;
    r.text = text;
    r.toolCalls = calls;
    return r;
}

FakeReply FakeReply::withStatus(int status, const QByteArray &body, const HeaderList &headers)
{
    FakeReply r;
    r.fault = Fault::Status;
    r.status = status;
    r.body = body.isEmpty() ? QByteArray(R"({"error":{"message":"fake error","type":"fake_error"}})") : body;
    r.headers = headers;
    r.contentType = "application/json";
    return r;
}

FakeReply FakeReply::withFault(Fault fault, int afterEvents)
{
    FakeReply r;
    r.fault = fault;
    r.faultAfterEvents = afterEvents;
    r.text = u"partial reply that should never be completed"_s;
    return r;
}

std::optional<FakeReply> FakeReply::fromJson(const QJsonObject &o, QString *error)
{
    auto fail = [error](const QString &text) {
        if (error)
            *error = text;
        return std::nullopt;
    };
    FakeReply r;
    r.text = o.value(u"text").toString();
    r.thinking = o.value(u"thinking").toString();
    for (const QJsonValue &v : o.value(u"toolCalls").toArray()) {
        const QJsonObject c = v.toObject();
        r.toolCalls.append({c.value(u"id").toString(), c.value(u"name").toString(), c.value(u"arguments").toString()});
    }
    r.finishReason = o.value(u"finishReason").toString();
    if (o.contains(u"usage")) {
        const QJsonValue usage = o.value(u"usage");
        r.sendUsage = usage.isObject();
        const QJsonObject u = usage.toObject();
        r.inputTokens = qint64(u.value(u"input").toDouble(double(r.inputTokens)));
        r.outputTokens = qint64(u.value(u"output").toDouble(double(r.outputTokens)));
        r.cacheReadTokens = qint64(u.value(u"cacheRead").toDouble(0));
        r.cacheWriteTokens = qint64(u.value(u"cacheWrite").toDouble(0));
    }
    r.includeDone = o.value(u"done").toBool(true);
    r.wholeJson = o.value(u"wholeJson").toBool(false);
    r.chunkChars = qMax(1, o.value(u"chunkChars").toInt(r.chunkChars));
    r.delayMs = o.value(u"delayMs").toInt(0);
    r.splitEveryByte = o.value(u"splitEveryByte").toBool(false);
    if (o.contains(u"rawBodyFile")) {
        const QString relative = o.value(u"rawBodyFile").toString();
        if (relative.contains(u"..")) // scenario files are data too: no climbing out of tests/data
            return fail(u"rawBodyFile must stay inside tests/data: "_s + relative);
        QFile file(dataPath(relative));
        if (!file.open(QIODevice::ReadOnly))
            return fail(u"cannot read rawBodyFile "_s + relative);
        r.rawBody = file.readAll();
    }
    if (o.contains(u"status")) {
        r.fault = Fault::Status;
        r.status = o.value(u"status").toInt();
        const QJsonValue body = o.value(u"body");
        r.body = body.isString() ? body.toString().toUtf8()
                                 : QJsonDocument(body.toObject()).toJson(QJsonDocument::Compact);
        r.contentType = body.isString() ? "text/plain" : "application/json";
    }
    const QJsonObject headers = o.value(u"headers").toObject();
    for (auto it = headers.begin(); it != headers.end(); ++it)
        r.headers.append({it.key().toLatin1(), it.value().toString().toLatin1()});
    if (o.contains(u"fault")) {
        const QString f = o.value(u"fault").toString();
        if (f == u"disconnect")
            r.fault = Fault::Disconnect;
        else if (f == u"malformed-json")
            r.fault = Fault::MalformedJson;
        else if (f == u"error-event")
            r.fault = Fault::ErrorEvent;
        else if (f == u"hang")
            r.fault = Fault::Hang;
        else
            return fail(u"unknown fault: "_s + f);
        r.faultAfterEvents = o.value(u"afterEvents").toInt(-1);
    }
    if (o.contains(u"errorType"))
        r.errorType = o.value(u"errorType").toString();
    r.persistent = o.value(u"persistent").toBool(false);
    if (o.value(u"when").isObject()) {
        const QJsonObject w = o.value(u"when").toObject();
        const QString system = w.value(u"systemContains").toString();
        const QString user = w.value(u"lastUserContains").toString();
        const QString path = w.value(u"pathContains").toString();
        const QString model = w.value(u"model").toString();
        r.when = [system, user, path, model](const RecordedRequest &req) {
            return (system.isEmpty() || req.systemPrompt().contains(system))
                && (user.isEmpty() || req.lastUserText().contains(user))
                && (path.isEmpty() || QString::fromLatin1(req.path).contains(path))
                && (model.isEmpty() || req.json().value(u"model").toString() == model);
        };
    }
    return r;
}

// ---- rendering --------------------------------------------------------------

namespace {

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QStringList pieces(const QString &text, int size)
{
    QStringList out;
    for (qsizetype i = 0; i < text.size(); i += size)
        out << text.mid(i, size);
    return out;
}

QByteArray openAiEvent(const QJsonObject &chunk)
{
    return "data: " + compact(chunk) + "\n\n";
}

QByteArray anthropicEvent(const QJsonObject &payload)
{
    return "event: " + payload.value(u"type").toString().toLatin1() + "\ndata: " + compact(payload) + "\n\n";
}

QJsonObject openAiUsage(const FakeReply &r)
{
    return QJsonObject{
        {u"prompt_tokens"_s, r.inputTokens},
        {u"completion_tokens"_s, r.outputTokens},
        {u"total_tokens"_s, r.inputTokens + r.outputTokens},
        {u"prompt_tokens_details"_s, QJsonObject{{u"cached_tokens"_s, r.cacheReadTokens}}},
    };
}

QString openAiFinish(const FakeReply &r)
{
    if (!r.finishReason.isEmpty())
        return r.finishReason;
    return r.toolCalls.isEmpty() ? u"stop"_s : u"tool_calls"_s;
}

QString anthropicStop(const FakeReply &r)
{
    if (!r.finishReason.isEmpty())
        return r.finishReason;
    return r.toolCalls.isEmpty() ? u"end_turn"_s : u"tool_use"_s;
}

QList<QByteArray> renderOpenAi(const FakeReply &r, const QString &model)
{
    const QJsonObject base{{u"id"_s, u"chatcmpl-fake"_s}, {u"object"_s, u"chat.completion.chunk"_s},
                           {u"created"_s, 1700000000}, {u"model"_s, model}};
    auto chunk = [&base](const QJsonObject &delta, const QJsonValue &finish = QJsonValue::Null) {
        QJsonObject c = base;
        c.insert(u"choices", QJsonArray{QJsonObject{{u"index"_s, 0}, {u"delta"_s, delta}, {u"finish_reason"_s, finish}}});
        return openAiEvent(c);
    };
    QList<QByteArray> events;
    events << chunk(QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, u""_s}});
    for (const QString &p : pieces(r.thinking, r.chunkChars))
        events << chunk(QJsonObject{{u"reasoning_content"_s, p}});
    for (const QString &p : pieces(r.text, r.chunkChars))
        events << chunk(QJsonObject{{u"content"_s, p}});
    for (int i = 0; i < r.toolCalls.size(); ++i) {
        const FakeToolCall &call = r.toolCalls[i];
        events << chunk(QJsonObject{{u"tool_calls"_s, QJsonArray{QJsonObject{
            {u"index"_s, i}, {u"id"_s, call.id}, {u"type"_s, u"function"_s},
            {u"function"_s, QJsonObject{{u"name"_s, call.name}, {u"arguments"_s, u""_s}}}}}}});
        for (const QString &p : pieces(call.arguments, r.chunkChars))
            events << chunk(QJsonObject{{u"tool_calls"_s, QJsonArray{QJsonObject{
                {u"index"_s, i}, {u"function"_s, QJsonObject{{u"arguments"_s, p}}}}}}});
    }
    events << chunk(QJsonObject{}, openAiFinish(r));
    if (r.sendUsage) {
        QJsonObject c = base;
        c.insert(u"choices", QJsonArray{});
        c.insert(u"usage", openAiUsage(r));
        events << openAiEvent(c);
    }
    if (r.includeDone)
        events << QByteArray("data: [DONE]\n\n");
    return events;
}

QList<QByteArray> renderAnthropic(const FakeReply &r, const QString &model)
{
    QList<QByteArray> events;
    const qint64 rawInput = r.inputTokens - r.cacheReadTokens - r.cacheWriteTokens;
    events << anthropicEvent(QJsonObject{
        {u"type"_s, u"message_start"_s},
        {u"message"_s, QJsonObject{
            {u"id"_s, u"msg_fake"_s}, {u"type"_s, u"message"_s}, {u"role"_s, u"assistant"_s}, {u"model"_s, model},
            {u"content"_s, QJsonArray{}}, {u"stop_reason"_s, QJsonValue::Null}, {u"stop_sequence"_s, QJsonValue::Null},
            {u"usage"_s, r.sendUsage ? QJsonValue(QJsonObject{
                             {u"input_tokens"_s, rawInput},
                             {u"cache_creation_input_tokens"_s, r.cacheWriteTokens},
                             {u"cache_read_input_tokens"_s, r.cacheReadTokens},
                             {u"output_tokens"_s, 1}})
                                     : QJsonValue(QJsonObject{})}}}});
    int index = 0;
    auto delta = [&index](const QJsonObject &d) {
        return anthropicEvent(QJsonObject{{u"type"_s, u"content_block_delta"_s}, {u"index"_s, index}, {u"delta"_s, d}});
    };
    auto stop = [&index] {
        return anthropicEvent(QJsonObject{{u"type"_s, u"content_block_stop"_s}, {u"index"_s, index}});
    };
    if (!r.thinking.isEmpty()) {
        events << anthropicEvent(QJsonObject{{u"type"_s, u"content_block_start"_s}, {u"index"_s, index},
                                             {u"content_block"_s, QJsonObject{{u"type"_s, u"thinking"_s},
                                                                              {u"thinking"_s, u""_s},
                                                                              {u"signature"_s, u""_s}}}});
        for (const QString &p : pieces(r.thinking, r.chunkChars))
            events << delta(QJsonObject{{u"type"_s, u"thinking_delta"_s}, {u"thinking"_s, p}});
        events << delta(QJsonObject{{u"type"_s, u"signature_delta"_s}, {u"signature"_s, u"ZmFrZS1zaWduYXR1cmU="_s}});
        events << stop();
        ++index;
    }
    if (!r.text.isEmpty()) {
        events << anthropicEvent(QJsonObject{{u"type"_s, u"content_block_start"_s}, {u"index"_s, index},
                                             {u"content_block"_s, QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u""_s}}}});
        for (const QString &p : pieces(r.text, r.chunkChars))
            events << delta(QJsonObject{{u"type"_s, u"text_delta"_s}, {u"text"_s, p}});
        events << stop();
        ++index;
    }
    for (const FakeToolCall &call : r.toolCalls) {
        events << anthropicEvent(QJsonObject{{u"type"_s, u"content_block_start"_s}, {u"index"_s, index},
                                             {u"content_block"_s, QJsonObject{{u"type"_s, u"tool_use"_s},
                                                                              {u"id"_s, call.id},
                                                                              {u"name"_s, call.name},
                                                                              {u"input"_s, QJsonObject{}}}}});
        events << delta(QJsonObject{{u"type"_s, u"input_json_delta"_s}, {u"partial_json"_s, u""_s}});
        for (const QString &p : pieces(call.arguments, r.chunkChars))
            events << delta(QJsonObject{{u"type"_s, u"input_json_delta"_s}, {u"partial_json"_s, p}});
        events << stop();
        ++index;
    }
    QJsonObject messageDelta{{u"type"_s, u"message_delta"_s},
                             {u"delta"_s, QJsonObject{{u"stop_reason"_s, anthropicStop(r)},
                                                      {u"stop_sequence"_s, QJsonValue::Null}}}};
    if (r.sendUsage)
        messageDelta.insert(u"usage", QJsonObject{{u"output_tokens"_s, r.outputTokens}});
    events << anthropicEvent(messageDelta);
    events << anthropicEvent(QJsonObject{{u"type"_s, u"message_stop"_s}});
    return events;
}

QByteArray wholeOpenAi(const FakeReply &r, const QString &model)
{
    QJsonObject message{{u"role"_s, u"assistant"_s},
                        {u"content"_s, r.text.isEmpty() && !r.toolCalls.isEmpty() ? QJsonValue() : QJsonValue(r.text)}};
    if (!r.toolCalls.isEmpty()) {
        QJsonArray calls;
        for (const FakeToolCall &c : r.toolCalls)
            calls.append(QJsonObject{{u"id"_s, c.id}, {u"type"_s, u"function"_s},
                                     {u"function"_s, QJsonObject{{u"name"_s, c.name}, {u"arguments"_s, c.arguments}}}});
        message.insert(u"tool_calls", calls);
    }
    QJsonObject o{{u"id"_s, u"chatcmpl-fake"_s}, {u"object"_s, u"chat.completion"_s}, {u"model"_s, model},
                  {u"choices"_s, QJsonArray{QJsonObject{{u"index"_s, 0}, {u"message"_s, message},
                                                        {u"finish_reason"_s, openAiFinish(r)}}}}};
    if (r.sendUsage)
        o.insert(u"usage", openAiUsage(r));
    return compact(o);
}

QByteArray wholeAnthropic(const FakeReply &r, const QString &model)
{
    QJsonArray content;
    if (!r.text.isEmpty())
        content.append(QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, r.text}});
    for (const FakeToolCall &c : r.toolCalls)
        content.append(QJsonObject{{u"type"_s, u"tool_use"_s}, {u"id"_s, c.id}, {u"name"_s, c.name},
                                   {u"input"_s, QJsonDocument::fromJson(c.arguments.toUtf8()).object()}});
    QJsonObject o{{u"id"_s, u"msg_fake"_s}, {u"type"_s, u"message"_s}, {u"role"_s, u"assistant"_s},
                  {u"model"_s, model}, {u"content"_s, content}, {u"stop_reason"_s, anthropicStop(r)}};
    if (r.sendUsage)
        o.insert(u"usage", QJsonObject{{u"input_tokens"_s, r.inputTokens - r.cacheReadTokens - r.cacheWriteTokens},
                                       {u"cache_read_input_tokens"_s, r.cacheReadTokens},
                                       {u"cache_creation_input_tokens"_s, r.cacheWriteTokens},
                                       {u"output_tokens"_s, r.outputTokens}});
    return compact(o);
}

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 408: return "Request Timeout";
    case 413: return "Payload Too Large";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    case 529: return "Overloaded";
    default: return "Status";
    }
}

QByteArray chunked(QByteArrayView bytes)
{
    return QByteArray::number(bytes.size(), 16) + "\r\n" + bytes.toByteArray() + "\r\n";
}

} // namespace

// ---- Connection ---------------------------------------------------------------

// One accepted socket: reads one request, then plays its response script.
class FakeLlmServer::Connection : public QObject
{
public:
    enum class End { Close, Disconnect, Hang, Trickle };
    struct Step
    {
        QByteArray bytes;
        int delayMs = 0;
    };

    Connection(QTcpSocket *socket, FakeLlmServer *server)
        : QObject(server)
        , m_socket(socket)
        , m_server(server)
    {
        m_socket->setParent(this);
        m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        connect(m_socket, &QTcpSocket::readyRead, this, &Connection::onReadyRead);
        connect(m_socket, &QTcpSocket::disconnected, this, [this] {
            m_timer.stop();
            deleteLater();
        });
        m_timer.setSingleShot(true);
        connect(&m_timer, &QTimer::timeout, this, &Connection::playNext);
    }

    void play(QList<Step> steps, End end, bool yieldBetweenSteps = false)
    {
        m_steps = std::move(steps);
        m_end = end;
        m_yield = yieldBetweenSteps;
        playNext();
    }
    // End::Trickle: what is written, and how often, once the steps are played.
    void setTrickle(const QByteArray &chunk, int everyMs)
    {
        m_trickle = chunk;
        m_trickleMs = everyMs;
    }

private:
    void onReadyRead()
    {
        if (m_handled)
            return;
        m_buffer += m_socket->readAll();
        const qsizetype headerEnd = m_buffer.indexOf("\r\n\r\n");
        if (headerEnd < 0)
            return;
        RecordedRequest request;
        const QList<QByteArray> lines = m_buffer.left(headerEnd).split('\n');
        const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
        request.method = requestLine.value(0);
        request.path = requestLine.value(1);
        qsizetype contentLength = 0;
        HeaderList headers;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines[i].trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0)
                continue;
            const QByteArray name = line.left(colon).trimmed();
            const QByteArray value = line.mid(colon + 1).trimmed();
            headers.append({name, value});
            if (name.compare("content-length", Qt::CaseInsensitive) == 0)
                contentLength = value.toLongLong();
        }
        if (m_buffer.size() < headerEnd + 4 + contentLength)
            return;
        m_handled = true;
        request.headers = Redaction::redactHeaders(headers);
        request.body = Redaction::redact(QByteArrayView(m_buffer).mid(headerEnd + 4, contentLength));
        m_server->handleRequest(this, std::move(request));
    }

    void playNext()
    {
        if (m_socket->state() != QAbstractSocket::ConnectedState)
            return;
        while (m_next < m_steps.size()) {
            const Step &step = m_steps[m_next];
            if (step.delayMs > 0 && !m_waited) {
                m_waited = true;
                m_timer.start(step.delayMs);
                return;
            }
            m_waited = false;
            m_socket->write(step.bytes);
            m_socket->flush();
            ++m_next;
            if (m_yield && m_next < m_steps.size()) {
                // Give the client a turn, so each piece arrives as its own read.
                m_timer.start(0);
                return;
            }
        }
        switch (m_end) {
        case End::Close:
        case End::Disconnect: // without the terminating chunk: the body is cut short
            m_socket->disconnectFromHost();
            break;
        case End::Hang:
            break; // keep the connection open and silent
        case End::Trickle:
            // Never ends: the same chunk again and again, until the client goes away.
            m_steps.append(Step{m_trickle, m_trickleMs});
            m_timer.start(m_trickleMs);
            m_waited = true;
            break;
        }
    }

    QTcpSocket *m_socket;
    FakeLlmServer *m_server;
    QByteArray m_buffer;
    QList<Step> m_steps;
    QTimer m_timer;
    qsizetype m_next = 0;
    End m_end = End::Close;
    bool m_handled = false;
    bool m_waited = false;
    bool m_yield = false;
    QByteArray m_trickle;
    int m_trickleMs = 20;
};

// ---- FakeLlmServer ------------------------------------------------------------

FakeLlmServer::FakeLlmServer(QObject *parent)
    : QObject(parent)
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &FakeLlmServer::onNewConnection);
}

FakeLlmServer::~FakeLlmServer() = default;

bool FakeLlmServer::start()
{
    return m_server->isListening() || m_server->listen(QHostAddress::LocalHost, 0);
}

quint16 FakeLlmServer::port() const
{
    return m_server->serverPort();
}

QUrl FakeLlmServer::url() const
{
    return QUrl(u"http://127.0.0.1:%1"_s.arg(port()));
}

QUrl FakeLlmServer::openAiBaseUrl() const
{
    return QUrl(url().toString() + u"/v1"_s);
}

QUrl FakeLlmServer::anthropicBaseUrl() const
{
    return url();
}

void FakeLlmServer::enqueue(const FakeReply &reply)
{
    m_queue.append(reply);
}

void FakeLlmServer::addRule(const FakeReply &reply)
{
    Q_ASSERT(reply.when);
    m_rules.append(reply);
}

void FakeLlmServer::clear()
{
    m_queue.clear();
    m_rules.clear();
    m_requests.clear();
}

bool FakeLlmServer::loadScenario(const QJsonObject &scenario, QString *error)
{
    if (scenario.contains(u"models")) {
        QStringList models;
        for (const QJsonValue &v : scenario.value(u"models").toArray())
            models << v.toString();
        m_models = models;
    }
    for (const QJsonValue &v : scenario.value(u"replies").toArray()) {
        const std::optional<FakeReply> reply = FakeReply::fromJson(v.toObject(), error);
        if (!reply)
            return false;
        if (reply->when)
            addRule(*reply);
        else
            enqueue(*reply);
    }
    return true;
}

bool FakeLlmServer::loadScenarioFile(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = u"cannot open scenario "_s + path;
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!doc.isObject()) {
        if (error)
            *error = u"scenario %1 is not a JSON object: %2"_s.arg(path, parseError.errorString());
        return false;
    }
    return loadScenario(doc.object(), error);
}

void FakeLlmServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection())
        new Connection(socket, this);
}

void FakeLlmServer::handleRequest(Connection *connection, RecordedRequest request)
{
    request.number = int(m_requests.size()) + 1;
    m_requests.append(request);
    Q_EMIT requestReceived(request);

    const QString protocol = request.protocol();
    std::optional<FakeReply> chosen;
    if (m_responder)
        chosen = m_responder(request);
    for (qsizetype i = 0; !chosen && i < m_rules.size(); ++i) {
        if (m_rules[i].when(request)) {
            chosen = m_rules[i];
            if (!m_rules[i].persistent)
                m_rules.removeAt(i);
            break;
        }
    }
    using Step = Connection::Step;
    using End = Connection::End;
    auto respond = [connection](int status, const QByteArray &contentType, const QByteArray &body,
                                const HeaderList &extra = {}) {
        QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
        head += "Content-Type: " + contentType + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
        for (const auto &[n, v] : extra)
            head += n + ": " + v + "\r\n";
        head += "Connection: close\r\n\r\n";
        connection->play({Step{head + body, 0}}, End::Close);
    };

    if (!chosen && protocol == u"models") {
        QJsonArray data;
        for (const QString &id : std::as_const(m_models))
            data.append(request.path.contains("/v1/models") && request.hasHeader("anthropic-version")
                            ? QJsonObject{{u"type"_s, u"model"_s}, {u"id"_s, id}, {u"display_name"_s, id}}
                            : QJsonObject{{u"id"_s, id}, {u"object"_s, u"model"_s}, {u"owned_by"_s, u"fake"_s}});
        respond(200, "application/json", compact(QJsonObject{{u"object"_s, u"list"_s}, {u"data"_s, data}}));
        return;
    }
    if (!chosen && protocol == u"other") {
        respond(404, "application/json", R"({"error":{"message":"fake server: unknown path","type":"not_found_error"}})");
        return;
    }
    if (!chosen && !m_queue.isEmpty())
        chosen = m_queue.takeFirst();
    if (!chosen) {
        qWarning("FakeLlmServer: no scripted reply left for request #%d %s", request.number, request.path.constData());
        respond(501, "application/json", R"({"error":{"message":"fake server: no scripted reply left","type":"fake_error"}})");
        return;
    }

    const FakeReply &r = *chosen;
    if (r.fault == FakeReply::Fault::Status) {
        respond(r.status, r.contentType, r.body, r.headers);
        return;
    }
    if (r.fault == FakeReply::Fault::Hang && r.faultAfterEvents < 0) {
        connection->play({}, End::Hang);
        return;
    }
    const bool anthropic = protocol == u"anthropic";
    const bool responses = protocol == u"openai-responses";
    const QString model = request.json().value(u"model").toString(u"fake-model"_s);
    if (r.wholeJson) {
        respond(200, "application/json",
                anthropic ? wholeAnthropic(r, model) : responses ? FakeResponses::whole(r, model) : wholeOpenAi(r, model),
                r.headers);
        return;
    }

    QList<QByteArray> events;
    if (!r.rawBody.isEmpty())
        events << r.rawBody;
    else
        events = anthropic ? renderAnthropic(r, model) : responses ? FakeResponses::render(r, model) : renderOpenAi(r, model);

    End end = End::Close;
    if (r.fault != FakeReply::Fault::None) {
        const qsizetype keep = std::clamp<qsizetype>(r.faultAfterEvents, 0, events.size());
        events.resize(keep);
        switch (r.fault) {
        case FakeReply::Fault::Disconnect:
            end = End::Disconnect;
            break;
        case FakeReply::Fault::Hang:
            end = End::Hang;
            break;
        case FakeReply::Fault::Trickle:
            end = End::Trickle;
            connection->setTrickle(chunked(r.trickle), std::max(1, r.trickleMs));
            break;
        case FakeReply::Fault::MalformedJson:
            if (responses) {
                events << QByteArray("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"delta\":\"brok\n\n");
                break;
            }
            events << QByteArray(anthropic ? "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_d\n\n"
                                           : "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"brok\n\n");
            break;
        case FakeReply::Fault::ErrorEvent:
            if (responses) {
                events << FakeResponses::failure(r.errorType, int(events.size()));
                break;
            }
            events << (anthropic ? anthropicEvent(QJsonObject{{u"type"_s, u"error"_s},
                                                             {u"error"_s, QJsonObject{{u"type"_s, r.errorType},
                                                                                     {u"message"_s, u"Overloaded"_s}}}})
                                 : openAiEvent(QJsonObject{{u"error"_s, QJsonObject{{u"type"_s, r.errorType},
                                                                                    {u"message"_s, u"Overloaded"_s}}}}));
            break;
        default:
            break;
        }
    }

    // A trickle may stand for an error page that never ends; every other stream is a 200.
    const int code = r.fault == FakeReply::Fault::Trickle ? r.status : 200;
    QByteArray head = "HTTP/1.1 " + QByteArray::number(code) + (code == 200 ? " OK" : " Error")
                      + "\r\nContent-Type: " + r.contentType + "\r\nCache-Control: no-cache\r\n";
    for (const auto &[n, v] : r.headers)
        head += n + ": " + v + "\r\n";
    head += "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";

    QList<Step> steps{Step{head, 0}};
    if (r.splitEveryByte) {
        for (const QByteArray &event : std::as_const(events)) {
            for (qsizetype i = 0; i < event.size(); ++i)
                steps.append(Step{chunked(QByteArrayView(event).sliced(i, 1)), i == 0 ? r.delayMs : 0});
        }
    } else {
        for (const QByteArray &event : std::as_const(events))
            steps.append(Step{chunked(event), r.delayMs});
    }
    if (end == End::Close)
        steps.append(Step{"0\r\n\r\n", 0});
    connection->play(steps, end, r.splitEveryByte);
}

} // namespace wl::test
