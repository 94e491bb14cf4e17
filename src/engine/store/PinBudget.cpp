#include "PinBudget.h"

#include "SessionInfo.h"
#include "compaction/CompactionPolicy.h"
#include "compaction/PinnedSection.h"
#include "compaction/TokenEstimate.h"
#include "model/MessageCodec.h"

#include <QJsonValue>

namespace wl {

qint64 PinBudget::forSession(const SessionInfo &info)
{
    CompactionPolicy policy;
    if (!info.policy.isEmpty() && !CompactionPolicy::fromJson(info.policy, &policy))
        policy = CompactionPolicy{};
    QList<ToolSpec> tools;
    for (const QJsonValue &tool : info.toolSchemas) {
        if (const auto spec = MessageCodec::toolSpecFromJson(tool.toObject()))
            tools.append(*spec);
    }
    return PinnedSection::budgetTokens(policy, TokenEstimate::utf8Bytes(info.systemPrompt),
                                       TokenEstimate::toolSchemaBytes(tools));
}

} // namespace wl
