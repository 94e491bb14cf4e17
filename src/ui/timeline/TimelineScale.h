#pragma once

namespace wl {

// How the chart measures its lines: as a share of one context window, or in tokens.
enum class TimelineScale { Percent, Tokens };
// The timeline's data lines, in drawing order.
enum class TimelineSeries { History, Sent, Reported, WhatIf };

} // namespace wl
