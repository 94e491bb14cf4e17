#pragma once

#include "compaction/Tier.h"

#include <QColor>

namespace wl {

// The one colour per tier used by the timeline, the gauge, markers and tables.
QColor tierColor(Tier tier);

} // namespace wl
