#pragma once

#include <QJsonObject>
#include <QString>

// Parsing and checking the arguments a model sent, against the tool's JSON Schema.
namespace wl::ToolArguments {

// Parses the JSON text of a tool call. Empty text counts as {}. Returns an error message, empty on success.
QString parse(const QString &text, QJsonObject *arguments);

// Checks `required` and the `type` (string, integer, number, boolean, array, object),
// `minimum` and `enum` of each property in the schema. Unknown properties are ignored.
// Returns an error message ("'old_text' is required"), empty on success.
QString validate(const QJsonObject &schema, const QJsonObject &arguments);

// Readers for validated arguments, with the default used when the key is absent.
QString string(const QJsonObject &arguments, const QString &key, const QString &fallback = {});
qint64 integer(const QJsonObject &arguments, const QString &key, qint64 fallback);
bool boolean(const QJsonObject &arguments, const QString &key, bool fallback);

// Schema fragments, to keep the specs short.
QJsonObject stringProperty(const QString &description);
QJsonObject integerProperty(const QString &description, qint64 minimum);
QJsonObject booleanProperty(const QString &description);
QJsonObject objectSchema(const QJsonObject &properties, const QStringList &required);

} // namespace wl::ToolArguments
