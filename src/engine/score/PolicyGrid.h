#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace wl {

struct CompactionPolicy;

// Settings of one policy of a sweep: option name (PolicyKnobs) and its text, in PolicyKnobs order.
using PolicySettings = QList<std::pair<QString, QString>>;

// A grid of policies (issue 21 item 7): per option of `simulate` (PolicyKnobs names) a list of
// values; the policies are every combination. Read from untrusted JSON:
//   {"full": [0.75, 0.85], "tail": [4, 12], "count-tool-schemas": [true, false]}
// A value that is not an array stands for a list of one. Every value is checked like the option
// would check it, so a bad grid is refused with a message naming the key and the value.
class PolicyGrid
{
public:
    static constexpr qsizetype kMaxPolicies = 4096;

    struct Axis
    {
        QString name;
        QStringList values; // option text
    };

    static std::optional<PolicyGrid> fromJson(const QJsonObject &object, QString *error);
    static std::optional<PolicyGrid> fromJson(const QByteArray &json, QString *error);
    // The grid as JSON again (values as the JSON numbers or strings they came as).
    QJsonObject toJson() const;

    const QList<Axis> &axes() const { return m_axes; }
    // How many policies: the product of the axes' sizes (1 for an empty grid: the base policy).
    qsizetype size() const;
    // Every combination, the last axis changing fastest.
    QList<PolicySettings> expand() const;

    // `settings` put over `policy`; false with a message naming the option when the result is
    // not a valid policy (thresholds that do not rise).
    static bool apply(const PolicySettings &settings, CompactionPolicy &policy, QString *error);
    // Every knob of `policy`, for a policy that is not from a grid (the current one).
    static PolicySettings settingsOf(const CompactionPolicy &policy);
    // "full=0.8 tail=4"
    static QString label(const PolicySettings &settings);

private:
    QList<Axis> m_axes;
    QJsonObject m_json;
};

} // namespace wl
