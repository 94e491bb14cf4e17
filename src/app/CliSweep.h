#pragma once

#include <QString>

class QCommandLineParser;

namespace wl::cli {

struct SourceOptions;
class PolicyOptions;

// `waterline-cli evaluate --sweep GRID.json ...`: every policy of the grid scored over the session
// (or every transcript of a folder), one row per policy with evaluate's fields, the policy and
// whether it is on the Pareto front of coverage against cost (issue 21 item 11).
int runSweep(const QCommandLineParser &parser, const SourceOptions &source, const PolicyOptions &policy, const QString &gridPath,
             int runIndex, const QString &priceModel, bool json);

} // namespace wl::cli
