#include "CliPolicyOptions.h"

#include "CliCommands.h"

#include "compaction/CompactionPolicy.h"
#include "compaction/PolicyKnobs.h"
#include "model/BoundedInteger.h"
#include "replay/TranscriptFormats.h"

#include <QCommandLineParser>
#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace wl::cli {


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

namespace {
QList<QCommandLineOption> knobOptions()
{
    QList<QCommandLineOption> options;
    for (const PolicyKnob &knob : PolicyKnobs::all())
        options.append(QCommandLineOption(QString::fromLatin1(knob.name), QCoreApplication::translate("waterline-cli", knob.description),
                                          QString::fromLatin1(knob.valueName)));
    return options;
}
} // namespace

PolicyOptions::PolicyOptions()
    : m_knobs(knobOptions())
    , m_overheadOption(u"overhead"_s, QCoreApplication::translate("waterline-cli", "Tokens every request carried besides its messages and tool schemas (default: estimated "
                                    "from the reported input tokens for transcripts without their system prompt or tools; 0 for none)."),
                  u"TOKENS"_s)
    , m_summary(u"summary"_s, QCoreApplication::translate("waterline-cli", "How new summaries are made: extractive (default), or size:TOKENS for a fixed size "
                                 "('size' alone: the mean of the source's own summaries, else 600)."),
                u"MODEL"_s, u"extractive"_s)
{
}

void PolicyOptions::addTo(QCommandLineParser &parser) const
{
    parser.addOptions(m_knobs);
    parser.addOptions({m_overheadOption, m_summary});
}

bool PolicyOptions::read(const QCommandLineParser &parser, QString *error)
{
    // Each value is checked alone here (on a scratch policy), together with the others in applyTo().
    m_given.clear();
    for (qsizetype i = 0; i < m_knobs.size(); ++i) {
        const QCommandLineOption &o = m_knobs[i];
        if (!parser.isSet(o))
            continue;
        CompactionPolicy scratch;
        const QString value = parser.value(o);
        if (!PolicyKnobs::all()[i].apply(value, scratch, error))
            return false;
        m_given.append({o.names().constFirst(), value});
    }
    if (parser.isSet(m_overheadOption)
        && !(m_overheadValue = BoundedInteger::fromString(parser.value(m_overheadOption), 0, BoundedInteger::maxTokens, u"--overhead"_s, error)))
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
    return true;
}

bool PolicyOptions::applyTo(CompactionPolicy &policy, QString *error) const
{
    QStringList names;
    for (const auto &[name, value] : m_given) {
        if (!PolicyKnobs::find(name)->apply(value, policy, error))
            return false;
        names << name;
    }
    // Thresholds must rise; the message names the option given on the command line.
    if (const QString problem = PolicyKnobs::check(policy, names); !problem.isEmpty()) {
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
