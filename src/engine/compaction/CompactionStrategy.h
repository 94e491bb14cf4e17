#pragma once

#include <QList>
#include <QString>

namespace wl {

// What Soft, Full and Emergency do to the head (docs/COMPACTION.md section 4): summarise it (the
// tiers as they always were), mask its tool results with placeholders and never summarise
// (observation masking), or mask first and summarise only when masking is not enough.
enum class CompactionStrategy { Summarise = 0, Mask = 1, Hybrid = 2 };

QList<CompactionStrategy> allCompactionStrategies();
QString strategyName(CompactionStrategy strategy);                        // "summarise", "mask", "hybrid"
bool strategyFromName(QStringView name, CompactionStrategy *strategy);    // inverse of strategyName
QString strategyDisplayName(CompactionStrategy strategy);                 // translated, for the UI
QString strategyDescription(CompactionStrategy strategy);                 // translated, one sentence (tooltips)

} // namespace wl
