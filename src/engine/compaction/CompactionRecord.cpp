#include "CompactionRecord.h"

#include <QCoreApplication>
#include "model/BoundedInteger.h"

#include <QJsonArray>

#include <algorithm>
#include <limits>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

constexpr qint64 maxWhole = qint64(1) << 62;
constexpr qint64 maxCount = std::numeric_limits<int>::max();
constexpr qint64 maxTokens = BoundedInteger::maxTokens;

QString fieldError(const QString &field)
{
    return QCoreApplication::translate("wl::CompactionRecord", "field \"%1\" is missing or has the wrong type").arg(field);
}

// Readers for one JSON field; each reports the field's name when it is present with the wrong type,
// or missing when `required`.
class FieldReader
{
public:
    explicit FieldReader(const QJsonObject &object, const QString &context = {})
        : m_object(object)
        , m_context(context)
    {
    }

    bool ok() const { return m_error.isEmpty(); }
    const QString &error() const { return m_error; }

    QString string(const QString &key, bool required = false)
    {
        const QJsonValue v = m_object.value(key);
        if (v.isString())
            return v.toString();
        check(v, key, required);
        return {};
    }

    double number(const QString &key, bool required = false, double fallback = 0)
    {
        const QJsonValue v = m_object.value(key);
        if (v.isDouble())
            return v.toDouble();
        check(v, key, required);
        return fallback;
    }

    // A whole number in [minimum, maximum]; 1e300 or 1.5 fails naming the field (never a cast
    // of an out-of-range double, which is undefined behaviour).
    qint64 integer(const QString &key, bool required = false, qint64 minimum = -maxWhole, qint64 maximum = maxWhole)
    {
        const QJsonValue v = m_object.value(key);
        if (v.isDouble()) {
            QString why;
            const QString field = u'"' + (m_context.isEmpty() ? key : m_context + u'.' + key) + u'"';
            const auto read = BoundedInteger::fromJson(v, minimum, maximum, field, &why);
            if (read)
                return *read;
            if (m_error.isEmpty())
                m_error = why;
            return 0;
        }
        check(v, key, required);
        return 0;
    }

    bool boolean(const QString &key, bool required = false)
    {
        const QJsonValue v = m_object.value(key);
        if (v.isBool())
            return v.toBool();
        check(v, key, required);
        return false;
    }

    QJsonObject object(const QString &key)
    {
        const QJsonValue v = m_object.value(key);
        if (v.isObject())
            return v.toObject();
        check(v, key, false);
        return {};
    }

    QJsonArray array(const QString &key)
    {
        const QJsonValue v = m_object.value(key);
        if (v.isArray())
            return v.toArray();
        check(v, key, false);
        return {};
    }

    void fail(const QString &key)
    {
        if (m_error.isEmpty())
            m_error = fieldError(m_context.isEmpty() ? key : m_context + u'.' + key);
    }

private:
    void check(const QJsonValue &v, const QString &key, bool required)
    {
        if (required || !v.isUndefined())
            fail(key);
    }

    const QJsonObject &m_object;
    QString m_context;
    QString m_error;
};

// ISO 8601 with an explicit numeric offset ("+00:00" rather than "Z").
QString isoWithOffset(const QDateTime &time)
{
    if (!time.isValid())
        return {};
    const int offset = time.offsetFromUtc();
    QString text = time.toOffsetFromUtc(offset).toString(Qt::ISODateWithMs);
    if (text.endsWith(u'Z'))
        text = text.chopped(1) + u"+00:00"_s;
    return text;
}

QJsonObject offloadEntryToJson(const OffloadEntry &entry)
{
    return QJsonObject{
        {u"call_id"_s, entry.callId},
        {u"tool_name"_s, entry.toolName},
        {u"path"_s, entry.relativePath},
        {u"bytes"_s, entry.bytes},
        {u"lines"_s, entry.lines},
        {u"gate"_s, entry.gate},
        {u"message_id"_s, entry.messageId},
    };
}

} // namespace

QJsonObject TierReason::toJson() const
{
    return QJsonObject{
        {u"ratio"_s, ratio},
        {u"estimate_tokens"_s, estimateTokens},
        {u"tool_schema_tokens"_s, toolSchemaTokens},
        {u"reserved_output"_s, reservedOutput},
        {u"context_window"_s, contextWindow},
        {u"warn"_s, warn},
        {u"soft"_s, soft},
        {u"full"_s, full},
        {u"emergency"_s, emergency},
        {u"forced"_s, forced},
    };
}

TierReason TierReason::fromJson(const QJsonObject &object)
{
    FieldReader in(object);
    TierReason reason;
    reason.ratio = in.number(u"ratio"_s);
    reason.estimateTokens = in.integer(u"estimate_tokens"_s, false, 0, maxTokens);
    reason.toolSchemaTokens = in.integer(u"tool_schema_tokens"_s, false, 0, maxTokens);
    reason.reservedOutput = in.integer(u"reserved_output"_s, false, 0, maxTokens);
    reason.contextWindow = in.integer(u"context_window"_s, false, 0, maxTokens);
    reason.warn = in.number(u"warn"_s);
    reason.soft = in.number(u"soft"_s);
    reason.full = in.number(u"full"_s);
    reason.emergency = in.number(u"emergency"_s);
    reason.forced = in.boolean(u"forced"_s);
    return reason;
}

QString summarizerStepName(SummarizerStep step)
{
    switch (step) {
    case SummarizerStep::None: return u"none"_s;
    case SummarizerStep::Configured: return u"configured"_s;
    case SummarizerStep::MainModel: return u"main_model"_s;
    case SummarizerStep::Extractive: return u"extractive"_s;
    }
    return u"none"_s;
}

bool summarizerStepFromName(QStringView name, SummarizerStep *step)
{
    for (SummarizerStep candidate : {SummarizerStep::None, SummarizerStep::Configured, SummarizerStep::MainModel, SummarizerStep::Extractive}) {
        if (name == summarizerStepName(candidate)) {
            if (step)
                *step = candidate;
            return true;
        }
    }
    return false;
}

int CompactionRecord::changedAnchorCount() const
{
    return int(std::count_if(anchorChanges.cbegin(), anchorChanges.cend(),
                             [](AnchorChange c) { return c == AnchorChange::New || c == AnchorChange::Updated; }));
}

QJsonObject CompactionRecord::toJson() const
{
    QJsonObject changes;
    for (AnchorKind kind : kAllAnchorKinds)
        changes.insert(anchorKey(kind), anchorChangeName(anchorChanges[size_t(kind)]));
    QJsonArray offloads;
    for (const OffloadEntry &entry : offloaded)
        offloads.append(offloadEntryToJson(entry));

    QJsonObject object{
        {u"id"_s, id},
        {u"session_id"_s, sessionId},
        {u"request_index"_s, requestIndex},
        {u"timestamp"_s, isoWithOffset(timestamp)},
        {u"tier"_s, tierName(tier)},
        {u"strategy"_s, strategyName(strategy)},
        {u"reason"_s, reason.toJson()},
        {u"tokens_before"_s, tokensBefore},
        {u"tokens_after"_s, tokensAfter},
        {u"msgs_before"_s, msgsBefore},
        {u"msgs_after"_s, msgsAfter},
        {u"anchors"_s, anchors.toJson()},
        {u"anchor_changes"_s, changes},
        {u"offloaded"_s, offloads},
        {u"summarized"_s, summarized},
        {u"preserved_tail"_s, preservedTail},
        {u"summary_text"_s, summaryText},
        {u"summarizer"_s, summarizerStepName(summarizerStep)},
        {u"summarizer_model"_s, summarizerModel},
        {u"compression_ratio"_s, compressionRatio},
        {u"duration_ms"_s, durationMs},
        {u"changed"_s, changed},
    };
    if (!error.isEmpty())
        object.insert(u"error"_s, error);
    return object;
}

bool CompactionRecord::fromJson(const QJsonObject &object, CompactionRecord *record, QString *error)
{
    auto failed = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };

    FieldReader in(object);
    CompactionRecord r;
    r.id = in.string(u"id"_s, true);
    if (in.ok() && r.id.isEmpty())
        in.fail(u"id"_s);
    r.sessionId = in.string(u"session_id"_s, true);
    r.requestIndex = int(in.integer(u"request_index"_s, false, -1, maxCount));

    const QString timestamp = in.string(u"timestamp"_s, true);
    if (in.ok()) {
        r.timestamp = QDateTime::fromString(timestamp, Qt::ISODateWithMs);
        if (!r.timestamp.isValid())
            in.fail(u"timestamp"_s);
    }
    const QString tier = in.string(u"tier"_s, true);
    if (in.ok() && !tierFromName(tier, &r.tier))
        in.fail(u"tier"_s);
    const QString strategy = in.string(u"strategy"_s);
    if (in.ok() && !strategy.isEmpty() && !strategyFromName(strategy, &r.strategy))
        in.fail(u"strategy"_s);

    const QJsonObject reason = in.object(u"reason"_s);
    FieldReader reasonCheck(reason, u"reason"_s);
    for (const QString &key : {u"ratio"_s, u"warn"_s, u"soft"_s, u"full"_s, u"emergency"_s})
        reasonCheck.number(key);
    for (const QString &key : {u"estimate_tokens"_s, u"tool_schema_tokens"_s, u"reserved_output"_s, u"context_window"_s})
        reasonCheck.integer(key, false, 0, maxTokens); // a window of 0: "never compact" (a forced pass)
    reasonCheck.boolean(u"forced"_s);
    if (!reasonCheck.ok())
        return failed(reasonCheck.error());
    r.reason = TierReason::fromJson(reason);

    r.tokensBefore = in.integer(u"tokens_before"_s, true, 0, maxTokens);
    r.tokensAfter = in.integer(u"tokens_after"_s, true, 0, maxTokens);
    r.msgsBefore = int(in.integer(u"msgs_before"_s, true, 0, maxCount));
    r.msgsAfter = int(in.integer(u"msgs_after"_s, true, 0, maxCount));
    r.anchors = Anchors::fromJson(in.object(u"anchors"_s));

    const QJsonObject changes = in.object(u"anchor_changes"_s);
    for (AnchorKind kind : kAllAnchorKinds) {
        const QJsonValue v = changes.value(anchorKey(kind));
        if (v.isUndefined())
            continue;
        if (!v.isString() || !anchorChangeFromName(v.toString(), &r.anchorChanges[size_t(kind)]))
            in.fail(u"anchor_changes."_s + anchorKey(kind));
    }

    const QJsonArray offloads = in.array(u"offloaded"_s);
    for (qsizetype i = 0; i < offloads.size() && in.ok(); ++i) {
        if (!offloads.at(i).isObject()) {
            in.fail(u"offloaded[%1]"_s.arg(i));
            break;
        }
        const QJsonObject item = offloads.at(i).toObject();
        FieldReader entryIn(item, u"offloaded[%1]"_s.arg(i));
        OffloadEntry entry;
        entry.callId = entryIn.string(u"call_id"_s, true);
        entry.toolName = entryIn.string(u"tool_name"_s);
        entry.relativePath = entryIn.string(u"path"_s, true);
        entry.bytes = entryIn.integer(u"bytes"_s, false, 0, BoundedInteger::maxBytes);
        entry.lines = int(entryIn.integer(u"lines"_s, false, 0, maxCount));
        entry.gate = int(entryIn.integer(u"gate"_s, false, 0, OffloadEntry::kCutGate));
        entry.messageId = entryIn.integer(u"message_id"_s, false, -1, maxWhole); // -1: not in the export
        if (!entryIn.ok())
            return failed(entryIn.error());
        r.offloaded.append(entry);
    }

    r.summarized = int(in.integer(u"summarized"_s, false, 0, maxCount));
    r.preservedTail = int(in.integer(u"preserved_tail"_s, false, 0, maxCount));
    r.summaryText = in.string(u"summary_text"_s);
    const QString step = in.string(u"summarizer"_s);
    if (in.ok() && !step.isEmpty() && !summarizerStepFromName(step, &r.summarizerStep))
        in.fail(u"summarizer"_s);
    r.summarizerModel = in.string(u"summarizer_model"_s);
    r.compressionRatio = in.number(u"compression_ratio"_s, false, 1);
    r.durationMs = in.integer(u"duration_ms"_s, false, 0, maxWhole);
    r.error = in.string(u"error"_s);
    r.changed = in.boolean(u"changed"_s);

    if (!in.ok())
        return failed(in.error());
    if (record)
        *record = r;
    return true;
}

} // namespace wl
