#include "CompactJson.h"

#include "model/ToolCall.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace wl::CompactJson {

namespace {

char hexDigit(uint value)
{
    return char(value < 10 ? '0' + value : 'a' + value - 10);
}

// QJsonDocument's own text for a tool-call list: the reference and the fallback.
QByteArray toolCallsThroughQJson(const QList<ToolCall> &calls)
{
    QJsonArray array;
    for (const ToolCall &call : calls) {
        QJsonObject o{{u"id"_s, call.id}, {u"name"_s, call.name}, {u"arguments"_s, call.arguments}};
        if (!call.argumentsValid)
            o.insert(u"valid", false);
        array.append(o);
    }
    return QJsonDocument(array).toJson(QJsonDocument::Compact);
}

} // namespace

bool appendString(QByteArray &out, QStringView text)
{
    const qsizetype start = out.size();
    out.reserve(start + text.size() + 2);
    out.append('"');
    const char16_t *p = text.utf16();
    const char16_t *const end = p + text.size();
    while (p != end) {
        const char16_t c = *p++;
        if (c < 0x80) {
            if (c >= 0x20 && c != u'"' && c != u'\\') {
                out.append(char(c));
                continue;
            }
            out.append('\\');
            switch (c) {
            case u'"': out.append('"'); break;
            case u'\\': out.append('\\'); break;
            case u'\b': out.append('b'); break;
            case u'\f': out.append('f'); break;
            case u'\n': out.append('n'); break;
            case u'\r': out.append('r'); break;
            case u'\t': out.append('t'); break;
            default:
                out.append("u00", 3);
                out.append(hexDigit(c >> 4));
                out.append(hexDigit(c & 0xf));
                break;
            }
        } else if (c < 0x800) {
            out.append(char(0xc0 | (c >> 6)));
            out.append(char(0x80 | (c & 0x3f)));
        } else if (QChar::isSurrogate(c)) {
            if (!QChar::isHighSurrogate(c) || p == end || !QChar::isLowSurrogate(*p)) {
                out.truncate(start);
                return false;
            }
            const char32_t u = QChar::surrogateToUcs4(c, *p++);
            out.append(char(0xf0 | (u >> 18)));
            out.append(char(0x80 | ((u >> 12) & 0x3f)));
            out.append(char(0x80 | ((u >> 6) & 0x3f)));
            out.append(char(0x80 | (u & 0x3f)));
        } else {
            out.append(char(0xe0 | (c >> 12)));
            out.append(char(0x80 | ((c >> 6) & 0x3f)));
            out.append(char(0x80 | (c & 0x3f)));
        }
    }
    out.append('"');
    return true;
}

QByteArray toolCalls(const QList<ToolCall> &calls)
{
    QByteArray out;
    qsizetype size = 2;
    for (const ToolCall &call : calls)
        size += call.id.size() + call.name.size() + call.arguments.size() + 48;
    out.reserve(size);
    out.append('[');
    for (qsizetype i = 0; i < calls.size(); ++i) {
        const ToolCall &call = calls[i];
        if (i)
            out.append(',');
        out.append("{\"arguments\":");
        if (!appendString(out, call.arguments))
            return toolCallsThroughQJson(calls);
        out.append(",\"id\":");
        if (!appendString(out, call.id))
            return toolCallsThroughQJson(calls);
        out.append(",\"name\":");
        if (!appendString(out, call.name))
            return toolCallsThroughQJson(calls);
        if (!call.argumentsValid)
            out.append(",\"valid\":false");
        out.append('}');
    }
    out.append(']');
    return out;
}

} // namespace wl::CompactJson
