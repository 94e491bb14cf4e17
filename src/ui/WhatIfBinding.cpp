#include "WhatIfBinding.h"

#include "thresholds/ThresholdsPanel.h"
#include "thresholds/WhatIfRunner.h"
#include "timeline/TimelineModel.h"

namespace wl {

void bindWhatIf(ThresholdsPanel *panel, WhatIfRunner *runner, TimelineModel *timeline)
{
    QObject::connect(panel, &ThresholdsPanel::policyEdited, runner, [runner, timeline](const CompactionPolicy &policy) {
        timeline->setThresholds({policy.warn, policy.soft, policy.full, policy.emergency});
        runner->request(policy);
    });
    QObject::connect(runner, &WhatIfRunner::resultReady, panel,
                     [panel, timeline](const CompactionPolicy &, const SimulationResult &result, qint64 elapsedMs) {
        QList<WhatIfRow> rows;
        rows.reserve(result.rows.size());
        for (const SimulationRow &row : result.rows)
            rows.append({row.ratioAfter, row.tier});
        timeline->setWhatIf(rows);
        panel->setWhatIfTotals(result.totals, elapsedMs);
    });
}

} // namespace wl
