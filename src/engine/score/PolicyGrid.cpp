#include "PolicyGrid.h"

#include "compaction/CompactionPolicy.h"
#include "compaction/PolicyKnobs.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

using namespace Qt::StringLiterals;

namespace wl {

std::optional<PolicyGrid> PolicyGrid::fromJson(const QByteArray &json, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = QCoreApplication::translate("PolicyGrid", "the grid is not JSON: %1 at offset %2").arg(parseError.errorString()).arg(parseError.offset);
        return std::nullopt;
    }
    if (!document.isObject()) {
        *error = QCoreApplication::translate("PolicyGrid", "the grid must be a JSON object of option name to a list of values");
        return std::nullopt;
    }
    return fromJson(document.object(), error);
}

std::optional<PolicyGrid> PolicyGrid::fromJson(const QJsonObject &object, QString *error)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!PolicyKnobs::find(it.key())) {
            *error = QCoreApplication::translate("PolicyGrid", "grid key '%1' is not a policy option (known: %2)")
                         .arg(it.key(), PolicyKnobs::names().join(u", "_s));
            return std::nullopt;
        }
    }
    PolicyGrid grid;
    qsizetype size = 1;
    // In the table's order, not the object's (QJsonObject sorts its keys): the rows of a sweep
    // read like the options of `simulate`.
    for (const PolicyKnob &knob : PolicyKnobs::all()) {
        const QString name = QString::fromLatin1(knob.name);
        if (!object.contains(name))
            continue;
        const QJsonValue value = object.value(name);
        const QJsonArray values = value.isArray() ? value.toArray() : QJsonArray{value};
        if (values.isEmpty()) {
            *error = QCoreApplication::translate("PolicyGrid", "grid key '%1' has no values").arg(name);
            return std::nullopt;
        }
        Axis axis{name, {}};
        for (const QJsonValue &v : values) {
            const QString text = PolicyKnobs::optionText(v);
            const QString shown = QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
            if (text.isEmpty()) {
                *error = QCoreApplication::translate("PolicyGrid", "grid key '%1': value %2 is not a number, a string or true/false").arg(name, shown);
                return std::nullopt;
            }
            CompactionPolicy scratch;
            QString problem;
            if (!knob.apply(text, scratch, &problem)) {
                *error = QCoreApplication::translate("PolicyGrid", "grid key '%1': value %2: %3").arg(name, shown, problem);
                return std::nullopt;
            }
            if (!axis.values.contains(text))
                axis.values << text;
        }
        size *= axis.values.size();
        if (size > kMaxPolicies) {
            *error = QCoreApplication::translate("PolicyGrid", "the grid makes more than %1 policies (at key '%2')").arg(kMaxPolicies).arg(name);
            return std::nullopt;
        }
        grid.m_axes << axis;
    }
    grid.m_json = object;
    return grid;
}

QJsonObject PolicyGrid::toJson() const
{
    return m_json;
}

qsizetype PolicyGrid::size() const
{
    qsizetype n = 1;
    for (const Axis &axis : m_axes)
        n *= axis.values.size();
    return n;
}

QList<PolicySettings> PolicyGrid::expand() const
{
    QList<PolicySettings> out;
    const qsizetype n = size();
    out.reserve(n);
    for (qsizetype i = 0; i < n; ++i) {
        PolicySettings settings;
        settings.reserve(m_axes.size());
        qsizetype rest = i;
        for (qsizetype a = m_axes.size() - 1; a >= 0; --a) {
            const Axis &axis = m_axes[a];
            settings.prepend({axis.name, axis.values[rest % axis.values.size()]});
            rest /= axis.values.size();
        }
        out << settings;
    }
    return out;
}

bool PolicyGrid::apply(const PolicySettings &settings, CompactionPolicy &policy, QString *error)
{
    QStringList names;
    for (const auto &[name, value] : settings) {
        const PolicyKnob *knob = PolicyKnobs::find(name);
        if (!knob) {
            *error = QCoreApplication::translate("PolicyGrid", "'%1' is not a policy option").arg(name);
            return false;
        }
        if (!knob->apply(value, policy, error))
            return false;
        names << name;
    }
    const QString problem = PolicyKnobs::check(policy, names);
    if (!problem.isEmpty() && error)
        *error = problem;
    return problem.isEmpty();
}

PolicySettings PolicyGrid::settingsOf(const CompactionPolicy &policy)
{
    PolicySettings out;
    for (const PolicyKnob &knob : PolicyKnobs::all())
        out.append({QString::fromLatin1(knob.name), PolicyKnobs::optionText(knob.read(policy))});
    return out;
}

QString PolicyGrid::label(const PolicySettings &settings)
{
    QStringList parts;
    for (const auto &[name, value] : settings)
        parts << name + u'=' + value;
    return parts.join(u' ');
}

} // namespace wl
