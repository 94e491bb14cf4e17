#pragma once

#include "Pin.h"

#include <QList>
#include <QString>

namespace wl {

struct CompactionPolicy;

// The pinned section of a view (docs/COMPACTION.md section 12): one user message right after the
// system prompt that holds every pin verbatim, and the budget a set of pins must fit in.
class PinnedSection
{
public:
    // The message text: the marker line "[Pinned by the user]", one line of explanation, then per
    // pin a "### Pin <n> (<what>)" line and its text verbatim. Empty for no pins.
    static QString text(const QList<Pin> &pins);
    static qint64 bytes(const QList<Pin> &pins);
    static qint64 tokens(const QList<Pin> &pins);
    // What pinning `pin` besides `pins` adds to the section, in tokens (its text and its heading):
    // the figure "Pin Message" states before the pin is made.
    static qint64 addedTokens(const QList<Pin> &pins, const Pin &pin);

    // The most tokens the pinned section may take: floor(warn * window) minus the system prompt and
    // the tool schemas (when the policy counts them) and the reserved output, never below 0. Pins
    // past it would put every request at Warn or above before the conversation says a word.
    static qint64 budgetTokens(const CompactionPolicy &policy, qint64 systemPromptBytes, qint64 toolSchemaBytes);

    // Empty when `pins` fits a budget of `budgetTokens`, else the message that refuses it, saying by
    // how much.
    static QString refusal(const QList<Pin> &pins, qint64 budgetTokens);

    static QString marker(); // "[Pinned by the user]"
};

} // namespace wl
