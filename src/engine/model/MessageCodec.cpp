#include "MessageCodec.h"

#include <QCoreApplication>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace wl::MessageCodec {

namespace {
bool fail(QString *error, const QString &text)
{
    if (error)
        *error = text;
    return false;
}
} // namespace

bool argumentsAreValid(const QString &arguments)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(arguments.toUtf8(), &parseError);
    return parseError.error == QJsonParseError::NoError && doc.isObject();
}

bool contentText(const QJsonValue &value, QString *text)
{
    if (value.isString()) {
        *text = value.toString();
        return true;
    }
    if (value.isNull() || value.isUndefined()) {
        text->clear();
        return true;
    }
    if (value.isArray()) {
        QStringList parts;
        for (const QJsonValue &part : value.toArray()) {
            if (part.isString())
                parts << part.toString();
            else if (part.isObject() && part.toObject().value(u"text").isString())
                parts << part.toObject().value(u"text").toString();
        }
        *text = parts.join(u'\n');
        return true;
    }
    return false;
}

QJsonObject toJson(const Message &message)
{
    QJsonObject o;
    o.insert(u"role", roleName(message.role));
    if (message.content.isEmpty() && message.hasToolCalls())
        o.insert(u"content", QJsonValue::Null);
    else
        o.insert(u"content", message.content);
    if (message.hasToolCalls()) {
        QJsonArray calls;
        for (const ToolCall &call : message.toolCalls) {
            calls.append(QJsonObject{
                {u"id"_s, call.id},
                {u"type"_s, u"function"_s},
                {u"function"_s, QJsonObject{{u"name"_s, call.name}, {u"arguments"_s, call.arguments}}},
            });
        }
        o.insert(u"tool_calls", calls);
    }
    if (!message.toolCallId.isEmpty())
        o.insert(u"tool_call_id", message.toolCallId);
    if (message.isError)
        o.insert(u"is_error", true);
    return o;
}

QJsonArray toJson(const QList<Message> &messages)
{
    QJsonArray array;
    for (const Message &m : messages)
        array.append(toJson(m));
    return array;
}

std::optional<Message> fromJson(const QJsonObject &object, QString *error)
{
    Message m;
    const QJsonValue role = object.value(u"role");
    if (!role.isString())
        return fail(error, QCoreApplication::translate("MessageCodec", "field 'role': missing or not a string")), std::nullopt;
    if (!roleFromName(role.toString(), &m.role))
        return fail(error, QCoreApplication::translate("MessageCodec", "field 'role': unknown role '%1'").arg(role.toString())), std::nullopt;
    if (!contentText(object.value(u"content"), &m.content))
        return fail(error, QCoreApplication::translate("MessageCodec", "field 'content': expected a string, null or an array of parts")), std::nullopt;

    const QJsonValue calls = object.value(u"tool_calls");
    if (!calls.isUndefined() && !calls.isNull()) {
        if (!calls.isArray())
            return fail(error, QCoreApplication::translate("MessageCodec", "field 'tool_calls': expected an array")), std::nullopt;
        int index = 0;
        for (const QJsonValue &value : calls.toArray()) {
            const QJsonObject callObject = value.toObject();
            const QJsonObject function = callObject.value(u"function").toObject();
            ToolCall call;
            call.id = callObject.value(u"id").toString();
            call.name = function.value(u"name").toString();
            if (!value.isObject() || call.name.isEmpty())
                return fail(error, QCoreApplication::translate("MessageCodec", "field 'tool_calls[%1].function.name': missing").arg(index)), std::nullopt;
            const QJsonValue args = function.value(u"arguments");
            if (args.isString())
                call.arguments = args.toString();
            else if (args.isObject()) // some servers send the object itself
                call.arguments = QString::fromUtf8(QJsonDocument(args.toObject()).toJson(QJsonDocument::Compact));
            else if (!args.isUndefined() && !args.isNull())
                call.arguments = QString::fromUtf8(QJsonDocument(QJsonArray{args}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
            call.argumentsValid = argumentsAreValid(call.arguments);
            m.toolCalls.append(call);
            ++index;
        }
    }
    const QJsonValue callId = object.value(u"tool_call_id");
    if (!callId.isUndefined() && !callId.isNull()) {
        if (!callId.isString())
            return fail(error, QCoreApplication::translate("MessageCodec", "field 'tool_call_id': expected a string")), std::nullopt;
        m.toolCallId = callId.toString();
    }
    m.isError = object.value(u"is_error").toBool(false);
    m.cacheBytes();
    return m;
}

std::optional<QList<Message>> fromJson(const QJsonArray &array, QString *error)
{
    QList<Message> out;
    out.reserve(array.size());
    for (qsizetype i = 0; i < array.size(); ++i) {
        if (!array.at(i).isObject())
            return fail(error, QCoreApplication::translate("MessageCodec", "message %1: expected an object").arg(i)), std::nullopt;
        QString inner;
        auto m = fromJson(array.at(i).toObject(), &inner);
        if (!m)
            return fail(error, QCoreApplication::translate("MessageCodec", "message %1: %2").arg(i).arg(inner)), std::nullopt;
        out.append(*m);
    }
    return out;
}

QJsonObject toJson(const ToolSpec &spec)
{
    return QJsonObject{{u"name"_s, spec.name}, {u"description"_s, spec.description}, {u"parameters"_s, spec.inputSchema}};
}

std::optional<ToolSpec> toolSpecFromJson(const QJsonObject &object, QString *error)
{
    // Accept both {"name", ...} and the wrapped {"type": "function", "function": {...}}.
    const QJsonObject o = object.value(u"function").isObject() ? object.value(u"function").toObject() : object;
    ToolSpec spec;
    spec.name = o.value(u"name").toString();
    if (spec.name.isEmpty())
        return fail(error, QCoreApplication::translate("MessageCodec", "field 'name': missing")), std::nullopt;
    spec.description = o.value(u"description").toString();
    spec.inputSchema = o.value(u"parameters").isObject() ? o.value(u"parameters").toObject()
                                                          : o.value(u"input_schema").toObject();
    return spec;
}

} // namespace wl::MessageCodec
