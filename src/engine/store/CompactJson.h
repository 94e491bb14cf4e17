#pragma once

#include <QByteArray>
#include <QList>
#include <QStringView>

namespace wl {
struct ToolCall;
}

// The JSON texts a step writes, built directly as UTF-8 bytes: byte for byte what
// QJsonDocument(...).toJson(QJsonDocument::Compact) gives for the same value (tst_compactjson
// proves it on hostile input), without building a QJsonArray/QJsonObject per row.
namespace wl::CompactJson {

// Appends `text` as a JSON string literal (quotes included), escaped as QJsonDocument does.
// Returns false, leaving `out` as it was, when `text` holds an unpaired surrogate: callers
// then take QJsonDocument's own path, so odd input is never written differently.
bool appendString(QByteArray &out, QStringView text);

// The messages.tool_calls column: [{"arguments":..,"id":..,"name":..,"valid":false?}, ...]
// (QJsonObject's key order). Callers store NULL for an empty list instead.
QByteArray toolCalls(const QList<ToolCall> &calls);

} // namespace wl::CompactJson
