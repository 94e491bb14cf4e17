#include "tools/ToolArguments.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>

using namespace Qt::StringLiterals;

namespace wl::ToolArguments {

namespace {

QString jsonTypeName(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return u"null"_s;
    case QJsonValue::Bool:
        return u"a boolean"_s;
    case QJsonValue::Double:
        return u"a number"_s;
    case QJsonValue::String:
        return u"a string"_s;
    case QJsonValue::Array:
        return u"an array"_s;
    case QJsonValue::Object:
        return u"an object"_s;
    case QJsonValue::Undefined:
        break;
    }
    return u"nothing"_s;
}

bool isInteger(const QJsonValue &value)
{
    if (!value.isDouble())
        return false;
    const double number = value.toDouble();
    return std::isfinite(number) && std::floor(number) == number && std::fabs(number) < 9.0e15;
}

bool hasType(const QJsonValue &value, const QString &type)
{
    if (type == u"string")
        return value.isString();
    if (type == u"integer")
        return isInteger(value);
    if (type == u"number")
        return value.isDouble();
    if (type == u"boolean")
        return value.isBool();
    if (type == u"array")
        return value.isArray();
    if (type == u"object")
        return value.isObject();
    return true;
}

QString article(const QString &type)
{
    if (type == u"integer" || type == u"array" || type == u"object")
        return u"an "_s + type;
    return u"a "_s + type;
}

} // namespace

QString parse(const QString &text, QJsonObject *arguments)
{
    *arguments = {};
    if (text.trimmed().isEmpty())
        return {};
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError) {
        // QJsonDocument takes only arrays and objects; a lone string or number is still valid JSON.
        QJsonParseError wrapped;
        QJsonDocument::fromJson("[" + text.toUtf8() + "]", &wrapped);
        if (wrapped.error == QJsonParseError::NoError)
            return u"the arguments must be a JSON object"_s;
        return u"the arguments are not valid JSON (%1 at offset %2)"_s.arg(error.errorString()).arg(error.offset);
    }
    if (!document.isObject())
        return u"the arguments must be a JSON object"_s;
    *arguments = document.object();
    return {};
}

QString validate(const QJsonObject &schema, const QJsonObject &arguments)
{
    const QJsonObject properties = schema.value(u"properties"_s).toObject();
    const QJsonArray required = schema.value(u"required"_s).toArray();
    for (const QJsonValue &name : required) {
        const QJsonValue value = arguments.value(name.toString());
        if (value.isUndefined() || value.isNull())
            return u"'%1' is required"_s.arg(name.toString());
    }
    for (auto it = properties.begin(); it != properties.end(); ++it) {
        const QJsonValue value = arguments.value(it.key());
        if (value.isUndefined())
            continue;
        const QJsonObject property = it.value().toObject();
        const QString type = property.value(u"type"_s).toString();
        if (value.isNull() && !required.contains(it.key()))
            continue;  // an explicit null for an optional field means "use the default"
        if (!type.isEmpty() && !hasType(value, type))
            return u"'%1' must be %2, got %3"_s.arg(it.key(), article(type), jsonTypeName(value));
        if (property.contains(u"minimum"_s) && value.isDouble()
            && value.toDouble() < property.value(u"minimum"_s).toDouble())
            return u"'%1' must be at least %2"_s.arg(it.key()).arg(property.value(u"minimum"_s).toInteger());
        const QJsonArray allowed = property.value(u"enum"_s).toArray();
        if (!allowed.isEmpty() && !allowed.contains(value)) {
            QStringList names;
            for (const QJsonValue &option : allowed)
                names << option.toVariant().toString();
            return u"'%1' must be one of: %2"_s.arg(it.key(), names.join(u", "_s));
        }
    }
    return {};
}

QString string(const QJsonObject &arguments, const QString &key, const QString &fallback)
{
    const QJsonValue value = arguments.value(key);
    return value.isString() ? value.toString() : fallback;
}

qint64 integer(const QJsonObject &arguments, const QString &key, qint64 fallback)
{
    const QJsonValue value = arguments.value(key);
    return isInteger(value) ? value.toInteger() : fallback;
}

bool boolean(const QJsonObject &arguments, const QString &key, bool fallback)
{
    const QJsonValue value = arguments.value(key);
    return value.isBool() ? value.toBool() : fallback;
}

QJsonObject stringProperty(const QString &description)
{
    return QJsonObject{{u"type"_s, u"string"_s}, {u"description"_s, description}};
}

QJsonObject integerProperty(const QString &description, qint64 minimum)
{
    return QJsonObject{{u"type"_s, u"integer"_s}, {u"description"_s, description}, {u"minimum"_s, minimum}};
}

QJsonObject booleanProperty(const QString &description)
{
    return QJsonObject{{u"type"_s, u"boolean"_s}, {u"description"_s, description}};
}

QJsonObject objectSchema(const QJsonObject &properties, const QStringList &required)
{
    return QJsonObject{{u"type"_s, u"object"_s},
                       {u"properties"_s, properties},
                       {u"required"_s, QJsonArray::fromStringList(required)}};
}

} // namespace wl::ToolArguments
