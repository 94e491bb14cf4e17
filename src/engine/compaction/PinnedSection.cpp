#include "PinnedSection.h"

#include "CompactionPolicy.h"
#include "TokenEstimate.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace wl {

QString PinnedSection::marker()
{
    return u"[Pinned by the user]"_s;
}

QString PinnedSection::text(const QList<Pin> &pins)
{
    if (pins.isEmpty())
        return {};
    QString out = marker();
    out += u"\nKept verbatim through every compaction; follow them unless the user says otherwise.\n"_s;
    int n = 0;
    for (const Pin &pin : pins) {
        out += u"\n### Pin "_s + QString::number(++n) + u" ("_s;
        switch (pin.kind) {
        case Pin::Kind::Message: out += u"message "_s + QString::number(pin.messageId); break;
        case Pin::Kind::Selection: out += u"from message "_s + QString::number(pin.messageId); break;
        case Pin::Kind::Note: out += u"note"_s; break;
        }
        if (pin.source == Pin::Source::Model)
            out += u", proposed by the assistant"_s;
        out += u")\n"_s;
        out += pin.text;
        out += u'\n';
    }
    return out;
}

qint64 PinnedSection::bytes(const QList<Pin> &pins)
{
    return TokenEstimate::utf8Bytes(text(pins));
}

qint64 PinnedSection::tokens(const QList<Pin> &pins)
{
    return TokenEstimate::tokensForBytes(bytes(pins));
}

qint64 PinnedSection::addedTokens(const QList<Pin> &pins, const Pin &pin)
{
    QList<Pin> with = pins;
    with.append(pin);
    return tokens(with) - tokens(pins);
}

qint64 PinnedSection::budgetTokens(const CompactionPolicy &policy, qint64 systemPromptBytes, qint64 toolSchemaBytes)
{
    if (policy.contextWindow <= 0)
        return std::numeric_limits<qint64>::max(); // never compacts: nothing to protect the pins from
    const qint64 warnTokens = qint64(std::floor(policy.warn * double(policy.contextWindow)));
    qint64 fixed = TokenEstimate::tokensForBytes(systemPromptBytes) + policy.reservedOutput;
    if (policy.countToolSchemas)
        fixed += TokenEstimate::tokensForBytes(toolSchemaBytes);
    return std::max<qint64>(0, warnTokens - fixed);
}

QString PinnedSection::refusal(const QList<Pin> &pins, qint64 budget)
{
    const qint64 need = tokens(pins);
    if (need <= budget)
        return {};
    return QCoreApplication::translate("wl::PinnedSection",
                                       "Not pinned: the pins would take %1 tokens, %2 more than the budget of %3 tokens "
                                       "(the Warn threshold of the window minus the system prompt, tool schemas and "
                                       "reserved output). Unpin something or pin less.")
        .arg(need)
        .arg(need - budget)
        .arg(budget);
}

} // namespace wl
