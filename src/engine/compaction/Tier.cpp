#include "Tier.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
struct TierNameEntry
{
    Tier tier;
    QStringView name;
};
constexpr TierNameEntry kTierNames[] = {
    {Tier::None, u"none"},
    {Tier::Warn, u"warn"},
    {Tier::Soft, u"soft"},
    {Tier::Full, u"full"},
    {Tier::Emergency, u"emergency"},
};
} // namespace

QString tierName(Tier tier)
{
    for (const TierNameEntry &entry : kTierNames) {
        if (entry.tier == tier)
            return entry.name.toString();
    }
    return u"none"_s;
}

bool tierFromName(QStringView name, Tier *tier)
{
    for (const TierNameEntry &entry : kTierNames) {
        if (entry.name == name) {
            if (tier)
                *tier = entry.tier;
            return true;
        }
    }
    return false;
}

QString tierDisplayName(Tier tier)
{
    switch (tier) {
    case Tier::None: return QCoreApplication::translate("wl::Tier", "None");
    case Tier::Warn: return QCoreApplication::translate("wl::Tier", "Warn");
    case Tier::Soft: return QCoreApplication::translate("wl::Tier", "Soft");
    case Tier::Full: return QCoreApplication::translate("wl::Tier", "Full");
    case Tier::Emergency: return QCoreApplication::translate("wl::Tier", "Emergency");
    }
    return QCoreApplication::translate("wl::Tier", "None");
}

} // namespace wl
