#include "TierStyle.h"

namespace wl {

QColor tierColor(Tier tier)
{
    switch (tier) {
    case Tier::None: return QColor(0x71, 0x80, 0x96);
    case Tier::Warn: return QColor(0xd6, 0x9e, 0x2e);
    case Tier::Soft: return QColor(0xdd, 0x6b, 0x20);
    case Tier::Full: return QColor(0xe5, 0x3e, 0x3e);
    case Tier::Emergency: return QColor(0x80, 0x5a, 0xd5);
    }
    return QColor(Qt::gray);
}

} // namespace wl
