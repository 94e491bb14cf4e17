#pragma once

#include "whatif/Simulator.h"

#include <QCommandLineOption>
#include <QList>
#include <QString>

#include <optional>
#include <utility>

class QCommandLineParser;

namespace wl {
struct CompactionPolicy;
}

namespace wl::cli {

// --input, --db and --format: where `simulate` and `evaluate` read the recorded session from.
struct SourceOptions
{
    SourceOptions();
    void addTo(QCommandLineParser &parser) const;
    // --input was given and --format names a known format; false with `error`.
    bool check(const QCommandLineParser &parser, QString *error) const;

    QCommandLineOption input, db, format;
};

// The policy options `simulate` and `evaluate` share, in one place: one per PolicyKnobs entry
// (--window, the four thresholds, --tail, both offload gates, --count-tool-schemas, ...), then
// --overhead and --summary.
// Every bad value is a usage error that names its option.
class PolicyOptions
{
public:
    PolicyOptions();

    void addTo(QCommandLineParser &parser) const;
    // Reads and checks what was given; false with `error` on the first bad value.
    bool read(const QCommandLineParser &parser, QString *error);
    // Puts the values given over `policy` (the session's own, or its default) and checks the
    // result, thresholds in rising order included; false with `error`.
    bool applyTo(CompactionPolicy &policy, QString *error) const;

    SummaryModel summaryModel() const { return m_summaryModel; }
    // Tokens every request carried besides its messages and schemas, when given.
    std::optional<qint64> overhead() const { return m_overheadValue; }

private:
    // One option per PolicyKnobs entry, in its order, then the two that are not policy fields.
    QList<QCommandLineOption> m_knobs;
    QCommandLineOption m_overheadOption, m_summary;
    // The knobs given, by name, with their text (checked by read()).
    QList<std::pair<QString, QString>> m_given;
    std::optional<qint64> m_overheadValue;
    SummaryModel m_summaryModel = SummaryModel::extractive();
};

// Parses a replay command's arguments (no positional ones: `positionalError` otherwise), checks the
// source options and reads the policy options. Returns the exit code to stop with, or nothing.
std::optional<int> readReplayArguments(QCommandLineParser &parser, const QStringList &arguments, const QString &positionalError,
                                       const SourceOptions &source, PolicyOptions &policy);

} // namespace wl::cli
