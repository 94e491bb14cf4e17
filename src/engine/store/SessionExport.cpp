#include "SessionExport.h"

#include "LoggingCategories.h"
#include "SecretFilter.h"
#include "compaction/CompactionPolicy.h"
#include "model/BoundedInteger.h"
#include "model/BoundedLineReader.h"
#include "model/MessageCodec.h"

#include <QCoreApplication>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <limits>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

QJsonValue timeValue(const QDateTime &time)
{
    if (!time.isValid())
        return QJsonValue::Null;
    return time.toUTC().toString(Qt::ISODateWithMs);
}

QJsonValue optionalValue(const std::optional<qint64> &value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

template<typename Map>
QJsonValue mappedOrNull(const Map &map, qint64 id)
{
    const auto it = map.constFind(id);
    return it == map.cend() ? QJsonValue(QJsonValue::Null) : QJsonValue(*it);
}

QByteArray jsonLine(const QJsonObject &object)
{
    QByteArray line = QJsonDocument(object).toJson(QJsonDocument::Compact);
    line.append('\n');
    return line;
}

QJsonObject sessionJson(const SessionInfo &s)
{
    return QJsonObject{
        {u"id"_s, s.id},
        {u"title"_s, s.title},
        {u"workspace"_s, s.workspace},
        {u"created_at"_s, timeValue(s.createdAt)},
        {u"updated_at"_s, timeValue(s.updatedAt)},
        {u"last_activity_at"_s, timeValue(s.lastActivityAt)},
        {u"policy"_s, s.policy},
        {u"provider_name"_s, s.providerName},
        {u"provider_profile"_s, SecretFilter::withoutSecrets(s.providerProfile)},
        {u"summarizer_profile"_s, SecretFilter::withoutSecrets(s.summarizerProfile)},
        {u"approval_policy"_s, s.approvalPolicy},
        {u"system_prompt"_s, s.systemPrompt},
        {u"tool_schemas"_s, s.toolSchemas},
    };
}

// --- reading -------------------------------------------------------------------------------

// Positions (seq, ordinal, index) and counts of lines: a QList index.
constexpr qint64 maxPosition = std::numeric_limits<int>::max();

// Collects the first problem of a line; the reader stops at the first damaged line.
struct LineReader
{
    int lineNumber = 0;
    QString problem;

    bool fail(const QString &what)
    {
        if (problem.isEmpty())
            problem = QCoreApplication::translate("wl::SessionExport", "line %1: %2").arg(lineNumber).arg(what);
        return false;
    }

    bool string(const QJsonObject &o, QStringView key, QString *out, bool required = true)
    {
        const QJsonValue v = o.value(key);
        if (v.isString()) {
            *out = v.toString();
            return true;
        }
        if (!required && (v.isUndefined() || v.isNull())) {
            out->clear();
            return true;
        }
        return fail(QCoreApplication::translate("wl::SessionExport", "\"%1\" must be a string").arg(key));
    }

    // Whole numbers in [minimum, maximum]: 1e300, -5, 1.5 or 2^63 is an error naming the field,
    // never a cast. `prefix` names the enclosing object ("usage" gives "usage.input").
    bool integer(const QJsonObject &o, QStringView key, qint64 *out, qint64 minimum, qint64 maximum,
                 QStringView prefix = {})
    {
        QString why;
        const auto v = BoundedInteger::fromJson(o.value(key), minimum, maximum, fieldName(prefix, key), &why);
        if (!v)
            return fail(why);
        *out = *v;
        return true;
    }

    bool optionalInteger(const QJsonObject &o, QStringView key, std::optional<qint64> *out, qint64 minimum,
                         qint64 maximum, QStringView prefix = {})
    {
        const QJsonValue v = o.value(key);
        if (v.isNull() || v.isUndefined()) {
            out->reset();
            return true;
        }
        qint64 value = 0;
        if (!integer(o, key, &value, minimum, maximum, prefix))
            return false;
        *out = value;
        return true;
    }

    static QString fieldName(QStringView prefix, QStringView key)
    {
        return prefix.isEmpty() ? key.toString() : prefix + u'.' + key;
    }

    bool time(const QJsonObject &o, QStringView key, QDateTime *out)
    {
        const QJsonValue v = o.value(key);
        if (v.isNull() || v.isUndefined()) {
            *out = QDateTime();
            return true;
        }
        const QDateTime t = QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
        if (!v.isString() || !t.isValid())
            return fail(QCoreApplication::translate("wl::SessionExport", "\"%1\" must be an ISO 8601 time").arg(key));
        *out = t.toUTC();
        return true;
    }

    bool object(const QJsonObject &o, QStringView key, QJsonObject *out)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() || v.isNull()) {
            *out = {};
            return true;
        }
        if (!v.isObject())
            return fail(QCoreApplication::translate("wl::SessionExport", "\"%1\" must be an object").arg(key));
        *out = v.toObject();
        return true;
    }

    bool tier(const QJsonObject &o, QStringView key, Tier *out)
    {
        if (!tierFromName(o.value(key).toString(), out))
            return fail(QCoreApplication::translate("wl::SessionExport", "\"%1\" is not a tier name").arg(key));
        return true;
    }
};

// The edits of a checkpoint line ("versions", optional): numbers from 2 up, each a checkpoint text.
// Version 1 is the line's own text.
bool readVersions(LineReader &in, const QJsonObject &o, Checkpoint *c)
{
    const QJsonValue value = o.value(u"versions");
    if (value.isUndefined() || value.isNull())
        return true;
    if (!value.isArray())
        return in.fail(QCoreApplication::translate("wl::SessionExport", "\"versions\" must be an array"));
    const QJsonArray array = value.toArray();
    if (array.isEmpty())
        return true;
    CheckpointVersion first;
    first.text = c->text;
    first.summary = c->summary;
    first.anchors = c->anchors;
    first.createdAt = c->createdAt;
    QList<CheckpointVersion> versions{first};
    for (const QJsonValue &entry : array) {
        if (!entry.isObject())
            return in.fail(QCoreApplication::translate("wl::SessionExport", "a checkpoint version must be an object"));
        const QJsonObject v = entry.toObject();
        CheckpointVersion version;
        qint64 number = 0, from = 0;
        QJsonObject anchors;
        if (!in.integer(v, u"version", &number, versions.constLast().version + 1, maxPosition, u"versions")
            || !in.string(v, u"text", &version.text) || !in.string(v, u"summary", &version.summary, false)
            || !in.object(v, u"anchors", &anchors) || !in.integer(v, u"from_request", &from, 0, maxPosition, u"versions")
            || !in.time(v, u"created_at", &version.createdAt) || !in.time(v, u"undone_at", &version.undoneAt))
            return false;
        if (!isCheckpointText(version.text))
            return in.fail(QCoreApplication::translate("wl::SessionExport", "version %1 of the checkpoint does not begin with [Context Compaction]")
                               .arg(number));
        version.version = int(number);
        version.fromRequestIndex = int(from);
        version.anchors = Anchors::fromJson(anchors);
        versions.append(version);
    }
    // The checkpoint reads as its newest version not undone, as the store gives it.
    for (const CheckpointVersion &v : std::as_const(versions)) {
        if (v.undoneAt.isValid())
            continue;
        c->version = v.version;
        c->text = v.text;
        c->summary = v.summary;
        c->anchors = v.anchors;
    }
    c->versions = versions;
    return true;
}

} // namespace

QString SessionExport::formatName()
{
    return u"waterline-session"_s;
}

bool SessionExport::write(const SessionDocument &doc, const QString &path, QString *error)
{
    // Document ids -> positions in the file.
    QHash<qint64, qint64> seqOf;
    seqOf.reserve(doc.messages.size());
    QList<qint64> messageIds; // in file order, which is id order (views are read back in it)
    messageIds.reserve(doc.messages.size());
    for (qsizetype i = 0; i < doc.messages.size(); ++i) {
        const qint64 id = doc.messages[i].id;
        if (!messageIds.isEmpty() && id <= messageIds.constLast()) {
            if (error)
                *error = QCoreApplication::translate("wl::SessionExport", "cannot export: message %1 (id %2) does not come after id %3, so the views cannot be written in file order").arg(i).arg(id).arg(messageIds.constLast());
            return false;
        }
        messageIds.append(id);
        seqOf.insert(id, i);
    }
    QHash<qint64, qint64> indexOf;
    for (const RequestRecord &r : doc.requests)
        indexOf.insert(r.id, r.index);
    QHash<qint64, qint64> ordinalOf;
    for (qsizetype i = 0; i < doc.checkpoints.size(); ++i)
        ordinalOf.insert(doc.checkpoints[i].id, i);

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QCoreApplication::translate("wl::SessionExport", "cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    // An export holds the whole conversation: only the user may read it, whatever the umask.
    // Set on the temporary file, so it is never readable by others, not even briefly.
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    auto put = [&file](const QJsonObject &object) { file.write(jsonLine(object)); };

    put(QJsonObject{
        {u"type"_s, u"header"_s},
        {u"format"_s, formatName()},
        {u"version"_s, kFormatVersion},
        {u"exported_at"_s, timeValue(QDateTime::currentDateTimeUtc())},
        {u"generator"_s, u"Waterline " WATERLINE_VERSION ""_s},
        {u"session"_s, sessionJson(doc.session)},
    });

    for (qsizetype i = 0; i < doc.messages.size(); ++i) {
        const Message &m = doc.messages[i];
        QJsonObject o = MessageCodec::toJson(m);
        o.insert(u"type", u"message"_s);
        o.insert(u"seq", i);
        o.insert(u"is_error", m.isError);
        o.insert(u"bytes", m.byteCount());
        o.insert(u"created_at", timeValue(m.createdAt));
        o.insert(u"origin", m.origin ? mappedOrNull(indexOf, m.origin) : QJsonValue(QJsonValue::Null));
        put(o);
    }

    for (qsizetype i = 0; i < doc.checkpoints.size(); ++i) {
        const Checkpoint &c = doc.checkpoints[i];
        // An edited checkpoint: the line holds what its compaction made, "versions" every edit.
        const bool edited = !c.versions.isEmpty();
        QJsonObject line{
            {u"type"_s, u"checkpoint"_s},
            {u"ordinal"_s, i},
            {u"covers_from"_s, mappedOrNull(seqOf, c.coversFromMessageId)},
            {u"covers_up_to"_s, mappedOrNull(seqOf, c.coversUpToMessageId)},
            {u"text"_s, edited ? c.versions.constFirst().text : c.text},
            {u"summary"_s, edited ? c.versions.constFirst().summary : c.summary},
            {u"anchors"_s, (edited ? c.versions.constFirst().anchors : c.anchors).toJson()},
            {u"record_id"_s, c.recordId},
            {u"tier"_s, tierName(c.tier)},
            {u"created_at"_s, timeValue(c.createdAt)},
        };
        if (edited) {
            QJsonArray versions;
            for (qsizetype v = 1; v < c.versions.size(); ++v) {
                const CheckpointVersion &version = c.versions[v];
                versions.append(QJsonObject{{u"version"_s, version.version},
                                            {u"text"_s, version.text},
                                            {u"summary"_s, version.summary},
                                            {u"anchors"_s, version.anchors.toJson()},
                                            {u"from_request"_s, version.fromRequestIndex},
                                            {u"created_at"_s, timeValue(version.createdAt)},
                                            {u"undone_at"_s, timeValue(version.undoneAt)}});
            }
            line.insert(u"versions"_s, versions);
        }
        put(line);
    }

    for (const OffloadOverlay &off : doc.offloads) {
        QJsonObject line{
            {u"type"_s, u"offload"_s},
            {u"message"_s, mappedOrNull(seqOf, off.messageId)},
            {u"call_id"_s, off.entry.callId},
            {u"tool_name"_s, off.entry.toolName},
            {u"path"_s, off.entry.relativePath},
            {u"bytes"_s, off.entry.bytes},
            {u"lines"_s, off.entry.lines},
            {u"gate"_s, off.entry.gate},
            {u"placeholder"_s, off.placeholder},
            {u"record_id"_s, off.recordId},
        };
        if (!off.arguments.isEmpty()) // a message Emergency cut: its calls' shown arguments
            line.insert(u"arguments"_s, QJsonArray::fromStringList(off.arguments));
        put(line);
    }

    for (const RequestRecord &r : doc.requests) {
        const ViewIds seqs = r.viewMessageIds.positionsIn(messageIds);
        QJsonObject o{
            {u"type"_s, u"request"_s},
            {u"index"_s, r.index},
            {u"view"_s, QJsonObject{{u"checkpoint"_s, r.viewCheckpointId ? mappedOrNull(ordinalOf, r.viewCheckpointId)
                                                                          : QJsonValue(QJsonValue::Null)},
                                    {u"messages"_s, seqs.toJson()}}},
            {u"estimate_tokens"_s, r.estimateTokens},
            {u"tool_schema_tokens"_s, r.toolSchemaTokens},
            {u"tool_schema_bytes"_s, optionalValue(r.toolSchemaBytes)},
            {u"usage"_s, QJsonObject{{u"input"_s, optionalValue(r.inputTokens)},
                                     {u"output"_s, optionalValue(r.outputTokens)},
                                     {u"cache_read"_s, optionalValue(r.cacheReadTokens)},
                                     {u"cache_write"_s, optionalValue(r.cacheWriteTokens)}}},
            {u"tier"_s, tierName(r.tier)},
            {u"model"_s, r.model},
            {u"started_at"_s, timeValue(r.startedAt)},
            {u"finished_at"_s, timeValue(r.finishedAt)},
        };
        if (!r.error.isEmpty())
            o.insert(u"error", r.error);
        put(o);
    }

    for (const CompactionRecord &record : doc.records) {
        CompactionRecord copy = record;
        for (OffloadEntry &entry : copy.offloaded)
            entry.messageId = seqOf.value(entry.messageId, -1);
        put(QJsonObject{{u"type"_s, u"record"_s}, {u"record"_s, copy.toJson()}});
    }

    for (const Pin &pin : doc.pins) {
        put(QJsonObject{
            {u"type"_s, u"pin"_s},
            {u"kind"_s, Pin::kindName(pin.kind)},
            {u"source"_s, Pin::sourceName(pin.source)},
            {u"message"_s, pin.kind == Pin::Kind::Note ? QJsonValue(QJsonValue::Null) : mappedOrNull(seqOf, pin.messageId)},
            {u"text"_s, pin.text},
            {u"reason"_s, pin.reason},
            {u"created_at"_s, timeValue(pin.createdAt)},
        });
    }

    put(QJsonObject{
        {u"type"_s, u"end"_s},
        {u"counts"_s, QJsonObject{{u"messages"_s, doc.messages.size()},
                                  {u"checkpoints"_s, doc.checkpoints.size()},
                                  {u"offloads"_s, doc.offloads.size()},
                                  {u"requests"_s, doc.requests.size()},
                                  {u"records"_s, doc.records.size()},
                                  {u"pins"_s, doc.pins.size()}}},
    });

    if (!file.commit()) {
        if (error)
            *error = QCoreApplication::translate("wl::SessionExport", "cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

std::optional<SessionDocument> SessionExport::read(const QString &path, QString *error, qint64 maxLineBytes)
{
    return read(path, Streaming(), error, maxLineBytes);
}

std::optional<SessionDocument> SessionExport::read(const QString &path, const Streaming &streaming, QString *error,
                                                   qint64 maxLineBytes)
{
    auto failed = [&](const QString &what) -> std::optional<SessionDocument> {
        if (error)
            *error = QCoreApplication::translate("wl::SessionExport", "%1 is not a readable Waterline session export: %2").arg(path, what);
        return std::nullopt;
    };

    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return failed(file.errorString());

    SessionDocument doc;
    qsizetype messageCount = 0;
    LineReader in;
    bool sawHeader = false;
    bool sawEnd = false;
    // File references, resolved once everything is read.
    QList<std::optional<qint64>> messageOrigin;          // request index per message
    QList<std::optional<qint64>> viewCheckpointOrdinal;  // per request
    QList<QJsonArray> viewSeqs;                          // per request
    QHash<qint64, qint64> requestIdByIndex;
    QList<int> requestLine;                              // per request, for messages after the last line
    QJsonObject endCounts;

    BoundedLineReader lines(&file, maxLineBytes);
    QByteArray raw;
    while (lines.next(&raw) == BoundedLineReader::Status::Line) {
        in.lineNumber = int(std::min<qint64>(lines.lineNumber(), maxPosition));
        if (raw.trimmed().isEmpty())
            continue;
        if (sawEnd)
            return failed(QCoreApplication::translate("wl::SessionExport", "line %1: data after the end line").arg(in.lineNumber));
        QJsonParseError parseError;
        const QJsonDocument json = QJsonDocument::fromJson(raw, &parseError);
        if (parseError.error != QJsonParseError::NoError)
            return failed(QCoreApplication::translate("wl::SessionExport", "line %1: %2").arg(in.lineNumber).arg(parseError.errorString()));
        if (!json.isObject())
            return failed(QCoreApplication::translate("wl::SessionExport", "line %1: not a JSON object").arg(in.lineNumber));
        const QJsonObject o = json.object();
        const QString type = o.value(u"type").toString();

        if (!sawHeader) {
            if (type != u"header" || o.value(u"format").toString() != formatName())
                return failed(QCoreApplication::translate("wl::SessionExport", "line 1 is not a \"%1\" header").arg(formatName()));
            QString why;
            const auto version = BoundedInteger::fromJson(o.value(u"version"), 1, maxPosition, u"version"_s, &why);
            if (!version)
                return failed(QCoreApplication::translate("wl::SessionExport", "line %1: the header has no valid version: %2").arg(in.lineNumber).arg(why));
            if (*version > kFormatVersion)
                return failed(QCoreApplication::translate("wl::SessionExport", "written by a newer Waterline (export format %1); this version reads up to %2")
                                  .arg(*version)
                                  .arg(kFormatVersion));
            QJsonObject s;
            if (!in.object(o, u"session", &s))
                return failed(in.problem);
            SessionInfo &info = doc.session;
            if (!in.string(s, u"id", &info.id, false) || !in.string(s, u"title", &info.title, false)
                || !in.string(s, u"workspace", &info.workspace, false)
                || !in.time(s, u"created_at", &info.createdAt) || !in.time(s, u"updated_at", &info.updatedAt)
                || !in.time(s, u"last_activity_at", &info.lastActivityAt) || !in.object(s, u"policy", &info.policy)
                || !in.string(s, u"provider_name", &info.providerName, false)
                || !in.object(s, u"provider_profile", &info.providerProfile)
                || !in.object(s, u"summarizer_profile", &info.summarizerProfile)
                || !in.string(s, u"approval_policy", &info.approvalPolicy, false)
                || !in.string(s, u"system_prompt", &info.systemPrompt, false))
                return failed(in.problem);
            // Since schema 5; older files have none.
            const QJsonValue schemas = s.value(u"tool_schemas");
            if (!schemas.isUndefined() && !schemas.isNull() && !schemas.isArray())
                return failed(QCoreApplication::translate("wl::SessionExport", "line %1: \"tool_schemas\" must be an array").arg(in.lineNumber));
            info.toolSchemas = schemas.toArray();
            // The policy's numbers are checked here, where the line is known, not when the
            // session is first opened. A window of 0 is valid: "never compact".
            CompactionPolicy policy;
            QString policyError;
            if (!info.policy.isEmpty() && !CompactionPolicy::fromJson(info.policy, &policy, &policyError))
                return failed(QCoreApplication::translate("wl::SessionExport", "line %1: policy: %2").arg(in.lineNumber).arg(policyError));
            info.providerProfile = SecretFilter::withoutSecrets(info.providerProfile);
            info.summarizerProfile = SecretFilter::withoutSecrets(info.summarizerProfile);
            sawHeader = true;
            QString refused;
            if (streaming.session && !streaming.session(info, &refused))
                return failed(refused);
            continue;
        }

        if (type == u"message") {
            qint64 seq = 0;
            if (!in.integer(o, u"seq", &seq, 0, maxPosition))
                return failed(in.problem);
            if (seq != messageCount)
                return failed(QCoreApplication::translate("wl::SessionExport", "line %1: message seq %2 where %3 was expected").arg(in.lineNumber).arg(seq).arg(messageCount));
            QString why;
            std::optional<Message> m = MessageCodec::fromJson(o, &why);
            if (!m)
                return failed(QCoreApplication::translate("wl::SessionExport", "line %1: %2").arg(in.lineNumber).arg(why));
            m->id = seq + 1;
            m->isError = o.value(u"is_error").toBool();
            if (!in.time(o, u"created_at", &m->createdAt))
                return failed(in.problem);
            m->cacheBytes(); // recomputed: the file's "bytes" is informative, never trusted
            std::optional<qint64> origin;
            if (!in.optionalInteger(o, u"origin", &origin, 0, maxPosition))
                return failed(in.problem);
            messageOrigin.append(origin);
            ++messageCount;
            if (streaming.message) {
                QString refused;
                if (!streaming.message(std::move(*m), &refused))
                    return failed(refused);
            } else {
                doc.messages.append(std::move(*m));
            }
        } else if (type == u"checkpoint") {
            qint64 ordinal = 0;
            if (!in.integer(o, u"ordinal", &ordinal, 0, maxPosition))
                return failed(in.problem);
            if (ordinal != doc.checkpoints.size())
                return failed(QCoreApplication::translate("wl::SessionExport", "line %1: checkpoint ordinal %2 where %3 was expected").arg(in.lineNumber).arg(ordinal).arg(doc.checkpoints.size()));
            Checkpoint c;
            c.id = ordinal + 1;
            std::optional<qint64> from, upTo;
            QJsonObject anchors;
            if (!in.optionalInteger(o, u"covers_from", &from, 0, maxPosition)
                || !in.optionalInteger(o, u"covers_up_to", &upTo, 0, maxPosition)
                || !in.string(o, u"text", &c.text) || !in.string(o, u"summary", &c.summary, false)
                || !in.object(o, u"anchors", &anchors) || !in.string(o, u"record_id", &c.recordId, false)
                || !in.tier(o, u"tier", &c.tier) || !in.time(o, u"created_at", &c.createdAt))
                return failed(in.problem);
            if (!upTo || *upTo < 0 || *upTo >= messageCount || (from && (*from < 0 || *from > *upTo)))
                return failed(QCoreApplication::translate("wl::SessionExport", "line %1: the checkpoint covers messages that are not in the file").arg(in.lineNumber));
            c.coversUpToMessageId = *upTo + 1;
            c.coversFromMessageId = from ? *from + 1 : 0;
            c.anchors = Anchors::fromJson(anchors);
            if (!readVersions(in, o, &c))
                return failed(in.problem);
            doc.checkpoints.append(c);
        } else if (type == u"offload") {
            OffloadOverlay off;
            qint64 seq = 0, bytes = 0, lineCount = 0, gate = 0;
            if (!in.integer(o, u"message", &seq, 0, maxPosition) || !in.string(o, u"call_id", &off.entry.callId)
                || !in.string(o, u"tool_name", &off.entry.toolName, false)
                || !in.string(o, u"path", &off.entry.relativePath)
                || !in.integer(o, u"bytes", &bytes, 0, BoundedInteger::maxBytes)
                || !in.integer(o, u"lines", &lineCount, 0, maxPosition)
                || !in.integer(o, u"gate", &gate, 1, OffloadEntry::kCutGate)
                || !in.string(o, u"placeholder", &off.placeholder) || !in.string(o, u"record_id", &off.recordId, false))
                return failed(in.problem);
            if (seq < 0 || seq >= messageCount)
                return failed(QCoreApplication::translate("wl::SessionExport", "line %1: the offload names message %2, which is not in the file").arg(in.lineNumber).arg(seq));
            off.messageId = seq + 1;
            off.entry.messageId = seq + 1;
            off.entry.bytes = bytes;
            off.entry.lines = int(lineCount);
            off.entry.gate = int(gate);
            const QJsonValue arguments = o.value(u"arguments"_s);
            if (!arguments.isUndefined() && !arguments.isArray())
                return failed(QCoreApplication::translate("wl::SessionExport", "line %1: \"arguments\" must be a list of strings").arg(in.lineNumber));
            for (const QJsonValue &argument : arguments.toArray()) {
                if (!argument.isString())
                    return failed(QCoreApplication::translate("wl::SessionExport", "line %1: \"arguments\" must be a list of strings").arg(in.lineNumber));
                off.arguments.append(argument.toString());
            }
            doc.offloads.append(off);
        } else if (type == u"request") {
            RequestRecord r;
            qint64 index = 0;
            QJsonObject view, usage;
            constexpr qint64 maxTokens = BoundedInteger::maxTokens;
            if (!in.integer(o, u"index", &index, 0, maxPosition) || !in.object(o, u"view", &view)
                || !in.object(o, u"usage", &usage)
                || !in.integer(o, u"estimate_tokens", &r.estimateTokens, 0, maxTokens)
                || !in.integer(o, u"tool_schema_tokens", &r.toolSchemaTokens, 0, maxTokens)
                || !in.optionalInteger(o, u"tool_schema_bytes", &r.toolSchemaBytes, 0, BoundedInteger::maxBytes)
                || !in.optionalInteger(usage, u"input", &r.inputTokens, 0, maxTokens, u"usage")
                || !in.optionalInteger(usage, u"output", &r.outputTokens, 0, maxTokens, u"usage")
                || !in.optionalInteger(usage, u"cache_read", &r.cacheReadTokens, 0, maxTokens, u"usage")
                || !in.optionalInteger(usage, u"cache_write", &r.cacheWriteTokens, 0, maxTokens, u"usage")
                || !in.tier(o, u"tier", &r.tier) || !in.string(o, u"model", &r.model, false)
                || !in.time(o, u"started_at", &r.startedAt) || !in.time(o, u"finished_at", &r.finishedAt)
                || !in.string(o, u"error", &r.error, false))
                return failed(in.problem);
            if (requestIdByIndex.contains(index))
                return failed(QCoreApplication::translate("wl::SessionExport", "line %1: request index %2 is repeated").arg(in.lineNumber).arg(index));
            std::optional<qint64> checkpoint;
            if (!in.optionalInteger(view, u"checkpoint", &checkpoint, 0, maxPosition, u"view"))
                return failed(in.problem);
            if (!view.value(u"messages").isArray())
                return failed(QCoreApplication::translate("wl::SessionExport", "line %1: the view has no message list").arg(in.lineNumber));
            r.index = int(index);
            r.id = doc.requests.size() + 1;
            requestIdByIndex.insert(index, r.id);
            viewCheckpointOrdinal.append(checkpoint);
            viewSeqs.append(view.value(u"messages").toArray());
            requestLine.append(in.lineNumber);
            doc.requests.append(r);
        } else if (type == u"record") {
            CompactionRecord record;
            QString why;
            if (!CompactionRecord::fromJson(o.value(u"record").toObject(), &record, &why))
                return failed(QCoreApplication::translate("wl::SessionExport", "line %1: %2").arg(in.lineNumber).arg(why));
            for (OffloadEntry &entry : record.offloaded) {
                if (entry.messageId >= 0 && entry.messageId < messageCount)
                    entry.messageId += 1;
                else
                    entry.messageId = 0;
            }
            doc.records.append(record);
        } else if (type == u"pin") {
            Pin pin;
            QString kind, source;
            std::optional<qint64> seq;
            if (!in.string(o, u"kind", &kind) || !in.string(o, u"source", &source)
                || !in.optionalInteger(o, u"message", &seq, 0, maxPosition) || !in.string(o, u"text", &pin.text)
                || !in.string(o, u"reason", &pin.reason, false) || !in.time(o, u"created_at", &pin.createdAt))
                return failed(in.problem);
            if (!Pin::kindFromName(kind, &pin.kind) || !Pin::sourceFromName(source, &pin.source))
                return failed(QCoreApplication::translate("wl::SessionExport", "line %1: a pin of unknown kind \"%2\" or source \"%3\"")
                                  .arg(in.lineNumber).arg(kind, source));
            if (pin.kind != Pin::Kind::Note) {
                if (!seq || *seq >= messageCount)
                    return failed(QCoreApplication::translate("wl::SessionExport", "line %1: the pin names a message that is not in the file").arg(in.lineNumber));
                pin.messageId = *seq + 1;
            }
            if (pin.text.trimmed().isEmpty())
                return failed(QCoreApplication::translate("wl::SessionExport", "line %1: the pin has no text").arg(in.lineNumber));
            pin.id = doc.pins.size() + 1;
            doc.pins.append(pin);
        } else if (type == u"end") {
            if (!in.object(o, u"counts", &endCounts))
                return failed(in.problem);
            for (const QString &name : {u"messages"_s, u"checkpoints"_s, u"offloads"_s, u"requests"_s, u"records"_s}) {
                qint64 count = 0;
                if (!in.integer(endCounts, name, &count, 0, maxPosition, u"counts"))
                    return failed(in.problem);
            }
            qint64 pinCount = 0;
            if (endCounts.contains(u"pins") && !in.integer(endCounts, u"pins", &pinCount, 0, maxPosition, u"counts"))
                return failed(in.problem);
            sawEnd = true;
        } else if (type == u"header") {
            return failed(QCoreApplication::translate("wl::SessionExport", "line %1: a second header").arg(in.lineNumber));
        } else {
            return failed(QCoreApplication::translate("wl::SessionExport", "line %1: unknown line type \"%2\"").arg(in.lineNumber).arg(type));
        }
    }
    if (lines.status() != BoundedLineReader::Status::End)
        return failed(QCoreApplication::translate("wl::SessionExport", "line %1: %2").arg(lines.lineNumber()).arg(lines.errorString()));

    if (!sawHeader)
        return failed(QCoreApplication::translate("wl::SessionExport", "the file is empty"));
    if (!sawEnd)
        return failed(QCoreApplication::translate("wl::SessionExport", "the file ends early (no end line): it was cut off"));
    const std::pair<QStringView, qsizetype> counts[] = {
        {u"messages", messageCount}, {u"checkpoints", doc.checkpoints.size()},
        {u"offloads", doc.offloads.size()}, {u"requests", doc.requests.size()}, {u"records", doc.records.size()},
        {u"pins", doc.pins.size()}};
    for (const auto &[name, have] : counts) {
        if (name == u"pins" && !endCounts.contains(name) && have == 0)
            continue; // written before schema 8
        const qint64 expected = endCounts.value(name).toInteger();
        if (expected != have)
            return failed(QCoreApplication::translate("wl::SessionExport", "the end line announces %1 %2 but the file holds %3").arg(expected).arg(name).arg(have));
    }

    // Resolve the cross references now that every line is known.
    doc.streamedMessages = streaming.message ? messageCount : 0;
    for (qsizetype i = 0; i < messageCount; ++i) {
        const std::optional<qint64> &origin = messageOrigin[i];
        if (!origin)
            continue;
        const auto it = requestIdByIndex.constFind(*origin);
        if (it == requestIdByIndex.cend())
            return failed(QCoreApplication::translate("wl::SessionExport", "message %1 names request %2, which is not in the file").arg(i).arg(*origin));
        if (streaming.message)
            doc.streamedOrigins.insert(i + 1, *it);
        else
            doc.messages[i].origin = *it;
    }
    for (qsizetype i = 0; i < doc.requests.size(); ++i) {
        RequestRecord &r = doc.requests[i];
        const std::optional<qint64> &ordinal = viewCheckpointOrdinal[i];
        if (ordinal) {
            if (*ordinal < 0 || *ordinal >= doc.checkpoints.size())
                return failed(QCoreApplication::translate("wl::SessionExport", "line %1: request %2 names checkpoint %3, which is not in the file").arg(requestLine[i]).arg(r.index).arg(*ordinal));
            r.viewCheckpointId = *ordinal + 1;
        }
        // A view names messages of the file, each at most once, in file order.
        QString why;
        const std::optional<ViewIds> seqs = ViewIds::fromJson(viewSeqs[i], &why, messageCount - 1);
        if (!seqs)
            return failed(QCoreApplication::translate("wl::SessionExport", "line %1: the view of request %2 is damaged or names a message that is not in the file: %3").arg(requestLine[i]).arg(r.index).arg(why));
        r.viewMessageIds.clear();
        for (const ViewIds::Range &run : seqs->ranges())
            (void)r.viewMessageIds.appendRange(run.first + 1, run.last + 1); // ascends as the positions do
    }
    qCDebug(lcStore) << "read session export" << path << messageCount << "messages";
    return doc;
}

} // namespace wl
