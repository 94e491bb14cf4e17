#pragma once

#include "compaction/Anchors.h"

#include <QString>

namespace wl {

// The anchors after one compaction record, and how each changed (the inspector's time line).
struct AnchorHistoryEntry
{
    QString recordId;
    int requestIndex = 0;
    Anchors anchors;
    std::array<AnchorChange, kAnchorCount> changes{};

    friend bool operator==(const AnchorHistoryEntry &, const AnchorHistoryEntry &) = default;
};

} // namespace wl
