#pragma once

namespace wl {

class ThresholdsPanel;
class TimelineModel;
class WhatIfRunner;

// Wires the Thresholds dock to the what-if replay and the timeline: every edit
// re-runs the simulator (latest wins) and the result lands on the timeline and
// in the totals; the threshold lines follow the edited policy at once.
void bindWhatIf(ThresholdsPanel *panel, WhatIfRunner *runner, TimelineModel *timeline);

} // namespace wl
