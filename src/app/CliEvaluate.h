#pragma once

#include <QStringList>

namespace wl::cli {

// `waterline-cli evaluate --input FILE_OR_SESSION [--db PATH] [policy options of simulate]
//  [--price-model MODEL] [--json]`: coverage of the needed facts, the facts lost and the cost,
// for the recorded run and for the policy (issue 21).
int runEvaluate(const QStringList &arguments);

} // namespace wl::cli
