#include "OpenAiChatImporter.h"

#include "ImportContext.h"
#include "model/MessageCodec.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

#include <optional>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// Converts one Chat Completions message; "developer" is the newer name of "system".
std::optional<Message> chatMessage(QJsonObject object, QString *error)
{
    if (object.value("role"_L1).toString() == "developer"_L1)
        object.insert("role"_L1, u"system"_s);
    return MessageCodec::fromJson(object, error);
}

// Splits a codec error "field 'x': what" into its parts for the problem list.
void splitFieldError(const QString &error, QString *field, QString *what)
{
    static const QLatin1StringView prefix("field '");
    if (error.startsWith(prefix)) {
        const qsizetype end = error.indexOf(u'\'', prefix.size());
        if (end > 0) {
            *field = error.mid(prefix.size(), end - prefix.size());
            *what = error.mid(end + 1).remove(0, error.mid(end + 1).startsWith(u':') ? 1 : 0).trimmed();
            return;
        }
    }
    field->clear();
    *what = error;
}

class ChatAccumulator
{
public:
    explicit ChatAccumulator(ImportContext &context) : m_context(context) {}

    bool add(Message &&message, const QDateTime &timestamp = {})
    {
        const bool assistant = message.role == Role::Assistant;
        if (message.role == Role::User)
            m_context.offerTitle(message.content);
        const int index = m_context.addMessage(std::move(message));
        if (index < 0)
            return false;
        if (assistant) {
            ImportedRequest request;
            request.messageIndex = index;
            request.model = m_context.session().model;
            request.timestamp = timestamp;
            m_context.addRequest(request);
        }
        return true;
    }

    ImportContext &m_context;
};

class ChatDocumentHandler : public JsonStreamScanner::Handler
{
public:
    explicit ChatDocumentHandler(ImportContext &context) : m_context(context), m_chat(context) {}

    bool beginTop(int topIndex, char type) override
    {
        if (topIndex > 0) // one document; anything after it is ignored but counted
            m_context.skipRecord(0, {}, QCoreApplication::translate("TranscriptImport", "extra JSON value after the document"));
        m_rootIsArray = type == '[';
        return topIndex == 0;
    }

    JsonStreamScanner::MemberMode member(int, const QString &key) override
    {
        if (key == "messages"_L1)
            return JsonStreamScanner::MemberMode::Elements;
        if (key == "tools"_L1 || key == "response"_L1 || key == "model"_L1 || key == "timestamp"_L1)
            return JsonStreamScanner::MemberMode::Value;
        return JsonStreamScanner::MemberMode::Skip;
    }

    bool element(JsonStreamScanner::Element &element) override
    {
        if (!m_context.keepGoing(element.offset))
            return false;
        if (m_rootIsArray || element.member == "messages"_L1) {
            if (element.index < 0) {
                m_context.skipElement(element, element.member, QCoreApplication::translate("TranscriptImport", "expected an array of messages"));
                return true;
            }
            // Sessions are numbered by their place in the array, readable or not.
            if (m_sessions >= 0 && element.index != m_context.options().runIndex && !m_context.options().countRuns) {
                m_sessions = int(element.index) + 1; // not listing them: an earlier one is only counted
                return true;
            }
            QJsonObject object;
            if (!m_context.parseElement(element, &object)) {
                if (m_sessions >= 0)
                    listSession(element, QString());
                return true;
            }
            // A root array whose first element is a session ({messages, tools, instance_id})
            // rather than a message holds several sessions (public trajectory datasets).
            if (m_rootIsArray && m_sessions < 0)
                m_sessions = isSession(object) ? 0 : -2;
            if (m_sessions >= 0)
                return session(element, object);
            QString error;
            auto message = chatMessage(object, &error);
            if (!message) {
                QString field, what;
                splitFieldError(error, &field, &what);
                m_context.skipElement(element, u"messages[%1].%2"_s.arg(element.index).arg(field), what);
                return true;
            }
            m_context.countRecord(roleName(message->role));
            return m_chat.add(std::move(*message));
        }
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson("[" + element.bytes + "]", &parseError);
        const QJsonValue value = doc.array().at(0);
        if (element.member == "tools"_L1) {
            if (!value.isArray()) {
                m_context.skipElement(element, element.member, QCoreApplication::translate("TranscriptImport", "expected an array, got %1").arg(ImportJson::typeName(value)));
                return true;
            }
            const QJsonArray tools = value.toArray();
            for (qsizetype i = 0; i < tools.size(); ++i) {
                QString error;
                if (auto spec = MessageCodec::toolSpecFromJson(tools.at(i).toObject(), &error))
                    m_context.session().tools.append(*spec);
                else
                    m_context.skipElement(element, u"tools[%1]"_s.arg(i), error);
            }
        } else if (element.member == "response"_L1) {
            m_response = value.toObject();
        } else if (element.member == "model"_L1) {
            m_context.session().model = value.toString();
        } else if (element.member == "timestamp"_L1) {
            m_timestamp = ImportJson::timestamp(value);
        }
        return true;
    }

    // -1 before the first element of a root array, -2 for an array of messages, else the
    // number of sessions seen so far.
    int sessions() const { return m_sessions; }

    static bool isSession(const QJsonObject &object)
    {
        return !object.contains("role"_L1) && object.value("messages"_L1).isArray();
    }

    // A request/response log ends with the response: the assistant turn it produced.
    bool finishResponse()
    {
        if (m_response.isEmpty())
            return true;
        const QJsonObject message = m_response.value("choices"_L1).toArray().at(0).toObject().value("message"_L1).toObject();
        QString error;
        auto converted = chatMessage(message, &error);
        if (!converted) {
            m_context.skipRecord(0, u"response.choices[0].message"_s, error);
            return true;
        }
        const QString model = m_response.value("model"_L1).toString();
        if (m_context.session().model.isEmpty())
            m_context.session().model = model;
        const int index = m_context.addMessage(std::move(*converted));
        if (index < 0)
            return false;
        m_context.countRecord(u"response"_s);
        const QJsonObject usage = m_response.value("usage"_L1).toObject();
        ImportedRequest request;
        request.messageIndex = index;
        request.model = model;
        request.responseId = m_response.value("id"_L1).toString();
        request.timestamp = m_timestamp.isValid() ? m_timestamp : ImportJson::timestamp(m_response.value("created"_L1));
        request.usage.input = m_context.count(usage.value("prompt_tokens"_L1), 0, u"response.usage.prompt_tokens"_s);
        request.usage.output = m_context.count(usage.value("completion_tokens"_L1), 0, u"response.usage.completion_tokens"_s);
        request.usage.context = request.usage.input;
        qint64 cached = m_context.count(usage.value("prompt_tokens_details"_L1).toObject().value("cached_tokens"_L1), 0,
                                        u"response.usage.prompt_tokens_details.cached_tokens"_s);
        if (cached < 0)
            cached = m_context.count(usage.value("cache_read_input_tokens"_L1), 0, u"response.usage.cache_read_input_tokens"_s);
        request.usage.cacheRead = cached;
        request.usage.cacheWrite = m_context.count(usage.value("cache_creation_input_tokens"_L1), 0, u"response.usage.cache_creation_input_tokens"_s);
        m_context.addRequest(request);
        return true;
    }

private:
    void listSession(const JsonStreamScanner::Element &element, const QString &id)
    {
        m_sessions = int(element.index) + 1;
        if (m_context.session().runIds.size() < ImportedSession::maxRunIds)
            m_context.session().runIds.append(id);
    }

    bool session(const JsonStreamScanner::Element &element, const QJsonObject &object)
    {
        if (!isSession(object)) {
            listSession(element, QString());
            m_context.skipElement(element, u"[%1]"_s.arg(element.index),
                                  QCoreApplication::translate("TranscriptImport", "expected a session object with 'messages' like the first element"));
            return true;
        }
        QString id;
        for (QLatin1StringView key : {"instance_id"_L1, "run_id"_L1, "id"_L1, "title"_L1}) {
            if (object.value(key).isString() && !object.value(key).toString().isEmpty()) {
                id = object.value(key).toString();
                break;
            }
        }
        listSession(element, id);
        if (element.index != m_context.options().runIndex)
            return true;
        if (!id.isEmpty())
            m_context.session().title = id;
        if (object.value("model"_L1).isString())
            m_context.session().model = object.value("model"_L1).toString();
        const QJsonArray tools = object.value("tools"_L1).toArray();
        for (qsizetype i = 0; i < tools.size(); ++i) {
            QString error;
            if (auto spec = MessageCodec::toolSpecFromJson(tools.at(i).toObject(), &error))
                m_context.session().tools.append(*spec);
            else
                m_context.skipElement(element, u"[%1].tools[%2]"_s.arg(element.index).arg(i), error);
        }
        const QJsonArray messages = object.value("messages"_L1).toArray();
        for (qsizetype i = 0; i < messages.size(); ++i) {
            QString error;
            auto message = chatMessage(messages.at(i).toObject(), &error);
            if (!message) {
                QString field, what;
                splitFieldError(error, &field, &what);
                m_context.skipElement(element, u"[%1].messages[%2].%3"_s.arg(element.index).arg(i).arg(field), what);
                continue;
            }
            m_context.countRecord(roleName(message->role));
            if (!m_chat.add(std::move(*message)))
                return false;
        }
        return m_context.options().countRuns; // not counting: the chosen one is read, stop
    }

    ImportContext &m_context;
    ChatAccumulator m_chat;
    int m_sessions = -1;
    bool m_rootIsArray = false;
    QJsonObject m_response;
    QDateTime m_timestamp;
};

} // namespace

OpenAiChatImporter::OpenAiChatImporter()
    : TranscriptImporter(u"openai"_s, QT_TRANSLATE_NOOP("TranscriptImport", "OpenAI Chat messages"))
{
}

int OpenAiChatImporter::canRead(const TranscriptSample &sample) const
{
    if (!sample.firstRecord.isEmpty()) {
        if (sample.firstRecord.value("role"_L1).isString())
            return 80;
        return sample.firstRecord.value("messages"_L1).isArray() ? 75 : 0;
    }
    const QByteArray &head = sample.head;
    if (sample.firstChar == '[') {
        if (head.contains("\"role\""))
            return head.contains("\"observation\"") ? 20 : 70;
        return 0;
    }
    if (sample.firstChar == '{' && head.contains("\"messages\"") && head.contains("\"role\""))
        return head.contains("\"trajectory\"") || head.contains("\"instance_id\"") ? 20 : 70;
    return 0;
}

bool OpenAiChatImporter::read(ImportContext &context) const
{
    const TranscriptSample sample = context.peekSample();
    if (!sample.firstRecord.isEmpty() && sample.firstRecord.value("role"_L1).isString()) {
        // JSON Lines, one message per line.
        ChatAccumulator chat(context);
        return context.readLines([&](const QByteArray &line, qint64 lineNumber) {
            QJsonObject object;
            if (!context.parseObjectLine(line, lineNumber, &object))
                return true;
            QString error;
            auto message = chatMessage(object, &error);
            if (!message) {
                QString field, what;
                splitFieldError(error, &field, &what);
                context.skipRecord(lineNumber, field, what);
                return true;
            }
            context.countRecord(roleName(message->role));
            return chat.add(std::move(*message));
        });
    }
    if (sample.firstChar != '[' && sample.firstChar != '{')
        return context.failAt(1, {}, QCoreApplication::translate("TranscriptImport", "expected a JSON array or object of chat messages"));
    if (context.options().runIndex < 0)
        return context.fail(QCoreApplication::translate("TranscriptImport", "%1: session index %2 is not valid").arg(context.sourceName()).arg(context.options().runIndex));
    ChatDocumentHandler handler(context);
    if (!context.scanJson(handler))
        return false;
    if (handler.sessions() >= 0) {
        ImportedSession &s = context.session();
        s.runCount = handler.sessions();
        s.runIndex = context.options().runIndex;
        if (s.runIndex >= s.runCount)
            return context.fail(QCoreApplication::translate("TranscriptImport", "%1: session %2 does not exist; the file holds %n session(s)", nullptr, s.runCount)
                                    .arg(context.sourceName()).arg(s.runIndex));
        return true;
    }
    return handler.finishResponse();
}

} // namespace wl
