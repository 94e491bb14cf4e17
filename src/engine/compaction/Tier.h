#pragma once

#include <QString>

namespace wl {

// Compaction tiers; the numbers are what the store and the audit persist.
enum class Tier { None = 0, Warn = 1, Soft = 2, Full = 3, Emergency = 4 };

QString tierName(Tier tier);                       // "none", "warn", "soft", "full", "emergency"
bool tierFromName(QStringView name, Tier *tier);   // inverse of tierName
QString tierDisplayName(Tier tier);                // translated, for the UI

} // namespace wl
