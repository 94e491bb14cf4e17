#include "PolicyKnobs.h"

#include "CompactionPolicy.h"
#include "CompactionStrategy.h"

#include "model/BoundedInteger.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

constexpr qint64 kMaxTail = 1'000'000;

QString optionName(const char *name)
{
    return u"--"_s + QLatin1StringView(name);
}

template<auto Field, const char *Name, qint64 Minimum, qint64 Maximum>
bool applyCount(QStringView value, CompactionPolicy &policy, QString *error)
{
    const std::optional<qint64> v = BoundedInteger::fromString(value, Minimum, Maximum, optionName(Name), error);
    if (!v)
        return false;
    policy.*Field = decltype(+(policy.*Field))(*v);
    return true;
}

template<auto Field>
QJsonValue readNumber(const CompactionPolicy &policy)
{
    return double(policy.*Field);
}

template<double CompactionPolicy::*Field, const char *Name>
bool applyFraction(QStringView value, CompactionPolicy &policy, QString *error)
{
    bool ok = false;
    const double v = value.toDouble(&ok);
    if (!ok || !std::isfinite(v) || v <= 0 || v > 1) {
        *error = QCoreApplication::translate("waterline-cli", "%1: '%2' is not a fraction of the window in (0, 1]").arg(optionName(Name), value);
        return false;
    }
    policy.*Field = v;
    return true;
}

template<bool CompactionPolicy::*Field, const char *Name>
bool applyOnOff(QStringView value, CompactionPolicy &policy, QString *error)
{
    if (value != "on"_L1 && value != "off"_L1) {
        *error = QCoreApplication::translate("waterline-cli", "%1: '%2' is not 'on' or 'off'").arg(optionName(Name), value);
        return false;
    }
    policy.*Field = value == "on"_L1;
    return true;
}

template<bool CompactionPolicy::*Field>
QJsonValue readOnOff(const CompactionPolicy &policy)
{
    return policy.*Field ? u"on"_s : u"off"_s;
}

bool applyStrategy(QStringView value, CompactionPolicy &policy, QString *error)
{
    if (!strategyFromName(value, &policy.strategy)) {
        *error = QCoreApplication::translate("waterline-cli", "--strategy: '%1' is not 'summarise', 'mask' or 'hybrid'").arg(value);
        return false;
    }
    return true;
}

QJsonValue readStrategy(const CompactionPolicy &policy)
{
    return strategyName(policy.strategy);
}

constexpr char kWindow[] = "window";
constexpr char kWarn[] = "warn";
constexpr char kSoft[] = "soft";
constexpr char kFull[] = "full";
constexpr char kEmergency[] = "emergency";
constexpr char kTail[] = "tail";
constexpr char kOffload[] = "offload-threshold";
constexpr char kToolTime[] = "offload-at-tool-time";
constexpr char kSchemas[] = "count-tool-schemas";

} // namespace

const QList<PolicyKnob> &PolicyKnobs::all()
{
    using P = CompactionPolicy;
    static const QList<PolicyKnob> knobs{
        {kWindow, "N",
         QT_TRANSLATE_NOOP("waterline-cli", "Context window in tokens (default: the stored session's policy, else the model's window "
                                            "from the model table, else 128000)."),
         applyCount<&P::contextWindow, kWindow, 1, BoundedInteger::maxTokens>, readNumber<&P::contextWindow>},
        {kWarn, "F", QT_TRANSLATE_NOOP("waterline-cli", "Warn threshold, a fraction of the window (default 0.60)."),
         applyFraction<&P::warn, kWarn>, readNumber<&P::warn>},
        {kSoft, "F", QT_TRANSLATE_NOOP("waterline-cli", "Soft threshold (default 0.70)."), applyFraction<&P::soft, kSoft>, readNumber<&P::soft>},
        {kFull, "F", QT_TRANSLATE_NOOP("waterline-cli", "Full threshold (default 0.80)."), applyFraction<&P::full, kFull>, readNumber<&P::full>},
        {kEmergency, "F", QT_TRANSLATE_NOOP("waterline-cli", "Emergency threshold (default 0.95)."), applyFraction<&P::emergency, kEmergency>,
         readNumber<&P::emergency>},
        {kTail, "N", QT_TRANSLATE_NOOP("waterline-cli", "Messages always kept at the end of the view (default 6)."),
         applyCount<&P::tailMessages, kTail, 1, kMaxTail>, readNumber<&P::tailMessages>},
        {kOffload, "BYTES", QT_TRANSLATE_NOOP("waterline-cli", "Tool results larger than this are offloaded at compaction (gate 2, default 4000)."),
         applyCount<&P::offloadAtCompaction, kOffload, 0, BoundedInteger::maxBytes>, readNumber<&P::offloadAtCompaction>},
        {kToolTime, "BYTES",
         QT_TRANSLATE_NOOP("waterline-cli", "Tool results larger than this are offloaded when the tool finishes (gate 1, default 10000)."),
         applyCount<&P::offloadAtToolTime, kToolTime, 0, BoundedInteger::maxBytes>, readNumber<&P::offloadAtToolTime>},
        {kSchemas, "on|off", QT_TRANSLATE_NOOP("waterline-cli", "Count tool schemas in the ratio: on (default) or off."),
         applyOnOff<&P::countToolSchemas, kSchemas>, readOnOff<&P::countToolSchemas>},
        {"strategy", "summarise|mask|hybrid",
         QT_TRANSLATE_NOOP("waterline-cli", "What Soft, Full and Emergency do: summarise (default: the stored session's policy, else "
                                            "summarise), mask (tool results replaced by placeholders, no summaries) or hybrid (mask "
                                            "first, summarise only when masking is not enough)."),
         applyStrategy, readStrategy},
    };
    return knobs;
}

const PolicyKnob *PolicyKnobs::find(QStringView name)
{
    for (const PolicyKnob &knob : all()) {
        if (name == QLatin1StringView(knob.name))
            return &knob;
    }
    return nullptr;
}

QStringList PolicyKnobs::names()
{
    QStringList out;
    for (const PolicyKnob &knob : all())
        out << QLatin1StringView(knob.name);
    return out;
}

QString PolicyKnobs::optionText(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Bool:
        return value.toBool() ? u"on"_s : u"off"_s;
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Double: {
        const double v = value.toDouble();
        // Whole numbers as digits (the integer options refuse exponents), others as the shortest
        // text that reads back the same.
        if (std::isfinite(v) && std::floor(v) == v && std::abs(v) < 9e15)
            return QString::number(qint64(v));
        return QString::number(v, 'g', QLocale::FloatingPointShortest);
    }
    default:
        return {};
    }
}

QString PolicyKnobs::check(const CompactionPolicy &policy, const QStringList &given)
{
    const double fields[4] = {policy.warn, policy.soft, policy.full, policy.emergency};
    const char *const names[4] = {kWarn, kSoft, kFull, kEmergency};
    for (int i = 1; i < 4; ++i) {
        if (fields[i] >= fields[i - 1])
            continue;
        const QString low = QLatin1StringView(names[i]);
        const QString high = QLatin1StringView(names[i - 1]);
        if (given.contains(low))
            return QCoreApplication::translate("waterline-cli", "--%1: %2 is below the %3 threshold %4 (need warn <= soft <= full <= emergency)")
                .arg(low).arg(fields[i]).arg(high).arg(fields[i - 1]);
        return QCoreApplication::translate("waterline-cli", "--%1: %2 is above the %3 threshold %4 (need warn <= soft <= full <= emergency)")
            .arg(high).arg(fields[i - 1]).arg(low).arg(fields[i]);
    }
    return policy.validate();
}

} // namespace wl
