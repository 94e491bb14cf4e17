#pragma once

#include <QtGlobal>

namespace wl {

struct SessionInfo;

// The pin budget of a stored session (docs/COMPACTION.md section 12): PinnedSection::budgetTokens
// for its policy (the defaults when it has none), its system prompt and its tool schemas. The live
// agent uses its own (the same numbers, as it runs them).
class PinBudget
{
public:
    static qint64 forSession(const SessionInfo &info);
};

} // namespace wl
