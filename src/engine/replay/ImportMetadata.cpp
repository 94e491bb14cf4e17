#include "ImportMetadata.h"

#include "ImportedSession.h"
#include "model/MessageCodec.h"

#include <QJsonArray>

#include <algorithm>
#include <array>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

constexpr std::array<std::pair<ImportIssue::Kind, QLatin1StringView>, 4> kIssueKinds{{
    {ImportIssue::Kind::CallWithoutResult, "call_without_result"_L1},
    {ImportIssue::Kind::ResultForUnknownCall, "result_for_unknown_call"_L1},
    {ImportIssue::Kind::DuplicateResult, "duplicate_result"_L1},
    {ImportIssue::Kind::Note, "note"_L1},
}};

// Anything unknown (an older import, a hand-edited file) is not followed: the view stays the prefix.
constexpr std::array<std::pair<ExternalCompaction::Effect, QLatin1StringView>, 3> kEffects{{
    {ExternalCompaction::Effect::Unknown, "unknown"_L1},
    {ExternalCompaction::Effect::ReplacesHistory, "replaces_history"_L1},
    {ExternalCompaction::Effect::ClearsResults, "clears_results"_L1},
}};

// A value's name in one of the tables above, and back; `fallback` for what the table lacks.
template<typename T, size_t N>
QString nameIn(const std::array<std::pair<T, QLatin1StringView>, N> &table, T value, QLatin1StringView fallback)
{
    for (const auto &[v, name] : table) {
        if (v == value)
            return name;
    }
    return fallback;
}

template<typename T, size_t N>
T valueIn(const std::array<std::pair<T, QLatin1StringView>, N> &table, const QString &name, T fallback)
{
    for (const auto &[v, n] : table) {
        if (name == n)
            return v;
    }
    return fallback;
}

QJsonValue count(qint64 value)
{
    return value >= 0 ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

qint64 countFrom(const QJsonValue &value)
{
    return value.isDouble() ? value.toInteger() : -1;
}

QJsonObject usageJson(const TokenUsage &u)
{
    return QJsonObject{{u"input"_s, count(u.input)},
                       {u"output"_s, count(u.output)},
                       {u"cache_read"_s, count(u.cacheRead)},
                       {u"cache_write"_s, count(u.cacheWrite)},
                       {u"context"_s, count(u.context)}};
}

TokenUsage usageFrom(const QJsonObject &o)
{
    TokenUsage u;
    u.input = countFrom(o.value(u"input"));
    u.output = countFrom(o.value(u"output"));
    u.cacheRead = countFrom(o.value(u"cache_read"));
    u.cacheWrite = countFrom(o.value(u"cache_write"));
    u.context = countFrom(o.value(u"context"));
    return u;
}

QJsonObject countsJson(const QMap<QString, int> &map)
{
    QJsonObject o;
    for (auto it = map.cbegin(); it != map.cend(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

QMap<QString, int> countsFrom(const QJsonObject &o)
{
    QMap<QString, int> map;
    for (auto it = o.constBegin(); it != o.constEnd(); ++it)
        map.insert(it.key(), it.value().toInt());
    return map;
}


QJsonValue timeJson(const QDateTime &time)
{
    return time.isValid() ? QJsonValue(time.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue(QJsonValue::Null);
}

} // namespace

QJsonObject ImportMetadata::toJson(const ImportedSession &s)
{
    // Requests by message index, to find the request a compaction precedes.
    QList<int> requestMessages;
    requestMessages.reserve(s.requests.size());
    for (const ImportedRequest &r : s.requests)
        requestMessages.append(r.messageIndex);
    std::sort(requestMessages.begin(), requestMessages.end());

    QJsonArray compactions;
    for (const ExternalCompaction &c : s.compactions) {
        const auto next = std::lower_bound(requestMessages.cbegin(), requestMessages.cend(), c.messageIndex);
        compactions.append(QJsonObject{
            {u"message"_s, c.messageIndex},
            {u"request"_s, next == requestMessages.cend() ? QJsonValue(QJsonValue::Null)
                                                          : QJsonValue(qint64(next - requestMessages.cbegin()))},
            {u"tokens_before"_s, count(c.tokensBefore)},
            {u"trigger"_s, c.trigger},
            {u"summary"_s, c.summary},
            {u"kind"_s, c.kind},
            {u"timestamp"_s, timeJson(c.timestamp)},
            {u"effect"_s, nameIn(kEffects, c.effect, "unknown"_L1)},
            {u"sent_instead"_s, c.sentInstead},
            {u"cleared_calls"_s, QJsonArray::fromStringList(c.clearedCallIds)},
        });
    }
    QJsonArray issues;
    for (const ImportIssue &i : s.issues) {
        issues.append(QJsonObject{{u"kind"_s, nameIn(kIssueKinds, i.kind, "note"_L1)},
                                  {u"message"_s, i.messageIndex},
                                  {u"call_id"_s, i.callId},
                                  {u"text"_s, i.text}});
    }
    QJsonArray tools;
    for (const ToolSpec &t : s.tools)
        tools.append(MessageCodec::toJson(t));

    return QJsonObject{
        {u"title"_s, s.title},
        {u"model"_s, s.model},
        {u"window"_s, s.contextWindow > 0 ? QJsonValue(s.contextWindow) : QJsonValue(QJsonValue::Null)},
        {u"window_field"_s, s.windowField},
        {u"message_count"_s, s.messageCount},
        {u"tool_call_count"_s, s.toolCallCount},
        {u"tool_result_count"_s, s.toolResultCount},
        {u"compactions"_s, compactions},
        {u"issues"_s, issues},
        {u"skipped"_s, s.skippedLines},
        {u"problems"_s, QJsonArray::fromStringList(s.problems)},
        {u"record_counts"_s, countsJson(s.recordCounts)},
        {u"ignored_records"_s, countsJson(s.ignoredRecords)},
        {u"tools"_s, tools},
        {u"total_usage"_s, usageJson(s.totalUsage)},
        {u"run_index"_s, s.runIndex},
        {u"run_count"_s, s.runCount},
    };
}

void ImportMetadata::fromJson(const QJsonObject &o, ImportedSession *s)
{
    s->title = o.value(u"title").toString(s->title);
    s->model = o.value(u"model").toString(s->model);
    s->contextWindow = std::max<qint64>(0, o.value(u"window").toInteger(0));
    s->windowField = o.value(u"window_field").toString();
    s->messageCount = o.value(u"message_count").toInt(s->messageCount);
    s->toolCallCount = o.value(u"tool_call_count").toInt(s->toolCallCount);
    s->toolResultCount = o.value(u"tool_result_count").toInt(s->toolResultCount);
    s->compactions.clear();
    for (const QJsonValue &v : o.value(u"compactions").toArray()) {
        const QJsonObject c = v.toObject();
        ExternalCompaction e;
        e.messageIndex = c.value(u"message").toInt();
        e.tokensBefore = countFrom(c.value(u"tokens_before"));
        e.trigger = c.value(u"trigger").toString();
        e.summary = c.value(u"summary").toString();
        e.kind = c.value(u"kind").toString();
        e.timestamp = QDateTime::fromString(c.value(u"timestamp").toString(), Qt::ISODateWithMs);
        e.effect = valueIn(kEffects, c.value(u"effect").toString(), ExternalCompaction::Effect::Unknown);
        e.sentInstead = c.value(u"sent_instead").toString();
        for (const QJsonValue &id : c.value(u"cleared_calls").toArray())
            e.clearedCallIds.append(id.toString());
        s->compactions.append(e);
    }
    s->issues.clear();
    for (const QJsonValue &v : o.value(u"issues").toArray()) {
        const QJsonObject i = v.toObject();
        s->issues.append({valueIn(kIssueKinds, i.value(u"kind").toString(), ImportIssue::Kind::Note), i.value(u"message").toInt(-1),
                          i.value(u"call_id").toString(), i.value(u"text").toString()});
    }
    s->skippedLines = o.value(u"skipped").toInt();
    s->problems.clear();
    for (const QJsonValue &v : o.value(u"problems").toArray())
        s->problems.append(v.toString());
    s->recordCounts = countsFrom(o.value(u"record_counts").toObject());
    s->ignoredRecords = countsFrom(o.value(u"ignored_records").toObject());
    s->tools.clear();
    for (const QJsonValue &v : o.value(u"tools").toArray()) {
        if (const auto spec = MessageCodec::toolSpecFromJson(v.toObject()))
            s->tools.append(*spec);
    }
    s->totalUsage = usageFrom(o.value(u"total_usage").toObject());
    s->runIndex = o.value(u"run_index").toInt();
    s->runCount = o.value(u"run_count").toInt(1);
}

} // namespace wl
