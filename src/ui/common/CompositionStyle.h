#pragma once

#include "compaction/ViewComposition.h"

#include <QColor>
#include <QString>

class QPalette;

namespace wl {

// How every view shows a request's composition (ViewComposition): one colour and one name per
// part, shared by the timeline's stacked areas, the Context dock's bar and the gauge's tooltip.
// The colours keep clear of the tier colours (TierStyle), which the thresholds draw over them.
QColor compositionColor(ViewComposition::Part part, const QPalette &palette);
QString compositionPartName(ViewComposition::Part part);

// One line per part that is not empty, largest share of the window last read top to bottom:
// "History: 12,345 tokens (9.6%)", then the window and, when over it, by how much.
// `html`: each line starts with a square in the part's colour (for a tooltip or a rich label).
QString compositionFigures(const ViewComposition &composition, const QPalette &palette, bool html);

} // namespace wl
