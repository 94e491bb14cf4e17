#pragma once

#include "tools/Tool.h"

namespace wl {

// pin_fact(text, reason): the model proposes a pin (docs/COMPACTION.md section 12), a fact that must
// survive every compaction verbatim. It changes what every later request carries, so it asks like a
// write; on approval the text becomes a pin of the session (ToolContext::pinFact).
class PinFactTool : public Tool
{
    Q_DECLARE_TR_FUNCTIONS(wl::PinFactTool)
public:
    // Longer text is refused before it reaches the user: a pin is a fact, not a document.
    static constexpr qsizetype kMaxTextChars = 2000;

    ToolSpec spec() const override;
    ApprovalKind approvalKind() const override { return ApprovalKind::Write; }

protected:
    ToolRun *run(const QJsonObject &arguments, const ToolContext &context, QObject *parent) override;
    void describe(const QJsonObject &arguments, const ToolContext &context, ApprovalRequest &request) const override;
};

} // namespace wl
