#include "CompactionStrategy.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace wl {

QList<CompactionStrategy> allCompactionStrategies()
{
    return {CompactionStrategy::Summarise, CompactionStrategy::Mask, CompactionStrategy::Hybrid};
}

QString strategyName(CompactionStrategy strategy)
{
    switch (strategy) {
    case CompactionStrategy::Summarise: return u"summarise"_s;
    case CompactionStrategy::Mask: return u"mask"_s;
    case CompactionStrategy::Hybrid: return u"hybrid"_s;
    }
    return u"summarise"_s;
}

bool strategyFromName(QStringView name, CompactionStrategy *strategy)
{
    for (CompactionStrategy candidate : allCompactionStrategies()) {
        if (name == strategyName(candidate)) {
            if (strategy)
                *strategy = candidate;
            return true;
        }
    }
    return false;
}

QString strategyDisplayName(CompactionStrategy strategy)
{
    switch (strategy) {
    case CompactionStrategy::Summarise: return QCoreApplication::translate("wl::CompactionStrategy", "Summarise");
    case CompactionStrategy::Mask: return QCoreApplication::translate("wl::CompactionStrategy", "Mask");
    case CompactionStrategy::Hybrid: return QCoreApplication::translate("wl::CompactionStrategy", "Hybrid");
    }
    return QCoreApplication::translate("wl::CompactionStrategy", "Summarise");
}

QString strategyDescription(CompactionStrategy strategy)
{
    switch (strategy) {
    case CompactionStrategy::Summarise:
        return QCoreApplication::translate("wl::CompactionStrategy",
                                           "Soft and Full summarise the older messages (an LLM call); Emergency makes an "
                                           "extractive checkpoint.");
    case CompactionStrategy::Mask:
        return QCoreApplication::translate("wl::CompactionStrategy",
                                           "Soft and Full replace old tool results with placeholders that name their file and "
                                           "never summarise; only Emergency, when masking is not enough, makes an extractive "
                                           "checkpoint.");
    case CompactionStrategy::Hybrid:
        return QCoreApplication::translate("wl::CompactionStrategy",
                                           "Old tool results are masked first; a summary is made only when masking does not "
                                           "bring the context below the tier's threshold.");
    }
    return {};
}

} // namespace wl
