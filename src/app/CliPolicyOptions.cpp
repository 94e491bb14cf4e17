#include "CliPolicyOptions.h"

#include "CliCommands.h"

#include "compaction/CompactionPolicy.h"
#include "model/BoundedInteger.h"
#include "replay/TranscriptFormats.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <cmath>

using namespace Qt::StringLiterals;

namespace wl::cli {

namespace {
constexpr qint64 maxTail = 1'000'000;

std::optional<double> parseThreshold(const QString &option, const QString &value, QString *error)
{
    bool ok = false;
    const double v = value.toDouble(&ok);
    if (!ok || !std::isfinite(v) || v <= 0 || v > 1) {
        *error = QCoreApplication::translate("waterline-cli", "%1: '%2' is not a fraction of the window in (0, 1]").arg(option, value);
        return std::nullopt;
    }
    return v;
}
} // namespace

SourceOptions::SourceOptions()
    : input(u"input"_s, QCoreApplication::translate("waterline-cli", "Transcript file, or session id with --db."), u"FILE_OR_SESSION"_s)
    , db(u"db"_s, QCoreApplication::translate("waterline-cli", "Session database holding the session."), u"PATH"_s)
    , format(u"format"_s, QCoreApplication::translate("waterline-cli", "Transcript format: auto (default), %1.").arg(TranscriptFormats::formats().join(u", "_s)),
             u"F"_s, u"auto"_s)
{
}

void SourceOptions::addTo(QCommandLineParser &parser) const
{
    parser.addOptions({input, db, format});
}

bool SourceOptions::check(const QCommandLineParser &parser, QString *error) const
{
    if (!parser.isSet(input)) {
        *error = QCoreApplication::translate("waterline-cli", "--input is required");
        return false;
    }
    const QString name = parser.value(format);
    if (name != "auto"_L1 && !TranscriptFormats::formats().contains(name)) {
        *error = QCoreApplication::translate("waterline-cli", "--format: unknown format '%1' (known: auto, %2)").arg(name, TranscriptFormats::formats().join(u", "_s));
        return false;
    }
    return true;
}

PolicyOptions::PolicyOptions()
    : m_window(u"window"_s, QCoreApplication::translate("waterline-cli", "Context window in tokens (default: the stored session's policy, else the model's window "
                               "from the model table, else 128000)."), u"N"_s)
    , m_warn(u"warn"_s, QCoreApplication::translate("waterline-cli", "Warn threshold, a fraction of the window (default 0.60)."), u"F"_s)
    , m_soft(u"soft"_s, QCoreApplication::translate("waterline-cli", "Soft threshold (default 0.70)."), u"F"_s)
    , m_full(u"full"_s, QCoreApplication::translate("waterline-cli", "Full threshold (default 0.80)."), u"F"_s)
    , m_emergency(u"emergency"_s, QCoreApplication::translate("waterline-cli", "Emergency threshold (default 0.95)."), u"F"_s)
    , m_tail(u"tail"_s, QCoreApplication::translate("waterline-cli", "Messages always kept at the end of the view (default 6)."), u"N"_s)
    , m_offload(u"offload-threshold"_s, QCoreApplication::translate("waterline-cli", "Tool results larger than this are offloaded at compaction (gate 2, default 4000)."), u"BYTES"_s)
    , m_toolTime(u"offload-at-tool-time"_s, QCoreApplication::translate("waterline-cli", "Tool results larger than this are offloaded when the tool finishes (gate 1, default 10000)."),
                 u"BYTES"_s)
    , m_overheadOption(u"overhead"_s, QCoreApplication::translate("waterline-cli", "Tokens every request carried besides its messages and tool schemas (default: estimated "
                                    "from the reported input tokens for transcripts without their system prompt or tools; 0 for none)."),
                  u"TOKENS"_s)
    , m_summary(u"summary"_s, QCoreApplication::translate("waterline-cli", "How new summaries are made: extractive (default), or size:TOKENS for a fixed size "
                                 "('size' alone: the mean of the source's own summaries, else 600)."),
                u"MODEL"_s, u"extractive"_s)
    , m_schemas(u"count-tool-schemas"_s, QCoreApplication::translate("waterline-cli", "Count tool schemas in the ratio: on (default) or off."), u"on|off"_s)
    , m_strategy(u"strategy"_s, QCoreApplication::translate("waterline-cli", "What Soft, Full and Emergency do: summarise (default: the stored session's "
                                  "policy, else summarise), mask (tool results replaced by placeholders, no summaries) or hybrid "
                                  "(mask first, summarise only when masking is not enough)."),
                 u"summarise|mask|hybrid"_s)
{
}

void PolicyOptions::addTo(QCommandLineParser &parser) const
{
    parser.addOptions({m_window, m_warn, m_soft, m_full, m_emergency, m_tail, m_offload, m_toolTime, m_overheadOption, m_summary, m_schemas, m_strategy});
}

bool PolicyOptions::read(const QCommandLineParser &parser, QString *error)
{
    auto count = [&](const QCommandLineOption &o, qint64 minimum, qint64 maximum, std::optional<qint64> *out) {
        if (!parser.isSet(o))
            return true;
        *out = BoundedInteger::fromString(parser.value(o), minimum, maximum, u"--"_s + o.names().constFirst(), error);
        return out->has_value();
    };
    if (!count(m_window, 1, BoundedInteger::maxTokens, &m_windowValue))
        return false;
    const QCommandLineOption *thresholds[4] = {&m_warn, &m_soft, &m_full, &m_emergency};
    for (int i = 0; i < 4; ++i) {
        const QCommandLineOption &o = *thresholds[i];
        if (parser.isSet(o) && !(m_thresholds[i] = parseThreshold(u"--"_s + o.names().constFirst(), parser.value(o), error)))
            return false;
    }
    if (!count(m_tail, 1, maxTail, &m_tailValue) || !count(m_offload, 0, BoundedInteger::maxBytes, &m_offloadValue)
        || !count(m_toolTime, 0, BoundedInteger::maxBytes, &m_toolTimeValue)
        || !count(m_overheadOption, 0, BoundedInteger::maxTokens, &m_overheadValue))
        return false;
    if (const QString s = parser.value(m_summary); s == "size"_L1) {
        m_summaryModel = SummaryModel::fixedSize();
    } else if (s.startsWith("size:"_L1)) {
        const auto tokens = BoundedInteger::fromString(s.mid(5), 1, BoundedInteger::maxTokens, u"--summary size"_s, error);
        if (!tokens)
            return false;
        m_summaryModel = SummaryModel::fixedSize(*tokens);
    } else if (s != "extractive"_L1) {
        *error = QCoreApplication::translate("waterline-cli", "--summary: '%1' is not 'extractive' or 'size:TOKENS'").arg(s);
        return false;
    }
    if (parser.isSet(m_schemas)) {
        const QString v = parser.value(m_schemas);
        if (v != "on"_L1 && v != "off"_L1) {
            *error = QCoreApplication::translate("waterline-cli", "--count-tool-schemas: '%1' is not 'on' or 'off'").arg(v);
            return false;
        }
        m_countSchemas = v == "on"_L1;
    }
    if (parser.isSet(m_strategy)) {
        CompactionStrategy strategy = CompactionStrategy::Summarise;
        if (!strategyFromName(parser.value(m_strategy), &strategy)) {
            *error = QCoreApplication::translate("waterline-cli", "--strategy: '%1' is not 'summarise', 'mask' or 'hybrid'").arg(parser.value(m_strategy));
            return false;
        }
        m_strategyValue = strategy;
    }
    return true;
}

bool PolicyOptions::applyTo(CompactionPolicy &policy, QString *error) const
{
    if (m_windowValue)
        policy.contextWindow = *m_windowValue;
    double *fields[4] = {&policy.warn, &policy.soft, &policy.full, &policy.emergency};
    for (int i = 0; i < 4; ++i) {
        if (m_thresholds[i])
            *fields[i] = *m_thresholds[i];
    }
    // Thresholds must rise; the message names the option given on the command line.
    const QCommandLineOption *options[4] = {&m_warn, &m_soft, &m_full, &m_emergency};
    for (int i = 1; i < 4; ++i) {
        if (*fields[i] >= *fields[i - 1])
            continue;
        const QString low = options[i]->names().constFirst();
        const QString high = options[i - 1]->names().constFirst();
        if (m_thresholds[i])
            *error = QCoreApplication::translate("waterline-cli", "--%1: %2 is below the %3 threshold %4 (need warn <= soft <= full <= emergency)")
                         .arg(low).arg(*fields[i]).arg(high).arg(*fields[i - 1]);
        else
            *error = QCoreApplication::translate("waterline-cli", "--%1: %2 is above the %3 threshold %4 (need warn <= soft <= full <= emergency)")
                         .arg(high).arg(*fields[i - 1]).arg(low).arg(*fields[i]);
        return false;
    }
    if (m_tailValue)
        policy.tailMessages = int(*m_tailValue);
    if (m_offloadValue)
        policy.offloadAtCompaction = *m_offloadValue;
    if (m_toolTimeValue)
        policy.offloadAtToolTime = *m_toolTimeValue;
    if (m_countSchemas)
        policy.countToolSchemas = *m_countSchemas;
    if (m_strategyValue)
        policy.strategy = *m_strategyValue;
    if (const QString problem = policy.validate(); !problem.isEmpty()) {
        *error = problem;
        return false;
    }
    return true;
}

std::optional<int> readReplayArguments(QCommandLineParser &parser, const QStringList &arguments, const QString &positionalError,
                                       const SourceOptions &source, PolicyOptions &policy)
{
    if (const std::optional<int> stop = parseArguments(parser, arguments, 0, positionalError))
        return stop;
    QString problem;
    if (!source.check(parser, &problem) || !policy.read(parser, &problem))
        return usageError(problem);
    return std::nullopt;
}

} // namespace wl::cli
