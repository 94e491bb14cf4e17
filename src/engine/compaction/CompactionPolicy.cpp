#include "CompactionPolicy.h"

#include <algorithm>

#include "model/BoundedInteger.h"

#include <QCoreApplication>
#include <QJsonValue>

#include <cmath>
#include <limits>
#include <type_traits>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

bool inUnitInterval(double v)
{
    return std::isfinite(v) && v > 0 && v <= 1;
}

} // namespace

QString CompactionPolicy::validate() const
{
    const struct { const char *name; double value; } thresholds[] = {
        {"warn", warn}, {"soft", soft}, {"full", full}, {"emergency", emergency}};
    for (const auto &t : thresholds) {
        if (!inUnitInterval(t.value))
            return QCoreApplication::translate("CompactionPolicy", "%1 threshold %2 is outside (0, 1]").arg(QLatin1StringView(t.name)).arg(t.value);
    }
    for (size_t i = 1; i < std::size(thresholds); ++i) {
        if (thresholds[i].value < thresholds[i - 1].value)
            return QCoreApplication::translate("CompactionPolicy", "%1 threshold %2 is below the %3 threshold %4")
                .arg(QLatin1StringView(thresholds[i].name)).arg(thresholds[i].value)
                .arg(QLatin1StringView(thresholds[i - 1].name)).arg(thresholds[i - 1].value);
    }
    if (tailMessages < 1)
        return QCoreApplication::translate("CompactionPolicy", "tailMessages %1 must be at least 1").arg(tailMessages);
    if (offloadAtToolTime < 0)
        return QCoreApplication::translate("CompactionPolicy", "offloadAtToolTime %1 must not be negative").arg(offloadAtToolTime);
    if (offloadAtCompaction < 0)
        return QCoreApplication::translate("CompactionPolicy", "offloadAtCompaction %1 must not be negative").arg(offloadAtCompaction);
    if (previewLinesToolTime < 0)
        return QCoreApplication::translate("CompactionPolicy", "previewLinesToolTime %1 must not be negative").arg(previewLinesToolTime);
    if (previewLinesCompaction < 0)
        return QCoreApplication::translate("CompactionPolicy", "previewLinesCompaction %1 must not be negative").arg(previewLinesCompaction);
    if (summaryTimeoutMs <= 0)
        return QCoreApplication::translate("CompactionPolicy", "summaryTimeoutMs %1 must be positive").arg(summaryTimeoutMs);
    if (reservedOutput < 0)
        return QCoreApplication::translate("CompactionPolicy", "reservedOutput %1 must not be negative").arg(reservedOutput);
    return {};
}

double &CompactionPolicy::thresholdAt(int which)
{
    switch (which) {
    case 0: return warn;
    case 1: return soft;
    case 2: return full;
    default: return emergency;
    }
}

void ThresholdOrder::reset(const CompactionPolicy &policy)
{
    for (int i = 0; i < 4; ++i)
        m_wanted[size_t(i)] = policy.thresholdAt(i);
}

void ThresholdOrder::set(CompactionPolicy &policy, int which, double value)
{
    which = std::clamp(which, 0, 3);
    value = std::clamp(value, 0.001, 1.0);
    m_wanted[size_t(which)] = value;
    policy.thresholdAt(which) = value;
    for (int i = which + 1; i < 4; ++i)
        policy.thresholdAt(i) = std::max(m_wanted[size_t(i)], policy.thresholdAt(i - 1));
    for (int i = which - 1; i >= 0; --i)
        policy.thresholdAt(i) = std::min(m_wanted[size_t(i)], policy.thresholdAt(i + 1));
}

Tier CompactionPolicy::tierFor(double ratio) const
{
    if (contextWindow <= 0)
        return Tier::None;
    if (ratio >= emergency)
        return Tier::Emergency;
    if (ratio >= full)
        return Tier::Full;
    if (ratio >= soft)
        return Tier::Soft;
    if (ratio >= warn)
        return Tier::Warn;
    return Tier::None;
}

double CompactionPolicy::threshold(Tier tier) const
{
    switch (tier) {
    case Tier::None: return 0;
    case Tier::Warn: return warn;
    case Tier::Soft: return soft;
    case Tier::Full: return full;
    case Tier::Emergency: return emergency;
    }
    return 0;
}

double CompactionPolicy::maskTarget(Tier tier) const
{
    switch (tier) {
    case Tier::Soft: return soft;
    case Tier::Full:
    case Tier::Emergency: return full;
    case Tier::None:
    case Tier::Warn: return 0;
    }
    return 0;
}

QJsonObject CompactionPolicy::toJson() const
{
    return QJsonObject{
        {u"context_window"_s, double(contextWindow)},
        {u"warn"_s, warn},
        {u"soft"_s, soft},
        {u"full"_s, full},
        {u"emergency"_s, emergency},
        {u"tail_messages"_s, tailMessages},
        {u"offload_at_tool_time"_s, double(offloadAtToolTime)},
        {u"offload_at_compaction"_s, double(offloadAtCompaction)},
        {u"preview_lines_tool_time"_s, previewLinesToolTime},
        {u"preview_lines_compaction"_s, previewLinesCompaction},
        {u"summary_timeout_ms"_s, summaryTimeoutMs},
        {u"reserved_output"_s, double(reservedOutput)},
        {u"count_tool_schemas"_s, countToolSchemas},
        {u"review_summaries"_s, reviewSummaries},
        {u"strategy"_s, strategyName(strategy)},
    };
}

bool CompactionPolicy::fromJson(const QJsonObject &object, CompactionPolicy *policy, QString *error)
{
    CompactionPolicy p;
    QString problem;
    auto fraction = [&](QLatin1StringView key, double *target) {
        const QJsonValue v = object.value(key);
        if (v.isUndefined() || !problem.isEmpty())
            return;
        if (!v.isDouble()) {
            problem = QCoreApplication::translate("CompactionPolicy", "%1 must be a number").arg(key);
            return;
        }
        *target = v.toDouble(); // validate() checks the range
    };
    // Whole numbers are range-checked before they are converted: 1e300 or 2^63 would be
    // undefined behaviour as an integer, and a negative window is never meant.
    auto whole = [&](QLatin1StringView key, auto *target, qint64 minimum, qint64 maximum) {
        const QJsonValue v = object.value(key);
        if (v.isUndefined() || !problem.isEmpty())
            return;
        if (const auto read = BoundedInteger::fromJson(v, minimum, maximum, QString(key), &problem))
            *target = std::remove_pointer_t<decltype(target)>(*read);
    };
    constexpr qint64 maxCount = 1'000'000;
    whole("context_window"_L1, &p.contextWindow, 0, BoundedInteger::maxTokens);
    fraction("warn"_L1, &p.warn);
    fraction("soft"_L1, &p.soft);
    fraction("full"_L1, &p.full);
    fraction("emergency"_L1, &p.emergency);
    whole("tail_messages"_L1, &p.tailMessages, 1, maxCount);
    whole("offload_at_tool_time"_L1, &p.offloadAtToolTime, 0, BoundedInteger::maxBytes);
    whole("offload_at_compaction"_L1, &p.offloadAtCompaction, 0, BoundedInteger::maxBytes);
    whole("preview_lines_tool_time"_L1, &p.previewLinesToolTime, 0, maxCount);
    whole("preview_lines_compaction"_L1, &p.previewLinesCompaction, 0, maxCount);
    whole("summary_timeout_ms"_L1, &p.summaryTimeoutMs, 1, std::numeric_limits<int>::max());
    whole("reserved_output"_L1, &p.reservedOutput, 0, BoundedInteger::maxTokens);
    const QJsonValue schemas = object.value("count_tool_schemas"_L1);
    if (problem.isEmpty() && !schemas.isUndefined()) {
        if (schemas.isBool())
            p.countToolSchemas = schemas.toBool();
        else
            problem = QCoreApplication::translate("CompactionPolicy", "count_tool_schemas must be true or false");
    }
    const QJsonValue review = object.value("review_summaries"_L1);
    if (problem.isEmpty() && !review.isUndefined()) {
        if (review.isBool())
            p.reviewSummaries = review.toBool();
        else
            problem = QCoreApplication::translate("CompactionPolicy", "review_summaries must be true or false");
    }
    // Missing (a policy saved before strategies existed): summarise, what it ran with.
    const QJsonValue strategy = object.value("strategy"_L1);
    if (problem.isEmpty() && !strategy.isUndefined() && !(strategy.isString() && strategyFromName(strategy.toString(), &p.strategy)))
        problem = QCoreApplication::translate("CompactionPolicy", "strategy must be one of summarise, mask, hybrid");
    if (problem.isEmpty())
        problem = p.validate();
    if (!problem.isEmpty()) {
        if (error)
            *error = problem;
        return false;
    }
    *policy = p;
    return true;
}

} // namespace wl
