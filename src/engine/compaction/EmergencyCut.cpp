#include "EmergencyCut.h"

#include "TextCut.h"
#include "TokenEstimate.h"
#include "model/Message.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl::EmergencyCut {

namespace {

// The least a cut part keeps of its own text, head and end together: enough to see what it was.
constexpr qint64 kMinKept = 96;

qint64 bytesOf(QChar c)
{
    const char16_t u = c.unicode();
    if (u < 0x80)
        return 1;
    if (u < 0x800)
        return 2;
    return QChar::isSurrogate(u) ? 2 : 3; // a pair is four bytes, two per half
}

// How many characters from the front of `text` fit `bytes` UTF-8 bytes, never inside a pair or
// before a combining mark.
qsizetype headChars(QStringView text, qint64 bytes)
{
    qsizetype i = 0;
    for (qint64 used = 0; i < text.size(); ++i) {
        used += bytesOf(text[i]);
        if (used > bytes)
            break;
    }
    return TextCut::safeCutPosition(text, i);
}

// Where the last `bytes` UTF-8 bytes of `text` start, never inside a pair or on a combining mark.
qsizetype endStart(QStringView text, qsizetype notBefore, qint64 bytes)
{
    qsizetype i = text.size();
    for (qint64 used = 0; i > notBefore;) {
        used += bytesOf(text[i - 1]);
        if (used > bytes)
            break;
        --i;
    }
    while (i < text.size() && (text[i].isLowSurrogate() || text[i].isMark()))
        ++i;
    return i;
}

QString noteFor(qint64 cutBytes, qint64 totalBytes, const QString &wholePath)
{
    // Read by the model, like an offload placeholder: not translated.
    return u"\n[... %1 of %2 bytes cut here by the emergency compaction; the whole message is in %3, read it with read_file(path, offset, limit) ...]\n"_s
        .arg(cutBytes)
        .arg(totalBytes)
        .arg(wholePath);
}

// `text` with its head and end kept, `keep` bytes together, around a note saying what was cut.
QString headAndEnd(QStringView text, qint64 keep, const QString &wholePath)
{
    const qint64 total = TokenEstimate::utf8Bytes(text);
    const qsizetype head = headChars(text, keep - keep / 3);
    const qsizetype end = endStart(text, head, keep / 3);
    const qint64 kept = TokenEstimate::utf8Bytes(text.first(head)) + TokenEstimate::utf8Bytes(text.sliced(end));
    return text.first(head) + noteFor(total - kept, total, wholePath) + text.sliced(end);
}

qint64 noteBytes(qint64 totalBytes, const QString &wholePath)
{
    return TokenEstimate::utf8Bytes(noteFor(totalBytes, totalBytes, wholePath));
}

qint64 jsonBytes(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact).size();
}

qsizetype longestString(const QJsonValue &value)
{
    if (value.isString())
        return value.toString().size();
    qsizetype longest = 0;
    if (value.isArray()) {
        for (const QJsonValue &v : value.toArray())
            longest = std::max(longest, longestString(v));
    } else if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.constBegin(); it != o.constEnd(); ++it)
            longest = std::max(longest, longestString(it.value()));
    }
    return longest;
}

// `value` with its first string of `length` characters cut by `cutString`.
template<typename CutString>
QJsonValue withStringCut(const QJsonValue &value, qsizetype length, bool *done, CutString cutString)
{
    if (*done)
        return value;
    if (value.isString()) {
        if (value.toString().size() != length)
            return value;
        *done = true;
        return cutString(value.toString());
    }
    if (value.isArray()) {
        QJsonArray a = value.toArray();
        for (qsizetype i = 0; i < a.size() && !*done; ++i)
            a[i] = withStringCut(a.at(i), length, done, cutString);
        return a;
    }
    if (value.isObject()) {
        QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end() && !*done; ++it)
            it.value() = withStringCut(it.value(), length, done, cutString);
        return o;
    }
    return value;
}

} // namespace

QString wholeText(const Message &message)
{
    QString out = message.content;
    for (const ToolCall &call : message.toolCalls) {
        if (!out.isEmpty())
            out += u'\n';
        out += u"[tool_call "_s + call.name + u'(' + call.id + u")]: "_s + call.arguments;
    }
    return out;
}

QString cutArguments(const QString &arguments, qint64 targetBytes, const QString &wholePath)
{
    const QJsonDocument doc = QJsonDocument::fromJson(arguments.toUtf8());
    if (!doc.isObject()) {
        // Not an object (models send broken JSON too): an object that says so, with its head and end.
        const QString key = u"arguments_cut"_s;
        const qint64 keep = std::max<qint64>(kMinKept, targetBytes - noteBytes(arguments.size(), wholePath) - 24);
        QJsonObject o{{key, headAndEnd(arguments, keep, wholePath)}};
        return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
    }
    QJsonObject object = doc.object();
    const qint64 noteSize = noteBytes(TokenEstimate::utf8Bytes(arguments), wholePath);
    // The longest strings first, each cut to what the rest still needs; a string is cut once.
    for (int round = 0; round < 64; ++round) {
        const qint64 size = jsonBytes(object);
        if (size <= targetBytes)
            break;
        const qsizetype longest = longestString(object);
        if (longest * 3 <= kMinKept + noteSize)
            break; // nothing left long enough to gain from a cut
        bool done = false;
        bool shrank = false;
        const qint64 need = size - targetBytes;
        object = withStringCut(object, longest, &done, [&](const QString &text) {
            const qint64 bytes = TokenEstimate::utf8Bytes(text);
            const qint64 keep = std::max(kMinKept, bytes - need - noteSize);
            if (keep + noteSize >= bytes)
                return QJsonValue(text);
            shrank = true;
            return QJsonValue(headAndEnd(text, keep, wholePath));
        }).toObject();
        if (!shrank)
            break;
    }
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

std::optional<Cut> cut(const Message &message, qint64 targetBytes, const QString &wholePath)
{
    Cut out;
    out.content = message.content;
    for (const ToolCall &call : message.toolCalls)
        out.arguments.append(call.arguments);
    const qint64 original = message.byteCount();
    qint64 need = original - targetBytes;
    // Parts by size, largest first: index 0 is the content, i + 1 the arguments of call i.
    QList<std::pair<qint64, int>> parts;
    parts.append({TokenEstimate::utf8Bytes(message.content), 0});
    for (int i = 0; i < message.toolCalls.size(); ++i)
        parts.append({TokenEstimate::utf8Bytes(message.toolCalls[i].arguments), i + 1});
    std::stable_sort(parts.begin(), parts.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    for (const auto &[bytes, part] : std::as_const(parts)) {
        if (need <= 0)
            break;
        if (part == 0) {
            const qint64 noteSize = noteBytes(bytes, wholePath);
            const qint64 keep = std::max(kMinKept, bytes - need - noteSize);
            if (keep + noteSize >= bytes)
                continue;
            out.content = headAndEnd(message.content, keep, wholePath);
        } else {
            const QString shorter = cutArguments(out.arguments[part - 1], std::max<qint64>(0, bytes - need), wholePath);
            if (TokenEstimate::utf8Bytes(shorter) >= bytes)
                continue;
            out.arguments[part - 1] = shorter;
        }
        const qint64 after = part == 0 ? TokenEstimate::utf8Bytes(out.content) : TokenEstimate::utf8Bytes(out.arguments[part - 1]);
        need -= bytes - after;
    }
    Message shown = message;
    apply(shown, out.content, out.arguments);
    out.bytes = shown.cachedBytes;
    if (out.bytes >= original)
        return std::nullopt;
    if (!message.hasToolCalls())
        out.arguments.clear();
    return out;
}

QString contextText(QStringView checkpointText, qint64 wholeBytes, int messages, qint64 targetBytes, const QString &wholePath)
{
    // Read by the model: not translated.
    const QString note = u"[Context Compaction] The earlier context (%1 message(s) before the newest user message%2, "
                         u"%3 bytes) was cut by the emergency compaction to fit the context window. The whole of it "
                         u"is in %4, read it with read_file(path, offset, limit).\n"_s
                             .arg(messages)
                             .arg(checkpointText.isEmpty() ? QString() : u" and the checkpoint before them"_s)
                             .arg(wholeBytes)
                             .arg(wholePath);
    const qint64 room = targetBytes - TokenEstimate::utf8Bytes(note);
    if (room < 0) // the least that still says where the whole is
        return u"[Context Compaction] Earlier context cut to fit: %1\n"_s.arg(wholePath);
    const qint64 textBytes = TokenEstimate::utf8Bytes(checkpointText);
    if (textBytes == 0 || room < kMinKept)
        return note;
    if (textBytes <= room)
        return note + checkpointText;
    static constexpr QStringView gap = u"\n[...]\n";
    const qint64 keep = room - gap.size();
    const qsizetype head = headChars(checkpointText, keep - keep / 3);
    const qsizetype end = endStart(checkpointText, head, keep / 3);
    return note + checkpointText.first(head) + gap + checkpointText.sliced(end);
}

QString carriedUserMessage(const QString &content)
{
    return u"\n[Newest user message]\n"_s + content;
}

void apply(Message &message, const QString &content, const QStringList &arguments)
{
    message.content = content;
    for (qsizetype i = 0; i < message.toolCalls.size() && i < arguments.size(); ++i) {
        message.toolCalls[i].arguments = arguments[i];
        message.toolCalls[i].argumentsValid = true;
    }
    message.cachedBytes = message.computeBytes();
    message.cachedLines = -1;
}

} // namespace wl::EmergencyCut
