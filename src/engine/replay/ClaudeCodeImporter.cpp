#include "ClaudeCodeImporter.h"

#include "ImportContext.h"
#include "TranscriptImporter.h"

#include <QCoreApplication>
#include <QIODevice>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>
#include <cctype>
#include <optional>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// Record types that carry no conversation (UI progress, undo snapshots, queue state).
bool isNoiseType(const QString &type)
{
    static const QLatin1StringView noise[] = {"progress"_L1, "file-history-snapshot"_L1, "queue-operation"_L1,
                                              "attachment"_L1, "custom-title"_L1, "tag"_L1, "last-prompt"_L1};
    for (QLatin1StringView n : noise) {
        if (type == n)
            return true;
    }
    return false;
}

// A JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
bool isJsonNumber(QByteArrayView t)
{
    qsizetype i = 0;
    auto digits = [&] {
        const qsizetype from = i;
        while (i < t.size() && isdigit(static_cast<unsigned char>(t[i])))
            ++i;
        return i > from;
    };
    if (i < t.size() && t[i] == '-')
        ++i;
    if (i < t.size() && t[i] == '0')
        ++i;
    else if (!digits())
        return false;
    if (i < t.size() && t[i] == '.' && (++i, !digits()))
        return false;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-'))
            ++i;
        if (!digits())
            return false;
    }
    return i == t.size();
}

// The top-level "type" of a noise record line (isNoiseType) when the line is one well-formed
// JSON object (checked here token by token: structure, strings and escapes, literals, numbers,
// UTF-8; exactly one top-level "type" key); else empty. Lets the reader count a noise record
// (40% of a real file's bytes are `progress`) without building its QJsonObject; any other
// record, and anything doubtful, goes through the full parser.
QByteArrayView noiseType(QByteArrayView line)
{
    // Per open container: its kind, and what may come next.
    enum State : char { First, Colon, Value, CommaOrEnd, Key };
    struct Frame { char kind; State state; };
    Frame stack[64];
    int depth = 0;
    bool started = false;
    QByteArrayView type;
    int typeKeys = 0;
    bool afterTypeKey = false; // the top-level value being read belongs to "type"
    const qsizetype n = line.size();
    auto atValue = [&] {
        const Frame &f = stack[depth - 1];
        return f.kind == '{' ? f.state == Value : (f.state == First || f.state == Value);
    };
    auto valueDone = [&] {
        if (depth > 0)
            stack[depth - 1].state = CommaOrEnd;
    };
    for (qsizetype i = 0; i < n; ++i) {
        const char c = line[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
            continue;
        if (depth == 0) {
            if (c != '{' || started)
                return {};
            started = true;
            stack[depth++] = {'{', First};
            continue;
        }
        Frame &f = stack[depth - 1];
        switch (c) {
        case '{': case '[':
            if (!atValue() || depth == int(sizeof stack / sizeof *stack))
                return {};
            if (depth == 1)
                afterTypeKey = false;
            stack[depth++] = {c, First};
            continue;
        case '}': case ']':
            if (f.kind != (c == '}' ? '{' : '[') || (f.state != First && f.state != CommaOrEnd))
                return {};
            --depth;
            valueDone();
            continue;
        case ':':
            if (f.kind != '{' || f.state != Colon)
                return {};
            f.state = Value;
            continue;
        case ',':
            if (f.state != CommaOrEnd)
                return {};
            f.state = f.kind == '{' ? Key : Value;
            continue;
        case '"': {
            const qsizetype begin = i + 1;
            for (++i; i < n && line[i] != '"'; ++i) {
                const unsigned char u = static_cast<unsigned char>(line[i]);
                if (u < 0x20)
                    return {};
                if (u != '\\')
                    continue;
                if (++i >= n || !QByteArrayView("\"\\/bfnrtu").contains(line[i]))
                    return {};
                if (line[i] == 'u') {
                    for (int h = 0; h < 4; ++h) {
                        if (++i >= n || !isxdigit(static_cast<unsigned char>(line[i])))
                            return {};
                    }
                }
            }
            if (i >= n)
                return {};
            const QByteArrayView text = line.sliced(begin, i - begin);
            if (f.kind == '{' && (f.state == First || f.state == Key)) {
                f.state = Colon;
                if (depth == 1) {
                    afterTypeKey = text == "type";
                    typeKeys += afterTypeKey ? 1 : 0;
                }
                continue;
            }
            if (!atValue())
                return {};
            if (depth == 1 && afterTypeKey) {
                if (!isNoiseType(QString::fromLatin1(text)))
                    return {}; // a record to read: no need to look further
                type = text;
            }
            afterTypeKey = false;
            valueDone();
            continue;
        }
        default: {
            if (!atValue())
                return {};
            const qsizetype begin = i;
            while (i < n && (isalnum(static_cast<unsigned char>(line[i])) || line[i] == '-' || line[i] == '+' || line[i] == '.'))
                ++i;
            const QByteArrayView token = line.sliced(begin, i - begin);
            if (!(token == "true" || token == "false" || token == "null" || isJsonNumber(token)))
                return {};
            --i; // the loop steps past the token's last character
            if (depth == 1)
                afterTypeKey = false;
            valueDone();
            continue;
        }
        }
    }
    if (depth != 0 || !started || typeKeys != 1 || !line.isValidUtf8())
        return {};
    return type;
}

// User text that Claude Code injected rather than the user typed.
bool isInjectedPrompt(const QJsonObject &record, const QString &text)
{
    return record.value("isMeta"_L1).toBool() || text.startsWith("<command-"_L1) || text.startsWith("<local-command"_L1)
        || text.startsWith("<system-reminder>"_L1) || text.startsWith("<task-notification>"_L1);
}

// Claude Code writes one record per content block; records of one API response share
// message.id, and tool results of that response may arrive between them. The pending
// assistant message collects the blocks; results wait behind it so the order stays
// assistant -> results.
class ClaudeReader
{
public:
    // `mainAhead`: the start of the file holds a record of the main conversation.
    ClaudeReader(ImportContext &context, bool mainAhead) : m_context(context), m_mainAhead(mainAhead) {}

    bool record(const QByteArray &line, qint64 lineNumber)
    {
        // Only the first records: a file whose lines mention parentUuid only nested is not
        // parsed twice all through.
        if (!m_startChecked && ++m_startLines > 1000)
            m_startChecked = true;
        if (!m_startChecked && line.contains("\"parentUuid\"")) {
            // The first record of the tree has no parent; a file that starts with a child
            // starts mid-session (its earlier part is elsewhere): results may answer calls
            // that are not in it.
            const QJsonObject first = QJsonDocument::fromJson(line).object();
            if (first.contains("parentUuid"_L1)) {
                m_startChecked = true;
                const QJsonValue parent = first.value("parentUuid"_L1);
                if (parent.isString() && !parent.toString().isEmpty())
                    m_context.note(m_context.messageCount(), QCoreApplication::translate("TranscriptImport", "the file starts mid-session: the parent '%1' of its first record is not in it")
                                                                 .arg(parent.toString().left(64)));
            }
        }
        if (const QByteArrayView noise = noiseType(line); !noise.isEmpty()) {
            const QString type = QString::fromLatin1(noise);
            m_context.countRecord(type);
            m_context.ignoreRecord(type);
            return true;
        }
        QJsonObject record;
        if (!m_context.parseObjectLine(line, lineNumber, &record))
            return true;
        m_context.setRecordTime(ImportJson::timestamp(record.value("timestamp"_L1)));
        const QJsonValue typeValue = record.value("type"_L1);
        if (!typeValue.isString()) {
            m_context.skipRecord(lineNumber, u"type"_s, QCoreApplication::translate("TranscriptImport", "missing or not a string (%1)").arg(ImportJson::typeName(typeValue)));
            return true;
        }
        const QString type = typeValue.toString();
        if (const QJsonValue uuid = record.value("uuid"_L1); uuid.isString() && m_uuids.size() < kMaxUuids)
            m_uuids.insert(uuid.toString());
        if (type == "user"_L1 || type == "assistant"_L1) {
            if (!onSidechainFilter(record, type))
                return true;
            const QJsonValue message = record.value("message"_L1);
            if (!message.isObject()) {
                m_context.skipRecord(lineNumber, u"message"_s, QCoreApplication::translate("TranscriptImport", "expected an object, got %1").arg(ImportJson::typeName(message)));
                return true;
            }
            m_context.countRecord(type);
            return type == "user"_L1 ? user(record, message.toObject(), lineNumber)
                                     : assistant(record, message.toObject(), lineNumber);
        }
        if (type == "system"_L1) {
            const QString subtype = record.value("subtype"_L1).toString();
            m_context.countRecord(type);
            if ((subtype == "compact_boundary"_L1 || subtype == "microcompact_boundary"_L1) && !onSidechainFilter(record, type))
                return true; // the other conversation's compaction
            if (subtype == "compact_boundary"_L1)
                return compactBoundary(record, lineNumber);
            if (subtype == "microcompact_boundary"_L1)
                return microcompactBoundary(record, lineNumber);
            m_context.ignoreRecord(u"system/"_s + subtype);
            return true;
        }
        if (type == "summary"_L1) {
            m_context.countRecord(type);
            if (m_summaryTitle.isEmpty())
                m_summaryTitle = record.value("summary"_L1).toString();
            return true;
        }
        if (isNoiseType(type)) {
            m_context.countRecord(type);
            m_context.ignoreRecord(type);
            return true;
        }
        m_context.skipRecord(lineNumber, u"type"_s, QCoreApplication::translate("TranscriptImport", "unknown record kind '%1'").arg(type));
        return true;
    }

    bool finish()
    {
        if (!flush())
            return false;
        if (!m_summaryTitle.isEmpty())
            m_context.session().title = m_summaryTitle;
        if (m_leftOut > 0) {
            m_context.note(m_leftOutAt, *m_sidechain
                               ? QCoreApplication::translate("TranscriptImport", "%n record(s) of the main conversation in this sub-agent file were left out", nullptr, m_leftOut)
                               : QCoreApplication::translate("TranscriptImport", "%n sub-agent (sidechain) record(s) were left out: the main model never saw them", nullptr, m_leftOut));
        }
        return true;
    }

private:
    // Main file or sub-agent file: a sub-agent file holds sidechain records only, a main file
    // may hold sidechain records inline (older versions), even before its first own record when
    // it starts mid-session. Records of the other kind are left out, counted and noted.
    bool onSidechainFilter(const QJsonObject &record, const QString &)
    {
        const bool sidechain = record.value("isSidechain"_L1).toBool(false);
        if (!m_sidechain)
            m_sidechain = sidechain && !m_mainAhead;
        if (sidechain != *m_sidechain) {
            m_context.ignoreRecord(u"sidechain"_s);
            if (m_leftOut++ == 0)
                m_leftOutAt = m_context.messageCount();
            return false;
        }
        return true;
    }

    bool push(Message &&message)
    {
        return m_context.addMessage(std::move(message)) >= 0;
    }

    bool flush()
    {
        if (m_pending) {
            const int index = m_context.addMessage(std::move(*m_pending));
            m_pending.reset();
            if (index < 0)
                return false;
            if (m_pendingModel != "<synthetic>"_L1) { // Claude Code's own error notices, not API calls
                ImportedRequest request = m_pendingRequest;
                request.messageIndex = index;
                m_context.addRequest(request);
            }
        }
        for (Message &result : m_waitingResults) {
            if (!push(std::move(result)))
                return false;
        }
        m_waitingResults.clear();
        return true;
    }

    bool assistant(const QJsonObject &, const QJsonObject &message, qint64 lineNumber)
    {
        const QString responseId = message.value("id"_L1).toString();
        const QJsonValue content = message.value("content"_L1);
        if (!content.isArray() && !content.isString()) {
            m_context.skipRecord(lineNumber, u"message.content"_s, QCoreApplication::translate("TranscriptImport", "expected an array or a string, got %1").arg(ImportJson::typeName(content)));
            return true;
        }
        if (!m_pending || responseId.isEmpty() || responseId != m_pendingRequest.responseId) {
            if (!flush())
                return false;
            m_pending = Message::assistant(QString());
            m_pendingRequest = ImportedRequest();
            m_pendingRequest.responseId = responseId;
            m_pendingRequest.timestamp = m_context.recordTime();
            m_pending->createdAt = m_pendingRequest.timestamp;
            m_pendingModel = message.value("model"_L1).toString();
            m_pendingRequest.model = m_pendingModel;
            if (m_context.session().model.isEmpty() && m_pendingModel != "<synthetic>"_L1)
                m_context.session().model = m_pendingModel;
        }
        // Usage repeats on every record of the response; the last one is the most complete.
        const QJsonObject usage = message.value("usage"_L1).toObject();
        if (!usage.isEmpty()) {
            TokenUsage &u = m_pendingRequest.usage;
            u.input = m_context.count(usage.value("input_tokens"_L1), lineNumber, u"message.usage.input_tokens"_s);
            u.output = m_context.count(usage.value("output_tokens"_L1), lineNumber, u"message.usage.output_tokens"_s);
            u.cacheRead = m_context.count(usage.value("cache_read_input_tokens"_L1), lineNumber, u"message.usage.cache_read_input_tokens"_s);
            u.cacheWrite = m_context.count(usage.value("cache_creation_input_tokens"_L1), lineNumber, u"message.usage.cache_creation_input_tokens"_s);
            u.context = qMax<qint64>(0, u.input) + qMax<qint64>(0, u.cacheRead) + qMax<qint64>(0, u.cacheWrite);
        }
        if (content.isString()) {
            appendText(content.toString());
            return true;
        }
        const QJsonArray blocks = content.toArray();
        for (qsizetype i = 0; i < blocks.size(); ++i) {
            const QJsonObject block = blocks.at(i).toObject();
            const QString type = block.value("type"_L1).toString();
            if (type == "text"_L1) {
                appendText(block.value("text"_L1).toString());
            } else if (type == "tool_use"_L1) {
                const QJsonValue idValue = block.value("id"_L1);
                const QJsonValue nameValue = block.value("name"_L1);
                if (!idValue.isString() || !nameValue.isString()) {
                    m_context.skipRecord(lineNumber, u"message.content[%1].%2"_s.arg(i).arg(idValue.isString() ? u"name"_s : u"id"_s),
                                         QCoreApplication::translate("TranscriptImport", "missing or not a string"));
                    continue;
                }
                ToolCall call;
                call.id = idValue.toString();
                call.name = nameValue.toString();
                call.arguments = ImportJson::compact(block.value("input"_L1));
                call.argumentsValid = block.value("input"_L1).isObject();
                m_pending->toolCalls.append(call);
            } else {
                // thinking / redacted_thinking are not replayed as text; server tools neither.
                m_context.ignoreRecord(u"block/"_s + (type.isEmpty() ? u"?"_s : type));
            }
        }
        return true;
    }

    void appendText(const QString &text)
    {
        if (text.isEmpty())
            return;
        if (!m_pending->content.isEmpty())
            m_pending->content += u'\n';
        m_pending->content += text;
    }

    bool user(const QJsonObject &record, const QJsonObject &message, qint64 lineNumber)
    {
        const QJsonValue content = message.value("content"_L1);
        if (record.value("isCompactSummary"_L1).toBool()) {
            const QString summary = ImportJson::contentText(content);
            if (!flush())
                return false;
            QList<ExternalCompaction> &compactions = m_context.session().compactions;
            // The summary belongs to the boundary just before it; one without (or after another
            // summary) is a compaction of its own, from here on.
            const bool opensOwn = m_summaryWaits < 0;
            if (opensOwn) {
                ExternalCompaction compaction;
                compaction.messageIndex = m_context.messageCount();
                compaction.kind = u"summary"_s;
                compaction.effect = ExternalCompaction::Effect::ReplacesHistory;
                compaction.timestamp = ImportJson::timestamp(record.value("timestamp"_L1));
                m_context.addCompaction(compaction);
                m_context.note(m_context.messageCount(), QCoreApplication::translate("TranscriptImport", "a compaction summary without its compact_boundary: read as a compaction here"));
            } else if (const QString parent = record.value("parentUuid"_L1).toString(); !parent.isEmpty() && parent != m_boundaryUuid) {
                m_context.note(m_context.messageCount(), QCoreApplication::translate("TranscriptImport", "the compaction summary's parent '%1' is not its compact_boundary").arg(parent.left(64)));
            }
            ExternalCompaction &compaction = opensOwn ? compactions.last() : compactions[m_summaryWaits];
            m_summaryWaits = -1;
            compaction.summary = summary;
            // What Claude Code sent in place of the history: this message, unless it is imported as one.
            const bool keep = m_context.options().keepCompactionSummaries;
            compaction.sentInstead = keep ? QString() : summary;
            if (keep)
                return push(Message::user(summary));
            return true;
        }
        if (content.isString()) {
            const QString text = content.toString();
            if (!isInjectedPrompt(record, text))
                m_context.offerTitle(text);
            return flush() && push(Message::user(text));
        }
        if (!content.isArray()) {
            m_context.skipRecord(lineNumber, u"message.content"_s, QCoreApplication::translate("TranscriptImport", "expected an array or a string, got %1").arg(ImportJson::typeName(content)));
            return true;
        }
        const QJsonArray blocks = content.toArray();
        QString text;
        for (qsizetype i = 0; i < blocks.size(); ++i) {
            const QJsonObject block = blocks.at(i).toObject();
            const QString type = block.value("type"_L1).toString();
            if (type == "tool_result"_L1) {
                const QJsonValue id = block.value("tool_use_id"_L1);
                if (!id.isString() || id.toString().isEmpty()) {
                    m_context.skipRecord(lineNumber, u"message.content[%1].tool_use_id"_s.arg(i), QCoreApplication::translate("TranscriptImport", "missing or not a string"));
                    continue;
                }
                Message result = Message::toolResult(id.toString(), ImportJson::contentText(block.value("content"_L1)),
                                                     block.value("is_error"_L1).toBool(false));
                result.createdAt = m_context.recordTime(); // it may wait behind the assistant message
                if (m_pending)
                    m_waitingResults.append(std::move(result));
                else if (!push(std::move(result)))
                    return false;
            } else if (type == "text"_L1 || type == "image"_L1) {
                const QString part = type == "text"_L1 ? block.value("text"_L1).toString() : u"[image]"_s;
                if (!text.isEmpty())
                    text += u'\n';
                text += part;
            } else {
                m_context.ignoreRecord(u"block/"_s + (type.isEmpty() ? u"?"_s : type));
            }
        }
        if (!text.isEmpty()) {
            if (!isInjectedPrompt(record, text))
                m_context.offerTitle(text);
            return flush() && push(Message::user(text));
        }
        return true;
    }

    // The boundary's metadata object, noted when it is missing or not an object (the boundary
    // still counts: what follows it is what Claude Code sent).
    QJsonObject boundaryMetadata(const QJsonObject &record, QLatin1StringView key)
    {
        const QJsonValue meta = record.value(key);
        if (!meta.isObject())
            m_context.note(m_context.messageCount(), QCoreApplication::translate("TranscriptImport", "a compaction boundary without %1 (got %2)").arg(key, ImportJson::typeName(meta)));
        return meta.toObject();
    }

    // The boundary's logicalParentUuid names the last record before the compaction: one that is
    // not earlier in the file (missing, or later: a cycle) is noted, never followed.
    void checkLogicalParent(const QJsonObject &record)
    {
        const QJsonValue parent = record.value("logicalParentUuid"_L1);
        if (parent.isString() && !m_uuids.contains(parent.toString()))
            m_context.note(m_context.messageCount(), QCoreApplication::translate("TranscriptImport", "the compaction's logical parent '%1' is not earlier in the file").arg(parent.toString().left(64)));
    }

    // A compaction at the boundary `record`, from its metadata object `metaKey`.
    ExternalCompaction boundary(const QJsonObject &record, qint64 lineNumber, QLatin1StringView metaKey, const QString &kind,
                                ExternalCompaction::Effect effect, QJsonObject *meta)
    {
        *meta = boundaryMetadata(record, metaKey);
        ExternalCompaction compaction;
        compaction.messageIndex = m_context.messageCount();
        compaction.tokensBefore = m_context.count(meta->value("preTokens"_L1), lineNumber, metaKey + u".preTokens"_s);
        compaction.trigger = meta->value("trigger"_L1).toString();
        compaction.kind = kind;
        compaction.effect = effect;
        compaction.timestamp = ImportJson::timestamp(record.value("timestamp"_L1));
        return compaction;
    }

    bool compactBoundary(const QJsonObject &record, qint64 lineNumber)
    {
        if (!flush())
            return false;
        checkLogicalParent(record);
        QJsonObject meta;
        const ExternalCompaction compaction = boundary(record, lineNumber, "compactMetadata"_L1, u"compact_boundary"_s,
                                                       ExternalCompaction::Effect::ReplacesHistory, &meta);
        m_summaryWaits = int(m_context.session().compactions.size());
        m_boundaryUuid = record.value("uuid"_L1).toString();
        m_context.addCompaction(compaction);
        return true;
    }

    // Claude Code cleared the results of earlier calls (microcompact): from here on it sent a
    // note in their place.
    bool microcompactBoundary(const QJsonObject &record, qint64 lineNumber)
    {
        if (!flush())
            return false;
        QJsonObject meta;
        ExternalCompaction compaction = boundary(record, lineNumber, "microcompactMetadata"_L1, u"microcompact_boundary"_s,
                                                 ExternalCompaction::Effect::ClearsResults, &meta);
        const QJsonArray ids = meta.value("compactedToolIds"_L1).toArray();
        for (const QJsonValue &id : ids) {
            if (id.isString() && !id.toString().isEmpty() && compaction.clearedCallIds.size() < kMaxClearedCalls)
                compaction.clearedCallIds.append(id.toString());
        }
        if (compaction.clearedCallIds.size() != ids.size())
            m_context.note(m_context.messageCount(), QCoreApplication::translate("TranscriptImport", "%1 of %2 cleared tool ids of a microcompaction could not be read").arg(ids.size() - compaction.clearedCallIds.size()).arg(ids.size()));
        m_context.addCompaction(compaction);
        return true;
    }

    static constexpr qsizetype kMaxUuids = 1'000'000;
    static constexpr qsizetype kMaxClearedCalls = 100'000;

    ImportContext &m_context;
    bool m_mainAhead;
    bool m_startChecked = false;
    int m_startLines = 0;
    int m_leftOut = 0;
    int m_leftOutAt = 0;
    std::optional<bool> m_sidechain;
    std::optional<Message> m_pending;
    ImportedRequest m_pendingRequest;
    QString m_pendingModel;
    QList<Message> m_waitingResults;
    QString m_summaryTitle;
    QSet<QString> m_uuids;        // of the records read so far (for logicalParentUuid)
    int m_summaryWaits = -1;      // the compaction whose summary record is still to come
    QString m_boundaryUuid;       // the uuid of that compaction's boundary
};

} // namespace

ClaudeCodeImporter::ClaudeCodeImporter()
    : TranscriptImporter(u"claude-code"_s, QT_TRANSLATE_NOOP("TranscriptImport", "Claude Code session"))
{
}

int ClaudeCodeImporter::canRead(const TranscriptSample &sample) const
{
    const QJsonObject &r = sample.firstRecord;
    if (r.isEmpty()) {
        // A first line too long to parse: look for the envelope fields.
        if (sample.firstChar == '{' && sample.head.contains("\"sessionId\"") && sample.head.contains("\"parentUuid\""))
            return 60;
        return 0;
    }
    const QString type = r.value("type"_L1).toString();
    const bool known = type == "user"_L1 || type == "assistant"_L1 || type == "system"_L1 || type == "summary"_L1
        || isNoiseType(type);
    if (!known)
        return 0;
    if (r.contains("sessionId"_L1) || r.contains("parentUuid"_L1) || r.contains("leafUuid"_L1)
        || type == "file-history-snapshot"_L1)
        return 95;
    return r.value("message"_L1).isObject() ? 60 : 30;
}

bool ClaudeCodeImporter::read(ImportContext &context) const
{
    // Claude Code writes "isSidechain":false on every main-conversation record.
    const bool mainAhead = context.device()->peek(TranscriptSample::sampleBytes).contains("\"isSidechain\":false");
    ClaudeReader reader(context, mainAhead);
    return context.readRecords(reader);
}

} // namespace wl
